"""The digits model: a small CNN for scikit-learn's 8x8 handwritten digits,
the bundled model of the end-to-end issue (8) and the accuracy check of the
quantisation issue (6).  Run with /usr/bin/python3; outputs are committed.

Data: sklearn.datasets.load_digits (1797 images of 8x8 pixels, values 0..16,
bundled with scikit-learn: no download), scaled to [0, 1].  A fixed
permutation splits it into 1437 training and 360 test images.

Network (every op on the NPU path except the final Softmax, which stays a
firmware fallback on purpose):
  1x1x8x8 -> Conv 3x3 p1 (8) -> ReLU -> Conv 3x3 s2 p1 (16) -> ReLU (4x4)
  -> Conv 3x3 p1 (32) -> ReLU -> MaxPool 2x2 (2x2) -> GlobalAveragePool
  -> Flatten -> Gemm (10) -> Softmax

Trained with torch on the CPU, one thread, fixed seeds (a few seconds);
exported with torch.onnx.export, opset 13.

Writes, under digits/ (MANIFEST section `digits`):
  digits_cnn.onnx                 the model
  digits_cnn.in0.npy / .out0.npy  test image 0 and torch's output for it
  digits.calib.npy                64 training images [64,1,8,8] f32 (`tessel --calib`)
  digits.test.npy                 the 360 test images [360,1,8,8] f32
  digits.labels.npy               their labels [360] int64
  digits.test16.npy, digits.labels16.npy   the first 16 of them (suites on slow engines)
"""
import os
import sys

import numpy as np
import torch
from sklearn.datasets import load_digits

from common import Writer

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "digits")
SEED = 8
N_TEST = 360
N_CALIB = 64
EPOCHS = 40
BATCH = 64


class DigitsCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.conv3 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = self.pool(torch.relu(self.conv3(x)))
        x = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return torch.softmax(self.fc(x), dim=1)

    def logits(self, x):  # training uses the logits (log-softmax inside the loss)
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = self.pool(torch.relu(self.conv3(x)))
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


def split():
    d = load_digits()
    x = (d.images.astype(np.float32) / 16.0).reshape(-1, 1, 8, 8)
    y = d.target.astype(np.int64)
    perm = np.random.default_rng(SEED).permutation(len(y))
    test, train = perm[:N_TEST], perm[N_TEST:]
    return x[train], y[train], x[test], y[test]


def train(xtr, ytr):
    torch.manual_seed(SEED)
    model = DigitsCNN()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    gen = torch.Generator().manual_seed(SEED)
    xt, yt = torch.from_numpy(xtr), torch.from_numpy(ytr)
    for _ in range(EPOCHS):
        order = torch.randperm(len(yt), generator=gen)
        for i in range(0, len(yt), BATCH):
            idx = order[i:i + BATCH]
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model.logits(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
    return model.eval()


def main():
    torch.set_num_threads(1)  # same bytes on every run
    torch.use_deterministic_algorithms(True)
    xtr, ytr, xte, yte = split()
    model = train(xtr, ytr)
    with torch.no_grad():
        acc = (model(torch.from_numpy(xte)).argmax(1).numpy() == yte).mean()
    print("digits: float test accuracy %.2f%% (%d test images)" % (100 * acc, len(yte)))
    if acc < 0.95:
        sys.exit("digits: float accuracy below 95%: not writing")
    os.makedirs(OUT, exist_ok=True)
    x0 = xte[:1]
    path = os.path.join(OUT, "digits_cnn.onnx")
    torch.onnx.export(model, torch.from_numpy(x0), path, opset_version=13,
                      input_names=["image"], output_names=["probs"])
    with torch.no_grad():
        y0 = model(torch.from_numpy(x0)).numpy()
    w = Writer("digits")
    w.add("digits_cnn", None, [x0], [y0],
          comment="8x8 digits CNN (gen_digits.py): conv-relu x3, maxpool, gap, gemm, softmax; "
                  "float test accuracy %.2f%%" % (100 * acc))
    np.save(os.path.join(OUT, "digits.calib.npy"), np.ascontiguousarray(xtr[:N_CALIB]))
    np.save(os.path.join(OUT, "digits.test.npy"), np.ascontiguousarray(xte))
    np.save(os.path.join(OUT, "digits.labels.npy"), np.ascontiguousarray(yte))
    np.save(os.path.join(OUT, "digits.test16.npy"), np.ascontiguousarray(xte[:16]))
    np.save(os.path.join(OUT, "digits.labels16.npy"), np.ascontiguousarray(yte[:16]))
    w.finish()


if __name__ == "__main__":
    main()
