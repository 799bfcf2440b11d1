#!/bin/bash
# The `tune` suite: `tessel tune` and `tessel compile --tuning-log`.
# Behaviour only, no timing: a seeded tune is reproducible (same records up
# to times, with any --jobs); the tuned package is never slower per kernel
# and computes the same bits; bad and foreign log lines are skipped with a
# warning and counted; failures and timeouts are logged, never fatal; bad
# arguments exit 2; one short tune on the cycle-accurate SoC.  Each check is
# one test; the cmocka unit tests (test_tune) come first.
#   tests/tune/run.sh TMP_DIR TESSEL UNIT_TEST
set -u
tmp=$1 tessel=$2 unit=$3
here=$(cd "$(dirname "$0")" && pwd)
models=$(cd "$here/../models" && pwd)
rm -rf "$tmp" && mkdir -p "$tmp"
# A snapshot of the binaries: others may rebuild build/ while this runs, and
# `tessel run` finds the simulator and firmware next to itself (../npu8/).
build=$(cd "$(dirname "$tessel")/.." && pwd)
mkdir -p "$tmp/snap/bin" "$tmp/snap/npu8" "$tmp/snap/firmware/npu8"
cp "$tessel" "$tmp/snap/bin/" && cp "$build/npu8/tessel-sim" "$tmp/snap/npu8/" &&
  cp "$build/firmware/npu8/tessel-fw.elf" "$tmp/snap/firmware/npu8/" || { echo "cannot snapshot the binaries"; exit 1; }
tessel=$tmp/snap/bin/$(basename "$tessel")
. "$here/../lib/check.sh"
# Per-kernel "index cycles" lines of a profile (the writer puts a kernel on one line).
kernel_cycles() { sed -n 's/.*{"index": \([0-9]*\), "id".*"counters": {"CYCLES": \([0-9]*\),.*/\1 \2/p' "$1"; }
# A log without its wall-clock fields.
untimed() { sed -e 's/"time": "[^"]*"//' -e 's/"seconds": [0-9.]*//' "$1"; }

kinds=$models/run/kinds
digits=$models/digits

# 0. Unit tests (cmocka): log lines, table, space, fit.
if "$unit" >"$tmp/unit.log" 2>&1; then ok "unit (cmocka)"; else ko "unit (cmocka)"; tail -30 "$tmp/unit.log"; fi
grep -E '^\[  (PASSED|FAILED) \]' "$tmp/unit.log" | sed 's/^/  /'

# 1. A seeded tune on the C model is reproducible, with 2 jobs or 1.
tune_kinds() { "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --trials 8 --seed 7 --no-progress "$@"; }
t tune-kinds-j2 tune_kinds --jobs 2 --log "$tmp/a.jsonl"
t tune-kinds-j1 tune_kinds --jobs 1 --log "$tmp/b.jsonl"
if [ -s "$tmp/a.jsonl" ] && diff <(untimed "$tmp/a.jsonl") <(untimed "$tmp/b.jsonl") >"$tmp/repro.diff"; then
  ok "same seed, same records ($(wc -l <"$tmp/a.jsonl") lines, times aside)"
else ko "same seed, same records"; head -5 "$tmp/repro.diff"; fi
# --batch (one package per rank with a candidate of every task) measures the same cycles.
t tune-kinds-batch tune_kinds --jobs 2 --batch --log "$tmp/batch.jsonl"
untrialled() { untimed "$1" | sed 's/"trial": [0-9]*//' | sort; }
if [ -s "$tmp/batch.jsonl" ] && diff <(untrialled "$tmp/a.jsonl") <(untrialled "$tmp/batch.jsonl") >/dev/null &&
   [ "$(grep -c '"trial": ' "$tmp/batch.jsonl")" -gt 0 ] &&
   [ "$(sed -n 's/.* tasks, \([0-9]*\) measurements.*/\1/p' "$tmp/tune-kinds-batch.log")" -lt \
     "$(sed -n 's/.* tasks, \([0-9]*\) measurements.*/\1/p' "$tmp/tune-kinds-j2.log")" ]; then
  ok "--batch: the same records from fewer runs"
else ko "--batch: the same records from fewer runs"; head -1 "$tmp/tune-kinds-batch.log"; fi
if grep -q '"default": true' "$tmp/a.jsonl" && [ "$(grep -c '"format": "tessel-tune"' "$tmp/a.jsonl")" -eq "$(wc -l <"$tmp/a.jsonl")" ]
then ok "every line a tessel-tune record, defaults among them"; else ko "every line a tessel-tune record"; fi
if grep -q "^model: default" "$tmp/tune-kinds-j2.log" && grep -q "^cost model: refit" "$tmp/tune-kinds-j2.log"
then ok "report: per task, model, cost model"; else ko "report"; fi

# 2. The log's package: every kernel <= default, outputs bit for bit.
t compile-default "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/def.tpkg"
t compile-tuned "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/tun.tpkg" --tuning-log "$tmp/a.jsonl"
if grep -q "tuned schedules for [1-9]" "$tmp/compile-tuned.log"; then ok "compile applies the log"; else ko "compile applies the log"; cat "$tmp/compile-tuned.log"; fi
for p in def tun; do
  t "run-$p" "$tessel" run "$tmp/$p.tpkg" --engine model --input "$kinds.batch.npy" -o "$tmp/$p.npy" --profile "$tmp/$p.json" -q
done
t tuned-equals-default "$tessel" compare "$tmp/def.npy" "$tmp/tun.npy"
t tuned-bit-identical cmp "$tmp/def.npy" "$tmp/tun.npy"
kernel_cycles "$tmp/def.json" >"$tmp/def.cyc"; kernel_cycles "$tmp/tun.json" >"$tmp/tun.cyc"
if [ -s "$tmp/def.cyc" ] && [ "$(wc -l <"$tmp/def.cyc")" -eq "$(wc -l <"$tmp/tun.cyc")" ] &&
   join "$tmp/def.cyc" "$tmp/tun.cyc" | awk '$3 > $2 { bad = 1 } END { exit bad }'; then
  ok "every kernel's cycles <= default ($(awk '{ s += $2 } END { print s }' "$tmp/def.cyc") -> $(awk '{ s += $2 } END { print s }' "$tmp/tun.cyc"))"
else ko "every kernel's cycles <= default"; paste "$tmp/def.cyc" "$tmp/tun.cyc" | sed 's/^/  /'; fi
# The tuned package is what the tuner measured for the model end to end.
if grep -q "tuned schedules for" "$tmp/compile-tuned.log" && ! cmp -s "$tmp/def.tpkg" "$tmp/tun.tpkg"
then ok "tuned package differs from the default"; else ko "tuned package differs from the default"; fi

# 3. Logs are reusable across models: digits with kinds' log compiles (default schedules).
t foreign-model-log "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" -o "$tmp/dg.tpkg" --tuning-log "$tmp/a.jsonl"
if grep -q "tuned schedules for 0 of" "$tmp/foreign-model-log.log"; then ok "no workload shared: all default"; else ko "no workload shared"; fi

# 4. Corrupt and foreign lines: skipped with a warning each, counted.
{ head -3 "$tmp/a.jsonl"; echo 'not json at all'; echo '{"format": "other-tool", "x": 1}'
  head -1 "$tmp/a.jsonl" | cut -c1-80; head -1 "$tmp/a.jsonl" | sed 's/"oh_tile": [0-9]*/"oh_tile": -4/'
  head -1 "$tmp/a.jsonl" | sed 's/"version": 1/"version": 99/'; tail -n +4 "$tmp/a.jsonl"; } >"$tmp/bad.jsonl"
t compile-bad-log "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/bad.tpkg" --tuning-log "$tmp/bad.jsonl"
if [ "$(grep -c 'warning: .*bad.jsonl:[0-9]*:' "$tmp/compile-bad-log.log")" -eq 5 ] &&
   grep -q "(5 skipped lines" "$tmp/compile-bad-log.log" && grep -q "not a tessel-tune record" "$tmp/compile-bad-log.log" &&
   grep -q "corrupt tuning record" "$tmp/compile-bad-log.log"; then ok "5 bad lines: 5 warnings, counted"
else ko "5 bad lines: 5 warnings, counted"; sed 's/^/  /' "$tmp/compile-bad-log.log"; fi
t bad-log-same-package cmp "$tmp/tun.tpkg" "$tmp/bad.tpkg"
expect_fail compile-missing-log 1 "cannot open" "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/x.tpkg" --tuning-log "$tmp/none.jsonl"

# 5. --resume reuses the log's measurements.
t tune-resume tune_kinds --jobs 2 --log "$tmp/a.jsonl" --resume
if grep -Eq "measurements \(0 failed, [1-9][0-9]* from the log\)" "$tmp/tune-resume.log"; then ok "resume reuses measurements"
else ko "resume reuses measurements"; head -2 "$tmp/tune-resume.log"; fi

# 6. Failures and timeouts are logged, never fatal.
t tune-failing-runs tune_kinds --trials 2 --log "$tmp/f.jsonl" --tessel /bin/false
if grep -q '"status": "error"' "$tmp/f.jsonl" && ! grep -q '"status": "ok"' "$tmp/f.jsonl"; then ok "failed runs logged as errors"
else ko "failed runs logged as errors"; fi
t tune-timeouts "$tessel" tune "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --engine rtl --trials 1 \
  --timeout 0.05 --jobs 2 --log "$tmp/to.jsonl" --no-progress
if grep -q '"status": "timeout"' "$tmp/to.jsonl"; then ok "timeouts logged"; else ko "timeouts logged"; fi

# 7. Bad arguments: exit 2 with the reason.
expect_fail no-model 2 "no model given" "$tessel" tune
expect_fail bad-trials 2 "expected a count" "$tessel" tune "$kinds.onnx" --trials 0
expect_fail bad-jobs 2 "expected a count" "$tessel" tune "$kinds.onnx" --jobs many
expect_fail bad-engine 2 "expected rtl or model" "$tessel" tune "$kinds.onnx" --engine fpga
expect_fail bad-budget 2 "expected seconds" "$tessel" tune "$kinds.onnx" --time-budget -3
expect_fail bad-seed 2 "expected an integer" "$tessel" tune "$kinds.onnx" --seed 1.5
expect_fail unknown-option 2 "unknown option" "$tessel" tune "$kinds.onnx" --fast
expect_fail missing-value 2 "needs a value" "$tessel" tune "$kinds.onnx" --log
expect_fail repeated-target 2 "give --target once" "$tessel" tune "$kinds.onnx" --target npu4 --target npu8
expect_fail two-models 2 "more than one model" "$tessel" tune "$kinds.onnx" "$kinds.onnx"
expect_fail compile-log-no-value 2 "tessel compile: --tuning-log needs a value" "$tessel" compile "$kinds.onnx" --tuning-log
expect_fail bad-model 1 "tessel tune:" "$tessel" tune "$tmp/none.onnx" --engine model --log "$tmp/n.jsonl"
expect_fail bad-target 1 "unknown target" "$tessel" tune "$kinds.onnx" --target npu3 --log "$tmp/n.jsonl"
# calibration data of another shape: the same message as compile's (compiler/support/input_samples.c)
expect_fail calib-wrong-shape 1 "samples stack along dimension 0: \[N,1,8,8\]" "$tessel" tune "$digits/digits_cnn.onnx" \
  --calib "$kinds.calib.npy" --engine model --log "$tmp/n.jsonl"
expect_fail float-no-calib 1 "is float" "$tessel" tune "$kinds.onnx" --input "$kinds.in0.npy" --engine model --log "$tmp/n.jsonl"
# The log is appended to: naming the model or an input there used to append
# JSON to it; a FIFO as --tuning-log used to block compile in open().
cp "$kinds.onnx" "$tmp/own.onnx"
expect_fail log-over-model 2 "--log $tmp/own.onnx: is also an input (the model)" "$tessel" tune "$tmp/own.onnx" --calib "$kinds.calib.npy" --engine model --log "$tmp/own.onnx"
cp "$kinds.calib.npy" "$tmp/own.npy"
expect_fail log-over-calib 2 "is also an input (--calib)" "$tessel" tune "$kinds.onnx" --calib "$tmp/own.npy" --engine model --log "$tmp/own.npy"
t log-over-inputs-unchanged bash -c "cmp '$tmp/own.onnx' '$kinds.onnx' && cmp '$tmp/own.npy' '$kinds.calib.npy'"
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
expect_fail compile-log-fifo 1 "fifo: not a regular file" timeout 20 "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/x.tpkg" --tuning-log "$tmp/fifo"
expect_fail compile-log-folder 1 "is a folder" "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/x.tpkg" --tuning-log "$tmp"
# A NaN in the calibration samples is an error naming the file (it was
# skipped by the ranges, silently).
cp "$kinds.calib.npy" "$tmp/nan.npy"
printf '\x00\x00\xc0\x7f' | dd of="$tmp/nan.npy" bs=1 seek=$(($(stat -c %s "$kinds.calib.npy") - 4)) conv=notrunc status=none
expect_fail calib-nan 1 "nan.npy: element [0-9]* is NaN: calibration samples must be finite" "$tessel" tune "$kinds.onnx" --calib "$tmp/nan.npy" --engine model --log "$tmp/n.jsonl"
# A log that cannot be written fails the tune (it lost every record and
# exited 0); --workdir must be a folder (an empty one put the packages in /).
expect_fail log-write-fails 1 "/dev/full: writing the log failed: No space left on device" \
  "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --trials 1 --explore 2 --log /dev/full --no-progress
expect_fail workdir-empty 2 "--workdir needs a folder name" "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --workdir ""
expect_fail log-empty 2 "--log needs a file name" "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --log ""
expect_fail workdir-file 1 "--workdir $kinds.onnx: not a folder" "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --log "$tmp/n.jsonl" --workdir "$kinds.onnx"
# A file with lines but no tessel-tune record is not a log: compile refuses
# it (it compiled untuned after a warning per line), and tune will not
# append to it (it appended JSON to any file).
head -c 20000 "$kinds.onnx" >"$tmp/notalog.jsonl"
expect_fail compile-not-a-log 1 "notalog.jsonl: not a tuning log: none of its [0-9]* lines is a tessel-tune record" \
  "$tessel" compile "$kinds.onnx" --calib "$kinds.calib.npy" -o "$tmp/x.tpkg" --tuning-log "$tmp/notalog.jsonl"
t not-a-log-warnings-capped bash -c "[ \$(grep -c 'warning: .*notalog.jsonl:[0-9]*:' '$tmp/compile-not-a-log.err') -le 10 ]"
cp "$here/../../docs/tuning.md" "$tmp/notes.md"
expect_fail tune-not-a-log 1 "notes.md: not a tuning log" "$tessel" tune "$kinds.onnx" --calib "$kinds.calib.npy" --engine model --log "$tmp/notes.md"
t tune-not-a-log-unchanged cmp "$tmp/notes.md" "$here/../../docs/tuning.md"

# 8. A short tune on the cycle-accurate SoC; its log's package on RTL computes the same bits.
t tune-digits-rtl "$tessel" tune "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --input "$digits/digits_cnn.in0.npy" \
  --engine rtl --trials 3 --jobs 2 --seed 1 --log "$tmp/rtl.jsonl" --no-progress
if grep -q '"engine": "rtl"' "$tmp/rtl.jsonl" && grep -q '"simulator": "tessel-sim target npu8' "$tmp/rtl.jsonl" &&
   ! grep -q '"status": "error"' "$tmp/rtl.jsonl"; then ok "rtl records name engine and simulator"
else ko "rtl records name engine and simulator"; fi
t rtl-compile-default "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" -o "$tmp/rd.tpkg"
t rtl-compile-tuned "$tessel" compile "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" -o "$tmp/rt.tpkg" --tuning-log "$tmp/rtl.jsonl"
for p in rd rt; do
  t "rtl-run-$p" "$tessel" run "$tmp/$p.tpkg" --engine rtl --input "$digits/digits_cnn.in0.npy" -o "$tmp/$p.npy" -q
done
t rtl-tuned-bit-identical cmp "$tmp/rd.npy" "$tmp/rt.npy"

# 9. A killed tune leaves nothing behind: SIGINT, SIGTERM or SIGHUP while a
#    measurement's simulator runs (360 digits each) stop the measurement,
#    its simulator and both temporary folders, all under $TMPDIR.
for sig in INT TERM HUP; do
  killed_clean "killed-tune-$sig" $sig 'pgrep -f -- "$scratch/tessel-run-" >/dev/null' \
    "$tessel" tune "$digits/digits_cnn.onnx" --calib "$digits/digits.calib.npy" --input "$digits/digits.test.npy" \
    --engine rtl --trials 2 --jobs 2 --seed 1 --explore 4 --log "$tmp/killed.jsonl" --no-progress
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
