/* soc_test.h: addresses (docs/memory-map.md) and macros for the SoC test
 * programs. A program starts at _start, ends with EXIT_WITH(code); any
 * unexpected trap exits with 99 so a failure never hangs a test. */
#ifndef TESSEL_SOC_TEST_H
#define TESSEL_SOC_TEST_H

#define UART_BASE   0x20000000
#define UART_TX     0x0
#define UART_RX     0x4
#define UART_STATUS 0x8
#define TIMER_BASE  0x20001000
#define SIMCTL_BASE 0x20002000
#define SIM_EXIT    0x0
#define SIM_EXT_IRQ 0x4

/* Writes `code` to the EXIT register and spins. */
#define EXIT_WITH(code) \
  li t0, code;          \
  li t1, SIMCTL_BASE;   \
  sw t0, SIM_EXIT(t1);  \
  9: j 9b

/* Sends the byte in register r to the UART (clobbers t6). */
#define PUTC(r)       \
  li t6, UART_BASE;   \
  sw r, UART_TX(t6)

/* Entry: trap vector to `unexpected_trap`, which exits with 99. */
#define TEST_START                  \
  .section .text.init, "ax";        \
  .globl _start;                    \
_start:                             \
  la t0, unexpected_trap;           \
  csrw mtvec, t0;                   \
  j 8f;                             \
  .align 2;                         \
unexpected_trap:                    \
  EXIT_WITH(99);                    \
8:

#endif
