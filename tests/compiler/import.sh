#!/bin/bash
# The `import` suite: every model in tests/models/MANIFEST imports, passes the
# verifier after every pass (the ASan build verifies between passes) and runs on
# the float reference to the recorded outputs (integer outputs bit-exact, or
# within 1 where the MANIFEST comment says "1 LSB"); every file in tests/models/bad/
# is rejected with a clear message (the EXPECT substring), a non-zero exit
# status below 128 (no crash, no ASan report).
#   tests/compiler/import.sh TESSEL NPY_CLOSE
# Ends with "N passed, N failed".
set -u
tessel=$1 close=$2
models=tests/models
tmp=build/test-tmp/import
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
  inputs= outputs= binds= kind=float
  for field in $rest; do
    case $field in
      inputs=*) inputs=${field#inputs=} ;;
      outputs=*) outputs=${field#outputs=} ;;
      binds=*) binds=${field#binds=} ;;
      kind=*) kind=${field#kind=} ;;
    esac
  done
  args=(ref "$models/$name.onnx" --verify-each)
  IFS=, read -ra ins <<< "$inputs"
  for f in "${ins[@]}"; do args+=(--input "$models/$f"); done
  IFS=, read -ra bs <<< "$binds"
  for b in "${bs[@]}"; do args+=(--bind "${b%%=*}=$models/${b#*=}"); done
  IFS=, read -ra outs <<< "$outputs"
  base="$tmp/$(echo "$name" | tr / _)"
  for k in "${!outs[@]}"; do args+=(-o "$base.got$k.npy"); done
  if ! msg=$("$tessel" "${args[@]}" 2>&1); then
    bad "$name" "tessel ${args[*]}" "$msg"
    continue
  fi
  tol=()
  # integer outputs must match exactly unless the MANIFEST comment above the
  # model grants "1 LSB" (non-dyadic scales, where float rounding may differ)
  [[ $kind == quant && "$note" == *"1 LSB"* ]] && tol=(--int-tol 1)
  good=1
  for k in "${!outs[@]}"; do
    if ! msg=$("$close" "$base.got$k.npy" "$models/${outs[$k]}" "${tol[@]}" 2>&1); then
      bad "$name" "output $k: $msg"
      good=0
      break
    fi
  done
  [[ $good -eq 1 ]] && ok "$name"
done < "$models/MANIFEST"

# Bad models: clear message containing the expected substring, exit 1..127.
while read -r file want; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  msg=$("$tessel" ir "$models/bad/$file" 2>&1)
  rc=$?
  if [[ $rc -eq 0 || $rc -ge 128 ]]; then
    bad "bad/$file" "exit status $rc" "$msg"
  elif [[ "$msg" != *"$want"* ]]; then
    bad "bad/$file" "message lacks '$want'" "$msg"
  elif [[ $(echo "$msg" | wc -l) -ne 1 || "$msg" != "tessel: "* ]]; then
    bad "bad/$file" "expected one 'tessel: ...' line" "$msg"
  else
    ok "bad/$file"
  fi
done < "$models/bad/EXPECT"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
