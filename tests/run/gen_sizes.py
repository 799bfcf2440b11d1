#!/usr/bin/python3
"""make bench-run-sizes: the three #17 nets at other input sizes and widths,
exported as a user would (torchvision, random weights settled by
tests/models/torchprep.py as the benchmark nets are, opset 17), with 4
calibration samples and one input each.

  /usr/bin/python3 tests/run/gen_sizes.py OUT_DIR [NAME ...]

Writes OUT_DIR/NAME.onnx, NAME.calib.npy, NAME.in.npy; prints one line per
net: NAME and #17's bound on NPU cycles over the roofline bound.
"""
import os
import sys

import numpy as np
import torch
import torchvision
from torchvision import models

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import torchprep  # noqa: E402

SEED = 20261207
# name: (constructor, input size, #17's bound)
NETS = {
    "mobilenet_v2_x0.5_64": (lambda: models.mobilenet_v2(width_mult=0.5), 64, 1.30),
    "mobilenet_v2_x0.5_96": (lambda: models.mobilenet_v2(width_mult=0.5), 96, 1.30),
    "mobilenet_v2_96": (lambda: models.mobilenet_v2(), 96, 1.30),
    "mobilenet_v2_x0.75_128": (lambda: models.mobilenet_v2(width_mult=0.75), 128, 1.30),
    "mobilenet_v2_x1.4_64": (lambda: models.mobilenet_v2(width_mult=1.4), 64, 1.30),
    "mobilenet_v2_160": (lambda: models.mobilenet_v2(), 160, 1.30),
    "squeezenet1_1_96": (lambda: models.squeezenet1_1(), 96, 1.25),
    "squeezenet1_1_128": (lambda: models.squeezenet1_1(), 128, 1.25),
    "squeezenet1_1_160": (lambda: models.squeezenet1_1(), 160, 1.25),
    "resnet18_96": (lambda: models.resnet18(), 96, 1.15),
    "resnet18_128": (lambda: models.resnet18(), 128, 1.15),
    "resnet18_160": (lambda: models.resnet18(), 160, 1.15),
}


def main():
    out, names = sys.argv[1], sys.argv[2:] or list(NETS)
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(SEED)
    for name in names:
        if name not in NETS:
            sys.exit("gen_sizes.py: unknown net '%s' (known: %s)" % (name, " ".join(NETS)))
        make, size, bound = NETS[name]
        path = os.path.join(out, name)
        if not os.path.exists(path + ".onnx"):  # exported once per build folder
            torch.manual_seed(SEED)  # each net's weights whatever was exported before it
            model = torchprep.prepare(make().eval(), (4, 3, size, size), SEED, residual_scale=0.25, bits=None)
            x = torch.randn(1, 3, size, size)  # the trace's input
            with torch.no_grad():
                torch.onnx.export(model, (x,), path + ".onnx", opset_version=17,
                                  input_names=["input"], output_names=["output"])
        np.save(path + ".calib.npy", rng.standard_normal((4, 3, size, size)).astype(np.float32))
        np.save(path + ".in.npy", rng.standard_normal((1, 3, size, size)).astype(np.float32))
        print(name, bound)


if __name__ == "__main__":
    main()
