#!/bin/bash
# The `quant-models` suite: every kind=quant model in tests/models/MANIFEST
# runs on the int8 reference (`tessel ref --quantised`: quant-ops, qdq-fold,
# requant, then the quantised ops with the NPU's integer arithmetic) and
# equals its recorded output: bit-exact, or within 1 LSB where the MANIFEST
# comment says "1 LSB".  Models with QDQ pairs around a Conv/MatMul, and the
# QLinear*/ *Integer models, must have been folded into QConv/QMatMul.
#   tests/compiler/quant_models.sh TESSEL NPY_CLOSE
# Ends with "N passed, N failed".
set -u
tessel=$1 close=$2
models=tests/models
tmp=build/test-tmp/quant-models
mkdir -p "$tmp"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; shift; printf '  %s\n' "$@"; }

comment=
while read -r name rest; do
  if [[ "$name" == \#* ]]; then comment="$name $rest"; continue; fi
  [[ -z "$name" ]] && continue
  note=$comment
  comment=
  [[ " $rest " == *" kind=quant "* ]] || continue
  inputs= outputs=
  for field in $rest; do
    case $field in
      inputs=*) inputs=${field#inputs=} ;;
      outputs=*) outputs=${field#outputs=} ;;
    esac
  done
  args=(ref "$models/$name.onnx" --quantised --verify-each)
  IFS=, read -ra ins <<< "$inputs"
  for f in "${ins[@]}"; do args+=(--input "$models/$f"); done
  IFS=, read -ra outs <<< "$outputs"
  base="$tmp/$(echo "$name" | tr / _)"
  for k in "${!outs[@]}"; do args+=(-o "$base.got$k.npy"); done
  if ! msg=$("$tessel" "${args[@]}" 2>&1); then
    bad "$name" "tessel ${args[*]}" "$msg"
    continue
  fi
  tol=()
  [[ "$note" == *"1 LSB"* ]] && tol=(--int-tol 1)
  good=1
  for k in "${!outs[@]}"; do
    if ! msg=$("$close" "$base.got$k.npy" "$models/${outs[$k]}" "${tol[@]}" 2>&1); then
      bad "$name" "output $k: $msg"
      good=0
      break
    fi
  done
  # folded: no integer ONNX op left, and QDQ anchors became quantised ops;
  # ConvInteger/MatMulInteger with constant weights: their raw int32
  # accumulators are the control core's exact float form (docs/quantisation.md,
  # "On the control core")
  case $(basename "$name") in
    convinteger*|matmulinteger*)
      ir=$("$tessel" ir "$models/$name.onnx" --quantised 2>&1)
      if [[ "$ir" == *"Integer("* || ( "$ir" != *" = Conv("* && "$ir" != *" = MatMul("* && "$ir" != *"QMatMul("* ) ]]; then
        bad "$name" "raw int32 accumulators not in the core's form:" "$ir"
        good=0
      fi ;;
    qdq_*|qlinear*)
      ir=$("$tessel" ir "$models/$name.onnx" --quantised 2>&1)
      if [[ "$ir" == *"QLinear"* || "$ir" == *"Integer("* || "$ir" == *" Conv("* || "$ir" == *" MatMul("* ||
            ( "$ir" != *"QConv("* && "$ir" != *"QMatMul("* ) ]]; then
        bad "$name" "not folded into QConv/QMatMul:" "$ir"
        good=0
      fi ;;
  esac
  [[ $good -eq 1 ]] && ok "$name"
done < "$models/MANIFEST"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
