# compiler/tpkg.mk: the model package (.tpkg, issue 7 items 6-7), included by
# compiler/rules.mk right after it lists the compiler's library objects.
#
#   compiler/tpkg*.c, crc32.c   join the compiler library by the wildcard there;
#                               they need build/gen/tessel_isa.h (added here)
#   make test-package           cmocka round trip + every corruption class,
#                               inspect (FileCheck-14), --emit-c (rv32 gcc), the
#                               freestanding rv32 build of the reader
#   make test-fuzz-tpkg-short   ~15 s seeded libFuzzer run of tpkg_check
#   make fuzz-tpkg              long run (TPKG_FUZZ_TIME seconds)

TPKG_GEN := $(BUILD)/gen
TPKG_OBJ := $(BUILD)/obj/tpkg

# The reader decodes commands with the generated decoders and inspect
# disassembles them: the compiler library gets the generated header path and
# the generated tables (descriptors, tsl_disasm).
COMPILER_CFLAGS       += -I$(TPKG_GEN)
COMPILER_LIB_SRCS     += $(TPKG_GEN)/tessel_isa_tables.c
COMPILER_LIB_OBJS     += $(COMPILER_OBJ)/tessel_isa_tables.o
COMPILER_LIB_OBJS_SAN += $(COMPILER_OBJ_SAN)/tessel_isa_tables.o

$(COMPILER_OBJ)/tessel_isa_tables.o: $(TPKG_GEN)/tessel_isa_tables.c $(TPKG_GEN)/tessel_isa.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(TPKG_GEN) -c $< -o $@

$(COMPILER_OBJ_SAN)/tessel_isa_tables.o: $(TPKG_GEN)/tessel_isa_tables.c $(TPKG_GEN)/tessel_isa.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -I$(TPKG_GEN) -c $< -o $@

# The header must exist before any compiler object that includes it is built
# (the .d files only know after the first build).
TPKG_USERS := tpkg_check tpkg_write tpkg_inspect emit_c cli
$(foreach u,$(TPKG_USERS),$(COMPILER_OBJ)/$(u).o $(COMPILER_OBJ_SAN)/$(u).o): | $(TPKG_GEN)/tessel_isa.h

# The fuzzers of compiler/rules.mk compile every library source with their
# own include list: give them the generated header's folder too.
$(BUILD)/obj/compiler-tests/fuzz-import $(BUILD)/obj/compiler-tests/fuzz-parse-ir: IMPORT_FUZZ_FLAGS += -I$(TPKG_GEN)
