#!/bin/bash
# The `cli` suite: bad command lines get a clear message and the documented
# exit status (2 usage, 1 bad input, 3 not implemented), never a crash; help
# and version work on every subcommand.
#   tests/compiler/cli.sh TESSEL
# Ends with "N passed, N failed".
set -u
tessel=$1
in=tests/compiler/inputs
m=tests/models/nets
tmp=build/test-tmp/cli
mkdir -p "$tmp"
pass=0 fail=0

# expect STATUS SUBSTRING ARGS...: runs tessel ARGS, checks status and output.
expect() {
  local want=$1 text=$2
  shift 2
  local out rc
  out=$("$tessel" "$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want || "$out" != *"$text"* ]]; then
    fail=$((fail + 1))
    echo "FAIL: tessel $* (status $rc, want $want; want text '$text')"
    echo "$out" | head -n 5 | sed 's/^/  | /'
  else
    pass=$((pass + 1))
    echo "PASS: tessel $*"
  fi
}

expect 2 "usage: tessel COMMAND"
expect 0 "usage: tessel COMMAND" --help
expect 0 "tessel 0.1.0" --version
expect 2 "unknown command 'frobnicate'" frobnicate
expect 0 "shape-infer" passes
for c in ir opt ref compile; do
  expect 0 "usage: tessel $c" $c --help
  expect 0 "tessel 0.1.0" $c --version
done
expect 2 "unknown option '--frob'" ir $in/convbn.onnx --frob
expect 2 "missing MODEL" ir
expect 2 "unexpected argument 'extra'" ir $in/convbn.onnx extra
expect 2 "--bind needs NAME=FILE.npy" ir $in/bindme.onnx --bind w
expect 2 "tessel ir: --bind needs a value" ir $in/bindme.onnx --bind
expect 2 "--elide needs a positive count" ir $in/convbn.onnx --elide=zero
expect 2 "--calib is not for opt" opt $in/convbn.onnx --pass=dce --calib x.npy
# quantisation options
expect 1 "--calib: x.npy: cannot open" ir $in/convbn.onnx --calib x.npy
expect 2 "--calib-method needs spread, minmax, percentile or mse" ir $m/tiny_cnn.onnx --calib-method entropy
expect 2 "--calib-percentile needs a number in (50, 100]" ir $m/tiny_cnn.onnx --calib-percentile 20
expect 2 "--quantised is only for ir and ref" compile $m/tiny_cnn.onnx --quantised -o $tmp/x.tpkg
expect 2 "--raw and --quantised exclude each other" ir $m/tiny_cnn.onnx --raw --quantised
# Both shapes and the stacked form are named (a user with [N,1,C,H,W] data
# was told only "shape does not match").
expect 1 "resnet18.in0.npy: shape [1,3,64,64] does not match input 'input' [1,3,16,16] (samples stack along dimension 0: [N,3,16,16])" ir $m/tiny_cnn.onnx --calib $m/resnet18.in0.npy
# numpy's default float64 data gets the conversion to make (calib and input).
f64hdr="{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3, 16, 16), }"
f64hdr=$(printf '%-117s' "$f64hdr")
{ printf '\x93NUMPY\x01\x00\x76\x00%s\n' "$f64hdr"; head -c 6144 /dev/zero; } >"$tmp/f64.npy"
expect 1 "f64.npy: holds float64, input 'input' is f32 (save it as float32: x.astype(numpy.float32))" ir $m/tiny_cnn.onnx --calib "$tmp/f64.npy"
expect 1 "f64.npy: holds float64, input 'input' is f32 (save it as float32" ref $m/tiny_cnn.onnx --input "$tmp/f64.npy" -o $tmp/y.npy
expect 1 "ptq needs calibration data" opt tests/compiler/filecheck/dce.tir --pass=ptq
# A header number with a leading zero, "(1, 1,08, 8)", which numpy refuses (it used to read as 8).
expect 1 "leading_zero: bad shape: dimension '08' at offset 56 has a leading zero (numpy refuses it)" \
  ref tests/models/digits/digits_cnn.onnx --input tests/npy/corpus/leading_zero -o $tmp/y.npy
expect 0 "" compile $m/tiny_cnn.onnx --calib $m/tiny_cnn.in0.npy -o $tmp/x.tpkg
expect 2 "give --target once" compile $m/tiny_cnn.onnx --calib $m/tiny_cnn.in0.npy -o $tmp/x.tpkg --target npu8 --target npu4
expect 2 "give --emit-c once" compile $m/tiny_cnn.onnx --calib $m/tiny_cnn.in0.npy --emit-c $tmp/a.c --emit-c $tmp/b.c
expect 2 "--target is only for compile" ref $in/convbn.onnx --target npu8 -o $tmp/x.npy
expect 1 "cannot open" ir $in/no-such-model.onnx
expect 1 "--bind w:" ir $in/bindme.onnx --bind w=$in/no-such.npy
expect 1 "--bind w: the .npy has rank 4, the input has rank 2" ir $in/bindme.onnx --bind w=$m/tiny_cnn.in0.npy
expect 1 "--input-shape x: bad shape" ir $in/convbn.onnx --input-shape x=1xfoo
expect 1 "--input-shape x: dimension 1 is 3 in the model" ir $in/convbn.onnx --input-shape x=1x4x4x4
expect 1 "dimension 0 is symbolic; give its size with --input-shape x=" ir tests/models/ops/torch_view_dynamic_batch.onnx
expect 0 "%x : f32[3,2,7,7] = input" ir tests/models/ops/torch_view_dynamic_batch.onnx --input-shape x=3x2x7x7 --elide=4
expect 2 "missing --pass" opt $in/../filecheck/dce.tir
expect 2 "unknown pass 'nosuch'" opt $in/../filecheck/dce.tir --pass=dce,nosuch
expect 2 "--print-after: unknown pass 'bogus'" compile $in/convbn.onnx -o $tmp/x.tpkg --print-after=bogus
expect 2 "give one -o OUT.tpkg" compile $in/convbn.onnx
expect 1 "the model is float: compile it with --calib X.npy" compile $in/convbn.onnx -o $tmp/x.tpkg --target npu8
expect 1 "--bind needs an ONNX model" ir $in/../filecheck/dce.tir --bind a=b.npy
expect 2 "give -o OUT.npy" ref $in/convbn.onnx
expect 1 "no --input given for graph input 'x'" ref $in/convbn.onnx -o $tmp/y.npy
expect 1 "tiny_cnn.in0.npy: shape [1,3,16,16] does not match input 'x' [1,3,4,4]" ref $in/convbn.onnx --input $m/tiny_cnn.in0.npy -o $tmp/y.npy
expect 1 "the graph has 1 outputs, 2 -o given" ref $in/convbn.onnx --input x=$in/convbn.x.npy -o $tmp/a.npy -o $tmp/b.npy
expect 0 "" ref $in/convbn.onnx --input x=$in/convbn.x.npy -o $tmp/a.npy
expect 1 "holds float32, input 'x' is i32" ref $in/../filecheck/cast-input.tir --input $in/convbn.x.npy -o $tmp/a.npy
expect 2 "bad --input '=x.npy'" ref $in/convbn.onnx --input =x.npy -o $tmp/y.npy
expect 1 "2 --input given, the graph has 1 inputs" ref $in/convbn.onnx --input a.npy --input b.npy -o $tmp/y.npy

# ---- one option syntax for every subcommand (compiler/cli/cli_opts.h) ----
# `--opt=value` is `--opt value` everywhere: each value option, given with a
# valid value and no positional argument, reaches the subcommand's "no
# input" message (an option the parser did not know, or whose value it lost,
# would stop earlier).  `tessel run --engine=model` and `tessel tune
# --target=npu8` were "unknown option".
# accepts CMD MESSAGE OPT=VALUE...: each OPT=VALUE alone ends in MESSAGE.
accepts() {
  local cmd=$1 text=$2
  shift 2
  for o in "$@"; do expect 2 "tessel $cmd: $text" $cmd "$o"; done
}
common="--bind=w=w.npy --input-shape=x=1x2 --input=x.npy -o=$tmp/o.out --output=$tmp/o.out --calib-method=mse --calib-percentile=99 --pass=dce --print-after=dce --print-before=dce --elide=4"
accepts ir "missing MODEL" $common --calib=x.npy
accepts opt "missing IN.tir" $common
accepts ref "missing MODEL" $common --calib=x.npy --dump-tensors=$tmp/dump
accepts compile "missing MODEL" $common --calib=x.npy --target=npu8 --cmd-sram-limit=4096 --tuning-log=t.jsonl --emit-c=$tmp/o.c
accepts run "no package given" --input=x.npy -i=x.npy --output=y.npy -o=y.npy --engine=model --port=/dev/null --baud=9600 \
  --timeout=5 --profile=p.json --trace=w.fst --trace-kernel=k --dump-tensors=d --sim=s --firmware=f --max-cycles=100 --watchdog=100
accepts tune "no model given" --target=npu8 --calib=x.npy --input=x.npy --trials=2 --explore=2 --jobs=2 -j=2 --log=l.jsonl \
  --engine=model --time-budget=5 --timeout=5 --seed=3 --workdir=d --tessel=t
accepts compare "give two .npy files or two folders" --labels=l.npy --atol=0.5
accepts profile "missing the profile P.json" --format=csv -o=f.csv --output=f.csv --compare=c.json
accepts emit-c "needs a package and -o OUT.c" -o=x.c --output=x.c --symbol=s
# The value after '=' is the one checked.
expect 2 "tessel run: --engine 'frob': expected rtl, model or board" run --engine=frob
expect 2 "--trials '0': expected a count >= 1" tune m.onnx --trials=0
expect 2 "--atol '-1': expected a number >= 0" compare a.npy b.npy --atol=-1
expect 2 "unknown format 'xml'" profile p.json --format=xml
expect 2 "--calib-method needs spread, minmax, percentile or mse, got 'entropy'" ir m.onnx --calib-method=entropy
# One wording, exit 2, for an unknown option, a missing value, a value given
# to a flag and a repeated single option, in every subcommand.
for c in ir opt ref compile passes operators inspect emit-c run compare profile tune; do
  expect 2 "tessel $c: unknown option '--frob'" $c --frob
  expect 2 "tessel $c: unknown option '--frob=1'" $c --frob=1
  expect 0 "usage: tessel $c" $c --help
done
for cv in "ir --elide 4" "opt --pass dce" "ref --dump-tensors d" "compile --target npu8" "run --engine model" \
          "tune --target npu8" "compare --atol 1" "profile --format csv" "emit-c --symbol s"; do
  set -- $cv
  expect 2 "tessel $1: $2 needs a value" $1 $2
  expect 2 "tessel $1: give $2 once" $1 $2 $3 $2=$3
done
expect 2 "tessel emit-c: give -o once" emit-c p.tpkg -o a.c --output=b.c
expect 2 "tessel run: --quiet takes no value" run p.tpkg --quiet=1
expect 2 "tessel compile: --report takes no value" compile m.onnx --report=yes
expect 2 "tessel passes: unexpected argument 'dce'" passes dce
# tessel operators: the importer's table; docs/operators.md is its --markdown
# output (up to the backend test section, which the backend suite fills).
expect 0 "LayerNormalization     17..21" operators
expect 2 "tessel operators: unexpected argument 'x'" operators x
expect 2 "tessel operators: --markdown takes no value" operators --markdown=1
docs_head() { sed '/^<!-- onnx-node: begin/,$d' "$@"; }
if diff <("$tessel" operators --markdown | docs_head) <(docs_head docs/operators.md) > "$tmp/operators.diff"; then
  pass=$((pass + 1))
  echo "PASS: docs/operators.md matches tessel operators --markdown"
else
  fail=$((fail + 1))
  echo "FAIL: docs/operators.md differs from tessel operators --markdown (regenerate it:"
  echo "  build/bin/tessel operators --markdown > docs/operators.md, then make onnx-node-markdown)"
  head -n 5 "$tmp/operators.diff" | sed 's/^/  | /'
fi
# An operator outside the importer's table: exit 3, naming operator, node and opset.
expect 3 "node 'es' (Einsum): unsupported operator Einsum at opset 12" ir $in/cov/unknown_op.onnx
# Options that repeat on purpose still add up, in either spelling.
expect 1 "2 --input given, the graph has 1 inputs" ref $in/convbn.onnx --input a.npy --input=b.npy -o $tmp/y.npy
expect 1 "--input-shape y: the model has no graph input of that name" ir $in/convbn.onnx --input-shape x=1x3x4x4 --input-shape=y=1
expect 1 "the graph has 1 outputs, 2 -o given" ref $in/convbn.onnx --input=x=$in/convbn.x.npy -o=$tmp/a.npy --output $tmp/b.npy
cp $m/tiny_cnn.in0.npy "$tmp/c1.npy" && cp $m/tiny_cnn.in0.npy "$tmp/c2.npy"
expect 2 "--log $tmp/c2.npy: is also an input (--calib)" tune $m/tiny_cnn.onnx --calib=$tmp/c1.npy --calib $tmp/c2.npy --log=$tmp/c2.npy
expect 0 "" compile $m/tiny_cnn.onnx --calib=$m/tiny_cnn.in0.npy --calib $m/tiny_cnn.in0.npy --target=npu8 -o=$tmp/eq.tpkg
# ... and the summary line scripts read is still there.
expect 0 "cycles per inference" run $tmp/eq.tpkg --engine=model --input=$m/tiny_cnn.in0.npy --output=$tmp/eq.npy
expect 1 "the package has 1 input, 2 given with --input" run $tmp/eq.tpkg --engine=model -i $m/tiny_cnn.in0.npy --input=$m/tiny_cnn.in0.npy

# ---- bad files: never a hang, never half a file, never an input overwritten ----
# check NAME CMD...: CMD (a shell condition) holds.
check() {
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); echo "PASS: $name"; else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
# A FIFO with no writer used to block open() forever, /dev/zero to be read forever.
expect 1 "fifo: not a regular file" ir "$tmp/fifo"
expect 1 "fifo: not a regular file" opt "$tmp/fifo" --pass=dce
expect 1 "/dev/zero: not a regular file" opt /dev/zero --pass=dce
expect 1 "cli: is a folder" opt "$tmp" --pass=dce
truncate -s 2G "$tmp/huge.tir"  # sparse: it used to be read whole into memory
expect 1 "huge.tir: 2147483648 bytes, larger than 1073741824: not textual IR" opt "$tmp/huge.tir" --pass=dce
rm -f "$tmp/huge.tir"
expect 2 "--elide needs a positive count, got '99999999999999999999'" ir $in/convbn.onnx --elide=99999999999999999999
# An output naming an input is refused before any work (it used to be overwritten).
cp $m/tiny_cnn.onnx "$tmp/own.onnx"
cp $m/tiny_cnn.in0.npy "$tmp/own.npy"
expect 2 "-o $tmp/own.onnx: is also an input (the model)" ir "$tmp/own.onnx" -o "$tmp/own.onnx"
expect 2 "-o $tmp/./own.onnx: is also an input (the model)" compile "$tmp/own.onnx" --calib "$tmp/own.npy" -o "$tmp/./own.onnx"
expect 2 "--emit-c $tmp/own.npy: is also an input (--calib)" compile "$tmp/own.onnx" --calib "$tmp/own.npy" --emit-c "$tmp/own.npy"
expect 2 "-o $tmp/own.npy: is also an input (--input)" ref "$tmp/own.onnx" --input "$tmp/own.npy" -o "$tmp/own.npy"
expect 2 "--emit-c $tmp/y.tpkg: the same file is also -o" compile "$tmp/own.onnx" --calib "$tmp/own.npy" -o "$tmp/y.tpkg" --emit-c "$tmp/y.tpkg"
check "inputs-unchanged" cmp -s "$tmp/own.onnx" $m/tiny_cnn.onnx
check "calib-unchanged" cmp -s "$tmp/own.npy" $m/tiny_cnn.in0.npy
# A write that fails (a full disk, here a 4 KiB file size limit) is an error
# and leaves the file as it was: `ir -o` used to exit 0, both left half a file.
expect 1 "/dev/full: write failed" ir $in/convbn.onnx -o /dev/full
expect 1 "an empty file name" ir $in/convbn.onnx -o ""
expect 1 "$tmp: is a folder" ir $in/convbn.onnx -o "$tmp"
echo old >"$tmp/keep.tpkg"
echo old >"$tmp/keep.tir"
(trap '' XFSZ; ulimit -f 4; expect 1 "keep.tpkg: write failed: File too large" compile $m/tiny_cnn.onnx --calib $m/tiny_cnn.in0.npy -o "$tmp/keep.tpkg"; echo "$pass $fail" >"$tmp/sub.counts")
read -r pass fail <"$tmp/sub.counts"
(trap '' XFSZ; ulimit -f 4; expect 1 "keep.tir: write failed: File too large" ir $m/tiny_cnn.onnx -o "$tmp/keep.tir"; echo "$pass $fail" >"$tmp/sub.counts")
read -r pass fail <"$tmp/sub.counts"
check "failed-write-keeps-old-files" test "$(cat "$tmp/keep.tpkg" "$tmp/keep.tir")" = "old
old"
check "failed-write-leaves-no-temporary" test -z "$(ls "$tmp" | grep '\.tmp')"

# Calibration samples must be finite (a NaN was skipped by the ranges, an Inf
# replaced them by [-1, 1], silently).
size=$(stat -c %s $in/quant_x_2.npy)
cp $in/quant_x_2.npy "$tmp/nan.npy" && printf '\x00\x00\xc0\x7f' | dd of="$tmp/nan.npy" bs=1 seek=$((size - 4)) conv=notrunc status=none
cp $in/quant_x_2.npy "$tmp/inf.npy" && printf '\x00\x00\x80\xff' | dd of="$tmp/inf.npy" bs=1 seek=$((size - 8)) conv=notrunc status=none
expect 1 "nan.npy: element 1 is NaN: calibration samples must be finite" compile tests/compiler/filecheck/ptq-nothing.tir --calib "$tmp/nan.npy" -o "$tmp/x.tpkg"
expect 1 "inf.npy: element 0 is Inf: calibration samples must be finite" ir tests/compiler/filecheck/ptq-nothing.tir --calib "$tmp/inf.npy"
# An input with a 0 dimension is named as such (it was "shape unknown").
printf 'graph "g" {\n  %%x : f32[0] = input\n  %%y : f32[0] = Relu(%%x)\n  return %%y\n}\n' >"$tmp/zero.tir"
expect 1 "--calib: input 'x' has no elements (a dimension is 0)" compile "$tmp/zero.tir" --calib $in/quant_x_2.npy -o "$tmp/x.tpkg"

# All-zero calibration data: an empty range used to become a 1e-8 range whose
# scale overflowed the digits model's first bias ("bias 2147483647 minus the
# zero-point correction does not fit int32", naming nothing about the data).
# It now takes scale 1 / zero point 0 (as ONNX Runtime does), with a warning
# naming the file and the value; the package builds and runs like the int8
# reference.
d=tests/models/digits
cp $d/digits.calib.npy "$tmp/zeros.npy"
zs=$(stat -c %s "$tmp/zeros.npy")
dd if=/dev/zero of="$tmp/zeros.npy" bs=1 seek=$((zs - 64 * 64 * 4)) count=$((64 * 64 * 4)) conv=notrunc status=none
expect 0 "zeros.npy: value 'image' is 0 in every calibration sample (an empty range): quantised with scale 1 and zero point 0" \
  compile $d/digits_cnn.onnx --calib "$tmp/zeros.npy" -o "$tmp/zeros.tpkg"
expect 0 "" run "$tmp/zeros.tpkg" --engine model -q --input $d/digits.test.npy -o "$tmp/zeros_run.npy"
expect 0 "" ref $d/digits_cnn.onnx --calib "$tmp/zeros.npy" --input $d/digits.test.npy -o "$tmp/zeros_ref.npy"
check "zeros-calib-run-equals-ref" bash -c "'$tessel' compare '$tmp/zeros_ref.npy' '$tmp/zeros_run.npy' | grep -q ' 3600       3600 '"
# Several empty values: the first is named and the others counted; the scale is 1.
cp $in/quant_x_2.npy "$tmp/zeros2.npy" && dd if=/dev/zero of="$tmp/zeros2.npy" bs=1 seek=$((size - 8)) count=8 conv=notrunc status=none
printf 'graph "g" {\n  %%x : f32[1,1,1,2] = input\n  %%w : f32[1,1,1,1] = const [0.5]\n  %%y : f32[1,1,1,2] = Conv(%%x, %%w)\n  %%r : f32[1,1,1,2] = Relu(%%y)\n  return %%r\n}\n' >"$tmp/zconv.tir"
expect 0 "zeros2.npy: value 'x' (and 1 other) is 0 in every calibration sample" ir "$tmp/zconv.tir" --calib "$tmp/zeros2.npy" --print-after=ptq
check "zeros-calib-scale-1" bash -c "'$tessel' ir '$tmp/zconv.tir' --calib '$tmp/zeros2.npy' --print-after=ptq 2>/dev/null | grep -q '^  %x.scale : f32\[\] = const \[1.0\]$'"
expect 0 "" compile "$tmp/zconv.tir" --calib "$tmp/zeros2.npy" -o "$tmp/zconv.tpkg"

# A dead branch (0 in every sample) added to a branch of range 1e-7: scale 1
# made the Add's input ratio 3e9, "cannot be represented"; the empty value
# now takes the Add's output scale.  A tiny input scale (range 1e-7) under a
# Conv with bias 0.5: "bias 2147483647 minus the zero-point correction does
# not fit int32"; the channel's weight scale is raised so that it fits.
# Both: run equals the int8 reference and the float model's values.
printf 'graph "g" {\n  %%x : f32[1,1,1,2] = input\n  %%w0 : f32[1,1,1,1] = const [0.0]\n  %%wt : f32[1,1,1,1] = const [2e-8]\n  %%a : f32[1,1,1,2] = Conv(%%x, %%w0)\n  %%ra : f32[1,1,1,2] = Relu(%%a)\n  %%b : f32[1,1,1,2] = Conv(%%x, %%wt)\n  %%y : f32[1,1,1,2] = Add(%%ra, %%b)\n  return %%y\n}\n' >"$tmp/deadadd.tir"
printf 'graph "g" {\n  %%x : f32[1,1,1,2] = input\n  %%wt : f32[1,1,1,1] = const [2e-8]\n  %%w2 : f32[1,1,1,1] = const [0.01]\n  %%b2 : f32[1] = const [0.5]\n  %%s : f32[1,1,1,2] = Conv(%%x, %%wt)\n  %%y : f32[1,1,1,2] = Conv(%%s, %%w2, %%b2)\n  return %%y\n}\n' >"$tmp/tinybias.tir"
# Activations of 1e-12 (a random-weight EfficientNet's are 1e-14): a range
# under 1e-8 counted as empty, so they came out 0; now they have a scale.
printf 'graph "g" {\n  %%x : f32[1,1,1,2] = input\n  %%wt : f32[1,1,1,1] = const [1e-12]\n  %%w2 : f32[1,1,1,1] = const [0.5]\n  %%s : f32[1,1,1,2] = Conv(%%x, %%wt)\n  %%y : f32[1,1,1,2] = Conv(%%s, %%w2)\n  return %%y\n}\n' >"$tmp/tinyact.tir"
for t in deadadd:dead-branch-add tinybias:tiny-input-bias tinyact:tiny-activations; do
  f=${t%%:*} name=${t#*:}
  expect 0 "" compile "$tmp/$f.tir" --calib $in/quant_x_2.npy -o "$tmp/$f.tpkg"
  expect 0 "" run "$tmp/$f.tpkg" --engine model -q --input $in/quant_x_2.npy -o "$tmp/$f.run.npy"
  expect 0 "" ref "$tmp/$f.tir" --calib $in/quant_x_2.npy --input $in/quant_x_2.npy -o "$tmp/$f.ref.npy"
  check "$name-run-equals-ref" "$tessel" compare "$tmp/$f.ref.npy" "$tmp/$f.run.npy"
  expect 0 "" ref "$tmp/$f.tir" --input $in/quant_x_2.npy -o "$tmp/$f.float.npy"
  check "$name-near-float" "$tessel" compare "$tmp/$f.float.npy" "$tmp/$f.run.npy" --steps 1
done

# PyTorch exports F.relu6 as Relu -> Clip(0, 6): remove-noops merges the pair
# into one Clip (ptq fuses one activation into the Conv; the Clip stayed
# float and compile failed with "stays float after quantisation").  A Clip
# whose range is negative keeps its Relu (merging would change the values).
printf 'graph "g" {\n  %%x : f32[1,1,1,2] = input\n  %%w : f32[1,1,1,1] = const [0.5]\n  %%y : f32[1,1,1,2] = Conv(%%x, %%w)\n  %%r : f32[1,1,1,2] = Relu(%%y)\n  %%c : f32[1,1,1,2] = Clip(%%r) {max=6.0, min=-1.0}\n  return %%c\n}\n' >"$tmp/relu6.tir"
check "relu-clip-merged" bash -c "'$tessel' opt '$tmp/relu6.tir' --pass=remove-noops | grep -q '^  %c : f32\[1,1,1,2\] = Clip(%y) {max=6.0, min=0.0}$'"
sed 's/max=6.0, min=-1.0/max=-1.0, min=-2.0/' "$tmp/relu6.tir" >"$tmp/relu_negclip.tir"
check "relu-negative-clip-kept" bash -c "'$tessel' opt '$tmp/relu_negclip.tir' --pass=remove-noops | grep -q ' = Relu(%y)'"
expect 0 "" compile "$tmp/relu6.tir" --calib $in/quant_x_2.npy -o "$tmp/relu6.tpkg"
# A float op left by ptq runs on the control core (it was an error, "stays
# float after post-training quantisation"), bit for bit the int8 reference;
# --npu-only keeps the strict behaviour and names the node.
expect 0 "" compile "$tmp/relu_negclip.tir" --calib $in/quant_x_2.npy -o "$tmp/negclip.tpkg"
"$tessel" ref "$tmp/relu_negclip.tir" --calib $in/quant_x_2.npy --input $in/quant_x_2.npy -o "$tmp/negclip_ref.npy" 2>/dev/null
"$tessel" run "$tmp/negclip.tpkg" --engine model --input $in/quant_x_2.npy -o "$tmp/negclip_run.npy" 2>/dev/null
check "float-op-on-core-equals-ref" "$tessel" compare "$tmp/negclip_ref.npy" "$tmp/negclip_run.npy"
expect 1 "node 'c' (Clip): Clip would run on the control core (--npu-only" \
  compile "$tmp/relu_negclip.tir" --calib $in/quant_x_2.npy -o "$tmp/negclip2.tpkg" --npu-only
check "npu-only-writes-nothing" test ! -e "$tmp/negclip2.tpkg"
expect 0 "placement     1 NPU kernels, 3 ops on the control core; 100.0% of the model's 2 MACs on the NPU" \
  compile "$tmp/relu_negclip.tir" --calib $in/quant_x_2.npy -o "$tmp/negclip.tpkg" --report
"$tessel" ref "$tmp/relu6.tir" --calib $in/quant_x_2.npy --input $in/quant_x_2.npy -o "$tmp/relu6_ref.npy" 2>/dev/null
"$tessel" run "$tmp/relu6.tpkg" --engine model --input $in/quant_x_2.npy -o "$tmp/relu6_run.npy" 2>/dev/null
check "relu-clip-run-equals-ref" "$tessel" compare "$tmp/relu6_ref.npy" "$tmp/relu6_run.npy"

# Clip bounds given as Cast(constant), as PyTorch exports them with
# do_constant_folding=False: the importer reads the constant (it said "min
# must be a constant"); a bound computed from data names the node that
# computes it and says to fold constants when exporting.  The bytes are
# onnx.helper models (Cast(lo: f64 0.0) -> Clip(x: f32[1,2], lof);
# Relu(m: f32[]) -> Clip(x, rm)), serialised by /usr/bin/python3.
printf '\x08\x07\x3a\x7a\x0a\x20\x0a\x02\x6c\x6f\x12\x03\x6c\x6f\x66\x1a\x04\x63\x61\x73\x74\x22\x04\x43\x61\x73\x74\x2a\x09\x0a\x02\x74\x6f\x18\x01\xa0\x01\x02\x0a\x17\x0a\x01\x78\x0a\x03\x6c\x6f\x66\x12\x01\x79\x1a\x04\x63\x6c\x69\x70\x22\x04\x43\x6c\x69\x70\x12\x01\x67\x2a\x10\x10\x0b\x42\x02\x6c\x6f\x4a\x08\x00\x00\x00\x00\x00\x00\x00\x00\x5a\x13\x0a\x01\x78\x12\x0e\x0a\x0c\x08\x01\x12\x08\x0a\x02\x08\x01\x0a\x02\x08\x02\x62\x13\x0a\x01\x79\x12\x0e\x0a\x0c\x08\x01\x12\x08\x0a\x02\x08\x01\x0a\x02\x08\x02\x42\x04\x0a\x00\x10\x0d' >"$tmp/castclip.onnx"
expect 0 '%y : f32[1,2] = Clip(%x) {max=inf, min=0.0} @"clip"' ir "$tmp/castclip.onnx"
printf '\x08\x07\x3a\x67\x0a\x13\x0a\x01\x6d\x12\x02\x72\x6d\x1a\x04\x72\x65\x6c\x75\x22\x04\x52\x65\x6c\x75\x0a\x16\x0a\x01\x78\x0a\x02\x72\x6d\x12\x01\x79\x1a\x04\x63\x6c\x69\x70\x22\x04\x43\x6c\x69\x70\x12\x01\x67\x5a\x13\x0a\x01\x78\x12\x0e\x0a\x0c\x08\x01\x12\x08\x0a\x02\x08\x01\x0a\x02\x08\x02\x5a\x0b\x0a\x01\x6d\x12\x06\x0a\x04\x08\x01\x12\x00\x62\x13\x0a\x01\x79\x12\x0e\x0a\x0c\x08\x01\x12\x08\x0a\x02\x08\x01\x0a\x02\x08\x02\x42\x04\x0a\x00\x10\x0d' >"$tmp/dynclip.onnx"
expect 1 "node 'clip' (Clip): min must be a constant; it is computed by node 'relu' (Relu) (fold constants when exporting" ir "$tmp/dynclip.onnx"

# Large graphs: a 20,000-node chain goes through every graph pass with the
# verifier between them (name lookups were linear: quadratic in the node
# count, over 60 s under ASan), and a 2,000-node Conv/Relu chain (1,000
# weight users of one constant: w.q, w.q.1, ... names) compiles to a package.
# Behaviour only; `make bench-compile-scale` prints the times.
bash tests/compiler/gen_chain.sh 20000 relu >"$tmp/chain20k.tir"
"$tessel" opt "$tmp/chain20k.tir" --pass=const-fold,remove-noops,bn-fold,dce --verify-each -o "$tmp/chain20k.out.tir" 2>"$tmp/chain20k.err"
check "opt-20k-chain" grep -q '^  %v19999 : f32\[1,1,1,2\] = Relu(%v19998) @"n19999"$' "$tmp/chain20k.out.tir"
check "opt-20k-chain-nodes" test "$(grep -c ' = Relu(' "$tmp/chain20k.out.tir")" -eq 20000
bash tests/compiler/gen_chain.sh 2000 conv >"$tmp/chain2k.tir"
expect 0 "" compile "$tmp/chain2k.tir" --calib $in/quant_x_2.npy -o "$tmp/chain2k.tpkg"
expect 0 "kernels: 1000 (" inspect "$tmp/chain2k.tpkg"
rm -f "$tmp"/chain*

# A killed compile leaves no temporary file: the package is written beside
# its name and renamed (out_file.c), and SIGTERM, SIGINT or SIGHUP remove
# the temporary file. Mid-way through resnet18 (about 1.4 s), and with the
# temporary file complete and not yet renamed (TESSEL_TEST_OUT_PAUSE, a
# test build's hook); the folder of the output must be left empty.
if_pass=$pass if_fail=$fail
. tests/lib/check.sh
pass=$if_pass fail=$if_fail
killed_clean killed-compile-midway TERM 'sleep 0.5; true' \
  "$tessel" compile $m/resnet18.onnx --calib $m/resnet18.in0.npy -o "$tmp/killed-compile-midway.scratch/r18.tpkg"
# Several graph inputs: --calib NAME=FILE (each input its own samples; files
# of one name add samples), run/ref --input NAME=FILE or in graph-input order
# (tests/compiler/multi/gen.py). Calibration used to refuse two inputs.
mu=tests/compiler/multi
expect 0 "" compile $mu/add2.onnx --calib a=$mu/add2.a.calib.npy --calib b=$mu/add2.b.calib.npy -o $tmp/add2.tpkg
# add2's Add of two graph inputs stays float on the core; add2conv convolves
# each input first, so each is quantised with its own samples' range.
check "add2-scales-per-input" bash -c "'$tessel' ir $mu/add2conv.onnx --calib-method minmax --calib b=$mu/add2.b.calib.npy --calib a=$mu/add2.a.calib.npy 2>/dev/null |
  grep -q '%a.scale : f32\[\] = const \[0.0251604896\]' && '$tessel' ir $mu/add2conv.onnx --calib-method minmax --calib a=$mu/add2.a.calib.npy \
  --calib b=$mu/add2.b.calib.npy 2>/dev/null | grep -q '%b.scale : f32\[\] = const \[0.0209695213\]'"
expect 0 "" ref $mu/add2.onnx --calib a=$mu/add2.a.calib.npy --calib b=$mu/add2.b.calib.npy --input b=$mu/add2.b.in.npy --input a=$mu/add2.a.in.npy -o $tmp/add2_ref.npy
expect 0 "" run $tmp/add2.tpkg -q --engine model --input b=$mu/add2.b.in.npy --input a=$mu/add2.a.in.npy -o $tmp/add2_run.npy
expect 0 "" run $tmp/add2.tpkg -q --engine model --input $mu/add2.a.in.npy --input $mu/add2.b.in.npy -o $tmp/add2_run2.npy
check "add2-run-equals-int8-ref" "$tessel" compare $tmp/add2_ref.npy $tmp/add2_run.npy
check "add2-by-name-equals-by-order" cmp -s $tmp/add2_run.npy $tmp/add2_run2.npy
# two files of one input are more samples: the same ranges as one stacked file
expect 0 "" ir $mu/add2.onnx --calib a=$mu/add2.a.calib.npy --calib b=$mu/add2.b.calib.npy --calib a=$mu/add2.a.in.npy --calib b=$mu/add2.b.in.npy -o $tmp/add2_3.tir
expect 1 "--calib add2.a.calib.npy: the model has 2 graph inputs (a, b): give --calib NAME=FILE.npy for each" compile $mu/add2.onnx --calib add2.a.calib.npy -o $tmp/x.tpkg
expect 1 "--calib c=$mu/add2.a.calib.npy: the model has no graph input 'c' (its inputs: a, b)" compile $mu/add2.onnx --calib c=$mu/add2.a.calib.npy -o $tmp/x.tpkg
expect 1 "--calib: no samples for graph input 'b' (give --calib b=FILE.npy)" compile $mu/add2.onnx --calib a=$mu/add2.a.calib.npy -o $tmp/x.tpkg
expect 1 "--calib: input 'a' has 3 samples, input 'b' 2: give each input as many (or one, used with every sample)" \
  compile $mu/add2.onnx --calib a=$mu/add2.a.calib.npy --calib b=$mu/add2.a.in.npy --calib b=$mu/add2.b.in.npy -o $tmp/x.tpkg
expect 0 "" compile $mu/add2.onnx --calib a=$mu/add2.a.calib.npy --calib b=$mu/add2.b.in.npy -o $tmp/x.tpkg
expect 1 "add2.a.calib.npy: shape [3,8,4,4] does not match input 'data' [5,3]" compile $mu/gather.onnx --calib data=$mu/add2.a.calib.npy --calib idx=$mu/gather.idx.npy -o $tmp/x.tpkg
expect 1 "run: the package has 2 inputs, 1 given with --input (none for 'b')" run $tmp/add2.tpkg --engine model --input a=$mu/add2.a.in.npy
expect 1 "run: input 'a' given twice" run $tmp/add2.tpkg --engine model --input a=$mu/add2.a.in.npy --input a=$mu/add2.a.in.npy
expect 1 "run: the package has no tensor named 'c' (it has: a, b)" run $tmp/add2.tpkg --engine model --input c=$mu/add2.a.in.npy --input a=$mu/add2.a.in.npy
expect 1 "gather.idx.npy: input 'b' must be float32 [1,8,4,4] (or with a leading batch dimension), not int64 [2]" run $tmp/add2.tpkg --engine model --input a=$mu/add2.a.in.npy --input b=$mu/gather.idx.npy
expect 1 "--input: graph input 'a' given twice" ref $mu/add2.onnx --input a=$mu/add2.a.in.npy --input a=$mu/add2.a.in.npy -o $tmp/x.npy
expect 1 "--input x=$mu/add2.a.in.npy: the model has no graph input 'x' (its inputs: a, b)" ref $mu/add2.onnx --input x=$mu/add2.a.in.npy -o $tmp/x.npy
expect 1 "no --input given for graph input 'b'" ref $mu/add2.onnx --input a=$mu/add2.a.in.npy -o $tmp/x.npy
# A MatMul whose B is a runtime input: both sides calibrated; the int8
# reference equals the float one while MatMul stays float.
expect 0 "" ref $mu/matmul2.onnx --calib a=$mu/matmul2.a.calib.npy --calib b=$mu/matmul2.b.calib.npy --input b=$mu/matmul2.b.in.npy --input a=$mu/matmul2.a.in.npy -o $tmp/mm_q.npy
expect 0 "" ref $mu/matmul2.onnx --input $mu/matmul2.a.in.npy --input $mu/matmul2.b.in.npy -o $tmp/mm_f.npy
check "matmul2-calibrated" "$tessel" compare $tmp/mm_f.npy $tmp/mm_q.npy --steps 3 --rtol 1e-3
check "matmul2-compile-not-refused-for-calibration" bash -c "! '$tessel' compile $mu/matmul2.onnx --calib a=$mu/matmul2.a.calib.npy --calib b=$mu/matmul2.b.calib.npy -o $tmp/mm.tpkg 2>&1 | grep -q -e '--calib'"
# Integer inputs (Gather indices) pass through calibration: no range, their own dtype.
expect 0 "" ref $mu/gather.onnx --calib data=$mu/gather.data.npy --calib idx=$mu/gather.idx.npy --input idx=$mu/gather.idx.npy --input data=$mu/gather.data.npy -o $tmp/g_q.npy
expect 0 "" ref $mu/gather.onnx --input $mu/gather.data.npy --input $mu/gather.idx.npy -o $tmp/g_f.npy
check "gather-int64-index-input" "$tessel" compare $tmp/g_f.npy $tmp/g_q.npy
expect 1 "gather.idx32.npy: holds int32, input 'idx' is i64" compile $mu/gather.onnx --calib data=$mu/gather.data.npy --calib idx=$mu/gather.idx32.npy -o $tmp/x.tpkg
expect 1 "gather.idx32.npy: holds int32, input 'idx' is i64" ref $mu/gather.onnx --input data=$mu/gather.data.npy --input idx=$mu/gather.idx32.npy -o $tmp/x.npy
# compare's tolerance mode: int8 steps of A's range plus relative (floats),
# --int-atol (integers); two NaNs match. A: 0..254 and a NaN, one step ~1.
expect 0 "" compare $mu/tol.exp.npy $mu/tol.near.npy --steps 3 --rtol 1e-3
expect 4 "1 outside the tolerance (worst: element 0, 0 and 3.5)" compare $mu/tol.exp.npy $mu/tol.far.npy --steps 3 --rtol 1e-3
expect 0 "" compare $mu/tol.exp.npy $mu/tol.far.npy --steps 3 --rtol 1e-3 --atol 0.6
expect 0 "" compare $mu/tol.i.npy $mu/tol.i1.npy --steps 3 --rtol 1e-3 --int-atol 1
expect 4 "1 outside the tolerance (worst: element 0, 1 and 3)" compare $mu/tol.i.npy $mu/tol.i2.npy --steps 3 --int-atol 1
expect 4 "1 outside the tolerance (worst: element 0, 1 and 2)" compare $mu/tol.i.npy $mu/tol.i1.npy --steps 3
expect 2 "--steps '-3': expected a number >= 0" compare $mu/tol.i.npy $mu/tol.i1.npy --steps -3
expect 2 "--rtol 'x': expected a number >= 0" compare $mu/tol.i.npy $mu/tol.i1.npy --rtol x
expect 2 "give --int-atol once" compare $mu/tol.i.npy $mu/tol.i1.npy --int-atol 1 --int-atol 2

for sig in TERM INT HUP; do
  killed_clean "killed-compile-before-rename-$sig" $sig 'ls "$scratch"/d.tpkg.tmp* >/dev/null 2>&1' \
    env TESSEL_TEST_OUT_PAUSE=30 "$tessel" compile $m/tiny_cnn.onnx --calib $m/tiny_cnn.in0.npy \
    -o "$tmp/killed-compile-before-rename-$sig.scratch/d.tpkg"
done

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
