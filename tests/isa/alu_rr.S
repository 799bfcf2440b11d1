/* alu_rr.S: add sub slt sltu xor or and, register-register. */
#include "isa_test.h"

TEST_BEGIN
  /* add: wraparound, sign, x0 operands and destination, bypass */
  TEST_RR(2, add, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR(3, add, 0x00000002, 0x00000001, 0x00000001)
  TEST_RR(4, add, 0x0000000a, 0x00000003, 0x00000007)
  TEST_RR(5, add, 0xffff8000, 0x00000000, 0xffff8000)
  TEST_RR(6, add, 0x80000000, 0x80000000, 0x00000000)
  TEST_RR(7, add, 0x7fff8000, 0x80000000, 0xffff8000)
  TEST_RR(8, add, 0x80007ffe, 0x7fffffff, 0x00007fff)
  TEST_RR(9, add, 0x7fffffff, 0x80000000, 0xffffffff) /* INT_MIN + -1 overflows */
  TEST_RR(10, add, 0x80000000, 0x7fffffff, 0x00000001)
  TEST_RR(11, add, 0x00000000, 0xffffffff, 0x00000001)
  TEST_RR_SRC1_EQ_DEST(12, add, 24, 13, 11)
  TEST_RR_SRC2_EQ_DEST(13, add, 25, 14, 11)
  TEST_RR_SRCS_EQ_DEST(14, add, 26, 13)
  TEST_RR_ZERODEST(15, add, 16, 30)
  TEST_RR_ZEROSRC1(16, add, 15, 15)
  TEST_RR_ZEROSRC2(17, add, 32, 32)
  TEST_RR_BYPASS(18, add, 24, 13, 11)

  /* sub */
  TEST_RR(20, sub, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR(21, sub, 0xfffffffc, 0x00000003, 0x00000007)
  TEST_RR(22, sub, 0x80008000, 0x80000000, 0xffff8000)
  TEST_RR(23, sub, 0x7fffffff, 0x80000000, 0x00000001) /* overflow */
  TEST_RR(24, sub, 0x80000001, 0x00000000, 0x7fffffff)
  TEST_RR(25, sub, 0x00000001, 0x00000000, 0xffffffff)
  TEST_RR_SRC1_EQ_DEST(26, sub, 2, 13, 11)
  TEST_RR_SRC2_EQ_DEST(27, sub, 3, 14, 11)
  TEST_RR_SRCS_EQ_DEST(28, sub, 0, 13)
  TEST_RR_ZERODEST(29, sub, 16, 30)
  TEST_RR_ZEROSRC1(30, sub, 0xfffffff1, 15)
  TEST_RR_BYPASS(31, sub, 2, 13, 11)

  /* slt: signed compare */
  TEST_RR(40, slt, 0, 0x00000000, 0x00000000)
  TEST_RR(41, slt, 1, 0x00000003, 0x00000007)
  TEST_RR(42, slt, 0, 0x00000007, 0x00000003)
  TEST_RR(43, slt, 1, 0x80000000, 0x00000000)
  TEST_RR(44, slt, 0, 0x7fffffff, 0x80000000)
  TEST_RR(45, slt, 1, 0xffffffff, 0x00000000)
  TEST_RR(46, slt, 0, 0x00000000, 0xffffffff)
  TEST_RR(47, slt, 1, 0x80000000, 0x7fffffff)
  TEST_RR_SRCS_EQ_DEST(48, slt, 0, 13)
  TEST_RR_ZERODEST(49, slt, 1, 2)
  TEST_RR_ZEROSRC1(50, slt, 1, 5)
  TEST_RR_BYPASS(51, slt, 1, -5, 3)

  /* sltu: unsigned compare */
  TEST_RR(60, sltu, 0, 0x00000000, 0x00000000)
  TEST_RR(61, sltu, 1, 0x00000003, 0x00000007)
  TEST_RR(62, sltu, 0, 0x80000000, 0x00000000)
  TEST_RR(63, sltu, 1, 0x7fffffff, 0x80000000)
  TEST_RR(64, sltu, 0, 0xffffffff, 0x00000000)
  TEST_RR(65, sltu, 1, 0x00000000, 0xffffffff)
  TEST_RR(66, sltu, 1, 0xfffffffe, 0xffffffff)
  TEST_RR_SRCS_EQ_DEST(67, sltu, 0, 13)
  TEST_RR_ZEROSRC1(68, sltu, 1, 5) /* snez idiom */
  TEST_RR_ZEROSRC1(69, sltu, 0, 0)
  TEST_RR_BYPASS(70, sltu, 0, -5, 3)

  /* xor or and */
  TEST_RR(80, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR(81, xor, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_SRCS_EQ_DEST(82, xor, 0, 0xff00ff00)
  TEST_RR_ZERODEST(83, xor, 1, 2)
  TEST_RR_BYPASS(84, xor, 0x00ff00ff, 0x0ff00ff0, 0x0f0f0f0f)
  TEST_RR(90, or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR(91, or, 0xfff0fff0, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_SRCS_EQ_DEST(92, or, 0xff00ff00, 0xff00ff00)
  TEST_RR_ZERODEST(93, or, 1, 2)
  TEST_RR_BYPASS(94, or, 0x0fff0fff, 0x0ff00ff0, 0x0f0f0f0f)
  TEST_RR(100, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR(101, and, 0x00f000f0, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_SRCS_EQ_DEST(102, and, 0xff00ff00, 0xff00ff00)
  TEST_RR_ZERODEST(103, and, 3, 3)
  TEST_RR_BYPASS(104, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_ZEROSRC2(105, and, 0, 0xffffffff)
TEST_END
