// Branches and jumps: every branch taken and not taken (signed and unsigned
// edge values), jal/jalr link values, jalr clearing bit 0, jalr with rs1 = rd,
// a branch depending on the previous instruction, and a loop.
#include "tb.h"
#define BR_TAKEN(n, op, a, b)  li t0, a; li t1, b; op t0, t1, 1f; li x30, n; j tb_fail; 1:
#define BR_NOT(n, op, a, b)    li t0, a; li t1, b; op t0, t1, 1f; j 2f; 1: li x30, n; j tb_fail; 2:
TB_START
  BR_TAKEN(1, beq, 5, 5)
  BR_NOT(2, beq, 5, 6)
  BR_TAKEN(3, bne, 5, 6)
  BR_NOT(4, bne, -1, -1)
  BR_TAKEN(5, blt, -1, 0)
  BR_NOT(6, blt, 0, -1)
  BR_NOT(7, blt, 3, 3)
  BR_TAKEN(8, bge, 3, 3)
  BR_TAKEN(9, bge, 0, 0x80000000)
  BR_NOT(10, bge, 0x80000000, 0x7fffffff)
  BR_TAKEN(11, bltu, 0, -1)
  BR_NOT(12, bltu, -1, 0)
  BR_NOT(13, bltu, 7, 7)
  BR_TAKEN(14, bgeu, -1, 0)
  BR_TAKEN(15, bgeu, 7, 7)
  BR_NOT(16, bgeu, 0x7fffffff, 0x80000000)
  // jal link
  jal ra, 1f
jal_ret:
  j 2f
1:
  la t0, jal_ret
  beq ra, t0, 2f
  li x30, 17
  j tb_fail
2:
  // jalr with offset and bit 0 set: target bit 0 is cleared
  la t0, jr_target
  addi t0, t0, -3
  jalr ra, 4(t0)     // (t0 + 4) = jr_target + 1 -> jr_target
jr_back:
  li x30, 18
  j tb_fail
jr_target:
  la t1, jr_back
  bne ra, t1, fail19
  // jalr with rd == rs1
  la t2, jr2
  jalr t2, 0(t2)
jr2_ret:
  li x30, 20
  j tb_fail
jr2:
  la t1, jr2_ret
  bne t2, t1, fail21
  // dependent branch right after the ALU op that feeds it
  li a0, 10
  li a1, 0
loop:
  addi a1, a1, 3
  addi a0, a0, -1
  bnez a0, loop
  CHECK(22, a1, 30)
  // jal x0 (plain jump) writes nothing
  li a2, 1
  j 1f
  li a2, 2
1:
  CHECK(23, a2, 1)
  // call/ret through a function, nested
  li a0, 5
  call f_twice
  CHECK(24, a0, 20)
  // backward taken branch to just before itself, then forward
  li a3, 0
1:
  addi a3, a3, 1
  li t0, 4
  blt a3, t0, 1b
  CHECK(25, a3, 4)
  // a backward branch that is never taken (fetch predicts backward taken)
  li a4, 0
1:
  addi a4, a4, 1
  bltz a4, 1b
  CHECK(26, a4, 1)
  // a one-instruction loop: the branch is its own target
  li a5, 3
1:
  addi a5, a5, -1
  bnez a5, 1b
  li a5, 3
  li a6, 0
2:
  addi a6, a6, 1
  blt a6, a5, 2b
  CHECK(27, a6, 3)
  // jal backward then forward again (both predicted)
  li a7, 0
  j 4f
3:
  addi a7, a7, 1
  j 5f
4:
  addi a7, a7, 10
  j 3b
5:
  CHECK(28, a7, 11)
  TB_PASS
fail19: li x30, 19; j tb_fail
fail21: li x30, 21; j tb_fail
f_twice:
  addi sp, sp, -16
  sw ra, 12(sp)
  call f_double
  call f_double
  lw ra, 12(sp)
  addi sp, sp, 16
  ret
f_double:
  add a0, a0, a0
  ret
