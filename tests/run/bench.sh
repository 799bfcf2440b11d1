#!/bin/bash
# make bench-run: the benchmark CNNs compiled with the default
# schedule and run on the cycle-accurate SoC at npu8 (firmware + NPU RTL on
# tessel-sim, one inference each), with the figures the tuner is measured
# against (docs/performance.md):
#   NPU cycles (kernels), the roofline bound and NPU cycles over it, core
#   cycles per inference (kernels + fallback ops + runtime), utilisation (the
#   graph's MACs) and array occupancy (the hardware's, padding included), DRAM
#   bytes against the compulsory bytes, the cost model's estimate and its
#   error, host wall time, simulated cycles/s. Columns: docs/profiling.md.
#   tests/run/bench.sh TESSEL MODELS_DIR OUT_DIR
# BENCH_NETS="digits tiny_cnn" runs only those nets (make bench-run BENCH_NETS=digits).
set -eu
tessel=$1 models=$2 out=$3 only=${BENCH_NETS:-}
mkdir -p "$out"
nets=(digits:digits/digits_cnn.onnx:digits/digits.calib.npy:digits/digits_cnn.in0.npy
      tiny_cnn:nets/tiny_cnn.onnx:calib/tiny_cnn.calib.npy:nets/tiny_cnn.in0.npy
      squeezenet1_1:nets/squeezenet1_1.onnx:calib/squeezenet1_1.calib.npy:nets/squeezenet1_1.in0.npy
      mobilenet_v2:nets/mobilenet_v2.onnx:calib/mobilenet_v2.calib.npy:nets/mobilenet_v2.in0.npy
      resnet18:nets/resnet18.onnx:calib/resnet18.calib.npy:nets/resnet18.in0.npy)
# col NAME: the named column of the CSV's total row.
col() { awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i } $1 == "total" { print $c }' "$2"; }
printf '%-14s %12s %10s %8s %14s %9s %14s %9s %7s %7s %9s %12s %9s %8s %10s\n' net "NPU cycles" bound NPU/bnd \
  "core cyc/inf" core/NPU "  --int8-io" core/NPU util occup "DRAM/cmp" estimate "est err" "wall s" "Mcyc/s"
for spec in "${nets[@]}"; do
  IFS=: read -r name onnx calib input <<<"$spec"
  if [[ -n $only && " $only " != *" $name "* ]]; then continue; fi
  "$tessel" compile "$models/$onnx" --calib "$models/$calib" --target npu8 -o "$out/$name.tpkg" >/dev/null
  "$tessel" run "$out/$name.tpkg" --input "$models/$input" -o "$out/$name.out.npy" --profile "$out/$name.json" \
    2>"$out/$name.run.txt"
  "$tessel" profile "$out/$name.json" --format csv >"$out/$name.csv"
  summary=$(cat "$out/$name.run.txt")
  core=$(sed -n 's/.*; \([0-9]*\) core cycles per inference.*/\1/p' <<<"$summary")
  wall=$(sed -n 's/.*simulated in \([0-9.]*\) s.*/\1/p' <<<"$summary")
  speed=$(sed -n 's/.*s (\([0-9.]*\) M cycles\/s).*/\1/p' <<<"$summary")
  npu=$(col npu_cycles "$out/$name.csv") util=$(col util "$out/$name.csv") occup=$(col array_occupancy "$out/$name.csv")
  bound=$(col roofline_bound_cycles "$out/$name.csv") over=$(col measured_over_bound "$out/$name.csv")
  ratio=$(col dram_over_compulsory "$out/$name.csv") est=$(col estimate_cycles "$out/$name.csv")
  err=$(awk -v m="$npu" -v e="$est" 'BEGIN { printf "%+.1f%%", (m > 0 ? 100 * (e - m) / m : 0) }')
  # The same net with int8 I/O (tessel compile --int8-io), fed the quantised
  # input the int8 reference computes.
  "$tessel" compile "$models/$onnx" --calib "$models/$calib" --target npu8 --int8-io -o "$out/$name.i8.tpkg" >/dev/null
  "$tessel" ref "$models/$onnx" --calib "$models/$calib" --input "$models/$input" -o "$out/$name.ref.npy" \
    --dump-tensors "$out/$name.dump" >/dev/null
  in_name=$("$tessel" inspect "$out/$name.i8.tpkg" | sed -n "s/^  input  '\([^']*\)'.*/\1/p" | head -n 1)
  "$tessel" run "$out/$name.i8.tpkg" --input "$out/$name.dump/$in_name.q.npy" -o "$out/$name.i8.out.npy" 2>"$out/$name.i8.run.txt"
  core8=$(sed -n 's/.*; \([0-9]*\) core cycles per inference.*/\1/p' "$out/$name.i8.run.txt")
  per_npu() { awk -v c="$1" -v n="$npu" 'BEGIN { printf "%.3fx", (n > 0 ? c / n : 0) }'; }
  printf '%-14s %12s %10s %7.2fx %14s %9s %14s %9s %6.1f%% %6.1f%% %8.2fx %12s %9s %8s %10s\n' "$name" "$npu" "$bound" "$over" \
    "$core" "$(per_npu "$core")" "$core8" "$(per_npu "$core8")" "$(awk -v u="$util" 'BEGIN { print 100 * u }')" \
    "$(awk -v u="$occup" 'BEGIN { print 100 * u }')" "$ratio" "$est" "$err" "$wall" "$speed"
done
echo "(bound: the roofline bound, per kernel max(the graph's MACs / DIM^2, compulsory DRAM bytes / DRAM bytes per cycle), summed over the kernels;"
echo " util: the graph's MACs over the array's peak; occup: every MAC the array did, padding included;"
echo " core cyc/inf: the control core's cycles of one inference (tfw_run: from the float input in DRAM to the float"
echo " output in DRAM, conversions, fallback ops and runtime included; core/NPU: over the NPU cycles, the latency"
echo " over the NPU's own time); est err: the cost model's estimate against the NPU cycles measured on RTL;"
echo " --int8-io: the same of the package compiled with int8 inputs/outputs; per-kernel tables: tessel profile $out/NET.json)"
