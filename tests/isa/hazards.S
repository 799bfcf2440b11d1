/* hazards.S: dependency chains a pipeline must get right: results used by
 * the next instruction across unit boundaries (mul/div -> ALU -> branch),
 * load -> branch, load -> store data, load -> jalr base, csr -> ALU,
 * store -> load of the same bytes, and long chains with no gaps. */
#include "isa_test.h"

TEST_BEGIN
  /* A chain of 8 dependent ALU ops, no gaps. */
  li TESTNUM, 2
  li x11, 1
  add x11, x11, x11
  slli x11, x11, 3
  addi x11, x11, -1
  xor x11, x11, x11
  addi x11, x11, 7
  sub x11, x0, x11
  srai x11, x11, 1
  andi x11, x11, 0xff
  li x7, 0xfc
  bne x11, x7, fail

  /* mul -> mul -> div -> rem, each feeding the next. */
  li TESTNUM, 3
  li x11, 7
  li x12, 6
  mul x13, x11, x12
  mul x13, x13, x13
  div x14, x13, x11
  rem x15, x14, x12
  add x15, x15, x14
  li x7, 252
  bne x15, x7, fail

  /* mulh result straight into a branch. */
  li TESTNUM, 4
  li x11, 0x80000000
  mulh x13, x11, x11
  beqz x13, fail

  /* div result straight into a load address. */
  li TESTNUM, 5
  la x11, words
  li x12, 8
  li x13, 2
  divu x12, x12, x13
  add x11, x11, x12
  lw x14, 0(x11)
  li x7, 0x22222222
  bne x14, x7, fail

  /* load -> branch on the loaded value */
  li TESTNUM, 6
  la x11, words
  lw x12, 8(x11)
  bne x12, x0, 1f
  j fail
1:

  /* load -> store data, then load it back */
  li TESTNUM, 7
  la x11, words
  lw x12, 0(x11)
  sw x12, 12(x11)
  lw x14, 12(x11)
  li x7, 0x11111111
  bne x14, x7, fail

  /* load -> jalr base */
  li TESTNUM, 8
  la x11, target_ptr
  lw x12, 0(x11)
  jalr x13, 0(x12)
  j fail
target:

  /* csr read -> ALU, ALU -> csr write -> csr read */
  li TESTNUM, 9
  li x11, 40
  csrw mscratch, x11
  csrr x12, mscratch
  addi x12, x12, 2
  csrw mscratch, x12
  csrr x14, mscratch
  li x7, 42
  bne x14, x7, fail

  /* store then load of the same word, narrower and wider */
  li TESTNUM, 10
  la x11, scratch
  li x12, 0x89abcdef
  sw x12, 0(x11)
  lbu x13, 1(x11)
  li x7, 0xcd
  bne x13, x7, fail
  li TESTNUM, 11
  sb x0, 2(x11)
  lw x14, 0(x11)
  li x7, 0x8900cdef
  bne x14, x7, fail
  li TESTNUM, 12
  sh x12, 2(x11)
  lh x14, 2(x11)
  li x7, 0xffffcdef
  bne x14, x7, fail

  /* back-to-back loads into the same register, last one wins */
  li TESTNUM, 13
  la x11, words
  lw x14, 0(x11)
  lw x14, 4(x11)
  lw x14, 8(x11)
  li x7, 0x33333333
  bne x14, x7, fail

  /* two writers of one register in a row: the younger value is read */
  li TESTNUM, 14
  li x14, 1
  li x14, 2
  add x15, x14, x14
  li x7, 4
  bne x15, x7, fail

  /* load-use on both sources */
  li TESTNUM, 15
  la x11, words
  lw x12, 0(x11)
  lw x13, 4(x11)
  add x14, x12, x13
  li x7, 0x33333333
  bne x14, x7, fail

  /* jal link used at once */
  li TESTNUM, 16
  jal x12, 1f
1:
  auipc x13, 0
  sub x14, x13, x12
  bnez x14, fail

  /* taken branch must cancel the following instructions' writes */
  li TESTNUM, 17
  li x14, 5
  beq x0, x0, 1f
  li x14, 6
  mul x14, x14, x14
  lw x14, 0(x0)
1:
  li x7, 5
  bne x14, x7, fail

  /* division after a taken branch over another division */
  li TESTNUM, 18
  li x11, 100
  li x12, 7
  bne x11, x12, 1f
  div x14, x11, x0
1:
  div x14, x11, x12
  li x7, 14
  bne x14, x7, fail
TEST_END

TEST_DATA_BEGIN
words: .word 0x11111111, 0x22222222, 0x33333333, 0
target_ptr: .word target
scratch: .word 0
TEST_DATA_END
