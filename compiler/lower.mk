# compiler/lower.mk: the lowering (issue 7): quantised IR -> kernels -> command
# streams -> the package (through tpkg.h).  Included by compiler/rules.mk
# right after the compiler's library lists (and tpkg.mk), so the lowering,
# the one cost model and the target table join the library that `tessel`,
# its tests and its fuzzers link.
#
#   compiler/lower/*.c          the lowering's stages (one file each)
#   compiler/lower_compile.c    `tessel compile`: lower, report, fill the package
#   make test-lower-exact       lowered graphs and the four nets on the NPU C model
#                               == the int8 reference, bit for bit (npu4/8/16)
#   make test-lower-filecheck   FileCheck-14: layout, fusion, SRAM and tiling decisions

LOWER_SRCS      := $(wildcard compiler/lower/*.c)
LOWER_EXTRA_SRC := sim/npu-model/cost_model.c $(BUILD)/gen/tessel_targets.c
LOWER_OBJS      := $(patsubst compiler/%.c,$(COMPILER_OBJ)/%.o,$(LOWER_SRCS)) \
                   $(COMPILER_OBJ)/cost_model.o $(COMPILER_OBJ)/tessel_targets.o
LOWER_OBJS_SAN  := $(patsubst compiler/%.c,$(COMPILER_OBJ_SAN)/%.o,$(LOWER_SRCS)) \
                   $(COMPILER_OBJ_SAN)/cost_model.o $(COMPILER_OBJ_SAN)/tessel_targets.o
LOWER_GEN_H     := $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h

COMPILER_LIB_SRCS     += $(LOWER_SRCS) $(LOWER_EXTRA_SRC)
COMPILER_LIB_OBJS     += $(LOWER_OBJS)
COMPILER_LIB_OBJS_SAN += $(LOWER_OBJS_SAN)

$(LOWER_OBJS) $(LOWER_OBJS_SAN) $(COMPILER_OBJ)/lower_compile.o $(COMPILER_OBJ_SAN)/lower_compile.o: | $(LOWER_GEN_H)

$(COMPILER_OBJ)/cost_model.o: sim/npu-model/cost_model.c | $(LOWER_GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -c $< -o $@
$(COMPILER_OBJ_SAN)/cost_model.o: sim/npu-model/cost_model.c | $(LOWER_GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) $(SAN_FLAGS) -c $< -o $@
$(COMPILER_OBJ)/tessel_targets.o: $(BUILD)/gen/tessel_targets.c | $(LOWER_GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(BUILD)/gen -c $< -o $@
$(COMPILER_OBJ_SAN)/tessel_targets.o: $(BUILD)/gen/tessel_targets.c | $(LOWER_GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -I$(BUILD)/gen -c $< -o $@

-include $(wildcard $(COMPILER_OBJ)/lower/*.d $(COMPILER_OBJ_SAN)/lower/*.d)

# ---- tests ----
LOWER_TEST_OBJ := $(BUILD)/obj/lower-tests
NPU_MODEL_LIB  := $(BUILD)/lib/libtessel-npu-model.a

TEST_SUITES += lower-exact
.PHONY: test-lower-exact

$(LOWER_TEST_OBJ)/test-lower-exact: tests/lower/test_lower_exact.c $(COMPILER_LIB_OBJS_SAN) $(NPU_MODEL_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower $(SAN_FLAGS) -DMODELS_DIR='"$(CURDIR)/tests/models"' -o $@ $< \
	  $(COMPILER_LIB_OBJS_SAN) $(NPU_MODEL_LIB) -lprotobuf-c -lm

test-lower-exact: $(LOWER_TEST_OBJ)/test-lower-exact
	$(LOWER_TEST_OBJ)/test-lower-exact

TEST_SUITES += lower-filecheck
.PHONY: test-lower-filecheck
# The --emit-c test compiles the C array for rv32 with the firmware's flags.
test-lower-filecheck: $(BIN)/tessel-asan
	@RV_CC="$(RV_CC)" RV_CFLAGS="$(RV_CFLAGS)" RV_OBJCOPY="$(RV_OBJCOPY)" bash tests/compiler/lit.sh $(BIN)/tessel-asan $(sort $(wildcard tests/lower/filecheck/*.test))

# ---- bench: make bench-lower (figures only, no limits) ----
BENCHES += lower
.PHONY: bench-lower
$(LOWER_TEST_OBJ)/bench-lower: tests/lower/bench_lower.c $(COMPILER_LIB_OBJS) $(NPU_MODEL_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower -o $@ $< $(COMPILER_LIB_OBJS) $(NPU_MODEL_LIB) -lprotobuf-c -lm
bench-lower: $(LOWER_TEST_OBJ)/bench-lower $(BIN)/tessel
	@$(LOWER_TEST_OBJ)/bench-lower tests/models $(BIN)/tessel
