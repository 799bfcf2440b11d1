"""QDQ networks for the quantisation issue: several quantised operators in a
row, built with onnx.helper, with references computed op by op in float32
from the ONNX definitions (QuantizeLinear rounds half to even and
saturates; DequantizeLinear multiplies in float32).

Every scale is a power of two and every value a short dyadic fraction, so
each float step is exact and an integer implementation must match bit for
bit ("exact" in MANIFEST).  Writes quant/ and the MANIFEST section "quant".
Run with /usr/bin/python3 (numpy, onnx; no torch needed).
"""
import numpy as np
from onnx import helper

from common import Writer, init, make_model, vinfo

f32 = np.float32
SEED = 66
W = Writer("quant")


def quantize(x, scale, zp, dtype):
    info = np.iinfo(dtype)
    q = np.rint((x.astype(f32) / f32(scale)).astype(f32)) + int(zp)
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zp, axis=None):
    scale = np.asarray(scale, f32)
    zp = np.asarray(zp).astype(np.int64)
    if axis is not None and scale.ndim == 1:
        shape = [1] * q.ndim
        shape[axis] = -1
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return ((q.astype(np.int64) - zp).astype(f32) * scale).astype(f32)


def qdq(x, scale, zp, dtype):
    return dequantize(quantize(x, scale, zp, dtype), scale, zp)


def conv(x, w, b, stride, pad, group):
    """ONNX Conv, 2-D, symmetric pads, in float32 (sums are exact here)."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2 * pad, wd + 2 * pad), f32)
    xp[:, :, pad:pad + h, pad:pad + wd] = x
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, m, oh, ow), f32)
    mg = m // group
    for o in range(m):
        g = o // mg
        for i in range(oh):
            for j in range(ow):
                win = xp[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh, j * stride:j * stride + kw]
                y[:, o, i, j] = (win * w[o]).reshape(n, -1).sum(axis=1, dtype=f32)
    return (y + (0 if b is None else b.reshape(1, -1, 1, 1))).astype(f32)


def maxpool2(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def block_case(name, opset, act, comment):
    """x -> dw conv 3x3 s2 (per-channel w, bias) -> Relu -> {MaxPool 2x2,
    conv 1x1 s2} -> Add -> Relu -> Concat(add, maxpool) -> GlobalAveragePool
    -> Flatten -> Gemm(transB, per-channel w, bias): each op between
    DequantizeLinear and QuantizeLinear, activation zero points nonzero."""
    rng = np.random.default_rng(SEED + opset)
    lo, hi = (0, 255) if act == np.uint8 else (-128, 127)
    sh = 128 if act == np.uint8 else 0  # int8 zero points below, shifted for uint8
    zx, z1, z2, z3, z4, z5, z6 = (v + sh for v in (3, -100, -90, -60, -100, -50, 7))
    x = (rng.integers(-120, 121, (1, 4, 8, 8)) / 32).astype(f32)
    w1q = rng.integers(-127, 128, (4, 1, 3, 3)).astype(np.int8)
    w1s = np.array([1 / 64, 1 / 128, 1 / 32, 1 / 64], f32)
    b1 = (rng.integers(-64, 65, 4) / 64).astype(f32)
    w2q = rng.integers(-127, 128, (4, 4, 1, 1)).astype(np.int8)
    w2s = np.array([1 / 32, 1 / 64, 1 / 64, 1 / 128], f32)
    w3q = rng.integers(-127, 128, (5, 8)).astype(np.int8)
    w3s = np.array([1 / 64, 1 / 32, 1 / 128, 1 / 64, 1 / 64], f32)
    b3 = (rng.integers(-64, 65, 5) / 32).astype(f32)
    s = {"x": 1 / 32, "r1": 1 / 16, "mp": 1 / 16, "c2": 1 / 8, "add": 1 / 8, "cat": 1 / 4,
         "gap": 1 / 8, "fl": 1 / 8, "y": 1 / 4}
    z = {"x": zx, "r1": z1, "mp": z1, "c2": z2, "add": z3, "cat": z4, "gap": z5, "fl": z5, "y": z6}
    # reference, op by op in float32
    xd = qdq(x, s["x"], z["x"], act)
    w1d, w2d, w3d = (dequantize(q, sc, np.zeros(len(sc), np.int8), 0) for q, sc in
                     ((w1q, w1s), (w2q, w2s), (w3q, w3s)))
    r1 = qdq(np.maximum(conv(xd, w1d, b1, 2, 1, 4), 0), s["r1"], z["r1"], act)
    mp = qdq(maxpool2(r1), s["mp"], z["mp"], act)
    c2 = qdq(conv(r1, w2d, None, 2, 0, 1), s["c2"], z["c2"], act)
    ad = qdq(np.maximum(mp + c2, 0).astype(f32), s["add"], z["add"], act)
    cat = qdq(np.concatenate([ad, mp], axis=1), s["cat"], z["cat"], act)
    gap = qdq(cat.mean(axis=(2, 3), keepdims=True, dtype=f32), s["gap"], z["gap"], act)
    fl = qdq(gap.reshape(1, 8), s["fl"], z["fl"], act)
    y = qdq((fl @ w3d.T + b3).astype(f32), s["y"], z["y"], act)
    # the model
    nodes, inits = [], []

    def sc(key):
        inits.append(init(key + "_s", np.asarray(s[key], f32)))
        inits.append(init(key + "_z", np.asarray(z[key], act)))

    def q_dq(src, key, out):
        nodes.append(helper.make_node("QuantizeLinear", [src, key + "_s", key + "_z"], [out + "_q"], name="q_" + out))
        nodes.append(helper.make_node("DequantizeLinear", [out + "_q", key + "_s", key + "_z"], [out], name="dq_" + out))

    for key in s:
        if key not in ("mp", "fl"):
            sc(key)
    for wname, q, wsc in (("w1", w1q, w1s), ("w2", w2q, w2s), ("w3", w3q, w3s)):
        inits += [init(wname + "_q", q), init(wname + "_s", wsc), init(wname + "_z", np.zeros(len(wsc), np.int8))]
        nodes.append(helper.make_node("DequantizeLinear", [wname + "_q", wname + "_s", wname + "_z"], [wname],
                                      name="dq_" + wname, axis=0))
    inits += [init("b1", b1), init("b3", b3)]
    q_dq("x", "x", "xd")
    nodes.append(helper.make_node("Conv", ["xd", "w1", "b1"], ["c1"], name="dwconv", group=4, strides=[2, 2],
                                  pads=[1, 1, 1, 1], kernel_shape=[3, 3]))
    nodes.append(helper.make_node("Relu", ["c1"], ["c1r"], name="relu1"))
    q_dq("c1r", "r1", "r1")
    nodes.append(helper.make_node("MaxPool", ["r1"], ["mpf"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2]))
    q_dq("mpf", "r1", "mp")
    nodes.append(helper.make_node("Conv", ["r1", "w2"], ["c2f"], name="pwconv", strides=[2, 2], kernel_shape=[1, 1]))
    q_dq("c2f", "c2", "c2")
    nodes.append(helper.make_node("Add", ["mp", "c2"], ["addf"], name="add"))
    nodes.append(helper.make_node("Relu", ["addf"], ["addr"], name="relu2"))
    q_dq("addr", "add", "ad")
    nodes.append(helper.make_node("Concat", ["ad", "mp"], ["catf"], name="concat", axis=1))
    q_dq("catf", "cat", "cat")
    nodes.append(helper.make_node("GlobalAveragePool", ["cat"], ["gapf"], name="gap"))
    q_dq("gapf", "gap", "gap")
    nodes.append(helper.make_node("Flatten", ["gap"], ["flf"], name="flatten", axis=1))
    q_dq("flf", "gap", "fl")
    nodes.append(helper.make_node("Gemm", ["fl", "w3", "b3"], ["fc"], name="fc", transB=1))
    q_dq("fc", "y", "y")
    m = make_model(name, nodes, [vinfo("x", x)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [x], [y], kind="quant", comment=comment)


block_case("qdq_block_s8_opset13", 13, np.int8,
           "QDQ chain: depthwise conv, relu, maxpool, 1x1 conv, add+relu, concat, gap, flatten, gemm; int8, dyadic (exact)")
block_case("qdq_block_u8_opset17", 17, np.uint8,
           "the same with uint8 activations (zero points shifted by 128), dyadic (exact)")
W.finish()


def bad_cases():
    """Malformed quantisation parameters (not in MANIFEST: they must be
    rejected with a clear message; tests/compiler/filecheck/quant-bad-onnx.test)."""
    import os
    import onnx
    from common import HERE
    x = np.zeros((1, 2, 4, 4), f32)
    wq = np.ones((3, 2, 1, 1), np.int8)

    def qdq_conv(name, x_s, w_s, w_z):
        nodes = [
            helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"], name="q_x"),
            helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"], name="dq_x"),
            helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"], name="dq_w", axis=0),
            helper.make_node("Conv", ["xd", "wd"], ["y"], name="conv0"),
        ]
        inits = [init("x_s", np.asarray(x_s, f32)), init("x_z", np.asarray(0, np.int8)), init("wq", wq),
                 init("w_s", np.asarray(w_s, f32)), init("w_z", np.asarray(w_z, np.int8))]
        graph = helper.make_graph(nodes, name, [vinfo("x", x)], [vinfo("y", np.float32, (1, 3, 4, 4))], inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tessel-tests")
        m.ir_version = 7
        onnx.save(m, os.path.join(HERE, "quant", name + ".onnx"))

    qdq_conv("bad_zero_scale", 0.0, [0.5, 0.5, 0.5], [0, 0, 0])
    qdq_conv("bad_per_channel_size", 0.5, [0.5, 0.5], [0, 0])
    qdq_conv("bad_negative_scale", 0.5, [0.5, -0.5, 0.5], [0, 0, 0])


bad_cases()
