#!/bin/bash
# make demo: the bundled model from ONNX to results on the simulated chip, on
# the default target (npu8).
#   1. compile: tests/models/digits/digits_cnn.onnx (a CNN trained on
#      scikit-learn's 8x8 digits, tests/models/gen_digits.py) is imported,
#      quantised from calibration images, lowered to NPU command streams and
#      written as a package;
#   2. the package's kernels;
#   3. the package on the cycle-accurate SoC: the runner firmware loads it,
#      validates it and runs the 360 held-out test digits (NPU kernels and the
#      firmware's fallback ops), with a per-kernel profile;
#   4. the same images on the host's int8 and float references;
#   5. accuracy, and agreement of the chip with the int8 reference (bit for
#      bit, and 100% identical predictions);
#   6. the per-kernel profile of one inference.
set -euo pipefail
bin=build/bin
out=build/demo
dir=tests/models/digits
model=$dir/digits_cnn.onnx
calib=$dir/digits.calib.npy
test_x=$dir/digits.test.npy
labels=$dir/digits.labels.npy
mkdir -p "$out"

step() { printf '\n==== %s\n' "$*"; }

step "1. compile $model for npu8 (import, graph passes, PTQ, lowering, package)"
"$bin/tessel" compile "$model" --target npu8 --calib "$calib" -o "$out/digits.tpkg" --report

step "2. the package: kernels (full listing with the command streams: $bin/tessel inspect $out/digits.tpkg)"
"$bin/tessel" inspect "$out/digits.tpkg" | grep -E '^(tpkg|io|  (input|output)|kernels|  kernel|fallback|  *[0-9]+: (Quantize|Dequantize|Softmax))' || true

step "3. 360 test digits on the cycle-accurate SoC (firmware + NPU RTL on tessel-sim)"
"$bin/tessel" run "$out/digits.tpkg" --input "$test_x" --output "$out/probs_rtl.npy" --profile "$out/profile.json"

step "4. the same digits on the host references (int8: the NPU's arithmetic; float: the ONNX model)"
"$bin/tessel" ref "$model" --calib "$calib" --input "$test_x" -o "$out/probs_int8.npy"
"$bin/tessel" ref "$model" --input "$test_x" -o "$out/probs_float.npy"

step "5. the chip against the int8 reference (must be identical), then against float"
"$bin/tessel" compare "$out/probs_int8.npy" "$out/probs_rtl.npy" --labels "$labels"
"$bin/tessel" compare "$out/probs_float.npy" "$out/probs_rtl.npy" --labels "$labels" --atol 1 | tail -n 1

step "6. per-kernel profile of one inference on the chip"
"$bin/tessel" profile "$out/profile.json"
