#!/bin/bash
# Every model of tests/models/MANIFEST that the NPU path compiles, end to
# end through the package: `tessel compile` (a float model calibrated on its
# own test input), `tessel run --engine ENGINE`, and `tessel compare` against
# the int8 reference (`tessel ref --calib` / `--quantised`): bit for bit.
# Models the compiler does not take to the NPU yet (an operator or a shape
# without a lowering: exit 3, or a located exit-1 limit such as batch 2 or
# uint8 activations) are listed as skipped with the compiler's reason; the
# lowering's own suites (lower-exact, lower-filecheck) pin what compiles.
# Every model that compiles must run and equal the int8 reference.
#   tests/run/suite.sh TMP_DIR TESSEL ENGINE [TARGET [MODELS_RE [RUN-ARG...]]]
# (ENGINE: model or rtl; TARGET: the compile target, default the compiler's;
# MODELS_RE: only the MANIFEST names matching this extended regex; RUN-ARGs
# go to `tessel run`, e.g. --sim and --firmware of another NPU).
# make test-run-suite runs the C model (the suite runs in seconds);
# make bench-run-suite runs every model on the cycle-accurate SoC;
# make test-npu-seq runs a part of it on the core-sequenced NPU at npu2.
set -u
tmp=$1 tessel=$2 engine=$3
target=(); [ -n "${4:-}" ] && target=(--target "$4")
filter=${5:-.}
run_args=("${@:6}")
models=$(cd "$(dirname "$0")/../models" && pwd)
rm -rf "$tmp" && mkdir -p "$tmp"
pass=0 fail=0 skip=0
while read -r name rest; do
  case "$name" in ''|'#'*) continue ;; esac
  [[ "$name" =~ $filter ]] || continue
  inputs=$(sed -n 's/.*inputs=\([^ ]*\).*/\1/p' <<<"$rest")
  outputs=$(sed -n 's/.*outputs=\([^ ]*\).*/\1/p' <<<"$rest")
  kind=$(sed -n 's/.*kind=\([^ ]*\).*/\1/p' <<<"$rest")
  # One input, no binds: the input doubles as the calibration sample.
  if [[ -z "$inputs" || "$inputs" == *,* || "$rest" == *binds=* ]]; then continue; fi
  base=$tmp/$(tr / _ <<<"$name")
  in=$models/$inputs
  quant=(--calib "$in"); [ "$kind" = quant ] && quant=(--quantised)
  ccalib=(--calib "$in"); [ "$kind" = quant ] && ccalib=()
  "$tessel" compile "$models/$name.onnx" "${ccalib[@]}" "${target[@]}" -o "$base.tpkg" >"$base.compile.log" 2>&1
  rc=$?
  if [ $rc -eq 1 ] || [ $rc -eq 3 ]; then
    skip=$((skip + 1)); echo "SKIP: $name: $(sed 's/^tessel: [^ ]*: //' "$base.compile.log" | head -n 1 | cut -c1-160)"; continue
  fi
  if [ $rc -ne 0 ]; then fail=$((fail + 1)); echo "FAIL: $name: compile exit $rc"; sed 's/^/  /' "$base.compile.log" | head -3; continue; fi
  outs=() refs=() i=0
  for o in ${outputs//,/ }; do outs+=(-o "$base.run$i.npy"); refs+=(-o "$base.ref$i.npy"); i=$((i + 1)); done
  if ! "$tessel" ref "$models/$name.onnx" "${quant[@]}" --input "$in" "${refs[@]}" >"$base.ref.log" 2>&1; then
    fail=$((fail + 1)); echo "FAIL: $name: int8 reference"; sed 's/^/  /' "$base.ref.log" | head -3; continue
  fi
  if ! "$tessel" run "$base.tpkg" -q --engine "$engine" "${run_args[@]}" --input "$in" "${outs[@]}" >"$base.run.log" 2>&1; then
    fail=$((fail + 1)); echo "FAIL: $name: tessel run"; sed 's/^/  /' "$base.run.log" | head -3; continue
  fi
  ok=1
  for ((k = 0; k < i; k++)); do
    "$tessel" compare "$base.ref$k.npy" "$base.run$k.npy" >"$base.cmp$k.log" 2>&1 || ok=0
  done
  if [ $ok -eq 1 ]; then pass=$((pass + 1)); echo "PASS: $name"
  else fail=$((fail + 1)); echo "FAIL: $name: differs from the int8 reference"; cat "$base".cmp*.log | sed 's/^/  /' | head -4; fi
done <"$models/MANIFEST"
echo "($skip models not compiled for the NPU, reasons above)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
