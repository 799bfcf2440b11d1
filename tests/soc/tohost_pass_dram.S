/* tohost_pass_dram.S: runs from DRAM and reports a pass through tohost. */
#include "soc_test.h"
TEST_START
  li   t0, 1
  la   t1, tohost
  sw   t0, 0(t1)
1: j 1b
  .data
  .align 3
  .globl tohost
tohost: .dword 0
