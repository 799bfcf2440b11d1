# firmware/rules.mk: the firmware base and everything tied to the RV32IM ISA:
#   firmware/base  -> build/firmware/libtessel-fw.a  (startup, traps, UART stdio, timer, exit)
#   firmware/apps  -> build/firmware/hello.elf, bench-cpu.elf
#   sim/iss        -> build/bin/tessel-iss           (instruction-set simulator)
#   tests/isa      -> suites isa, traps              (riscv-tests-style assembly tests)
#   tests/diff     -> suite diff                     (random programs, ISS vs tessel-sim)
#   suites iss (cmocka, ISS unit tests), printf (hello.elf output), fw (C firmware tests)

TESSEL_ISS := $(BIN)/tessel-iss
TESSEL_SIM := $(BIN)/tessel-sim
FW_OUT     := $(BUILD)/firmware

# tessel-sim is built by sim/rules.mk, which is included after this file, so
# whether it exists is decided when a recipe runs, not when this is parsed.
fw_have_sim = $(filter $(TESSEL_SIM),$(ALL))
fw_build_sim = $(if $(fw_have_sim),@$(MAKE) --no-print-directory $(TESSEL_SIM),@echo "note: no rule builds $(TESSEL_SIM) yet: running on tessel-iss only")

# ---- instruction-set simulator --------------------------------------------
ISS_SRCS := $(filter-out %_test.c,$(wildcard sim/iss/*.c))
ISS_OBJS := $(patsubst sim/iss/%.c,$(BUILD)/obj/iss/%.o,$(ISS_SRCS))
ISS_SAN_OBJS := $(patsubst sim/iss/%.c,$(BUILD)/obj/iss-san/%.o,$(ISS_SRCS))

$(BUILD)/obj/iss/%.o: sim/iss/%.c $(wildcard sim/iss/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@
$(BUILD)/obj/iss-san/%.o: sim/iss/%.c $(wildcard sim/iss/*.h)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(TESSEL_ISS): $(ISS_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $^ -o $@

ALL += $(TESSEL_ISS)

# ---- assembly ISA and trap tests (linked at 0x80000000) ------------------
RV_TEST_LDFLAGS := $(RV_ARCH) -nostdlib -nostartfiles -Itests/isa -Llinker -Tlinker/dram.ld \
                   -Wl,--no-warn-rwx-segments
ISA_ELFS  := $(patsubst tests/isa/%.S,$(BUILD)/isa/%.elf,$(wildcard tests/isa/*.S))
TRAP_ELFS := $(patsubst tests/isa/traps/%.S,$(BUILD)/isa/traps/%.elf,$(wildcard tests/isa/traps/*.S))

$(BUILD)/isa/%.elf: tests/isa/%.S tests/isa/isa_test.h linker/dram.ld linker/sections.ld
	@mkdir -p $(@D)
	$(RV_CC) $(RV_TEST_LDFLAGS) $< -o $@

ALL += $(ISA_ELFS) $(TRAP_ELFS)

ISA_RUN_ISS = iss="$(TESSEL_ISS) --max-insns 2000000"
ISA_RUN_SIM = $(if $(fw_have_sim),sim="$(TESSEL_SIM) --max-cycles 20000000")

TEST_SUITES += isa traps
.PHONY: test-isa test-traps
test-isa: $(TESSEL_ISS) $(ISA_ELFS)
	$(fw_build_sim)
	@tests/isa/run-elfs.sh $(ISA_RUN_ISS) $(ISA_RUN_SIM) -- $(ISA_ELFS)
test-traps: $(TESSEL_ISS) $(TRAP_ELFS)
	$(fw_build_sim)
	@tests/isa/run-elfs.sh $(ISA_RUN_ISS) $(ISA_RUN_SIM) -- $(TRAP_ELFS)
