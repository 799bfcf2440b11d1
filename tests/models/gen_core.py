"""Models for the lowering of the control core's ops (tests/lower/filecheck/
lower-core-ops.test): lower/core_ops.onnx is Conv -> LeakyRelu -> Conv ->
Transpose -> Conv -> Mul by a per-channel constant (broadcast): a unary op
between int8 tensors (a table), int8 data movement the NPU has no command
for (RELAYOUT records around it) and a float op with a constant operand.
lower/int8_norms.onnx (tests/lower/filecheck/lower-int8-norms.test) is a
QDQ model of Softmax (uint8 output at 1/256, as ONNX Runtime's quantiser
writes it) and LayerNormalization between QuantizeLinear/DequantizeLinear
pairs, with ONNX's float outputs of its samples (int8_norms.out0/out1.npy:
float Softmax and LayerNorm of the dequantised input, quantised as
QuantizeLinear does). Fixed seed; run with /usr/bin/python3; outputs are
committed.
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
    int8_norms(rng)


def quantize(x, s, zp, lo, hi):
    """ONNX QuantizeLinear: x / s rounded half to even, plus zp, saturated."""
    return np.clip(np.rint(x.astype(np.float32) / np.float32(s)) + zp, lo, hi)


def int8_norms(rng):
    t, c = 16, 32
    sx, zx = np.float32(8 / 255), 3
    ss, zs = np.float32(1 / 256), 0      # Softmax out, uint8
    sl, zl = np.float32(6 / 255), -2     # LayerNorm out, int8
    gamma = (rng.integers(16, 80, c) / 32).astype(np.float32)
    beta = (rng.integers(-32, 33, c) / 32).astype(np.float32)
    def qdq(name, src, s, zp, dtype):
        return [helper.make_node("QuantizeLinear", [src, name + ".s", name + ".zp"], [name + ".q"], name=name + "_q"),
                helper.make_node("DequantizeLinear", [name + ".q", name + ".s", name + ".zp"], [name], name=name + "_dq")], \
               [numpy_helper.from_array(np.array(s, np.float32), name + ".s"),
                numpy_helper.from_array(np.array(zp, dtype), name + ".zp")]
    n0, i0 = qdq("xd", "x", sx, zx, np.int8)
    n1, i1 = qdq("y_sm", "sm", ss, zs, np.uint8)
    n2, i2 = qdq("y_ln", "ln", sl, zl, np.int8)
    nodes = n0 + [helper.make_node("Softmax", ["xd"], ["sm"], name="softmax", axis=-1),
                  helper.make_node("LayerNormalization", ["xd", "gamma", "beta"], ["ln"], name="layernorm",
                                   axis=-1, epsilon=1e-5)] + n1 + n2
    g = helper.make_graph(
        nodes, "int8_norms",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, t, c])],
        [helper.make_tensor_value_info("y_sm", TensorProto.FLOAT, [1, t, c]),
         helper.make_tensor_value_info("y_ln", TensorProto.FLOAT, [1, t, c])],
        i0 + i1 + i2 + [numpy_helper.from_array(gamma, "gamma"), numpy_helper.from_array(beta, "beta")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, "int8_norms.onnx"))
    x = (rng.standard_normal((1, t, c)) * 1.5).astype(np.float32)
    np.save(os.path.join(OUT, "int8_norms.in0.npy"), x)
    xd = ((quantize(x, sx, zx, -128, 127) - zx) * sx).astype(np.float64)
    e = np.exp(xd - xd.max(-1, keepdims=True))
    sm = e / e.sum(-1, keepdims=True)
    mu, var = xd.mean(-1, keepdims=True), xd.var(-1, keepdims=True)
    ln = (xd - mu) / np.sqrt(var + 1e-5) * gamma + beta
    np.save(os.path.join(OUT, "int8_norms.out0.npy"),
            ((quantize(sm, ss, zs, 0, 255) - zs) * ss).astype(np.float32))
    np.save(os.path.join(OUT, "int8_norms.out1.npy"),
            ((quantize(ln, sl, zl, -128, 127) - zl) * sl).astype(np.float32))


if __name__ == "__main__":
    main()
