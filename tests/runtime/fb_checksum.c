/* fb_checksum: see the header. Inputs come from an integer generator and
 * integer-to-float conversions, so both machines feed the ops the same bits. */
#include "fb_checksum.h"

#include "crc32.h"
#include "tfw_fallback.h"

typedef union {
  float f;
  uint32_t u;
} ck_bits;

static uint32_t bits_of(float f) {
  ck_bits b;
  b.f = f;
  return b.u;
}
static float float_of(uint32_t u) {
  ck_bits b;
  b.u = u;
  return b.f;
}

/* xorshift32: the same sequence everywhere. */
static uint32_t next(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static uint32_t crc_word(uint32_t crc, uint32_t w) {
  uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
  return crc32_update(crc, b, 4);
}

/* A value in [-range, range) with 18 fractional bits, from 32 random bits. */
static float small_float(uint32_t r, float range) { return (float)(int32_t)r * (range / 2147483648.0f); }

#define N_EXP 24000u
#define N_Q 6000u
#define ROW 37u
#define WIN 2560u

static uint32_t sum_expf(void) {
  uint32_t crc = 0, s = 1;
  /* every 2^-7 step over [-110, 95] (the interesting range), then random bit
   * patterns (NaN, inf, subnormal, huge inputs) */
  for (int32_t i = -110 * 128; i <= 95 * 128; i++) crc = crc_word(crc, bits_of(tfw_expf((float)i / 128.0f)));
  for (uint32_t i = 0; i < N_EXP; i++) crc = crc_word(crc, bits_of(tfw_expf(float_of(next(&s)))));
  for (uint32_t i = 0; i < N_EXP; i++) crc = crc_word(crc, bits_of(tfw_expf(small_float(next(&s), 100.0f))));
  return crc;
}

static uint32_t sum_quantize(void) {
  static const float scales[] = {1.0f, 0.5f, 0.1f, 0.0078125f, 3.7e-3f, 17.25f};
  static const int32_t zps[] = {0, -128, 127, 3, 255, 128};
  uint32_t crc = 0, s = 2;
  for (uint32_t k = 0; k < 6; k++)
    for (uint32_t i = 0; i < N_Q; i++) {
      float x = (i & 7) == 7 ? float_of(next(&s)) : small_float(next(&s), 300.0f * scales[k]);
      crc = crc_word(crc, (uint32_t)tfw_quantize(x, scales[k], zps[k], -128, 127));
      crc = crc_word(crc, (uint32_t)tfw_quantize(x, scales[k], zps[k], 0, 255));
    }
  return crc;
}

static uint32_t sum_dequantize(void) {
  static const float scales[] = {1.0f, 0.1f, 3.7e-3f, 1.5e-38f, 1e30f};
  uint32_t crc = 0, s = 3;
  for (uint32_t k = 0; k < 5; k++)
    for (uint32_t i = 0; i < N_Q; i++) {
      uint32_t r = next(&s);
      int32_t q = (i & 1) ? (int32_t)r : (int8_t)r, zp = (int32_t)(next(&s) >> 24) - 128;
      crc = crc_word(crc, bits_of(tfw_dequantize(q, scales[k], zp)));
    }
  return crc;
}

static uint32_t sum_softmax(void) {
  static float x[ROW * 3], y[ROW * 3];
  uint32_t crc = 0, s = 4;
  for (uint32_t row = 0; row < 40; row++) {
    float range = (float)(row % 8 + 1) * 4.0f;
    for (uint32_t i = 0; i < ROW * 3; i++) x[i] = small_float(next(&s), range);
    if (row == 30) x[5] = float_of(0x7fc00001u); /* a NaN with a payload */
    if (row == 31) x[7] = float_of(0x7f800000u); /* +inf: inf - inf */
    if (row == 32) x[2] = float_of(0xff800000u); /* -inf: exp gives 0 */
    tfw_softmax_f32(x, y, ROW, 3);               /* strided rows */
    tfw_softmax_f32(x + 1, y + 1, ROW * 2, 1);   /* a contiguous one */
    for (uint32_t i = 0; i < ROW * 3; i++) crc = crc_word(crc, bits_of(y[i]));
  }
  return crc;
}

/* A few whole records: quantize into a blocked tensor, relayout it,
 * dequantize, softmax along the channels. */
static uint32_t sum_run(int32_t *rc_all) {
  static uint8_t win[WIN];
  uint32_t s = 5;
  for (uint32_t i = 0; i < WIN; i++) win[i] = (uint8_t)next(&s);
  for (uint32_t i = 0; i < 2 * 5 * 3 * 4; i++) {
    uint32_t v = bits_of(small_float(next(&s), 6.0f));
    for (uint32_t b = 0; b < 4; b++) win[i * 4 + b] = (uint8_t)(v >> (8 * b));
  }
  tpkg_fallback q = {.op = TPKG_OP_QUANTIZE, .in_dtype = TPKG_DT_F32, .out_dtype = TPKG_DT_I8, .in_rank = 4,
                     .out_rank = 4, .in_offset = 0, .in_size = 480, .out_offset = 512, .out_size = 192,
                     .in_dims = {2, 5, 3, 4}, .out_dims = {2, 5, 3, 4}, .out_scale = 0.05f, .out_zp = -3,
                     .in_layout = TPKG_LAYOUT_PLAIN, .out_layout = TPKG_LAYOUT_BLOCKED};
  tpkg_fallback r = q;
  r.op = TPKG_OP_RELAYOUT;
  r.in_dtype = TPKG_DT_I8, r.in_offset = 512, r.in_size = 192, r.in_layout = TPKG_LAYOUT_BLOCKED;
  r.out_offset = 768, r.out_size = 120, r.out_layout = TPKG_LAYOUT_NHWC;
  tpkg_fallback d = r;
  d.op = TPKG_OP_DEQUANTIZE;
  d.out_dtype = TPKG_DT_F32, d.in_offset = 768, d.in_size = 120, d.in_layout = TPKG_LAYOUT_NHWC;
  d.in_scale = 0.05f, d.in_zp = -3, d.out_offset = 1024, d.out_size = 480, d.out_layout = TPKG_LAYOUT_PLAIN;
  tpkg_fallback sm = d;
  sm.op = TPKG_OP_SOFTMAX;
  sm.in_dtype = TPKG_DT_F32, sm.in_offset = 1024, sm.in_size = 480, sm.in_layout = TPKG_LAYOUT_PLAIN;
  sm.out_offset = 1536, sm.out_size = 768, sm.out_layout = TPKG_LAYOUT_BLOCKED, sm.axis = 1;
  int32_t rc = tfw_fallback_run(&q, win, WIN, 4);
  rc |= tfw_fallback_run(&r, win, WIN, 4);
  rc |= tfw_fallback_run(&d, win, WIN, 4);
  rc |= tfw_fallback_run(&sm, win, WIN, 8);
  *rc_all = rc;
  return crc32_update(crc_word(0, (uint32_t)rc), win, WIN);
}

void fb_checksum_all(fb_checksums *c) {
  c->expf = sum_expf();
  c->quantize = sum_quantize();
  c->dequantize = sum_dequantize();
  c->softmax = sum_softmax();
  c->run = sum_run(&c->run_rc);
}
