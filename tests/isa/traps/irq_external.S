/* irq_external.S: the external interrupt through simulation control's
 * EXT_IRQ test hook: mip.MEIP follows EXT_IRQ bit 0, masking by mie.MEIE
 * and mstatus.MIE, wfi wakes with MIE = 0 without trapping, mcause
 * 0x8000000B, mepc is where execution resumes, and the external interrupt
 * wins over a pending timer interrupt. */
#include "isa_test.h"

#define WAIT_IRQS(count)                                                 \
  li t2, 1000;                                                           \
1: li t0, count;                                                         \
  beq s5, t0, 2f;                                                        \
  addi t2, t2, -1;                                                       \
  bnez t2, 1b;                                                           \
  j fail;                                                                \
2:
#define SPIN nop; nop; nop; nop; nop; nop; nop; nop; nop; nop
#define RAISE li t1, EXT_IRQ_ADDR; li t0, 1; sw t0, 0(t1)

TEST_BEGIN
  SET_TRAP_HANDLER(irq_handler)
  li s5, 0
  li s9, 0
  csrw mie, x0
  li t1, MTIMECMP_ADDR
  li t0, -1
  sw t0, 4(t1)
  sw t0, 0(t1)
  TEST_CASE(2, x14, 0, csrr x14, mip; srli x14, x14, 11; andi x14, x14, 1)
  TEST_CASE(3, x14, 0, li t1, EXT_IRQ_ADDR; lw x14, 0(t1))

  RAISE
  SPIN
  TEST_CASE(4, x14, 1, li t1, EXT_IRQ_ADDR; lw x14, 0(t1))
  TEST_CASE(5, x14, 1, csrr x14, mip; srli x14, x14, 11; andi x14, x14, 1)
  TEST_CASE(6, s5, 0, csrsi mstatus, 8; SPIN; csrci mstatus, 8)     /* MEIE = 0 */
  TEST_CASE(7, s5, 0, li t0, 0x800; csrs mie, t0; SPIN)             /* MIE = 0 */
  TEST_CASE(8, s5, 0, wfi; nop)                                     /* wakes, no trap */
  li TESTNUM, 9
  csrsi mstatus, 8
  WAIT_IRQS(1)
  TEST_CASE(10, s6, 0x8000000b, nop)
  TEST_CASE(11, x14, 1, srli x14, s7, 11; andi x14, x14, 1)
  TEST_CASE(12, x14, 0, li t1, EXT_IRQ_ADDR; lw x14, 0(t1))         /* handler cleared it */

  /* mepc is the next instruction to run: interrupt a run of distinct
   * instructions and check the handler resumed where it was taken. */
  li TESTNUM, 13
  li x14, 0
  RAISE
  addi x14, x14, 1
  addi x14, x14, 1
  addi x14, x14, 1
  addi x14, x14, 1
  addi x14, x14, 1
  addi x14, x14, 1
  addi x14, x14, 1
  addi x14, x14, 1
  WAIT_IRQS(2)
  li x7, 8
  bne x14, x7, fail                      /* none skipped or repeated */

  /* Timer and external pending together: external first. */
  li TESTNUM, 14
  csrci mstatus, 8
  li t0, 0x880
  csrw mie, t0
  li t1, MTIMECMP_ADDR
  sw x0, 0(t1)
  sw x0, 4(t1)
  RAISE
  SPIN
  li s9, 0
  csrsi mstatus, 8
  WAIT_IRQS(4)
  li x7, 0x8000000b
  bne s9, x7, fail                       /* first interrupt seen */
  li x7, 0x80000007
  bne s6, x7, fail                       /* then the timer */

  csrci mstatus, 8
  csrw mie, x0
  j pass

  .align 2
irq_handler:
  csrr s6, mcause
  csrr s7, mip
  bgez s6, fail
  bnez s9, 6f
  mv s9, s6                              /* remember the first cause */
6: li t0, 0x8000000b
  bne s6, t0, 7f
  li t1, EXT_IRQ_ADDR
  sw x0, 0(t1)
5: csrr t0, mip
  srli t0, t0, 11
  andi t0, t0, 1
  bnez t0, 5b
  addi s5, s5, 1
  mret
7: li t1, MTIMECMP_ADDR                  /* the timer: switch it off */
  li t0, -1
  sw t0, 4(t1)
  sw t0, 0(t1)
8: csrr t0, mip
  andi t0, t0, 0x80
  bnez t0, 8b
  addi s5, s5, 1
  mret
TEST_END
