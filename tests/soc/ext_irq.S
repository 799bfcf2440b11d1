/* ext_irq.S: the simulation-control EXT_IRQ hook raises the machine
 * external interrupt (mcause 0x8000000b); clearing it drops mip.MEIP. */
#include "soc_test.h"
TEST_START
  la   t0, handler
  csrw mtvec, t0
  li   s0, SIMCTL_BASE
  lw   t0, SIM_EXT_IRQ(s0)
  beqz t0, 1f
  EXIT_WITH(1)                  /* not clear after reset */
1:
  li   t0, 0x800
  csrs mie, t0                  /* MEIE */
  li   t0, 0x8
  csrs mstatus, t0              /* MIE */
  li   t0, 1
  sw   t0, SIM_EXT_IRQ(s0)
  li   t2, 1000
2:
  addi t2, t2, -1
  bnez t2, 2b
  EXIT_WITH(2)                  /* no interrupt */

handler:
  csrr t0, mcause
  li   t1, 0x8000000b
  beq  t0, t1, 3f
  EXIT_WITH(3)
3:
  lw   t0, SIM_EXT_IRQ(s0)
  li   t1, 1
  beq  t0, t1, 4f
  EXIT_WITH(4)                  /* EXT_IRQ does not read back */
4:
  sw   zero, SIM_EXT_IRQ(s0)
  li   t2, 10
5:
  addi t2, t2, -1
  bnez t2, 5b
  csrr t0, mip
  li   t1, 0x800
  and  t0, t0, t1
  beqz t0, 6f
  EXIT_WITH(5)                  /* MEIP still pending */
6:
  EXIT_WITH(0)
