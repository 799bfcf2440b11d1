# sim/rules.mk: the SoC (rtl-model/soc/) and the simulator tessel-sim.
#   build/bin/tessel-sim        Verilator model of tessel_soc + harness (sim/*.cpp, sim/*.c)
#   build/bin/tessel-sim-trace  the same with FST tracing compiled in (run by tessel-sim --trace)
# Suites: sim-unit, sim-cli, soc, memport, cvt-arith, cvt-dma, dcache, lint-soc, synth, gate-sim. Bench: sim-speed.
# sim/npu-model/npu-model.mk (the C model) and sim/iss/iss.mk (the ISS) come first.

# The harness's C part (ELF loader, options), which the ISS shares: one library,
# build/lib/libtessel-sim-host{,-asan,-fuzz}.a.
SIM_C_SRCS := sim/elf_load.c sim/sim_options.c
tessel-sim-host_CFLAGS = $(HOST_CFLAGS) -Isim -Ishared -I$(BUILD)/gen
tessel-sim-host_DEPS   = $(BUILD)/gen/tessel_memmap.h
$(eval $(call host_lib,tessel-sim-host,$(SIM_C_SRCS)))
SIM_HOST_LIB      := $(BUILD)/lib/libtessel-sim-host.a
SIM_HOST_LIB_SAN  := $(BUILD)/lib/libtessel-sim-host-asan.a
SIM_HOST_LIB_FUZZ := $(BUILD)/lib/libtessel-sim-host-fuzz.a

include sim/npu-model/npu-model.mk
include sim/iss/iss.mk

SIM_OBJ   := $(BUILD)/obj/sim
TESSEL_SIM_BIN       := $(BIN)/tessel-sim
TESSEL_SIM_TRACE_BIN := $(BIN)/tessel-sim-trace

# RTL: packages first.
SOC_SV  := $(BUILD)/gen/tessel_memmap_pkg.sv rtl-model/soc/tessel_soc_pkg.sv rtl-model/soc/tessel_memport_pkg.sv \
           rtl-model/soc/tessel_cvt_pkg.sv \
           $(filter-out %_pkg.sv,$(wildcard rtl-model/soc/*.sv))
CORE_SV := $(wildcard rtl-model/core/*.sv)
SOC_ALL_SV := $(SOC_SV) $(CORE_SV)

# TCM sizes of the simulated SoC (docs/memory-map.md); the harness is told.
SIM_IMEM_BYTES := 262144
SIM_DMEM_BYTES := 65536

SIM_HARNESS_CXX := sim/main.cpp sim/dram_model.cpp
SIM_HARNESS_H   := sim/dram_model.h sim/elf_load.h sim/sim_options.h shared/host_file.h $(BUILD)/gen/tessel_memmap.h

# verilate_soc MDIR, EXE, IMEM, DMEM, EXTRA-VERILATOR-FLAGS, EXTRA-CFLAGS, SOURCES
# Verilator runs its own make, outside our jobserver: one job, so `make -j2`
# stays at two processes on the shared machine.
define verilate_soc
	@mkdir -p $(1)
	$(call say,VERILATE,$(1)/$(2))
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) -Wno-lint -Wno-style \
	  --top-module tessel_soc --prefix Vtessel_soc --Mdir $(1) -o $(2) $(5) \
	  -CFLAGS "-std=c++17 -O2 -Wall -Wextra -DIMEM_BYTES=$(3) -DDMEM_BYTES=$(4) -I$(abspath sim) -I$(abspath shared) -I$(abspath $(BUILD)/gen) $(6)" \
	  -MAKEFLAGS "OPT_FAST=-O3 OPT_SLOW=-O1" \
	  $(abspath $(SIM_HARNESS_CXX) $(SIM_HOST_LIB)) $(7) >$(1)/build.log 2>&1 \
	  || { tail -n 40 $(1)/build.log; exit 1; }
endef

# ---- one simulator per NPU target ---------------------------------------------
# The SoC with the NPU (Npu=1) and the target's package: build/<t>/tessel-sim for
# npu4, npu8, npu8-arty (npu16 on demand: make build/npu16/tessel-sim); build/bin/tessel-sim
# is npu8's. The SoC alone (NPU windows answer a bus error; `tessel-sim
# --version` says so) is what gate-sim, synth and the no-device driver checks use.
SIM_NPU_RTL  := $(filter %_pkg.sv,$(wildcard rtl-model/npu/*.sv)) \
                $(filter-out %_pkg.sv,$(wildcard rtl-model/npu/*.sv))
SIM_TARGETS_BUILT := npu4 npu8 npu8-arty
sim_npu_sv    = $(BUILD)/gen/tessel_isa_pkg.sv $(BUILD)/gen/$(1)/tessel_target_pkg.sv $(SIM_NPU_RTL)
# The simulated NPU targets' SoC also has the data cache (tessel_dcache) of
# SIM_DCACHE_LINES 32-byte lines (0: none, the bridge as the boards have it).
SIM_DCACHE_LINES ?= 16
sim_npu_vflags = -GNpu=1\'b1 -GCvt=1\'b1 -GDcacheLines=$(SIM_DCACHE_LINES)
sim_npu_cflags = -DTESSEL_SIM_NPU -I$(abspath $(BUILD)/gen/$(1)) -I$(abspath $(BUILD)/gen)

# sim_target T: build/T/tessel-sim and build/T/tessel-sim-trace.
define sim_target
$(BUILD)/$(1)/tessel-sim: $(SOC_ALL_SV) $(SIM_NPU_RTL) $(call sim_npu_sv,$(1)) $(BUILD)/gen/$(1)/tessel_target.h \
    $(SIM_HARNESS_CXX) $(SIM_HARNESS_H) $(SIM_HOST_LIB) sim/rules.mk
	$$(call verilate_soc,$(SIM_OBJ)/$(1)/rtl,tessel-sim,$(SIM_IMEM_BYTES),$(SIM_DMEM_BYTES),$(sim_npu_vflags) -GImemBytes=$(SIM_IMEM_BYTES) -GDmemBytes=$(SIM_DMEM_BYTES),$(call sim_npu_cflags,$(1)),$(call sim_npu_sv,$(1)) $(SOC_ALL_SV))
	@mkdir -p $$(@D)
	$$(call say,COPY,$$@)
	$$(Q)cp $(SIM_OBJ)/$(1)/rtl/tessel-sim $$@.tmp && mv -f $$@.tmp $$@
$(BUILD)/$(1)/tessel-sim-trace: $(SOC_ALL_SV) $(SIM_NPU_RTL) $(call sim_npu_sv,$(1)) $(BUILD)/gen/$(1)/tessel_target.h \
    $(SIM_HARNESS_CXX) $(SIM_HARNESS_H) $(SIM_HOST_LIB) sim/rules.mk
	$$(call verilate_soc,$(SIM_OBJ)/$(1)/rtl-trace,tessel-sim-trace,$(SIM_IMEM_BYTES),$(SIM_DMEM_BYTES),--trace-fst $(sim_npu_vflags) -GImemBytes=$(SIM_IMEM_BYTES) -GDmemBytes=$(SIM_DMEM_BYTES),-DTESSEL_TRACE $(call sim_npu_cflags,$(1)),$(call sim_npu_sv,$(1)) $(SOC_ALL_SV))
	@mkdir -p $$(@D)
	$$(call say,COPY,$$@)
	$$(Q)cp $(SIM_OBJ)/$(1)/rtl-trace/tessel-sim-trace $$@.tmp && mv -f $$@.tmp $$@
endef

SOC_ONLY_SIM       := $(SIM_OBJ)/soc-only/tessel-sim
SOC_ONLY_SIM_TRACE := $(SIM_OBJ)/soc-only/tessel-sim-trace
$(SOC_ONLY_SIM): $(SOC_ALL_SV) $(SIM_HARNESS_CXX) $(SIM_HARNESS_H) $(SIM_HOST_LIB) sim/rules.mk
	$(call verilate_soc,$(SIM_OBJ)/rtl,tessel-sim,$(SIM_IMEM_BYTES),$(SIM_DMEM_BYTES),-GImemBytes=$(SIM_IMEM_BYTES) -GDmemBytes=$(SIM_DMEM_BYTES),,$(SOC_ALL_SV))
	@mkdir -p $(@D)
	$(call say,COPY,$@)
	$(Q)cp $(SIM_OBJ)/rtl/tessel-sim $@.tmp && mv -f $@.tmp $@
$(SOC_ONLY_SIM_TRACE): $(SOC_ALL_SV) $(SIM_HARNESS_CXX) $(SIM_HARNESS_H) $(SIM_HOST_LIB) sim/rules.mk
	$(call verilate_soc,$(SIM_OBJ)/rtl-trace,tessel-sim-trace,$(SIM_IMEM_BYTES),$(SIM_DMEM_BYTES),--trace-fst -GImemBytes=$(SIM_IMEM_BYTES) -GDmemBytes=$(SIM_DMEM_BYTES),-DTESSEL_TRACE,$(SOC_ALL_SV))
	@mkdir -p $(@D)
	$(call say,COPY,$@)
	$(Q)cp $(SIM_OBJ)/rtl-trace/tessel-sim-trace $@.tmp && mv -f $@.tmp $@

# ---- the core-sequenced NPU (docs/npu-seq.md) -----------------------------------
# build/<t>-seq/tessel-sim: the SoC with the core-sequenced NPU's datapath
# (NpuSeq=1) at target t's DIM and no hardware NPU; `--version` names t, so
# `tessel run --engine rtl --sim build/npu2-seq/tessel-sim --firmware
# build/firmware/npu2-seq/tessel-fw.elf` runs a package for t on it.
SIM_SEQ_TARGETS := npu2
define sim_seq_target
$(BUILD)/$(1)-seq/tessel-sim: $(SOC_ALL_SV) rtl-model/npu/npu_seq_dp.sv $(BUILD)/gen/$(1)/tessel_target_pkg.sv \
    $(BUILD)/gen/$(1)/tessel_target.h $(SIM_HARNESS_CXX) $(SIM_HARNESS_H) $(SIM_HOST_LIB) sim/rules.mk
	$$(call verilate_soc,$(SIM_OBJ)/$(1)-seq/rtl,tessel-sim,$(SIM_IMEM_BYTES),$(SIM_DMEM_BYTES),-GNpuSeq=1\'b1 -GImemBytes=$(SIM_IMEM_BYTES) -GDmemBytes=$(SIM_DMEM_BYTES),-DTESSEL_SIM_NPU -DTESSEL_SIM_NPU_SEQ -I$(abspath $(BUILD)/gen/$(1)) -I$(abspath $(BUILD)/gen),$(BUILD)/gen/$(1)/tessel_target_pkg.sv rtl-model/npu/npu_seq_dp.sv $(SOC_ALL_SV))
	@mkdir -p $$(@D)
	$$(call say,COPY,$$@)
	$$(Q)cp $(SIM_OBJ)/$(1)-seq/rtl/tessel-sim $$@.tmp && mv -f $$@.tmp $$@
endef
$(foreach t,$(SIM_SEQ_TARGETS),$(eval $(call sim_seq_target,$(t))))

# build/bin/tessel-sim is the default target's simulator, npu8; the
# ISS, traps and diff suites fault only on the memory map's gaps, where both
# answer alike. gate-sim and synth keep the SoC-only build (SOC_ONLY_SIM):
# the NPU is synthesised and linted on its own (rtl-model/npu/npu.mk).
SIM_DEFAULT_TARGET ?= npu8
$(foreach t,npu4 npu8 npu16 npu8-arty,$(eval $(call sim_target,$(t))))
ALL += $(foreach t,$(SIM_TARGETS_BUILT),$(BUILD)/$(t)/tessel-sim)
SIM_DEFAULT_DIR := $(BUILD)/$(SIM_DEFAULT_TARGET)

# Copied to a temporary name and renamed: `cp` onto a simulator that is
# running fails with "Text file busy"; a rename replaces it atomically.
$(TESSEL_SIM_BIN): $(SIM_DEFAULT_DIR)/tessel-sim
	@mkdir -p $(@D)
	$(call say,COPY,$@)
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@
$(TESSEL_SIM_TRACE_BIN): $(SIM_DEFAULT_DIR)/tessel-sim-trace
	@mkdir -p $(@D)
	$(call say,COPY,$@)
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

ALL += $(TESSEL_SIM_BIN) $(TESSEL_SIM_TRACE_BIN)

# ---- SoC test programs (tests/soc/) ------------------------------------------
# Assembly only, no C library: *_dram.S run from DRAM, the rest from IMEM.
SOC_TEST_DIR   := $(BUILD)/soc-tests
SOC_TEST_ARCH  := -march=rv32im_zicsr_zifencei -mabi=ilp32
SOC_TEST_ELFS  := $(patsubst tests/soc/%.S,$(SOC_TEST_DIR)/%.elf,$(wildcard tests/soc/*.S))

$(SOC_TEST_DIR)/%_dram.elf: tests/soc/%_dram.S tests/soc/soc_test.h tests/soc/soc-dram.ld
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(SOC_TEST_ARCH) -nostdlib -nostartfiles -Itests/soc -Ttests/soc/soc-dram.ld \
	  -Wl,--no-warn-rwx-segments $< -o $@
$(SOC_TEST_DIR)/%.elf: tests/soc/%.S tests/soc/soc_test.h tests/soc/soc.ld
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(SOC_TEST_ARCH) -nostdlib -nostartfiles -Itests/soc -Ttests/soc/soc.ld \
	  -Wl,--no-warn-rwx-segments $< -o $@

ALL += $(SOC_TEST_ELFS)

TEST_SUITES += soc
.PHONY: test-soc
# It also runs the ISA tests and hello-dram: firmware/rules.mk (included after
# this file) adds them as prerequisites; ISA_ELFS is read when the recipe runs.
test-soc: $(TESSEL_SIM_BIN) $(SOC_TEST_ELFS)
	@ISA_ELFS="$(ISA_ELFS)" tests/soc/run.sh $(TESSEL_SIM_BIN) $(SOC_TEST_DIR) $(BUILD)/firmware

# ---- command line and bad input ----------------------------------------------
TEST_SUITES += sim-cli
.PHONY: test-sim-cli
test-sim-cli: $(TESSEL_SIM_BIN) $(TESSEL_SIM_TRACE_BIN) $(SOC_TEST_ELFS) $(TESSEL_ISS)
	@tests/sim-cli/run.sh $(TESSEL_SIM_BIN) $(SOC_TEST_DIR) $(TESSEL_ISS)

# ---- lint: core + SoC, the SoC with the NPU per target, and the arbiter ------
LINT_SOC_NPU_TGTS := npu4 npu8 npu16
# the SoC with the core-sequenced NPU's datapath (NpuSeq) at npu2's DIM
LINT_SOC_SEQ_SV   := $(BUILD)/gen/npu2/tessel_target_pkg.sv rtl-model/npu/npu_seq_dp.sv
TEST_SUITES += lint-soc
.PHONY: test-lint-soc
test-lint-soc: $(foreach t,$(LINT_SOC_NPU_TGTS),$(call sim_npu_sv,$(t))) $(LINT_SOC_SEQ_SV)
	@p=0; f=0; \
	if $(VERILATOR) --lint-only -Wall --top-module tessel_soc $(SOC_ALL_SV); \
	then echo "PASS lint tessel_soc"; p=$$((p+1)); else echo "FAIL lint tessel_soc"; f=$$((f+1)); fi; \
	if $(VERILATOR) --lint-only -Wall --top-module tessel_soc -GFastMul=0 $(SOC_ALL_SV); \
	then echo "PASS lint tessel_soc FastMul=0"; p=$$((p+1)); else echo "FAIL lint tessel_soc FastMul=0"; f=$$((f+1)); fi; \
	$(foreach t,$(LINT_SOC_NPU_TGTS),if $(VERILATOR) --lint-only -Wall --top-module tessel_soc $(sim_npu_vflags) \
	     $(call sim_npu_sv,$(t)) $(SOC_ALL_SV); \
	then echo "PASS lint tessel_soc+$(t)"; p=$$((p+1)); else echo "FAIL lint tessel_soc+$(t)"; f=$$((f+1)); fi;) \
	if $(VERILATOR) --lint-only -Wall --top-module tessel_soc -GNpuSeq=1\'b1 $(LINT_SOC_SEQ_SV) $(SOC_ALL_SV); \
	then echo "PASS lint tessel_soc+npu_seq (npu2)"; p=$$((p+1)); else echo "FAIL lint tessel_soc+npu_seq (npu2)"; f=$$((f+1)); fi; \
	if $(VERILATOR) --lint-only --top-module tessel_soc -GNpuSeq=1\'b1 -GNpu=1\'b1 \
	     $(call sim_npu_sv,npu4) $(SOC_ALL_SV) 2>&1 | grep -q "Npu and NpuSeq"; \
	then echo "PASS tessel_soc refuses Npu with NpuSeq"; p=$$((p+1)); else echo "FAIL tessel_soc accepts Npu with NpuSeq"; f=$$((f+1)); fi; \
	for n in 1 3 4; do \
	  if $(VERILATOR) --lint-only -Wall --top-module tessel_memport_arbiter -GNumMasters=$$n \
	       rtl-model/soc/tessel_memport_pkg.sv rtl-model/soc/tessel_fifo.sv rtl-model/soc/tessel_memport_arbiter.sv; \
	  then echo "PASS lint arbiter NumMasters=$$n"; p=$$((p+1)); else echo "FAIL lint arbiter NumMasters=$$n"; f=$$((f+1)); fi; \
	done; \
	echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

# ---- bench: simulated cycles per second and CPI on a CPU-bound firmware ------
BENCH_CPU_ELF := $(BUILD)/firmware/bench-cpu.elf
BENCHES += sim-speed
.PHONY: bench-sim-speed
# Speed of both simulator builds on one CPU-bound firmware: the SoC alone
# (the control core's figure) and the default npu8 SoC with the NPU idle.
bench-sim-speed: $(TESSEL_SIM_BIN) $(SOC_ONLY_SIM) $(SOC_TEST_DIR)/speed_loop.elf
	@$(if $(filter $(BENCH_CPU_ELF),$(ALL)),$(MAKE) --no-print-directory $(BENCH_CPU_ELF) >/dev/null;) \
	elf=$(if $(filter $(BENCH_CPU_ELF),$(ALL)),$(BENCH_CPU_ELF),$(SOC_TEST_DIR)/speed_loop.elf); \
	for sim in $(SOC_ONLY_SIM) $(TESSEL_SIM_BIN); do \
	  echo "bench-sim-speed: $$elf on $$sim ($$($$sim --version | head -n 1); one host core)"; \
	  $$sim $$elf --stats 2>&1 >/dev/null | sed -n 's/^tessel-sim: /bench-sim-speed: /p' | grep -v DRAM; \
	done

# ---- memport: Verilator bench of arbiter (+ register slice) --------------------
# Built twice: the arbiter with the SoC's register slice, and the arbiter
# alone, so both the port and the arbiter's own output follow the rules.
MEMPORT_SV := rtl-model/soc/tessel_memport_pkg.sv rtl-model/soc/tessel_fifo.sv rtl-model/soc/tessel_memport_arbiter.sv \
              rtl-model/soc/tessel_memport_regslice.sv tests/memport/memport_tb_top.sv

$(SIM_OBJ)/memport-slice%/memport-bench: $(MEMPORT_SV) tests/memport/memport_bench.cpp
	@mkdir -p $(@D)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module memport_tb_top -GSlice=$* --Mdir $(@D) \
	  -o memport-bench -CFLAGS "-std=c++17 -O2 -Wall -Wextra" -MAKEFLAGS "OPT_FAST=-O2" \
	  $(abspath tests/memport/memport_bench.cpp) $(MEMPORT_SV) >$(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

TEST_SUITES += memport
.PHONY: test-memport
test-memport: $(SIM_OBJ)/memport-slice1/memport-bench $(SIM_OBJ)/memport-slice0/memport-bench
	@{ $(SIM_OBJ)/memport-slice1/memport-bench "slice/"; $(SIM_OBJ)/memport-slice0/memport-bench "arbiter/"; } \
	  | awk '{ print } /^PASS /{ p++ } /^FAIL /{ f++ } END { printf "%d passed, %d failed\n", p, f; exit (f > 0 || p == 0) }'

# ---- cvt-arith: the SoC converter's arithmetic against the firmware's -----------
# tessel_cvt_pkg's cvt_quantize/cvt_dequantize on ports (tests/cvt/cvt_arith_tb.sv),
# held bit for bit to tfw_quantize/tfw_dequantize of shared/'s host library.
CVT_ARITH_SV    := rtl-model/soc/tessel_cvt_pkg.sv tests/cvt/cvt_arith_tb.sv
CVT_ARITH_BENCH := $(SIM_OBJ)/cvt-arith/cvt-arith-bench

$(CVT_ARITH_BENCH): $(CVT_ARITH_SV) tests/cvt/cvt_arith_bench.cpp shared/tfw_fallback.h $(SHARED_LIB)
	@mkdir -p $(@D)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module cvt_arith_tb --Mdir $(@D) \
	  -o cvt-arith-bench -CFLAGS "-std=c++17 -O2 -Wall -Wextra -I$(abspath shared)" -MAKEFLAGS "OPT_FAST=-O2" \
	  $(abspath tests/cvt/cvt_arith_bench.cpp $(SHARED_LIB)) $(CVT_ARITH_SV) >$(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

TEST_SUITES += cvt-arith
.PHONY: test-cvt-arith
test-cvt-arith: $(CVT_ARITH_BENCH)
	@$(CVT_ARITH_BENCH)

# ---- cvt-dma: the SoC converter as a DMA unit against a C model of its jobs -----
# tessel_cvt on plain ports (tests/cvt/cvt_dma_tb.sv) behind a C++ memory with
# random latency, stalls and an error region: random jobs through its
# registers equal tfw_quantize/tfw_dequantize of shared/'s host library byte
# for byte, and its side of the port keeps docs/memory-port.md's rules.
CVT_DMA_SV    := $(BUILD)/gen/tessel_memmap_pkg.sv rtl-model/soc/tessel_memport_pkg.sv rtl-model/soc/tessel_cvt_pkg.sv \
                 rtl-model/soc/tessel_fifo.sv rtl-model/soc/tessel_cvt.sv tests/cvt/cvt_dma_tb.sv
CVT_DMA_BENCH := $(SIM_OBJ)/cvt-dma/cvt-dma-bench

$(CVT_DMA_BENCH): $(CVT_DMA_SV) tests/cvt/cvt_dma_bench.cpp tests/lib/port_bench.h shared/tfw_fallback.h $(BUILD)/gen/tessel_memmap.h $(SHARED_LIB)
	@mkdir -p $(@D)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module cvt_dma_tb --Mdir $(@D) \
	  -o cvt-dma-bench -CFLAGS "-std=c++17 -O2 -Wall -Wextra -I$(abspath shared) -I$(abspath tests/lib) -I$(abspath $(BUILD)/gen)" \
	  -MAKEFLAGS "OPT_FAST=-O2" $(abspath tests/cvt/cvt_dma_bench.cpp $(SHARED_LIB)) $(CVT_DMA_SV) >$(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

TEST_SUITES += cvt-dma
.PHONY: test-cvt-dma
test-cvt-dma: $(CVT_DMA_BENCH)
	@$(CVT_DMA_BENCH)

# ---- dcache: the SoC's data cache against a C model of it -----------------------
# tessel_dcache on plain ports (tests/dcache/dcache_tb.sv) between the bench
# as the core and as a C++ memory with random latency, stalls, an error
# region and another master writing DRAM behind it: every answer equals a C
# model of the cache's lines, and its side of the port keeps
# docs/memory-port.md's rules. Built with 4 lines (conflicts everywhere) and
# with the simulated SoC's 16.
DCACHE_SV        := $(BUILD)/gen/tessel_memmap_pkg.sv rtl-model/soc/tessel_memport_pkg.sv \
                    rtl-model/soc/tessel_dcache.sv tests/dcache/dcache_tb.sv
DCACHE_BENCHES   := $(SIM_OBJ)/dcache-4/dcache-bench $(SIM_OBJ)/dcache-16/dcache-bench

$(SIM_OBJ)/dcache-%/dcache-bench: $(DCACHE_SV) tests/dcache/dcache_bench.cpp tests/lib/port_bench.h $(BUILD)/gen/tessel_memmap.h
	@mkdir -p $(@D)
	$(call say,VERILATE,$@)
	$(Q)$(VERILATOR) --cc --exe --build -j 1 $(VFLAGS) --top-module dcache_tb -GLines=$* --Mdir $(@D) \
	  -o dcache-bench -CFLAGS "-std=c++17 -O2 -Wall -Wextra -I$(abspath tests/lib) -I$(abspath $(BUILD)/gen)" -MAKEFLAGS "OPT_FAST=-O2" \
	  $(abspath tests/dcache/dcache_bench.cpp) $(DCACHE_SV) >$(@D)/build.log 2>&1 \
	  || { tail -n 40 $(@D)/build.log; exit 1; }

TEST_SUITES += dcache
.PHONY: test-dcache
test-dcache: $(DCACHE_BENCHES)
	@{ for b in $(DCACHE_BENCHES); do $$b; done; } \
	  | awk '{ print } /^PASS /{ p++ } /^FAIL /{ f++ } END { printf "%d passed, %d failed\n", p, f; exit (f > 0 || p == 0) }'

# ---- synthesis check and gate-level simulation ---------------------------------
# Small TCMs keep both quick; the logic is the same as the full-size SoC's.
SYNTH_IMEM_BYTES := 2048
SYNTH_DMEM_BYTES := 1024
SYNTH_DIR  := $(SIM_OBJ)/synth
GATE_DIR   := $(SIM_OBJ)/gate
YOSYS      ?= yosys
SYNTH_READ := read_verilog -sv $(SOC_ALL_SV); \
              chparam -set ImemBytes $(SYNTH_IMEM_BYTES) -set DmemBytes $(SYNTH_DMEM_BYTES) tessel_soc

# synth: yosys's generic synthesis of the whole SoC (core included); any
# warning fails it, so code yosys reads differently from Verilator is caught.
TEST_SUITES += synth
.PHONY: test-synth
test-synth:
	@mkdir -p $(SYNTH_DIR)
	@if ! $(YOSYS) -q -l $(SYNTH_DIR)/synth.log \
	     -p "$(SYNTH_READ); synth -top tessel_soc -flatten; check -assert; stat" >/dev/null 2>&1; then \
	  tail -n 20 $(SYNTH_DIR)/synth.log; echo "FAIL yosys synth tessel_soc"; echo "0 passed, 1 failed"; exit 1; \
	elif grep -qi "warning" $(SYNTH_DIR)/synth.log; then \
	  grep -i -A2 "warning" $(SYNTH_DIR)/synth.log | head -n 30; \
	  echo "FAIL yosys synth tessel_soc: warnings"; echo "0 passed, 1 failed"; exit 1; \
	else \
	  echo "PASS yosys synth tessel_soc ($$(grep -m1 -A12 '=== tessel_soc ===' $(SYNTH_DIR)/synth.log | sed -n 's/.*Number of cells: *//p') cells)"; \
	  echo "1 passed, 0 failed"; \
	fi

# gate-sim: the yosys netlist (memories kept as arrays, all logic as gates)
# runs under the same harness; its UART output, exit status, commit trace
# and cycle count must equal the RTL model's.
$(GATE_DIR)/netlist.v: $(SOC_ALL_SV)
	@mkdir -p $(@D)
	$(call say,YOSYS,$@)
	$(Q)$(YOSYS) -q -l $(@D)/yosys.log -p "$(SYNTH_READ); synth -top tessel_soc -flatten -run begin:fine; \
	  opt -fast -full; techmap; opt -fast; abc -fast; opt -fast; check -assert; \
	  write_verilog -noattr $@" >/dev/null 2>&1 || { tail -n 20 $(@D)/yosys.log; exit 1; }

GATE_SIM_BIN := $(GATE_DIR)/tessel-sim-gate
$(GATE_SIM_BIN): $(GATE_DIR)/netlist.v $(SIM_HARNESS_CXX) $(SIM_HARNESS_H) $(SIM_HOST_LIB)
	$(call verilate_soc,$(GATE_DIR)/obj,tessel-sim-gate,$(SYNTH_IMEM_BYTES),$(SYNTH_DMEM_BYTES),,,$(abspath $(GATE_DIR)/netlist.v))
	$(call say,COPY,$@)
	$(Q)cp $(GATE_DIR)/obj/tessel-sim-gate $@

GATE_PROGRAMS := uart timer ext_irq bus_err dram_rw tohost_pass_dram smc_dram
TEST_SUITES += gate-sim
.PHONY: test-gate-sim
test-gate-sim: $(GATE_SIM_BIN) $(SOC_ONLY_SIM) $(SOC_TEST_ELFS)
	@tests/soc/gate-sim.sh $(SOC_ONLY_SIM) $(GATE_SIM_BIN) $(addprefix $(SOC_TEST_DIR)/,$(addsuffix .elf,$(GATE_PROGRAMS)))

# ---- sim-unit: cmocka tests of the DRAM model, ELF checks and options ----------
# Under ASan/UBSan, as all host tests.
SIM_UNIT_BIN := $(SIM_OBJ)/san/sim-unit-test
$(SIM_OBJ)/san/elf_options_test.o: tests/sim-unit/elf_options_test.c $(SIM_HARNESS_H)
	@mkdir -p $(@D)
	$(call say,CC-ASAN,$<)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Isim -Ishared -c $< -o $@
$(SIM_UNIT_BIN): tests/sim-unit/dram_model_test.cpp sim/dram_model.cpp $(SIM_HARNESS_H) \
                 $(SIM_OBJ)/san/elf_options_test.o $(SIM_HOST_LIB_SAN)
	$(call say,LD,$@)
	$(Q)$(HOST_CXX) $(HOST_CXXFLAGS) $(SAN_FLAGS) -Isim -Ishared tests/sim-unit/dram_model_test.cpp sim/dram_model.cpp \
	  $(filter %.o %.a,$^) -lcmocka -lm -o $@

TEST_SUITES += sim-unit
.PHONY: test-sim-unit
test-sim-unit: $(SIM_UNIT_BIN)
	@$(SIM_UNIT_BIN)
