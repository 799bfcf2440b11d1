/* exceptions.S: synchronous traps: ecall (11), ebreak (3), illegal
 * instructions (2, mtval = instruction), misaligned load/store (4/6, mtval =
 * address), misaligned jump target (0, mtval = target, the jump does not
 * retire), access faults on unmapped addresses (load 5, store 7, fetch 1),
 * and the mstatus MIE/MPIE dance on trap entry and mret. */
#include "isa_test.h"

TEST_BEGIN
  SET_TRAP_HANDLER(expect)
  li s3, 0

  TEST_TRAP(2, 11, 1: ecall)
  li TESTNUM, 3
  la x11, 1b
  bne s1, x11, fail          /* mepc = the ecall itself */
  TEST_TRAP(4, 3, 1: ebreak)
  li TESTNUM, 5
  la x11, 1b
  bne s1, x11, fail

  /* Illegal encodings. */
  TEST_TRAP(10, 2, 1: .word 0x00000000)
  li TESTNUM, 11
  bnez s2, fail              /* mtval = the instruction word (0) */
  TEST_TRAP(12, 2, 1: .word 0xffffffff)
  li TESTNUM, 13
  li x7, 0xffffffff
  bne s2, x7, fail
  TEST_TRAP(14, 2, .word 0x40001033)   /* sll with funct7 0x22 */
  TEST_TRAP(15, 2, .word 0x02001013)   /* slli with shamt[5] set (RV64 only) */
  TEST_TRAP(16, 2, .word 0x40001013)   /* slli with funct7 0x22 */
  TEST_TRAP(17, 2, .word 0x00002063)   /* branch funct3 2 */
  TEST_TRAP(18, 2, .word 0x00003003)   /* ld */
  TEST_TRAP(19, 2, .word 0x00003023)   /* sd */
  TEST_TRAP(20, 2, .word 0x00006003)   /* lwu */
  TEST_TRAP(21, 2, .word 0x00004073)   /* system funct3 4 */
  TEST_TRAP(22, 2, .word 0x10200073)   /* sret: no S-mode */
  TEST_TRAP(23, 2, .word 0x00001067)   /* jalr funct3 1 */
  TEST_TRAP(24, 2, .word 0x0000201b)   /* RV64 OP-IMM-32 */
  TEST_TRAP(25, 2, .word 0x0000202f)   /* A extension */
  TEST_TRAP(26, 2, .word 0x00002007)   /* flw */
  TEST_TRAP(27, 2, .word 0x00000013 & 0xfffffffc) /* 16-bit (compressed) space */
  TEST_TRAP(28, 2, .word 0x04000033)   /* R-type funct7 2 */
  TEST_TRAP(29, 2, .word 0x0000200f)   /* misc-mem funct3 2 */
  /* An illegal instruction does not write rd. */
  TEST_CASE(30, x14, 5, li x14, 5; .word 0x40001733)

  /* Misaligned loads and stores: mtval = effective address, no rd write. */
  la x22, data
  TEST_TRAP(40, 4, lw x14, 1(x22))
  li TESTNUM, 41
  addi x11, x22, 1
  bne s2, x11, fail
  TEST_TRAP(42, 4, lw x14, 2(x22))
  TEST_TRAP(43, 4, lh x14, 1(x22))
  TEST_TRAP(44, 4, lhu x14, 3(x22))
  TEST_TRAP(45, 6, sw x0, 3(x22))
  li TESTNUM, 46
  addi x11, x22, 3
  bne s2, x11, fail
  TEST_TRAP(47, 6, sh x0, 1(x22))
  TEST_NO_TRAP(48, lh x14, 2(x22); lbu x14, 3(x22); sh x0, 2(x22); sb x0, 1(x22))
  TEST_CASE(49, x14, 9, li x14, 9; lw x14, 1(x22))
  /* A misaligned store writes nothing. */
  TEST_CASE(50, x14, 0x11223344, li x11, 0x11223344; sw x11, 4(x22); li x12, -1; sw x12, 5(x22); lw x14, 4(x22))

  /* Access faults: unmapped addresses (gaps of the memory map). */
  TEST_TRAP(60, 5, li x11, 0x50000000; lw x14, 0(x11))
  li TESTNUM, 61
  li x7, 0x50000000
  bne s2, x7, fail
  TEST_TRAP(62, 7, li x11, 0x50000010; sw x0, 0(x11))
  li TESTNUM, 63
  li x7, 0x50000010
  bne s2, x7, fail
  TEST_TRAP(64, 5, li x11, 0x60000000; lw x14, 0(x11))
  TEST_TRAP(65, 7, li x11, 0x70000000; sb x0, 0(x11))
  TEST_TRAP(66, 5, li x11, 0xfffffffc; lw x14, 0(x11))
  TEST_CASE(67, x14, 3, li x14, 3; li x11, 0x50000000; lw x14, 0(x11))

  /* Fetch from an unmapped address: mcause 1, mtval = mepc = the address. */
  li TESTNUM, 70
  li s0, -1
  la s3, 1f
  li x11, 0x50000000
  jalr x11
1:
  li x7, 1
  bne s0, x7, fail
  li x7, 0x50000000
  bne s1, x7, fail
  bne s2, x7, fail

  /* Misaligned jump targets trap on the jump; rd is not written. */
  li TESTNUM, 80
  li s0, -1
  li x13, 123
  la x11, 1f
  addi x11, x11, 2
  jalr x13, 0(x11)
2:
  li x7, 0
  bne s0, x7, fail
  la x12, 2b
  addi x12, x12, -4
  bne s1, x12, fail          /* mepc = the jalr */
  addi x11, x12, 0
  la x12, 1f
  addi x12, x12, 2
  bne s2, x12, fail          /* mtval = the target */
  li x7, 123
  bne x13, x7, fail
  j 3f
1:
  j fail
3:
  TEST_TRAP(81, 0, .word 0x0020006f)   /* jal x0, +2 */
  TEST_TRAP(82, 0, .word 0x00000163)   /* beq x0, x0, +2 (taken) */
  TEST_NO_TRAP(83, .word 0x00001163)   /* bne x0, x0, +2 (not taken) */
  /* jalr clears only bit 0: target+1 is fine, target+2 is not. */
  TEST_NO_TRAP(84, la x11, 1f; addi x11, x11, 1; jalr x0, 0(x11); 1:)

  /* Trap entry: MPIE <- MIE, MIE <- 0; mret: MIE <- MPIE, MPIE <- 1. */
  li TESTNUM, 90
  csrw mie, x0               /* no interrupt can fire */
  csrsi mstatus, 8
  ecall
  li x7, 0x1880              /* in the handler: MIE = 0, MPIE = 1 */
  bne s4, x7, fail
  csrr x14, mstatus
  li x7, 0x1888              /* after mret: MIE = 1 again */
  bne x14, x7, fail
  csrw mstatus, x0
  li TESTNUM, 91
  csrw mstatus, x0           /* MPIE = 0 */
  la x11, 1f
  csrw mepc, x11
  mret
  j fail
1:
  csrr x14, mstatus
  li x7, 0x1880               /* MIE = 0, MPIE = 1 */
  bne x14, x7, fail
  li TESTNUM, 92
  li x11, 0x80
  csrw mstatus, x11          /* MPIE = 1, MIE = 0 */
  la x11, 1f
  csrw mepc, x11
  mret
  j fail
1:
  csrr x14, mstatus
  li x7, 0x1888              /* MIE = 1, MPIE = 1 */
  bne x14, x7, fail
  csrw mstatus, x0
  /* A trap inside the handler's reach: mepc written by software is where
   * mret goes, and the mepc low bits read 0. */
  TEST_CASE(93, x14, 0x80000100, li x11, 0x80000103; csrw mepc, x11; csrr x14, mepc)
  j pass

EXPECT_TRAP_HANDLER(expect)
TEST_END

TEST_DATA_BEGIN
data: .word 0, 0, 0, 0
TEST_DATA_END
