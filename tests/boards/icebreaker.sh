#!/bin/bash
# test.sh: suite boards (iCEBreaker part), run by `make test-boards`.
#   test.sh RTL_TB GATE_TB FW_IMG FLASH_IMAGE OUTDIR [NPU_TB NPU_IMG NPU_TARGET [DIGITS_FW DIGITS_PKG]]
# (OUTDIR/lint.txt and OUTDIR/fit.txt, if there, hold PASS/FAIL lines of the
# tops' lint and of the iCEBreaker's place and route.)
# RTL_TB/GATE_TB are board_tb built on the RTL and on the yosys netlist of
# the bitstream; FW_IMG the self-test's flash image; DIGITS_FW and DIGITS_PKG
# the flash images of tests/boards/board_digits.c and of the digits package
# for the board's target. Prints PASS/FAIL lines
# and ends with "N passed, N failed". The environment gives the board's memory:
# IB_DRAM (bytes) and IB_PKG_DEST (the package window's offset, board.cfg).
rtl_tb=$1 gate_tb=$2 fw_img=$3 flash_image=$4 out=$5
npu_tb=$6 npu_img=$7 npu_target=$8 digits_fw=${9:-} digits_pkg=${10:-}
mkdir -p "$out"
pass=0 fail=0
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# 0. The board tops' lint, run by the make rule into lint.txt, and the
# bitstream's fit and timing (the place-and-route report's PASS/FAIL lines,
# copied by the make rule into fit.txt).
while read -r verdict rest; do
  case "$verdict" in PASS) ok "$rest" ;; FAIL) bad "$rest" ;; esac
done < <(cat "$out/lint.txt" "$out/fit.txt" 2>/dev/null)

# run_tb TB NAME ARGS...: runs a bench, keeps its UART text and status.
run_tb() {
  local tb=$1 name=$2; shift 2
  "$tb" "$@" >"$out/$name.uart" 2>"$out/$name.log"
  echo $? >"$out/$name.rc"
  sed 's/^/  /' "$out/$name.log"
}
rc_of() { cat "$out/$1.rc"; }

# 1-3. The self-test boots from flash and passes, on the RTL and on the
# netlist; the netlist's UART text equals the RTL's.
run_tb "$rtl_tb" rtl --image0 "$fw_img"
if [ "$(rc_of rtl)" = 0 ] && grep -q "selftest: all passed" "$out/rtl.uart"; then
  ok "RTL board: boots the self-test from flash, all checks pass"
else
  bad "RTL board: self-test (status $(rc_of rtl)), see $out/rtl.uart"; grep FAIL "$out/rtl.uart"
fi
run_tb "$gate_tb" gate --image0 "$fw_img" --max-cycles 3000000
if [ "$(rc_of gate)" = 0 ] && grep -q "selftest: all passed" "$out/gate.uart"; then
  ok "gate-level board (yosys iCE40 netlist of the bitstream): self-test passes"
else
  bad "gate-level board: self-test (status $(rc_of gate)), see $out/gate.uart"; grep FAIL "$out/gate.uart"
fi
if cmp -s "$out/rtl.uart" "$out/gate.uart"; then
  ok "gate-level UART output equals the RTL's"
else
  bad "gate-level UART output differs from the RTL's ($out/rtl.uart, $out/gate.uart)"
fi
# With the core-sequenced NPU's datapath (board.cfg npu_seq = 1) the
# self-test drives it through its registers: on the RTL and on the netlist.
if grep -q "NPU_SEQ" "$out/rtl.uart"; then
  if [ "$(grep -c '^PASS NPU_SEQ' "$out/rtl.uart")" = 2 ] && [ "$(grep -c '^PASS NPU_SEQ' "$out/gate.uart")" = 2 ]; then
    ok "NPU_SEQ datapath: a MAC and two requantisations on the RTL and the gate-level board"
  else
    bad "NPU_SEQ datapath check on the RTL or the gate-level board ($out/rtl.uart, $out/gate.uart)"
  fi
fi

# The digits model from the flash on the board's core-sequenced NPU: the
# firmware loads the package from the package window (flash image 1) and
# runs an image of the test set; its outputs are the int8 reference's, bit
# for bit, on the RTL and on the netlist (the same UART text: the cycles
# too). The netlist's run is the suite's longest (about 3 minutes).
if [ -n "$digits_fw" ]; then
  want="^board-digits: \([0-9]*\)/\1 predictions and \1/\1 outputs bit for bit as the int8 reference"
  run_tb "$rtl_tb" rtl-digits --image0 "$digits_fw" --image1 "$digits_pkg" --max-cycles 100000000
  if [ "$(rc_of rtl-digits)" = 0 ] && grep -q "$want" "$out/rtl-digits.uart"; then
    ok "RTL board: the digits model from the flash, $(grep -c '^image' "$out/rtl-digits.uart") image(s) bit for bit as the int8 reference"
  else
    bad "RTL board: the digits model (status $(rc_of rtl-digits)), see $out/rtl-digits.uart"
  fi
  run_tb "$gate_tb" gate-digits --image0 "$digits_fw" --image1 "$digits_pkg" --max-cycles 100000000
  if [ "$(rc_of gate-digits)" = 0 ] && grep -q "$want" "$out/gate-digits.uart" &&
     cmp -s "$out/rtl-digits.uart" "$out/gate-digits.uart"; then
    ok "gate-level board: the digits model from the flash, the RTL's UART text (outputs and cycles)"
  else
    bad "gate-level board: the digits model (status $(rc_of gate-digits)), see $out/gate-digits.uart"
  fi
fi

# The board with an NPU (RTL only; it does not fit the UP5K): the self-test
# with the NPU driver: init (ID, target hash), a looped stream to DONE
# through the interrupt, a bad command reported with its index.
if [ -n "$npu_tb" ]; then
  run_tb "$npu_tb" rtl-npu --image0 "$npu_img" --max-cycles 5000000
  if [ "$(rc_of rtl-npu)" = 0 ] && grep -q "selftest: all passed" "$out/rtl-npu.uart" \
     && [ "$(grep -c '^PASS NPU' "$out/rtl-npu.uart")" = 3 ]; then
    ok "RTL board with the $npu_target NPU: the self-test's NPU checks pass"
  else
    bad "RTL board with the $npu_target NPU (status $(rc_of rtl-npu)), see $out/rtl-npu.uart"
    grep FAIL "$out/rtl-npu.uart"
  fi
fi

# 4-7. The boot loader refuses bad images: the SoC never runs (red LED).
# patch FILE OFFSET HEX: overwrite one byte in place; flip FILE OFFSET: invert it.
patch() { printf "\\x$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
flip()  { patch "$1" "$2" "$(printf %02x $((255 - $(od -An -tu1 -j"$2" -N1 "$1"))))"; }
refused() {   # refused NAME WHAT ARGS...: the bench must report a refused image
  local name=$1 what=$2; shift 2
  run_tb "$rtl_tb" "$name" "$@" --max-cycles 200000
  if [ "$(rc_of "$name")" = 2 ] && [ ! -s "$out/$name.uart" ]; then
    ok "boot loader refuses $what (red LED, nothing runs)"
  else
    bad "boot loader did not refuse $what (status $(rc_of "$name"))"
  fi
}
cp "$fw_img" "$out/bad-magic.img";  patch "$out/bad-magic.img" 0 58
refused bad-magic "a firmware image with a wrong magic" --image0 "$out/bad-magic.img"
cp "$fw_img" "$out/bad-sum.img";    flip "$out/bad-sum.img" 100
refused bad-sum "a firmware image with a corrupted byte (sum)" --image0 "$out/bad-sum.img"
cp "$fw_img" "$out/bad-len.img";    patch "$out/bad-len.img" 10 02
refused bad-len "an image longer than the RAM" --image0 "$out/bad-len.img"
refused no-image "an empty flash"

# 8-9. A package image: loaded into the package window; a corrupted one is refused.
seq 1 700 >"$out/pkg.bin"   # any bytes: the loader does not read them
if "$flash_image" --dest "$IB_PKG_DEST" --mem-size "$IB_DRAM" "$out/pkg.bin" "$out/pkg.img"; then
  run_tb "$rtl_tb" with-pkg --image0 "$fw_img" --image1 "$out/pkg.img"
  want=$(od -An -tx4 -N8 "$out/pkg.bin" | awk '{ printf "package window: 0x%s 0x%s", $1, $2 }')
  if [ "$(rc_of with-pkg)" = 0 ] && grep -qx "$want" "$out/with-pkg.uart"; then
    ok "firmware + package images boot; the package is in its window ($want)"
  else bad "firmware + package images (status $(rc_of with-pkg)); wanted '$want'"; fi
  cp "$out/pkg.img" "$out/pkg-bad.img"; flip "$out/pkg-bad.img" 2000
  refused pkg-bad "a corrupted package image" --image0 "$fw_img" --image1 "$out/pkg-bad.img"
else
  bad "tessel-flash-image could not wrap a package"
fi

# 10-20. tessel-flash-image refuses what the loader would refuse, with a message.
expect_err() {   # expect_err WHAT PATTERN ARGS...
  local what=$1 pat=$2; shift 2
  if timeout 30 "$flash_image" "$@" >/dev/null 2>"$out/fi.err"; then bad "tessel-flash-image accepted $what"
  elif grep -q "$pat" "$out/fi.err"; then ok "tessel-flash-image refuses $what: $(head -n 1 "$out/fi.err")"
  else bad "tessel-flash-image: $what: unclear message: $(head -n 1 "$out/fi.err")"; fi
}
expect_err "a misaligned destination" "multiple of 8" --dest 4 --mem-size 131072 "$out/pkg.bin" "$out/x.img"
expect_err "a payload past the RAM" "do not fit" --dest 0x1FC00 --mem-size 131072 "$out/pkg.bin" "$out/x.img"
expect_err "a missing input" "No such file" --dest 0 --mem-size 131072 "$out/none.bin" "$out/x.img"
expect_err "a bad number" "not a 32-bit number" --dest 0x1G --mem-size 131072 "$out/pkg.bin" "$out/x.img"
cp "$out/pkg.bin" "$out/same.bin"
expect_err "OUT naming IN" "OUT is the input" --dest 0 --mem-size 131072 "$out/same.bin" "$out/./same.bin"
if cmp -s "$out/pkg.bin" "$out/same.bin"; then ok "tessel-flash-image left IN as it was"; else bad "tessel-flash-image changed IN"; fi
: >"$out/empty.bin"
expect_err "an empty input" "empty file" --dest 0 --mem-size 131072 "$out/empty.bin" "$out/x.img"
expect_err "a directory" "Is a directory" --dest 0 --mem-size 131072 "$out" "$out/x.img"
# Only regular files are read: /dev/zero never ends, and a FIFO blocked
# open() forever; an output FIFO with no reader blocked as well.
expect_err "an endless input" "/dev/zero: not a regular file" --dest 0 --mem-size 131072 /dev/zero "$out/x.img"
rm -f "$out/fifo"; mkfifo "$out/fifo"
expect_err "a FIFO as IN" "$out/fifo: not a regular file" --dest 0 --mem-size 131072 "$out/fifo" "$out/x.img"
expect_err "a FIFO as OUT" "$out/fifo: a FIFO with no reader" --dest 0 --mem-size 131072 "$out/pkg.bin" "$out/fifo"

# 21-28. The bench itself refuses bad arguments with a message.
for args in "--bogus 1" "--max-cycles 12x" "--max-cycles 0" "--max-cycles 99999999999999999999" \
            "--clks-per-bit 99999999999" "--image0 $out" "--image0 $out/fifo" "--image0 $fw_img --image1 $out/fifo"; do
  # shellcheck disable=SC2086
  timeout 60 "$rtl_tb" $args >/dev/null 2>"$out/tb.err"; rc=$?
  # a FIFO must be named (it once blocked the bench in open() until the timeout)
  want="board_tb: "; case "$args" in *fifo) want="$out/fifo: cannot open: not a regular file" ;; esac
  if [ $rc = 4 ] && grep -qF "$want" "$out/tb.err"; then ok "board_tb refuses '$args': $(head -n 1 "$out/tb.err")"
  else bad "board_tb '$args': status $rc"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
