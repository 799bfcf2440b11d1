#!/bin/bash
# A small lit-like runner: runs the `RUN:` lines of each test file and counts
# a test as passed when every RUN line exits 0 (pipefail).  Substitutions:
#   %s        the test file          %t   a scratch path for this test
#   %S        the test file's folder
#   %tessel   the tessel binary      %inputs  tests/compiler/inputs
#   %models   tests/models
#   FileCheck is FileCheck-14;  `not CMD` succeeds when CMD fails (no crash:
#   a signal or ASan abort, exit status >= 128, still counts as failure).
#   tests/compiler/lit.sh TESSEL_BINARY TEST_FILE...
# Ends with "N passed, N failed".
set -u
tessel=$(realpath "$1"); shift
root=$(cd "$(dirname "$0")" && pwd)
scratch=$(realpath -m build/test-tmp/filecheck)
mkdir -p "$scratch"
pass=0 fail=0

not() {
  "$@"
  local rc=$?
  [[ $rc -ne 0 && $rc -lt 128 ]]
}
FileCheck() { FileCheck-14 "$@"; }
export -f not FileCheck

for test in "$@"; do
  name=$(basename "$test")
  tmp="$scratch/$name.tmp"
  ok=1
  runs=0
  while IFS= read -r line; do
    cmd=${line#*RUN: }
    cmd=${cmd//%tessel/$tessel}
    cmd=${cmd//%inputs/$root/inputs}
    cmd=${cmd//%models/$root/../models}
    cmd=${cmd//%s/$(realpath "$test")}
    cmd=${cmd//%S/$(dirname "$(realpath "$test")")}
    cmd=${cmd//%t/$tmp}
    runs=$((runs + 1))
    if ! out=$(bash -o pipefail -c "$cmd" 2>&1); then
      ok=0
      echo "FAIL: $name"
      echo "  command: $cmd"
      echo "$out" | head -n 30 | sed 's/^/  | /'
      break
    fi
  done < <(grep -E '(//|#) RUN: ' "$test")
  if [[ $runs -eq 0 ]]; then
    ok=0
    echo "FAIL: $name (no RUN lines)"
  fi
  if [[ $ok -eq 1 ]]; then
    pass=$((pass + 1))
    echo "PASS: $name"
  else
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
