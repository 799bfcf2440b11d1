/* lui_auipc.S: upper-immediate instructions. */
#include "isa_test.h"

TEST_BEGIN
  TEST_CASE(2, x14, 0x00000000, lui x14, 0x00000)
  TEST_CASE(3, x14, 0xfffff000, lui x14, 0xfffff)
  TEST_CASE(4, x14, 0x80000000, lui x14, 0x80000)
  TEST_CASE(5, x14, 0x7ffff000, lui x14, 0x7ffff)
  TEST_CASE(6, x14, 0x12345678, lui x14, 0x12345; addi x14, x14, 0x678)
  TEST_CASE(7, x14, 0x00000800, lui x14, 0x00001; addi x14, x14, -2048) /* bypass */
  TEST_CASE(8, x0, 0, lui x0, 0x80000)

  /* auipc adds to its own pc: compare with a pc taken by jal. */
  TEST_CASE(10, x14, 0, jal x13, 1f; 1: auipc x14, 0; sub x14, x14, x13)
  TEST_CASE(11, x14, 0x1000, jal x13, 1f; 1: auipc x14, 1; sub x14, x14, x13)
  TEST_CASE(12, x14, 0x80000000, jal x13, 1f; 1: auipc x14, 0x80000; sub x14, x14, x13)
  TEST_CASE(13, x14, 0xfffff004, jal x13, 1f; 1: nop; auipc x14, 0xfffff; sub x14, x14, x13)
  TEST_CASE(14, x14, 0, la x13, 1f; 1: auipc x14, 0; sub x14, x14, x13)
  TEST_CASE(15, x0, 0, auipc x0, 1)
TEST_END
