// Synchronous traps: ecall, ebreak, illegal encodings, misaligned jump and
// branch targets, misaligned loads/stores, access faults on load, store and
// fetch (the bench answers TB_FAULT with a bus error), mstatus on entry, mret.
// A trapping instruction must not write its destination or memory.
#include "tb.h"
TB_START
  USE_RECORDING_HANDLER
  // ecall / ebreak: mepc = the instruction, mtval = 0
  li t0, 0x8
  csrw mstatus, t0      // MIE=1 before the trap (mie is 0: no interrupt)
e1:
  ecall
  EXPECT_TRAP(1, 1, 11)
  CHECK_LA(2, s9, e1)
  CHECK(3, s11, 0)
  CHECK(4, s8, 0x1880)  // in the handler: MIE=0, MPIE=1, MPP=3
  csrr t0, mstatus
  CHECK(5, t0, 0x1888)  // mret restored MIE from MPIE and set MPIE
  csrw mstatus, zero
e2:
  ebreak
  EXPECT_TRAP(6, 2, 3)
  CHECK_LA(7, s9, e2)
  CHECK(8, s11, 0)
  // illegal encodings, mtval = the word
  .word 0x00000000
  EXPECT_TRAP(9, 3, 2)
  CHECK(10, s11, 0)
  .word 0xffffffff
  EXPECT_TRAP(11, 4, 2)
  CHECK(12, s11, 0xffffffff)
  .word 0x00010001      // compressed encodings are not implemented
  EXPECT_TRAP(13, 5, 2)
  .word 0x04000033      // OP with funct7 = 0000010
  EXPECT_TRAP(14, 6, 2)
  .word 0x40001033      // sll with funct7 = 0100000
  EXPECT_TRAP(15, 7, 2)
  .word 0x10200073      // sret: no S mode
  EXPECT_TRAP(16, 8, 2)
  .word 0x00003003      // load funct3 = 3 (ld) is not RV32
  EXPECT_TRAP(17, 9, 2)
  .word 0x00003023      // sd
  EXPECT_TRAP(18, 10, 2)
  .word 0x00002063      // branch funct3 = 2
  EXPECT_TRAP(19, 11, 2)
  .word 0x00001067      // jalr funct3 = 1
  EXPECT_TRAP(20, 12, 2)
  .word 0x02001013      // slli with a shamt bit 5 (RV64)
  EXPECT_TRAP(21, 13, 2)
  .word 0x0000400f      // misc-mem funct3 = 4
  EXPECT_TRAP(22, 14, 2)
  .word 0x00004073      // system funct3 = 4
  EXPECT_TRAP(23, 15, 2)
  .word 0x00100013 + (7 << 7) // addi x7, x0, 1 : legal, control
  CHECK(24, s7, 15)
  CHECK(25, t2, 1)
  // misaligned jump targets: mtval = target, rd not written, mepc = the jump
  li s7, 0
  li ra, 0x1111
  la t0, j1
  addi t0, t0, 2
j0:
  jalr ra, 0(t0)
  EXPECT_TRAP(26, 1, 0)
  CHECK_LA(27, s11, j1 + 2)
  CHECK_LA(28, s9, j0)
  CHECK(29, ra, 0x1111)
  j j1
j1:
  nop
j2:
  .word 0x00000363      // beq x0, x0, .+6: taken, misaligned
  EXPECT_TRAP(30, 2, 0)
  CHECK_LA(31, s11, j2 + 6)
  .word 0x00001363      // bne x0, x0, .+6: not taken, no trap
  CHECK(32, s7, 2)
j3:
  .word 0x006000ef      // jal ra, .+6
  EXPECT_TRAP(33, 3, 0)
  CHECK_LA(34, s11, j3 + 6)
  CHECK(35, ra, 0x1111)
  // backward targets: fetch predicts these taken, but not to a misaligned target
j4:
  .word 0xfe000de3      // beq x0, x0, .-6
  EXPECT_TRAP(66, 4, 0)
  CHECK_LA(67, s11, j4 - 6)
j5:
  .word 0xffbff0ef      // jal ra, .-6
  EXPECT_TRAP(68, 5, 0)
  CHECK_LA(69, s11, j5 - 6)
  CHECK(70, ra, 0x1111)
  // misaligned loads and stores: mtval = address, no register or memory write
  la s0, data
  li s7, 0
  li t1, 0x77
  lw t1, 1(s0)
  EXPECT_TRAP(36, 1, 4)
  addi t0, s0, 1
  beq s11, t0, 1f
  li x30, 37
  j tb_fail
1:
  CHECK(38, t1, 0x77)
  lh t1, 3(s0)
  EXPECT_TRAP(39, 2, 4)
  lhu t1, 1(s0)
  EXPECT_TRAP(40, 3, 4)
  lw t1, 2(s0)
  EXPECT_TRAP(41, 4, 4)
  lh t1, 2(s0)          // aligned half: fine
  lb t1, 3(s0)
  CHECK(42, s7, 4)
  li t0, -1
  sw t0, 2(s0)
  EXPECT_TRAP(43, 5, 6)
  sh t0, 1(s0)
  EXPECT_TRAP(44, 6, 6)
  sw t0, 3(s0)
  EXPECT_TRAP(45, 7, 6)
  lw t1, 0(s0)
  CHECK(46, t1, 0x04030201)
  lw t1, 4(s0)
  CHECK(47, t1, 0x08070605)
  // access faults from the bus: mtval = address, mepc = the access
  li s7, 0
  li s1, TB_FAULT
  li t1, 0x99
a1:
  lw t1, 0(s1)
  EXPECT_TRAP(48, 1, 5)
  CHECK(49, s11, TB_FAULT)
  CHECK_LA(50, s9, a1)
  CHECK(51, t1, 0x99)
  lbu t1, 3(s1)
  EXPECT_TRAP(52, 2, 5)
  CHECK(53, s11, TB_FAULT + 3)
a2:
  sw t1, 8(s1)
  EXPECT_TRAP(54, 3, 7)
  CHECK(55, s11, TB_FAULT + 8)
  CHECK_LA(56, s9, a2)
  sb t1, 5(s1)
  EXPECT_TRAP(57, 4, 7)
  // a load fault followed by dependent instructions: they must not run
  li t2, 1
  lw t2, 0(s1)
  addi t2, t2, 1
  addi t2, t2, 1
  EXPECT_TRAP(58, 5, 5)
  CHECK(59, t2, 3)
  // a load fault right before a backward branch that fetch predicted taken
  // but that falls through when the handler returns to it
  j 2f
1:
  li x30, 71
  j tb_fail
2:
  lw t2, 0(s1)
  bne zero, zero, 1b
  EXPECT_TRAP(72, 6, 5)
  // fetch fault: mcause 1, mtval = mepc = the address
  li s7, 0
  jalr ra, 0(s1)
  EXPECT_TRAP(60, 1, 1)
  CHECK(61, s11, TB_FAULT)
  CHECK(62, s9, TB_FAULT)
  // mret to an address set in mepc
  la t0, after_mret
  csrw mepc, t0
  li t0, 0x80
  csrw mstatus, t0      // MPIE=1, MIE=0
  mret
  li x30, 63
  j tb_fail
after_mret:
  csrr t0, mstatus
  CHECK(64, t0, 0x1888)
  csrw mstatus, zero
  TB_PASS
  TB_RECORDING_HANDLER
  .data
  .balign 4
data: .byte 1, 2, 3, 4, 5, 6, 7, 8
