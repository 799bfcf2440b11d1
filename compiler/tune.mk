# compiler/tune.mk: the autotuner (issue 10), included by compiler/rules.mk
# after the compiler's library lists.
#
#   compiler/tune/*.c       log, graph keys and applying logs, search space,
#                           measurement (fork/exec of `tessel run`), cost-model
#                           refit, the driver; they join the compiler library,
#                           compiler/tune_cli.c is `tessel tune` (picked up by
#                           the wildcard there)
#   make test-tune          tests/tune/run.sh: reproducible seeded tune on the C
#                           model, tuned <= default per kernel, outputs bit for
#                           bit, bad/foreign log lines, bad arguments, a short
#                           RTL tune
#   make bench-tune         default vs tuned cycles per net at npu8 (RTL), the
#                           cost model's error before/after the refit

TUNE_SRCS     := $(wildcard compiler/tune/*.c)
TUNE_OBJS     := $(patsubst compiler/%.c,$(COMPILER_OBJ)/%.o,$(TUNE_SRCS))
TUNE_OBJS_SAN := $(patsubst compiler/%.c,$(COMPILER_OBJ_SAN)/%.o,$(TUNE_SRCS))

COMPILER_LIB_SRCS     += $(TUNE_SRCS)
COMPILER_LIB_OBJS     += $(TUNE_OBJS)
COMPILER_LIB_OBJS_SAN += $(TUNE_OBJS_SAN)

$(TUNE_OBJS) $(TUNE_OBJS_SAN) $(COMPILER_OBJ)/tune_cli.o $(COMPILER_OBJ_SAN)/tune_cli.o: \
  | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h

-include $(wildcard $(COMPILER_OBJ)/tune/*.d $(COMPILER_OBJ_SAN)/tune/*.d)

TEST_SUITES += tune
BENCHES     += tune
.PHONY: test-tune bench-tune

TUNE_TEST_OBJ := $(BUILD)/obj/tune-tests
$(TUNE_TEST_OBJ)/test-tune: tests/tune/test_tune.c $(COMPILER_LIB_OBJS_SAN)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -o $@ $< $(COMPILER_LIB_OBJS_SAN) -lcmocka -lprotobuf-c -lm

test-tune: $(BIN)/tessel-asan $(TUNE_TEST_OBJ)/test-tune $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@bash tests/tune/run.sh $(BUILD)/test-tmp/tune $(BIN)/tessel-asan $(TUNE_TEST_OBJ)/test-tune

$(TUNE_TEST_OBJ)/fit-eval: tests/tune/fit_eval.c $(COMPILER_LIB_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_LIB_OBJS) -lprotobuf-c -lm

bench-tune: $(BIN)/tessel $(TUNE_TEST_OBJ)/fit-eval $(TUNE_TEST_OBJ)/pair-eval $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@bash tests/tune/bench.sh $(BUILD)/bench-tmp/tune $(BIN)/tessel $(TUNE_TEST_OBJ)/fit-eval $(TUNE_TEST_OBJ)/pair-eval

# make bench-cost-rtl: the cost model against the SoC per kernel of the five
# nets (estimate vs RTL cycles, busy cycles per unit, error classes).
BENCHES += cost-rtl
.PHONY: bench-cost-rtl
$(TUNE_TEST_OBJ)/pair-eval: tests/tune/pair_eval.c $(COMPILER_LIB_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -o $@ $< $(COMPILER_LIB_OBJS) -lprotobuf-c -lm

bench-cost-rtl: $(BIN)/tessel $(TUNE_TEST_OBJ)/pair-eval $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@bash tests/tune/cost_vs_rtl.sh $(BUILD)/bench-tmp/cost-rtl $(BIN)/tessel $(TUNE_TEST_OBJ)/pair-eval $(NETS)
