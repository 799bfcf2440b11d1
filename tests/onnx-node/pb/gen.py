#!/usr/bin/python3
"""Generates the onnx-pb2npy fixtures (committed; rerun by hand with
/usr/bin/python3): NAME.pb, a TensorProto, and NAME.npy, what it must become,
for each dtype the suite's tests use, in raw_data and in the typed fields
(float_data, int64_data, int32_data for int32/int8/uint8/bool), a scalar and
an empty tensor."""
import os
import numpy as np
from onnx import helper as h, numpy_helper as nh, TensorProto as T

OUT = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(3)
cases = {
    "f32": rng.standard_normal((2, 3)).astype(np.float32),
    "i64": np.array([[-5, 1 << 40], [7, -(1 << 33)]], dtype=np.int64),
    "i32": np.array([-7, 0, 123456], dtype=np.int32),
    "i8": np.array([-128, -1, 0, 127], dtype=np.int8),
    "u8": np.array([0, 1, 200, 255], dtype=np.uint8),
    "bool": np.array([[True, False, True]], dtype=np.bool_),
    "scalar": np.array(2.5, dtype=np.float32),
    "empty": np.zeros((0, 3), dtype=np.float32),
}
onnx_type = {np.float32: T.FLOAT, np.int64: T.INT64, np.int32: T.INT32, np.int8: T.INT8,
             np.uint8: T.UINT8, np.bool_: T.BOOL}
for name, a in cases.items():
    np.save(os.path.join(OUT, name + ".npy"), a)
    with open(os.path.join(OUT, name + ".raw.pb"), "wb") as f:
        f.write(nh.from_array(a, name).SerializeToString())
    typed = h.make_tensor(name, onnx_type[a.dtype.type], a.shape, a.flatten().tolist(), raw=False)
    with open(os.path.join(OUT, name + ".typed.pb"), "wb") as f:
        f.write(typed.SerializeToString())
with open(os.path.join(OUT, "bad.pb"), "wb") as f:
    f.write(b"\xff\xff\xff\xff not a tensor")
