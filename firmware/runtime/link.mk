# firmware/runtime/link.mk: the host link (docs/host-link.md). Included from
# firmware/runtime/rules.mk after runtime.mk (whose per-target object rules
# compile link.c and compiler/link_proto.c for the firmware).
#
#   build/firmware/<t>/tessel-link.elf   the link firmware: package at 0x80010000, frames on the UART
#   make test-link                       cmocka unit test of the frames; the digits model over
#                                        tessel-sim --uart-pty and `tessel run --engine board`
#                                        (tests/link/run.sh)
#   make bench-link                      100 digits over the pty vs the rtl engine (tests/link/bench.sh)
#
# The host side (compiler/link_proto.c, run_board.c, serial_port.c) joins
# the tessel binary through the compiler's wildcard.

LINK_TARGETS := npu4 npu8 npu16
LINK_TEST_OBJ := $(BUILD)/obj/link-tests

define link_target
$(FW_OUT)/$(1)/tessel-link.elf: $(BUILD)/obj/fw-rt/$(1)/link.o $(BUILD)/obj/fw-rt/$(1)/link_proto.o \
                                $(FW_OUT)/$(1)/libtessel-rt.a $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$$(call fw_link,sim.ld,$$< $(BUILD)/obj/fw-rt/$(1)/link_proto.o $(FW_OUT)/$(1)/libtessel-rt.a)
endef
$(foreach t,$(LINK_TARGETS),$(eval $(call link_target,$(t))))
.SECONDARY: $(foreach t,$(LINK_TARGETS),$(BUILD)/obj/fw-rt/$(t)/link.o $(BUILD)/obj/fw-rt/$(t)/link_proto.o)
$(foreach t,$(LINK_TARGETS),$(BUILD)/obj/fw-rt/$(t)/link.o $(BUILD)/obj/fw-rt/$(t)/link_proto.o): compiler/link_proto.h

# npu16's is built on demand, like its runner.
ALL += $(FW_OUT)/npu4/tessel-link.elf $(FW_OUT)/npu8/tessel-link.elf

# Unit test of the frames: the protocol's one source, under the sanitizers.
$(LINK_TEST_OBJ)/link_proto_test: tests/link/link_proto_test.c compiler/link_proto.c compiler/crc32.c \
                                  compiler/link_proto.h compiler/crc32.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Icompiler -o $@ tests/link/link_proto_test.c \
	  compiler/link_proto.c compiler/crc32.c -lcmocka

# The board's side of bad frames: link_poke sends them by hand to a link
# firmware whose partial-frame timeout is 2 M cycles instead of 24 M (so the
# TIMEOUT NAK comes in about a second of simulation).
$(LINK_TEST_OBJ)/link_poke: tests/link/link_poke.c compiler/link_proto.c compiler/crc32.c compiler/serial_port.c \
                            compiler/diag.c compiler/link_proto.h compiler/serial_port.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Icompiler -o $@ tests/link/link_poke.c compiler/link_proto.c \
	  compiler/crc32.c compiler/serial_port.c compiler/diag.c
$(LINK_TEST_OBJ)/link-short.o: firmware/runtime/link.c compiler/link_proto.h $(RT_HDRS) $(BUILD)/gen/npu8/tessel_target.h
	@mkdir -p $(@D)
	$(RV_CC) $(call RT_CFLAGS,npu8) -DTFW_LINK_RX_TIMEOUT=2000000 -c $< -o $@
$(LINK_TEST_OBJ)/tessel-link-short.elf: $(LINK_TEST_OBJ)/link-short.o $(BUILD)/obj/fw-rt/npu8/link_proto.o \
                                        $(FW_OUT)/npu8/libtessel-rt.a $(FW_LINK_DEPS)
	$(call fw_link,sim.ld,$< $(BUILD)/obj/fw-rt/npu8/link_proto.o $(FW_OUT)/npu8/libtessel-rt.a)

TEST_SUITES += link
.PHONY: test-link
test-link: $(LINK_TEST_OBJ)/link_proto_test $(LINK_TEST_OBJ)/link_poke $(LINK_TEST_OBJ)/tessel-link-short.elf \
           $(BIN)/tessel-asan $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf $(BUILD)/isa/cli/loop.elf
	@bash tests/link/run.sh $(BUILD)/test-tmp/link $(LINK_TEST_OBJ)/link_proto_test $(BIN)/tessel-asan \
	  $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf $(BUILD)/isa/cli/loop.elf \
	  $(LINK_TEST_OBJ)/link_poke $(LINK_TEST_OBJ)/tessel-link-short.elf

# run_board.c reaches the generated ISA and target headers through
# run_engine.h: generated first on a clean tree.
$(COMPILER_OBJ)/run_board.o $(COMPILER_OBJ_SAN)/run_board.o: | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h

# bench-link: the link's speed over the pty against the rtl engine (tests/link/bench.sh).
BENCHES += link
.PHONY: bench-link
bench-link: $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf $(FW_OUT)/npu8/tessel-fw.elf
	@bash tests/link/bench.sh $(BUILD)/bench/link $(BIN)/tessel $(BUILD)/npu8/tessel-sim $(FW_OUT)/npu8/tessel-link.elf
