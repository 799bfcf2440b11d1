# tests/onnx-node/onnx-node.mk: ONNX's backend node tests (Debian's libonnx-testdata)
# through tessel: compile for npu8 calibrated on the test's inputs, run, compare.
#
#   make test-onnx-node      the fixed set (fixed-set.txt) on the C model: passes when
#                            the pass rate reaches the committed threshold
#   make test-onnx-node-soc  a sample of 10 (soc-set.txt) on the SoC (tessel-sim),
#                            bit for bit equal to the C model
#   make onnx-node-markdown  the failure list for docs/operators.md (printed)
#   make onnx-node-docs      the same written between its markers in docs/operators.md
#
# build/obj/onnx-node/onnx-pb2npy: TensorProto .pb -> .npy with the importer's reader
# (ASan/UBSan, as the tessel-asan the suites run). The set itself is rewritten only by
# hand: /usr/bin/python3 tests/onnx-node/make-fixed-set.py (needs python3-onnx).

ONNX_NODE_OBJ    := $(BUILD)/obj/onnx-node
ONNX_NODE_PB2NPY := $(ONNX_NODE_OBJ)/onnx-pb2npy
ONNX_NODE_TESSEL := $(BIN)/tessel-asan

TEST_SUITES += onnx-node onnx-node-soc
.PHONY: test-onnx-node test-onnx-node-soc onnx-node-markdown onnx-node-docs

$(ONNX_NODE_PB2NPY): tests/onnx-node/pb2npy.c $(COMPILER_LINK_DEPS_SAN) | $(COMPILER_DEPS)
	$(call host_link,$@,$< $(COMPILER_LINK_SAN),$(COMPILER_CFLAGS) $(SAN_FLAGS))

test-onnx-node: $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY)
	@bash tests/onnx-node/run.sh --check $(BUILD)/test-tmp/onnx-node $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY)

test-onnx-node-soc: $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY) $(BUILD)/npu8/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
	@bash tests/onnx-node/run.sh --soc $(BUILD)/test-tmp/onnx-node-soc $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY)

onnx-node-markdown: $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY)
	@bash tests/onnx-node/run.sh --markdown $(BUILD)/test-tmp/onnx-node $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY)

# The section between the onnx-node markers of docs/operators.md replaced by a fresh
# --markdown run (the rest of the file is left as it is; the file and section are made
# when missing). Not part of make test: commit the result by hand.
onnx-node-docs: $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY)
	@bash tests/onnx-node/run.sh --markdown $(BUILD)/test-tmp/onnx-node $(ONNX_NODE_TESSEL) $(ONNX_NODE_PB2NPY) \
	  >$(BUILD)/onnx-node.md
	@bash tests/onnx-node/splice-docs.sh $(BUILD)/onnx-node.md docs/operators.md
