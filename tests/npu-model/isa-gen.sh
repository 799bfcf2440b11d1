#!/bin/bash
# isa-gen suite: the generated headers compile as C (host, and RV32 freestanding
# for the firmware), the generated SV packages pass verilator -Wall and yosys
# for every target, then the cmocka encode/decode tests run.
#   tests/npu-model/isa-gen.sh GEN_DIR TEST_BINARY TARGET...
set -u
gen=$1 test_bin=$2
shift 2
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@" >"$tmp/out" 2>&1; then
    pass=$((pass + 1))
    echo "ok   $name"
  else
    fail=$((fail + 1))
    echo "FAIL $name"
    sed 's/^/     /' "$tmp/out" | head -n 40
  fi
}

printf '#include "tessel_isa.h"\n#include "tessel_target.h"\nint tsl_check_dim(void) { return TSL_DIM + TSL_OP_LOAD; }\n' >"$tmp/use.c"
for t in "$@"; do
  check "C host header $t" gcc -std=c11 -Wall -Wextra -Wshadow -Werror -pedantic \
    -I"$gen" -I"$gen/$t" -c "$tmp/use.c" -o "$tmp/use.o"
  printf '#include "tessel_isa.h"\n#include "tessel_target.h"\nint f() { tsl_load_t l = {}; uint32_t w[4]; return tsl_load_encode(&l, w) + TSL_DIM; }\n' >"$tmp/use.cc"
  check "C++ header $t (Verilator harness)" g++ -std=c++17 -Wall -Wextra -Werror -I"$gen" -I"$gen/$t" \
    -c "$tmp/use.cc" -o "$tmp/use-cc.o"
  if command -v riscv64-unknown-elf-gcc >/dev/null; then
    check "C rv32 freestanding header $t" riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 \
      -std=c11 -ffreestanding -Wall -Wextra -Wshadow -Werror -I"$gen" -I"$gen/$t" \
      -c "$tmp/use.c" -o "$tmp/use-rv.o"
  fi
  check "verilator -Wall packages $t" verilator --lint-only -Wall --Mdir "$tmp/vl" \
    "$gen/tessel_isa_pkg.sv" "$gen/$t/tessel_target_pkg.sv" tests/npu-model/pkg_lint_top.sv
  check "yosys packages $t" yosys -q -p "read_verilog -sv $gen/tessel_isa_pkg.sv \
    $gen/$t/tessel_target_pkg.sv tests/npu-model/pkg_lint_top.sv; synth -top pkg_lint_top"
done

# the generator rejects bad configs and ISA descriptions with a located message
gen_tool=$(dirname "$test_bin")/../../bin/tsl-gen
rejects() { # rejects NAME PATTERN FILE-CONTENT MODE
  printf '%b' "$3" >"$tmp/bad.$4"
  if [[ $4 == cfg ]]; then "$gen_tool" target targets/isa.def "$tmp/bad.cfg" "$tmp" >"$tmp/out" 2>&1
  else "$gen_tool" isa "$tmp/bad.def" "$tmp" >"$tmp/out" 2>&1; fi
  local rc=$?
  if [[ $rc -ne 0 ]] && grep -qE -- "$2" "$tmp/out"; then pass=$((pass + 1)); echo "ok   rejects $1"
  else fail=$((fail + 1)); echo "FAIL rejects $1 (exit $rc)"; sed 's/^/     /' "$tmp/out"; fi
}
base=$(grep -v '^name\|^dim\b' targets/npu8.cfg)
rejects "unknown cfg key" "bad.cfg:[0-9]+: unknown key 'frob'" "name = x\ndim = 8\n$base\nfrob = 1\n" cfg
rejects "missing cfg key" "missing 'dim'" "name = x\n$base\n" cfg
rejects "cfg out of range" "dim = 99 outside 2..16" "name = x\ndim = 99\n$base\n" cfg
rejects "cfg not a number" "'eight' is not a number" "name = x\ndim = eight\n$base\n" cfg
rejects "cfg repeated key" "dim given twice" "name = x\ndim = 8\ndim = 8\n$base\n" cfg
rejects "cfg name with quotes" "bad.cfg:1: bad name 'a\"b'" "name = a\"b\ndim = 8\n$base\n" cfg
rejects "cfg name twice" "bad.cfg:2: name given twice" "name = x\nname = y\ndim = 8\n$base\n" cfg
rejects "cfg huge number" "dim = 99999999999999999999 outside 2..16" "name = x\ndim = 99999999999999999999\n$base\n" cfg
rejects "cfg long line" "bad.cfg:1: line longer than 254 characters" "# $(printf '%0300d' 0) dim = 4\nname = x\ndim = 8\n$base\n" cfg
if "$gen_tool" target targets/isa.def "$tmp" "$tmp" >"$tmp/out" 2>&1; then fail=$((fail + 1)); echo "FAIL rejects cfg directory (exit 0)"
elif grep -q "Is a directory" "$tmp/out"; then pass=$((pass + 1)); echo "ok   rejects cfg directory"
else fail=$((fail + 1)); echo "FAIL rejects cfg directory"; sed 's/^/     /' "$tmp/out"; fi
# tessel run --engine rtl passes dram_latency to tessel-sim --dram-latency (1..100000)
rejects "cfg zero DRAM latency" "dram_latency = 0 outside 1..1000" "name = x\ndim = 8\n$(grep -v '^dram_latency' <<<"$base")\ndram_latency = 0\n" cfg
rejects "cfg preload not a power of two" "preload_rows_per_cycle = 3 must be a power of two" "name = x\ndim = 8\n$(grep -v '^preload_rows_per_cycle' <<<"$base")\npreload_rows_per_cycle = 3\n" cfg
rejects "cfg preload above dim" "preload_rows_per_cycle = 16 must be a power of two, at most dim \\(8\\)" "name = x\ndim = 8\n$(grep -v '^preload_rows_per_cycle' <<<"$base")\npreload_rows_per_cycle = 16\n" cfg
rejects "cfg burst not whole beats" "dram_burst_bytes = 12 must be a multiple of 8" "name = x\ndim = 8\n$(grep -v '^dram_burst_bytes' <<<"$base")\ndram_burst_bytes = 12\n" cfg
rejects "cfg requant lanes not dividing dim" "requant_lanes = 3 must be 0 \\(dim\\) or divide dim \\(8\\)" "name = x\ndim = 8\n$base\nrequant_lanes = 3\n" cfg
rejects "cfg vec lanes above dim" "vec_lanes = 16 must be 0 \\(dim\\) or divide dim \\(8\\)" "name = x\ndim = 8\n$base\nvec_lanes = 16\n" cfg
rejects "isa overlap" "bad.def:5: field 'b' overlaps 'a'" "isa 1 128\nqueue FRONT 0 \"f\"\ncmd X 0x05 FRONT \"x\"\nf a 8 8 u - \"a\"\nf b 12 8 u - \"b\"\n" def
rejects "isa straddle" "straddles a 32-bit word" "isa 1 128\nqueue FRONT 0 \"f\"\ncmd X 0x05 FRONT \"x\"\nf a 28 8 u - \"a\"\n" def
rejects "isa opcode 0" "opcode must be 1..255" "isa 1 128\ncmd X 0 FRONT \"x\"\n" def
rejects "isa unknown line" "bad.def:2: unknown line kind 'frob'" "isa 1 128\nfrob\n" def
# a doc string past its 199 bytes was cut silently (a target key's text in docs/targets.md)
rejects "isa long doc" "bad.def:2: doc string of 250 bytes: at most 199" "isa 1 128\nqueue FRONT 0 \"$(printf '%0250d' 0)\"\n" def

# a directory as the ISA description or the document is an error, and
# leaves no output behind (it was read as an empty file)
if "$gen_tool" doc targets/isa.def "$tmp" "$tmp/doc-out.md" >"$tmp/out" 2>&1 || [[ -e $tmp/doc-out.md ]] ||
   ! grep -q "Is a directory" "$tmp/out"; then fail=$((fail + 1)); echo "FAIL rejects doc directory"; sed 's/^/     /' "$tmp/out"
else pass=$((pass + 1)); echo "ok   rejects doc directory"; fi
if "$gen_tool" isa "$tmp" "$tmp" >"$tmp/out" 2>&1 || ! grep -q "Is a directory" "$tmp/out"; then
  fail=$((fail + 1)); echo "FAIL rejects isa directory"; sed 's/^/     /' "$tmp/out"
else pass=$((pass + 1)); echo "ok   rejects isa directory"; fi

# a FIFO as any input is refused at once, naming it (open() blocked forever);
# under timeout, so a regression fails here instead of hanging CI
mkfifo "$tmp/fifo"
fifo_rejected() { # fifo_rejected NAME ARGS...
  local name=$1; shift
  timeout 10 "$gen_tool" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [[ $rc -ne 0 && $rc -ne 124 ]] && grep -qE "fifo(:0)?: cannot open: not a regular file" "$tmp/out"; then
    pass=$((pass + 1)); echo "ok   rejects $name"
  else fail=$((fail + 1)); echo "FAIL rejects $name (exit $rc)"; sed 's/^/     /' "$tmp/out"; fi
}
fifo_rejected "FIFO as cfg" target targets/isa.def "$tmp/fifo" "$tmp"
fifo_rejected "FIFO as targets cfg" targets targets/isa.def "$tmp" "$tmp/fifo"
fifo_rejected "FIFO as ISA.def" isa "$tmp/fifo" "$tmp"
fifo_rejected "FIFO as IN.md" doc targets/isa.def "$tmp/fifo" "$tmp/doc-out.md"
# a FIFO as OUT.md is replaced by the document (comparing with it blocked)
printf 'no generated blocks\n' >"$tmp/plain.md"
mkfifo "$tmp/out-fifo.md"
if timeout 10 "$gen_tool" doc targets/isa.def "$tmp/plain.md" "$tmp/out-fifo.md" >"$tmp/out" 2>&1 &&
   [[ -f $tmp/out-fifo.md ]] && cmp -s "$tmp/plain.md" "$tmp/out-fifo.md"; then pass=$((pass + 1)); echo "ok   FIFO as OUT.md is replaced"
else fail=$((fail + 1)); echo "FAIL FIFO as OUT.md"; sed 's/^/     /' "$tmp/out"; fi

"$test_bin" 2>&1 | tee "$tmp/cm"
p=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$tmp/cm" | awk '{s+=$4} END {print s+0}')
f=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$tmp/cm" | awk '{s+=$4} END {print s+0}')
if ! grep -qE '^\[  (PASSED|FAILED)  \]' "$tmp/cm"; then f=1; fi
pass=$((pass + p)) fail=$((fail + f))
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
