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

Writes, under run/ (MANIFEST section `run`):
  kinds.onnx, kinds.in0.npy / kinds.out0.npy   the model, one input, torch's output
  kinds.calib.npy                              16 samples [16,5,9,9] (`tessel --calib`)
  kinds.batch.npy                              4 inputs [4,5,9,9] (a batch for `tessel run`)
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


def main():
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    model = Kinds()
    with torch.no_grad():
        model.train()
        for _ in range(4):
            model(torch.randn(8, 5, 9, 9))
    model.eval()
    x = rng.uniform(-1, 1, (1, 5, 9, 9)).astype(np.float32)
    calib = rng.uniform(-1, 1, (16, 5, 9, 9)).astype(np.float32)
    batch = rng.uniform(-1, 1, (4, 5, 9, 9)).astype(np.float32)
    buf = io.BytesIO()
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy()
        torch.onnx.export(model, (torch.from_numpy(x),), buf, opset_version=13, input_names=["input"],
                          output_names=["probs"], do_constant_folding=True)
    m = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(m, full_check=True)
    w = Writer("run")
    w.add("kinds", m, [x], [y], comment="every kernel kind and a Softmax fallback, 5 channels, 9x9")
    np.save(os.path.join(HERE, "run", "kinds.calib.npy"), calib)
    np.save(os.path.join(HERE, "run", "kinds.batch.npy"), batch)
    w.finish()


main()
