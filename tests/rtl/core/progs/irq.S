// Interrupts: masking by mie and mstatus.MIE, mip as a view of the lines, the
// cause values, external before timer, mepc = the next unretired instruction,
// wfi waking with MIE=0 (no trap) and with MIE=1 (trap, mepc past the wfi),
// and a stress loop where interrupts land on every kind of instruction
// (loads, stores, mul/div, jumps, CSR writes) and must not change any result.
#include "tb.h"
TB_START
  la t0, irq_handler
  csrw mtvec, t0
  la s6, log
  li s5, 0
  // A. a pending timer line is ignored while masked
  li t0, TB_IRQ
  li t1, 1
  sw t1, 0(t0)
  nop
  nop
  CHECK(1, s5, 0)
  csrr t2, mip
  CHECK(2, t2, 0x80)
  li t1, 0x80
  csrw mie, t1
  nop
  nop
  CHECK(3, s5, 0)
  csrsi mstatus, 8
after_enable:
  nop
  CHECK(4, s5, 1)
  CHECK(5, s2, 0x80000007)
  CHECK_LA(6, s3, after_enable)
  CHECK(7, s4, 0x1880)
  csrr t0, mstatus
  CHECK(8, t0, 0x1888)
  csrr t0, mip
  CHECK(9, t0, 0)
  // B. both lines at once: external first, then timer
  csrci mstatus, 8
  li t1, 0x880
  csrw mie, t1
  li t0, TB_IRQ
  li t1, 3
  sw t1, 0(t0)
  nop
  csrr t2, mip
  CHECK(10, t2, 0x880)
  csrsi mstatus, 8
  nop
  nop
  CHECK(11, s5, 3)
  la t0, log
  lw t1, 4(t0)
  CHECK(12, t1, 0x8000000b)
  lw t1, 8(t0)
  CHECK(13, t1, 0x80000007)
  // C. wfi with mstatus.MIE = 0 wakes on (mip & mie) and continues, no trap
  csrci mstatus, 8
  li t1, 0x80
  csrw mie, t1
  csrr a0, mcycle
  li t0, TB_IRQ_AT
  li t1, (1 << 16) | 60
  sw t1, 0(t0)
  wfi
  csrr a1, mcycle
  sub a2, a1, a0
  sltiu a3, a2, 50
  CHECK(14, a3, 0)
  CHECK(15, s5, 3)
  csrr t2, mip
  CHECK(16, t2, 0x80)
  li t0, TB_IRQ
  sw zero, 0(t0)
  // D. wfi with MIE = 1: the wfi retires, the trap's mepc is the next one
  li t0, TB_IRQ_AT
  li t1, (1 << 16) | 60
  sw t1, 0(t0)
  csrsi mstatus, 8
  wfi
wfi_next:
  nop
  CHECK(17, s5, 4)
  CHECK_LA(18, s3, wfi_next)
  // E. stress: an interrupt after 1, 2, ... 48 cycles into the block
  li t1, 0x880
  csrw mie, t1
  csrw mscratch, zero
  la t0, counter
  sw zero, 0(t0)
  li s1, 1
  li s0, 4                  // interrupts so far
stress:
  li t0, TB_IRQ_AT
  andi t1, s1, 1
  addi t1, t1, 1
  slli t1, t1, 16
  or t1, t1, s1             // alternate timer and external
  sw t1, 0(t0)
  li a0, 1000
  la a1, buf
  sw a0, 0(a1)
  lw a2, 0(a1)
  addi a2, a2, 7
  li a3, 13
  div a4, a2, a3
  rem a5, a2, a3
  mul a4, a4, a3
  add a4, a4, a5
  bne a4, a2, stress_fail
  jal ra, leaf
  sw a4, 4(a1)
  lw t0, 4(a1)
  li t1, 1008
  bne t0, t1, stress_fail
  csrr t2, mscratch
  addi t2, t2, 1
  csrw mscratch, t2
  la t0, counter
  lw t1, 0(t0)
  addi t1, t1, 1
  sw t1, 0(t0)
  addi s0, s0, 1
1:
  bne s5, s0, 1b            // wait for this round's interrupt
  addi s1, s1, 1
  li t0, 49
  blt s1, t0, stress
  csrr t0, mscratch
  CHECK(19, t0, 48)
  la t0, counter
  lw t1, 0(t0)
  CHECK(20, t1, 48)
  CHECK(21, s5, 52)
  csrci mstatus, 8
  TB_PASS
stress_fail:
  li x30, 22
  j tb_fail
leaf:
  addi a4, a4, 1
  ret

// Records the interrupt (s2 mcause, s3 mepc, s4 mstatus, s5 count, log at
// s6), lowers the line that caused it, and returns to mepc. Preserves every
// register it does not own.
irq_handler:
  addi sp, sp, -16
  sw t0, 0(sp)
  sw t1, 4(sp)
  sw t2, 8(sp)
  csrr s2, mcause
  csrr s3, mepc
  csrr s4, mstatus
  addi s5, s5, 1
  sw s2, 0(s6)
  addi s6, s6, 4
  li t0, 0x8000000b
  li t1, 1                  // lines to keep: the timer
  beq s2, t0, 1f
  li t1, 2                  // keep the external line
1:
  li t0, TB_IRQ
  lw t2, 0(t0)
  and t2, t2, t1
  sw t2, 0(t0)
  lw t0, 0(sp)
  lw t1, 4(sp)
  lw t2, 8(sp)
  addi sp, sp, 16
  mret

  .data
  .balign 4
counter: .word 0
buf: .space 16
log: .space 512
