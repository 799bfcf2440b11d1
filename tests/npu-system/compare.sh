#!/usr/bin/env bash
# compare.sh EXPECT GOT: compares the per-case lines of the NPU system tests
# (format in tests/npu-system/npu_batch.h): case, code, index, crc, cnt must
# be equal; '*' in EXPECT matches anything; cycles= is timing and ignored.
# Prints PASS/FAIL per case (FAIL lines show both sides) and a last line
# "N passed, N failed". Exit 1 on any failure or missing case.
set -u
expect=$1 got=$2
awk -v label="${3:-}" '
  function key(line, f,   n, a, i) {
    n = split(line, a, " ")
    for (i = 1; i <= n; i++) if (index(a[i], f "=") == 1) return substr(a[i], length(f) + 2)
    return ""
  }
  NR == FNR { if ($1 == "case") want[$2] = $0; next }
  $1 == "case" { have[$2] = $0 }
  END {
    p = 0; f = 0
    for (k = 0; (k "") in want; k++) {
      if (!((k "") in have)) { print "FAIL " label "case " k ": no result (run ended early?)"; f++; continue }
      bad = ""
      split("code index crc cnt", fs, " ")
      for (i = 1; i <= 4; i++) {
        e = key(want[k], fs[i]); g = key(have[k], fs[i])
        if (e != "*" && e != g) bad = bad " " fs[i] "(expected " e ", got " g ")"
      }
      if (bad == "") { p++; print "PASS " label "case " k }
      else { f++; print "FAIL " label "case " k ":" bad; print "  expected: " want[k]; print "  got:      " have[k] }
    }
    printf "%d passed, %d failed\n", p, f
    exit (f > 0 || p == 0)
  }' "$expect" "$got"
