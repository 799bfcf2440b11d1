#!/usr/bin/python3
"""Generate tests/models/bad/: malformed or unsupported ONNX files, and
bad/EXPECT, one line per file: `FILE  SUBSTRING`, where SUBSTRING must appear
in the importer's error message (the importer must exit non-zero, and never
crash or hang). Substrings are kept generic: a lower-case word any good
message would contain, or the exact name of the offending node, op,
attribute, initializer or value. README.md explains each file.

Run: /usr/bin/python3 tests/models/gen_bad.py  (or `make models`)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE, init  # noqa: E402

OUT = os.path.join(HERE, "bad")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20261130)
expect = []


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=(), opset=13, name="bad"):
    """A ModelProto that is deliberately NOT run through onnx.checker."""
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="tessel-tests")
    m.ir_version = 8 if opset >= 13 else 6
    return m


def save(fname, data, want, why):
    with open(os.path.join(OUT, fname), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.SerializeToString())
    expect.append((fname, want, why))


def parses(data):
    try:
        onnx.ModelProto().ParseFromString(data)
        return True
    except Exception:  # noqa: BLE001 - any decode error will do
        return False


def good_conv():
    x = vi("x", TensorProto.FLOAT, [1, 3, 8, 8])
    y = vi("y", TensorProto.FLOAT, [1, 4, 8, 8])
    w = init("w", (rng.integers(-64, 65, (4, 3, 3, 3)) / 256).astype(np.float32))
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv0", pads=[1, 1, 1, 1])
    return model([node], [x], [y], [w])


# 1. bytes that are not a ModelProto
full = good_conv().SerializeToString()
cut = full[: len(full) // 2]  # inside the graph field: a length runs past the end
assert not parses(cut)
save("truncated.onnx", cut, "protobuf", "a valid model cut in half")
garbage = bytes([0x07]) + rng.integers(0, 256, 999).astype(np.uint8).tobytes()
assert not parses(garbage)  # 0x07: wire type 7 does not exist
save("garbage.onnx", garbage, "protobuf", "1000 random bytes")
save("empty.onnx", b"", "empty",
     "zero bytes (decodes as an empty ModelProto: no graph, no opset)")

# 2. well-formed protobuf, bad model
x_i32 = vi("x", TensorProto.INT32, [1, 3, 8, 8])
w = init("w", np.zeros((4, 3, 3, 3), np.float32))
save("wrong_dtype.onnx",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv0")], [x_i32],
           [vi("y", TensorProto.FLOAT, [1, 4, 6, 6])], [w]),
     "type", "Conv fed an int32 tensor")

w_bad = onnx.TensorProto(name="conv_w_bad", data_type=TensorProto.FLOAT, dims=[4, 3, 3, 3],
                         raw_data=np.zeros(25, np.float32).tobytes())
save("init_size_mismatch.onnx",
     model([helper.make_node("Conv", ["x", "conv_w_bad"], ["y"], name="conv0")],
           [vi("x", TensorProto.FLOAT, [1, 3, 8, 8])],
           [vi("y", TensorProto.FLOAT, [1, 4, 6, 6])], [w_bad]),
     "conv_w_bad", "initializer dims 4x3x3x3 (432 bytes) but 100 bytes of raw_data")

w_neg = onnx.TensorProto(name="w_neg_dim", data_type=TensorProto.FLOAT, dims=[4, -3, 3, 3],
                         raw_data=b"")
save("init_negative_dim.onnx",
     model([helper.make_node("Conv", ["x", "w_neg_dim"], ["y"], name="conv0")],
           [vi("x", TensorProto.FLOAT, [1, 3, 8, 8])],
           [vi("y", TensorProto.FLOAT, [1, 4, 6, 6])], [w_neg]),
     "w_neg_dim", "initializer with a negative dimension")

w_ext = onnx.TensorProto(name="w_external", data_type=TensorProto.FLOAT, dims=[4, 3, 3, 3],
                         data_location=TensorProto.EXTERNAL)
w_ext.external_data.add(key="location", value="no_such_file.bin")
save("external_data.onnx",
     model([helper.make_node("Conv", ["x", "w_external"], ["y"], name="conv0")],
           [vi("x", TensorProto.FLOAT, [1, 3, 8, 8])],
           [vi("y", TensorProto.FLOAT, [1, 4, 6, 6])], [w_ext]),
     "w_external", "initializer stored in an external file (not supported / missing)")

save("shape_mismatch.onnx",
     model([helper.make_node("Add", ["a", "b"], ["y"], name="add0")],
           [vi("a", TensorProto.FLOAT, [1, 3, 4, 4]), vi("b", TensorProto.FLOAT, [1, 5, 4, 4])],
           [vi("y", TensorProto.FLOAT, [1, 5, 4, 4])]),
     "shape", "Add of 3 and 5 channels (not broadcastable)")

save("bad_group.onnx",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv0", group=3)],
           [vi("x", TensorProto.FLOAT, [1, 4, 8, 8])],
           [vi("y", TensorProto.FLOAT, [1, 6, 6, 6])],
           [init("w", np.zeros((6, 1, 3, 3), np.float32))]),
     "group", "Conv group=3 does not divide 4 input channels")

save("unknown_op.onnx",
     model([helper.make_node("TesselNoSuchOp", ["x"], ["y"], name="mystery0")],
           [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 4])]),
     "TesselNoSuchOp", "an operator no opset defines")

save("bad_auto_pad.onnx",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv0", auto_pad="BOGUS")],
           [vi("x", TensorProto.FLOAT, [1, 3, 8, 8])],
           [vi("y", TensorProto.FLOAT, [1, 4, 8, 8])],
           [init("w", np.zeros((4, 3, 3, 3), np.float32))]),
     "auto_pad", "Conv auto_pad='BOGUS'")

save("opset22.onnx",
     model([helper.make_node("Relu", ["x"], ["y"], name="relu0")],
           [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 4])],
           opset=22),
     "opset 22 is newer", "default-domain opset 22 (newer than the supported 21)")

save("undefined_input.onnx",
     model([helper.make_node("Add", ["x", "no_such_value"], ["y"], name="add0")],
           [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 4])]),
     "no_such_value", "a node input that no input, initializer or node defines")

save("cycle.onnx",
     model([helper.make_node("Add", ["x", "b"], ["a"], name="add0"),
            helper.make_node("Relu", ["a"], ["b"], name="relu0")],
           [vi("x", TensorProto.FLOAT, [1, 4])], [vi("b", TensorProto.FLOAT, [1, 4])]),
     "cycle", "add0 reads relu0's output, relu0 reads add0's")

save("duplicate_output.onnx",
     model([helper.make_node("Relu", ["x"], ["y"], name="relu0"),
            helper.make_node("Identity", ["x"], ["y"], name="identity0")],
           [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 4])]),
     "duplicate", "two nodes both produce 'y'")


# Declared graph-output types must agree with shape inference (they used to be ignored).
save("output_declared_type.onnx",
     model([helper.make_node("Softmax", ["x"], ["probs"], name="softmax0", axis=1)],
           [vi("x", TensorProto.FLOAT, [1, 10])], [vi("probs", TensorProto.INT64, [1, 1, 1, 1, 1, 1, 10])]),
     "graph output 'probs': the model declares i64[1,1,1,1,1,1,10], shape inference gives f32[1,10]",
     "Softmax output declared int64 of rank 7 (it computes float32 [1,10])")
save("output_declared_shape.onnx",
     model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv0", pads=[1, 1, 1, 1])],
           [vi("x", TensorProto.FLOAT, [1, 3, 8, 8])], [vi("y", TensorProto.FLOAT, [1, 4, 9, "N"])],
           [init("w", np.zeros((4, 3, 3, 3), np.float32))]),
     "graph output 'y': the model declares f32[1,4,9,?], shape inference gives f32[1,4,8,8]",
     "Conv output declared [1,4,9,N] (it computes [1,4,8,8]; the symbolic N matches anything)")

# Boolean attributes are ints in ONNX: anything but 0 or 1 used to pass as true.
save("bool_ceil_mode.onnx",
     model([helper.make_node("MaxPool", ["x"], ["y"], name="pool0", kernel_shape=[2, 2],
                             ceil_mode=100000)],
           [vi("x", TensorProto.FLOAT, [1, 4, 8, 8])], [vi("y", TensorProto.FLOAT, [1, 4, 4, 4])]),
     "node 'pool0' (MaxPool): attribute 'ceil_mode' is 100000; it must be 0 or 1",
     "MaxPool ceil_mode=100000")
save("bool_count_include_pad.onnx",
     model([helper.make_node("AveragePool", ["x"], ["y"], name="avg0", kernel_shape=[2, 2],
                             count_include_pad=-2)],
           [vi("x", TensorProto.FLOAT, [1, 4, 8, 8])], [vi("y", TensorProto.FLOAT, [1, 4, 7, 7])]),
     "node 'avg0' (AveragePool): attribute 'count_include_pad' is -2; it must be 0 or 1",
     "AveragePool count_include_pad=-2")
save("bool_transB.onnx",
     model([helper.make_node("Gemm", ["x", "w"], ["y"], name="fc0", transB=-2)],
           [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 3])],
           [init("w", np.zeros((3, 4), np.float32))]),
     "node 'fc0' (Gemm): attribute 'transB' is -2; it must be 0 or 1", "Gemm transB=-2")

# 3. nesting: protobuf-c decodes nested messages by recursion, so these crashed
# with a stack overflow at depth 5000 (sequence types) / 100000 (If) before the
# importer bounded nesting (64 levels) by a scan of the wire format. These are
# just past the bound; tests/compiler/test_compiler.c builds the deep ones.
def varint(n):
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def field(num, body):
    """A length-delimited field: a nested message, string or bytes."""
    return varint(num << 3 | 2) + varint(len(body)) + body


def with_graph_fields(m, extra):
    """The model's bytes with `extra` (raw GraphProto fields) added to its graph."""
    graph = m.graph.SerializeToString() + extra
    m2 = onnx.ModelProto()
    m2.CopyFrom(m)
    m2.ClearField("graph")
    return m2.SerializeToString() + field(7, graph)


def relu_model():
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu0")],
                 [vi("x", TensorProto.FLOAT, [1, 4])], [vi("y", TensorProto.FLOAT, [1, 4])])


typ = field(1, varint(1 << 3) + varint(1))  # TypeProto{tensor_type{elem_type FLOAT}}
for _ in range(100):  # TypeProto{sequence_type{elem_type ...}}
    typ = field(4, field(1, typ))
save("deep_sequence_type.onnx",
     with_graph_fields(relu_model(), field(13, field(1, b"deep") + field(2, typ))),
     "nesting deeper than 64 levels",
     "a value_info whose type is 100 sequence_type levels deep (5,000 crashed)")

graph = b""
for _ in range(40):  # NodeProto{op_type If, attribute{name, type GRAPH, g{node ...}}}
    attr = field(1, b"then_branch") + varint(20 << 3) + varint(5) + field(6, graph)
    graph = field(1, field(4, b"If") + field(5, attr))
save("deep_if.onnx", with_graph_fields(relu_model(), graph),
     "nesting deeper than 64 levels", "If subgraphs nested 40 deep (100,000 crashed)")

with open(os.path.join(OUT, "EXPECT"), "w") as f:
    f.write("# FILE  SUBSTRING-THE-ERROR-MESSAGE-MUST-CONTAIN  (case-sensitive;\n"
            "# written by gen_bad.py; README.md says what each file is)\n")
    width = max(len(e[0]) for e in expect)
    for fname, want, _ in expect:
        f.write("%-*s  %s\n" % (width, fname, want))
print("bad: %d files" % len(expect))
for fname, want, why in expect:
    print("| `%s` | `%s` | %s |" % (fname, want, why))
