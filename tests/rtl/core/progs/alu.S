// ALU: register and immediate forms, lui/auipc, shifts by 0 and 31, signed and
// unsigned compares, x0 as destination, and back-to-back dependent chains
// (each result used by the very next instruction: forwarding).
#include "tb.h"
TB_START
  li a0, 0x7fffffff
  addi a1, a0, 1
  CHECK(1, a1, 0x80000000)
  li a2, -1
  add a3, a2, a2
  CHECK(2, a3, -2)
  sub a4, zero, a0
  CHECK(3, a4, 0x80000001)
  li t0, 0x0f0f0f0f
  li t1, 0x00ff00ff
  and t2, t0, t1
  CHECK(4, t2, 0x000f000f)
  or t2, t0, t1
  CHECK(5, t2, 0x0fff0fff)
  xor t2, t0, t1
  CHECK(6, t2, 0x0ff00ff0)
  andi t2, t0, -16
  CHECK(7, t2, 0x0f0f0f00)
  ori t2, t0, 0x7f0
  CHECK(8, t2, 0x0f0f0fff)
  xori t2, t0, -1
  CHECK(9, t2, 0xf0f0f0f0)
  li t0, 0x80000001
  slli t1, t0, 31
  CHECK(10, t1, 0x80000000)
  srli t1, t0, 31
  CHECK(11, t1, 1)
  srai t1, t0, 31
  CHECK(12, t1, -1)
  srai t1, t0, 0
  CHECK(13, t1, 0x80000001)
  li t2, 33          // shift amounts use the low 5 bits only
  sll t1, t0, t2
  CHECK(14, t1, 0x00000002)
  srl t1, t0, t2
  CHECK(15, t1, 0x40000000)
  sra t1, t0, t2
  CHECK(16, t1, 0xc0000000)
  li t0, -5
  li t1, 3
  slt t2, t0, t1
  CHECK(17, t2, 1)
  sltu t2, t0, t1
  CHECK(18, t2, 0)
  slti t2, t0, -4
  CHECK(19, t2, 1)
  sltiu t2, t1, -1   // immediate sign-extends, then compares unsigned
  CHECK(20, t2, 1)
  slt t2, t1, t1
  CHECK(21, t2, 0)
  lui t0, 0xfffff
  CHECK(22, t0, 0xfffff000)
  auipc t1, 0
  auipc t2, 1
  sub t2, t2, t1
  CHECK(23, t2, 0x1004)
  // x0 is never written
  addi zero, zero, 5
  li t0, 7
  add zero, t0, t0
  CHECK(24, zero, 0)
  add t1, zero, t0
  CHECK(25, t1, 7)
  // dependency chain, each instruction needs the previous result
  li t0, 1
  add t0, t0, t0
  add t0, t0, t0
  slli t0, t0, 3
  addi t0, t0, -1
  xor t0, t0, t0
  addi t0, t0, 9
  sub t0, zero, t0
  CHECK(26, t0, -9)
  // rs1 and rs2 both forwarded
  li a0, 3
  add a1, a0, a0
  add a2, a1, a1
  CHECK(27, a2, 12)
  TB_PASS
