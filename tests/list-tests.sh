#!/bin/bash
# make list-tests: every suite of `make test`, what it checks, and how long it
# took in the last run here (build/test-logs/SUITE.time, from tests/run-suites.sh).
#   tests/list-tests.sh SUITE...          the list (SUITE... is make's TEST_SUITES)
#   tests/list-tests.sh --check SUITE...  fail when tests/SUITES and SUITE... differ
set -u
cd "$(dirname "$0")/.."
check=0
[[ "${1:-}" == --check ]] && { check=1; shift; }
declare -A doc
while IFS=$'\t' read -r name text; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  doc[$name]=$text
done < tests/SUITES
if [[ $check -eq 1 ]]; then
  pass=0 fail=0; declare -A want
  for s in "$@"; do
    want[$s]=1
    if [[ -n "${doc[$s]:-}" ]]; then pass=$((pass + 1))
    else echo "FAIL: suite $s is not in tests/SUITES (add a line: NAME<tab>what it checks)"; fail=$((fail + 1)); fi
  done
  for s in "${!doc[@]}"; do
    [[ -n "${want[$s]:-}" ]] || { echo "FAIL: tests/SUITES names $s, which is no suite of make test"; fail=$((fail + 1)); }
  done
  echo "$pass passed, $fail failed"; [[ $fail -eq 0 ]]; exit
fi
total=0
printf '%-22s %8s  %s\n' SUITE 'LAST RUN' 'WHAT IT CHECKS'
for s in "$@"; do
  t=build/test-logs/$s.time
  if [[ -f $t ]]; then ms=$(cat "$t"); total=$((total + ms)); when=$(printf '%d.%ds' $((ms / 1000)) $((ms % 1000 / 100)))
  else when='-'; fi
  printf '%-22s %8s  %s\n' "$s" "$when" "${doc[$s]:-(not described in tests/SUITES)}"
done
printf '%d suites; %d.%ds in all in the last runs here (- : not run yet; make test runs them all)\n' \
  $# $((total / 1000)) $((total % 1000 / 100))
