"""Models for the end-to-end suite (`make test-run`): small enough
to run on the cycle-accurate SoC in a test, with every kind of kernel the
lowering emits and a firmware fallback op.  Run with /usr/bin/python3;
outputs are committed.

kinds: 1x5x9x9 (5 channels: not a multiple of any DIM; odd spatial size)
  -> Conv 3x3 p1 (12) + BN + ReLU            conv kernel (bias, requant, activation)
  -> depthwise Conv 3x3 p1 (12) + ReLU       depthwise kernel
  -> Conv 1x1 (12) + residual Add            conv with the residual add
  -> MaxPool 2x2 (4x4)                       max pool
  -> Conv 3x3 s2 p1 (16) + ReLU (2x2)        stride 2
  -> GlobalAveragePool                       vector kernel
  -> Flatten -> Gemm (10) -> Softmax         matmul kernel, Softmax fallback

stem3: 1x3x21x19 -> Conv 3x3 s2 (12) + ReLU + MaxPool 2 -> Conv 1x1 (10)
stem1: 1x1x19x17 -> Conv 5x5 s2 (8) + ReLU -> Conv 3x3 p1 (8)
stem7: 1x3x23x21 -> Conv 7x7 s2 p3 (16) + ReLU + MaxPool 3 s2 p1   (resnet's stem)
stemp: 1x3x20x22 -> Conv 3x3 s2 p1 (12) + ReLU6                    (mobilenet's)
  first convs with few input channels and stride 2: read packed (lower_conv.c,
  "Packed input"; odd widths, so lines end inside a row; stem7 and stemp
  with border columns over the padding, stem7 on both sides)

Writes, under run/ (MANIFEST section `run`):
  kinds.onnx, kinds.in0.npy / kinds.out0.npy   the model, one input, torch's output
  kinds.calib.npy                              16 samples [16,5,9,9] (`tessel --calib`)
  kinds.batch.npy                              4 inputs [4,5,9,9] (a batch for `tessel run`)
  stem3.*, stem1.*, stem7.*, stemp.*           likewise (calib 16 samples, batch 4)
"""
import io
import os

import numpy as np
import onnx
import torch

from common import Writer

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 88


class Kinds(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(5, 12, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(12)
        self.dw = torch.nn.Conv2d(12, 12, 3, padding=1, groups=12)
        self.pw = torch.nn.Conv2d(12, 12, 1)
        self.conv2 = torch.nn.Conv2d(12, 16, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, v):
        v = torch.relu(self.bn1(self.conv1(v)))
        v = v + self.pw(torch.relu(self.dw(v)))
        v = torch.nn.functional.max_pool2d(v, 2)
        v = torch.relu(self.conv2(v))
        v = torch.nn.functional.adaptive_avg_pool2d(v, 1)
        return torch.softmax(self.fc(torch.flatten(v, 1)), dim=1)


class Stem3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 12, 3, stride=2)
        self.pw = torch.nn.Conv2d(12, 10, 1)

    def forward(self, v):
        return self.pw(torch.nn.functional.max_pool2d(torch.relu(self.conv(v)), 2))


class Stem1(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 8, 5, stride=2)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1)

    def forward(self, v):
        return self.conv2(torch.relu(self.conv(v)))


class Stem7(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 7, stride=2, padding=3)

    def forward(self, v):
        return torch.nn.functional.max_pool2d(torch.relu(self.conv(v)), 3, 2, 1)


class StemP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 12, 3, stride=2, padding=1)

    def forward(self, v):
        return torch.clamp(self.conv(v), 0, 6)


def export(w, rng, name, model, shape, comment, out="out"):
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    calib = rng.uniform(-1, 1, (16,) + shape[1:]).astype(np.float32)
    batch = rng.uniform(-1, 1, (4,) + shape[1:]).astype(np.float32)
    buf = io.BytesIO()
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy()
        torch.onnx.export(model, (torch.from_numpy(x),), buf, opset_version=13, input_names=["input"],
                          output_names=[out], do_constant_folding=True)
    m = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(m, full_check=True)
    w.add(name, m, [x], [y], comment=comment)
    np.save(os.path.join(HERE, "run", name + ".calib.npy"), calib)
    np.save(os.path.join(HERE, "run", name + ".batch.npy"), batch)


def main():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    model = Kinds()
    with torch.no_grad():
        model.train()
        for _ in range(4):
            model(torch.randn(8, 5, 9, 9))
    model.eval()
    w = Writer("run")
    export(w, rng, "kinds", model, (1, 5, 9, 9), "every kernel kind and a Softmax fallback, 5 channels, 9x9", "probs")
    export(w, rng, "stem3", Stem3().eval(), (1, 3, 21, 19), "3 input channels, 3x3 stride 2, no padding: read packed")
    export(w, rng, "stem1", Stem1().eval(), (1, 1, 19, 17), "1 input channel, 5x5 stride 2, no padding: read packed")
    export(w, rng, "stem7", Stem7().eval(), (1, 3, 23, 21), "7x7 stride 2 pad 3: read packed, border columns both sides")
    export(w, rng, "stemp", StemP().eval(), (1, 3, 20, 22), "3x3 stride 2 pad 1: read packed, a left border column")
    w.finish()


main()
