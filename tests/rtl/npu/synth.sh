#!/bin/bash
# yosys 0.23 synthesis of the NPU: the top NPU module (tessel_npu when it
# exists, else the EXEC unit) at npu8 must synthesise without a warning;
# at npu16 it must read and its hierarchy resolve (a full elaboration takes minutes). Memories stay $mem cells (as the
# SoC's gate flow keeps them), so the run is quick.
#   synth.sh GEN_DIR OUT_DIR RTL.sv...
set -u
gen=$1; out=$2; shift 2
mkdir -p "$out"
top=npu_exec
for f in "$@"; do [[ $(basename "$f") == tessel_npu.sv ]] && top=tessel_npu; done
pass=0 fail=0
# Register arrays (configuration registers, loop stack) are meant as flops:
# yosys's note that it keeps such an array as registers is not a defect.
benign='Replacing memory .* with list of registers'
reads() { local r="read_verilog -sv $gen/$1/tessel_target_pkg.sv $gen/tessel_isa_pkg.sv"; shift
          for f in "$@"; do r+=" $f"; done; echo "$r"; }
log=$out/npu8.log
if yosys -q -l "$log" -p "$(reads npu8 "$@"); synth -top $top -flatten -noshare -run begin:fine; opt -fast; check -assert; stat" \
     >/dev/null 2>&1 && ! grep "^Warning:" "$log" | grep -qv "$benign"; then
  echo "PASS yosys synth $top npu8"; pass=$((pass + 1))
else
  grep -i -A2 'warning\|error' "$log" | grep -v "$benign" | head -n 20; echo "FAIL yosys synth $top npu8"; fail=$((fail + 1))
fi
log=$out/npu16.log
if yosys -q -l "$log" -p "$(reads npu16 "$@"); hierarchy -check -top $top" >/dev/null 2>&1; then
  echo "PASS yosys elaboration $top npu16"; pass=$((pass + 1))
else
  grep -i -A2 'error' "$log" | head -n 20; echo "FAIL yosys elaboration $top npu16"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
