/* test_fallback: the fallback ops (shared/tfw_fallback.c) on the
 * host, under ASan/UBSan: quantise/dequantise rounding and saturation,
 * tfw_expf against libm, softmax against a double reference, every layout
 * pair of RELAYOUT, bad records (error code, nothing written, guard bytes
 * intact; package format v2 records, made with fb_record.h), and the
 * bit-exactness check against the RV32 firmware.
 *
 *   test_fallback [TESSEL_ISS FW_FALLBACK_CRC.elf]
 * Without the two arguments the firmware comparison fails (it is part of
 * the suite, not optional). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "fw_crc_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_checksum.h"
#include "fb_record.h"
#include "tfw_fallback.h"
#include "tfw_ops.h"

static const char *iss_path, *fw_elf_path;

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Floats mapped to integers in their order, so ulp distance is a difference. */
static int64_t ordinal(float f) {
  int32_t i = (int32_t)bits(f);
  return i < 0 ? (int64_t)INT32_MIN - i : i;
}
static float from_ordinal(int64_t o) { return from_bits(o < 0 ? (uint32_t)(int32_t)(INT32_MIN - o) : (uint32_t)o); }

static uint32_t rng_state = 12345;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}
static float rnd_float(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f; }

/* ---- quantise / dequantise ---------------------------------------------- */

static void test_quantize_ties(void **state) {
  (void)state;
  static const struct {
    float x;
    int32_t want;
  } t[] = {{0.5f, 0}, {1.5f, 2}, {2.5f, 2}, {3.5f, 4}, {-0.5f, 0}, {-1.5f, -2}, {-2.5f, -2},
           {0.49999997f, 0}, {0.50000006f, 1}, {-0.50000006f, -1}, {126.5f, 126}, {-127.5f, -128}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    assert_int_equal(tfw_quantize(t[i].x, 1.0f, 0, -128, 127), t[i].want);
  }
  /* the tie is decided on x / scale in f32, then the zero point is added */
  assert_int_equal(tfw_quantize(2.5f, 1.0f, 10, 0, 255), 12);
  assert_int_equal(tfw_quantize(1.25f, 0.5f, 0, -128, 127), 2);
  assert_int_equal(tfw_quantize(-3.0f, 2.0f, 0, -128, 127), -2);
  /* uint8: 0.5 -> 0 and 1.5 -> 2 around zp 128 */
  assert_int_equal(tfw_quantize(0.5f, 1.0f, 128, 0, 255), 128);
  assert_int_equal(tfw_quantize(-1.5f, 1.0f, 128, 0, 255), 126);
}

static void test_quantize_saturation_inf_nan(void **state) {
  (void)state;
  float inf = from_bits(0x7f800000u), nan = from_bits(0x7fc00000u);
  assert_int_equal(tfw_quantize(1000.0f, 1.0f, 0, -128, 127), 127);
  assert_int_equal(tfw_quantize(-1000.0f, 1.0f, 0, -128, 127), -128);
  assert_int_equal(tfw_quantize(127.49f, 1.0f, 0, -128, 127), 127);
  assert_int_equal(tfw_quantize(300.0f, 1.0f, 0, 0, 255), 255);
  assert_int_equal(tfw_quantize(-5.0f, 1.0f, 0, 0, 255), 0);
  assert_int_equal(tfw_quantize(1e30f, 1e-3f, 0, -128, 127), 127);
  assert_int_equal(tfw_quantize(-3e38f, 1e-30f, 0, 0, 255), 0);
  /* extreme zero points cannot wrap */
  assert_int_equal(tfw_quantize(5e9f, 1.0f, INT32_MIN, INT32_MIN, INT32_MAX), INT32_MAX);
  assert_int_equal(tfw_quantize(-5e9f, 1.0f, INT32_MAX, INT32_MIN, INT32_MAX), INT32_MIN);
  assert_int_equal(tfw_quantize(100.0f, 1.0f, 100, -128, 127), 127);
  assert_int_equal(tfw_quantize(inf, 1.0f, 0, -128, 127), 127);
  assert_int_equal(tfw_quantize(-inf, 1.0f, 0, -128, 127), -128);
  assert_int_equal(tfw_quantize(inf, 0.5f, 7, 0, 255), 255);
  assert_int_equal(tfw_quantize(-inf, 0.5f, 7, 0, 255), 0);
  assert_int_equal(tfw_quantize(nan, 1.0f, 0, -128, 127), 0);
  assert_int_equal(tfw_quantize(nan, 0.1f, 100, 0, 255), 100);
  assert_int_equal(tfw_quantize(-nan, 0.1f, -3, -128, 127), -3);
  assert_int_equal(tfw_quantize(nan, 0.1f, 300, 0, 255), 255); /* zp clamped too */
}

/* Against the textbook formula with libm's rounding (nearbyintf, ties to
 * even in the default mode) on random values and scales. */
static void test_quantize_matches_formula(void **state) {
  (void)state;
  for (int i = 0; i < 200000; i++) {
    float scale = from_bits(0x30000000u + rnd() % 0x14000000u); /* ~4.7e-10 .. ~8e6 */
    float x = rnd_float(-300.0f, 300.0f) * scale;
    if (i % 5 == 0) x = (float)((int32_t)(rnd() % 601) - 300) * 0.5f * scale; /* ties */
    int32_t zp = (int32_t)(rnd() % 256) - (i & 1 ? 128 : 0);
    int32_t lo = i & 1 ? -128 : 0, hi = i & 1 ? 127 : 255;
    double want = nearbyintf(x / scale) + (double)zp;
    want = want < lo ? lo : want > hi ? hi : want;
    if (tfw_quantize(x, scale, zp, lo, hi) != (int32_t)want) {
      fail_msg("x=%a scale=%a zp=%d: got %d want %d", (double)x, (double)scale, zp,
               tfw_quantize(x, scale, zp, lo, hi), (int)want);
    }
  }
}

/* The rounding from the quotient's bits, over every exponent: scale 1 and
 * the full int32 range, so nothing saturates below 2^31. */
static void test_quantize_all_magnitudes(void **state) {
  (void)state;
  for (int64_t o = ordinal(1e-30f); o <= ordinal(1e10f); o += 997) {
    for (int sign = 0; sign < 2; sign++) {
      float q = sign ? -from_ordinal(o) : from_ordinal(o);
      int32_t zp = (int32_t)(rnd() % 2001) - 1000;
      double want = (double)nearbyintf(q) + zp;
      want = want < INT32_MIN ? INT32_MIN : want > INT32_MAX ? INT32_MAX : want;
      int32_t got = tfw_quantize(q, 1.0f, zp, INT32_MIN, INT32_MAX);
      if (got != (int32_t)want) fail_msg("q=%a zp=%d: got %d want %.0f", (double)q, zp, got, want);
    }
  }
}

/* The integer division behind QUANTIZE equals IEEE f32 division followed
 * by rounding, for operands of every class: random bit patterns, random
 * normal scales, power-of-two scales, quotients near ties, extreme zero points. */
static void test_quantize_equals_float_division(void **state) {
  (void)state;
  static const int32_t zps[4] = {0, INT32_MIN, INT32_MAX, -128};
  for (int i = 0; i < 1000000; i++) {
    float x, sc;
    uint32_t mode = rnd() % 4;
    if (mode == 0) {
      x = from_bits(rnd()), sc = from_bits(rnd() & 0x7fffffffu);
    } else {
      sc = from_bits(0x00800000u + rnd() % 0x7e800000u);
      if (i & 1) sc = from_bits(bits(sc) & 0xff800000u); /* a power of two */
      float k = mode == 1 ? (float)((int32_t)(rnd() % 2000001) - 1000000) * 0.001f
                : mode == 2 ? (float)((int32_t)(rnd() % 1201) - 600) * 0.5f /* ties */
                            : from_bits(rnd() % 0x50000000u);
      x = from_bits(bits(k * sc) + (uint32_t)((int32_t)(rnd() % 5) - 2)); /* a few ulp off */
    }
    int32_t zp = i & 3 ? zps[i % 4] : (int32_t)rnd();
    float q = x / sc;
    double want = isnan(q) ? zp : (double)nearbyintf(q) + zp;
    want = want < INT32_MIN ? INT32_MIN : want > INT32_MAX ? INT32_MAX : want;
    int32_t got = tfw_quantize(x, sc, zp, INT32_MIN, INT32_MAX);
    if (got != (int32_t)want) fail_msg("x=%a scale=%a zp=%d: got %d want %.0f", (double)x, (double)sc, zp, got, want);
  }
}

static void test_dequantize(void **state) {
  (void)state;
  assert_true(tfw_dequantize(5, 0.5f, 1) == 2.0f);
  assert_true(tfw_dequantize(-128, 0.1f, -128) == 0.0f);
  assert_true(tfw_dequantize(-128, 0.1f, 127) == (float)-255 * 0.1f);
  assert_true(tfw_dequantize(255, 0.0078125f, 128) == 127.0f * 0.0078125f);
  /* int32: the difference is exact in 64 bits before one rounding to f32 */
  assert_true(tfw_dequantize(INT32_MAX, 1.0f, -5) == 2147483652.0f);
  assert_true(tfw_dequantize(INT32_MIN, 2.0f, INT32_MAX) == -8589934590.0f);
  /* the integer product equals f32 conversion and multiply, for every class
   * of operand (int32 differences that round, subnormal/overflowing results) */
  for (int i = 0; i < 1000000; i++) {
    int32_t q, zp;
    float sc;
    switch (rnd() % 4) {
    case 0: q = (int32_t)rnd(), zp = (int32_t)rnd(), sc = from_bits(rnd()); break;
    case 1: q = (int8_t)rnd(), zp = (int32_t)(rnd() % 256) - 128, sc = from_bits(rnd() & 0x7fffffffu); break;
    case 2: q = (int32_t)(rnd() % (1u << 25)) - (1 << 24), zp = (int32_t)(rnd() % 64) - 32,
            sc = from_bits(0x00800000u + rnd() % 0x7f000000u); break;
    default: q = (uint8_t)rnd(), zp = (int32_t)(rnd() % 256), sc = from_bits(rnd() % 0x7f800000u); break;
    }
    float want = (float)((int64_t)q - zp) * sc, got = tfw_dequantize(q, sc, zp);
    if (isnan(want)) want = from_bits(0x7fc00000u);
    if (bits(got) != bits(want)) fail_msg("q=%d zp=%d scale=%a: got %a want %a", q, zp, (double)sc, (double)got, (double)want);
  }
}

/* ---- exp -------------------------------------------------------------------- */

static void test_expf_sweep(void **state) {
  (void)state;
  int64_t lo = ordinal(-104.0f), hi = ordinal(89.0f), worst = 0, n = 0, exact = 0;
  float worst_x = 0;
  /* every 1021st float of [-104, 89]: 2.2 million points, all exponents */
  for (int64_t o = lo; o <= hi; o += 1021) {
    float x = from_ordinal(o), got = tfw_expf(x), want = expf(x);
    int64_t d = llabs(ordinal(got) - ordinal(want));
    if (d > worst) worst = d, worst_x = x;
    exact += d == 0;
    n++;
  }
  printf("tfw_expf: %lld points in [-104, 89], max error %lld ulp (at x = %.9g), %.2f%% equal to libm expf\n",
         (long long)n, (long long)worst, (double)worst_x, 100.0 * (double)exact / (double)n);
  assert_true(worst <= 2);
}

static void test_expf_special(void **state) {
  (void)state;
  assert_true(bits(tfw_expf(0.0f)) == bits(1.0f));
  assert_true(bits(tfw_expf(-0.0f)) == bits(1.0f));
  assert_true(tfw_expf(1.0f) == expf(1.0f));
  assert_true(isinf(tfw_expf(89.0f)) && tfw_expf(89.0f) > 0);
  assert_true(isinf(tfw_expf(88.73f)));
  assert_true(isinf(tfw_expf(1e30f)));
  assert_true(isinf(tfw_expf(from_bits(0x7f800000u))));
  float big = tfw_expf(88.72f); /* just below overflow */
  assert_true(isfinite(big) && llabs(ordinal(big) - ordinal(expf(88.72f))) <= 2);
  assert_true(tfw_expf(-105.0f) == 0.0f && !signbit(tfw_expf(-105.0f)));
  assert_true(tfw_expf(-1e30f) == 0.0f);
  assert_true(tfw_expf(from_bits(0xff800000u)) == 0.0f);
  /* subnormal results */
  for (float x = -103.9f; x < -87.4f; x += 0.37f) {
    assert_true(llabs(ordinal(tfw_expf(x)) - ordinal(expf(x))) <= 2);
  }
  assert_true(tfw_expf(-103.0f) > 0.0f);
  /* NaN in, the one quiet NaN out */
  assert_true(bits(tfw_expf(from_bits(0x7fc00001u))) == 0x7fc00000u);
  assert_true(bits(tfw_expf(from_bits(0xffc00000u))) == 0x7fc00000u);
  /* tiny inputs */
  assert_true(tfw_expf(1e-10f) == 1.0f && tfw_expf(-1e-10f) == expf(-1e-10f));
}

/* ---- softmax ---------------------------------------------------------------- */

static void softmax_ref(const float *x, double *y, int n, int stride) {
  double m = -INFINITY, s = 0;
  for (int k = 0; k < n; k++) m = x[k * stride] > m ? x[k * stride] : m;
  for (int k = 0; k < n; k++) s += y[k] = exp((double)x[k * stride] - m);
  for (int k = 0; k < n; k++) y[k] /= s;
}

static void test_softmax_rows(void **state) {
  (void)state;
  static const int lens[] = {1, 2, 10, 37, 1000, 4096};
  static float x[4096 * 2], y[4096 * 2];
  static double ref[4096];
  double worst_sum = 0, worst_el = 0;
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
    for (int rep = 0; rep < 20; rep++) {
      int n = lens[li], stride = 1 + rep % 2;
      float range = (float)(1 << (rep % 6));
      for (int k = 0; k < n * stride; k++) x[k] = rnd_float(-range, range);
      tfw_softmax_f32(x, y, (uint64_t)n, (uint64_t)stride);
      softmax_ref(x, ref, n, stride);
      double sum = 0;
      for (int k = 0; k < n; k++) {
        sum += y[k * stride];
        double d = fabs(y[k * stride] - ref[k]);
        worst_el = d > worst_el ? d : worst_el;
      }
      worst_sum = fabs(sum - 1) > worst_sum ? fabs(sum - 1) : worst_sum;
    }
  printf("softmax: rows sum to 1 within %.3g, elements within %.3g of the double reference\n", worst_sum, worst_el);
  assert_true(worst_sum <= 1e-6);
  assert_true(worst_el <= 1e-6);
  /* large logits: no overflow thanks to the max subtraction */
  float big[3] = {1000.0f, 999.0f, -1000.0f};
  tfw_softmax_f32(big, big, 3, 1);
  assert_true(fabs(big[0] - 0.7310586) < 1e-6 && fabs(big[1] - 0.2689414) < 1e-6 && big[2] == 0.0f);
  /* NaN in a row: the row is NaN (the one quiet NaN); -inf is a zero */
  float r[3] = {1.0f, from_bits(0xffc00123u), 2.0f};
  tfw_softmax_f32(r, r, 3, 1);
  for (int k = 0; k < 3; k++) assert_true(bits(r[k]) == 0x7fc00000u);
  float s2[3] = {1.0f, -INFINITY, 1.0f};
  tfw_softmax_f32(s2, s2, 3, 1);
  assert_true(s2[0] == 0.5f && s2[1] == 0.0f && s2[2] == 0.5f);
}

/* ---- layouts and RELAYOUT ----------------------------------------------------- */

static const uint32_t LAYOUTS[] = {TPKG_LAYOUT_PLAIN, TPKG_LAYOUT_NHWC, TPKG_LAYOUT_BLOCKED};
static const uint32_t DIMS_C[] = {1, 3, 5, 8, 17};
static const uint32_t DIMS_DIM[] = {4, 8, 16};

/* Every logical element gets its own slot below the slot count, and BLOCKED
 * padding lanes are never a logical element's slot. */
static void test_layout_offset(void **state) {
  (void)state;
  for (size_t l = 0; l < 3; l++)
    for (size_t c = 0; c < 5; c++)
      for (size_t di = 0; di < 3; di++) {
        uint32_t dims[4] = {2, DIMS_C[c], 3, 5}, dim = DIMS_DIM[di];
        uint64_t slots = tfw_layout_slots(LAYOUTS[l], 4, dims, dim), n = 2ull * dims[1] * 15;
        assert_int_equal(slots, LAYOUTS[l] == TPKG_LAYOUT_BLOCKED ? 2ull * ((dims[1] + dim - 1) / dim * dim) * 15 : n);
        uint8_t *seen = calloc(slots, 1);
        for (uint64_t f = 0; f < n; f++) {
          uint64_t o = tfw_layout_offset(LAYOUTS[l], 4, dims, dim, f);
          assert_true(o < slots);
          assert_int_equal(seen[o], 0);
          seen[o] = 1;
          if (LAYOUTS[l] == TPKG_LAYOUT_BLOCKED) assert_true(o % dim + (f / 15 % dims[1]) / dim * dim < dims[1]);
        }
        free(seen);
      }
  /* NCHW element (n=1, c=2, h=0, w=1) of [2,3,2,2]: flat 1*12+2*4+0*2+1 = 21 */
  uint32_t d[4] = {2, 3, 2, 2};
  assert_int_equal(tfw_layout_offset(TPKG_LAYOUT_PLAIN, 4, d, 4, 21), 21);
  assert_int_equal(tfw_layout_offset(TPKG_LAYOUT_NHWC, 4, d, 4, 21), ((1 * 2 + 0) * 2 + 1) * 3 + 2);
  assert_int_equal(tfw_layout_offset(TPKG_LAYOUT_BLOCKED, 4, d, 4, 21), (((1 * 1 + 0) * 2 + 0) * 2 + 1) * 4 + 2);
  /* other ranks are plain */
  uint32_t d3[3] = {2, 3, 4};
  assert_int_equal(tfw_layout_offset(TPKG_LAYOUT_NHWC, 3, d3, 4, 17), 17);
}

static uint32_t esize(uint32_t dt) { return dt == TPKG_DT_F32 || dt == TPKG_DT_I32 ? 4 : 1; }

/* A one-in, one-out record of op over rank-4 dims (both operands PLAIN). */
static fb_desc rec1(uint32_t op, uint32_t in_dt, uint32_t out_dt, const uint32_t *dims, uint32_t in_off,
                    uint32_t in_size, uint32_t out_off, uint32_t out_size) {
  fb_desc f = {.op = op, .n_in = 1, .n_out = 1};
  f.o[0] = fb_operand(in_dt, 4, dims, in_off, in_size);
  f.o[1] = fb_operand(out_dt, 4, dims, out_off, out_size);
  return f;
}

static fb_desc relayout_rec(uint32_t dt, const uint32_t *dims, uint32_t lin, uint32_t lout, uint32_t dim,
                            uint32_t in_off, uint32_t in_size, uint32_t out_off, uint32_t out_size) {
  fb_desc f = rec1(TPKG_OP_RELAYOUT, dt, dt, dims, in_off, in_size, out_off, out_size);
  fb_set_layout(&f.o[0], lin, dim);
  fb_set_layout(&f.o[1], lout, dim);
  f.o[1].zp = -7; /* the padding lanes of an 8-bit blocked output */
  return f;
}

/* A softmax record (plain f32 operands; ints axis, log 0). */
static fb_desc softmax_rec(uint32_t rank, const uint32_t *dims, int32_t axis, uint32_t in_off, uint32_t out_off,
                           uint32_t size) {
  fb_desc f = {.op = TPKG_OP_SOFTMAX, .n_in = 1, .n_out = 1, .n_ints = 2, .ints = {axis, 0}};
  f.o[0] = fb_operand(TPKG_DT_F32, rank, dims, in_off, size);
  f.o[1] = fb_operand(TPKG_DT_F32, rank, dims, out_off, size);
  return f;
}

/* A -> B -> A for every pair, dtype, channel count and DIM; B holds the
 * elements where tfw_layout_offset says and the padding lanes hold the
 * output zero point (8-bit) or 0. */
static void test_relayout_all_pairs(void **state) {
  (void)state;
  static const uint32_t dts[] = {TPKG_DT_U8, TPKG_DT_I8, TPKG_DT_I32, TPKG_DT_F32};
  int runs = 0;
  for (size_t t = 0; t < 4; t++)
    for (size_t c = 0; c < 5; c++)
      for (size_t di = 0; di < 3; di++)
        for (size_t a = 0; a < 3; a++)
          for (size_t b = 0; b < 3; b++) {
            uint32_t dt = dts[t], es = esize(dt), dim = DIMS_DIM[di], dims[4] = {2, DIMS_C[c], 3, 2};
            uint32_t sa = (uint32_t)tfw_layout_slots(LAYOUTS[a], 4, dims, dim) * es;
            uint32_t sb = (uint32_t)tfw_layout_slots(LAYOUTS[b], 4, dims, dim) * es;
            uint32_t win_bytes = 6 * 1024;
            uint8_t *win = malloc(win_bytes);
            for (uint32_t i = 0; i < win_bytes; i++) win[i] = (uint8_t)rnd();
            fb_desc ab = relayout_rec(dt, dims, LAYOUTS[a], LAYOUTS[b], dim, 0, sa, 2048, sb);
            fb_desc ba = relayout_rec(dt, dims, LAYOUTS[b], LAYOUTS[a], dim, 2048, sb, 4096, sa);
            assert_int_equal(fb_run(&ab, win, win_bytes, dim), 0);
            uint64_t n = 2ull * dims[1] * 6;
            uint8_t *pad = calloc(sb / es, 1);
            for (uint64_t f = 0; f < n; f++) {
              uint64_t oa = tfw_layout_offset(LAYOUTS[a], 4, dims, dim, f), ob = tfw_layout_offset(LAYOUTS[b], 4, dims, dim, f);
              assert_memory_equal(win + ob * es + 2048, win + oa * es, es);
              pad[ob] = 1;
            }
            for (uint32_t s = 0; s < sb / es; s++)
              if (!pad[s]) {
                for (uint32_t k = 0; k < es; k++) assert_int_equal(win[2048 + s * es + k], es == 1 ? (uint8_t)-7 : 0);
              }
            free(pad);
            assert_int_equal(fb_run(&ba, win, win_bytes, dim), 0);
            for (uint64_t f = 0; f < n; f++) {
              uint64_t oa = tfw_layout_offset(LAYOUTS[a], 4, dims, dim, f);
              assert_memory_equal(win + 4096 + oa * es, win + oa * es, es);
            }
            free(win);
            runs++;
          }
  assert_int_equal(runs, 4 * 5 * 3 * 9);
}

/* QUANTIZE/DEQUANTIZE through the window equal the scalar functions element
 * by element across layouts and DIMs 2, 4, 8 (5 channels: a partial last
 * block; PLAIN -> BLOCKED quantisation takes its own word-wise path), with every
 * padding lane of a BLOCKED output the zero point; SOFTMAX (a plain op)
 * along each axis equals tfw_softmax_f32 row by row, and refuses to work in
 * place. */
static void test_ops_through_window(void **state) {
  (void)state;
  uint32_t dims[4] = {2, 5, 3, 4}, n = 120, dim = 4;
  enum { WB = 4096 };
  static uint8_t win[WB];
  static float x[120], y[120];
  for (uint32_t i = 0; i < n; i++) x[i] = rnd_float(-8.0f, 8.0f);
  x[7] = 0.03125f * 3, x[8] = -0.03125f, x[9] = from_bits(0x7fc00000u), x[10] = 1e30f; /* ties, NaN, saturation */
  for (dim = 2; dim <= 8; dim *= 2)
  for (size_t a = 0; a < 3; a++)
    for (size_t b = 0; b < 3; b++) {
      memset(win + 1024, 0xee, 1024);
      for (uint32_t i = 0; i < n; i++) {
        uint32_t u = bits(x[i]);
        memcpy(win + tfw_layout_offset(LAYOUTS[a], 4, dims, dim, i) * 4, &u, 4);
      }
      fb_desc q = rec1(TPKG_OP_QUANTIZE, TPKG_DT_F32, TPKG_DT_I8, dims, 0, 1024, 1024, 1024);
      fb_set_layout(&q.o[0], LAYOUTS[a], dim);
      fb_set_layout(&q.o[1], LAYOUTS[b], dim);
      q.o[1].scale = 0.0625f, q.o[1].zp = 3;
      assert_int_equal(fb_run(&q, win, WB, dim), 0);
      for (uint32_t i = 0; i < n; i++)
        assert_int_equal((int8_t)win[1024 + tfw_layout_offset(LAYOUTS[b], 4, dims, dim, i)],
                         tfw_quantize(x[i], 0.0625f, 3, -128, 127));
      uint32_t cb = (dims[1] + dim - 1) / dim, pixels = dims[0] * cb * dims[2] * dims[3];
      for (uint32_t p = 0; LAYOUTS[b] == TPKG_LAYOUT_BLOCKED && p < pixels; p++)
        for (uint32_t l = 0; l < dim; l++)
          if ((p / (dims[2] * dims[3])) % cb * dim + l >= dims[1]) assert_int_equal(win[1024 + p * dim + l], 3);
      fb_desc d = rec1(TPKG_OP_DEQUANTIZE, TPKG_DT_I8, TPKG_DT_F32, dims, 1024, 1024, 2048, 1024);
      fb_set_layout(&d.o[0], LAYOUTS[b], dim);
      fb_set_layout(&d.o[1], LAYOUTS[a], dim);
      d.o[0].scale = 0.0625f, d.o[0].zp = 3;
      assert_int_equal(fb_run(&d, win, WB, dim), 0);
      for (uint32_t i = 0; i < n; i++) {
        float v = tfw_dequantize(tfw_quantize(x[i], 0.0625f, 3, -128, 127), 0.0625f, 3);
        assert_memory_equal(win + 2048 + tfw_layout_offset(LAYOUTS[a], 4, dims, dim, i) * 4, &v, 4);
      }
    }
  memcpy(win, x, sizeof x);
  for (int axis = -4; axis < 4; axis++) {
    fb_desc s = softmax_rec(4, dims, axis, 0, 3072, 480);
    assert_int_equal(fb_run(&s, win, WB, dim), 0);
    int ax = axis < 0 ? axis + 4 : axis;
    uint64_t len = dims[ax], inner = 1, outer = 1;
    for (int i = ax + 1; i < 4; i++) inner *= dims[i];
    for (int i = 0; i < ax; i++) outer *= dims[i];
    for (uint64_t o = 0; o < outer; o++)
      for (uint64_t j = 0; j < inner; j++) tfw_softmax_f32(x + o * len * inner + j, y + o * len * inner + j, len, inner);
    assert_memory_equal(win + 3072, y, sizeof y);
  }
  /* v2: no op works in place (the output overlaps its input) */
  fb_desc sp = softmax_rec(4, dims, 1, 0, 0, 480);
  assert_int_equal(fb_run(&sp, win, WB, dim), TFW_FB_E_OVERLAP);
  /* a reshape on the way: [1,10] plain in, [1,10,1,1] blocked out */
  static const uint32_t d2[2] = {1, 10}, d4[4] = {1, 10, 1, 1};
  fb_desc r = {.op = TPKG_OP_QUANTIZE, .n_in = 1, .n_out = 1};
  r.o[0] = fb_operand(TPKG_DT_F32, 2, d2, 0, 40);
  r.o[1] = fb_operand(TPKG_DT_U8, 4, d4, 64, 16);
  fb_set_layout(&r.o[1], TPKG_LAYOUT_BLOCKED, 8);
  r.o[1].scale = 0.5f, r.o[1].zp = 128;
  for (uint32_t i = 0; i < 10; i++) {
    float v = (float)i - 4.75f;
    memcpy(win + 4 * i, &v, 4);
  }
  assert_int_equal(fb_run(&r, win, WB, 8), 0);
  for (uint32_t i = 0; i < 10; i++) assert_int_equal(win[64 + i], tfw_quantize((float)i - 4.75f, 0.5f, 128, 0, 255));
  for (uint32_t i = 10; i < 16; i++) assert_int_equal(win[64 + i], 128);
}

/* The same layout-aware records over a window at every byte alignment (the
 * word accesses are taken only where aligned) give the same bytes. A plain
 * op (Softmax) needs its operands aligned to their element size: it runs at
 * the 4-byte shifts, with the same result, and is refused (nothing written)
 * at the others. */
static void test_unaligned_window(void **state) {
  (void)state;
  enum { WB = 2304 };
  static uint8_t ref[WB], buf[WB + 8], ref_sm[WB];
  uint32_t dims[4] = {2, 5, 3, 3};
  fb_desc q = rec1(TPKG_OP_QUANTIZE, TPKG_DT_F32, TPKG_DT_U8, dims, 0, 360, 400, 144);
  fb_set_layout(&q.o[0], TPKG_LAYOUT_NHWC, 4);
  fb_set_layout(&q.o[1], TPKG_LAYOUT_BLOCKED, 4);
  q.o[1].scale = 0.03f, q.o[1].zp = 77;
  fb_desc d = rec1(TPKG_OP_DEQUANTIZE, TPKG_DT_U8, TPKG_DT_F32, dims, 400, 144, 600, 576);
  d.o[0] = q.o[1];
  fb_set_layout(&d.o[1], TPKG_LAYOUT_BLOCKED, 4);
  fb_desc r1 = relayout_rec(TPKG_DT_F32, dims, TPKG_LAYOUT_BLOCKED, TPKG_LAYOUT_PLAIN, 4, 600, 576, 1200, 360);
  fb_desc r2 = relayout_rec(TPKG_DT_F32, dims, TPKG_LAYOUT_PLAIN, TPKG_LAYOUT_BLOCKED, 4, 1200, 360, 1600, 576);
  fb_desc sm = softmax_rec(4, dims, 1, 1200, 1600, 360);
  const fb_desc *recs[] = {&q, &d, &r1, &r2};
  for (uint32_t i = 0; i < WB; i++) ref[i] = (uint8_t)rnd();
  for (uint32_t i = 0; i < 90; i++) {
    float v = rnd_float(-3.0f, 3.0f);
    memcpy(ref + 4 * i, &v, 4);
  }
  for (int shift = 0; shift < 8; shift++) {
    memcpy(buf + shift, ref, WB);
    for (int k = 0; k < 4; k++) assert_int_equal(fb_run(recs[k], buf + shift, WB, 4), 0);
    if (shift == 0) memcpy(ref, buf, WB); /* the aligned run's result is the reference */
    else assert_memory_equal(buf + shift, ref, WB);
    if (shift % 4 == 0) {
      assert_int_equal(fb_run(&sm, buf + shift, WB, 4), 0);
      if (shift == 0) memcpy(ref_sm, buf, WB);
      else assert_memory_equal(buf + shift, ref_sm, WB);
    } else {
      assert_int_equal(fb_run(&sm, buf + shift, WB, 4), TFW_FB_E_ARG);
      assert_memory_equal(buf + shift, ref, WB);
    }
  }
}

/* ---- bad records ------------------------------------------------------------------ */

enum { GUARD = 64, SMALL_WIN = 256 };

static fb_desc good_quantize(void) {
  static const uint32_t dims[2] = {4, 4};
  fb_desc f = {.op = TPKG_OP_QUANTIZE, .n_in = 1, .n_out = 1};
  f.o[0] = fb_operand(TPKG_DT_F32, 2, dims, 0, 64);
  f.o[1] = fb_operand(TPKG_DT_I8, 2, dims, 128, 16);
  f.o[1].scale = 0.5f;
  return f;
}

static fb_desc good_softmax(void) {
  static const uint32_t dims[2] = {4, 4};
  return softmax_rec(2, dims, 1, 0, 128, 64);
}

/* Room for any prepared record (tfw_fallback_prepare), 8-byte aligned. */
static uint64_t prep_buf[8192 / 8];

/* Runs f (its encoding, with *tweak applied to the decoded header when
 * given) on a 256-byte window inside guard bytes; checks the code (any
 * error when want is 1) and that not a byte changed (errors write nothing).
 * The same record prepared (tfw_fallback_prepare, with room and without)
 * gives the same code, at preparation when it is one of the checks there,
 * else when the prepared record runs. */
static void expect_error_t(const fb_desc *d, const tpkg_fallback *tweak, uint32_t dim, int want, int line) {
  static uint8_t buf[GUARD + SMALL_WIN + GUARD], copy[sizeof buf];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 7 + 1);
  memcpy(copy, buf, sizeof buf);
  fb_encoded e;
  tpkg_fallback f = *fb_encode(d, &e);
  if (tweak) f.n_in = tweak->n_in, f.n_out = tweak->n_out, f.n_ints = tweak->n_ints, f.n_floats = tweak->n_floats;
  int rc = tfw_fallback_run(&f, buf + GUARD, SMALL_WIN, dim);
  if (want == 1 ? rc >= 0 : rc != want)
    fail_msg("line %d: got %d (%s), want %d (%s)", line, rc, tfw_fallback_strerror(rc), want,
             want == 1 ? "any error" : tfw_fallback_strerror(want));
  if (memcmp(buf, copy, sizeof buf)) fail_msg("line %d: the failed record wrote bytes", line);
  uint32_t need = 0;
  int checked = tfw_fallback_prepare(&f, buf + GUARD, SMALL_WIN, dim, NULL, 0, &need);
  int prepared = tfw_fallback_prepare(&f, buf + GUARD, SMALL_WIN, dim, prep_buf, sizeof prep_buf, NULL);
  if (checked != prepared) fail_msg("line %d: prepared without room %d, with room %d", line, checked, prepared);
  if (!prepared) prepared = tfw_fallback_run_prepared(prep_buf);
  if (prepared != rc) fail_msg("line %d: prepared and run %d, run %d", line, prepared, rc);
  if (memcmp(buf, copy, sizeof buf)) fail_msg("line %d: the failed prepared record wrote bytes", line);
}
#define EXPECT(f, dim, want) expect_error_t(&(f), NULL, dim, want, __LINE__)
#define ANY_ERROR 1 /* a code the op's kernel chooses (shared/tfw_ops*.c) */

static void test_bad_records(void **state) {
  (void)state;
  fb_desc f = good_quantize();
  {
    static uint8_t buf[GUARD + SMALL_WIN + GUARD];
    assert_int_equal(fb_run(&f, buf + GUARD, SMALL_WIN, 8), 0); /* the base records are good */
    f = good_softmax();
    assert_int_equal(fb_run(&f, buf + GUARD, SMALL_WIN, 8), 0);
  }
  f = good_quantize(), f.op = 0; EXPECT(f, 8, TFW_FB_E_OP);
  f.op = TPKG_OP_END; EXPECT(f, 8, TFW_FB_E_OP);
  f.op = 0x7FFFFFFFu; EXPECT(f, 8, TFW_FB_E_OP);
  f = good_quantize(), f.o[0].dtype = TPKG_DT_I8; EXPECT(f, 8, TFW_FB_E_DTYPE);
  f = good_quantize(), f.o[1].dtype = TPKG_DT_I32; EXPECT(f, 8, TFW_FB_E_DTYPE);
  f = good_quantize(), f.o[1].dtype = 9; EXPECT(f, 8, TFW_FB_E_DTYPE);
  f = good_quantize(), f.op = TPKG_OP_DEQUANTIZE; EXPECT(f, 8, TFW_FB_E_DTYPE);
  f = good_quantize(), f.op = TPKG_OP_RELAYOUT; EXPECT(f, 8, TFW_FB_E_DTYPE);
  f = good_quantize(), f.o[0].rank = 9; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_quantize(), f.o[1].dims[1] = 5, f.o[1].size = 20; EXPECT(f, 8, TFW_FB_E_SHAPE);
  /* the layout-aware ops take one input and one output */
  f = good_quantize(), f.n_in = 2, f.o[2] = f.o[1], f.o[1] = f.o[0]; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_quantize(), f.n_out = 0; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_quantize(), fb_set_layout(&f.o[0], TPKG_LAYOUT_NHWC, 8); EXPECT(f, 8, TFW_FB_E_LAYOUT);
  f = good_quantize(), f.o[1].layout = 3; EXPECT(f, 8, TFW_FB_E_LAYOUT);
  /* a blocked operand: its block is this NPU's DIM */
  f = good_quantize(), f.o[0].rank = f.o[1].rank = 4, f.o[0].dims[2] = f.o[0].dims[3] = f.o[1].dims[2] = f.o[1].dims[3] = 1;
  fb_set_layout(&f.o[1], TPKG_LAYOUT_BLOCKED, 0); EXPECT(f, 0, TFW_FB_E_ARG);
  fb_set_layout(&f.o[1], TPKG_LAYOUT_BLOCKED, 8); EXPECT(f, 4, TFW_FB_E_LAYOUT);
  f.o[1].block = 0; EXPECT(f, 8, TFW_FB_E_LAYOUT);
  f = good_quantize(), f.o[0].size = 63; EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_quantize(), f.o[1].size = 15; EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_quantize(), f.o[1].offset = SMALL_WIN - 15; EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_quantize(), f.o[1].offset = SMALL_WIN - 16, f.o[1].size = 17; EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_quantize(), f.o[0].offset = 0xFFFFFFF0u; EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_quantize(), f.o[1].size = 0xFFFFFFFFu; EXPECT(f, 8, TFW_FB_E_WINDOW);
  /* dims whose product wraps 32 and 64 bits */
  f = good_quantize(), f.o[0].rank = f.o[1].rank = 8;
  for (int i = 0; i < 8; i++) f.o[0].dims[i] = f.o[1].dims[i] = 0xFFFFFFFFu;
  EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_quantize(), f.o[0].dims[0] = f.o[1].dims[0] = 0x40000001u; EXPECT(f, 8, TFW_FB_E_WINDOW);
  /* a blocked output whose padding does not fit */
  f = good_quantize(), f.o[0].rank = f.o[1].rank = 4, f.o[0].dims[2] = f.o[0].dims[3] = f.o[1].dims[2] = f.o[1].dims[3] = 1;
  fb_set_layout(&f.o[1], TPKG_LAYOUT_BLOCKED, 16); EXPECT(f, 16, TFW_FB_E_WINDOW);
  /* the scale: QuantizeLinear's output operand's, DequantizeLinear's input operand's */
  f = good_quantize(), f.o[1].scale = 0.0f; EXPECT(f, 8, TFW_FB_E_PARAM);
  f = good_quantize(), f.o[1].scale = -0.5f; EXPECT(f, 8, TFW_FB_E_PARAM);
  f = good_quantize(), f.o[1].scale = from_bits(0x7fc00000u); EXPECT(f, 8, TFW_FB_E_PARAM);
  f = good_quantize(), f.o[1].scale = from_bits(0x7f800000u); EXPECT(f, 8, TFW_FB_E_PARAM);
  f = good_quantize(), f.o[0].scale = 0.0f; /* the input's is not read */
  {
    static uint8_t buf[SMALL_WIN];
    assert_int_equal(fb_run(&f, buf, SMALL_WIN, 8), 0);
  }
  f = good_quantize(), f.op = TPKG_OP_DEQUANTIZE, f.o[0].dtype = TPKG_DT_U8, f.o[1].dtype = TPKG_DT_F32;
  f.o[0].size = 16, f.o[1].size = 64, f.o[0].scale = 0; EXPECT(f, 8, TFW_FB_E_PARAM);
  /* Softmax: the axis inside the rank, plain operands, counts of tfw_ops.def */
  f = good_softmax(), f.ints[0] = 2; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f.ints[0] = -3; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_softmax(), f.o[0].rank = f.o[1].rank = 0, f.ints[0] = 0; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_softmax(), f.o[1].dtype = TPKG_DT_I8, f.o[1].size = 16; EXPECT(f, 8, ANY_ERROR);
  f = good_softmax(), f.n_ints = 1; EXPECT(f, 8, ANY_ERROR);
  f = good_softmax(), fb_set_layout(&f.o[1], TPKG_LAYOUT_NHWC, 8), f.o[0].rank = f.o[1].rank = 4;
  f.o[0].dims[2] = f.o[0].dims[3] = f.o[1].dims[2] = f.o[1].dims[3] = 1; EXPECT(f, 8, TFW_FB_E_LAYOUT);
  f = good_softmax(), f.o[0].dtype = 0; EXPECT(f, 8, TFW_FB_E_DTYPE);
  f = good_softmax(), f.o[0].dims[0] = f.o[1].dims[0] = 0; EXPECT(f, 8, TFW_FB_E_SHAPE); /* empty: as tpkg_check */
  f = good_softmax(), f.n_in = 2, f.o[2] = f.o[1], f.o[1] = f.o[0]; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_softmax(), f.n_out = 0; EXPECT(f, 8, TFW_FB_E_SHAPE);
  f = good_softmax(), f.o[1].offset = 130; EXPECT(f, 8, TFW_FB_E_ARG); /* f32 at an odd address */
  f = good_softmax(), f.o[0].size = 63; EXPECT(f, 8, TFW_FB_E_WINDOW);
  f = good_softmax(), f.o[1].offset = SMALL_WIN - 60; EXPECT(f, 8, TFW_FB_E_WINDOW);
  {
    /* parameter counts past the format's limits (the decoded header says so) */
    tpkg_fallback t = {.n_in = 1, .n_out = 1, .n_ints = TPKG_FB_MAX_INTS + 1};
    f = good_softmax();
    expect_error_t(&f, &t, 8, TFW_FB_E_PARAM, __LINE__);
    t.n_ints = 2, t.n_floats = TPKG_FB_MAX_FLOATS + 1;
    expect_error_t(&f, &t, 8, TFW_FB_E_PARAM, __LINE__);
    t.n_floats = 0, t.n_in = TPKG_FB_MAX_OPERANDS;
    expect_error_t(&f, &t, 8, TFW_FB_E_PARAM, __LINE__);
  }
  /* overlapping input and output */
  f = good_quantize(), f.o[1].offset = 60; EXPECT(f, 8, TFW_FB_E_OVERLAP);
  f = good_softmax(), f.o[1].offset = 32; EXPECT(f, 8, TFW_FB_E_OVERLAP);
  assert_int_equal(tfw_fallback_run(NULL, (uint8_t *)"", 1, 8), TFW_FB_E_ARG);
  f = good_quantize();
  {
    fb_encoded e;
    tpkg_fallback r = *fb_encode(&f, &e);
    assert_int_equal(tfw_fallback_run(&r, NULL, 256, 8), TFW_FB_E_ARG);
    r.rec = NULL;
    static uint8_t buf[SMALL_WIN];
    assert_int_equal(tfw_fallback_run(&r, buf, SMALL_WIN, 8), TFW_FB_E_ARG);
  }
  /* every code has its own message */
  for (int c = 0; c > -TFW_FB_E_NCODES; c--)
    for (int c2 = c - 1; c2 > -TFW_FB_E_NCODES; c2--) assert_string_not_equal(tfw_fallback_strerror(c), tfw_fallback_strerror(c2));
  assert_string_equal(tfw_fallback_strerror(-100), "unknown fallback error");
}

/* Random records over a small window: whatever the fields, the run returns
 * 0 or an error and never touches the guard bytes (ASan watches too); the
 * record prepared and then run gives the same code and bytes. */
static void test_random_records(void **state) {
  (void)state;
  static uint8_t buf[GUARD + SMALL_WIN + GUARD], twin[sizeof buf];
  static const float scales[] = {0.0f, 1.0f, -1.0f, 0.5f, 1e-30f, 1e30f};
  int ok = 0;
  for (int it = 0; it < 30000; it++) {
    memset(buf, 0xA5, sizeof buf);
    for (size_t i = GUARD; i < GUARD + SMALL_WIN; i++) buf[i] = (uint8_t)rnd();
    fb_desc f = {0};
    uint32_t dim = rnd() % 10;
    if (it % 2) {
      /* a plausible record (op and dtypes that fit, small tensors) with one field changed */
      static const uint8_t in_dt[] = {TPKG_DT_F32, TPKG_DT_F32, TPKG_DT_I8, TPKG_DT_U8};
      static const uint8_t out_dt[] = {TPKG_DT_F32, TPKG_DT_U8, TPKG_DT_F32, TPKG_DT_U8};
      uint32_t k = rnd() % 4, dims[4];
      for (int i = 0; i < 4; i++) dims[i] = 1 + rnd() % 3;
      f = rec1(TPKG_OP_SOFTMAX + k, in_dt[k], out_dt[k], dims, 0, 128, 128, 128);
      f.o[0].scale = f.o[1].scale = 0.25f;
      if (f.op == TPKG_OP_SOFTMAX) {
        f.n_ints = 2, f.ints[0] = (int32_t)(rnd() % 4);
      } else {
        fb_set_layout(&f.o[0], rnd() % 3, dim);
        fb_set_layout(&f.o[1], rnd() % 3, dim);
      }
      uint32_t v = rnd();
      switch (rnd() % 10) {
      case 0: f.o[0].offset = v % 300; break;
      case 1: f.o[1].offset = v % 300; break;
      case 2: f.o[0].size = v % 300; break;
      case 3: f.o[1].size = v % 300; break;
      case 4: f.o[1].dims[v % 8] = rnd() % 4; break;
      case 5: f.o[1].zp = (int32_t)v; break;
      case 6: f.ints[0] = (int32_t)(v % 15) - 7; break;
      case 7: f.o[v % 2].block = rnd() % 10; break;
      case 8: f.n_in = v % 3, f.n_out = rnd() % 3; f.o[2] = f.o[1]; break;
      default: f.o[0].rank = f.o[1].rank = (uint8_t)(v % 10); break;
      }
    } else {
      f.op = rnd() % (TPKG_OP_END + 2);
      f.n_in = rnd() % 4, f.n_out = rnd() % 3, f.n_ints = rnd() % 5, f.n_floats = rnd() % 3;
      for (uint32_t k = 0; k < f.n_in + f.n_out; k++) {
        tpkg_operand *o = &f.o[k];
        o->dtype = (uint8_t)(rnd() % 8);
        o->rank = (uint8_t)(rnd() % 10);
        for (int i = 0; i < 8; i++) o->dims[i] = rnd() % 4 + (rnd() % 16 == 0 ? 0xFFFFFFF0u : 0);
        o->offset = rnd() % 300, o->size = rnd() % 300;
        o->layout = (uint8_t)(rnd() % 4), o->block = rnd() % 2 ? dim : rnd() % 10;
        o->scale = scales[rnd() % 6], o->zp = (int32_t)rnd();
      }
      if (rnd() % 2) f.o[1] = f.o[0], f.o[1].offset = rnd() % 300;
      for (uint32_t i = 0; i < f.n_ints; i++) f.ints[i] = (int32_t)(rnd() % 15) - 7;
      for (uint32_t i = 0; i < f.n_floats; i++) f.floats[i] = scales[rnd() % 6];
    }
    memcpy(twin, buf, sizeof buf);
    int rc = fb_run(&f, buf + GUARD, SMALL_WIN, dim);
    assert_true(rc <= 0 && rc > -TFW_FB_E_NCODES);
    ok += rc == 0;
    for (size_t i = 0; i < GUARD; i++) {
      assert_int_equal(buf[i], 0xA5);
      assert_int_equal(buf[GUARD + SMALL_WIN + i], 0xA5);
    }
    /* prepared, then run: the same code and bytes */
    fb_encoded e;
    int prc = tfw_fallback_prepare(fb_encode(&f, &e), twin + GUARD, SMALL_WIN, dim, prep_buf, sizeof prep_buf, NULL);
    if (!prc) prc = tfw_fallback_run_prepared(prep_buf);
    assert_int_equal(prc, rc);
    assert_memory_equal(twin, buf, sizeof buf);
  }
  printf("random records: %d of 30000 ran, the rest were rejected; no write outside the window\n", ok);
  assert_true(ok > 3000);
}
/* ---- records prepared once (tfw_fallback_prepare) ------------------------------- */

/* Prepared once and run on three inputs, each record gives the bytes
 * tfw_fallback_run gives, without reading its record again (the encoding
 * is wiped after the preparation); its size is a multiple of 8 and exactly
 * enough (8 bytes less: checked, nothing written, the same code). */
static void test_prepared_records(void **state) {
  (void)state;
  enum { WB = 2048 };
  static uint8_t w1[WB], w2[WB];
  static const uint32_t d4[4] = {1, 3, 4, 4}, d2[2] = {3, 16}, d1[1] = {48};
  fb_desc recs[6];
  recs[0] = rec1(TPKG_OP_QUANTIZE, TPKG_DT_F32, TPKG_DT_I8, d4, 0, 192, 1024, 128); /* plain -> blocked */
  fb_set_layout(&recs[0].o[1], TPKG_LAYOUT_BLOCKED, 8);
  recs[0].o[1].scale = 0.05f, recs[0].o[1].zp = -7;
  recs[1] = rec1(TPKG_OP_DEQUANTIZE, TPKG_DT_U8, TPKG_DT_F32, d4, 256, 48, 1024, 192);
  recs[1].o[0].scale = 0.125f, recs[1].o[0].zp = 100;
  recs[2] = relayout_rec(TPKG_DT_I8, d4, TPKG_LAYOUT_PLAIN, TPKG_LAYOUT_NHWC, 8, 256, 48, 1024, 48);
  recs[3] = softmax_rec(2, d2, 1, 0, 1024, 192);
  recs[4] = (fb_desc){.op = TPKG_OP_UNARY, .n_in = 1, .n_out = 1, .n_ints = 1, .ints = {TFW_UN_HARD_SIGMOID},
                      .n_floats = 2, .floats = {0.2f, 0.5f}};
  recs[4].o[0] = fb_operand(TPKG_DT_F32, 1, d1, 0, 192);
  recs[4].o[1] = fb_operand(TPKG_DT_F32, 1, d1, 1024, 192);
  recs[5] = (fb_desc){.op = TPKG_OP_CONCAT, .n_in = 3, .n_out = 1, .n_ints = 1, .ints = {0}};
  for (uint32_t k = 0; k < 3; k++) recs[5].o[k] = fb_operand(TPKG_DT_F32, 1, d1, 192u * k, 192);
  static const uint32_t d144[1] = {144};
  recs[5].o[3] = fb_operand(TPKG_DT_F32, 1, d144, 1024, 576);
  for (int r = 0; r < 6; r++) {
    fb_encoded e;
    const tpkg_fallback *f = fb_encode(&recs[r], &e);
    uint32_t need = 0;
    memset(prep_buf, 0x5A, sizeof prep_buf);
    assert_int_equal(tfw_fallback_prepare(f, w1, WB, 8, prep_buf, 0, &need), 0); /* no room: checked only */
    assert_true(need > 0 && need % 8 == 0 && need < sizeof prep_buf);
    assert_int_equal(tfw_fallback_prepare(f, w1, WB, 8, prep_buf, need - 8, NULL), 0);
    for (size_t i = 0; i < sizeof prep_buf; i++) assert_int_equal(((uint8_t *)prep_buf)[i], 0x5A);
    assert_int_equal(tfw_fallback_prepare(f, w1, WB, 8, prep_buf, need, NULL), 0);
    for (size_t i = need; i < sizeof prep_buf; i++) assert_int_equal(((uint8_t *)prep_buf)[i], 0x5A);
    memset(e.bytes, 0xFF, sizeof e.bytes); /* the prepared form holds what it needs */
    for (int input = 0; input < 3; input++) {
      for (uint32_t i = 0; i < WB / 4; i++) {
        float v = rnd_float(-6.0f, 6.0f);
        memcpy(w1 + 4 * i, &v, 4);
      }
      memcpy(w2, w1, WB);
      assert_int_equal(tfw_fallback_run_prepared(prep_buf), 0); /* over w1, where it was prepared */
      assert_int_equal(fb_run(&recs[r], w2, WB, 8), 0);
      assert_memory_equal(w1, w2, WB);
    }
  }
}

/* ---- bit-exact against the RV32 firmware ---------------------------------------- */

static void test_firmware_checksums(void **state) {
  (void)state;
  if (!iss_path || !fw_elf_path) fail_msg("usage: test_fallback TESSEL_ISS FW_FALLBACK_CRC.elf");
  fb_checksums h;
  fb_checksum_all(&h);
  assert_int_equal(h.run_rc, 0); /* the checksum's records are valid: they ran */
  char want[200];
  snprintf(want, sizeof want, "fallback-crc expf %08x quantize %08x dequantize %08x softmax %08x run %08x\n",
           (unsigned)h.expf, (unsigned)h.quantize, (unsigned)h.dequantize, (unsigned)h.softmax, (unsigned)h.run);
  fw_crc_check(iss_path, fw_elf_path, "2000000000", "fallback-crc", want);
}

/* QUANTIZE of a PLAIN input into BLOCKED (a graph input entering the NPU:
 * the word-wise path): every element equals tfw_quantize, for int8 and
 * uint8 outputs, scales of every kind and zero points at both ends, on
 * inputs around every code's boundary (the tie and two floats either side
 * of it) and of every class (+-0, +-inf, NaN, subnormals, huge, random). */
static void test_quantize_to_blocked(void **state) {
  (void)state;
  uint32_t dims[4] = {1, 3, 32, 32}, n = 3 * 32 * 32, dim = 8;
  enum { WB = 32768 };
  static uint8_t win[WB];
  static float x[3 * 32 * 32];
  static const float scales[] = {0.0625f, 0.1f, 3.7e3f, 1e-30f, 0.0078125f * 3};
  static const int32_t zps[] = {-128, 0, 3, 127, 255};
  static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                      0xffc00001u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu};
  /* blocks of DIM and of 4 lanes (one block below DIM holding the 3
   * channels: a conv's packed input); each padding lane the zero point */
  for (uint32_t blk = dim; blk >= 4; blk -= 4)
  for (size_t si = 0; si < sizeof scales / sizeof *scales; si++)
    for (size_t zi = 0; zi < sizeof zps / sizeof *zps; zi++) {
      float sc = scales[si];
      int32_t zp = zps[zi], u8 = zp > 127, lo = u8 ? 0 : -128;
      uint32_t i = 0;
      for (int32_t q = lo; q <= lo + 256; q++) {
        float t = ((float)(q - zp) - 0.5f) * sc;
        x[i++] = t;
        x[i++] = nextafterf(t, INFINITY), x[i++] = nextafterf(nextafterf(t, INFINITY), INFINITY);
        x[i++] = nextafterf(t, -INFINITY), x[i++] = nextafterf(nextafterf(t, -INFINITY), -INFINITY);
      }
      for (size_t k = 0; k < sizeof specials / sizeof *specials; k++) x[i++] = from_bits(specials[k]);
      while (i < n) x[i++] = rnd_float(-300.0f, 300.0f) * sc;
      memcpy(win, x, sizeof x);
      fb_desc q = rec1(TPKG_OP_QUANTIZE, TPKG_DT_F32, u8 ? TPKG_DT_U8 : TPKG_DT_I8, dims, 0, sizeof x, 16384, 8192);
      fb_set_layout(&q.o[1], TPKG_LAYOUT_BLOCKED, blk);
      q.o[1].scale = sc, q.o[1].zp = zp;
      assert_int_equal(fb_run(&q, win, WB, dim), 0);
      for (uint32_t p = 0; p < 32 * 32; p++)
        for (uint32_t l = 3; l < blk; l++) assert_int_equal(win[16384 + p * blk + l], (uint8_t)zp);
      for (uint32_t e = 0; e < n; e++) {
        uint8_t got = win[16384 + tfw_layout_offset(TPKG_LAYOUT_BLOCKED, 4, dims, blk, e)];
        int32_t have = u8 ? (int32_t)got : (int32_t)(int8_t)got, want = tfw_quantize(x[e], sc, zp, lo, lo + 255);
        if (have != want)
          fail_msg("block %u scale %g zp %d: element %u (%a) gave %d, tfw_quantize %d", blk, (double)sc, zp, e,
                   (double)x[e], have, want);
      }
    }
  /* a block that cannot hold the channels, or above DIM: refused */
  for (uint32_t blk = 2; blk <= 16; blk += 14) {
    fb_desc q = rec1(TPKG_OP_QUANTIZE, TPKG_DT_F32, TPKG_DT_I8, dims, 0, sizeof x, 16384, 8192);
    fb_set_layout(&q.o[1], TPKG_LAYOUT_BLOCKED, blk);
    q.o[1].scale = 0.1f;
    assert_int_equal(fb_run(&q, win, WB, dim), TFW_FB_E_LAYOUT);
  }
}

/* ---- the converter's jobs (tfw_set_cvt) ------------------------------------------ */

/* A converter in C with the CVT unit's semantics (docs/memory-map.md): it
 * checks that every byte a job reads or writes lies in the window, counts
 * the jobs, and declines from job `cvt_decline_from` on. */
static const uint8_t *cvt_lo, *cvt_hi;
static int cvt_jobs, cvt_decline_from = 1 << 30;

static int emulated_cvt(const tfw_cvt_job *j) {
  if (cvt_jobs++ >= cvt_decline_from) return -1;
  int32_t lo = j->u8 ? 0 : -128, hi = j->u8 ? 255 : 127, pad = j->zp < lo ? lo : j->zp > hi ? hi : j->zp;
  for (uint32_t o = 0; o < j->outer; o++)
    for (uint32_t i = 0; i < j->inner; i++) {
      const uint8_t *src = j->src + (int64_t)o * j->src_outer + (int64_t)i * j->src_inner;
      uint8_t *dst = j->dst + (int64_t)o * j->dst_outer + (int64_t)i * j->dst_inner;
      int q = j->op == TFW_CVT_QUANTISE, dq = j->op == TFW_CVT_DEQUANTISE;
      uint32_t sn = q ? 4 : 1, dn = dq ? 4 : 1;
      int reads = dq || i < j->inner_real;
      if ((reads && (src < cvt_lo || src + sn > cvt_hi)) || dst < cvt_lo || dst + dn > cvt_hi)
        fail_msg("converter job %d: element (%u, %u) outside the window", cvt_jobs, o, i);
      if (j->op == TFW_CVT_COPY8) {
        *dst = reads ? *src : (uint8_t)j->zp;
      } else if (q) {
        float x;
        memcpy(&x, src, 4);
        *dst = (uint8_t)(reads ? tfw_quantize(x, j->scale, j->zp, lo, hi) : pad);
      } else {
        float y = tfw_dequantize(j->u8 ? *src : (int8_t)*src, j->scale, j->zp);
        memcpy(dst, &y, 4);
      }
    }
  return 0;
}

/* QuantizeLinear, DequantizeLinear and 8-bit Relayout records whose
 * layouts the converter takes (PLAIN <-> PLAIN, PLAIN f32 -> BLOCKED,
 * BLOCKED -> PLAIN f32, 8-bit BLOCKED <-> PLAIN) give the same window bytes
 * with the emulated converter, with one that declines after its first job,
 * and without one; every job stays inside the window. */
static void test_converter_jobs(void **state) {
  (void)state;
  enum { WB = 65536, OUT = 32768 };
  static uint8_t base[WB], with[WB];
  static const uint32_t shapes[][4] = {{1, 3, 5, 7}, {1, 8, 4, 4}, {2, 13, 3, 3}, {1, 1, 1, 1}, {1, 17, 1, 2}};
  static const uint32_t dims_of_dim[] = {4, 8, 16};
  static const char *const kinds[] = {"quantise", "dequantise", "relayout blocked->plain", "relayout plain->blocked"};
  int cases = 0;
  for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
    for (size_t di = 0; di < 3; di++)
      for (int k = 0; k < 16; k++) {
        uint32_t dim = dims_of_dim[di], kind = k & 3, u8 = (k >> 2) & 1, blocked = (k >> 3) & 1;
        uint32_t code = u8 ? TPKG_DT_U8 : TPKG_DT_I8, quant = kind == 0, relayout = kind >= 2;
        if (relayout && blocked) continue; /* a relayout's layouts are its kind's */
        fb_desc f = rec1(relayout ? TPKG_OP_RELAYOUT : quant ? TPKG_OP_QUANTIZE : TPKG_OP_DEQUANTIZE,
                         quant ? TPKG_DT_F32 : code, kind == 1 ? TPKG_DT_F32 : code, shapes[si], 0, OUT, OUT, OUT);
        if (blocked) fb_set_layout(&f.o[quant ? 1 : 0], TPKG_LAYOUT_BLOCKED, dim);
        if (relayout) fb_set_layout(&f.o[kind == 2 ? 0 : 1], TPKG_LAYOUT_BLOCKED, dim);
        f.o[0].scale = f.o[1].scale = 0.037f, f.o[0].zp = f.o[1].zp = u8 ? 201 : -9;
        for (size_t i = 0; i < WB; i++) base[i] = (uint8_t)rnd();
        for (size_t i = 0; quant && i + 4 <= OUT; i += 4) {
          float x = rnd_float(-9.0f, 9.0f);
          memcpy(base + i, &x, 4);
        }
        memcpy(with, base, WB);
        tfw_set_cvt(NULL);
        assert_int_equal(fb_run(&f, base, WB, dim), 0);
        for (int decline = 0; decline < 2; decline++) {
          uint8_t *w = decline ? malloc(WB) : with;
          assert_non_null(w);
          if (decline) memcpy(w, with, WB);
          cvt_lo = w, cvt_hi = w + WB, cvt_jobs = 0, cvt_decline_from = decline ? 1 : 1 << 30;
          tfw_set_cvt(emulated_cvt);
          int rc = fb_run(&f, w, WB, dim);
          tfw_set_cvt(NULL);
          assert_int_equal(rc, 0);
          assert_true(cvt_jobs > 0); /* every one of these layouts is offered */
          if (memcmp(w, base, WB))
            fail_msg("shape %zu dim %u %s u8 %u blocked %u%s: the window differs from the core's own run", si, dim,
                     kinds[kind], u8, blocked, decline ? " (declined after one job)" : "");
          if (decline) free(w);
        }
        cases++;
      }
  printf("converter jobs: %d records, bytes equal with and without the converter\n", cases);
}

int main(int argc, char **argv) {
  if (argc == 3) iss_path = argv[1], fw_elf_path = argv[2];
  else if (argc != 1) return fprintf(stderr, "usage: test_fallback [TESSEL_ISS FW_FALLBACK_CRC.elf]\n"), 2;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_quantize_ties),       cmocka_unit_test(test_quantize_saturation_inf_nan),
      cmocka_unit_test(test_quantize_matches_formula), cmocka_unit_test(test_quantize_all_magnitudes),
      cmocka_unit_test(test_quantize_equals_float_division), cmocka_unit_test(test_dequantize),
      cmocka_unit_test(test_expf_sweep),          cmocka_unit_test(test_expf_special),
      cmocka_unit_test(test_softmax_rows),        cmocka_unit_test(test_layout_offset),
      cmocka_unit_test(test_relayout_all_pairs),  cmocka_unit_test(test_ops_through_window),
      cmocka_unit_test(test_quantize_to_blocked), cmocka_unit_test(test_converter_jobs),
      cmocka_unit_test(test_unaligned_window),    cmocka_unit_test(test_bad_records),         cmocka_unit_test(test_random_records),
      cmocka_unit_test(test_prepared_records),
      cmocka_unit_test(test_firmware_checksums),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
