/* tohost_even.S: writes an even value (a proxy-kernel syscall, which
 * tessel-sim does not serve) to tohost, in DMEM. */
#include "soc_test.h"
TEST_START
  li   t0, 4
  la   t1, tohost
  sw   t0, 0(t1)
1: j 1b
  .data
  .align 3
  .globl tohost
tohost: .dword 0
