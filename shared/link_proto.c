/* link_proto: frame encoder and byte-at-a-time decoder of the host link
 * (see link_proto.h). */
#include "link_proto.h"

#include "crc32.h"

/* Decoder states: hunting for SYNC0, then SYNC1, then the 6 header bytes,
 * the payload, the 4 CRC bytes. */
enum { RX_SYNC0, RX_SYNC1, RX_HDR, RX_PAYLOAD, RX_CRC };

uint32_t tlink_header(uint8_t hdr[TLINK_HDR_BYTES], uint8_t type, uint8_t seq, uint32_t len) {
  hdr[0] = TLINK_SYNC0, hdr[1] = TLINK_SYNC1, hdr[2] = type, hdr[3] = seq;
  tlink_wr32(hdr + 4, len);
  return crc32_update(0, hdr + 2, TLINK_HDR_BYTES - 2);
}

void tlink_trailer(uint8_t out[TLINK_CRC_BYTES], uint32_t crc) { tlink_wr32(out, crc); }

size_t tlink_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t seq, const void *payload, uint32_t len) {
  if (cap < TLINK_OVERHEAD || len > cap - TLINK_OVERHEAD) return 0;
  uint32_t crc = tlink_header(out, type, seq, len);
  const uint8_t *p = payload;
  for (uint32_t i = 0; i < len; i++) out[TLINK_HDR_BYTES + i] = p[i];
  crc = crc32_update(crc, out + TLINK_HDR_BYTES, len);
  tlink_trailer(out + TLINK_HDR_BYTES + len, crc);
  return TLINK_OVERHEAD + (size_t)len;
}

void tlink_rx_init(tlink_rx *r, uint8_t *buf, uint32_t cap) {
  r->buf = buf, r->cap = cap;
  r->state = RX_SYNC0, r->pos = 0;
  r->type = 0, r->seq = 0, r->len = 0, r->skipped = 0;
}

void tlink_rx_reset(tlink_rx *r) { r->state = RX_SYNC0, r->pos = 0; }

int tlink_rx_partial(const tlink_rx *r) { return r->state >= RX_HDR; }

int tlink_rx_byte(tlink_rx *r, uint8_t b) {
  switch (r->state) {
  case RX_SYNC0:
    if (b == TLINK_SYNC0) r->state = RX_SYNC1;
    else r->skipped++;
    return TLINK_RX_MORE;
  case RX_SYNC1:
    /* A repeated SYNC0 may itself start the frame (garbage ending in 0xA5). */
    if (b == TLINK_SYNC1) r->state = RX_HDR, r->pos = 0;
    else if (b != TLINK_SYNC0) r->state = RX_SYNC0, r->skipped += 2;
    else r->skipped++;
    return TLINK_RX_MORE;
  case RX_HDR:
    r->hdr[r->pos++] = b;
    if (r->pos < sizeof r->hdr) return TLINK_RX_MORE;
    r->type = r->hdr[0], r->seq = r->hdr[1], r->len = tlink_rd32(r->hdr + 2);
    r->pos = 0;
    /* Refused at once: waiting for a corrupted length's bytes would stall
     * the link until a timeout. */
    if (r->len > r->cap) {
      r->state = RX_SYNC0;
      return TLINK_RX_E_LENGTH;
    }
    r->state = r->len ? RX_PAYLOAD : RX_CRC;
    return TLINK_RX_MORE;
  case RX_PAYLOAD:
    r->buf[r->pos++] = b;
    if (r->pos == r->len) r->state = RX_CRC, r->pos = 0;
    return TLINK_RX_MORE;
  default: {
    r->crc_in[r->pos++] = b;
    if (r->pos < sizeof r->crc_in) return TLINK_RX_MORE;
    r->state = RX_SYNC0, r->pos = 0;
    uint32_t crc = crc32_update(crc32_update(0, r->hdr, sizeof r->hdr), r->buf, r->len);
    return crc == tlink_rd32(r->crc_in) ? TLINK_RX_FRAME : TLINK_RX_E_CRC;
  }
  }
}

const char *tlink_type_name(uint32_t type) {
  static const char *const names[] = {"?", "HELLO", "RUN", "RESULT", "NAK", "ACK", "BYE"};
  return type < sizeof names / sizeof names[0] ? names[type] : "?";
}

const char *tlink_nak_name(uint32_t reason) {
  static const char *const names[] = {"?", "CRC", "LENGTH", "TYPE", "TIMEOUT", "NOT_READY"};
  return reason < sizeof names / sizeof names[0] ? names[reason] : "?";
}
