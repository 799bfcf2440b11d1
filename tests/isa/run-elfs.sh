#!/bin/bash
# Run test ELFs on one or more simulators; each must exit 0.
#   tests/isa/run-elfs.sh [--expect-output DIR] RUNNER... -- ELF...
# A RUNNER is NAME=COMMAND (the ELF path is appended), e.g.
#   iss="build/bin/tessel-iss --max-insns 2000000"
# With --expect-output DIR, the run's stdout must also equal DIR/<test>.out.
# Prints one line per (runner, test) and ends with "N passed, N failed".
set -u
expect_dir=
if [[ ${1:-} == --expect-output ]]; then expect_dir=$2; shift 2; fi
runners=()
while [[ $# -gt 0 && $1 != -- ]]; do runners+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
if [[ ${#runners[@]} -eq 0 || $# -eq 0 ]]; then
  echo "usage: $0 [--expect-output DIR] NAME=COMMAND... -- ELF..." >&2
  exit 2
fi
pass=0 fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for r in "${runners[@]}"; do
  name=${r%%=*} cmd=${r#*=}
  for elf in "$@"; do
    test=$(basename "$elf" .elf)
    # timeout only guards against a simulator bug; limits are the simulator's own.
    timeout 60 $cmd "$elf" >"$out" 2>"$err"
    rc=$?
    why=
    if [[ $rc -ne 0 ]]; then
      why="exit $rc: $(head -c 300 "$err" | tr '\n' ' ')"
    elif [[ -n $expect_dir ]] && ! diff -q "$expect_dir/$test.out" "$out" >/dev/null; then
      why="output differs from $expect_dir/$test.out: $(diff "$expect_dir/$test.out" "$out" | head -5 | tr '\n' ' ')"
    fi
    if [[ -z $why ]]; then
      echo "PASS $name $test"; pass=$((pass + 1))
    else
      echo "FAIL $name $test ($why)"; fail=$((fail + 1))
    fi
  done
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
