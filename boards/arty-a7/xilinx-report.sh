#!/bin/bash
# xilinx-report.sh STAT.TXT TARGET: the resource estimate of a yosys
# synth_xilinx run (its `stat` output) against the XC7A35T.
stat=$1 target=$2
[ -r "$stat" ] || { echo "arty-a7: no yosys statistics in $stat" >&2; exit 1; }
count() { awk -v c="$1" '$1 == c { n += $2 } END { print n + 0 }' "$stat"; }
lut=0; for c in LUT1 LUT2 LUT3 LUT4 LUT5 LUT6; do lut=$((lut + $(count $c))); done
ff=0;  for c in FDRE FDSE FDCE FDPE; do ff=$((ff + $(count $c))); done
ram36=$(count RAMB36E1) ram18=$(count RAMB18E1) dsp=$(count DSP48E1)
lutram=0; for c in RAM32M RAM64M RAM32X1D RAM64X1D RAM128X1D RAM256X1S RAM64X1S RAM32X1S; do lutram=$((lutram + $(count $c))); done
dim=$(sed -n 's/^dim *= *\([0-9]*\).*/\1/p' "targets/$target.cfg" 2>/dev/null)
bram36=$(awk -v a="$ram36" -v b="$ram18" 'BEGIN { printf "%.1f", a + b / 2 }')
pct() { awk -v u="$1" -v a="$2" 'BEGIN { printf "%d%%", u * 100 / a }'; }
echo "arty-a7: NPU target $target (${dim:-?}x${dim:-?} array), yosys synth_xilinx estimate (before place and route):"
echo "arty-a7:   LUTs      $lut / 20800 ($(pct $lut 20800)), of which LUT RAM cells $lutram"
echo "arty-a7:   flip-flops $ff / 41600 ($(pct $ff 41600))"
echo "arty-a7:   block RAM $bram36 / 50 RAMB36 ($ram36 RAMB36E1 + $ram18 RAMB18E1) ($(pct $bram36 50))"
echo "arty-a7:   DSP48E1   $dsp / 90 ($(pct $dsp 90))"
fits=1
awk -v u="$lut" 'BEGIN { exit !(u > 20800) }' && fits=0
awk -v u="$bram36" 'BEGIN { exit !(u > 50) }' && fits=0
awk -v u="$dsp" 'BEGIN { exit !(u > 90) }' && fits=0
if [ $fits = 1 ]; then echo "arty-a7: the estimate fits the XC7A35T (placement may still fail)"
else echo "arty-a7: the estimate does NOT fit the XC7A35T"; fi
