# compiler/rules.mk: the tessel compiler, one folder per stage or service, in the
# order data flows through them (docs/architecture.md):
#
#   support  ir  import  passes  quant  ref  lower  package  run  tune  profile  cli
#
# Each folder's .mk lists its sources (COMPILER_<folder>_SRCS) and its own tests;
# each becomes a library build/lib/libtessel-<folder>.a (and -asan, -fuzz: the
# one template in mk/common.mk). Programs link them in one group with the shared
# code (shared/), the C model (sim/npu-model) and the generated tables (targets/).
#
#   build/bin/tessel         the CLI (HOST_CFLAGS)
#   build/bin/tessel-asan    the same under SAN_FLAGS, used by every test
#   make test-filecheck      FileCheck-14 tests in tests/compiler/*.tir|*.test
#   make test-compiler-unit  cmocka: IR, arena failure injection, parser, verifier
#   make test-import         every model in tests/models/MANIFEST + bad models
#   make test-cli            bad command lines
#   make test-fuzz-import-short  ~20 s seeded libFuzzer run of the importer
#   make fuzz-import         long libFuzzer run (IMPORT_FUZZ_TIME seconds)
#   make bench-compiler      import / passes / reference times on the torchvision nets
#   make bench-compile-scale opt / compile times of 2k, 10k, 20k-node chains
#   make test-quant-unit     cmocka: int8 reference hand-computed cases, multipliers, OOM injection
#   make test-fuzz-parse-ir-short  ~10 s run of the textual IR parser (round-trip property)
#   make fuzz-parse-ir       long run of the same (IMPORT_FUZZ_TIME seconds)
#
# The protobuf-c bindings are generated at build time from Debian's onnx.proto.

ONNX_PROTO       := /usr/include/onnx/onnx.proto
COMPILER_GEN     := $(BUILD)/gen/onnx
IMPORT_FUZZ_TIME ?= $(FUZZ_TIME)
COMPILER_PARTS   := support ir import passes quant ref lower package run tune profile cli

COMPILER_CFLAGS := $(HOST_CFLAGS) -Icompiler $(patsubst %,-Icompiler/%,$(COMPILER_PARTS)) \
                   $(SHARED_INC) -Isim/npu-model -I$(COMPILER_GEN) -I$(BUILD)/gen
# Generated before any compiler object is built (the .d files know only after).
COMPILER_DEPS   := $(COMPILER_GEN)/onnx.pb-c.h $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h \
                   $(BUILD)/gen/tessel_memmap.h

# Libraries, in link order; everything a compiler program links.
COMPILER_LIBS      := $(patsubst %,$(BUILD)/lib/libtessel-%.a,$(COMPILER_PARTS) onnx-pb)
COMPILER_LIBS_SAN  := $(patsubst %,$(BUILD)/lib/libtessel-%-asan.a,$(COMPILER_PARTS) onnx-pb)
COMPILER_LIBS_FUZZ := $(patsubst %,$(BUILD)/lib/libtessel-%-fuzz.a,$(COMPILER_PARTS) onnx-pb)
COMPILER_LINK      := -Wl,--start-group $(COMPILER_LIBS) $(SHARED_LIB) $(NPU_MODEL_LINK) -Wl,--end-group -lprotobuf-c -lm
COMPILER_LINK_SAN  := -Wl,--start-group $(COMPILER_LIBS_SAN) $(SHARED_LIB_SAN) $(NPU_MODEL_LINK_SAN) -Wl,--end-group -lprotobuf-c -lm
COMPILER_LINK_FUZZ := -Wl,--start-group $(COMPILER_LIBS_FUZZ) $(SHARED_LIB_FUZZ) $(NPU_MODEL_LINK_FUZZ) -Wl,--end-group -lprotobuf-c -lm
COMPILER_LINK_DEPS     := $(COMPILER_LIBS) $(SHARED_LIB) $(NPU_MODEL_LINK)
COMPILER_LINK_DEPS_SAN := $(COMPILER_LIBS_SAN) $(SHARED_LIB_SAN) $(NPU_MODEL_LINK_SAN)
COMPILER_LINK_DEPS_FUZZ:= $(COMPILER_LIBS_FUZZ) $(SHARED_LIB_FUZZ) $(NPU_MODEL_LINK_FUZZ)
COMPILER_TEST_OBJ  := $(BUILD)/obj/compiler-tests

include $(foreach p,$(COMPILER_PARTS),compiler/$(p)/$(p).mk)

$(foreach p,$(COMPILER_PARTS),$(eval tessel-$(p)_CFLAGS = $$(COMPILER_CFLAGS))$(eval tessel-$(p)_DEPS = $$(COMPILER_DEPS)))
$(foreach p,$(COMPILER_PARTS),$(eval $(call host_lib,tessel-$(p),$(COMPILER_$(p)_SRCS))))
# Every compiler source (the cross-tree check and the docs read it).
COMPILER_SRCS := $(foreach p,$(COMPILER_PARTS),$(COMPILER_$(p)_SRCS))

# Generated code is not ours to warn about beyond what it compiles with.
tessel-onnx-pb_CFLAGS = -std=c11 -O2 -g -I$(COMPILER_GEN)
$(eval $(call host_lib,tessel-onnx-pb,$(COMPILER_GEN)/onnx.pb-c.c))

$(COMPILER_GEN)/onnx.pb-c.c $(COMPILER_GEN)/onnx.pb-c.h &: $(ONNX_PROTO)
	$(call say,PROTOC,$(ONNX_PROTO))
	@mkdir -p $(COMPILER_GEN)
	$(Q)protoc-c --c_out=$(COMPILER_GEN) -I$(dir $(ONNX_PROTO)) $(ONNX_PROTO)
	@touch $(COMPILER_GEN)/onnx.pb-c.c $(COMPILER_GEN)/onnx.pb-c.h

# main() is in libtessel-cli.a (cli/main.c): the link pulls it from there.
$(BIN)/tessel: $(COMPILER_LINK_DEPS)
	$(call host_link,$@,$(COMPILER_LINK),$(HOST_CFLAGS))
$(BIN)/tessel-asan: $(COMPILER_LINK_DEPS_SAN)
	$(call host_link,$@,$(COMPILER_LINK_SAN),$(HOST_CFLAGS) $(SAN_FLAGS))

ALL         += $(BIN)/tessel $(BIN)/tessel-asan
TEST_SUITES += compiler-unit filecheck import cli fuzz-import-short fuzz-parse-ir-short
FUZZERS     += import parse-ir
BENCHES     += compiler

.PHONY: test-compiler-unit test-filecheck test-import test-cli test-fuzz-import-short fuzz-import \
        test-fuzz-parse-ir-short fuzz-parse-ir

# ---- tests ----

test-filecheck: $(BIN)/tessel-asan
	@bash tests/compiler/lit.sh $(BIN)/tessel-asan $(sort $(wildcard tests/compiler/filecheck/*.tir tests/compiler/filecheck/*.test))

COMPILER_TEST_OBJ := $(BUILD)/obj/compiler-tests

$(COMPILER_TEST_OBJ)/npy-close: tests/compiler/npy_close.c $(SHARED_LIB_SAN)
	$(call host_link,$@,$< $(SHARED_LIB_SAN) -lm,$(HOST_CFLAGS) $(SAN_FLAGS) $(SHARED_INC))

test-import: $(BIN)/tessel-asan $(COMPILER_TEST_OBJ)/npy-close
	@bash tests/compiler/import.sh $(BIN)/tessel-asan $(COMPILER_TEST_OBJ)/npy-close

test-cli: $(BIN)/tessel-asan
	@bash tests/compiler/cli.sh $(BIN)/tessel-asan

$(COMPILER_TEST_OBJ)/test-compiler: tests/compiler/test_compiler.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -DINPUTS_DIR='"$(CURDIR)/tests/compiler/inputs"' \
	  -o $@ $< $(COMPILER_LINK_SAN) -lcmocka

test-compiler-unit: $(COMPILER_TEST_OBJ)/test-compiler
	$(COMPILER_TEST_OBJ)/test-compiler

# ---- fuzzing (clang, libFuzzer) ----
# The fuzzers link the -fuzz builds of the libraries (mk/common.mk host_lib).
# New inputs go to a scratch corpus under build/; the committed models are the seeds.
IMPORT_FUZZ_ARGS   = -seed=1 -max_len=65536 -timeout=20 -rss_limit_mb=2048 -dict=tests/compiler/onnx.dict \
  -artifact_prefix=$(COMPILER_TEST_OBJ)/ $(COMPILER_TEST_OBJ)/import-corpus \
  tests/models/ops tests/models/bad tests/models/quant tests/compiler/inputs
# compiler_fuzzer OUT, ENTRY.c
define compiler_fuzzer
	$(call say,LD,$(1))
	@mkdir -p $(dir $(1))
	$(Q)clang $(filter-out -O2,$(COMPILER_CFLAGS)) -O1 -DTESSEL_TEST_BUILD $(FUZZ_LDFLAGS) -o $(1) $(2) $(COMPILER_LINK_FUZZ)
endef

$(COMPILER_TEST_OBJ)/fuzz-import: tests/compiler/fuzz_import.c $(COMPILER_LINK_DEPS_FUZZ)
	$(call compiler_fuzzer,$@,$<)

test-fuzz-import-short: $(COMPILER_TEST_OBJ)/fuzz-import
	@mkdir -p $(COMPILER_TEST_OBJ)/import-corpus
	@if $(COMPILER_TEST_OBJ)/fuzz-import -max_total_time=20 $(IMPORT_FUZZ_ARGS) 2>&1 | tail -n 20; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

fuzz-import: $(COMPILER_TEST_OBJ)/fuzz-import
	@mkdir -p $(COMPILER_TEST_OBJ)/import-corpus
	$(COMPILER_TEST_OBJ)/fuzz-import -max_total_time=$(IMPORT_FUZZ_TIME) $(IMPORT_FUZZ_ARGS)

PARSE_FUZZ_ARGS  = -seed=1 -max_len=8192 -timeout=20 -rss_limit_mb=2048 -dict=tests/compiler/tir.dict \
  -artifact_prefix=$(COMPILER_TEST_OBJ)/ $(COMPILER_TEST_OBJ)/parse-corpus tests/compiler/filecheck

$(COMPILER_TEST_OBJ)/fuzz-parse-ir: tests/compiler/fuzz_ir_parse.c $(COMPILER_LINK_DEPS_FUZZ)
	$(call compiler_fuzzer,$@,$<)

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

# ---- quantisation ----
#   make test-quant-models   every kind=quant model in MANIFEST on the int8 reference
#   make test-quant-accuracy PTQ of the generated float nets vs float (rel L2 <= 0.05)
#   make bench-quant         PTQ accuracy figures (rel L2, SNR, top-1 agreement)
$(COMPILER_TEST_OBJ)/quant-eval: tests/compiler/quant_eval.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -o $@ $< $(COMPILER_LINK_SAN)

$(COMPILER_TEST_OBJ)/quant-eval-fast: tests/compiler/quant_eval.c $(COMPILER_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_LINK)

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
$(COMPILER_TEST_OBJ)/test-quant: tests/compiler/test_quant.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -DMODELS_DIR='"$(CURDIR)/tests/models"' \
	  -o $@ $< $(COMPILER_LINK_SAN) -lcmocka

test-quant-unit: $(COMPILER_TEST_OBJ)/test-quant
	$(COMPILER_TEST_OBJ)/test-quant
