# rtl-model/rules.mk: the control core (rtl-model/core/) and its standalone
# Verilator bench (tests/rtl/core/). The SoC's rules live in sim/rules.mk.
#
#   make test-core       bench programs x memory timings, FastMul=1 and FastMul=0,
#                        and the lite core (tessel_core_lite), traces compared
#   make test-lint-core  verilator --lint-only -Wall (both FastMul) and a yosys read
#   make test-core-gate  the bench on the yosys netlist of the core, traces equal to the RTL's
#   make bench-core-cpi  CPI of compiled C (CRC, sort, matrix multiply), 1-cycle memories

# The cores take CSR numbers and trap causes from the generated package.
CORE_RTL      := $(BUILD)/gen/tessel_memmap_pkg.sv $(sort $(wildcard rtl-model/core/*.sv))
CORE_OBJ      := $(BUILD)/obj/core
CORE_TB_DIR   := tests/rtl/core
CORE_PROG_DIR := $(CORE_TB_DIR)/progs
CORE_PROGS    := $(patsubst $(CORE_PROG_DIR)/%.S,$(CORE_OBJ)/progs/%.bin,$(sort $(wildcard $(CORE_PROG_DIR)/*.S)))
CORE_CPI_BIN  := $(CORE_OBJ)/progs/cpi.bin
# programs whose commit trace depends on timing (interrupts, mcycle reads)
CORE_TIMED    := irq csr
CORE_TB_FM1   := $(CORE_OBJ)/tb_fm1/core_tb
CORE_TB_FM0   := $(CORE_OBJ)/tb_fm0/core_tb
CORE_RV_FLAGS := -march=rv32im_zicsr_zifencei -mabi=ilp32 -nostdlib -nostartfiles \
                 -ffreestanding -I$(CORE_PROG_DIR) -T $(CORE_TB_DIR)/link.ld \
                 -Wl,--no-warn-rwx-segments

TEST_SUITES += core lint-core
BENCHES     += core-cpi

.PHONY: test-core test-lint-core bench-core-cpi

$(CORE_OBJ)/progs/%.elf: $(CORE_PROG_DIR)/%.S $(CORE_PROG_DIR)/tb.h $(CORE_TB_DIR)/link.ld
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(CORE_RV_FLAGS) -o $@ $<

# compiled C for the CPI figure (and as one more test program)
$(CORE_OBJ)/progs/cpi.elf: $(CORE_TB_DIR)/cpi/cpi.c $(CORE_TB_DIR)/cpi/crt0.S $(CORE_TB_DIR)/link.ld
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(CORE_RV_FLAGS) -O2 -std=c11 -Wall -Wextra -Werror -o $@ \
	  $(CORE_TB_DIR)/cpi/crt0.S $(CORE_TB_DIR)/cpi/cpi.c

$(CORE_OBJ)/progs/%.bin: $(CORE_OBJ)/progs/%.elf
	$(call say,OBJCOPY,$@)
	$(Q)$(RV_OBJCOPY) -O binary $< $@

# core_tb_model DIR, FASTMUL: one Verilator build of the bench per multiplier,
# with the RTL's assertions on (the SoC simulator builds without them)
define core_tb_model
$(CORE_OBJ)/$(1)/core_tb: $(CORE_RTL) $(CORE_TB_DIR)/core_tb.cpp
	@mkdir -p $(CORE_OBJ)/$(1)
	$$(call say,VERILATE,$(CORE_OBJ)/$(1)/core_tb)
	$$(Q)$(VERILATOR) --cc --exe --build -j 1 $(filter-out --noassert,$(VFLAGS)) --assert -GFastMul=$(2) \
	  --top-module tessel_core --Mdir $(CORE_OBJ)/$(1) -o core_tb \
	  -CFLAGS "-std=c++17 -O2 -Wall" $(CORE_RTL) $(abspath $(CORE_TB_DIR)/core_tb.cpp) \
	  > $(CORE_OBJ)/$(1).log 2>&1 || { tail -n 30 $(CORE_OBJ)/$(1).log; exit 1; }
endef
$(eval $(call core_tb_model,tb_fm1,1\'b1))
$(eval $(call core_tb_model,tb_fm0,1\'b0))

# The lite core (tessel_core_lite, docs/core.md) in the same bench: its
# model class is named as the full core's (--prefix), so one bench source
# drives both.
CORE_TB_LITE := $(CORE_OBJ)/tb_lite/core_tb
$(CORE_TB_LITE): $(CORE_RTL) $(CORE_TB_DIR)/core_tb.cpp
	@mkdir -p $(@D)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(filter-out --noassert,$(VFLAGS)) --assert \
	  --top-module tessel_core_lite --prefix Vtessel_core --Mdir $(@D) -o core_tb \
	  -CFLAGS "-std=c++17 -O2 -Wall" $(CORE_RTL) $(abspath $(CORE_TB_DIR)/core_tb.cpp) \
	  > $(@D).log 2>&1 || { tail -n 30 $(@D).log; exit 1; }

test-core: $(CORE_TB_FM1) $(CORE_TB_FM0) $(CORE_TB_LITE) $(CORE_PROGS) $(CORE_CPI_BIN)
	@bash $(CORE_TB_DIR)/run.sh $(CORE_TB_FM1) $(CORE_TB_FM0) $(CORE_OBJ)/progs "$(CORE_TIMED)" $(CORE_TB_LITE)

test-lint-core: $(CORE_RTL)
	@bash $(CORE_TB_DIR)/lint.sh $(CORE_RTL)

bench-core-cpi: $(CORE_TB_FM1) $(CORE_TB_FM0) $(CORE_TB_LITE) $(CORE_CPI_BIN)
	@$(CORE_TB_FM1) --cpi --label FastMul=1 $(CORE_CPI_BIN) | grep CPI
	@$(CORE_TB_FM0) --cpi --label FastMul=0 $(CORE_CPI_BIN) | grep CPI
	@$(CORE_TB_LITE) --cpi --label lite $(CORE_CPI_BIN) | grep CPI

# ---- core-gate: the same bench on the yosys netlist of the core ----------------
# Generic gates (memories kept as arrays), as the SoC's gate-sim does: it
# catches RTL that yosys reads differently from Verilator. Every program must
# pass on the netlist, and its commit trace under 1-cycle memories must equal
# the RTL model's.
CORE_GATE_DIR := $(CORE_OBJ)/gate
CORE_GATE_TBS := $(CORE_GATE_DIR)/tb_fm1/core_tb $(CORE_GATE_DIR)/tb_fm0/core_tb
TEST_SUITES   += core-gate
.PHONY: test-core-gate

$(CORE_GATE_DIR)/core_fm%.v: $(CORE_RTL)
	@mkdir -p $(@D)
	$(call say,YOSYS,$@)
	$(Q)yosys -q -l $(@D)/core_fm$*.log -p "read_verilog -sv $(CORE_RTL); chparam -set FastMul $* tessel_core; \
	  synth -top tessel_core -flatten -run begin:fine; opt -fast -full; techmap; opt -fast; \
	  abc -fast; opt -fast; check -assert; write_verilog -noattr $@" >/dev/null 2>&1 \
	  || { tail -n 20 $(@D)/core_fm$*.log; exit 1; }
	@if grep -qi warning $(@D)/core_fm$*.log; then grep -i -A2 warning $(@D)/core_fm$*.log | head -n 20; \
	  echo "yosys warned on the core (FastMul=$*)"; rm -f $@; exit 1; fi

$(CORE_GATE_DIR)/tb_fm%/core_tb: $(CORE_GATE_DIR)/core_fm%.v $(CORE_TB_DIR)/core_tb.cpp
	@mkdir -p $(@D)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) -Wno-lint -Wno-style \
	  --top-module tessel_core --Mdir $(@D) -o core_tb -CFLAGS "-std=c++17 -O1" \
	  -MAKEFLAGS "OPT_FAST=-O1 OPT_SLOW=-O1" $(abspath $< $(CORE_TB_DIR)/core_tb.cpp) \
	  > $(@D).log 2>&1 || { tail -n 30 $(@D).log; exit 1; }

test-core-gate: $(CORE_TB_FM1) $(CORE_TB_FM0) $(CORE_GATE_TBS) $(CORE_PROGS) $(CORE_CPI_BIN)
	@bash $(CORE_TB_DIR)/gate.sh $(CORE_TB_FM1) $(CORE_GATE_DIR)/tb_fm1/core_tb \
	  $(CORE_TB_FM0) $(CORE_GATE_DIR)/tb_fm0/core_tb $(CORE_OBJ)/progs
include rtl-model/npu/npu.mk

# ---- bench-core-fmax: iCE40UP5K timing estimate of the core --------------------
# yosys synth_ice40 + nextpnr on the core between flops (tests/rtl/core/fpga/);
# prints logic cells used and the max frequency (nextpnr's, one placement seed),
# for FastMul=1, FastMul=0 and the lite core.
BENCHES += core-fmax
.PHONY: bench-core-fmax
CORE_FMAX_DIR := $(CORE_OBJ)/fmax
bench-core-fmax: $(CORE_RTL) $(CORE_TB_DIR)/fpga/core_fmax_wrap.sv $(CORE_TB_DIR)/fpga/core_fmax.pcf
	@mkdir -p $(CORE_FMAX_DIR)
	@for fm in 1 0 lite; do \
	  defs=; [ $$fm = lite ] && defs=-DCORE_LITE; \
	  yosys -q -l $(CORE_FMAX_DIR)/yosys$$fm.log -p "read_verilog -sv $$defs $(CORE_RTL) $(CORE_TB_DIR)/fpga/core_fmax_wrap.sv; \
	    chparam -set FastMul $${fm/lite/0} tessel_core; synth_ice40 -dsp -top core_fmax_wrap -json $(CORE_FMAX_DIR)/core$$fm.json" \
	    >/dev/null 2>&1 || { tail -n 20 $(CORE_FMAX_DIR)/yosys$$fm.log; exit 1; }; \
	  nextpnr-ice40 --up5k --package sg48 --seed 1 --json $(CORE_FMAX_DIR)/core$$fm.json \
	    --pcf $(CORE_TB_DIR)/fpga/core_fmax.pcf --freq 12 --asc $(CORE_FMAX_DIR)/core$$fm.asc \
	    >$(CORE_FMAX_DIR)/nextpnr$$fm.log 2>&1; \
	  lc=$$(grep -m1 'ICESTORM_LC:' $(CORE_FMAX_DIR)/nextpnr$$fm.log | sed 's/.*ICESTORM_LC: *//'); \
	  mhz=$$(grep "Max frequency for clock *'clk_i" $(CORE_FMAX_DIR)/nextpnr$$fm.log | tail -n 1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/'); \
	  [ -n "$$mhz" ] || { tail -n 20 $(CORE_FMAX_DIR)/nextpnr$$fm.log; exit 1; }; \
	  name="FastMul=$$fm"; [ $$fm = lite ] && name="lite (tessel_core_lite)"; \
	  echo "core $$name on iCE40UP5K: $$lc logic cells (with the wrapper's flops), Fmax $$mhz MHz"; \
	done
