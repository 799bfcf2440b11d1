#!/bin/bash
# Gate-level check: each program runs on the RTL model and on the yosys
# netlist model under the same harness; stdout, exit status, commit trace
# and simulated cycle count must all be equal.
#   tests/soc/gate-sim.sh RTL-SIM GATE-SIM ELF...
# Ends with "N passed, N failed".
set -u
rtl=$1 gate=$2
shift 2
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  for s in rtl gate; do
    timeout 300 "${!s}" "$elf" --max-cycles 2000000 --stats --trace-commits "$tmp/$s.trace" \
      </dev/null >"$tmp/$s.out" 2>"$tmp/$s.err"
    echo $? >"$tmp/$s.rc"
    sed -n 's/^tessel-sim: cycles //p' "$tmp/$s.err" >"$tmp/$s.cycles"
  done
  why=
  cmp -s "$tmp/rtl.rc" "$tmp/gate.rc" || why="exit $(cat "$tmp/gate.rc"), RTL $(cat "$tmp/rtl.rc")"
  cmp -s "$tmp/rtl.out" "$tmp/gate.out" || why="$why stdout differs"
  cmp -s "$tmp/rtl.trace" "$tmp/gate.trace" || why="$why commit trace differs: $(diff "$tmp/rtl.trace" "$tmp/gate.trace" | head -3 | tr '\n' '|')"
  cmp -s "$tmp/rtl.cycles" "$tmp/gate.cycles" || why="$why cycles $(cat "$tmp/gate.cycles") vs RTL $(cat "$tmp/rtl.cycles")"
  [[ -s $tmp/rtl.trace ]] || why="$why empty commit trace"
  if [[ -z $why ]]; then
    echo "PASS $name (exit $(cat "$tmp/rtl.rc"), $(cat "$tmp/rtl.cycles") cycles, $(wc -l <"$tmp/rtl.trace") commits)"
    pass=$((pass + 1))
  else
    echo "FAIL $name ($why; $(head -c 200 "$tmp/gate.err" | tr '\n' ' '))"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
