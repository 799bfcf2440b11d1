#!/bin/bash
# NPU area on the iCE40UP5K: yosys 0.23 `synth_ice40 -dsp -noflatten` of
# tessel_npu for one target, then a table per module (instances; LUT4, carry,
# flip-flops, SB_MAC16, SB_RAM40_4K per instance and for all instances) and
# the total against the UP5K (5280 logic cells, 8 DSPs, 30 block RAMs).
# -noflatten optimises a little less across modules than the board flow, so
# the total is an upper bound of what the flattened NPU maps to.
#   area.sh GEN_DIR TARGET OUT_DIR RTL.sv...
# A benchmark: it prints figures and fails only if yosys fails (the NPU does
# not fit the UP5K yet, docs/npu-rtl.md "Area").
set -u
gen=$1 target=$2 out=$3
shift 3
mkdir -p "$out"
log=$out/area-$target.log
files="$gen/$target/tessel_target_pkg.sv $gen/tessel_isa_pkg.sv $*"
# AREA_REUSE_LOG=1 tabulates the last run's log again without synthesising.
if [[ ${AREA_REUSE_LOG:-0} == 1 && -s $log ]]; then :
else
echo "yosys synth_ice40 -dsp -noflatten tessel_npu at $target (about 10 minutes; log $log)"
if ! yosys -q -l "$log" -p "read_verilog -sv $files; synth_ice40 -dsp -noflatten -top tessel_npu; stat" \
     >"$out/area-$target.out" 2>&1; then
  tail -n 20 "$out/area-$target.out"
  echo "FAIL yosys synth_ice40 $target"
  exit 1
fi
fi
# The last stat: each "=== module ===" block's cell counts, then the design
# hierarchy (indentation = depth, number = instances per parent instance).
awk '
  # a parameterised module: its name and the first hex digits of its hash
  # ($paramod$HASH\name, or $paramod\name\Param=... for one parameter)
  function short(x,   h, a) {
    if (x ~ /^\$paramod\\/) { split(x, a, "\\"); return a[2] }
    if (x !~ /^\$paramod\$/) return x
    h = substr(x, 10, 4); sub(/^\$paramod\$[0-9a-f]*\\/, "", x); return x "." h }
  /^[0-9.]+ Printing statistics/ { delete seen; delete inst; delete ff; nm = 0; inhier = 0; cur = "" }
  /^=== / { name = $2; if (name == "design") { inhier = 1; next }
            cur = short(name); inhier = 0
            if (!(cur in seen)) { order[nm++] = cur; seen[cur] = 1 } next }
  inhier && /^   +[A-Za-z$\\_]/ && NF == 2 && $2 ~ /^[0-9]+$/ {
    ind = match($0, /[^ ]/); n = short($1)
    depth = (ind - 4) / 2; cnt[depth] = $2 * (depth > 0 ? cnt[depth - 1] : 1)
    inst[n] += cnt[depth]; next }
  !inhier && cur != "" && $1 ~ /^SB_/ {
    c = $1; v = $2
    if (c == "SB_LUT4") lut[cur] = v
    else if (c == "SB_CARRY") car[cur] = v
    else if (c == "SB_MAC16") dsp[cur] = v
    else if (c == "SB_RAM40_4K") ram[cur] = v
    else if (c ~ /^SB_DFF/) ff[cur] += v }
  END {
    printf "%-14s %5s %7s %7s %7s %5s %5s\n", "module", "inst", "LUT4", "carry", "FF", "DSP", "BRAM"
    for (i = 0; i < nm; i++) {
      m = order[i]; k = (m in inst) ? inst[m] : 1
      printf "%-14s %5d %7d %7d %7d %5d %5d\n", m, k, k*lut[m], k*car[m], k*ff[m], k*dsp[m], k*ram[m]
      tl += k*lut[m]; tc += k*car[m]; tf += k*ff[m]; td += k*dsp[m]; tr += k*ram[m]
    }
    printf "%-14s %5s %7d %7d %7d %5d %5d\n", "total", "", tl, tc, tf, td, tr
    printf "UP5K           %5s %7d %7s %7d %5d %5d\n", "", 5280, "-", 5280, 8, 30
    lc = tl > tf ? tl : tf
    printf "logic cells >= max(LUT4, FF) = %d of 5280 (%d%%); DSP %d of 8; BRAM %d of 30\n", lc, lc * 100 / 5280, td, tr
  }' "$log"
