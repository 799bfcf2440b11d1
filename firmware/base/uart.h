/* uart.h: the UART, raw and as picolibc's stdin/stdout/stderr.
 *
 * stdout and stderr write bytes to TXDATA unbuffered, so output survives an
 * abrupt exit; stdin reads RXDATA and reports EOF when no byte is waiting
 * (a simulation with no input must not hang in getchar). */
#ifndef TESSEL_FW_UART_H
#define TESSEL_FW_UART_H

#include <stdint.h>

void uart_putc(char c);
void uart_puts(const char *s);           /* no newline added */
void uart_put_hex32(uint32_t v);         /* "0x" and 8 hex digits */
/* Next received byte, or -1 if none is waiting. */
int uart_getc_nonblock(void);

#endif
