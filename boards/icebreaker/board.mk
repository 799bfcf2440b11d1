# boards/icebreaker/board.mk: the iCEBreaker (iCE40UP5K), docs/boards.md.
#
#   make bitstream BOARD=icebreaker   yosys synth_ice40 -dsp -spram, nextpnr-ice40
#                                     (seed pinned), icepack; prints utilisation and
#                                     Fmax against the 12 MHz clock; fails on fit or timing
#   make flash BOARD=icebreaker       iceprog: bitstream, firmware image, package image
#                                     (FIRMWARE=x.elf, PACKAGE=x.tpkg optional)
#   make test-boards                  (boards/rules.mk) fit/timing, RTL and gate-level boot
#
# Everything the board is comes from board.cfg (read here once).

IB_DIR    := boards/icebreaker
IB_OUT    := $(BOARDS_OUT)/icebreaker
IB_OBJ    := $(BOARDS_OBJ)/icebreaker
IB_TARGET := $(call board_cfg,icebreaker,target)
IB_CLOCK  := $(call board_cfg,icebreaker,clock_mhz)
IB_SEED   := $(call board_cfg,icebreaker,seed)
IB_DEVICE := $(call board_cfg,icebreaker,fpga)
IB_PKG    := $(call board_cfg,icebreaker,package)
IB_DRAM   := $(call board_cfg,icebreaker,dram_bytes)
IB_IMEM   := $(call board_cfg,icebreaker,imem_bytes)
IB_DMEM   := $(call board_cfg,icebreaker,dmem_bytes)
IB_LITE   := $(if $(filter lite,$(call board_cfg,icebreaker,core)),1,0)
IB_TIMERW := $(call board_cfg,icebreaker,timer_bits)
IB_SLICE  := $(call board_cfg,icebreaker,mem_slice)
IB_BAUD   := $(call board_cfg,icebreaker,uart_baud)
IB_FL_BIT := $(call board_cfg,icebreaker,flash_bitstream)
IB_FL_FW  := $(call board_cfg,icebreaker,flash_firmware)
IB_FL_PKG := $(call board_cfg,icebreaker,flash_package)
IB_PCF    := $(IB_DIR)/$(call board_cfg,icebreaker,pins)
IB_LD     := linker/$(call board_cfg,icebreaker,linker)
IB_CPB    := $(shell echo $$(( $(IB_CLOCK) * 1000000 / $(IB_BAUD) )))
# The SPRAM's split (linker/icebreaker.ld): the package window's offset
# (__board_package; it ends at the SPRAM's end, IB_DRAM) and the stack;
# every link with icebreaker.ld takes them as IB_LD_FLAGS.
IB_PKG_DEST := $(call board_cfg,icebreaker,package_offset)
IB_STACK    := $(call board_cfg,icebreaker,stack_bytes)
IB_LD_FLAGS := -Wl,--defsym=__board_package_offset=$(IB_PKG_DEST) -Wl,--defsym=__board_memory_bytes=$(IB_DRAM) \
               -Wl,--defsym=__stack_size=$(IB_STACK)

# RTL (BOARD_SOC_SV and board_npu_sv: boards/rules.mk). With npu_seq = 1 the
# NPU is the core-sequenced one (docs/npu-seq.md): the datapath npu_seq_dp at
# the DIM of the board's target (npu2's while target = none), not tessel_npu.
IB_SEQ     := $(if $(filter 1,$(call board_cfg,icebreaker,npu_seq)),1,0)
IB_SEQ_TGT := $(if $(filter-out none,$(IB_TARGET)),$(IB_TARGET),npu2)
IB_SEQ_SV  := $(if $(filter 1,$(IB_SEQ)),$(BUILD)/gen/$(IB_SEQ_TGT)/tessel_target_pkg.sv rtl-model/npu/npu_seq_dp.sv)
IB_NPU_SV  := $(if $(filter 0,$(IB_SEQ)),$(if $(filter-out none,$(IB_TARGET)),$(call board_npu_sv,$(IB_TARGET))))
IB_NPU     := $(if $(IB_NPU_SV),1,0)
IB_SV      := $(IB_SEQ_SV) $(IB_NPU_SV) $(BOARD_SOC_SV) $(BOARDS_COMMON_SV) $(IB_DIR)/icebreaker_top.sv
IB_PARAMS  := chparam -set ClksPerBit $(IB_CPB) -set ImemBytes $(IB_IMEM) -set DmemBytes $(IB_DMEM) \
              -set CoreLite $(IB_LITE) -set TimerBits $(IB_TIMERW) -set MemSlice $(IB_SLICE) -set Npu $(IB_NPU) \
              -set NpuSeq $(IB_SEQ) \
              -set DramBytes $(IB_DRAM) -set FwFlash $(shell printf %d $(IB_FL_FW)) -set PkgFlash $(shell printf %d $(IB_FL_PKG)) icebreaker_top

IB_JSON    := $(IB_OUT)/icebreaker.json
IB_NETLIST := $(IB_OUT)/icebreaker_net.v
IB_ASC     := $(IB_OUT)/icebreaker.asc
IB_BIN     := $(IB_OUT)/icebreaker.bin
IB_REPORT  := $(IB_OUT)/report.txt
# IB_LINK_SIZE: the board's link firmware against its memory (below)
IB_LINK_SIZE := $(IB_OUT)/tessel-link.size

# ---- synthesis, place and route, pack -----------------------------------------
# One yosys run writes both the JSON for nextpnr and the Verilog netlist the
# gate-level bench simulates: the bench runs exactly what is placed.
$(IB_JSON) $(IB_NETLIST) &: $(IB_SV) $(IB_DIR)/board.cfg $(IB_DIR)/board.mk
	@mkdir -p $(IB_OUT)
	@echo "yosys synth_ice40 icebreaker_top ($(IB_TARGET), log $(IB_OUT)/yosys.log)"
	@nice -n 10 yosys -q -l $(IB_OUT)/yosys.log -p "read_verilog -sv $(IB_SV); $(IB_PARAMS); \
	  synth_ice40 -dsp -spram -top icebreaker_top -json $(IB_JSON); stat; \
	  write_verilog -noattr $(IB_NETLIST)" >/dev/null 2>&1 \
	  || { tail -n 20 $(IB_OUT)/yosys.log; rm -f $(IB_JSON) $(IB_NETLIST); exit 1; }

# Place and route, then the report (utilisation, Fmax against the clock, a
# PASS/FAIL line each for fit and timing). The report is written whatever
# the outcome, so the figures are there when the design does not fit;
# nextpnr does not give up on timing itself (--timing-allow-fail): the report
# decides. The .asc is only kept when both pass.
$(IB_REPORT): $(IB_JSON) $(IB_PCF) $(IB_DIR)/ice40-report.sh
	@echo "nextpnr-ice40 --$(IB_DEVICE) --package $(IB_PKG) --seed $(IB_SEED) (log $(IB_OUT)/nextpnr.log)"
	@rm -f $(IB_ASC).tmp; nice -n 10 nextpnr-ice40 --$(IB_DEVICE) --package $(IB_PKG) --seed $(IB_SEED) \
	  --freq $(IB_CLOCK) --timing-allow-fail --json $(IB_JSON) --pcf $(IB_PCF) --asc $(IB_ASC).tmp \
	  >$(IB_OUT)/nextpnr.log 2>&1; \
	bash $(IB_DIR)/ice40-report.sh $(IB_OUT)/nextpnr.log $(IB_CLOCK) $(IB_TARGET) $$? $(if $(filter 1,$(IB_SEQ)),$(IB_SEQ_TGT)) > $@.tmp; \
	mv -f $@.tmp $@

$(IB_ASC): $(IB_REPORT)
	@if grep -q '^FAIL' $(IB_REPORT) || [ ! -s $@.tmp ]; then cat $(IB_REPORT); \
	  echo "icebreaker: no bitstream: fit or timing failed (logs: $(IB_OUT)/nextpnr.log, $(IB_OUT)/yosys.log)"; \
	  exit 1; fi
	@mv -f $@.tmp $@

$(IB_BIN): $(IB_ASC)
	$(call say,PACK,$@)
	$(Q)icepack $< $@

.PHONY: bitstream-icebreaker flash-icebreaker
bitstream-icebreaker: $(IB_BIN)
	@cat $(IB_REPORT)
	@echo "bitstream: $(IB_BIN)"

# ---- flash images -------------------------------------------------------------
FLASH_IMAGE := $(BIN)/tessel-flash-image
$(FLASH_IMAGE): boards/common/flash_image.c shared/host_file.h
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -Ishared $< -o $@
ALL += $(FLASH_IMAGE)

# ib_fw_image ELF, IMG: the firmware ELF as a flash image for the SPRAM at 0.
ib_fw_image = $(RV_OBJCOPY) -O binary $(1) $(2).raw && \
              $(FLASH_IMAGE) --dest 0 --mem-size $(IB_DRAM) $(2).raw $(2)

# make flash BOARD=icebreaker [FIRMWARE=x.elf] [PACKAGE=x.tpkg]: the
# bitstream always, the images when given. iceprog reports a missing
# programmer itself ("Can't find iCE FTDI USB device"); this says which step.
FIRMWARE ?=
PACKAGE  ?=
flash-icebreaker: $(IB_BIN) $(FLASH_IMAGE)
	@command -v iceprog >/dev/null || { echo "make flash: iceprog is not installed (apt-get install fpga-icestorm)" >&2; exit 1; }
	@set -e; \
	$(if $(FIRMWARE),$(call ib_fw_image,$(FIRMWARE),$(IB_OUT)/firmware.img);) \
	$(if $(PACKAGE),$(FLASH_IMAGE) --dest $(IB_PKG_DEST) --mem-size $(IB_DRAM) $(PACKAGE) $(IB_OUT)/package.img;) \
	for step in "$(IB_FL_BIT) $(IB_BIN)" \
	            $(if $(FIRMWARE),"$(IB_FL_FW) $(IB_OUT)/firmware.img") \
	            $(if $(PACKAGE),"$(IB_FL_PKG) $(IB_OUT)/package.img"); do \
	  set -- $$step; echo "iceprog -o $$1 $$2"; \
	  iceprog -o $$1 $$2 || { echo "make flash: iceprog failed writing $$2 at $$1 (is the iCEBreaker plugged in?)" >&2; exit 1; }; \
	done

# ---- the self-test firmware (tests/boards/board_selftest.c) -----------
# Linked with linker/icebreaker.ld on the firmware base; with an NPU, the
# firmware's NPU driver as firmware/npu/npu.mk builds it for the board's target.
IB_FW_OBJ   := $(IB_OBJ)/fw
IB_FW_ELF   := $(IB_OUT)/board-selftest.elf
IB_FW_IMG   := $(IB_OUT)/board-selftest.img
IB_FW_NPU   := $(if $(IB_NPU_SV),-DBOARD_NPU -I$(BUILD)/gen/$(IB_TARGET) -I$(BUILD)/gen -Ifirmware/npu) \
               $(if $(filter 1,$(IB_SEQ)),-DBOARD_NPU_SEQ)
IB_FW_OBJS  := $(IB_FW_OBJ)/board_selftest.o $(if $(IB_NPU_SV),$(BUILD)/obj/fw-npu/$(IB_TARGET)/npu.o)
IB_FW_GEN   := $(if $(IB_NPU_SV),$(BUILD)/gen/tessel_isa.h $(BUILD)/gen/$(IB_TARGET)/tessel_target.h)

$(IB_FW_OBJ)/board_selftest.o: tests/boards/board_selftest.c $(wildcard firmware/base/*.h) $(BUILD)/gen/tessel_memmap.h $(IB_FW_GEN)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(RV_CFLAGS) -ffreestanding -Ifirmware/base -I$(BUILD)/gen $(IB_FW_NPU) -c $< -o $@
$(IB_FW_ELF): $(IB_FW_OBJS) $(BUILD)/firmware/crt0.o $(BUILD)/firmware/libtessel-fw.a $(IB_LD) $(IB_DIR)/board.cfg linker/sections.ld $(BUILD)/gen/tessel_memmap.ld
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(RV_CFLAGS) -nostartfiles -Llinker -L$(BUILD)/gen -Wl,--no-warn-rwx-segments $(IB_LD_FLAGS) -T $(IB_LD) \
	  $(BUILD)/firmware/crt0.o $(IB_FW_OBJS) \
	  -Wl,--start-group $(BUILD)/firmware/libtessel-fw.a -lc -Wl,--end-group -o $@
$(IB_FW_IMG): $(IB_FW_ELF) $(FLASH_IMAGE)
	$(call ib_fw_image,$<,$@)

# ---- the bench: RTL and gate-level models of the board (tests/boards/board_tb.cpp) ------------
# The RTL build gets the same parameters as the synthesis; the netlist has
# them built in. -DNO_ICE40_DEFAULT_ASSIGNMENTS lets Verilator read yosys's
# cell library (its port defaults are not Verilog it accepts).
IB_TB_CPP   := tests/boards/board_tb.cpp
IB_TB_HDRS  := shared/host_file.h
IB_RTL_TB   := $(IB_OBJ)/rtl/board_tb
IB_GATE_TB  := $(IB_OBJ)/gate/board_tb
IB_CELLS    := $(shell yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v
IB_GPARAMS  := -GClksPerBit=$(IB_CPB) -GImemBytes=$(IB_IMEM) -GDmemBytes=$(IB_DMEM) -GDramBytes=$(IB_DRAM) \
               -GCoreLite=1\'b$(IB_LITE) -GTimerBits=$(IB_TIMERW) -GMemSlice=1\'b$(IB_SLICE) \
               -GFwFlash=$(shell printf %d $(IB_FL_FW)) -GPkgFlash=$(shell printf %d $(IB_FL_PKG))

# ib_tb DIR, EXTRA-FLAGS, SOURCES: one Verilator build of the bench (one job).
define ib_tb
	@mkdir -p $(1)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) -Wno-lint -Wno-style $(2) --top-module icebreaker_top \
	  --Mdir $(1) -o board_tb -CFLAGS "-std=c++17 -O1 -I$(abspath shared)" -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1" \
	  $(3) $(abspath $(IB_TB_CPP)) >$(1)/build.log 2>&1 || { tail -n 30 $(1)/build.log; exit 1; }
endef
$(IB_RTL_TB): $(IB_SV) $(IB_TB_CPP) $(IB_TB_HDRS) $(IB_DIR)/board.cfg
	$(call ib_tb,$(@D),$(IB_GPARAMS) -GNpu=1\'b$(IB_NPU) -GNpuSeq=1\'b$(IB_SEQ),$(IB_SV))
$(IB_GATE_TB): $(IB_NETLIST) $(IB_TB_CPP) $(IB_TB_HDRS)
	$(call ib_tb,$(@D),-DNO_ICE40_DEFAULT_ASSIGNMENTS -Wno-TIMESCALEMOD,$(abspath $(IB_NETLIST)) $(IB_CELLS))

# ---- the board with an NPU, in RTL only ------------------------------------------
# The UP5K cannot hold the NPU (docs/boards.md), but the board logic with the
# smallest target's NPU still runs in simulation: the same top and bench with
# npu2, and the self-test built with the NPU driver for it.
IB_RTL_NPU      := npu2
IB_NPU_RTL_TB   := $(IB_OBJ)/rtl-$(IB_RTL_NPU)/board_tb
IB_NPU_FW_OBJ   := $(IB_OBJ)/fw-$(IB_RTL_NPU)
IB_NPU_FW_ELF   := $(IB_OUT)/board-selftest-$(IB_RTL_NPU).elf
IB_NPU_FW_IMG   := $(IB_OUT)/board-selftest-$(IB_RTL_NPU).img
IB_NPU_FW_FLAGS := -DBOARD_NPU -I$(BUILD)/gen/$(IB_RTL_NPU) -I$(BUILD)/gen -Ifirmware/npu
IB_NPU_FW_DEPS  := $(wildcard firmware/base/*.h) firmware/npu/npu.h $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_memmap.h \
                   $(BUILD)/gen/$(IB_RTL_NPU)/tessel_target.h

$(IB_NPU_FW_OBJ)/board_selftest.o: tests/boards/board_selftest.c $(IB_NPU_FW_DEPS)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(RV_CFLAGS) -ffreestanding -Ifirmware/base -I$(BUILD)/gen $(IB_NPU_FW_FLAGS) -c $< -o $@
$(IB_NPU_FW_ELF): $(IB_NPU_FW_OBJ)/board_selftest.o $(BUILD)/obj/fw-npu/$(IB_RTL_NPU)/npu.o $(BUILD)/firmware/crt0.o \
                  $(BUILD)/firmware/libtessel-fw.a $(IB_LD) $(IB_DIR)/board.cfg linker/sections.ld $(BUILD)/gen/tessel_memmap.ld
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(RV_CFLAGS) -nostartfiles -Llinker -L$(BUILD)/gen -Wl,--no-warn-rwx-segments $(IB_LD_FLAGS) -T $(IB_LD) \
	  $(BUILD)/firmware/crt0.o $(filter %.o,$(filter-out %/crt0.o,$^)) \
	  -Wl,--start-group $(BUILD)/firmware/libtessel-fw.a -lc -Wl,--end-group -o $@
$(IB_NPU_FW_IMG): $(IB_NPU_FW_ELF) $(FLASH_IMAGE)
	$(call ib_fw_image,$<,$@)
$(IB_NPU_RTL_TB): $(call board_npu_sv,$(IB_RTL_NPU)) $(BOARD_SOC_SV) $(BOARDS_COMMON_SV) \
                  $(IB_DIR)/icebreaker_top.sv $(IB_TB_CPP) $(IB_TB_HDRS) $(IB_DIR)/board.cfg
	$(call ib_tb,$(@D),$(IB_GPARAMS) -GNpu=1\'b1,$(call board_npu_sv,$(IB_RTL_NPU)) $(BOARD_SOC_SV) \
	  $(BOARDS_COMMON_SV) $(IB_DIR)/icebreaker_top.sv)

# ---- suite boards --------------------------------------------------------------
# boards: the self-test booted from a flash model on the RTL and on the
# yosys netlist of the bitstream, refused images, tessel-flash-image's checks.
# The bitstream's place and route is part of the suite: its report's PASS/FAIL
# lines for fit and timing count as two checks (make test builds
# the iCEBreaker bitstream and checks fit and timing). bench-boards-fit
# prints the same report with its figures (utilisation, Fmax).
TEST_SUITES += boards
BENCHES     += boards-fit
.PHONY: test-boards bench-boards-fit
# Every board top is linted first (verilator -Wall, the SoC without the NPU;
# lint-soc covers the SoC with it); tests/boards/icebreaker.sh counts those lines too.
BOARD_TOPS := $(foreach b,$(filter-out sim,$(BOARDS)),$(wildcard boards/$(b)/*_top.sv))
test-boards: $(IB_RTL_TB) $(IB_GATE_TB) $(IB_FW_IMG) $(FLASH_IMAGE) $(IB_NPU_RTL_TB) $(IB_NPU_FW_IMG) $(IB_REPORT)
	@mkdir -p $(BUILD)/test-tmp/boards; : >$(BUILD)/test-tmp/boards/lint.txt; \
	grep -E '^(PASS|FAIL) ' $(IB_REPORT) >$(BUILD)/test-tmp/boards/fit.txt; \
	for top in $(BOARD_TOPS); do m=$$(basename $$top .sv); \
	  if $(VERILATOR) --lint-only -Wall --top-module $$m $(BOARD_SOC_SV) $(BOARDS_COMMON_SV) $$top \
	       >$(BUILD)/test-tmp/boards/lint-$$m.log 2>&1; \
	  then echo "PASS verilator --lint-only -Wall $$m"; \
	  else echo "FAIL verilator --lint-only -Wall $$m ($(BUILD)/test-tmp/boards/lint-$$m.log)"; fi \
	    >>$(BUILD)/test-tmp/boards/lint.txt; \
	done
	@IB_PKG_DEST=$(IB_PKG_DEST) IB_DRAM=$(IB_DRAM) bash tests/boards/icebreaker.sh $(IB_RTL_TB) $(IB_GATE_TB) $(IB_FW_IMG) $(FLASH_IMAGE) $(BUILD)/test-tmp/boards \
	  $(IB_NPU_RTL_TB) $(IB_NPU_FW_IMG) $(IB_RTL_NPU) $(IB_DIGITS_FW) $(IB_DIGITS_IMG)
bench-boards-fit: $(IB_REPORT) $(IB_LINK_SIZE)
	@cat $(IB_REPORT) $(IB_LINK_SIZE); p=$$(cat $^ | grep -c '^PASS'); f=$$(cat $^ | grep -c '^FAIL'); \
	echo "$$p passed, $$f failed"; [ $$f -eq 0 ] && [ $$p -eq 5 ]

# ---- the host link on the core-sequenced NPU -----------------------------------
# build/boards/icebreaker/tessel-link.elf: the link firmware (firmware/runtime/
# link.c, docs/host-link.md) for this board: the package in the SPRAM's
# package window (flash image 1), the NPU's window after it up to the end of
# the SPRAM, the runtime on the core-sequenced NPU of IB_SEQ_TARGET
# (firmware/runtime/runtime.mk, the T-seq library), and of the control
# core's kernels only those IB_LINK_PKG runs (`tessel emit-c --kernels-only`),
# in the part of the SPRAM linker/icebreaker.ld gives firmware (board.cfg's
# package_offset; ld names the overflow if it does not fit). IB_LINK_PKG
# defaults to the digits model compiled for the board's target; give
# another package to build the link for it (make ... IB_LINK_PKG=x.tpkg).
IB_SEQ_TARGET := $(IB_SEQ_TGT)
IB_LINK_OBJ   := $(IB_OBJ)/link
IB_LINK_ELF   := $(IB_OUT)/tessel-link.elf
IB_LINK_IMG   := $(IB_OUT)/tessel-link.img
IB_DIGITS_PKG := $(IB_OUT)/digits.tpkg
IB_DIGITS_IMG := $(IB_OUT)/digits.img
IB_LINK_PKG   ?= $(IB_DIGITS_PKG)
IB_LINK_DEFS  := -DTFW_LINK_PKG_ADDR=$(shell printf 0x%08xu $$((0x80000000 + $(IB_PKG_DEST)))) \
                 -DTFW_LINK_DRAM_END=$(shell printf 0x%08xu $$((0x80000000 + $(IB_DRAM)))) -DTFW_LINK_RX_BYTES=1024 -DTFW_LINK_STATS_MAX=8
IB_LINK_RTLIB := $(FW_OUT)/$(IB_SEQ_TARGET)-seq/libtessel-rt.a

$(IB_DIGITS_PKG): $(BIN)/tessel tests/models/digits/digits_cnn.onnx tests/models/digits/digits.calib.npy
	@mkdir -p $(@D)
	$(call say,COMPILE,$@)
	$(Q)$(BIN)/tessel compile tests/models/digits/digits_cnn.onnx --calib tests/models/digits/digits.calib.npy \
	  --target $(IB_SEQ_TARGET) -o $@
$(IB_DIGITS_IMG): $(IB_DIGITS_PKG) $(FLASH_IMAGE)
	$(Q)$(FLASH_IMAGE) --dest $(IB_PKG_DEST) --mem-size $(IB_DRAM) $< $@
# ib_kernels DIR, PKG: DIR/kernels.o, the control core's kernels PKG's list
# names (`tessel emit-c --kernels-only`), in the size build.
define ib_kernels
$(1)/kernels.c: $(2) $(BIN)/tessel
	@mkdir -p $$(@D)
	$$(call say,EMIT-C,$$@)
	$$(Q)$(BIN)/tessel emit-c $$< -o $$@ --kernels-only
$(1)/kernels.o: $(1)/kernels.c
	$$(call say,CC-RV32,$$<)
	$$(Q)$(RV_CC) $(RV_CFLAGS) $(RV_SIZE_CFLAGS) -c $$< -o $$@
endef
$(eval $(call ib_kernels,$(IB_LINK_OBJ),$(IB_LINK_PKG)))
# The size build (RV_SIZE_CFLAGS), as the runtime library's members (firmware/runtime/runtime.mk, rt_seq_target).
$(eval $(call link_variant,icebreaker,$(IB_SEQ_TARGET),$(IB_LINK_DEFS) $(RV_SIZE_CFLAGS)))
# link.o has the package window's address (IB_LINK_DEFS, from board.cfg).
$(BUILD)/obj/link-icebreaker/link.o: $(IB_DIR)/board.cfg
IB_LINK_OBJS := $(BUILD)/obj/link-icebreaker/link.o $(IB_LINK_OBJ)/kernels.o $(SHARED_RV_OS_OBJ)/link_proto.o
$(IB_LINK_ELF): $(IB_LINK_OBJS) $(IB_LINK_RTLIB) $(FW_LINK_DEPS) $(IB_LD) $(IB_DIR)/board.cfg
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,$(notdir $(IB_LD)),$(IB_LD_FLAGS) $(IB_LINK_OBJS) $(IB_LINK_RTLIB))
$(IB_LINK_IMG): $(IB_LINK_ELF) $(FLASH_IMAGE)
	$(call ib_fw_image,$<,$@)
# build/boards/icebreaker/board-digits.img: the digits model from the flash
# on the board's benches (tests/boards/board_digits.c): the firmware image
# with the first images of the test set and the int8 reference's outputs
# (the example's digits_images.h, firmware/runtime/example.mk), the package
# as flash image 1 (digits.img). The suite runs it on the RTL and on the
# gate-level netlist (tests/boards/icebreaker.sh).
IB_DIGITS_OBJ := $(IB_OBJ)/digits
IB_DIGITS_ELF := $(IB_OUT)/board-digits.elf
IB_DIGITS_FW  := $(IB_OUT)/board-digits.img
$(eval $(call ib_kernels,$(IB_DIGITS_OBJ),$(IB_DIGITS_PKG)))
$(IB_DIGITS_OBJ)/board_digits.o: tests/boards/board_digits.c $(EX_OBJ)/digits_images.h $(RT_HDRS) \
                                 $(BUILD)/gen/$(IB_SEQ_TARGET)/tessel_target.h
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(call RT_CFLAGS,$(IB_SEQ_TARGET)) $(RV_SIZE_CFLAGS) -I$(EX_OBJ) -c $< -o $@
IB_DIGITS_OBJS := $(IB_DIGITS_OBJ)/board_digits.o $(IB_DIGITS_OBJ)/kernels.o
$(IB_DIGITS_ELF): $(IB_DIGITS_OBJS) $(IB_LINK_RTLIB) $(FW_LINK_DEPS) $(IB_LD) $(IB_DIR)/board.cfg
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,$(notdir $(IB_LD)),$(IB_LD_FLAGS) $(IB_DIGITS_OBJS) $(IB_LINK_RTLIB))
$(IB_DIGITS_FW): $(IB_DIGITS_ELF) $(FLASH_IMAGE)
	$(call ib_fw_image,$<,$@)
test-boards: $(IB_DIGITS_FW) $(IB_DIGITS_IMG)

# The link firmware in the board's own memory, on the simulator:
# tests/boards/link_fit.sh runs IB_LINK_ELF on build/npu2-seq/tessel-sim with
# the DRAM cut to the board's SPRAM and the package where the flash loader
# puts it, serves a digit over the host link (the C model's bits), and reads
# back how much heap and stack the run took: IB_LINK_SIZE, the report
# bench-boards-fit prints and suite npu-seq (tests/npu-seq/run.sh) counts.
IB_SEQ_SIM := $(BUILD)/$(IB_SEQ_TARGET)-seq/tessel-sim
$(IB_LINK_SIZE): $(IB_LINK_ELF) $(IB_LINK_PKG) $(IB_SEQ_SIM) $(BIN)/tessel tests/boards/link_fit.sh
	@mkdir -p $(@D)
	$(call say,FIT,$@)
	$(Q)RV_NM=$(RV_PREFIX)nm RV_SIZE=$(RV_PREFIX)size bash tests/boards/link_fit.sh $(BIN)/tessel $(IB_SEQ_SIM) $(IB_LINK_ELF) \
	  $(IB_LINK_PKG) tests/models/digits/digits_cnn.in0.npy $(IB_DRAM) $(IB_PKG_DEST) $(BUILD)/test-tmp/link-fit >$@.tmp \
	  || true; mv $@.tmp $@
test-npu-seq: $(IB_LINK_SIZE) $(IB_LINK_ELF) $(IB_DIGITS_PKG)
NPU_SEQ_BOARD_LINK = $(IB_LINK_SIZE) $(IB_LINK_ELF) $(IB_DIGITS_PKG)
