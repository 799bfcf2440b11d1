/* dcache.S: the data cache as the core sees it (docs/memory-map.md, region
 * DCACHE). Without the cache (its ID read faults) the program checks that
 * INVAL faults too and ends. With it: ID and LINES read right; stores into
 * a cached line and loads straight after them agree; and, on a SoC with the
 * converter, a line the converter rewrites behind the cache reads stale
 * until INVAL and fresh after it (the stale read is what the drivers'
 * invalidate is for). Exit code = the failing check. (Labels 8 and 9 are
 * soc_test.h's.) */
#include "soc_test.h"

#define DCACHE_BASE 0x20004000
#define CVT_BASE    0x20003000
#define SRC         0x80300000        /* 32 bytes the converter copies ... */
#define DST         0x80300400        /* ... over these */

TEST_START
  la   t0, handler
  csrw mtvec, t0
  /* 1. is there a cache? */
  li   s1, 0
  la   s3, 1f
  li   a0, DCACHE_BASE
  lw   a1, 0(a0)
1:
  beqz s1, 2f
  la   s3, 1f                   /* no cache: INVAL faults too */
  li   s1, 0
  sw   zero, 8(a0)
1:
  li   t0, 7
  beq  s1, t0, 19f
  EXIT_WITH(2)
19:
  EXIT_WITH(0)
2:
  la   t0, unexpected
  csrw mtvec, t0
  li   t0, 0x48434454           /* ID: "TDCH" */
  beq  a1, t0, 3f
  EXIT_WITH(3)
3:
  lw   a1, 4(a0)                /* LINES: a power of two, 2 or more */
  addi t0, a1, -1
  and  t0, t0, a1
  bnez t0, 4f
  li   t0, 2
  bgeu a1, t0, 5f
4:
  EXIT_WITH(4)
5:
  /* 2. SRC and DST get patterns; DST's line is read into the cache, then
   * stored into (bytes, a half) and read back at once. */
  li   s0, SRC
  li   s2, DST
  li   a2, 8
  li   a3, 0x01020304
  li   a4, 0x11111111
6:
  sw   a3, 0(s0)
  li   t0, -1
  sw   t0, 0(s2)
  add  a3, a3, a4
  addi s0, s0, 4
  addi s2, s2, 4
  addi a2, a2, -1
  bnez a2, 6b
  li   s0, SRC
  li   s2, DST
  lw   t0, 0(s2)                /* caches DST's line */
  li   t1, -1
  beq  t0, t1, 7f
  EXIT_WITH(5)
7:
  li   t0, 0x5a
  sb   t0, 1(s2)
  li   t0, 0x1234
  sh   t0, 6(s2)
  lw   t0, 0(s2)
  li   t1, 0xffff5aff
  beq  t0, t1, 8f
  EXIT_WITH(6)
8:
  lhu  t0, 6(s2)
  li   t1, 0x1234
  beq  t0, t1, 10f
  EXIT_WITH(7)
10:
  li   t0, -1                   /* DST back to all ones */
  sw   t0, 0(s2)
  sw   t0, 4(s2)
  /* 3. the converter, if there is one, copies SRC over DST: the cache
   * still answers the old bytes, INVAL drops them. */
  la   t0, handler
  csrw mtvec, t0
  li   s1, 0
  la   s3, 11f
  li   a0, CVT_BASE
  lw   a1, 0(a0)
11:
  beqz s1, 12f
  EXIT_WITH(0)                  /* no converter: nothing more to check */
12:
  la   t0, unexpected
  csrw mtvec, t0
  sw   s0, 0x08(a0)             /* SRC */
  sw   s2, 0x0C(a0)             /* DST */
  li   t0, 32
  sw   t0, 0x10(a0)             /* INNER */
  sw   t0, 0x14(a0)             /* INNER_REAL */
  li   t0, 1
  sw   t0, 0x18(a0)             /* OUTER */
  sw   t0, 0x1C(a0)             /* SRC_INNER */
  sw   t0, 0x24(a0)             /* DST_INNER */
  sw   zero, 0x20(a0)           /* SRC_OUTER */
  sw   zero, 0x28(a0)           /* DST_OUTER */
  sw   zero, 0x34(a0)           /* ZP */
  li   t0, 3
  sw   t0, 0x04(a0)             /* CTRL: OP 3, copy */
13:
  lw   t0, 0x04(a0)
  andi t0, t0, 0x100            /* BUSY */
  bnez t0, 13b
  lw   t0, 0(s2)                /* stale: the line the cache holds */
  li   t1, -1
  beq  t0, t1, 14f
  EXIT_WITH(8)
14:
  li   a0, DCACHE_BASE
  sb   zero, 8(a0)              /* INVAL (a byte store will do) */
  li   a2, 8
  li   a3, 0x01020304
  li   a4, 0x11111111
15:
  lw   t0, 0(s2)
  beq  t0, a3, 16f
  EXIT_WITH(9)
16:
  add  a3, a3, a4
  addi s2, s2, 4
  addi a2, a2, -1
  bnez a2, 15b
  EXIT_WITH(0)

/* Counts the fault in s1 (7 for a store) and resumes at s3. */
handler:
  csrr t0, mcause
  li   s1, 1
  li   t1, 7
  bne  t0, t1, 1f
  li   s1, 7
1:
  csrw mepc, s3
  mret
unexpected:
  EXIT_WITH(99)
