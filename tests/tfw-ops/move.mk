# tests/tfw-ops/move.mk: the tfw-ops-move suite, the control core's data-movement and
# reduction kernels (shared/tfw_ops_move.c, shared/tfw_ops_reduce.c). Included from
# tests/rules.mk.
#
#   make test-tfw-ops-move   cmocka under ASan/UBSan against reference implementations
#
# The kernels are shared/'s (libtessel-shared-asan.a, -ffp-contract=off); only the test's
# own sources are compiled here. math_standin_move.c is a TEST-ONLY stand-in for the
# tfw_math.h functions the kernels call (weak, so shared/tfw_math.c wins once it is
# built): drop it from TOPS_MOVE_SRC then.

TOPS_MOVE_OBJ  := $(BUILD)/obj/tests/tfw-ops
TOPS_MOVE_TEST := $(TOPS_MOVE_OBJ)/test_ops_move
TOPS_MOVE_SRC  := tests/tfw-ops/test_ops_move.c tests/tfw-ops/math_standin_move.c
TOPS_MOVE_HDRS := shared/tfw_ops.h shared/tfw_ops_fn.def shared/tfw_math.h shared/tfw_fallback.h \
                  shared/tpkg_format.h

$(TOPS_MOVE_TEST): $(TOPS_MOVE_SRC) $(TOPS_MOVE_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(TOPS_MOVE_SRC) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) -ffp-contract=off $(SHARED_INC))

ALL         += $(TOPS_MOVE_TEST)
TEST_SUITES += tfw-ops-move
.PHONY: test-tfw-ops-move
test-tfw-ops-move: $(TOPS_MOVE_TEST)
	@$(TOPS_MOVE_TEST)
