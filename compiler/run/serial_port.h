/* serial_port: a serial device for the host link (docs/host-link.md): a
 * board's USB-UART or tessel-sim's pseudo-terminal, in raw 8N1 at a baud
 * rate (a pty ignores the rate). Every read has a deadline: nothing here
 * can wait forever. */
#ifndef TESSEL_SERIAL_PORT_H
#define TESSEL_SERIAL_PORT_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

typedef struct {
  int fd;            /* -1 when closed */
  const char *path;  /* as given (not owned) */
} serial_port;

/* 1 if baud is a rate this host can set (9600 .. 3000000, the termios
 * table's), else 0. */
int serial_baud_ok(uint32_t baud);

/* Opens path read/write, non-blocking, raw 8N1 at baud, discarding nothing
 * already waiting. 0, or -1 with d filled: cannot open (-1 and errno's
 * text), or not a tty (SERIAL_E_NOT_TTY). */
enum { SERIAL_E_OPEN = -1, SERIAL_E_NOT_TTY = -2 };
int serial_open(serial_port *p, const char *path, uint32_t baud, diag *d);

/* Writes n bytes, waiting at most timeout_ms for the device to take them.
 * 0, or -1 with d filled. */
int serial_write(serial_port *p, const void *buf, size_t n, int timeout_ms, diag *d);

/* Reads what is there, waiting at most timeout_ms for the first byte: the
 * count (1..cap), 0 on timeout, -1 with d filled when the device failed or
 * went away. */
long serial_read(serial_port *p, void *buf, size_t cap, int timeout_ms, diag *d);

void serial_close(serial_port *p);

#endif
