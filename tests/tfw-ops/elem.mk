# tests/tfw-ops/elem.mk: the control core's element-wise kernels
# (shared/tfw_ops_elem.c) and the libm-free math under them (shared/tfw_math.c).
# Included from tests/rules.mk.
#
#   make test-tfw-ops-elem   cmocka under ASan/UBSan: each math function against
#                            double libm over ~1M floats of every class plus dense
#                            sweeps (max ulp error printed, documented bound
#                            asserted); each UNARY/BINARY/WHERE/CAST/LUT/MUL_Q function on
#                            known answers, broadcasting against a naive reference,
#                            integer wrap, and every error (nothing written); last,
#                            the checksums of elem_checksum.c on the host and from
#                            the RV32 firmware (fw_elem_crc.elf on tessel-iss) must match
#
# The kernels are shared/'s (its host library and RV32 objects, both -ffp-contract=off);
# only the tests are built here.

TFW_ELEM_OBJ  := $(BUILD)/obj/tests/tfw-ops-elem
TFW_ELEM_TEST := $(TFW_ELEM_OBJ)/test_elem
TFW_ELEM_SRCS := tests/tfw-ops/test_elem.c tests/tfw-ops/test_elem_math.c tests/tfw-ops/elem_checksum.c
TFW_ELEM_HDRS := tests/tfw-ops/elem_test.h tests/tfw-ops/elem_checksum.h tests/runtime/ck_rand.h shared/tfw_ops.h shared/tfw_math.h \
                 shared/tfw_ops_fn.def shared/tfw_fallback.h shared/tpkg_format.h shared/crc32.h
TFW_ELEM_ELF  := $(FW_OUT)/tests/fw_elem_crc.elf
TFW_ELEM_FW   := $(TFW_ELEM_OBJ)/rv32/fw_elem_crc.o $(TFW_ELEM_OBJ)/rv32/elem_checksum.o \
                 $(SHARED_RV_OBJ)/tfw_ops_elem.o $(SHARED_RV_OBJ)/tfw_math.o $(SHARED_RV_OBJ)/tpkg_check.o \
                 $(SHARED_RV_OBJ)/crc32.o

$(TFW_ELEM_TEST): $(TFW_ELEM_SRCS) $(TFW_ELEM_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(TFW_ELEM_SRCS) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops -Itests/runtime)

# RV32: the same checksum code on the firmware base.
$(TFW_ELEM_OBJ)/rv32/%.o: tests/tfw-ops/%.c $(TFW_ELEM_HDRS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops -Itests/runtime -c $< -o $@
$(TFW_ELEM_ELF): $(TFW_ELEM_FW) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$(TFW_ELEM_FW))

ALL         += $(TFW_ELEM_TEST) $(TFW_ELEM_ELF)
TEST_SUITES += tfw-ops-elem
.PHONY: test-tfw-ops-elem
test-tfw-ops-elem: $(TFW_ELEM_TEST) $(TFW_ELEM_ELF) $(TESSEL_ISS)
	@$(TFW_ELEM_TEST) $(TESSEL_ISS) $(TFW_ELEM_ELF)
