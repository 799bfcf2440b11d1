#!/bin/bash
# package-sums.sh TESSEL OUTDIR: compiles every model of tests/models/MANIFEST (the
# first input as --calib, binds as given) and the digits CNN (with its calibration
# set, plain and --int8-io) for npu4, npu8 and npu16, and writes one line per
# package to OUTDIR/sums: model, target, and the first 16 hex digits of its sha256
# or the compile exit code. Two trees compile the same packages when their sums are
# equal (diff): the check that a refactoring changed no byte of the output.
T=$1; O=$2; mkdir -p $O; M=tests/models
: > $O/sums
grep -v '^#' $M/MANIFEST | while read name rest; do
  [ -z "$name" ] && continue
  inputs=$(echo "$rest" | tr ' ' '\n' | sed -n 's/^inputs=//p')
  binds=$(echo "$rest" | tr ' ' '\n' | sed -n 's/^binds=//p')
  args=()
  first=${inputs%%,*}
  [ -n "$first" ] && [ "${inputs}" = "$first" ] && args+=(--calib $M/$first)
  for b in ${binds//,/ }; do args+=(--bind ${b%%=*}=$M/${b#*=}); done
  for t in npu4 npu8 npu16; do
    f=$O/$(echo $name|tr / _).$t.tpkg
    $T compile $M/$name.onnx --target $t "${args[@]}" -o $f >/dev/null 2>&1; rc=$?
    if [ $rc = 0 ]; then echo "$name $t $(sha256sum < $f | cut -c1-16)"; else echo "$name $t rc=$rc"; fi
    rm -f $f
  done
done >> $O/sums
for n in digits/digits_cnn; do for t in npu4 npu8 npu16; do
  $T compile $M/$n.onnx --target $t --calib $M/digits/digits.calib.npy -o $O/x.tpkg >/dev/null 2>&1; echo "$n calib $t $(sha256sum < $O/x.tpkg|cut -c1-16)";
  $T compile $M/$n.onnx --target $t --int8-io --calib $M/digits/digits.calib.npy -o $O/x.tpkg >/dev/null 2>&1; echo "$n int8io $t $(sha256sum < $O/x.tpkg|cut -c1-16)"; done; done >> $O/sums
