# compiler/lower.mk: the lowering (issue 7): quantised IR -> kernels -> command streams.
#
#   compiler/lower/*.c        the lowering's stages (built apart from the tessel
#                             library: they include the generated tessel_isa.h)
#   make test-lower-exact     lowered graphs on the NPU C model == ref_int8, bit for bit
#
# The sources live in compiler/lower/ so the compiler's own wildcard (and its
# fuzzers, which do not see build/gen) stay untouched.

LOWER_SRCS    := $(wildcard compiler/lower/*.c)
LOWER_OBJ_SAN := $(BUILD)/obj/lower-asan
LOWER_CFLAGS  := $(HOST_CFLAGS) -Icompiler -Icompiler/lower -Isim/npu-model -I$(BUILD)/gen -MMD -MP
LOWER_GEN_H   := $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h
LOWER_OBJS_SAN := $(patsubst compiler/lower/%.c,$(LOWER_OBJ_SAN)/%.o,$(LOWER_SRCS))
NPU_MODEL_LIB := $(BUILD)/lib/libtessel-npu-model.a
# The parts of the compiler library the lowering and its tests use (not all of
# it: a half-written module elsewhere must not stop this suite from building).
LOWER_IR_OBJS_SAN := $(filter-out $(COMPILER_OBJ_SAN)/tpkg% $(COMPILER_OBJ_SAN)/emit_c.o $(COMPILER_OBJ_SAN)/crc32.o \
                       $(COMPILER_OBJ_SAN)/cli.o,$(COMPILER_LIB_OBJS_SAN))

TEST_SUITES += lower-exact
.PHONY: test-lower-exact

$(LOWER_OBJ_SAN)/%.o: compiler/lower/%.c | $(LOWER_GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(LOWER_CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(LOWER_OBJ_SAN)/test-lower-exact: tests/lower/test_lower_exact.c $(LOWER_OBJS_SAN) \
                                   $(LOWER_IR_OBJS_SAN) $(NPU_MODEL_LIB) | $(LOWER_GEN_H)
	$(HOST_CC) $(LOWER_CFLAGS) $(SAN_FLAGS) -DMODELS_DIR='"$(CURDIR)/tests/models"' -o $@ $< $(LOWER_OBJS_SAN) \
	  $(LOWER_IR_OBJS_SAN) $(NPU_MODEL_LIB) -lprotobuf-c -lm

test-lower-exact: $(LOWER_OBJ_SAN)/test-lower-exact
	$(LOWER_OBJ_SAN)/test-lower-exact

-include $(wildcard $(LOWER_OBJ_SAN)/*.d)
