#!/bin/bash
# NPU area, module by module, on the iCE40UP5K (yosys 0.23 `synth_ice40 -dsp
# -noflatten`: LUT4, carry, flip-flops, SB_MAC16, SB_RAM40_4K) or on the
# Arty's XC7A35T (FPGA=xilinx: `synth_xilinx -family xc7`, which keeps the
# hierarchy: LUT1..LUT6, flip-flops, DSP48E1, RAMB36 equivalents, LUT-RAM
# cells), for one target: a table per module (instances; counts for all
# instances) and the total against the device. Kept apart, modules are
# optimised a little less than in a board's flattened flow, so the total is
# an upper bound of what the flattened NPU maps to.
#   [FPGA=ice40|xilinx] area.sh GEN_DIR TARGET OUT_DIR RTL.sv...
# A benchmark: it prints figures and fails only if yosys fails (the NPU does
# not fit the UP5K, docs/npu-rtl.md "Area").
set -u
gen=$1 target=$2 out=$3
shift 3
mkdir -p "$out"
fpga=${FPGA:-ice40}
case $fpga in
ice40) synth="synth_ice40 -dsp -noflatten" ;;
xilinx) synth="synth_xilinx -family xc7" ;;
*) echo "area.sh: FPGA must be ice40 or xilinx, not '$fpga'" >&2; exit 2 ;;
esac
log=$out/area-$fpga-$target.log
files="$gen/$target/tessel_target_pkg.sv $gen/tessel_isa_pkg.sv $*"
# AREA_REUSE_LOG=1 tabulates the last run's log again without synthesising.
if [[ ${AREA_REUSE_LOG:-0} == 1 && -s $log ]]; then :
else
echo "yosys $synth tessel_npu at $target (5 to 40 minutes; log $log)"
if ! yosys -q -l "$log" -p "read_verilog -sv $files; $synth -top tessel_npu; stat" \
     >"$out/area-$fpga-$target.out" 2>&1; then
  tail -n 20 "$out/area-$fpga-$target.out"
  echo "FAIL yosys $synth $target"
  exit 1
fi
fi
# The last stat: each "=== module ===" block's cell counts, then the design
# hierarchy (indentation = depth, number = instances per parent instance).
awk -v fpga="$fpga" '
  # a parameterised module: its name and the first hex digits of its hash
  # ($paramod$HASH\name, or $paramod\name\Param=... for one parameter)
  function short(x,   h, a) {
    if (x ~ /^\$paramod\\/) { split(x, a, "\\"); return a[2] }
    if (x !~ /^\$paramod\$/) return x
    h = substr(x, 10, 4); sub(/^\$paramod\$[0-9a-f]*\\/, "", x); return x "." h }
  /^[0-9.]+ Printing statistics/ { delete seen; delete inst; delete lut; delete car; delete ff; delete dsp;
                                   delete ram; delete lram; nm = 0; inhier = 0; cur = "" }
  /^=== / { name = $2; if (name == "design") { inhier = 1; next }
            cur = short(name); inhier = 0
            if (!(cur in seen)) { order[nm++] = cur; seen[cur] = 1 } next }
  inhier && /^   +[A-Za-z$\\_]/ && NF == 2 && $2 ~ /^[0-9]+$/ {
    ind = match($0, /[^ ]/); n = short($1)
    depth = (ind - 4) / 2; cnt[depth] = $2 * (depth > 0 ? cnt[depth - 1] : 1)
    inst[n] += cnt[depth]; next }
  # per cell type: LUT (LUT4 | LUT1..6), carry (SB_CARRY | CARRY4), FF, DSP,
  # block RAM (SB_RAM40_4K | RAMB36E1 + RAMB18E1 / 2), LUT-RAM cells
  !inhier && cur != "" && NF == 2 && $2 ~ /^[0-9]+$/ {
    c = $1; v = $2
    if (c == "SB_LUT4" || c ~ /^LUT[1-6]$/) lut[cur] += v
    else if (c == "SB_CARRY" || c == "CARRY4") car[cur] += v
    else if (c ~ /^SB_DFF/ || c ~ /^FD[RSCP]E$/) ff[cur] += v
    else if (c == "SB_MAC16" || c == "DSP48E1") dsp[cur] += v
    else if (c == "SB_RAM40_4K" || c == "RAMB36E1") ram[cur] += v
    else if (c == "RAMB18E1") ram[cur] += v / 2
    else if (c ~ /^RAM(32|64|128|256)(M|X1[SD])$/) lram[cur] += v }
  END {
    xil = fpga == "xilinx"
    printf "%-14s %5s %7s %7s %7s %5s %6s%s\n", "module", "inst", xil ? "LUT" : "LUT4", "carry", "FF", "DSP",
           xil ? "RAMB36" : "BRAM", xil ? "  LUTRAM" : ""
    for (i = 0; i < nm; i++) {
      m = order[i]; k = (m in inst) ? inst[m] : 1
      printf "%-14s %5d %7d %7d %7d %5d %6g%s\n", m, k, k*lut[m], k*car[m], k*ff[m], k*dsp[m], k*ram[m],
             xil ? sprintf(" %7d", k*lram[m]) : ""
      tl += k*lut[m]; tc += k*car[m]; tf += k*ff[m]; td += k*dsp[m]; tr += k*ram[m]; tq += k*lram[m]
    }
    printf "%-14s %5s %7d %7d %7d %5d %6g%s\n", "total", "", tl, tc, tf, td, tr, xil ? sprintf(" %7d", tq) : ""
    if (xil) {
      printf "XC7A35T        %5s %7d %7s %7d %5d %6d\n", "", 20800, "-", 41600, 90, 50
      printf "LUTs %d of 20800 (%d%%); flip-flops %d of 41600; DSP48E1 %d of 90; RAMB36 %g of 50\n",
             tl, tl * 100 / 20800, tf, td, tr
    } else {
      printf "UP5K           %5s %7d %7s %7d %5d %6d\n", "", 5280, "-", 5280, 8, 30
      lc = tl > tf ? tl : tf
      printf "logic cells >= max(LUT4, FF) = %d of 5280 (%d%%); DSP %d of 8; BRAM %d of 30\n", lc, lc * 100 / 5280, td, tr
    }
  }' "$log"
