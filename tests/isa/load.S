/* load.S: lb lh lw lbu lhu: sign and zero extension, offsets of both signs,
 * x0 destination, load-use. */
#include "isa_test.h"

TEST_BEGIN
  TEST_LOAD(2, lb, 0xffffffff, 0, bytes)
  TEST_LOAD(3, lb, 0x00000000, 1, bytes)
  TEST_LOAD(4, lb, 0xfffffff0, 2, bytes)
  TEST_LOAD(5, lb, 0x0000000f, 3, bytes)
  TEST_LOAD(6, lb, 0xffffff80, 4, bytes)
  TEST_LOAD(7, lb, 0x0000007f, 5, bytes)
  TEST_LOAD(8, lb, 0xfffffff0, -4, bytes_end)
  TEST_LOAD_USE(9, lb, 0xfffffff0, 2, bytes)
  TEST_LOAD_ZERODEST(10, lb, 0, bytes)

  TEST_LOAD(20, lbu, 0x000000ff, 0, bytes)
  TEST_LOAD(21, lbu, 0x00000000, 1, bytes)
  TEST_LOAD(22, lbu, 0x000000f0, 2, bytes)
  TEST_LOAD(23, lbu, 0x00000080, 4, bytes)
  TEST_LOAD(24, lbu, 0x0000007f, 5, bytes)
  TEST_LOAD(25, lbu, 0x000000ff, -6, bytes_end)
  TEST_LOAD_USE(26, lbu, 0x00000080, 4, bytes)

  TEST_LOAD(30, lh, 0x000000ff, 0, halves)
  TEST_LOAD(31, lh, 0xffffff00, 2, halves)
  TEST_LOAD(32, lh, 0x00000ff0, 4, halves)
  TEST_LOAD(33, lh, 0xfffff00f, 6, halves)
  TEST_LOAD(34, lh, 0xffff8000, 8, halves)
  TEST_LOAD(35, lh, 0x00007fff, 10, halves)
  TEST_LOAD(36, lh, 0xffff8000, -4, halves_end)
  TEST_LOAD_USE(37, lh, 0xffffff00, 2, halves)
  TEST_LOAD_ZERODEST(38, lh, 2, halves)

  TEST_LOAD(40, lhu, 0x000000ff, 0, halves)
  TEST_LOAD(41, lhu, 0x0000ff00, 2, halves)
  TEST_LOAD(42, lhu, 0x0000f00f, 6, halves)
  TEST_LOAD(43, lhu, 0x00008000, 8, halves)
  TEST_LOAD(44, lhu, 0x00007fff, -2, halves_end)
  TEST_LOAD_USE(45, lhu, 0x00008000, 8, halves)

  TEST_LOAD(50, lw, 0x00ff00ff, 0, words)
  TEST_LOAD(51, lw, 0xff00ff00, 4, words)
  TEST_LOAD(52, lw, 0x0ff00ff0, 8, words)
  TEST_LOAD(53, lw, 0xf00ff00f, 12, words)
  TEST_LOAD(54, lw, 0xf00ff00f, -4, words_end)
  TEST_LOAD(55, lw, 0x00ff00ff, -16, words_end)
  TEST_LOAD_USE(56, lw, 0xff00ff00, 4, words)
  TEST_LOAD_ZERODEST(57, lw, 8, words)

  /* Load-use chains: the loaded value is the next load's address. */
  li TESTNUM, 60
  la x11, pointer
  lw x12, 0(x11)
  lw x14, 4(x12)
  li x7, 0xff00ff00
  bne x14, x7, fail

  /* Base register is the destination. */
  TEST_CASE(61, x11, 0x0ff00ff0, la x11, words; lw x11, 8(x11))
TEST_END

TEST_DATA_BEGIN
bytes:  .byte 0xff, 0x00, 0xf0, 0x0f, 0x80, 0x7f
bytes_end: .byte 0, 0
  .align 2
halves: .half 0x00ff, 0xff00, 0x0ff0, 0xf00f, 0x8000, 0x7fff
halves_end:
  .align 2
words:  .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
words_end:
pointer: .word words
TEST_DATA_END
