/* bus_err.S: unmapped addresses, the NPU command window past its SRAM
 * (the whole window when the SoC is built without the NPU), the NPU_SEQ
 * window of a SoC built without the core-sequenced NPU, offsets of the CVT
 * window that name no register (all of them without the converter), the same
 * of the DCACHE window (without the data cache), addresses past
 * the TCMs and past DRAM, bad peripheral offsets, and fetches from where
 * the instruction bus cannot go all answer with a bus error: the core
 * traps with the access-fault cause. Exit code = the failing case. */
#include "soc_test.h"

/* Case n: run `insn` on address addr; expect mcause `cause`. */
#define EXPECT_FAULT(n, cause, ...)    \
  li   gp, n;                          \
  li   s1, -1;                         \
  la   s3, 1f;                         \
  __VA_ARGS__;                         \
  EXIT_WITH(n);                        \
1:                                     \
  li   t0, cause;                      \
  beq  s1, t0, 2f;                     \
  EXIT_WITH(n);                        \
2:

TEST_START
  la   t0, handler
  csrw mtvec, t0
  EXPECT_FAULT(2,  5, li a0, 0x60000000; lw a1, 0(a0))  /* unmapped */
  EXPECT_FAULT(3,  7, li a0, 0x4000FFF0; sw a1, 0(a0))  /* NPU command window past the SRAM */
  EXPECT_FAULT(4,  5, li a0, 0x4000FFFC; lw a1, 0(a0))  /* NPU command window past the SRAM */
  EXPECT_FAULT(5,  5, li a0, 0x10010000; lw a1, 0(a0))  /* past DMEM */
  EXPECT_FAULT(6,  5, li a0, 0x00040000; lw a1, 0(a0))  /* past IMEM */
  EXPECT_FAULT(7,  5, li a0, 0x84000000; lw a1, 0(a0))  /* past DRAM (64 MiB) */
  EXPECT_FAULT(8,  7, li a0, 0x84000000; sw a1, 0(a0))  /* past DRAM */
  EXPECT_FAULT(9,  5, li a0, 0x20000010; lw a1, 0(a0))  /* no UART register */
  EXPECT_FAULT(10, 5, li a0, 0x20005000; lw a1, 0(a0))  /* unmapped I/O */
  EXPECT_FAULT(11, 1, li a0, 0x30000000; jalr a0)       /* fetch: NPU window */
  EXPECT_FAULT(12, 1, li a0, 0x20000000; jalr a0)       /* fetch: UART */
  EXPECT_FAULT(13, 1, li a0, 0x84000000; jalr a0)       /* fetch: past DRAM */
  EXPECT_FAULT(15, 5, li a0, 0x50000000; lw a1, 0(a0))  /* NPU_SEQ window, NpuSeq = 0 */
  EXPECT_FAULT(16, 7, li a0, 0x50000040; sw a1, 0(a0))  /* NPU_SEQ window, NpuSeq = 0 */
  EXPECT_FAULT(17, 5, li a0, 0x50001000; lw a1, 0(a0))  /* past the 4 KiB NPU_SEQ window */
  EXPECT_FAULT(18, 1, li a0, 0x50000000; jalr a0)       /* fetch: NPU_SEQ window */
  EXPECT_FAULT(19, 5, li a0, 0x20003038; lw a1, 0(a0))  /* no CVT register (the whole window, Cvt = 0) */
  EXPECT_FAULT(20, 1, li a0, 0x20003000; jalr a0)       /* fetch: CVT window */
  EXPECT_FAULT(21, 5, li a0, 0x2000400C; lw a1, 0(a0))  /* no DCACHE register (the whole window, DcacheLines = 0) */
  EXPECT_FAULT(22, 7, li a0, 0x20004FFC; sw a1, 0(a0))  /* no DCACHE register */
  EXPECT_FAULT(23, 1, li a0, 0x20004000; jalr a0)       /* fetch: DCACHE window */
  /* Memory still works after all that. */
  li   gp, 14
  li   a0, 0x10000100
  li   t0, 0x12345678
  sw   t0, 0(a0)
  lw   t1, 0(a0)
  beq  t0, t1, 3f
  EXIT_WITH(14)
3:
  EXIT_WITH(0)

/* Records mcause and resumes at s3. */
handler:
  csrr s1, mcause
  csrw mepc, s3
  mret
