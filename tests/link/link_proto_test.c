/* link_proto_test: the host link's frame encoder and decoder
 * (shared/link_proto.c): good frames, every truncation, every single-bit
 * corruption, oversize lengths, resynchronisation after garbage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crc32.h"
#include "link_proto.h"

/* Feeds n bytes; returns the last non-MORE result (MORE if none) and counts
 * frames seen. */
static int feed(tlink_rx *r, const uint8_t *b, size_t n, int *frames) {
  int last = TLINK_RX_MORE;
  for (size_t i = 0; i < n; i++) {
    int x = tlink_rx_byte(r, b[i]);
    if (x != TLINK_RX_MORE) last = x;
    if (x == TLINK_RX_FRAME && frames) ++*frames;
  }
  return last;
}

static const uint8_t payload[] = "inputs of one inference";

static void encode_layout(void **state) {
  (void)state;
  uint8_t f[64];
  size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 7, payload, 5);
  assert_int_equal(n, TLINK_OVERHEAD + 5);
  assert_int_equal(f[0], TLINK_SYNC0);
  assert_int_equal(f[1], TLINK_SYNC1);
  assert_int_equal(f[2], TLINK_T_RUN);
  assert_int_equal(f[3], 7);
  assert_int_equal(tlink_rd32(f + 4), 5);
  assert_memory_equal(f + 8, payload, 5);
  assert_int_equal(tlink_rd32(f + 13), crc32(f + 2, 11));
  /* Too small a buffer: nothing written, 0. */
  assert_int_equal(tlink_encode(f, TLINK_OVERHEAD + 4, TLINK_T_RUN, 7, payload, 5), 0);
  assert_int_equal(tlink_encode(f, 3, TLINK_T_ACK, 7, NULL, 0), 0);
}

/* The piecewise encoder (what the firmware uses) gives the same bytes. */
static void encode_in_pieces(void **state) {
  (void)state;
  uint8_t whole[64], parts[64];
  size_t n = tlink_encode(whole, sizeof whole, TLINK_T_RESULT, 200, payload, sizeof payload);
  uint32_t crc = tlink_header(parts, TLINK_T_RESULT, 200, sizeof payload);
  memcpy(parts + 8, payload, 10);
  crc = crc32_update(crc, payload, 10);
  memcpy(parts + 18, payload + 10, sizeof payload - 10);
  crc = crc32_update(crc, payload + 10, sizeof payload - 10);
  tlink_trailer(parts + 8 + sizeof payload, crc);
  assert_memory_equal(whole, parts, n);
}

static void decode_good(void **state) {
  (void)state;
  uint8_t f[64], buf[64];
  tlink_rx r;
  tlink_rx_init(&r, buf, sizeof buf);
  size_t n = tlink_encode(f, sizeof f, TLINK_T_HELLO, 3, payload, sizeof payload);
  int frames = 0;
  assert_int_equal(feed(&r, f, n, &frames), TLINK_RX_FRAME);
  assert_int_equal(frames, 1);
  assert_int_equal(r.type, TLINK_T_HELLO);
  assert_int_equal(r.seq, 3);
  assert_int_equal(r.len, sizeof payload);
  assert_memory_equal(buf, payload, sizeof payload);
  assert_false(tlink_rx_partial(&r));
  /* An empty payload, then the same decoder again. */
  n = tlink_encode(f, sizeof f, TLINK_T_BYE, 9, NULL, 0);
  assert_int_equal(feed(&r, f, n, NULL), TLINK_RX_FRAME);
  assert_int_equal(r.type, TLINK_T_BYE);
  assert_int_equal(r.len, 0);
  assert_int_equal(r.skipped, 0);
}

/* Every proper prefix of a frame is incomplete, never a frame or error;
 * the frame's own bytes then decode once the rest arrives. */
static void decode_every_truncation(void **state) {
  (void)state;
  uint8_t f[64], buf[64];
  size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 1, payload, sizeof payload);
  for (size_t cut = 0; cut < n; cut++) {
    tlink_rx r;
    tlink_rx_init(&r, buf, sizeof buf);
    assert_int_equal(feed(&r, f, cut, NULL), TLINK_RX_MORE);
    assert_int_equal(tlink_rx_partial(&r), cut >= 2);
    assert_int_equal(feed(&r, f + cut, n - cut, NULL), TLINK_RX_FRAME);
    /* A cut frame dropped by a timeout: the next whole frame decodes. */
    tlink_rx_init(&r, buf, sizeof buf);
    feed(&r, f, cut, NULL);
    tlink_rx_reset(&r);
    assert_false(tlink_rx_partial(&r));
    assert_int_equal(feed(&r, f, n, NULL), TLINK_RX_FRAME);
  }
}

/* Any single bit flipped after the sync bytes is caught: by the CRC, or,
 * in the length field, by the length bound or the CRC (a shorter length
 * ends early on a bad CRC). Never a frame. */
static void decode_bit_flips(void **state) {
  (void)state;
  uint8_t f[64], g[64], buf[64];
  size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 1, payload, sizeof payload);
  for (size_t byte = 2; byte < n; byte++) {
    for (int bit = 0; bit < 8; bit++) {
      memcpy(g, f, n);
      g[byte] ^= (uint8_t)(1u << bit);
      tlink_rx r;
      tlink_rx_init(&r, buf, sizeof buf);
      int frames = 0, errors = 0;
      for (size_t i = 0; i < n; i++) {
        int x = tlink_rx_byte(&r, g[i]);
        frames += x == TLINK_RX_FRAME;
        errors += x < 0;
      }
      assert_int_equal(frames, 0);
      if (byte < 4 || byte >= 8) assert_int_equal(errors, 1); /* type, seq, payload, CRC */
    }
  }
}

static void decode_bad_crc_then_good(void **state) {
  (void)state;
  uint8_t f[128], buf[64];
  size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 4, payload, sizeof payload);
  f[n - 1] ^= 0x80;
  size_t m = tlink_encode(f + n, sizeof f - n, TLINK_T_RUN, 5, payload, sizeof payload);
  tlink_rx r;
  tlink_rx_init(&r, buf, sizeof buf);
  assert_int_equal(feed(&r, f, n, NULL), TLINK_RX_E_CRC);
  assert_int_equal(r.seq, 4); /* the NAK can name the frame */
  assert_int_equal(feed(&r, f + n, m, NULL), TLINK_RX_FRAME);
  assert_int_equal(r.seq, 5);
}

/* A length above the buffer is refused as soon as the header is in, not
 * after waiting for bytes that may never come. */
static void decode_oversize(void **state) {
  (void)state;
  uint8_t buf[16], hdr[TLINK_HDR_BYTES];
  tlink_rx r;
  tlink_rx_init(&r, buf, sizeof buf);
  tlink_header(hdr, TLINK_T_RUN, 2, 17);
  assert_int_equal(feed(&r, hdr, sizeof hdr, NULL), TLINK_RX_E_LENGTH);
  assert_int_equal(r.len, 17);
  assert_false(tlink_rx_partial(&r));
  tlink_header(hdr, TLINK_T_RUN, 2, 0xFFFFFFFFu);
  assert_int_equal(feed(&r, hdr, sizeof hdr, NULL), TLINK_RX_E_LENGTH);
  /* Exactly the buffer's size is fine. */
  uint8_t f[64], p[16] = {1, 2, 3};
  size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 3, p, sizeof p);
  assert_int_equal(feed(&r, f, n, NULL), TLINK_RX_FRAME);
}

/* Text before a frame (a firmware's printf, line noise), stray sync bytes
 * and a sync byte doubled are skipped; the frame behind them decodes. */
static void decode_resync_after_garbage(void **state) {
  (void)state;
  uint8_t s[256], buf[64];
  size_t k = 0;
  const char *text = "boot: hello\r\n";
  memcpy(s, text, strlen(text)), k += strlen(text);
  s[k++] = TLINK_SYNC0, s[k++] = 0x00;                  /* a lone SYNC0 */
  s[k++] = TLINK_SYNC1;                                  /* a lone SYNC1 */
  s[k++] = TLINK_SYNC0;                                  /* SYNC0 twice, then the frame */
  k += tlink_encode(s + k, sizeof s - k, TLINK_T_HELLO, 0, payload, sizeof payload);
  tlink_rx r;
  tlink_rx_init(&r, buf, sizeof buf);
  int frames = 0;
  assert_int_equal(feed(&r, s, k, &frames), TLINK_RX_FRAME);
  assert_int_equal(frames, 1);
  assert_int_equal(r.type, TLINK_T_HELLO);
  assert_int_equal(r.skipped, strlen(text) + 4);
  /* After a corrupted frame the decoder hunts again and finds the next. */
  uint8_t f[128];
  size_t n = tlink_encode(f, sizeof f, TLINK_T_RUN, 1, payload, sizeof payload);
  f[10] ^= 4;
  n += tlink_encode(f + n, sizeof f - n, TLINK_T_RUN, 2, payload, sizeof payload);
  frames = 0;
  feed(&r, f, n, &frames);
  assert_int_equal(frames, 1);
  assert_int_equal(r.seq, 2);
}

static void names(void **state) {
  (void)state;
  assert_string_equal(tlink_type_name(TLINK_T_RESULT), "RESULT");
  assert_string_equal(tlink_type_name(99), "?");
  assert_string_equal(tlink_nak_name(TLINK_NAK_CRC), "CRC");
  assert_string_equal(tlink_nak_name(0), "?");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(encode_layout),         cmocka_unit_test(encode_in_pieces),
      cmocka_unit_test(decode_good),           cmocka_unit_test(decode_every_truncation),
      cmocka_unit_test(decode_bit_flips),      cmocka_unit_test(decode_bad_crc_then_good),
      cmocka_unit_test(decode_oversize),       cmocka_unit_test(decode_resync_after_garbage),
      cmocka_unit_test(names),
  };
  return cmocka_run_group_tests_name("link_proto", tests, NULL, NULL);
}
