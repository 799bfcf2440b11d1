// CSRs: identification values, mstatus (MPP reads 3), read-modify-write forms
// and their old values, WARL masks (mie, mtvec, mepc), mip as a read-only view,
// counters (mcycle moves, minstret counts retirements, writes win), and
// illegal accesses: unknown CSR numbers and writes to read-only CSRs.
#include "tb.h"
TB_START
  USE_RECORDING_HANDLER
  csrr t0, misa
  CHECK(1, t0, 0x40001100)
  csrr t0, mhartid
  CHECK(2, t0, 0)
  csrr t0, mvendorid
  CHECK(3, t0, 0)
  csrr t0, marchid
  CHECK(4, t0, 0)
  csrr t0, mimpid
  CHECK(5, t0, 0)
  csrw mstatus, zero
  csrr t0, mstatus
  CHECK(6, t0, 0x1800)
  li t1, 0x88
  csrw mstatus, t1
  csrr t0, mstatus
  CHECK(7, t0, 0x1888)
  csrw mstatus, zero
  // mscratch: every form returns the old value
  li t1, 0x12345678
  csrrw t0, mscratch, t1
  csrrs t0, mscratch, zero
  CHECK(8, t0, 0x12345678)
  li t1, 0x0000ff00
  csrrs t0, mscratch, t1
  CHECK(9, t0, 0x12345678)
  csrrc t0, mscratch, t1
  CHECK(10, t0, 0x1234ff78)
  csrrwi t0, mscratch, 0x15
  CHECK(11, t0, 0x12340078)
  csrrsi t0, mscratch, 0x0a
  CHECK(12, t0, 0x15)
  csrrci t0, mscratch, 0x01
  CHECK(13, t0, 0x1f)
  csrr t0, mscratch
  CHECK(14, t0, 0x1e)
  // the CSR result feeds the next instruction
  csrr t0, mscratch
  addi t0, t0, 1
  CHECK(15, t0, 0x1f)
  // WARL fields
  li t1, -1
  csrw mie, t1
  csrr t0, mie
  CHECK(16, t0, 0x880)
  csrw mie, zero
  csrr s0, mtvec
  li t1, 0x1234567b
  csrw mtvec, t1
  csrr t0, mtvec
  csrw mtvec, s0
  CHECK(17, t0, 0x12345678)
  li t1, 0x1003
  csrw mepc, t1
  csrr t0, mepc
  CHECK(18, t0, 0x1000)
  li t1, 0xdeadbeef
  csrw mcause, t1
  csrr t0, mcause
  CHECK(19, t0, 0xdeadbeef)
  csrw mtval, t1
  csrr t0, mtval
  CHECK(20, t0, 0xdeadbeef)
  // mip: read-only view of the lines, writes ignored without a trap
  csrr t0, mip
  CHECK(21, t0, 0)
  li t1, -1
  csrw mip, t1
  csrr t0, mip
  CHECK(22, t0, 0)
  csrw misa, zero
  csrr t0, misa
  CHECK(23, t0, 0x40001100)
  CHECK(24, s7, 0)
  // mcycle counts cycles
  csrr t0, mcycle
  nop
  nop
  csrr t1, mcycle
  sub t2, t1, t0
  sltiu t3, t2, 3
  CHECK(25, t3, 0)
  // (a bound that also holds for the lite core, which fetches the csrr only
  // after the csrw retired: up to ~40 cycles on the bench's slow memory)
  csrw mcycle, zero
  csrr t0, mcycle
  sltiu t3, t0, 64
  CHECK(26, t3, 1)
  csrw mcycleh, zero
  li t1, 0xfffffff0
  csrw mcycle, t1
  .rept 20
  nop
  .endr
  csrr t0, mcycleh
  CHECK(27, t0, 1)
  // minstret: a write wins over the writer's own retirement
  li t1, 100
  csrw minstret, t1
  csrr t0, minstret
  nop
  nop
  csrr t2, minstret
  CHECK(28, t0, 100)
  CHECK(29, t2, 103)
  csrw minstreth, zero
  li t1, 0xffffffff
  csrw minstret, t1
  nop                   // its retirement carries into minstreth
  csrr t0, minstreth
  CHECK(30, t0, 1)
  li t1, 7
  csrw minstreth, t1
  csrr t0, minstreth
  CHECK(65, t0, 7)
  csrw minstreth, zero
  csrr t0, minstreth
  CHECK(31, t0, 0)
  // a trapping instruction does not retire
  csrr t0, minstret
  ecall
  csrr t1, minstret
  sub t2, t1, t0
  // retired in between: ecall no; the handler's 10 and the first csrr yes
  CHECK(32, t2, 11)
  // illegal: unknown numbers, with mtval = the instruction word
  li s7, 0
  la s0, bad1
bad1:
  csrr t0, 0x7c0
  lw t1, 0(s0)
  EXPECT_TRAP(33, 1, 2)
  CHECK(34, s11, 0x7c0022f3)
  CHECK_LA(35, s9, bad1)
  csrr t0, 0xc00        // cycle: user counters are not implemented
  EXPECT_TRAP(36, 2, 2)
  csrr t0, 0x3a0        // pmpcfg0
  EXPECT_TRAP(37, 3, 2)
  csrr t0, 0x180        // satp: no S mode
  EXPECT_TRAP(38, 4, 2)
  // writes to read-only CSRs trap; reads of them do not
  li t0, 5
  csrw mhartid, t0
  EXPECT_TRAP(39, 5, 2)
  csrrwi t0, mvendorid, 0
  EXPECT_TRAP(40, 6, 2)
  csrrs t0, marchid, t0
  EXPECT_TRAP(41, 7, 2)
  csrrci t0, mimpid, 1
  EXPECT_TRAP(42, 8, 2)
  csrrs t0, mhartid, zero
  csrrsi t0, mvendorid, 0
  csrrc t0, marchid, zero
  CHECK(43, s7, 8)
  // a trapped CSR write leaves rd and the CSR alone
  li t0, 0x55
  csrw mscratch, t0
  li t1, 0x66
  csrrw t1, 0xfff, t0
  CHECK(44, t1, 0x66)
  EXPECT_TRAP(45, 9, 2)
  TB_PASS
  TB_RECORDING_HANDLER
