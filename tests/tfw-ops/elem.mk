# tests/tfw-ops/elem.mk: the control core's element-wise kernels
# (shared/tfw_ops_elem.c) and the libm-free math under them (shared/tfw_math.c).
# Included from tests/rules.mk.
#
#   make test-tfw-ops-elem   cmocka under ASan/UBSan: each math function against
#                            double libm over ~1M floats of every class plus dense
#                            sweeps (max ulp error printed, documented bound
#                            asserted); each UNARY/BINARY/WHERE/CAST/LUT function on
#                            known answers, broadcasting against a naive reference,
#                            integer wrap, and every error (nothing written)
#
# The kernels are shared/'s (in the shared library); only the tests are built here.

TFW_ELEM_OBJ  := $(BUILD)/obj/tests/tfw-ops
TFW_ELEM_TEST := $(TFW_ELEM_OBJ)/test_elem
TFW_ELEM_SRCS := tests/tfw-ops/test_elem.c tests/tfw-ops/test_elem_math.c
TFW_ELEM_HDRS := tests/tfw-ops/elem_test.h shared/tfw_ops.h shared/tfw_math.h shared/tfw_ops_fn.def \
                 shared/tfw_fallback.h shared/tpkg_format.h

$(TFW_ELEM_TEST): $(TFW_ELEM_SRCS) $(TFW_ELEM_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(TFW_ELEM_SRCS) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops)

ALL         += $(TFW_ELEM_TEST)
TEST_SUITES += tfw-ops-elem
.PHONY: test-tfw-ops-elem
test-tfw-ops-elem: $(TFW_ELEM_TEST)
	@$(TFW_ELEM_TEST)
