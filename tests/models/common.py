"""Shared helpers for the test-model generators (gen_ops.py, gen_nets.py,
gen_bad.py). Run the generators with /usr/bin/python3 from any folder; they
write next to this file and rewrite their own section of MANIFEST.

Determinism: every generator seeds numpy and torch itself; values are drawn
from small sets of dyadic rationals (multiples of 1/256 or 1/64) so the
committed files compress well and float arithmetic on them is often exact.
"""
import os

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "MANIFEST")

MANIFEST_HEADER = """\
# Test models: one line per model (paths relative to tests/models).
#   NAME inputs=A.npy,B.npy outputs=C.npy kind=float|quant opset=N [binds=INPUT=FILE.npy,...]
# NAME.onnx is the model. inputs= lists the files for the graph inputs that are
# not initializers and not bound, in graph order (absent when there are none);
# binds= names graph inputs that must be bound to constants (tessel --bind).
# outputs= are the reference outputs, in graph-output order.
# kind=quant: the model has integer tensors or Q/DQ nodes.
# Regenerate with `make models` (see README.md).
"""


def weights(rng, shape, lo=-64, hi=64, denom=256):
    """Random float32 weights: multiples of 1/denom in [lo/denom, hi/denom]."""
    return (rng.integers(lo, hi + 1, size=shape) / denom).astype(np.float32)


def activations(rng, shape, lo=-128, hi=128, denom=64):
    """Random float32 inputs: multiples of 1/denom, by default in [-2, 2]."""
    return (rng.integers(lo, hi + 1, size=shape) / denom).astype(np.float32)


def init(name, array):
    """An initializer tensor from a numpy array (dtype kept)."""
    return numpy_helper.from_array(np.asarray(array), name)


def vinfo(name, array_or_dtype, shape=None):
    """A graph input/output value_info from an example array (or dtype+shape)."""
    if shape is None:
        arr = np.asarray(array_or_dtype)
        dtype, shape = arr.dtype, arr.shape
    else:
        dtype = np.dtype(array_or_dtype)
    elem = helper.np_dtype_to_tensor_dtype(dtype) if hasattr(
        helper, "np_dtype_to_tensor_dtype") else onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[dtype]
    return helper.make_tensor_value_info(name, elem, list(shape))


def make_model(name, nodes, inputs, outputs, initializers, opset,
               extra_inputs=()):
    """A checked ModelProto with the IR version the opset first appeared in
    (IR 3 for opset 7, whose models list initializers in graph.input too).
    extra_inputs: value_infos appended to graph.input (e.g. initializers also
    listed as inputs, as old exporters did)."""
    opsets = [helper.make_opsetid("", opset)]
    ir_version = helper.find_min_ir_version_for(opsets)
    if ir_version < 4 and not extra_inputs:
        # IR 3 (opsets 7-8) requires every initializer in graph.input too.
        extra_inputs = [helper.make_tensor_value_info(i.name, i.data_type, list(i.dims))
                        for i in initializers]
    graph = helper.make_graph(nodes, name, list(inputs) + list(extra_inputs),
                              list(outputs), initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=opsets,
                              producer_name="tessel-tests")
    model.ir_version = ir_version
    onnx.checker.check_model(model, full_check=True)
    return model


class Writer:
    """Writes models with their .npy inputs/outputs and collects MANIFEST
    lines for one section (e.g. "ops")."""

    def __init__(self, section):
        self.section = section
        self.folder = os.path.join(HERE, section)
        os.makedirs(self.folder, exist_ok=True)
        self.lines = []
        self.names = set()

    def add(self, name, model, inputs, outputs, kind="float", binds=None,
            comment=None):
        """Save SECTION/name.onnx, name.inN.npy, name.outN.npy (and
        name.bind.INPUT.npy for binds={input_name: array})."""
        assert name not in self.names, name
        self.names.add(name)
        base = os.path.join(self.folder, name)
        if isinstance(model, onnx.ModelProto):
            onnx.save(model, base + ".onnx")
        rel = "%s/%s" % (self.section, name)
        fields = [rel]
        if inputs:
            fields.append("inputs=" + ",".join(
                self._save(rel, "in%d" % i, a) for i, a in enumerate(inputs)))
        fields.append("outputs=" + ",".join(
            self._save(rel, "out%d" % i, a) for i, a in enumerate(outputs)))
        fields.append("kind=" + kind)
        opset = [o.version for o in onnx.load(base + ".onnx").opset_import
                 if o.domain in ("", "ai.onnx")][0]
        fields.append("opset=%d" % opset)
        if binds:
            fields.append("binds=" + ",".join(
                "%s=%s" % (k, self._save(rel, "bind." + k, v))
                for k, v in binds.items()))
        if comment:  # on its own line: parsers need not strip trailing comments
            self.lines.append("# " + comment)
        self.lines.append(" ".join(fields))

    def _save(self, rel, tag, array):
        path = "%s.%s.npy" % (rel, tag)
        np.save(os.path.join(HERE, path), np.ascontiguousarray(array))
        return path

    def finish(self):
        """Rewrite MANIFEST: the header, then every section (between its
        begin/end markers) as it was, with this one replaced."""
        sections = {}
        current = None
        if os.path.exists(MANIFEST):
            for line in open(MANIFEST).read().splitlines():
                if line.startswith("# ---- begin "):
                    current = line.split()[3]
                    sections[current] = []
                elif line.startswith("# ---- end "):
                    current = None
                elif current is not None:
                    sections[current].append(line)
        sections[self.section] = self.lines
        order = ["ops", "nets"] + sorted(k for k in sections if k not in ("ops", "nets"))
        out = MANIFEST_HEADER.splitlines()
        for key in order:
            if key in sections:
                out.append("# ---- begin %s (written by gen_%s.py) ----" % (key, key))
                out.extend(sections[key])
                out.append("# ---- end %s ----" % key)
        with open(MANIFEST, "w") as f:
            f.write("\n".join(out) + "\n")
        print("%s: %d models" % (self.section, sum(not l.startswith("#") for l in self.lines)))
