/* irq_timer.S: machine-timer interrupt: mip.MTIP follows MTIME >= MTIMECMP,
 * masking by mie.MTIE and mstatus.MIE, wfi wakes with MIE = 0 without
 * trapping, the interrupt is taken with mcause 0x80000007, and a timer set
 * in the future fires through wfi. */
#include "isa_test.h"

/* Handler state: s5 interrupt count, s6 last mcause, s7 mip at entry. */
#define CLEAR_TIMER                                                      \
  li t1, MTIMECMP_ADDR; li t0, -1; sw t0, 4(t1); sw t0, 0(t1)
/* Wait (bounded) until the handler has run `count` times. */
#define WAIT_IRQS(count)                                                 \
  li t2, 1000;                                                           \
1: li t0, count;                                                         \
  beq s5, t0, 2f;                                                        \
  addi t2, t2, -1;                                                       \
  bnez t2, 1b;                                                           \
  j fail;                                                                \
2:
#define SPIN nop; nop; nop; nop; nop; nop; nop; nop; nop; nop

TEST_BEGIN
  SET_TRAP_HANDLER(irq_handler)
  li s5, 0
  csrw mie, x0
  CLEAR_TIMER
  SPIN
  TEST_CASE(2, x14, 0, csrr x14, mip; andi x14, x14, 0x80)

  /* MTIMECMP = 0: pending at once, but masked by mie and mstatus. */
  li t1, MTIMECMP_ADDR
  sw x0, 0(t1)
  sw x0, 4(t1)
  SPIN
  TEST_CASE(3, x14, 0x80, csrr x14, mip; andi x14, x14, 0x80)
  TEST_CASE(4, s5, 0, nop)
  TEST_CASE(5, s5, 0, csrsi mstatus, 8; SPIN; csrci mstatus, 8)     /* MIE=1, MTIE=0 */
  TEST_CASE(6, s5, 0, li t0, 0x80; csrs mie, t0; SPIN)              /* MTIE=1, MIE=0 */
  TEST_CASE(7, s5, 0, wfi; nop)                                     /* wakes, no trap */
  /* MIE = 1: taken. */
  li TESTNUM, 8
  csrsi mstatus, 8
  WAIT_IRQS(1)
  TEST_CASE(9, s6, 0x80000007, nop)
  TEST_CASE(10, x14, 0x80, andi x14, s7, 0x80)
  TEST_CASE(11, x14, 0x1888, csrr x14, mstatus)                     /* MIE back on */

  /* A compare value in the future fires through wfi. */
  li TESTNUM, 12
  li t1, MTIME_ADDR
  lw x11, 0(t1)
  li x12, 100000                         /* far enough even when fetching from slow DRAM */
  add x11, x11, x12
  li t1, MTIMECMP_ADDR
  li t0, -1
  sw t0, 4(t1)
  sw x11, 0(t1)
  lw x12, MTIME_ADDR - MTIMECMP_ADDR + 4(t1)
  sw x12, 4(t1)
  TEST_CASE(13, s5, 1, nop)              /* not yet: 100000 cycles away */
  li TESTNUM, 14
  li t2, 1000
3: wfi
  li t0, 2
  beq s5, t0, 4f
  addi t2, t2, -1
  bnez t2, 3b
  j fail
4:
  TEST_CASE(15, s6, 0x80000007, nop)
  /* The handler ran no earlier than the compare value. */
  li TESTNUM, 16
  bltu s8, x11, fail

  csrci mstatus, 8
  csrw mie, x0
  j pass

  .align 2
irq_handler:
  csrr s6, mcause
  csrr s7, mip
  bgez s6, fail                          /* an exception, not an interrupt */
  li t1, MTIME_ADDR
  lw s8, 0(t1)
  CLEAR_TIMER
5: csrr t0, mip                          /* wait until MTIP has dropped */
  andi t0, t0, 0x80
  bnez t0, 5b
  addi s5, s5, 1
  mret
TEST_END
