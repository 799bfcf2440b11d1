/* fence.S: fence orders memory (a no-op for results here); fence.i makes
 * stores to instruction memory visible to fetch (self-modifying code). */
#include "isa_test.h"

TEST_BEGIN
  li TESTNUM, 2
  la x11, buf
  li x12, 0x5a
  sw x12, 0(x11)
  fence
  lw x14, 0(x11)
  bne x14, x12, fail
  fence rw, rw
  fence iorw, iorw
  fence w, r

  /* Rewrite `addi x14, x0, 1` at patch into `addi x14, x0, 2`, run it. */
  li TESTNUM, 3
  la x11, patch
  la x12, insn_two
  lw x13, 0(x12)
  sw x13, 0(x11)
  fence.i
  jal ra, patch
  li x7, 2
  bne x14, x7, fail

  /* Patch again: fetch must see the newest store after fence.i. */
  li TESTNUM, 4
  la x12, insn_three
  lw x13, 0(x12)
  sw x13, 0(x11)
  fence.i
  jal ra, patch
  li x7, 3
  bne x14, x7, fail
  j 1f

  .align 2
patch:
  addi x14, x0, 1
  ret
insn_two:
  addi x14, x0, 2
insn_three:
  addi x14, x0, 3
1:
TEST_END

TEST_DATA_BEGIN
buf: .word 0
TEST_DATA_END
