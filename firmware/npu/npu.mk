# firmware/npu/npu.mk: the NPU driver, its test firmware and the NPU system
# tests (docs/npu-system.md). Included from firmware/rules.mk.
#
#   build/firmware/<t>/npu-run.elf     batch runner firmware, driver built for target t
#   build/firmware/<t>/npu-probe.elf   driver checks that need no NPU run
#   build/bin/tessel-npu-sysgen        random valid/invalid stream generator + C-model side
#
# The driver is built per target: it takes sizes and the target hash from
# build/gen/<t>/tessel_target.h. (targets/rules.mk is parsed after this file,
# so paths into build/gen are spelled out here, not taken from its variables.)

NPU_FW_TARGETS := npu4 npu8 npu16
NPU_GEN        := $(BUILD)/gen
NPU_FW_HDRS    := firmware/npu/npu.h tests/npu-system/npu_batch.h $(NPU_GEN)/tessel_isa.h $(FW_HDRS)

# npu_fw_target T: objects and ELFs of target T.
define npu_fw_target
$(BUILD)/obj/fw-npu/$(1)/%.o: firmware/npu/%.c $(NPU_FW_HDRS) $(NPU_GEN)/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$(RV_CC) $(FW_CFLAGS) -I$(NPU_GEN)/$(1) -I$(NPU_GEN) -Ifirmware/npu -Itests/npu-system -c $$< -o $$@
$(BUILD)/obj/fw-npu/$(1)/tests/%.o: firmware/npu/tests/%.c $(NPU_FW_HDRS) $(NPU_GEN)/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$(RV_CC) $(FW_CFLAGS) -I$(NPU_GEN)/$(1) -I$(NPU_GEN) -Ifirmware/npu -Itests/npu-system -c $$< -o $$@
$(BUILD)/obj/fw-npu/$(1)/tessel_isa_tables.o: $(NPU_GEN)/tessel_isa_tables.c $(NPU_GEN)/tessel_isa.h
	@mkdir -p $$(@D)
	$(RV_CC) $(FW_CFLAGS) -I$(NPU_GEN) -c $$< -o $$@
$(FW_OUT)/$(1)/npu-%.elf: $(BUILD)/obj/fw-npu/$(1)/tests/npu_%.o $(BUILD)/obj/fw-npu/$(1)/npu.o \
                          $(BUILD)/obj/fw-npu/$(1)/tessel_isa_tables.o $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$$(call fw_link,sim.ld,$$(filter-out $(FW_CRT0),$$(filter %.o,$$^)))
endef
$(foreach t,$(NPU_FW_TARGETS),$(eval $(call npu_fw_target,$(t))))

NPU_FW_TESTS := $(patsubst firmware/npu/tests/npu_%.c,%,$(wildcard firmware/npu/tests/npu_*.c))
# npu16 is built on demand only (make build/firmware/npu16/npu-run.elf).
NPU_FW_ELFS := $(foreach t,npu4 npu8,$(patsubst %,$(FW_OUT)/$(t)/npu-%.elf,$(NPU_FW_TESTS)))
ALL += $(NPU_FW_ELFS)
.SECONDARY: $(foreach t,$(NPU_FW_TARGETS),$(BUILD)/obj/fw-npu/$(t)/npu.o \
  $(BUILD)/obj/fw-npu/$(t)/tessel_isa_tables.o $(patsubst %,$(BUILD)/obj/fw-npu/$(t)/tests/npu_%.o,$(NPU_FW_TESTS)))
