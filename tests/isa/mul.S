/* mul.S: mul mulh mulhsu mulhu with sign and overflow corners. */
#include "isa_test.h"

TEST_BEGIN
  TEST_RR(2, mul, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR(3, mul, 0x00000001, 0x00000001, 0x00000001)
  TEST_RR(4, mul, 0x00000015, 0x00000003, 0x00000007)
  TEST_RR(5, mul, 0x00000000, 0x00000000, 0xffff8000)
  TEST_RR(6, mul, 0x00000000, 0x80000000, 0x00000000)
  TEST_RR(7, mul, 0x00000000, 0x80000000, 0xffff8000)
  TEST_RR(8, mul, 0x80000000, 0x80000000, 0xffffffff) /* INT_MIN * -1 wraps */
  TEST_RR(9, mul, 0x00000001, 0xffffffff, 0xffffffff)
  TEST_RR(10, mul, 0x0000ff7f, 0xaaaaaaab, 0x0002fe7d)
  TEST_RR(11, mul, 0xfffffffe, 0x7fffffff, 0x00000002)
  TEST_RR_SRCS_EQ_DEST(12, mul, 169, 13)
  TEST_RR_ZERODEST(13, mul, 31, 7)
  TEST_RR_ZEROSRC1(14, mul, 0, 31)
  TEST_RR_BYPASS(15, mul, 143, 13, 11)

  TEST_RR(20, mulh, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR(21, mulh, 0x00000000, 0x00000003, 0x00000007)
  TEST_RR(22, mulh, 0x00000000, 0x00000000, 0xffff8000)
  TEST_RR(23, mulh, 0xffffffff, 0xffffffff, 0x00000001)  /* -1 * 1 */
  TEST_RR(24, mulh, 0x00000000, 0xffffffff, 0xffffffff)  /* -1 * -1 = 1 */
  TEST_RR(25, mulh, 0x40000000, 0x80000000, 0x80000000)  /* INT_MIN^2 */
  TEST_RR(26, mulh, 0x00000000, 0x80000000, 0xffffffff)  /* 2^31 */
  TEST_RR(27, mulh, 0xc0000000, 0x80000000, 0x7fffffff)
  TEST_RR(28, mulh, 0x3fffffff, 0x7fffffff, 0x7fffffff)
  TEST_RR(29, mulh, 0xffff0081, 0xaaaaaaab, 0x0002fe7d)
  TEST_RR_SRCS_EQ_DEST(30, mulh, 0x00000000, 0x0000ffff)
  TEST_RR_ZERODEST(31, mulh, 0x80000000, 0x80000000)
  TEST_RR_BYPASS(32, mulh, 0x40000000, 0x80000000, 0x80000000)

  TEST_RR(40, mulhsu, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR(41, mulhsu, 0xffffffff, 0xffffffff, 0x00000001) /* -1 * 1 */
  TEST_RR(42, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff) /* -1 * (2^32-1) */
  TEST_RR(43, mulhsu, 0xc0000000, 0x80000000, 0x80000000) /* -2^31 * 2^31 */
  TEST_RR(44, mulhsu, 0x80000000, 0x80000000, 0xffffffff) /* -2^31*(2^32-1) high */
  TEST_RR(45, mulhsu, 0x7ffffffe, 0x7fffffff, 0xffffffff)
  TEST_RR(46, mulhsu, 0x00000000, 0x00000001, 0xffffffff)
  TEST_RR(47, mulhsu, 0xffff0081, 0xaaaaaaab, 0x0002fe7d)
  TEST_RR_ZERODEST(48, mulhsu, -1, -1)
  TEST_RR_BYPASS(49, mulhsu, 0xc0000000, 0x80000000, 0x80000000)

  TEST_RR(60, mulhu, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR(61, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff)
  TEST_RR(62, mulhu, 0x40000000, 0x80000000, 0x80000000)
  TEST_RR(63, mulhu, 0x7fffffff, 0x80000000, 0xffffffff)
  TEST_RR(64, mulhu, 0x00000000, 0x00000001, 0xffffffff)
  TEST_RR(65, mulhu, 0x0001fefe, 0xaaaaaaab, 0x0002fe7d)
  TEST_RR(66, mulhu, 0x00000000, 0x0000ffff, 0x00010001)
  TEST_RR_ZERODEST(67, mulhu, -1, -1)
  TEST_RR_BYPASS(68, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff)

  /* mulh then mul of the same operands (the fused-pair idiom). */
  li TESTNUM, 70
  li x11, 0x12345678
  li x12, 0x9abcdef0
  mulhu x13, x11, x12
  mul x14, x11, x12
  li x7, 0x0b00ea4e
  bne x13, x7, fail
  li x7, 0x242d2080
  bne x14, x7, fail
TEST_END
