#!/bin/bash
# Bad input and limits for tessel-iss: each case must exit with the
# documented status and say what is wrong on stderr; nothing may crash.
#   tests/isa/iss-cli.sh TESSEL_ISS GOOD_TEST_ELF LOOP_ELF HELLO_ELF
# (HELLO_ELF prints on the UART.)
set -u
iss=$1 good=$2 loop=$3 hello=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# expect NAME STATUS STDERR-SUBSTRING COMMAND...
expect() {
  local name=$1 want=$2 msg=$3
  shift 3
  timeout 30 "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -eq $want ]] && { [[ -z $msg ]] || grep -qF -- "$msg" "$tmp/err" "$tmp/out"; }; then
    echo "PASS $name"; pass=$((pass + 1))
  else
    echo "FAIL $name (exit $rc, want $want; stderr: $(head -c 200 "$tmp/err"))"; fail=$((fail + 1))
  fi
}

head -c 1000 /dev/urandom >"$tmp/garbage"
: >"$tmp/empty"
printf '\177ELF\001\001\001' >"$tmp/short"
cp "$good" "$tmp/trunc" && truncate -s 100 "$tmp/trunc"
# e_machine patched to x86-64.
cp "$good" "$tmp/x86" && printf '\076\000' | dd of="$tmp/x86" bs=1 seek=18 conv=notrunc 2>/dev/null

expect "no arguments" 120 "usage" "$iss"
expect "unknown option" 120 "unknown option" "$iss" --bogus "$good"
expect "missing file" 120 "No such file" "$iss" "$tmp/nonexistent.elf"
expect "empty file" 120 "bad magic" "$iss" "$tmp/empty"
expect "garbage file" 120 "not an ELF" "$iss" "$tmp/garbage"
expect "short header" 120 "truncated ELF header" "$iss" "$tmp/short"
expect "truncated ELF" 120 "past the end" "$iss" "$tmp/trunc"
expect "wrong machine" 120 "not RISC-V" "$iss" "$tmp/x86"
expect "bad --max-insns" 120 "positive integer" "$iss" --max-insns abc "$good"
expect "zero --max-insns" 120 "positive integer" "$iss" --max-insns 0 "$good"
expect "missing --trace-commits file" 120 "needs a file" "$iss" "$good" --trace-commits
expect "unwritable trace" 120 "No such file" "$iss" "$good" --trace-commits "$tmp/no/dir/trace"
expect "two ELFs" 120 "more than one" "$iss" "$good" "$good"
expect "stdout full" 122 "writing the UART output to stdout failed" bash -c 'exec "$0" "$1" >/dev/full' "$iss" "$hello"
expect "directory" 120 "$tmp: Is a directory" "$iss" "$tmp"
# A huge file is refused once past any image size (it once grew until
# memory ran out); a 2 GB address-space limit keeps a regression from that.
truncate -s 600M "$tmp/huge"
expect "huge file" 120 "File too large" bash -c 'ulimit -v 2000000; exec "$0" "$1"' "$iss" "$tmp/huge"
# Only regular files: /dev/zero never ends, and a FIFO blocked open()
# forever (timeout 10: a regression fails fast instead of hanging CI).
mkfifo "$tmp/fifo"
expect "endless file" 120 "/dev/zero: not a regular file" timeout 10 "$iss" /dev/zero
expect "FIFO as ELF" 120 "$tmp/fifo: not a regular file" timeout 10 "$iss" "$tmp/fifo"
expect "FIFO as trace" 120 "$tmp/fifo: a FIFO with no reader" timeout 10 "$iss" "$good" --trace-commits "$tmp/fifo"
expect "step limit" 121 "max-insns" "$iss" --max-insns 1000 "$loop"
expect "good test passes" 0 "" "$iss" "$good"
expect "help" 0 "usage" "$iss" --help

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
