# compiler/rules.mk: the tessel compiler: front end (issue 5) and quantisation (issue 6).
#
#   build/bin/tessel         the CLI (HOST_CFLAGS)
#   build/bin/tessel-asan    the same sources under SAN_FLAGS, used by every test
#   make test-filecheck      FileCheck-14 tests in tests/compiler/*.tir|*.test
#   make test-compiler-unit  cmocka: IR, arena failure injection, parser, verifier
#   make test-import         every model in tests/models/MANIFEST + bad models
#   make test-cli            bad command lines
#   make test-fuzz-import-short  ~20 s seeded libFuzzer run of the importer
#   make fuzz-import         long libFuzzer run (IMPORT_FUZZ_TIME seconds)
#   make bench-compiler      import / passes / reference times on the torchvision nets
#   make bench-compile-scale opt / compile times of 2k, 10k, 20k-node chains
#   make test-quant-unit     cmocka: int8 reference hand-computed cases, multipliers, OOM injection
#   (quantisation suites and bench-quant: see the end of this file)
#   make test-fuzz-parse-ir-short  ~10 s run of the textual IR parser (round-trip property)
#   make fuzz-parse-ir       long run of the same (IMPORT_FUZZ_TIME seconds)
#
# The protobuf-c bindings are generated at build time from Debian's onnx.proto.

ONNX_PROTO       := /usr/include/onnx/onnx.proto
COMPILER_GEN     := $(BUILD)/gen/onnx
COMPILER_OBJ     := $(BUILD)/obj/compiler
COMPILER_OBJ_SAN := $(BUILD)/obj/compiler-asan
IMPORT_FUZZ_TIME ?= $(FUZZ_TIME)

# Library sources: everything in compiler/ except the CLI's main.
# The int8 reference shares the NPU's integer arithmetic with the C model:
# one source for rounding (sim/npu-model/npu_arith.c, owned by the NPU model).
NPU_ARITH_SRC     := sim/npu-model/npu_arith.c
COMPILER_LIB_SRCS := $(filter-out compiler/main.c,$(wildcard compiler/*.c)) $(NPU_ARITH_SRC)
COMPILER_CFLAGS   := $(HOST_CFLAGS) -Icompiler -Isim/npu-model -I$(COMPILER_GEN) -MMD -MP
# Generated code is not ours to warn about beyond what it compiles with.
COMPILER_GEN_CFLAGS := -std=c11 -O2 -g -I$(COMPILER_GEN)

COMPILER_LIB_OBJS     := $(patsubst compiler/%.c,$(COMPILER_OBJ)/%.o,$(filter compiler/%,$(COMPILER_LIB_SRCS))) \
                         $(COMPILER_OBJ)/npu_arith.o \
                         $(COMPILER_OBJ)/onnx.pb-c.o
COMPILER_LIB_OBJS_SAN := $(patsubst compiler/%.c,$(COMPILER_OBJ_SAN)/%.o,$(filter compiler/%,$(COMPILER_LIB_SRCS))) \
                         $(COMPILER_OBJ_SAN)/npu_arith.o \
                         $(COMPILER_OBJ_SAN)/onnx.pb-c.o
include compiler/tpkg.mk
include compiler/profile.mk
include compiler/lower.mk
include compiler/run.mk
include compiler/digits.mk
include compiler/tune.mk

ALL         += $(BIN)/tessel $(BIN)/tessel-asan
TEST_SUITES += compiler-unit filecheck import cli fuzz-import-short fuzz-parse-ir-short
FUZZERS     += import parse-ir
BENCHES     += compiler

.PHONY: test-compiler-unit test-filecheck test-import test-cli test-fuzz-import-short fuzz-import \
        test-fuzz-parse-ir-short fuzz-parse-ir

$(COMPILER_GEN)/onnx.pb-c.c $(COMPILER_GEN)/onnx.pb-c.h &: $(ONNX_PROTO)
	@mkdir -p $(COMPILER_GEN)
	protoc-c --c_out=$(COMPILER_GEN) -I$(dir $(ONNX_PROTO)) $(ONNX_PROTO)
	@touch $(COMPILER_GEN)/onnx.pb-c.c $(COMPILER_GEN)/onnx.pb-c.h

$(COMPILER_OBJ)/%.o: compiler/%.c | $(COMPILER_GEN)/onnx.pb-c.h
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -c $< -o $@

$(COMPILER_OBJ_SAN)/%.o: compiler/%.c | $(COMPILER_GEN)/onnx.pb-c.h
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -DTESSEL_TEST_BUILD -c $< -o $@

$(COMPILER_OBJ)/npu_arith.o: $(NPU_ARITH_SRC)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -c $< -o $@

$(COMPILER_OBJ_SAN)/npu_arith.o: $(NPU_ARITH_SRC)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(COMPILER_OBJ)/onnx.pb-c.o: $(COMPILER_GEN)/onnx.pb-c.c
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_GEN_CFLAGS) -c $< -o $@

$(COMPILER_OBJ_SAN)/onnx.pb-c.o: $(COMPILER_GEN)/onnx.pb-c.c
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_GEN_CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(BIN)/tessel: $(COMPILER_OBJ)/main.o $(COMPILER_LIB_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $^ -lprotobuf-c -lm

$(BIN)/tessel-asan: $(COMPILER_OBJ_SAN)/main.o $(COMPILER_LIB_OBJS_SAN)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -o $@ $^ -lprotobuf-c -lm

-include $(wildcard $(COMPILER_OBJ)/*.d $(COMPILER_OBJ_SAN)/*.d)

# ---- tests ----

test-filecheck: $(BIN)/tessel-asan
	@bash tests/compiler/lit.sh $(BIN)/tessel-asan $(sort $(wildcard tests/compiler/filecheck/*.tir tests/compiler/filecheck/*.test))

COMPILER_TEST_OBJ := $(BUILD)/obj/compiler-tests

$(COMPILER_TEST_OBJ)/npy-close: tests/compiler/npy_close.c compiler/npy.c compiler/npy.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Icompiler -o $@ tests/compiler/npy_close.c compiler/npy.c -lm

test-import: $(BIN)/tessel-asan $(COMPILER_TEST_OBJ)/npy-close
	@bash tests/compiler/import.sh $(BIN)/tessel-asan $(COMPILER_TEST_OBJ)/npy-close

test-cli: $(BIN)/tessel-asan
	@bash tests/compiler/cli.sh $(BIN)/tessel-asan

$(COMPILER_TEST_OBJ)/test-compiler: tests/compiler/test_compiler.c $(COMPILER_LIB_OBJS_SAN)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -DINPUTS_DIR='"$(CURDIR)/tests/compiler/inputs"' \
	  -o $@ $< $(COMPILER_LIB_OBJS_SAN) -lcmocka -lprotobuf-c -lm

test-compiler-unit: $(COMPILER_TEST_OBJ)/test-compiler
	$(COMPILER_TEST_OBJ)/test-compiler

# ---- fuzzing (clang, libFuzzer) ----
# New inputs go to a scratch corpus under build/; the committed models are the seeds.
IMPORT_FUZZ_SRCS  := tests/compiler/fuzz_import.c $(COMPILER_LIB_SRCS)
IMPORT_FUZZ_FLAGS := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DTESSEL_VERSION='"$(TESSEL_VERSION)"'
IMPORT_FUZZ_ARGS   = -seed=1 -max_len=65536 -timeout=20 -rss_limit_mb=2048 -dict=tests/compiler/onnx.dict \
  -artifact_prefix=$(COMPILER_TEST_OBJ)/ $(COMPILER_TEST_OBJ)/import-corpus \
  tests/models/ops tests/models/bad tests/models/quant tests/compiler/inputs

$(COMPILER_TEST_OBJ)/fuzz-import: $(IMPORT_FUZZ_SRCS) $(wildcard compiler/*.h) $(COMPILER_GEN)/onnx.pb-c.c
	@mkdir -p $(@D)
	clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE -DTESSEL_TEST_BUILD \
	  -Icompiler -Isim/npu-model -I$(COMPILER_GEN) $(IMPORT_FUZZ_FLAGS) -o $@ $(IMPORT_FUZZ_SRCS) \
	  -Wno-error $(COMPILER_GEN)/onnx.pb-c.c -lprotobuf-c -lm

test-fuzz-import-short: $(COMPILER_TEST_OBJ)/fuzz-import
	@mkdir -p $(COMPILER_TEST_OBJ)/import-corpus
	@if $(COMPILER_TEST_OBJ)/fuzz-import -max_total_time=20 $(IMPORT_FUZZ_ARGS) 2>&1 | tail -n 20; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

fuzz-import: $(COMPILER_TEST_OBJ)/fuzz-import
	@mkdir -p $(COMPILER_TEST_OBJ)/import-corpus
	$(COMPILER_TEST_OBJ)/fuzz-import -max_total_time=$(IMPORT_FUZZ_TIME) $(IMPORT_FUZZ_ARGS)

PARSE_FUZZ_SRCS := tests/compiler/fuzz_ir_parse.c $(COMPILER_LIB_SRCS)
PARSE_FUZZ_ARGS  = -seed=1 -max_len=8192 -timeout=20 -rss_limit_mb=2048 -dict=tests/compiler/tir.dict \
  -artifact_prefix=$(COMPILER_TEST_OBJ)/ $(COMPILER_TEST_OBJ)/parse-corpus tests/compiler/filecheck

$(COMPILER_TEST_OBJ)/fuzz-parse-ir: $(PARSE_FUZZ_SRCS) $(wildcard compiler/*.h) $(COMPILER_GEN)/onnx.pb-c.c
	@mkdir -p $(@D)
	clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE -DTESSEL_TEST_BUILD \
	  -Icompiler -Isim/npu-model -I$(COMPILER_GEN) $(IMPORT_FUZZ_FLAGS) -o $@ $(PARSE_FUZZ_SRCS) \
	  -Wno-error $(COMPILER_GEN)/onnx.pb-c.c -lprotobuf-c -lm

test-fuzz-parse-ir-short: $(COMPILER_TEST_OBJ)/fuzz-parse-ir
	@mkdir -p $(COMPILER_TEST_OBJ)/parse-corpus
	@if $(COMPILER_TEST_OBJ)/fuzz-parse-ir -max_total_time=10 $(PARSE_FUZZ_ARGS) 2>&1 | tail -n 20; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

fuzz-parse-ir: $(COMPILER_TEST_OBJ)/fuzz-parse-ir
	@mkdir -p $(COMPILER_TEST_OBJ)/parse-corpus
	$(COMPILER_TEST_OBJ)/fuzz-parse-ir -max_total_time=$(IMPORT_FUZZ_TIME) $(PARSE_FUZZ_ARGS)

.PHONY: bench-compiler
bench-compiler: $(BIN)/tessel
	@bash tests/compiler/bench.sh $(BIN)/tessel

# Compile time against graph size: opt / compile of 2k, 10k, 20k-node chains.
BENCHES += compile-scale
.PHONY: bench-compile-scale
bench-compile-scale: $(BIN)/tessel
	@bash tests/compiler/bench_scale.sh $(BIN)/tessel

# ---- quantisation (issue 6) ----
#   make test-quant-models   every kind=quant model in MANIFEST on the int8 reference
#   make test-quant-accuracy PTQ of the generated float nets vs float (rel L2 <= 0.05)
#   make bench-quant         PTQ accuracy figures (rel L2, SNR, top-1 agreement)
$(COMPILER_TEST_OBJ)/quant-eval: tests/compiler/quant_eval.c $(COMPILER_LIB_OBJS_SAN)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -o $@ $< $(COMPILER_LIB_OBJS_SAN) -lprotobuf-c -lm

$(COMPILER_TEST_OBJ)/quant-eval-fast: tests/compiler/quant_eval.c $(COMPILER_LIB_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_LIB_OBJS) -lprotobuf-c -lm

TEST_SUITES += quant-models quant-accuracy
BENCHES     += quant
.PHONY: test-quant-models test-quant-accuracy bench-quant

test-quant-models: $(BIN)/tessel-asan $(COMPILER_TEST_OBJ)/npy-close
	@bash tests/compiler/quant_models.sh $(BIN)/tessel-asan $(COMPILER_TEST_OBJ)/npy-close

# Accuracy of PTQ against float on held-out inputs (not timed).  Limits per
# net are in docs/quantisation.md with the measured figures.
QUANT_NETS := tiny_cnn:0.05 squeezenet1_1:0.05 resnet18:0.05 mobilenet_v2:0.05
test-quant-accuracy: $(COMPILER_TEST_OBJ)/quant-eval
	@p=0; f=0; for nl in $(QUANT_NETS); do n=$${nl%%:*}; lim=$${nl#*:}; \
	  if $(COMPILER_TEST_OBJ)/quant-eval tests/models/nets/$$n.onnx tests/models/calib/$$n.calib.npy \
	       tests/models/calib/$$n.eval.npy --max-rel-l2 $$lim; then p=$$((p+1)); echo "PASS: $$n (rel L2 <= $$lim)"; \
	  else f=$$((f+1)); echo "FAIL: $$n (rel L2 > $$lim)"; fi; done; \
	  echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

bench-quant: $(COMPILER_TEST_OBJ)/quant-eval-fast
	@echo "PTQ accuracy, int8 reference vs float reference on held-out inputs (tests/models/calib):"
	@for n in tiny_cnn squeezenet1_1 resnet18 mobilenet_v2; do \
	  for m in "--percentile 0" "--percentile 99.99" "--mse 1"; do $(COMPILER_TEST_OBJ)/quant-eval-fast \
	    tests/models/nets/$$n.onnx tests/models/calib/$$n.calib.npy tests/models/calib/$$n.eval.npy $$m || exit 1; \
	  done; done

TEST_SUITES += quant-unit
.PHONY: test-quant-unit
$(COMPILER_TEST_OBJ)/test-quant: tests/compiler/test_quant.c $(COMPILER_LIB_OBJS_SAN)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -DMODELS_DIR='"$(CURDIR)/tests/models"' \
	  -o $@ $< $(COMPILER_LIB_OBJS_SAN) -lcmocka -lprotobuf-c -lm

test-quant-unit: $(COMPILER_TEST_OBJ)/test-quant
	$(COMPILER_TEST_OBJ)/test-quant
