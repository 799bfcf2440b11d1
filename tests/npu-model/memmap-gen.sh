#!/bin/bash
# memmap suite: what tsl-gen writes from targets/memmap.def builds wherever it
# is used (C host, C++, RV32 C and assembly, Verilator -Wall, yosys, GNU ld),
# bad descriptions are refused with a located message, and no hand-written
# copy of a base address, CSR number or trap cause is left in (or comes back
# to) the files that take them from the generated outputs.
#   tests/npu-model/memmap-gen.sh TSL_GEN MEMMAP.def GEN_DIR
set -u
tool=$1 def=$2 gen=$3
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

# ---- the outputs are current and build -------------------------------------
mkdir -p "$tmp/gen"
check "tsl-gen memmap writes what build/gen holds" bash -c \
  "'$tool' memmap '$def' '$tmp/gen' && for f in tessel_memmap.h tessel_memmap_pkg.sv tessel_memmap.ld; do cmp '$tmp/gen/'\$f '$gen/'\$f; done"

printf '#include "tessel_memmap.h"\nunsigned f(void) { return TSL_UART_TXDATA + TSL_CSR_MSTATUS + TSL_CAUSE_IRQ_TIMER + TSL_MSTATUS_MIE; }\n' >"$tmp/use.c"
check "C host header" gcc -std=c11 -Wall -Wextra -Wshadow -Werror -pedantic -I"$gen" -c "$tmp/use.c" -o "$tmp/use.o"
cp "$tmp/use.c" "$tmp/use.cc"
check "C++ header" g++ -std=c++17 -Wall -Wextra -Werror -I"$gen" -c "$tmp/use.cc" -o "$tmp/use-cc.o"
printf '#include "tessel_memmap.h"\n  li t0, TSL_TIMER_MTIMECMP\n  li t1, TSL_CAUSE_IRQ_EXTERNAL\n  csrr t2, TSL_CSR_MCAUSE\n' >"$tmp/use.S"
if command -v riscv64-unknown-elf-gcc >/dev/null; then
  check "C rv32 freestanding header" riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 -std=c11 \
    -ffreestanding -Wall -Wextra -Wshadow -Werror -I"$gen" -c "$tmp/use.c" -o "$tmp/use-rv.o"
  check "assembly header" riscv64-unknown-elf-gcc -march=rv32im_zicsr -mabi=ilp32 -I"$gen" \
    -c "$tmp/use.S" -o "$tmp/use-S.o"
  # the linker symbols place sections where the map says
  printf 'INCLUDE tessel_memmap.ld\nMEMORY { d (rw) : ORIGIN = __tessel_dmem_base, LENGTH = 4K }\nSECTIONS { .data : { *(.data) } > d }\n' >"$tmp/t.ld"
  printf 'int x = 1;\n' >"$tmp/x.c"
  check "linker symbols (GNU ld)" bash -c "riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 -c '$tmp/x.c' -o '$tmp/x.o' && \
    riscv64-unknown-elf-ld -m elf32lriscv -L'$gen' -T '$tmp/t.ld' '$tmp/x.o' -o '$tmp/x.elf' && \
    riscv64-unknown-elf-nm '$tmp/x.elf' | grep -qi '^10000000 D x\$'"
fi
check "verilator -Wall package" verilator --lint-only -Wall --Mdir "$tmp/vl" \
  "$gen/tessel_memmap_pkg.sv" tests/npu-model/memmap_lint_top.sv
check "yosys package" yosys -q -p "read_verilog -sv $gen/tessel_memmap_pkg.sv \
  tests/npu-model/memmap_lint_top.sv; synth -top memmap_lint_top"

# ---- bad descriptions: a located message, a non-zero exit, no crash ----------
rejects() { # rejects NAME PATTERN CONTENT
  printf '%b' "$3" >"$tmp/bad.def"
  "$tool" memmap "$tmp/bad.def" "$tmp/gen" >"$tmp/out" 2>&1
  local rc=$?
  if [[ $rc -ne 0 && $rc -lt 128 ]] && grep -q -- "$2" "$tmp/out"; then
    pass=$((pass + 1)); echo "ok   rejects $1"
  else
    fail=$((fail + 1)); echo "FAIL rejects $1 (rc $rc)"; sed 's/^/     /' "$tmp/out"
  fi
}
hdr='memmap 1\n'
rejects "an empty file" "bad.def:0: empty memory-map description" ''
rejects "a missing header line" "bad.def:1: the first line must be 'memmap VERSION'" 'region A 0x0 4K "a"\n'
rejects "an unknown line kind" "bad.def:2: unknown line kind 'regoin'" "${hdr}"'regoin A 0x0 4K "a"\n'
rejects "a size that is not a power of two" "bad.def:2: region 'A': size is not a power of two" "${hdr}"'region A 0x0 3K "a"\n'
rejects "a misaligned base" "bad.def:2: region 'A': base not aligned to its size" "${hdr}"'region A 0x800 4K "a"\n'
rejects "overlapping regions" "bad.def:3: region 'B' overlaps 'A'" "${hdr}"'region A 0x0 64K "a"\nregion B 0x1000 4K "b"\n'
rejects "a number past 32 bits" "bad.def:2: '0x100000000' is not a 32-bit number" "${hdr}"'region A 0x100000000 4K "a"\n'
rejects "a register of an unknown region" "bad.def:3: unknown region 'B'" "${hdr}"'region A 0x0 4K "a"\nreg B X 0x0 R "x"\n'
rejects "a register outside its region" "bad.def:3: register 'X': offset not word-aligned inside region A" "${hdr}"'region A 0x0 4K "a"\nreg A X 0x1000 R "x"\n'
rejects "a bad access" "bad.def:3: access 'RX' is not R, W or RW" "${hdr}"'region A 0x0 4K "a"\nreg A X 0x0 RX "x"\n'
rejects "a bit field before any register" "bad.def:2: 'rf' must follow a reg line" "${hdr}"'rf B 0 1 "b"\n'
rejects "overlapping bit fields" "bad.def:5: bit field 'C' overlaps 'B'" "${hdr}"'region A 0x0 4K "a"\nreg A X 0x0 R "x"\nrf B 0 4 "b"\nrf C 3 1 "c"\n'
rejects "a CSR number used twice" "bad.def:3: CSR 'B' reuses a name or number" "${hdr}"'csr A 0x300 RW "a"\ncsr B 0x300 RW "b"\n'
rejects "a writable read-only CSR" "bad.def:2: CSR 'A': numbers 0xC00..0xFFF are read-only" "${hdr}"'csr A 0xF11 RW "a"\n'
rejects "a CSR past 12 bits" "bad.def:2: CSR 'A': number past 12 bits" "${hdr}"'csr A 0x1000 RW "a"\n'
rejects "a cause code used twice" "bad.def:3: cause 'B' reuses a name or code" "${hdr}"'cause A 2 "a"\ncause B 2 "b"\n'
rejects "a cause past 31" "bad.def:2: irq 'A': code past 31" "${hdr}"'irq A 32 "a"\n'
rejects "too many words" "bad.def:2: too many words" "${hdr}"'region A 0x0 4K x y z w "a"\n'
mkdir -p "$tmp/dir.def"
"$tool" memmap "$tmp/dir.def" "$tmp/gen" >"$tmp/out" 2>&1
rc=$?
if [[ $rc -ne 0 && $rc -lt 128 ]] && grep -q "dir.def" "$tmp/out"; then
  pass=$((pass + 1)); echo "ok   rejects a directory"
else fail=$((fail + 1)); echo "FAIL rejects a directory (rc $rc)"; cat "$tmp/out"; fi

# ---- no hand-written copy --------------------------------------------------
# The files that take the map from the generated outputs. Tests that check the
# spec's numbers on purpose (firmware/tests, sim/iss/iss_test.c, tests/) keep
# their literals and are not listed.
users=(firmware/base/*.h firmware/base/*.c firmware/npu/*.h firmware/npu/*.c
       firmware/runtime/*.h firmware/runtime/*.c sim/iss/bus.[ch] sim/iss/hart.[ch]
       sim/iss/csr.[ch] sim/main.cpp tests/isa/isa_test.h
       rtl-model/soc/*.sv rtl-model/core/*.sv linker/*.ld)
# copies FILE...: the lines of FILE... that write a number the map owns.
copies() {
  local bases="" csrs="" k name num rest v h
  while read -r k name num rest; do
    case $k in
    region) # every base but 0 (everywhere) and DRAM's 0x80000000 (also bit 31)
      v=$((num)); ((v == 0 || v == 0x80000000)) && continue
      h=$(printf %08x "$v"); bases+="${bases:+|}0x$h|h${h:0:4}_${h:4}|h$h" ;;
    csr) csrs+="${csrs:+|}$(printf %03x $((num)))" ;;
    esac
  done <"$def"
  local end='([^0-9a-f]|$)'
  # (a message that names an address, inside a string, is prose: not counted)
  grep -HniE "($bases)$end" "$@" | grep -viE "\"[^\"]*($bases)[^\"]*\""
  # DRAM's base where it is defined as an address (ld ORIGIN, a #define, a constant)
  grep -HniE "(ORIGIN *= *0x80000000|define +[a-z_]+ +0x80000000|= *0x80000000u?(ll)?;|= *32'h8000_?0000;)" "$@"
  # CSR numbers (12'hNNN in SV, 0xNNN defined in C) and misa's value
  grep -HniE "(12'h($csrs)$end|(=|define [a-z_]+) *0x0*($csrs)$end|0x40001100|4000_1100)" "$@"
  # trap causes: interrupt mcause values, exception codes given names by hand
  grep -HniE "(0x8000000[7b]|h8000_000[7b]|localparam[^=]*cause[a-z]* *=|cause_[a-z_]+ *= *[0-9])" "$@"
  # a switch over mcause values (the trap handler's names) by number
  local f
  for f in $(grep -l "switch (mcause)" "$@" 2>/dev/null); do grep -HniE "case [0-9]+u?:" "$f"; done
}
check "no hand-written map numbers in the files that use the map" bash -c \
  "$(declare -f copies); def='$def'; out=\$(copies ${users[*]}); [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
# the check itself finds each kind of copy (so it cannot pass by matching nothing)
printf '#define UART_BASE 0x20000000u\n' >"$tmp/c1.h"
printf "  localparam logic [11:0] CsrMie = 12'h304;\n" >"$tmp/c2.sv"
printf '  dram (rwx) : ORIGIN = 0x80000000, LENGTH = 4M\n' >"$tmp/c3.ld"
printf "  localparam logic [31:0] CauseIllegal = 32'd2;\n" >"$tmp/c4.sv"
printf '  case 0x8000000Bu: return "x";\n' >"$tmp/c5.c"
printf '  switch (mcause) {\n  case 5: return "load access fault";\n' >"$tmp/c6.c"
printf '  uint32_t dev = 0x20001000u + 8;\n' >"$tmp/c7.c"
for f in c1.h c2.sv c3.ld c4.sv c5.c c6.c c7.c; do
  check "a planted copy is found ($f)" bash -c "$(declare -f copies); def='$def'; [ -n \"\$(copies $tmp/$f)\" ]"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
