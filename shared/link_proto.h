/* link_proto: the host link's frames (docs/host-link.md): how `tessel run
 * --engine board` and the link firmware (firmware/runtime/link.c) talk over
 * the SoC's UART. One definition for both sides: the firmware compiles this
 * source as it compiles crc32.c and tpkg_check.c. Freestanding: no libc
 * beyond <stddef.h>/<stdint.h>, no allocation.
 *
 * A frame, every field little-endian:
 *   0  u8   TLINK_SYNC0 (0xA5)
 *   1  u8   TLINK_SYNC1 (0x5A)
 *   2  u8   type (TLINK_T_*)
 *   3  u8   sequence number (a reply carries its request's)
 *   4  u32  payload length, at most TLINK_MAX_PAYLOAD
 *   8  ...  payload
 *   8+n u32 CRC-32 (crc32.h) of bytes 2 .. 8+n-1 (type, seq, length, payload)
 *
 * The decoder takes one byte at a time: it hunts for the two sync bytes
 * (anything else, e.g. text a firmware printed, is skipped and counted),
 * refuses a length above its buffer at once, and checks the CRC at the end.
 * After any error it hunts again from the next byte. */
#ifndef TESSEL_LINK_PROTO_H
#define TESSEL_LINK_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define TLINK_VERSION 1u          /* protocol version, in HELLO */
#define TLINK_SYNC0 0xA5u
#define TLINK_SYNC1 0x5Au
#define TLINK_HDR_BYTES 8u
#define TLINK_CRC_BYTES 4u
#define TLINK_OVERHEAD (TLINK_HDR_BYTES + TLINK_CRC_BYTES)
#define TLINK_MAX_PAYLOAD 16384u  /* the largest payload either side accepts */

/* Frame types. */
enum {
  TLINK_T_HELLO = 1,  /* board -> host after boot and on request; host -> board (empty): "say HELLO again" */
  TLINK_T_RUN = 2,    /* host -> board: the inputs of one inference */
  TLINK_T_RESULT = 3, /* board -> host: status, outputs, counters of that inference */
  TLINK_T_NAK = 4,    /* board -> host: a frame was refused (reason, text) */
  TLINK_T_ACK = 5,    /* board -> host: BYE received */
  TLINK_T_BYE = 6,    /* host -> board: done; the firmware acknowledges and exits 0 */
};

/* NAK reasons (u32 at payload offset 0; text follows). */
enum {
  TLINK_NAK_CRC = 1,        /* CRC mismatch */
  TLINK_NAK_LENGTH = 2,     /* length above the receiver's buffer, or not what the type needs */
  TLINK_NAK_TYPE = 3,       /* unknown frame type */
  TLINK_NAK_TIMEOUT = 4,    /* a frame stopped arriving half way */
  TLINK_NAK_NOT_READY = 5,  /* RUN while no package is loaded (HELLO said why) */
};

/* HELLO payload (board -> host). */
enum {
  TLINK_HELLO_VERSION = 0,     /* u32 TLINK_VERSION */
  TLINK_HELLO_RT_VERSION = 4,  /* u32 TFW_RUNTIME_VERSION of the firmware */
  TLINK_HELLO_TARGET = 8,      /* u32 TSL_TARGET_HASH the firmware was built for */
  TLINK_HELLO_PKG_BYTES = 12,  /* u32 the loaded package's total_bytes (0: none found) */
  TLINK_HELLO_PKG_CRC = 16,    /* u32 CRC-32 of those bytes */
  TLINK_HELLO_STATUS = 20,     /* i32 tfw_load's result (TFW_OK or TFW_E_*) */
  TLINK_HELLO_DETAIL = 24,     /* i32 its tfw_error.detail */
  TLINK_HELLO_MAX_PAYLOAD = 28,/* u32 the largest payload the board takes */
  TLINK_HELLO_LOAD_CYCLES = 32,/* u64 core cycles of tfw_load */
  TLINK_HELLO_BYTES = 40,      /* then the load error's text (no NUL), if any */
};

/* RUN payload: u32 inference index (echoed in RESULT), then every graph
 * input's io.size bytes in the window layout, back to back in I/O order. */
#define TLINK_RUN_HDR 4u

/* RESULT payload: this header, then every graph output's io.size bytes back
 * to back in I/O order, then per kernel record TSL_NCOUNTERS + 2 u64
 * (tfw_kernel_stats: counters, start, end), then per fallback record one
 * u64 of core cycles, then the error's text (no NUL) if status != 0 (the
 * outputs and counters are then those the run left). */
enum {
  TLINK_RES_INDEX = 0,       /* u32 the RUN's inference index */
  TLINK_RES_STATUS = 4,      /* i32 tfw_run's result */
  TLINK_RES_DETAIL = 8,      /* i32 tfw_error.detail */
  TLINK_RES_KERNEL = 12,     /* i32 tfw_error.kernel */
  TLINK_RES_N_KERNELS = 16,  /* u32 kernel records that follow */
  TLINK_RES_N_FALLBACKS = 20,/* u32 fallback records that follow */
  TLINK_RES_CYCLES = 24,     /* u64 core cycles of tfw_run */
  TLINK_RES_HDR = 32,
};

/* Little-endian fields. */
static inline void tlink_wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t tlink_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void tlink_wr64(uint8_t *p, uint64_t v) { tlink_wr32(p, (uint32_t)v), tlink_wr32(p + 4, (uint32_t)(v >> 32)); }
static inline uint64_t tlink_rd64(const uint8_t *p) { return tlink_rd32(p) | (uint64_t)tlink_rd32(p + 4) << 32; }

/* ---- encoding ---- */

/* Writes the 8 header bytes of a frame and returns the CRC so far; the
 * payload is then fed with crc32_update (crc32.h) and the frame closed with
 * tlink_trailer. This lets a firmware send a payload in pieces without a
 * buffer for the whole frame. */
uint32_t tlink_header(uint8_t hdr[TLINK_HDR_BYTES], uint8_t type, uint8_t seq, uint32_t len);
/* The 4 CRC bytes that end a frame. */
void tlink_trailer(uint8_t out[TLINK_CRC_BYTES], uint32_t crc);
/* A whole frame into out (cap bytes): its size, or 0 if it does not fit. */
size_t tlink_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t seq, const void *payload, uint32_t len);

/* ---- decoding ---- */

/* What tlink_rx_byte returns. */
enum {
  TLINK_RX_MORE = 0,     /* keep feeding */
  TLINK_RX_FRAME = 1,    /* a whole frame with a good CRC: type, seq, len, buf hold it */
  TLINK_RX_E_CRC = -1,   /* a frame ended with a bad CRC (type, seq, len are what arrived) */
  TLINK_RX_E_LENGTH = -2,/* a header named a length above cap (type, seq, len are what arrived) */
};

typedef struct {
  uint8_t *buf;       /* payload buffer (caller's) */
  uint32_t cap;       /* its size: longer frames are refused */
  int state;          /* internal */
  uint32_t pos;       /* bytes of the current field/payload received */
  uint8_t hdr[6];     /* type, seq, length as received */
  uint8_t crc_in[4];  /* the frame's CRC bytes as received */
  uint8_t type, seq;  /* of the last frame (or refused header) */
  uint32_t len;       /* its payload length */
  uint32_t skipped;   /* bytes skipped while hunting for a sync (garbage, resync) */
} tlink_rx;

/* Starts a decoder on the caller's payload buffer of cap bytes. */
void tlink_rx_init(tlink_rx *r, uint8_t *buf, uint32_t cap);
/* Feeds one byte: TLINK_RX_MORE, TLINK_RX_FRAME or a TLINK_RX_E_* code.
 * After FRAME or an error the next byte starts a new hunt. */
int tlink_rx_byte(tlink_rx *r, uint8_t b);
/* 1 while a frame is half received (past its sync bytes): a receiver times
 * this out (tlink_rx_reset) when the rest does not come. */
int tlink_rx_partial(const tlink_rx *r);
/* Drops a half-received frame; hunts for the next sync. */
void tlink_rx_reset(tlink_rx *r);

/* Names for messages: "HELLO", ...; "CRC", ...; "?" when unknown. */
const char *tlink_type_name(uint32_t type);
const char *tlink_nak_name(uint32_t reason);

#endif
