#!/bin/bash
# The `profile` suite: the cmocka unit tests of the profiler's library, then
# the FileCheck-14 golden tests (tests/profile/*.test, run by
# tests/compiler/lit.sh with %tessel = the ASan build of tessel).
#   tests/profile/run.sh OBJ_DIR TESSEL
# OBJ_DIR holds test-profile and xml-check. Ends with "N passed, N failed".
set -u
obj=$1
tessel=$2
pass=0 fail=0

out=$("$obj/test-profile" 2>&1)
rc=$?
echo "$out" | grep -v -E '^\[ +(RUN|OK) +\]'
p=$(echo "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
f=$(echo "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed.*/\1/p')
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-0}))
if [[ $rc -ne 0 && ${f:-0} -eq 0 ]]; then fail=$((fail + 1)); fi # crashed before its summary

export XML_CHECK=$obj/xml-check NPU_MODEL=build/bin/tessel-npu-model
out=$(bash tests/compiler/lit.sh "$tessel" tests/profile/*.test 2>&1)
echo "$out" | sed '$d'
last=$(echo "$out" | tail -n 1)
if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  pass=$((pass + BASH_REMATCH[1]))
  fail=$((fail + BASH_REMATCH[2]))
else
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
