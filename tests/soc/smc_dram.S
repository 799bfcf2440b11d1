/* smc_dram.S: code running from DRAM rewrites an instruction in the very
 * 32-byte line it is executing (the fetch line buffer holds it), then
 * fence.i, then runs it: it must see every new version. Exit code 2 on a
 * stale instruction. */
#include "soc_test.h"
TEST_START
  li   s0, 0                    /* the immediate to plant */
  li   s1, 40                   /* rounds */
  la   t2, target
loop:
  slli t0, s0, 20
  li   t1, 0x00000513           /* addi a0, zero, imm */
  or   t0, t0, t1
  j    blk
  .balign 32
blk:                            /* one line: store, fence.i, call, return */
  sw   t0, 0(t2)
  fence.i
  jal  ra, target
  j    after
target:
  addi a0, zero, 0
  ret
after:
  beq  a0, s0, 1f
  EXIT_WITH(2)
1:
  addi s0, s0, 1
  blt  s0, s1, loop
  EXIT_WITH(0)
