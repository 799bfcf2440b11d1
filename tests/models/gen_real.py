#!/usr/bin/python3
"""Generate tests/models/real/: real architectures as a user brings them,
exported from PyTorch 1.13 / torchvision 0.14 the usual way
(torch.onnx.export, opset 17, eval mode, batch 1, constant folding on).

Random weights (fixed seeds), made fit for int8 by torchprep.prepare:
BatchNorm statistics settled on random data, weights rounded to four
significant bits, residual branches scaled by 1/4 (see gen_nets.py).
Widths and class counts are reduced where the constructor allows, to keep
the committed files small; the structure (and so the operators) is the
architecture's.  Per model NAME:

  real/NAME.onnx        the model
  real/NAME.in0.npy     one input sample (multiples of 1/64 in [-1, 1])
  real/NAME.out0.npy    PyTorch's output for it
  real/NAME.calib.npy   8 calibration samples, drawn like in0
  real/NAME.eval.npy    4 held-out samples, in0 first (for top-1 agreement):
                        of 32 drawn, those with the clearest top-1 margin
  real/NAME.eval.out.npy  PyTorch's outputs for them

plus a MANIFEST section "real" (kind=float).  tests/real-nets/ runs them
through the compiler on every target (make test-real-nets).

Run: /usr/bin/python3 tests/models/gen_real.py  (or `make models`)
"""
import io
import os
import sys
import zlib

import numpy as np
import onnx
import torch
import torchvision
from torchvision.models import efficientnet, regnet
from torchvision.models.googlenet import BasicConv2d, Inception

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torchprep  # noqa: E402
from common import Writer, activations  # noqa: E402

SEED = 20261202
CALIB_SAMPLES = 8
EVAL_SAMPLES = 4
EVAL_POOL = 32  # drawn, of which the EVAL_SAMPLES clearest are kept
W = Writer("real")
tv = torchvision.models


class InceptionMini(torch.nn.Module):
    """GoogLeNet's structure at a small width, from torchvision's own
    blocks: a BasicConv2d stem, ceil-mode max pools, two Inception blocks
    (1x1, 1x1-3x3, 1x1-3x3, maxpool-1x1 branches concatenated), global
    average pool, linear."""

    def __init__(self, num_classes=100):
        super().__init__()
        self.conv1 = BasicConv2d(3, 16, kernel_size=7, stride=2, padding=3)
        self.pool1 = torch.nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.conv2 = BasicConv2d(16, 32, kernel_size=3, padding=1)
        self.pool2 = torch.nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inc3a = Inception(32, 16, 16, 24, 4, 8, 8)
        self.inc3b = Inception(56, 24, 24, 32, 8, 16, 16)
        self.pool3 = torch.nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inc4a = Inception(88, 32, 16, 32, 4, 16, 16)
        self.avgpool = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.fc = torch.nn.Linear(96, num_classes)

    def forward(self, x):
        x = self.pool2(self.conv2(self.pool1(self.conv1(x))))
        x = self.pool3(self.inc3b(self.inc3a(x)))
        x = self.avgpool(self.inc4a(x))
        return self.fc(torch.flatten(x, 1))


class DsCnn(torch.nn.Module):
    """MLPerf Tiny keyword spotting DS-CNN (Zhang et al. 2017, "Hello
    Edge"): 49x10 MFCC input, a 10x4 stride-2 conv, four depthwise-separable
    blocks (3x3 depthwise, BN, ReLU, 1x1, BN, ReLU), average pool, 12
    classes."""

    def __init__(self, width=64, classes=12):
        super().__init__()
        layers = [torch.nn.Conv2d(1, width, (10, 4), stride=2, padding=(5, 1), bias=False),
                  torch.nn.BatchNorm2d(width), torch.nn.ReLU()]
        for _ in range(4):
            layers += [torch.nn.Conv2d(width, width, 3, padding=1, groups=width, bias=False),
                       torch.nn.BatchNorm2d(width), torch.nn.ReLU(),
                       torch.nn.Conv2d(width, width, 1, bias=False),
                       torch.nn.BatchNorm2d(width), torch.nn.ReLU()]
        self.features = torch.nn.Sequential(*layers)
        self.pool = torch.nn.AvgPool2d((25, 5))
        self.fc = torch.nn.Linear(width, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


class AnomalyAe(torch.nn.Module):
    """MLPerf Tiny anomaly detection (ToyADMOS) autoencoder: 640 inputs
    (5 frames x 128 log-mel bins), Linear+BatchNorm1d+ReLU layers of 128
    around an 8-unit bottleneck, 640 outputs."""

    def __init__(self, n=640, hidden=128, code=8):
        super().__init__()
        sizes = [n, hidden, hidden, hidden, hidden, code, hidden, hidden, hidden, hidden]
        layers = []
        for a, b in zip(sizes, sizes[1:]):
            layers += [torch.nn.Linear(a, b), torch.nn.BatchNorm1d(b), torch.nn.ReLU()]
        layers.append(torch.nn.Linear(hidden, n))
        self.net = torch.nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class M5Audio(torch.nn.Module):
    """A raw-waveform keyword spotter after Dai et al.'s M5 (2017), 1-D
    throughout, as an audio model is exported: a wide stride-4 Conv1d,
    BatchNorm1d, MaxPool1d, a grouped Conv1d, GELU, GroupNorm (exported as
    Reshape, InstanceNormalization, Reshape, Mul, Add), a global average
    pool, 12 classes."""

    def __init__(self, classes=12):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv1d(1, 16, 40, stride=4, padding=18), torch.nn.BatchNorm1d(16), torch.nn.ReLU(),
            torch.nn.MaxPool1d(4),
            torch.nn.Conv1d(16, 32, 3, padding=1), torch.nn.BatchNorm1d(32), torch.nn.ReLU(),
            torch.nn.MaxPool1d(2),
            torch.nn.Conv1d(32, 32, 3, padding=1, groups=8), torch.nn.GELU(),
            torch.nn.GroupNorm(4, 32))
        self.fc = torch.nn.Linear(32, classes)

    def forward(self, x):
        return self.fc(torch.nn.functional.adaptive_avg_pool1d(self.features(x), 1).flatten(1))


def efficientnet_b0_half(num_classes):
    """torchvision's EfficientNet at B0's structure with width and depth
    multipliers 0.5."""
    setting, last = efficientnet._efficientnet_conf("efficientnet_b0", width_mult=0.5,
                                                    depth_mult=0.5)
    return efficientnet.EfficientNet(setting, 0.2, last_channel=last, num_classes=num_classes)


def regnet_y_tiny(num_classes):
    """torchvision's RegNet with RegNetY's blocks (group convs of width 8,
    squeeze-excitation 0.25) at a quarter of regnet_y_400mf's depth and
    width."""
    params = regnet.BlockParams.from_init_params(depth=6, w_0=16, w_a=12.0, w_m=2.5,
                                                 group_width=8, se_ratio=0.25)
    return regnet.RegNet(params, num_classes=num_classes)


def vit_tiny(num_classes):
    """torchvision's VisionTransformer: 8x8 patches of a 32x32 image,
    class token, 2 encoder layers of 2 heads at width 32, GELU MLP of 64."""
    model = tv.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                                 hidden_dim=32, mlp_dim=64, num_classes=num_classes)
    # torchvision starts the head and the class token at zero (the output
    # would be the head's zero bias): draw them like the other weights.
    model.heads.head.reset_parameters()
    torch.nn.init.normal_(model.class_token, std=0.02)
    return model


# name: (constructor, input shape, opset, what)
MODELS = [
    ("shufflenet_v2_x0_5", lambda: tv.shufflenet_v2_x0_5(weights=None, num_classes=100),
     (1, 3, 64, 64), 17, "channel shuffle (Reshape/Transpose), Split, Concat"),
    ("mobilenet_v3_small", lambda: tv.mobilenet_v3_small(weights=None, width_mult=0.5,
                                                         num_classes=100),
     (1, 3, 64, 64), 17, "width 0.5: HardSwish, HardSigmoid, squeeze-excitation Mul"),
    ("efficientnet_b0_half", lambda: efficientnet_b0_half(100),
     (1, 3, 64, 64), 17, "width/depth 0.5: SiLU (Sigmoid, Mul), squeeze-excitation"),
    ("mnasnet0_5", lambda: tv.mnasnet0_5(weights=None, num_classes=100),
     (1, 3, 64, 64), 17, "inverted residuals, 5x5 depthwise"),
    ("densenet121_g8", lambda: tv.DenseNet(growth_rate=8, block_config=(6, 12, 24, 16),
                                           num_init_features=16, num_classes=100),
     (1, 3, 32, 32), 17, "densenet121's blocks at growth rate 8: Concat of up to 25 inputs"),
    ("regnet_y_tiny", lambda: regnet_y_tiny(100),
     (1, 3, 64, 64), 17, "group convs, squeeze-excitation (Sigmoid, Mul)"),
    ("inception_mini", lambda: InceptionMini(100),
     (1, 3, 64, 64), 17, "GoogLeNet's Inception blocks: four-branch Concat, ceil-mode MaxPool"),
    ("vit_tiny", lambda: vit_tiny(10),
     (1, 3, 32, 32), 17, "LayerNormalization, attention (MatMul of two activations, Softmax), "
     "GELU (Erf), class token (Expand, Concat)"),
    ("vit_tiny_op13", lambda: vit_tiny(10),
     (1, 3, 32, 32), 13, "vit_tiny at opset 13: LayerNorm decomposed (ReduceMean, Sub, Pow, "
     "Sqrt, Div)"),
    ("ds_cnn", lambda: DsCnn(),
     (1, 1, 49, 10), 17, "MLPerf Tiny keyword spotting: 10x4 stride-2 conv, depthwise-separable"),
    ("anomaly_ae", lambda: AnomalyAe(),
     (1, 640), 17, "MLPerf Tiny anomaly detection: Gemm, BatchNormalization on [1, 128], ReLU"),
    ("m5_audio", lambda: M5Audio(),
     (1, 1, 1024), 17, "1-D audio: Conv1d, BatchNorm1d, MaxPool1d, grouped Conv1d, GELU, GroupNorm"),
]


def export(name, model, shape, opset, what, rng):
    calib = activations(rng, (CALIB_SAMPLES,) + shape[1:], -64, 64)  # [-1, 1]
    pool = activations(rng, (EVAL_POOL,) + shape[1:], -64, 64)
    with torch.no_grad():
        y_pool = model(torch.from_numpy(pool)).numpy()
    evals = pool[torchprep.clearest(y_pool, EVAL_SAMPLES)]
    x = evals[:1]
    buf = io.BytesIO()
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy()
        y_eval = model(torch.from_numpy(evals)).numpy()
    # Outside no_grad, as a user calls it: under no_grad, nn.MultiheadAttention
    # takes its fused path, which the exporter cannot write.
    torch.onnx.export(model, (torch.from_numpy(x),), buf, opset_version=opset,
                      input_names=["input"], output_names=["output"])
    m = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(m, full_check=True)
    params = sum(p.numel() for p in model.parameters())
    W.add(name, m, [x], [y], comment="%s: %s; %d parameters, input %s" % (
        name, what, params, "x".join(map(str, shape))))
    np.save(os.path.join(W.folder, name + ".calib.npy"), calib)
    np.save(os.path.join(W.folder, name + ".eval.npy"), evals)
    np.save(os.path.join(W.folder, name + ".eval.out.npy"), y_eval)
    print("%-22s %8d parameters  %7.1f kB" % (name, params, len(buf.getvalue()) / 1024))


def main():
    rng = np.random.default_rng(SEED)
    for name, ctor, shape, opset, what in MODELS:
        # the weights depend on the architecture only: vit_tiny_op13 is vit_tiny
        seed = SEED + zlib.crc32(name.replace("_op13", "").encode()) % 10000
        torch.manual_seed(seed)
        model = torchprep.prepare(ctor(), (4,) + shape[1:], seed, residual_scale=0.25)
        export(name, model, shape, opset, what, rng)
    W.finish()


if __name__ == "__main__":
    main()
