#!/usr/bin/python3
"""Generates the small ONNX files under tests/compiler/inputs/ that the
FileCheck and CLI tests use (committed; rerun by hand with /usr/bin/python3).
Each model is built with onnx.helper so every attribute and opset is explicit;
reference outputs come from the ONNX reference evaluation in numpy below."""
import os
import numpy as np
import onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
rng = np.random.default_rng(5)


def save(name, nodes, inputs, outputs, inits, opset=13, check=True):
    g = h.make_graph(nodes, name, inputs, outputs, [nh.from_array(v, k) for k, v in inits.items()])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)], producer_name="tessel-tests")
    m.ir_version = 7
    if check:
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


# conv -> bn -> relu -> maxpool -> flatten -> gemm, opset 13
save("convbn", [
    h.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
    h.make_node("BatchNormalization", ["c", "s", "beta", "mean", "var"], ["bn"], name="bn1", epsilon=1e-3),
    h.make_node("Relu", ["bn"], ["r"], name="relu1"),
    h.make_node("MaxPool", ["r"], ["p"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
    h.make_node("Flatten", ["p"], ["f"], name="flat"),
    h.make_node("Gemm", ["f", "fw", "fb"], ["y"], name="fc", transB=1),
], [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 4, 4])],
   [h.make_tensor_value_info("y", T.FLOAT, [1, 2])],
   {"w": f32(4, 3, 3, 3), "b": f32(4), "s": f32(4), "beta": f32(4), "mean": f32(4),
    "var": np.abs(f32(4)) + 0.5, "fw": f32(2, 16), "fb": f32(2)})

# Shape-derived Reshape target, Identity/Dropout, Clip with input bounds, opset 11
save("shapes", [
    h.make_node("Identity", ["x"], ["i"], name="id"),
    h.make_node("Dropout", ["i"], ["dr"], name="drop"),
    h.make_node("Shape", ["dr"], ["sh"], name="shape"),
    h.make_node("Gather", ["sh", "zero"], ["n"], name="gather", axis=0),
    h.make_node("Unsqueeze", ["n"], ["n1"], name="unsq", axes=[0]),
    h.make_node("Concat", ["n1", "minus1"], ["tgt"], name="cat", axis=0),
    h.make_node("Reshape", ["dr", "tgt"], ["rs"], name="reshape"),
    h.make_node("Clip", ["rs", "lo", "hi"], ["y"], name="clip"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 2])],
   [h.make_tensor_value_info("y", T.FLOAT, [2, 6])],
   {"zero": np.array(0, np.int64), "minus1": np.array([-1], np.int64),
    "lo": np.array(-0.5, np.float32), "hi": np.array(0.5, np.float32)}, opset=11)

# Graph outputs whose declared types leave parts out: symbolic and missing
# dimensions, no shape, an UNDEFINED element type (all wildcards for the check
# of declared output types)
save("decl_wildcards", [
    h.make_node("Relu", ["x"], ["y"], name="relu_y"),
    h.make_node("Relu", ["x"], ["z"], name="relu_z"),
    h.make_node("Relu", ["x"], ["u"], name="relu_u"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
   [h.make_tensor_value_info("y", T.FLOAT, ["N", None]), h.make_tensor_value_info("z", T.FLOAT, None),
    h.make_tensor_value_info("u", T.UNDEFINED, [2, 3])], {}, check=False)

# A weight given as a graph input (for --bind) and an initializer also listed as input
save("bindme", [
    h.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
    h.make_node("Add", ["m", "b"], ["y"], name="add"),
], [h.make_tensor_value_info("x", T.FLOAT, [2, 3]), h.make_tensor_value_info("w", T.FLOAT, [3, 4]),
    h.make_tensor_value_info("b", T.FLOAT, [4])],
   [h.make_tensor_value_info("y", T.FLOAT, [2, 4])],
   {"b": f32(4)})
np.save(os.path.join(OUT, "bindme.w.npy"), f32(3, 4))

# group conv whose group does not divide the channels (shape-infer error)
save("badgroup", [
    h.make_node("Conv", ["x", "w"], ["y"], name="conv3", group=3),
], [h.make_tensor_value_info("x", T.FLOAT, [1, 32, 4, 4])],
   [h.make_tensor_value_info("y", T.FLOAT, [1, 6, 4, 4])],
   {"w": f32(6, 11, 1, 1)}, check=False)

# an input for convbn (own generator, so the models above stay byte-identical)
np.save(os.path.join(OUT, "convbn.x.npy"),
        np.random.default_rng(7).standard_normal((1, 3, 4, 4)).astype(np.float32))

# LeakyRelu with alpha = NaN: an import error (it used to make every output NaN)
save("nan_alpha", [
    h.make_node("LeakyRelu", ["x"], ["y"], name="leaky", alpha=float("nan")),
], [h.make_tensor_value_info("x", T.FLOAT, [1, 2])],
   [h.make_tensor_value_info("y", T.FLOAT, [1, 2])], {}, check=False)
