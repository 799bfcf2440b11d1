/* branch.S: beq bne blt bge bltu bgeu, taken and not taken, signed and
 * unsigned edges, backward branches. */
#include "isa_test.h"

TEST_BEGIN
  TEST_BR_TAKEN(2, beq, 0, 0)
  TEST_BR_TAKEN(3, beq, 1, 1)
  TEST_BR_TAKEN(4, beq, -1, -1)
  TEST_BR_NOT_TAKEN(5, beq, 0, 1)
  TEST_BR_NOT_TAKEN(6, beq, 1, 0)
  TEST_BR_NOT_TAKEN(7, beq, 0x80000000, 0)

  TEST_BR_TAKEN(10, bne, 0, 1)
  TEST_BR_TAKEN(11, bne, 1, 0)
  TEST_BR_TAKEN(12, bne, -1, 1)
  TEST_BR_NOT_TAKEN(13, bne, 0, 0)
  TEST_BR_NOT_TAKEN(14, bne, -1, -1)

  TEST_BR_TAKEN(20, blt, 0, 1)
  TEST_BR_TAKEN(21, blt, -1, 1)
  TEST_BR_TAKEN(22, blt, -2, -1)
  TEST_BR_TAKEN(23, blt, 0x80000000, 0x7fffffff)
  TEST_BR_NOT_TAKEN(24, blt, 1, 0)
  TEST_BR_NOT_TAKEN(25, blt, 1, -1)
  TEST_BR_NOT_TAKEN(26, blt, 0, 0)
  TEST_BR_NOT_TAKEN(27, blt, 0x7fffffff, 0x80000000)

  TEST_BR_TAKEN(30, bge, 0, 0)
  TEST_BR_TAKEN(31, bge, 1, 0)
  TEST_BR_TAKEN(32, bge, -1, -2)
  TEST_BR_TAKEN(33, bge, 0x7fffffff, 0x80000000)
  TEST_BR_NOT_TAKEN(34, bge, 0, 1)
  TEST_BR_NOT_TAKEN(35, bge, -1, 1)
  TEST_BR_NOT_TAKEN(36, bge, 0x80000000, 0x7fffffff)

  TEST_BR_TAKEN(40, bltu, 0, 1)
  TEST_BR_TAKEN(41, bltu, 0xfffffffe, 0xffffffff)
  TEST_BR_TAKEN(42, bltu, 0x7fffffff, 0x80000000)
  TEST_BR_NOT_TAKEN(43, bltu, 1, 0)
  TEST_BR_NOT_TAKEN(44, bltu, 0xffffffff, 1)
  TEST_BR_NOT_TAKEN(45, bltu, 0, 0)
  TEST_BR_NOT_TAKEN(46, bltu, 0x80000000, 0x7fffffff)

  TEST_BR_TAKEN(50, bgeu, 0, 0)
  TEST_BR_TAKEN(51, bgeu, 1, 0)
  TEST_BR_TAKEN(52, bgeu, 0xffffffff, 1)
  TEST_BR_TAKEN(53, bgeu, 0x80000000, 0x7fffffff)
  TEST_BR_NOT_TAKEN(54, bgeu, 0, 1)
  TEST_BR_NOT_TAKEN(55, bgeu, 0x7fffffff, 0x80000000)

  /* A loop with a backward branch runs exactly 5 times. */
  li TESTNUM, 60
  li x11, 5
  li x14, 0
1:
  addi x14, x14, 1
  addi x11, x11, -1
  bnez x11, 1b
  li x7, 5
  bne x14, x7, fail

  /* Instructions after a taken branch must not execute. */
  li TESTNUM, 61
  li x14, 0
  beq x0, x0, 1f
  addi x14, x14, 1
  addi x14, x14, 1
1:
  bnez x14, fail

  /* Compare against x0 with the operand produced by a load just before. */
  li TESTNUM, 62
  la x11, word
  lw x12, 0(x11)
  beqz x12, fail
  bltz x12, 1f
  j fail
1:
TEST_END

TEST_DATA_BEGIN
word: .word 0x80000001
TEST_DATA_END
