/* csr_regs.S: machine CSR values and write masks: misa, mhartid,
 * mvendorid/marchid/mimpid, mstatus (MPP reads 3), mie, mip, mtvec, mepc,
 * mcause, mtval, mscratch; mcycle and minstret counting; unimplemented CSRs
 * and writes to read-only CSRs are illegal instructions. */
#include "isa_test.h"

TEST_BEGIN
  SET_TRAP_HANDLER(expect)
  li s3, 0

  TEST_CASE(2, x14, 0x40001100, csrr x14, misa)
  TEST_CASE(3, x14, 0, csrr x14, mhartid)
  TEST_CASE(4, x14, 0, csrr x14, mvendorid)
  TEST_CASE(5, x14, 0, csrr x14, marchid)
  TEST_CASE(6, x14, 0, csrr x14, mimpid)
  /* misa is WARL: writes are legal and change nothing. */
  TEST_CASE(7, x14, 0x40001100, li x11, -1; csrw misa, x11; csrr x14, misa)

  /* mstatus: MPP (12:11) always reads 3; MIE and MPIE are writable. */
  TEST_CASE(10, x14, 0x1800, csrw mstatus, x0; csrr x14, mstatus)
  TEST_CASE(11, x14, 0x1880, li x11, 0x80; csrw mstatus, x11; csrr x14, mstatus)
  TEST_CASE(12, x14, 0x1800, li x11, 0x1800; csrc mstatus, x11; csrw mstatus, x0; csrr x14, mstatus)
  TEST_CASE(13, x14, 0x1800, li x11, 0x80; csrc mstatus, x11; csrr x14, mstatus)

  /* mie: MTIE (7) and MEIE (11) exist; mip: read-only, nothing pending. */
  TEST_CASE(20, x14, 0x880, li x11, 0x880; csrw mie, x11; csrr x14, mie)
  TEST_CASE(21, x14, 0, csrw mie, x0; csrr x14, mie)
  TEST_CASE(22, x14, 0, li x11, -1; csrw mip, x11; csrr x14, mip)

  /* mtvec (direct), mepc (4-byte aligned), mcause, mtval, mscratch. */
  TEST_CASE(30, x14, 0x80001000, csrr x12, mtvec; li x11, 0x80001000; csrw mtvec, x11; csrr x14, mtvec; csrw mtvec, x12)
  TEST_CASE(31, x14, 0x12345678, li x11, 0x12345678; csrw mepc, x11; csrr x14, mepc)
  TEST_CASE(32, x14, 0x8000000b, li x11, 0x8000000b; csrw mcause, x11; csrr x14, mcause)
  TEST_CASE(33, x14, 0xdeadbeef, li x11, 0xdeadbeef; csrw mtval, x11; csrr x14, mtval)
  TEST_CASE(34, x14, 0xfeedf00d, li x11, 0xfeedf00d; csrw mscratch, x11; csrr x14, mscratch)

  /* minstret counts retired instructions: csrr, 3 x nop, csrr -> 4. */
  TEST_CASE(40, x14, 4, csrr x11, minstret; nop; nop; nop; csrr x12, minstret; sub x14, x12, x11)
  /* mcycle advances at least once per instruction, and not absurdly (the
   * bounds hold for any memory timing the simulator can be given). */
  li TESTNUM, 41
  csrr x11, mcycle
  nop
  nop
  nop
  csrr x12, mcycle
  sub x14, x12, x11
  li x7, 4
  bltu x14, x7, fail
  li x7, 100000                /* generous: fetch from slow DRAM is slow */
  bgeu x14, x7, fail
  /* Writes to the counters are seen by the next read. */
  li TESTNUM, 42
  li x11, 1000
  csrw minstret, x11
  csrr x14, minstret
  addi x14, x14, -1000
  li x7, 3
  bgeu x14, x7, fail
  li TESTNUM, 43
  csrw minstreth, x0
  csrr x14, minstreth
  bnez x14, fail
  li TESTNUM, 44
  csrw mcycleh, x0
  csrr x14, mcycleh
  bnez x14, fail
  li TESTNUM, 45               /* far above the cycles run so far */
  li x11, 0x40000000
  csrw mcycle, x11
  csrr x14, mcycle
  sub x14, x14, x11
  li x7, 100000
  bgeu x14, x7, fail

  /* Unimplemented CSRs: illegal instruction, mtval = instruction word. */
  TEST_TRAP(50, 2, 1: csrr x14, 0x7c0)
  li TESTNUM, 51
  la x11, 1b
  bne s1, x11, fail
  lw x12, 0(x11)
  bne s2, x12, fail
  TEST_TRAP(52, 2, csrr x14, 0x180)     /* satp: no S-mode */
  TEST_TRAP(53, 2, csrr x14, 0x306)     /* mcounteren */
  TEST_TRAP(54, 2, csrr x14, 0xc00)     /* cycle: not implemented */
  TEST_TRAP(55, 2, csrw 0x7c0, x0)
  /* The trapping csr instruction does not write rd. */
  TEST_CASE(56, x14, 77, li x14, 77; li s0, -1; csrr x14, 0x7c0)
  /* Writes to read-only CSRs are illegal; reads and non-writing set/clear
   * are legal. */
  TEST_TRAP(60, 2, csrw mhartid, x0)
  TEST_TRAP(61, 2, li x11, 1; csrs mvendorid, x11)
  TEST_TRAP(62, 2, csrwi marchid, 0)
  TEST_TRAP(63, 2, csrrci x14, mimpid, 1)
  TEST_NO_TRAP(64, csrrs x14, mhartid, x0)
  TEST_NO_TRAP(65, csrrci x14, mhartid, 0)
  TEST_NO_TRAP(66, csrrsi x14, marchid, 0)
  j pass

EXPECT_TRAP_HANDLER(expect)
TEST_END
