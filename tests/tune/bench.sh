#!/bin/bash
# make bench-tune: the autotuner's figures at npu8 (docs/performance.md, "Tuned").
#   tests/tune/bench.sh TMP_DIR TESSEL
# 1. digits and tiny_cnn are tuned on the cycle-accurate SoC (engine rtl);
#    squeezenet1_1, mobilenet_v2 and resnet18 (64x64) on the C model with a
#    time budget each (TUNE_BUDGET seconds, default 60; BENCH_TUNE_BIG=0
#    skips them), since one RTL run of them takes 15-30 s.
# 2. Every net: the default package and the log's package run once on the
#    SoC; the NPU cycles (sum of the kernels' CYCLES) of both are printed.
# 3. The cost model's error against RTL cycles: the raw estimate on a fixed
#    kernel set (every kernel of the five default packages), and the tuner's
#    refit (in sample and held out) from the two RTL tunes.
# Figures only: nothing here fails on a threshold.
set -u
tmp=$1 tessel=$2
here=$(cd "$(dirname "$0")" && pwd)
models=$(cd "$here/../models" && pwd)
budget=${TUNE_BUDGET:-60}
rm -rf "$tmp" && mkdir -p "$tmp"

# Per-kernel "estimate cycles" of a profile (one kernel per line).
est_meas() { sed -n 's/.*"estimate_cycles": \([0-9]*\), "counters": {"CYCLES": \([0-9]*\),.*/\1 \2/p' "$1"; }
npu_cycles() { est_meas "$1" | awk '{ s += $2 } END { print s + 0 }'; }

nets="digits tiny_cnn"
[ "${BENCH_TUNE_BIG:-1}" = 0 ] || nets="$nets squeezenet1_1 mobilenet_v2 resnet18"
printf "%-14s %-6s %10s %12s %12s %8s %7s\n" net tuned "tune s" "default cyc" "tuned cyc" gain "same out"
for n in $nets; do
  case $n in
    digits) onnx=$models/digits/digits_cnn.onnx calib=$models/digits/digits.calib.npy in=$models/digits/digits_cnn.in0.npy
            eng=rtl extra="--trials 12" ;;
    *) onnx=$models/nets/$n.onnx calib=$models/calib/$n.calib.npy in=$models/nets/$n.in0.npy
       if [ "$n" = tiny_cnn ]; then eng=rtl extra="--trials 12"; else eng=model extra="--trials 12 --time-budget $budget"; fi ;;
  esac
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$tessel" tune "$onnx" --calib "$calib" --input "$in" --engine $eng --jobs 2 --seed 1 --log "$tmp/$n.jsonl" \
    --no-progress $extra >"$tmp/$n.tune.txt" 2>"$tmp/$n.tune.err" || { echo "$n: tune failed"; cat "$tmp/$n.tune.err"; continue; }
  t1=$(date +%s.%N)
  "$tessel" compile "$onnx" --calib "$calib" -o "$tmp/$n.def.tpkg" 2>/dev/null &&
  "$tessel" compile "$onnx" --calib "$calib" -o "$tmp/$n.tun.tpkg" --tuning-log "$tmp/$n.jsonl" 2>/dev/null || { echo "$n: compile failed"; continue; }
  for p in def tun; do
    "$tessel" run "$tmp/$n.$p.tpkg" --engine rtl --input "$in" -o "$tmp/$n.$p.npy" --profile "$tmp/$n.$p.json" -q ||
      echo "$n: rtl run of the $p package failed"
  done
  d=$(npu_cycles "$tmp/$n.def.json") t=$(npu_cycles "$tmp/$n.tun.json")
  same=no; cmp -s "$tmp/$n.def.npy" "$tmp/$n.tun.npy" && same=yes
  printf "%-14s %-6s %10.1f %12d %12d %7.2f%% %7s\n" "$n" "$eng" "$(echo "$t1 - $t0" | bc)" "$d" "$t" \
    "$(echo "scale=4; 100 * ($d - $t) / $d" | bc)" "$same"
done

echo
echo "cost model vs RTL cycles, fixed kernel set (every kernel of the default packages above):"
for n in $nets; do [ -f "$tmp/$n.def.json" ] && est_meas "$tmp/$n.def.json"; done >"$tmp/fixed.txt"
awk '
  { e[NR] = $1; m[NR] = $2; s += ($1 > $2 ? $1 - $2 : $2 - $1) / $2 }
  function rank(v, r,   i, j, less, same) {
    for (i = 1; i <= NR; i++) { less = 0; same = 0
      for (j = 1; j <= NR; j++) { if (v[j] < v[i]) less++; if (v[j] == v[i]) same++ }
      r[i] = less + (same + 1) / 2 } }
  END {
    if (NR < 2) { print "  (no kernels)"; exit }
    rank(e, re); rank(m, rm)
    for (i = 1; i <= NR; i++) { ma += re[i]; mb += rm[i] } ma /= NR; mb /= NR
    for (i = 1; i <= NR; i++) { sab += (re[i] - ma) * (rm[i] - mb); saa += (re[i] - ma) ^ 2; sbb += (rm[i] - mb) ^ 2 }
    printf "  unfitted estimate: %d kernels, mean abs error %.1f%%, Spearman %.3f\n", NR, 100 * s / NR, sab / sqrt(saa * sbb) }
' "$tmp/fixed.txt"
echo "cost model refit by the tuner on its RTL measurements (targets: MAE < 5%, Spearman > 0.95):"
for n in digits tiny_cnn; do
  grep "^cost model" "$tmp/$n.tune.txt" 2>/dev/null | sed "s/^/  $n: /"
done
echo "per-task reports: $tmp/*.tune.txt"
