#!/usr/bin/python3
"""Generates tests/compiler/inputs/cov/: one tiny ONNX model per importer case
of the coverage operators (old and new opsets of Reduce*, Split, Slice, Pad,
Resize, Upsample, Softmax, Clip, Gelu, LayerNormalization, ConvTranspose, ...),
read by tests/compiler/filecheck/import-coverage.test. Committed; rerun by hand:
/usr/bin/python3 tests/compiler/gen_coverage.py
Not checked with onnx.checker: outputs leave their shapes out (shape inference
computes them), some models are wrong on purpose, and the installed onnx (1.12)
knows opsets up to 17."""
import os
import numpy as np
import onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs", "cov")
F, I64, B = T.FLOAT, T.INT64, T.BOOL


def vi(name, t, shape):
    return h.make_tensor_value_info(name, t, shape)


def save(name, nodes, inputs, outputs, inits=None, opset=13):
    inits = inits or {}
    g = h.make_graph(nodes, name, inputs, outputs, [nh.from_array(v, k) for k, v in inits.items()])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)], producer_name="tessel-tests")
    m.ir_version = 7
    onnx.save(m, os.path.join(OUT, name + ".onnx"))


def i64(*v):
    return np.array(v, np.int64)


def f32(*v):
    return np.array(v, np.float32)


X = [vi("x", F, [2, 3, 4, 5])]
Y = [vi("y", F, None)]

# Reductions: axes attribute (13) and input (18); ReduceSum input from 13
save("reducemean_13", [h.make_node("ReduceMean", ["x"], ["y"], name="r", axes=[-1, 1], keepdims=0)], X, Y, opset=13)
save("reducemean_18", [h.make_node("ReduceMean", ["x", "ax"], ["y"], name="r", keepdims=1)], X, Y, {"ax": i64(-1, 1)}, opset=18)
save("reducemean_18_all", [h.make_node("ReduceMean", ["x"], ["y"], name="r")], X, Y, opset=18)
save("reducemean_18_noop", [h.make_node("ReduceMean", ["x"], ["y"], name="r", noop_with_empty_axes=1)], X, Y, opset=18)
save("reducesum_11", [h.make_node("ReduceSum", ["x"], ["y"], name="r", axes=[2])], X, Y, opset=11)
save("reducesum_13", [h.make_node("ReduceSum", ["x", "ax"], ["y"], name="r")], X, Y, {"ax": i64(2)}, opset=13)
save("reducemax_bad_axis", [h.make_node("ReduceMax", ["x"], ["y"], name="r", axes=[4])], X, Y, opset=13)
save("argmax_12", [h.make_node("ArgMax", ["x"], ["y"], name="a", axis=-1, keepdims=0, select_last_index=1)], X,
     [vi("y", I64, None)], opset=12)

# Split: attribute (11), input (13), num_outputs (18), equal parts (13)
save("split_11", [h.make_node("Split", ["x"], ["a", "b"], name="s", axis=1, split=[1, 2])], X,
     [vi("a", F, None), vi("b", F, None)], opset=11)
save("split_13", [h.make_node("Split", ["x", "sp"], ["a", "b"], name="s", axis=3)], X,
     [vi("a", F, None), vi("b", F, None)], {"sp": i64(2, 3)}, opset=13)
save("split_13_equal", [h.make_node("Split", ["x"], ["a", "b"], name="s", axis=2)], X,
     [vi("a", F, None), vi("b", F, None)], opset=13)
save("split_18", [h.make_node("Split", ["x"], ["a", "b"], name="s", axis=3, num_outputs=2)], X,
     [vi("a", F, None), vi("b", F, None)], opset=18)

# Slice: attributes (9), inputs (13) with INT64_MAX, negative steps; computed starts
save("slice_9", [h.make_node("Slice", ["x"], ["y"], name="s", starts=[1, -3], ends=[100, -1], axes=[1, 3])], X, Y, opset=9)
save("slice_13", [h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], name="s")], X, Y,
     {"st": i64(-1, 0), "en": i64(-9223372036854775807, 9223372036854775807), "ax": i64(3, 2), "sp": i64(-2, 3)}, opset=13)
save("slice_13_shape", [
    h.make_node("Shape", ["x"], ["sh"], name="shape"),
    h.make_node("Gather", ["sh", "one"], ["n"], name="gather", axis=0),
    h.make_node("Unsqueeze", ["n", "zero"], ["en"], name="unsq"),
    h.make_node("Slice", ["x", "st", "en", "ax"], ["y"], name="s")], X, Y,
    {"one": np.array(1, np.int64), "zero": i64(0), "st": i64(1), "ax": i64(1)}, opset=13)
save("slice_13_nonconst", [h.make_node("Slice", ["x", "st", "en"], ["y"], name="s")],
     X + [vi("st", I64, [1])], Y, {"en": i64(2)}, opset=13)

# Pad: attribute (2), input (11), axes input (18)
save("pad_2", [h.make_node("Pad", ["x"], ["y"], name="p", pads=[0, 0, 1, 1, 0, 0, 1, 1], value=1.5)], X, Y, opset=2)
save("pad_11", [h.make_node("Pad", ["x", "pads", "cv"], ["y"], name="p")], X, Y,
     {"pads": i64(0, 0, 1, 1, 0, 0, 1, 1), "cv": f32(1.5)}, opset=11)
save("pad_18", [h.make_node("Pad", ["x", "pads", "cv", "axes"], ["y"], name="p")], X, Y,
     {"pads": i64(1, 1, 1, 1), "cv": f32(1.5), "axes": i64(2, 3)}, opset=18)

# Resize 10/11/13/19, Upsample 9, bad mode
X4 = [vi("x", F, [1, 2, 3, 4])]
save("resize_10", [h.make_node("Resize", ["x", "sc"], ["y"], name="r", mode="nearest")], X4, Y,
     {"sc": f32(1, 1, 2, 2)}, opset=10)
save("resize_11", [h.make_node("Resize", ["x", "roi", "sc", "sz"], ["y"], name="r", mode="linear",
                               coordinate_transformation_mode="align_corners")], X4, Y,
     {"roi": f32(), "sc": f32(), "sz": i64(1, 2, 5, 7)}, opset=11)
save("resize_13", [h.make_node("Resize", ["x", "", "sc"], ["y"], name="r", mode="cubic")], X4, Y,
     {"sc": f32(1, 1, 1.5, 0.5)}, opset=13)
save("resize_19", [h.make_node("Resize", ["x", "", "", "sz"], ["y"], name="r", axes=[2, 3],
                               keep_aspect_ratio_policy="not_larger",
                               coordinate_transformation_mode="half_pixel_symmetric")], X4, Y,
     {"sz": i64(6, 6)}, opset=19)
save("resize_crop", [h.make_node("Resize", ["x", "roi", "sc"], ["y"], name="r", mode="linear",
                                 coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=-1.0)],
     X4, Y, {"roi": f32(0, 0, 0.25, 0, 1, 1, 0.75, 1), "sc": f32(1, 1, 2, 2)}, opset=13)
save("resize_crop_axes", [h.make_node("Resize", ["x", "roi", "", "sz"], ["y"], name="r", axes=[2, 3],
                                      coordinate_transformation_mode="tf_crop_and_resize")], X4, Y,
     {"roi": f32(0, 0, 1, 1), "sz": i64(6, 6)}, opset=18)
save("resize_antialias", [h.make_node("Resize", ["x", "", "sc"], ["y"], name="r", antialias=1, mode="linear")], X4, Y,
     {"sc": f32(1, 1, 0.5, 0.5)}, opset=18)
save("upsample_9", [h.make_node("Upsample", ["x", "sc"], ["y"], name="u", mode="nearest")], X4, Y,
     {"sc": f32(1, 1, 2, 3)}, opset=9)
save("upsample_7", [h.make_node("Upsample", ["x"], ["y"], name="u", mode="linear", scales=[1.0, 1.0, 2.0, 2.0])], X4, Y,
     opset=7)

# Softmax/LogSoftmax 11 and 13; Clip 6 and 13; Gelu 20; LayerNormalization 17
save("logsoftmax_11", [h.make_node("LogSoftmax", ["x"], ["y"], name="s")], X, Y, opset=11)
save("logsoftmax_13", [h.make_node("LogSoftmax", ["x"], ["y"], name="s")], X, Y, opset=13)
save("clip_6", [h.make_node("Clip", ["x"], ["y"], name="c", min=-1.0, max=1.0)], X, Y, opset=6)
save("clip_13", [h.make_node("Clip", ["x", "", "hi"], ["y"], name="c")], X, Y, {"hi": f32(2.0)}, opset=13)
save("gelu_20", [h.make_node("Gelu", ["x"], ["y"], name="g", approximate="tanh")], X, Y, opset=20)
save("layernorm_17", [h.make_node("LayerNormalization", ["x", "s", "b"], ["y"], name="ln", axis=-2, epsilon=1e-3)], X, Y,
     {"s": np.ones((4, 5), np.float32), "b": np.zeros(5, np.float32)}, opset=17)
save("layernorm_17_mean_used", [
    h.make_node("LayerNormalization", ["x", "s"], ["y0", "mean"], name="ln"),
    h.make_node("Identity", ["mean"], ["y"], name="id")], X, Y, {"s": np.ones(5, np.float32)}, opset=17)

# ConvTranspose with output_shape and with auto_pad; DepthToSpace/SpaceToDepth
save("convtranspose_outshape", [h.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct", strides=[2, 2],
                                            output_shape=[7, 9])], X4, Y,
     {"w": np.ones((2, 3, 3, 3), np.float32)}, opset=11)
save("convtranspose_same", [h.make_node("ConvTranspose", ["x", "w", "b"], ["y"], name="ct", strides=[2, 2],
                                        auto_pad="SAME_UPPER", output_padding=[1, 1])], X4, Y,
     {"w": np.ones((2, 3, 3, 3), np.float32), "b": np.zeros(3, np.float32)}, opset=11)
save("depthtospace_crd", [h.make_node("DepthToSpace", ["x"], ["y"], name="d", blocksize=2, mode="CRD")],
     [vi("x", F, [1, 8, 2, 3])], Y, opset=13)
save("spacetodepth", [h.make_node("SpaceToDepth", ["x"], ["y"], name="d", blocksize=2)],
     [vi("x", F, [1, 2, 4, 6])], Y, opset=13)

# Elementwise: comparisons give bool, Where broadcasts three ways, PRelu, n-ary Max
save("where_equal", [
    h.make_node("Equal", ["x", "z"], ["c"], name="eq"),
    h.make_node("Where", ["c", "x", "w"], ["y"], name="where")],
    [vi("x", F, [2, 1, 4]), vi("z", F, [3, 1]), vi("w", F, [1])], Y, opset=13)
save("greater_bad_bcast", [h.make_node("Greater", ["x", "z"], ["y"], name="gt")],
     [vi("x", F, [2, 3]), vi("z", F, [4])], [vi("y", B, None)], opset=13)
save("max_3", [h.make_node("Max", ["a", "b", "c"], ["y"], name="mx")],
     [vi("a", F, [2, 3]), vi("b", F, [3]), vi("c", F, [1, 1])], Y, opset=13)
save("prelu_9", [h.make_node("PRelu", ["x", "s"], ["y"], name="pr")], X, Y, {"s": np.ones((3, 1, 1), np.float32)}, opset=9)
save("add_6_broadcast", [h.make_node("Add", ["x", "b"], ["y"], name="add", broadcast=1)], X, Y,
     {"b": np.ones(5, np.float32)}, opset=6)
save("relu_1_consumed", [h.make_node("Relu", ["x"], ["y"], name="relu", consumed_inputs=[0])], X, Y, opset=1)
save("gap_1", [h.make_node("GlobalAveragePool", ["x"], ["y"], name="gap")], X, Y, opset=1)
save("batchnorm_6", [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn", is_test=1,
                                 spatial=1, epsilon=1e-3)], X, Y,
     {k: np.ones(3, np.float32) for k in ("s", "b", "m", "v")}, opset=6)
save("cast_19", [h.make_node("Cast", ["x"], ["y"], name="cast", to=T.INT32, saturate=1)], X, [vi("y", T.INT32, None)],
     opset=19)

# Expand/Tile with constant inputs; ConstantOfShape and Range fold; Reshape from a Shape chain
save("expand_tile", [
    h.make_node("Expand", ["x", "sh"], ["e"], name="expand"),
    h.make_node("Tile", ["e", "rep"], ["y"], name="tile")], [vi("x", F, [3, 1])], Y,
    {"sh": i64(2, 3, 4), "rep": i64(1, 2, 1)}, opset=13)
save("constantofshape_range", [
    h.make_node("ConstantOfShape", ["sh"], ["c"], name="cos", value=nh.from_array(i64(7), "v")),
    h.make_node("Range", ["st", "lim", "dl"], ["r"], name="range"),
    h.make_node("Add", ["c", "r"], ["y"], name="add")], [], [vi("y", I64, None)],
    {"sh": i64(2, 3), "st": np.array(1, np.int64), "lim": np.array(7, np.int64), "dl": np.array(2, np.int64)}, opset=13)
save("constantofshape_shape", [
    h.make_node("Shape", ["x"], ["sh"], name="shape"),
    h.make_node("ConstantOfShape", ["sh"], ["c"], name="cos", value=nh.from_array(f32(0.5), "v")),
    h.make_node("Mul", ["x", "c"], ["y"], name="mul")], X, Y, opset=13)
save("range_nonconst", [h.make_node("Range", ["st", "lim", "dl"], ["y"], name="range")],
     [vi("st", F, [])], Y, {"lim": np.array(7, np.float32), "dl": np.array(2, np.float32)}, opset=13)

# Operators outside the table, and operators at an opset that does not define them
save("unknown_op", [h.make_node("Einsum", ["x", "x"], ["y"], name="es", equation="ij,ij->ij")],
     [vi("x", F, [2, 2])], Y, opset=12)
save("upsample_10", [h.make_node("Upsample", ["x", "sc"], ["y"], name="u")], X4, Y, {"sc": f32(1, 1, 2, 2)}, opset=9)
m = onnx.load(os.path.join(OUT, "upsample_10.onnx"))
m.opset_import[0].version = 10
onnx.save(m, os.path.join(OUT, "upsample_10.onnx"))
save("reshape_bind", [h.make_node("Reshape", ["x", "s"], ["y"], name="r")],
     [vi("x", F, [2, 3]), vi("s", I64, [2])], Y, opset=13)
np.save(os.path.join(OUT, "reshape_bind.s.npy"), i64(3, 2))
# Range of a Shape computation (torch.arange(x.size(1))) folds at import
save("range_shape", [
    h.make_node("Shape", ["x"], ["sh"], name="shape"),
    h.make_node("Gather", ["sh", "one"], ["n"], name="gather", axis=0),
    h.make_node("Range", ["zero", "n", "one"], ["r"], name="range"),
    h.make_node("Unsqueeze", ["r", "ax"], ["y"], name="unsq")], X, [vi("y", I64, None)],
    {"one": np.array(1, np.int64), "zero": np.array(0, np.int64), "ax": i64(0)}, opset=13)
# Reshape-1 (shape attribute) and Pad-1 (paddings)
save("reshape_1", [h.make_node("Reshape", ["x"], ["y"], name="r", shape=[6, -1])], X, Y, opset=1)
save("pad_1", [h.make_node("Pad", ["x"], ["y"], name="p", paddings=[0, 0, 1, 0, 0, 0, 0, 1])], X, Y, opset=1)
# Tile-1: tiles along axis (scalar inputs)
save("tile_1", [h.make_node("Tile", ["x", "t", "a"], ["y"], name="tile")], X, Y,
     {"t": np.array(3, np.int64), "a": np.array(1, np.int64)}, opset=1)
# Dropout's mask as a graph output
save("dropout_mask_output", [h.make_node("Dropout", ["x"], ["y", "mask"], name="drop")], X,
     Y + [vi("mask", B, None)], opset=13)


# A PyTorch export (opset 17, no constant folding): LayerNorm, erf GELU,
# Slice/Expand/Where from Shape arithmetic, Resize by scale and by size,
# ConvTranspose, Split, ArgMax. Every shape computation must fold.
def torch_export():
    import torch
    import torch.nn as nn
    import torch.nn.functional as Fn

    class M(nn.Module):
        def __init__(s):
            super().__init__()
            s.ln, s.fc = nn.LayerNorm(8), nn.Linear(8, 8)
            s.ct = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)

        def forward(s, x, img):
            n = x.shape[1]
            y = Fn.gelu(s.ln(x))[:, 1:n - 1, :].mean(dim=-1, keepdim=True).expand(-1, -1, 8)
            m = torch.where(y > 0, y, torch.zeros_like(y))
            up = Fn.interpolate(img, scale_factor=2, mode="nearest")
            up2 = Fn.interpolate(img, size=(5, 7), mode="bilinear", align_corners=False)
            a, b = torch.split(s.ct(img), [1, 1], dim=1)
            return s.fc(m).softmax(-1), up, up2, a.sum(dim=(2, 3)), b.argmax(dim=1)

    torch.manual_seed(3)
    torch.onnx.export(M().eval(), (torch.randn(2, 6, 8), torch.randn(1, 4, 4, 4)),
                      os.path.join(OUT, "torch_shape_ops.onnx"), opset_version=17, do_constant_folding=False)


torch_export()
