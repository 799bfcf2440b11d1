#!/bin/bash
# make bench-run-sizes: issue #17's "other input sizes and widths": the
# nets of tests/run/gen_sizes.py (exported from torchvision, so it needs
# /usr/bin/python3 with torch) compiled for npu8 and run once on the NPU's C
# model (ENGINE=rtl: on the SoC), printing per net NPU cycles, the roofline
# bound, NPU cycles over it and #17's bound for it. The C model's cycles are
# the cost model's, within 1-2% of the RTL on these nets (docs/performance.md).
#   tests/run/bench_sizes.sh TESSEL OUT_DIR [ENGINE]
# BENCH_NETS="resnet18_96 ..." runs only those.
set -eu
tessel=$1 out=$2 engine=${3:-model}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
col() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i } $1 == "total" { print $c }' "$2"; }
# shellcheck disable=SC2086
/usr/bin/python3 "$here/gen_sizes.py" "$out" ${BENCH_NETS:-} >"$out/nets.txt"
printf '%-24s %12s %12s %8s %8s\n' net "NPU cycles" bound NPU/bnd "#17"
worst=ok
while read -r name limit; do
  "$tessel" compile "$out/$name.onnx" --calib "$out/$name.calib.npy" --target npu8 -o "$out/$name.tpkg" >/dev/null
  "$tessel" run "$out/$name.tpkg" --engine "$engine" --input "$out/$name.in.npy" -o "$out/$name.out.npy" \
    --profile "$out/$name.json" 2>/dev/null >/dev/null
  "$tessel" profile "$out/$name.json" --format csv >"$out/$name.csv"
  npu=$(col npu_cycles "$out/$name.csv") bound=$(col roofline_bound_cycles "$out/$name.csv")
  over=$(col measured_over_bound "$out/$name.csv")
  mark=$(awk -v o="$over" -v l="$limit" 'BEGIN { print (o <= l ? "" : "  over") }')
  [[ -z $mark ]] || worst=over
  printf '%-24s %12s %12s %7.2fx %7.2fx%s\n' "$name" "$npu" "$bound" "$over" "$limit" "$mark"
done <"$out/nets.txt"
echo "(engine $engine, npu8; NPU/bnd: NPU cycles over the roofline bound; #17: the issue's bound for the net; all within: $worst)"
