# firmware/rules.mk: the firmware base and everything tied to the RV32IM ISA:
#   firmware/base  -> build/firmware/libtessel-fw.a  (startup, traps, UART stdio, timer, exit)
#   firmware/apps  -> build/firmware/hello.elf, hello-dram.elf, bench-cpu.elf
#   firmware/tests -> build/tests/firmware/*.elf     (suite fw; printf checks hello)
#   suites iss-cli, iss-fuzz-short, bench iss-speed, fuzzer iss-elf: the ISS
#                                                    (sim/iss/iss.mk) on these programs
#   tests/isa      -> suites isa, traps              (riscv-tests-style assembly tests)
#   tests/diff     -> build/bin/tessel-diff-gen      (suite diff: ISS vs tessel-sim)
# Docs: docs/firmware.md, docs/iss.md.

# The simulators come from sim/rules.mk (included before this file).
TESSEL_SIM := $(TESSEL_SIM_BIN)
FW_OUT     := $(BUILD)/firmware


# ---- assembly ISA and trap tests (linked at 0x80000000) ------------------
RV_TEST_LDFLAGS := $(RV_ARCH) -nostdlib -nostartfiles -Itests/isa -I$(BUILD)/gen -Llinker -L$(BUILD)/gen -Tlinker/dram.ld \
                   -Wl,--no-warn-rwx-segments
ISA_ELFS  := $(patsubst tests/isa/%.S,$(BUILD)/isa/%.elf,$(wildcard tests/isa/*.S))
TRAP_ELFS := $(patsubst tests/isa/traps/%.S,$(BUILD)/isa/traps/%.elf,$(wildcard tests/isa/traps/*.S))

$(BUILD)/isa/%.elf: tests/isa/%.S tests/isa/isa_test.h linker/dram.ld linker/sections.ld $(BUILD)/gen/tessel_memmap.ld \
                    $(BUILD)/gen/tessel_memmap.h
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(RV_CC) $(RV_TEST_LDFLAGS) $< -o $@

ALL += $(ISA_ELFS) $(TRAP_ELFS)
# The SoC suite (sim/rules.mk) runs these programs too.
test-soc: $(ISA_ELFS) $(FW_OUT)/hello-dram.elf

ISA_RUN_ISS = iss="$(TESSEL_ISS) --max-insns 2000000"
# On tessel-sim twice: default DRAM timing, and slow DRAM (the tests run
# from DRAM, so fetch and data paths see long latencies and low bandwidth).
ISA_RUN_SIM = sim="$(TESSEL_SIM) --max-cycles 20000000" \
  sim-slowdram="$(TESSEL_SIM) --max-cycles 200000000 --dram-latency 200 --dram-bw 0.5"

TEST_SUITES += isa traps
.PHONY: test-isa test-traps
test-isa: $(TESSEL_ISS) $(ISA_ELFS) $(TESSEL_SIM)
	@tests/isa/run-elfs.sh $(ISA_RUN_ISS) $(ISA_RUN_SIM) -- $(ISA_ELFS)
test-traps: $(TESSEL_ISS) $(TRAP_ELFS) $(TESSEL_SIM)
	@tests/isa/run-elfs.sh $(ISA_RUN_ISS) $(ISA_RUN_SIM) -- $(TRAP_ELFS)

# ---- firmware base library and applications ------------------------------
# crt0.o is linked first, by name (an archive member would not be pulled in
# for the entry point); everything else comes from libtessel-fw.a.
FW_BASE_SRCS := firmware/base/dcache.c firmware/base/simctl.c firmware/base/timer.c firmware/base/trap.c firmware/base/uart.c \
                firmware/base/trap_entry.S
FW_BASE_OBJS := $(patsubst firmware/base/%,$(BUILD)/obj/fw/%.o,$(FW_BASE_SRCS))
FW_CRT0      := $(FW_OUT)/crt0.o
FW_LIB       := $(FW_OUT)/libtessel-fw.a
# The map's addresses, CSR bits and causes: build/gen/tessel_memmap.h (targets/rules.mk).
FW_HDRS      := $(wildcard firmware/base/*.h) $(BUILD)/gen/tessel_memmap.h
FW_CFLAGS    := $(RV_CFLAGS) -ffreestanding -Ifirmware/base -I$(BUILD)/gen
# Integer-only printf keeps hello and friends small and fast; define
# FW_PRINTF_FLOAT=1 for float printing.
FW_LDFLAGS   := $(RV_CFLAGS) -nostartfiles -Llinker -L$(BUILD)/gen \
                $(if $(FW_PRINTF_FLOAT),,-DPICOLIBC_INTEGER_PRINTF_SCANF)
# The archive is grouped with libc so picolibc's exit/printf can pull _exit
# and stdout back out of it. The core has no MMU or PMP, so segment permissions
# mean nothing to it; ld's warning about a segment both writable and executable
# (code and data in one DRAM region) is off.
fw_link = $(RV_CC) $(FW_LDFLAGS) -Wl,--no-warn-rwx-segments -T linker/$(1) $(FW_CRT0) $(2) \
          -Wl,--start-group $(FW_LIB) -lc -Wl,--end-group -o $@

$(BUILD)/obj/fw/%.c.o: firmware/base/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) -c $< -o $@
$(BUILD)/obj/fw/%.S.o: firmware/base/%.S
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(RV_ARCH) -c $< -o $@
$(FW_CRT0): firmware/base/crt0.S
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(RV_ARCH) -c $< -o $@
$(FW_LIB): $(FW_BASE_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(RV_PREFIX)ar rcs $@ $^

FW_LINK_DEPS := $(FW_CRT0) $(FW_LIB) linker/sim.ld linker/dram.ld linker/sections.ld $(BUILD)/gen/tessel_memmap.ld

$(BUILD)/obj/fw-apps/%.o: firmware/apps/%.c $(FW_HDRS) $(wildcard firmware/apps/*.h)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) -Ifirmware/apps -c $< -o $@
$(FW_OUT)/%.elf: $(BUILD)/obj/fw-apps/%.o $(FW_LINK_DEPS)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$<)
# The same hello, run from DRAM (linker/dram.ld).
$(FW_OUT)/hello-dram.elf: $(BUILD)/obj/fw-apps/hello.o $(FW_LINK_DEPS)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,dram.ld,$<)

FW_APPS := $(FW_OUT)/hello.elf $(FW_OUT)/hello-dram.elf $(FW_OUT)/bench-cpu.elf
ALL += $(FW_CRT0) $(FW_LIB) $(FW_APPS)

# bench-cpu's expected checksum comes from running the same C on the host.
FW_BENCH_HOST := $(BUILD)/obj/fw-apps/bench-cpu-host
$(FW_BENCH_HOST): firmware/apps/bench-cpu.c
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -DBENCH_HOST $< -o $@
.PHONY: fw-bench-expected
fw-bench-expected: $(FW_BENCH_HOST)
	$(FW_BENCH_HOST) > firmware/apps/bench_expected.h

# ---- firmware tests (C on the firmware base) -----------------------------
FW_TEST_ELFS := $(patsubst tests/firmware/%.c,$(FW_OUT)/tests/%.elf,$(wildcard tests/firmware/*.c))
$(BUILD)/obj/fw-tests/%.o: tests/firmware/%.c tests/firmware/check.h $(FW_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) -c $< -o $@
$(FW_OUT)/tests/%.elf: $(BUILD)/obj/fw-tests/%.o $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$<)
ALL += $(FW_TEST_ELFS)

FW_RUN_ISS = iss="$(TESSEL_ISS) --max-insns 50000000"
FW_RUN_SIM = sim="$(TESSEL_SIM) --max-cycles 100000000"

TEST_SUITES += printf fw
.PHONY: test-printf test-fw
test-printf: $(TESSEL_ISS) $(FW_OUT)/hello.elf $(FW_OUT)/hello-dram.elf $(TESSEL_SIM)
	@tests/isa/run-elfs.sh --expect tests/firmware/expected $(FW_RUN_ISS) $(FW_RUN_SIM) -- \
	  $(FW_OUT)/hello.elf $(FW_OUT)/hello-dram.elf
# fw: C tests of the base, bench-cpu's checksum, and the recorded expected
# checksum against the host run of the same code.
test-fw: $(TESSEL_ISS) $(FW_TEST_ELFS) $(FW_OUT)/bench-cpu.elf $(FW_BENCH_HOST) $(TESSEL_SIM)
	@set -o pipefail; { \
	  tests/isa/run-elfs.sh --expect tests/firmware/expected $(FW_RUN_ISS) $(FW_RUN_SIM) -- \
	    $(FW_TEST_ELFS) $(FW_OUT)/bench-cpu.elf | grep -v ' passed, '; \
	  if $(FW_BENCH_HOST) | cmp -s - firmware/apps/bench_expected.h; then \
	    echo "PASS host bench_expected.h"; else \
	    echo "FAIL host bench_expected.h (stale: run make fw-bench-expected)"; fi; \
	} > $(BUILD)/fw-test.log; cat $(BUILD)/fw-test.log; \
	p=$$(grep -c '^PASS' $(BUILD)/fw-test.log); f=$$(grep -c '^FAIL' $(BUILD)/fw-test.log); \
	echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

# ---- the ISS's command-line checks ---------------------------------------
TEST_SUITES += iss-cli
.PHONY: test-iss-cli
test-iss-cli: $(TESSEL_ISS) $(BUILD)/isa/alu_rr.elf $(BUILD)/isa/cli/loop.elf $(BUILD)/firmware/hello.elf
	@tests/isa/iss-cli.sh $(TESSEL_ISS) $(BUILD)/isa/alu_rr.elf $(BUILD)/isa/cli/loop.elf $(BUILD)/firmware/hello.elf

# ---- random-instruction differential test: ISS vs tessel-sim -------------
DIFF_GEN := $(BIN)/tessel-diff-gen
$(DIFF_GEN): tests/diff/gen.c
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $< -o $@
ALL += $(DIFF_GEN)

# 300 programs of 200 random instructions; DIFF_SEED/DIFF_COUNT/DIFF_INSNS
# override for longer hunts (e.g. make test-diff DIFF_SEED=1000 DIFF_COUNT=5000).
DIFF_SEED  ?= 1
DIFF_COUNT ?= 300
DIFF_INSNS ?= 200
TEST_SUITES += diff
.PHONY: test-diff
# Real firmware whose run does not depend on cycle counts, compared whole.
DIFF_ELFS := $(FW_OUT)/hello.elf $(FW_OUT)/hello-dram.elf $(FW_OUT)/tests/fw_libc.elf \
             $(FW_OUT)/tests/fw_traps.elf $(FW_OUT)/tests/fw_exit.elf \
             $(FW_OUT)/tests/fw_unexpected_trap.elf $(ISA_ELFS) $(BUILD)/isa/traps/exceptions.elf
test-diff: $(DIFF_GEN) $(TESSEL_ISS) $(TESSEL_SIM) $(DIFF_ELFS)
	@rm -rf $(BUILD)/diff
	@tests/diff/run-diff.sh $(DIFF_GEN) $(TESSEL_ISS) $(TESSEL_SIM) $(BUILD)/diff \
	  $(DIFF_SEED) $(DIFF_COUNT) $(DIFF_INSNS) $(DIFF_ELFS)

# Objects made by chained pattern rules are kept (make would delete them as
# intermediates and rebuild them next time).
.SECONDARY: $(patsubst firmware/apps/%.c,$(BUILD)/obj/fw-apps/%.o,$(wildcard firmware/apps/*.c)) \
            $(patsubst tests/firmware/%.c,$(BUILD)/obj/fw-tests/%.o,$(wildcard tests/firmware/*.c))

# ---- benchmark: ISS speed on bench-cpu -----------------------------------
BENCHES += iss-speed
.PHONY: bench-iss-speed
bench-iss-speed: $(TESSEL_ISS) $(FW_OUT)/bench-cpu.elf
	@$(TESSEL_ISS) --stats $(FW_OUT)/bench-cpu.elf

# ---- fuzzing the ISS's ELF loader and executor (libFuzzer, clang) -------
ISS_FUZZ := $(BUILD)/obj/iss-fuzz/elf_fuzz
ISS_FUZZ_TIME ?= $(FUZZ_TIME)
$(ISS_FUZZ): tests/iss/elf_fuzz.c $(ISS_LIB_FUZZ) $(SIM_HOST_LIB_FUZZ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE $(FUZZ_LDFLAGS) $(ISS_INC) \
	  -o $@ $< $(ISS_LIB_FUZZ) $(SIM_HOST_LIB_FUZZ)
# Seeds: the ISA test ELFs and a few firmware ELFs (build outputs, copied to
# a scratch corpus so nothing is written into the tree).
iss_fuzz_run = mkdir -p $(BUILD)/obj/iss-fuzz/corpus && \
  cp $(ISA_ELFS) $(FW_OUT)/hello.elf $(BUILD)/obj/iss-fuzz/corpus/ && \
  $(ISS_FUZZ) -seed=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048 $(1) \
    -artifact_prefix=$(BUILD)/obj/iss-fuzz/ $(BUILD)/obj/iss-fuzz/corpus

FUZZERS += iss-elf
TEST_SUITES += iss-fuzz-short
.PHONY: fuzz-iss-elf test-iss-fuzz-short
fuzz-iss-elf: $(ISS_FUZZ) $(ISA_ELFS) $(FW_OUT)/hello.elf
	$(call iss_fuzz_run,-max_total_time=$(ISS_FUZZ_TIME))
# A short seeded run in make test (a fixed number of inputs, not a time, so
# it does the same work on any machine); the long one is make fuzz.
test-iss-fuzz-short: $(ISS_FUZZ) $(ISA_ELFS) $(FW_OUT)/hello.elf
	@rm -rf $(BUILD)/obj/iss-fuzz/corpus
	@if { $(call iss_fuzz_run,-runs=4000); } 2>&1 | tail -n 5; [ $${PIPESTATUS[0]} -eq 0 ]; then \
	  echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
include firmware/npu/npu.mk
include firmware/runtime/rules.mk
