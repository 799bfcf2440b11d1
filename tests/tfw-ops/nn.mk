# tests/tfw-ops/nn.mk: the control core's network kernels (shared/tfw_ops_nn.c:
# MatMul/Gemm, Conv, ConvTranspose, pooling). Included from tests/rules.mk.
#
#   make test-tfw-ops-nn   cmocka under ASan/UBSan (tests/tfw-ops/test_nn.c):
#                          random shapes against double-precision references,
#                          the documented f32 order bit for bit, edge cases, bad
#                          calls (right code, nothing written), and last the
#                          firmware's checksums (RV32 on tessel-iss) against the
#                          host's (tests/tfw-ops/nn_checksum.c): same bits
#
# The kernels are shared/'s, linked from its sanitizer and RV32 builds;
# -ffp-contract=off here too, so the test's f32 model rounds as the kernels do.
# tfw_powf/tfw_sqrtf are shared/tfw_math.c's (the firmware checksum covers Lp
# pooling with p = 3, -DNN_CK_POWF).

TFW_NN_OBJ     := $(BUILD)/obj/tests/tfw-ops-nn
TFW_NN_TEST    := $(TFW_NN_OBJ)/test_nn
TFW_NN_FW_ELF  := $(FW_OUT)/tests/fw_nn_crc.elf
TFW_NN_HDRS    := tests/runtime/ck_rand.h shared/tfw_ops.h shared/tfw_math.h shared/tfw_fallback.h shared/tpkg_format.h \
                  shared/crc32.h tests/tfw-ops/nn_checksum.h
TFW_NN_MATH_RV := $(SHARED_RV_OBJ)/tfw_math.o
TFW_NN_CK      := -DNN_CK_POWF
TFW_NN_SRCS    := tests/tfw-ops/test_nn.c tests/tfw-ops/nn_checksum.c
TFW_NN_FW_SRCS := tests/tfw-ops/fw_nn_crc.c tests/tfw-ops/nn_checksum.c
TFW_NN_FW_OBJS := $(patsubst %.c,$(TFW_NN_OBJ)/rv32/%.o,$(TFW_NN_FW_SRCS)) $(SHARED_RV_OBJ)/crc32.o \
                  $(SHARED_RV_OBJ)/tfw_ops_nn.o $(TFW_NN_MATH_RV)

# Host: the test and everything it links, under ASan/UBSan.
$(TFW_NN_TEST): $(TFW_NN_SRCS) $(TFW_NN_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(TFW_NN_SRCS) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops -Itests/runtime $(TFW_NN_CK))

# RV32: the same checksum code on the firmware base.
# (shared/rules.mk: whether tfw_math.c is built changes TFW_NN_CK)
$(TFW_NN_OBJ)/rv32/%.o: %.c $(TFW_NN_HDRS) $(FW_HDRS) shared/rules.mk tests/tfw-ops/nn.mk
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops -Itests/runtime $(TFW_NN_CK) -c $< -o $@
$(TFW_NN_FW_ELF): $(filter-out -lm,$(TFW_NN_FW_OBJS)) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$(TFW_NN_FW_OBJS))

ALL         += $(TFW_NN_TEST) $(TFW_NN_FW_ELF)
TEST_SUITES += tfw-ops-nn
.PHONY: test-tfw-ops-nn
test-tfw-ops-nn: $(TFW_NN_TEST) $(TFW_NN_FW_ELF) $(TESSEL_ISS)
	@$(TFW_NN_TEST) $(TESSEL_ISS) $(TFW_NN_FW_ELF)
