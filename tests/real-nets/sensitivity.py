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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", required=True, help="comma-separated torchvision names with a .features")
    ap.add_argument("--noise", type=float, default=0.02)
    opts = ap.parse_args()
    torch.set_num_threads(1)
    for name in opts.models.split(","):
        model, shape = survey.build(name)
        if shape is None or not hasattr(model, "features"):
            print("%s: no input size runs, or no .features" % name)
            continue
        rng = np.random.default_rng(survey.SEED)
        rng.integers(-64, 65, (survey.CALIB,) + shape[1:])  # the calibration draw, as the survey makes it
        pool = (rng.integers(-64, 65, (survey.EVAL_POOL,) + shape[1:]) / 64).astype(np.float32)
        with torch.no_grad():
            y = model(torch.from_numpy(pool)).numpy()
            x = torch.from_numpy(pool[torchprep.clearest(y, survey.EVAL)])
            y0 = logits(model, x, -1, 0)
            moves = [((logits(model, x, b, opts.noise) - y0).norm() / y0.norm()).item()
                     for b in range(len(model.features))]
        print("%-20s noise %.3g at the input of block 0..%d -> rel. L2 change of the output: %s"
              % (name, opts.noise, len(moves) - 1, " ".join("%.3f" % m for m in moves)))


if __name__ == "__main__":
    main()
