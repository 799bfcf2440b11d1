#!/bin/bash
# bench-compiler: front-end speed on the generated torchvision nets, best of 5
# runs of the release build (build/bin/tessel):
#   import   tessel ir --raw (protobuf decode + import + print of an elided dump)
#   passes   tessel compile up to the graph passes (import + all passes)
#   ref      tessel ref (import + passes + float reference on the recorded input)
#   tests/compiler/bench.sh TESSEL
set -u
tessel=$1
nets=tests/models/nets
tmp=build/test-tmp/bench
mkdir -p "$tmp"

best_ms() { # best wall time of 5 runs of "$@", in ms
  local best=999999999
  for _ in 1 2 3 4 5; do
    local t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    local t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    (( ms < best )) && best=$ms
  done
  echo "$best"
}

printf '%-16s %10s %10s %10s %10s\n' model size-MB import-ms passes-ms ref-ms
for n in resnet18 mobilenet_v2 squeezenet1_1; do
  m=$nets/$n.onnx
  size=$(( $(stat -c %s "$m") / 1000000 ))
  imp=$(best_ms "$tessel" ir "$m" --raw --elide=1)
  pas=$(best_ms "$tessel" compile "$m" -o "$tmp/x.tpkg")
  ref=$(best_ms "$tessel" ref "$m" --input "$nets/$n.in0.npy" -o "$tmp/$n.out.npy")
  printf '%-16s %10s %10s %10s %10s\n' "$n" "$size" "$imp" "$pas" "$ref"
done
