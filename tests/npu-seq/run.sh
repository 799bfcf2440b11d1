#!/bin/bash
# The `npu-seq` suite: the core-sequenced NPU (docs/npu-seq.md) at npu2.
#   1. the model suite (tests/run/suite.sh) compiled for npu2, run by the
#      core-sequenced firmware on the SoC with its datapath
#      (build/npu2-seq/tessel-sim), bit for bit against the int8 reference;
#   2. 16 digits of the test set: the same bits as the C model;
#   3. the core-sequenced firmware on a SoC without the datapath (the SoC
#      alone, behind a wrapper that names npu2 so the host lets it run):
#      refused with the driver's message, not a crash or a wrong result;
#   4. with BOARD_FIT, BOARD_LINK and BOARD_PKG: the iCEBreaker's link
#      firmware in the board's own memory (BOARD_FIT, the report of
#      tests/boards/link_fit.sh: it served a digit over the host link with
#      the C model's bits, its stack and heap stayed in their parts, the
#      package and its window in theirs: its PASS/FAIL lines count here);
#      the firmware carries the core kernels its package's list names
#      (`tessel emit-c --kernels-only`) and no other.
#   tests/npu-seq/run.sh TMP TESSEL SEQ_SIM SEQ_FW SOC_ONLY_SIM MODELS_RE [BOARD_FIT BOARD_LINK BOARD_PKG]
set -u
tmp=$1 tessel=$2 sim=$3 fw=$4 nosim=$5 models_re=$6 board_fit=${7:-} board_link=${8:-} board_pkg=${9:-}
rv_nm=${RV_NM:-riscv64-unknown-elf-nm}
here=$(cd "$(dirname "$0")" && pwd)
digits=$here/../models/digits
rm -rf "$tmp" && mkdir -p "$tmp"
. "$here/../lib/check.sh"

# 1. The model suite: its own PASS/FAIL lines and counts.
bash "$here/../run/suite.sh" "$tmp/suite" "$tessel" rtl npu2 "$models_re" --sim "$sim" --firmware "$fw" \
  >"$tmp/suite.log" 2>&1
grep -E '^(FAIL|SKIP)' "$tmp/suite.log" | head -20
set -- $(tail -n 1 "$tmp/suite.log")
pass=$((pass + ${1:-0})); fail=$((fail + ${3:-1}))
echo "model suite on the core-sequenced npu2: $(tail -n 1 "$tmp/suite.log")"

# 2. Digits, the first 16 test images: the same bytes as the C model.
run=(--engine rtl --sim "$sim" --firmware "$fw")
t digits-compile "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --target npu2 \
  -o "$tmp/digits.tpkg"
t digits-model "$tessel" run "$tmp/digits.tpkg" --engine model -q --input "$digits/digits.test16.npy" -o "$tmp/model.npy"
t digits-seq "$tessel" run "$tmp/digits.tpkg" "${run[@]}" -q --input "$digits/digits.test16.npy" -o "$tmp/seq.npy" \
  --profile "$tmp/seq.json"
t digits-same-bytes cmp "$tmp/model.npy" "$tmp/seq.npy"
t digits-accuracy bash -c "'$tessel' compare '$tmp/model.npy' '$tmp/seq.npy' --labels '$digits/digits.labels16.npy' |
  grep -q 'top-1 agree 16/16'"
# The counters of the profile are the C model's (byte and MAC counts exact).
t digits-counters bash -c "grep -q '\"MACS\": [1-9]' '$tmp/seq.json'"

# 3. Without the datapath (the SoC alone): the driver's NO_DEVICE, named.
{ echo '#!/bin/bash'
  echo "[ \"\$1\" = --version ] && { \"$sim\" --version | head -n 1; exit 0; }"
  echo "exec \"$nosim\" \"\$@\""; } >"$tmp/nodp-sim"
chmod +x "$tmp/nodp-sim"
expect_fail no-datapath 1 "DEVICE (code -1): no NPU" \
  "$tessel" run "$tmp/digits.tpkg" --engine rtl --sim "$tmp/nodp-sim" --firmware "$fw" \
  --input "$digits/digits_cnn.in0.npy" -o "$tmp/x.npy"

if [ -n "$board_link" ]; then
  cat "$board_fit"
  pass=$((pass + $(grep -c '^PASS' "$board_fit"))); fail=$((fail + $(grep -c '^FAIL' "$board_fit")))
  grep -q '^PASS' "$board_fit" || { echo "FAIL board-link-fit: no report in $board_fit"; fail=$((fail + 1)); }
  # Only the listed kernels (and the runtime's own entry of the layout ops,
  # tfw_k_layout), whatever object they share (shared/tfw_ops.c).
  t board-link-kernels bash -c "'$tessel' emit-c '$board_pkg' -o '$tmp/kernels.c' --kernels-only &&
    { echo tfw_k_layout; grep -o 'tfw_k_[a-z0-9_]*' '$tmp/kernels.c'; } | sort -u >'$tmp/kernels.want' &&
    '$rv_nm' '$board_link' | awk '\$2 ~ /^[TtWw]\$/ && \$3 ~ /^tfw_k_/ { print \$3 }' | sort -u >'$tmp/kernels.have' &&
    diff '$tmp/kernels.want' '$tmp/kernels.have'"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
