#!/bin/bash
# Check tests/models/MANIFEST and tests/models/bad/EXPECT (no python needed).
#   tests/models/check-manifest.sh NPY_CHECK
# One test per MANIFEST line: the model's .onnx exists, the line's fields are
# well formed (inputs=, outputs=, kind=float|quant, opset=N, optional binds=),
# and every .npy it names exists and parses with NPY_CHECK (shared/npy.c).
# Plus: every .onnx under ops/, nets/ and real/ is listed; every bad/EXPECT line names
# an existing file and a non-empty expected substring.
# Ends with "N passed, N failed".
set -u
npy_check=${1:?usage: check-manifest.sh NPY_CHECK}
dir=$(dirname "$0")
manifest=$dir/MANIFEST
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Check one comma-separated list of .npy files; print problems, return 1 if any.
check_npys() {
  local what=$1 list=$2 rc=0 f
  IFS=, read -ra files <<<"$list"
  for f in "${files[@]}"; do
    [[ -n "$f" ]] || { echo "  empty entry in $what="; rc=1; continue; }
    if [[ ! -f "$dir/$f" ]]; then echo "  $what: missing $f"; rc=1; continue; fi
    "$npy_check" "$dir/$f" >/dev/null || rc=1
  done
  return $rc
}

if [[ ! -f "$manifest" ]]; then
  echo "FAIL: $manifest is missing"
  echo "0 passed, 1 failed"
  exit 1
fi

listed=()
lineno=0
while IFS= read -r line || [[ -n "$line" ]]; do
  lineno=$((lineno + 1))
  line=${line%%#*}
  [[ "$line" =~ ^[[:space:]]*$ ]] && continue
  read -ra fields <<<"$line"
  name=${fields[0]}
  listed+=("$name.onnx")
  problems=0 inputs="" outputs="" kind="" opset="" binds=""
  for kv in "${fields[@]:1}"; do
    case "$kv" in
      inputs=*) inputs=${kv#inputs=} ;;
      outputs=*) outputs=${kv#outputs=} ;;
      kind=*) kind=${kv#kind=} ;;
      opset=*) opset=${kv#opset=} ;;
      binds=*) binds=${kv#binds=} ;;
      *) echo "  MANIFEST:$lineno: unknown field '$kv'"; problems=1 ;;
    esac
  done
  [[ -f "$dir/$name.onnx" ]] || { echo "  missing $name.onnx"; problems=1; }
  [[ "$kind" == float || "$kind" == quant ]] ||
    { echo "  MANIFEST:$lineno: kind='$kind' (expected float or quant)"; problems=1; }
  [[ "$opset" =~ ^[0-9]+$ ]] ||
    { echo "  MANIFEST:$lineno: opset='$opset' is not a number"; problems=1; }
  [[ -n "$outputs" ]] || { echo "  MANIFEST:$lineno: no outputs="; problems=1; }
  [[ -z "$inputs" ]] || check_npys inputs "$inputs" || problems=1
  [[ -z "$outputs" ]] || check_npys outputs "$outputs" || problems=1
  if [[ -n "$binds" ]]; then
    IFS=, read -ra pairs <<<"$binds"
    for p in "${pairs[@]}"; do
      if [[ "$p" != *=*.npy ]]; then
        echo "  MANIFEST:$lineno: bind '$p' is not NAME=FILE.npy"; problems=1
      else
        check_npys binds "${p#*=}" || problems=1
      fi
    done
  fi
  if [[ $problems -eq 0 ]]; then ok; else bad "MANIFEST:$lineno: $name"; fi
done <"$manifest"

# Every committed model is listed (an unlisted model is never tested).
unlisted=0
while IFS= read -r f; do
  rel=${f#"$dir"/}
  found=0
  for l in "${listed[@]}"; do [[ "$l" == "$rel" ]] && found=1 && break; done
  [[ $found -eq 1 ]] || { echo "  $rel is not in MANIFEST"; unlisted=1; }
done < <(find "$dir/ops" "$dir/nets" "$dir/real" -name '*.onnx' 2>/dev/null | sort)
if [[ $unlisted -eq 0 ]]; then ok; else bad "models missing from MANIFEST"; fi

# bad/EXPECT: "FILE  SUBSTRING", the file exists.
if [[ -f "$dir/bad/EXPECT" ]]; then
  lineno=0
  while IFS= read -r line || [[ -n "$line" ]]; do
    lineno=$((lineno + 1))
    [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
    file=${line%%[[:space:]]*}
    want=$(sed -E 's/^[^[:space:]]+[[:space:]]+//' <<<"$line")
    if [[ -f "$dir/bad/$file" && -n "$want" && "$want" != "$line" ]]; then ok
    else bad "bad/EXPECT:$lineno: '$line' (missing file or substring)"; fi
  done <"$dir/bad/EXPECT"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
