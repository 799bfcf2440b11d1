"""Models for the lowering of the control core's ops (tests/lower/filecheck/
lower-core-ops.test): lower/core_ops.onnx is Conv -> LeakyRelu -> Conv ->
Transpose -> Conv -> Mul by a per-channel constant (broadcast): a unary op
between int8 tensors (a table), int8 data movement the NPU has no command
for (RELAYOUT records around it) and a float op with a constant operand.  Fixed seed; run with
/usr/bin/python3; outputs are committed.
"""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "lower")


def main():
    rng = np.random.default_rng(13)
    w1 = (rng.integers(-32, 33, (8, 3, 3, 3)) / 64).astype(np.float32)
    w2 = (rng.integers(-32, 33, (8, 8, 3, 3)) / 64).astype(np.float32)
    w3 = (rng.integers(-32, 33, (8, 8, 3, 3)) / 64).astype(np.float32)
    s = (rng.integers(1, 64, (1, 8, 1, 1)) / 32).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("LeakyRelu", ["c1"], ["a1"], name="leaky", alpha=0.1),
        helper.make_node("Conv", ["a1", "w2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Transpose", ["c2"], ["t2"], name="flip", perm=[0, 1, 3, 2]),
        helper.make_node("Conv", ["t2", "w3"], ["c3"], name="conv3", pads=[1, 1, 1, 1]),
        helper.make_node("Mul", ["c3", "s"], ["y"], name="scale"),
    ]
    g = helper.make_graph(
        nodes, "core_ops",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
         numpy_helper.from_array(w3, "w3"), numpy_helper.from_array(s, "s")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    os.makedirs(OUT, exist_ok=True)
    onnx.save(m, os.path.join(OUT, "core_ops.onnx"))
    x = (rng.integers(-64, 65, (8, 3, 8, 8)) / 64).astype(np.float32)
    np.save(os.path.join(OUT, "core_ops.calib.npy"), x)
    np.save(os.path.join(OUT, "core_ops.in0.npy"), x[:1])


if __name__ == "__main__":
    main()
