/* test_elem: the element-wise kernels of shared/tfw_ops_elem.c, called
 * directly, under ASan/UBSan: every UNARY function on known answers and
 * against a double formula on a sweep, the integer forms and their wrap,
 * BINARY broadcasting against a naive reference over random shapes, the
 * n-ary fold, integer division and pow corner cases, comparisons and logic,
 * WHERE, CAST (saturation, NaN, rounding), LUT and the int8 MUL_Q (against
 * a plain reference of its formula and against float); and each error (bad
 * dtype, bad broadcast, wrong counts) returns its code with the output's
 * bytes untouched. The math tests are test_elem_math.c's. Last, the
 * checksums of elem_checksum.c from the RV32 firmware must equal the host's.
 *
 *   test_elem [TESSEL_ISS FW_ELEM_CRC.elf]
 * Without the two arguments the firmware comparison fails (it is part of
 * the suite, not optional). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "fw_crc_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem_checksum.h"
#include "elem_test.h"
#include "tfw_ops.h"

static const char *iss_path, *fw_elf_path;

/* ---- tensors and calls ---------------------------------------------------------- */

#define GUARD 64 /* bytes after every output, which must stay 0xAA */
#define POOL_BYTES (1u << 20)

static _Alignas(16) uint8_t pool[POOL_BYTES];
static size_t pool_used;

static void pool_reset(void) { pool_used = 0; }

static size_t dt_size(uint32_t dt) { return tpkg_dtype_bytes(dt); }

static size_t t_numel(const tfw_tensor *t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++) n *= t->dims[i];
  return n;
}

/* A tensor of dtype and dims (rank = n_dims) in the pool, filled from src
 * (numel elements of the dtype's C type) or with 0xAA (and a guard). */
static tfw_tensor mk(uint32_t dt, uint32_t rank, const uint32_t *dims, const void *src) {
  tfw_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  for (uint32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  size_t bytes = t_numel(&t) * (dt_size(dt) ? dt_size(dt) : 1);
  pool_used = (pool_used + 15) & ~(size_t)15;
  assert_true(pool_used + bytes + GUARD <= POOL_BYTES);
  t.data = pool + pool_used;
  pool_used += bytes + GUARD;
  if (src) memcpy(t.data, src, bytes);
  else memset(t.data, 0xAA, bytes);
  memset(t.data + bytes, 0xAA, GUARD);
  return t;
}

static tfw_tensor mk1(uint32_t dt, uint32_t n, const void *src) { return mk(dt, 1, &n, src); }

/* Whether the output's bytes (and guard) are all still 0xAA. */
static int untouched(const tfw_tensor *t) {
  size_t bytes = t_numel(t) * (dt_size(t->dtype) ? dt_size(t->dtype) : 1) + GUARD;
  for (size_t i = 0; i < bytes; i++)
    if (t->data[i] != 0xAA) return 0;
  return 1;
}
static int guard_ok(const tfw_tensor *t) {
  size_t bytes = t_numel(t) * dt_size(t->dtype);
  for (size_t i = 0; i < GUARD; i++)
    if (t->data[bytes + i] != 0xAA) return 0;
  return 1;
}

typedef int (*kernel_fn)(const tfw_call *);

static int call(kernel_fn k, const tfw_tensor *in, uint32_t n_in, const tfw_tensor *out, const int32_t *ints,
                uint32_t n_ints, const float *floats, uint32_t n_floats) {
  tfw_call c = {0, n_in, 1, in, out, ints, n_ints, floats, n_floats};
  int rc = k(&c);
  if (rc == 0) assert_true(guard_ok(out));
  else assert_true(untouched(out));
  return rc;
}

static float f_at(const tfw_tensor *t, size_t i) { return ((const float *)t->data)[i]; }

/* ---- UNARY ------------------------------------------------------------------ */

static int un(uint32_t fn, float x, float a, float b, float *y) {
  pool_reset();
  tfw_tensor in = mk1(TPKG_DT_F32, 1, &x), out = mk1(TPKG_DT_F32, 1, NULL);
  int32_t ints[1] = {(int32_t)fn};
  float fl[2] = {a, b};
  int rc = call(tfw_k_unary, &in, 1, &out, ints, 1, fl, 2);
  *y = f_at(&out, 0);
  return rc;
}

static double ref_un(uint32_t fn, double x, double a, double b) {
  double sp = x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
  switch (fn) {
  case TFW_UN_RELU: return x < 0 ? 0 : x;
  case TFW_UN_SIGMOID: return 1 / (1 + exp(-x));
  case TFW_UN_TANH: return tanh(x);
  case TFW_UN_EXP: return exp(x);
  case TFW_UN_LOG: return log(x);
  case TFW_UN_SQRT: return sqrt(x);
  case TFW_UN_NEG: return -x;
  case TFW_UN_ABS: return fabs(x);
  case TFW_UN_FLOOR: return floor(x);
  case TFW_UN_CEIL: return ceil(x);
  case TFW_UN_ROUND: return nearbyint(x);
  case TFW_UN_RECIPROCAL: return 1 / x;
  case TFW_UN_ERF: return erf(x);
  case TFW_UN_SOFTSIGN: return isinf(x) ? copysign(1, x) : x / (1 + fabs(x));
  case TFW_UN_SOFTPLUS: return sp;
  case TFW_UN_GELU: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
  case TFW_UN_GELU_TANH: return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  case TFW_UN_MISH: return x * tanh(sp);
  case TFW_UN_HARD_SIGMOID: return isnan(x) ? x : fmax(0, fmin(1, a * x + b));
  case TFW_UN_HARD_SWISH: return x * (isnan(x) ? x : fmax(0, fmin(1, x / 6 + 0.5)));
  case TFW_UN_ELU: return x < 0 ? a * expm1(x) : x;
  case TFW_UN_SELU: return x <= 0 ? b * a * expm1(x) : b * x;
  case TFW_UN_CELU: return (x > 0 ? x : 0) + fmin(0, a * expm1(x / a));
  case TFW_UN_LEAKY_RELU: return x < 0 ? a * x : x;
  case TFW_UN_CLIP: return isnan(x) ? x : fmin(fmax(x, a), b);
  case TFW_UN_THRESHOLDED_RELU: return x > a ? x : 0;
  case TFW_UN_SIGN: return isnan(x) ? x : x > 0 ? 1 : x < 0 ? -1 : 0;
  case TFW_UN_SILU: return x / (1 + exp(-x));
  }
  return NAN;
}

static int close_to(float got, double want) {
  if (isnan(want)) return et_bits(got) == 0x7fc00000u;
  if (isinf(want) || fabs(want) > 3.4e38) return (double)got == want || (isinf(got) && (got > 0) == (want > 0));
  return fabs((double)got - want) <= fmax(1e-6, 2e-6 * fabs(want));
}

/* Known answers, written out. */
static void test_unary_known(void **state) {
  (void)state;
  static const struct {
    uint32_t fn;
    float x, a, b, want;
  } k[] = {
      {TFW_UN_RELU, -2, 0, 0, 0},
      {TFW_UN_RELU, 3, 0, 0, 3},
      {TFW_UN_SIGMOID, 0, 0, 0, 0.5f},
      {TFW_UN_TANH, 0, 0, 0, 0},
      {TFW_UN_EXP, 0, 0, 0, 1},
      {TFW_UN_LOG, 1, 0, 0, 0},
      {TFW_UN_SQRT, 9, 0, 0, 3},
      {TFW_UN_NEG, 2, 0, 0, -2},
      {TFW_UN_ABS, -2.5f, 0, 0, 2.5f},
      {TFW_UN_FLOOR, -1.5f, 0, 0, -2},
      {TFW_UN_CEIL, -1.5f, 0, 0, -1},
      {TFW_UN_ROUND, 2.5f, 0, 0, 2},
      {TFW_UN_ROUND, 3.5f, 0, 0, 4},
      {TFW_UN_ROUND, -2.5f, 0, 0, -2},
      {TFW_UN_RECIPROCAL, 4, 0, 0, 0.25f},
      {TFW_UN_ERF, 0, 0, 0, 0},
      {TFW_UN_SOFTSIGN, 1, 0, 0, 0.5f},
      {TFW_UN_SOFTSIGN, -INFINITY, 0, 0, -1},
      {TFW_UN_SOFTPLUS, 0, 0, 0, 0.693147182f},
      {TFW_UN_SOFTPLUS, 100, 0, 0, 100},
      {TFW_UN_GELU, 1, 0, 0, 0.841344714f},
      {TFW_UN_GELU_TANH, 1, 0, 0, 0.841191947f},
      {TFW_UN_MISH, 1, 0, 0, 0.865098417f},
      {TFW_UN_HARD_SIGMOID, 1, 0.2f, 0.5f, 0.7f},
      {TFW_UN_HARD_SIGMOID, 10, 0.2f, 0.5f, 1},
      {TFW_UN_HARD_SWISH, 3, 0, 0, 3},
      {TFW_UN_HARD_SWISH, -3, 0, 0, 0},
      {TFW_UN_ELU, -1, 1, 0, -0.632120559f},
      {TFW_UN_ELU, 2, 1, 0, 2},
      {TFW_UN_SELU, 1, 1.67326319f, 1.05070102f, 1.05070102f},
      {TFW_UN_SELU, -1, 1.67326319f, 1.05070102f, -1.11133074f},
      {TFW_UN_CELU, -1, 1, 0, -0.632120559f},
      {TFW_UN_CELU, 2, 1, 0, 2},
      {TFW_UN_LEAKY_RELU, -2, 0.1f, 0, -0.2f},
      {TFW_UN_CLIP, 5, -1, 1, 1},
      {TFW_UN_CLIP, -5, -1, 1, -1},
      {TFW_UN_CLIP, 0.5f, -1, 1, 0.5f},
      {TFW_UN_THRESHOLDED_RELU, 0.5f, 1, 0, 0},
      {TFW_UN_THRESHOLDED_RELU, 2, 1, 0, 2},
      {TFW_UN_SIGN, -3, 0, 0, -1},
      {TFW_UN_SIGN, 0, 0, 0, 0},
      {TFW_UN_SILU, 1, 0, 0, 0.731058598f},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    float y;
    assert_int_equal(un(k[i].fn, k[i].x, k[i].a, k[i].b, &y), 0);
    if (fabsf(y - k[i].want) > 1e-6f * fmaxf(1, fabsf(k[i].want)))
      fail_msg("fn %u (%g): %.9g, want %.9g", k[i].fn, (double)k[i].x, (double)y, (double)k[i].want);
  }
  float y;
  un(TFW_UN_ROUND, -0.5f, 0, 0, &y);
  assert_int_equal(et_bits(y), 0x80000000u);
  un(TFW_UN_ABS, et_float(0xffc12345u), 0, 0, &y);
  assert_int_equal(et_bits(y), 0x7fc00000u);
}

/* Every f32 function over [-12, 12] and the special values, against its
 * formula in double. */
static void test_unary_sweep(void **state) {
  (void)state;
  static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-30f, -1e-30f, 50, -50, 100, -100, 1e30f, -1e30f};
  enum { N = 2401 };
  float xs[N + sizeof special / sizeof special[0]];
  size_t n = 0;
  for (int i = 0; i < N; i++) xs[n++] = (float)(i - 1200) * 0.01f;
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) xs[n++] = special[i];
  for (uint32_t fn = TFW_UN_RELU; fn <= TFW_UN_SILU; fn++) {
    if (fn == TFW_UN_NOT) continue;
    float a = fn == TFW_UN_SELU ? 1.67326319f : fn == TFW_UN_CLIP ? -2.5f : fn == TFW_UN_HARD_SIGMOID ? 0.2f : 0.7f;
    float b = fn == TFW_UN_SELU ? 1.05070102f : fn == TFW_UN_CLIP ? 3.0f : 0.5f;
    pool_reset();
    uint32_t dims[1] = {(uint32_t)n};
    tfw_tensor in = mk(TPKG_DT_F32, 1, dims, xs), out = mk(TPKG_DT_F32, 1, dims, NULL);
    int32_t ints[1] = {(int32_t)fn};
    float fl[2] = {a, b};
    assert_int_equal(call(tfw_k_unary, &in, 1, &out, ints, 1, fl, 2), 0);
    for (size_t i = 0; i < n; i++) {
      double want = ref_un(fn, xs[i], a, b);
      if (!close_to(f_at(&out, i), want))
        fail_msg("fn %u at %a: %a, want %a", fn, (double)xs[i], (double)f_at(&out, i), want);
    }
  }
}

/* Integer NEG ABS SIGN RELU CLIP (wrapping), NOT on bool. */
static void test_unary_int(void **state) {
  (void)state;
  pool_reset();
  int8_t i8[5] = {-128, -3, 0, 5, 127};
  uint8_t u8[4] = {0, 1, 200, 255};
  int64_t i64[4] = {INT64_MIN, -7, 0, 9};
  int32_t i32[4] = {INT32_MIN, -7, 0, 9};
  int32_t fn[1];
  float fl[2] = {-3.5f, 100.7f};
  tfw_tensor a = mk1(TPKG_DT_I8, 5, i8), ao = mk1(TPKG_DT_I8, 5, NULL);
  fn[0] = TFW_UN_NEG;
  assert_int_equal(call(tfw_k_unary, &a, 1, &ao, fn, 1, NULL, 0), 0);
  int8_t neg8[5] = {-128, 3, 0, -5, -127};
  assert_memory_equal(ao.data, neg8, 5);
  fn[0] = TFW_UN_ABS;
  assert_int_equal(call(tfw_k_unary, &a, 1, &ao, fn, 1, NULL, 0), 0);
  int8_t abs8[5] = {-128, 3, 0, 5, 127};
  assert_memory_equal(ao.data, abs8, 5);
  fn[0] = TFW_UN_CLIP;
  assert_int_equal(call(tfw_k_unary, &a, 1, &ao, fn, 1, fl, 2), 0);
  int8_t clip8[5] = {-3, -3, 0, 5, 100};
  assert_memory_equal(ao.data, clip8, 5);
  float wide[2] = {-1e9f, 1e9f}; /* bounds beyond the type saturate */
  assert_int_equal(call(tfw_k_unary, &a, 1, &ao, fn, 1, wide, 2), 0);
  assert_memory_equal(ao.data, i8, 5);
  tfw_tensor b = mk1(TPKG_DT_U8, 4, u8), bo = mk1(TPKG_DT_U8, 4, NULL);
  fn[0] = TFW_UN_NEG;
  assert_int_equal(call(tfw_k_unary, &b, 1, &bo, fn, 1, NULL, 0), 0);
  uint8_t negu[4] = {0, 255, 56, 1};
  assert_memory_equal(bo.data, negu, 4);
  fn[0] = TFW_UN_SIGN;
  assert_int_equal(call(tfw_k_unary, &b, 1, &bo, fn, 1, NULL, 0), 0);
  uint8_t signu[4] = {0, 1, 1, 1};
  assert_memory_equal(bo.data, signu, 4);
  tfw_tensor c = mk1(TPKG_DT_I64, 4, i64), co = mk1(TPKG_DT_I64, 4, NULL);
  fn[0] = TFW_UN_RELU;
  assert_int_equal(call(tfw_k_unary, &c, 1, &co, fn, 1, NULL, 0), 0);
  int64_t relu64[4] = {0, 0, 0, 9};
  assert_memory_equal(co.data, relu64, 32);
  fn[0] = TFW_UN_ABS;
  assert_int_equal(call(tfw_k_unary, &c, 1, &co, fn, 1, NULL, 0), 0);
  int64_t abs64[4] = {INT64_MIN, 7, 0, 9};
  assert_memory_equal(co.data, abs64, 32);
  tfw_tensor d = mk1(TPKG_DT_I32, 4, i32), dout = mk1(TPKG_DT_I32, 4, NULL);
  fn[0] = TFW_UN_SIGN;
  assert_int_equal(call(tfw_k_unary, &d, 1, &dout, fn, 1, NULL, 0), 0);
  int32_t sign32[4] = {-1, -1, 0, 1};
  assert_memory_equal(dout.data, sign32, 16);
  uint8_t bools[3] = {0, 1, 1};
  tfw_tensor e = mk1(TPKG_DT_BOOL, 3, bools), eo = mk1(TPKG_DT_BOOL, 3, NULL);
  fn[0] = TFW_UN_NOT;
  assert_int_equal(call(tfw_k_unary, &e, 1, &eo, fn, 1, NULL, 0), 0);
  uint8_t nots[3] = {1, 0, 0};
  assert_memory_equal(eo.data, nots, 3);
}

static void test_unary_errors(void **state) {
  (void)state;
  pool_reset();
  float x[4] = {1, 2, 3, 4};
  int32_t xi[4] = {1, 2, 3, 4};
  uint32_t d4[1] = {4}, d22[2] = {2, 2};
  tfw_tensor f = mk(TPKG_DT_F32, 1, d4, x), fo = mk(TPKG_DT_F32, 1, d4, NULL);
  tfw_tensor f22 = mk(TPKG_DT_F32, 2, d22, NULL), io = mk(TPKG_DT_I32, 1, d4, NULL);
  tfw_tensor ii = mk(TPKG_DT_I32, 1, d4, xi), bo = mk(TPKG_DT_BOOL, 1, d4, NULL);
  int32_t fn[2] = {TFW_UN_RELU, 0};
  float fl[3] = {0, 1, 2};
  assert_int_equal(call(tfw_k_unary, &f, 1, &f22, fn, 1, NULL, 0), TFW_FB_E_SHAPE); /* dims differ */
  assert_int_equal(call(tfw_k_unary, &f, 1, &io, fn, 1, NULL, 0), TFW_FB_E_DTYPE);  /* dtype changes */
  fn[0] = TFW_UN_NOT;
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_DTYPE);
  fn[0] = TFW_UN_SIGMOID;
  assert_int_equal(call(tfw_k_unary, &ii, 1, &io, fn, 1, NULL, 0), TFW_FB_E_DTYPE);
  fn[0] = TFW_UN_NOT;
  assert_int_equal(call(tfw_k_unary, &ii, 1, &bo, fn, 1, NULL, 0), TFW_FB_E_DTYPE);
  fn[0] = 0;
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_PARAM);
  fn[0] = TFW_UN_SILU + 1;
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_PARAM);
  fn[0] = TFW_UN_ELU; /* alpha missing */
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_PARAM);
  fn[0] = TFW_UN_CLIP; /* beta missing */
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, fl, 1), TFW_FB_E_PARAM);
  float nanb[2] = {0, NAN};
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, nanb, 2), TFW_FB_E_PARAM);
  fn[0] = TFW_UN_CELU;
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, fl, 1), TFW_FB_E_PARAM); /* alpha 0 */
  fn[0] = TFW_UN_RELU;
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 1, fl, 3), TFW_FB_E_PARAM); /* 3 floats */
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 2, NULL, 0), TFW_FB_E_PARAM); /* 2 ints */
  assert_int_equal(call(tfw_k_unary, &f, 1, &fo, fn, 0, NULL, 0), TFW_FB_E_PARAM); /* no fn */
  assert_int_equal(call(tfw_k_unary, &f, 2, &fo, fn, 1, NULL, 0), TFW_FB_E_SHAPE); /* 2 inputs */
  tfw_tensor bad = f;
  bad.dtype = 9;
  assert_int_equal(call(tfw_k_unary, &bad, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_DTYPE);
  bad = f;
  bad.rank = TFW_MAX_RANK + 1;
  assert_int_equal(call(tfw_k_unary, &bad, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_SHAPE);
  bad = f;
  bad.data = NULL;
  assert_int_equal(call(tfw_k_unary, &bad, 1, &fo, fn, 1, NULL, 0), TFW_FB_E_ARG);
  tfw_call none = {0, 1, 1, NULL, &fo, fn, 1, NULL, 0};
  assert_int_equal(tfw_k_unary(&none), TFW_FB_E_ARG);
  assert_int_equal(tfw_k_unary(NULL), TFW_FB_E_ARG);
  assert_true(untouched(&fo));
}

/* ---- BINARY ----------------------------------------------------------------- */

static uint64_t rng = 12345;
static uint32_t rnd(uint32_t n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng >> 33) % n;
}

/* Flat index into t of the output element at multi-index idx (rank R). */
static size_t bc_index(const tfw_tensor *t, const uint32_t *idx, uint32_t R) {
  size_t off = 0;
  for (uint32_t d = 0; d < t->rank; d++) {
    uint32_t od = R - t->rank + d;
    off = off * t->dims[d] + (t->dims[d] == 1 ? 0 : idx[od]);
  }
  return off;
}

static float ref_f32(uint32_t fn, float a, float b) {
  switch (fn) {
  case TFW_BIN_ADD: return a + b;
  case TFW_BIN_SUB: return a - b;
  case TFW_BIN_MUL: return a * b;
  case TFW_BIN_DIV: return a / b;
  case TFW_BIN_MIN: return isnan(a) || isnan(b) ? NAN : fminf(a, b);
  case TFW_BIN_MAX: return isnan(a) || isnan(b) ? NAN : fmaxf(a, b);
  case TFW_BIN_PRELU: return a < 0 ? b * a : a;
  }
  return 0;
}

static int ref_cmp_f32(uint32_t fn, float a, float b) {
  return fn == TFW_BIN_LESS ? a < b : fn == TFW_BIN_EQUAL ? a == b : a >= b; /* the three the test draws */
}

static int32_t ref_i32(uint32_t fn, int32_t a, int32_t b) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  switch (fn) {
  case TFW_BIN_ADD: return (int32_t)(ua + ub);
  case TFW_BIN_SUB: return (int32_t)(ua - ub);
  case TFW_BIN_MUL: return (int32_t)(ua * ub);
  case TFW_BIN_DIV: return b == 0 ? 0 : (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;
  case TFW_BIN_MIN: return a < b ? a : b;
  case TFW_BIN_MAX: return a > b ? a : b;
  case TFW_BIN_PRELU: return a < 0 ? (int32_t)(ub * ua) : a;
  case TFW_BIN_EQUAL: return a == b;
  case TFW_BIN_LESS: return a < b;
  case TFW_BIN_GREATER: return a > b;
  case TFW_BIN_LESS_EQUAL: return a <= b;
  case TFW_BIN_GREATER_EQUAL: return a >= b;
  }
  return 0;
}

/* Random shapes: out of rank 0..5, each input right-aligned with dims equal
 * or 1; f32 and i32 results against the naive per-element reference. */
static void test_binary_broadcast_random(void **state) {
  (void)state;
  static const uint32_t fns[] = {TFW_BIN_ADD, TFW_BIN_SUB, TFW_BIN_MUL, TFW_BIN_DIV, TFW_BIN_MIN,
                                 TFW_BIN_MAX, TFW_BIN_PRELU, TFW_BIN_LESS, TFW_BIN_EQUAL, TFW_BIN_GREATER_EQUAL};
  int cases = 0;
  for (int iter = 0; iter < 3000; iter++) {
    pool_reset();
    uint32_t fn = fns[rnd(sizeof fns / sizeof fns[0])], R = rnd(6), od[8], ad[8], bd[8], ar, br;
    int is_f = rnd(2), cmp = fn >= TFW_BIN_EQUAL;
    for (uint32_t d = 0; d < R; d++) od[d] = 1 + rnd(4);
    ar = fn == TFW_BIN_PRELU ? R : rnd(R + 1);
    br = ar < R ? R : rnd(R + 1); /* the out rank is the largest input rank */
    for (uint32_t d = 0; d < ar; d++) ad[d] = fn == TFW_BIN_PRELU || rnd(3) ? od[R - ar + d] : 1;
    for (uint32_t d = 0; d < br; d++) bd[d] = rnd(3) ? od[R - br + d] : 1;
    /* the out dims must be the broadcast: an axis no input covers is 1 */
    for (uint32_t d = 0; d < R; d++) {
      int covered = 0;
      if (d >= R - ar && ad[d - (R - ar)] != 1) covered = 1;
      if (d >= R - br && bd[d - (R - br)] != 1) covered = 1;
      if (!covered) od[d] = 1;
    }
    uint32_t dt = is_f ? TPKG_DT_F32 : TPKG_DT_I32;
    tfw_tensor a = mk(dt, ar, ad, NULL), b = mk(dt, br, bd, NULL);
    tfw_tensor o = mk(cmp ? TPKG_DT_BOOL : dt, R, od, NULL);
    for (size_t i = 0; i < t_numel(&a); i++) {
      int32_t v = (int32_t)rnd(41) - 20;
      if (is_f) ((float *)a.data)[i] = (float)v * 0.5f;
      else ((int32_t *)a.data)[i] = v;
    }
    for (size_t i = 0; i < t_numel(&b); i++) {
      int32_t v = (int32_t)rnd(41) - 20;
      if (is_f) ((float *)b.data)[i] = (float)v * 0.25f;
      else ((int32_t *)b.data)[i] = v;
    }
    tfw_tensor ins[2] = {a, b};
    int32_t ints[1] = {(int32_t)fn};
    tfw_call c = {0, 2, 1, ins, &o, ints, 1, NULL, 0};
    /* PRelu: out must be a's dims, which the generator kept */
    int rc = tfw_k_binary(&c);
    if (fn == TFW_BIN_PRELU) {
      int same = o.rank == a.rank;
      for (uint32_t d = 0; same && d < R; d++) same = o.dims[d] == a.dims[d];
      if (!same) {
        assert_int_equal(rc, TFW_FB_E_SHAPE);
        continue;
      }
    }
    assert_int_equal(rc, 0);
    assert_true(guard_ok(&o));
    cases++;
    uint32_t idx[8] = {0};
    for (size_t i = 0; i < t_numel(&o); i++) {
      size_t ia = bc_index(&a, idx, R), ib = bc_index(&b, idx, R);
      if (cmp) {
        int want = is_f ? ref_cmp_f32(fn, ((float *)a.data)[ia], ((float *)b.data)[ib])
                        : ref_i32(fn, ((int32_t *)a.data)[ia], ((int32_t *)b.data)[ib]);
        assert_int_equal(o.data[i], want);
      } else if (is_f) {
        float want = ref_f32(fn, ((float *)a.data)[ia], ((float *)b.data)[ib]);
        assert_int_equal(et_bits(f_at(&o, i)), et_bits(isnan(want) ? et_float(0x7fc00000u) : want));
      } else {
        assert_int_equal(((int32_t *)o.data)[i], ref_i32(fn, ((int32_t *)a.data)[ia], ((int32_t *)b.data)[ib]));
      }
      for (uint32_t d = R; d-- > 0;) { /* next multi-index */
        if (++idx[d] < od[d]) break;
        idx[d] = 0;
      }
    }
  }
  printf("binary broadcasting: %d random cases equal the reference\n", cases);
  assert_true(cases > 2000);
}

static int bin(uint32_t fn, const tfw_tensor *in, uint32_t n, const tfw_tensor *out) {
  int32_t ints[1] = {(int32_t)fn};
  return call(tfw_k_binary, in, n, out, ints, 1, NULL, 0);
}

/* A worked example: [2,1,3] * [4,1] -> [2,4,3]. */
static void test_binary_example(void **state) {
  (void)state;
  pool_reset();
  float a[6] = {1, 2, 3, 4, 5, 6}, b[4] = {1, 10, 100, 1000};
  uint32_t da[3] = {2, 1, 3}, db[2] = {4, 1}, dout[3] = {2, 4, 3};
  tfw_tensor in[2] = {mk(TPKG_DT_F32, 3, da, a), mk(TPKG_DT_F32, 2, db, b)};
  tfw_tensor o = mk(TPKG_DT_F32, 3, dout, NULL);
  assert_int_equal(bin(TFW_BIN_MUL, in, 2, &o), 0);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 3; k++) assert_true(f_at(&o, (size_t)(i * 12 + j * 3 + k)) == a[i * 3 + k] * b[j]);
  /* scalars: rank 0 with rank 0 */
  float s = 2, t = 3;
  tfw_tensor sc[2] = {mk(TPKG_DT_F32, 0, NULL, &s), mk(TPKG_DT_F32, 0, NULL, &t)};
  tfw_tensor so = mk(TPKG_DT_F32, 0, NULL, NULL);
  assert_int_equal(bin(TFW_BIN_POW, sc, 2, &so), 0);
  assert_true(f_at(&so, 0) == 8.0f);
  assert_int_equal(bin(TFW_BIN_SUB, sc, 2, &so), 0);
  assert_true(f_at(&so, 0) == -1.0f);
  /* rank 8: [2,1,1,1,1,1,2,3] + [3] */
  float r8[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, add[3] = {100, 200, 300};
  uint32_t d8[8] = {2, 1, 1, 1, 1, 1, 2, 3}, d3[1] = {3};
  tfw_tensor big[2] = {mk(TPKG_DT_F32, 8, d8, r8), mk(TPKG_DT_F32, 1, d3, add)};
  tfw_tensor bo = mk(TPKG_DT_F32, 8, d8, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, big, 2, &bo), 0);
  for (int i = 0; i < 12; i++) assert_true(f_at(&bo, (size_t)i) == r8[i] + add[i % 3]);
  /* an empty output: [0,3] + [3] writes nothing and succeeds */
  uint32_t d03[2] = {0, 3};
  tfw_tensor e[2] = {mk(TPKG_DT_F32, 2, d03, NULL), big[1]};
  tfw_tensor eo = mk(TPKG_DT_F32, 2, d03, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, e, 2, &eo), 0);
  assert_true(untouched(&eo));
  tfw_tensor e1 = mk(TPKG_DT_F32, 2, d03, NULL); /* 0 against 3: no broadcast */
  uint32_t d33[2] = {3, 3};
  tfw_tensor e2[2] = {mk(TPKG_DT_F32, 2, d03, NULL), mk(TPKG_DT_F32, 2, d33, NULL)};
  assert_int_equal(bin(TFW_BIN_ADD, e2, 2, &e1), TFW_FB_E_SHAPE);
}

/* ADD MUL MIN MAX MEAN with 1..64 inputs: the left fold, NaN wins. */
static void test_binary_nary(void **state) {
  (void)state;
  pool_reset();
  float v1[3] = {1, 2, 3}, v2 = 10, v3[2][1] = {{100}, {1000}};
  uint32_t d3[1] = {3}, d21[2] = {2, 1}, d23[2] = {2, 3};
  tfw_tensor in[3] = {mk(TPKG_DT_F32, 1, d3, v1), mk(TPKG_DT_F32, 0, NULL, &v2), mk(TPKG_DT_F32, 2, d21, v3)};
  tfw_tensor o = mk(TPKG_DT_F32, 2, d23, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, in, 3, &o), 0);
  float sum[6] = {111, 112, 113, 1011, 1012, 1013};
  assert_memory_equal(o.data, sum, 24);
  assert_int_equal(bin(TFW_BIN_MEAN, in, 3, &o), 0);
  for (int i = 0; i < 6; i++) assert_true(f_at(&o, (size_t)i) == sum[i] / 3.0f);
  assert_int_equal(bin(TFW_BIN_MAX, in, 3, &o), 0);
  float mx[6] = {100, 100, 100, 1000, 1000, 1000};
  assert_memory_equal(o.data, mx, 24);
  assert_int_equal(bin(TFW_BIN_MIN, in, 3, &o), 0);
  float mn[6] = {1, 2, 3, 1, 2, 3};
  assert_memory_equal(o.data, mn, 24);
  /* the fold rounds left to right: (1e8 + -1e8) + 1 = 1, where 1e8 + (-1e8 + 1) would be 0 */
  float big = 1e8f, one = 1, nbig = -1e8f;
  tfw_tensor f3[3] = {mk(TPKG_DT_F32, 0, NULL, &big), mk(TPKG_DT_F32, 0, NULL, &nbig), mk(TPKG_DT_F32, 0, NULL, &one)};
  tfw_tensor fo = mk(TPKG_DT_F32, 0, NULL, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, f3, 3, &fo), 0);
  assert_true(f_at(&fo, 0) == 1.0f); /* (1e8 - 1e8) + 1 */
  float nan = NAN;
  tfw_tensor n3[3] = {mk(TPKG_DT_F32, 0, NULL, &one), mk(TPKG_DT_F32, 0, NULL, &nan), mk(TPKG_DT_F32, 0, NULL, &big)};
  assert_int_equal(bin(TFW_BIN_MIN, n3, 3, &fo), 0);
  assert_int_equal(et_bits(f_at(&fo, 0)), 0x7fc00000u);
  assert_int_equal(bin(TFW_BIN_MAX, n3, 3, &fo), 0);
  assert_int_equal(et_bits(f_at(&fo, 0)), 0x7fc00000u);
  /* one input: a copy */
  tfw_tensor o3 = mk(TPKG_DT_F32, 1, d3, NULL);
  assert_int_equal(bin(TFW_BIN_MEAN, in, 1, &o3), 0);
  assert_memory_equal(o3.data, v1, 12);
  /* 64 inputs, i32 */
  tfw_tensor many[65];
  int32_t ones[65];
  for (int i = 0; i < 65; i++) ones[i] = i, many[i] = mk(TPKG_DT_I32, 0, NULL, &ones[i]);
  tfw_tensor io = mk(TPKG_DT_I32, 0, NULL, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, many, 64, &io), 0);
  assert_int_equal(((int32_t *)io.data)[0], 63 * 64 / 2);
  assert_int_equal(bin(TFW_BIN_MAX, many, 64, &io), 0);
  assert_int_equal(((int32_t *)io.data)[0], 63);
  tfw_tensor io2 = mk(TPKG_DT_I32, 0, NULL, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, many, 65, &io2), TFW_FB_E_SHAPE);
  assert_int_equal(bin(TFW_BIN_SUB, many, 3, &io2), TFW_FB_E_SHAPE);
  assert_int_equal(bin(TFW_BIN_DIV, many, 1, &io2), TFW_FB_E_SHAPE);
  assert_int_equal(bin(TFW_BIN_MEAN, many, 2, &io2), TFW_FB_E_DTYPE); /* Mean is f32 only */
}

/* Integer arithmetic wraps; division truncates, by 0 gives 0; pow by squaring. */
static void test_binary_int(void **state) {
  (void)state;
  pool_reset();
  struct {
    uint32_t dt, fn;
    int64_t a, b, want;
  } k[] = {
      {TPKG_DT_I8, TFW_BIN_ADD, 127, 1, -128},
      {TPKG_DT_I8, TFW_BIN_SUB, -128, 1, 127},
      {TPKG_DT_I8, TFW_BIN_MUL, 16, 16, 0},
      {TPKG_DT_I8, TFW_BIN_DIV, -128, -1, -128},
      {TPKG_DT_U8, TFW_BIN_ADD, 200, 100, 44},
      {TPKG_DT_U8, TFW_BIN_SUB, 1, 2, 255},
      {TPKG_DT_U8, TFW_BIN_DIV, 200, 0, 0},
      {TPKG_DT_U8, TFW_BIN_MIN, 200, 100, 100},
      {TPKG_DT_U8, TFW_BIN_POW, 3, 5, 243},
      {TPKG_DT_I32, TFW_BIN_MUL, 65536, 65536, 0},
      {TPKG_DT_I32, TFW_BIN_ADD, INT32_MAX, 1, INT32_MIN},
      {TPKG_DT_I32, TFW_BIN_DIV, INT32_MIN, -1, INT32_MIN},
      {TPKG_DT_I32, TFW_BIN_DIV, -7, 2, -3},
      {TPKG_DT_I32, TFW_BIN_DIV, 7, -2, -3},
      {TPKG_DT_I32, TFW_BIN_DIV, 5, 0, 0},
      {TPKG_DT_I32, TFW_BIN_POW, 3, 4, 81},
      {TPKG_DT_I32, TFW_BIN_POW, 2, 31, INT32_MIN},
      {TPKG_DT_I32, TFW_BIN_POW, 2, 32, 0},
      {TPKG_DT_I32, TFW_BIN_POW, 2, -1, 0},
      {TPKG_DT_I32, TFW_BIN_POW, -1, -3, -1},
      {TPKG_DT_I32, TFW_BIN_POW, 1, -3, 1},
      {TPKG_DT_I32, TFW_BIN_POW, 0, 0, 1},
      {TPKG_DT_I32, TFW_BIN_PRELU, -3, 5, -15},
      {TPKG_DT_I32, TFW_BIN_PRELU, 3, 5, 3},
      {TPKG_DT_I64, TFW_BIN_ADD, INT64_MAX, 1, INT64_MIN},
      {TPKG_DT_I64, TFW_BIN_MUL, INT64_MIN, -1, INT64_MIN},
      {TPKG_DT_I64, TFW_BIN_DIV, INT64_MIN, -1, INT64_MIN},
      {TPKG_DT_I64, TFW_BIN_DIV, INT64_MIN, 0, 0},
      {TPKG_DT_I64, TFW_BIN_MAX, -5, -6, -5},
      {TPKG_DT_I64, TFW_BIN_POW, 10, 18, 1000000000000000000ll},
      {TPKG_DT_I64, TFW_BIN_POW, -2, 63, INT64_MIN},
      /* 16-bit and uint32: widened with their sign (or none), stored truncated */
      {TPKG_DT_I16, TFW_BIN_MAX, -32768, -1, -1},
      {TPKG_DT_I16, TFW_BIN_MIN, 32767, -32768, -32768},
      {TPKG_DT_I16, TFW_BIN_ADD, 32767, 1, -32768},
      {TPKG_DT_U16, TFW_BIN_MAX, 65535, 1, 65535},
      {TPKG_DT_U16, TFW_BIN_MIN, 40000, 30000, 30000},
      {TPKG_DT_U16, TFW_BIN_SUB, 0, 1, 65535},
      {TPKG_DT_U32, TFW_BIN_MAX, 4294967295ll, 2, 4294967295ll},
      {TPKG_DT_U32, TFW_BIN_MIN, 3000000000ll, 2147483648ll, 2147483648ll},
      {TPKG_DT_U32, TFW_BIN_DIV, 4294967295ll, 2, 2147483647},
      {TPKG_DT_U32, TFW_BIN_MUL, 65536, 65536, 0},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint8_t ab[8], bb[8], want[8];
    size_t sz = dt_size(k[i].dt);
    uint64_t ua = (uint64_t)k[i].a, ub = (uint64_t)k[i].b, uw = (uint64_t)k[i].want;
    for (size_t j = 0; j < 8; j++) ab[j] = (uint8_t)(ua >> 8 * j), bb[j] = (uint8_t)(ub >> 8 * j), want[j] = (uint8_t)(uw >> 8 * j);
    tfw_tensor in[2] = {mk(k[i].dt, 0, NULL, ab), mk(k[i].dt, 0, NULL, bb)}, o = mk(k[i].dt, 0, NULL, NULL);
    assert_int_equal(bin(k[i].fn, in, 2, &o), 0);
    if (memcmp(o.data, want, sz)) fail_msg("case %zu: fn %u dtype %u", i, k[i].fn, k[i].dt);
  }
}

static void test_binary_compare_logic(void **state) {
  (void)state;
  pool_reset();
  float fa[4] = {1, NAN, 3, -0.0f}, fb[4] = {2, NAN, 3, 0.0f};
  uint32_t d4[1] = {4};
  tfw_tensor f[2] = {mk(TPKG_DT_F32, 1, d4, fa), mk(TPKG_DT_F32, 1, d4, fb)};
  tfw_tensor o = mk(TPKG_DT_BOOL, 1, d4, NULL);
  static const struct {
    uint32_t fn;
    uint8_t want[4];
  } k[] = {{TFW_BIN_EQUAL, {0, 0, 1, 1}},      {TFW_BIN_LESS, {1, 0, 0, 0}},
           {TFW_BIN_GREATER, {0, 0, 0, 0}},    {TFW_BIN_LESS_EQUAL, {1, 0, 1, 1}},
           {TFW_BIN_GREATER_EQUAL, {0, 0, 1, 1}}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    assert_int_equal(bin(k[i].fn, f, 2, &o), 0);
    assert_memory_equal(o.data, k[i].want, 4);
  }
  /* u8 compares unsigned, i8 signed, bool as 0/1 */
  uint8_t ua[2] = {200, 3}, ub[2] = {100, 3};
  uint32_t d2[1] = {2};
  tfw_tensor u[2] = {mk(TPKG_DT_U8, 1, d2, ua), mk(TPKG_DT_U8, 1, d2, ub)};
  tfw_tensor i8[2] = {mk(TPKG_DT_I8, 1, d2, ua), mk(TPKG_DT_I8, 1, d2, ub)};
  tfw_tensor o2 = mk(TPKG_DT_BOOL, 1, d2, NULL);
  assert_int_equal(bin(TFW_BIN_GREATER, u, 2, &o2), 0);
  assert_int_equal(o2.data[0], 1);
  assert_int_equal(bin(TFW_BIN_GREATER, i8, 2, &o2), 0);
  assert_int_equal(o2.data[0], 0);
  int64_t la[2] = {INT64_MIN, 5}, lb[2] = {INT64_MAX, 5};
  tfw_tensor l[2] = {mk(TPKG_DT_I64, 1, d2, la), mk(TPKG_DT_I64, 1, d2, lb)};
  assert_int_equal(bin(TFW_BIN_LESS_EQUAL, l, 2, &o2), 0);
  assert_int_equal(o2.data[0] + o2.data[1], 2);
  /* AND OR XOR on bool, broadcast [2,1] x [2] */
  uint8_t ba[2] = {0, 1}, bb[2] = {0, 1};
  uint32_t d21[2] = {2, 1}, d22[2] = {2, 2};
  tfw_tensor b[2] = {mk(TPKG_DT_BOOL, 2, d21, ba), mk(TPKG_DT_BOOL, 1, d2, bb)};
  tfw_tensor bo = mk(TPKG_DT_BOOL, 2, d22, NULL);
  uint8_t want_and[4] = {0, 0, 0, 1}, want_or[4] = {0, 1, 1, 1}, want_xor[4] = {0, 1, 1, 0};
  assert_int_equal(bin(TFW_BIN_AND, b, 2, &bo), 0);
  assert_memory_equal(bo.data, want_and, 4);
  assert_int_equal(bin(TFW_BIN_OR, b, 2, &bo), 0);
  assert_memory_equal(bo.data, want_or, 4);
  assert_int_equal(bin(TFW_BIN_XOR, b, 2, &bo), 0);
  assert_memory_equal(bo.data, want_xor, 4);
  assert_int_equal(bin(TFW_BIN_EQUAL, b, 2, &bo), 0);
  uint8_t want_eq[4] = {1, 0, 0, 1};
  assert_memory_equal(bo.data, want_eq, 4);
  tfw_tensor bo2 = mk(TPKG_DT_BOOL, 1, d2, NULL);
  assert_int_equal(bin(TFW_BIN_AND, i8, 2, &bo2), TFW_FB_E_DTYPE); /* logic on i8 */
  tfw_tensor bo3 = mk(TPKG_DT_BOOL, 2, d22, NULL);
  assert_int_equal(bin(TFW_BIN_ADD, b, 2, &bo3), TFW_FB_E_DTYPE);  /* arithmetic on bool */
  tfw_tensor uo = mk(TPKG_DT_U8, 1, d2, NULL);
  assert_int_equal(bin(TFW_BIN_LESS, u, 2, &uo), TFW_FB_E_DTYPE); /* compare to u8 */
}

static void test_binary_prelu(void **state) {
  (void)state;
  pool_reset();
  float x[6] = {-1, 2, -3, 4, -5, 6}, s[3] = {0.1f, 0.2f, 0.3f};
  uint32_t d23[2] = {2, 3}, d3[1] = {3};
  tfw_tensor in[2] = {mk(TPKG_DT_F32, 2, d23, x), mk(TPKG_DT_F32, 1, d3, s)};
  tfw_tensor o = mk(TPKG_DT_F32, 2, d23, NULL);
  assert_int_equal(bin(TFW_BIN_PRELU, in, 2, &o), 0);
  float want[6] = {-1 * 0.1f, 2, -3 * 0.3f, 4, -5 * 0.2f, 6};
  assert_memory_equal(o.data, want, 24);
  /* slope wider than x: unidirectional only */
  tfw_tensor rev[2] = {in[1], in[0]};
  tfw_tensor o2 = mk(TPKG_DT_F32, 2, d23, NULL);
  assert_int_equal(bin(TFW_BIN_PRELU, rev, 2, &o2), TFW_FB_E_SHAPE);
}

static void test_binary_errors(void **state) {
  (void)state;
  pool_reset();
  uint32_t d23[2] = {2, 3}, d2[1] = {2}, d3[1] = {3}, d123[3] = {1, 2, 3}, d24[2] = {2, 4}, d13[2] = {1, 3};
  tfw_tensor a = mk(TPKG_DT_F32, 2, d23, NULL), b2 = mk(TPKG_DT_F32, 1, d2, NULL), b3 = mk(TPKG_DT_F32, 1, d3, NULL);
  tfw_tensor bi = mk(TPKG_DT_I32, 1, d3, NULL);
  memset(a.data, 0, 24), memset(b2.data, 0, 8), memset(b3.data, 0, 12), memset(bi.data, 0, 12);
  tfw_tensor o23 = mk(TPKG_DT_F32, 2, d23, NULL), o123 = mk(TPKG_DT_F32, 3, d123, NULL);
  tfw_tensor o24 = mk(TPKG_DT_F32, 2, d24, NULL), o13 = mk(TPKG_DT_F32, 2, d13, NULL), oi = mk(TPKG_DT_I32, 2, d23, NULL);
  tfw_tensor p[2] = {a, b2};
  assert_int_equal(bin(TFW_BIN_ADD, p, 2, &o23), TFW_FB_E_SHAPE); /* [2,3] + [2] */
  tfw_tensor q[2] = {a, b3};
  assert_int_equal(bin(TFW_BIN_ADD, q, 2, &o123), TFW_FB_E_SHAPE); /* out rank too large */
  assert_int_equal(bin(TFW_BIN_ADD, q, 2, &o24), TFW_FB_E_SHAPE);  /* out dims wrong */
  assert_int_equal(bin(TFW_BIN_ADD, q, 2, &o13), TFW_FB_E_SHAPE);  /* out smaller than the broadcast */
  assert_int_equal(bin(TFW_BIN_ADD, q, 2, &oi), TFW_FB_E_DTYPE);   /* out dtype */
  tfw_tensor r[2] = {a, bi};
  assert_int_equal(bin(TFW_BIN_ADD, r, 2, &o23), TFW_FB_E_DTYPE); /* mixed inputs */
  int32_t ints[2] = {0, 0};
  float fl[1] = {0};
  assert_int_equal(call(tfw_k_binary, q, 2, &o23, ints, 1, NULL, 0), TFW_FB_E_PARAM); /* fn 0 */
  ints[0] = TFW_BIN_XOR + 1;
  assert_int_equal(call(tfw_k_binary, q, 2, &o23, ints, 1, NULL, 0), TFW_FB_E_PARAM);
  ints[0] = TFW_BIN_ADD;
  assert_int_equal(call(tfw_k_binary, q, 2, &o23, ints, 2, NULL, 0), TFW_FB_E_PARAM);
  assert_int_equal(call(tfw_k_binary, q, 2, &o23, ints, 1, fl, 1), TFW_FB_E_PARAM);
  assert_int_equal(call(tfw_k_binary, q, 0, &o23, ints, 1, NULL, 0), TFW_FB_E_SHAPE);
  assert_int_equal(bin(TFW_BIN_ADD, q, 2, &o23), 0); /* and the good call works */
}

/* ---- WHERE ------------------------------------------------------------------- */

static void test_where(void **state) {
  (void)state;
  pool_reset();
  uint8_t cond[2] = {1, 0};
  float x[3] = {1, 2, 3}, y = -1;
  uint32_t d21[2] = {2, 1}, d13[2] = {1, 3}, d23[2] = {2, 3};
  tfw_tensor in[3] = {mk(TPKG_DT_BOOL, 2, d21, cond), mk(TPKG_DT_F32, 2, d13, x), mk(TPKG_DT_F32, 0, NULL, &y)};
  tfw_tensor o = mk(TPKG_DT_F32, 2, d23, NULL);
  assert_int_equal(call(tfw_k_where, in, 3, &o, NULL, 0, NULL, 0), 0);
  float want[6] = {1, 2, 3, -1, -1, -1};
  assert_memory_equal(o.data, want, 24);
  int64_t xl[3] = {INT64_MIN, 2, 3}, yl[3] = {7, 8, 9};
  uint8_t c3[3] = {1, 0, 1};
  uint32_t d3[1] = {3};
  tfw_tensor l[3] = {mk(TPKG_DT_BOOL, 1, d3, c3), mk(TPKG_DT_I64, 1, d3, xl), mk(TPKG_DT_I64, 1, d3, yl)};
  tfw_tensor lo = mk(TPKG_DT_I64, 1, d3, NULL);
  assert_int_equal(call(tfw_k_where, l, 3, &lo, NULL, 0, NULL, 0), 0);
  int64_t wl[3] = {INT64_MIN, 8, 3};
  assert_memory_equal(lo.data, wl, 24);
  /* errors */
  tfw_tensor o2 = mk(TPKG_DT_F32, 2, d23, NULL), oi = mk(TPKG_DT_I64, 2, d23, NULL), o3 = mk(TPKG_DT_F32, 1, d3, NULL);
  tfw_tensor bad[3] = {in[1], in[1], in[2]}; /* cond f32 */
  assert_int_equal(call(tfw_k_where, bad, 3, &o2, NULL, 0, NULL, 0), TFW_FB_E_DTYPE);
  tfw_tensor mix[3] = {in[0], in[1], l[2]};
  assert_int_equal(call(tfw_k_where, mix, 3, &o2, NULL, 0, NULL, 0), TFW_FB_E_DTYPE);
  assert_int_equal(call(tfw_k_where, in, 3, &oi, NULL, 0, NULL, 0), TFW_FB_E_DTYPE);
  assert_int_equal(call(tfw_k_where, in, 3, &o3, NULL, 0, NULL, 0), TFW_FB_E_SHAPE);
  tfw_tensor sh[3] = {l[0], in[1], in[2]}; /* [3] with [1,3]: out [1,3] */
  assert_int_equal(call(tfw_k_where, sh, 3, &o2, NULL, 0, NULL, 0), TFW_FB_E_SHAPE);
  assert_int_equal(call(tfw_k_where, in, 2, &o2, NULL, 0, NULL, 0), TFW_FB_E_SHAPE);
  int32_t one[1] = {1};
  assert_int_equal(call(tfw_k_where, in, 3, &o2, one, 1, NULL, 0), TFW_FB_E_PARAM);
}

/* ---- CAST ---------------------------------------------------------------------- */

static void test_cast(void **state) {
  (void)state;
  pool_reset();
  float f[9] = {300, -300, 2.9f, -2.9f, NAN, -0.0f, 1e20f, -INFINITY, 0.5f};
  uint32_t d9[1] = {9};
  tfw_tensor in = mk(TPKG_DT_F32, 1, d9, f);
  tfw_tensor o8 = mk(TPKG_DT_I8, 1, d9, NULL), ou = mk(TPKG_DT_U8, 1, d9, NULL), o32 = mk(TPKG_DT_I32, 1, d9, NULL);
  tfw_tensor o64 = mk(TPKG_DT_I64, 1, d9, NULL), ob = mk(TPKG_DT_BOOL, 1, d9, NULL), of = mk(TPKG_DT_F32, 1, d9, NULL);
  assert_int_equal(call(tfw_k_cast, &in, 1, &o8, NULL, 0, NULL, 0), 0);
  int8_t w8[9] = {127, -128, 2, -2, 0, 0, 127, -128, 0};
  assert_memory_equal(o8.data, w8, 9);
  assert_int_equal(call(tfw_k_cast, &in, 1, &ou, NULL, 0, NULL, 0), 0);
  uint8_t wu[9] = {255, 0, 2, 0, 0, 0, 255, 0, 0};
  assert_memory_equal(ou.data, wu, 9);
  assert_int_equal(call(tfw_k_cast, &in, 1, &o32, NULL, 0, NULL, 0), 0);
  int32_t w32[9] = {300, -300, 2, -2, 0, 0, INT32_MAX, INT32_MIN, 0};
  assert_memory_equal(o32.data, w32, 36);
  assert_int_equal(call(tfw_k_cast, &in, 1, &o64, NULL, 0, NULL, 0), 0);
  int64_t w64[9] = {300, -300, 2, -2, 0, 0, INT64_MAX, INT64_MIN, 0};
  assert_memory_equal(o64.data, w64, 72);
  assert_int_equal(call(tfw_k_cast, &in, 1, &ob, NULL, 0, NULL, 0), 0);
  uint8_t wb[9] = {1, 1, 1, 1, 1, 0, 1, 1, 1};
  assert_memory_equal(ob.data, wb, 9);
  assert_int_equal(call(tfw_k_cast, &in, 1, &of, NULL, 0, NULL, 0), 0);
  assert_int_equal(et_bits(f_at(&of, 4)), 0x7fc00000u);
  assert_int_equal(et_bits(f_at(&of, 5)), 0x80000000u);
  /* int -> f32 rounds to nearest even; int -> int wraps; bool -> 0/1 */
  int64_t l[4] = {(1 << 24) + 1, (1 << 24) + 3, INT64_MAX, -5};
  uint32_t d4[1] = {4}, d22[2] = {2, 2};
  tfw_tensor li = mk(TPKG_DT_I64, 1, d4, l), lf = mk(TPKG_DT_F32, 2, d22, NULL), l8 = mk(TPKG_DT_I8, 1, d4, NULL);
  assert_int_equal(call(tfw_k_cast, &li, 1, &lf, NULL, 0, NULL, 0), 0); /* also a reshape */
  float wf[4] = {16777216.0f, 16777220.0f, 9223372036854775808.0f, -5};
  assert_memory_equal(lf.data, wf, 16);
  assert_int_equal(call(tfw_k_cast, &li, 1, &l8, NULL, 0, NULL, 0), 0);
  int8_t wl8[4] = {1, 3, -1, -5};
  assert_memory_equal(l8.data, wl8, 4);
  uint8_t u[3] = {200, 0, 255};
  uint32_t d3[1] = {3};
  tfw_tensor ui = mk(TPKG_DT_U8, 1, d3, u), ui8 = mk(TPKG_DT_I8, 1, d3, NULL), ub = mk(TPKG_DT_BOOL, 1, d3, NULL);
  tfw_tensor ui32 = mk(TPKG_DT_I32, 1, d3, NULL), bf = mk(TPKG_DT_F32, 1, d3, NULL);
  assert_int_equal(call(tfw_k_cast, &ui, 1, &ui8, NULL, 0, NULL, 0), 0);
  int8_t wi8[3] = {-56, 0, -1};
  assert_memory_equal(ui8.data, wi8, 3);
  assert_int_equal(call(tfw_k_cast, &ui, 1, &ub, NULL, 0, NULL, 0), 0);
  uint8_t wub[3] = {1, 0, 1};
  assert_memory_equal(ub.data, wub, 3);
  assert_int_equal(call(tfw_k_cast, &ui8, 1, &ui32, NULL, 0, NULL, 0), 0);
  int32_t wi32[3] = {-56, 0, -1};
  assert_memory_equal(ui32.data, wi32, 12);
  assert_int_equal(call(tfw_k_cast, &ub, 1, &bf, NULL, 0, NULL, 0), 0);
  float wbf[3] = {1, 0, 1};
  assert_memory_equal(bf.data, wbf, 12);
  /* errors */
  tfw_tensor o3 = mk(TPKG_DT_F32, 1, d3, NULL);
  assert_int_equal(call(tfw_k_cast, &li, 1, &o3, NULL, 0, NULL, 0), TFW_FB_E_SHAPE);
  tfw_tensor bad = o3;
  bad.dtype = 0;
  assert_int_equal(call(tfw_k_cast, &ui, 1, &bad, NULL, 0, NULL, 0), TFW_FB_E_DTYPE);
  assert_true(untouched(&o3));
  int32_t one[1] = {1};
  assert_int_equal(call(tfw_k_cast, &ui, 1, &o3, one, 1, NULL, 0), TFW_FB_E_PARAM);
}

/* ---- LUT ----------------------------------------------------------------------- */

static void test_lut(void **state) {
  (void)state;
  pool_reset();
  int32_t table[64];
  for (int w = 0; w < 64; w++) { /* entry e = 255 - e */
    uint32_t v = 0;
    for (int b = 0; b < 4; b++) v |= (uint32_t)(255 - (4 * w + b)) << (8 * b);
    table[w] = (int32_t)v;
  }
  int8_t q[4] = {-128, -1, 0, 127};
  uint8_t u[3] = {0, 100, 255};
  uint32_t d4[1] = {4}, d3[1] = {3};
  tfw_tensor in = mk(TPKG_DT_I8, 1, d4, q), o = mk(TPKG_DT_U8, 1, d4, NULL);
  assert_int_equal(call(tfw_k_lut, &in, 1, &o, table, 64, NULL, 0), 0);
  uint8_t want[4] = {255, 128, 127, 0}; /* entry q + 128 */
  assert_memory_equal(o.data, want, 4);
  tfw_tensor ui = mk(TPKG_DT_U8, 1, d3, u), uo = mk(TPKG_DT_I8, 1, d3, NULL);
  assert_int_equal(call(tfw_k_lut, &ui, 1, &uo, table, 64, NULL, 0), 0);
  int8_t wu[3] = {-1, 155 - 256, 0};
  assert_memory_equal(uo.data, wu, 3);
  tfw_tensor o2 = mk(TPKG_DT_U8, 1, d4, NULL), of = mk(TPKG_DT_F32, 1, d4, NULL), o3 = mk(TPKG_DT_U8, 1, d3, NULL);
  assert_int_equal(call(tfw_k_lut, &in, 1, &o2, table, 63, NULL, 0), TFW_FB_E_PARAM);
  assert_int_equal(call(tfw_k_lut, &in, 1, &of, table, 64, NULL, 0), TFW_FB_E_DTYPE);
  assert_int_equal(call(tfw_k_lut, &in, 1, &o3, table, 64, NULL, 0), TFW_FB_E_SHAPE);
  /* the word-at-a-time path: every length 1..67 at every alignment pair of
   * input and output gives the entry of each element */
  static uint8_t src[80], dst[80];
  for (uint32_t len = 1; len <= 67; len++)
    for (uint32_t ai = 0; ai < 4; ai++)
      for (uint32_t ao = 0; ao < 4; ao++) {
        for (uint32_t k = 0; k < 80; k++) src[k] = (uint8_t)(k * 37 + len), dst[k] = 0xa5;
        tfw_tensor a = {src + ai, TPKG_DT_I8, 1, {len}}, y = {dst + ao, TPKG_DT_U8, 1, {len}};
        tfw_call lc = {0, 1, 1, &a, &y, table, 64, NULL, 0}; /* the guard checked below: no pool buffer */
        assert_int_equal(tfw_k_lut(&lc), 0);
        for (uint32_t k = 0; k < len; k++) assert_int_equal(dst[ao + k], 255 - (uint8_t)(src[ai + k] ^ 0x80u));
        assert_int_equal(dst[ao + len], 0xa5);
      }
}

/* ---- MUL_Q ---------------------------------------------------------------------- */

/* The formula of tfw_ops.h written out plainly: the product, times mult,
 * divided by 2^shift with round-half-to-even done by hand on the exact
 * quotient and remainder of the magnitude (ties to even are symmetric). */
static int8_t ref_mul_q(int a, int b, int za, int zb, int zo, int32_t mult, int shift, int lo, int hi) {
  int64_t v = (int64_t)(a - za) * (b - zb) * mult;
  uint64_t m = v < 0 ? (uint64_t)-v : (uint64_t)v, den = (uint64_t)1 << shift;
  uint64_t q = m / den, r = m % den;
  if (r > den - r || (r == den - r && (q & 1))) q++;
  int64_t s = (v < 0 ? -(int64_t)q : (int64_t)q) + zo;
  return (int8_t)(s < lo ? lo : s > hi ? hi : s);
}


/* QuantizeLinear's rounding of a double: half to even, saturated. */
static int q_round(double v, int zo) {
  double r = nearbyint(v) + zo;
  return r < -128 ? -128 : r > 127 ? 127 : (int)r;
}

/* A random int8 code, often at the ends. */
static int8_t rnd_q(void) {
  uint32_t k = rnd(8);
  return (int8_t)(k == 0 ? -128 : k == 1 ? 127 : (int)rnd(256) - 128);
}

/* Random broadcast shapes (rank 0..5), zero points at the extremes,
 * multipliers over the whole range and saturation both ways: the kernel
 * equals the reference element for element; and with the multiplier the
 * compiler gives (s_a*s_b/s_y as mult in [2^30, 2^31), shift) it is within
 * one step of DequantizeLinear, multiply in double, QuantizeLinear. */
static void test_mul_q(void **state) {
  (void)state;
  static const int zps[] = {-128, 127, 0, -1, 5};
  int cases = 0;
  uint64_t elems = 0, off_one = 0, clamped_lo = 0, clamped_hi = 0;
  double worst = 0;
  for (int iter = 0; iter < 4000; iter++) {
    pool_reset();
    uint32_t R = rnd(6), od[8], ad[8], bd[8], ar = rnd(R + 1), br = ar < R ? R : rnd(R + 1);
    for (uint32_t d = 0; d < R; d++) od[d] = 1 + rnd(5);
    for (uint32_t d = 0; d < ar; d++) ad[d] = rnd(3) ? od[R - ar + d] : 1;
    for (uint32_t d = 0; d < br; d++) bd[d] = rnd(3) ? od[R - br + d] : 1;
    for (uint32_t d = 0; d < R; d++) {
      int covered = (d >= R - ar && ad[d - (R - ar)] != 1) || (d >= R - br && bd[d - (R - br)] != 1);
      if (!covered) od[d] = 1;
    }
    if (rnd(8) == 0) { /* a gate against long rows, as squeeze-excitation has them: [C, 1] x [C, L] */
      R = ar = br = 2, od[0] = ad[0] = bd[0] = 1 + rnd(3), od[1] = ad[1] = 64 + rnd(800), bd[1] = 1;
    }
    tfw_tensor a = mk(TPKG_DT_I8, ar, ad, NULL), b = mk(TPKG_DT_I8, br, bd, NULL), o = mk(TPKG_DT_I8, R, od, NULL);
    for (size_t i = 0; i < t_numel(&a); i++) ((int8_t *)a.data)[i] = rnd_q();
    for (size_t i = 0; i < t_numel(&b); i++) ((int8_t *)b.data)[i] = rnd_q();
    int za = rnd(2) ? zps[rnd(5)] : (int)rnd(256) - 128, zb = rnd(2) ? zps[rnd(5)] : (int)rnd(256) - 128;
    int zo = rnd(2) ? zps[rnd(5)] : (int)rnd(256) - 128;
    int lo = -128, hi = 127;
    if (rnd(4) == 0) lo = (int)rnd(100) - 128, hi = lo + (int)rnd((uint32_t)(128 - lo));
    /* half the cases: the compiler's multiplier of random scales (ratios
     * from 2^-20 to 2^2, so both ends saturate); else any mult and shift */
    int from_scales = rnd(2);
    double sa = 0, sb = 0, sy = 0;
    int32_t mult;
    int shift;
    if (from_scales) {
      sa = ldexp(1.0 + rnd(1000) / 1000.0, -(int)rnd(10)), sb = ldexp(1.0 + rnd(1000) / 1000.0, -(int)rnd(10));
      sy = sa * sb / ldexp(1.0 + rnd(1000) / 1000.0, 2 - (int)rnd(23));
      int e;
      double m = frexp(sa * sb / sy, &e), q = nearbyint(ldexp(m, 31));
      shift = 31 - e;
      if (q >= 2147483648.0) shift--, q = nearbyint(ldexp(m, 30)); /* m rounded up to 1 */
      mult = (int32_t)q;
    } else {
      mult = (int32_t)(rnd(4) ? ((uint32_t)rnd(1u << 31) | (rnd(2) ? 1u << 30 : 0u)) : rnd(4));
      shift = (int)rnd(64);
    }
    int32_t ints[7] = {za, zb, zo, mult, shift, lo, hi};
    assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){a, b}, 2, &o, ints, 7, NULL, 0), 0);
    cases++;
    uint32_t idx[8] = {0};
    for (size_t i = 0; i < t_numel(&o); i++) {
      int xa = ((int8_t *)a.data)[bc_index(&a, idx, R)], xb = ((int8_t *)b.data)[bc_index(&b, idx, R)];
      int got = ((int8_t *)o.data)[i];
      assert_int_equal(got, ref_mul_q(xa, xb, za, zb, zo, mult, shift, lo, hi));
      elems++;
      clamped_lo += got == lo, clamped_hi += got == hi;
      if (from_scales) { /* ONNX's float definition, clamped the same way */
        int want = q_round((sa * (xa - za)) * (sb * (xb - zb)) / sy, zo);
        want = want < lo ? lo : want > hi ? hi : want;
        double err = fabs((double)got - want);
        assert_true(err <= 1);
        off_one += err != 0;
        if (err > worst) worst = err;
      }
      for (uint32_t dd = R; dd-- > 0;) {
        if (++idx[dd] < od[dd]) break;
        idx[dd] = 0;
      }
    }
  }
  printf("mul_q: %d random cases, %llu elements equal the reference; %llu at lo, %llu at hi; against float "
         "%llu one step off (max %g)\n",
         cases, (unsigned long long)elems, (unsigned long long)clamped_lo, (unsigned long long)clamped_hi,
         (unsigned long long)off_one, worst);
  assert_true(clamped_lo > 100 && clamped_hi > 100);
  /* against float where the output spans its range (s_y = s_a * s_b * K /
   * 127, K the product's largest magnitude or less): the error bound of
   * docs/quantisation.md */
  uint64_t n_f = 0, off_f = 0;
  for (int iter = 0; iter < 400; iter++) {
    pool_reset();
    uint32_t n = 1000;
    tfw_tensor a = mk(TPKG_DT_I8, 1, &n, NULL), b = mk(TPKG_DT_I8, 1, &n, NULL), o = mk(TPKG_DT_I8, 1, &n, NULL);
    for (uint32_t i = 0; i < n; i++) ((int8_t *)a.data)[i] = rnd_q(), ((int8_t *)b.data)[i] = rnd_q();
    int za = (int)rnd(256) - 128, zb = (int)rnd(256) - 128, zo = (int)rnd(256) - 128;
    double sa = ldexp(1.0 + rnd(1000) / 1000.0, -(int)rnd(12)), sb = ldexp(1.0 + rnd(1000) / 1000.0, -(int)rnd(12));
    double sy = sa * sb * (1000 + rnd(64026)) / 127.0;
    int e;
    double m = frexp(sa * sb / sy, &e), q = nearbyint(ldexp(m, 31));
    int shift = 31 - e;
    if (q >= 2147483648.0) shift--, q = nearbyint(ldexp(m, 30));
    int32_t ints[7] = {za, zb, zo, (int32_t)q, shift, -128, 127};
    assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){a, b}, 2, &o, ints, 7, NULL, 0), 0);
    for (uint32_t i = 0; i < n; i++) {
      int xa = ((int8_t *)a.data)[i], xb = ((int8_t *)b.data)[i], got = ((int8_t *)o.data)[i];
      int want = q_round((sa * (xa - za)) * (sb * (xb - zb)) / sy, zo);
      assert_true(abs(got - want) <= 1);
      n_f++, off_f += got != want;
    }
  }
  printf("mul_q against float: %llu of %llu outputs one step off (%.4f%%), none further\n", (unsigned long long)off_f,
         (unsigned long long)n_f, 100.0 * (double)off_f / (double)n_f);
  /* known answers: ties to even, both directions, and the SE shape */
  pool_reset();
  int8_t g[2] = {3, -128}, x[6] = {1, 2, 3, -1, -2, -3};
  uint32_t gd[3] = {2, 1, 1}, xd[3] = {2, 1, 3}, yd[3] = {2, 1, 3};
  tfw_tensor tg = mk(TPKG_DT_I8, 3, gd, g), tx = mk(TPKG_DT_I8, 3, xd, x), ty = mk(TPKG_DT_I8, 3, yd, NULL);
  /* [2,1,1] * [2,1,3]: (g + 128) * x * 2^30 / 2^37 = 131x / 128 (1.02 -> 1, 2.05 -> 2) and 0 */
  int32_t k1[7] = {-128, 0, 0, 1 << 30, 37, -128, 127};
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){tg, tx}, 2, &ty, k1, 7, NULL, 0), 0);
  int8_t w1[6] = {1, 2, 3, 0, 0, 0}; /* second gate: (-128 + 128) = 0 */
  assert_memory_equal(ty.data, w1, 6);
  int8_t half[6] = {1, 3, 5, -1, -3, -5}; /* x * 1 / 2: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, ... */
  int8_t one[1] = {1};
  uint32_t d1[1] = {1}, d6[1] = {6};
  tfw_tensor th = mk(TPKG_DT_I8, 1, d6, half), t1 = mk(TPKG_DT_I8, 1, d1, one), t6 = mk(TPKG_DT_I8, 1, d6, NULL);
  int32_t k2[7] = {0, 0, 1, 1 << 30, 31, -128, 127};
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th, t1}, 2, &t6, k2, 7, NULL, 0), 0);
  int8_t w2[6] = {1, 3, 3, 1, -1, -1}; /* rne(x/2) + 1 */
  assert_memory_equal(t6.data, w2, 6);
  /* errors: nothing written */
  uint32_t d5[1] = {5};
  tfw_tensor t5 = mk(TPKG_DT_I8, 1, d5, NULL), tf = mk(TPKG_DT_F32, 1, d6, NULL);
  t6 = mk(TPKG_DT_I8, 1, d6, NULL);
  int32_t bad[][7] = {{-129, 0, 0, 1, 0, -128, 127}, {0, 128, 0, 1, 0, -128, 127}, {0, 0, 0, -1, 0, -128, 127},
                      {0, 0, 0, 1, 64, -128, 127},   {0, 0, 0, 1, -1, -128, 127},  {0, 0, 0, 1, 0, 5, 4},
                      {0, 0, 0, 1, 0, -129, 127},    {0, 0, 200, 1, 0, -128, 127}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th, t1}, 2, &t6, bad[k], 7, NULL, 0), TFW_FB_E_PARAM);
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th, t1}, 2, &t6, k2, 6, NULL, 0), TFW_FB_E_PARAM);
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th, t1}, 2, &t5, k2, 7, NULL, 0), TFW_FB_E_SHAPE);
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th, t5}, 2, &t6, k2, 7, NULL, 0), TFW_FB_E_SHAPE);
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th, t1}, 2, &tf, k2, 7, NULL, 0), TFW_FB_E_DTYPE);
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){tf, t1}, 2, &t6, k2, 7, NULL, 0), TFW_FB_E_DTYPE);
  assert_int_equal(call(tfw_k_mul_q, (tfw_tensor[]){th}, 1, &t6, k2, 7, NULL, 0), TFW_FB_E_SHAPE);
}

/* ---- the same bits on the RV32 core -------------------------------------------- */

static void test_firmware_checksums(void **state) {
  (void)state;
  if (!iss_path) fail_msg("usage: test_elem TESSEL_ISS FW_ELEM_CRC.elf (the firmware comparison is part of the suite)");
  ec_sums h;
  ec_checksum_all(&h);
  assert_int_equal(h.rc, 0);
  char want[200];
  snprintf(want, sizeof want, "elem-crc math %08x pow %08x unary %08x binary %08x other %08x rc 0\n", (unsigned)h.math,
           (unsigned)h.pow, (unsigned)h.unary, (unsigned)h.binary, (unsigned)h.other);
  fw_crc_check(iss_path, fw_elf_path, "4000000000", "elem-crc", want);
}

int main(int argc, char **argv) {
  if (argc == 3) iss_path = argv[1], fw_elf_path = argv[2];
  else if (argc != 1) return fprintf(stderr, "usage: test_elem [TESSEL_ISS FW_ELEM_CRC.elf]\n"), 2;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_math_sqrt),      cmocka_unit_test(test_math_exp),
      cmocka_unit_test(test_math_log),       cmocka_unit_test(test_math_log1p),
      cmocka_unit_test(test_math_expm1),     cmocka_unit_test(test_math_tanh),
      cmocka_unit_test(test_math_sigmoid),   cmocka_unit_test(test_math_erf),
      cmocka_unit_test(test_math_rounding),  cmocka_unit_test(test_math_pow),
      cmocka_unit_test(test_math_pow_special), cmocka_unit_test(test_math_bits),
      cmocka_unit_test(test_unary_known),    cmocka_unit_test(test_unary_sweep),
      cmocka_unit_test(test_unary_int),      cmocka_unit_test(test_unary_errors),
      cmocka_unit_test(test_binary_broadcast_random), cmocka_unit_test(test_binary_example),
      cmocka_unit_test(test_binary_nary),    cmocka_unit_test(test_binary_int),
      cmocka_unit_test(test_binary_compare_logic), cmocka_unit_test(test_binary_prelu),
      cmocka_unit_test(test_binary_errors),  cmocka_unit_test(test_where),
      cmocka_unit_test(test_cast),           cmocka_unit_test(test_lut),
      cmocka_unit_test(test_mul_q),
      cmocka_unit_test(test_firmware_checksums),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
