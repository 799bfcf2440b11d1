#!/bin/bash
# SoC behaviour tests on tessel-sim: small programs (tests/soc/*.S) that
# drive the UART, timer, simulation control, bus errors, DRAM and fence.i.
#   tests/soc/run.sh SIM ELFDIR [FW_DIR]
# Each case checks the exit status and, where given, stdout. FW_DIR (the
# firmware build, optional) adds hello-dram.elf under several DRAM timings;
# ISA_ELFS in the environment (optional) adds the ISA tests under several.
# Ends with "N passed, N failed".
set -u
sim=$1 dir=$2 fw=${3:-}
pass=0 fail=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# case NAME RC STDOUT-OR-- STDIN-OR-- ARGS...
case_() {
  local name=$1 want_rc=$2 want_out=$3 input=$4
  shift 4
  if [[ $input == -- ]]; then
    timeout 120 "$sim" "$@" --max-cycles 50000000 </dev/null >"$out" 2>"$err"
  else
    printf '%s' "$input" | timeout 120 "$sim" "$@" --max-cycles 50000000 >"$out" 2>"$err"
  fi
  local rc=$? why=
  if [[ $rc -ne $want_rc ]]; then
    why="exit $rc, expected $want_rc: $(head -c 300 "$err" | tr '\n' ' ')"
  elif [[ $want_out != -- ]] && [[ "$(cat "$out")" != "$want_out" ]]; then
    why="stdout '$(head -c 200 "$out")', expected '$want_out'"
  fi
  if [[ -z $why ]]; then echo "PASS $name"; pass=$((pass + 1))
  else echo "FAIL $name ($why)"; fail=$((fail + 1)); fi
}

case_ uart-tx-exit-code  7 "UART ok" -- "$dir/uart.elf"
case_ uart-rx-echo       0 "BC"      AB "$dir/uart_rx.elf"
case_ timer-interrupt    0 "" -- "$dir/timer.elf"
case_ ext-irq-hook       0 "" -- "$dir/ext_irq.elf"
case_ bus-errors         0 "" -- "$dir/bus_err.elf"
case_ dcache             0 "" -- "$dir/dcache.elf"
# With 128 MiB of DRAM, 0x84000000 exists: case 7 must then see no fault.
case_ bus-errors-dram-size 7 "" -- "$dir/bus_err.elf" --dram-size 128M
case_ fence-i            0 "" -- "$dir/fence_i.elf"
for t in "8 20" "64 1" "0.5 50" "3 2"; do
  set -- $t
  case_ "smc-in-fetch-line-bw$1-lat$2" 0 "" -- "$dir/smc_dram.elf" --dram-bw "$1" --dram-latency "$2"
done
case_ tohost-pass-dram   0 "" -- "$dir/tohost_pass_dram.elf"
case_ tohost-fail-dram   5 "" -- "$dir/tohost_fail_dram.elf"
if grep -q "test 5 failed" "$err"; then echo "PASS tohost-fail-message"; pass=$((pass + 1))
else echo "FAIL tohost-fail-message ($(head -c 200 "$err"))"; fail=$((fail + 1)); fi

# DRAM reads and writes under different bandwidths and latencies; slower
# DRAM must cost more simulated cycles.
for t in "8 20" "0.25 1" "64 1" "1.5 200" "3 7"; do
  set -- $t
  case_ "dram-rw-bw$1-lat$2" 0 "" -- "$dir/dram_rw.elf" --dram-bw "$1" --dram-latency "$2"
done
cycles() { "$sim" "$@" --stats 2>&1 >/dev/null | sed -n 's/^tessel-sim: cycles //p'; }
fast=$(cycles "$dir/dram_rw.elf" --dram-bw 8 --dram-latency 2)
slow_lat=$(cycles "$dir/dram_rw.elf" --dram-bw 8 --dram-latency 100)
slow_bw=$(cycles "$dir/dram_rw.elf" --dram-bw 0.5 --dram-latency 2)
if [[ -n $fast && $slow_lat -gt $fast && $slow_bw -gt $fast ]]; then
  echo "PASS dram-timing-shows ($fast fast, $slow_lat latency 100, $slow_bw bw 0.5)"; pass=$((pass + 1))
else
  echo "FAIL dram-timing-shows ($fast fast, $slow_lat latency 100, $slow_bw bw 0.5)"; fail=$((fail + 1))
fi

# A whole C program running from DRAM prints the same under any timing.
if [[ -n $fw && -f $fw/hello-dram.elf ]]; then
  ref=$("$sim" "$fw/hello-dram.elf" 2>/dev/null)
  for t in "8 20" "0.5 3" "64 1" "2.5 150"; do
    set -- $t
    case_ "hello-dram-bw$1-lat$2" 0 "$ref" -- "$fw/hello-dram.elf" --dram-bw "$1" --dram-latency "$2"
  done
fi

# The ISA tests (firmware/rules.mk builds them, linked in DRAM) under slow,
# fast and odd DRAM timings: the core's bus handling must not depend on it.
if [[ -n ${ISA_ELFS:-} ]]; then
  for t in "0.5 50" "64 1" "1.5 7"; do
    set -- $t
    bad_isa=
    for elf in $ISA_ELFS; do
      timeout 120 "$sim" "$elf" --dram-bw "$1" --dram-latency "$2" --max-cycles 50000000 \
        </dev/null >/dev/null 2>"$err" || bad_isa="$bad_isa $(basename "$elf" .elf)"
    done
    if [[ -z $bad_isa ]]; then echo "PASS isa-tests-bw$1-lat$2"; pass=$((pass + 1))
    else echo "FAIL isa-tests-bw$1-lat$2 (failed:$bad_isa)"; fail=$((fail + 1)); fi
  done
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
