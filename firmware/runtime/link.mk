# firmware/runtime/link.mk: the host link (docs/host-link.md). Included from
# firmware/runtime/rules.mk after runtime.mk (whose per-target object rules
# compile link.c; link_proto.c is shared/'s RV32 object).
#
#   build/firmware/<t>/tessel-link.elf   the link firmware: package at 0x80010000, frames on the UART
#   make test-link                       cmocka unit test of the frames; the digits model over
#                                        tessel-sim --uart-pty and `tessel run --engine board`
#                                        (tests/link/run.sh)
#   make bench-link                      100 digits over the pty vs the rtl engine (tests/link/bench.sh)
#
# The host side (shared/link_proto.c, compiler/run/run_board.c, serial_port.c)
# is in the tessel binary through its libraries.

LINK_TARGETS := npu4 npu8 npu16
LINK_TEST_OBJ := $(BUILD)/obj/link-tests

define link_target
$(FW_OUT)/$(1)/tessel-link.elf: $(BUILD)/obj/fw-rt/$(1)/link.o $(SHARED_RV_OBJ)/link_proto.o \
                                $(BUILD)/obj/fw-rt/$(1)/tfw_ops_all.o $(FW_OUT)/$(1)/libtessel-rt.a $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$$(call say,LD-RV32,$$@)
	$$(Q)$$(call fw_link,sim.ld,$$< $(SHARED_RV_OBJ)/link_proto.o $(BUILD)/obj/fw-rt/$(1)/tfw_ops_all.o \
	  $(FW_OUT)/$(1)/libtessel-rt.a)
endef
$(foreach t,$(LINK_TARGETS),$(eval $(call link_target,$(t))))
.SECONDARY: $(foreach t,$(LINK_TARGETS),$(BUILD)/obj/fw-rt/$(t)/link.o $(SHARED_RV_OBJ)/link_proto.o)
$(foreach t,$(LINK_TARGETS),$(BUILD)/obj/fw-rt/$(t)/link.o $(SHARED_RV_OBJ)/link_proto.o): shared/link_proto.h


# npu16's is built on demand, like its runner.
ALL += $(FW_OUT)/npu4/tessel-link.elf $(FW_OUT)/npu8/tessel-link.elf

# Unit test of the frames: the protocol's one source, under the sanitizers.
$(LINK_TEST_OBJ)/link_proto_test: tests/link/link_proto_test.c $(SHARED_LIB_SAN)
	$(call host_link,$@,$< $(SHARED_LIB_SAN) -lcmocka,$(HOST_CFLAGS) $(SAN_FLAGS) $(SHARED_INC))

# link_variant NAME, TARGET, FLAGS: link.c for target TARGET with a board's
# -D options (package address, DRAM end, buffer sizes) as
# build/obj/link-NAME/link.o; a board's rules link it (boards/icebreaker).
define link_variant
$(BUILD)/obj/link-$(1)/link.o: firmware/runtime/link.c shared/link_proto.h $(RT_HDRS) $(BUILD)/gen/$(2)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $$(call RT_CFLAGS,$(2)) $(3) -c $$< -o $$@
endef

# The board's side of bad frames: link_poke sends them by hand to a link
# firmware whose partial-frame timeout is 2 M cycles instead of 24 M (so the
# TIMEOUT NAK comes in about a second of simulation; below).
$(LINK_TEST_OBJ)/link_poke: tests/link/link_poke.c $(COMPILER_LINK_DEPS_SAN)
	$(call host_link,$@,$< $(COMPILER_LINK_SAN),$(COMPILER_CFLAGS) $(SAN_FLAGS))
# Test builds of the link firmware for npu8: tessel-link-short.elf (that
# 2 M-cycle timeout) and tessel-link-small.elf (a 256-byte receive buffer:
# the host must refuse a package whose RUN frame is larger than HELLO says).
# link_test_fw NAME, FLAGS
define link_test_fw
$(call link_variant,$(1),npu8,$(2))
$(LINK_TEST_OBJ)/tessel-link-$(1).elf: $(BUILD)/obj/link-$(1)/link.o $(SHARED_RV_OBJ)/link_proto.o \
    $(BUILD)/obj/fw-rt/npu8/tfw_ops_all.o $(FW_OUT)/npu8/libtessel-rt.a $(FW_LINK_DEPS)
	$$(call say,LD-RV32,$$@)
	$$(Q)$$(call fw_link,sim.ld,$$< $(SHARED_RV_OBJ)/link_proto.o $(BUILD)/obj/fw-rt/npu8/tfw_ops_all.o \
	  $(FW_OUT)/npu8/libtessel-rt.a)
endef
$(eval $(call link_test_fw,short,-DTFW_LINK_RX_TIMEOUT=2000000))
$(eval $(call link_test_fw,small,-DTFW_LINK_RX_BYTES=256))

TEST_SUITES += link
.PHONY: test-link
test-link: $(LINK_TEST_OBJ)/link_proto_test $(LINK_TEST_OBJ)/link_poke $(LINK_TEST_OBJ)/tessel-link-short.elf \
           $(LINK_TEST_OBJ)/tessel-link-small.elf \
           $(BIN)/tessel-asan $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf $(BUILD)/isa/cli/loop.elf
	@bash tests/link/run.sh $(BUILD)/test-tmp/link $(LINK_TEST_OBJ)/link_proto_test $(BIN)/tessel-asan \
	  $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf $(BUILD)/isa/cli/loop.elf \
	  $(LINK_TEST_OBJ)/link_poke $(LINK_TEST_OBJ)/tessel-link-short.elf $(LINK_TEST_OBJ)/tessel-link-small.elf

# bench-link: the link's speed over the pty against the rtl engine (tests/link/bench.sh).
BENCHES += link
.PHONY: bench-link
bench-link: $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf $(FW_OUT)/npu8/tessel-fw.elf
	@bash tests/link/bench.sh $(BUILD)/bench/link $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf
