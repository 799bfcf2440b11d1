// fence.i and self-modifying code: a store rewrites an instruction that is
// already fetched (right after the fence.i), one further ahead, and a loop
// body patched on every iteration; fetches after fence.i must see the stores.
#include "tb.h"
#define ADDI_A0(imm) (0x00000513 | ((imm) << 20))   /* addi a0, zero, imm */
TB_START
  // the instruction right after fence.i is patched
  la t1, p1
  li t0, ADDI_A0(2)
  sw t0, 0(t1)
  fence.i
p1:
  addi a0, zero, 1
  CHECK(1, a0, 2)
  // a patched instruction further ahead, reached by a jump
  la t1, p2
  li t0, ADDI_A0(3)
  sw t0, 0(t1)
  fence.i
  j p2
  nop
p2:
  addi a0, zero, 1
  CHECK(2, a0, 3)
  // patch a loop body each iteration: sum of 0..5
  li s0, 0
  li s1, 0
  la s2, p3
loop:
  slli t0, s1, 20
  li t1, ADDI_A0(0)
  or t0, t0, t1
  sw t0, 0(s2)
  fence.i
p3:
  addi a0, zero, 99
  add s0, s0, a0
  addi s1, s1, 1
  li t2, 6
  blt s1, t2, loop
  CHECK(3, s0, 15)
  // a halfword store patches only the immediate's upper half
  la t1, p4
  li t0, 0x0070         // imm[11:4] lives in bits 31:20; bits 31:16 = 0x0070
  sh t0, 2(t1)
  fence.i
p4:
  addi a0, zero, 1
  CHECK(4, a0, 7)
  TB_PASS
