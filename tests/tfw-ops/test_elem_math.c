/* test_elem_math: shared/tfw_math.c against double libm (correctly rounded
 * to far better than an f32 ulp, so a fine reference). Each function runs
 * over every 4093rd float bit pattern (~1.05M points: both signs, zeros,
 * subnormals, huge values, infinities, NaNs) plus a dense sweep of
 * consecutive floats where the function is hardest; it prints its maximum
 * error in ulps and asserts the bound tfw_math.h documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "elem_test.h"
#include "tfw_math.h"

uint32_t et_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
float et_float(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

double et_ulp_error(float got, double ref) {
  if (isnan(ref)) return et_bits(got) == 0x7fc00000u ? 0.0 : 1e9;
  if (isnan(got)) return 1e9;
  if (fabs(ref) >= 0x1.ffffffp127) return et_bits(got) == et_bits(ref < 0 ? -INFINITY : INFINITY) ? 0.0 : 1e9;
  if (isinf(got)) return 1e9;
  int e;
  frexp(fabs(ref), &e); /* |ref| in [2^(e-1), 2^e) */
  double ulp = ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
  return fabs((double)got - ref) / ulp;
}

typedef float (*f32_fn)(float);
typedef double (*f64_fn)(double);

typedef struct {
  double max;   /* largest error, ulps */
  float at;     /* where */
  long points;
} sweep_stat;

static void sweep_one(sweep_stat *s, f32_fn f, f64_fn ref, float x) {
  double e = et_ulp_error(f(x), ref((double)x));
  s->points++;
  if (e > s->max) s->max = e, s->at = x;
}

/* Every 4093rd bit pattern, the specials, and n consecutive floats from each
 * of the dense starts. */
static void sweep(const char *name, f32_fn f, f64_fn ref, const float *dense, int n_dense, uint32_t n, double bound) {
  sweep_stat s = {0, 0, 0};
  for (uint64_t u = 0; u <= 0xffffffffull; u += 4093) sweep_one(&s, f, ref, et_float((uint32_t)u));
  static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u,
                                      0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                      0x7f800001u, 0x7fffffffu, 0x3f800000u, 0xbf800000u};
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) sweep_one(&s, f, ref, et_float(specials[i]));
  for (int d = 0; d < n_dense; d++) {
    uint32_t b = et_bits(dense[d]);
    for (uint32_t i = 0; i < n; i++) sweep_one(&s, f, ref, et_float(b + i));
  }
  printf("%-8s %8ld points, max error %.4f ulp (at %a), bound %.1f\n", name, s.points, s.max, (double)s.at, bound);
  assert_true(s.max <= bound);
}

static double sigmoid_d(double x) { return 1.0 / (1.0 + exp(-x)); }

void test_math_sqrt(void **state) {
  (void)state;
  static const float dense[] = {1.0f, 0x1p-149f, 0x1.fffff0p+127f, 0.25f};
  sweep("sqrt", tfw_sqrtf, sqrt, dense, 4, 200000, 0.5);
  /* correctly rounded: the same bits as libm's sqrtf on every 509th float */
  for (uint64_t u = 0; u <= 0x7f800000u; u += 509) assert_int_equal(et_bits(tfw_sqrtf(et_float((uint32_t)u))), et_bits(sqrtf(et_float((uint32_t)u))));
  assert_int_equal(et_bits(tfw_sqrtf(-0.0f)), 0x80000000u);
  assert_int_equal(et_bits(tfw_sqrtf(-1.0f)), 0x7fc00000u);
  assert_true(tfw_sqrtf(4.0f) == 2.0f && tfw_sqrtf(0x1p-148f) == 0x1p-74f);
}

void test_math_exp(void **state) { /* the softmax's exp: 1 ulp (tfw_math.h) */
  (void)state;
  static const float dense[] = {-1e-3f, 1e-3f, 88.0f, -87.5f, -103.0f};
  sweep("exp", tfw_expf, exp, dense, 5, 200000, 1.0);
}

void test_math_log(void **state) {
  (void)state;
  static const float dense[] = {0.99f, 1.0f, 0x1p-149f, 0.7f};
  sweep("log", tfw_logf, log, dense, 4, 200000, 1.0);
  assert_true(tfw_logf(1.0f) == 0.0f);
  assert_int_equal(et_bits(tfw_logf(0.0f)), 0xff800000u);
  assert_int_equal(et_bits(tfw_logf(-0.0f)), 0xff800000u);
}

void test_math_log1p(void **state) {
  (void)state;
  static const float dense[] = {-0.3f, 0.2f, 1e-8f, -1e-8f, -0.99999f};
  sweep("log1p", tfw_log1pf, log1p, dense, 5, 150000, 1.0);
  assert_int_equal(et_bits(tfw_log1pf(-1.0f)), 0xff800000u);
  assert_int_equal(et_bits(tfw_log1pf(-0.0f)), 0x80000000u);
}

void test_math_expm1(void **state) {
  (void)state;
  static const float dense[] = {-0.3f, 0.2f, 1e-8f, -1e-8f, 88.0f};
  sweep("expm1", tfw_expm1f, expm1, dense, 5, 150000, 1.0);
  assert_int_equal(et_bits(tfw_expm1f(-0.0f)), 0x80000000u);
}

void test_math_tanh(void **state) {
  (void)state;
  static const float dense[] = {-0.01f, 0.5f, 8.9f, 1e-4f};
  sweep("tanh", tfw_tanhf, tanh, dense, 4, 150000, 1.0);
}

void test_math_sigmoid(void **state) {
  (void)state;
  static const float dense[] = {-1e-3f, 1.0f, -87.0f, -100.0f, 16.0f};
  sweep("sigmoid", tfw_sigmoidf, sigmoid_d, dense, 5, 150000, 1.0);
  assert_true(tfw_sigmoidf(0.0f) == 0.5f);
}

void test_math_erf(void **state) {
  (void)state;
  static const float dense[] = {-1e-3f, 0.5f, 3.8f, -2.0f};
  sweep("erf", tfw_erff, erf, dense, 4, 150000, 1.0);
  assert_true(tfw_erff(4.0f) == 1.0f && tfw_erff(-10.0f) == -1.0f);
}

/* floor, ceil, rint: exact, signed zeros included. */
void test_math_rounding(void **state) {
  (void)state;
  long n = 0;
  for (uint64_t u = 0; u <= 0xffffffffull; u += 1021, n++) {
    float x = et_float((uint32_t)u);
    float want[3] = {floorf(x), ceilf(x), nearbyintf(x)}, got[3] = {tfw_floorf(x), tfw_ceilf(x), tfw_rintf(x)};
    for (int k = 0; k < 3; k++) {
      if (isnan(x)) assert_int_equal(et_bits(got[k]), 0x7fc00000u);
      else if (et_bits(got[k]) != et_bits(want[k])) fail_msg("rounding %d of %a: %a, want %a", k, (double)x, (double)got[k], (double)want[k]);
    }
    float a = tfw_fabsf(x);
    assert_int_equal(et_bits(a), isnan(x) ? 0x7fc00000u : et_bits(x) & 0x7fffffffu);
  }
  assert_true(tfw_rintf(2.5f) == 2.0f && tfw_rintf(3.5f) == 4.0f && tfw_rintf(-2.5f) == -2.0f);
  assert_int_equal(et_bits(tfw_rintf(-0.5f)), 0x80000000u);
  assert_int_equal(et_bits(tfw_ceilf(-0.5f)), 0x80000000u);
  assert_true(tfw_floorf(-0.5f) == -1.0f);
  printf("floor/ceil/rint/fabs: %ld points exact\n", n);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next32(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* pow: random bit patterns, moderate exponents, integer pairs and bases
 * near 1 with large exponents (where y log x needs its extra precision). */
void test_math_pow(void **state) {
  (void)state;
  double max = 0;
  float mx = 0, my = 0;
  for (int i = 0; i < 400000; i++) {
    float x, y;
    switch (i % 4) {
    case 0: x = et_float(next32()), y = et_float(next32()); break;
    case 1: x = et_float(next32() & 0x7fffffffu), y = (float)((int)(next32() % 2001) - 1000) * 0.0137f; break;
    case 2: x = (float)((int)(next32() % 41) - 20), y = (float)((int)(next32() % 61) - 30); break;
    default: x = et_float((next32() & 0x7fffffu) | 0x3f800000u), y = et_float(next32() % 0x4b000000u); break;
    }
    double e = et_ulp_error(tfw_powf(x, y), pow((double)x, (double)y));
    if (e > max) max = e, mx = x, my = y;
  }
  printf("pow      400000 points, max error %.4f ulp (at %a ** %a), bound 1.0\n", max, (double)mx, (double)my);
  assert_true(max <= 1.0);
  /* small integer powers of small integers are exact */
  for (int a = -20; a <= 20; a++)
    for (int b = -10; b <= 30; b++) {
      double want = pow(a, b);
      if (fabs(want) > 0x1p24 || (float)want != want) continue;
      if (tfw_powf((float)a, (float)b) != (float)want) fail_msg("pow(%d, %d) = %a", a, b, (double)tfw_powf((float)a, (float)b));
    }
  assert_true(tfw_powf(2.0f, 3.0f) == 8.0f && tfw_powf(-2.0f, 3.0f) == -8.0f && tfw_powf(4.0f, 0.5f) == 2.0f);
}

/* The C99 special cases, against libm on every pair of special values. */
void test_math_pow_special(void **state) {
  (void)state;
  static const float v[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 1.5f, -1.5f, 2.0f, -2.0f, 3.0f, -3.0f,
                            0x1p-149f, -0x1p-149f, 0x1.fffffep127f, -0x1.fffffep127f, INFINITY, -INFINITY, NAN, -NAN};
  int n = (int)(sizeof v / sizeof v[0]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float got = tfw_powf(v[i], v[j]);
      double want = pow((double)v[i], (double)v[j]);
      if (et_ulp_error(got, want) > 1.0 || (want == 0 && et_bits(got) != et_bits((float)want)))
        fail_msg("pow(%a, %a) = %a, want %a", (double)v[i], (double)v[j], (double)got, want);
    }
  assert_true(tfw_powf(NAN, 0.0f) == 1.0f && tfw_powf(1.0f, NAN) == 1.0f && tfw_powf(-1.0f, INFINITY) == 1.0f);
  assert_int_equal(et_bits(tfw_powf(-8.0f, 1.0f / 3.0f)), 0x7fc00000u);
}

void test_math_bits(void **state) {
  (void)state;
  assert_int_equal(tfw_f32_bits(1.0f), 0x3f800000u);
  assert_true(tfw_bits_f32(0xc0000000u) == -2.0f);
  assert_true(tfw_isnan(et_float(0x7f800001u)) && tfw_isnan(et_float(0xffc00000u)));
  assert_false(tfw_isnan(INFINITY));
  /* every function gives the canonical NaN for a NaN with a payload */
  f32_fn fs[] = {tfw_expf, tfw_logf, tfw_sqrtf, tfw_tanhf, tfw_sigmoidf, tfw_erff, tfw_log1pf,
                 tfw_expm1f, tfw_floorf, tfw_ceilf, tfw_rintf};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) assert_int_equal(et_bits(fs[i](et_float(0xffc12345u))), 0x7fc00000u);
  assert_int_equal(et_bits(tfw_powf(et_float(0x7fc12345u), 2.0f)), 0x7fc00000u);
}
