/* fb_checksum: see the header. Inputs come from an integer generator and
 * integer-to-float conversions, so both machines feed the ops the same bits. */
#include "fb_checksum.h"

#include "ck_rand.h"
#include "crc32.h"
#include "fb_record.h"
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

#define N_EXP 24000u
#define N_Q 6000u
#define ROW 37u
#define WIN 2816u

static uint32_t sum_expf(void) {
  uint32_t crc = 0, s = 1;
  /* every 2^-7 step over [-110, 95] (the interesting range), then random bit
   * patterns (NaN, inf, subnormal, huge inputs) */
  for (int32_t i = -110 * 128; i <= 95 * 128; i++) crc = ck_crc_word(crc, bits_of(tfw_expf((float)i / 128.0f)));
  for (uint32_t i = 0; i < N_EXP; i++) crc = ck_crc_word(crc, bits_of(tfw_expf(float_of(ck_next(&s)))));
  for (uint32_t i = 0; i < N_EXP; i++) crc = ck_crc_word(crc, bits_of(tfw_expf(ck_small_float(ck_next(&s), 100.0f))));
  return crc;
}

static uint32_t sum_quantize(void) {
  static const float scales[] = {1.0f, 0.5f, 0.1f, 0.0078125f, 3.7e-3f, 17.25f};
  static const int32_t zps[] = {0, -128, 127, 3, 255, 128};
  uint32_t crc = 0, s = 2;
  for (uint32_t k = 0; k < 6; k++)
    for (uint32_t i = 0; i < N_Q; i++) {
      float x = (i & 7) == 7 ? float_of(ck_next(&s)) : ck_small_float(ck_next(&s), 300.0f * scales[k]);
      crc = ck_crc_word(crc, (uint32_t)tfw_quantize(x, scales[k], zps[k], -128, 127));
      crc = ck_crc_word(crc, (uint32_t)tfw_quantize(x, scales[k], zps[k], 0, 255));
    }
  return crc;
}

static uint32_t sum_dequantize(void) {
  static const float scales[] = {1.0f, 0.1f, 3.7e-3f, 1.5e-38f, 1e30f};
  uint32_t crc = 0, s = 3;
  for (uint32_t k = 0; k < 5; k++)
    for (uint32_t i = 0; i < N_Q; i++) {
      uint32_t r = ck_next(&s);
      int32_t q = (i & 1) ? (int32_t)r : (int8_t)r, zp = (int32_t)(ck_next(&s) >> 24) - 128;
      crc = ck_crc_word(crc, bits_of(tfw_dequantize(q, scales[k], zp)));
    }
  return crc;
}

static uint32_t sum_softmax(void) {
  static float x[ROW * 3], y[ROW * 3];
  uint32_t crc = 0, s = 4;
  for (uint32_t row = 0; row < 40; row++) {
    float range = (float)(row % 8 + 1) * 4.0f;
    for (uint32_t i = 0; i < ROW * 3; i++) x[i] = ck_small_float(ck_next(&s), range);
    if (row == 30) x[5] = float_of(0x7fc00001u); /* a NaN with a payload */
    if (row == 31) x[7] = float_of(0x7f800000u); /* +inf: inf - inf */
    if (row == 32) x[2] = float_of(0xff800000u); /* -inf: exp gives 0 */
    tfw_softmax_f32(x, y, ROW, 3);               /* strided rows */
    tfw_softmax_f32(x + 1, y + 1, ROW * 2, 1);   /* a contiguous one */
    for (uint32_t i = 0; i < ROW * 3; i++) crc = ck_crc_word(crc, bits_of(y[i]));
  }
  return crc;
}

/* A few whole records: quantize into a blocked tensor, relayout it,
 * dequantize, softmax along the channels, relayout the f32 result into a
 * tensor blocked by 8 (f32 padding lanes). */
static uint32_t sum_run(int32_t *rc_all) {
  static uint8_t win[WIN];
  static const uint32_t dims[4] = {2, 5, 3, 4};
  uint32_t s = 5;
  for (uint32_t i = 0; i < WIN; i++) win[i] = (uint8_t)ck_next(&s);
  for (uint32_t i = 0; i < 2 * 5 * 3 * 4; i++) {
    uint32_t v = bits_of(ck_small_float(ck_next(&s), 6.0f));
    for (uint32_t b = 0; b < 4; b++) win[i * 4 + b] = (uint8_t)(v >> (8 * b));
  }
  fb_desc q = {.op = TPKG_OP_QUANTIZE, .n_in = 1, .n_out = 1};
  q.o[0] = fb_operand(TPKG_DT_F32, 4, dims, 0, 480);
  q.o[1] = fb_operand(TPKG_DT_I8, 4, dims, 512, 192);
  fb_set_layout(&q.o[1], TPKG_LAYOUT_BLOCKED, 4);
  q.o[1].scale = 0.05f, q.o[1].zp = -3;
  fb_desc r = {.op = TPKG_OP_RELAYOUT, .n_in = 1, .n_out = 1};
  r.o[0] = q.o[1];
  r.o[1] = fb_operand(TPKG_DT_I8, 4, dims, 768, 120);
  fb_set_layout(&r.o[1], TPKG_LAYOUT_NHWC, 4);
  fb_desc d = {.op = TPKG_OP_DEQUANTIZE, .n_in = 1, .n_out = 1};
  d.o[0] = r.o[1];
  d.o[0].scale = 0.05f, d.o[0].zp = -3;
  d.o[1] = fb_operand(TPKG_DT_F32, 4, dims, 1024, 480);
  fb_desc sm = {.op = TPKG_OP_SOFTMAX, .n_in = 1, .n_out = 1, .n_ints = 2, .ints = {1, 0}};
  sm.o[0] = d.o[1];
  sm.o[1] = fb_operand(TPKG_DT_F32, 4, dims, 1536, 480);
  fb_desc rb = {.op = TPKG_OP_RELAYOUT, .n_in = 1, .n_out = 1};
  rb.o[0] = sm.o[1];
  rb.o[1] = fb_operand(TPKG_DT_F32, 4, dims, 2048, 768);
  fb_set_layout(&rb.o[1], TPKG_LAYOUT_BLOCKED, 8);
  int32_t rc = fb_run(&q, win, WIN, 4);
  rc |= fb_run(&r, win, WIN, 4);
  rc |= fb_run(&d, win, WIN, 4);
  rc |= fb_run(&sm, win, WIN, 4);
  rc |= fb_run(&rb, win, WIN, 8);
  *rc_all = rc;
  return crc32_update(ck_crc_word(0, (uint32_t)rc), win, WIN);
}

void fb_checksum_all(fb_checksums *c) {
  c->expf = sum_expf();
  c->quantize = sum_quantize();
  c->dequantize = sum_dequantize();
  c->softmax = sum_softmax();
  c->run = sum_run(&c->run_rc);
}
