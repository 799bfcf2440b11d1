/* alu_imm.S: addi slti sltiu xori ori andi (12-bit sign-extended immediate). */
#include "isa_test.h"

TEST_BEGIN
  TEST_IMM(2, addi, 0x00000000, 0x00000000, 0)
  TEST_IMM(3, addi, 0x0000000a, 0x00000003, 7)
  TEST_IMM(4, addi, 0xfffff800, 0x00000000, -2048)
  TEST_IMM(5, addi, 0x000007ff, 0x00000000, 2047)
  TEST_IMM(6, addi, 0x7ffff800, 0x80000000, -2048)
  TEST_IMM(7, addi, 0x800007fe, 0x7fffffff, 2047)
  TEST_IMM(8, addi, 0x80000000, 0x7fffffff, 1)  /* overflow wraps */
  TEST_IMM(9, addi, 0x00000000, 0xffffffff, 1)
  TEST_IMM(10, addi, 0xfffffffe, 0xffffffff, -1)
  TEST_IMM_SRC_EQ_DEST(11, addi, 24, 13, 11)
  TEST_IMM_ZERODEST(12, addi, 33, 50)
  TEST_IMM_ZEROSRC(13, addi, 32, 32)
  TEST_IMM_BYPASS(14, addi, 24, 13, 11)

  TEST_IMM(20, slti, 0, 0x00000000, 0)
  TEST_IMM(21, slti, 1, 0x00000003, 7)
  TEST_IMM(22, slti, 0, 0x00000007, 3)
  TEST_IMM(23, slti, 1, 0x80000000, 0)
  TEST_IMM(24, slti, 0, 0x00000000, -2048)
  TEST_IMM(25, slti, 1, 0xffffffff, 0)
  TEST_IMM(26, slti, 1, 0x80000000, 2047)
  TEST_IMM(27, slti, 0, 0x7fffffff, -1)
  TEST_IMM_SRC_EQ_DEST(28, slti, 1, 11, 13)
  TEST_IMM_ZERODEST(29, slti, -1, 1)
  TEST_IMM_ZEROSRC(30, slti, 0, -1)
  TEST_IMM_BYPASS(31, slti, 1, -7, -6)

  TEST_IMM(40, sltiu, 0, 0x00000000, 0)
  TEST_IMM(41, sltiu, 1, 0x00000003, 7)
  TEST_IMM(42, sltiu, 1, 0x00000000, -2048) /* imm sign-extends to 0xfffff800 */
  TEST_IMM(43, sltiu, 0, 0xfffff800, -2048)
  TEST_IMM(44, sltiu, 1, 0xfffffffe, -1)
  TEST_IMM(45, sltiu, 1, 0x00000000, 1)     /* seqz idiom */
  TEST_IMM(46, sltiu, 0, 0x00000005, 1)
  TEST_IMM(47, sltiu, 0, 0x80000000, 2047)
  TEST_IMM_ZERODEST(48, sltiu, 0, 1)
  TEST_IMM_BYPASS(49, sltiu, 1, 3, 7)

  TEST_IMM(60, xori, 0xff00f00f, 0x00ff0f00, -241)  /* 0xf0f sign-extended */
  TEST_IMM(61, xori, 0x0ff00f00, 0x0ff00ff0, 0x0f0)
  TEST_IMM(62, xori, 0xffffffff, 0x00000000, -1)    /* not idiom */
  TEST_IMM(63, xori, 0x00000000, 0xffffffff, -1)
  TEST_IMM_SRC_EQ_DEST(64, xori, 0xff00f00f, 0xff00f700, 0x70f)
  TEST_IMM_ZERODEST(65, xori, 1, 2)
  TEST_IMM_BYPASS(66, xori, 0x00f00f0f, 0x00f00ff0, 0x0ff)

  TEST_IMM(70, ori, 0xffffff0f, 0xff00ff00, -241)
  TEST_IMM(71, ori, 0x0ff00ff0, 0x0ff00ff0, 0x0f0)
  TEST_IMM(72, ori, 0x00ff07ff, 0x00ff00ff, 0x70f)
  TEST_IMM(73, ori, 0xf00ff0ff, 0xf00ff00f, 0x0f0)
  TEST_IMM_ZEROSRC(74, ori, 0xfffff800, -2048)
  TEST_IMM_ZERODEST(75, ori, 1, 2)
  TEST_IMM_BYPASS(76, ori, 0x0ff00ff0, 0x0ff00ff0, 0x0f0)

  TEST_IMM(80, andi, 0xff00ff00, 0xff00ff00, -241)
  TEST_IMM(81, andi, 0x000000f0, 0x0ff00ff0, 0x0f0)
  TEST_IMM(82, andi, 0x0000000f, 0x00ff00ff, 0x70f)
  TEST_IMM(83, andi, 0x00000000, 0xf00ff00f, 0x0f0)
  TEST_IMM(84, andi, 0x000007ff, 0x80000fff, 2047)
  TEST_IMM_SRC_EQ_DEST(85, andi, 0x00000000, 0xff00ff00, 0x0f0)
  TEST_IMM_ZERODEST(86, andi, -1, -1)
  TEST_IMM_BYPASS(87, andi, 0x00000700, 0x0ff00ff0, 0x70f)
TEST_END
