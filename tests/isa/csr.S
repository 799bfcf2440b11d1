/* csr.S: csrrw csrrs csrrc csrrwi csrrsi csrrci on mscratch: old value to
 * rd, the write, x0 as rd or source, bypass of rd into the next instruction. */
#include "isa_test.h"

TEST_BEGIN
  TEST_CASE(2, x14, 0, csrw mscratch, x0; csrr x14, mscratch)
  TEST_CASE(3, x14, 0, li x11, 0x12345678; csrrw x14, mscratch, x11)     /* old value */
  TEST_CASE(4, x14, 0x12345678, csrr x14, mscratch)
  TEST_CASE(5, x14, 0x12345678, li x11, 0x0f0f0000; csrrs x14, mscratch, x11)
  TEST_CASE(6, x14, 0x1f3f5678, csrr x14, mscratch)
  TEST_CASE(7, x14, 0x1f3f5678, li x11, 0x00000678; csrrc x14, mscratch, x11)
  TEST_CASE(8, x14, 0x1f3f5000, csrr x14, mscratch)
  TEST_CASE(9, x14, 0x1f3f5000, csrrwi x14, mscratch, 31)
  TEST_CASE(10, x14, 31, csrrsi x14, mscratch, 0x0)   /* no write */
  TEST_CASE(11, x14, 31, csrrci x14, mscratch, 0x5)
  TEST_CASE(12, x14, 26, csrrsi x14, mscratch, 0x1)
  TEST_CASE(13, x14, 27, csrr x14, mscratch)
  TEST_CASE(14, x14, 27, csrrs x14, mscratch, x0)     /* rs1 = x0: no write */
  TEST_CASE(15, x14, 27, csrrc x14, mscratch, x0)
  TEST_CASE(16, x14, 27, csrr x14, mscratch)
  /* rd = x0 still writes. */
  TEST_CASE(17, x14, 0xcafe0000, li x11, 0xcafe0000; csrrw x0, mscratch, x11; csrr x14, mscratch)
  /* rd == rs1: the old value lands in rd, the old rs1 is written. */
  TEST_CASE(18, x11, 0xcafe0000, li x11, 7; csrrw x11, mscratch, x11)
  TEST_CASE(19, x14, 7, csrr x14, mscratch)
  /* The value read feeds the next instruction; the written value comes
   * from the previous one. */
  TEST_CASE(20, x15, 8, li x11, 8; csrw mscratch, x11; csrr x14, mscratch; addi x15, x14, 0)
  TEST_CASE(21, x14, 9, li x11, 8; addi x11, x11, 1; csrw mscratch, x11; csrr x14, mscratch)
  /* Back-to-back writes and reads. */
  TEST_CASE(22, x14, 3, csrwi mscratch, 1; csrsi mscratch, 2; csrr x14, mscratch)
  TEST_CASE(23, x14, 2, csrwi mscratch, 3; csrci mscratch, 1; csrr x14, mscratch)
TEST_END
