/* run_board: the `board` engine of tessel run: the link firmware
 * (firmware/runtime/link.c) on a board, or on tessel-sim --uart-pty, over a
 * serial port with the frames of link_proto.h (docs/host-link.md).
 *
 *   1. open the port (raw 8N1), wait for the board's HELLO (asking again
 *      every second), check it runs this package for this target;
 *   2. per inference one RUN frame with its inputs, one RESULT back with
 *      the outputs, the per-kernel counters and the core cycles; a NAK, a
 *      corrupted reply or no reply resends the RUN (bounded), then fails;
 *   3. BYE, which the firmware acknowledges before it exits.
 *
 * Every read has a deadline (--timeout): nothing here waits forever.
 *
 * Test-only fault injection: TESSEL_LINK_FAULT=N flips one bit of the Nth
 * RUN frame sent (retries count); N- flips it in that frame and every later
 * one, so the board's NAKs exhaust the retries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crc32.h"
#include "link_proto.h"
#include "run_engine.h"
#include "serial_port.h"
#include "tessel_rt.h"

/* Attempts per RUN frame (the first and BOARD_RETRIES resends). */
enum { BOARD_RETRIES = 3, HELLO_ASK_MS = 1000 };

typedef struct {
  serial_port port;
  tlink_rx rx;
  uint8_t payload[TLINK_MAX_PAYLOAD]; /* the decoder's buffer */
  uint8_t raw[4096];                  /* bytes read, not yet decoded */
  long raw_len, raw_pos;
  int timeout_ms;
  uint8_t seq;
  uint32_t runs_sent;                 /* RUN frames sent, for the fault injection */
  long fault_at;                      /* TESSEL_LINK_FAULT: 0 none */
  int fault_on;                       /* 1: every RUN frame from fault_at on */
} board_link;

/* What waiting for a frame gave. */
enum { GOT_FRAME = 1, GOT_TIMEOUT = 0, GOT_CORRUPT = -2, GOT_ERROR = -1 };

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void read_fault_env(board_link *l) {
  const char *s = getenv("TESSEL_LINK_FAULT");
  if (!s || !*s) return;
  char *end;
  long n = strtol(s, &end, 10);
  if (n > 0 && (!*end || !strcmp(end, "-"))) l->fault_at = n, l->fault_on = *end == '-';
}

static int send_frame(board_link *l, uint8_t type, uint8_t seq, const uint8_t *payload, uint32_t len, diag *d) {
  uint8_t *f = malloc(TLINK_OVERHEAD + (size_t)len);
  if (!f) return diag_set(d, "out of memory");
  size_t n = tlink_encode(f, TLINK_OVERHEAD + (size_t)len, type, seq, payload, len);
  if (type == TLINK_T_RUN) {
    l->runs_sent++;
    /* The last payload byte's low bit: the CRC catches it, the length stays
     * intact (a flipped length would only test the board's timeout). */
    if (l->fault_at && (l->runs_sent == (uint32_t)l->fault_at || (l->fault_on && l->runs_sent > (uint32_t)l->fault_at)))
      f[n - TLINK_CRC_BYTES - 1] ^= 1;
  }
  int rc = serial_write(&l->port, f, n, l->timeout_ms, d);
  free(f);
  return rc;
}

/* The next frame within ms milliseconds: GOT_FRAME (l->rx holds it),
 * GOT_TIMEOUT, GOT_CORRUPT (a frame with a bad CRC or length arrived), or
 * GOT_ERROR with d filled (the port failed). */
static int next_frame(board_link *l, int ms, diag *d) {
  double end = now_s() + ms / 1000.0;
  for (;;) {
    while (l->raw_pos < l->raw_len) {
      int r = tlink_rx_byte(&l->rx, l->raw[l->raw_pos++]);
      if (r == TLINK_RX_FRAME) return GOT_FRAME;
      if (r < 0) return GOT_CORRUPT;
    }
    int left = (int)((end - now_s()) * 1000.0);
    if (left <= 0) return GOT_TIMEOUT;
    long n = serial_read(&l->port, l->raw, sizeof l->raw, left, d);
    if (n < 0) return GOT_ERROR;
    if (n == 0) return GOT_TIMEOUT;
    l->raw_len = n, l->raw_pos = 0;
  }
}

/* Text at the end of a payload (after off bytes), for messages. */
static void payload_text(const board_link *l, uint32_t off, char *buf, size_t cap) {
  uint32_t n = l->rx.len > off ? l->rx.len - off : 0;
  if (n >= cap) n = (uint32_t)cap - 1;
  memcpy(buf, l->payload + off, n);
  buf[n] = 0;
  for (uint32_t i = 0; i < n; i++)
    if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e) buf[i] = '?';
}

/* Waits for the board's HELLO, asking for it again every second. */
static int wait_hello(board_link *l, diag *d) {
  double end = now_s() + l->timeout_ms / 1000.0;
  for (;;) {
    int left = (int)((end - now_s()) * 1000.0);
    if (left <= 0)
      return diag_set(d, "--port %s: no HELLO from the board within %.1f s: is the link firmware running "
                         "(build/firmware/<target>/tessel-link.elf) and the port right? (--timeout to wait longer)",
                      l->port.path, l->timeout_ms / 1000.0);
    int got = next_frame(l, left < HELLO_ASK_MS ? left : HELLO_ASK_MS, d);
    if (got == GOT_ERROR) return -1;
    if (got == GOT_FRAME && l->rx.type == TLINK_T_HELLO) break;
    if (got == GOT_TIMEOUT && send_frame(l, TLINK_T_HELLO, ++l->seq, NULL, 0, d)) return -1;
  }
  if (l->rx.len < TLINK_HELLO_BYTES) return diag_set(d, "--port %s: a HELLO of %u bytes: not this protocol", l->port.path, l->rx.len);
  return 0;
}

/* The board must run this protocol, this runtime, this target and this
 * package, loaded without error. (The package itself was checked in full
 * on this side before: run_cli's open_package, weights CRC included.) */
static uint32_t io_total(const tpkg_view *v, uint32_t dir) {
  uint32_t s = 0;
  tpkg_io io;
  for (uint32_t k = 0; k < v->n_io; k++) {
    tpkg_view_io(v, k, &io);
    if (io.dir == dir) s += io.size;
  }
  return s;
}

static int check_hello(const board_link *l, const uint8_t *pkg, uint32_t len, const tpkg_view *v, diag *d) {
  const uint8_t *h = l->payload;
  char text[256];
  payload_text(l, TLINK_HELLO_BYTES, text, sizeof text);
  uint32_t proto = tlink_rd32(h + TLINK_HELLO_VERSION), rt = tlink_rd32(h + TLINK_HELLO_RT_VERSION);
  uint32_t target = tlink_rd32(h + TLINK_HELLO_TARGET);
  uint32_t bytes = tlink_rd32(h + TLINK_HELLO_PKG_BYTES), crc = tlink_rd32(h + TLINK_HELLO_PKG_CRC);
  if (proto != TLINK_VERSION || rt != TFW_RUNTIME_VERSION)
    return diag_set(d, "the board speaks link protocol %u with runtime %u, this tessel %u with %u: "
                       "rebuild and reflash the link firmware", proto, rt, TLINK_VERSION, TFW_RUNTIME_VERSION);
  if (target != v->target_hash)
    return diag_set(d, "the board's firmware is built for target hash 0x%08X, the package for %s (0x%08X): "
                       "use build/firmware/%s/tessel-link.elf or a package for the board's target",
                    target, v->target_name, v->target_hash, v->target_name);
  if (bytes == 0) return diag_set(d, "the board found no package at its package address (%s)", text);
  uint32_t max_payload = tlink_rd32(h + TLINK_HELLO_MAX_PAYLOAD), in = io_total(v, TPKG_DIR_INPUT);
  if (TLINK_RUN_HDR + (uint64_t)in > max_payload)
    return diag_set(d, "the package's inputs (%u bytes) exceed the largest RUN frame the board takes (%u bytes of "
                       "payload, 4 of them the header): rebuild its link firmware with a larger TFW_LINK_RX_BYTES",
                    in, max_payload);
  /* A package the board refused first, whichever it is: its check at boot
   * (every CRC, the weights' included) is what failed. */
  uint32_t want = crc32(pkg, len);
  if ((int32_t)tlink_rd32(h + TLINK_HELLO_STATUS) != TFW_OK)
    return diag_set(d, "the board refused its package (%u bytes, CRC 0x%08X%s): %s: load a good copy (this one: "
                       "%u bytes, CRC 0x%08X)", bytes, crc, bytes == len && crc == want ? ", this one" : "", text,
                    len, want);
  if (bytes != len || crc != want)
    return diag_set(d, "the board runs another package (%u bytes, CRC 0x%08X), not this one (%u bytes, CRC 0x%08X): "
                       "load this package on the board first", bytes, crc, len, want);
  return 0;
}


/* A RESULT for inference r: outputs into b->out, counters of the run. */
static int take_result(const board_link *l, const tpkg_view *v, uint32_t r, run_batch *b, diag *d) {
  const uint8_t *p = l->payload;
  uint32_t nk = v->n_kernels, nf = v->n_fallbacks, out = io_total(v, TPKG_DIR_OUTPUT);
  uint64_t need = TLINK_RES_HDR + (uint64_t)out + (uint64_t)nk * 8 * (TSL_NCOUNTERS + 2) + (uint64_t)nf * 8;
  if (l->rx.len < need || tlink_rd32(p + TLINK_RES_N_KERNELS) != nk || tlink_rd32(p + TLINK_RES_N_FALLBACKS) != nf ||
      tlink_rd32(p + TLINK_RES_INDEX) != r)
    return diag_set(d, "inference %u: the board's RESULT (%u bytes) does not fit the package (%llu bytes, %u kernel "
                       "records)", r, l->rx.len, (unsigned long long)need, nk);
  int32_t status = (int32_t)tlink_rd32(p + TLINK_RES_STATUS);
  if (status != TFW_OK) {
    char text[256];
    payload_text(l, (uint32_t)need, text, sizeof text);
    return diag_set(d, "the board failed inference %u: %s", r, text);
  }
  const uint8_t *q = p + TLINK_RES_HDR;
  tpkg_io io;
  for (uint32_t k = 0, i = 0; k < v->n_io; k++) {
    tpkg_view_io(v, k, &io);
    if (io.dir != TPKG_DIR_OUTPUT) continue;
    memcpy(b->out[i++] + (size_t)r * io.size, q, io.size);
    q += io.size;
  }
  for (uint32_t k = 0; k < nk; k++, q += 8 * (TSL_NCOUNTERS + 2)) {
    for (uint32_t c = 0; c < TSL_NCOUNTERS; c++) b->kcounters[k][c] = tlink_rd64(q + 8 * c);
    b->kspan[k][0] = tlink_rd64(q + 8 * TSL_NCOUNTERS), b->kspan[k][1] = tlink_rd64(q + 8 * TSL_NCOUNTERS + 8);
  }
  for (uint32_t f = 0; f < nf; f++, q += 8) b->fb_cycles[f] = tlink_rd64(q);
  b->run_cycles += tlink_rd64(p + TLINK_RES_CYCLES);
  return 0;
}

/* One inference: RUN until a RESULT of its sequence number comes back. */
static int run_one(board_link *l, const tpkg_view *v, uint32_t r, const uint8_t *frame, uint32_t len, run_batch *b,
                   diag *d) {
  uint8_t seq = ++l->seq;
  char why[320] = "";
  for (int attempt = 0; attempt <= BOARD_RETRIES; attempt++) {
    if (attempt) b->link_retries++;
    if (send_frame(l, TLINK_T_RUN, seq, frame, len, d)) return -1;
    double end = now_s() + l->timeout_ms / 1000.0;
    for (;;) {
      int left = (int)((end - now_s()) * 1000.0);
      int got = left > 0 ? next_frame(l, left, d) : GOT_TIMEOUT;
      if (got == GOT_ERROR) return -1;
      if (got == GOT_TIMEOUT) {
        snprintf(why, sizeof why, "no reply within %.1f s", l->timeout_ms / 1000.0);
        break;
      }
      if (got == GOT_CORRUPT) {
        snprintf(why, sizeof why, "a corrupted reply (%s)", l->rx.len > l->rx.cap ? "length" : "CRC");
        break;
      }
      if (l->rx.seq != seq) continue; /* a stale reply, or a HELLO */
      if (l->rx.type == TLINK_T_RESULT) return take_result(l, v, r, b, d);
      if (l->rx.type == TLINK_T_NAK && l->rx.len >= 4) {
        uint32_t reason = tlink_rd32(l->payload);
        char text[256];
        payload_text(l, 4, text, sizeof text);
        if (reason == TLINK_NAK_NOT_READY) return diag_set(d, "the board has no package loaded: %s", text);
        snprintf(why, sizeof why, "NAK %s: %s", tlink_nak_name(reason), text);
        break;
      }
    }
  }
  return diag_set(d, "inference %u: the board did not take the RUN frame after %d attempts (last: %s)", r,
                  BOARD_RETRIES + 1, why);
}

/* BYE and its ACK; a missing ACK is only a warning (the results are in). */
static void say_bye(board_link *l) {
  uint8_t seq = ++l->seq;
  diag ignore = {0};
  if (send_frame(l, TLINK_T_BYE, seq, NULL, 0, &ignore) == 0) {
    double end = now_s() + l->timeout_ms / 1000.0;
    for (;;) {
      int left = (int)((end - now_s()) * 1000.0);
      int got = left > 0 ? next_frame(l, left, &ignore) : GOT_TIMEOUT;
      if (got == GOT_FRAME && l->rx.type == TLINK_T_ACK && l->rx.seq == seq) return;
      if (got != GOT_FRAME && got != GOT_CORRUPT) break;
    }
  }
  fprintf(stderr, "tessel run: warning: the board did not acknowledge BYE\n");
}

int run_engine_board(const uint8_t *pkg, uint32_t len, const tpkg_view *v, const run_opts *o, run_batch *b,
                     diag *d) {
  double t0 = now_s();
  board_link *l = calloc(1, sizeof *l);
  if (!l) return diag_set(d, "out of memory");
  l->timeout_ms = (int)(o->timeout_s * 1000.0);
  read_fault_env(l);
  tlink_rx_init(&l->rx, l->payload, sizeof l->payload);
  int rc = serial_open(&l->port, o->port, o->baud, d);
  if (rc) {
    free(l);
    return RUN_ENGINE_E_USAGE;
  }
  rc = -1;
  uint32_t in = io_total(v, TPKG_DIR_INPUT);
  uint8_t *frame = malloc(TLINK_RUN_HDR + (size_t)in);
  if (!frame) {
    diag_set(d, "out of memory");
    goto done;
  }
  if (TLINK_RUN_HDR + (uint64_t)in > TLINK_MAX_PAYLOAD) {
    diag_set(d, "the package's inputs (%u bytes) exceed a RUN frame (%u bytes): the board engine cannot run it", in,
             TLINK_MAX_PAYLOAD - TLINK_RUN_HDR);
    goto done;
  }
  if (wait_hello(l, d) || check_hello(l, pkg, len, v, d) || run_batch_alloc(v, b, d)) goto done;
  if (!(b->kspan = calloc(v->n_kernels ? v->n_kernels : 1, sizeof *b->kspan))) {
    diag_set(d, "out of memory");
    goto done;
  }
  for (uint32_t r = 0; r < b->runs; r++) {
    /* Inputs of inference r back to back in I/O order. */
    tlink_wr32(frame, r);
    uint8_t *q = frame + TLINK_RUN_HDR;
    tpkg_io io;
    for (uint32_t k = 0, i = 0; k < v->n_io; k++) {
      tpkg_view_io(v, k, &io);
      if (io.dir != TPKG_DIR_INPUT) continue;
      memcpy(q, b->in[i++] + (size_t)r * io.size, io.size);
      q += io.size;
    }
    if (run_one(l, v, r, frame, TLINK_RUN_HDR + in, b, d)) goto done;
  }
  say_bye(l);
  rc = 0;
done:
  free(frame);
  serial_close(&l->port);
  free(l);
  b->host_seconds = now_s() - t0;
  return rc;
}
