/* uart_rx.S: echoes two bytes read from the UART (stdin) as byte+1, then
 * exits 0; gives up (exit 1) if nothing comes. */
#include "soc_test.h"
TEST_START
  li   s0, UART_BASE
  li   s1, 2                    /* bytes to echo */
next:
  li   s2, 3000000              /* polls before giving up */
1:
  lw   t0, UART_RX(s0)
  bgez t0, 2f                   /* bit 31 clear: a byte */
  addi s2, s2, -1
  bnez s2, 1b
  EXIT_WITH(1)
2:
  addi t0, t0, 1
  sw   t0, UART_TX(s0)
  addi s1, s1, -1
  bnez s1, next
  li   t0, 10
  sw   t0, UART_TX(s0)
  EXIT_WITH(0)
