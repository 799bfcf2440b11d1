#!/bin/bash
# npu-model-cli suite: tessel-npu-model assembles, disassembles and runs
# streams, and rejects bad input with a message and exit status 2 (1 for a
# stream that ends with an NPU error).
#   tests/npu-model/cli-test.sh TESSEL_NPU_MODEL
set -u
tool=$1
dir=tests/npu-model/streams
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/     /' "$tmp/out" | head -20; }

# expect NAME STATUS PATTERN COMMAND...: exit status and a line matching PATTERN.
# Under timeout: a tool that hangs (it once did on a FIFO) fails with 124.
expect() {
  local name=$1 want=$2 pat=$3
  shift 3
  timeout 60 "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [[ $rc -eq $want ]] && { [[ -z $pat ]] || grep -qE -- "$pat" "$tmp/out"; }; then ok "$name"; else echo "     (exit $rc)" >>"$tmp/out"; bad "$name"; fi
}

expect "asm copy.s" 0 "" "$tool" asm "$dir/copy.s" "$tmp/copy.bin"
expect "disasm" 0 "^6 +STORE src_mem=1" "$tool" disasm "$tmp/copy.bin"
# disassembly reassembles to the same bytes
"$tool" disasm "$tmp/copy.bin" | sed -E 's/^[0-9]+ +//' >"$tmp/re.s"
"$tool" asm "$tmp/re.s" "$tmp/re.bin" >"$tmp/out" 2>&1 && cmp -s "$tmp/copy.bin" "$tmp/re.bin" && ok "round trip" || bad "round trip"

# DRAM: 12 bytes of input 1..12, then room for the output and the MARK record
printf '\001\002\003\004\005\006\007\010\011\012\013\374' >"$tmp/d.bin"
expect "run copy" 0 "^ok npu4" "$tool" run --target npu4 --stream "$tmp/copy.bin" --dram "$tmp/d.bin" \
  --dram-size 256 --out "$tmp/o.bin"
expect "run counters" 0 "^counter DRAM_RD_BYTES 12$" "$tool" run --target npu4 --stream "$tmp/copy.bin" \
  --dram "$tmp/d.bin" --dram-size 256
expect "run mark" 0 "^mark 1 kernel 5 " "$tool" run --target npu4 --stream "$tmp/copy.bin" --dram "$tmp/d.bin" \
  --dram-size 256
expect "run profile" 0 "^ok" "$tool" run --target npu4 --stream "$tmp/copy.bin" --dram "$tmp/d.bin" \
  --dram-size 256 --profile "$tmp/p.json"
grep -q '"format": "tessel-profile"' "$tmp/p.json" && grep -q '"target": "npu4"' "$tmp/p.json" \
  && ok "profile json" || { cp "$tmp/p.json" "$tmp/out"; bad "profile json"; }
# doubled values (clamped: 2*-4 = -8 = 0xf8), at offset 16
got=$(od -An -tx1 -j16 -N12 "$tmp/o.bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
[[ "$got" == "02 04 06 08 0a 0c 0e 10 12 14 16 f8" ]] && ok "output bytes" || { echo "got: $got" >"$tmp/out"; bad "output bytes"; }

"$tool" asm "$dir/deadlock.s" "$tmp/dl.bin" >/dev/null 2>&1
expect "deadlock exits 1" 1 "^error DEADLOCK: command 1 \(ENOP\)" "$tool" run --stream "$tmp/dl.bin"
printf '\377\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$tmp/op.bin"
expect "bad opcode exits 1" 1 "^error BAD_OPCODE: command 0" "$tool" run --stream "$tmp/op.bin"
expect "window" 1 "DRAM_RANGE" "$tool" run --target npu4 --stream "$tmp/copy.bin" --dram-size 20

# the worked example of docs/isa.md section 10 assembles and runs as written
sed -n '/^## 10\./,/^## 11\./p' docs/isa.md | grep '^    [A-Z]' >"$tmp/doc.s"
expect "doc example asm" 0 "" "$tool" asm "$tmp/doc.s" "$tmp/doc.bin"
expect "doc example run" 0 "^counter MACS 9437184$" "$tool" run --target npu8 --stream "$tmp/doc.bin" --dram-size 70208
expect "doc example timing only" 0 "^counter MACS 9437184$" "$tool" run --stream "$tmp/doc.bin" --dram-size 70208 \
  --timing-only
[[ $(wc -l <"$tmp/doc.s") -eq 15 ]] && ok "doc example has 15 commands" || bad "doc example has 15 commands"

# bad input: exit 2 with a message naming the problem
printf 'LOAD n0=3\nFROB x=1\n' >"$tmp/b1.s"
expect "unknown command" 2 "b1.s:2: unknown command 'FROB'" "$tool" asm "$tmp/b1.s" "$tmp/x.bin"
printf 'LOAD n0=99\n' >"$tmp/b2.s"
expect "field range" 2 "b2.s:1: field n0 = 99 does not fit 5 unsigned bits" "$tool" asm "$tmp/b2.s" "$tmp/x.bin"
printf 'LOAD foo=1\n' >"$tmp/b3.s"
expect "unknown field" 2 "LOAD has no field 'foo'" "$tool" asm "$tmp/b3.s" "$tmp/x.bin"
printf 'LOAD n0=zz\n' >"$tmp/b4.s"
expect "not a number" 2 "'zz' is not a number" "$tool" asm "$tmp/b4.s" "$tmp/x.bin"
printf 'LOAD n0=3 n0=4\n' >"$tmp/b5.s"
expect "field twice" 2 "b5.s:1: field n0 given twice" "$tool" asm "$tmp/b5.s" "$tmp/x.bin"
printf 'LOAD n0=3\0 n0=4\n' >"$tmp/b6.s"
expect "NUL byte" 2 "b6.s:1: NUL byte" "$tool" asm "$tmp/b6.s" "$tmp/x.bin"
expect "directory as source" 2 "Is a directory" "$tool" asm "$tmp" "$tmp/x.bin"
# a FIFO (no writer, no reader) is refused at once, naming it; open() blocked forever
mkfifo "$tmp/fifo"
expect "fifo as asm source" 2 "fifo: not a regular file" timeout 10 "$tool" asm "$tmp/fifo" "$tmp/x.bin"
expect "fifo as asm output" 2 "fifo: cannot write: a FIFO with no reader" timeout 10 "$tool" asm "$dir/copy.s" "$tmp/fifo"
expect "fifo as disasm input" 2 "fifo: not a regular file" timeout 10 "$tool" disasm "$tmp/fifo"
expect "fifo as --stream" 2 "fifo: not a regular file" timeout 10 "$tool" run --stream "$tmp/fifo"
printf "; %05000d\nLOAD n0=3\n" 0 >"$tmp/b7.s"
expect "line too long" 2 "b7.s:1: line longer than 4096" "$tool" asm "$tmp/b7.s" "$tmp/x.bin"
# a comment longer than the old 1024-byte line buffer stays a comment (its
# tail once assembled as a LOAD)
printf "; %01021d LOAD n0=5\n" 0 >"$tmp/c1.s"
expect "long comment" 0 "" "$tool" asm "$tmp/c1.s" "$tmp/c1.bin"
[[ -f $tmp/c1.bin && ! -s $tmp/c1.bin ]] && ok "long comment assembles nothing" || bad "long comment assembles nothing"
# three nested 65535-iteration loops: 2.8e14 dispatches, stopped by --max-dispatch with a named error
printf 'LOOP count=65535 body=3\nLOOP count=65535 body=2\nLOOP count=65535 body=1\nNOP\n' >"$tmp/loops.s"
"$tool" asm "$tmp/loops.s" "$tmp/loops.bin" >/dev/null 2>&1
expect "dispatch limit" 1 "^error LIMIT: command 3 \(NOP\): more than 1000 commands dispatched" \
  "$tool" run --stream "$tmp/loops.bin" --max-dispatch 1000
# the same stream with no option: the default budget ends it in well under a
# second (it ran 100 s at the old default of 2^32 commands, hours with heavy
# bodies), naming the option that raises it
expect "default dispatch limit" 1 "^error LIMIT: command 3 \(NOP\): more than 16777216 commands dispatched \(the dispatch limit\)" \
  timeout 20 "$tool" run --stream "$tmp/loops.bin"
expect "default limit names its option" 1 "stopped by the model's work budget; --max-dispatch N raises it" \
  timeout 20 "$tool" run --stream "$tmp/loops.bin"
expect "cycle limit" 1 "^error LIMIT: command [0-9]+ \(NOP\): more than 5000 simulated cycles \(the cycle limit\)" \
  timeout 20 "$tool" run --stream "$tmp/loops.bin" --max-dispatch 1000000 --max-cycles 5000
expect "cycle limit names its option" 1 "--max-cycles N raises it" \
  timeout 20 "$tool" run --stream "$tmp/loops.bin" --max-dispatch 1000000 --max-cycles 5000
expect "bad --max-cycles" 2 "--max-cycles '0' is not a positive number" "$tool" run --stream "$tmp/loops.bin" --max-cycles 0
expect "fifo as --dram" 2 "fifo: not a regular file" timeout 10 "$tool" run --stream "$tmp/copy.bin" --dram "$tmp/fifo"
expect "fifo as --out" 2 "fifo: cannot write: a FIFO with no reader" \
  timeout 10 "$tool" run --target npu4 --stream "$tmp/copy.bin" --dram "$tmp/d.bin" --dram-size 256 --out "$tmp/fifo"
expect "fifo as --profile" 2 "fifo: cannot write: a FIFO with no reader" \
  timeout 10 "$tool" run --target npu4 --stream "$tmp/copy.bin" --dram "$tmp/d.bin" --dram-size 256 --profile "$tmp/fifo"
head -c 15 "$tmp/copy.bin" >"$tmp/short.bin"
expect "truncated stream" 2 "15 bytes is not a whole number" "$tool" run --stream "$tmp/short.bin"
expect "unknown target" 2 "unknown target 'npu7'" "$tool" run --target npu7 --stream "$tmp/copy.bin"
expect "missing file" 2 "nope.bin: No such file" "$tool" run --stream "$tmp/nope.bin"
expect "bad size" 2 "--dram-size 'x'" "$tool" run --stream "$tmp/copy.bin" --dram-size x
expect "dram larger than size" 2 "larger than --dram-size" "$tool" run --stream "$tmp/copy.bin" --dram "$tmp/d.bin" --dram-size 4
expect "unknown option" 2 "unknown option '--frob'" "$tool" run --frob 1
expect "usage" 2 "usage:" "$tool"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
