#!/usr/bin/python3
"""Writes tests/onnx-node/fixed-set.txt: the ONNX backend tests the onnx-node
suite runs, chosen once from the listing of Debian's libonnx-testdata
(/usr/share/libonnx-testdata/data) so that the set does not move:

  - every node/ test whose operators (subgraphs included) all have an ONNX
    op_type that compiler/ir/ir_ops.def names, or is one of the importer's
    extras (Constant, Split, Upsample, ConstantOfShape, Range, Shape);
  - every pytorch-converted/ and pytorch-operator/ test;

leaving out, in each of them, tests with a float16, bfloat16, double or
string tensor (graph input, output, initializer or Constant value) and 3-D
convolutions and pools (a 5-D input to Conv, ConvTranspose, MaxPool,
AveragePool, GlobalAveragePool, GlobalMaxPool, LpPool).

One line per test, "GROUP/NAME", sorted.  Run with /usr/bin/python3 (onnx)
from the repository root:  /usr/bin/python3 tests/onnx-node/make-fixed-set.py
"""
import os
import re
import sys

import onnx
from onnx import TensorProto

DATA = "/usr/share/libonnx-testdata/data"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXTRA_OPS = {"Constant", "Split", "Upsample", "ConstantOfShape", "Range", "Shape"}
BAD_DTYPES = {TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.DOUBLE, TensorProto.STRING}
POOLS = {"Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool"}


def ir_ops():
    with open(os.path.join(ROOT, "compiler/ir/ir_ops.def")) as f:
        return set(re.findall(r'^IR_OP\(\w+, "(\w+)"\)', f.read(), re.M)) | EXTRA_OPS


def graphs(g):
    """g and every subgraph in its nodes' attributes."""
    yield g
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from graphs(a.g)
            for sub in a.graphs:
                yield from graphs(sub)


def tensor_types(g):
    for v in list(g.input) + list(g.output):
        if v.type.HasField("tensor_type"):
            yield v.type.tensor_type.elem_type
    for t in g.initializer:
        yield t.data_type
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                yield a.t.data_type


def ranks(m):
    """value name -> rank, from the declared I/O and shape inference."""
    try:
        m = onnx.shape_inference.infer_shapes(m)
    except Exception:
        pass
    r = {}
    for v in list(m.graph.input) + list(m.graph.value_info) + list(m.graph.output):
        t = v.type.tensor_type
        if t.HasField("shape"):
            r[v.name] = len(t.shape.dim)
    for t in m.graph.initializer:
        r[t.name] = len(t.dims)
    return r


def wanted(path, ops, check_ops):
    m = onnx.load(os.path.join(path, "model.onnx"))
    for g in graphs(m.graph):
        if check_ops and any(n.op_type not in ops or n.domain not in ("", "ai.onnx") for n in g.node):
            return False
        if any(t in BAD_DTYPES for t in tensor_types(g)):
            return False
    r = ranks(m)
    for n in m.graph.node:
        if n.op_type in POOLS and n.input and r.get(n.input[0]) == 5:
            return False
    return os.path.isdir(os.path.join(path, "test_data_set_0"))


def main():
    ops = ir_ops()
    out = []
    for group, check_ops in (("node", True), ("pytorch-converted", False), ("pytorch-operator", False)):
        for name in sorted(os.listdir(os.path.join(DATA, group))):
            if wanted(os.path.join(DATA, group, name), ops, check_ops):
                out.append(group + "/" + name)
    with open(os.path.join(HERE, "fixed-set.txt"), "w") as f:
        f.write("# The onnx-node suite's tests (GROUP/NAME under /usr/share/libonnx-testdata/data),\n"
                "# written by tests/onnx-node/make-fixed-set.py: do not edit by hand.\n")
        f.writelines(t + "\n" for t in out)
    print("%d tests" % len(out), file=sys.stderr)


if __name__ == "__main__":
    main()
