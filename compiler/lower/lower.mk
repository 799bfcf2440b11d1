# compiler/lower/lower.mk: the lowering: quantised IR -> kernels -> command streams ->
# the package (through tpkg.h); lower_compile.c is `tessel compile`. Library
# build/lib/libtessel-lower.a (compiler/rules.mk).
#
#   make test-lower-exact       lowered graphs and the four nets on the NPU C model
#                               == the int8 reference, bit for bit (npu4/8/16)
#   make test-lower-filecheck   FileCheck-14: layout, fusion, SRAM and tiling decisions
#   make test-digits-accuracy   the digits model through quantisation and the lowering
#   make bench-lower, bench-digits

COMPILER_lower_SRCS := compiler/lower/lower.c compiler/lower/lower_beside.c compiler/lower/lower_compile.c \
                       compiler/lower/lower_conv.c compiler/lower/lower_conv_ktile.c \
                       compiler/lower/lower_cost.c compiler/lower/lower_dump.c compiler/lower/lower_fallback.c \
                       compiler/lower/lower_key.c compiler/lower/lower_layout.c \
                       compiler/lower/lower_resident.c compiler/lower/lower_segment.c \
                       compiler/lower/lower_vec.c

# ---- tests ----
LOWER_TEST_OBJ := $(BUILD)/obj/lower-tests

TEST_SUITES += lower-exact
.PHONY: test-lower-exact

$(LOWER_TEST_OBJ)/test-lower-exact: tests/lower/test_lower_exact.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower $(SAN_FLAGS) -DMODELS_DIR='"$(CURDIR)/tests/models"' -o $@ $< \
	  $(COMPILER_LINK_SAN)

test-lower-exact: $(LOWER_TEST_OBJ)/test-lower-exact
	$(LOWER_TEST_OBJ)/test-lower-exact

TEST_SUITES += lower-filecheck
.PHONY: test-lower-filecheck
# The --emit-c test compiles the C array for rv32 with the firmware's flags;
# lower-core-ops.test runs a package on the SoC too.
test-lower-filecheck: $(BIN)/tessel-asan $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@RV_CC="$(RV_CC)" RV_CFLAGS="$(RV_CFLAGS)" RV_OBJCOPY="$(RV_OBJCOPY)" bash tests/compiler/lit.sh $(BIN)/tessel-asan $(sort $(wildcard tests/lower/filecheck/*.test))

# ---- bench: make bench-lower (figures only, no limits) ----
BENCHES += lower
.PHONY: bench-lower
$(LOWER_TEST_OBJ)/bench-lower: tests/lower/bench_lower.c $(COMPILER_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower -o $@ $< $(COMPILER_LINK)
bench-lower: $(LOWER_TEST_OBJ)/bench-lower $(BIN)/tessel
	@$(LOWER_TEST_OBJ)/bench-lower tests/models $(BIN)/tessel

DIGITS_DIR  := tests/models/digits
DIGITS_DATA := $(DIGITS_DIR)/digits_cnn.onnx $(DIGITS_DIR)/digits.calib.npy \
               $(DIGITS_DIR)/digits.test.npy $(DIGITS_DIR)/digits.labels.npy
DIGITS_NPUS := --npu npu4 --npu npu8 --npu npu16
DIGITS_TMP  := $(BUILD)/test-tmp/digits

TEST_SUITES += digits-accuracy
BENCHES     += digits
.PHONY: test-digits-accuracy bench-digits

$(LOWER_TEST_OBJ)/digits-eval: tests/lower/digits_eval.c $(COMPILER_LINK_DEPS_SAN)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower $(SAN_FLAGS) -o $@ $< \
	  $(COMPILER_LINK_SAN)

$(LOWER_TEST_OBJ)/digits-eval-fast: tests/lower/digits_eval.c $(COMPILER_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower -o $@ $< $(COMPILER_LINK)

# The CLI's compile of the same model counts as one test per target, then two
# checks that the driver can fail (an unreachable float accuracy exits 1, an
# unknown target exits 2); the driver's own lines and counts follow, and the
# total is summed here.
test-digits-accuracy: $(LOWER_TEST_OBJ)/digits-eval $(BIN)/tessel-asan
	@mkdir -p $(DIGITS_TMP); p=0; f=0; \
	for t in npu4 npu8 npu16; do \
	  if $(BIN)/tessel-asan compile $(DIGITS_DIR)/digits_cnn.onnx --calib $(DIGITS_DIR)/digits.calib.npy \
	       --target $$t -o $(DIGITS_TMP)/digits-$$t.tpkg && [ -s $(DIGITS_TMP)/digits-$$t.tpkg ]; then p=$$((p+1)); echo "PASS: tessel compile --calib --target $$t"; \
	  else f=$$((f+1)); echo "FAIL: tessel compile --calib --target $$t"; fi; \
	done; \
	$(LOWER_TEST_OBJ)/digits-eval $(DIGITS_DATA) --min-float 99.9 >/dev/null; \
	if [ $$? -eq 1 ]; then p=$$((p+1)); echo "PASS: the check can fail (--min-float 99.9 exits 1)"; \
	else f=$$((f+1)); echo "FAIL: --min-float 99.9 did not exit 1"; fi; \
	$(LOWER_TEST_OBJ)/digits-eval $(DIGITS_DATA) --npu npu3 2>/dev/null; \
	if [ $$? -eq 2 ]; then p=$$((p+1)); echo "PASS: an unknown target is a usage error (exit 2)"; \
	else f=$$((f+1)); echo "FAIL: --npu npu3 did not exit 2"; fi; \
	$(LOWER_TEST_OBJ)/digits-eval $(DIGITS_DATA) $(DIGITS_NPUS) --npu-batch 360 | tee $(DIGITS_TMP)/eval.log; \
	rc=$${PIPESTATUS[0]}; \
	counts=$$(tail -n 1 $(DIGITS_TMP)/eval.log); \
	if [[ $$rc -le 1 && "$$counts" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$$ ]]; then \
	  p=$$((p+$${BASH_REMATCH[1]})); f=$$((f+$${BASH_REMATCH[2]})); else f=$$((f+1)); fi; \
	echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

bench-digits: $(LOWER_TEST_OBJ)/digits-eval-fast
	@echo "digits model: float vs int8 accuracy (360 test images), C model on all of them:"
	@$(LOWER_TEST_OBJ)/digits-eval-fast $(DIGITS_DATA) $(DIGITS_NPUS) --npu-batch 360
