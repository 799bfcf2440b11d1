#!/bin/bash
# The `layout` suite, part 1: no tree compiles another tree's sources.
#   tests/layout/check-layout.sh
# A source file (.c, .cpp, .S) of a tree (compiler, firmware, sim, boards,
# targets, rtl-model) may be named only by that tree's build files; code that
# two trees need lives in shared/, whose sources only shared/rules.mk names (the
# others link its libraries). Build files are every .mk, the Makefile and the
# compiler command lines of the test scripts (tests/**/*.sh, boards/**/*.sh),
# searched outside comments for the source's path or its folder's wildcard
# (`sim/npu-model/*.c`, `.../%.c`).
# tests/ holds test code that the tree under test builds: it is not a tree here.
set -u
cd "$(dirname "$0")/../.."
trees=(compiler firmware sim boards targets rtl-model shared)
all=$(mktemp); trap 'rm -f "$all"' EXIT
# One file of "path:line:text" for every non-comment line of every build file;
# of the scripts, only the lines that run a compiler (a script may read sources
# as text, as the memmap suite's check for hand-written copies does).
git ls-files 'Makefile' '*.mk' | xargs grep -nH -vE '^\s*(#|$)' > "$all"
git ls-files 'tests/*.sh' 'tests/**/*.sh' 'boards/**/*.sh' | sort -u |
  xargs grep -nH -E '(gcc|clang|_CC\b|\bcc |\$CC)' | grep -vE '^[^:]*:[0-9]+:\s*#' >> "$all"
pass=0 fail=0
for t in "${trees[@]}"; do
  while IFS= read -r src; do
    dir=$(dirname "$src")
    hits=$(grep -E "(^|[^A-Za-z0-9_./-])$src([^A-Za-z0-9_.]|$)|$dir/[*%]\.(c|cpp|S)" "$all" | grep -v "^$t/")
    if [[ -n "$hits" ]]; then
      while IFS= read -r h; do
        echo "FAIL: ${h%%:*}:$(echo "$h" | cut -d: -f2) names $src of $t/ (build it there, or move it to shared/)"
      done <<< "$hits"
      fail=$((fail + 1))
    else
      pass=$((pass + 1))
    fi
  done < <(git ls-files "$t/*.c" "$t/*.cpp" "$t/*.S" | sort -u)
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
