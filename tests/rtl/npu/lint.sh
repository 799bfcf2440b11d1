#!/bin/bash
# verilator --lint-only -Wall of every NPU module (each as its own top, so a
# block not yet used by tessel_npu is linted too) for npu2, npu4, npu8, npu16 and npu8-arty.
#   lint.sh GEN_DIR RTL.sv...
set -u
gen=$1; shift
pass=0 fail=0
for t in npu2 npu4 npu8 npu16 npu8-arty; do
  for f in "$@"; do
    m=$(basename "$f" .sv)
    if out=$(verilator --lint-only -Wall --top-module "$m" "$gen/$t/tessel_target_pkg.sv" "$gen/tessel_isa_pkg.sv" "$@" 2>&1); then
      pass=$((pass + 1))
    else
      echo "$out" | head -n 20; echo "FAIL lint $m at $t"; fail=$((fail + 1))
    fi
  done
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
