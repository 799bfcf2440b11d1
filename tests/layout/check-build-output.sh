#!/bin/bash
# The `layout` suite, part 2: `make` prints one line per file it builds.
#   tests/layout/check-build-output.sh LOG
# LOG is what `make test` printed while it built everything (build/make-all.log;
# on a clean clone that is every file). Each line must read `  TAG  PATH` (kbuild
# style, mk/common.mk's `say`), and no TAG PATH pair may come twice (a source
# has one line per build of it: CC, CC-ASAN, CC-FUZZ, CC-RV32); anything
# else (a full command line, a warning) fails, naming the line.
set -u
log=${1:?usage: check-build-output.sh LOG}
if [[ ! -f "$log" ]]; then
  echo "FAIL: $log is missing: it is written by 'make test' (run that, or make all 2>&1 | tee $log)"
  echo "0 passed, 1 failed"; exit 1
fi
pass=0 fail=0
declare -A seen
n=0
while IFS= read -r line; do
  n=$((n + 1))
  if [[ "$line" =~ ^\ \ ([A-Z][A-Z0-9-]*)\ +([^[:space:]]+)$ ]]; then
    path="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
    if [[ -n "${seen[$path]:-}" ]]; then
      echo "FAIL: $log:$n: $path announced twice (lines ${seen[$path]} and $n)"; fail=$((fail + 1))
    else
      seen[$path]=$n; pass=$((pass + 1))
    fi
  else
    echo "FAIL: $log:$n: not one file per line: ${line:0:160}"; fail=$((fail + 1))
  fi
done < "$log"
echo "$n lines, $pass files"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
