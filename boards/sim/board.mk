# boards/sim/board.mk: the Verilator board. Its "bitstream" is the simulator
# of its target, built by sim/rules.mk; there is nothing to flash.
SIM_BOARD_TARGET := $(call board_cfg,sim,target)

.PHONY: bitstream-sim flash-sim
bitstream-sim: $(BUILD)/$(SIM_BOARD_TARGET)/tessel-sim
	@echo "board sim: target $(SIM_BOARD_TARGET): $(BUILD)/$(SIM_BOARD_TARGET)/tessel-sim is this board (no bitstream)"
flash-sim:
	@echo "board sim: nothing to flash: run firmware with $(BUILD)/$(SIM_BOARD_TARGET)/tessel-sim FIRMWARE.elf" >&2; exit 2
