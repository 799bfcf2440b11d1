# targets/rules.mk: NPU target configurations, the command-stream ISA and its
# generator, the C model of the NPU (sim/npu-model) and its tests.
#
#   build/bin/tsl-gen                      generator (targets/gen)
#   build/gen/tessel_isa.h, tessel_isa_tables.c, tessel_isa_pkg.sv
#   build/gen/<target>/tessel_target.h, tessel_target_pkg.sv   (npu4 npu8 npu16)
#   build/gen/tessel_targets.{h,c}         every target as a run-time table
#   make test-isa-gen                      generated C/SV compile; encode/decode round trips
#   make test-isa-docs                     docs/{isa,targets,profile-format}.md tables are current
#   make isa-docs                          rewrite those tables from targets/isa.def and *.cfg

TSL_GEN      := $(BIN)/tsl-gen
TSL_GEN_DIR  := $(BUILD)/gen
TSL_ISA_DEF  := targets/isa.def
TSL_TARGETS  := npu4 npu8 npu16
TSL_CFGS     := $(patsubst %,targets/%.cfg,$(TSL_TARGETS))
TSL_DOCS     := docs/isa.md docs/targets.md docs/profile-format.md
TSL_ISA_OUT  := $(TSL_GEN_DIR)/tessel_isa.h $(TSL_GEN_DIR)/tessel_isa_tables.c \
                $(TSL_GEN_DIR)/tessel_isa_pkg.sv
TSL_TGTS_OUT := $(TSL_GEN_DIR)/tessel_targets.h $(TSL_GEN_DIR)/tessel_targets.c
TSL_TGT_OUT  := $(foreach t,$(TSL_TARGETS),$(TSL_GEN_DIR)/$(t)/tessel_target.h \
                  $(TSL_GEN_DIR)/$(t)/tessel_target_pkg.sv)
# Everything generated: other subsystems may depend on this list.
TSL_GENERATED := $(TSL_ISA_OUT) $(TSL_TGTS_OUT) $(TSL_TGT_OUT)
TSL_TEST_OBJ := $(BUILD)/obj/npu-model-tests

ALL += $(TSL_GEN) $(TSL_GENERATED)

# sim/host_file.h: opening inputs and outputs without blocking on a FIFO.
$(TSL_GEN): $(wildcard targets/gen/*.c targets/gen/*.h) sim/host_file.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Isim -o $@ $(filter %.c,$^)

# tsl-gen replaces an output only when its text changes (so a rebuilt
# generator does not rebuild everything that includes the headers); an
# unchanged output keeps its old time, so these rules run again on the next
# make (a few ms): quietly.
$(TSL_ISA_OUT) &: $(TSL_GEN) $(TSL_ISA_DEF)
	@mkdir -p $(TSL_GEN_DIR)
	@$(TSL_GEN) isa $(TSL_ISA_DEF) $(TSL_GEN_DIR)

$(TSL_TGTS_OUT) &: $(TSL_GEN) $(TSL_ISA_DEF) $(TSL_CFGS)
	@mkdir -p $(TSL_GEN_DIR)
	@$(TSL_GEN) targets $(TSL_ISA_DEF) $(TSL_GEN_DIR) $(TSL_CFGS)

$(TSL_GEN_DIR)/%/tessel_target.h $(TSL_GEN_DIR)/%/tessel_target_pkg.sv: targets/%.cfg $(TSL_GEN) $(TSL_ISA_DEF)
	@mkdir -p $(@D)
	@$(TSL_GEN) target $(TSL_ISA_DEF) $< $(@D)

# ---- isa-gen: generated headers and packages, encode/decode round trips ----
$(TSL_TEST_OBJ)/test_isa_gen: tests/npu-model/test_isa_gen.c $(TSL_ISA_OUT) $(TSL_TGTS_OUT)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -I$(TSL_GEN_DIR) -o $@ $< \
	  $(TSL_GEN_DIR)/tessel_isa_tables.c $(TSL_GEN_DIR)/tessel_targets.c -lcmocka

TEST_SUITES += isa-gen isa-docs
.PHONY: test-isa-gen test-isa-docs isa-docs

test-isa-gen: $(TSL_TEST_OBJ)/test_isa_gen $(TSL_GENERATED)
	@bash tests/npu-model/isa-gen.sh $(TSL_GEN_DIR) $(TSL_TEST_OBJ)/test_isa_gen $(TSL_TARGETS)

# ---- isa-docs: the generated tables in docs/ are current -------------------
test-isa-docs: $(TSL_GEN) $(TSL_ISA_DEF) $(TSL_CFGS)
	@mkdir -p $(TSL_GEN_DIR)/docs
	@pass=0; fail=0; for d in $(TSL_DOCS); do \
	  out=$(TSL_GEN_DIR)/docs/$$(basename $$d); \
	  if $(TSL_GEN) doc $(TSL_ISA_DEF) $$d $$out $(TSL_CFGS) && diff -u $$d $$out; then \
	    pass=$$((pass+1)); echo "ok   $$d"; \
	  else fail=$$((fail+1)); echo "FAIL $$d is stale: run 'make isa-docs' and commit it"; fi; \
	done; echo "$$pass passed, $$fail failed"; [ $$fail -eq 0 ]

isa-docs: $(TSL_GEN) $(TSL_ISA_DEF) $(TSL_CFGS)
	@mkdir -p $(TSL_GEN_DIR)/docs
	@set -e; for d in $(TSL_DOCS); do \
	  out=$(TSL_GEN_DIR)/docs/$$(basename $$d); \
	  $(TSL_GEN) doc $(TSL_ISA_DEF) $$d $$out $(TSL_CFGS); \
	  cmp -s $$d $$out || { cp $$out $$d; echo "updated $$d"; }; \
	done

# ---- the C model of the NPU: build/lib/libtessel-npu-model.a -----------------
# Public headers: sim/npu-model/npu_model.h, cost_model.h, npu_arith.h and
# build/gen/tessel_isa.h, tessel_targets.h (add -Isim/npu-model -Ibuild/gen).
NPU_MODEL_LIB  := $(BUILD)/lib/libtessel-npu-model.a
NPU_MODEL_SRCS := $(wildcard sim/npu-model/*.c)
NPU_MODEL_HDRS := $(wildcard sim/npu-model/*.h)
NPU_MODEL_GEN_SRCS := $(TSL_GEN_DIR)/tessel_isa_tables.c $(TSL_GEN_DIR)/tessel_targets.c
NPU_MODEL_OBJS := $(patsubst sim/npu-model/%.c,$(BUILD)/obj/npu-model/%.o,$(NPU_MODEL_SRCS)) \
                  $(BUILD)/obj/npu-model/tessel_isa_tables.o $(BUILD)/obj/npu-model/tessel_targets.o
NPU_MODEL_INC  := -Isim/npu-model -I$(TSL_GEN_DIR)

ALL += $(NPU_MODEL_LIB) $(BIN)/tessel-npu-model

$(BUILD)/obj/npu-model/%.o: sim/npu-model/%.c $(NPU_MODEL_HDRS) $(TSL_ISA_OUT) $(TSL_TGTS_OUT)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(NPU_MODEL_INC) -c $< -o $@
$(BUILD)/obj/npu-model/%.o: $(TSL_GEN_DIR)/%.c $(TSL_ISA_OUT) $(TSL_TGTS_OUT)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(NPU_MODEL_INC) -c $< -o $@

$(NPU_MODEL_LIB): $(NPU_MODEL_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# build/bin/tessel-npu-model: asm / disasm / run streams on the model
$(BIN)/tessel-npu-model: sim/npu-model/cli/tessel_npu_model.c sim/host_file.h $(NPU_MODEL_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(NPU_MODEL_INC) -Isim -o $@ $< $(NPU_MODEL_LIB)

# ---- npu-model and npu-model-errors: cmocka, under ASan/UBSan ----------------
NPU_MODEL_TEST_DEPS := $(NPU_MODEL_SRCS) $(NPU_MODEL_HDRS) $(NPU_MODEL_GEN_SRCS) $(TSL_ISA_OUT) $(TSL_TGTS_OUT) \
                       tests/npu-model/stream_build.h

$(TSL_TEST_OBJ)/test_npu_model: tests/npu-model/test_npu_model.c tests/npu-model/ref.c tests/npu-model/ref.h \
                                $(NPU_MODEL_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) $(NPU_MODEL_INC) -Itests/npu-model -o $@ \
	  tests/npu-model/test_npu_model.c tests/npu-model/ref.c $(NPU_MODEL_SRCS) $(NPU_MODEL_GEN_SRCS) -lcmocka

$(TSL_TEST_OBJ)/test_npu_errors: tests/npu-model/test_npu_errors.c $(NPU_MODEL_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) $(NPU_MODEL_INC) -Itests/npu-model -o $@ \
	  tests/npu-model/test_npu_errors.c $(NPU_MODEL_SRCS) $(NPU_MODEL_GEN_SRCS) -lcmocka

# the CLI under the sanitizers, for its suite
$(TSL_TEST_OBJ)/tessel-npu-model-san: sim/npu-model/cli/tessel_npu_model.c sim/host_file.h $(NPU_MODEL_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) $(NPU_MODEL_INC) -Isim -o $@ $< $(NPU_MODEL_SRCS) $(NPU_MODEL_GEN_SRCS)

TEST_SUITES += npu-model npu-model-errors npu-model-cli
.PHONY: test-npu-model test-npu-model-errors test-npu-model-cli

test-npu-model-cli: $(TSL_TEST_OBJ)/tessel-npu-model-san
	@bash tests/npu-model/cli-test.sh $(TSL_TEST_OBJ)/tessel-npu-model-san

$(TSL_TEST_OBJ)/test_cost_model: tests/npu-model/test_cost_model.c $(NPU_MODEL_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) $(NPU_MODEL_INC) -o $@ \
	  tests/npu-model/test_cost_model.c sim/npu-model/cost_model.c $(TSL_GEN_DIR)/tessel_targets.c -lcmocka

$(TSL_TEST_OBJ)/test_npu_profile: tests/npu-model/test_npu_profile.c $(NPU_MODEL_TEST_DEPS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) $(NPU_MODEL_INC) -Itests/npu-model -o $@ \
	  tests/npu-model/test_npu_profile.c $(NPU_MODEL_SRCS) $(NPU_MODEL_GEN_SRCS) -lcmocka

test-npu-model: $(TSL_TEST_OBJ)/test_npu_model $(TSL_TEST_OBJ)/test_cost_model $(TSL_TEST_OBJ)/test_npu_profile
	$(TSL_TEST_OBJ)/test_npu_model
	$(TSL_TEST_OBJ)/test_cost_model
	$(TSL_TEST_OBJ)/test_npu_profile
test-npu-model-errors: $(TSL_TEST_OBJ)/test_npu_errors
	$(TSL_TEST_OBJ)/test_npu_errors

# ---- bench-npu-model: C model speed and cost estimates at npu8 -------------
$(TSL_TEST_OBJ)/bench_npu_model: tests/npu-model/bench_npu_model.c tests/npu-model/stream_build.h $(NPU_MODEL_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(NPU_MODEL_INC) -Itests/npu-model -o $@ $< $(NPU_MODEL_LIB)

BENCHES += npu-model
.PHONY: bench-npu-model
bench-npu-model: $(TSL_TEST_OBJ)/bench_npu_model
	@$(TSL_TEST_OBJ)/bench_npu_model

# ---- fuzz-npu-model: libFuzzer over command streams -------------------------
# Built with clang (libFuzzer); a fixed-count seeded run is a test suite, a
# long run is `make fuzz-npu-model` (NPU_FUZZ_TIME seconds). New inputs go to
# build/, never into the committed corpus.
NPU_FUZZ_TIME ?= $(FUZZ_TIME)
NPU_FUZZ_ARGS = -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  $(TSL_TEST_OBJ)/fuzz-corpus tests/npu-model/corpus

$(TSL_TEST_OBJ)/fuzz_npu_model: tests/npu-model/fuzz_npu_model.c $(NPU_MODEL_TEST_DEPS)
	@mkdir -p $(@D)
	clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(NPU_MODEL_INC) -o $@ \
	  $< $(NPU_MODEL_SRCS) $(NPU_MODEL_GEN_SRCS)

TEST_SUITES += fuzz-npu-model-short
FUZZERS += npu-model
.PHONY: test-fuzz-npu-model-short fuzz-npu-model

test-fuzz-npu-model-short: $(TSL_TEST_OBJ)/fuzz_npu_model
	@mkdir -p $(TSL_TEST_OBJ)/fuzz-corpus
	@if $(TSL_TEST_OBJ)/fuzz_npu_model -runs=20000 $(NPU_FUZZ_ARGS) -artifact_prefix=$(TSL_TEST_OBJ)/ 2>&1 | tail -n 5; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi

fuzz-npu-model: $(TSL_TEST_OBJ)/fuzz_npu_model
	@mkdir -p $(TSL_TEST_OBJ)/fuzz-corpus
	$(TSL_TEST_OBJ)/fuzz_npu_model -max_total_time=$(NPU_FUZZ_TIME) $(NPU_FUZZ_ARGS) -artifact_prefix=$(TSL_TEST_OBJ)/
