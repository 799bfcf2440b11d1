/* link_poke: drives the link firmware (firmware/runtime/link.c) on a port
 * with hand-made frames, good and bad, and checks each reply: the board's
 * side of docs/host-link.md section 5, which `tessel run` never provokes.
 *
 *   link_poke PORT PKG_BYTES   board with a package of PKG_BYTES bytes loaded
 *                              (inputs of the digits model: 256 bytes)
 *   link_poke PORT 0           board without a package
 *
 * Prints PASS/FAIL lines; exit 0 when all passed. Every wait is bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_proto.h"
#include "serial_port.h"

static int passed, failed;
static serial_port port;
static tlink_rx rx;
static uint8_t payload[TLINK_MAX_PAYLOAD];

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  ok ? passed++ : failed++;
}

static void send_raw(const void *b, size_t n) {
  diag d = {0};
  if (serial_write(&port, b, n, 5000, &d)) printf("  write: %s\n", d.msg);
}

static void send(uint8_t type, uint8_t seq, const void *p, uint32_t len) {
  uint8_t f[TLINK_OVERHEAD + 512];
  size_t n = tlink_encode(f, sizeof f, type, seq, p, len);
  send_raw(f, n);
}

/* The next frame within ms, or 0. */
static int next(int ms) {
  uint8_t b;
  diag d = {0};
  for (;;) {
    long n = serial_read(&port, &b, 1, ms, &d);
    if (n <= 0) return 0;
    if (tlink_rx_byte(&rx, b) == TLINK_RX_FRAME) return 1;
  }
}

/* A reply of type and seq (and for a NAK, reason). */
static void expect(uint8_t type, uint8_t seq, uint32_t reason, const char *what) {
  int ok = next(20000) && rx.type == type && rx.seq == seq &&
           (type != TLINK_T_NAK || (rx.len >= 4 && tlink_rd32(payload) == reason));
  check(ok, what);
  if (!ok) printf("  got type %s seq %u len %u\n", tlink_type_name(rx.type), rx.seq, rx.len);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: link_poke PORT PKG_BYTES\n");
    return 2;
  }
  uint32_t pkg_bytes = (uint32_t)strtoul(argv[2], NULL, 10);
  diag d = {0};
  if (serial_open(&port, argv[1], 115200, &d)) {
    fprintf(stderr, "link_poke: %s\n", d.msg);
    return 2;
  }
  tlink_rx_init(&rx, payload, sizeof payload);

  /* The boot HELLO. */
  int got = next(20000) && rx.type == TLINK_T_HELLO && rx.seq == 0 && rx.len >= TLINK_HELLO_BYTES;
  check(got, "boot HELLO, seq 0");
  if (got) {
    check(tlink_rd32(payload + TLINK_HELLO_VERSION) == TLINK_VERSION, "HELLO: protocol version");
    check(tlink_rd32(payload + TLINK_HELLO_PKG_BYTES) == pkg_bytes, "HELLO: package bytes");
    check(tlink_rd32(payload + TLINK_HELLO_MAX_PAYLOAD) == TLINK_MAX_PAYLOAD, "HELLO: largest payload");
    check((tlink_rd32(payload + TLINK_HELLO_STATUS) == 0) == (pkg_bytes != 0), "HELLO: load status");
  }

  /* Garbage, then a HELLO request: skipped, then answered with its seq. */
  static const char junk[] = "\xA5\x01garbage\r\n\x5A";
  send_raw(junk, sizeof junk - 1);
  send(TLINK_T_HELLO, 7, NULL, 0);
  expect(TLINK_T_HELLO, 7, 0, "garbage skipped, HELLO request answered with its seq");

  if (pkg_bytes == 0) {
    uint8_t in[TLINK_RUN_HDR + 256] = {0};
    send(TLINK_T_RUN, 8, in, sizeof in);
    expect(TLINK_T_NAK, 8, TLINK_NAK_NOT_READY, "RUN without a package: NAK NOT_READY");
  } else {
    send(0x42, 8, NULL, 0);
    expect(TLINK_T_NAK, 8, TLINK_NAK_TYPE, "unknown type: NAK TYPE");

    uint8_t hdr[TLINK_HDR_BYTES];
    tlink_header(hdr, TLINK_T_RUN, 9, 100000);
    send_raw(hdr, sizeof hdr);
    expect(TLINK_T_NAK, 9, TLINK_NAK_LENGTH, "length above 16384: NAK LENGTH at once");

    send(TLINK_T_RUN, 10, "12345", 5);
    expect(TLINK_T_NAK, 10, TLINK_NAK_LENGTH, "RUN of the wrong size: NAK LENGTH");

    uint8_t in[TLINK_RUN_HDR + 256] = {0}, f[TLINK_OVERHEAD + sizeof in];
    size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 11, in, sizeof in);
    f[n - 1] ^= 0x10;
    send_raw(f, n);
    expect(TLINK_T_NAK, 11, TLINK_NAK_CRC, "bad CRC: NAK CRC");

    /* Half a frame, then silence: the firmware gives up on it. */
    n = tlink_encode(f, sizeof f, TLINK_T_RUN, 12, in, sizeof in);
    send_raw(f, 40);
    expect(TLINK_T_NAK, 12, TLINK_NAK_TIMEOUT, "frame cut short: NAK TIMEOUT");

    /* And the link still works. */
    send(TLINK_T_RUN, 13, in, sizeof in);
    got = next(20000) && rx.type == TLINK_T_RESULT && rx.seq == 13 && rx.len >= TLINK_RES_HDR;
    check(got && tlink_rd32(payload + TLINK_RES_STATUS) == 0 && tlink_rd32(payload + TLINK_RES_N_KERNELS) > 0,
          "then a good RUN: RESULT, status 0, kernel counters");
  }

  send(TLINK_T_BYE, 14, NULL, 0);
  expect(TLINK_T_ACK, 14, 0, "BYE: ACK");
  serial_close(&port);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
