#!/bin/bash
# Runs every NPU unit bench binary given; each prints "N passed, N failed".
# Sums them into one final line for the runner.
set -u
pass=0 fail=0
for b in "$@"; do
  echo "== $b"
  out=$("$b" 2>&1); rc=$?
  echo "$out" | grep -v '^PASS' | tail -n 40
  line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [[ -n $line ]]; then
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    pass=$((pass + p)); fail=$((fail + f))
    [[ $rc -ne 0 && $f -eq 0 ]] && fail=$((fail + 1))
  else
    echo "FAIL $b: no summary (exit $rc)"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
