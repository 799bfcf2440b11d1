/* link.c: tessel-link.elf, the firmware of the host link (docs/host-link.md).
 *
 * At boot it validates and loads the package found at TFW_LINK_PKG_ADDR (on
 * a board the flash loader put it there; on tessel-sim, `--load
 * 0x80010000=model.tpkg`), says HELLO on the UART (versions, target, the
 * package's size and CRC, or why it did not load), then serves RUN frames
 * with the runtime (tfw_load/tfw_run/tfw_set_stats: the same executor as
 * every engine) until a BYE, which it acknowledges before exiting 0.
 *
 * The package is checked in full once, at boot, before the first inference:
 * every section's CRC and the weights' CRC where the NPU reads them
 * (tfw_load without TFW_LOAD_LAZY_WEIGHTS), so a package damaged in flash
 * or on its way to DRAM is refused, never run. One line of text on the
 * UART says what the check found (the host skips bytes outside frames);
 * after it the link owns the UART. */
#include <string.h>

#include "crc32.h"
#include "link_proto.h"
#include "tessel_fw.h"
#include "tessel_rt.h"
#include "tessel_target.h"

/* Where the package is, how large it may be, and where DRAM ends (the NPU's
 * window goes right after the package). Defaults: tessel-sim with its
 * default 64 MiB of DRAM; a board's rule overrides them with -D. */
#ifndef TFW_LINK_PKG_ADDR
#define TFW_LINK_PKG_ADDR 0x80010000u
#endif
#ifndef TFW_LINK_DRAM_END
#define TFW_LINK_DRAM_END 0x84000000u
#endif
/* A frame that stops arriving half way is dropped (and NAKed) after this
 * many core cycles without a byte: 2 s at the iCEBreaker's 12 MHz. */
#ifndef TFW_LINK_RX_TIMEOUT
#define TFW_LINK_RX_TIMEOUT 24000000ull
#endif

/* Per-kernel statistics live in data memory (fast) up to this many kernel
 * records; beyond, in DRAM after the window. The receive buffer holds the
 * largest frame payload the board takes (HELLO says how large: a RUN frame
 * is 4 bytes + the package's inputs). A board short of memory makes both
 * smaller. */
#ifndef TFW_LINK_STATS_MAX
#define TFW_LINK_STATS_MAX 64
#endif
#ifndef TFW_LINK_RX_BYTES
#define TFW_LINK_RX_BYTES TLINK_MAX_PAYLOAD
#endif
enum { LINK_STATS_MAX = TFW_LINK_STATS_MAX, LINK_MSG_BYTES = 160 };

static uint8_t rx_buf[TFW_LINK_RX_BYTES];
static tlink_rx rx;
static tfw_model m;
static tfw_kernel_stats stats_buf[LINK_STATS_MAX];
static uint64_t fb_buf[LINK_STATS_MAX];

/* The load's outcome, for HELLO and for refusing RUN. */
static struct {
  uint32_t pkg_bytes, pkg_crc;
  tfw_error e;
  uint64_t cycles;
  char msg[LINK_MSG_BYTES];
} boot;

/* ---- sending: a frame goes out in pieces, its CRC carried along ---- */

static void send_bytes(const void *p, uint32_t n) {
  const uint8_t *b = p;
  for (uint32_t i = 0; i < n; i++) uart_putc((char)b[i]);
}

static uint32_t tx_begin(uint8_t type, uint8_t seq, uint32_t len) {
  uint8_t h[TLINK_HDR_BYTES];
  uint32_t crc = tlink_header(h, type, seq, len);
  send_bytes(h, sizeof h);
  return crc;
}

static uint32_t tx_part(uint32_t crc, const void *p, uint32_t n) {
  send_bytes(p, n);
  return crc32_update(crc, p, n);
}

static void tx_end(uint32_t crc) {
  uint8_t t[TLINK_CRC_BYTES];
  tlink_trailer(t, crc);
  send_bytes(t, sizeof t);
}

static void send_nak(uint8_t seq, uint32_t reason, const char *text) {
  uint8_t r[4];
  uint32_t n = (uint32_t)strlen(text);
  tlink_wr32(r, reason);
  uint32_t crc = tx_begin(TLINK_T_NAK, seq, 4 + n);
  crc = tx_part(crc, r, 4);
  tx_end(tx_part(crc, text, n));
}

static void send_hello(uint8_t seq) {
  uint8_t h[TLINK_HELLO_BYTES];
  uint32_t n = (uint32_t)strlen(boot.msg);
  tlink_wr32(h + TLINK_HELLO_VERSION, TLINK_VERSION);
  tlink_wr32(h + TLINK_HELLO_RT_VERSION, TFW_RUNTIME_VERSION);
  tlink_wr32(h + TLINK_HELLO_TARGET, TSL_TARGET_HASH);
  tlink_wr32(h + TLINK_HELLO_PKG_BYTES, boot.pkg_bytes);
  tlink_wr32(h + TLINK_HELLO_PKG_CRC, boot.pkg_crc);
  tlink_wr32(h + TLINK_HELLO_STATUS, (uint32_t)boot.e.code);
  tlink_wr32(h + TLINK_HELLO_DETAIL, (uint32_t)boot.e.detail);
  tlink_wr32(h + TLINK_HELLO_MAX_PAYLOAD, TFW_LINK_RX_BYTES);
  tlink_wr64(h + TLINK_HELLO_LOAD_CYCLES, boot.cycles);
  uint32_t crc = tx_begin(TLINK_T_HELLO, seq, sizeof h + n);
  crc = tx_part(crc, h, sizeof h);
  tx_end(tx_part(crc, boot.msg, n));
}

/* ---- boot: find, check and load the package ---- */

static uint32_t align64(uint32_t v) { return (v + 63u) & ~63u; }

static void load_package(void) {
  const uint8_t *pkg = (const uint8_t *)(uintptr_t)TFW_LINK_PKG_ADDR;
  uint32_t room = TFW_LINK_DRAM_END - TFW_LINK_PKG_ADDR;
  /* The length comes from the header when there is one (tfw_load checks it
   * against everything else, and refuses a window that does not fit after
   * it); without the magic, the header alone is handed over so the refusal
   * names the magic. */
  uint32_t len = TPKG_HEADER_BYTES;
  if (!memcmp(pkg, TPKG_MAGIC, 4)) {
    uint32_t total = tpkg_rd32(pkg + TPKG_H_TOTAL);
    len = total < room ? total : room;
    boot.pkg_bytes = len;
    boot.pkg_crc = crc32(pkg, len);
  }
  uint32_t win = align64(TFW_LINK_PKG_ADDR + len);
  uint64_t t0 = timer_now();
  boot.e = (tfw_error){.code = TFW_OK, .kernel = -1, .index = -1};
  if (tfw_load(&m, tfw_npu_backend(), pkg, len, (void *)(uintptr_t)win, TFW_LINK_DRAM_END - win, 0, &boot.e) !=
      TFW_OK) {
    tfw_format_error(&boot.e, boot.msg, sizeof boot.msg);
    return;
  }
  boot.cycles = timer_now() - t0;
  /* Statistics in data memory when they fit, else in DRAM after the window. */
  uint8_t *after = (uint8_t *)(uintptr_t)align64(win + m.pkg.window.window_bytes);
  tfw_kernel_stats *ks = m.pkg.n_kernels <= LINK_STATS_MAX ? stats_buf : (tfw_kernel_stats *)after;
  uint64_t *fs = m.pkg.n_fallbacks <= LINK_STATS_MAX
                     ? fb_buf
                     : (uint64_t *)(after + align64(m.pkg.n_kernels * (uint32_t)sizeof *ks));
  memset(ks, 0, m.pkg.n_kernels * sizeof *ks);
  memset(fs, 0, m.pkg.n_fallbacks * sizeof *fs);
  tfw_set_stats(&m, ks, fs);
}

/* Bytes of every input (dir TPKG_DIR_INPUT) or output, back to back. */
static uint32_t io_bytes(uint32_t dir) {
  tpkg_io io;
  uint32_t n = dir == TPKG_DIR_INPUT ? tfw_num_inputs(&m) : tfw_num_outputs(&m), s = 0;
  for (uint32_t i = 0; i < n; i++) s += (dir == TPKG_DIR_INPUT ? tfw_input(&m, i, &io) : tfw_output(&m, i, &io))->size;
  return s;
}

/* ---- serving RUN ---- */

static void serve_run(uint8_t seq) {
  char text[LINK_MSG_BYTES];
  if (boot.e.code != TFW_OK) {
    send_nak(seq, TLINK_NAK_NOT_READY, boot.msg);
    return;
  }
  uint32_t in_bytes = io_bytes(TPKG_DIR_INPUT), out_bytes = io_bytes(TPKG_DIR_OUTPUT);
  uint32_t nk = m.pkg.n_kernels, nf = m.pkg.n_fallbacks;
  uint32_t stats_bytes = nk * (uint32_t)sizeof(tfw_kernel_stats) + nf * 8u;
  if (rx.len != TLINK_RUN_HDR + in_bytes) {
    send_nak(seq, TLINK_NAK_LENGTH, "RUN payload is not 4 bytes + the package's input bytes");
    return;
  }
  if ((uint64_t)TLINK_RES_HDR + out_bytes + stats_bytes + LINK_MSG_BYTES > TLINK_MAX_PAYLOAD) {
    send_nak(seq, TLINK_NAK_LENGTH, "the outputs and counters of this package exceed a RESULT frame");
    return;
  }
  /* Inputs into the window, in I/O order. */
  const uint8_t *src = rx_buf + TLINK_RUN_HDR;
  tpkg_io io;
  for (uint32_t i = 0; i < tfw_num_inputs(&m); i++) {
    const tpkg_io *p = tfw_input(&m, i, &io);
    memcpy(tfw_io_data(&m, p), src, p->size);
    src += p->size;
  }
  tfw_error e = {.code = TFW_OK, .kernel = -1, .index = -1};
  uint64_t t0 = timer_now();
  tfw_run(&m, &e);
  uint64_t cycles = timer_now() - t0;
  tfw_run_stats(&m);
  uint32_t n = 0;
  if (e.code != TFW_OK) n = (uint32_t)strlen(tfw_format_error(&e, text, sizeof text));
  uint8_t h[TLINK_RES_HDR];
  tlink_wr32(h + TLINK_RES_INDEX, tlink_rd32(rx_buf));
  tlink_wr32(h + TLINK_RES_STATUS, (uint32_t)e.code);
  tlink_wr32(h + TLINK_RES_DETAIL, (uint32_t)e.detail);
  tlink_wr32(h + TLINK_RES_KERNEL, (uint32_t)e.kernel);
  tlink_wr32(h + TLINK_RES_N_KERNELS, nk);
  tlink_wr32(h + TLINK_RES_N_FALLBACKS, nf);
  tlink_wr64(h + TLINK_RES_CYCLES, cycles);
  uint32_t crc = tx_begin(TLINK_T_RESULT, seq, TLINK_RES_HDR + out_bytes + stats_bytes + n);
  crc = tx_part(crc, h, sizeof h);
  for (uint32_t i = 0; i < tfw_num_outputs(&m); i++) {
    const tpkg_io *p = tfw_output(&m, i, &io);
    crc = tx_part(crc, tfw_io_data(&m, p), p->size);
  }
  /* tfw_kernel_stats is u64s only: its bytes on this little-endian core
   * are the frame's layout. */
  crc = tx_part(crc, m.kstats, nk * (uint32_t)sizeof(tfw_kernel_stats));
  crc = tx_part(crc, m.fallback_cycles, nf * 8u);
  tx_end(tx_part(crc, text, n));
}

/* ---- receiving ---- */

enum { LINK_RX_TIMEOUT = -100 };

/* The next frame or decoder error; a frame cut short times out. */
static int recv_frame(void) {
  uint64_t last = timer_now();
  for (;;) {
    int c = uart_getc_nonblock();
    if (c < 0) {
      if (tlink_rx_partial(&rx) && timer_now() - last > TFW_LINK_RX_TIMEOUT) {
        tlink_rx_reset(&rx);
        return LINK_RX_TIMEOUT;
      }
      continue;
    }
    last = timer_now();
    int r = tlink_rx_byte(&rx, (uint8_t)c);
    if (r != TLINK_RX_MORE) return r;
  }
}

/* The boot line, for a terminal on the UART: the package checked and
 * ready, refused (why), or missing. */
static void say_loaded(void) {
  if (!boot.pkg_bytes) {
    uart_puts("tessel-link: no package at ");
    uart_put_hex32(TFW_LINK_PKG_ADDR);
  } else {
    uart_puts("tessel-link: package of ");
    uart_put_hex32(boot.pkg_bytes);
    uart_puts(" bytes, CRC ");
    uart_put_hex32(boot.pkg_crc);
    if (boot.e.code == TFW_OK) {
      uart_puts(": sections and weights checked, ready");
    } else {
      uart_puts(": refused: ");
      uart_puts(boot.msg);
    }
  }
  uart_puts("\r\n");
}

int main(void) {
  tlink_rx_init(&rx, rx_buf, sizeof rx_buf);
  load_package();
  say_loaded();
  send_hello(0);
  for (;;) {
    int r = recv_frame();
    if (r == TLINK_RX_E_CRC) {
      send_nak(rx.seq, TLINK_NAK_CRC, "frame CRC mismatch");
    } else if (r == TLINK_RX_E_LENGTH) {
      send_nak(rx.seq, TLINK_NAK_LENGTH, "frame length above the board's 16384 bytes");
    } else if (r == LINK_RX_TIMEOUT) {
      send_nak(rx.seq, TLINK_NAK_TIMEOUT, "frame cut short: no byte within the receive timeout");
    } else if (rx.type == TLINK_T_HELLO) {
      send_hello(rx.seq);
    } else if (rx.type == TLINK_T_RUN) {
      serve_run(rx.seq);
    } else if (rx.type == TLINK_T_BYE) {
      tx_end(tx_begin(TLINK_T_ACK, rx.seq, 0));
      return 0;
    } else {
      send_nak(rx.seq, TLINK_NAK_TYPE, "unknown frame type");
    }
  }
}
