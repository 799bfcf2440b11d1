# firmware/npu/npu.mk: the NPU driver, its test firmware and the NPU system
# tests (docs/npu-system.md). Included from firmware/rules.mk.
#
#   build/firmware/<t>/npu-run.elf     batch runner firmware, driver built for target t
#   build/firmware/<t>/npu-probe.elf   driver checks that need no NPU run
#   (build/bin/tessel-npu-sysgen, the stream generator and C-model side, is
#   built with the instrumented C model in sim/npu-model/npu-model.mk)
#
# The driver is built per target: it takes sizes and the target hash from
# build/gen/<t>/tessel_target.h.

# npu2: the boards' driver (boards/icebreaker/board.mk links it).
NPU_FW_TARGETS := npu2 npu4 npu8 npu16 npu8-arty
NPU_BENCH_SIM   := $(BUILD)/npu8/tessel-sim
NPU_GEN        := $(BUILD)/gen
NPU_FW_HDRS    := firmware/npu/npu.h firmware/npu/npu_common.h tests/npu-system/npu_batch.h $(NPU_GEN)/tessel_isa.h $(FW_HDRS)

# npu_fw_target T: objects and ELFs of target T.
define npu_fw_target
$(BUILD)/obj/fw-npu/$(1)/%.o: firmware/npu/%.c $(NPU_FW_HDRS) $(NPU_GEN)/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(FW_CFLAGS) -I$(NPU_GEN)/$(1) -I$(NPU_GEN) -Ifirmware/npu -Itests/npu-system -c $$< -o $$@
$(BUILD)/obj/fw-npu/$(1)/tests/%.o: tests/npu-system/firmware/%.c $(NPU_FW_HDRS) $(NPU_GEN)/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(FW_CFLAGS) -I$(NPU_GEN)/$(1) -I$(NPU_GEN) -Ifirmware/npu -Itests/npu-system -c $$< -o $$@
$(BUILD)/obj/fw-npu/$(1)/tessel_isa_tables.o: $(NPU_GEN)/tessel_isa_tables.c $(NPU_GEN)/tessel_isa.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(FW_CFLAGS) -I$(NPU_GEN) -c $$< -o $$@
$(FW_OUT)/$(1)/npu-%.elf: $(BUILD)/obj/fw-npu/$(1)/tests/npu_%.o $(BUILD)/obj/fw-npu/$(1)/npu.o \
                          $(BUILD)/obj/fw-npu/$(1)/tessel_isa_tables.o $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$$(call say,LD-RV32,$$@)
	$$(Q)$$(call fw_link,sim.ld,$$(filter-out $(FW_CRT0),$$(filter %.o,$$^)))
endef
$(foreach t,$(NPU_FW_TARGETS),$(eval $(call npu_fw_target,$(t))))

NPU_FW_TESTS := $(patsubst tests/npu-system/firmware/npu_%.c,%,$(wildcard tests/npu-system/firmware/npu_*.c))
# npu16 is built on demand only (make build/firmware/npu16/npu-run.elf).
NPU_FW_ELFS := $(foreach t,npu4 npu8,$(patsubst %,$(FW_OUT)/$(t)/npu-%.elf,$(NPU_FW_TESTS)))
ALL += $(NPU_FW_ELFS)
.SECONDARY: $(foreach t,$(NPU_FW_TARGETS),$(BUILD)/obj/fw-npu/$(t)/npu.o \
  $(BUILD)/obj/fw-npu/$(t)/tessel_isa_tables.o $(patsubst %,$(BUILD)/obj/fw-npu/$(t)/tests/npu_%.o,$(NPU_FW_TESTS)))


# ---- suites ------------------------------------------------------------------
# npu-gen: the generator and the C-model side (no RTL needed).
NPU_SYS_SEED  ?= 1
NPU_SYS_COUNT ?= 200
TEST_SUITES += npu-gen
.PHONY: test-npu-gen
test-npu-gen: $(NPU_SYSGEN) $(NPU_SYSGEN_MUTANT) $(FW_OUT)/npu4/npu-batchcheck.elf $(FW_OUT)/npu8/npu-batchcheck.elf
	@$(MAKE) --no-print-directory $(TESSEL_SIM)
	@tests/npu-system/run.sh gen $(NPU_SYSGEN) $(NPU_SYSGEN_MUTANT) $(BUILD)/npu-system/gen \
	  $(NPU_SYS_SEED) $(NPU_SYS_COUNT) $(TESSEL_SIM) $(FW_OUT) npu4 npu8

# ---- benchmark: 256x256x256 GEMM through firmware on the RTL at npu8 -----------
# Prints the C model's (cost model's) figures and the RTL's.
BENCHES += npu-soc-gemm
.PHONY: bench-npu-soc-gemm
bench-npu-soc-gemm: $(NPU_SYSGEN) $(FW_OUT)/npu8/npu-run.elf $(FW_OUT)/bench-cpu.elf
	@$(MAKE) --no-print-directory $(NPU_BENCH_SIM)
	@tests/npu-system/bench-gemm.sh $(NPU_SYSGEN) $(NPU_BENCH_SIM) $(FW_OUT)/npu8/npu-run.elf $(BUILD)/npu-system/bench npu8

# ---- RTL-side suites: npu-diff and npu-errors ----------------------------------
# They run on the simulators with the NPU, build/<t>/tessel-sim (sim/rules.mk).
NPU_SIM_npu4 ?= $(BUILD)/npu4/tessel-sim
NPU_SIM_npu8 ?= $(BUILD)/npu8/tessel-sim
NPU_SIM_npu16 ?= $(BUILD)/npu16/tessel-sim
TEST_SUITES += npu-diff npu-errors
NPU_RTL_TARGETS ?= npu4 npu8
NPU_DIFF_COUNT ?= 100
.PHONY: test-npu-diff test-npu-errors
test-npu-diff test-npu-errors: test-npu-%: $(NPU_SYSGEN) $(NPU_SYSGEN_MUTANT) \
    $(foreach t,$(NPU_RTL_TARGETS),$(FW_OUT)/$(t)/npu-run.elf $(NPU_SIM_$(t)))
	@mkdir -p $(BUILD)/npu-system; kind=$(if $(filter diff,$*),valid,errors); p=0; f=0; \
	for t in $(NPU_RTL_TARGETS); do \
	  sim=$(BUILD)/$$t/tessel-sim; [ $$t = npu4 ] && sim=$(NPU_SIM_npu4); [ $$t = npu8 ] && sim=$(NPU_SIM_npu8); \
	  tests/npu-system/run.sh rtl $(NPU_SYSGEN) $(NPU_SYSGEN_MUTANT) $$sim $(FW_OUT)/$$t/npu-run.elf \
	    $(BUILD)/npu-system/rtl $(NPU_SYS_SEED) $(if $(filter diff,$*),$(NPU_DIFF_COUNT),64) $$kind $$t \
	    > $(BUILD)/npu-system/rtl-$$t-$$kind.log; \
	  log=$(BUILD)/npu-system/rtl-$$t-$$kind.log; grep -v '^PASS' $$log | grep -v ' passed, '; \
	  set -- $$(tail -n 1 $$log); p=$$((p + $${1:-0})); f=$$((f + $${3:-1})); \
	done; echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

# ---- npu-driver: the driver on the simulators --------------------------------
# On every simulator with the NPU (device checks) and on the SoC alone
# (no-device path): build/obj/sim/soc-only/tessel-sim (sim/rules.mk), since
# build/bin/tessel-sim is npu8's. Each entry: SIM:ELF.
NPU_NODEV_SIM   := $(BUILD)/obj/sim/soc-only/tessel-sim
NPU_DRIVER_RUNS := $(foreach t,npu4 npu8,$(BUILD)/$(t)/tessel-sim:$(FW_OUT)/$(t)/npu-driver.elf) \
                   $(NPU_NODEV_SIM):$(FW_OUT)/npu8/npu-driver.elf
TEST_SUITES += npu-driver
.PHONY: test-npu-driver
test-npu-driver: $(foreach r,$(NPU_DRIVER_RUNS),$(lastword $(subst :, ,$(r))))
	@$(MAKE) --no-print-directory $(foreach r,$(NPU_DRIVER_RUNS),$(firstword $(subst :, ,$(r))))
	@p=0; f=0; log=$(BUILD)/npu-system-driver.log; \
	for r in $(NPU_DRIVER_RUNS); do sim=$${r%%:*}; elf=$${r#*:}; \
	  echo "== $$($$sim --version) $$elf"; $$sim $$elf --max-cycles 50000000 > $$log; st=$$?; cat $$log; \
	  p=$$((p + $$(grep -c '^PASS' $$log))); n=$$(grep -c '^FAIL' $$log); f=$$((f + n)); \
	  if [ $$st -ne 0 ] && [ $$n -eq 0 ]; then echo "FAIL firmware ended with status $$st"; f=$$((f + 1)); fi; \
	done; echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

# ---- the core-sequenced NPU (docs/npu-seq.md) ----------------------------------
# npu_seq.c is npu.h's driver on the C model's own sources compiled for the
# core (their RV32 objects: sim/npu-model/npu-model.mk, NPU_MODEL_RV_OBJS);
# it replaces npu.o in the runtime library of a SoC whose NPU is
# core-sequenced (firmware/runtime/runtime.mk, the <t>-seq flavour).
# -DTSL_NPU_SEQ_DP (NPU_SEQ_DP_FLAGS) puts the MACs and the requantiser on
# the npu_seq_dp registers (npu_seq_dp.h); RV_SIZE_CFLAGS: the boards that run this NPU
# are short of memory (the iCEBreaker's 128 KiB hold firmware, package and window).
NPU_SEQ_TARGETS   := npu2
NPU_SEQ_HDRS      := $(NPU_FW_HDRS) firmware/npu/npu_seq_dp.h $(NPU_MODEL_HDRS) $(NPU_GEN)/tessel_memmap.h
# npu_seq_mem.c: word-at-a-time memcpy and memset ahead of picolibc's
# byte loops (the C model's struct copies), -O2 without LTO or builtins.
npu_seq_objs       = $(BUILD)/obj/fw-seq/$(1)/npu_seq.o $(BUILD)/obj/fw-seq/$(1)/npu_seq_mem.o $(call NPU_MODEL_RV_OBJS,$(1))
NPU_SEQ_MEM_CFLAGS := $(RV_CFLAGS) -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns
define npu_seq_target
$(BUILD)/obj/fw-seq/$(1)/npu_seq.o: firmware/npu/npu_seq.c $(NPU_SEQ_HDRS) $(NPU_GEN)/$(1)/tessel_target.h
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $$(call NPU_MODEL_RV_CFLAGS,$(1)) -c $$< -o $$@
$(BUILD)/obj/fw-seq/$(1)/npu_seq_mem.o: firmware/npu/npu_seq_mem.c
	@mkdir -p $$(@D)
	$$(call say,CC-RV32,$$@)
	$$(Q)$(RV_CC) $(NPU_SEQ_MEM_CFLAGS) -c $$< -o $$@
endef
$(foreach t,$(NPU_SEQ_TARGETS),$(eval $(call npu_seq_target,$(t))))
.SECONDARY: $(foreach t,$(NPU_SEQ_TARGETS),$(call npu_seq_objs,$(t)))

# ---- npu-seq: models on the core-sequenced NPU -----------------------------------
# The model suite's small models (ops, quantised, runtime cases: a minute; the
# nets take the core minutes each) compiled for npu2, run by the core-sequenced
# firmware on build/npu2-seq/tessel-sim against the int8 reference, digits'
# test set against the C model, the firmware on a SoC without the datapath,
# and the iCEBreaker's link firmware serving a digit over the host link
# (NPU_SEQ_BOARD_LINK: its fit report, its ELF and the board's package,
# boards/icebreaker/board.mk).
TEST_SUITES += npu-seq
NPU_SEQ_MODELS ?= ^(ops|quant|run)/
.PHONY: test-npu-seq
test-npu-seq: $(BIN)/tessel $(BUILD)/npu2-seq/tessel-sim $(FW_OUT)/npu2-seq/tessel-fw.elf $(NPU_NODEV_SIM)
	@RV_NM="$(RV_PREFIX)nm" bash tests/npu-seq/run.sh $(BUILD)/test-tmp/npu-seq $(BIN)/tessel $(BUILD)/npu2-seq/tessel-sim \
	  $(FW_OUT)/npu2-seq/tessel-fw.elf $(NPU_NODEV_SIM) '$(NPU_SEQ_MODELS)' $(NPU_SEQ_BOARD_LINK)
