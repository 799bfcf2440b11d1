#!/bin/bash
# The table of fallback ops in docs/package-format.md (section 3) is
# generated from shared/tfw_ops.def; this prints it, or checks the doc's copy.
#   tests/package/ops_table.sh           exit 0 when the doc's table equals the .def's
#   tests/package/ops_table.sh --print   the table (paste it between the markers)
# The doc holds the table between the lines "<!-- ops table begin -->" and
# "<!-- ops table end -->". Run by the package suite (run.sh).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
def=$root/shared/tfw_ops.def doc=$root/docs/package-format.md

table() {
  echo '| code | op | inputs | outputs | ints | floats | notes |'
  echo '|---|---|---|---|---|---|---|'
  # TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, "ints", "floats") /* note */
  grep '^TFW_OP(' "$def" | sed 's/|/\\|/g' | sed -E \
    's@^TFW_OP\(([A-Z_]+), *[a-z_0-9]+, *([0-9]+), *([0-9]+), *([0-9]+), *([0-9]+), *([0-9]+), *"([^"]*)", *"([^"]*)"\) *(.*)$@\2\x1f\1\x1f\3\x1f\4\x1f\5\x1f\6\x1f\7\x1f\8\x1f\9@' |
    while IFS=$'\x1f' read -r code name min_in max_in min_out max_out ints floats note; do
      ins=$min_in outs=$min_out
      [ "$min_in" = "$max_in" ] || ins="$min_in..$max_in"
      [ "$min_out" = "$max_out" ] || outs="$min_out..$max_out"
      note=${note#/\*}; note=${note%\*/}; note=$(echo "$note" | sed -E 's/^ +//; s/ +$//')
      printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$code" "$name" "$ins" "$outs" "${ints:+\`$ints\`}" \
        "${floats:+\`$floats\`}" "$note"
    done
}

if [ "${1:-}" = --print ]; then table; exit 0; fi
if [ $# -ne 0 ]; then echo "usage: $0 [--print]" >&2; exit 2; fi
n_def=$(grep -c '^TFW_OP(' "$def")
n_rows=$(table | tail -n +3 | grep -c '^| [0-9]')
if [ "$n_def" != "$n_rows" ]; then echo "ops_table: $def has $n_def TFW_OP lines, only $n_rows parsed" >&2; exit 1; fi
if ! diff <(table) <(sed -n '/^<!-- ops table begin -->$/,/^<!-- ops table end -->$/p' "$doc" | sed '1d;$d') >&2; then
  echo "ops_table: the table in $doc differs from $def (regenerate: $0 --print)" >&2
  exit 1
fi
