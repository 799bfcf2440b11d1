#!/bin/bash
# bench-compile-scale: how compile time grows with the node count.  Prints,
# for chains of 2k, 10k and 20k nodes (tests/compiler/gen_chain.sh), the wall
# time of `tessel opt` (parse, verify, shape-infer, dce, print) on a Relu chain
# and of `tessel compile --calib` (ptq, qdq-fold, lowering, package) on a
# Conv/Relu chain.  Linear growth is the goal: 10x the nodes, ~10x the time.
#   tests/compiler/bench_scale.sh TESSEL [SIZES...]
set -eu
tessel=$1
shift
sizes=${*:-2000 10000 20000}
tmp=build/bench-tmp/compile-scale
mkdir -p "$tmp"
calib=tests/compiler/inputs/quant_x_2.npy
TIMEFORMAT=%R
# seconds CMD...: runs CMD (output discarded), prints its wall time in seconds.
seconds() { { time "$@" >/dev/null 2>"$tmp/err"; } 2>&1 || { cat "$tmp/err" >&2; return 1; }; }
printf '%-8s %14s %18s\n' nodes "opt relu (s)" "compile conv (s)"
for n in $sizes; do
  bash tests/compiler/gen_chain.sh "$n" relu >"$tmp/relu$n.tir"
  bash tests/compiler/gen_chain.sh "$n" conv >"$tmp/conv$n.tir"
  o=$(seconds "$tessel" opt "$tmp/relu$n.tir" --pass=dce -o "$tmp/relu$n.out.tir")
  c=$(seconds "$tessel" compile "$tmp/conv$n.tir" --calib $calib -o "$tmp/conv$n.tpkg")
  printf '%-8s %14s %18s\n' "$n" "$o" "$c"
done
