# compiler/tune/tune.mk: the autotuner; tune_cli.c is `tessel tune`.
# Library build/lib/libtessel-tune.a (compiler/rules.mk).
#
#   sources                 log, graph keys and applying logs, search space,
#                           measurement (fork/exec of `tessel run`), cost-model
#                           refit, the driver, the CLI
#   make test-tune          tests/tune/run.sh: reproducible seeded tune on the C
#                           model, tuned <= default per kernel, outputs bit for
#                           bit, bad/foreign log lines, bad arguments, a short
#                           RTL tune
#   make bench-tune         default vs tuned cycles per net at npu8 (RTL), the
#                           cost model's error before/after the refit;
#                           LAUNCHER=parallel|slurm measures there (LAUNCHER_OPTS:
#                           more tune options, e.g. '--partition P')
#   make test-scale         tests/scale/run.sh: tune and batch runs through a
#                           real single-node Slurm and GNU parallel started by
#                           the test (launcher code: tune_launch.c)

COMPILER_tune_SRCS := compiler/tune/tune.c compiler/tune/tune_apply.c compiler/tune/tune_cli.c \
                      compiler/tune/tune_fit.c compiler/tune/tune_front.c compiler/tune/tune_launch.c \
                      compiler/tune/tune_log.c compiler/tune/tune_measure.c \
                      compiler/tune/tune_space.c

TEST_SUITES += tune
BENCHES     += tune
.PHONY: test-tune bench-tune

TUNE_TEST_OBJ := $(BUILD)/obj/tune-tests
$(TUNE_TEST_OBJ)/test-tune: tests/tune/test_tune.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -o $@ $< $(COMPILER_LINK_SAN) -lcmocka

test-tune: $(BIN)/tessel-asan $(TUNE_TEST_OBJ)/test-tune $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@bash tests/tune/run.sh $(BUILD)/test-tmp/tune $(BIN)/tessel-asan $(TUNE_TEST_OBJ)/test-tune

TEST_SUITES += scale
.PHONY: test-scale
test-scale: $(BIN)/tessel-asan
	@bash tests/scale/run.sh $(BUILD)/test-tmp/scale $(BIN)/tessel-asan

$(TUNE_TEST_OBJ)/fit-eval: tests/tune/fit_eval.c $(COMPILER_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_LINK)

LAUNCHER      ?= local
LAUNCHER_OPTS ?=
bench-tune: $(BIN)/tessel $(TUNE_TEST_OBJ)/fit-eval $(TUNE_TEST_OBJ)/pair-eval $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@LAUNCHER='$(LAUNCHER)' LAUNCHER_OPTS='$(LAUNCHER_OPTS)' bash tests/tune/bench.sh $(BUILD)/bench-tmp/tune $(BIN)/tessel $(TUNE_TEST_OBJ)/fit-eval $(TUNE_TEST_OBJ)/pair-eval

# make bench-cost-rtl: the cost model against the SoC per kernel of the five
# nets (estimate vs RTL cycles, busy cycles per unit, error classes).
BENCHES += cost-rtl
.PHONY: bench-cost-rtl
$(TUNE_TEST_OBJ)/pair-eval: tests/tune/pair_eval.c $(COMPILER_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_LINK)

bench-cost-rtl: $(BIN)/tessel $(TUNE_TEST_OBJ)/pair-eval $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@bash tests/tune/cost_vs_rtl.sh $(BUILD)/bench-tmp/cost-rtl $(BIN)/tessel $(TUNE_TEST_OBJ)/pair-eval $(NETS)
