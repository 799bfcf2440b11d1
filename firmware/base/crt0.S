/* crt0.S: reset entry for Tessel firmware (linker/sim.ld or dram.ld).
 *   1. gp, sp and tp (picolibc's thread pointer) from linker symbols
 *   2. mtvec -> trap_entry, before anything can trap
 *   3. clear .bss (.data needs no copy: the ELF loader places it; see
 *      linker/sections.ld)
 *   4. constructors (__libc_init_array), main(0, NULL), exit(main's value),
 *      which ends in _exit -> simulation control EXIT. */
  .section .text.init, "ax", @progbits
  .globl _start
_start:
  .option push
  .option norelax            /* gp is not set yet: no gp-relative la here */
  la gp, __global_pointer$
  .option pop
  la sp, __stack
  la tp, __tls_base

  la t0, trap_entry
  csrw mtvec, t0
  csrw mie, zero

  la a0, __bss_start
  la a1, __bss_end
1:
  bgeu a0, a1, 2f
  sw zero, 0(a0)
  addi a0, a0, 4
  j 1b
2:
  call __libc_init_array
  li a0, 0
  li a1, 0
  call main
  call exit
3:
  j 3b
