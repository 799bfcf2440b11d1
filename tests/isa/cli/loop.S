/* loop.S: never ends; the ISS's --max-insns limit must stop it (exit 121). */
  .section .text.init, "ax", @progbits
  .globl _start
_start:
  j _start
