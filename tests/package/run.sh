#!/bin/bash
# The `package` suite: the cmocka unit tests, then tool-level checks, each
# counted as one test. Ends with "N passed, N failed".
#   tests/package/run.sh OBJ_DIR TESSEL GEN_DIR
# (environment: RV_CC, RV_CFLAGS, RV_ARCH_FLAGS, RV_OBJCOPY, RV_NM from mk/common.mk)
set -u
obj=$1 tessel=$2 gen=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$obj/run
rm -rf "$tmp" && mkdir -p "$tmp"
. "$here/../lib/check.sh"

# 1. cmocka unit tests: their own counts.
"$obj/test-package" >"$tmp/unit.log" 2>&1
cat "$tmp/unit.log"
up=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$tmp/unit.log")
uf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$tmp/unit.log")
pass=$((pass + ${up:-0})); fail=$((fail + ${uf:-0}))
[[ -z "$up" && -z "$uf" ]] && ko "cmocka unit tests did not report"

# 2. The sample package, inspected.
"$obj/make-sample" "$tmp/sample.tpkg" || { ko "make-sample"; echo "$pass passed, $fail failed"; exit 1; }
t inspect-filecheck bash -c "'$tessel' inspect '$tmp/sample.tpkg' | FileCheck-14 --match-full-lines=false '$here/inspect.check'"

# 3. Bad packages: exit 1 and one clear line.
size=$(stat -c %s "$tmp/sample.tpkg")
cp "$tmp/sample.tpkg" "$tmp/magic.tpkg"; printf 'X' | dd of="$tmp/magic.tpkg" bs=1 seek=0 conv=notrunc status=none
head -c $((size - 1)) "$tmp/sample.tpkg" >"$tmp/trunc.tpkg"
cp "$tmp/sample.tpkg" "$tmp/hcrc.tpkg"; printf '\x07' | dd of="$tmp/hcrc.tpkg" bs=1 seek=20 conv=notrunc status=none
cp "$tmp/sample.tpkg" "$tmp/wcrc.tpkg"; printf '\xAA' | dd of="$tmp/wcrc.tpkg" bs=1 seek=$((size - 30)) conv=notrunc status=none
: >"$tmp/empty.tpkg"
for c in magic trunc hcrc wcrc empty nonexistent; do
  t "inspect-bad-$c" bash -c "'$tessel' inspect '$tmp/$c.tpkg' >/dev/null 2>'$tmp/$c.err'; [ \$? -eq 1 ] && [ \$(wc -l <'$tmp/$c.err') -eq 1 ] && FileCheck-14 --check-prefix=$(echo $c | tr a-z A-Z | sed 's/NONEXISTENT/NOFILE/') '$here/bad_inspect.check' <'$tmp/$c.err'"
done
t inspect-usage bash -c "'$tessel' inspect; [ \$? -eq 2 ]"
t inspect-extra-arg bash -c "'$tessel' inspect a b; [ \$? -eq 2 ]"

# 4. --emit-c: compiles for rv32 and its section holds exactly the package.
t emit-c bash -c "'$tessel' emit-c '$tmp/sample.tpkg' -o '$tmp/pkg.c' --symbol model_pkg &&
  $RV_CC $RV_CFLAGS -c '$tmp/pkg.c' -o '$tmp/pkg.o' &&
  $RV_OBJCOPY -O binary --only-section=.tessel_pkg '$tmp/pkg.o' '$tmp/pkg.bin' &&
  cmp '$tmp/pkg.bin' '$tmp/sample.tpkg' &&
  ${RV_CC%gcc}readelf -S -W '$tmp/pkg.o' | grep -E '\\.tessel_pkg +PROGBITS .* 64\$' &&
  $RV_NM '$tmp/pkg.o' | grep -q ' R model_pkg_size\$'"
# (the kernels the package names, tfw_k_*, are the firmware's: given as 0 here)
t emit-c-place bash -c "defs=\$($RV_NM -u '$tmp/pkg.o' | awk '\$2 ~ /^tfw_k_/ { printf \" -Wl,--defsym=%s=0\", \$2 }') &&
  $RV_CC $RV_ARCH_FLAGS -nostdlib \$defs -nostartfiles -Wl,-e,0 -Wl,--no-warn-rwx-segments -T '$here/place.ld' '$tmp/pkg.o' -o '$tmp/pkg.elf' &&
  a=\$($RV_NM '$tmp/pkg.elf' | sed -n 's/^\\([0-9a-f]*\\) R model_pkg\$/\\1/p') && echo \$a && [ \$((0x\$a % 64)) -eq 0 ] && [ \$((0x\$a)) -ge \$((0x80000000)) ]"
t emit-c-host bash -c "'$tessel' emit-c '$tmp/sample.tpkg' -o '$tmp/pkg_host.c' && gcc -std=c11 -Wall -Wextra -Werror -c '$tmp/pkg_host.c' -o '$tmp/pkg_host.o'"
# --kernels-only: the same kernel list (undefined tfw_k_* references), no package bytes.
t emit-c-kernels-only bash -c "'$tessel' emit-c '$tmp/sample.tpkg' -o '$tmp/kern.c' --kernels-only &&
  $RV_CC $RV_CFLAGS -c '$tmp/kern.c' -o '$tmp/kern.o' &&
  ! ${RV_CC%gcc}readelf -S -W '$tmp/kern.o' | grep -q ' \\.tessel_pkg ' &&
  $RV_NM -u '$tmp/kern.o' >'$tmp/kern.u' && $RV_NM -u '$tmp/pkg.o' >'$tmp/pkg.u' &&
  cmp '$tmp/kern.u' '$tmp/pkg.u' && grep -q tfw_k_ '$tmp/kern.u'"
t emit-c-bad-symbol bash -c "'$tessel' emit-c '$tmp/sample.tpkg' -o '$tmp/x.c' --symbol '1bad'; [ \$? -eq 2 ]"
t emit-c-bad-package bash -c "'$tessel' emit-c '$tmp/hcrc.tpkg' -o '$tmp/x.c' 2>'$tmp/x.err'; [ \$? -eq 1 ] && grep -q HEADER_CRC '$tmp/x.err'"
t emit-c-no-output bash -c "'$tessel' emit-c '$tmp/sample.tpkg'; [ \$? -eq 2 ]"

# 5. The reader is freestanding: its RV32 build (shared/rules.mk, -ffreestanding)
#    needs nothing beyond what GCC may call in any freestanding code.
t freestanding-rv32 bash -c "[ -s '$RV_SHARED_OBJ/tpkg_check.o' ] && [ -s '$RV_SHARED_OBJ/crc32.o' ] && ! $RV_NM -u '$RV_SHARED_OBJ/tpkg_check.o' '$RV_SHARED_OBJ/crc32.o' | grep -vE '^\$|:\$| (crc32|crc32_update|memset|memcpy|memmove|memcmp)\$'"

# 6. What is not a package is refused at once (a FIFO used to block in
#    open(), /dev/zero to be read up to 1 GiB); emit-c never overwrites its
#    package, and a failed write leaves the old file and no temporary.
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
for c in "fifo:$tmp/fifo:not a regular file" "zero:/dev/zero:not a regular file" "folder:$tmp:is a folder"; do
  IFS=: read -r n f why <<<"$c"
  t "inspect-$n" bash -c "timeout 20 '$tessel' inspect '$f' 2>'$tmp/$n.err'; [ \$? -eq 1 ] && grep -q '$f: $why' '$tmp/$n.err'"
  t "emit-c-$n" bash -c "timeout 20 '$tessel' emit-c '$f' -o '$tmp/$n.c' 2>'$tmp/$n.err'; [ \$? -eq 1 ] && grep -q '$f: $why' '$tmp/$n.err' && [ ! -e '$tmp/$n.c' ]"
done
# A 2 GiB (sparse) file is refused by its size, not read 1 GiB first.
truncate -s 2G "$tmp/huge.tpkg"
t inspect-huge bash -c "'$tessel' inspect '$tmp/huge.tpkg' 2>'$tmp/huge.err'; [ \$? -eq 1 ] && grep -q 'huge.tpkg: 2147483648 bytes, larger than 1073741824: not a package' '$tmp/huge.err'"
rm -f "$tmp/huge.tpkg"
cp "$tmp/sample.tpkg" "$tmp/own.tpkg"
t emit-c-over-its-package bash -c "'$tessel' emit-c '$tmp/own.tpkg' -o '$tmp/own.tpkg' 2>'$tmp/own.err'; [ \$? -eq 2 ] &&
  grep -q 'is also an input (the package)' '$tmp/own.err' && cmp '$tmp/own.tpkg' '$tmp/sample.tpkg'"
echo old >"$tmp/keep.c"
t emit-c-failed-write-keeps-old bash -c "(trap '' XFSZ; ulimit -f 4; '$tessel' emit-c '$tmp/sample.tpkg' -o '$tmp/keep.c') 2>'$tmp/keep.err'; [ \$? -eq 1 ] &&
  grep -q 'keep.c: write failed: File too large' '$tmp/keep.err' && [ \"\$(cat '$tmp/keep.c')\" = old ] && ! ls '$tmp' | grep -q 'keep.c.tmp'"

# 7. The validator rule list (docs/package-format.md section 4) names a test
#    for every rule: each m_*/test_* it names is in test_package.c (or, for
#    the run-time checks, in tests/runtime/test_fallback.c), each fw:NAME a
#    firmware-rejects check of tests/run/run.sh.
sed -n '/^### Validator rules/,/^Not checked/p' "$here/../../docs/package-format.md" | grep '^| [0-9]' >"$tmp/rules.txt"
untested=$(awk -F'|' '$7 !~ /[a-z]/ { print $2 }' "$tmp/rules.txt")
if [ "$(wc -l <"$tmp/rules.txt")" -ge 60 ] && [ -z "$untested" ]; then ok rule-list-complete
else ko "rule-list-complete (rules without a test:$untested)"; fi
missing=
for name in $(grep -o '`\(m\|test\)_[a-z0-9_]*`' "$tmp/rules.txt" | tr -d '`' | sort -u); do
  grep -q "\b$name\b" "$here/test_package.c" "$here/../runtime/test_fallback.c" || missing="$missing $name"
done
for name in $(grep -o 'fw:[a-z0-9-]*' "$tmp/rules.txt" | sed 's/^fw://' | sort -u); do
  grep -q "^rej $name " "$here/../run/run.sh" || missing="$missing fw:$name"
done
if [ -z "$missing" ]; then ok rule-list-tests-exist; else ko "rule-list-tests-exist (not found:$missing)"; fi

# 8. The table of fallback ops in docs/package-format.md is shared/tfw_ops.def's.
t ops-table-matches-def bash "$here/ops_table.sh"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
