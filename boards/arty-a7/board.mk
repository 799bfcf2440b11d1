# boards/arty-a7/board.mk: the Arty A7-35T (Xilinx 7-series), docs/boards.md.
#
#   make bitstream BOARD=arty-a7   yosys synth_xilinx of arty_a7_top with the
#                                  board's NPU target: netlist (Verilog and EDIF),
#                                  the XDC, and a resource estimate against the
#                                  XC7A35T. Place, route and the bitstream are the
#                                  vendor's step (Vivado): Debian has no open
#                                  7-series place and route.

AA_DIR    := boards/arty-a7
AA_OUT    := $(BOARDS_OUT)/arty-a7
AA_TARGET := $(call board_cfg,arty-a7,target)
AA_CLOCK  := $(call board_cfg,arty-a7,clock_mhz)
AA_DRAM   := $(call board_cfg,arty-a7,dram_bytes)
AA_IMEM   := $(call board_cfg,arty-a7,imem_bytes)
AA_DMEM   := $(call board_cfg,arty-a7,dmem_bytes)
AA_BAUD   := $(call board_cfg,arty-a7,uart_baud)
AA_FL_FW  := $(call board_cfg,arty-a7,flash_firmware)
AA_FL_PKG := $(call board_cfg,arty-a7,flash_package)
AA_XDC    := $(AA_DIR)/$(call board_cfg,arty-a7,pins)
AA_CPB    := $(shell echo $$(( $(AA_CLOCK) * 1000000 / $(AA_BAUD) )))
AA_NPU_SV := $(if $(filter-out none,$(AA_TARGET)),$(call board_npu_sv,$(AA_TARGET)))
AA_SV     := $(AA_NPU_SV) $(BOARD_SOC_SV) $(BOARDS_COMMON_SV) $(AA_DIR)/arty_a7_top.sv
AA_PARAMS := chparam -set ClksPerBit $(AA_CPB) -set ImemBytes $(AA_IMEM) -set DmemBytes $(AA_DMEM) \
             -set DramBytes $(AA_DRAM) -set Npu $(if $(AA_NPU_SV),1,0) -set FwFlash $(shell printf %d $(AA_FL_FW)) -set PkgFlash $(shell printf %d $(AA_FL_PKG)) arty_a7_top
AA_NETLIST := $(AA_OUT)/arty_a7_net.v

$(AA_NETLIST): $(AA_SV) $(AA_DIR)/board.cfg $(AA_DIR)/board.mk
	@mkdir -p $(AA_OUT)
	@echo "yosys synth_xilinx arty_a7_top ($(AA_TARGET), log $(AA_OUT)/yosys.log; several minutes)"
	@nice -n 10 yosys -q -l $(AA_OUT)/yosys.log -p "read_verilog -sv $(AA_SV); \
	  $(AA_PARAMS); synth_xilinx -family xc7 -flatten -top arty_a7_top -edif $(AA_OUT)/arty_a7.edif; \
	  tee -o $(AA_OUT)/stat.txt stat; write_verilog -noattr $@.tmp" >/dev/null 2>&1 \
	  || { tail -n 20 $(AA_OUT)/yosys.log; exit 1; }
	@mv -f $@.tmp $@

.PHONY: bitstream-arty-a7 flash-arty-a7
bitstream-arty-a7: $(AA_NETLIST)
	@cp $(AA_XDC) $(AA_OUT)/arty-a7.xdc
	@bash $(AA_DIR)/xilinx-report.sh $(AA_OUT)/stat.txt $(AA_TARGET)
	@echo "arty-a7: netlist $(AA_NETLIST), $(AA_OUT)/arty_a7.edif; constraints $(AA_OUT)/arty-a7.xdc"
	@echo "arty-a7: NOT built: placement, routing, timing and the bitstream (no open 7-series"
	@echo "         place and route in Debian). Vendor step (docs/boards.md): in Vivado,"
	@echo "         read_edif arty_a7.edif; read_xdc arty-a7.xdc; link_design -part xc7a35ticsg324-1L"
	@echo "         -top arty_a7_top; place_design; route_design; report_timing_summary; write_bitstream"

flash-arty-a7:
	@echo "make flash BOARD=arty-a7: not available: there is no bitstream to flash (make bitstream" >&2; \
	 echo "BOARD=arty-a7 stops at the netlist; program the vendor-built bitstream with Vivado or" >&2; \
	 echo "openFPGALoader -b arty, then the images at the offsets in docs/boards.md)" >&2; exit 2
