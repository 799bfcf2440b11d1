#!/bin/bash
# The onnx-node suites: ONNX's backend tests (Debian's libonnx-testdata,
# /usr/share/libonnx-testdata/data/GROUP/TEST/{model.onnx,test_data_set_0/})
# through tessel, each calibrated on its own inputs:
#   onnx-pb2npy           the test's input_N.pb/output_N.pb as .npy (input_N is
#                         the N-th graph input that is not an initializer)
#   tessel ir --raw       stage "import"
#   tessel compile MODEL --target npu8 --calib NAME=input_N.npy ...   "compile"
#   tessel run --engine model PKG --input NAME=input_N.npy ...        "run"
#   tessel compare EXPECTED GOT --steps 3 --rtol 1e-3 --int-atol 1     "compare"
# A test passes when every output has the expected shape and each element is
# within 3 int8 steps of the expected output's range plus 1e-3 relative
# (|got-exp| <= 3*(max-min)/255 + 1e-3*|exp|), integer and bool outputs within 1.
#
#   tests/onnx-node/run.sh --check TMP TESSEL PB2NPY      the fixed set (fixed-set.txt):
#       one line per failing test (TEST STAGE: first line of the error, or the
#       largest difference), "onnx-node: P of N pass (X%)", and one test that
#       passes when X reaches tests/onnx-node/threshold; before the set, the
#       converter's fixtures (pb/), one test each
#   tests/onnx-node/run.sh --markdown TMP TESSEL PB2NPY   the same run, printed as the
#       "ONNX backend node tests" section of docs/operators.md (between its markers)
#   tests/onnx-node/run.sh --soc TMP TESSEL PB2NPY        soc-set.txt on the SoC
#       (build/npu8/tessel-sim): every output bit for bit the C model's
# Tests run two at a time (xargs -P2). Ends with "N passed, N failed".
set -u
mode=$1 tmp=$2 tessel=$3 pb2npy=$4
here=$(cd "$(dirname "$0")" && pwd)
data=/usr/share/libonnx-testdata/data
case "$mode" in
  --check | --markdown) list=$here/fixed-set.txt ;;
  --soc) list=$here/soc-set.txt ;;
  *) echo "usage: run.sh --check|--markdown|--soc TMP TESSEL PB2NPY" >&2; exit 2 ;;
esac
if [ ! -d "$data/node" ]; then
  echo "FAIL: $data is missing: apt-get install libonnx-testdata (bash mk/setup.sh test)"
  echo "0 passed, 1 failed"
  exit 1
fi
tessel=$(cd "$(dirname "$tessel")" && pwd)/$(basename "$tessel")
pb2npy=$(cd "$(dirname "$pb2npy")" && pwd)/$(basename "$pb2npy")
rm -rf "$tmp" && mkdir -p "$tmp"

# one TEST: runs GROUP/NAME in $tmp/GROUP_NAME and writes its verdict there
# (file "result": "PASS" or "FAIL STAGE: WHY").
one() {
  local d=$data/$1 w=$tmp/${1//\//_}
  mkdir -p "$w"
  verdict() { printf '%s\n' "$1" >"$w/result"; }
  # limit CMD...: CMD with at most 60 s (a hang is that test's failure, not the suite's)
  limit() {
    timeout 60 "$@"
    local rc=$?
    [ $rc -eq 124 ] && echo "tessel $2 timed out after 60 s" >"$w/log"
    return $rc
  }
  why() { sed -e "s|$d/||g" -e 's/^tessel[a-z -]*: //' -e 's/^onnx-pb2npy: //' "$1" | grep -v '^usage' | head -n 1 | cut -c1-200; }
  local names=() calib=() ins=() shapes=() ishape=() outs=() k=0 f info
  if ! "$pb2npy" --inputs "$d/model.onnx" >"$w/inputs" 2>"$w/log"; then verdict "FAIL import: $(why "$w/log")"; return; fi
  mapfile -t names <"$w/inputs"
  if ! limit "$tessel" ir "$d/model.onnx" --raw >/dev/null 2>"$w/log" &&
     ! grep -q "' is a graph input\|' must be a constant" "$w/log"; then  # bound at compile
    verdict "FAIL import: $(why "$w/log")"; return
  fi
  for ((k = 0; ; k++)); do
    f=$d/test_data_set_0/input_$k.pb
    [ -f "$f" ] || break
    if ! info=$("$pb2npy" "$f" "$w/in$k.npy" 2>"$w/log"); then verdict "FAIL import: $(why "$w/log")"; return; fi
    if [ $k -ge ${#names[@]} ]; then verdict "FAIL import: input_$k.pb has no graph input (the model has ${#names[@]})"; return; fi
    calib+=(--calib "${names[k]}=$w/in$k.npy")
    ins+=(--input "${names[k]}=$w/in$k.npy")
    info=$(cut -f3 <<<"$info")
    ishape[k]=$info
    [ -n "$info" ] && shapes+=(--input-shape "${names[k]}=$info")
  done
  for ((k = 0; ; k++)); do
    f=$d/test_data_set_0/output_$k.pb
    [ -f "$f" ] || break
    if ! "$pb2npy" "$f" "$w/exp$k.npy" >/dev/null 2>"$w/log"; then verdict "FAIL import: $(why "$w/log")"; return; fi
    outs+=(-o "$w/got$k.npy")
  done
  # An input the model needs as a constant (a shape, axes, scales: ONNX's
  # tests feed them as graph inputs) is bound to its data, as a user would
  # (--bind NAME=FILE.npy), one at a time as the compiler names them.
  local bound=" " binds=() b j
  until limit "$tessel" compile "$d/model.onnx" --target npu8 "${shapes[@]}" "${binds[@]}" "${calib[@]}" \
          -o "$w/t.tpkg" >/dev/null 2>"$w/log"; do
    b=$(grep -o "'[^']*' is a graph input" "$w/log" | head -n 1 | sed "s/^'\(.*\)' is a graph input$/\1/")
    [ -z "$b" ] && b=$(grep -o "'[^']*' must be a constant" "$w/log" | head -n 1 | sed "s/^'\(.*\)' must be a constant$/\1/")
    j=-1
    for ((k = 0; k < ${#names[@]}; k++)); do [ "${names[k]}" = "$b" ] && j=$k; done
    if [ -z "$b" ] || [ $j -lt 0 ] || [[ "$bound" == *" $b "* ]]; then verdict "FAIL compile: $(why "$w/log")"; return; fi
    bound+="$b " binds+=(--bind "$b=$w/in$j.npy") calib=() ins=() shapes=()
    for ((k = 0; k < ${#names[@]}; k++)); do
      [[ "$bound" == *" ${names[k]} "* ]] && continue
      calib+=(--calib "${names[k]}=$w/in$k.npy") ins+=(--input "${names[k]}=$w/in$k.npy")
      [ -n "${ishape[k]}" ] && shapes+=(--input-shape "${names[k]}=${ishape[k]}")
    done
  done
  if ! limit "$tessel" run "$w/t.tpkg" -q --engine model "${ins[@]}" "${outs[@]}" >/dev/null 2>"$w/log"; then
    verdict "FAIL run: $(why "$w/log")"; return
  fi
  for ((k = 0; k < ${#outs[@]} / 2; k++)); do
    "$tessel" compare "$w/exp$k.npy" "$w/got$k.npy" --steps 3 --rtol 1e-3 --int-atol 1 >"$w/cmp" 2>"$w/log"
    case $? in
      0) ;;
      4) verdict "FAIL compare: output $k: $(awk 'NR == 2 { o = ""
           if (match($0, /[0-9]+ outside the tolerance \(worst: [^)]*\)/)) o = ", " substr($0, RSTART, RLENGTH)
           print "max |diff| " $6 " of " $4 " elements" o }' "$w/cmp")"; return ;;
      *) verdict "FAIL compare: output $k: $(why "$w/log")"; return ;;
    esac
  done
  if [ "$mode" = --soc ]; then
    local rtl=()
    for ((k = 0; k < ${#outs[@]} / 2; k++)); do rtl+=(-o "$w/rtl$k.npy"); done
    if ! limit "$tessel" run "$w/t.tpkg" -q --engine rtl "${ins[@]}" "${rtl[@]}" >/dev/null 2>"$w/log"; then
      verdict "FAIL run-rtl: $(why "$w/log")"; return
    fi
    for ((k = 0; k < ${#outs[@]} / 2; k++)); do
      if ! "$tessel" compare "$w/got$k.npy" "$w/rtl$k.npy" >"$w/cmp" 2>"$w/log"; then
        verdict "FAIL rtl: output $k differs from the C model: $(awk 'NR == 2 { print "max |diff| " $6 }' "$w/cmp")$(why "$w/log")"; return
      fi
    done
  fi
  verdict PASS
}
export -f one
export tmp data tessel pb2npy mode

# The converter first (--check): every fixture of pb/ (gen.py: each dtype, raw
# and typed fields, a scalar, an empty tensor) equals its .npy; a bad file is
# refused with its name.
fix_pass=0 fix_fail=0
if [ "$mode" = --check ]; then
  for f in "$here"/pb/*.pb; do
    b=$(basename "$f" .pb) want=$here/pb/${b%%.*}.npy
    if [ "$b" = bad ]; then
      out=$("$pb2npy" "$f" "$tmp/fixture.npy" 2>&1)
      [[ $? -eq 1 && "$out" == *"bad.pb: not an ONNX TensorProto"* ]]
    else
      "$pb2npy" "$f" "$tmp/fixture.npy" >/dev/null && "$tessel" compare "$want" "$tmp/fixture.npy" >/dev/null
    fi
    if [ $? -eq 0 ]; then fix_pass=$((fix_pass + 1)); else fix_fail=$((fix_fail + 1)); echo "FAIL: onnx-pb2npy $b"; fi
  done
  echo "onnx-pb2npy: $fix_pass of $((fix_pass + fix_fail)) fixtures as expected"
fi

grep -v '^#' "$list" | xargs -P2 -n1 bash -c 'one "$1"' _
total=0 pass=0
declare -A stage
failures=$tmp/failures.txt
: >"$failures"
while read -r t; do
  total=$((total + 1))
  r=$(cat "$tmp/${t//\//_}/result" 2>/dev/null || echo "FAIL harness: no verdict")
  if [ "$r" = PASS ]; then pass=$((pass + 1)); continue; fi
  s=${r#FAIL }; s=${s%%:*}
  stage[$s]=$((${stage[$s]:-0} + 1))
  printf '%s\t%s\n' "$t" "${r#FAIL }" >>"$failures"
done < <(grep -v '^#' "$list")
pct=$(awk -v p=$pass -v n=$total 'BEGIN { printf "%.1f", n ? 100 * p / n : 0 }')
counts=""
for s in import compile run compare run-rtl rtl harness; do
  [ -n "${stage[$s]:-}" ] && counts+="${counts:+, }$s ${stage[$s]}"
done

if [ "$mode" = --markdown ]; then
  echo "<!-- onnx-node: begin (tests/onnx-node/run.sh --markdown: make onnx-node-markdown) -->"
  echo "## ONNX backend node tests"
  echo
  echo "\`make test-onnx-node\` runs $total of ONNX's backend tests (Debian's libonnx-testdata;"
  echo "the list: \`tests/onnx-node/fixed-set.txt\`, made by \`make-fixed-set.py\`) through"
  echo "\`tessel compile --target npu8\`, calibrated on each test's own inputs, and \`tessel run"
  echo "--engine model\`: a test passes when every output is within 3 int8 steps of the expected"
  echo "output's range plus 1e-3 relative (integer outputs within 1)."
  echo
  echo "**$pass of $total pass ($pct%).** Failures by stage: ${counts:-none}."
  echo
  echo "| test | stage | first line of the error, or the largest difference |"
  echo "|---|---|---|"
  sed -E 's/\|/\\|/g; s/^([^\t]*)\t([^:]*): (.*)$/| `\1` | \2 | \3 |/' "$failures"
  echo "<!-- onnx-node: end -->"
  exit 0
fi
sed -E 's/^([^\t]*)\t/FAIL: \1 /' "$failures"
name=onnx-node; [ "$mode" = --soc ] && name=onnx-node-soc
echo "$name: $pass of $total pass ($pct%)${counts:+; failures: $counts}"
if [ "$mode" = --soc ]; then
  echo "$pass passed, $((total - pass)) failed"
  [ $pass -eq $total ]
  exit
fi
threshold=$(grep -v '^#' "$here/threshold" | head -n 1)
if awk -v p="$pct" -v t="$threshold" 'BEGIN { exit !(p + 0 >= t + 0) }'; then
  echo "PASS: the pass rate $pct% reaches the threshold $threshold% (tests/onnx-node/threshold)"
  fix_pass=$((fix_pass + 1))
else
  echo "FAIL: the pass rate $pct% is below the threshold $threshold% (tests/onnx-node/threshold)"
  fix_fail=$((fix_fail + 1))
fi
echo "$fix_pass passed, $fix_fail failed"
[ $fix_fail -eq 0 ]
