/* uart.S: UART transmit (TXDATA stalls while full, STATUS bit 0), RXDATA
 * with nothing received (bit 31), and EXIT passing the code 7 through. */
#include "soc_test.h"
TEST_START
  li   s0, UART_BASE
  la   s1, msg
1:
  lbu  a0, 0(s1)
  beqz a0, 2f
  sb   a0, UART_TX(s0)          /* a byte store: the low lane */
  addi s1, s1, 1
  j    1b
2:
  /* The transmitter drains every cycle: STATUS.txready comes back. */
  li   t2, 100
3:
  lw   t0, UART_STATUS(s0)
  andi t0, t0, 1
  bnez t0, 4f
  addi t2, t2, -1
  bnez t2, 3b
  EXIT_WITH(1)
4:
  lw   t0, UART_RX(s0)          /* stdin is empty: bit 31 set */
  li   t1, 0x80000000
  beq  t0, t1, 5f
  EXIT_WITH(2)
5:
  lw   t0, UART_STATUS(s0)
  andi t0, t0, 2
  beqz t0, 6f
  EXIT_WITH(3)
6:
  EXIT_WITH(7)

  .data
msg: .asciz "UART ok\n"
