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
QuantizeLinear does). lower/qlinear_zp.onnx (lower-weight-zp.test) is a
QLinearConv with uint8 weights whose zero point leaves w - zp outside int8,
and a QLinearMatMul of a batch of 2 (no NPU layout): both run on the core;
qlinear_zp.out0/out1.npy are ONNX's integer results. lower/int8_chain.onnx
(lower-plain-chain.test) is a QDQ model of int8 values the NPU touches and
ones only the control core does (int8_chain below). lower/beside.onnx
(tests/run/run.sh, docs/runtime.md "Fallback ops beside the NPU") has two
Softmax outputs the NPU's convolutions do not need: one of the input, which
the package puts after the first conv's kernel, and one of that conv's
output, put before the second conv's: each runs on the core beside a
kernel. lower/wide_audio.onnx and lower/wide_image.onnx (lower-wide.test)
have images wider than the NPU's commands address in one piece: a Conv of
1100 samples then a 1-D MaxPool; a 1x1 Conv of [1, 2, 2, 300], then a
MaxPool, an AveragePool, a GlobalAveragePool and a residual Add of it (wide
below). lower/se_mul.onnx (lower-int8-mul.test) is a squeeze-excitation
block (Conv -> Relu -> GlobalAveragePool -> Conv -> Relu -> Conv ->
HardSigmoid, the gate times the Relu's output -> Conv), whose Mul of two
int8 tensors (broadcast [1,16,1,1] x [1,16,8,8]) is a QMul once quantised
(se_mul below, run alone: `se_mul(np.random.default_rng(23))`). Fixed
seeds; run with
/usr/bin/python3; outputs are committed.
"""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "lower")


def save(nodes, name, inputs, outputs, inits, calib=None):
    """Writes lower/NAME.onnx: the graph at opset 17, checked; with calib,
    also NAME.calib.npy (the samples) and NAME.in0.npy (the first)."""
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    os.makedirs(OUT, exist_ok=True)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))
    if calib is not None:
        np.save(os.path.join(OUT, name + ".calib.npy"), calib)
        np.save(os.path.join(OUT, name + ".in0.npy"), calib[:1])


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
    x = (rng.integers(-64, 65, (8, 3, 8, 8)) / 64).astype(np.float32)
    save(nodes, "core_ops",
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])],
         [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
          numpy_helper.from_array(w3, "w3"), numpy_helper.from_array(s, "s")], x)
    int8_norms(rng)
    qlinear_zp(rng)
    int8_chain(np.random.default_rng(17))
    beside(np.random.default_rng(19))
    se_mul(np.random.default_rng(23))
    wide(np.random.default_rng(29))


def wide(rng):
    w = (rng.integers(-32, 33, (4, 1, 3)) / 32).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("MaxPool", ["r"], ["y"], name="pool", kernel_shape=[2], strides=[2]),
    ]
    x = (rng.integers(-64, 65, (4, 1, 1100)) / 32).astype(np.float32)
    save(nodes, "wide_audio", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 1100])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 550])], [numpy_helper.from_array(w, "w")], x)
    w1 = (rng.integers(-32, 33, (8, 2, 1, 1)) / 32).astype(np.float32)
    w2 = (rng.integers(-32, 33, (8, 8, 1, 1)) / 64).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["m"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("AveragePool", ["r1"], ["a"], name="avgpool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["r1"], ["g"], name="gap"),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2"),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Add", ["r1", "r2"], ["s"], name="add"),
    ]
    outs = [helper.make_tensor_value_info("m", TensorProto.FLOAT, [1, 8, 1, 150]),
            helper.make_tensor_value_info("a", TensorProto.FLOAT, [1, 8, 1, 150]),
            helper.make_tensor_value_info("g", TensorProto.FLOAT, [1, 8, 1, 1]),
            helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 8, 2, 300])]
    x = (rng.integers(-64, 65, (4, 2, 2, 300)) / 32).astype(np.float32)
    save(nodes, "wide_image", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 2, 300])], outs,
         [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")], x)


def se_mul(rng):
    w1 = (rng.integers(-32, 33, (16, 8, 3, 3)) / 64).astype(np.float32)
    wr = (rng.integers(-32, 33, (4, 16, 1, 1)) / 32).astype(np.float32)
    we = (rng.integers(-32, 33, (16, 4, 1, 1)) / 32).astype(np.float32)
    w2 = (rng.integers(-32, 33, (8, 16, 1, 1)) / 64).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("GlobalAveragePool", ["r1"], ["p"], name="pool"),
        helper.make_node("Conv", ["p", "wr"], ["cr"], name="reduce"),
        helper.make_node("Relu", ["cr"], ["rr"], name="relu2"),
        helper.make_node("Conv", ["rr", "we"], ["ce"], name="expand"),
        helper.make_node("HardSigmoid", ["ce"], ["gate"], name="gate", alpha=1 / 6, beta=0.5),
        helper.make_node("Mul", ["gate", "r1"], ["se"], name="se"),
        helper.make_node("Conv", ["se", "w2"], ["y"], name="conv2"),
    ]
    x = (rng.integers(-64, 65, (8, 8, 8, 8)) / 32).astype(np.float32)
    save(nodes, "se_mul",
         [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 8, 8])],
         [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])],
         [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(wr, "wr"),
          numpy_helper.from_array(we, "we"), numpy_helper.from_array(w2, "w2")], x)


def beside(rng):
    w1 = (rng.integers(-32, 33, (8, 8, 3, 3)) / 64).astype(np.float32)
    w2 = (rng.integers(-32, 33, (8, 8, 3, 3)) / 64).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Softmax", ["x"], ["px"], name="softmax_x", axis=1),
        helper.make_node("Softmax", ["r1"], ["pr"], name="softmax_r1", axis=1),
        helper.make_node("Conv", ["r1", "w2"], ["y"], name="conv2", pads=[1, 1, 1, 1]),
    ]
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 8, 8, 8]) for n in ("y", "px", "pr")]
    x = (rng.integers(-64, 65, (4, 8, 8, 8)) / 32).astype(np.float32)
    save(nodes, "beside", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 8, 8])], outs,
         [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")], x)


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



def qlinear_zp(rng):
    sx, zx, sw, zw, sy, zy = 0.02, 130, 0.004, 120, 0.05, 100
    w = rng.integers(0, 256, (8, 4, 3, 3)).astype(np.uint8)
    w[0, 0, 0, 0], w[1, 0, 0, 0] = 255, 0      # w - zw reaches 135 and -120
    b = rng.integers(-3000, 3000, 8).astype(np.int32)
    sa, za, sb, zb, sm, zm = 0.03, -5, 0.01, -14, 0.08, 3
    bm = rng.integers(-128, 114, (6, 5)).astype(np.int8)
    c = lambda v, t, n: numpy_helper.from_array(np.array(v, t), n)
    nodes = [helper.make_node("QLinearConv", ["x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"], ["y"],
                              name="qconv", pads=[1, 1, 1, 1]),
             helper.make_node("QLinearMatMul", ["a", "sa", "za", "bm", "sb", "zb", "sm", "zm"], ["m"], name="qmm")]
    inits = [c(sx, np.float32, "sx"), c(zx, np.uint8, "zx"), numpy_helper.from_array(w, "w"),
             c(sw, np.float32, "sw"), c(zw, np.uint8, "zw"), c(sy, np.float32, "sy"), c(zy, np.uint8, "zy"),
             numpy_helper.from_array(b, "b"), c(sa, np.float32, "sa"), c(za, np.int8, "za"),
             numpy_helper.from_array(bm, "bm"), c(sb, np.float32, "sb"), c(zb, np.int8, "zb"),
             c(sm, np.float32, "sm"), c(zm, np.int8, "zm")]
    g = helper.make_graph(
        nodes, "qlinear_zp",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 4, 6, 6]),
         helper.make_tensor_value_info("a", TensorProto.INT8, [2, 3, 6])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [1, 8, 6, 6]),
         helper.make_tensor_value_info("m", TensorProto.INT8, [2, 3, 5])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, "qlinear_zp.onnx"))
    x = rng.integers(0, 256, (1, 4, 6, 6)).astype(np.uint8)
    a = rng.integers(-128, 128, (2, 3, 6)).astype(np.int8)
    np.save(os.path.join(OUT, "qlinear_zp.in0.npy"), x)
    np.save(os.path.join(OUT, "qlinear_zp.in1.npy"), a)
    # ONNX's definition: integer sums, then round(acc * sx * sw / sy) + zy, saturated
    xp = np.pad(x.astype(np.int64) - zx, ((0, 0), (0, 0), (1, 1), (1, 1)))
    acc = np.zeros((1, 8, 6, 6), np.int64)
    for i in range(6):
        for j in range(6):
            acc[0, :, i, j] = np.tensordot(w.astype(np.int64) - zw, xp[0, :, i:i + 3, j:j + 3], 3)
    y = np.clip(np.rint((acc + b[None, :, None, None]) * (sx * sw / sy)) + zy, 0, 255).astype(np.uint8)
    mm = np.clip(np.rint(((a.astype(np.int64) - za) @ (bm.astype(np.int64) - zb)) * (sa * sb / sm)) + zm,
                 -128, 127).astype(np.int8)
    np.save(os.path.join(OUT, "qlinear_zp.out0.npy"), y)
    np.save(os.path.join(OUT, "qlinear_zp.out1.npy"), mm)


def int8_chain(rng):
    """lower/int8_chain.onnx (tests/lower/filecheck/lower-plain-chain.test):
    a QDQ model of two chains.  y: Conv -> LeakyRelu -> Conv -> LeakyRelu ->
    Transpose -> LeakyRelu, the first table between two NPU kernels (its
    int8 tensors blocked: RELAYOUT records around it), the rest after the
    second Conv (one RELAYOUT out of its blocked output).  y2: LeakyRelu ->
    Transpose of the second input, int8 values only the control core
    touches (plain: no RELAYOUT)."""
    c = lambda v, t, n: numpy_helper.from_array(np.array(v, t), n)
    inits = [numpy_helper.from_array(rng.integers(-32, 33, (8, 3, 3, 3)).astype(np.int8), "w1q"),
             numpy_helper.from_array(rng.integers(-32, 33, (8, 8, 3, 3)).astype(np.int8), "w2q"),
             c(1 / 64, np.float32, "sw"), c(0, np.int8, "zw")]
    nodes = []

    def qdq(src, name, s, zp):
        nodes.extend([helper.make_node("QuantizeLinear", [src, name + ".s", name + ".zp"], [name + ".q"],
                                       name=name + "_q"),
                      helper.make_node("DequantizeLinear", [name + ".q", name + ".s", name + ".zp"], [name + ".d"],
                                       name=name + "_dq")])
        inits.extend([c(s, np.float32, name + ".s"), c(zp, np.int8, name + ".zp")])
        return name + ".d"

    for w in ("w1", "w2"):
        nodes.append(helper.make_node("DequantizeLinear", [w + "q", "sw", "zw"], [w], name=w + "_dq"))
    x = qdq("x", "xq", 1 / 64, 0)
    nodes.append(helper.make_node("Conv", [x, "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("LeakyRelu", [qdq("c1", "c1", 1 / 16, 3)], ["a1"], name="leaky1", alpha=0.1))
    nodes.append(helper.make_node("Conv", [qdq("a1", "a1", 1 / 16, -5), "w2"], ["c2"], name="conv2",
                                  pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("LeakyRelu", [qdq("c2", "c2", 1 / 8, 2)], ["a2"], name="leaky2", alpha=0.2))
    nodes.append(helper.make_node("Transpose", [qdq("a2", "a2", 1 / 8, -1)], ["t2"], name="flip", perm=[0, 1, 3, 2]))
    nodes.append(helper.make_node("LeakyRelu", [qdq("t2", "t2", 1 / 8, -1)], ["y3"], name="leaky3", alpha=0.3))
    nodes.append(helper.make_node("Identity", [qdq("y3", "y3", 1 / 8, 4)], ["y"], name="out"))
    z = qdq("z", "zq", 1 / 32, 1)
    nodes.append(helper.make_node("LeakyRelu", [z], ["b1"], name="leaky_z", alpha=0.25))
    nodes.append(helper.make_node("Transpose", [qdq("b1", "b1", 1 / 32, 2)], ["bt"], name="flip_z", perm=[0, 1, 3, 2]))
    nodes.append(helper.make_node("Identity", [qdq("bt", "bt", 1 / 32, 2)], ["y2"], name="out_z"))
    g = helper.make_graph(
        nodes, "int8_chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 8, 4, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8]),
         helper.make_tensor_value_info("y2", TensorProto.FLOAT, [1, 8, 6, 4])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, "int8_chain.onnx"))
    np.save(os.path.join(OUT, "int8_chain.in0.npy"), (rng.integers(-64, 65, (1, 3, 8, 8)) / 64).astype(np.float32))
    np.save(os.path.join(OUT, "int8_chain.in1.npy"), (rng.standard_normal((1, 8, 4, 6)) * 2).astype(np.float32))

if __name__ == "__main__":
    main()
