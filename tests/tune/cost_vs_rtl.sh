#!/bin/bash
# The cost model against the cycle-accurate SoC, per kernel.
#   tests/tune/cost_vs_rtl.sh TMP_DIR TESSEL PAIR_EVAL [NET...]
# NET: digits tiny_cnn squeezenet1_1 mobilenet_v2 resnet18 (default: all
# five).  Each net is compiled at npu8 with its default schedule and run
# once on the SoC (engine rtl, the target's DRAM timing) and once on the C
# model (engine model, whose counters are the cost model's), one net at a
# time.  Per kernel it prints the estimate (the package's estimate_cycles),
# the RTL's CYCLES, the error, and per unit the busy cycles of both (C model
# / RTL), so an error can be traced to the unit and the command class that
# is mispriced; then per net and over all kernels the mean absolute error
# and Spearman's rank correlation (pair_eval), and the kernels by error
# class (RTL's dominant unit; estimate within 5%, low, high).
# Figures only: it fails only when a step cannot run.
set -u
tmp=$1 tessel=$2 pair_eval=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
models=$(cd "$here/../models" && pwd)
nets=${*:-digits tiny_cnn squeezenet1_1 mobilenet_v2 resnet18}
mkdir -p "$tmp"
# A snapshot of the binaries (others may rebuild build/ meanwhile; `tessel
# run` finds the simulator and firmware next to itself).
build=$(cd "$(dirname "$tessel")/.." && pwd)
mkdir -p "$tmp/snap/bin" "$tmp/snap/npu8" "$tmp/snap/firmware/npu8"
cp "$tessel" "$tmp/snap/bin/" && cp "$build/npu8/tessel-sim" "$tmp/snap/npu8/" &&
  cp "$build/firmware/npu8/tessel-fw.elf" "$tmp/snap/firmware/npu8/" || { echo "cannot snapshot the binaries"; exit 1; }
tessel=$tmp/snap/bin/$(basename "$tessel")

# Per kernel of a profile: index est CYCLES LOAD_BUSY EXEC_BUSY STORE_BUSY name.
kern() {
  sed -n 's/.*{"index": \([0-9]*\), "id": [0-9]*, "name": "\([^"]*\)".*"estimate_cycles": \([0-9]*\), "counters": {"CYCLES": \([0-9]*\), "LOAD_BUSY": \([0-9]*\),.*"EXEC_BUSY": \([0-9]*\),.*"STORE_BUSY": \([0-9]*\),.*/\1 \3 \4 \5 \6 \7 \2/p' "$1"
}

all=$tmp/all.pairs
: >"$tmp/all.cls"
: >"$all"
for n in $nets; do
  case $n in
    digits) onnx=$models/digits/digits_cnn.onnx calib=$models/digits/digits.calib.npy in=$models/digits/digits_cnn.in0.npy ;;
    tiny_cnn | squeezenet1_1 | mobilenet_v2 | resnet18)
      onnx=$models/nets/$n.onnx calib=$models/calib/$n.calib.npy in=$models/nets/$n.in0.npy ;;
    *) echo "cost_vs_rtl: unknown net '$n' (digits tiny_cnn squeezenet1_1 mobilenet_v2 resnet18)"; exit 2 ;;
  esac
  "$tessel" compile "$onnx" --calib "$calib" --target npu8 -o "$tmp/$n.tpkg" 2>"$tmp/$n.err" || { echo "$n: compile failed"; cat "$tmp/$n.err"; exit 1; }
  for e in rtl model; do
    "$tessel" run "$tmp/$n.tpkg" --engine $e --input "$in" -o "$tmp/$n.$e.npy" --profile "$tmp/$n.$e.json" -q 2>"$tmp/$n.err" ||
      { echo "$n: $e run failed"; cat "$tmp/$n.err"; exit 1; }
  done
  kern "$tmp/$n.rtl.json" >"$tmp/$n.rtl.k"
  kern "$tmp/$n.model.json" >"$tmp/$n.model.k"
  echo "== $n (npu8): per kernel, estimate vs RTL; busy cycles per unit, C model / RTL"
  printf "%4s %9s %9s %7s  %-17s %-17s %-17s %-5s %s\n" idx est rtl err LOAD EXEC STORE dom name
  # join the two profiles by kernel index (same package, same order)
  paste -d' ' <(cut -d' ' -f1,3-6 "$tmp/$n.rtl.k") "$tmp/$n.model.k" | awk -v net="$n" '
    { # rtl: $1 idx $2 CYCLES $3-$5 busy L E S; C model: $6 idx $7 est $8 CYCLES $9-$11 busy; $12 name
      est = $7; rc = $2; rL = $3; rE = $4; rS = $5; mL = $9; mE = $10; mS = $11; name = $12
      err = rc ? 100 * (est - rc) / rc : 0
      dom = "LOAD"; if (rE >= rL && rE >= rS) dom = "EXEC"; else if (rS >= rL && rS >= rE) dom = "STORE"
      printf "%4d %9d %9d %6.1f%%  %8d/%-8d %8d/%-8d %8d/%-8d %-5s %s\n", $1, est, rc, err, mL, rL, mE, rE, mS, rS, dom, name
      cls = (err > 5 ? "high" : (err < -5 ? "low" : "ok"))
      print est, rc, net, dom, cls > "/dev/stderr"
    }' 2>"$tmp/$n.cls"
  awk '{ print $1, $2 }' "$tmp/$n.cls" >"$tmp/$n.pairs"
  cat "$tmp/$n.pairs" >>"$all"
  printf "%s: " "$n"; "$pair_eval" <"$tmp/$n.pairs" | awk '{ printf "%d kernels, mean abs error %.1f%%, Spearman %.3f\n", $2, 100 * $4, $6 }'
  cat "$tmp/$n.cls" >>"$tmp/all.cls"
  echo
done
printf "all nets: "; "$pair_eval" <"$all" | awk '{ printf "%d kernels, mean abs error %.1f%%, Spearman %.3f\n", $2, 100 * $4, $6 }'
echo "error classes (RTL's dominant unit x estimate within 5% / low / high: kernels, mean |err|):"
awk '{ e = ($1 - $2) / $2; if (e < 0) e = -e; k = $4 " " $5; c[k]++; s[k] += e } END { for (k in c) printf "  %-12s %4d kernels, mean |err| %5.1f%%\n", k, c[k], 100 * s[k] / c[k] }' "$tmp/all.cls" | sort
rm -f "$tmp/all.cls"
