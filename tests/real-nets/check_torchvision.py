#!/usr/bin/python3
"""make check-torchvision: every torchvision classification model of at most
25 M parameters (by its weights' metadata; none is downloaded), exported as
a user would (random weights, eval mode, batch 1, opset 17) at 64x64 or the
smallest size of 64, 96, 128, 160, 224 its forward pass takes, compiled for
npu8 with 4 calibration samples, run on the NPU's C model on 4 other samples
(of 16 drawn, those with the clearest top-1 margin: torchprep.clearest) and
compared with PyTorch by `tessel compare` (rel. L2 from its SNR, top-1
agreement of the 4 rows).

The random-weight nets go through tests/models/torchprep.prepare (BatchNorm
statistics settled on random data, residual branches x1/4, weights kept as
drawn): without it a random net is chaotic and no int8 scheme could follow
it (see tests/models/gen_nets.py).  --weights plain skips that: the nets
as torchvision initialises them, nearly blind to their input (docs/guide.md).

Prints one line per model (parameters, input size, compile status, rel. L2,
top-1 agreement, the first error line of a failing step) and a summary with
the failures grouped by message.  Exit 0 when it ran to the end (this is a
survey, not a gate).

  /usr/bin/python3 tests/real-nets/check_torchvision.py [--tessel build/bin/tessel]
      [--tmp DIR] [--target npu8] [--max-params 25e6] [--models a,b,...] [--list]
      [--lock FILE]   (hold an flock on FILE while each model runs: a shared machine)
      [--weights settled|plain]
"""
import argparse
import collections
import contextlib
import fcntl
import io
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch
import torchvision
from torchvision import models

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import torchprep  # noqa: E402

SEED = 20261202
SIZES = (64, 96, 128, 160, 224)
CALIB, EVAL = 4, 4
EVAL_POOL = 16  # drawn, of which the EVAL with the clearest top-1 margin are compared
STEP_TIMEOUT = 600  # seconds per tessel command


def candidates(max_params):
    """(name, parameters) of every classification model within max_params,
    from the weights' metadata (no download)."""
    out = []
    for name in models.list_models(module=models):
        weights = list(models.get_model_weights(name))
        params = weights[0].meta["num_params"] if weights else None
        if params is not None and params <= max_params:
            out.append((name, params))
    return out


def build(name, plain=False):
    """The model with random weights, BatchNorm settled (plain: as
    torchvision initialises it), and the smallest input size of SIZES its
    forward pass takes (None if none does)."""
    torch.manual_seed(SEED)
    kw = {"aux_logits": False, "init_weights": True} if name in ("googlenet", "inception_v3") else {}
    model = models.get_model(name, weights=None, **kw).eval()
    for size in SIZES:
        try:
            with torch.no_grad():
                model(torch.zeros(1, 3, size, size))
            break
        except Exception:  # noqa: BLE001 - too small for this net: try the next size
            continue
    else:
        return model, None
    shape = (1, 3, size, size)
    if not plain:
        torchprep.prepare(model, (4,) + shape[1:], SEED, residual_scale=0.25, bits=None)
    return model, shape


def first_line(text):
    """The first non-empty line of a tool's message, without the file prefix."""
    for line in text.splitlines():
        line = line.strip()
        if line:
            line = re.sub(r"^tessel( [a-z-]+)?: ", "", line)
            return re.sub(r"^\S+\.(onnx|tpkg|npy): ", "", line)[:200]
    return "(no message)"


def tessel(args, opts, ok_codes=(0,)):
    """Runs tessel ARGS; returns (ok, stdout) or (False, its first error line)."""
    try:
        p = subprocess.run([opts.tessel] + args, capture_output=True, text=True,
                           timeout=STEP_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % STEP_TIMEOUT
    if p.returncode in ok_codes:
        return True, p.stdout
    return False, first_line(p.stderr + p.stdout)


def check(name, params, opts):
    """One model through export, compile, run and compare: a result dict."""
    r = {"name": name, "params": params, "size": "-", "compile": "-", "rel_l2": None,
         "top1": "-", "error": ""}
    base = os.path.join(opts.tmp, name)
    try:
        model, shape = build(name, opts.weights == "plain")
    except Exception as e:  # noqa: BLE001 - report any constructor failure
        r["error"] = "build: %s" % first_line(str(e))
        return r
    if shape is None:
        r["error"] = "no input size of %s runs in PyTorch" % ",".join(map(str, SIZES))
        return r
    r["size"] = "%dx%d" % shape[2:]
    rng = np.random.default_rng(SEED)
    calib = (rng.integers(-64, 65, (CALIB,) + shape[1:]) / 64).astype(np.float32)
    pool = (rng.integers(-64, 65, (EVAL_POOL,) + shape[1:]) / 64).astype(np.float32)
    if opts.calib > CALIB:  # more calibration samples, drawn after the compared ones so these stay the same
        more = (rng.integers(-64, 65, (opts.calib - CALIB,) + shape[1:]) / 64).astype(np.float32)
        calib = np.concatenate([calib, more])
    with torch.no_grad():
        y = model(torch.from_numpy(pool)).numpy()
    keep = torchprep.clearest(y, EVAL)
    evals, y = pool[keep], y[keep]
    np.save(base + ".calib.npy", calib)
    np.save(base + ".eval.npy", evals)
    np.save(base + ".torch.npy", y)
    buf = io.BytesIO()
    try:
        torch.onnx.export(model, (torch.from_numpy(evals[:1]),), buf, opset_version=17,
                          input_names=["input"], output_names=["output"])
    except Exception as e:  # noqa: BLE001 - an exporter limit is a result too
        r["error"] = "export: %s" % first_line(str(e))
        return r
    with open(base + ".onnx", "wb") as f:
        f.write(buf.getvalue())
    ok, msg = tessel(["compile", base + ".onnx", "--calib", base + ".calib.npy",
                      "--target", opts.target, "-o", base + ".tpkg"], opts)
    r["compile"] = "ok" if ok else "FAIL"
    if not ok:
        r["error"] = "compile: " + msg
        return r
    ok, msg = tessel(["run", base + ".tpkg", "-q", "--engine", "model", "--input",
                      base + ".eval.npy", "-o", base + ".out.npy"], opts)
    if not ok:
        r["compile"] = "ok, run FAIL"
        r["error"] = "run: " + msg
        return r
    # exit 4: the tensors differ (they always do a little)
    ok, out = tessel(["compare", base + ".torch.npy", base + ".out.npy"], opts, (0, 4))
    if not ok:
        r["error"] = "compare: " + out
        return r
    line = out.strip().splitlines()[-1].split()
    if len(line) >= 8:
        r["rel_l2"] = 0.0 if line[7] == "inf" else 10 ** (-float(line[7]) / 20)
    m = re.search(r"top-1 agree (\d+/\d+)", out)
    r["top1"] = m.group(1) if m else "?"
    return r


def show(r):
    rel = "-" if r["rel_l2"] is None else "%.4f" % r["rel_l2"]
    print("%-22s %11d %8s %-13s %8s %6s  %s" % (r["name"], r["params"], r["size"], r["compile"],
                                              rel, r["top1"], r["error"]), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tessel", default="build/bin/tessel")
    ap.add_argument("--tmp", default="build/check-torchvision")
    ap.add_argument("--target", default="npu8")
    ap.add_argument("--calib", type=int, default=CALIB, help="calibration samples (%d and up; default %d)" % (CALIB, CALIB))
    ap.add_argument("--max-params", type=float, default=25e6)
    ap.add_argument("--models", help="comma-separated names (default: every candidate)")
    ap.add_argument("--list", action="store_true", help="print the candidates and stop")
    ap.add_argument("--lock", help="hold an flock on this file while each model runs")
    ap.add_argument("--weights", choices=("settled", "plain"), default="settled",
                    help="settled: BatchNorm statistics settled on random data (torchprep); plain: the "
                    "weights and BatchNorm statistics as torchvision initialises them")
    opts = ap.parse_args()
    chosen = candidates(opts.max_params)
    if opts.models:
        want = opts.models.split(",")
        unknown = sorted(set(want) - {n for n, _ in chosen})
        if unknown:
            sys.exit("check_torchvision: not a candidate (a torchvision classifier of at most "
                     "%g parameters): %s" % (opts.max_params, ", ".join(unknown)))
        chosen = [(n, p) for n, p in chosen if n in want]
    if opts.list:
        for n, p in chosen:
            print(n, p)
        return
    os.makedirs(opts.tmp, exist_ok=True)
    torch.set_num_threads(1)
    print("torch %s, torchvision %s; target %s, %d calibration and %d compared samples, %s weights"
          % (torch.__version__, torchvision.__version__, opts.target, max(opts.calib, CALIB), EVAL,
             opts.weights))
    print("%-22s %11s %8s %-13s %8s %6s  %s" % ("model", "parameters", "input", "compile",
                                              "rel-L2", "top-1", "first error"))
    results = []
    t0 = time.time()
    for name, params in chosen:
        with open(opts.lock, "a") if opts.lock else contextlib.nullcontext() as lock:
            if lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
            r = check(name, params, opts)
        show(r)
        results.append(r)
    compiled = sum(r["compile"] == "ok" for r in results)
    close = sum(r["rel_l2"] is not None and r["rel_l2"] <= 0.1 for r in results)
    agree = sum(r["top1"] not in ("-", "?") and r["top1"].split("/")[0] == r["top1"].split("/")[1]
                for r in results)
    print("summary: %d models, %d compiled and ran, %d within rel. L2 0.1 of PyTorch, "
          "%d with every top-1 agreeing (%.0f s)" % (len(results), compiled, close, agree,
                                                      time.time() - t0))
    errors = collections.Counter(re.sub(r"'[^']*'", "'...'", r["error"]) for r in results
                                 if r["error"])
    for msg, n in errors.most_common():
        print("  %3d x %s" % (n, msg))


if __name__ == "__main__":
    main()
