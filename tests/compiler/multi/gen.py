#!/usr/bin/python3
"""Generates the multi-input models and data of the cli suite's --calib
NAME=FILE / --input NAME=FILE tests (tests/compiler/multi/, committed; rerun
by hand with /usr/bin/python3):
  add2     y = a + b, both [1,8,4,4] float inputs
  matmul2  y = a @ b with B a runtime input: [4,8] @ [8,4]
  gather   y = Gather(data, idx): a float and an int64 input
  add2conv y = Conv1x1(a) + Conv1x1(b), a and b as add2's (its data): each
           input quantised by its own calibration samples
plus calibration samples (NAME.calib.npy: 3 stacked samples) and one test
input each (NAME.in.npy), and the tol.* files of tessel compare's
tolerance mode."""
import os
import numpy as np
import onnx
from onnx import helper as h, numpy_helper, TensorProto as T

OUT = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(11)


def save(name, nodes, inputs, outputs):
    g = h.make_graph(nodes, name, inputs, outputs)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="tessel-tests")
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


vi = h.make_tensor_value_info
save("add2", [h.make_node("Add", ["a", "b"], ["y"], name="add")],
     [vi("a", T.FLOAT, [1, 8, 4, 4]), vi("b", T.FLOAT, [1, 8, 4, 4])], [vi("y", T.FLOAT, [1, 8, 4, 4])])
save("matmul2", [h.make_node("MatMul", ["a", "b"], ["y"], name="mm")],
     [vi("a", T.FLOAT, [4, 8]), vi("b", T.FLOAT, [8, 4])], [vi("y", T.FLOAT, [4, 4])])
save("gather", [h.make_node("Gather", ["data", "idx"], ["y"], name="g", axis=0)],
     [vi("data", T.FLOAT, [5, 3]), vi("idx", T.INT64, [2])], [vi("y", T.FLOAT, [2, 3])])
for n, shape in (("a", (1, 8, 4, 4)), ("b", (1, 8, 4, 4))):
    np.save(os.path.join(OUT, "add2.%s.calib.npy" % n), f32(3, *shape[1:]))
    np.save(os.path.join(OUT, "add2.%s.in.npy" % n), f32(*shape))
np.save(os.path.join(OUT, "matmul2.a.calib.npy"), f32(12, 8))
np.save(os.path.join(OUT, "matmul2.b.calib.npy"), f32(24, 4))
np.save(os.path.join(OUT, "matmul2.a.in.npy"), f32(4, 8))
np.save(os.path.join(OUT, "matmul2.b.in.npy"), f32(8, 4))
np.save(os.path.join(OUT, "gather.data.npy"), f32(5, 3))
np.save(os.path.join(OUT, "gather.idx.npy"), np.array([4, 1], dtype=np.int64))
np.save(os.path.join(OUT, "gather.idx32.npy"), np.array([4, 1], dtype=np.int32))
# tessel compare's tolerance mode: expected 0..255 (one int8 step is 1), got
# within 3 steps + 1e-3 relative, or one element (0) 3.5 off; NaN on both sides.
exp = np.arange(256, dtype=np.float32)
exp[255] = np.nan
np.save(os.path.join(OUT, "tol.exp.npy"), exp)
np.save(os.path.join(OUT, "tol.near.npy"), exp + np.float32(2.9))
far = exp + np.float32(2.9)
far[0] = 3.5
np.save(os.path.join(OUT, "tol.far.npy"), far)
np.save(os.path.join(OUT, "tol.i.npy"), np.array([1, 2, 3], dtype=np.int64))
np.save(os.path.join(OUT, "tol.i1.npy"), np.array([2, 2, 3], dtype=np.int64))
np.save(os.path.join(OUT, "tol.i2.npy"), np.array([3, 2, 3], dtype=np.int64))
# add2conv: both inputs feed a convolution, so each gets its own QDQ pair.
wa = (rng.integers(-8, 9, (8, 8, 1, 1)) / 8).astype(np.float32)
wb = (rng.integers(-8, 9, (8, 8, 1, 1)) / 8).astype(np.float32)
g = h.make_graph([h.make_node("Conv", ["a", "wa"], ["ca"], name="conv_a"),
                  h.make_node("Conv", ["b", "wb"], ["cb"], name="conv_b"),
                  h.make_node("Add", ["ca", "cb"], ["y"], name="add")], "add2conv",
                 [vi("a", T.FLOAT, [1, 8, 4, 4]), vi("b", T.FLOAT, [1, 8, 4, 4])], [vi("y", T.FLOAT, [1, 8, 4, 4])],
                 [numpy_helper.from_array(wa, "wa"), numpy_helper.from_array(wb, "wb")])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="tessel-tests")
m.ir_version = 7
onnx.checker.check_model(m)
onnx.save(m, os.path.join(OUT, "add2conv.onnx"))
