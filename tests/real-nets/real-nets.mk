# tests/real-nets/real-nets.mk: real architectures through the whole flow
# (included by tests/rules.mk).
#
#   make test-real-nets     the models of tests/real-nets/MODELS (tests/models/real,
#                           gen_real.py) on npu4/8/16: compile, C model vs the int8
#                           reference bit for bit, rel. L2 and top-1 vs PyTorch; a few
#                           on the SoC at npu8
#   make check-torchvision  every torchvision classifier of at most 25 M parameters,
#                           exported at 64x64 with random weights, compiled for npu8 and
#                           run on the C model vs PyTorch (needs /usr/bin/python3 with
#                           torch and torchvision; not part of make test; minutes)

TEST_SUITES += real-nets
.PHONY: test-real-nets check-torchvision

test-real-nets: $(BIN)/tessel-asan $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	bash tests/real-nets/real_nets.sh $(BUILD)/test-tmp/real-nets $(BIN)/tessel-asan

check-torchvision: $(BIN)/tessel
	/usr/bin/python3 tests/real-nets/check_torchvision.py --tessel $(BIN)/tessel --tmp $(BUILD)/check-torchvision
