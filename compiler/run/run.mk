# compiler/run/run.mk: `tessel run`: the engines (the C model in process, the SoC
# through tessel-sim, a board over the host link) and their CLI. The executor and
# fallback ops are shared/'s (one for every engine). Library build/lib/libtessel-run.a.

COMPILER_run_SRCS := compiler/run/run_cli.c compiler/run/run_model.c compiler/run/run_rtl.c \
                     compiler/run/run_board.c compiler/run/run_chunks.c compiler/run/run_timeline.c \
                     compiler/run/serial_port.c

# ---- tests (tests/run) ----
#   make test-run   packages end to end on RTL and the C model vs the int8
#                   reference, the firmware's package checks, bad inputs
RUN_TEST_OBJ := $(BUILD)/obj/run-tests
TEST_SUITES  += run
.PHONY: test-run

$(RUN_TEST_OBJ)/fw-reject: tests/run/fw_reject.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -o $@ $< $(COMPILER_LINK_SAN)

test-run: $(BIN)/tessel-asan $(RUN_TEST_OBJ)/fw-reject $(BIN)/tessel-sim $(BIN)/tessel-iss $(BIN)/tessel-npu-model $(BIN)/tsl-gen $(BIN)/npy-check \
          $(BUILD)/npu4/tessel-sim $(BUILD)/npu8/tessel-sim $(BUILD)/npu8-arty/tessel-sim \
          $(BUILD)/firmware/npu4/tessel-fw.elf $(BUILD)/firmware/npu8/tessel-fw.elf $(BUILD)/firmware/npu8-arty/tessel-fw.elf
	bash tests/run/run.sh $(BUILD)/test-tmp/run $(BIN)/tessel-asan $(RUN_TEST_OBJ)/fw-reject

BENCHES += run
.PHONY: bench-run
bench-run: $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	BENCH_NETS='$(BENCH_NETS)' bash tests/run/bench.sh $(BIN)/tessel tests/models $(BUILD)/bench/run

# The #17 nets at other input sizes and widths (exported from torchvision
# when run, so not in `make bench`): NPU cycles over the roofline bound.
.PHONY: bench-run-sizes
bench-run-sizes: $(BIN)/tessel
	BENCH_NETS='$(BENCH_NETS)' bash tests/run/bench_sizes.sh $(BIN)/tessel $(BUILD)/bench/sizes $(ENGINE)

# Every suite model that compiles, through the package, against the int8
# reference: on the C model in make test, on the SoC in make bench.
TEST_SUITES += run-suite
BENCHES     += run-suite
.PHONY: test-run-suite bench-run-suite
test-run-suite: $(BIN)/tessel-asan
	bash tests/run/suite.sh $(BUILD)/test-tmp/run-suite $(BIN)/tessel-asan model
bench-run-suite: $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	bash tests/run/suite.sh $(BUILD)/bench/run-suite $(BIN)/tessel rtl

