#!/bin/bash
# Runs every bench program on the core's yosys netlist (both multiplier
# builds): it must pass under stalling memory (jitter timing), and its commit
# trace under 1-cycle memory must equal the RTL model's, cycle for cycle.
#   gate.sh RTL_TB_FM1 GATE_TB_FM1 RTL_TB_FM0 GATE_TB_FM0 PROGDIR
set -u
dir=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {  # label rtl_tb gate_tb
  local label=$1 rtl=$2 gate=$3 bin name out
  for bin in "$dir"/*.bin; do
    name=$(basename "$bin" .bin)
    if out=$("$gate" --label "$label" --config jitter "$bin" 2>&1); then
      echo "PASS $label $name: netlist passes with stalling memory"; pass=$((pass + 1))
    else
      echo "FAIL $label $name: netlist: $(echo "$out" | grep -m1 -E 'FAIL|Error')"; fail=$((fail + 1))
    fi
    "$rtl" --config ideal --trace-commits "$tmp/rtl.trace" "$bin" >/dev/null 2>&1
    "$gate" --config ideal --trace-commits "$tmp/gate.trace" "$bin" >/dev/null 2>&1
    if [[ -s "$tmp/rtl.trace" ]] && cmp -s "$tmp/rtl.trace" "$tmp/gate.trace"; then
      echo "PASS $label $name: netlist commit trace equals the RTL's ($(wc -l <"$tmp/rtl.trace") commits)"
      pass=$((pass + 1))
    else
      echo "FAIL $label $name: commit traces differ"; diff "$tmp/rtl.trace" "$tmp/gate.trace" | head -n 4
      fail=$((fail + 1))
    fi
  done
}
check FastMul=1 "$1" "$2"
check FastMul=0 "$3" "$4"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
