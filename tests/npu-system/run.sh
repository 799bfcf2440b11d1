#!/usr/bin/env bash
# run.sh: the NPU system tests (docs/npu-system.md).
#
#   run.sh gen GEN MUTANT OUTDIR SEED COUNT SIM FWDIR TARGET...
#       generator and C-model side, per target: valid streams run clean and
#       meet the coverage thresholds, every planted fault fails with an error,
#       same seed gives the same batch, the firmware (FWDIR/T/npu-batchcheck.elf
#       on SIM, no NPU needed) reads the batch as written, the comparator
#       catches changes, the planted rounding bug (MUTANT) is caught by the
#       comparison, bad options are refused.
#   run.sh rtl GEN MUTANT SIM ELF OUTDIR SEED COUNT KIND TARGET
#       differential (KIND valid) or error (KIND errors) test on the RTL: the
#       batch runs through firmware ELF on SIM; every case's line must equal
#       the C model's; for valid, the mutant's expectations must NOT match.
# Ends with "N passed, N failed".
set -u
mode=$1; shift
pass=0 fail=0
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
here=$(dirname "$0")

case $mode in
gen)
  gen=$1 mutant=$2 out=$3 seed=$4 count=$5 sim=$6 fwdir=$7; shift 7
  mkdir -p "$out"
  for t in "$@"; do
    d=$out/$t; mkdir -p "$d"
    if "$gen" --target "$t" --seed "$seed" --count "$count" --kind valid --batch "$d/valid.bin" \
         --expect "$d/valid.txt" --initial "$d/initial.txt" --check-coverage >"$d/valid.cov" 2>&1; then
      ok "$t: $count valid streams run clean on the C model, coverage above thresholds"
    else bad "$t: valid streams or coverage"; grep -E "FAIL|BELOW|invalid" "$d/valid.cov" | head -20; fi
    grep -E "ties|saturation|nesting depth" "$d/valid.cov" | sed "s/^ */    $t: /"
    if "$gen" --target "$t" --seed "$seed" --count 64 --kind errors --batch "$d/errors.bin" \
         --expect "$d/errors.txt" --check-coverage >"$d/errors.cov" 2>&1 &&
       ! grep -q "code=0 " "$d/errors.txt"; then
      ok "$t: 64 planted faults each end with an error code and index"
    else bad "$t: planted faults"; tail -n 12 "$d/errors.cov"; fi
    "$gen" --target "$t" --seed "$seed" --count "$count" --kind valid --batch "$d/again.bin" \
      --expect "$d/again.txt" >/dev/null 2>&1
    if cmp -s "$d/valid.bin" "$d/again.bin" && cmp -s "$d/valid.txt" "$d/again.txt"; then
      ok "$t: same seed, same batch and expectations"
    else bad "$t: generation is not deterministic"; fi
    # the firmware reads the batch as the host wrote it (layout, CRC)
    if "$sim" "$fwdir/$t/npu-batchcheck.elf" --load "0x80000000=$d/valid.bin" >"$d/fw-initial.txt" 2>&1 &&
       cmp -s "$d/initial.txt" "$d/fw-initial.txt"; then
      ok "$t: firmware reads all $count streams and windows of the batch as written (CRC-32 equal)"
    else bad "$t: firmware's view of the batch differs"; diff "$d/initial.txt" "$d/fw-initial.txt" | head -5; fi
    # the comparator fails on a changed, a missing and an extra-field case
    sed '3s/crc=\([0-9a-f]\)/crc=X\1/' "$d/valid.txt" >"$d/tampered.txt"
    head -n 5 "$d/valid.txt" >"$d/short.txt"
    if ! "$here/compare.sh" "$d/valid.txt" "$d/tampered.txt" >/dev/null &&
       ! "$here/compare.sh" "$d/valid.txt" "$d/short.txt" >/dev/null &&
       "$here/compare.sh" "$d/valid.txt" "$d/valid.txt" >/dev/null; then
      ok "$t: comparator passes equal lines, fails a changed CRC and missing cases"
    else bad "$t: comparator"; fi
    "$mutant" --target "$t" --seed "$seed" --count "$count" --kind valid --batch "$d/mutant.bin" \
      --expect "$d/mutant.txt" >/dev/null 2>&1
    n=$("$here/compare.sh" "$d/valid.txt" "$d/mutant.txt" | grep -c '^FAIL')
    if cmp -s "$d/valid.bin" "$d/mutant.bin" && [ "$n" -gt 0 ]; then
      ok "$t: planted rounding bug (ties half up) caught: $n of $count cases differ"
    else bad "$t: planted rounding bug not caught ($n cases differ)"; fi
  done
  # bad command lines: a clear message and status 2, never a crash
  for args in "--target nosuch --seed 1 --count 1 --kind valid --batch $out/x --expect $out/y" \
              "--target npu8 --seed 1 --count 0 --kind valid --batch $out/x --expect $out/y" \
              "--target npu8 --seed x1 --count 1 --kind valid --batch $out/x --expect $out/y" \
              "--target npu8 --seed 1 --count 1 --kind other --batch $out/x --expect $out/y" \
              "--target npu8 --bogus 1" "--target"; do
    # shellcheck disable=SC2086
    msg=$("$gen" $args 2>&1 >/dev/null); st=$?
    if [ $st -eq 2 ] && [ -n "$msg" ]; then ok "refused: $args"
    else bad "not refused (status $st): $args"; fi
  done
  # unwritable outputs: a message and status 1, and no sanitizer report (the
  # ASan build's leak check once flagged these exits)
  # A FIFO with no reader as any output is refused at once, naming it (it
  # blocked open() forever; under timeout, so a regression fails, not hangs).
  rm -f "$out/fifo"; mkfifo "$out/fifo"
  for args in "--batch $out/no/dir/x --expect $out/y" "--batch $out/x --expect $out/no/dir/y" \
              "--batch $out/x --expect $out/y --initial $out/no/dir/z" "--batch /dev/full --expect $out/y" \
              "--batch $out/fifo --expect $out/y" "--batch $out/x --expect $out/fifo" \
              "--batch $out/x --expect $out/y --initial $out/fifo"; do
    # shellcheck disable=SC2086
    msg=$(timeout 20 "$gen" --target npu4 --seed 1 --count 2 --kind valid $args 2>&1 >/dev/null); st=$?
    named=yes; case "$args" in *fifo*) grep -qF "$out/fifo" <<<"$msg" || named=no ;; esac
    if [ $st -eq 1 ] && [ $named = yes ] && [ -n "$msg" ] && ! grep -q "Sanitizer" <<<"$msg"; then ok "unwritable output: $args"
    else bad "unwritable output (status $st): $args: $(head -c 200 <<<"$msg")"; fi
  done
  ;;
rtl)
  gen=$1 mutant=$2 sim=$3 elf=$4 out=$5 seed=$6 count=$7 kind=$8 t=$9
  d=$out/$t-$kind; mkdir -p "$d"
  if ! "$gen" --target "$t" --seed "$seed" --count "$count" --kind "$kind" --batch "$d/batch.bin" \
       --expect "$d/expect.txt" >"$d/gen.log" 2>&1; then
    bad "$t: generator"; cat "$d/gen.log"
  else
    "$sim" "$elf" --load "0x80000000=$d/batch.bin" --max-cycles 2000000000 >"$d/got.txt" 2>"$d/sim.err"
    st=$?
    if [ $st -eq 0 ]; then ok "$t $kind: firmware ran the whole batch on the RTL"
    else bad "$t $kind: tessel-sim ended with status $st"; tail -n 5 "$d/got.txt" "$d/sim.err"; fi
    "$here/compare.sh" "$d/expect.txt" "$d/got.txt" "$t $kind " >"$d/compare.log"
    grep -v '^PASS' "$d/compare.log" | grep -v ' passed, ' | head -40
    pass=$((pass + $(grep -c '^PASS' "$d/compare.log")))
    fail=$((fail + $(grep -c '^FAIL' "$d/compare.log")))
    # the cost model's error against the RTL's cycles, over the clean cases (a figure, not a check)
    awk 'function cyc(l,  n, a, i) { n = split(l, a, " "); for (i = 1; i <= n; i++) if (a[i] ~ /^cycles=/) return substr(a[i], 8); return "" }
         NR == FNR { if ($1 == "case" && $3 == "code=0") est[$2] = cyc($0); next }
         $1 == "case" && ($2 in est) && cyc($0) > 0 { m = cyc($0); e = (est[$2] - m) / m; s += (e < 0 ? -e : e); se += est[$2]; sm += m; n++ }
         END { if (n) printf "  cost model vs RTL cycles over %d cases: mean |error| %.1f%%, total %+.1f%%\n", n, 100 * s / n, 100 * (se - sm) / sm }' \
      "$d/expect.txt" "$d/got.txt"
    if [ "$kind" = valid ]; then
      "$mutant" --target "$t" --seed "$seed" --count "$count" --kind valid --batch "$d/mutant.bin" \
        --expect "$d/mutant.txt" >/dev/null 2>&1
      n=$("$here/compare.sh" "$d/mutant.txt" "$d/got.txt" | grep -c '^FAIL')
      if [ "$n" -gt 0 ]; then ok "$t: the RTL disagrees with the planted rounding bug in $n cases"
      else bad "$t: the planted rounding bug went unnoticed against the RTL"; fi
    fi
  fi
  ;;
*) echo "usage: run.sh gen|rtl ..." >&2; exit 2 ;;
esac
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
