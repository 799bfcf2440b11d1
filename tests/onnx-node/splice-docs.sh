#!/bin/bash
# tests/onnx-node/splice-docs.sh SECTION.md DOC.md: replaces the lines from
# "<!-- onnx-node: begin" to "<!-- onnx-node: end -->" of DOC.md by SECTION.md
# (run.sh --markdown's output, markers included), or appends SECTION.md when
# DOC.md has no such section (creating DOC.md). Nothing else of DOC.md changes.
set -eu
sec=$1 doc=$2
grep -q '^<!-- onnx-node: begin' "$sec" && grep -q '^<!-- onnx-node: end -->' "$sec" ||
  { echo "splice-docs: $sec has no onnx-node markers" >&2; exit 1; }
if [ -f "$doc" ] && grep -q '^<!-- onnx-node: begin' "$doc"; then
  awk -v sec="$sec" '
    /^<!-- onnx-node: begin/ { while ((getline l < sec) > 0) print l; skip = 1; next }
    /^<!-- onnx-node: end -->/ { skip = 0; next }
    !skip' "$doc" >"$doc.tmp"
  mv "$doc.tmp" "$doc"
else
  { [ -s "$doc" ] && echo; cat "$sec"; } >>"$doc"
fi
