#!/bin/bash
# verilator --lint-only -Wall for each multiplier configuration and the lite
# core, and a yosys
# read/elaboration check (the same RTL must be accepted by both tools).
#   lint.sh RTL.sv...
set -u
pass=0 fail=0
for fm in 1 0; do
  if verilator --lint-only -Wall "-GFastMul=1'b$fm" --top-module tessel_core "$@"; then
    echo "PASS verilator lint FastMul=$fm"; pass=$((pass + 1))
  else
    echo "FAIL verilator lint FastMul=$fm"; fail=$((fail + 1))
  fi
done
if verilator --lint-only -Wall --top-module tessel_core_lite "$@"; then
  echo "PASS verilator lint lite core"; pass=$((pass + 1))
else
  echo "FAIL verilator lint lite core"; fail=$((fail + 1))
fi
reads=""
for f in "$@"; do reads+="read_verilog -sv $f; "; done
for top in tessel_core tessel_core_lite; do
  if out=$(yosys -q -p "$reads hierarchy -check -top $top; proc; check -assert" 2>&1); then
    echo "PASS yosys elaboration $top"; pass=$((pass + 1))
  else
    echo "$out" | tail -n 20; echo "FAIL yosys elaboration $top"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
