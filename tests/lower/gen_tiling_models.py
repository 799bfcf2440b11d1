#!/usr/bin/python3
"""Generates tests/models/lower/: float conv models whose lowering needs
column tiles (an output wider than 255) or input channel tiles (one output
block's weights do not fit the scratchpad at npu4), with calibration inputs
for `tessel compile --calib`.  The outputs are committed; tests never run
this (no python needed).  Run: /usr/bin/python3 tests/lower/gen_tiling_models.py
"""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "models", "lower")


def conv_model(name, c, m, h, w, k, pad, seed):
    rng = np.random.default_rng(seed)
    wgt = (rng.integers(-64, 65, size=(m, c, k, k)) / 256).astype(np.float32)
    bias = (rng.integers(-64, 65, size=(m,)) / 64).astype(np.float32)
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, c, h, w])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, m, h + 2 * pad - k + 1, w + 2 * pad - k + 1])
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[k, k],
                              pads=[pad] * 4),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    graph = helper.make_graph(nodes, name, [x], [y],
                              initializer=[numpy_helper.from_array(wgt, "w"),
                                           numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="tessel-tests")
    model.ir_version = 7
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))
    calib = (rng.integers(-128, 129, size=(1, c, h, w)) / 64).astype(np.float32)
    np.save(os.path.join(OUT, name + ".calib.npy"), calib)


def main():
    os.makedirs(OUT, exist_ok=True)
    # ow 600: three column tiles of 200 at every target.
    conv_model("conv_wide", 8, 8, 16, 600, 3, 1, 1)
    # 2048 input channels, 3x3: 18432 weight rows per output block at npu4.
    conv_model("conv_deep", 2048, 4, 4, 4, 3, 1, 2)


if __name__ == "__main__":
    main()
