# rtl-model/npu/npu.mk: the NPU RTL (rtl-model/npu/) and its Verilator unit
# benches (tests/rtl/npu/), at npu2 (the iCE40UP5K's), npu4 and npu8; lint at npu2, npu4,
# npu8, npu16; yosys.
#
#   make test-npu-rtl-unit   unit benches (EXEC: MATMUL/DWCONV vs the C model; epilogue and one
#                            requant lane; the dispatcher's checks vs the C model's; the
#                            core-sequenced NPU's datapath, npu_seq_dp, vs npu_requant and a C MAC)
#   make test-lint-npu       verilator --lint-only -Wall for npu2, npu4, npu8, npu16, npu8-arty
#   make test-synth-npu      yosys synthesis of the NPU blocks (npu8 fails on warnings, npu16 reads)
#   make bench-npu-area      LUT4/carry/FF/DSP/BRAM per module of tessel_npu on the iCE40UP5K (FPGA=xilinx: LUT/DSP48E1/RAMB36 on the XC7A35T; yosys
#                            synth_ice40 -dsp -noflatten) at npu2, or at TARGET=... when given
#   make bench-npu-gemm      MAC utilisation of a 256x256x256 GEMM with operands in SPAD (EXEC alone,
#                            then the whole NPU with the C model's estimate)

NPU_RTL      := $(sort $(wildcard rtl-model/npu/*.sv))
NPU_TB_DIR   := tests/rtl/npu
NPU_OBJ      := $(BUILD)/obj/npu-rtl
NPU_TB_TGTS  := npu2 npu4 npu8
NPU_PKGS      = $(BUILD)/gen/$(1)/tessel_target_pkg.sv $(BUILD)/gen/tessel_isa_pkg.sv
# the scratchpad's ways (npu_spad) name its memories in the top bench
NPU_TB_WAYS   = $(shell sed -n 's/^preload_rows_per_cycle *= *\([0-9]*\).*/\1/p' targets/$(1).cfg)
NPU_TB_CFLAGS = -std=c++17 -O2 -Wall -DTB_TARGET=\\\"$(1)\\\" -DTB_SPAD_WAYS=$(call NPU_TB_WAYS,$(1)) -I$(abspath $(BUILD)/gen) \
                -I$(abspath $(BUILD)/gen/$(1)) -I$(abspath sim/npu-model) -I$(abspath $(NPU_TB_DIR))

TEST_SUITES += npu-rtl-unit npu-rtl-top lint-npu synth-npu
BENCHES     += npu-gemm npu-area
.PHONY: test-npu-rtl-unit test-npu-rtl-top test-lint-npu test-synth-npu bench-npu-gemm bench-npu-area

# npu_tb TARGET, BENCH (tb wrapper module <bench>_tb / C++ file <bench>_tb.cpp)
define npu_tb
$(NPU_OBJ)/$(1)/$(2)/$(2)_tb: $(NPU_RTL) $(NPU_TB_DIR)/npu_$(2)_tb.sv $(NPU_TB_DIR)/$(2)_tb.cpp \
    $(NPU_TB_DIR)/tb_util.h $(NPU_TB_DIR)/tb_target.h $(call NPU_PKGS,$(1)) $(BUILD)/gen/$(1)/tessel_target.h \
    $(NPU_MODEL_LINK)
	@mkdir -p $$(@D) && rm -f $$@   # verilator's own make does not see the C model library change
	$$(call say,VERILATE,$$@)
	$$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module npu_$(2)_tb --Mdir $$(@D) -o $(2)_tb \
	  -CFLAGS "$(call NPU_TB_CFLAGS,$(1))" -LDFLAGS "$(abspath $(NPU_MODEL_LINK))" \
	  $(call NPU_PKGS,$(1)) $(NPU_RTL) $(NPU_TB_DIR)/npu_$(2)_tb.sv $(abspath $(NPU_TB_DIR)/$(2)_tb.cpp) \
	  > $$(@D).log 2>&1 || { tail -n 30 $$(@D).log; exit 1; }
endef
NPU_BENCHES := exec store load
$(foreach t,$(NPU_TB_TGTS),$(foreach b,$(NPU_BENCHES),$(eval $(call npu_tb,$(t),$(b)))))
NPU_TB_BINS := $(foreach t,$(NPU_TB_TGTS),$(foreach b,$(NPU_BENCHES),$(NPU_OBJ)/$(t)/$(b)/$(b)_tb))

# the whole NPU against the C model (npu_sram arrays are public for the bench)
define npu_top_tb
$(NPU_OBJ)/$(1)/top/top_tb: $(NPU_RTL) $(NPU_TB_DIR)/top_tb.cpp $(NPU_TB_DIR)/tb_util.h $(NPU_TB_DIR)/tb_target.h \
    $(call NPU_PKGS,$(1)) $(BUILD)/gen/$(1)/tessel_target.h \
    $(NPU_MODEL_LINK) $(BUILD)/gen/tessel_isa_tables.c
	@mkdir -p $$(@D) && rm -f $$@   # verilator's own make does not see the C model library change
	$$(call say,VERILATE,$$@)
	$$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module tessel_npu --Mdir $$(@D) -o top_tb \
	  -CFLAGS "$(call NPU_TB_CFLAGS,$(1))" -LDFLAGS "$(abspath $(NPU_MODEL_LINK))" \
	  $(call NPU_PKGS,$(1)) $(NPU_RTL) $(abspath $(NPU_TB_DIR)/top_tb.cpp) \
	  > $$(@D).log 2>&1 || { tail -n 30 $$(@D).log; exit 1; }
endef
$(foreach t,$(NPU_TB_TGTS),$(eval $(call npu_top_tb,$(t))))
NPU_TOP_BINS := $(foreach t,$(NPU_TB_TGTS),$(NPU_OBJ)/$(t)/top/top_tb)

test-npu-rtl-top: $(NPU_TOP_BINS)
	@bash $(NPU_TB_DIR)/run-unit.sh $(NPU_TOP_BINS)

# npu_check alone against the C model's npu_check(): its range arithmetic is narrowed to the widths each
# value can reach, and this bench holds every error code to the C model's.
NPU_CHECK_TGTS := $(NPU_TB_TGTS)
define npu_check_tb
$(NPU_OBJ)/$(1)/check/check_tb: rtl-model/npu/npu_check.sv $(NPU_TB_DIR)/check_tb.cpp $(NPU_TB_DIR)/tb_target.h \
    $(call NPU_PKGS,$(1)) \
    $(BUILD)/gen/$(1)/tessel_target.h $(NPU_MODEL_LINK)
	@mkdir -p $$(@D) && rm -f $$@   # verilator's own make does not see the C model library change
	$$(call say,VERILATE,$$@)
	$$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module npu_check --Mdir $$(@D) -o check_tb \
	  -CFLAGS "$(call NPU_TB_CFLAGS,$(1))" -LDFLAGS "$(abspath $(NPU_MODEL_LINK))" \
	  $(call NPU_PKGS,$(1)) rtl-model/npu/npu_check.sv $(abspath $(NPU_TB_DIR)/check_tb.cpp) \
	  > $$(@D).log 2>&1 || { tail -n 30 $$(@D).log; exit 1; }
endef
$(foreach t,$(NPU_CHECK_TGTS),$(eval $(call npu_check_tb,$(t))))
NPU_TB_BINS += $(foreach t,$(NPU_CHECK_TGTS),$(NPU_OBJ)/$(t)/check/check_tb)

# one epilogue lane (npu_requant) against the C model's npu_requant(): it
# forms only the bits the int8 result depends on (target independent)
$(NPU_OBJ)/requant/requant_tb: rtl-model/npu/npu_requant.sv $(NPU_TB_DIR)/requant_tb.cpp $(NPU_MODEL_LINK)
	@mkdir -p $(@D) && rm -f $@   # verilator's own make does not see the C model library change
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module npu_requant --Mdir $(@D) -o requant_tb \
	  -CFLAGS "-std=c++17 -O2 -Wall -I$(abspath sim/npu-model) -I$(abspath $(BUILD)/gen)" \
	  -LDFLAGS "$(abspath $(NPU_MODEL_LINK))" \
	  rtl-model/npu/npu_requant.sv $(abspath $(NPU_TB_DIR)/requant_tb.cpp) \
	  > $(@D).log 2>&1 || { tail -n 30 $(@D).log; exit 1; }
NPU_TB_BINS += $(NPU_OBJ)/requant/requant_tb

# the core-sequenced NPU's datapath (npu_seq_dp) through its bus at the generated
# map's offsets, against npu_requant() and a C MAC, at npu2 (the iCEBreaker's) and npu4
NPU_SEQ_TGTS := npu2 npu4
define npu_seq_tb
$(NPU_OBJ)/$(1)/seq_dp/seq_dp_tb: rtl-model/npu/npu_seq_dp.sv $(NPU_TB_DIR)/seq_dp_tb.cpp $(NPU_TB_DIR)/tb_util.h \
    $(BUILD)/gen/$(1)/tessel_target_pkg.sv $(BUILD)/gen/$(1)/tessel_target.h $(BUILD)/gen/tessel_memmap.h $(NPU_MODEL_LINK)
	@mkdir -p $$(@D) && rm -f $$@   # verilator's own make does not see the C model library change
	$$(call say,VERILATE,$$@)
	$$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module npu_seq_dp --Mdir $$(@D) -o seq_dp_tb \
	  -CFLAGS "$(call NPU_TB_CFLAGS,$(1))" -LDFLAGS "$(abspath $(NPU_MODEL_LINK))" \
	  $(BUILD)/gen/$(1)/tessel_target_pkg.sv rtl-model/npu/npu_seq_dp.sv $(abspath $(NPU_TB_DIR)/seq_dp_tb.cpp) \
	  > $$(@D).log 2>&1 || { tail -n 30 $$(@D).log; exit 1; }
endef
$(foreach t,$(NPU_SEQ_TGTS),$(eval $(call npu_seq_tb,$(t))))
NPU_TB_BINS += $(foreach t,$(NPU_SEQ_TGTS),$(NPU_OBJ)/$(t)/seq_dp/seq_dp_tb)

test-npu-rtl-unit: $(NPU_TB_BINS)
	@bash $(NPU_TB_DIR)/run-unit.sh $(NPU_TB_BINS)

test-lint-npu: $(NPU_RTL) $(foreach t,npu2 npu4 npu8 npu16 npu8-arty,$(call NPU_PKGS,$(t)))
	@bash $(NPU_TB_DIR)/lint.sh $(BUILD)/gen $(NPU_RTL)

test-synth-npu: $(NPU_RTL) $(foreach t,npu8 npu16,$(call NPU_PKGS,$(t)))
	@bash $(NPU_TB_DIR)/synth.sh $(BUILD)/gen $(NPU_OBJ)/synth $(NPU_RTL)

bench-npu-gemm: $(NPU_OBJ)/npu8/exec/exec_tb $(NPU_OBJ)/npu8/top/top_tb
	@$(NPU_OBJ)/npu8/exec/exec_tb --gemm
	@$(NPU_OBJ)/npu8/top/top_tb --gemm

# The UP5K's target unless TARGET is given on the command line; FPGA=xilinx
# for the Arty's XC7A35T.
NPU_AREA_TARGET := $(if $(filter command line,$(origin TARGET)),$(TARGET),npu2)
NPU_AREA_FPGA   := $(or $(FPGA),ice40)
bench-npu-area: $(NPU_RTL) $(call NPU_PKGS,$(NPU_AREA_TARGET))
	@FPGA=$(NPU_AREA_FPGA) bash $(NPU_TB_DIR)/area.sh $(BUILD)/gen $(NPU_AREA_TARGET) $(NPU_OBJ)/area \
	  $(filter-out %/npu_seq_dp.sv,$(NPU_RTL))
