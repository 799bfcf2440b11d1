#!/bin/bash
# link_fit.sh: the iCEBreaker's link firmware in the board's own memory, measured on the simulator.
#   tests/boards/link_fit.sh TESSEL SEQ_SIM LINK_ELF PKG INPUT MEM_BYTES PKG_OFFSET OUTDIR
# LINK_ELF is the board's link firmware as linker/icebreaker.ld places it:
# code, data, zero-initialised data, heap and stack in the SPRAM's first
# PKG_OFFSET bytes (the stack, __stack_size of them, at the top), the package
# window from there to MEM_BYTES. SEQ_SIM is tessel-sim with the board's
# core-sequenced NPU. The script
#   1. paints the heap and the stack 0xA5 and runs LINK_ELF on SEQ_SIM with
#      the DRAM cut to MEM_BYTES (latency 1, as the on-chip SPRAM) and PKG
#      where the flash loader puts it (PKG_OFFSET);
#   2. serves INPUT over the host link (`tessel run --engine board` on the
#      simulator's UART pty; the firmware allocates the NPU's memories and
#      the run state from the heap, so a heap too small fails the run) and
#      compares the output with the C model's;
#   3. reads back picolibc's break (sbrk's `brk`: the heap's high-water
#      mark) and the stack: its bytes still 0xA5 were never written.
# Prints the budget of both parts and three PASS/FAIL lines (the run and its
# bits, the stack inside its reservation, the package and its DRAM window
# inside theirs); exits 1 on a FAIL.
set -u
tessel=$1 sim=$2 elf=$3 pkg=$4 input=$5 mem=$(($6)) pkg_off=$(($7)) out=$8
rv_nm=${RV_NM:-riscv64-unknown-elf-nm} rv_size=${RV_SIZE:-riscv64-unknown-elf-size}
mkdir -p "$out"
fail=0
ok()  { echo "PASS $*"; }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
base=0x80000000
sym() { "$rv_nm" "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
heap=$(($(sym __heap_start))) heap_end=$(($(sym __heap_end))) stack=$(($(sym __stack))) brk=$(sym brk)
stack_size=$((stack - heap_end)) span=$((stack - heap))
if [ "$stack" -ne $((base + pkg_off)) ]; then
  bad "$elf ends its data part at $(printf 0x%x "$stack"), not at the package offset $(printf 0x%x $((base + pkg_off)))"
fi

# 1-2. The run, with the heap and the stack painted.
head -c "$span" /dev/zero | tr '\0' '\245' >"$out/paint.bin"
rm -f "$out/pty" "$out/used.bin" "$out/brk.bin"
"$sim" "$elf" --dram-size "$mem" --dram-latency 1 --load "$(printf 0x%x "$heap")=$out/paint.bin" \
  --load "$(printf 0x%x $((base + pkg_off)))=$pkg" --uart-pty --uart-pty-link "$out/pty" --max-cycles 400000000 \
  --dump "$(printf 0x%x "$heap"):$span=$out/used.bin" --dump "$brk:4=$out/brk.bin" >"$out/sim.out" 2>"$out/sim.err" &
sim_pid=$!
for _ in $(seq 100); do [ -s "$out/pty" ] && break; sleep 0.1; done
"$tessel" run "$pkg" --engine model -q --input "$input" -o "$out/model.npy" >"$out/model.log" 2>&1
if "$tessel" run "$pkg" --engine board --port "$(cat "$out/pty" 2>/dev/null)" --timeout 120 \
     --input "$input" -o "$out/board.npy" >"$out/run.log" 2>&1 && cmp -s "$out/model.npy" "$out/board.npy"; then
  ok "the link firmware in the board's $mem bytes serves $(basename "$input") with the C model's bits"
else
  bad "the link firmware in the board's $mem bytes: $(tail -n 1 "$out/run.log") (the C model's bits: $out/model.npy)"
  kill "$sim_pid" 2>/dev/null   # no BYE reached it: do not wait for its cycle limit
fi
wait "$sim_pid" 2>/dev/null   # the host's BYE ends the firmware, and the simulator writes the dump

# 3. What the run took: the heap up to the break, the stack from its top down
# to its deepest written byte (below it 256 bytes in a row untouched).
heap_used=$(( $(od -An -tu4 -N4 "$out/brk.bin" 2>/dev/null || echo 0) - heap ))
stack_used=$(od -An -v -tu1 -w1 "$out/used.bin" 2>/dev/null | awk -v n="$span" '
  { b[NR - 1] = $1 }
  END { s = 0; for (i = n - 1; i >= 0; i--) if (b[i] != 165) s = n - i; else if (n - 1 - i - s >= 256) break; print s }')
set -- $("$rv_size" "$elf" | tail -n 1)
code=$1 data=$2 bss=$3
pkg_bytes=$(stat -c %s "$pkg")
win=$("$tessel" inspect "$pkg" 2>/dev/null | awk '/^window:/ { print $2 }')
pkg_need=$(( (pkg_bytes + 63) / 64 * 64 + ${win:-0} ))
echo "firmware part, the SPRAM's first $pkg_off bytes: code $code, data $data, zero-initialised $bss;" \
  "heap $((heap_end - heap)) (the run used ${heap_used:-?}), stack $stack_size (the run used ${stack_used:-?})"
echo "package part, the last $((mem - pkg_off)) bytes: $(basename "$pkg") $pkg_bytes and its DRAM window ${win:-?}: $pkg_need"
if [ -n "$stack_used" ] && [ "$stack_used" -gt 0 ] && [ "$stack_used" -le "$stack_size" ] &&
   [ "$heap_used" -gt 0 ] && [ "$heap_used" -le $((heap_end - heap)) ]; then
  ok "firmware fits: the stack stayed in its $stack_size bytes, the heap in its $((heap_end - heap))"
else
  bad "firmware: stack used ${stack_used:-?} of $stack_size, heap ${heap_used:-?} of $((heap_end - heap)) ($out/used.bin)"
fi
if [ -n "$win" ] && [ "$pkg_need" -le $((mem - pkg_off)) ]; then
  ok "package fits: $pkg_need of $((mem - pkg_off)) bytes"
else
  bad "package does not fit: $pkg_need of $((mem - pkg_off)) bytes"
fi
[ "$fail" -eq 0 ]
