/* uart.c: UART driver and the picolibc stdio streams on it. See uart.h. */
#include "uart.h"

#include <stdio.h>

#include "mmio.h"

void uart_putc(char c) {
  /* TXDATA stalls the write while the buffer is full: no polling needed. */
  mmio_write32(UART_TXDATA, (uint8_t)c);
}

void uart_puts(const char *s) {
  while (*s) uart_putc(*s++);
}

void uart_put_hex32(uint32_t v) {
  uart_puts("0x");
  for (int shift = 28; shift >= 0; shift -= 4) uart_putc("0123456789abcdef"[(v >> shift) & 0xF]);
}

int uart_getc_nonblock(void) {
  uint32_t v = mmio_read32(UART_RXDATA);
  return (v & TSL_UART_RXDATA_EMPTY) ? -1 : (int)(v & TSL_UART_RXDATA_DATA);
}

/* picolibc 1.8 (tinystdio): the application defines stdin/stdout/stderr as
 * FILE pointers; FDEV_SETUP_STREAM builds a FILE from put/get callbacks. */
static int stdio_put(char c, FILE *f) {
  (void)f;
  uart_putc(c);
  return (unsigned char)c;
}

static int stdio_get(FILE *f) {
  (void)f;
  int c = uart_getc_nonblock();
  return c < 0 ? _FDEV_EOF : c;
}

static FILE uart_stream = FDEV_SETUP_STREAM(stdio_put, stdio_get, NULL, _FDEV_SETUP_RW);

FILE *const stdin = &uart_stream;
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;
