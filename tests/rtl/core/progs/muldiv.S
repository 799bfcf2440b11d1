// M extension: all eight instructions with sign corner cases, division by
// zero, the INT_MIN / -1 overflow, results used immediately, and ops back to back.
#include "tb.h"
#define OP(n, op, a, b, r) li a0, a; li a1, b; op a2, a0, a1; CHECK(n, a2, r)
TB_START
  OP(1, mul, 7, 6, 42)
  OP(2, mul, -7, 6, -42)
  OP(3, mul, 0x80000000, -1, 0x80000000)
  OP(4, mul, 0x12345678, 0x9abcdef0, 0x242d2080)
  OP(5, mulh, -1, -1, 0)
  OP(6, mulh, 0x80000000, 0x80000000, 0x40000000)
  OP(7, mulh, 0x80000000, 0x7fffffff, 0xc0000000)
  OP(8, mulh, 0x12345678, 0x9abcdef0, 0xf8cc93d6)
  OP(9, mulhu, -1, -1, 0xfffffffe)
  OP(10, mulhu, 0x12345678, 0x9abcdef0, 0x0b00ea4e)
  OP(11, mulhu, 0x80000000, 2, 1)
  OP(12, mulhsu, -1, -1, 0xffffffff)
  OP(13, mulhsu, 0x80000000, 0xffffffff, 0x80000000)
  OP(14, mulhsu, 0x12345678, 0x9abcdef0, 0x0b00ea4e)
  OP(15, mulhsu, 0x9abcdef0, 0x12345678, 0xf8cc93d6)
  OP(16, mulhsu, 5, 0x80000000, 2)
  OP(17, div, 20, 6, 3)
  OP(18, div, -20, 6, -3)
  OP(19, div, 20, -6, -3)
  OP(20, div, -20, -6, 3)
  OP(21, div, 0x80000000, -1, 0x80000000)
  OP(22, div, 5, 0, -1)
  OP(23, div, -5, 0, -1)
  OP(24, divu, 20, 6, 3)
  OP(25, divu, -20, 6, 0x2aaaaaa7)
  OP(26, divu, 5, 0, 0xffffffff)
  OP(27, divu, 0x80000000, -1, 0)
  OP(28, rem, 20, 6, 2)
  OP(29, rem, -20, 6, -2)
  OP(30, rem, 20, -6, 2)
  OP(31, rem, -20, -6, -2)
  OP(32, rem, 0x80000000, -1, 0)
  OP(33, rem, 5, 0, 5)
  OP(34, rem, -5, 0, -5)
  OP(35, remu, 20, 6, 2)
  OP(36, remu, -20, 6, 2)
  OP(37, remu, 5, 0, 5)
  OP(38, remu, 0xffffffff, 0xfffffffe, 1)
  OP(39, div, 0, 0, -1)
  OP(40, divu, 0xffffffff, 1, 0xffffffff)
  // results used by the next instruction, and M ops back to back
  li a0, 12
  li a1, 5
  mul a2, a0, a1
  div a3, a2, a1
  rem a4, a2, a0
  add a5, a3, a4
  CHECK(41, a5, 12)
  mul a2, a2, a2
  mulhu a3, a2, a2
  CHECK(42, a2, 3600)
  CHECK(43, a3, 0)
  // an M op reading a just-loaded value
  la t0, val
  lw t1, 0(t0)
  mul t2, t1, t1
  CHECK(44, t2, 9801)
  lw t1, 0(t0)
  divu t2, t1, t1
  CHECK(45, t2, 1)
  // rd = x0 discards the result
  mul zero, a0, a1
  div zero, a0, a1
  CHECK(46, zero, 0)
  // same register as both sources and destination
  li t3, -9
  mul t3, t3, t3
  CHECK(47, t3, 81)
  div t3, t3, t3
  CHECK(48, t3, 1)
  TB_PASS
  .data
  .balign 4
val: .word 99
