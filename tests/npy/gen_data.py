#!/usr/bin/python3
"""Write the .npy files in tests/npy/data/ with NumPy itself, so the reader is
tested against files NumPy made (not only files our writer made).
Run with /usr/bin/python3 from the repo root; outputs are committed.
Values are simple formulas so the C tests can recompute them."""
import os
import numpy as np

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
os.makedirs(out, exist_ok=True)


def save(name, arr, version=None):
    path = os.path.join(out, name)
    if version is None:
        np.save(path, arr)
    else:
        with open(path, "wb") as f:
            np.lib.format.write_array(f, arr, version=version)


# element i of every array below is a function of its C-order index i
save("f32_2x3.npy", (np.arange(6, dtype=np.float32) * 0.5 - 1).reshape(2, 3))
save("f64_scalar.npy", np.array(3.25, dtype=np.float64))
save("i8_5.npy", np.arange(-2, 3, dtype=np.int8) * 50)
save("u8_2x2x2.npy", (np.arange(8, dtype=np.uint8) * 33).reshape(2, 2, 2))
save("i16_4.npy", np.array([-32768, -1, 0, 32767], dtype=np.int16))
save("i32_3x1.npy", np.array([[-100000], [0], [2147483647]], dtype=np.int32))
save("i64_2.npy", np.array([-(2**62), 2**40 + 7], dtype=np.int64))
save("bool_4.npy", np.array([True, False, False, True]))
save("f32_empty_0x3.npy", np.zeros((0, 3), dtype=np.float32))
save("f32_8d.npy", np.arange(6, dtype=np.float32).reshape(1, 1, 1, 1, 1, 1, 2, 3))
# Fortran order: the reader must hand back C order, i.e. arange(12).reshape(3,4)
save("f32_fortran_3x4.npy", np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4)))
save("f32_v2_2x3.npy", (np.arange(6, dtype=np.float32) * 0.5 - 1).reshape(2, 3), version=(2, 0))
save("f32_v3_2x3.npy", (np.arange(6, dtype=np.float32) * 0.5 - 1).reshape(2, 3), version=(3, 0))
# must be rejected: big-endian data
save("f32_bigendian.npy", np.arange(4, dtype=">f4"))
