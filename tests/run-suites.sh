#!/bin/bash
# Run test suites and total their results.
#   tests/run-suites.sh SUITE...
# Each suite is the make rule test-SUITE. Its count of passed/failed tests is
# read from its last "N passed, N failed" line, else from cmocka's
# "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)" lines, else from its exit
# status (one test). A suite that exits non-zero with no failure counted is
# counted as one failure. Full logs go to build/test-logs/SUITE.log.
# TEST_JOBS (default 1) is make's -j for a suite's prerequisites; the suites
# run one at a time.
set -u
logs=build/test-logs
mkdir -p "$logs"
total_pass=0 total_fail=0 failed_suites=()

for suite in "$@"; do
  log="$logs/$suite.log"
  start=$(date +%s%N)
  make --no-print-directory -s -j"${TEST_JOBS:-1}" "test-$suite" >"$log" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [[ -n "$line" ]]; then
    pass=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    fail=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
  elif grep -qE '^\[  (PASSED|FAILED)  \] [0-9]+ test' "$log"; then
    pass=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$log" | awk '{s+=$4} END {print s+0}')
    fail=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$log" | awk '{s+=$4} END {print s+0}')
  elif [[ $rc -eq 0 ]]; then
    pass=1 fail=0
  else
    pass=0 fail=1
  fi
  if [[ $rc -ne 0 && $fail -eq 0 ]]; then fail=1; fi
  total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
  echo "$ms" > "$logs/$suite.time"   # for make list-tests
  printf '%-24s %5d passed, %3d failed  %4d.%01ds\n' "$suite" "$pass" "$fail" $((ms / 1000)) $((ms % 1000 / 100))
  if [[ $fail -ne 0 ]]; then
    failed_suites+=("$suite")
    echo "---- last lines of $log ----"
    tail -n 30 "$log"
    echo "----"
  fi
done

[[ ${#failed_suites[@]} -ne 0 ]] && echo "failed suites: ${failed_suites[*]}"
echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 ]]
