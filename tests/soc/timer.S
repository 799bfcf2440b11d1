/* timer.S: mtime advances; a machine-timer interrupt arrives after
 * mtimecmp is set, wakes the core from wfi, and reports mcause 0x80000007
 * with mtime >= mtimecmp. */
#include "soc_test.h"
TEST_START
  la   t0, handler
  csrw mtvec, t0
  li   s0, TIMER_BASE
  lw   t2, 0(s0)
  nop
  lw   t3, 0(s0)
  bne  t2, t3, 1f
  EXIT_WITH(1)                  /* mtime did not move */
1:
  /* No interrupt may be pending with the reset mtimecmp (all ones). */
  csrr t0, mip
  andi t0, t0, 0x80
  beqz t0, 2f
  EXIT_WITH(2)
2:
  lw   s1, 0(s0)
  addi s1, s1, 300              /* mtime is small: no carry into MTIMEH */
  li   t0, -1
  sw   t0, 8(s0)                /* low first to all ones: no false match */
  sw   zero, 12(s0)
  sw   s1, 8(s0)
  lw   t0, 8(s0)
  beq  t0, s1, 3f
  EXIT_WITH(3)                  /* MTIMECMP does not read back */
3:
  li   t0, 0x80
  csrs mie, t0                  /* MTIE */
  li   t0, 0x8
  csrs mstatus, t0              /* MIE */
  wfi
  li   t2, 100000
4:
  addi t2, t2, -1
  bnez t2, 4b
  EXIT_WITH(4)                  /* no interrupt */

handler:
  csrr t0, mcause
  li   t1, 0x80000007
  beq  t0, t1, 5f
  EXIT_WITH(5)
5:
  lw   t0, 0(s0)
  bgeu t0, s1, 6f
  EXIT_WITH(6)                  /* taken before mtime reached mtimecmp */
6:
  EXIT_WITH(0)
