#!/bin/bash
# bench-link: the host link's speed on tessel-sim --uart-pty: N digits
# (default 100) through `tessel run --engine board`, against the same batch
# on `--engine rtl`; prints wall time, inferences per second, simulated
# cycles per inference (link I/O included) and core cycles per inference.
#   tests/link/bench.sh TMP TESSEL SIM LINK_FW [N]
set -eu
tmp=$1 tessel=$2 sim=$3 fw=$4 n=${5:-100}
here=$(cd "$(dirname "$0")" && pwd)
digits=$(cd "$here/../models/digits" && pwd)
rm -rf "$tmp" && mkdir -p "$tmp"
batch=$tmp/batch.npy
printf '\x93NUMPY\x01\x00\x76\x00%-117s\n' "{'descr': '<f4', 'fortran_order': False, 'shape': ($n, 1, 8, 8), }" >"$batch"
tail -c +129 "$digits/digits.test.npy" | head -c $((n * 256)) >>"$batch"
pkg=$tmp/digits.tpkg
"$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --target npu8 -o "$pkg" >/dev/null

"$sim" "$fw" --load "0x80010000=$pkg" --uart-pty --uart-pty-link "$tmp/pty" --dram-bw 8 --dram-latency 30 \
  --max-cycles 4000000000 --stats >/dev/null 2>"$tmp/sim.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$tmp/pty" ] && break; sleep 0.1; done
t0=$(date +%s.%N)
"$tessel" run "$pkg" --engine board --port "$(cat "$tmp/pty")" --timeout 30 --input "$batch" -o "$tmp/board.npy" 2>"$tmp/board.err"
t1=$(date +%s.%N)
wait $pid
trap - EXIT
"$tessel" run "$pkg" --engine rtl --input "$batch" -o "$tmp/rtl.npy" 2>"$tmp/rtl.err"
t2=$(date +%s.%N)
cmp -s "$tmp/board.npy" "$tmp/rtl.npy" || { echo "bench-link: board and rtl outputs differ"; exit 1; }

cycles=$(sed -n 's/^tessel-sim: cycles \([0-9]*\)$/\1/p' "$tmp/sim.err")
core=$(sed -n 's/.* \([0-9]*\) core cycles per inference.*/\1/p' "$tmp/board.err")
awk -v n="$n" -v b="$(echo "$t1 - $t0" | bc)" -v r="$(echo "$t2 - $t1" | bc)" -v c="$cycles" -v k="$core" 'BEGIN {
  printf "host link, digits (npu8), %d inferences over tessel-sim --uart-pty:\n", n
  printf "  board engine: %.2f s wall, %.1f inferences/s, %d simulated cycles per inference (link I/O included), %d core cycles in tfw_run\n", b, n / b, c / n, k
  printf "  rtl engine (same batch, mailbox): %.2f s wall\n", r
}'
