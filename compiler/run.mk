# compiler/run.mk: `tessel run` (issue 8), included by compiler/rules.mk
# after the compiler's library lists.
#
#   compiler/run_cli.c, run_model.c, run_rtl.c   join the compiler library by
#       the wildcard there: the CLI, the C-model engine, the rtl engine
#   firmware/runtime/tfw_exec.c   the firmware's executor, compiled for the
#       host too: both engines run kernels and fallbacks through it
#   sim/npu-model/*.c             the C model, so `tessel` runs packages
#       (its cost_model.c is already in the library through lower.mk)

RUN_MODEL_SRCS := sim/npu-model/npu_model.c sim/npu-model/npu_exec.c sim/npu-model/npu_check.c \
                  sim/npu-model/npu_profile.c
RUN_RT_SRCS    := firmware/runtime/tfw_exec.c firmware/runtime/tfw_fallback.c
RUN_EXTRA_SRCS := $(RUN_MODEL_SRCS) $(RUN_RT_SRCS)
RUN_EXTRA_OBJS     := $(patsubst %.c,$(COMPILER_OBJ)/run/%.o,$(notdir $(RUN_EXTRA_SRCS)))
RUN_EXTRA_OBJS_SAN := $(patsubst %.c,$(COMPILER_OBJ_SAN)/run/%.o,$(notdir $(RUN_EXTRA_SRCS)))

COMPILER_CFLAGS       += -Ifirmware/runtime
COMPILER_LIB_SRCS     += $(RUN_EXTRA_SRCS)
COMPILER_LIB_OBJS     += $(RUN_EXTRA_OBJS)
COMPILER_LIB_OBJS_SAN += $(RUN_EXTRA_OBJS_SAN)

# -ffp-contract=off as everywhere the runtime is built (tfw_fallback.h).
$(COMPILER_OBJ)/run/%.o: sim/npu-model/%.c | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -c $< -o $@
$(COMPILER_OBJ_SAN)/run/%.o: sim/npu-model/%.c | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -c $< -o $@
$(COMPILER_OBJ)/run/%.o: firmware/runtime/%.c | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_memmap.h
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -ffp-contract=off -c $< -o $@
$(COMPILER_OBJ_SAN)/run/%.o: firmware/runtime/%.c | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_memmap.h
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -ffp-contract=off $(SAN_FLAGS) -c $< -o $@

$(foreach o,run_cli run_model run_rtl,$(COMPILER_OBJ)/$(o).o $(COMPILER_OBJ_SAN)/$(o).o): \
  | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h $(BUILD)/gen/tessel_memmap.h

-include $(wildcard $(COMPILER_OBJ)/run/*.d $(COMPILER_OBJ_SAN)/run/*.d)

# ---- tests (tests/run) ----
#   make test-run   packages end to end on RTL and the C model vs the int8
#                   reference, the firmware's package checks, bad inputs
RUN_TEST_OBJ := $(BUILD)/obj/run-tests
TEST_SUITES  += run
.PHONY: test-run

$(RUN_TEST_OBJ)/fw-reject: tests/run/fw_reject.c $(COMPILER_LIB_OBJS_SAN)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -o $@ $< $(COMPILER_LIB_OBJS_SAN) -lprotobuf-c -lm

test-run: $(BIN)/tessel-asan $(RUN_TEST_OBJ)/fw-reject $(BIN)/tessel-sim $(BIN)/tessel-iss $(BIN)/tessel-npu-model $(BIN)/tsl-gen $(BIN)/npy-check \
          $(BUILD)/npu4/tessel-sim $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu4/tessel-fw.elf \
          $(BUILD)/firmware/npu8/tessel-fw.elf
	bash tests/run/run.sh $(BUILD)/test-tmp/run $(BIN)/tessel-asan $(RUN_TEST_OBJ)/fw-reject

BENCHES += run
.PHONY: bench-run
bench-run: $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	bash tests/run/bench.sh $(BIN)/tessel tests/models $(BUILD)/bench/run

# Every suite model that compiles, through the package, against the int8
# reference: on the C model in make test, on the SoC in make bench.
TEST_SUITES += run-suite
BENCHES     += run-suite
.PHONY: test-run-suite bench-run-suite
test-run-suite: $(BIN)/tessel-asan
	bash tests/run/suite.sh $(BUILD)/test-tmp/run-suite $(BIN)/tessel-asan model
bench-run-suite: $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	bash tests/run/suite.sh $(BUILD)/bench/run-suite $(BIN)/tessel rtl

# The importer's fuzzers compile every library source themselves.
$(BUILD)/obj/compiler-tests/fuzz-import $(BUILD)/obj/compiler-tests/fuzz-parse-ir: \
  IMPORT_FUZZ_FLAGS += -Ifirmware/runtime -ffp-contract=off
