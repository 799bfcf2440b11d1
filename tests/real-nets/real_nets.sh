#!/bin/bash
# The `real-nets` suite: real architectures as a user exports them from
# PyTorch (tests/models/real, gen_real.py; the list is tests/real-nets/MODELS)
# through the whole flow on every target.
#   tests/real-nets/real_nets.sh TMP_DIR TESSEL
#
# Per model, once: int8-ref, the int8 reference (`tessel ref --calib
# NAME.calib.npy`) of the four held-out samples NAME.eval.npy.  Per model
# and target (npu4, npu8, npu16), one PASS/FAIL line per check:
#   compile  tessel compile --calib NAME.calib.npy --target T
#   run      tessel run --engine model on NAME.eval.npy
#   exact    the C model's outputs equal the int8 reference bit for bit
#   rel-l2   ||y - y_torch|| / ||y_torch|| <= 0.1 against PyTorch's outputs
#            (NAME.eval.out.npy), from the SNR `tessel compare` prints
#   top-1    classifiers: the argmax of every sample agrees with PyTorch's
# A check that cannot run because an earlier one failed is not counted.
# Models marked `rtl` in MODELS also run their npu8 package on the SoC
# (`--engine rtl`, one sample): bit for bit against the C model (rtl-exact).
#
# tests/real-nets/KNOWN lists checks known to fail ("NAME TARGET CHECK
# reason", TARGET may be *): they print XFAIL with the reason and count as
# neither; a listed check that passes prints XPASS (counted as passed: take
# it off the list; not a failure, so that the list need not change in the
# same merge as the compiler).
# Ends with "N passed, N failed".
set -u
tmp=$1 tessel=$2
here=$(cd "$(dirname "$0")" && pwd)
models=$here/../models/real
targets=(npu4 npu8 npu16)
max_rel_l2=0.1
rm -rf "$tmp" && mkdir -p "$tmp"
pass=0 fail=0 xfail=0

# known NAME TARGET CHECK: prints the KNOWN reason and returns 0 if listed.
known() {
  awk -v n="$1" -v t="$2" -v c="$3" '
    /^[ \t]*(#|$)/ { next }
    $1 == n && ($2 == t || $2 == "*") && $3 == c { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; found = 1; exit }
    END { exit !found }' "$here/KNOWN"
}

# result NAME TARGET CHECK OK DETAIL [LOG]: one PASS/FAIL/XFAIL line.
result() {
  local name=$1 target=$2 check=$3 ok=$4 detail=$5 log=${6:-} why
  if why=$(known "$name" "$target" "$check"); then
    if [ "$ok" -eq 1 ]; then
      pass=$((pass + 1)); echo "XPASS: $name $target $check${detail:+: $detail} (tests/real-nets/KNOWN lists it: take it off)"
    else
      xfail=$((xfail + 1)); echo "XFAIL: $name $target $check: $detail (in KNOWN)"
    fi
  elif [ "$ok" -eq 1 ]; then
    pass=$((pass + 1)); echo "PASS: $name $target $check${detail:+: $detail}"
  else
    fail=$((fail + 1)); echo "FAIL: $name $target $check: $detail"
  fi
  [ "$ok" -eq 1 ] || [ -z "$log" ] || [ ! -s "$log" ] || sed 's/^/  /' "$log" | head -n 3
  [ "$ok" -eq 1 ]
}

# first_error LOG: the log's first line without the "tessel: FILE: " prefix.
first_error() {
  head -n 1 "$1" | sed -E 's/^tessel( [a-z-]+)?: //; s/^[^ ]*\.(onnx|tpkg|npy): //' | cut -c1-200
}

# failed RC LOG: nothing for exit 0, else "exit RC: " and the first error.
failed() { [ "$1" -eq 0 ] || echo "exit $1: $(first_error "$2")"; }

# float_checks NAME TARGET KIND OUT: rel-l2 and (classifiers) top-1 of OUT
# against PyTorch's outputs, from one `tessel compare` line:
#   tensor A B elements identical max mean SNR [top-1 agree X/N (P%)]
float_checks() {
  local name=$1 target=$2 kind=$3 out=$4 line
  "$tessel" compare "$models/$name.eval.out.npy" "$out" >"$out.cmp" 2>&1
  line=$(tail -n 1 "$out.cmp")
  local rel
  rel=$(awk '{ s = $8; if (s == "inf") print 0; else if (s ~ /^-?[0-9.]+$/) printf "%.4f\n", 10 ^ (-s / 20); else print "nan" }' <<<"$line")
  local ok=0
  awk -v r="$rel" -v m="$max_rel_l2" 'BEGIN { exit !(r != "nan" && r + 0 <= m + 0) }' && ok=1
  result "$name" "$target" rel-l2 $ok "$rel (limit $max_rel_l2)" "$out.cmp"
  [ "$kind" = class ] || return 0
  local agree
  agree=$(sed -n 's/.*top-1 agree \([0-9]*\/[0-9]*\).*/\1/p' <<<"$line")
  ok=0
  [ -n "$agree" ] && [ "${agree%/*}" = "${agree#*/}" ] && ok=1
  result "$name" "$target" top-1 $ok "${agree:-no top-1 in the comparison} samples agree"
}

while read -r name kind flags; do
  case "$name" in ''|'#'*) continue ;; esac
  base=$tmp/$name
  onnx=$models/$name.onnx calib=$models/$name.calib.npy eval=$models/$name.eval.npy
  "$tessel" ref "$onnx" --calib "$calib" --input "$eval" -o "$base.ref.npy" >"$base.ref.log" 2>&1
  rc=$?
  ref_ok=0
  result "$name" - int8-ref $((rc == 0)) "$(failed $rc "$base.ref.log")" && ref_ok=1
  for t in "${targets[@]}"; do
    pkg=$base.$t.tpkg
    "$tessel" compile "$onnx" --calib "$calib" --target "$t" -o "$pkg" >"$base.$t.compile.log" 2>&1
    rc=$?
    result "$name" "$t" compile $((rc == 0)) "$(failed $rc "$base.$t.compile.log")" || continue
    out=$base.$t.run.npy
    "$tessel" run "$pkg" -q --engine model --input "$eval" -o "$out" >"$base.$t.run.log" 2>&1
    rc=$?
    result "$name" "$t" run $((rc == 0)) "$(failed $rc "$base.$t.run.log")" || continue
    if [ $ref_ok -eq 1 ]; then
      "$tessel" compare "$base.ref.npy" "$out" >"$base.$t.exact.log" 2>&1
      rc=$?
      result "$name" "$t" exact $((rc == 0)) \
        "$(awk 'END { printf "%s of %s elements identical, largest difference %s", $5, $4, $6 }' "$base.$t.exact.log")"
    fi
    float_checks "$name" "$t" "$kind" "$out"
  done
  if [[ " $flags " == *" rtl "* && -f $base.npu8.tpkg ]]; then
    in0=$models/$name.in0.npy
    : >"$base.rtl0.log"
    if "$tessel" run "$base.npu8.tpkg" -q --engine model --input "$in0" -o "$base.model0.npy" >"$base.model0.log" 2>&1 &&
      "$tessel" run "$base.npu8.tpkg" -q --engine rtl --input "$in0" -o "$base.rtl0.npy" >"$base.rtl0.log" 2>&1; then
      "$tessel" compare "$base.model0.npy" "$base.rtl0.npy" >"$base.rtl.cmp" 2>&1
      rc=$?
      if [ $rc -eq 0 ]; then msg="the SoC's output is the C model's, bit for bit"; else msg="the SoC's output differs from the C model's"; fi
      result "$name" npu8 rtl-exact $((rc == 0)) "$msg" "$base.rtl.cmp"
    else
      result "$name" npu8 rtl-exact 0 "$(first_error "$base.model0.log")$(first_error "$base.rtl0.log")"
    fi
  fi
done <"$here/MODELS"
echo "($xfail known failures, listed in tests/real-nets/KNOWN)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
