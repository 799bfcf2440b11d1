# timeline_check.awk: checks the "timeline" of a profile written by
# `tessel run --profile` (docs/profile-format.md), one JSON entry a line:
# at least one item; items in order and not overlapping; every kernel's
# items (its segments) last at least its NPU CYCLES (-v exact=1: exactly,
# as on the C model, whose clock is the NPU's, or one cycle more: the last
# record of an NPU run ends with the cycle of its final MARK, after the
# snapshot its CYCLES come from). Prints what is wrong; exit 1.
#   awk -f timeline_check.awk [-v exact=1] P.json
function num(line, key) {
  if (!match(line, "\"" key "\": [0-9]+")) return -1
  return substr(line, RSTART + length(key) + 4, RLENGTH - length(key) - 4) + 0
}
/^    \{"index": [0-9]+, "id": / { cycles[num($0, "index")] = num($0, "CYCLES") }
/^    \{"kind": / {
  s = num($0, "start"); e = num($0, "end"); n++
  if (s < 0 || e < s) { print "item " n ": bad start/end: " $0; bad = 1 }
  if (s < prev) { print "item " n " starts before the item before it ends: " $0; bad = 1 }
  prev = e
  if ($0 ~ /"kind": "kernel"/) { k = num($0, "index"); dur[k] += e - s; kernels++ }
}
END {
  if (n == 0 || kernels == 0) { print "no timeline, or no kernel in it"; exit 1 }
  for (k in cycles) {
    if (dur[k] < cycles[k] || (exact && dur[k] > cycles[k] + 1)) {
      print "kernel " k ": " dur[k] " cycles on the timeline, " cycles[k] " NPU cycles"; bad = 1
    }
  }
  exit bad
}
