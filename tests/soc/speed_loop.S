/* speed_loop.S: a CPU-bound loop in the TCMs (ALU, loads, stores, branches)
 * for bench-sim-speed until build/firmware/bench-cpu.elf exists. The outer
 * count is in `rounds` so the bench can make it long. */
#include "soc_test.h"
TEST_START
  la   s0, buf
  la   t0, rounds
  lw   s1, 0(t0)
outer:
  li   s2, 256
  mv   a0, s0
inner:
  lw   a1, 0(a0)
  add  a1, a1, s2
  xor  a2, a1, s1
  sw   a2, 0(a0)
  addi a0, a0, 4
  andi a3, a0, 255
  bnez a3, 1f
  mv   a0, s0
1:
  addi s2, s2, -1
  bnez s2, inner
  addi s1, s1, -1
  bnez s1, outer
  EXIT_WITH(0)

  .data
rounds: .word 4000
  .align 6
buf:    .space 256
