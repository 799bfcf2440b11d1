#!/bin/bash
# tests/fw-app/run.sh: suite fw-app, the example firmware that links a model
# package (firmware/runtime/example, docs/runtime-firmware.md).
#   tests/fw-app/run.sh SIM APP.elf OBJDIR DIGITS-DATA TESSEL
# SIM is the npu8 tessel-sim, OBJDIR holds the build's digits.tpkg and
# digits-app-small-window.elf and minimal-app.elf, DIGITS-DATA the host
# generator, TESSEL the compiler's CLI. Checks what
# the firmware prints and its exit status on the real package, on damaged
# copies of it (patched into the ELF's .tessel_pkg section), with a window
# area too small, and the generator's answers to bad input.
# Ends with "N passed, N failed".
set -u
sim=$1 app=$2 obj=$3 gen=$4 tessel=$5
tmp=$obj/fw-app-test
rm -rf "$tmp" && mkdir -p "$tmp"
pass=0 fail=0
ok()  { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# ---- the real package -----------------------------------------------------
"$sim" "$app" --max-cycles 50000000 >"$tmp/app.out" 2>&1
rc=$?
cat "$tmp/app.out"
n_kernels=$(grep -c '^  kernel [0-9]* ' < <("$tessel" inspect "$obj/digits.tpkg" 2>/dev/null))
check "digits-app exits 0 (status $rc)" '[ $rc -eq 0 ]'
check "16 images predicted" '[ "$(grep -c "^image *[0-9]*: predicted [0-9] label [0-9] reference [0-9] cycles [1-9][0-9]*$" "$tmp/app.out")" -eq 16 ]'
check "no prediction differs from the int8 reference" '! grep -q MISMATCH "$tmp/app.out"'
check "summary: 16/16 predictions equal the reference" 'grep -q "^digits-app: 16/16 predictions equal the int8 reference" "$tmp/app.out"'
check "summary: 16/16 outputs bit-exact with the reference" 'grep -q " 16/16 outputs bit-exact" "$tmp/app.out"'
# One table row per kernel of the package, each with NPU cycles > 0.
check "per-kernel stats: $n_kernels kernels, cycles > 0" \
  '[ "$n_kernels" -gt 0 ] && [ "$(grep -cE "^  [0-9]+ +/[^ ]+ +[1-9][0-9]* " "$tmp/app.out")" -eq "$n_kernels" ]'
check "per-fallback stats: SOFTMAX_QF listed with cycles > 0" 'grep -qE "^  [0-9]+ +SOFTMAX_QF +[^ ]+ +[1-9][0-9]*$" "$tmp/app.out"'
# The window is the linker script's .tessel_window area (the digits package
# puts I/O before the weights, so they cannot stay in place).
win=$(riscv64-unknown-elf-nm "$app" | awk '$3 == "__tessel_window_start" { print $1 }')
check "window at __tessel_window_start (0x$win), weights copied" \
  'grep -q "window [0-9]* bytes at 0x$win (weights copied)" "$tmp/app.out"'

# ---- the minimal example of docs/runtime-firmware.md ------------------------
"$sim" "$obj/minimal-app.elf" --max-cycles 20000000 >"$tmp/minimal.out" 2>&1
rc=$?
sed 's/^/    /' "$tmp/minimal.out"
check "minimal example: status 0 (got $rc), a class printed" \
  '[ $rc -eq 0 ] && grep -qE "^class [0-9], probability [0-9]+/1000$" "$tmp/minimal.out"'

# ---- damaged packages: the runtime refuses them, the firmware says why ------
riscv64-unknown-elf-objcopy -O binary --only-section=.tessel_pkg "$app" "$tmp/pkg.bin"
check "extracted .tessel_pkg equals digits.tpkg" 'cmp -s "$tmp/pkg.bin" "$obj/digits.tpkg"'
size=$(stat -c %s "$tmp/pkg.bin")
# damage NAME OFFSET EXPECTED-STATUS EXPECTED-TEXT: flip every bit of one byte.
damage() {
  local name=$1 off=$2 want=$3 text=$4 b
  cp "$tmp/pkg.bin" "$tmp/$name.bin"
  b=$(od -An -tu1 -j "$off" -N1 "$tmp/pkg.bin" | tr -d ' ')
  printf "$(printf '\\%03o' $((255 - b)))" | dd of="$tmp/$name.bin" bs=1 seek="$off" conv=notrunc status=none
  riscv64-unknown-elf-objcopy --update-section .tessel_pkg="$tmp/$name.bin" "$app" "$tmp/$name.elf"
  "$sim" "$tmp/$name.elf" --max-cycles 20000000 >"$tmp/$name.out" 2>&1
  local got=$?
  sed 's/^/    /' "$tmp/$name.out"
  check "$name: status $want (got $got), '$text'" '[ $got -eq $want ] && grep -q "$text" "$tmp/$name.out"'
}
damage weights-byte $((size - 1)) 12 "^digits-app: PACKAGE/WEIGHTS_CRC: "
damage magic-byte 0 12 "^digits-app: PACKAGE/MAGIC: "
damage header-byte 40 12 "^digits-app: PACKAGE/"

# ---- a window area smaller than the package's window ---------------------
"$sim" "$obj/digits-app-small-window.elf" --max-cycles 20000000 >"$tmp/small.out" 2>&1
rc=$?
sed 's/^/    /' "$tmp/small.out"
check "small window: status 13 (got $rc), WINDOW error" '[ $rc -eq 13 ] && grep -q "^digits-app: WINDOW: " "$tmp/small.out"'

# ---- the generator on bad input: a message and status 1, no crash ---------
m=tests/models/digits
gen_bad() {
  local name=$1 text=$2; shift 2
  "$gen" "$@" >"$tmp/gen.out" 2>&1
  local got=$?
  check "digits-data $name: status 1 (got $got), '$text'" '[ $got -eq 1 ] && grep -q "$text" "$tmp/gen.out"'
}
gen_bad "not a .npy" "not a .npy file" README.md $m/digits.labels.npy "$obj/digits_ref.npy" 4 -o "$tmp/x.h"
gen_bad "wrong dtype" "dtype int64, expected float32" $m/digits.labels.npy $m/digits.labels.npy "$obj/digits_ref.npy" 4 -o "$tmp/x.h"
gen_bad "wrong shape" "not the expected rank-2 shape" $m/digits.test.npy $m/digits.labels.npy $m/digits.test.npy 4 -o "$tmp/x.h"
gen_bad "COUNT too large" "more than the arrays hold" $m/digits.calib.npy $m/digits.labels.npy "$obj/digits_ref.npy" 65 -o "$tmp/x.h"
gen_bad "COUNT not a number" "is not a number" $m/digits.test.npy $m/digits.labels.npy "$obj/digits_ref.npy" 4x -o "$tmp/x.h"
gen_bad "missing file" "No such file" $m/none.npy $m/digits.labels.npy "$obj/digits_ref.npy" 4 -o "$tmp/x.h"
head -c 100 $m/digits.test.npy > "$tmp/trunc.npy"
gen_bad "truncated file" "truncated: header length" "$tmp/trunc.npy" $m/digits.labels.npy "$obj/digits_ref.npy" 4 -o "$tmp/x.h"
gen_bad "no arguments" "usage:"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
