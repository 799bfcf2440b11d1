#!/bin/bash
# make bench-tune: the autotuner's figures at npu8 (docs/performance.md, "Tuned").
#   tests/tune/bench.sh TMP_DIR TESSEL FIT_EVAL PAIR_EVAL
# 1. Every net is tuned on the cycle-accurate SoC (engine rtl): digits and
#    tiny_cnn with a package per candidate; squeezenet1_1, mobilenet_v2 and
#    resnet18 (64x64), whose one run takes 15-30 s, with --batch (one
#    package per rank holds a candidate of every task) and a time budget
#    each (TUNE_BUDGET seconds, default 300; BENCH_TUNE_BIG=0 skips them).
# 2. Every net: the default package and the log's package run once on the
#    SoC; the NPU cycles (sum of the kernels' CYCLES) of both are printed.
# 3. The cost model's error against RTL cycles on a fixed kernel set: every
#    task of the five nets at its default schedule (the default package's
#    run); unfitted, refit leaving the net out, refit in sample, trained on
#    all the RTL measurements (fit_eval.c), each with PASS/FAIL against
#    the targets (mean abs error < 5%, Spearman > 0.95); the same
#    for every kernel of the default packages (pool, add and fallback-free
#    kernels too; pair_eval.c); and the tuner's own refit figures (in
#    sample, held out) per net.
# Figures only: the PASS/FAIL words are the figures' verdict, the benchmark
# itself fails only when a step cannot run.  Time: about 12 minutes on a
# shared 2-core machine (each big net's search stops at TUNE_BUDGET).
set -u
tmp=$1 tessel=$2 fit_eval=$3 pair_eval=$4
here=$(cd "$(dirname "$0")" && pwd)
models=$(cd "$here/../models" && pwd)
budget=${TUNE_BUDGET:-300}
rm -rf "$tmp" && mkdir -p "$tmp"
# A snapshot of the binaries: others may rebuild build/ while this runs, and
# `tessel run` finds the simulator and firmware next to itself (../npu8/).
build=$(cd "$(dirname "$tessel")/.." && pwd)
mkdir -p "$tmp/snap/bin" "$tmp/snap/npu8" "$tmp/snap/firmware/npu8"
cp "$tessel" "$tmp/snap/bin/" && cp "$build/npu8/tessel-sim" "$tmp/snap/npu8/" &&
  cp "$build/firmware/npu8/tessel-fw.elf" "$tmp/snap/firmware/npu8/" || { echo "cannot snapshot the binaries"; exit 1; }
tessel=$tmp/snap/bin/$(basename "$tessel")

# Per-kernel "estimate cycles" of a profile (one kernel per line).
est_meas() { sed -n 's/.*"estimate_cycles": \([0-9]*\), "counters": {"CYCLES": \([0-9]*\),.*/\1 \2/p' "$1"; }
npu_cycles() { est_meas "$1" | awk '{ s += $2 } END { print s + 0 }'; }

nets="digits tiny_cnn"
[ "${BENCH_TUNE_BIG:-1}" = 0 ] || nets="$nets squeezenet1_1 mobilenet_v2 resnet18"
# Kernels of the tuned profile B faster / slower than in the default one A.
faster_slower() {
  paste -d' ' <(est_meas "$1") <(est_meas "$2") |
    awk '{ n++; if ($4 < $2) f++; else if ($4 > $2) s++ } END { printf "%d / %d of %d", f, s, n }'
}
printf "%-14s %-6s %10s %12s %12s %8s %7s  %s\n" net "on" "tune s" "default cyc" "tuned cyc" gain "same out" "kernels faster / slower"
for n in $nets; do
  case $n in
    digits) onnx=$models/digits/digits_cnn.onnx calib=$models/digits/digits.calib.npy in=$models/digits/digits_cnn.in0.npy
            eng=rtl extra="--trials 12" ;;
    *) onnx=$models/nets/$n.onnx calib=$models/calib/$n.calib.npy in=$models/nets/$n.in0.npy
       if [ "$n" = tiny_cnn ]; then eng=rtl extra="--trials 12"; else eng=rtl extra="--trials 6 --batch --time-budget $budget"; fi ;;
  esac
  # LAUNCHER=parallel|slurm (make bench-tune LAUNCHER=slurm LAUNCHER_OPTS='--partition P'): the
  # measurements on that launcher, each net's rounds in $tmp/$n.work (docs/tuning.md).
  case ${LAUNCHER:-local} in
    local) ;;
    *) extra="$extra --launcher $LAUNCHER --workdir $tmp/$n.work ${LAUNCHER_OPTS:-}" ;;
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
  printf "%-14s %-6s %10.1f %12d %12d %7.2f%% %7s  %s\n" "$n" "$eng" "$(echo "$t1 - $t0" | bc)" "$d" "$t" \
    "$(echo "scale=4; 100 * ($d - $t) / $d" | bc)" "$same" "$(faster_slower "$tmp/$n.def.json" "$tmp/$n.tun.json")"
done

echo
echo "cost model vs RTL cycles on a fixed kernel set (targets: mean abs error < 5%, Spearman > 0.95):"
logs=(); for n in $nets; do [ -s "$tmp/$n.jsonl" ] && logs+=("$tmp/$n.jsonl"); done
"$fit_eval" "${logs[@]}" 2>/dev/null
for n in $nets; do [ -s "$tmp/$n.def.json" ] && est_meas "$tmp/$n.def.json"; done >"$tmp/all-kernels.pairs"
"$pair_eval" <"$tmp/all-kernels.pairs" | awk '{ v = ($4 < 0.05 && $6 > 0.95) ? "PASS" : "FAIL"
  printf "  every kernel of the default packages (%d): unfitted mean abs error %.1f%%, Spearman %.3f  %s\n", $2, 100 * $4, $6, v }'
echo "the tuner's own refit on its RTL measurements (in sample; held out: fit on round 1, tested on round 2):"
for n in $nets; do
  grep "^cost model" "$tmp/$n.tune.txt" 2>/dev/null | sed -e "s/^/  $n: /" -e 's/ (weights:.*//'
done
echo "per-task reports: $tmp/*.tune.txt"
