#!/bin/bash
# gen_chain.sh N KIND: prints a textual-IR graph (.tir) that is a chain of N
# nodes on a 1x1x1x2 float input, for the compile-time scaling bench and test.
#   KIND relu  N Relu nodes
#   KIND conv  Conv (1x1, one shared weight and bias) and Relu alternating,
#              which ptq quantises, so `tessel compile --calib` builds a package
#              (tests/compiler/inputs/quant_x_2.npy fits the input)
# Shell and awk only: tests and benches may not need python.
set -eu
if [[ $# -ne 2 || ! $1 =~ ^[0-9]+$ || ( $2 != relu && $2 != conv ) ]]; then
  echo "usage: gen_chain.sh N relu|conv" >&2
  exit 2
fi
n=$1 kind=$2
echo "graph \"chain_${kind}_$n\" {"
echo "  %x : f32[1,1,1,2] = input"
if [[ $kind == conv ]]; then
  echo "  %w : f32[1,1,1,1] = const [0.5]"
  echo "  %b : f32[1] = const [0.25]"
fi
awk -v n="$n" -v k="$kind" 'BEGIN {
  p = "x"
  for (i = 0; i < n; i++) {
    if (k == "conv" && i % 2 == 0)
      printf "  %%v%d : f32[1,1,1,2] = Conv(%%%s, %%w, %%b) @\"n%d\"\n", i, p, i
    else
      printf "  %%v%d : f32[1,1,1,2] = Relu(%%%s) @\"n%d\"\n", i, p, i
    p = "v" i
  }
  printf "  return %%%s\n}\n", p
}'
