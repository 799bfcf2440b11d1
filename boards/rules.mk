# boards/rules.mk: FPGA boards and the simulated board (docs/boards.md).
#
# One folder per board: boards/<b>/board.cfg (names an NPU target from
# targets/ and adds only the board's own facts), the top wrapper, the
# constraints and boards/<b>/board.mk with the board's rules.
#
#   make bitstream BOARD=b   build the board's bitstream (or what stands for it)
#   make flash BOARD=b       write bitstream, firmware and package to the board
#   make test-boards         suite: iCEBreaker fit/timing, gate-level boot + NPU run
#
# BOARD defaults to sim: the Verilator board, whose "bitstream" is tessel-sim.

BOARD       ?= sim
BOARDS      := $(sort $(patsubst boards/%/board.cfg,%,$(wildcard boards/*/board.cfg)))
BOARDS_OBJ  := $(BUILD)/obj/boards
BOARDS_OUT  := $(BUILD)/boards

# board_cfg BOARD,KEY: the value of KEY in boards/BOARD/board.cfg (first word
# after '=', comments dropped). Read once per key when a board.mk is parsed.
board_cfg = $(shell sed -n 's/^$(2)[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/p' boards/$(1)/board.cfg)

# Shared RTL of the board tops (board_soc: SoC + flash loader + RAM + UART).
BOARDS_COMMON_SV := $(sort $(wildcard boards/common/*.sv))

# The SoC (sim/rules.mk's list: the core's files and the SoC's, packages
# first), and the NPU with the packages of a target (board_npu_sv TARGET),
# for boards that name one.
BOARD_SOC_SV := $(SOC_ALL_SV)
board_npu_sv  = $(BUILD)/gen/tessel_isa_pkg.sv $(BUILD)/gen/$(1)/tessel_target_pkg.sv \
                $(sort $(wildcard rtl-model/npu/*.sv))

include $(sort $(wildcard boards/*/board.mk))

.PHONY: bitstream flash boards-list
bitstream:
	@$(if $(filter $(BOARD),$(BOARDS)),$(MAKE) --no-print-directory bitstream-$(BOARD),\
	  echo "make bitstream: unknown board '$(BOARD)' (boards: $(BOARDS))" >&2; exit 2)
flash:
	@$(if $(filter $(BOARD),$(BOARDS)),$(MAKE) --no-print-directory flash-$(BOARD),\
	  echo "make flash: unknown board '$(BOARD)' (boards: $(BOARDS))" >&2; exit 2)
boards-list:
	@for b in $(BOARDS); do printf '%-12s target %s\n' $$b "$$(sed -n 's/^target[[:space:]]*=[[:space:]]*\([^[:space:]#]*\).*/\1/p' boards/$$b/board.cfg)"; done
