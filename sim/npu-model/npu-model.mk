# sim/npu-model/npu-model.mk: the bit-exact C model of the NPU and the one cost
# model, built once as a library that `tessel`, the simulator's tools and the tests
# link (mk/common.mk host_lib):
#   build/lib/libtessel-npu-model{,-asan,-fuzz}.a
#   build/bin/tessel-npu-model     asm / disasm / run streams on the model
# Public headers: npu_model.h, cost_model.h, npu_arith.h here and build/gen/tessel_isa.h,
# tessel_targets.h (add $(NPU_MODEL_INC)); link $(NPU_MODEL_LINK): the library,
# shared/'s (the JSON writer) and the generated tables.
#   build/bin/tessel-npu-sysgen    the NPU system tests' stream generator, on an
#                                  instrumented build of the same sources (below)
# Suites: npu-model, npu-model-errors, npu-model-cli, fuzz-npu-model-short.
# Bench: npu-model. Fuzzer: npu-model.

NPU_MODEL_SRCS := sim/npu-model/npu_arith.c sim/npu-model/npu_model.c sim/npu-model/npu_exec.c \
                  sim/npu-model/npu_check.c sim/npu-model/npu_profile.c sim/npu-model/cost_model.c \
                  sim/npu-model/npu_fetch.c
NPU_MODEL_INC  := -Isim/npu-model -I$(TSL_GEN_DIR) $(SHARED_INC)
tessel-npu-model_CFLAGS = $(HOST_CFLAGS) $(NPU_MODEL_INC)
tessel-npu-model_DEPS   = $(TSL_ISA_OUT) $(TSL_TGTS_OUT)
$(eval $(call host_lib,tessel-npu-model,$(NPU_MODEL_SRCS)))
NPU_MODEL_LIB      := $(BUILD)/lib/libtessel-npu-model.a
NPU_MODEL_LIB_SAN  := $(BUILD)/lib/libtessel-npu-model-asan.a
NPU_MODEL_LIB_FUZZ := $(BUILD)/lib/libtessel-npu-model-fuzz.a
# What a program that runs the model links, in order.
NPU_MODEL_LINK      := $(NPU_MODEL_LIB) $(SHARED_LIB) $(GEN_LIB)
NPU_MODEL_LINK_SAN  := $(NPU_MODEL_LIB_SAN) $(SHARED_LIB_SAN) $(GEN_LIB_SAN)
NPU_MODEL_LINK_FUZZ := $(NPU_MODEL_LIB_FUZZ) $(SHARED_LIB_FUZZ) $(GEN_LIB_FUZZ)

ALL += $(NPU_MODEL_LIB) $(NPU_MODEL_LIB_SAN) $(BIN)/tessel-npu-model

$(BIN)/tessel-npu-model: sim/npu-model/cli/tessel_npu_model.c shared/host_file.h $(NPU_MODEL_LINK)
	$(call host_link,$@,$< $(NPU_MODEL_LINK),$(HOST_CFLAGS) $(NPU_MODEL_INC) -Ishared)

# ---- npu-model and npu-model-errors: cmocka, under ASan/UBSan ----------------
NPU_MODEL_TEST_DEPS := $(NPU_MODEL_LINK_SAN) tests/npu-model/stream_build.h
NPU_TEST_CFLAGS     := $(HOST_CFLAGS) $(SAN_FLAGS) $(NPU_MODEL_INC) -Itests/npu-model

$(TSL_TEST_OBJ)/test_npu_model: tests/npu-model/test_npu_model.c tests/npu-model/ref.c tests/npu-model/ref.h \
                                $(NPU_MODEL_TEST_DEPS)
	$(call host_link,$@,$(filter %.c,$^) $(NPU_MODEL_LINK_SAN) -lcmocka,$(NPU_TEST_CFLAGS))

$(TSL_TEST_OBJ)/test_npu_errors: tests/npu-model/test_npu_errors.c $(NPU_MODEL_TEST_DEPS)
	$(call host_link,$@,$< $(NPU_MODEL_LINK_SAN) -lcmocka,$(NPU_TEST_CFLAGS))

# the CLI under the sanitizers, for its suite
$(TSL_TEST_OBJ)/tessel-npu-model-san: sim/npu-model/cli/tessel_npu_model.c shared/host_file.h $(NPU_MODEL_TEST_DEPS)
	$(call host_link,$@,$< $(NPU_MODEL_LINK_SAN),$(NPU_TEST_CFLAGS) -Ishared)

$(TSL_TEST_OBJ)/test_cost_model: tests/npu-model/test_cost_model.c $(NPU_MODEL_TEST_DEPS)
	$(call host_link,$@,$< $(NPU_MODEL_LINK_SAN) -lcmocka,$(NPU_TEST_CFLAGS))

$(TSL_TEST_OBJ)/test_npu_profile: tests/npu-model/test_npu_profile.c $(NPU_MODEL_TEST_DEPS)
	$(call host_link,$@,$< $(NPU_MODEL_LINK_SAN) -lcmocka,$(NPU_TEST_CFLAGS))

TEST_SUITES += npu-model npu-model-errors npu-model-cli
.PHONY: test-npu-model test-npu-model-errors test-npu-model-cli

test-npu-model-cli: $(TSL_TEST_OBJ)/tessel-npu-model-san
	@bash tests/npu-model/cli-test.sh $(TSL_TEST_OBJ)/tessel-npu-model-san

test-npu-model: $(TSL_TEST_OBJ)/test_npu_model $(TSL_TEST_OBJ)/test_cost_model $(TSL_TEST_OBJ)/test_npu_profile
	$(TSL_TEST_OBJ)/test_npu_model
	$(TSL_TEST_OBJ)/test_cost_model
	$(TSL_TEST_OBJ)/test_npu_profile
test-npu-model-errors: $(TSL_TEST_OBJ)/test_npu_errors
	$(TSL_TEST_OBJ)/test_npu_errors

# ---- bench-npu-model: C model speed and cost estimates at npu8 -------------
$(TSL_TEST_OBJ)/bench_npu_model: tests/npu-model/bench_npu_model.c tests/npu-model/stream_build.h $(NPU_MODEL_LINK)
	$(call host_link,$@,$< $(NPU_MODEL_LINK),$(HOST_CFLAGS) $(NPU_MODEL_INC) -Itests/npu-model)

BENCHES += npu-model
.PHONY: bench-npu-model
bench-npu-model: $(TSL_TEST_OBJ)/bench_npu_model
	@$(TSL_TEST_OBJ)/bench_npu_model

# ---- fuzz-npu-model: libFuzzer over command streams -------------------------
# A fixed-count seeded run is a test suite, a long run is `make fuzz-npu-model`
# (NPU_FUZZ_TIME seconds). New inputs go to build/, never into the committed corpus.
NPU_FUZZ_TIME ?= $(FUZZ_TIME)
NPU_FUZZ_ARGS = -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  $(TSL_TEST_OBJ)/fuzz-corpus tests/npu-model/corpus

$(TSL_TEST_OBJ)/fuzz_npu_model: tests/npu-model/fuzz_npu_model.c $(NPU_MODEL_LINK_FUZZ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE $(FUZZ_LDFLAGS) $(NPU_MODEL_INC) \
	  -o $@ $< $(NPU_MODEL_LINK_FUZZ)

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

# ---- host side: the generator, with an instrumented copy of the C model ------
# The model's sources are compiled here again (never edited): npu_exec.c with
# its three epilogue calls renamed to probe.c's wrappers, which count ties,
# saturation and clamping; the mutant build adds -DPROBE_MUTANT (a planted
# rounding bug the differential test must catch). Under ASan/UBSan.
NPU_SYS_OBJ    := $(BUILD)/obj/npu-system
NPU_SYS_MODEL  := $(filter-out sim/npu-model/npu_exec.c,$(NPU_MODEL_SRCS))
NPU_SYS_CFLAGS := $(HOST_CFLAGS) $(SAN_FLAGS) -Ishared -Isim/npu-model -I$(TSL_GEN_DIR) -Itests/npu-system
NPU_SYS_HDRS   := $(wildcard sim/npu-model/*.h) tests/npu-system/npu_batch.h tests/npu-system/probe.h \
                  tests/npu-system/gen_case.h \
                  $(TSL_GEN_DIR)/tessel_isa.h $(TSL_GEN_DIR)/tessel_targets.h
NPU_SYS_OBJS   := $(patsubst sim/npu-model/%.c,$(NPU_SYS_OBJ)/model/%.o,$(NPU_SYS_MODEL)) \
                  $(NPU_SYS_OBJ)/model/tessel_isa_tables.o $(NPU_SYS_OBJ)/model/tessel_targets.o \
                  $(NPU_SYS_OBJ)/model/npu_exec_probed.o
NPU_SYSGEN        := $(BIN)/tessel-npu-sysgen
NPU_SYSGEN_MUTANT := $(NPU_SYS_OBJ)/tessel-npu-sysgen-mutant

$(NPU_SYS_OBJ)/model/%.o: sim/npu-model/%.c $(NPU_SYS_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-ASAN,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) -c $< -o $@
$(NPU_SYS_OBJ)/model/%.o: $(TSL_GEN_DIR)/%.c $(NPU_SYS_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-ASAN,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) -c $< -o $@
$(NPU_SYS_OBJ)/model/npu_exec_probed.o: sim/npu-model/npu_exec.c $(NPU_SYS_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-ASAN,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) -Dnpu_requant=probe_requant -Dnpu_vadd=probe_vadd -Dnpu_avgpool=probe_avgpool \
	  -c $< -o $@
$(NPU_SYS_OBJ)/probe-mutant.o: tests/npu-system/probe.c $(NPU_SYS_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-ASAN,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) -DPROBE_MUTANT -c $< -o $@
$(NPU_SYS_OBJ)/%.o: tests/npu-system/%.c $(NPU_SYS_HDRS) shared/host_file.h
	@mkdir -p $(@D)
	$(call say,CC-ASAN,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) -c $< -o $@
NPU_SYSGEN_OBJS := $(NPU_SYS_OBJ)/sysgen.o $(NPU_SYS_OBJ)/gen_case.o $(NPU_SYS_OBJS)
$(NPU_SYSGEN): $(NPU_SYSGEN_OBJS) $(NPU_SYS_OBJ)/probe.o $(SHARED_LIB_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) $^ -o $@
$(NPU_SYSGEN_MUTANT): $(NPU_SYSGEN_OBJS) $(NPU_SYS_OBJ)/probe-mutant.o $(SHARED_LIB_SAN)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(NPU_SYS_CFLAGS) $^ -o $@

ALL += $(NPU_SYSGEN)

# ---- the C model compiled for the control core ------------------------------------
# The core-sequenced NPU (docs/npu-seq.md) runs these sources as its command
# semantics: build/obj/fw-seq/<t>/*.o, with the datapath hooks on its
# registers (-DTSL_NPU_SEQ_DP, firmware/npu/npu_seq_dp.h), -Os, the lean
# ISA tables (TSL_ISA_LEAN: no encoders, no doc strings), and no error text
# (-DNPU_MODEL_QUIET, npu_internal.h: the driver reports codes and command
# indices). Linked by the firmware's npu_seq driver (firmware/npu/npu.mk).
NPU_MODEL_HDRS       := $(wildcard sim/npu-model/*.h) $(TSL_GEN_DIR)/tessel_targets.h
NPU_MODEL_RV_SRCS    := npu_arith.c npu_model.c npu_exec.c npu_check.c npu_fetch.c cost_model.c
NPU_MODEL_RV_CFLAGS   = $(FW_CFLAGS) $(RV_SIZE_CFLAGS) -DTSL_NPU_SEQ_DP -DNPU_MODEL_QUIET -I$(TSL_GEN_DIR)/$(1) -I$(TSL_GEN_DIR) -Ifirmware/npu \
                        -Isim/npu-model
NPU_MODEL_RV_OBJS     = $(patsubst %.c,$(BUILD)/obj/fw-seq/$(1)/%.o,$(NPU_MODEL_RV_SRCS) tessel_targets.c \
                        tessel_isa_tables.c)
define npu_model_rv
$(BUILD)/obj/fw-seq/$(1)/%.o: sim/npu-model/%.c $(NPU_MODEL_HDRS) firmware/npu/npu_seq_dp.h \
                              $(TSL_GEN_DIR)/$(1)/tessel_target.h $(TSL_GEN_DIR)/tessel_memmap.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $$(call NPU_MODEL_RV_CFLAGS,$(1)) -c $$< -o $$@
$(BUILD)/obj/fw-seq/$(1)/tessel_targets.o: $(TSL_GEN_DIR)/tessel_targets.c $(TSL_GEN_DIR)/tessel_targets.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $$(FW_CFLAGS) $(RV_SIZE_CFLAGS) -I$(TSL_GEN_DIR) -c $$< -o $$@
$(BUILD)/obj/fw-seq/$(1)/tessel_isa_tables.o: $(TSL_GEN_DIR)/tessel_isa_tables.c $(TSL_GEN_DIR)/tessel_isa.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $$(FW_CFLAGS) $(RV_SIZE_CFLAGS) -DTSL_ISA_LEAN -I$(TSL_GEN_DIR) -c $$< -o $$@
endef
$(foreach t,npu2,$(eval $(call npu_model_rv,$(t))))
