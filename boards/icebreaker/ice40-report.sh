#!/bin/bash
# ice40-report.sh NEXTPNR.LOG CLOCK_MHZ TARGET [NEXTPNR-STATUS [SEQ_TARGET]]:
# the utilisation and the achieved Fmax of an iCE40 place-and-route, against
# the board's clock. SEQ_TARGET: the target whose DIM the core-sequenced NPU's
# datapath was built with (board.cfg npu_seq = 1). Prints PASS/FAIL lines for
# fit and timing; exits 1 when either fails.
log=$1 clock=$2 target=$3 status=${4:-0} seq=${5:-}
[ -r "$log" ] || { echo "FAIL icebreaker: no nextpnr log $log"; exit 1; }

util() {   # util NAME: "used/avail" of a nextpnr utilisation line
  sed -n "s/.*[[:space:]]$1:[[:space:]]*\([0-9]*\)\/[[:space:]]*\([0-9]*\).*/\1\/\2/p" "$log" | head -n 1
}
lc=$(util ICESTORM_LC) dsp=$(util ICESTORM_DSP) bram=$(util ICESTORM_RAM) spram=$(util ICESTORM_SPRAM)
dim=$(sed -n 's/^dim *= *\([0-9]*\).*/\1/p' "targets/$target.cfg" 2>/dev/null)
if [ -n "$seq" ]; then
  sdim=$(sed -n 's/^dim *= *\([0-9]*\).*/\1/p' "targets/$seq.cfg" 2>/dev/null)
  echo "icebreaker: the core-sequenced NPU's datapath (npu_seq_dp, ${sdim:-?}x${sdim:-?} array of $seq), target $target"
elif [ "$target" = none ]; then echo "icebreaker: no NPU (target none): the SoC alone"
else echo "icebreaker: NPU target $target (${dim:-?}x${dim:-?} array)"; fi
echo "icebreaker: logic cells $lc, DSPs (SB_MAC16) $dsp, block RAMs $bram, SPRAMs $spram"

fail=0
if [ -z "$lc" ] || [ "$status" != 0 ] || grep -q "ERROR" "$log"; then
  over=""
  for r in "logic cells=$lc" "DSPs=$dsp" "block RAMs=$bram" "SPRAMs=$spram"; do
    v=${r#*=} u=${v%/*} a=${v#*/}
    [ -n "$u" ] && [ -n "$a" ] && [ "$u" -gt "$a" ] && over="$over, ${r%=*} $v ($((u * 100 / a))%)"
  done
  if [ -n "$over" ]; then echo "FAIL icebreaker fit: does not fit the iCE40UP5K: ${over#, }"
  else echo "FAIL icebreaker fit: place and route failed: $(grep -m1 ERROR "$log" | sed 's/^ERROR: //')"; fi
  echo "FAIL icebreaker timing: no Fmax (nothing was routed)"
  exit 1
else
  echo "PASS icebreaker fit: $lc logic cells"
fi

# The last figure is the one after routing, of the board's clock: a
# combinational SB_MAC16 has its CLK tied low, and nextpnr times its ports as
# registers of a clock '$PACKER_GND_NET' (not a clock of the design).
line=$(grep "Max frequency for clock" "$log" | grep -v 'PACKER_GND_NET' | tail -n 1)
mhz=$(echo "$line" | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
if [ -z "$mhz" ]; then
  echo "FAIL icebreaker timing: nextpnr reported no Fmax"; fail=1
elif awk -v f="$mhz" -v c="$clock" 'BEGIN { exit !(f >= c) }'; then
  echo "PASS icebreaker timing: Fmax $mhz MHz >= $clock MHz clock ($(awk -v f="$mhz" -v c="$clock" 'BEGIN { printf "%+.1f%%", (f / c - 1) * 100 }'))"
else
  echo "FAIL icebreaker timing: Fmax $mhz MHz < $clock MHz clock"; fail=1
fi

# Paths through combinational DSPs: nextpnr reports the part up to the DSP's
# inputs and the part from its outputs as two cross-domain paths, without the
# DSP's own delay. The design gives those paths two clock periods
# (docs/npu-seq.md); here the two parts together must fit one.
dsp_in=$(sed -n "s/.*Max delay posedge clk_i.* -> posedge \$PACKER_GND_NET *: *\([0-9.]*\) ns.*/\1/p" "$log" | tail -n 1)
dsp_out=$(sed -n "s/.*Max delay posedge \$PACKER_GND_NET *-> posedge clk_i.*: *\([0-9.]*\) ns.*/\1/p" "$log" | tail -n 1)
if [ -n "$dsp_in" ] && [ -n "$dsp_out" ]; then
  period=$(awk -v c="$clock" 'BEGIN { printf "%.1f", 1000 / c }')
  echo "icebreaker: paths through combinational DSPs: ${dsp_in} ns to their inputs + ${dsp_out} ns from their outputs (period $period ns)"
  if ! awk -v a="$dsp_in" -v b="$dsp_out" -v p="$period" 'BEGIN { exit !(a + b < p) }'; then
    echo "FAIL icebreaker timing: paths through the DSPs take ${dsp_in} + ${dsp_out} ns, more than a $period ns period"; fail=1
  fi
fi
exit $fail
