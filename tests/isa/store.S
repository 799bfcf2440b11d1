/* store.S: sb sh sw: widths, neighbours untouched, offsets of both signs,
 * store data produced by the previous instruction, store then load. */
#include "isa_test.h"

TEST_BEGIN
  TEST_STORE(2, lbu, sb, 0x000000aa, 0xaa, 0, buf)
  TEST_STORE(3, lb, sb, 0xffffffa0, 0xffffffa0, 1, buf)
  TEST_STORE(4, lbu, sb, 0x000000ef, 0x1234abef, 2, buf) /* only the low byte */
  TEST_STORE(5, lb, sb, 0x00000000, 0, 3, buf)
  TEST_CASE(6, x14, 0x00efa0aa, la x11, buf; lw x14, 0(x11))
  TEST_STORE(7, lbu, sb, 0x00000055, 0x55, -1, buf_end)

  TEST_STORE(10, lhu, sh, 0x000000aa, 0xaa, 4, buf)
  TEST_STORE(11, lh, sh, 0xffffaa00, 0xaa00, 6, buf)
  TEST_STORE(12, lhu, sh, 0x0000beef, 0xdeadbeef, 8, buf)
  TEST_STORE(13, lh, sh, 0xffffa00a, 0xa00a, 10, buf)
  TEST_CASE(14, x14, 0xaa0000aa, la x11, buf; lw x14, 4(x11))
  TEST_CASE(15, x14, 0xa00abeef, la x11, buf; lw x14, 8(x11))
  TEST_STORE(16, lhu, sh, 0x00001234, 0x1234, -4, buf_end)

  TEST_STORE(20, lw, sw, 0x00aa00aa, 0x00aa00aa, 12, buf)
  TEST_STORE(21, lw, sw, 0xaa00aa00, 0xaa00aa00, 16, buf)
  TEST_STORE(22, lw, sw, 0x0aa00aa0, 0x0aa00aa0, -8, buf_end)
  TEST_STORE(23, lw, sw, 0xa00aa00a, 0xa00aa00a, -12, buf_end)
  TEST_CASE(24, x14, 0xaa, la x11, buf; lbu x14, 12(x11))
  TEST_CASE(25, x14, 0xffffaa00, la x11, buf; lh x14, 18(x11))

  /* Stored value comes from the instruction just before. */
  li TESTNUM, 30
  la x11, buf
  li x12, 0x1234
  addi x12, x12, 1
  sw x12, 20(x11)
  lw x14, 20(x11)
  li x7, 0x1235
  bne x14, x7, fail

  /* Store to an address computed just before, then load it back at once. */
  li TESTNUM, 31
  la x12, buf
  addi x11, x12, 24
  sw x12, 0(x11)
  lw x14, 0(x11)
  bne x14, x12, fail

  /* Storing x0 writes zeros. */
  li TESTNUM, 32
  la x11, buf
  li x12, -1
  sw x12, 28(x11)
  sh x0, 28(x11)
  sb x0, 30(x11)
  lw x14, 28(x11)
  li x7, 0xff000000
  bne x14, x7, fail
TEST_END

TEST_DATA_BEGIN
buf: .fill 64, 1, 0xef
buf_end:
TEST_DATA_END
