# compiler/package/package.mk: the model package: the writer (checked by the
# firmware's own reader, shared/tpkg_check.c), inspect, --emit-c.
# Library build/lib/libtessel-package.a (compiler/rules.mk).

COMPILER_package_SRCS := compiler/package/tpkg_write.c compiler/package/tpkg_inspect.c \
                         compiler/package/emit_c.c

#   make test-package           cmocka round trip + every corruption class, tfw_load's own checks,
#                               inspect (FileCheck-14),
#                               --emit-c (rv32 gcc), the freestanding rv32 build of the reader
#   make test-fuzz-tpkg-short   ~15 s seeded libFuzzer run of tpkg_check
#   make fuzz-tpkg              long run (TPKG_FUZZ_TIME seconds)

TPKG_GEN := $(BUILD)/gen
TPKG_OBJ := $(BUILD)/obj/tpkg

# ---- tests (tests/package) ----
TPKG_HDRS       := tests/package/sample_pkg.h $(TPKG_GEN)/tessel_isa.h $(TPKG_GEN)/npu8/tessel_target.h
TPKG_TEST_FLAGS := $(COMPILER_CFLAGS) $(SAN_FLAGS) -Itests/package -I$(TPKG_GEN)/npu8
TPKG_FUZZ_TIME  ?= $(FUZZ_TIME)

$(TPKG_OBJ)/test-package: tests/package/test_package.c tests/package/sample_pkg.c $(TPKG_HDRS) $(COMPILER_LINK_DEPS_SAN)
	$(call host_link,$@,$(filter %.c,$^) $(COMPILER_LINK_SAN) -lcmocka,$(TPKG_TEST_FLAGS))

$(TPKG_OBJ)/make-sample: tests/package/make_sample.c tests/package/sample_pkg.c $(TPKG_HDRS) $(COMPILER_LINK_DEPS_SAN)
	$(call host_link,$@,$(filter %.c,$^) $(COMPILER_LINK_SAN),$(TPKG_TEST_FLAGS))

TEST_SUITES += package fuzz-tpkg-short
FUZZERS     += tpkg
.PHONY: test-package test-fuzz-tpkg-short fuzz-tpkg

test-package: $(TPKG_OBJ)/test-package $(TPKG_OBJ)/make-sample $(BIN)/tessel-asan $(TPKG_GEN)/tessel_isa.h \
              $(SHARED_RV_OBJ)/tpkg_check.o $(SHARED_RV_OBJ)/crc32.o
	@RV_SHARED_OBJ="$(SHARED_RV_OBJ)" RV_CC="$(RV_CC)" RV_CFLAGS="$(RV_CFLAGS)" RV_ARCH_FLAGS="$(RV_ARCH)" RV_OBJCOPY="$(RV_OBJCOPY)" RV_NM="$(RV_PREFIX)nm" \
	  bash tests/package/run.sh $(TPKG_OBJ) $(BIN)/tessel-asan $(TPKG_GEN)

# libFuzzer on tpkg_check, seeded with valid packages (tests/package/seeds
# and the sample package) so it mutates past the CRCs' early exits: the
# fuzzer entry also refreshes CRCs on half the inputs (see fuzz_tpkg.c).
TPKG_FUZZ_ARGS = -seed=1 -max_len=16384 -timeout=10 -rss_limit_mb=1024 \
  -artifact_prefix=$(TPKG_OBJ)/ $(TPKG_OBJ)/fuzz-corpus $(TPKG_OBJ)/fuzz-seeds

$(TPKG_OBJ)/fuzz-tpkg: tests/package/fuzz_tpkg.c $(SHARED_LIB_FUZZ) $(TPKG_GEN)/tessel_isa.h
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror $(SHARED_INC) -I$(TPKG_GEN) $(FUZZ_LDFLAGS) \
	  -o $@ $< $(SHARED_LIB_FUZZ)

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
