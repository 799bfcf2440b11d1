/* tohost_fail_dram.S: runs from DRAM and reports test 5 failed. */
#include "soc_test.h"
TEST_START
  li   t0, (5 << 1) | 1
  la   t1, tohost
  sw   t0, 0(t1)
1: j 1b
  .data
  .align 3
  .globl tohost
tohost: .dword 0
