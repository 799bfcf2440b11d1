#!/usr/bin/env bash
# bench-gemm.sh GEN SIM ELF OUTDIR TARGET: the 256x256x256 int8 GEMM through
# firmware on the RTL, operands resident in scratchpad and streamed from
# DRAM (target's default DRAM bandwidth and latency), each next to the C
# model's cost-model estimate and its error; and the simulator's speed.
set -u
gen=$1 sim=$2 elf=$3 out=$4 t=$5
mkdir -p "$out"
macs=$((256 * 256 * 256))
dim=$(sed -n 's/^#define TSL_DIM \([0-9]*\).*/\1/p' "build/gen/$t/tessel_target.h")
bw=$(sed -n 's/^#define TSL_DRAM_BYTES_PER_CYCLE \([0-9]*\).*/\1/p' "build/gen/$t/tessel_target.h")
lat=$(sed -n 's/^#define TSL_DRAM_LATENCY \([0-9]*\).*/\1/p' "build/gen/$t/tessel_target.h")
calc() { awk "BEGIN { printf \"%.1f\", $1 }"; }
field() { sed -n "s/^case $2 .*$3=\([0-9a-fx]*\).*/\1/p" "$1"; }
for kind in gemm-resident gemm-dram; do
  "$gen" --target "$t" --seed 1 --count 1 --kind $kind --batch "$out/$kind.bin" --expect "$out/$kind.txt" >/dev/null || exit 1
  k=0; [ $kind = gemm-resident ] && k=1   # resident: case 0 loads, case 1 is measured
  est=$(field "$out/$kind.txt" $k cycles)
  printf 'bench-npu-soc-gemm: %s %-13s C model (cost model): %8d cycles, MAC utilisation %5s%%\n' "$t" $kind "$est" \
    "$(calc "100 * $macs / ($est * $dim * $dim)")"
  "$sim" "$elf" --load "0x80000000=$out/$kind.bin" --dram-bw "$bw" --dram-latency "$lat" --stats \
    >"$out/$kind.got" 2>"$out/$kind.stats"
  st=$?
  if [ $st -eq 3 ]; then
    echo "bench-npu-soc-gemm: $t $kind RTL: not measured: this tessel-sim has no NPU (firmware: $(head -n1 "$out/$kind.got"))"
    continue
  elif [ $st -ne 0 ]; then
    echo "bench-npu-soc-gemm: $t $kind RTL: run failed (status $st): $(tail -n1 "$out/$kind.got")"; continue
  fi
  meas=$(field "$out/$kind.got" $k cycles)
  same=$(tests/npu-system/compare.sh "$out/$kind.txt" "$out/$kind.got" | tail -n1)
  printf 'bench-npu-soc-gemm: %s %-13s RTL:                  %8d cycles, MAC utilisation %5s%%, cost model error %s%% (outputs: %s)\n' \
    "$t" $kind "$meas" "$(calc "100 * $macs / ($meas * $dim * $dim)")" \
    "$(calc "100 * ($est - $meas) / $meas")" "$same"
  sed -n 's/^tessel-sim: /bench-npu-soc-gemm: '"$t $kind"' tessel-sim: /p' "$out/$kind.stats" | grep -i "cycles"
done
# The SoC's simulation speed with this target's NPU (idle), on the CPU-bound
# firmware the SoC-only figure uses (bench-sim-speed), when it is built.
cpu=build/firmware/bench-cpu.elf
if [ -f "$cpu" ] && "$sim" --version | grep -q "target $t "; then
  "$sim" "$cpu" --stats 2>&1 >/dev/null | grep "cycles/" | sed "s/^tessel-sim: /bench-npu-soc-gemm: $t SoC+NPU, bench-cpu.elf: /"
fi
