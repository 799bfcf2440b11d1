# tests/rules.mk: the .npy library's tests and fuzzer (shared/npy.c), the npy-check tool,
# the committed test models (tests/models) and their generators.
#
#   make test-npy              cmocka unit tests of shared/npy.c (ASan/UBSan)
#   make test-fuzz-npy-short   ~10 s libFuzzer run over the committed corpus
#   make test-models-manifest  every file in tests/models/MANIFEST exists and parses
#   make fuzz-npy              long libFuzzer run (NPY_FUZZ_TIME seconds)
#   make test-layout           no tree compiles another tree's sources; the build
#                              printed one line per file (build/make-all.log);
#                              tests/SUITES describes every suite (make list-tests)
#   make models                rerun the model generators (needs torch; not in all/test)
#
# Suites with their own .mk file (tests/tfw-ops/*.mk: the control core's kernels) are
# included at the end.

NPY_OBJ       := $(BUILD)/obj/tests/npy
NPY_DEPS      := shared/npy.h
NPY_FUZZ_TIME ?= $(FUZZ_TIME)

ALL         += $(BIN)/npy-check
TEST_SUITES += npy fuzz-npy-short models-manifest
FUZZERS     += npy

.PHONY: test-npy test-fuzz-npy-short test-models-manifest fuzz-npy models

$(BIN)/npy-check: tests/npy/npy_check.c $(NPY_DEPS) $(SHARED_LIB)
	$(call host_link,$@,$< $(SHARED_LIB),$(HOST_CFLAGS) $(SHARED_INC))

$(NPY_OBJ)/test_npy: tests/npy/test_npy.c $(NPY_DEPS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$< $(SHARED_LIB_SAN) -lcmocka,$(HOST_CFLAGS) $(SAN_FLAGS) $(SHARED_INC) -DNPY_DATA_DIR='"$(CURDIR)/tests/npy/data"')

test-npy: $(NPY_OBJ)/test_npy
	$(NPY_OBJ)/test_npy

# The fuzzer is built with clang (libFuzzer); same warnings as the host build.
$(NPY_OBJ)/fuzz_npy: tests/npy/fuzz_npy.c $(NPY_DEPS) $(SHARED_LIB_FUZZ)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE $(FUZZ_LDFLAGS) \
	  $(SHARED_INC) -o $@ $< $(SHARED_LIB_FUZZ)

# New inputs go to a scratch folder under build/, never into the committed
# corpus; the committed corpus and the NumPy-made files are the seeds.
NPY_FUZZ_ARGS = -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 -dict=tests/npy/npy.dict \
  $(NPY_OBJ)/corpus tests/npy/corpus tests/npy/data

test-fuzz-npy-short: $(NPY_OBJ)/fuzz_npy
	@mkdir -p $(NPY_OBJ)/corpus
	@if $(NPY_OBJ)/fuzz_npy -max_total_time=10 $(NPY_FUZZ_ARGS) \
	    -artifact_prefix=$(NPY_OBJ)/ 2>&1 | tail -n 20; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

fuzz-npy: $(NPY_OBJ)/fuzz_npy
	@mkdir -p $(NPY_OBJ)/corpus
	$(NPY_OBJ)/fuzz_npy -max_total_time=$(NPY_FUZZ_TIME) $(NPY_FUZZ_ARGS) \
	  -artifact_prefix=$(NPY_OBJ)/

test-models-manifest: $(BIN)/npy-check
	bash tests/models/check-manifest.sh $(BIN)/npy-check

# Regenerate the committed .npy test data and test models (needs
# python3-onnx/torch: mk/setup.sh models). Not part of all or test.
models:
	bash mk/setup.sh models
	/usr/bin/python3 tests/npy/gen_data.py
	/usr/bin/python3 tests/models/gen_ops.py
	/usr/bin/python3 tests/models/gen_nets.py
	/usr/bin/python3 tests/models/gen_real.py
	/usr/bin/python3 tests/models/gen_bad.py
	/usr/bin/python3 tests/models/gen_quant.py
	/usr/bin/python3 tests/models/gen_calib.py
	/usr/bin/python3 tests/models/gen_digits.py
	/usr/bin/python3 tests/models/gen_run.py
	/usr/bin/python3 tests/compiler/gen_inputs.py
	/usr/bin/python3 tests/compiler/gen_quant_inputs.py

TEST_SUITES += layout
.PHONY: test-layout
test-layout:
	@p=0; f=0; for c in "bash tests/layout/check-layout.sh" "bash tests/layout/check-build-output.sh $(BUILD)/make-all.log" \
	    "bash tests/list-tests.sh --check $(TEST_SUITES)"; do \
	  $$c > $(BUILD)/test-tmp-layout.log; cat $(BUILD)/test-tmp-layout.log | grep -v ' passed, '; \
	  set -- $$(tail -n 1 $(BUILD)/test-tmp-layout.log); p=$$((p + $${1:-0})); f=$$((f + $${3:-1})); \
	done; rm -f $(BUILD)/test-tmp-layout.log; echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

# ONNX's backend node tests: the onnx-node and onnx-node-soc suites.
include tests/onnx-node/onnx-node.mk
include $(sort $(wildcard tests/tfw-ops/*.mk))

# Real architectures from PyTorch: the real-nets suite and make check-torchvision.
include tests/real-nets/real-nets.mk
