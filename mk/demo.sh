#!/bin/bash
# make demo: the bundled model through everything that runs today, on the
# default target (npu8).
#   1. compile: tests/models/digits/digits_cnn.onnx (a CNN trained on
#      scikit-learn's 8x8 digits) is imported, quantised from calibration
#      images, lowered to NPU command streams and written as a package;
#   2. the package, kernel by kernel, with its streams disassembled;
#   3. one digit on the float and the int8 reference;
#   4. the compiled model on the NPU's C model over the 360 test images:
#      accuracy, bit-exactness against the int8 reference, NPU cycles;
#   5. the cycle-accurate SoC (tessel-sim) runs firmware: picolibc printf and a
#      CPU benchmark, with cycle statistics.
# The firmware runtime and `tessel run` (issue 8) will run the package itself
# on the simulated chip with a per-kernel profile.
set -euo pipefail
bin=build/bin
out=build/demo
dir=tests/models/digits
model=$dir/digits_cnn.onnx
calib=$dir/digits.calib.npy
mkdir -p "$out"

step() { printf '\n==== %s\n' "$*"; }

step "1. compile $model for npu8 (import, graph passes, PTQ, lowering, package)"
"$bin/tessel" compile "$model" --target npu8 --calib "$calib" -o "$out/digits.tpkg" --report

step "2. the package: kernels and their command streams"
"$bin/tessel" inspect "$out/digits.tpkg" | head -n 60
echo "... (full listing: $bin/tessel inspect $out/digits.tpkg)"

step "3. one digit on the float and the int8 reference (class probabilities)"
"$bin/tessel" ref "$model" --input "$dir/digits_cnn.in0.npy" -o "$out/float.npy"
"$bin/tessel" ref "$model" --calib "$calib" --input "$dir/digits_cnn.in0.npy" -o "$out/int8.npy"
"$bin/npy-check" --values 10 "$out/float.npy" "$out/int8.npy"

step "4. the compiled model on the NPU C model, 360 test digits"
"$DIGITS_EVAL" "$model" "$calib" "$dir/digits.test.npy" "$dir/digits.labels.npy" \
  --npu npu8 --npu-batch 360

step "5. cycle-accurate SoC: picolibc printf, then a CPU benchmark"
"$bin/tessel-sim" build/firmware/hello.elf --stats
"$bin/tessel-sim" build/firmware/bench-cpu.elf --stats
