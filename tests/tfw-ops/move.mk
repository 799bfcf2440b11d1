# tests/tfw-ops/move.mk: the tfw-ops-move suite, the control core's data-movement and
# reduction kernels (shared/tfw_ops_move.c, shared/tfw_ops_reduce.c, shared/tfw_ops_softmax.c). Included from
# tests/rules.mk.
#
#   make test-tfw-ops-move   cmocka under ASan/UBSan against reference implementations,
#                            ending with the RV32 firmware's checksums of fixed calls
#                            (on tessel-iss) compared with the host's: bit-exact
#
# The kernels are shared/'s: the host test links libtessel-shared-asan.a, the firmware
# the RV32 objects (both -ffp-contract=off); only the tests' own sources are compiled
# here.

TOPS_MOVE_OBJ    := $(BUILD)/obj/tests/tfw-ops-move
TOPS_MOVE_TEST   := $(TOPS_MOVE_OBJ)/test_ops_move
TOPS_MOVE_FW_ELF := $(FW_OUT)/tests/fw_ops_move_crc.elf
TOPS_MOVE_SRC    := tests/tfw-ops/test_ops_move.c tests/tfw-ops/move_checksum.c
TOPS_MOVE_FW_SRC := tests/tfw-ops/fw_ops_move_crc.c tests/tfw-ops/move_checksum.c
TOPS_MOVE_HDRS   := tests/tfw-ops/move_checksum.h tests/tfw-ops/resize_onnx_cases.h shared/tfw_ops.h \
                    shared/tfw_ops_fn.def shared/tfw_math.h shared/tfw_fallback.h shared/tpkg_format.h shared/crc32.h
TOPS_MOVE_FW_OBJS := $(patsubst %.c,$(TOPS_MOVE_OBJ)/rv32/%.o,$(TOPS_MOVE_FW_SRC)) \
                     $(addprefix $(SHARED_RV_OBJ)/,tfw_ops_move.o tfw_ops_reduce.o tfw_ops_softmax.o tfw_fallback.o tfw_math.o crc32.o tpkg_check.o)

$(TOPS_MOVE_TEST): $(TOPS_MOVE_SRC) $(TOPS_MOVE_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(TOPS_MOVE_SRC) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops -Itests/runtime)

$(TOPS_MOVE_OBJ)/rv32/%.o: %.c $(TOPS_MOVE_HDRS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) -ffp-contract=off $(SHARED_INC) -Itests/tfw-ops -c $< -o $@
$(TOPS_MOVE_FW_ELF): $(TOPS_MOVE_FW_OBJS) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$(TOPS_MOVE_FW_OBJS))

ALL         += $(TOPS_MOVE_TEST) $(TOPS_MOVE_FW_ELF)
TEST_SUITES += tfw-ops-move
.PHONY: test-tfw-ops-move
test-tfw-ops-move: $(TOPS_MOVE_TEST) $(TOPS_MOVE_FW_ELF) $(TESSEL_ISS)
	@$(TOPS_MOVE_TEST) $(TESSEL_ISS) $(TOPS_MOVE_FW_ELF)
