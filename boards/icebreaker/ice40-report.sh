#!/bin/bash
# ice40-report.sh NEXTPNR.LOG CLOCK_MHZ TARGET [NEXTPNR-STATUS]: the
# utilisation and the achieved Fmax of an iCE40 place-and-route, against the
# board's clock. Prints PASS/FAIL lines for fit and timing; exits 1 when
# either fails.
log=$1 clock=$2 target=$3 status=${4:-0}
[ -r "$log" ] || { echo "FAIL icebreaker: no nextpnr log $log"; exit 1; }

util() {   # util NAME: "used/avail" of a nextpnr utilisation line
  sed -n "s/.*[[:space:]]$1:[[:space:]]*\([0-9]*\)\/[[:space:]]*\([0-9]*\).*/\1\/\2/p" "$log" | head -n 1
}
lc=$(util ICESTORM_LC) dsp=$(util ICESTORM_DSP) bram=$(util ICESTORM_RAM) spram=$(util ICESTORM_SPRAM)
dim=$(sed -n 's/^dim *= *\([0-9]*\).*/\1/p' "targets/$target.cfg" 2>/dev/null)
if [ "$target" = none ]; then echo "icebreaker: no NPU (target none): the SoC alone"
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

# The last figure is the one after routing.
line=$(grep "Max frequency for clock" "$log" | tail -n 1)
mhz=$(echo "$line" | sed -E 's/.*: ([0-9.]+) MHz.*/\1/')
if [ -z "$mhz" ]; then
  echo "FAIL icebreaker timing: nextpnr reported no Fmax"; fail=1
elif awk -v f="$mhz" -v c="$clock" 'BEGIN { exit !(f >= c) }'; then
  echo "PASS icebreaker timing: Fmax $mhz MHz >= $clock MHz clock ($(awk -v f="$mhz" -v c="$clock" 'BEGIN { printf "%+.1f%%", (f / c - 1) * 100 }'))"
else
  echo "FAIL icebreaker timing: Fmax $mhz MHz < $clock MHz clock"; fail=1
fi
exit $fail
