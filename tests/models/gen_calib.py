"""Calibration and evaluation inputs for post-training quantisation of the
nets in nets/ (owner: the quantisation issue; see docs/quantisation.md).

Writes calib/NET.calib.npy (samples stacked along dimension 0, the form
`tessel --calib` reads) and calib/NET.eval.npy (held-out samples for the
accuracy check, never used for calibration), drawn like the nets' own
inputs: multiples of 1/64 in [-1, 1].  Fixed seed: rerunning rewrites the
same bytes.  Run with /usr/bin/python3; outputs are committed.
"""
import os

import numpy as np

from common import activations

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "calib")
SEED = 6

NETS = {  # name: (input shape of one sample, calibration samples, eval samples)
    "tiny_cnn": ((1, 3, 16, 16), 16, 16),
    "resnet18": ((1, 3, 64, 64), 4, 4),
    "mobilenet_v2": ((1, 3, 64, 64), 4, 4),
    "squeezenet1_1": ((1, 3, 64, 64), 4, 4),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(SEED)
    for name, (shape, n_cal, n_eval) in NETS.items():
        for kind, n in (("calib", n_cal), ("eval", n_eval)):
            x = activations(rng, (n * shape[0],) + shape[1:], -64, 64)
            np.save(os.path.join(OUT, f"{name}.{kind}.npy"), x)


if __name__ == "__main__":
    main()
