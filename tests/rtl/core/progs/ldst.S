// Loads and stores of every width at every legal offset, sign and zero
// extension, a load used by the very next instruction (and as a store's data
// and address), store-then-load, and x0 as a load destination.
#include "tb.h"
TB_START
  la s0, data
  li t0, 0x80ff7f01
  sw t0, 0(s0)
  lb t1, 0(s0)
  CHECK(1, t1, 0x01)
  lb t1, 1(s0)
  CHECK(2, t1, 0x7f)
  lb t1, 2(s0)
  CHECK(3, t1, -1)
  lb t1, 3(s0)
  CHECK(4, t1, 0xffffff80)
  lbu t1, 2(s0)
  CHECK(5, t1, 0xff)
  lbu t1, 3(s0)
  CHECK(6, t1, 0x80)
  lh t1, 0(s0)
  CHECK(7, t1, 0x7f01)
  lh t1, 2(s0)
  CHECK(8, t1, 0xffff80ff)
  lhu t1, 2(s0)
  CHECK(9, t1, 0x80ff)
  lw t1, 0(s0)
  CHECK(10, t1, 0x80ff7f01)
  // byte stores into each lane
  sw zero, 4(s0)
  li t0, 0x11
  sb t0, 4(s0)
  li t0, 0x122
  sb t0, 5(s0)
  li t0, 0x33
  sb t0, 6(s0)
  li t0, 0xff44
  sb t0, 7(s0)
  lw t1, 4(s0)
  CHECK(11, t1, 0x44332211)
  // half stores
  li t0, 0xabcd1234
  sh t0, 8(s0)
  li t0, 0x5678
  sh t0, 10(s0)
  lw t1, 8(s0)
  CHECK(12, t1, 0x56781234)
  // negative offsets
  addi s1, s0, 16
  li t0, 0xcafef00d
  sw t0, -4(s1)
  lw t1, 12(s0)
  CHECK(13, t1, 0xcafef00d)
  lhu t1, -2(s1)
  CHECK(14, t1, 0xcafe)
  // load-use: the next instruction uses the loaded value
  lw t2, 0(s0)
  addi t2, t2, 1
  CHECK(15, t2, 0x80ff7f02)
  lw t2, 12(s0)
  sw t2, 16(s0)       // load result as store data
  lw t3, 16(s0)
  CHECK(16, t3, 0xcafef00d)
  la t4, ptr
  lw t5, 0(t4)        // load result as the next address
  lw t5, 0(t5)
  CHECK(17, t5, 0x12345678)
  // store then load the same word, back to back
  li a0, 77
  sw a0, 20(s0)
  lw a1, 20(s0)
  CHECK(18, a1, 77)
  sb a0, 21(s0)
  lw a1, 20(s0)
  CHECK(19, a1, 0x4d4d)
  // load into x0 has no effect
  lw zero, 0(s0)
  CHECK(20, zero, 0)
  // a chain of loads through a linked list
  la a2, node0
  lw a2, 0(a2)
  lw a2, 0(a2)
  lw a2, 4(a2)
  CHECK(21, a2, 3)
  TB_PASS

  .data
  .balign 4
data: .space 32
ptr:  .word target
target: .word 0x12345678
node0: .word node1, 1
node1: .word node2, 2
node2: .word 0, 3
