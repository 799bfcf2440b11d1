#!/usr/bin/python3
"""How much a survey net's own float output moves when noise is added inside
it: the bound any int8 scheme works against (docs/guide.md, section 1).

For each block of model.features (the torchvision nets that have one), white
noise of NOISE times the block input's standard deviation is added to that
input, and the relative L2 change of the logits is printed, on the 4 samples
check_torchvision.py compares (the same random weights, preparation and
inputs).  Int8 quantisation adds noise of about 0.5 to 2 percent at every
tensor; a net that turns 2 percent at its first block into 10 percent at its
output cannot stay within a relative L2 of 0.1 whatever the scheme.

  /usr/bin/python3 tests/real-nets/sensitivity.py --models mobilenet_v3_small,efficientnet_b0 [--noise 0.02]

With --fake-quant, instead: every activation (each module output of the
kinds ptq quantises: activations, BatchNorms not followed by one, blocks,
pools, Linear) rounded to 8 bits in PyTorch itself, weights kept in float,
and the relative L2 change of the logits printed for three ways of setting
the ranges: per tensor from the 4 calibration samples (min/max), per tensor
from the 4 compared samples themselves (an oracle: no clipping, only
rounding), and per channel from the compared samples. The second is the
best any per-tensor int8 scheme can do on those samples; tessel's
activations are per tensor.
"""
import argparse
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import check_torchvision as survey  # noqa: E402
import torchprep  # noqa: E402


def logits(model, x, block, noise):
    """The model's output with noise added to the input of features[block]
    (no noise when block < 0)."""
    h = x
    for i, f in enumerate(model.features):
        if i == block:
            g = torch.Generator().manual_seed(1)
            h = h + noise * h.std() * torch.randn(h.shape, generator=g)
        h = f(h)
    h = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(h, 1), 1)  # every .features net here
    return model.classifier(h)


QUANTISED = (torch.nn.ReLU, torch.nn.ReLU6, torch.nn.Hardswish, torch.nn.Hardsigmoid, torch.nn.SiLU, torch.nn.Sigmoid,
             torch.nn.Linear, torch.nn.AdaptiveAvgPool2d, torch.nn.BatchNorm2d)


def fake_quant(model, calib, x):
    """(activations, [rel. L2 change of model(x)]) with every quantised
    activation rounded to 8 bits: ranges per tensor from calib, per tensor
    from x, per channel from x (the module docstring)."""
    mods = dict(model.named_modules())
    names = []
    for n, m in mods.items():
        # a block's output (its residual Add) and a squeeze-excitation's (its Mul) are quantised too
        block = n.count(".") == 1 and n.startswith("features.") or type(m).__name__ == "SqueezeExcitation"
        if isinstance(m, QUANTISED) or block:
            parent, _, idx = n.rpartition(".")
            if isinstance(m, torch.nn.BatchNorm2d) and idx.isdigit() and "%s.%d" % (parent, int(idx) + 1) in mods:
                continue  # an activation follows: quantised after it
            names.append(n)
    state = {"mode": None, "pc": False}
    ranges = {}

    def hook(n):
        def f(m, i, o):
            dims = (0, 2, 3) if state["pc"] and o.dim() == 4 else tuple(range(o.dim()))
            if state["mode"] == "observe":
                lo, hi = o.amin(dim=dims, keepdim=True), o.amax(dim=dims, keepdim=True)
                if n in ranges:
                    lo, hi = torch.minimum(lo, ranges[n][0]), torch.maximum(hi, ranges[n][1])
                ranges[n] = (lo, hi)
                return o
            if state["mode"] == "quant":
                lo, hi = ranges[n]
                lo, hi = torch.clamp(lo, max=0.0), torch.clamp(hi, min=0.0)
                step = (hi - lo) / 255 + 1e-30
                return torch.round((torch.minimum(torch.maximum(o, lo), hi) - lo) / step) * step + lo
            return o
        return f

    handles = [mods[n].register_forward_hook(hook(n)) for n in names]
    out = []
    with torch.no_grad():
        y0 = model(x)
        for src, pc in ((calib, False), (x, False), (x, True)):
            ranges.clear()
            state["pc"], state["mode"] = pc, "observe"
            model(src)
            state["mode"] = "quant"
            out.append(((model(x) - y0).norm() / y0.norm()).item())
            state["mode"] = None
    for h in handles:
        h.remove()
    return len(names), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", required=True, help="comma-separated torchvision names with a .features")
    ap.add_argument("--noise", type=float, default=0.02)
    ap.add_argument("--fake-quant", action="store_true", help="8-bit activations in PyTorch, three ways of ranging")
    opts = ap.parse_args()
    torch.set_num_threads(1)
    for name in opts.models.split(","):
        model, shape = survey.build(name)
        if shape is None or not hasattr(model, "features"):
            print("%s: no input size runs, or no .features" % name)
            continue
        rng = np.random.default_rng(survey.SEED)
        calib = (rng.integers(-64, 65, (survey.CALIB,) + shape[1:]) / 64).astype(np.float32)  # as the survey draws it
        pool = (rng.integers(-64, 65, (survey.EVAL_POOL,) + shape[1:]) / 64).astype(np.float32)
        with torch.no_grad():
            y = model(torch.from_numpy(pool)).numpy()
            x = torch.from_numpy(pool[torchprep.clearest(y, survey.EVAL)])
        if opts.fake_quant:
            n, (cal, own, pc) = fake_quant(model, torch.from_numpy(calib), x)
            print("%-20s %d activations at 8 bits, rel. L2 change of the output: per tensor from the calibration "
                  "samples %.3f, per tensor from the compared samples %.3f, per channel from them %.3f"
                  % (name, n, cal, own, pc))
            continue
        with torch.no_grad():
            y0 = logits(model, x, -1, 0)
            moves = [((logits(model, x, b, opts.noise) - y0).norm() / y0.norm()).item()
                     for b in range(len(model.features))]
        print("%-20s noise %.3g at the input of block 0..%d -> rel. L2 change of the output: %s"
              % (name, opts.noise, len(moves) - 1, " ".join("%.3f" % m for m in moves)))


if __name__ == "__main__":
    main()
