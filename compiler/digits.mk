# compiler/digits.mk: the digits model (tests/models/digits, gen_digits.py)
# through quantisation and the lowering.  Included by compiler/rules.mk after
# compiler/lower.mk (it links the same library objects and the NPU C model).
#
#   make test-digits-accuracy  float vs int8 reference accuracy on the 360 test
#                              images (int8 within 1 point of float, float >= 90%);
#                              `tessel compile --calib` for npu4/8/16; the lowered
#                              model on the C model bit-exact with the int8
#                              reference on all 360 test images (under a second
#                              with ASan), with the same accuracy
#   make bench-digits          the same figures from the optimised build

DIGITS_DIR  := tests/models/digits
DIGITS_DATA := $(DIGITS_DIR)/digits_cnn.onnx $(DIGITS_DIR)/digits.calib.npy \
               $(DIGITS_DIR)/digits.test.npy $(DIGITS_DIR)/digits.labels.npy
DIGITS_NPUS := --npu npu4 --npu npu8 --npu npu16
DIGITS_TMP  := $(BUILD)/test-tmp/digits

TEST_SUITES += digits-accuracy
BENCHES     += digits
.PHONY: test-digits-accuracy bench-digits

$(LOWER_TEST_OBJ)/digits-eval: tests/lower/digits_eval.c $(COMPILER_LIB_OBJS_SAN) $(NPU_MODEL_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower $(SAN_FLAGS) -o $@ $< \
	  $(COMPILER_LIB_OBJS_SAN) $(NPU_MODEL_LIB) -lprotobuf-c -lm

$(LOWER_TEST_OBJ)/digits-eval-fast: tests/lower/digits_eval.c $(COMPILER_LIB_OBJS) $(NPU_MODEL_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(COMPILER_CFLAGS) -Icompiler/lower -o $@ $< $(COMPILER_LIB_OBJS) $(NPU_MODEL_LIB) -lprotobuf-c -lm

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
