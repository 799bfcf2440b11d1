#!/usr/bin/python3
"""Generate tests/models/ops/: one small model per operator case, at a spread
of opsets (7, 9, 11, 13, 17), with inputs and reference outputs as .npy.

Most models are built with onnx.helper (torch cannot express auto_pad,
asymmetric pads, opset-specific attribute forms, ...); a few are exported from
torch (names start with torch_). The installed onnx (1.12) has no
onnx.reference evaluator, so reference outputs come from the small numpy /
torch.nn.functional implementations below, each written from the ONNX
operator spec for that opset.

Run: /usr/bin/python3 tests/models/gen_ops.py  (or `make models`)
"""
import io
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Writer, activations, init, make_model, vinfo, weights  # noqa: E402

rng = np.random.default_rng(20261130)
torch.manual_seed(20261130)
W = Writer("ops")

f32 = np.float32


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


# ---- reference implementations -------------------------------------------

def same_pads(in_sizes, kernel, strides, dilations, mode):
    """[begin..., end...] pads for auto_pad SAME_UPPER/SAME_LOWER/VALID."""
    begins, ends = [], []
    for n, k, s, d in zip(in_sizes, kernel, strides, dilations):
        if mode == "VALID":
            begins.append(0)
            ends.append(0)
            continue
        out = -(-n // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - n)
        small, big = total // 2, total - total // 2
        # SAME_UPPER puts the extra padding at the end, SAME_LOWER at the start
        begins.append(small if mode == "SAME_UPPER" else big)
        ends.append(big if mode == "SAME_UPPER" else small)
    return begins + ends


def conv_ref(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1),
             group=1):
    """ONNX Conv (2-D): pads = [top, left, bottom, right]."""
    xt = F.pad(t(x), (pads[1], pads[3], pads[0], pads[2]))
    y = F.conv2d(xt, t(w), None if b is None else t(b), stride=tuple(strides),
                 dilation=tuple(dilations), groups=group)
    return y.numpy()


def softmax_ref(x, axis, opset):
    if opset < 13:  # coerce to 2-D [prod(shape[:axis]), prod(shape[axis:])]
        axis = axis % x.ndim
        x2 = x.reshape(int(np.prod(x.shape[:axis])), -1)
        return torch.softmax(t(x2), dim=1).numpy().reshape(x.shape)
    return torch.softmax(t(x), dim=axis).numpy()


def quantize(x, scale, zp, dtype, axis=None):
    """ONNX QuantizeLinear: saturate(round_half_even(x / scale) + zp)."""
    scale = np.asarray(scale, f32)
    zp = np.asarray(zp)
    if axis is not None and scale.ndim == 1:
        shape = [1] * x.ndim
        shape[axis] = -1
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    info = np.iinfo(dtype)
    q = np.rint((x.astype(f32) / scale).astype(f32)) + zp.astype(np.int64)
    return np.clip(q, info.min, info.max).astype(dtype)


def dequantize(q, scale, zp, axis=None):
    """ONNX DequantizeLinear: (q - zp) * scale, in float32."""
    scale = np.asarray(scale, f32)
    zp = np.asarray(zp)
    if axis is not None and scale.ndim == 1:
        shape = [1] * q.ndim
        shape[axis] = -1
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return ((q.astype(np.int64) - zp.astype(np.int64)).astype(f32) * scale).astype(f32)


def requantize(acc, multiplier, zp, dtype):
    """Integer accumulator to a quantized output: the QLinear* semantics,
    saturate(round_half_even(acc * multiplier) + zp), multiplier in float64
    (the scales used below make it exact, so float32 would agree)."""
    info = np.iinfo(dtype)
    q = np.rint(acc.astype(np.float64) * multiplier) + np.asarray(zp, np.int64)
    return np.clip(q, info.min, info.max).astype(dtype)


def conv_int(x, xzp, w, wzp, strides=(1, 1), pads=(0, 0, 0, 0), group=1):
    """Exact integer convolution sum((x - xzp) * (w - wzp)), int64 result.
    wzp may be per output channel. Done in float64 (exact for these sizes)."""
    wzp = np.asarray(wzp, np.int64).reshape(-1, 1, 1, 1) if np.ndim(wzp) else wzp
    xs = x.astype(np.int64) - np.int64(xzp)
    ws = w.astype(np.int64) - wzp
    y = conv_ref(xs.astype(np.float64), ws.astype(np.float64), None, strides,
                 pads, (1, 1), group)
    return np.rint(y).astype(np.int64)


# ---- Conv ------------------------------------------------------------------

def conv_case(name, opset, x_shape, w_shape, bias=True, comment=None, **attrs):
    x = activations(rng, x_shape)
    w = weights(rng, w_shape)
    b = weights(rng, (w_shape[0],)) if bias else None
    kernel = w_shape[2:]
    strides = attrs.get("strides", [1, 1])
    dil = attrs.get("dilations", [1, 1])
    group = attrs.get("group", 1)
    if "auto_pad" in attrs:
        pads = same_pads(x_shape[2:], kernel, strides, dil, attrs["auto_pad"])
    else:
        pads = attrs.get("pads", [0, 0, 0, 0])
    y = conv_ref(x, w, b, strides, pads, dil, group)
    ins = ["x", "w"] + (["b"] if bias else [])
    node = helper.make_node("Conv", ins, ["y"], name="conv0", **attrs)
    inits = [init("w", w)] + ([init("b", b)] if bias else [])
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [x], [y], comment=comment)


conv_case("conv_basic", 13, (1, 3, 8, 8), (4, 3, 3, 3), pads=[1, 1, 1, 1],
          comment="3x3, pad 1, bias")
conv_case("conv_nobias_opset7", 7, (1, 3, 6, 6), (2, 3, 3, 3), bias=False,
          kernel_shape=[3, 3], comment="no bias, no pads, kernel_shape given")
conv_case("conv_groups", 11, (1, 4, 6, 6), (6, 2, 3, 3), group=2,
          pads=[1, 1, 1, 1], comment="group=2")
conv_case("conv_depthwise", 13, (1, 8, 7, 7), (8, 1, 3, 3), group=8,
          pads=[1, 1, 1, 1], comment="depthwise 3x3")
conv_case("conv_depthwise_mult", 17, (1, 4, 6, 6), (8, 1, 3, 3), group=4,
          strides=[2, 2], pads=[1, 1, 1, 1], comment="depthwise, multiplier 2, stride 2")
conv_case("conv_stride_asym_pads", 9, (1, 3, 9, 9), (4, 3, 3, 3),
          strides=[2, 2], pads=[0, 1, 1, 0], comment="stride 2, pads t0 l1 b1 r0")
conv_case("conv_dilation", 11, (1, 2, 9, 9), (3, 2, 3, 3), dilations=[2, 2],
          pads=[2, 2, 2, 2], comment="dilation 2")
conv_case("conv_same_upper", 11, (1, 2, 7, 7), (3, 2, 4, 4), strides=[2, 2],
          auto_pad="SAME_UPPER", comment="total pad 3: begin 1, end 2")
conv_case("conv_same_lower", 11, (1, 2, 7, 7), (3, 2, 4, 4), strides=[2, 2],
          auto_pad="SAME_LOWER", comment="total pad 3: begin 2, end 1")
conv_case("conv_valid", 9, (1, 2, 7, 7), (3, 2, 3, 3), strides=[2, 2],
          auto_pad="VALID")
conv_case("conv_rect_kernel", 17, (1, 3, 8, 6), (4, 3, 3, 1), strides=[1, 2],
          pads=[1, 0, 1, 0], comment="3x1 kernel, strides (1,2)")
conv_case("conv_pointwise_batch2", 13, (2, 8, 4, 4), (16, 8, 1, 1),
          comment="1x1, batch 2")


# ---- Gemm / MatMul ---------------------------------------------------------

def gemm_case(name, opset, a_shape, b_shape, c_shape, alpha=1.0, beta=1.0,
              transA=0, transB=0, comment=None):
    a = activations(rng, a_shape)
    b = weights(rng, b_shape)
    c = weights(rng, c_shape) if c_shape is not None else None
    A = a.T if transA else a
    B = b.T if transB else b
    y = (f32(alpha) * (A @ B)).astype(f32)
    if c is not None:
        y = (y + f32(beta) * c).astype(f32)
    attrs = {}
    if alpha != 1.0:
        attrs["alpha"] = alpha
    if beta != 1.0:
        attrs["beta"] = beta
    if transA:
        attrs["transA"] = 1
    if transB:
        attrs["transB"] = 1
    ins = ["a", "b"] + (["c"] if c is not None else [])
    node = helper.make_node("Gemm", ins, ["y"], name="gemm0", **attrs)
    inits = [init("b", b)] + ([init("c", c)] if c is not None else [])
    m = make_model(name, [node], [vinfo("a", a)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [a], [y], comment=comment)


gemm_case("gemm_basic", 13, (2, 8), (8, 4), (4,), comment="bias broadcast over rows")
gemm_case("gemm_transb_alpha_beta", 11, (3, 8), (5, 8), (1, 5), alpha=0.5,
          beta=2.0, transB=1, comment="transB, alpha 0.5, beta 2")
gemm_case("gemm_transa", 9, (8, 2), (8, 4), (2, 4), transA=1, comment="transA, full C")
gemm_case("gemm_no_c", 13, (2, 6), (6, 3), None, comment="C omitted (opset 11+)")
gemm_case("gemm_opset7", 7, (1, 16), (10, 16), (10,), transB=1,
          comment="torch.nn.Linear as old exporters wrote it")


def matmul_case(name, opset, a_shape, b_shape, b_const, comment=None):
    a = activations(rng, a_shape)
    b = weights(rng, b_shape) if b_const else activations(rng, b_shape)
    y = np.matmul(a, b).astype(f32)
    node = helper.make_node("MatMul", ["a", "b"], ["y"], name="matmul0")
    inputs = [vinfo("a", a)] + ([] if b_const else [vinfo("b", b)])
    inits = [init("b", b)] if b_const else []
    m = make_model(name, [node], inputs, [vinfo("y", y)], inits, opset)
    W.add(name, m, [a] if b_const else [a, b], [y], comment=comment)


matmul_case("matmul_const", 13, (2, 3, 8), (8, 5), True, comment="3-D x 2-D weight")
matmul_case("matmul_2d", 17, (4, 16), (16, 8), True)
matmul_case("matmul_two_inputs", 9, (2, 4, 6), (2, 6, 3), False,
            comment="both operands at run time (batched)")
matmul_case("matmul_two_inputs_bcast", 13, (2, 3, 4, 5), (5, 2), False,
            comment="runtime operands, B broadcast over batch")


# ---- elementwise activations ------------------------------------------------

def unary_case(name, opset, op, x, ref, attrs=None, extra_inits=(),
               extra_names=(), comment=None):
    node = helper.make_node(op, ["x"] + list(extra_names), ["y"], name=op.lower() + "0",
                            **(attrs or {}))
    y = ref(x).astype(x.dtype if x.dtype != np.bool_ else f32)
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)],
                   list(extra_inits), opset)
    W.add(name, m, [x], [y], comment=comment)


x = activations(rng, (1, 4, 5, 5))
unary_case("relu", 13, "Relu", x, lambda v: np.maximum(v, 0))
unary_case("relu_opset7", 7, "Relu", activations(rng, (2, 10)), lambda v: np.maximum(v, 0))
unary_case("clip_attr_opset7", 7, "Clip", activations(rng, (1, 3, 4, 4)),
           lambda v: np.clip(v, f32(-0.5), f32(0.75)), {"min": -0.5, "max": 0.75},
           comment="Clip-6 bounds as attributes")
unary_case("clip_attr_relu6_opset9", 9, "Clip", activations(rng, (1, 3, 4, 4)) * 4,
           lambda v: np.clip(v, 0, 6), {"min": 0.0, "max": 6.0},
           comment="ReLU6, attribute form")
unary_case("clip_inputs_opset11", 11, "Clip", activations(rng, (1, 3, 4, 4)) * 4,
           lambda v: np.clip(v, 0, 6),
           extra_inits=[init("lo", np.array(0, f32)), init("hi", np.array(6, f32))],
           extra_names=["lo", "hi"], comment="ReLU6, input form")
unary_case("clip_min_only_opset13", 13, "Clip", activations(rng, (2, 8)),
           lambda v: np.maximum(v, f32(-0.25)),
           extra_inits=[init("lo", np.array(-0.25, f32))], extra_names=["lo", ""],
           comment="max omitted (empty name)")
unary_case("clip_max_only_opset17", 17, "Clip", activations(rng, (2, 8)),
           lambda v: np.minimum(v, f32(0.5)),
           extra_inits=[init("hi", np.array(0.5, f32))], extra_names=["", "hi"],
           comment="min omitted (empty name)")
unary_case("leakyrelu", 9, "LeakyRelu", activations(rng, (1, 4, 4, 4)),
           lambda v: np.where(v >= 0, v, v * f32(0.125)), {"alpha": 0.125})
unary_case("leakyrelu_default_alpha", 17, "LeakyRelu", activations(rng, (2, 6)),
           lambda v: np.where(v >= 0, v, v * f32(0.01)), comment="alpha 0.01")


# ---- BatchNormalization -----------------------------------------------------

def bn_case(name, opset, shape, attrs=None, comment=None):
    c = shape[1]
    x = activations(rng, shape)
    scale = weights(rng, (c,), 64, 320)
    bias = weights(rng, (c,))
    mean = weights(rng, (c,))
    var = weights(rng, (c,), 16, 256)
    eps = (attrs or {}).get("epsilon", 1e-5)
    bshape = (1, c) + (1,) * (len(shape) - 2)
    y = ((x - mean.reshape(bshape)) / np.sqrt(var.reshape(bshape) + f32(eps))
         * scale.reshape(bshape) + bias.reshape(bshape)).astype(f32)
    node = helper.make_node("BatchNormalization", ["x", "s", "bias", "mean", "var"],
                            ["y"], name="bn0", **(attrs or {}))
    inits = [init("s", scale), init("bias", bias), init("mean", mean), init("var", var)]
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [x], [y], comment=comment)


bn_case("batchnorm_opset7", 7, (1, 4, 5, 5), {"epsilon": 1e-3}, comment="BN-7")
bn_case("batchnorm_opset9", 9, (2, 3, 4, 4), comment="BN-9")
bn_case("batchnorm_opset17", 17, (1, 6, 3, 3), {"epsilon": 1e-4},
        comment="BN-15, training_mode absent")


# ---- Add / Mul / Sub -----------------------------------------------------------

def binary_case(name, opset, op, a, b, b_const, swap=False, comment=None):
    fn = {"Add": np.add, "Mul": np.multiply, "Sub": np.subtract}[op]
    names = ["b", "a"] if swap else ["a", "b"]
    y = (fn(b, a) if swap else fn(a, b)).astype(f32)
    node = helper.make_node(op, names, ["y"], name=op.lower() + "0")
    inputs = [vinfo("a", a)] + ([] if b_const else [vinfo("b", b)])
    inits = [init("b", b)] if b_const else []
    m = make_model(name, [node], inputs, [vinfo("y", y)], inits, opset)
    W.add(name, m, [a] if b_const else [a, b], [y], comment=comment)


binary_case("add_bcast_channel", 13, "Add", activations(rng, (1, 4, 3, 3)),
            weights(rng, (4, 1, 1)), True, comment="per-channel constant")
binary_case("add_two_inputs_opset7", 7, "Add", activations(rng, (2, 3)),
            activations(rng, (3,)), False, comment="runtime operands, multidirectional")
binary_case("add_same_shape", 11, "Add", activations(rng, (1, 8, 4, 4)),
            activations(rng, (1, 8, 4, 4)), False, comment="residual-style add")
binary_case("mul_scalar", 9, "Mul", activations(rng, (1, 3, 4, 4)),
            np.array(0.75, f32), True, comment="0-d constant")
binary_case("mul_bcast_both", 13, "Mul", activations(rng, (2, 1, 4)),
            activations(rng, (3, 1)), False, comment="both operands broadcast")
binary_case("sub_const_first", 17, "Sub", activations(rng, (1, 3, 2, 2)),
            weights(rng, (1, 3, 1, 1)), True, swap=True, comment="constant - x")
binary_case("sub_two_inputs", 11, "Sub", activations(rng, (4, 5)),
            activations(rng, (4, 1)), False)


# ---- pooling ---------------------------------------------------------------------

def pool_case(name, opset, op, x_shape, attrs, comment=None):
    x = activations(rng, x_shape)
    k = attrs["kernel_shape"]
    s = attrs.get("strides", [1, 1])
    d = attrs.get("dilations", [1, 1])
    ceil = bool(attrs.get("ceil_mode", 0))
    if "auto_pad" in attrs:
        p = same_pads(x_shape[2:], k, s, d, attrs["auto_pad"])
    else:
        p = attrs.get("pads", [0, 0, 0, 0])
    xt = t(x)
    if op == "MaxPool":
        xt = F.pad(xt, (p[1], p[3], p[0], p[2]), value=-np.inf)
        y = F.max_pool2d(xt, k, s, 0, d, ceil_mode=ceil).numpy()
    else:
        assert p[0] == p[2] and p[1] == p[3], "torch needs symmetric pads"
        y = F.avg_pool2d(xt, k, s, (p[0], p[1]), ceil_mode=ceil,
                         count_include_pad=bool(attrs.get("count_include_pad", 0))).numpy()
    node = helper.make_node(op, ["x"], ["y"], name=op.lower() + "0", **attrs)
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)], [], opset)
    W.add(name, m, [x], [y], comment=comment)


pool_case("maxpool_2x2", 9, "MaxPool", (1, 3, 8, 8), {"kernel_shape": [2, 2], "strides": [2, 2]})
pool_case("maxpool_3x3_pads", 11, "MaxPool", (1, 2, 8, 8),
          {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]},
          comment="as in resnet's stem")
pool_case("maxpool_ceil", 11, "MaxPool", (1, 2, 8, 8),
          {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},
          comment="ceil_mode 1 (squeezenet)")
pool_case("maxpool_dilation", 13, "MaxPool", (1, 2, 7, 7),
          {"kernel_shape": [2, 2], "dilations": [2, 2]})
pool_case("maxpool_same_upper_opset7", 7, "MaxPool", (1, 2, 7, 7),
          {"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"})
pool_case("avgpool_2x2_opset7", 7, "AveragePool", (1, 3, 6, 6),
          {"kernel_shape": [2, 2], "strides": [2, 2]})
pool_case("avgpool_pads_include", 11, "AveragePool", (1, 2, 7, 7),
          {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
           "count_include_pad": 1}, comment="divisor 9 everywhere")
pool_case("avgpool_pads_exclude", 11, "AveragePool", (1, 2, 7, 7),
          {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
           "count_include_pad": 0}, comment="divisor = valid elements")
pool_case("avgpool_ceil", 13, "AveragePool", (1, 2, 8, 8),
          {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},
          comment="last window clipped to the input (torch semantics)")
pool_case("avgpool_ceil_pads_include", 17, "AveragePool", (1, 2, 8, 8),
          {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
           "ceil_mode": 1, "count_include_pad": 1},
          comment="divisor counts pads but not the ceil overhang (torch semantics)")


def global_pool_case(name, opset, op, x_shape):
    x = activations(rng, x_shape)
    fn = np.mean if op == "GlobalAveragePool" else np.max
    y = fn(x, axis=(2, 3), keepdims=True).astype(f32)
    node = helper.make_node(op, ["x"], ["y"], name="gpool0")
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)], [], opset)
    W.add(name, m, [x], [y])


global_pool_case("globalavgpool", 9, "GlobalAveragePool", (1, 8, 5, 5))
global_pool_case("globalavgpool_opset13", 13, "GlobalAveragePool", (2, 4, 3, 7))
global_pool_case("globalmaxpool", 13, "GlobalMaxPool", (1, 8, 4, 4))


# ---- shape and data movement -----------------------------------------------------

def single_case(name, opset, op, x, y, attrs=None, inits=(), extra=(), comment=None):
    node = helper.make_node(op, ["x"] + list(extra), ["y"], name=op.lower() + "0",
                            **(attrs or {}))
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)], list(inits), opset)
    W.add(name, m, [x], [y], comment=comment)


x = activations(rng, (2, 3, 4, 5))
single_case("flatten_axis1", 9, "Flatten", x, x.reshape(2, -1))
single_case("flatten_axis2", 13, "Flatten", x, x.reshape(6, -1), {"axis": 2})
single_case("flatten_axis0", 11, "Flatten", x, x.reshape(1, -1), {"axis": 0})
x = activations(rng, (2, 3, 4))
single_case("reshape_zero_neg1", 13, "Reshape", x, x.reshape(2, 12),
            inits=[init("shape", np.array([0, -1], np.int64))], extra=["shape"],
            comment="0 copies a dimension, -1 is inferred")
single_case("reshape_opset7", 7, "Reshape", x, x.reshape(4, 2, 3),
            inits=[init("shape", np.array([4, -1, 3], np.int64))], extra=["shape"])
x = activations(rng, (1, 2, 3, 4))
single_case("transpose_nhwc", 9, "Transpose", x, x.transpose(0, 2, 3, 1),
            {"perm": [0, 2, 3, 1]})
single_case("transpose_default", 13, "Transpose", x, x.transpose(),
            comment="no perm: reverse the axes")
x = activations(rng, (1, 3, 1, 1))
single_case("squeeze_attr_opset11", 11, "Squeeze", x, x.reshape(1, 3), {"axes": [2, -1]},
            comment="axes attribute (before opset 13), negative axis")
single_case("squeeze_input_opset13", 13, "Squeeze", x, x.reshape(1, 3),
            inits=[init("axes", np.array([2, 3], np.int64))], extra=["axes"],
            comment="axes input (opset 13+)")
single_case("squeeze_all_opset17", 17, "Squeeze", x, x.reshape(3),
            comment="no axes: drop every 1")
x = activations(rng, (3, 4))
single_case("unsqueeze_attr_opset9", 9, "Unsqueeze", x, x.reshape(1, 3, 4), {"axes": [0]})
single_case("unsqueeze_input_opset13", 13, "Unsqueeze", x, x.reshape(1, 3, 4, 1),
            inits=[init("axes", np.array([0, -1], np.int64))], extra=["axes"],
            comment="axes input; -1 counts in the output rank")

a, b = activations(rng, (1, 2, 3, 3)), activations(rng, (1, 5, 3, 3))
node = helper.make_node("Concat", ["a", "b"], ["y"], name="concat0", axis=1)
y = np.concatenate([a, b], axis=1)
W.add("concat_channels_opset7", make_model("concat_channels_opset7", [node],
      [vinfo("a", a), vinfo("b", b)], [vinfo("y", y)], [], 7), [a, b], [y])
a = activations(rng, (2, 3))
c = weights(rng, (2, 2))
node = helper.make_node("Concat", ["a", "a", "c"], ["y"], name="concat0", axis=-1)
y = np.concatenate([a, a, c], axis=-1)
W.add("concat_const_neg_axis", make_model("concat_const_neg_axis", [node],
      [vinfo("a", a)], [vinfo("y", y)], [init("c", c)], 13), [a], [y],
      comment="same input twice plus a constant, axis -1")

x = activations(rng, (1, 2, 3, 3))
pads = [0, 0, 1, 2, 0, 0, 2, 1]  # [x1_begin.., x1_end..]
y = np.pad(x, [(0, 0), (0, 0), (1, 2), (2, 1)], constant_values=f32(0.5))
single_case("pad_attr_opset9", 9, "Pad", x, y, {"pads": pads, "value": 0.5},
            comment="Pad-2: pads and value attributes")
single_case("pad_input_opset11", 11, "Pad", x, y,
            inits=[init("pads", np.array(pads, np.int64)), init("v", np.array(0.5, f32))],
            extra=["pads", "v"], comment="Pad-11: pads and constant_value inputs")
y0 = np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)])
single_case("pad_input_zero_opset13", 13, "Pad", x, y0,
            inits=[init("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))],
            extra=["pads"], attrs={"mode": "constant"}, comment="default value 0")

x = activations(rng, (1, 4, 2, 2))
single_case("identity", 13, "Identity", x, x)
single_case("dropout_opset9", 9, "Dropout", x, x, {"ratio": 0.3}, comment="inference: identity")
single_case("dropout_opset13", 13, "Dropout", x, x,
            inits=[init("ratio", np.array(0.3, f32))], extra=["ratio"],
            comment="ratio input, training_mode absent")
x = activations(rng, (2, 3))
c = weights(rng, (2, 3))
nodes = [helper.make_node("Constant", [], ["c"], name="const0", value=init("cv", c)),
         helper.make_node("Add", ["x", "c"], ["y"], name="add0")]
y = x + c
W.add("constant_tensor_opset9", make_model("constant_tensor_opset9", nodes,
      [vinfo("x", x)], [vinfo("y", y)], [], 9), [x], [y])
nodes = [helper.make_node("Constant", [], ["c"], name="const0", value_float=0.25),
         helper.make_node("Mul", ["x", "c"], ["y"], name="mul0")]
W.add("constant_value_float_opset13", make_model("constant_value_float_opset13", nodes,
      [vinfo("x", x)], [vinfo("y", x * f32(0.25))], [], 13), [x], [x * f32(0.25)],
      comment="value_float attribute (opset 12+)")

x = activations(rng, (2, 5)) * 2
xi = np.trunc(x).astype(np.int32)
nodes = [helper.make_node("Cast", ["x"], ["xi"], name="cast0", to=TensorProto.INT32),
         helper.make_node("Cast", ["xi"], ["y"], name="cast1", to=TensorProto.FLOAT)]
W.add("cast_roundtrip_opset9", make_model("cast_roundtrip_opset9", nodes,
      [vinfo("x", x)], [vinfo("y", xi.astype(f32))], [], 9), [x], [xi.astype(f32)],
      comment="float -> int32 truncates toward zero -> float")
nodes = [helper.make_node("Cast", ["x"], ["y"], name="cast0", to=TensorProto.INT32)]
W.add("cast_to_int32_opset13", make_model("cast_to_int32_opset13", nodes,
      [vinfo("x", x)], [vinfo("y", xi)], [], 13), [x], [xi],
      comment="int32 output")


def shape_flatten_case(name, opset):
    """Shape -> Gather(0) -> Unsqueeze -> Concat([.., -1]) -> Reshape, the way
    torch exports x.view(x.size(0), -1)."""
    x = activations(rng, (2, 3, 2, 2))
    if opset >= 13:
        unsq = helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze0")
        extra = [init("axes0", np.array([0], np.int64))]
    else:
        unsq = helper.make_node("Unsqueeze", ["n"], ["n1"], name="unsqueeze0", axes=[0])
        extra = []
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="shape0"),
        helper.make_node("Gather", ["s", "idx"], ["n"], name="gather0", axis=0),
        unsq,
        helper.make_node("Concat", ["n1", "minus1"], ["shape"], name="concat0", axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape0"),
    ]
    inits = [init("idx", np.array(0, np.int64)), init("minus1", np.array([-1], np.int64))]
    y = x.reshape(2, -1)
    W.add(name, make_model(name, nodes, [vinfo("x", x)], [vinfo("y", y)], inits + extra,
                           opset), [x], [y], comment="shape-derived Reshape target")


shape_flatten_case("shape_gather_reshape_opset9", 9)
shape_flatten_case("shape_gather_reshape_opset13", 13)


# ---- Softmax -----------------------------------------------------------------------

x = activations(rng, (2, 3, 4))
single_case("softmax_axis1_opset11", 11, "Softmax", x, softmax_ref(x, 1, 11), {"axis": 1},
            comment="opset<13: coerced to 2-D, normalised over 3*4 elements")
single_case("softmax_axis1_opset13", 13, "Softmax", x, softmax_ref(x, 1, 13), {"axis": 1},
            comment="opset 13+: normalised along axis 1 only")
x2 = activations(rng, (2, 10))
single_case("softmax_default_opset9", 9, "Softmax", x2, softmax_ref(x2, 1, 9),
            comment="default axis 1")
single_case("softmax_default_opset13", 13, "Softmax", x, softmax_ref(x, -1, 13),
            comment="default axis -1 (opset 13+)")
single_case("softmax_neg_axis_opset17", 17, "Softmax", x, softmax_ref(x, -2, 17),
            {"axis": -2})


# ---- quantized: QuantizeLinear / DequantizeLinear ------------------------------------

def q_case(name, opset, x, scale, zp, axis=None, comment=None):
    attrs = {} if axis is None else {"axis": axis}
    y = quantize(x, scale, zp, zp.dtype.type, axis)
    node = helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["y"], name="q0", **attrs)
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)],
                   [init("s", np.asarray(scale, f32)), init("zp", zp)], opset)
    W.add(name, m, [x], [y], kind="quant", comment=comment)


def dq_case(name, opset, q, scale, zp, axis=None, comment=None):
    attrs = {} if axis is None else {"axis": axis}
    y = dequantize(q, scale, zp, axis)
    node = helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dq0", **attrs)
    m = make_model(name, [node], [vinfo("q", q)], [vinfo("y", y)],
                   [init("s", np.asarray(scale, f32)), init("zp", zp)], opset)
    W.add(name, m, [q], [y], kind="quant", comment=comment)


xq = activations(rng, (1, 3, 4, 4)) * 2
# x / scale hits exact .5 ties for these inputs: round half to even
q_case("quantize_u8_opset11", 11, xq, np.array(1 / 32, f32), np.array(128, np.uint8),
       comment="per-tensor uint8, ties to even, saturation")
q_case("quantize_s8_opset13", 13, xq, np.array(0.0375, f32), np.array(-3, np.int8),
       comment="per-tensor int8, non-dyadic scale")
q_case("quantize_s8_per_channel_opset13", 13, xq, np.array([1 / 16, 1 / 32, 0.05], f32),
       np.array([0, 5, -5], np.int8), axis=1, comment="per-channel on axis 1")
dq_case("dequantize_u8_opset11", 11, rng.integers(0, 256, (2, 8)).astype(np.uint8),
        np.array(0.02, f32), np.array(120, np.uint8))
dq_case("dequantize_s8_per_channel_opset13", 13,
        rng.integers(-128, 128, (4, 3, 2, 2)).astype(np.int8),
        np.array([0.01, 0.02, 0.03, 0.04], f32), np.array([0, 0, 0, 0], np.int8), axis=0,
        comment="per-channel weights (axis 0)")


def qdq_conv_case(name, opset, act_type, per_channel, dyadic, comment=None):
    """x -> Q -> DQ -> Conv(DQ(w_q), bias) -> Q -> DQ: the QDQ form quantization
    tools emit. Reference: the float ONNX semantics, op by op, in float32.
    With dyadic (power-of-two) scales every step is exact, so the int8 path
    must match bit for bit; otherwise allow 1 LSB (see README)."""
    lo, hi = (0, 255) if act_type == np.uint8 else (-128, 127)
    x = activations(rng, (1, 3, 6, 6))
    cout = 4
    wq = rng.integers(-127, 128, (cout, 3, 3, 3)).astype(np.int8)
    if dyadic:
        x_s, y_s = f32(1 / 32), f32(1 / 8)
        w_s = np.array([1 / 128, 1 / 64, 1 / 256, 1 / 128], f32) if per_channel else f32(1 / 128)
    else:
        x_s, y_s = f32(0.0173), f32(0.071)
        w_s = np.array([0.0041, 0.0063, 0.0029, 0.0052], f32) if per_channel else f32(0.0047)
    x_zp = act_type(128 if act_type == np.uint8 else 3)
    y_zp = act_type(120 if act_type == np.uint8 else -7)
    bias = weights(rng, (cout,))
    axis = 0 if per_channel else None
    xd = dequantize(quantize(x, x_s, x_zp, act_type), x_s, x_zp)
    wd = dequantize(wq, w_s, np.zeros_like(w_s, np.int8) if per_channel else np.int8(0), axis)
    yf = conv_ref(xd, wd, bias, pads=(1, 1, 1, 1))
    y = dequantize(quantize(yf, y_s, y_zp, act_type), y_s, y_zp)
    w_zp = np.zeros(cout, np.int8) if per_channel else np.array(0, np.int8)
    wattrs = {"axis": 0} if per_channel else {}
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_zp"], ["xq"], name="q_x"),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_zp"], ["xd"], name="dq_x"),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_zp"], ["wd"], name="dq_w", **wattrs),
        helper.make_node("Conv", ["xd", "wd", "bias"], ["yf"], name="conv0", pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["yf", "y_s", "y_zp"], ["yq"], name="q_y"),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_zp"], ["y"], name="dq_y"),
    ]
    inits = [init("x_s", np.asarray(x_s, f32)), init("x_zp", np.asarray(x_zp)),
             init("wq", wq), init("w_s", np.asarray(w_s, f32)), init("w_zp", w_zp),
             init("bias", bias),
             init("y_s", np.asarray(y_s, f32)), init("y_zp", np.asarray(y_zp))]
    del lo, hi
    m = make_model(name, nodes, [vinfo("x", x)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [x], [y], kind="quant", comment=comment)


qdq_conv_case("qdq_conv_u8_opset11", 11, np.uint8, False, True,
              comment="per-tensor, uint8 activations, dyadic scales (exact)")
qdq_conv_case("qdq_conv_s8_per_channel_opset13", 13, np.int8, True, True,
              comment="per-channel int8 weights, int8 activations, dyadic (exact)")
qdq_conv_case("qdq_conv_u8_per_channel_opset13", 13, np.uint8, True, False,
              comment="per-channel, non-dyadic scales (1 LSB tolerance)")
qdq_conv_case("qdq_conv_s8_opset17", 17, np.int8, False, False,
              comment="per-tensor int8, non-dyadic scales (1 LSB tolerance)")


def qdq_matmul_case(name, opset, act_type, per_channel, comment=None):
    a = activations(rng, (2, 16))
    k, n = 16, 8
    bq = rng.integers(-127, 128, (k, n)).astype(np.int8)
    a_s, y_s = f32(1 / 32), f32(1 / 4)
    b_s = (np.array([1 / 64, 1 / 128] * (n // 2), f32) if per_channel else f32(1 / 128))
    a_zp = act_type(128 if act_type == np.uint8 else 0)
    y_zp = act_type(128 if act_type == np.uint8 else 0)
    ad = dequantize(quantize(a, a_s, a_zp, act_type), a_s, a_zp)
    bd = dequantize(bq, b_s, np.zeros(n, np.int8) if per_channel else np.int8(0),
                    1 if per_channel else None)
    yf = (ad @ bd).astype(f32)
    y = dequantize(quantize(yf, y_s, y_zp, act_type), y_s, y_zp)
    battrs = {"axis": 1} if per_channel else {}
    nodes = [
        helper.make_node("QuantizeLinear", ["a", "a_s", "a_zp"], ["aq"], name="q_a"),
        helper.make_node("DequantizeLinear", ["aq", "a_s", "a_zp"], ["ad"], name="dq_a"),
        helper.make_node("DequantizeLinear", ["bq", "b_s", "b_zp"], ["bd"], name="dq_b", **battrs),
        helper.make_node("MatMul", ["ad", "bd"], ["yf"], name="matmul0"),
        helper.make_node("QuantizeLinear", ["yf", "y_s", "y_zp"], ["yq"], name="q_y"),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_zp"], ["y"], name="dq_y"),
    ]
    b_zp = np.zeros(n, np.int8) if per_channel else np.array(0, np.int8)
    inits = [init("a_s", np.asarray(a_s)), init("a_zp", np.asarray(a_zp)), init("bq", bq),
             init("b_s", np.asarray(b_s, f32)), init("b_zp", b_zp),
             init("y_s", np.asarray(y_s)), init("y_zp", np.asarray(y_zp))]
    m = make_model(name, nodes, [vinfo("a", a)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [a], [y], kind="quant", comment=comment)


qdq_matmul_case("qdq_matmul_u8_opset13", 13, np.uint8, False,
                comment="per-tensor, uint8 activations (exact)")
qdq_matmul_case("qdq_matmul_s8_per_channel_opset13", 13, np.int8, True,
                comment="per-column (axis 1) int8 weights (exact)")


# ---- quantized: QLinearConv / QLinearMatMul / ConvInteger / MatMulInteger -----------

def qlinearconv_case(name, opset, act_type, w_type, per_channel, comment=None):
    cin, cout = 4, 6
    info = np.iinfo(act_type)
    x = rng.integers(info.min, info.max + 1, (1, cin, 5, 5)).astype(act_type)
    winfo = np.iinfo(w_type)
    w = rng.integers(max(winfo.min, -127), winfo.max + 1, (cout, cin, 3, 3)).astype(w_type)
    x_s, x_zp = f32(1 / 64), act_type(128 if act_type == np.uint8 else -2)
    w_zp = w_type(0) if w_type == np.int8 else w_type(127)
    if per_channel:
        w_s = np.array([1 / 128, 1 / 256, 1 / 64, 1 / 128, 1 / 512, 1 / 128], f32)
    else:
        w_s = f32(1 / 128)
    y_s, y_zp = f32(1 / 8), act_type(100 if act_type == np.uint8 else 5)
    bias = rng.integers(-2000, 2000, cout).astype(np.int32)  # scale x_s * w_s, zp 0
    acc = conv_int(x, x_zp, w, w_zp, pads=(1, 1, 1, 1)) + bias.reshape(1, -1, 1, 1)
    mult = (np.float64(x_s) * np.asarray(w_s, np.float64) / np.float64(y_s))
    y = requantize(acc, mult.reshape(1, -1, 1, 1) if per_channel else mult, y_zp, act_type)
    node = helper.make_node("QLinearConv", ["x", "x_s", "x_zp", "w", "w_s", "w_zp",
                                            "y_s", "y_zp", "bias"], ["y"],
                            name="qlinearconv0", pads=[1, 1, 1, 1])
    inits = [init("x_s", np.asarray(x_s)), init("x_zp", np.asarray(x_zp)), init("w", w),
             init("w_s", np.asarray(w_s, f32)),
             init("w_zp", np.full(cout, w_zp, w_type) if per_channel else np.asarray(w_zp)),
             init("y_s", np.asarray(y_s)), init("y_zp", np.asarray(y_zp)),
             init("bias", bias)]
    m = make_model(name, [node], [vinfo("x", x)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [x], [y], kind="quant", comment=comment)


qlinearconv_case("qlinearconv_u8_opset11", 11, np.uint8, np.uint8, False,
                 comment="uint8 x and w (w_zp 127), int32 bias, dyadic multiplier")
qlinearconv_case("qlinearconv_s8_per_channel_opset13", 13, np.int8, np.int8, True,
                 comment="int8, per-channel w_scale")


def qlinearmatmul_case(name, opset, a_type, b_type, comment=None):
    ainfo, binfo = np.iinfo(a_type), np.iinfo(b_type)
    a = rng.integers(ainfo.min, ainfo.max + 1, (3, 16)).astype(a_type)
    b = rng.integers(max(binfo.min, -127), binfo.max + 1, (16, 8)).astype(b_type)
    a_s, a_zp = f32(1 / 32), a_type(128 if a_type == np.uint8 else 1)
    b_s, b_zp = f32(1 / 64), b_type(128 if b_type == np.uint8 else 0)
    y_s, y_zp = f32(2.0), a_type(128 if a_type == np.uint8 else 0)
    acc = (a.astype(np.int64) - int(a_zp)) @ (b.astype(np.int64) - int(b_zp))
    y = requantize(acc, np.float64(a_s) * np.float64(b_s) / np.float64(y_s), y_zp, a_type)
    node = helper.make_node("QLinearMatMul", ["a", "a_s", "a_zp", "b", "b_s", "b_zp",
                                              "y_s", "y_zp"], ["y"], name="qlinearmatmul0")
    inits = [init("a_s", np.asarray(a_s)), init("a_zp", np.asarray(a_zp)), init("b", b),
             init("b_s", np.asarray(b_s)), init("b_zp", np.asarray(b_zp)),
             init("y_s", np.asarray(y_s)), init("y_zp", np.asarray(y_zp))]
    m = make_model(name, [node], [vinfo("a", a)], [vinfo("y", y)], inits, opset)
    W.add(name, m, [a], [y], kind="quant", comment=comment)


qlinearmatmul_case("qlinearmatmul_u8_opset11", 11, np.uint8, np.uint8,
                   comment="uint8 a and b, nonzero zero points")
qlinearmatmul_case("qlinearmatmul_s8_opset17", 17, np.int8, np.int8, comment="int8")

# ConvInteger: int32 output, no bias, no requantisation
x = rng.integers(0, 256, (1, 3, 5, 5)).astype(np.uint8)
w = rng.integers(0, 256, (4, 3, 3, 3)).astype(np.uint8)
y = conv_int(x, 100, w, 128, strides=(2, 2), pads=(1, 1, 1, 1)).astype(np.int32)
node = helper.make_node("ConvInteger", ["x", "w", "x_zp", "w_zp"], ["y"], name="convint0",
                        strides=[2, 2], pads=[1, 1, 1, 1])
W.add("convinteger_u8_opset11", make_model("convinteger_u8_opset11", [node],
      [vinfo("x", x)], [vinfo("y", y)],
      [init("w", w), init("x_zp", np.array(100, np.uint8)),
       init("w_zp", np.array(128, np.uint8))], 11), [x], [y], kind="quant",
      comment="uint8, zero points 100/128, stride 2, int32 output")
x = rng.integers(0, 256, (1, 2, 4, 4)).astype(np.uint8)
w = rng.integers(0, 256, (3, 2, 2, 2)).astype(np.uint8)
y = conv_int(x, 0, w, 0).astype(np.int32)
node = helper.make_node("ConvInteger", ["x", "w"], ["y"], name="convint0")
W.add("convinteger_no_zp_opset13", make_model("convinteger_no_zp_opset13", [node],
      [vinfo("x", x)], [vinfo("y", y)], [init("w", w)], 13), [x], [y], kind="quant",
      comment="zero points omitted (0)")

a = rng.integers(0, 256, (2, 3, 8)).astype(np.uint8)
b = rng.integers(-128, 128, (8, 5)).astype(np.int8)
y = ((a.astype(np.int64) - 120) @ (b.astype(np.int64) - 3)).astype(np.int32)
node = helper.make_node("MatMulInteger", ["a", "b", "a_zp", "b_zp"], ["y"], name="mmint0")
W.add("matmulinteger_u8s8_opset13", make_model("matmulinteger_u8s8_opset13", [node],
      [vinfo("a", a)], [vinfo("y", y)],
      [init("b", b), init("a_zp", np.array(120, np.uint8)),
       init("b_zp", np.array(3, np.int8))], 13), [a], [y], kind="quant",
      comment="uint8 a, int8 b, int32 output")
a = rng.integers(-128, 128, (4, 6)).astype(np.int8)
b = rng.integers(-128, 128, (6, 3)).astype(np.int8)
y = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
node = helper.make_node("MatMulInteger", ["a", "b"], ["y"], name="mmint0")
W.add("matmulinteger_two_inputs_opset11", make_model("matmulinteger_two_inputs_opset11",
      [node], [vinfo("a", a), vinfo("b", b)], [vinfo("y", y)], [], 11), [a, b], [y],
      kind="quant", comment="int8 x int8, both at run time, no zero points")


# ---- exported from torch --------------------------------------------------------------

def torch_case(name, opset, module, x, comment=None, **kw):
    module.eval()
    buf = io.BytesIO()
    with torch.no_grad():
        y = module(t(x)).numpy()
        torch.onnx.export(module, (t(x),), buf, opset_version=opset, input_names=["x"],
                          output_names=["y"], do_constant_folding=True, **kw)
    m = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(m, full_check=True)
    W.add(name, m, [x], [y], comment=comment)


def dyadic_(module):
    """Replace a torch module's parameters with low-entropy dyadic values."""
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(t(weights(rng, tuple(p.shape))))
    return module


class ConvBnRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(8)

    def forward(self, v):
        return torch.relu(self.bn(self.conv(v)))


class ViewLinear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 4, 3, stride=2)
        self.fc = torch.nn.Linear(4 * 3 * 3, 5)

    def forward(self, v):
        v = self.conv(v)
        return torch.softmax(self.fc(v.view(v.size(0), -1)), dim=1)


m = dyadic_(ConvBnRelu())
with torch.no_grad():
    m.bn.running_mean.copy_(t(weights(rng, (8,))))
    m.bn.running_var.copy_(t(weights(rng, (8,), 32, 256)))
torch_case("torch_conv_bn_relu", 13, m, activations(rng, (1, 3, 8, 8)),
           comment="torch.onnx.export of Conv+BatchNorm2d+ReLU (eval)")
view_linear = dyadic_(ViewLinear())
torch_case("torch_view_linear_softmax", 11, view_linear, activations(rng, (2, 2, 7, 7)),
           comment="x.view(x.size(0), -1) with static shapes (the exporter folds the "
           "shape into a Constant), Gemm, Softmax-11")
torch_case("torch_view_dynamic_batch", 13, view_linear, activations(rng, (1, 2, 7, 7)),
           dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}},
           comment="the same with a symbolic batch dimension 'batch' (input has batch 1): "
           "Shape -> Gather -> Unsqueeze -> Concat -> Reshape stays in the graph")
torch_case("torch_avgpool_ceil_clamp", 13,
           torch.nn.Sequential(torch.nn.AvgPool2d(3, 2, 1, ceil_mode=True),
                               torch.nn.Hardtanh(-0.5, 0.5)),
           activations(rng, (1, 2, 8, 8)), comment="AveragePool ceil_mode, Clip")

W.finish()
