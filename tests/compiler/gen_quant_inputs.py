"""Small inputs for the quantisation FileCheck tests (tests/compiler/filecheck/
qdq-*.tir, ref-int8-*.tir).  Run by hand with /usr/bin/python3; the outputs
in tests/compiler/inputs/ are committed."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "inputs")

np.save(os.path.join(OUT, "quant_x_2.npy"), np.array([[[[3.0, -1.5]]]], np.float32))
# int8 tensors for the int8 reference tests
np.save(os.path.join(OUT, "quant_i8_1x1x1x4.npy"), np.array([[[[5, -7, 127, -128]]]], np.int8))
np.save(os.path.join(OUT, "quant_i8_1x1x3x3.npy"),
        np.array([[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]], np.int8))
# qdq-fold-ops.tir: a (scale 0.5) and b (scale 0.25, zp 5); sums include a
# tie (0.5 -> 0) and negatives clamped by the ReLU
np.save(os.path.join(OUT, "quant_a_2x2x2.npy"),
        np.array([[[[2, -4], [6, 8]], [[1, 1], [1, 1]]]], np.int8))
np.save(os.path.join(OUT, "quant_b_2x2x2.npy"),
        np.array([[[[5, 9], [1, 25]], [[7, 3], [5, -5]]]], np.int8))
