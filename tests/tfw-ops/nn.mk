# tests/tfw-ops/nn.mk: the control core's network kernels (shared/tfw_ops_nn.c:
# MatMul/Gemm, Conv, ConvTranspose, pooling). Included from tests/rules.mk.
#
#   make test-tfw-ops-nn   cmocka under ASan/UBSan (tests/tfw-ops/test_nn.c):
#                          random shapes against double-precision references,
#                          the documented f32 order bit for bit, edge cases, and
#                          bad calls (right code, nothing written)
#
# The kernels are shared/'s, linked from its sanitizer build; -ffp-contract=off
# here too, so the test's own f32 model of the order rounds as the kernels do.
# standin_tfw_math.c: libm's powf/sqrtf until shared/tfw_math.c lands (drop it then).

TFW_NN_OBJ  := $(BUILD)/obj/tests/tfw-ops
TFW_NN_TEST := $(TFW_NN_OBJ)/test_nn
TFW_NN_SRCS := tests/tfw-ops/test_nn.c tests/tfw-ops/standin_tfw_math.c
TFW_NN_HDRS := shared/tfw_ops.h shared/tfw_math.h shared/tfw_fallback.h shared/tpkg_format.h

$(TFW_NN_TEST): $(TFW_NN_SRCS) $(TFW_NN_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(TFW_NN_SRCS) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) -ffp-contract=off $(SHARED_INC))

ALL         += $(TFW_NN_TEST)
TEST_SUITES += tfw-ops-nn
.PHONY: test-tfw-ops-nn
test-tfw-ops-nn: $(TFW_NN_TEST)
	@$(TFW_NN_TEST)
