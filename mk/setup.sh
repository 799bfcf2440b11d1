#!/bin/bash
# Install, from Debian, what a goal needs and is not there yet.
#   mk/setup.sh demo   simulation toolchain (enough for `make demo`)
#   mk/setup.sh test   also synthesis, test and fuzzing tools (`make test`), and a
#                      single-node Slurm and GNU parallel for the scale suite
#   mk/setup.sh models also python3-onnx/torch, only to regenerate test models
# Idempotent: when everything is installed it only runs dpkg-query.
set -euo pipefail

demo_pkgs=(make gcc g++ verilator gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
           protobuf-c-compiler libprotobuf-c-dev libonnx-dev)
test_pkgs=("${demo_pkgs[@]}" yosys nextpnr-ice40 fpga-icestorm libcmocka-dev
           llvm-14-tools clang libclang-rt-14-dev procps libonnx-testdata
           slurmctld slurmd munge parallel)
model_pkgs=("${test_pkgs[@]}" python3-onnx python3-numpy python3-torch
            python3-torchvision python3-sklearn)

case "${1:-test}" in
  demo) want=("${demo_pkgs[@]}") ;;
  test) want=("${test_pkgs[@]}") ;;
  models) want=("${model_pkgs[@]}") ;;
  *) echo "setup.sh: unknown goal '$1' (expected demo, test or models)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "setup: installing ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "setup: need root to apt-get install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
