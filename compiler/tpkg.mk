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

# ---- tests (tests/package) ----
TPKG_LIB_SRCS   := compiler/tpkg_write.c compiler/tpkg_check.c compiler/crc32.c compiler/diag.c \
                   compiler/in_file.c compiler/out_file.c compiler/scratch.c
TPKG_HDRS       := compiler/tpkg.h compiler/tpkg_format.h compiler/crc32.h compiler/diag.h tests/package/sample_pkg.h \
                   $(TPKG_GEN)/tessel_isa.h $(TPKG_GEN)/npu8/tessel_target.h
TPKG_TEST_FLAGS := $(HOST_CFLAGS) $(SAN_FLAGS) -Icompiler -Itests/package -I$(TPKG_GEN) -I$(TPKG_GEN)/npu8
TPKG_FUZZ_TIME  ?= $(FUZZ_TIME)

$(TPKG_OBJ)/test-package: tests/package/test_package.c tests/package/sample_pkg.c $(TPKG_LIB_SRCS) $(TPKG_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(TPKG_TEST_FLAGS) -o $@ $(filter %.c,$^) -lcmocka

$(TPKG_OBJ)/make-sample: tests/package/make_sample.c tests/package/sample_pkg.c $(TPKG_LIB_SRCS) $(TPKG_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(TPKG_TEST_FLAGS) -o $@ $(filter %.c,$^)

TEST_SUITES += package fuzz-tpkg-short
FUZZERS     += tpkg
.PHONY: test-package test-fuzz-tpkg-short fuzz-tpkg

test-package: $(TPKG_OBJ)/test-package $(TPKG_OBJ)/make-sample $(BIN)/tessel-asan $(TPKG_GEN)/tessel_isa.h
	@RV_CC="$(RV_CC)" RV_CFLAGS="$(RV_CFLAGS)" RV_ARCH_FLAGS="$(RV_ARCH)" RV_OBJCOPY="$(RV_OBJCOPY)" RV_NM="$(RV_PREFIX)nm" \
	  bash tests/package/run.sh $(TPKG_OBJ) $(BIN)/tessel-asan $(TPKG_GEN)

# libFuzzer on tpkg_check, seeded with valid packages (tests/package/seeds
# and the sample package) so it mutates past the CRCs' early exits: the
# fuzzer entry also refreshes CRCs on half the inputs (see fuzz_tpkg.c).
TPKG_FUZZ_ARGS = -seed=1 -max_len=16384 -timeout=10 -rss_limit_mb=1024 \
  -artifact_prefix=$(TPKG_OBJ)/ $(TPKG_OBJ)/fuzz-corpus $(TPKG_OBJ)/fuzz-seeds

$(TPKG_OBJ)/fuzz-tpkg: tests/package/fuzz_tpkg.c compiler/tpkg_check.c compiler/crc32.c compiler/tpkg_format.h $(TPKG_GEN)/tessel_isa.h
	@mkdir -p $(@D)
	clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -Icompiler -I$(TPKG_GEN) \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $(filter %.c,$^)

$(TPKG_OBJ)/fuzz-seeds/sample.tpkg: $(TPKG_OBJ)/make-sample
	@mkdir -p $(@D)
	$(TPKG_OBJ)/make-sample $@
	$(TPKG_OBJ)/make-sample $(@D)/minimal.tpkg --minimal

test-fuzz-tpkg-short: $(TPKG_OBJ)/fuzz-tpkg $(TPKG_OBJ)/fuzz-seeds/sample.tpkg
	@mkdir -p $(TPKG_OBJ)/fuzz-corpus
	@if $(TPKG_OBJ)/fuzz-tpkg -max_total_time=15 $(TPKG_FUZZ_ARGS) 2>&1 | tail -n 5; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

# The long run also starts from packages the compiler made (every kernel
# kind: tests/models/run/kinds; the digits CNN), at two targets.
TPKG_MODEL_SEEDS := $(foreach t,npu4 npu8,$(TPKG_OBJ)/fuzz-seeds-models/kinds-$(t).tpkg $(TPKG_OBJ)/fuzz-seeds-models/digits-$(t).tpkg)
$(TPKG_OBJ)/fuzz-seeds-models/kinds-%.tpkg: $(BIN)/tessel tests/models/run/kinds.onnx
	@mkdir -p $(@D)
	$(BIN)/tessel compile tests/models/run/kinds.onnx --calib tests/models/run/kinds.calib.npy --target $* -o $@
$(TPKG_OBJ)/fuzz-seeds-models/digits-%.tpkg: $(BIN)/tessel tests/models/digits/digits_cnn.onnx
	@mkdir -p $(@D)
	$(BIN)/tessel compile tests/models/digits/digits_cnn.onnx --calib tests/models/digits/digits.calib.npy --target $* -o $@

fuzz-tpkg: $(TPKG_OBJ)/fuzz-tpkg $(TPKG_OBJ)/fuzz-seeds/sample.tpkg $(TPKG_MODEL_SEEDS)
	@mkdir -p $(TPKG_OBJ)/fuzz-corpus
	$(TPKG_OBJ)/fuzz-tpkg -max_total_time=$(TPKG_FUZZ_TIME) $(TPKG_FUZZ_ARGS) $(TPKG_OBJ)/fuzz-seeds-models
