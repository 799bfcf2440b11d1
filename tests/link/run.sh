#!/bin/bash
# The `link` suite (host link): the frame codec's unit tests, then
# the digits model through the link firmware on tessel-sim --uart-pty and
# `tessel run --engine board`: outputs bit-identical to the C model, byte
# and MAC counters equal to the rtl engine's, a corrupted RUN frame NAKed
# and retried, one that keeps failing reported, a board with another
# package, target or none refused, bad ports and a silent board reported
# with a message and never a hang. Each check is one test; ends
# "N passed, N failed".
#   tests/link/run.sh TMP UNIT_TEST TESSEL SIM LINK_FW SILENT_ELF POKE SHORT_FW
set -u
tmp=$1 unit=$2 tessel=$3 sim=$4 fw=$5 silent=$6 poke=$7 short_fw=$8 small_fw=$9
here=$(cd "$(dirname "$0")" && pwd)
digits=$(cd "$here/../models/digits" && pwd)
rm -rf "$tmp" && mkdir -p "$tmp"
. "$here/../lib/check.sh"

# The simulated board: SIM FW with the UART on a pty; its path in $tmp/NAME.pty.
# Every wait is bounded; every simulator started is stopped by its pid.
sim_pid=
start_board() {
  local name=$1 elf=$2; shift 2
  rm -f "$tmp/$name.pty"
  "$sim" "$elf" --uart-pty --uart-pty-link "$tmp/$name.pty" --dram-bw 8 --dram-latency 30 "$@" \
    >"$tmp/$name.sim.out" 2>"$tmp/$name.sim.err" &
  sim_pid=$!
  for _ in $(seq 100); do [ -s "$tmp/$name.pty" ] && break; sleep 0.1; done
  port=$(cat "$tmp/$name.pty" 2>/dev/null)
  [ -n "$port" ]
}
# stop_board: waits up to $1 s for the simulator to end by itself, else kills it; its status in sim_rc.
stop_board() {
  local wait=$1
  sim_rc=
  for _ in $(seq $((wait * 10))); do kill -0 "$sim_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$sim_pid" 2>/dev/null; then kill "$sim_pid" 2>/dev/null; wait "$sim_pid" 2>/dev/null; sim_rc=killed
  else wait "$sim_pid"; sim_rc=$?; fi
  sim_pid=
}
cleanup() { [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; }
trap cleanup EXIT

# 0. The frame codec (cmocka): one test per cmocka case.
"$unit" >"$tmp/unit.log" 2>&1
u_ok=$(grep -c '^\[       OK \]' "$tmp/unit.log")
u_bad=$(grep -c '^\[  FAILED  \] [a-z]' "$tmp/unit.log")
[ "$u_ok" -gt 0 ] && pass=$((pass + u_ok)) && echo "PASS: frame codec: $u_ok cmocka tests"
if [ "$u_bad" -gt 0 ] || [ "$u_ok" -eq 0 ]; then fail=$((fail + (u_bad > 0 ? u_bad : 1))); echo "FAIL: frame codec"; sed 's/^/  /' "$tmp/unit.log" | tail -20; fi

# A batch of 6 test digits: the first 6 rows of digits.test.npy under a
# header of the same length (128 bytes) with the shape (6, 1, 8, 8).
n=6
batch=$tmp/batch.npy
printf '\x93NUMPY\x01\x00\x76\x00%-117s\n' "{'descr': '<f4', 'fortran_order': False, 'shape': ($n, 1, 8, 8), }" >"$batch"
tail -c +129 "$digits/digits.test.npy" | head -c $((n * 256)) >>"$batch"

pkg=$tmp/digits.tpkg
t compile "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --target npu8 -o "$pkg"
t compile-other "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --target npu8 --int8-io -o "$tmp/other.tpkg"
t compile-npu4 "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --target npu4 -o "$tmp/npu4.tpkg"
t model "$tessel" run "$pkg" --engine model -q --input "$batch" -o "$tmp/model.npy" --profile "$tmp/model.json"
t rtl "$tessel" run "$pkg" --engine rtl -q --input "$batch" -o "$tmp/rtl.npy" --profile "$tmp/rtl.json"

# 1. The batch over the link: bit-identical to the C model (so the same
#    predictions), counters equal to the rtl engine's, BYE ends the firmware.
if start_board good "$fw" --load "0x80010000=$pkg" --max-cycles 400000000; then
  ok "board-pty-ready"
  t board-run timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 --input "$batch" \
    -o "$tmp/board.npy" --profile "$tmp/board.json"
  stop_board 20
  [ "$sim_rc" = 0 ] && ok "board-bye-exits-0" || ko "board-bye-exits-0 (simulator status $sim_rc)"
else
  ko "board-pty-ready (no pty path from tessel-sim)"; stop_board 0
fi
grep -q '^tessel-sim: uart on /dev/pts/[0-9]*$' "$tmp/good.sim.err" && ok "sim-prints-pty" || ko "sim-prints-pty"
t board-equals-model cmp "$tmp/board.npy" "$tmp/model.npy"
t board-same-predictions bash -c "'$tessel' compare '$tmp/model.npy' '$tmp/board.npy' | grep -q 'top-1 agree $n/$n'"
counters() { grep -o '"\(MACS\|DRAM_RD_BYTES\|DRAM_WR_BYTES\|SPAD_RD_BYTES\|SPAD_WR_BYTES\|ACC_RD_BYTES\|ACC_WR_BYTES\)": [0-9]*' "$1"; }
t board-counters-equal-rtl diff <(counters "$tmp/board.json") <(counters "$tmp/rtl.json")
t board-counters-nonzero bash -c "grep -q '\"MACS\": [1-9]' '$tmp/board.json' && grep -q '\"engine\": \"board\"' '$tmp/board.json'"
t board-profile "$tessel" profile "$tmp/board.json"
t board-bye-acked bash -c "! grep -q 'did not acknowledge BYE' '$tmp/board-run.log'"
t board-summary grep -q "6 inferences of digits.tpkg on board (npu8).*core cycles per inference.*over /dev/pts/[0-9]* (0 RUN frames sent again)" "$tmp/board-run.log"

# 2. One corrupted RUN frame: the board NAKs it, the host sends it again,
#    the results are the same.
if start_board fault "$fw" --load "0x80010000=$pkg" --max-cycles 400000000; then
  t fault-retried env TESSEL_LINK_FAULT=3 timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 \
    --input "$batch" -o "$tmp/fault.npy"
  stop_board 20
  t fault-same-outputs cmp "$tmp/fault.npy" "$tmp/model.npy"
  t fault-counted grep -q "(1 RUN frame sent again)" "$tmp/fault-retried.log"
else
  ko "fault board"; stop_board 0
fi

# 3. Every RUN frame corrupted: bounded retries, then a clear error.
if start_board badlink "$fw" --load "0x80010000=$pkg" --max-cycles 400000000; then
  expect_fail fault-reported 1 "did not take the RUN frame after 4 attempts (last: NAK CRC: frame CRC mismatch)" \
    env TESSEL_LINK_FAULT=1- timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 --input "$batch" -o "$tmp/x.npy"
  # The host has gone without BYE: the simulator runs on (no crash, no exit of its own).
  sleep 0.5
  kill -0 "$sim_pid" 2>/dev/null && ok "sim-survives-host-closing" || ko "sim-survives-host-closing"
  stop_board 0
else
  ko "badlink board"; stop_board 0
fi

# 4. Boards that must be refused: another package, another target, no package.
if start_board other "$fw" --load "0x80010000=$tmp/other.tpkg" --max-cycles 400000000; then
  expect_fail refuse-other-package 1 "the board runs another package" \
    timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 --input "$batch" -o "$tmp/x.npy"
fi
stop_board 0
# A board whose receive buffer (TFW_LINK_RX_BYTES = 256, HELLO says so) is
# smaller than a RUN frame of this package (4 + 256 bytes): refused before
# any frame is sent.
if start_board small "$small_fw" --load "0x80010000=$pkg" --max-cycles 400000000; then
  expect_fail refuse-small-board 1 "the package's inputs (256 bytes) exceed the largest RUN frame the board takes (256 bytes" \
    timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 --input "$batch" -o "$tmp/x.npy"
fi
stop_board 0
if start_board npu4 "$fw" --load "0x80010000=$tmp/npu4.tpkg" --max-cycles 400000000; then
  expect_fail refuse-other-target 1 "the board's firmware is built for target hash" \
    timeout 120 "$tessel" run "$tmp/npu4.tpkg" --engine board --port "$port" --timeout 20 --input "$batch" -o "$tmp/x.npy"
fi
stop_board 0
if start_board none "$fw" --max-cycles 400000000; then
  expect_fail refuse-no-package 1 "the board found no package" \
    timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 --input "$batch" -o "$tmp/x.npy"
fi
stop_board 0

# 4b. A package damaged on the board's side (one weights byte flipped; its
#     header and header CRC intact, as after a flash bit error): the link
#     firmware's check at boot (every CRC, the weights' included) refuses it,
#     says so on the UART, and the host reports the refusal; the same bytes
#     given to the host are refused before any frame (the host checks every
#     package it runs); the good package ran in 1.
w_off=$("$tessel" inspect "$pkg" | awk '$1 == "WEIGHTS" { print $3 }')
cp "$pkg" "$tmp/badw.tpkg"
printf '\x5a' | dd of="$tmp/badw.tpkg" bs=1 seek=$((w_off + 7)) conv=notrunc status=none
if start_board badw "$fw" --load "0x80010000=$tmp/badw.tpkg" --max-cycles 400000000; then
  timeout 10 grep -a -m1 "tessel-link:" <"$port" >"$tmp/badw.uart" 2>/dev/null
  grep -aq "tessel-link: package of 0x[0-9a-f]* bytes, CRC 0x[0-9a-f]*: refused: .*WEIGHTS_CRC" "$tmp/badw.uart" &&
    ok "board-says-weights-refused" || { ko "board-says-weights-refused"; head -c 300 "$tmp/badw.uart" | tr -c '[:print:]\n' '.'; echo; }
  expect_fail board-refuses-bad-weights 1 "the board refused its package (.*WEIGHTS_CRC.*load a good copy" \
    timeout 120 "$tessel" run "$pkg" --engine board --port "$port" --timeout 20 --input "$batch" -o "$tmp/x.npy"
fi
stop_board 0
expect_fail host-refuses-bad-weights 1 "badw.tpkg: not a valid package: .*WEIGHTS_CRC" \
  "$tessel" run "$tmp/badw.tpkg" --engine board --port /dev/null --input "$batch" -o "$tmp/x.npy"
if start_board goodw "$fw" --load "0x80010000=$pkg" --max-cycles 400000000; then
  timeout 10 grep -a -m1 "tessel-link:" <"$port" >"$tmp/goodw.uart" 2>/dev/null
  grep -aq "tessel-link: package of 0x[0-9a-f]* bytes, CRC 0x[0-9a-f]*: sections and weights checked, ready" "$tmp/goodw.uart" &&
    ok "board-says-weights-checked" || { ko "board-says-weights-checked"; head -c 300 "$tmp/goodw.uart" | tr -c '[:print:]\n' '.'; echo; }
fi
stop_board 0

# 5. A board that never answers (firmware that only loops): a timeout with
#    a message, well before the outer bound.
if start_board silent "$silent" --max-cycles 4000000000; then
  start=$(date +%s)
  expect_fail silent-board-times-out 1 "no HELLO from the board within 2.0 s" \
    timeout 60 "$tessel" run "$pkg" --engine board --port "$port" --timeout 2 --input "$batch" -o "$tmp/x.npy"
  [ $(($(date +%s) - start)) -lt 30 ] && ok "silent-board-bounded" || ko "silent-board-bounded"
fi
stop_board 0

# 6. The board's side (link_poke: hand-made frames to a link firmware with a
#    short partial-frame timeout): garbage skipped, HELLO on request, NAK
#    TYPE / LENGTH / CRC / TIMEOUT, then a good RUN, BYE; and NOT_READY
#    without a package. Each of its checks counts.
poke() {
  local name=$1 bytes=$2
  timeout 120 "$poke" "$port" "$bytes" >"$tmp/$name.log" 2>&1
  local p f
  p=$(grep -c '^PASS' "$tmp/$name.log"); f=$(grep -c '^FAIL' "$tmp/$name.log")
  sed 's/^\(PASS\|FAIL\): /\1: '"$name"': /' "$tmp/$name.log" | grep '^\(PASS\|FAIL\)'
  grep -v '^\(PASS\|FAIL\)\|passed,' "$tmp/$name.log" | sed 's/^/  /'
  pass=$((pass + p)); fail=$((fail + f))
  [ "$p" -gt 0 ] || ko "$name: no checks ran"
}
if start_board poke "$short_fw" --load "0x80010000=$pkg" --max-cycles 400000000; then
  poke poke-frames "$(stat -c %s "$pkg")"
  stop_board 20
  [ "$sim_rc" = 0 ] && ok "poke-bye-exits-0" || ko "poke-bye-exits-0 (simulator status $sim_rc)"
else
  ko "poke board"; stop_board 0
fi
if start_board poke-none "$short_fw" --max-cycles 400000000; then
  poke poke-no-package 0
fi
stop_board 20

# 7. Bad command lines and ports: usage errors (exit 2) with the reason.
expect_fail no-port 2 "needs --port DEV" "$tessel" run "$pkg" --engine board --input "$batch"
expect_fail not-a-tty 2 "not a serial port" timeout 30 "$tessel" run "$pkg" --engine board --port /dev/null --input "$batch"
expect_fail port-missing 2 "cannot open" "$tessel" run "$pkg" --engine board --port "$tmp/no-such-port" --input "$batch"
expect_fail bad-baud 2 "--baud '123'" "$tessel" run "$pkg" --engine board --port /dev/null --baud 123 --input "$batch"
expect_fail bad-timeout 2 "--timeout 'x'" "$tessel" run "$pkg" --engine board --port /dev/null --timeout x --input "$batch"
expect_fail port-without-board 2 "--port is for --engine board" "$tessel" run "$pkg" --port /dev/null --input "$batch"
expect_fail sim-link-needs-pty 120 "--uart-pty-link needs --uart-pty" "$sim" "$fw" --uart-pty-link "$tmp/x"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
