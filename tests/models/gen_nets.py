#!/usr/bin/python3
"""Generate tests/models/nets/: whole networks exported from PyTorch, with an
input and PyTorch's output recorded as .npy.

- resnet18, mobilenet_v2, squeezenet1_1 from torchvision 0.14: random weights
  (fixed seed), BatchNorm statistics settled on random data so activations
  stay in a sane range, eval mode, 1x3x64x64 input, opset 13.
- --residual-scale A (default 0.25): every residual branch is scaled by A
  once the BatchNorm statistics have settled (y = x + A * F(x), the scalar
  branch multiplier of SkipInit, De & Smith 2020), written into the
  branch's last BatchNorm (resnet18's bn2, mobilenet_v2's projection BN
  where the block adds its input) as gamma and beta times A.
  Why: a random-weight network with BatchNorm after every conv is chaotic
  (Yang et al., "A mean field theory of batch normalization", ICLR 2019):
  each BN subtracts the channel mean that random-sign weights make of ReLU
  outputs and rescales what is left, so a perturbation grows ~1.2x per
  layer, which trained networks do not do.  Measured with A = 1 (the nets
  before this option): white noise of 0.1% of the input's RMS moved
  mobilenet_v2's output by 34x that, relatively (resnet18 3x, squeezenet1_1
  0.4x), so even int8 weights alone (float activations) put it 27% off and
  no int8 scheme could reach the 5% target.  Trained residual nets keep
  their branches small against the identity path (the reason for zero-init
  residual BN, Goyal et al. 2017, torchvision's zero_init_residual, SkipInit
  and Fixup); A = 1/4 (a power of two, so folded weights stay few-bit)
  brings the noise gain to 1.8x (mobilenet_v2) and 0.3x (resnet18).
  squeezenet1_1 has no residual branch and is unchanged; --residual-scale 1
  rebuilds the old nets byte for byte.
- tiny_cnn: a small conv net (opset 13), quick to run end to end.
- tiny_cnn_bind: the first conv's weight is a graph input without an
  initializer; MANIFEST's binds= gives the .npy to bind it to (--bind).
- tiny_cnn_init_as_input: exported with keep_initializers_as_inputs=True at
  opset 9, as old exporters did (every initializer also in graph.input).

To keep the committed files small, every weight is rounded to a few
significant bits (a dyadic value: m * 2^e with |m| < 16), so git's zlib
compresses the float32 data several times over.

Run: /usr/bin/python3 tests/models/gen_nets.py  (or `make models`)
"""
import argparse
import io
import os
import sys

import numpy as np
import onnx
import torch
import torchvision
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torchprep  # noqa: E402
from common import Writer, activations, init, make_model, vinfo, weights  # noqa: E402
from torchprep import residual_branch_bns  # noqa: E402

SEED = 20261130
W = Writer("nets")
rng = np.random.default_rng(SEED)


def prepare(model, input_shape, residual_scale=1.0):
    """torchprep.prepare with this generator's seed."""
    return torchprep.prepare(model, input_shape, SEED, residual_scale)


def export(name, model, x, opset=13, comment=None, **kw):
    buf = io.BytesIO()
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy()
        torch.onnx.export(model, (torch.from_numpy(x),), buf, opset_version=opset,
                          input_names=["input"], output_names=["output"],
                          do_constant_folding=True, **kw)
    m = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(m, full_check=True)
    W.add(name, m, [x], [y], comment=comment)


parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--residual-scale", type=float, default=0.25,
                    help="scale of every residual branch (default 0.25; 1: no scaling)")
args = parser.parse_args()

torch.manual_seed(SEED)
shape = (1, 3, 64, 64)
for name, ctor in [("resnet18", torchvision.models.resnet18),
                   ("mobilenet_v2", torchvision.models.mobilenet_v2),
                   ("squeezenet1_1", torchvision.models.squeezenet1_1)]:
    model = prepare(ctor(weights=None), (2,) + shape[1:], args.residual_scale)
    x = activations(rng, shape, -64, 64)  # [-1, 1]
    export(name, model, x, comment="torchvision %s, random weights, 64x64%s" % (
        name, ", residual branches x%g" % args.residual_scale if residual_branch_bns(model) else ""))


class TinyCnn(torch.nn.Module):
    """conv-bn-relu, maxpool, conv-relu, global average pool, linear."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(8)
        self.conv2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, v):
        v = torch.relu(self.bn1(self.conv1(v)))
        v = torch.nn.functional.max_pool2d(v, 2)
        v = torch.relu(self.conv2(v))
        v = torch.nn.functional.adaptive_avg_pool2d(v, 1)
        return self.fc(torch.flatten(v, 1))


tiny_shape = (1, 3, 16, 16)
tiny = prepare(TinyCnn(), (4,) + tiny_shape[1:])
x = activations(rng, tiny_shape, -64, 64)
export("tiny_cnn", tiny, x, comment="small conv net, opset 13")
export("tiny_cnn_init_as_input", tiny, x, opset=9, keep_initializers_as_inputs=True,
       comment="opset 9, every initializer also listed in graph.input")


def tiny_bind():
    """x -> Conv(w: a graph input, no initializer) + b -> Relu ->
    GlobalAveragePool -> Flatten -> Gemm. Reference computed with the weight
    that binds= names."""
    x = activations(rng, (1, 3, 8, 8), -64, 64)
    w = weights(rng, (4, 3, 3, 3))
    b = weights(rng, (4,))
    fc_w = weights(rng, (5, 4))
    fc_b = weights(rng, (5,))
    with torch.no_grad():
        v = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w),
                                       torch.from_numpy(b), padding=1)
        v = torch.relu(v).mean(dim=(2, 3))
        y = (v @ torch.from_numpy(fc_w).T + torch.from_numpy(fc_b)).numpy()
    nodes = [
        helper.make_node("Conv", ["input", "conv.weight", "conv.bias"], ["c"],
                         name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["output"], name="fc",
                         transB=1),
    ]
    m = make_model("tiny_cnn_bind", nodes, [vinfo("input", x), vinfo("conv.weight", w)],
                   [vinfo("output", y)],
                   [init("conv.bias", b), init("fc.weight", fc_w), init("fc.bias", fc_b)],
                   13)
    W.add("tiny_cnn_bind", m, [x], [y], binds={"conv.weight": w},
          comment="graph input conv.weight has no initializer: bind it")


tiny_bind()
W.finish()
