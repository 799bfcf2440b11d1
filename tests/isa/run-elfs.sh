#!/bin/bash
# Run test ELFs on one or more simulators and check how each ends.
#   tests/isa/run-elfs.sh [--expect DIR] RUNNER... -- ELF...
# A RUNNER is NAME=COMMAND (the ELF path is appended), e.g.
#   iss="build/bin/tessel-iss --max-insns 2000000"
# A test passes when it exits 0. With --expect DIR, for a test named T:
#   DIR/T.exit  the exit status expected instead of 0
#   DIR/T.out   stdout must equal this file
#   DIR/T.grep  stdout must contain this line (fixed string)
# Prints one line per (runner, test) and ends with "N passed, N failed".
set -u
expect_dir=
if [[ ${1:-} == --expect ]]; then expect_dir=$2; shift 2; fi
runners=()
while [[ $# -gt 0 && $1 != -- ]]; do runners+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
if [[ ${#runners[@]} -eq 0 || $# -eq 0 ]]; then
  echo "usage: $0 [--expect DIR] NAME=COMMAND... -- ELF..." >&2
  exit 2
fi
pass=0 fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for r in "${runners[@]}"; do
  name=${r%%=*} cmd=${r#*=}
  for elf in "$@"; do
    test=$(basename "$elf" .elf)
    want_rc=0
    [[ -n $expect_dir && -f $expect_dir/$test.exit ]] && want_rc=$(<"$expect_dir/$test.exit")
    # timeout only guards against a simulator bug; limits are the simulator's own.
    timeout 120 $cmd "$elf" >"$out" 2>"$err"
    rc=$?
    why=
    if [[ $rc -ne $want_rc ]]; then
      why="exit $rc, expected $want_rc: $(head -c 300 "$err" | tr '\n' ' ')"
    elif [[ -n $expect_dir && -f $expect_dir/$test.out ]] && ! cmp -s "$expect_dir/$test.out" "$out"; then
      why="output differs from $expect_dir/$test.out: $(diff "$expect_dir/$test.out" "$out" | head -6 | tr '\n' ' ')"
    elif [[ -n $expect_dir && -f $expect_dir/$test.grep ]] && ! grep -qF -f "$expect_dir/$test.grep" "$out"; then
      why="output lacks '$(head -n 1 "$expect_dir/$test.grep")': $(head -c 300 "$out" | tr '\n' ' ')"
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
