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

With --by-kind, the same rounding per tensor except for one kind of
activation at a time (ReLU, Hardswish, BatchNorm2d, a block's or a
squeeze-excitation's output, ...), which is ranged per channel or left
exact, each with ranges from the compared samples and from the calibration
samples: which tensors a per-channel scheme or a wider type would have to
cover. With --calib-samples 4,16,..., per tensor with ranges from that many
other samples (drawn as the survey draws them): how far more calibration
data goes.
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


def kind_of(n, m):
    """The class of a quantised activation: its module's type, or "block" (a
    features block's output, its residual Add) or "se" (a squeeze-excitation's
    output, its Mul)."""
    if n.count(".") == 1 and n.startswith("features."):
        return "block"
    return "se" if type(m).__name__ == "SqueezeExcitation" else type(m).__name__


def fake_quant(model, x, ways):
    """(activations, their kinds, [rel. L2 change of model(x)] per way) with
    every quantised activation rounded to 8 bits. A way is (samples the
    ranges come from, kinds ranged per channel, kinds left exact)."""
    mods = dict(model.named_modules())
    names = []
    for n, m in mods.items():
        block = n.count(".") == 1 and n.startswith("features.") or type(m).__name__ == "SqueezeExcitation"
        if isinstance(m, QUANTISED) or block:
            parent, _, idx = n.rpartition(".")
            if isinstance(m, torch.nn.BatchNorm2d) and idx.isdigit() and "%s.%d" % (parent, int(idx) + 1) in mods:
                continue  # an activation follows: quantised after it
            names.append(n)
    state = {"mode": None, "pc": (), "exact": ()}
    ranges = {}

    def hook(n, kind):
        def f(m, i, o):
            if state["mode"] is None or kind in state["exact"]:
                return o
            dims = (0, 2, 3) if kind in state["pc"] and o.dim() == 4 else tuple(range(o.dim()))
            if state["mode"] == "observe":
                lo, hi = o.amin(dim=dims, keepdim=True), o.amax(dim=dims, keepdim=True)
                if n in ranges:
                    lo, hi = torch.minimum(lo, ranges[n][0]), torch.maximum(hi, ranges[n][1])
                ranges[n] = (lo, hi)
                return o
            lo, hi = ranges[n]
            lo, hi = torch.clamp(lo, max=0.0), torch.clamp(hi, min=0.0)
            step = (hi - lo) / 255 + 1e-30
            return torch.round((torch.minimum(torch.maximum(o, lo), hi) - lo) / step) * step + lo
        return f

    kinds = sorted({kind_of(n, mods[n]) for n in names})
    handles = [mods[n].register_forward_hook(hook(n, kind_of(n, mods[n]))) for n in names]
    out = []
    with torch.no_grad():
        y0 = model(x)
        for src, pc, exact in ways:
            ranges.clear()
            state["pc"], state["exact"], state["mode"] = pc, exact, "observe"
            model(src)
            state["mode"] = "quant"
            out.append(((model(x) - y0).norm() / y0.norm()).item())
            state["mode"] = None
    for h in handles:
        h.remove()
    return len(names), kinds, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", required=True, help="comma-separated torchvision names with a .features")
    ap.add_argument("--noise", type=float, default=0.02)
    ap.add_argument("--fake-quant", action="store_true", help="8-bit activations in PyTorch, three ways of ranging")
    ap.add_argument("--calib-samples", metavar="N,N,...",
                    help="--fake-quant per tensor with ranges from N other calibration samples, for each N")
    ap.add_argument("--by-kind", action="store_true",
                    help="--fake-quant per tensor, but one kind of activation per channel, or exact")
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
        cal = torch.from_numpy(calib)
        if opts.fake_quant:
            every = ("AdaptiveAvgPool2d", "BatchNorm2d", "Hardsigmoid", "Hardswish", "Linear", "ReLU", "ReLU6",
                     "SiLU", "Sigmoid", "block", "se")
            n, _, (c, own, pc) = fake_quant(model, x, [(cal, (), ()), (x, (), ()), (x, every, ())])
            print("%-20s %d activations at 8 bits, rel. L2 change of the output: per tensor from the calibration "
                  "samples %.3f, per tensor from the compared samples %.3f, per channel from them %.3f"
                  % (name, n, c, own, pc))
            continue
        if opts.calib_samples:
            r2 = np.random.default_rng(99)  # other samples, drawn as the survey draws them
            res = []
            for k in opts.calib_samples.split(","):
                c = (r2.integers(-64, 65, (int(k),) + shape[1:]) / 64).astype(np.float32)
                res.append("%s %.3f" % (k, fake_quant(model, x, [(torch.from_numpy(c), (), ())])[2][0]))
            print("%-20s per tensor, ranges from N other samples: %s" % (name, ", ".join(res)))
            continue
        if opts.by_kind:
            _, kinds, _ = fake_quant(model, x, [])
            for k in kinds:
                # the kind per channel (else per tensor), and the kind not rounded at all
                _, _, r = fake_quant(model, x, [(x, (k,), ()), (cal, (k,), ()), (x, (), (k,)), (cal, (), (k,))])
                print("%-20s %-18s per channel: %.3f (ranges from the compared samples) %.3f (from the calibration "
                      "samples); exact: %.3f %.3f" % (name, k, r[0], r[1], r[2], r[3]))
            continue
        with torch.no_grad():
            y0 = logits(model, x, -1, 0)
            moves = [((logits(model, x, b, opts.noise) - y0).norm() / y0.norm()).item()
                     for b in range(len(model.features))]
        print("%-20s noise %.3g at the input of block 0..%d -> rel. L2 change of the output: %s"
              % (name, opts.noise, len(moves) - 1, " ".join("%.3f" % m for m in moves)))


if __name__ == "__main__":
    main()
