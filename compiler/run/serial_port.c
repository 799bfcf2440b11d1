/* serial_port: termios raw 8N1 and reads with deadlines (see serial_port.h). */
#include "serial_port.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static const struct {
  uint32_t baud;
  speed_t code;
} rates[] = {
    {9600, B9600},       {19200, B19200},     {38400, B38400},     {57600, B57600},
    {115200, B115200},   {230400, B230400},   {460800, B460800},   {500000, B500000},
    {576000, B576000},   {921600, B921600},   {1000000, B1000000}, {1152000, B1152000},
    {1500000, B1500000}, {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000},
};

static speed_t baud_code(uint32_t baud) {
  for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
    if (rates[i].baud == baud) return rates[i].code;
  return 0;
}

int serial_baud_ok(uint32_t baud) { return baud_code(baud) != 0; }

int serial_open(serial_port *p, const char *path, uint32_t baud, diag *d) {
  p->path = path;
  p->fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
  if (p->fd < 0) {
    diag_set(d, "--port %s: cannot open: %s", path, strerror(errno));
    return SERIAL_E_OPEN;
  }
  struct termios t;
  if (!isatty(p->fd) || tcgetattr(p->fd, &t) != 0) {
    diag_set(d, "--port %s: not a serial port (a tty): give the board's UART device or the pty tessel-sim "
                "--uart-pty printed", path);
    serial_close(p);
    return SERIAL_E_NOT_TTY;
  }
  /* Raw bytes both ways: no echo, no CR/LF translation, no flow control;
   * 8 data bits, no parity, 1 stop bit. TCSANOW, not TCSAFLUSH: a HELLO the
   * board sent before we opened the port is still wanted. */
  cfmakeraw(&t);
  t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
  t.c_cflag |= CS8 | CLOCAL | CREAD;
  t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
  t.c_cc[VMIN] = 0, t.c_cc[VTIME] = 0;
  cfsetispeed(&t, baud_code(baud));
  cfsetospeed(&t, baud_code(baud));
  if (tcsetattr(p->fd, TCSANOW, &t) != 0) {
    diag_set(d, "--port %s: cannot set raw 8N1 at %u baud: %s", path, baud, strerror(errno));
    serial_close(p);
    return SERIAL_E_OPEN;
  }
  return 0;
}

static long ms_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

int serial_write(serial_port *p, const void *buf, size_t n, int timeout_ms, diag *d) {
  const uint8_t *b = buf;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (n > 0) {
    long left = timeout_ms - ms_since(&t0);
    struct pollfd pf = {p->fd, POLLOUT, 0};
    int r = left > 0 ? poll(&pf, 1, (int)left) : 0;
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return diag_set(d, "--port %s: the device took no more bytes for %d ms", p->path, timeout_ms);
    ssize_t k = write(p->fd, b, n);
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (k < 0) return diag_set(d, "--port %s: write failed: %s", p->path, strerror(errno));
    b += k, n -= (size_t)k;
  }
  return 0;
}

long serial_read(serial_port *p, void *buf, size_t cap, int timeout_ms, diag *d) {
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    long left = timeout_ms - ms_since(&t0);
    if (left <= 0) return 0;
    struct pollfd pf = {p->fd, POLLIN, 0};
    int r = poll(&pf, 1, (int)left);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return diag_set(d, "--port %s: %s", p->path, strerror(errno));
    if (r == 0) return 0;
    ssize_t k = read(p->fd, buf, cap);
    if (k > 0) return k;
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    /* A pty whose other side has gone reads EIO (or 0): the board is gone,
     * which waiting longer will not change. */
    return diag_set(d, "--port %s: the device went away (%s)", p->path, k == 0 ? "end of file" : strerror(errno));
  }
}

void serial_close(serial_port *p) {
  if (p->fd >= 0) close(p->fd);
  p->fd = -1;
}
