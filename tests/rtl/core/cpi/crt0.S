// crt0 for the core bench's C programs: stack, main, EXIT = main's return.
// The bench zeroes its RAM, so .bss needs no clearing.
  .section .text.init
  .globl _start
_start:
  la sp, _stack_top
  call main
  li t0, 0x20000004
  sw a0, 0(t0)
1: j 1b
