/* div.S: div divu rem remu: rounding toward zero, division by zero
 * (quotient all ones, remainder = dividend) and INT_MIN / -1 (quotient
 * INT_MIN, remainder 0): no traps. */
#include "isa_test.h"

TEST_BEGIN
  TEST_RR(2, div, 3, 20, 6)
  TEST_RR(3, div, -3, -20, 6)
  TEST_RR(4, div, -3, 20, -6)
  TEST_RR(5, div, 3, -20, -6)
  TEST_RR(6, div, 0x80000000, 0x80000000, 1)
  TEST_RR(7, div, 0x80000000, 0x80000000, -1)   /* overflow */
  TEST_RR(8, div, -1, 0x80000000, 0)            /* by zero */
  TEST_RR(9, div, -1, 1, 0)
  TEST_RR(10, div, -1, 0, 0)
  TEST_RR(11, div, 0, 5, 7)
  TEST_RR(12, div, 0, -5, 7)
  TEST_RR(13, div, 0xc0000000, 0x80000000, 2)
  TEST_RR_SRCS_EQ_DEST(14, div, 1, -7)
  TEST_RR_ZERODEST(15, div, 20, 6)
  TEST_RR_BYPASS(16, div, -3, -20, 6)

  TEST_RR(20, divu, 3, 20, 6)
  TEST_RR(21, divu, 715827879, -20, 6)
  TEST_RR(22, divu, 0, 20, -6)
  TEST_RR(23, divu, 0, -20, -6)
  TEST_RR(24, divu, 0x80000000, 0x80000000, 1)
  TEST_RR(25, divu, 0, 0x80000000, -1)
  TEST_RR(26, divu, -1, 0x80000000, 0)          /* by zero */
  TEST_RR(27, divu, -1, 0, 0)
  TEST_RR(28, divu, 1, 0xffffffff, 0xffffffff)
  TEST_RR_ZERODEST(29, divu, 20, 6)
  TEST_RR_BYPASS(30, divu, 715827879, -20, 6)

  TEST_RR(40, rem, 2, 20, 6)
  TEST_RR(41, rem, -2, -20, 6)                  /* sign of the dividend */
  TEST_RR(42, rem, 2, 20, -6)
  TEST_RR(43, rem, -2, -20, -6)
  TEST_RR(44, rem, 0, 0x80000000, 1)
  TEST_RR(45, rem, 0, 0x80000000, -1)           /* overflow */
  TEST_RR(46, rem, 0x80000000, 0x80000000, 0)   /* by zero */
  TEST_RR(47, rem, 1, 1, 0)
  TEST_RR(48, rem, 0, 0, 0)
  TEST_RR(49, rem, -5, -5, 7)
  TEST_RR_ZERODEST(50, rem, 20, 6)
  TEST_RR_BYPASS(51, rem, -2, -20, 6)

  TEST_RR(60, remu, 2, 20, 6)
  TEST_RR(61, remu, 2, -20, 6)
  TEST_RR(62, remu, 20, 20, -6)
  TEST_RR(63, remu, -20, -20, -6)
  TEST_RR(64, remu, 0, 0x80000000, 1)
  TEST_RR(65, remu, 0x80000000, 0x80000000, -1)
  TEST_RR(66, remu, 0x80000000, 0x80000000, 0)  /* by zero */
  TEST_RR(67, remu, 1, 1, 0)
  TEST_RR(68, remu, 0, 0, 0)
  TEST_RR(69, remu, 0, 0xffffffff, 0xffffffff)
  TEST_RR_ZERODEST(70, remu, 20, 6)
  TEST_RR_BYPASS(71, remu, 2, -20, 6)
TEST_END
