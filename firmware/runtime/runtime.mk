# firmware/runtime/runtime.mk: the runtime library and the runner firmware,
# built once per target (the driver and the backend take the target's sizes
# and hash from build/gen/<t>/tessel_target.h).
#
#   build/firmware/<t>/libtessel-rt.a   runtime + fallback ops + package reader + NPU driver:
#                                       what a firmware links to run a package (docs/runtime.md)
#   build/firmware/<t>/tessel-fw.elf    the runner `tessel run --engine rtl` boots on tessel-sim
#                                       (with every core kernel: tfw_ops_all.c)
#   build/firmware/tessel-fw.elf        the default target's runner (npu8)
#
# The executor and fallback ops are shared/'s (one for every engine: the host's
# `tessel` links the host build of the same sources); their RV32 objects come from
# shared/rules.mk.

RT_TARGETS  := npu2 npu4 npu8 npu16 npu8-arty
RT_SRCS     := firmware/runtime/tfw_npu.c
# Archive members in this order: the executor first, as before the move to shared/.
# rt_members T[, -os]: the -os members are the -Os builds (the core-sequenced library).
rt_members   = $(SHARED_RV$(if $(2),_OS)_OBJ)/tfw_exec.o $(SHARED_RV$(if $(2),_OS)_FB_OBJS) \
               $(BUILD)/obj/fw-rt$(2)/$(1)/tfw_npu.o $(BUILD)/obj/fw-rt$(2)/$(1)/tfw_cvt.o \
               $(SHARED_RV$(if $(2),_OS)_OBJ)/tpkg_check.o $(SHARED_RV$(if $(2),_OS)_OBJ)/crc32.o
RT_HDRS     := $(wildcard firmware/runtime/*.h) $(wildcard shared/*.h) firmware/npu/npu.h \
               sim/npu-model/cost_model.h $(BUILD)/gen/tessel_isa.h $(FW_HDRS)
# -ffp-contract=off: the fallback ops' float arithmetic must round as on the host.
# sim/npu-model: the cost model's header (the stream fetch's cycles per command).
RT_CFLAGS    = $(FW_CFLAGS) -ffp-contract=off -I$(BUILD)/gen/$(1) -I$(BUILD)/gen -Ifirmware/npu -Ifirmware/runtime \
               -Isim/npu-model $(SHARED_INC)

# rt_target T: the library and the runner of target T.
define rt_target
$(BUILD)/obj/fw-rt/$(1)/%.o: firmware/runtime/%.c $(RT_HDRS) $(BUILD)/gen/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(call RT_CFLAGS,$(1)) -c $$< -o $$@
$(FW_OUT)/$(1)/libtessel-rt.a: $(call rt_members,$(1)) \
                               $(BUILD)/obj/fw-npu/$(1)/npu.o $(BUILD)/obj/fw-npu/$(1)/tessel_isa_tables.o
	@mkdir -p $$(@D)
	@rm -f $$@
	$$(call say,AR,$$@)
	$$(Q)$(RV_PREFIX)ar rcs $$@ $$^
$(FW_OUT)/$(1)/tessel-fw.elf: $(BUILD)/obj/fw-rt/$(1)/runner.o $(BUILD)/obj/fw-rt/$(1)/tfw_ops_all.o \
                              $(FW_OUT)/$(1)/libtessel-rt.a $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$$(call say,LD-RV32,$$@)
	$$(Q)$$(call fw_link,sim.ld,$$< $(BUILD)/obj/fw-rt/$(1)/tfw_ops_all.o $(FW_OUT)/$(1)/libtessel-rt.a)
endef
$(foreach t,$(RT_TARGETS),$(eval $(call rt_target,$(t))))

# rt_seq_target T: the same for T's core-sequenced NPU (docs/npu-seq.md), in
# build/firmware/T-seq/: the driver is npu_seq.c on the C model's sources
# (firmware/npu/npu.mk) instead of npu.c, and every member is built -Os
# (the boards it is for are short of memory). Its runner keeps a smaller
# pool of prepared fallback records (runner.c, RUNNER_FB_POOL_BYTES): the
# NPU's C model takes its memories from the data memory's heap, which the
# runner's 20 KiB would leave too small.
RT_SEQ_FB_POOL := 8192
define rt_seq_target
$(BUILD)/obj/fw-rt-os/$(1)/%.o: firmware/runtime/%.c $(RT_HDRS) $(BUILD)/gen/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(call RT_CFLAGS,$(1)) $(RV_SIZE_CFLAGS) -c $$< -o $$@
$(FW_OUT)/$(1)-seq/libtessel-rt.a: $(call rt_members,$(1),-os) $(call npu_seq_objs,$(1))
	@mkdir -p $$(@D)
	@rm -f $$@
	$$(call say,AR,$$@)
	$$(Q)$(RV_AR_LTO) rcs $$@ $$^
$(BUILD)/obj/fw-rt-seq/$(1)/runner.o: firmware/runtime/runner.c $(RT_HDRS) $(BUILD)/gen/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(call RT_CFLAGS,$(1)) -DRUNNER_FB_POOL_BYTES=$(RT_SEQ_FB_POOL) -c $$< -o $$@
$(FW_OUT)/$(1)-seq/tessel-fw.elf: $(BUILD)/obj/fw-rt-seq/$(1)/runner.o $(BUILD)/obj/fw-rt/$(1)/tfw_ops_all.o \
                                  $(FW_OUT)/$(1)-seq/libtessel-rt.a $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$$(call say,LD-RV32,$$@)
	$$(Q)$$(call fw_link,sim.ld,$$< $(BUILD)/obj/fw-rt/$(1)/tfw_ops_all.o $(FW_OUT)/$(1)-seq/libtessel-rt.a)
endef
$(foreach t,$(NPU_SEQ_TARGETS),$(eval $(call rt_seq_target,$(t))))

$(FW_OUT)/tessel-fw.elf: $(FW_OUT)/npu8/tessel-fw.elf
	$(call say,COPY,$@)
	$(Q)cp $< $@

# npu16's runner is built on demand, like its simulator.
RT_FW_ELFS := $(FW_OUT)/npu4/tessel-fw.elf $(FW_OUT)/npu8/tessel-fw.elf $(FW_OUT)/tessel-fw.elf
ALL += $(RT_FW_ELFS)
.SECONDARY: $(foreach t,$(RT_TARGETS),$(patsubst %.c,$(BUILD)/obj/fw-rt/$(t)/%.o,$(notdir $(RT_SRCS)) runner.c tfw_ops_all.c))
