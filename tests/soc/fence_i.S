/* fence_i.S: code copied to DRAM, DMEM and IMEM runs there after fence.i;
 * code rewritten in place runs in its new form after fence.i.
 * Exit code = the failing case. */
#include "soc_test.h"

/* Copies func (3 words) to addr, fence.i, calls it; expects a0 == val. */
#define RUN_COPY(n, addr, val)          \
  li   gp, n;                           \
  li   a0, addr;                        \
  la   a1, func;                        \
  lw   t0, 0(a1); sw t0, 0(a0);         \
  lw   t0, 4(a1); sw t0, 4(a0);         \
  lw   t0, 8(a1); sw t0, 8(a0);         \
  fence.i;                              \
  jalr a0;                              \
  li   t0, val;                         \
  beq  a0, t0, 1f;                      \
  EXIT_WITH(n);                         \
1:

/* Rewrites the first instruction at addr to `addi a0, zero, 77`. */
#define PATCH(n, addr)                  \
  li   gp, n;                           \
  li   a0, addr;                        \
  li   t0, 0x04d00513;                  \
  sw   t0, 0(a0);                       \
  fence.i;                              \
  jalr a0;                              \
  li   t0, 77;                          \
  beq  a0, t0, 1f;                      \
  EXIT_WITH(n);                         \
1:

TEST_START
  RUN_COPY(2, 0x80001000, 42)   /* DRAM */
  PATCH(3, 0x80001000)
  RUN_COPY(4, 0x10008000, 42)   /* DMEM */
  PATCH(5, 0x10008000)
  RUN_COPY(6, 0x00008000, 42)   /* IMEM, written over the data bus */
  PATCH(7, 0x00008000)
  EXIT_WITH(0)

  .align 2
func:
  addi a0, zero, 42
  nop
  ret
