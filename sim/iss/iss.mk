# sim/iss/iss.mk: the RV32IM instruction-set simulator (docs/iss.md), the
# reference the SoC's core is compared with.
#   build/bin/tessel-iss                 the ISS (main.c + build/lib/libtessel-iss.a)
#   make test-iss                        cmocka unit tests (tests/iss/iss_test.c), ASan/UBSan
# Its suites on programs (isa, traps, iss-cli, iss-fuzz-short) are in firmware/rules.mk,
# which builds those programs. The ISS links tessel-sim's ELF parser (sim/elf_load.c,
# libtessel-sim-host): one parser, one set of checks and messages.

ISS_SRCS := sim/iss/bus.c sim/iss/csr.c sim/iss/elf.c sim/iss/hart.c
ISS_INC  := -Isim -Isim/iss $(SHARED_INC) -I$(BUILD)/gen
tessel-iss_CFLAGS = $(HOST_CFLAGS) $(ISS_INC)
tessel-iss_DEPS   = $(BUILD)/gen/tessel_memmap.h
$(eval $(call host_lib,tessel-iss,$(ISS_SRCS) sim/iss/main.c))
ISS_LIB      := $(BUILD)/lib/libtessel-iss.a
ISS_LIB_SAN  := $(BUILD)/lib/libtessel-iss-asan.a
ISS_LIB_FUZZ := $(BUILD)/lib/libtessel-iss-fuzz.a
TESSEL_ISS   := $(BIN)/tessel-iss

# main() is in the library (sim/iss/main.c): the link pulls it from there.
$(TESSEL_ISS): $(ISS_LIB) $(SIM_HOST_LIB)
	$(call host_link,$@,$(ISS_LIB) $(SIM_HOST_LIB),$(HOST_CFLAGS))
ALL += $(TESSEL_ISS)

ISS_TEST := $(BUILD)/tests/iss_test
$(ISS_TEST): tests/iss/iss_test.c $(ISS_LIB_SAN) $(SIM_HOST_LIB_SAN)
	$(call host_link,$@,$< $(ISS_LIB_SAN) $(SIM_HOST_LIB_SAN) -lcmocka,$(HOST_CFLAGS) $(SAN_FLAGS) $(ISS_INC))
TEST_SUITES += iss
.PHONY: test-iss
test-iss: $(ISS_TEST)
	@$(ISS_TEST)
