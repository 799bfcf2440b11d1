/* jump.S: jal and jalr: link value, targets, x0 link, rd == rs1, bypass. */
#include "isa_test.h"

TEST_BEGIN
  /* jal: link register holds pc+4, forward and backward targets. */
  li TESTNUM, 2
  li x14, 0
  jal x13, 1f
2:
  j fail
1:
  la x12, 2b
  bne x12, x13, fail

  li TESTNUM, 3            /* backward jump */
  j 4f
3:
  li x14, 33
  j 5f
4:
  jal x0, 3b
  j fail
5:
  li x7, 33
  bne x14, x7, fail

  li TESTNUM, 4            /* jal x0 does not write x0 */
  jal x0, 1f
  j fail
1:
  bnez x0, fail

  li TESTNUM, 5            /* link used by the very next instruction */
  jal x13, 1f
2:
  j fail
1:
  addi x15, x13, 0
  la x12, 2b
  bne x12, x15, fail

  /* jalr: target = (rs1 + imm) & ~1, link pc+4. */
  li TESTNUM, 10
  la x11, 1f
  jalr x13, 0(x11)
2:
  j fail
1:
  la x12, 2b
  bne x12, x13, fail

  li TESTNUM, 11           /* positive and negative offsets */
  la x11, 1f
  addi x11, x11, -16
  jalr x13, 16(x11)
  j fail
1:
  la x11, 1f
  addi x11, x11, 20
  jalr x0, -20(x11)
  j fail
1:

  li TESTNUM, 12           /* bit 0 of the target is cleared */
  la x11, 1f
  addi x11, x11, 1
  jalr x13, 0(x11)
  j fail
1:

  li TESTNUM, 13           /* rd == rs1: the old rs1 value is the target */
  la x11, 1f
  jalr x11, 0(x11)
2:
  j fail
1:
  la x12, 2b
  bne x11, x12, fail

  li TESTNUM, 14           /* rs1 written by the previous instruction */
  la x12, 1f
  addi x11, x12, 0
  jalr x13, 0(x11)
  j fail
1:

  li TESTNUM, 15           /* call/return pattern */
  li x14, 0
  jal ra, 1f
  li x7, 7
  bne x14, x7, fail
  j 2f
1:
  li x14, 7
  ret
2:
TEST_END
