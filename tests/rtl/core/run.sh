#!/bin/bash
# Runs the core bench for both multiplier builds over every program in PROGDIR
# and prints one total "N passed, N failed" line. Programs named in TIMED read
# timing-dependent state; all others must give the same commit trace under
# every memory timing (--same-trace).
#   run.sh TB_FASTMUL1 TB_FASTMUL0 PROGDIR "TIMED NAMES" [TB_LITE]
# With TB_LITE (the bench built on tessel_core_lite), the lite core runs the
# same programs and timings, and its commit trace of every untimed program
# must equal the full core's (one instruction at a time, the same retirements).
set -u
tb1=$1 tb0=$2 dir=$3 timed=" $4 " tbl=${5:-}
same=() other=()
for bin in "$dir"/*.bin; do
  name=$(basename "$bin" .bin)
  if [[ "$timed" == *" $name "* ]]; then other+=("$bin"); else same+=("$bin"); fi
done
pass=0 fail=0
run() {
  local out rc line
  out=$("$@" 2>&1); rc=$?
  echo "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'
  line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [[ -z "$line" ]]; then
    echo "bench did not finish (exit $rc): $*"; fail=$((fail + 1)); return
  fi
  pass=$((pass + ${line%% passed*}))
  local f=${line#*passed, }; fail=$((fail + ${f%% failed}))
}
for tb in "$tb1" "$tb0"; do
  label=FastMul=1; [[ $tb == "$tb0" ]] && label=FastMul=0
  [[ ${#same[@]} -gt 0 ]] && run "$tb" --label "$label" --same-trace "${same[@]}"
  [[ ${#other[@]} -gt 0 ]] && run "$tb" --label "$label" "${other[@]}"
  # more random stall/latency patterns (fixed seeds: reproducible)
  for seed in 2 3 4 5 6 7 8 9; do
    run "$tb" --label "$label/seed$seed" --config random --seed "$seed" "${same[@]}" "${other[@]}"
  done
done
if [[ -n "$tbl" ]]; then
  # the lite core takes about 4x the cycles: compiled C on slow memory needs more
  [[ ${#same[@]} -gt 0 ]] && run "$tbl" --label lite --max-cycles 20000000 --same-trace "${same[@]}"
  [[ ${#other[@]} -gt 0 ]] && run "$tbl" --label lite "${other[@]}"
  for seed in 2 3 4 5; do
    run "$tbl" --label "lite/seed$seed" --config random --seed "$seed" --max-cycles 20000000 "${same[@]}" "${other[@]}"
  done
  tmp=$(mktemp -d)
  for bin in "${same[@]}"; do
    name=$(basename "$bin" .bin)
    "$tb1" --config ideal --trace-commits "$tmp/full.trace" "$bin" >/dev/null 2>&1
    "$tbl" --config ideal --trace-commits "$tmp/lite.trace" "$bin" >/dev/null 2>&1
    if [[ -s "$tmp/full.trace" ]] && cmp -s "$tmp/full.trace" "$tmp/lite.trace"; then
      echo "PASS lite $name: commit trace equals the full core's ($(wc -l <"$tmp/full.trace") commits)"
      pass=$((pass + 1))
    else
      echo "FAIL lite $name: commit trace differs from the full core's"
      diff "$tmp/full.trace" "$tmp/lite.trace" | head -n 4; fail=$((fail + 1))
    fi
  done
  rm -rf "$tmp"
fi
# a custom timing from the command line: very slow, rarely ready
run "$tb1" --label FastMul=1/custom --timing 20,30,60 "$dir"/alu.bin "$dir"/ldst.bin "$dir"/irq.bin
# bad arguments must give a clear error and a non-zero exit
if out=$("$tb1" --timing 0,1,2 "$dir"/alu.bin 2>&1); then
  echo "FAIL bench accepted --timing 0,1,2"; fail=$((fail + 1))
elif [[ "$out" == *"--timing '0,1,2'"* ]]; then
  pass=$((pass + 1))
else
  echo "FAIL bench error for a bad --timing unclear: $out"; fail=$((fail + 1))
fi
# a bad program path must give a clear error and a non-zero exit
if out=$("$tb1" /nonexistent.bin 2>&1); then
  echo "FAIL bench accepted a missing program"; fail=$((fail + 1))
elif [[ "$out" == *"/nonexistent.bin: cannot open"* ]]; then
  pass=$((pass + 1))
else
  echo "FAIL bench error for a missing program unclear: $out"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
