#!/bin/bash
# make demo: what Tessel runs end to end today, on the default target (npu8).
#   1. the compiler imports the bundled model (tests/models/nets/tiny_cnn.onnx),
#      runs the graph passes and quantises it from calibration data;
#   2. the float and int8 references run it on the bundled input;
#   3. the NPU's C model runs a 3x3 conv kernel (docs/isa.md section 10) and
#      reports its counters;
#   4. the cycle-accurate SoC (tessel-sim) runs firmware: picolibc printf and a
#      CPU benchmark, with cycle statistics.
# Lowering, the firmware runtime and `tessel run` (issues 7 and 8) will turn
# this into one compile-and-run of the model on the simulated chip.
set -euo pipefail
bin=build/bin
out=build/demo
model=tests/models/nets/tiny_cnn
calib=tests/models/calib/tiny_cnn.calib.npy
mkdir -p "$out"

step() { printf '\n==== %s\n' "$*"; }

step "1. import $model.onnx, graph passes, post-training quantisation (int8 IR)"
"$bin/tessel" ir "$model.onnx" --calib "$calib" --elide=4

step "2. float reference vs int8 reference on $model.in0.npy"
"$bin/tessel" ref "$model.onnx" --input "$model.in0.npy" -o "$out/float.npy"
"$bin/tessel" ref "$model.onnx" --calib "$calib" --input "$model.in0.npy" -o "$out/int8.npy"
"$bin/npy-check" --values 10 "$out/float.npy" "$out/int8.npy"

step "3. NPU C model (npu8): 3x3 conv, 64 -> 64 channels, 16x16, bias + requant + ReLU"
sed -n '/^## 10\./,/^## 11\./p' docs/isa.md | grep '^    [A-Z]' >"$out/conv.s"
"$bin/tessel-npu-model" asm "$out/conv.s" "$out/conv.bin"
"$bin/tessel-npu-model" disasm "$out/conv.bin"
"$bin/tessel-npu-model" run --target npu8 --stream "$out/conv.bin" --dram-size 70208 \
  --profile "$out/conv.profile.json"
echo "profile JSON: $out/conv.profile.json"

step "4. cycle-accurate SoC: picolibc printf, then a CPU benchmark"
"$bin/tessel-sim" build/firmware/hello.elf --stats
"$bin/tessel-sim" build/firmware/bench-cpu.elf --stats
