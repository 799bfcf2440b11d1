#!/bin/bash
# The `run` suite: packages end to end through `tessel run` on the
# cycle-accurate SoC (firmware on tessel-sim) and on the C model, against the
# int8 reference; the firmware's own package checks; bad inputs and
# mismatched builds. Each check counts as one test; ends "N passed, N failed".
#   tests/run/run.sh TMP_DIR TESSEL FW_REJECT
set -u
tmp=$1 tessel=$2 reject=$3
bin=$(dirname "$tessel")
build=$(cd "$bin/.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
models=$(cd "$here/../models" && pwd)
rm -rf "$tmp" && mkdir -p "$tmp"
. "$here/../lib/check.sh"

kinds=$models/run/kinds
digits=$models/digits

# 1. Every kernel kind and a fallback op, on RTL and on the C model, at npu4,
#    npu8 and npu8-arty (one requantiser and vector lane, 16 KiB memories):
#    both engines equal the int8 reference bit for bit (a batch of 4).
t kinds-int8-ref "$tessel" ref "$kinds.onnx" --calib "$kinds.calib.npy" --input "$kinds.batch.npy" -o "$tmp/kinds_int8.npy"
for target in npu4 npu8 npu8-arty; do
  t "kinds-compile-$target" "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" --target $target -o "$tmp/kinds_$target.tpkg"
  for engine in rtl model; do
    t "kinds-$target-$engine" "$tessel" run "$tmp/kinds_$target.tpkg" --engine $engine --input "$kinds.batch.npy" \
      -o "$tmp/kinds_${target}_$engine.npy" --profile "$tmp/kinds_${target}_$engine.json"
    t "kinds-$target-$engine-equals-int8-ref" "$tessel" compare "$tmp/kinds_int8.npy" "$tmp/kinds_${target}_$engine.npy"
  done
  # The byte and MAC counters of every kernel are the same on both engines
  # (the cycles are not: the model's are estimates).
  counters() { grep -o '"\(MACS\|DRAM_RD_BYTES\|DRAM_WR_BYTES\|SPAD_RD_BYTES\|ACC_WR_BYTES\)": [0-9]*' "$1"; }
  t "kinds-$target-counters-rtl-equal-model" diff <(counters "$tmp/kinds_${target}_rtl.json") <(counters "$tmp/kinds_${target}_model.json")
done

# 1a. The Arty's target runs the digits model and a 64x64 net (squeezenet1_1)
#     on its own SoC build, bit for bit with the int8 reference.
for m in digits/digits_cnn nets/squeezenet1_1; do
  n=$(basename $m)
  t "arty-$n-compile" "$tessel" compile "$models/$m.onnx" --calib "$models/$m.in0.npy" --target npu8-arty -o "$tmp/arty_$n.tpkg"
  t "arty-$n-ref" "$tessel" ref "$models/$m.onnx" --calib "$models/$m.in0.npy" --input "$models/$m.in0.npy" -o "$tmp/arty_$n.ref.npy"
  t "arty-$n-rtl" "$tessel" run "$tmp/arty_$n.tpkg" --engine rtl --input "$models/$m.in0.npy" -o "$tmp/arty_$n.rtl.npy"
  t "arty-$n-rtl-equals-int8-ref" "$tessel" compare "$tmp/arty_$n.ref.npy" "$tmp/arty_$n.rtl.npy"
done

# 1b. A group of fewer than ob_group output blocks (a chunk's last one): the
#     ACC tokens count slots, so it takes and gives those of its missing
#     blocks too (lower_conv.c). kinds' depthwise and pointwise convs have 3
#     output blocks at npu4: forced (a tuning log made from the default
#     records) to groups of 2, with one and two weight buffers, on RTL, where
#     the queues run side by side, bit for bit the int8 reference.
t partial-tune "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --target npu4 --engine model --trials 1 \
  --explore 1 --log "$tmp/partial_default.jsonl" --no-progress
for w in 1 2; do
  grep '"default": true' "$tmp/partial_default.jsonl" | grep '"key": "npu4 \(dw\)\?conv c12 9x9 m12 9x9' |
    sed -e "s/\"sched\": {[^}]*}/\"sched\": {\"oh_tile\": 3, \"ob_group\": 2, \"ob_chunk\": 3, \"order\": 2, \"wbuf\": $w}/" \
        -e 's/"cycles": [0-9]*/"cycles": 1/' -e 's/"default": true/"default": false/' >"$tmp/partial_$w.jsonl"
  t "partial-$w-compile" "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" --target npu4 \
    --tuning-log "$tmp/partial_$w.jsonl" -o "$tmp/partial_$w.tpkg" --report
  t "partial-$w-two-groups-of-2" test "$(grep -c "'/[dp]w/.* ob_group=2 ob_chunk=2 " "$tmp/partial-$w-compile.log")" -eq 2
  t "partial-$w-rtl" "$tessel" run "$tmp/partial_$w.tpkg" --engine rtl --input "$kinds.batch.npy" -o "$tmp/partial_$w.npy"
  t "partial-$w-rtl-equals-int8-ref" "$tessel" compare "$tmp/kinds_int8.npy" "$tmp/partial_$w.npy"
done

# 1c. First convs that read their input packed (lower_conv.c, "Packed
#     input": blocked by fewer lanes than DIM, taps over rows of DIM bytes):
#     stem3 (3 channels, 3x3 s2), stem7 (7x7 s2 p3: border columns on both
#     sides) and stemp (3x3 s2 p1: a left one) pack at npu8, stem1 (1
#     channel, 5x5 s2) at npu4 and npu8; on RTL and the C model (batch of 4),
#     bit for bit the int8 reference, and so is the package compiled with
#     --no-pack-input.
for m in stem3 stem1 stem7 stemp; do
  M=$models/run/$m
  t "$m-int8-ref" "$tessel" ref "$M.onnx" --calib "$M.calib.npy" --input "$M.batch.npy" -o "$tmp/${m}_int8.npy"
  for target in npu4 npu8; do
    [[ $m != stem1 && $target == npu4 ]] && continue
    t "$m-$target-compile" "$tessel" compile "$M.onnx" --calib "$M.calib.npy" --target $target -o "$tmp/${m}_$target.tpkg" --report
    t "$m-$target-packed" grep -q "tensor 'input.q' blocked-packed" "$tmp/$m-$target-compile.log"
    for engine in rtl model; do
      t "$m-$target-$engine" "$tessel" run "$tmp/${m}_$target.tpkg" --engine $engine --input "$M.batch.npy" -o "$tmp/${m}_${target}_$engine.npy"
      t "$m-$target-$engine-equals-int8-ref" "$tessel" compare "$tmp/${m}_int8.npy" "$tmp/${m}_${target}_$engine.npy"
    done
  done
  t "$m-unpacked-compile" "$tessel" compile "$M.onnx" --calib "$M.calib.npy" --no-pack-input -o "$tmp/${m}_off.tpkg"
  t "$m-unpacked-model" "$tessel" run "$tmp/${m}_off.tpkg" --engine model --input "$M.batch.npy" -o "$tmp/${m}_off.npy"
  t "$m-unpacked-equals-int8-ref" "$tessel" compare "$tmp/${m}_int8.npy" "$tmp/${m}_off.npy"
done
# With --int8-io the I/O record carries the block (4 lanes): the host writes
# the int8 input packed; on RTL the same outputs as the unpacked package's.
M=$models/run/stem7
t stem7-i8-dump "$tessel" ref "$M.onnx" --calib "$M.calib.npy" --input "$M.in0.npy" -o "$tmp/stem7_ref.npy" \
  --dump-tensors "$tmp/stem7_dump"
t stem7-i8-compile "$tessel" compile "$M.onnx" --calib "$M.calib.npy" --int8-io -o "$tmp/stem7_i8.tpkg"
t stem7-i8-block bash -c "'$tessel' inspect '$tmp/stem7_i8.tpkg' | grep -q \"input  'input' int8 \[1,3,23,21\] nhwc-blocked block 4\""
t stem7-i8-off-compile "$tessel" compile "$M.onnx" --calib "$M.calib.npy" --int8-io --no-pack-input -o "$tmp/stem7_i8off.tpkg"
t stem7-i8-rtl "$tessel" run "$tmp/stem7_i8.tpkg" --input "$tmp/stem7_dump/input.q.npy" -o "$tmp/stem7_i8.npy"
t stem7-i8-off-model "$tessel" run "$tmp/stem7_i8off.tpkg" --engine model --input "$tmp/stem7_dump/input.q.npy" \
  -o "$tmp/stem7_i8off.npy"
t stem7-i8-rtl-equals-unpacked "$tessel" compare "$tmp/stem7_i8off.npy" "$tmp/stem7_i8.npy"

# 2. The digits model, one image, on RTL: identical to the int8 reference.
t digits-compile "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" -o "$tmp/digits.tpkg"
t digits-int8-ref "$tessel" ref "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --input "$digits/digits_cnn.in0.npy" -o "$tmp/digits_int8.npy"
t digits-rtl "$tessel" run "$tmp/digits.tpkg" --input "image=$digits/digits_cnn.in0.npy" --output "probs=$tmp/digits_rtl.npy"
t digits-rtl-equals-int8-ref "$tessel" compare "$tmp/digits_int8.npy" "$tmp/digits_rtl.npy"
t digits-printed-output bash -c "'$tessel' run '$tmp/digits.tpkg' --engine model -q --input '$digits/digits_cnn.in0.npy' | grep -q '^probs float32 \[1,10\]:'"
# A profile sums up: the kernels' MACS add to the total's.
t digits-profile-sums bash -c "'$tessel' run '$tmp/digits.tpkg' -q --input '$digits/digits_cnn.in0.npy' -o '$tmp/p.npy' --profile '$tmp/p.json' &&
  total=\$(grep -o '\"total\": {[^}]*' '$tmp/p.json' | grep -o '\"MACS\": [0-9]*' | grep -o '[0-9]*') &&
  sum=\$(grep '\"index\"' '$tmp/p.json' | grep -o '\"MACS\": [0-9]*' | grep -o '[0-9]*' | paste -sd+ | bc) &&
  [ \"\$total\" -gt 0 ] && [ \"\$total\" = \"\$sum\" ] && grep -q '\"engine\": \"rtl\"' '$tmp/p.json' &&
  grep -q '\"op\": \"SOFTMAX_QF\"' '$tmp/p.json'"
# The inference's timeline (docs/profile-format.md) of that run: items in
# order, not overlapping, every kernel run at least its NPU cycles, from the
# runner's input copy to its output copy, and the table shows it. On the C
# model, whose clock is the NPU's, the kernels last exactly their cycles.
t digits-timeline-rtl bash -c "awk -f '$here/timeline_check.awk' '$tmp/p.json' &&
  grep '\"kind\": ' '$tmp/p.json' | head -n 1 | grep -q '\"what\": \"input_copy\"' &&
  grep '\"kind\": ' '$tmp/p.json' | tail -n 1 | grep -q '\"what\": \"output_copy\"' &&
  '$tessel' profile '$tmp/p.json' | grep -q '^  gaps (runtime work) '"
t digits-timeline-model bash -c "'$tessel' run '$tmp/digits.tpkg' -q --engine model --input '$digits/digits_cnn.in0.npy' -o '$tmp/pm.npy' --profile '$tmp/pm.json' &&
  awk -v exact=1 -f '$here/timeline_check.awk' '$tmp/pm.json' && ! grep -q '\"kind\": \"gap\"' '$tmp/pm.json'"
if [ -x "$build/npu8/tessel-sim-trace" ]; then
  t digits-trace bash -c "'$tessel' run '$tmp/digits.tpkg' -q --input '$digits/digits_cnn.in0.npy' -o '$tmp/t.npy' --trace '$tmp/w.fst' && [ -s '$tmp/w.fst' ]"
  # One kernel's cycles only: a small part of the whole waveform, same outputs.
  t digits-trace-kernel bash -c "'$tessel' run '$tmp/digits.tpkg' -q --input '$digits/digits_cnn.in0.npy' -o '$tmp/tk.npy' --trace '$tmp/k.fst' --trace-kernel /GlobalAveragePool &&
    [ -s '$tmp/k.fst' ] && [ \$(stat -c %s '$tmp/k.fst') -lt \$((\$(stat -c %s '$tmp/w.fst') / 8)) ] && cmp '$tmp/t.npy' '$tmp/tk.npy'"
  expect_fail trace-kernel-unknown 1 "no kernel of that name" "$tessel" run "$tmp/digits.tpkg" --input "$digits/digits_cnn.in0.npy" --trace "$tmp/u.fst" --trace-kernel nope
fi

# The C model's command timeline: one event per command each unit completed.
t timeline-model bash -c "'$tessel' run '$tmp/digits.tpkg' -q --engine model --timeline --input '$digits/digits_cnn.in0.npy' -o '$tmp/tl.npy' --profile '$tmp/tl.json' &&
  n=\$(grep -o '\"unit\"' '$tmp/tl.json' | wc -l) &&
  cmds=\$(grep -o '\"total\": {[^}]*' '$tmp/tl.json' | grep -o '\"\(LOAD\|EXEC\|STORE\)_CMDS\": [0-9]*' | grep -o '[0-9]*\$' | paste -sd+ | bc) &&
  [ \"\$n\" -gt 0 ] && [ \"\$n\" = \"\$cmds\" ]"
# On the SoC: the simulator's command spans, paired with the C model's ops;
# one event per command, and per unit the spans add up to the unit's busy
# counter within a cycle per command.
t timeline-rtl bash -c "'$tessel' run '$tmp/kinds_npu8.tpkg' -q --timeline --input '$kinds.in0.npy' -o '$tmp/tr.npy' --profile '$tmp/tr.json' &&
  n=\$(grep -o '\"unit\"' '$tmp/tr.json' | wc -l) &&
  cmds=\$(grep -o '\"total\": {[^}]*' '$tmp/tr.json' | grep -o '\"\(LOAD\|EXEC\|STORE\)_CMDS\": [0-9]*' | grep -o '[0-9]*\$' | paste -sd+ | bc) &&
  [ \"\$n\" -gt 0 ] && [ \"\$n\" = \"\$cmds\" ] &&
  ex=\$(grep -o '{\"unit\": \"EXEC\"[^}]*}' '$tmp/tr.json' | sed 's/.*\"start\": \([0-9]*\), \"end\": \([0-9]*\).*/\2-\1/' | paste -sd+ | bc) &&
  busy=\$(grep -o '\"total\": {[^}]*' '$tmp/tr.json' | grep -o '\"EXEC_BUSY\": [0-9]*' | grep -o '[0-9]*\$') &&
  ncmd=\$(grep -o '\"total\": {[^}]*' '$tmp/tr.json' | grep -o '\"EXEC_CMDS\": [0-9]*' | grep -o '[0-9]*\$') &&
  d=\$((ex - busy)); [ \$d -lt 0 ] && d=\$((-d)); [ \$d -le \$ncmd ]"
expect_fail timeline-needs-profile 2 "needs --profile" "$tessel" run "$tmp/digits.tpkg" --timeline --input "$digits/digits_cnn.in0.npy"

# Dumps: both engines leave the same tensors (I/O, every fallback op's input
# and output); the float and int8 references' dumps line up by name.
t dump-rtl "$tessel" run "$tmp/digits.tpkg" -q --input "$digits/digits_cnn.in0.npy" -o "$tmp/d.npy" --dump-tensors "$tmp/dump_rtl"
t dump-model "$tessel" run "$tmp/digits.tpkg" -q --engine model --input "$digits/digits_cnn.in0.npy" -o "$tmp/d.npy" --dump-tensors "$tmp/dump_model"
t dump-engines-equal bash -c "'$tessel' compare '$tmp/dump_rtl' '$tmp/dump_model' >'$tmp/dc.txt' && grep -q '^_Softmax.fallback_out.npy .* 10  *10 ' '$tmp/dc.txt' && grep -q '^image.fallback_out.npy  *int8' '$tmp/dc.txt'"
t dump-ref-float "$tessel" ref "$digits/digits_cnn.onnx" --input "$digits/digits_cnn.in0.npy" -o "$tmp/f.npy" --dump-tensors "$tmp/dump_float"
t dump-ref-int8 "$tessel" ref "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --input "$digits/digits_cnn.in0.npy" -o "$tmp/q.npy" --dump-tensors "$tmp/dump_int8"
expect_fail dump-float-vs-int8 4 "" bash -c "'$tessel' compare '$tmp/dump_float' '$tmp/dump_int8' >'$tmp/fq.txt'; rc=\$?; grep -q '^_Relu_output_0.npy  *float32  *float32  *512 ' '$tmp/fq.txt' || exit 9; exit \$rc"
t dump-int8-vs-rtl-io "$tessel" compare "$tmp/dump_int8/probs.npy" "$tmp/dump_rtl/probs.npy"
expect_fail compare-missing 1 "cannot open" "$tessel" compare "$tmp/nonexistent.npy" "$tmp/f.npy"
expect_fail compare-usage 2 "give two" "$tessel" compare "$tmp/f.npy"
expect_fail compare-file-vs-dir 1 "one is a folder" "$tessel" compare "$tmp/f.npy" "$tmp/dump_rtl"
# Labels are class indices: a negative one is an error, one beyond the
# classes voids the accuracy (both used to count as silent misses).
cp "$digits/digits.labels.npy" "$tmp/lab_neg.npy" && printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$tmp/lab_neg.npy" bs=1 seek=128 conv=notrunc status=none
cp "$digits/digits.labels.npy" "$tmp/lab_big.npy" && printf '\x63' | dd of="$tmp/lab_big.npy" bs=1 seek=128 conv=notrunc status=none
expect_fail compare-label-negative 1 "lab_neg.npy: element 0 is -1: labels are class indices" "$tessel" compare "$digits/digits.test.npy" "$digits/digits.test.npy" --labels "$tmp/lab_neg.npy"
t compare-label-beyond-classes bash -c "'$tessel' compare '$digits/digits.test.npy' '$digits/digits.test.npy' --labels '$tmp/lab_big.npy' | grep -q '(labels: 1 of them not below the 64 classes, ignored)'"
# The message names both shapes (it used to say "4 and 4 dimensions or sizes").
expect_fail compare-shapes 1 "kinds.in0.npy: the shapes differ (\[1,5,9,9\] and \[1,1,8,8\])" "$tessel" compare "$kinds.in0.npy" "$digits/digits_cnn.in0.npy"

# --int8-io: the package takes the int8 input the int8 reference computes
# (its dump), and its output still equals the reference bit for bit.
t int8-io-compile "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --int8-io -o "$tmp/digits_i8.tpkg"
t int8-io-no-quantize bash -c "'$tessel' inspect '$tmp/digits_i8.tpkg' | grep -q \"input  'image' int8 \[1,1,8,8\] nhwc-blocked\" && ! '$tessel' inspect '$tmp/digits_i8.tpkg' | grep -q QuantizeLinear"
t int8-io-rtl "$tessel" run "$tmp/digits_i8.tpkg" -q --input "$tmp/dump_int8/image.q.npy" -o "$tmp/digits_i8.npy"
t int8-io-equals-int8-ref "$tessel" compare "$tmp/digits_int8.npy" "$tmp/digits_i8.npy"
expect_fail int8-io-float-input 1 "must be int8 \[1,1,8,8\]" "$tessel" run "$tmp/digits_i8.tpkg" --engine model --input "$digits/digits_cnn.in0.npy"

# NaN/Inf in float input data: every engine quantises it alike (NaN to the
# zero point, Inf to the limits), so run and ref warn, naming the input, the
# count and the first element, and still succeed (it used to pass silently).
sz=$(stat -c %s "$digits/digits_cnn.in0.npy")
cp "$digits/digits_cnn.in0.npy" "$tmp/nan_in.npy"
printf '\x00\x00\xc0\x7f' | dd of="$tmp/nan_in.npy" bs=1 seek=$((sz - 256 + 20)) conv=notrunc status=none # element 5: NaN
printf '\x00\x00\x80\xff' | dd of="$tmp/nan_in.npy" bs=1 seek=$((sz - 256 + 28)) conv=notrunc status=none # element 7: -Inf
cp "$digits/digits_cnn.in0.npy" "$tmp/inf_in.npy"
printf '\x00\x00\x80\x7f' | dd of="$tmp/inf_in.npy" bs=1 seek=$((sz - 4)) conv=notrunc status=none # element 63: Inf
nanwarn="input 'image' holds 2 NaN/Inf values, the first (NaN) at element 5: quantisation maps NaN to the zero point"
for engine in model rtl; do
  t "nan-input-$engine" bash -c "'$tessel' run '$tmp/digits.tpkg' --engine $engine -q --input '$tmp/nan_in.npy' -o '$tmp/nan_$engine.npy' 2>'$tmp/nan_$engine.err' &&
    grep -qF \"tessel run: warning: $tmp/nan_in.npy: $nanwarn\" '$tmp/nan_$engine.err' && [ -s '$tmp/nan_$engine.npy' ]"
done
t nan-input-engines-agree "$tessel" compare "$tmp/nan_model.npy" "$tmp/nan_rtl.npy"
t nan-input-ref-int8 bash -c "'$tessel' ref '$digits/digits_cnn.onnx' --calib '$digits/digits.calib.npy' --input '$tmp/nan_in.npy' -o '$tmp/nan_ref.npy' 2>'$tmp/nan_ref.err' &&
  grep -qF \"tessel ref: warning: $tmp/nan_in.npy: $nanwarn\" '$tmp/nan_ref.err'"
t nan-input-ref-int8-equals-run "$tessel" compare "$tmp/nan_ref.npy" "$tmp/nan_rtl.npy"
t inf-input-ref-float bash -c "'$tessel' ref '$digits/digits_cnn.onnx' --input '$tmp/inf_in.npy' -o '$tmp/inf_ref.npy' 2>'$tmp/inf_ref.err' &&
  grep -qF \"input 'image' holds 1 NaN/Inf value, the first (Inf) at element 63: the float reference computes with them as they are, so outputs that depend on it\" '$tmp/inf_ref.err'"
# The SoC's float/int8 converter (docs/memory-map.md, CVT) quantises the
# input and dequantises the logits: on an input of every float class (+-0,
# +-Inf, NaNs, subnormals, the largest floats, +-1) and of the codes'
# boundaries (k + 0.5) / 255 (digits' input scale) and the floats either
# side, every fallback op's input and output equals the C model's, whose
# core code converts.
words="00000000 80000000 7f800000 ff800000 7fc00000 ffc00001 7f800001 00000001 807fffff 00800000 7f7fffff ff7fffff
  3f800000 bf800000 3b008081 3b008082 3b008080 3bc0c0c2 3bc0c0c3 3bc0c0c1 3c20a0a1 3c20a0a2 3c20a0a0 3c60e0e2
  3c60e0e3 3c60e0e1 3e818182 3e818183 3e818181 3f000000 3f000001 3effffff 3f010102 3f010103 3f010101 3f49494a
  3f49494b 3f494949 3f7f7f80 3f7f7f81 3f7f7f7f 3f804041 3f804042 3f804040 bb008081 bb008080 bb008082 bbc0c0c2
  bbc0c0c1 bbc0c0c3 bf000000 beffffff bf000001 3e970588 3f148dce 3f355def 3f87ebb5 3f1364c8 3f81bcfd bf90b089
  bda8f8b6 3f8832fe 3eb70f58 3f765032"
head -c $((sz - 256)) "$digits/digits_cnn.in0.npy" >"$tmp/classes_in.npy"
for w in $words; do printf "\\x${w:6:2}\\x${w:4:2}\\x${w:2:2}\\x${w:0:2}"; done >>"$tmp/classes_in.npy"
for engine in model rtl; do
  t "converter-classes-$engine" "$tessel" run "$tmp/digits.tpkg" --engine $engine -q --input "$tmp/classes_in.npy" \
    -o "$tmp/classes_$engine.npy" --dump-tensors "$tmp/classes_$engine"
done
t converter-classes-engines-agree bash -c "ls '$tmp/classes_model' | grep -q '[.]npy\$' && cmp '$tmp/classes_model.npy' '$tmp/classes_rtl.npy' &&
  for f in '$tmp/classes_model'/*.npy; do cmp \"\$f\" '$tmp/classes_rtl'/\"\$(basename \"\$f\")\" || exit 1; done"
# 8-bit relayouts between BLOCKED and PLAIN (core_ops.onnx: records beside
# the core's kernels) are the converter's copies on the SoC: every fallback
# op's input and output equals the C model's.
ops=$models/lower/core_ops
t converter-relayouts-compile bash -c "'$tessel' compile '$ops.onnx' --calib '$ops.calib.npy' -o '$tmp/core_ops.tpkg' >/dev/null &&
  '$tessel' inspect '$tmp/core_ops.tpkg' | grep -q 'Relayout'"
for engine in model rtl; do
  t "converter-relayouts-$engine" "$tessel" run "$tmp/core_ops.tpkg" --engine $engine -q --input "$ops.in0.npy" \
    -o "$tmp/core_ops_$engine.npy" --dump-tensors "$tmp/core_ops_$engine"
done
t converter-relayouts-engines-agree bash -c "ls '$tmp/core_ops_model' | grep -q 'fallback_out' &&
  for f in '$tmp/core_ops_model'/*.npy; do cmp \"\$f\" '$tmp/core_ops_rtl'/\"\$(basename \"\$f\")\" || exit 1; done"
# Fallback ops beside the NPU (lower/beside.onnx: two Softmax outputs the
# convolutions do not need; docs/runtime.md): the compiler's counts, both
# engines equal to the int8 reference (the C model runs the records after a
# run before it, so a count that promised too much shows as a difference),
# the SoC's timeline marks the four records beside, its trace draws each
# run over them.
bs=$models/lower/beside
t beside-compile "$tessel" compile "$bs.onnx" --calib "$bs.calib.npy" -o "$tmp/beside.tpkg"
t beside-counts bash -c "'$tessel' inspect '$tmp/beside.tpkg' | grep -c 'beside kernels' | grep -qx 4"
t beside-int8-ref "$tessel" ref "$bs.onnx" --calib "$bs.calib.npy" --input "$bs.in0.npy" \
  -o "$tmp/beside_y.npy" -o "$tmp/beside_px.npy" -o "$tmp/beside_pr.npy"
for engine in model rtl; do
  t "beside-$engine" "$tessel" run "$tmp/beside.tpkg" --engine $engine -q --input "$bs.in0.npy" --profile "$tmp/beside_$engine.json" \
    -o "$tmp/beside_y_$engine.npy" -o "$tmp/beside_px_$engine.npy" -o "$tmp/beside_pr_$engine.npy"
  for o in y px pr; do t "beside-$engine-$o-equals-int8-ref" cmp "$tmp/beside_$o.npy" "$tmp/beside_${o}_$engine.npy"; done
done
t beside-rtl-timeline bash -c "grep -c '\"beside\": true' '$tmp/beside_rtl.json' | grep -qx 4"
t beside-rtl-trace bash -c "'$tessel' profile '$tmp/beside_rtl.json' --format chrome | grep -c '\"cat\": \"kernel\"' | grep -qx 2"
t finite-input-no-warning bash -c "'$tessel' run '$tmp/digits.tpkg' --engine model -q --input '$digits/digits_cnn.in0.npy' -o '$tmp/fin.npy' 2>&1 | grep -c warning | grep -qx 0"

# 3. The firmware's own checks: damaged packages handed past the host's.
pkg=$tmp/digits.tpkg
sect() { "$tessel" inspect "$pkg" | awk -v s="$1" '$1 == s { print $3 }'; }
io_off=$(sect IO) k_off=$(sect KERNELS) s_off=$(sect STREAMS) w_off=$(sect WEIGHTS) fb_off=$(sect FALLBACK)
le32() { printf '%02X%02X%02X%02X' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
sim=$build/npu8/tessel-sim fw=$build/firmware/npu8/tessel-fw.elf
size=$(stat -c %s "$pkg")
rej() { # rej NAME EXPECTED ARGS...
  local name=$1 want=$2; shift 2
  "$reject" "$pkg" "$sim" "$fw" "$@" >"$tmp/rej-$name.log" 2>&1
  if grep -q -- "$want" "$tmp/rej-$name.log"; then ok "firmware-rejects-$name"
  else ko "firmware-rejects-$name (wanted '$want')"; sed 's/^/  /' "$tmp/rej-$name.log" | tail -5; fi
}
rej good "^ok$"
rej truncated "PACKAGE/TRUNCATED" --truncate $((size - 100))
rej magic "PACKAGE/MAGIC" --patch 0:58
rej version "PACKAGE/VERSION" --patch 4:0100 # a version-1 header (the reader knows 2)
rej header-bit "PACKAGE/HEADER_CRC" --patch 20:37
rej streams-bit "PACKAGE/SECTION_CRC" --patch $((s_off + 5)):FF
rej kernels-bit "PACKAGE/SECTION_CRC" --patch $((k_off + 3)):80
rej weights-bit "PACKAGE/WEIGHTS_CRC" --patch $((w_off + 7)):A5 --check-weights
rej weights-lazy "^ok$" --patch $((w_off + 7)):A5
rej wrong-target "PACKAGE/TARGET" --patch 12:01020304 --fix-crc
rej hostile-total "PACKAGE/TRUNCATED" --patch 8:F0FFFFFF --fix-crc
rej io-offset "PACKAGE/IO" --patch $((io_off + 40)):00FFFFFF --fix-crc
rej kernel-cmds "PACKAGE/KERNEL" --patch $((k_off + 16)):FFFF0000 --fix-crc
rej cmd-opcode "PACKAGE/CMD_OPCODE" --patch "$s_off:FF" --fix-crc
# A package that drops work: FALLBACK cut from 3 records (416 bytes) to the
# first (136 bytes: the Dequantize and Softmax that write 'probs' gone). It used to load
# and run, exit 0 with probs all zeros.
fb_entry=$((64 + 16 * 5))
rej fallback-cut "PACKAGE/IO.*no kernel and no fallback record writes" --patch "$((fb_entry + 8)):$(le32 136)" --fix-crc
"$reject" "$pkg" "$sim" "$fw" --patch "$((fb_entry + 8)):$(le32 136)" --fix-crc --save "$tmp/fb_cut.tpkg" >/dev/null 2>&1
for engine in model rtl; do
  expect_fail "fallback-cut-run-$engine" 1 "not a valid package: IO: graph output that no kernel and no fallback record writes" \
    "$tessel" run "$tmp/fb_cut.tpkg" --engine $engine --input "$digits/digits_cnn.in0.npy" -o "$tmp/fb_cut.npy"
done
expect_fail fallback-cut-inspect 1 "bad package: IO: graph output that no kernel and no fallback record writes" "$tessel" inspect "$tmp/fb_cut.tpkg"
# A fallback record's beside counts past the kernel records (record 0 runs
# before kernel 0: behind, bytes 22..23, must be 0), the block of record 0's
# blocked output (operand 1: 24 + 56 + 52 = byte 132 of the record: above
# DIM; one below DIM holding the channels is a packed input's), and the
# target name's padding after its NUL.
rej fallback-beside "PACKAGE/FALLBACK.*beside counts pass the kernel records" --patch "$((fb_off + 20)):$(le32 $((1 << 16)))" --fix-crc
rej fallback-block "PACKAGE/FALLBACK.*not this NPU's DIM" --patch "$((fb_off + 132)):$(le32 12345)" --fix-crc
"$reject" "$pkg" "$sim" "$fw" --patch "$((fb_off + 132)):$(le32 16)" --fix-crc --save "$tmp/fb_block.tpkg" >/dev/null 2>&1
expect_fail fallback-block-run-model 1 "not this NPU's DIM" \
  "$tessel" run "$tmp/fb_block.tpkg" --engine model --input "$digits/digits_cnn.in0.npy" -o "$tmp/fb_block.npy"
rej target-padding "PACKAGE/HEADER.*target name not NUL-padded" --patch 25:FF --fix-crc

# The watchdog: a kernel given 300 cycles is aborted and reported, never a hang.
expect_fail watchdog-abort 1 "TIMEOUT/ABORTED: .*kernel 0" "$tessel" run "$pkg" --watchdog 300 --input "$digits/digits_cnn.in0.npy" -o "$tmp/w.npy"
expect_fail watchdog-usage 2 "expected cycles" "$tessel" run "$pkg" --watchdog 0 --input "$digits/digits_cnn.in0.npy"

# 4. Bad inputs to `tessel run`: exit 1 (2 for usage) and a message naming it.
expect_fail npy-dtype 1 "must be float32 \[1,1,8,8\]" "$tessel" run "$pkg" --input "$models/../npy/data/i32_3x1.npy"
expect_fail npy-shape 1 "must be float32 \[1,1,8,8\]" "$tessel" run "$pkg" --input "$kinds.in0.npy"
head -c 100 "$digits/digits_cnn.in0.npy" >"$tmp/trunc.npy"
expect_fail npy-truncated 1 "trunc.npy" "$tessel" run "$pkg" --input "$tmp/trunc.npy"
expect_fail npy-missing 1 "nonexistent.npy" "$tessel" run "$pkg" --input "$tmp/nonexistent.npy"
expect_fail input-name 1 "no tensor named 'nope'" "$tessel" run "$pkg" --input "nope=$digits/digits_cnn.in0.npy"
expect_fail input-count 1 "has 1 input, 0 given" "$tessel" run "$pkg"
expect_fail bad-package 1 "not a valid package: MAGIC" "$tessel" run "$digits/digits_cnn.onnx" --input "$digits/digits_cnn.in0.npy"
expect_fail engine 2 "expected rtl, model or board" "$tessel" run "$pkg" --engine fpga --input "$digits/digits_cnn.in0.npy"
expect_fail no-package 2 "no package given" "$tessel" run --input "$digits/digits_cnn.in0.npy"
expect_fail repeated-engine 2 "give --engine once" "$tessel" run "$pkg" --engine model --engine rtl --input "$digits/digits_cnn.in0.npy"
expect_fail trace-kernel-alone 2 "needs --trace" "$tessel" run "$pkg" --trace-kernel x --input "$digits/digits_cnn.in0.npy"
expect_fail output-name 1 "no tensor named 'nope'" "$tessel" run "$pkg" --engine model --input "$digits/digits_cnn.in0.npy" -o "nope=$tmp/x.npy"

expect_fail npy-check-unknown-option 2 "npy-check: unknown option '--frob'" "$bin/npy-check" --frob "$digits/digits_cnn.in0.npy"

# Outputs to a device are written in place, never renamed over it.
t output-dev-null bash -c "'$tessel' run '$pkg' -q --engine model --input '$digits/digits_cnn.in0.npy' -o /dev/null && [ -c /dev/null ]"
expect_fail output-folder 1 "is a folder" "$tessel" run "$pkg" --engine model --input "$digits/digits_cnn.in0.npy" -o "$tmp"

# Files that would be destroyed or hang: an output naming the package or an
# input is refused (they used to be overwritten), a FIFO as the package
# used to block in open(), a failed profile write left half a file.
cp "$pkg" "$tmp/own.tpkg"
cp "$digits/digits_cnn.in0.npy" "$tmp/own.npy"
expect_fail output-over-package 2 "is also an input (the package)" "$tessel" run "$tmp/own.tpkg" --engine model --input "$tmp/own.npy" -o "$tmp/own.tpkg"
expect_fail output-over-input 2 "is also an input (--input)" "$tessel" run "$tmp/own.tpkg" --engine model --input "$tmp/own.npy" -o "$tmp/own.npy"
expect_fail profile-over-input 2 "is also an input (--input)" "$tessel" run "$tmp/own.tpkg" --engine model --input "$tmp/own.npy" --profile "$tmp/own.npy"
expect_fail profile-and-output 2 "the same file is also --output" "$tessel" run "$tmp/own.tpkg" --engine model --input "$tmp/own.npy" -o "$tmp/o.x" --profile "$tmp/o.x"
t own-files-unchanged bash -c "cmp '$tmp/own.tpkg' '$pkg' && cmp '$tmp/own.npy' '$digits/digits_cnn.in0.npy'"
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
expect_fail package-fifo 1 "fifo: not a regular file" timeout 20 "$tessel" run "$tmp/fifo" --engine model --input "$tmp/own.npy"
expect_fail package-folder 1 "is a folder" "$tessel" run "$tmp" --engine model --input "$tmp/own.npy"
expect_fail max-cycles-overflow 2 "expected a positive number below 2^64" "$tessel" run "$pkg" --max-cycles 99999999999999999999 --input "$tmp/own.npy"
echo old >"$tmp/keep.json"
expect_fail profile-failed-write 1 "keep.json: write failed: File too large" \
  bash -c "trap '' XFSZ; ulimit -f 4; exec '$tessel' run '$pkg' -q --engine model --input '$tmp/own.npy' --profile '$tmp/keep.json' --timeline"
t profile-failed-write-keeps-old bash -c "[ \"\$(cat '$tmp/keep.json')\" = old ] && ! ls '$tmp' | grep -q 'keep.json.tmp'"

# 4b. A killed run leaves nothing behind: SIGINT, SIGTERM or SIGHUP while
#     the simulator runs (360 digits take ~20 s) stop the simulator and
#     remove the request folder, which is under $TMPDIR; a run that ends
#     normally leaves $TMPDIR empty too.
for sig in INT TERM HUP; do
  killed_clean "killed-run-$sig" $sig 'pgrep -f -- "$scratch/tessel-run-" >/dev/null' \
    "$tessel" run "$tmp/digits.tpkg" -q --input "$digits/digits.test.npy" -o "$tmp/killed.npy"
done
mkdir -p "$tmp/tmpdir-ok"
t run-with-tmpdir env TMPDIR="$tmp/tmpdir-ok" "$tessel" run "$tmp/digits.tpkg" -q --input "$digits/digits_cnn.in0.npy" -o "$tmp/tmpdir.npy"
t run-leaves-tmpdir-empty test -z "$(ls -A "$tmp/tmpdir-ok")"
expect_fail run-tmpdir-missing 1 "cannot make a temporary folder in $tmp/no-such-dir: No such file or directory" \
  env TMPDIR="$tmp/no-such-dir" "$tessel" run "$tmp/digits.tpkg" -q --input "$digits/digits_cnn.in0.npy"

# 5. Mismatched builds: each side says what to rebuild.
expect_fail sim-target 1 "built for npu8.*package for npu4.*rebuild" \
  "$tessel" run "$tmp/kinds_npu4.tpkg" --sim "$build/npu8/tessel-sim" --input "$kinds.in0.npy"
expect_fail firmware-target 1 "firmware .* is built for target hash" \
  "$tessel" run "$tmp/digits.tpkg" --firmware "$build/firmware/npu4/tessel-fw.elf" --input "$digits/digits_cnn.in0.npy"
expect_fail sim-folder 1 "no simulator for target npu8 at $tmp " \
  "$tessel" run "$tmp/digits.tpkg" --sim "$tmp" --input "$digits/digits_cnn.in0.npy"
expect_fail no-sim 1 "no simulator for target npu8" \
  "$tessel" run "$tmp/digits.tpkg" --sim "$tmp/nonexistent-sim" --input "$digits/digits_cnn.in0.npy"

# 6. --version everywhere, one release number.
t versions bash -c "v=\$('$tessel' --version | awk '{print \$2}'); for b in tessel-iss tessel-npu-model tsl-gen npy-check; do
  '$bin'/\$b --version | grep -q \"^\$b \$v\" || exit 1; done; '$tessel' run --version | grep -q 'runtime 1' &&
  '$build/npu8/tessel-sim' --version | grep -q 'target npu8 hash'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
