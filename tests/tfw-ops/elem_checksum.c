/* elem_checksum: see the header. Inputs come from an integer generator and
 * integer-to-float conversions, so both machines feed the same bits. */
#include "elem_checksum.h"

#include "ck_rand.h"
#include "crc32.h"
#include "tfw_math.h"
#include "tfw_ops.h"

#define N_MATH 1500u
#define N_EL 96u /* elements per kernel operand */

typedef float (*ec_fn)(float);

static uint32_t sum_math(void) {
  static const ec_fn fs[] = {tfw_expf,   tfw_logf,   tfw_sqrtf, tfw_tanhf, tfw_sigmoidf, tfw_erff,
                             tfw_log1pf, tfw_expm1f, tfw_floorf, tfw_ceilf, tfw_rintf,   tfw_fabsf};
  uint32_t crc = 0, s = 7;
  for (uint32_t k = 0; k < sizeof fs / sizeof fs[0]; k++) {
    for (uint32_t i = 0; i < N_MATH; i++) crc = ck_crc_word(crc, tfw_f32_bits(fs[k](tfw_bits_f32(ck_next(&s)))));
    for (uint32_t i = 0; i < N_MATH; i++) crc = ck_crc_word(crc, tfw_f32_bits(fs[k](ck_small_float(ck_next(&s), 12.0f))));
  }
  return crc;
}

static uint32_t sum_pow(void) {
  uint32_t crc = 0, s = 11;
  for (uint32_t i = 0; i < N_MATH; i++) {
    float x = tfw_bits_f32(ck_next(&s)), y = tfw_bits_f32(ck_next(&s)); /* initialisers are sequenced */
    crc = ck_crc_word(crc, tfw_f32_bits(tfw_powf(x, y)));
    float a = ck_small_float(ck_next(&s), 20.0f), b = ck_small_float(ck_next(&s), 8.0f); /* arguments would not be */
    crc = ck_crc_word(crc, tfw_f32_bits(tfw_powf(a, b)));
  }
  for (int32_t a = -6; a <= 6; a++)
    for (int32_t b = -8; b <= 12; b++) crc = ck_crc_word(crc, tfw_f32_bits(tfw_powf((float)a, (float)b)));
  return crc;
}

/* Operand storage, 8-byte aligned. */
static uint64_t buf_a[N_EL], buf_b[N_EL], buf_c[N_EL], buf_o[N_EL];

static tfw_tensor tens(void *data, uint32_t dt, uint32_t rank, uint32_t d0, uint32_t d1, uint32_t d2) {
  tfw_tensor t = {(uint8_t *)data, dt, rank, {d0, d1, d2, 0, 0, 0, 0, 0}};
  return t;
}

static void fill(uint64_t *p, uint32_t *s) {
  for (uint32_t i = 0; i < N_EL; i++) {
    uint64_t hi = ck_next(s);
    p[i] = hi << 32 | ck_next(s);
  }
}

/* Random values that make sense for dt, in place over all N_EL words. */
static void fill_as(uint64_t *p, uint32_t dt, uint32_t *s) {
  fill(p, s);
  uint8_t *b = (uint8_t *)p;
  float *f = (float *)p;
  for (uint32_t i = 0; i < N_EL; i++) {
    if (dt == TPKG_DT_F32) f[i] = (i & 7) == 7 ? tfw_bits_f32(ck_next(s)) : ck_small_float(ck_next(s), 6.0f);
    if (dt == TPKG_DT_BOOL) b[i] &= 1;
  }
}

static uint32_t crc_out(uint32_t crc, int rc, const tfw_tensor *o) {
  size_t n = 1;
  for (uint32_t i = 0; i < o->rank; i++) n *= o->dims[i];
  return crc32_update(ck_crc_word(crc, (uint32_t)rc), o->data, n * tpkg_dtype_bytes(o->dtype));
}

static int32_t rc_all;

static uint32_t sum_unary(void) {
  static const uint32_t ints_dt[] = {TPKG_DT_I8, TPKG_DT_U8, TPKG_DT_I32, TPKG_DT_I64};
  uint32_t crc = 0, s = 13;
  float fl[2] = {0.7f, 1.3f};
  for (int32_t fn = TFW_UN_RELU; fn <= TFW_UN_SILU; fn++) {
    uint32_t dt = fn == TFW_UN_NOT ? TPKG_DT_BOOL : TPKG_DT_F32;
    fill_as(buf_a, dt, &s);
    tfw_tensor in = tens(buf_a, dt, 2, 8, 12, 0), out = tens(buf_o, dt, 2, 8, 12, 0);
    tfw_call c = {TPKG_OP_UNARY, 1, 1, &in, &out, &fn, 1, fl, 2};
    int rc = tfw_k_unary(&c);
    rc_all |= rc;
    crc = crc_out(crc, rc, &out);
    if (fn == TFW_UN_NEG || fn == TFW_UN_ABS || fn == TFW_UN_SIGN || fn == TFW_UN_RELU || fn == TFW_UN_CLIP)
      for (uint32_t k = 0; k < 4; k++) {
        float bounds[2] = {-20.5f, 100.25f};
        fill_as(buf_a, ints_dt[k], &s);
        in.dtype = out.dtype = ints_dt[k];
        tfw_call ci = {TPKG_OP_UNARY, 1, 1, &in, &out, &fn, 1, bounds, 2};
        rc = tfw_k_unary(&ci);
        rc_all |= rc;
        crc = crc_out(crc, rc, &out);
      }
  }
  return crc;
}

static uint32_t sum_binary(void) {
  static const uint32_t dts[] = {TPKG_DT_F32, TPKG_DT_I32, TPKG_DT_I8, TPKG_DT_I64, TPKG_DT_U8, TPKG_DT_BOOL};
  uint32_t crc = 0, s = 17;
  for (int32_t fn = TFW_BIN_ADD; fn <= TFW_BIN_XOR; fn++)
    for (uint32_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
      uint32_t dt = dts[k], logic = fn >= TFW_BIN_AND, cmp = fn >= TFW_BIN_EQUAL;
      if (logic != (dt == TPKG_DT_BOOL) || (fn == TFW_BIN_MEAN && dt != TPKG_DT_F32)) continue;
      fill_as(buf_a, dt, &s), fill_as(buf_b, dt, &s), fill_as(buf_c, dt, &s);
      /* [4,1,6] op [3,1] (op [6] for the n-ary ones) -> [4,3,6] */
      tfw_tensor in[3] = {tens(buf_a, dt, 3, 4, 1, 6), tens(buf_b, dt, 2, 3, 1, 0), tens(buf_c, dt, 1, 6, 0, 0)};
      tfw_tensor out = tens(buf_o, cmp ? TPKG_DT_BOOL : dt, 3, 4, 3, 6);
      uint32_t n = fn == TFW_BIN_ADD || fn == TFW_BIN_MUL || fn == TFW_BIN_MIN || fn == TFW_BIN_MAX || fn == TFW_BIN_MEAN ? 3 : 2;
      if (fn == TFW_BIN_PRELU) in[0] = tens(buf_a, dt, 3, 4, 3, 6), in[1] = tens(buf_b, dt, 2, 3, 1, 0);
      tfw_call c = {TPKG_OP_BINARY, n, 1, in, &out, &fn, 1, 0, 0};
      int rc = tfw_k_binary(&c);
      rc_all |= rc;
      crc = crc_out(crc, rc, &out);
    }
  return crc;
}

static uint32_t sum_other(void) {
  static const uint32_t dts[] = {TPKG_DT_F32, TPKG_DT_U8, TPKG_DT_I8, TPKG_DT_I32, TPKG_DT_I64, TPKG_DT_BOOL};
  uint32_t crc = 0, s = 19;
  for (uint32_t i = 0; i < 6; i++) {
    for (uint32_t j = 0; j < 6; j++) { /* CAST: every pair, f32 inputs with huge values and NaNs */
      fill_as(buf_a, dts[i], &s);
      tfw_tensor in = tens(buf_a, dts[i], 1, 90, 0, 0), out = tens(buf_o, dts[j], 2, 9, 10, 0);
      tfw_call c = {TPKG_OP_CAST, 1, 1, &in, &out, 0, 0, 0, 0};
      int rc = tfw_k_cast(&c);
      rc_all |= rc;
      crc = crc_out(crc, rc, &out);
    }
    /* WHERE: cond [5,1], x [1,7], y [7] of each dtype */
    fill_as(buf_a, TPKG_DT_BOOL, &s), fill_as(buf_b, dts[i], &s), fill_as(buf_c, dts[i], &s);
    tfw_tensor w[3] = {tens(buf_a, TPKG_DT_BOOL, 2, 5, 1, 0), tens(buf_b, dts[i], 2, 1, 7, 0), tens(buf_c, dts[i], 1, 7, 0, 0)};
    tfw_tensor wo = tens(buf_o, dts[i], 2, 5, 7, 0);
    tfw_call cw = {TPKG_OP_WHERE, 3, 1, w, &wo, 0, 0, 0, 0};
    int rc = tfw_k_where(&cw);
    rc_all |= rc;
    crc = crc_out(crc, rc, &wo);
  }
  int32_t table[64];
  for (uint32_t i = 0; i < 64; i++) table[i] = (int32_t)ck_next(&s);
  for (uint32_t k = 0; k < 4; k++) {
    fill(buf_a, &s);
    tfw_tensor in = tens(buf_a, k & 1 ? TPKG_DT_I8 : TPKG_DT_U8, 1, 96, 0, 0);
    tfw_tensor out = tens(buf_o, k & 2 ? TPKG_DT_I8 : TPKG_DT_U8, 1, 96, 0, 0);
    tfw_call c = {TPKG_OP_LUT, 1, 1, &in, &out, table, 64, 0, 0};
    int rc = tfw_k_lut(&c);
    rc_all |= rc;
    crc = crc_out(crc, rc, &out);
  }
  /* MUL_Q: [4,1,6] * [3,1] -> [4,3,6], random zero points, multipliers of
   * both magnitudes, shifts 0..63 (saturating and rounding) */
  for (uint32_t k = 0; k < 8; k++) {
    fill(buf_a, &s), fill(buf_b, &s);
    tfw_tensor in[2] = {tens(buf_a, TPKG_DT_I8, 3, 4, 1, 6), tens(buf_b, TPKG_DT_I8, 2, 3, 1, 0)};
    tfw_tensor out = tens(buf_o, TPKG_DT_I8, 3, 4, 3, 6);
    int32_t ints[7] = {(int8_t)ck_next(&s), (int8_t)ck_next(&s), (int8_t)ck_next(&s),
                       (int32_t)(ck_next(&s) >> (k & 1 ? 1 : 20)), (int32_t)(k < 4 ? 28 + 2 * k : ck_next(&s) % 64u),
                       -128 + (int32_t)(k & 2) * 10, 127 - (int32_t)(k & 4) * 5};
    tfw_call c = {TPKG_OP_MUL_Q, 2, 1, in, &out, ints, 7, 0, 0};
    int rc = tfw_k_mul_q(&c);
    rc_all |= rc;
    crc = crc_out(crc, rc, &out);
  }
  return crc;
}

void ec_checksum_all(ec_sums *s) {
  rc_all = 0;
  s->math = sum_math();
  s->pow = sum_pow();
  s->unary = sum_unary();
  s->binary = sum_binary();
  s->other = sum_other();
  s->rc = rc_all;
}
