/* dram_rw.S: words, halves and bytes written to DRAM read back right,
 * including a load straight after a store to the same word, and DRAM is
 * zero where nothing was written. Exit code = the failing check. */
#include "soc_test.h"
TEST_START
  li   s0, 0x80100000           /* 1 MiB into DRAM */
  li   s1, 256                  /* words */
  /* Fill with a pattern, reading each word back at once. */
  mv   a0, s0
  li   a1, 0x9e3779b9
  mv   a2, s1
1:
  sw   a1, 0(a0)
  lw   t0, 0(a0)
  beq  t0, a1, 2f
  EXIT_WITH(2)
2:
  addi a0, a0, 4
  li   t1, 0x01000193
  mul  a1, a1, t1
  addi a2, a2, -1
  bnez a2, 1b
  /* Check the whole pattern again. */
  mv   a0, s0
  li   a1, 0x9e3779b9
  mv   a2, s1
3:
  lw   t0, 0(a0)
  beq  t0, a1, 4f
  EXIT_WITH(3)
4:
  addi a0, a0, 4
  li   t1, 0x01000193
  mul  a1, a1, t1
  addi a2, a2, -1
  bnez a2, 3b
  /* Bytes and halves into one word, both lanes of a 64-bit beat. */
  li   a0, 0x80200004
  li   t0, 0x11
  sb   t0, 0(a0)
  li   t0, 0x22
  sb   t0, 1(a0)
  li   t0, 0x4433
  sh   t0, 2(a0)
  lw   t1, 0(a0)
  li   t2, 0x44332211
  beq  t1, t2, 5f
  EXIT_WITH(5)
5:
  lw   t1, -4(a0)               /* the other lane: untouched, so zero */
  beqz t1, 6f
  EXIT_WITH(6)
6:
  lbu  t1, 3(a0)
  li   t2, 0x44
  beq  t1, t2, 7f
  EXIT_WITH(7)
7:
  lh   t1, 2(a0)
  li   t2, 0x4433
  beq  t1, t2, 8f
  EXIT_WITH(8)
8:
  EXIT_WITH(0)
