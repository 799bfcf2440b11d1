/* tfw-ops-move: the control core's data-movement and reduction kernels
 * (shared/tfw_ops_move.c, shared/tfw_ops_reduce.c) against straightforward
 * reference implementations written here (double precision for floats),
 * over random shapes, dtypes and parameters; every Pad and Resize mode;
 * fixed cases from numpy/ONNX; and bad calls, which must return an error
 * and leave the output untouched.  Runs under ASan/UBSan, so a read or write
 * outside an operand fails the suite. */
#include <math.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "fw_crc_check.h"

#include "tfw_ops.h"
#include "move_checksum.h"
#include "resize_onnx_cases.h"

/* ---- helpers ---------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}
static uint32_t rnd_below(uint32_t n) { return n ? rnd() % n : 0; }
static int32_t rnd_range(int32_t lo, int32_t hi) { return lo + (int32_t)rnd_below((uint32_t)(hi - lo + 1)); }
static float rnd_f(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f; }

static const uint32_t all_dtypes[] = {TPKG_DT_F32, TPKG_DT_U8, TPKG_DT_I8, TPKG_DT_I32, TPKG_DT_I64, TPKG_DT_BOOL};

static size_t numel_of(uint32_t rank, const uint32_t *dims) {
  size_t n = 1;
  for (uint32_t i = 0; i < rank; i++) n *= dims[i];
  return n;
}

/* A tensor with its own zeroed, 8-byte aligned buffer (at least 8 bytes). */
static tfw_tensor mk(uint32_t dtype, uint32_t rank, const uint32_t *dims) {
  tfw_tensor t = {0};
  t.dtype = dtype, t.rank = rank;
  for (uint32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  size_t bytes = numel_of(rank, dims) * tpkg_dtype_bytes(dtype);
  t.data = calloc(bytes ? bytes : 1, 1);
  assert_non_null(t.data);
  return t;
}
static size_t nbytes(const tfw_tensor *t) { return numel_of(t->rank, t->dims) * tpkg_dtype_bytes(t->dtype); }
static void fill_random(tfw_tensor *t) {
  size_t n = nbytes(t);
  for (size_t i = 0; i < n; i++) t->data[i] = (uint8_t)rnd();
  if (t->dtype == TPKG_DT_BOOL)
    for (size_t i = 0; i < n; i++) t->data[i] &= 1;
}
static void fill_f32(tfw_tensor *t, float lo, float hi) {
  float *p = (float *)t->data;
  for (size_t i = 0; i < numel_of(t->rank, t->dims); i++) p[i] = rnd_f(lo, hi);
}
static void unflat(size_t f, uint32_t rank, const uint32_t *dims, uint32_t *co) {
  for (uint32_t i = rank; i-- > 0;) co[i] = (uint32_t)(f % dims[i]), f /= dims[i];
}
static size_t flat(uint32_t rank, const uint32_t *dims, const uint32_t *co) {
  size_t f = 0;
  for (uint32_t i = 0; i < rank; i++) f = f * dims[i] + co[i];
  return f;
}
static void random_dims(uint32_t rank, uint32_t *dims, uint32_t max) {
  for (uint32_t i = 0; i < rank; i++) dims[i] = 1 + rnd_below(max);
}

static tfw_call call1(uint32_t op, const tfw_tensor *in, uint32_t n_in, const tfw_tensor *out, const int32_t *ints,
                      uint32_t n_ints, const float *floats, uint32_t n_floats) {
  tfw_call c = {op, n_in, 1, in, out, ints, n_ints, floats, n_floats};
  return c;
}

/* Runs k on c expecting error rc; the output must be untouched. */
static void expect_error_at(int (*k)(const tfw_call *), const tfw_call *c, int rc, int line) {
  size_t n = nbytes(c->out);
  uint8_t *keep = malloc(n + 1);
  assert_non_null(keep);
  for (size_t i = 0; i < n; i++) c->out->data[i] = (uint8_t)(0xa5 ^ i);
  memcpy(keep, c->out->data, n);
  int got = k(c);
  if (got != rc) print_error("line %d: expected %d, got %d\n", line, rc, got);
  assert_int_equal(got, rc);
  assert_memory_equal(keep, c->out->data, n);
  free(keep);
}

static float f32_at(const tfw_tensor *t, size_t i) { return ((const float *)t->data)[i]; }
static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static void assert_close(double got, double want, double tol, const char *what, size_t at) {
  if (isnan(want) && isnan(got)) return;
  if (isinf(want) && got == want) return;
  if (!(fabs(got - want) <= tol)) {
    print_error("%s[%zu]: got %.9g, want %.9g (tol %.3g)\n", what, at, got, want, tol);
    fail();
  }
}

#define expect_error(k, c, rc) expect_error_at(k, c, rc, __LINE__)

/* ---- Transpose -------------------------------------------------------------- */

static void test_transpose_random(void **state) {
  (void)state;
  for (int it = 0; it < 300; it++) {
    uint32_t r = rnd_below(9), xd[8], yd[8], co[8], ci[8];
    int32_t perm[8];
    random_dims(r, xd, r > 5 ? 3 : 5); /* up to TFW_MAX_RANK */
    for (uint32_t i = 0; i < r; i++) perm[i] = (int32_t)i;
    for (uint32_t i = r; i > 1; i--) {
      uint32_t j = rnd_below(i);
      int32_t t = perm[i - 1];
      perm[i - 1] = perm[j], perm[j] = t;
    }
    for (uint32_t i = 0; i < r; i++) yd[i] = xd[perm[i]];
    uint32_t dt = all_dtypes[rnd_below(6)], sz = tpkg_dtype_bytes(dt);
    tfw_tensor x = mk(dt, r, xd), y = mk(dt, r, yd);
    fill_random(&x);
    tfw_call c = call1(TPKG_OP_TRANSPOSE, &x, 1, &y, perm, r, 0, 0);
    assert_int_equal(tfw_k_transpose(&c), 0);
    for (size_t f = 0; f < numel_of(r, yd); f++) {
      unflat(f, r, yd, co);
      for (uint32_t i = 0; i < r; i++) ci[perm[i]] = co[i];
      assert_memory_equal(y.data + f * sz, x.data + flat(r, xd, ci) * sz, sz);
    }
    free(x.data), free(y.data);
  }
}

/* ---- Slice ------------------------------------------------------------------ */

static void test_slice_random(void **state) {
  (void)state;
  for (int it = 0; it < 300; it++) {
    uint32_t r = rnd_below(9), xd[8], yd[8], co[8], ci[8];
    int32_t ints[16];
    random_dims(r, xd, r > 5 ? 3 : 7);
    for (uint32_t d = 0; d < r; d++) {
      int32_t st = rnd_range(1, 3) * (rnd() & 1 ? -1 : 1), s = rnd_range(0, (int32_t)xd[d] - 1);
      int32_t room = st > 0 ? ((int32_t)xd[d] - 1 - s) / st : s / -st; /* further steps that fit */
      ints[d] = s, ints[r + d] = st, yd[d] = (uint32_t)rnd_range(it % 17 == 0 ? 0 : 1, room + 1);
    }
    uint32_t dt = all_dtypes[rnd_below(6)], sz = tpkg_dtype_bytes(dt);
    tfw_tensor x = mk(dt, r, xd), y = mk(dt, r, yd);
    fill_random(&x);
    tfw_call c = call1(TPKG_OP_SLICE, &x, 1, &y, ints, 2 * r, 0, 0);
    assert_int_equal(tfw_k_slice(&c), 0);
    for (size_t f = 0; f < numel_of(r, yd); f++) {
      unflat(f, r, yd, co);
      for (uint32_t d = 0; d < r; d++) ci[d] = (uint32_t)(ints[d] + (int32_t)co[d] * ints[r + d]);
      assert_memory_equal(y.data + f * sz, x.data + flat(r, xd, ci) * sz, sz);
    }
    free(x.data), free(y.data);
  }
}

/* ---- Concat ----------------------------------------------------------------- */

static void check_concat(uint32_t n_in, uint32_t r, int32_t axis, uint32_t dt) {
  uint32_t yd[8], xd[8], co[8], ax = axis < 0 ? (uint32_t)(axis + (int32_t)r) : (uint32_t)axis;
  random_dims(r, yd, 4);
  tfw_tensor *in = calloc(n_in, sizeof *in);
  uint32_t *start = calloc(n_in, sizeof *start);
  yd[ax] = 0;
  for (uint32_t k = 0; k < n_in; k++) {
    memcpy(xd, yd, sizeof xd);
    xd[ax] = rnd_below(4);
    start[k] = yd[ax];
    yd[ax] += xd[ax];
    in[k] = mk(dt, r, xd);
    fill_random(&in[k]);
  }
  uint32_t sz = tpkg_dtype_bytes(dt);
  tfw_tensor y = mk(dt, r, yd);
  tfw_call c = call1(TPKG_OP_CONCAT, in, n_in, &y, &axis, 1, 0, 0);
  assert_int_equal(tfw_k_concat(&c), 0);
  for (size_t f = 0; f < numel_of(r, yd); f++) {
    unflat(f, r, yd, co);
    uint32_t k = 0;
    while (co[ax] >= start[k] + in[k].dims[ax]) k++;
    co[ax] -= start[k];
    assert_memory_equal(y.data + f * sz, in[k].data + flat(r, in[k].dims, co) * sz, sz);
  }
  for (uint32_t k = 0; k < n_in; k++) free(in[k].data);
  free(in), free(start), free(y.data);
}

static void test_concat_random(void **state) {
  (void)state;
  for (int it = 0; it < 200; it++) {
    uint32_t r = 1 + rnd_below(5);
    int32_t axis = rnd_range(-(int32_t)r, (int32_t)r - 1);
    check_concat(1 + rnd_below(5), r, axis, all_dtypes[rnd_below(6)]);
  }
  check_concat(64, 3, 1, TPKG_DT_I64);
  check_concat(64, 2, -1, TPKG_DT_U8);
}

/* ---- Gather ----------------------------------------------------------------- */

static void test_gather_random(void **state) {
  (void)state;
  for (int it = 0; it < 300; it++) {
    uint32_t r = 1 + rnd_below(4), q = rnd_below(4), xd[8], id[8], yd[8], co[8], ci[8];
    random_dims(r, xd, 5);
    random_dims(q, id, 4);
    int32_t axis = rnd_range(-(int32_t)r, (int32_t)r - 1);
    uint32_t ax = axis < 0 ? (uint32_t)(axis + (int32_t)r) : (uint32_t)axis, yr = r - 1 + q;
    for (uint32_t d = 0; d < yr; d++) yd[d] = d < ax ? xd[d] : d < ax + q ? id[d - ax] : xd[d - q + 1];
    uint32_t dt = all_dtypes[rnd_below(6)], sz = tpkg_dtype_bytes(dt), idt = rnd() & 1 ? TPKG_DT_I32 : TPKG_DT_I64;
    tfw_tensor x = mk(dt, r, xd), ix = mk(idt, q, id), y = mk(dt, yr, yd);
    fill_random(&x);
    size_t ni = numel_of(q, id);
    for (size_t j = 0; j < ni; j++) {
      int64_t v = rnd_range(-(int32_t)xd[ax], (int32_t)xd[ax] - 1);
      if (idt == TPKG_DT_I32) ((int32_t *)ix.data)[j] = (int32_t)v;
      else ((int64_t *)ix.data)[j] = v;
    }
    tfw_tensor in[2] = {x, ix};
    tfw_call c = call1(TPKG_OP_GATHER, in, 2, &y, &axis, 1, 0, 0);
    assert_int_equal(tfw_k_gather(&c), 0);
    for (size_t f = 0; f < numel_of(yr, yd); f++) {
      unflat(f, yr, yd, co);
      size_t j = flat(q, id, co + ax);
      int64_t v = idt == TPKG_DT_I32 ? ((int32_t *)ix.data)[j] : ((int64_t *)ix.data)[j];
      for (uint32_t d = 0; d < r; d++) ci[d] = d < ax ? co[d] : d == ax ? (uint32_t)(v < 0 ? v + xd[ax] : v) : co[d + q - 1];
      assert_memory_equal(y.data + f * sz, x.data + flat(r, xd, ci) * sz, sz);
    }
    /* an index out of range, either side: TFW_FB_E_INDEX, nothing written */
    if (ni) {
      size_t j = rnd_below((uint32_t)ni);
      int64_t bad = rnd() & 1 ? (int64_t)xd[ax] : -(int64_t)xd[ax] - 1;
      if (idt == TPKG_DT_I32) ((int32_t *)ix.data)[j] = (int32_t)bad;
      else ((int64_t *)ix.data)[j] = bad;
      in[1] = ix;
      expect_error(tfw_k_gather, &c, TFW_FB_E_INDEX);
    }
    free(x.data), free(ix.data), free(y.data);
  }
}

static void test_gather_fixed(void **state) {
  (void)state;
  /* ONNX's Gather example, axis 0 and a scalar index on axis 1 */
  float data[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
  int64_t idx[4] = {0, 1, 1, 2};
  tfw_tensor x = {(uint8_t *)data, TPKG_DT_F32, 2, {3, 2}}, ix = {(uint8_t *)idx, TPKG_DT_I64, 2, {2, 2}};
  float out[8];
  tfw_tensor y = {(uint8_t *)out, TPKG_DT_F32, 3, {2, 2, 2}};
  tfw_tensor in[2] = {x, ix};
  int32_t axis = 0;
  tfw_call c = call1(TPKG_OP_GATHER, in, 2, &y, &axis, 1, 0, 0);
  assert_int_equal(tfw_k_gather(&c), 0);
  float want[8] = {1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f};
  assert_memory_equal(out, want, sizeof want);
  int32_t sidx = -1;
  tfw_tensor s = {(uint8_t *)&sidx, TPKG_DT_I32, 0, {0}}, y1 = {(uint8_t *)out, TPKG_DT_F32, 1, {3}};
  tfw_tensor in2[2] = {x, s};
  axis = 1;
  c = call1(TPKG_OP_GATHER, in2, 2, &y1, &axis, 1, 0, 0);
  assert_int_equal(tfw_k_gather(&c), 0);
  float want1[3] = {1.2f, 3.4f, 5.7f};
  assert_memory_equal(out, want1, sizeof want1);
}

/* ---- Tile / Expand ---------------------------------------------------------- */

static void test_tile_random(void **state) {
  (void)state;
  for (int it = 0; it < 300; it++) {
    uint32_t yr = rnd_below(9), xr = rnd_below(yr + 1), xd[8], yd[8], co[8], ci[8], lead = yr - xr;
    random_dims(xr, xd, yr > 5 ? 2 : 4);
    for (uint32_t d = 0; d < yr; d++) {
      uint32_t in = d < lead ? 1 : xd[d - lead];
      yd[d] = it & 1 ? in * (1 + rnd_below(yr > 5 ? 2 : 3)) : (in == 1 ? 1 + rnd_below(yr > 5 ? 2 : 4) : in); /* Tile, Expand */
    }
    uint32_t dt = all_dtypes[rnd_below(6)], sz = tpkg_dtype_bytes(dt);
    tfw_tensor x = mk(dt, xr, xd), y = mk(dt, yr, yd);
    fill_random(&x);
    tfw_call c = call1(TPKG_OP_TILE, &x, 1, &y, 0, 0, 0, 0);
    assert_int_equal(tfw_k_tile(&c), 0);
    for (size_t f = 0; f < numel_of(yr, yd); f++) {
      unflat(f, yr, yd, co);
      for (uint32_t d = 0; d < xr; d++) ci[d] = co[d + lead] % xd[d];
      assert_memory_equal(y.data + f * sz, x.data + flat(xr, xd, ci) * sz, sz);
    }
    free(x.data), free(y.data);
  }
}

/* ---- Pad -------------------------------------------------------------------- */

/* Reference: crop by the negative pads, then extend by walking: reflect
 * bounces off the ends, wrap steps around, edge clamps. -1 = the value. */
static int64_t ref_pad_index(int mode, int64_t o, int64_t b, int64_t e, int64_t n) {
  int64_t crop = b < 0 ? -b : 0, kept = n - crop - (e < 0 ? -e : 0), i = o - (b > 0 ? b : 0);
  if (i >= 0 && i < kept) return i + crop;
  if (mode == 0) return -1;
  if (mode == 2) return (i < 0 ? 0 : kept - 1) + crop;
  if (mode == 3) {
    while (i < 0) i += kept;
    while (i >= kept) i -= kept;
    return i + crop;
  }
  if (kept == 1) return crop;
  int64_t p = 0, dir = 1; /* walk |i| steps from 0 (or from kept-1 backwards), bouncing */
  int64_t steps = i < 0 ? -i : i - (kept - 1);
  p = i < 0 ? 0 : kept - 1, dir = i < 0 ? 1 : -1;
  while (steps--) {
    if (p + dir < 0 || p + dir >= kept) dir = -dir;
    p += dir;
  }
  return p + crop;
}

static void test_pad_random(void **state) {
  (void)state;
  for (int it = 0; it < 400; it++) {
    int mode = it % 4;
    uint32_t r = rnd_below(it % 50 == 7 ? 9 : 5), xd[8], yd[8], co[8], ci[8];
    int32_t ints[17];
    random_dims(r, xd, r > 4 ? 2 : 5);
    ints[0] = mode;
    for (uint32_t d = 0; d < r; d++) {
      int32_t b = r > 4 ? rnd_range(-1, 1) : rnd_range(-2, 5), e = r > 4 ? rnd_range(-1, 1) : rnd_range(-2, 5);
      while ((int32_t)xd[d] + (b < 0 ? b : 0) + (e < 0 ? e : 0) < 1) b++, e++; /* keep one */
      ints[1 + d] = b, ints[1 + r + d] = e;
      yd[d] = (uint32_t)((int32_t)xd[d] + b + e);
    }
    uint32_t dt = all_dtypes[rnd_below(6)], sz = tpkg_dtype_bytes(dt);
    tfw_tensor x = mk(dt, r, xd), y = mk(dt, r, yd);
    fill_random(&x);
    float value = dt == TPKG_DT_F32 ? rnd_f(-5, 5) : (float)rnd_range(-3, 100);
    tfw_call c = call1(TPKG_OP_PAD, &x, 1, &y, ints, 1 + 2 * r, &value, 1);
    assert_int_equal(tfw_k_pad(&c), 0);
    uint8_t vb[8] = {0};
    int64_t iv = (int64_t)value;
    if (dt == TPKG_DT_F32) memcpy(vb, &value, 4);
    else if (dt == TPKG_DT_BOOL) vb[0] = value != 0;
    else if (dt == TPKG_DT_U8) vb[0] = (uint8_t)(iv < 0 ? 0 : iv);
    else memcpy(vb, &iv, 8); /* little-endian: the low bytes */
    for (size_t f = 0; f < numel_of(r, yd); f++) {
      unflat(f, r, yd, co);
      int outside = 0;
      for (uint32_t d = 0; d < r; d++) {
        int64_t i = ref_pad_index(mode, co[d], ints[1 + d], ints[1 + r + d], xd[d]);
        if (i < 0) outside = 1;
        else ci[d] = (uint32_t)i;
      }
      if (outside) assert_memory_equal(y.data + f * sz, vb, sz);
      else assert_memory_equal(y.data + f * sz, x.data + flat(r, xd, ci) * sz, sz);
    }
    free(x.data), free(y.data);
  }
}

/* numpy.pad of [1, 2, 3] by (4, 5), and of [7] by (2, 3) reflect. */
static void test_pad_numpy(void **state) {
  (void)state;
  static const int32_t want[3][12] = {{1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2},
                                      {1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3},
                                      {3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2}};
  int32_t in[3] = {1, 2, 3}, out[12];
  tfw_tensor x = {(uint8_t *)in, TPKG_DT_I32, 1, {3}}, y = {(uint8_t *)out, TPKG_DT_I32, 1, {12}};
  float v = 0;
  for (int m = 1; m <= 3; m++) {
    int32_t ints[3] = {m, 4, 5};
    tfw_call c = call1(TPKG_OP_PAD, &x, 1, &y, ints, 3, &v, 1);
    assert_int_equal(tfw_k_pad(&c), 0);
    assert_memory_equal(out, want[m - 1], sizeof out);
  }
  int32_t one = 7, ints[3] = {1, 2, 3};
  tfw_tensor x1 = {(uint8_t *)&one, TPKG_DT_I32, 1, {1}}, y1 = {(uint8_t *)out, TPKG_DT_I32, 1, {6}};
  tfw_call c = call1(TPKG_OP_PAD, &x1, 1, &y1, ints, 3, &v, 1);
  assert_int_equal(tfw_k_pad(&c), 0);
  for (int i = 0; i < 6; i++) assert_int_equal(out[i], 7);
  /* the value saturates to the dtype; NaN is 0 for integers */
  int8_t q[2] = {5, 6}, qo[4];
  tfw_tensor xq = {(uint8_t *)q, TPKG_DT_I8, 1, {2}}, yq = {(uint8_t *)qo, TPKG_DT_I8, 1, {4}};
  int32_t pi[3] = {0, 1, 1};
  float big = 1000.0f, nan = NAN;
  c = call1(TPKG_OP_PAD, &xq, 1, &yq, pi, 3, &big, 1);
  assert_int_equal(tfw_k_pad(&c), 0);
  assert_int_equal(qo[0], 127), assert_int_equal(qo[1], 5), assert_int_equal(qo[3], 127);
  c.floats = &nan;
  assert_int_equal(tfw_k_pad(&c), 0);
  assert_int_equal(qo[0], 0);
}

/* ---- Resize ----------------------------------------------------------------- */

/* The input coordinate of output index x (ONNX's formulas, in f32 as the
 * kernel takes them). */
static float ref_coord(int coord, float x, float s, uint32_t n, uint32_t m) {
  float fn = (float)n, fm = (float)m;
  switch (coord) {
  case TFW_COORD_HALF_PIXEL: return (x + 0.5f) / s - 0.5f;
  case TFW_COORD_ASYMMETRIC: return x / s;
  case TFW_COORD_PYTORCH_HALF_PIXEL: return m > 1 ? (x + 0.5f) / s - 0.5f : 0.0f;
  case TFW_COORD_TF_HALF_PIXEL_FOR_NN: return (x + 0.5f) / s;
  case TFW_COORD_ALIGN_CORNERS: { /* "output_width = scale * input_width" in ONNX's reference */
    float len = s * fn;
    return len == 1.0f ? 0.0f : x * (fn - 1.0f) / (len - 1.0f);
  }
  default: {
    float adjustment = fm / (s * fn), center = fn / 2.0f, offset = center * (1.0f - adjustment);
    return offset + (x + 0.5f) / s - 0.5f;
  }
  }
}

/* One dim's taps as ONNX's reference takes them: ratio in (0, 1] (1 when the
 * coordinate is an integer), the n nearest indices of the edge-padded input
 * preferring the lower, and exclude_outside renormalising. */
static uint32_t ref_taps(int mode, int nearest, int excl, double a, double xo, uint32_t n, int64_t *at, double *w) {
  if (mode == 0) {
    double f = floor(xo), fr = xo - f, i;
    switch (nearest) {
    case TFW_NEAREST_ROUND_PREFER_FLOOR: i = fr == 0.5 ? f : floor(xo + 0.5); break;
    case TFW_NEAREST_ROUND_PREFER_CEIL: i = fr == 0.5 ? f + 1 : floor(xo + 0.5); break;
    case TFW_NEAREST_FLOOR: i = f; break;
    default: i = ceil(xo);
    }
    at[0] = (int64_t)(i < 0 ? 0 : i > n - 1 ? n - 1 : i), w[0] = 1;
    return 1;
  }
  double ratio = xo == floor(xo) ? 1.0 : xo - floor(xo);
  uint32_t k = mode == 1 ? 2 : 4;
  if (mode == 1) {
    w[0] = 1 - ratio, w[1] = ratio;
  } else {
    double r1 = ratio + 1, r2 = 1 - ratio, r3 = 2 - ratio;
    w[0] = ((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a;
    w[1] = ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1;
    w[2] = ((a + 2) * r2 - (a + 3)) * r2 * r2 + 1;
    w[3] = ((a * r3 - 5 * a) * r3 + 8 * a) * r3 - 4 * a;
  }
  /* the k nearest of the padded indices 0 .. n + 2 pad - 1, lower first on ties */
  int64_t pad = (k + 1) / 2, lim = n + 2 * pad, chosen[4];
  double xp = xo + (double)pad;
  uint32_t got = 0;
  uint8_t used[64] = {0};
  while (got < k) {
    int64_t best = -1;
    for (int64_t i = 0; i < lim; i++)
      if (!used[i] && (best < 0 || fabs(xp - (double)i) < fabs(xp - (double)best))) best = i;
    used[best] = 1, chosen[got++] = best;
  }
  for (uint32_t i = 0; i < k; i++) /* ascending */
    for (uint32_t j = i + 1; j < k; j++)
      if (chosen[j] < chosen[i]) {
        int64_t t = chosen[i];
        chosen[i] = chosen[j], chosen[j] = t;
      }
  double sum = 0;
  for (uint32_t i = 0; i < k; i++) {
    at[i] = chosen[i] - pad;
    if (excl && (at[i] < 0 || at[i] >= (int64_t)n)) w[i] = 0;
    sum += w[i];
    at[i] = at[i] < 0 ? 0 : at[i] >= (int64_t)n ? (int64_t)n - 1 : at[i];
  }
  if (excl)
    for (uint32_t i = 0; i < k; i++) w[i] /= sum;
  return k;
}

typedef struct {
  uint32_t k;
  int64_t at[4];
  double w[4];
} ref_tap_set;

static double ref_resize_sum(const float *x, const uint32_t *xd, const ref_tap_set *t, uint32_t d, uint32_t r,
                             size_t off) {
  if (d == r) return x[off];
  double acc = 0;
  for (uint32_t k = 0; k < t[d].k; k++) acc += t[d].w[k] * ref_resize_sum(x, xd, t, d + 1, r, off * xd[d] + (size_t)t[d].at[k]);
  return acc;
}

static void check_resize(int mode, int coord, int nearest, int excl, uint32_t dt, uint32_t r, const uint32_t *xd,
                         const uint32_t *yd, const float *scales) {
  float a = mode == 2 && (rnd() & 1) ? -0.5f : -0.75f, floats[9];
  floats[0] = a;
  for (uint32_t d = 0; d < r; d++) floats[1 + d] = scales[d];
  int32_t ints[4] = {mode, coord, nearest, excl};
  tfw_tensor x = mk(dt, r, xd), y = mk(dt, r, yd);
  if (dt == TPKG_DT_F32) fill_f32(&x, -1, 1);
  else fill_random(&x);
  tfw_call c = call1(TPKG_OP_RESIZE, &x, 1, &y, ints, 4, floats, 1 + r);
  assert_int_equal(tfw_k_resize(&c), 0);
  uint32_t co[8], sz = tpkg_dtype_bytes(dt);
  ref_tap_set t[8];
  for (size_t f = 0; f < numel_of(r, yd); f++) {
    unflat(f, r, yd, co);
    uint32_t taps = 1;
    for (uint32_t d = 0; d < r; d++) {
      double xo = ref_coord(coord, (float)co[d], scales[d], xd[d], yd[d]);
      t[d].k = ref_taps(mode, nearest, excl, a, xo, xd[d], t[d].at, t[d].w);
      taps *= t[d].k;
    }
    if (mode == 0) {
      size_t off = 0;
      for (uint32_t d = 0; d < r; d++) off = off * xd[d] + (size_t)t[d].at[0];
      assert_memory_equal(y.data + f * sz, x.data + off * sz, sz);
    } else {
      double want = ref_resize_sum((const float *)x.data, xd, t, 0, r, 0);
      assert_close(f32_at(&y, f), want, 3e-6 * taps, "resize", f);
    }
  }
  free(x.data), free(y.data);
}

static void test_resize_modes(void **state) {
  (void)state;
  for (int mode = 0; mode < 3; mode++)
    for (int coord = 0; coord <= TFW_COORD_HALF_PIXEL_SYMMETRIC; coord++)
      for (int sub = 0; sub < (mode == 0 ? 4 : 2); sub++)
        for (int it = 0; it < 12; it++) {
          uint32_t r = 1 + rnd_below(mode == 2 ? 3 : 4), xd[8], yd[8];
          float s[8];
          random_dims(r, xd, 6);
          for (uint32_t d = 0; d < r; d++) {
            if (rnd_below(3) == 0) yd[d] = xd[d], s[d] = 1.0f; /* a dim left alone */
            else if (it & 1) { /* scales given: out = floor(in * scale) */
              s[d] = rnd_f(0.4f, 3.0f);
              yd[d] = (uint32_t)floorf((float)xd[d] * s[d]);
              if (!yd[d]) yd[d] = 1, s[d] = 1.0f / (float)xd[d];
            } else { /* sizes given: scale = out / in */
              yd[d] = 1 + rnd_below(9);
              s[d] = (float)yd[d] / (float)xd[d];
            }
          }
          int nearest = mode == 0 ? sub : 0, excl = mode == 0 ? 0 : sub;
          uint32_t dt = mode == 0 && it % 3 == 1 ? (it & 2 ? TPKG_DT_I8 : TPKG_DT_U8) : TPKG_DT_F32;
          check_resize(mode, coord, nearest, excl, dt, r, xd, yd, s);
        }
}

/* ONNX's own Resize examples (onnx/backend/test/case/node/resize.py). */
static void test_resize_onnx_examples(void **state) {
  (void)state;
  float x4[16], y[64];
  for (int i = 0; i < 16; i++) x4[i] = (float)(i + 1);
  tfw_tensor x = {(uint8_t *)x4, TPKG_DT_F32, 4, {1, 1, 4, 4}};
  /* resize_downsample_scales_linear: [[1,2,3,4],[5,6,7,8]] scales 0.6 -> [2.6666665, 4.3333331] */
  float xl[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  tfw_tensor x2 = {(uint8_t *)xl, TPKG_DT_F32, 4, {1, 1, 2, 4}};
  tfw_tensor y2 = {(uint8_t *)y, TPKG_DT_F32, 4, {1, 1, 1, 2}};
  int32_t ints[4] = {1, TFW_COORD_HALF_PIXEL, 0, 0};
  float fl[5] = {-0.75f, 1.0f, 1.0f, 0.6f, 0.6f};
  tfw_call c = call1(TPKG_OP_RESIZE, &x2, 1, &y2, ints, 4, fl, 5);
  assert_int_equal(tfw_k_resize(&c), 0);
  assert_close(y[0], 2.6666665, 1e-6, "linear", 0), assert_close(y[1], 4.3333331, 1e-6, "linear", 1);
  /* resize_upsample_scales_cubic_align_corners, first row */
  tfw_tensor y8 = {(uint8_t *)y, TPKG_DT_F32, 4, {1, 1, 8, 8}};
  int32_t ic[4] = {2, TFW_COORD_ALIGN_CORNERS, 0, 0};
  float fc[5] = {-0.75f, 1.0f, 1.0f, 2.0f, 2.0f};
  c = call1(TPKG_OP_RESIZE, &x, 1, &y8, ic, 4, fc, 5);
  assert_int_equal(tfw_k_resize(&c), 0);
  static const double row0[8] = {1., 1.34110787, 1.80029155, 2.32944606, 2.67055394, 3.19970845, 3.65889213, 4.};
  for (int i = 0; i < 8; i++) assert_close(y[i], row0[i], 1e-5, "cubic_ac", (size_t)i);
  /* resize_upsample_scales_nearest: [[1,2],[3,4]] scales 2, 3 (asymmetric? no: half_pixel, round_prefer_floor) */
  float xn[4] = {1, 2, 3, 4};
  tfw_tensor xx = {(uint8_t *)xn, TPKG_DT_F32, 4, {1, 1, 2, 2}}, yy = {(uint8_t *)y, TPKG_DT_F32, 4, {1, 1, 4, 6}};
  int32_t in_[4] = {0, TFW_COORD_HALF_PIXEL, TFW_NEAREST_ROUND_PREFER_FLOOR, 0};
  float fn[5] = {-0.75f, 1.0f, 1.0f, 2.0f, 3.0f};
  c = call1(TPKG_OP_RESIZE, &xx, 1, &yy, in_, 4, fn, 5);
  assert_int_equal(tfw_k_resize(&c), 0);
  static const float wn[24] = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
  assert_memory_equal(y, wn, sizeof wn);
  /* resize_tf_crop_and_resize: the 4x4 above, roi [0 0 0.4 0.6 1 1 1.2 1.7], sizes 3x3, linear,
   * extrapolation_value 10 -> [[7.6, 10, 10], [12.4, 10, 10], [10, 10, 10]] */
  tfw_tensor y3 = {(uint8_t *)y, TPKG_DT_F32, 4, {1, 1, 3, 3}};
  int32_t icr[4] = {1, TFW_COORD_TF_CROP_AND_RESIZE, 0, 0};
  float fcr[14] = {-0.75f, 1.0f, 1.0f, 0.75f, 0.75f, 0, 0, 0.4f, 0.6f, 1, 1, 1.2f, 1.7f, 10.0f};
  c = call1(TPKG_OP_RESIZE, &x, 1, &y3, icr, 4, fcr, 14);
  assert_int_equal(tfw_k_resize(&c), 0);
  static const double wcr[9] = {7.6000004, 10, 10, 12.400001, 10, 10, 10, 10, 10};
  for (int i = 0; i < 9; i++) assert_close(y[i], wcr[i], 1e-5, "tf_crop_and_resize", (size_t)i);
  /* the same crop, nearest: rows 1.2 and 2.4 (1 and 2), column 1.8 (2); row 3.6 and columns 3.45 and 5.1
   * lie outside */
  icr[0] = 0;
  assert_int_equal(tfw_k_resize(&c), 0);
  static const float wcn[9] = {7, 10, 10, 11, 10, 10, 10, 10, 10};
  assert_memory_equal(y, wcn, sizeof wcn);
}

/* Every case of ONNX's Resize node tests but tf_crop_and_resize
 * (resize_onnx_cases.h, from tests/tfw-ops/gen_resize_cases.py). */
static void test_resize_onnx_node_tests(void **state) {
  (void)state;
  float y[128];
  for (size_t i = 0; i < sizeof resize_cases / sizeof resize_cases[0]; i++) {
    const resize_case *rc = &resize_cases[i];
    tfw_tensor x = {(uint8_t *)(uintptr_t)rc->x, TPKG_DT_F32, 4, {0}}, ty = {(uint8_t *)y, TPKG_DT_F32, 4, {0}};
    float fl[5] = {rc->a, rc->scales[0], rc->scales[1], rc->scales[2], rc->scales[3]};
    memcpy(x.dims, rc->in_dims, sizeof rc->in_dims), memcpy(ty.dims, rc->out_dims, sizeof rc->out_dims);
    size_t n = numel_of(4, rc->out_dims);
    assert_true(n <= 128);
    tfw_call c = call1(TPKG_OP_RESIZE, &x, 1, &ty, rc->ints, 4, fl, 5);
    assert_int_equal(tfw_k_resize(&c), 0);
    for (size_t k = 0; k < n; k++) {
      if (fabs(y[k] - rc->y[k]) > 2e-5 * (fabs(rc->y[k]) + 1)) print_error("resize %s\n", rc->name);
      assert_close(y[k], rc->y[k], 2e-5 * (fabs(rc->y[k]) + 1), rc->name, k);
    }
  }
}

/* ---- Reduce ----------------------------------------------------------------- */

static void test_reduce_random(void **state) {
  (void)state;
  for (int it = 0; it < 600; it++) {
    int fn = 1 + it % 9;
    int is_int = (it / 9) % 3 == 2 && (fn == TFW_RED_SUM || fn == TFW_RED_MAX || fn == TFW_RED_MIN || fn == TFW_RED_PROD);
    uint32_t dt = is_int ? (rnd() & 1 ? TPKG_DT_I32 : TPKG_DT_I64) : TPKG_DT_F32;
    uint32_t r = rnd_below(6), xd[8], yd[8], yr = 0, co[8], ko[8], mask = rnd_below(1u << r);
    random_dims(r, xd, fn == TFW_RED_PROD ? 3 : 6);
    for (uint32_t d = 0; d < r; d++)
      if (!(mask >> d & 1)) yd[yr++] = xd[d];
    if (rnd() & 1) /* keepdims: the same element count */
      for (uint32_t d = yr = 0; d < r; d++) yd[yr++] = mask >> d & 1 ? 1 : xd[d];
    tfw_tensor x = mk(dt, r, xd), y = mk(dt, yr, yd);
    if (is_int) fill_random(&x);
    else fill_f32(&x, fn == TFW_RED_PROD ? 0.6f : -3, fn == TFW_RED_PROD ? 1.5f : 3);
    int32_t ints[2] = {fn, (int32_t)mask};
    tfw_call c = call1(TPKG_OP_REDUCE, &x, 1, &y, ints, 2, 0, 0);
    assert_int_equal(tfw_k_reduce(&c), 0);
    /* reference: every output element over its reduced elements */
    size_t ny = numel_of(yr, yd), nx = numel_of(r, xd);
    for (size_t o = 0; o < ny; o++) {
      double s = 0, sa = 0, p = 1, mx = -INFINITY, mn = INFINITY;
      uint64_t is = 0, ip = 1;
      int64_t imx = INT64_MIN, imn = INT64_MAX;
      size_t cnt = 0;
      for (size_t f = 0; f < nx; f++) {
        unflat(f, r, xd, co);
        uint32_t k = 0;
        for (uint32_t d = 0; d < r; d++)
          if (!(mask >> d & 1)) ko[k++] = co[d];
        uint32_t kd[8];
        k = 0;
        for (uint32_t d = 0; d < r; d++)
          if (!(mask >> d & 1)) kd[k++] = xd[d];
        if (flat(k, kd, ko) != o) continue;
        cnt++;
        if (is_int) {
          int64_t v = dt == TPKG_DT_I32 ? ((int32_t *)x.data)[f] : ((int64_t *)x.data)[f];
          is += (uint64_t)v, ip *= (uint64_t)v;
          imx = v > imx ? v : imx, imn = v < imn ? v : imn;
        } else {
          double v = f32_at(&x, f);
          double t = fn == TFW_RED_L1 ? fabs(v) : fn == TFW_RED_L2 || fn == TFW_RED_SUM_SQUARE ? v * v
                   : fn == TFW_RED_LOG_SUM_EXP ? exp(v) : v;
          s += t, sa += fabs(t), p *= v;
          mx = v > mx ? v : mx, mn = v < mn ? v : mn;
        }
      }
      if (is_int) {
        int64_t want = fn == TFW_RED_SUM ? (int64_t)is : fn == TFW_RED_PROD ? (int64_t)ip : fn == TFW_RED_MAX ? imx : imn;
        int64_t got = dt == TPKG_DT_I32 ? ((int32_t *)y.data)[o] : ((int64_t *)y.data)[o];
        if (dt == TPKG_DT_I32) want = (int32_t)(uint32_t)want;
        assert_int_equal(got, want);
        continue;
      }
      double want, tol = 2e-6 * (sa + 1);
      switch (fn) {
      case TFW_RED_MEAN: want = s / (double)cnt, tol /= (double)cnt; break;
      case TFW_RED_MAX: want = mx, tol = 0; break;
      case TFW_RED_MIN: want = mn, tol = 0; break;
      case TFW_RED_PROD: want = p, tol = 1e-6 * (double)cnt * fabs(p); break;
      case TFW_RED_L2: want = sqrt(s), tol = 2e-6 * (want + 1); break;
      case TFW_RED_LOG_SUM_EXP: want = log(s), tol = 2e-6 * (fabs(want) + 1); break;
      default: want = s;
      }
      assert_close(f32_at(&y, o), want, tol, "reduce", o);
    }
    free(x.data), free(y.data);
  }
}

static void test_reduce_edges(void **state) {
  (void)state;
  float x[4] = {1, NAN, 3, INFINITY}, y[2];
  tfw_tensor tx = {(uint8_t *)x, TPKG_DT_F32, 2, {2, 2}}, ty = {(uint8_t *)y, TPKG_DT_F32, 1, {2}};
  int32_t ints[2] = {TFW_RED_MAX, 2};
  tfw_call c = call1(TPKG_OP_REDUCE, &tx, 1, &ty, ints, 2, 0, 0);
  assert_int_equal(tfw_k_reduce(&c), 0);
  assert_int_equal(bits_of(y[0]), 0x7fc00000u); /* NaN wins, canonical */
  assert_true(isinf(y[1]) && y[1] > 0);
  ints[0] = TFW_RED_LOG_SUM_EXP;
  assert_int_equal(tfw_k_reduce(&c), 0);
  assert_int_equal(bits_of(y[0]), 0x7fc00000u);
  assert_true(isinf(y[1]));
  /* empty reductions: SUM 0, PROD 1, MAX an error */
  float e[1];
  tfw_tensor te = {(uint8_t *)e, TPKG_DT_F32, 2, {2, 0}};
  ints[0] = TFW_RED_SUM;
  c = call1(TPKG_OP_REDUCE, &te, 1, &ty, ints, 2, 0, 0);
  assert_int_equal(tfw_k_reduce(&c), 0);
  assert_true(y[0] == 0 && y[1] == 0);
  ints[0] = TFW_RED_PROD;
  assert_int_equal(tfw_k_reduce(&c), 0);
  assert_true(y[0] == 1 && y[1] == 1);
  ints[0] = TFW_RED_MAX;
  expect_error(tfw_k_reduce, &c, TFW_FB_E_SHAPE);
  /* all -inf: LogSumExp -inf */
  float ninf[2] = {-INFINITY, -INFINITY};
  tfw_tensor tn = {(uint8_t *)ninf, TPKG_DT_F32, 1, {2}}, t1 = {(uint8_t *)y, TPKG_DT_F32, 0, {0}};
  ints[0] = TFW_RED_LOG_SUM_EXP, ints[1] = 1;
  c = call1(TPKG_OP_REDUCE, &tn, 1, &t1, ints, 2, 0, 0);
  assert_int_equal(tfw_k_reduce(&c), 0);
  assert_true(isinf(y[0]) && y[0] < 0);
}

/* ---- ArgMax / ArgMin -------------------------------------------------------- */

static void test_arg_random(void **state) {
  (void)state;
  for (int it = 0; it < 400; it++) {
    uint32_t r = 1 + rnd_below(4), xd[8], yd[8], co[8];
    random_dims(r, xd, 5);
    int32_t axis = rnd_range(-(int32_t)r, (int32_t)r - 1), last = rnd() & 1, is_min = rnd() & 1;
    uint32_t ax = axis < 0 ? (uint32_t)(axis + (int32_t)r) : (uint32_t)axis;
    uint32_t yr = 0;
    for (uint32_t d = 0; d < r; d++) yd[yr++] = d == ax ? 1 : xd[d];
    uint32_t dt = (const uint32_t[]){TPKG_DT_F32, TPKG_DT_I8, TPKG_DT_U8, TPKG_DT_I32, TPKG_DT_I64}[rnd_below(5)];
    tfw_tensor x = mk(dt, r, xd), y = mk(TPKG_DT_I64, yr, yd);
    size_t nx = numel_of(r, xd);
    for (size_t i = 0; i < nx; i++) { /* few distinct values: ties; some NaN */
      int v = rnd_range(-3, 3);
      switch (dt) {
      case TPKG_DT_F32: ((float *)x.data)[i] = rnd_below(15) == 0 ? NAN : (float)v; break;
      case TPKG_DT_I8: ((int8_t *)x.data)[i] = (int8_t)v; break;
      case TPKG_DT_U8: ((uint8_t *)x.data)[i] = (uint8_t)(v + 3); break;
      case TPKG_DT_I32: ((int32_t *)x.data)[i] = v; break;
      default: ((int64_t *)x.data)[i] = (int64_t)v * ((int64_t)1 << 40);
      }
    }
    int32_t ints[3] = {axis, last, is_min};
    tfw_call c = call1(TPKG_OP_ARG, &x, 1, &y, ints, 3, 0, 0);
    assert_int_equal(tfw_k_arg(&c), 0);
    for (size_t o = 0; o < numel_of(yr, yd); o++) {
      unflat(o, yr, yd, co);
      /* numpy: argmax(x) = first NaN if any, else the first extreme; select_last on the reversed axis */
      int64_t best = -1;
      double bv = 0;
      int bnan = 0;
      for (uint32_t kk = 0; kk < xd[ax]; kk++) {
        uint32_t k = last ? xd[ax] - 1 - kk : kk;
        co[ax] = k;
        size_t f = flat(r, xd, co);
        double v = dt == TPKG_DT_F32 ? ((float *)x.data)[f] : dt == TPKG_DT_I8 ? ((int8_t *)x.data)[f]
                 : dt == TPKG_DT_U8 ? ((uint8_t *)x.data)[f] : dt == TPKG_DT_I32 ? ((int32_t *)x.data)[f]
                 : (double)((int64_t *)x.data)[f];
        if (best < 0 || (!bnan && (isnan(v) || (is_min ? v < bv : v > bv)))) best = k, bv = v, bnan = isnan(v);
      }
      assert_int_equal(((int64_t *)y.data)[o], best);
    }
    free(x.data), free(y.data);
  }
}

/* ---- Softmax / LogSoftmax --------------------------------------------------- */

static void test_softmax_axis(void **state) {
  (void)state;
  for (int it = 0; it < 200; it++) {
    uint32_t r = 1 + rnd_below(4), xd[8];
    random_dims(r, xd, 6);
    int32_t axis = rnd_range(-(int32_t)r, (int32_t)r - 1), lg = it & 1;
    uint32_t ax = axis < 0 ? (uint32_t)(axis + (int32_t)r) : (uint32_t)axis;
    tfw_tensor x = mk(TPKG_DT_F32, r, xd), y = mk(TPKG_DT_F32, r, xd);
    fill_f32(&x, -20, 20);
    if (it % 10 == 4) ((float *)x.data)[0] = NAN;
    int32_t ints[2] = {axis, lg};
    tfw_call c = call1(TPKG_OP_SOFTMAX, &x, 1, &y, ints, 2, 0, 0);
    assert_int_equal(tfw_k_softmax(&c), 0);
    size_t n = xd[ax], inner = 1, outer = 1;
    for (uint32_t d = ax + 1; d < r; d++) inner *= xd[d];
    for (uint32_t d = 0; d < ax; d++) outer *= xd[d];
    float row[8], want[8];
    for (size_t o = 0; o < outer; o++)
      for (size_t i = 0; i < inner; i++) {
        size_t base = o * n * inner + i;
        for (size_t k = 0; k < n; k++) row[k] = f32_at(&x, base + k * inner);
        if (!lg) { /* the very bits of tfw_softmax_f32 on the row made contiguous */
          tfw_softmax_f32(row, want, n, 1);
          for (size_t k = 0; k < n; k++) assert_int_equal(bits_of(f32_at(&y, base + k * inner)), bits_of(want[k]));
          continue;
        }
        double m = -INFINITY, s = 0;
        int nan = 0;
        for (size_t k = 0; k < n; k++) nan |= isnan(row[k]), m = row[k] > m ? row[k] : m;
        for (size_t k = 0; k < n; k++) s += exp((double)row[k] - m);
        for (size_t k = 0; k < n; k++) {
          float got = f32_at(&y, base + k * inner);
          if (nan) assert_int_equal(bits_of(got), 0x7fc00000u);
          else assert_close(got, row[k] - m - log(s), 4e-6 * (fabs(row[k] - m) + 1), "logsoftmax", k);
        }
      }
    free(x.data), free(y.data);
  }
}

/* ---- Normalisations --------------------------------------------------------- */

static void test_layer_norm(void **state) {
  (void)state;
  for (int it = 0; it < 200; it++) {
    uint32_t r = 1 + rnd_below(4), xd[8], sd[8], bd[8], co[8];
    random_dims(r, xd, 6);
    int32_t axis = rnd_range(-(int32_t)r, (int32_t)r - 1);
    uint32_t ax = axis < 0 ? (uint32_t)(axis + (int32_t)r) : (uint32_t)axis, n = r - ax;
    uint32_t sr = rnd_below(n + 1), br = rnd_below(n + 1);
    for (uint32_t i = 0; i < sr; i++) sd[i] = rnd() & 1 ? xd[r - sr + i] : 1;
    for (uint32_t i = 0; i < br; i++) bd[i] = rnd() & 1 ? xd[r - br + i] : 1;
    int has_b = it & 1;
    tfw_tensor in[3] = {mk(TPKG_DT_F32, r, xd), mk(TPKG_DT_F32, sr, sd), mk(TPKG_DT_F32, br, bd)};
    tfw_tensor y = mk(TPKG_DT_F32, r, xd);
    fill_f32(&in[0], -4, 6), fill_f32(&in[1], -2, 2), fill_f32(&in[2], -2, 2);
    int32_t ints[2] = {0, axis};
    float eps = it % 3 ? 1e-5f : 0.5f;
    tfw_call c = call1(TPKG_OP_NORM, in, has_b ? 3 : 2, &y, ints, 2, &eps, 1);
    assert_int_equal(tfw_k_norm(&c), 0);
    size_t len = numel_of(n, xd + ax), outer = numel_of(ax, xd);
    for (size_t o = 0; o < outer; o++) {
      double m = 0, v = 0;
      for (size_t k = 0; k < len; k++) m += f32_at(&in[0], o * len + k);
      m /= (double)len;
      for (size_t k = 0; k < len; k++) v += (f32_at(&in[0], o * len + k) - m) * (f32_at(&in[0], o * len + k) - m);
      v /= (double)len;
      for (size_t k = 0; k < len; k++) {
        unflat(k, n, xd + ax, co);
        uint32_t cs[8], cb[8];
        for (uint32_t i = 0; i < sr; i++) cs[i] = sd[i] == 1 ? 0 : co[n - sr + i];
        for (uint32_t i = 0; i < br; i++) cb[i] = bd[i] == 1 ? 0 : co[n - br + i];
        double want = (f32_at(&in[0], o * len + k) - m) / sqrt(v + eps) * f32_at(&in[1], flat(sr, sd, cs));
        if (has_b) want += f32_at(&in[2], flat(br, bd, cb));
        assert_close(f32_at(&y, o * len + k), want, 2e-5 * (fabs(want) + 1), "layernorm", k);
      }
    }
    for (int i = 0; i < 3; i++) free(in[i].data);
    free(y.data);
  }
}

static void test_channel_norms(void **state) {
  (void)state;
  for (int it = 0; it < 120; it++) {
    int kind = 1 + (it & 1);
    uint32_t r = 2 + rnd_below(3), xd[8];
    random_dims(r, xd, 6);
    uint32_t ch = xd[1], cd[1] = {ch};
    tfw_tensor in[5];
    in[0] = mk(TPKG_DT_F32, r, xd);
    fill_f32(&in[0], -3, 5);
    for (int i = 1; i < 5; i++) in[i] = mk(TPKG_DT_F32, 1, cd), fill_f32(&in[i], i == 4 ? 0.1f : -2, 2);
    tfw_tensor y = mk(TPKG_DT_F32, r, xd);
    int32_t ints[2] = {kind, 1};
    float eps = 1e-3f;
    tfw_call c = call1(TPKG_OP_NORM, in, kind == 1 ? 3 : 5, &y, ints, 2, &eps, 1);
    assert_int_equal(tfw_k_norm(&c), 0);
    size_t len = numel_of(r - 2, xd + 2);
    for (size_t b = 0; b < xd[0]; b++)
      for (size_t k = 0; k < ch; k++) {
        const float *row = (const float *)in[0].data + (b * ch + k) * len;
        double m = 0, v = 0;
        if (kind == 1) {
          for (size_t i = 0; i < len; i++) m += row[i];
          m /= (double)len;
          for (size_t i = 0; i < len; i++) v += (row[i] - m) * (row[i] - m);
          v /= (double)len;
        } else {
          m = f32_at(&in[3], k), v = f32_at(&in[4], k);
        }
        for (size_t i = 0; i < len; i++) {
          double want = (row[i] - m) / sqrt(v + eps) * f32_at(&in[1], k) + f32_at(&in[2], k);
          assert_close(f32_at(&y, (b * ch + k) * len + i), want, 3e-5 * (fabs(want) + 1), "chnorm", i);
        }
      }
    for (int i = 0; i < 5; i++) free(in[i].data);
    free(y.data);
  }
}

/* ---- bad calls: an error, nothing written ----------------------------------- */

static void test_errors(void **state) {
  (void)state;
  uint32_t d23[2] = {2, 3}, d32[2] = {3, 2}, d33[2] = {3, 3}, d6[1] = {6}, d2[1] = {2};
  tfw_tensor a = mk(TPKG_DT_F32, 2, d23), b = mk(TPKG_DT_F32, 2, d32), bi = mk(TPKG_DT_I32, 2, d32);
  tfw_tensor a33 = mk(TPKG_DT_F32, 2, d33), v6 = mk(TPKG_DT_F32, 1, d6), v2 = mk(TPKG_DT_F32, 1, d2);
  tfw_tensor i8 = mk(TPKG_DT_I8, 2, d23), i8o = mk(TPKG_DT_I8, 2, d33), b2 = mk(TPKG_DT_BOOL, 1, d2);
  fill_f32(&a, -1, 1);
  int32_t p10[2] = {1, 0}, p00[2] = {0, 0}, p12[2] = {1, 2};
  tfw_call c;
  /* transpose */
  c = call1(TPKG_OP_TRANSPOSE, &a, 1, &bi, p10, 2, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_TRANSPOSE, &a, 1, &b, p00, 2, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_TRANSPOSE, &a, 1, &b, p12, 2, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_TRANSPOSE, &a, 1, &b, p10, 1, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_TRANSPOSE, &a, 1, &a33, p10, 2, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_TRANSPOSE, &a, 1, &v6, p10, 2, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_SHAPE);
  /* slice: out of range start or end, zero step, wrong count */
  int32_t s1[4] = {0, 0, 1, 1}, s2[4] = {0, 1, 1, 1}, s3[4] = {0, 0, 1, 0}, s4[4] = {1, 2, -1, -1};
  tfw_tensor y23 = mk(TPKG_DT_F32, 2, d23), y22 = mk(TPKG_DT_F32, 2, (uint32_t[]){2, 2});
  c = call1(TPKG_OP_SLICE, &a, 1, &y23, s2, 4, 0, 0), expect_error(tfw_k_slice, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SLICE, &a, 1, &y23, s3, 4, 0, 0), expect_error(tfw_k_slice, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SLICE, &a, 1, &y23, s1, 3, 0, 0), expect_error(tfw_k_slice, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SLICE, &a, 1, &a33, s1, 4, 0, 0), expect_error(tfw_k_slice, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SLICE, &a, 1, &y22, s4, 4, 0, 0), assert_int_equal(tfw_k_slice(&c), 0);
  tfw_tensor y32 = mk(TPKG_DT_F32, 2, d32);
  c = call1(TPKG_OP_SLICE, &a, 1, &y32, s4, 4, 0, 0), expect_error(tfw_k_slice, &c, TFW_FB_E_PARAM);
  /* concat: dims other than the axis differ, axis sum wrong, dtype, axis */
  tfw_tensor cin[2] = {a, b};
  int32_t ax0 = 0, ax1 = 1, ax2 = 2;
  c = call1(TPKG_OP_CONCAT, cin, 2, &a33, &ax0, 1, 0, 0), expect_error(tfw_k_concat, &c, TFW_FB_E_SHAPE);
  tfw_tensor cin2[2] = {a, a};
  c = call1(TPKG_OP_CONCAT, cin2, 2, &a33, &ax1, 1, 0, 0), expect_error(tfw_k_concat, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_CONCAT, cin2, 2, &a33, &ax2, 1, 0, 0), expect_error(tfw_k_concat, &c, TFW_FB_E_SHAPE);
  tfw_tensor cin3[2] = {a, i8};
  tfw_tensor y26 = mk(TPKG_DT_F32, 2, (uint32_t[]){2, 6});
  c = call1(TPKG_OP_CONCAT, cin3, 2, &y26, &ax1, 1, 0, 0), expect_error(tfw_k_concat, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_CONCAT, cin2, 2, &y26, &ax1, 0, 0, 0), expect_error(tfw_k_concat, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_CONCAT, cin2, 2, &y26, &ax1, 1, 0, 0), assert_int_equal(tfw_k_concat(&c), 0);
  /* gather: f32 indices, output dims */
  tfw_tensor gin[2] = {a, v2};
  c = call1(TPKG_OP_GATHER, gin, 2, &y23, &ax0, 1, 0, 0), expect_error(tfw_k_gather, &c, TFW_FB_E_DTYPE);
  tfw_tensor gi = mk(TPKG_DT_I64, 1, d2), gin2[2] = {a, gi};
  c = call1(TPKG_OP_GATHER, gin2, 2, &a33, &ax0, 1, 0, 0), expect_error(tfw_k_gather, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_GATHER, gin2, 2, &y23, &ax2, 1, 0, 0), expect_error(tfw_k_gather, &c, TFW_FB_E_SHAPE);
  /* tile: not a multiple, input rank above the output's */
  c = call1(TPKG_OP_TILE, &a, 1, &a33, 0, 0, 0, 0), expect_error(tfw_k_tile, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_TILE, &a, 1, &v6, 0, 0, 0, 0), expect_error(tfw_k_tile, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_TILE, &a, 1, &y26, p10, 1, 0, 0), expect_error(tfw_k_tile, &c, TFW_FB_E_PARAM);
  /* pad: bad mode, out dims, no value, crop everything with edge */
  float zero = 0;
  int32_t pd1[5] = {4, 1, 0, 0, 0}, pd2[5] = {0, 1, 0, 0, 0}, pd3[5] = {2, 0, -3, 0, 1}, pd4[5] = {0, 1, 0, 0, 0};
  tfw_tensor y33 = mk(TPKG_DT_F32, 2, d33);
  c = call1(TPKG_OP_PAD, &a, 1, &y33, pd1, 5, &zero, 1), expect_error(tfw_k_pad, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_PAD, &a, 1, &a, pd2, 5, &zero, 1), expect_error(tfw_k_pad, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_PAD, &a, 1, &y33, pd4, 5, &zero, 0), expect_error(tfw_k_pad, &c, TFW_FB_E_PARAM);
  tfw_tensor y31 = mk(TPKG_DT_F32, 2, (uint32_t[]){2, 1});
  c = call1(TPKG_OP_PAD, &a, 1, &y31, pd3, 5, &zero, 1), expect_error(tfw_k_pad, &c, TFW_FB_E_PARAM);
  pd3[0] = 0, c = call1(TPKG_OP_PAD, &a, 1, &y31, pd3, 5, &zero, 1), assert_int_equal(tfw_k_pad(&c), 0);
  /* resize: linear on i8, scale 0 or NaN, mode, count of scales */
  int32_t rz[4] = {1, 0, 0, 0}, rzn[4] = {0, 0, 0, 0}, rzb[4] = {3, 0, 0, 0};
  float sc[3] = {-0.75f, 1.5f, 1.0f};
  c = call1(TPKG_OP_RESIZE, &i8, 1, &i8o, rz, 4, sc, 3), expect_error(tfw_k_resize, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_RESIZE, &i8, 1, &i8o, rzn, 4, sc, 3), assert_int_equal(tfw_k_resize(&c), 0);
  c = call1(TPKG_OP_RESIZE, &a, 1, &a33, rzb, 4, sc, 3), expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_RESIZE, &a, 1, &a33, rz, 4, sc, 2), expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  sc[2] = 0, c = call1(TPKG_OP_RESIZE, &a, 1, &a33, rz, 4, sc, 3), expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  sc[2] = NAN, expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_RESIZE, &a, 1, &i8o, rz, 4, sc, 3), expect_error(tfw_k_resize, &c, TFW_FB_E_DTYPE);
  /* tf_crop_and_resize: the roi and extrapolation_value missing, an unknown coordinate mode,
   * a NaN roi, int8 (its extrapolation_value is a float) */
  int32_t rzc[4] = {1, TFW_COORD_TF_CROP_AND_RESIZE, 0, 0}, rzc7[4] = {1, TFW_COORD_TF_CROP_AND_RESIZE + 1, 0, 0};
  int32_t rzcn[4] = {0, TFW_COORD_TF_CROP_AND_RESIZE, 0, 0};
  float scr[8] = {-0.75f, 1.5f, 1.0f, 0, 0, 1, 1, 5.0f};
  c = call1(TPKG_OP_RESIZE, &a, 1, &a33, rzc, 4, scr, 3), expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_RESIZE, &a, 1, &a33, rzc7, 4, scr, 3), expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_RESIZE, &a, 1, &a33, rzc, 4, scr, 8), assert_int_equal(tfw_k_resize(&c), 0);
  scr[4] = NAN, expect_error(tfw_k_resize, &c, TFW_FB_E_PARAM);
  scr[4] = 0, c = call1(TPKG_OP_RESIZE, &i8, 1, &i8o, rzcn, 4, scr, 8), expect_error(tfw_k_resize, &c, TFW_FB_E_DTYPE);
  /* reduce: L2 on i32, mask past the rank, output count, unknown fn */
  int32_t rd[2] = {TFW_RED_L2, 1}, rdm[2] = {TFW_RED_SUM, 4}, rdf[2] = {10, 1}, rds[2] = {TFW_RED_SUM, 1};
  tfw_tensor i3 = mk(TPKG_DT_I32, 1, (uint32_t[]){3});
  c = call1(TPKG_OP_REDUCE, &bi, 1, &i3, rd, 2, 0, 0), expect_error(tfw_k_reduce, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_REDUCE, &a, 1, &v2, rdm, 2, 0, 0), expect_error(tfw_k_reduce, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_REDUCE, &a, 1, &v2, rdf, 2, 0, 0), expect_error(tfw_k_reduce, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_REDUCE, &a, 1, &v2, rds, 2, 0, 0), expect_error(tfw_k_reduce, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_REDUCE, &a, 1, &i3, rds, 2, 0, 0), expect_error(tfw_k_reduce, &c, TFW_FB_E_DTYPE);
  /* arg: output not i64, axis, bool input, bad flags */
  int32_t ar[3] = {0, 0, 0}, arb[3] = {2, 0, 0}, arf[3] = {0, 2, 0};
  tfw_tensor o3 = mk(TPKG_DT_I64, 1, (uint32_t[]){3});
  c = call1(TPKG_OP_ARG, &a, 1, &i3, ar, 3, 0, 0), expect_error(tfw_k_arg, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_ARG, &a, 1, &o3, arb, 3, 0, 0), expect_error(tfw_k_arg, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_ARG, &a, 1, &o3, arf, 3, 0, 0), expect_error(tfw_k_arg, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_ARG, &b2, 1, &o3, ar, 3, 0, 0), expect_error(tfw_k_arg, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_ARG, &a, 1, &v2, ar, 3, 0, 0), expect_error(tfw_k_arg, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_ARG, &a, 1, &o3, ar, 3, 0, 0), assert_int_equal(tfw_k_arg(&c), 0);
  /* softmax: shapes differ, axis, log flag, dtype */
  int32_t sm[2] = {1, 0}, smb[2] = {2, 0}, sml[2] = {1, 2};
  c = call1(TPKG_OP_SOFTMAX, &a, 1, &b, sm, 2, 0, 0), expect_error(tfw_k_softmax, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_SOFTMAX, &a, 1, &y23, smb, 2, 0, 0), expect_error(tfw_k_softmax, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_SOFTMAX, &a, 1, &y23, sml, 2, 0, 0), expect_error(tfw_k_softmax, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SOFTMAX, &i8, 1, &i8, sm, 2, 0, 0), expect_error(tfw_k_softmax, &c, TFW_FB_E_DTYPE);
  /* norm: scale not broadcastable, negative eps, wrong operand counts, channel sizes */
  int32_t ln[2] = {0, 1}, inorm[2] = {1, 1}, bn[2] = {2, 1}, bk[2] = {3, 1};
  float eps = 1e-5f, neg = -1;
  tfw_tensor lnin[3] = {a, v2, v2};
  c = call1(TPKG_OP_NORM, lnin, 2, &y23, ln, 2, &eps, 1), expect_error(tfw_k_norm, &c, TFW_FB_E_SHAPE);
  tfw_tensor t3 = mk(TPKG_DT_F32, 1, (uint32_t[]){3}), lnin2[3] = {a, t3, t3};
  c = call1(TPKG_OP_NORM, lnin2, 3, &y23, ln, 2, &neg, 1), expect_error(tfw_k_norm, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_NORM, lnin2, 3, &y23, bk, 2, &eps, 1), expect_error(tfw_k_norm, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_NORM, lnin2, 3, &y23, ln, 2, &eps, 0), expect_error(tfw_k_norm, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_NORM, lnin2, 3, &y23, ln, 2, &eps, 1), assert_int_equal(tfw_k_norm(&c), 0);
  c = call1(TPKG_OP_NORM, lnin2, 3, &y23, inorm, 2, &eps, 1), assert_int_equal(tfw_k_norm(&c), 0);
  tfw_tensor inin[5] = {a, v2, v2, v2, v2};
  c = call1(TPKG_OP_NORM, inin, 3, &y23, inorm, 2, &eps, 1), expect_error(tfw_k_norm, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_NORM, inin, 4, &y23, bn, 2, &eps, 1), expect_error(tfw_k_norm, &c, TFW_FB_E_SHAPE);
  inin[4] = t3;
  c = call1(TPKG_OP_NORM, inin, 5, &y23, bn, 2, &eps, 1), expect_error(tfw_k_norm, &c, TFW_FB_E_SHAPE);
  /* operands: unknown dtype, no data, rank above 8 */
  tfw_tensor bad = a;
  bad.dtype = 99;
  c = call1(TPKG_OP_TRANSPOSE, &bad, 1, &b, p10, 2, 0, 0), expect_error(tfw_k_transpose, &c, TFW_FB_E_DTYPE);
  bad = a, bad.rank = 9;
  c = call1(TPKG_OP_TILE, &bad, 1, &b, 0, 0, 0, 0), expect_error(tfw_k_tile, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_REDUCE, &bad, 1, &v2, rds, 2, 0, 0), expect_error(tfw_k_reduce, &c, TFW_FB_E_SHAPE);
  bad = a, bad.data = 0;
  c = call1(TPKG_OP_PAD, &bad, 1, &y33, pd4, 5, &zero, 1), expect_error(tfw_k_pad, &c, TFW_FB_E_ARG);
  assert_string_equal(tfw_fallback_strerror(TFW_FB_E_INDEX), "fallback index out of range");
  tfw_tensor *all[] = {&a, &b, &bi, &a33, &v6, &v2, &i8, &i8o, &b2, &y23, &y22, &y32, &y26, &gi, &y33, &y31, &i3, &o3, &t3};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* ---- Int8 Softmax and LayerNorm against their float definitions ------------ */

/* ONNX QuantizeLinear of a double: rint, plus zp, saturated to int8. */
static int q_ref(double y, double s, int32_t zp) {
  double v = nearbyint(y / s) + zp;
  return v < -128 ? -128 : v > 127 ? 127 : (int)v;
}

/* Tallies |kernel - ONNX float definition| in output steps. */
typedef struct {
  long n, off1;
  int worst;
} q_tally;

static void tally(q_tally *t, int got, int want) {
  int e = abs(got - want);
  t->n++, t->off1 += e == 1;
  t->worst = e > t->worst ? e : t->worst;
}

/* Softmax: DequantizeLinear -> float Softmax (double) -> QuantizeLinear is
 * the definition int8 must match within one step, over random rows, input
 * scales 0.002..0.3 and output scales around 1/256. */
static void test_softmax_q_bound(void **state) {
  (void)state;
  q_tally t = {0};
  for (int it = 0; it < 400; it++) {
    uint32_t rows = 1 + rnd_below(4), n = 1 + rnd_below(it % 8 ? 64 : 1000), xd[2] = {rows, n}, td[1] = {256};
    float s_in = rnd_f(0.002f, 0.3f), s_out = it % 3 ? 1.0f / 256 : rnd_f(0.002f, 0.02f);
    int32_t zp_in = rnd_range(-128, 127), zp_out = it % 3 ? -128 : rnd_range(-128, 0), mult, shift;
    tfw_tensor in[2] = {mk(TPKG_DT_I8, 2, xd), mk(TPKG_DT_I32, 1, td)}, y = mk(TPKG_DT_I8, 2, xd);
    fill_random(&in[0]);
    if (it % 5 == 0) memset(in[0].data, 0x7f, n); /* one row of equal values */
    assert_int_equal(tfw_softmax_q_build(s_in, s_out, (int32_t *)in[1].data, &mult, &shift), 0);
    int32_t ints[4] = {1, mult, shift, zp_out};
    tfw_call c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ints, 4, 0, 0);
    assert_int_equal(tfw_k_softmax_q(&c), 0);
    const int8_t *x = (const int8_t *)in[0].data, *yq = (const int8_t *)y.data;
    for (uint32_t r = 0; r < rows; r++) {
      double m = -1e30, sum = 0;
      for (uint32_t k = 0; k < n; k++) m = fmax(m, ((double)x[r * n + k] - zp_in) * s_in);
      for (uint32_t k = 0; k < n; k++) sum += exp(((double)x[r * n + k] - zp_in) * s_in - m);
      for (uint32_t k = 0; k < n; k++)
        tally(&t, yq[r * n + k], q_ref(exp(((double)x[r * n + k] - zp_in) * s_in - m) / sum, s_out, zp_out));
    }
    free(in[0].data), free(in[1].data), free(y.data);
  }
  print_message("int8 Softmax vs its float definition: %ld elements, %ld (%.3f%%) one step off, worst %d\n", t.n,
                t.off1, 100.0 * (double)t.off1 / (double)t.n, t.worst);
  assert_true(t.worst <= 1);
}

/* The int8 Softmax's arithmetic, done in 32-bit pieces, against its
 * definition in 64-bit arithmetic (docs/quantisation.md): every output
 * shift (sh = 31 + shift, the 64-bit sums at 31 and 32), rows along an
 * inner axis, rows starting at any byte. */
static void test_softmax_q_definition(void **state) {
  (void)state;
  long n_out = 0;
  for (int it = 0; it < 600; it++) {
    /* shifts 0..2 (every fifth call) on long rows: a large sum keeps some outputs below saturation */
    uint32_t n = it % 5 == 0 ? 1000 + rnd_below(3000) : 1 + rnd_below(it % 4 ? 40 : 300);
    uint32_t inner = it % 3 ? 1 : 1 + rnd_below(3), rows = 1 + rnd_below(3);
    uint32_t xd[3] = {rows, n, inner}, td[1] = {256};
    int32_t mult, shift, zp = rnd_range(-128, 127);
    tfw_tensor in[2] = {mk(TPKG_DT_I8, 3, xd), mk(TPKG_DT_I32, 1, td)}, y = mk(TPKG_DT_I8, 3, xd);
    fill_random(&in[0]);
    assert_int_equal(tfw_softmax_q_build(rnd_f(0.002f, 0.3f), 1.0f / 256, (int32_t *)in[1].data, &mult, &shift), 0);
    shift = it % 5 == 0 ? (int32_t)rnd_below(3) : (int32_t)rnd_below(40); /* any shift, 0..2 the 64-bit sums */
    mult = (int32_t)((1u << 30) + rnd_below(1u << 30));
    int32_t ints[4] = {1, mult, shift, zp};
    tfw_call c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ints, 4, 0, 0);
    assert_int_equal(tfw_k_softmax_q(&c), 0);
    const int8_t *x = (const int8_t *)in[0].data, *yq = (const int8_t *)y.data;
    const int32_t *t = (const int32_t *)in[1].data;
    unsigned sh = 31u + (unsigned)shift;
    for (uint32_t r = 0; r < rows; r++)
      for (uint32_t i = 0; i < inner; i++) {
        int32_t m = -128;
        uint32_t s = 0;
        for (uint32_t k = 0; k < n; k++) m = x[(r * n + k) * inner + i] > m ? x[(r * n + k) * inner + i] : m;
        for (uint32_t k = 0; k < n; k++) s += (uint32_t)t[m - x[(r * n + k) * inner + i]];
        uint64_t rr = ((uint64_t)(uint32_t)mult << 31) / s;
        for (uint32_t k = 0; k < n; k++, n_out++) {
          uint64_t v = (uint64_t)(uint32_t)t[m - x[(r * n + k) * inner + i]] * rr;
          int64_t q = (sh >= 63u ? 0 : (int64_t)((v + (1ull << (sh - 1))) >> sh)) + zp;
          assert_int_equal(yq[(r * n + k) * inner + i], q < -128 ? -128 : q > 127 ? 127 : q);
        }
      }
    free(in[0].data), free(in[1].data), free(y.data);
  }
  print_message("int8 Softmax in 32-bit pieces: %ld outputs equal the 64-bit definition\n", n_out);
}

/* The int8 Softmax as docs/quantisation.md writes it, in 128-bit
 * arithmetic (no 32-bit pieces, no shortcuts): rows of n along the middle
 * dim of [rows, n, inner]. */
__extension__ typedef unsigned __int128 u128;
static void softmax_q_ref(const int8_t *x, int8_t *y, uint32_t rows, uint32_t n, uint32_t inner, const int32_t *t,
                          int32_t mult, int32_t shift, int32_t zp) {
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t i = 0; i < inner; i++) {
      const int8_t *xr = x + (size_t)r * n * inner + i;
      int8_t *yr = y + (size_t)r * n * inner + i;
      int32_t m = -128;
      uint64_t s = 0;
      for (uint32_t k = 0; k < n; k++) m = xr[k * inner] > m ? xr[k * inner] : m;
      for (uint32_t k = 0; k < n; k++) s += (uint64_t)t[m - xr[k * inner]];
      uint64_t big_r = ((uint64_t)(uint32_t)mult << 31) / s;
      for (uint32_t k = 0; k < n; k++) {
        u128 v = ((u128)(uint32_t)t[m - xr[k * inner]] * big_r + ((u128)1 << (30 + shift))) >> (31 + shift);
        int64_t q = (int64_t)v + zp;
        yr[k * inner] = (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
      }
    }
}

/* Every path of the int8 Softmax against softmax_q_ref: contiguous rows of
 * up to 256 that are a multiple of 4 with the output aligned (the T values
 * kept, stored four to a word), the same with the output one byte off, rows
 * of other lengths, longer rows (the 64-bit division above 512, up to
 * 65,536), strided rows (inner 2 and 3); rows of random values, of one
 * value, of one peak over -128 (the outputs saturate) and of two values;
 * input scales from 0.001 to 40 (T[1] = 0), output shifts 0..40 (the
 * 64-bit sums at 0 and 1, only the zero point from 32 on), any zero point. */
static void test_softmax_q_paths(void **state) {
  (void)state;
  static const uint32_t lens[] = {1, 2, 3, 4, 8, 12, 32, 40, 63, 64, 68, 252, 256, 260, 512, 516, 1024, 65536};
  static const float s_ins[] = {0.001f, 0.0125f, 0.05f, 0.3f, 2.0f, 40.0f};
  long n_out = 0;
  for (uint32_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
    for (int mode = 0; mode < 4; mode++)
      for (int var = 0; var < 4; var++) {
        uint32_t n = lens[li], inner = var == 3 ? 2 + rnd_below(2) : 1, rows = n > 4096 ? 1 : 1 + rnd_below(3);
        uint32_t xd[3] = {rows, n, inner}, td[1] = {256}, total = rows * n * inner;
        tfw_tensor in[2] = {mk(TPKG_DT_I8, 3, xd), mk(TPKG_DT_I32, 1, td)};
        int8_t *x = (int8_t *)in[0].data, *want = malloc(total), *ybuf = malloc(total + 1);
        assert_non_null(want), assert_non_null(ybuf);
        int8_t v0 = (int8_t)rnd_range(-128, 127), v1 = (int8_t)rnd_range(-128, 127);
        for (uint32_t e = 0; e < total; e++)
          x[e] = mode == 0 ? (int8_t)rnd() : mode == 1 ? v0 : mode == 2 ? -128 : (rnd() & 1 ? v0 : v1);
        if (mode == 2)
          for (uint32_t r = 0; r < rows; r++) x[((size_t)r * n + rnd_below(n)) * inner] = 127;
        int32_t mult, shift, zp = var == 0 ? -128 : rnd_range(-128, 127);
        float s_out = var == 0 ? 1.0f / 256 : rnd_f(0.001f, 0.05f);
        assert_int_equal(tfw_softmax_q_build(s_ins[(li + (uint32_t)mode + (uint32_t)var) % 6], s_out,
                                             (int32_t *)in[1].data, &mult, &shift), 0);
        if (var == 2) shift = (int32_t)rnd_below(41), mult = (int32_t)((1u << 30) + rnd_below(1u << 30));
        tfw_tensor y = {(uint8_t *)ybuf + (var == 1), TPKG_DT_I8, 3, {rows, n, inner}};
        int32_t ints[4] = {1, mult, shift, zp};
        tfw_call c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ints, 4, 0, 0);
        assert_int_equal(tfw_k_softmax_q(&c), 0);
        softmax_q_ref(x, want, rows, n, inner, (const int32_t *)in[1].data, mult, shift, zp);
        for (uint32_t e = 0; e < total; e++, n_out++)
          if (((int8_t *)y.data)[e] != want[e])
            fail_msg("n %u inner %u mode %d var %d: output %u is %d, the definition %d", n, inner, mode, var, e,
                     ((int8_t *)y.data)[e], want[e]);
        free(in[0].data), free(in[1].data), free(want), free(ybuf);
      }
  print_message("int8 Softmax, every path: %ld outputs equal the definition\n", n_out);
}

/* Softmax of int8 to f32: within 0.51 ulp of the quotient of its own table
 * entries, T[d] / sum T (exact, in double), and close to the float Softmax
 * of the dequantised row (the table's exp of the f32 product s * k is its
 * only other error), over random rows, input scales 1e-4..0.6 (the largest
 * reach subnormal entries) and rows of up to 65,536. */
static void test_softmax_qf_bound(void **state) {
  (void)state;
  double worst_ulp = 0, worst_rel = 0;
  long n_out = 0;
  for (int it = 0; it < 300; it++) {
    uint32_t rows = 1 + rnd_below(3), n = it == 7 ? 65536 : 1 + rnd_below(it % 8 ? 64 : 2000);
    uint32_t xd[2] = {rows, n}, td[1] = {256};
    float s_in = it % 4 ? rnd_f(0.0001f, 0.1f) : rnd_f(0.1f, 0.6f);
    int32_t axis[1] = {1};
    tfw_tensor in[2] = {mk(TPKG_DT_I8, 2, xd), mk(TPKG_DT_F32, 1, td)}, y = mk(TPKG_DT_F32, 2, xd);
    fill_random(&in[0]);
    if (it % 5 == 0) memset(in[0].data, 0x7f, n); /* one row of equal values */
    assert_int_equal(tfw_softmax_qf_build(s_in, (float *)in[1].data), 0);
    tfw_call c = call1(TPKG_OP_SOFTMAX_QF, in, 2, &y, axis, 1, 0, 0);
    assert_int_equal(tfw_k_softmax_qf(&c), 0);
    const int8_t *x = (const int8_t *)in[0].data;
    const float *tab = (const float *)in[1].data, *yf = (const float *)y.data;
    for (uint32_t r = 0; r < rows; r++) {
      const int8_t *xr = x + (size_t)r * n;
      int m = -128;
      double st = 0, sf = 0;
      for (uint32_t k = 0; k < n; k++) m = xr[k] > m ? xr[k] : m;
      for (uint32_t k = 0; k < n; k++) st += tab[m - xr[k]], sf += exp(-(double)s_in * (m - xr[k]));
      for (uint32_t k = 0; k < n; k++, n_out++) {
        double got = yf[(size_t)r * n + k], want = tab[m - xr[k]] / st, ref = exp(-(double)s_in * (m - xr[k])) / sf;
        double ulp = want > 0 ? nextafterf((float)want, 2.0f) - (float)want : 0x1p-149;
        if (fabs((float)want) < 0x1p-126) ulp = 0x1p-149; /* the subnormal grid */
        worst_ulp = fmax(worst_ulp, fabs(got - want) / ulp);
        /* argument rounding (2^-24 of s * k) and expf's ulp; far below 2^-126 the grid */
        double bound = ref * (0x1p-22 + 0x1p-24 * s_in * (m - xr[k])) + 0x1p-148;
        if (fabs(got - ref) > bound) print_error("s %g, d %d: %.9g, float %.9g\n", (double)s_in, m - xr[k], got, ref);
        assert_true(fabs(got - ref) <= bound);
        worst_rel = ref > 0x1p-100 ? fmax(worst_rel, fabs(got - ref) / ref) : worst_rel;
      }
    }
    free(in[0].data), free(in[1].data), free(y.data);
  }
  print_message("Softmax int8 -> f32: %ld outputs, worst %.4f ulp of its table's quotient, worst %.3g relative to "
                "the float Softmax\n", n_out, worst_ulp, worst_rel);
  assert_true(worst_ulp <= 0.51);
}

/* LayerNorm likewise: random rows of 1..1024 elements, scales, zero
 * points, gamma, beta and epsilon. */
static void test_layernorm_q_bound(void **state) {
  (void)state;
  q_tally t = {0};
  for (int it = 0; it < 300; it++) {
    uint32_t rows = 1 + rnd_below(3), n = 1 + rnd_below(it % 6 ? 96 : 1024), xd[2] = {rows, n}, cd[1] = {n};
    float s_in = rnd_f(0.005f, 0.2f), s_out = rnd_f(0.01f, 0.1f), eps = it % 4 ? 1e-5f : rnd_f(0.0f, 0.5f);
    int32_t zx = rnd_range(-100, 100), zy = rnd_range(-60, 60), gs;
    uint32_t ew[2];
    tfw_tensor in[3] = {mk(TPKG_DT_I8, 2, xd), mk(TPKG_DT_I32, 1, cd), mk(TPKG_DT_I64, 1, cd)};
    tfw_tensor gam = mk(TPKG_DT_F32, 1, cd), bet = mk(TPKG_DT_F32, 1, cd), y = mk(TPKG_DT_I8, 2, xd);
    fill_random(&in[0]), fill_f32(&gam, -2, 2), fill_f32(&bet, -1, 1);
    if (it % 7 == 3) /* a narrow row: a few codes around the zero point */
      for (uint32_t k = 0; k < n; k++) in[0].data[k] = (uint8_t)(zx + rnd_range(-2, 2));
    const float *g = (const float *)gam.data, *b = (const float *)bet.data;
    assert_int_equal(tfw_layernorm_q_build(s_in, s_out, eps, n, g, b, (int32_t *)in[1].data, (int64_t *)in[2].data,
                                           &gs, ew), 0);
    int32_t ints[6] = {1, zx, zy, gs, (int32_t)ew[0], (int32_t)ew[1]};
    tfw_call c = call1(TPKG_OP_LAYERNORM_Q, in, 3, &y, ints, 6, 0, 0);
    assert_int_equal(tfw_k_layernorm_q(&c), 0);
    const int8_t *x = (const int8_t *)in[0].data, *yq = (const int8_t *)y.data;
    for (uint32_t r = 0; r < rows; r++) {
      double mean = 0, var = 0;
      for (uint32_t k = 0; k < n; k++) mean += ((double)x[r * n + k] - zx) * s_in;
      mean /= n;
      for (uint32_t k = 0; k < n; k++) var += pow(((double)x[r * n + k] - zx) * s_in - mean, 2);
      var /= n;
      for (uint32_t k = 0; k < n; k++) {
        double z = var + eps > 0 ? (((double)x[r * n + k] - zx) * s_in - mean) / sqrt(var + eps) : 0;
        tally(&t, yq[r * n + k], q_ref(z * g[k] + b[k], s_out, zy));
      }
    }
    for (int i = 0; i < 3; i++) free(in[i].data);
    free(gam.data), free(bet.data), free(y.data);
  }
  print_message("int8 LayerNorm vs its float definition: %ld elements, %ld (%.3f%%) one step off, worst %d\n", t.n,
                t.off1, 100.0 * (double)t.off1 / (double)t.n, t.worst);
  assert_true(t.worst <= 1);
}

/* Bad calls and constants of the int8 kernels: refused, nothing written. */
static void test_int8_norm_errors(void **state) {
  (void)state;
  uint32_t xd[2] = {2, 8}, td[1] = {256}, cd[1] = {8}, c7[1] = {7};
  tfw_tensor in[3] = {mk(TPKG_DT_I8, 2, xd), mk(TPKG_DT_I32, 1, td)}, y = mk(TPKG_DT_I8, 2, xd);
  tfw_tensor f = mk(TPKG_DT_F32, 2, xd), t7 = mk(TPKG_DT_I32, 1, c7);
  int32_t mult, shift;
  assert_int_equal(tfw_softmax_q_build(0.1f, 0.0f, (int32_t *)in[1].data, &mult, &shift), TFW_FB_E_PARAM);
  assert_int_equal(tfw_softmax_q_build(-0.1f, 0.01f, (int32_t *)in[1].data, &mult, &shift), TFW_FB_E_PARAM);
  assert_int_equal(tfw_softmax_q_build(0.1f, 1.0f / 256, (int32_t *)in[1].data, &mult, &shift), 0);
  int32_t ok[4] = {1, mult, shift, -128}, lowm[4] = {1, 1 << 29, shift, -128}, zp[4] = {1, mult, shift, 128};
  int32_t ax[4] = {2, mult, shift, -128};
  tfw_call c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ok, 4, 0, 0);
  assert_int_equal(tfw_k_softmax_q(&c), 0);
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, lowm, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, zp, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ok, 3, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ax, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &f, ok, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_DTYPE);
  tfw_tensor short_t[2] = {in[0], t7};
  c = call1(TPKG_OP_SOFTMAX_Q, short_t, 2, &y, ok, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_SHAPE);
  ((int32_t *)in[1].data)[0] = 32767; /* the table must start at 2^15 and never rise */
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ok, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_PARAM);
  ((int32_t *)in[1].data)[0] = 32768, ((int32_t *)in[1].data)[9] = 40000;
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ok, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_PARAM);
  ((int32_t *)in[1].data)[9] = ((int32_t *)in[1].data)[10], ((int32_t *)in[1].data)[255] = -1; /* never negative */
  c = call1(TPKG_OP_SOFTMAX_Q, in, 2, &y, ok, 4, 0, 0), expect_error(tfw_k_softmax_q, &c, TFW_FB_E_PARAM);
  free(in[1].data);
  /* Softmax to f32: its table f32 [256] from 1 down in [0, 1], one int */
  tfw_tensor tf = mk(TPKG_DT_F32, 1, td), yf = mk(TPKG_DT_F32, 2, xd), qf[2] = {in[0], tf};
  assert_int_equal(tfw_softmax_qf_build(0.0f, (float *)tf.data), TFW_FB_E_PARAM);
  assert_int_equal(tfw_softmax_qf_build(0.1f, (float *)tf.data), 0);
  int32_t one[2] = {1, 0}, ax2[1] = {2};
  c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &yf, one, 1, 0, 0);
  assert_int_equal(tfw_k_softmax_qf(&c), 0);
  c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &yf, one, 2, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &yf, ax2, 1, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_SHAPE);
  c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &y, one, 1, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_DTYPE);
  c = call1(TPKG_OP_SOFTMAX_QF, qf, 1, &yf, one, 1, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_SHAPE);
  float *tv = (float *)tf.data;
  float bad[3] = {2.0f, -0.5f, NAN};
  uint32_t ld[2] = {2, 128}; /* 256 elements: the whole table is checked */
  tfw_tensor xl = mk(TPKG_DT_I8, 2, ld), yl = mk(TPKG_DT_F32, 2, ld), ql[2] = {xl, tf};
  qf[0].data[9] = (uint8_t)-100; /* row 1 uses entry 100 */
  for (int b = 0; b < 3; b++) { /* an entry above 1, negative or NaN: refused where a short tensor uses it */
    float keep = tv[100];
    tv[100] = bad[b];
    c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &yf, one, 1, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_PARAM);
    tv[100] = keep, keep = tv[200], tv[200] = bad[b];
    c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &yf, one, 1, 0, 0); /* entry 200 unused: the row's values are right */
    assert_int_equal(tfw_k_softmax_qf(&c), 0);
    c = call1(TPKG_OP_SOFTMAX_QF, ql, 2, &yl, one, 1, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_PARAM);
    tv[200] = keep;
  }
  free(xl.data), free(yl.data);
  tv[0] = 0.5f; /* T[0] is 1 */
  c = call1(TPKG_OP_SOFTMAX_QF, qf, 2, &yf, one, 1, 0, 0), expect_error(tfw_k_softmax_qf, &c, TFW_FB_E_PARAM);
  free(tf.data), free(yf.data);
  in[1] = mk(TPKG_DT_I32, 1, cd), in[2] = mk(TPKG_DT_I64, 1, cd);
  float gam[8] = {1, -1, 0.5f, 2, 1, 1, 1, 1};
  int32_t gs;
  uint32_t ew[2];
  assert_int_equal(tfw_layernorm_q_build(0.05f, 0.02f, 1e-5f, 8, gam, NULL, (int32_t *)in[1].data,
                                         (int64_t *)in[2].data, &gs, ew), 0);
  assert_int_equal(tfw_layernorm_q_build(0.05f, 0.02f, 1e-5f, 0, gam, NULL, (int32_t *)in[1].data,
                                         (int64_t *)in[2].data, &gs, ew), TFW_FB_E_PARAM);
  float huge[8] = {3e30f};
  assert_int_equal(tfw_layernorm_q_build(0.05f, 1e-9f, 1e-5f, 1, huge, NULL, (int32_t *)in[1].data,
                                         (int64_t *)in[2].data, &gs, ew), TFW_FB_E_PARAM);
  int32_t lok[6] = {-1, 0, 0, gs, (int32_t)ew[0], (int32_t)ew[1]}, lgs[6] = {-1, 0, 0, 31, 0, 0};
  int32_t leps[6] = {-1, 0, 0, gs, 0, 0x40000000}, lzp[6] = {-1, -129, 0, gs, 0, 0};
  c = call1(TPKG_OP_LAYERNORM_Q, in, 3, &y, lok, 6, 0, 0);
  assert_int_equal(tfw_k_layernorm_q(&c), 0);
  c = call1(TPKG_OP_LAYERNORM_Q, in, 3, &y, lgs, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_LAYERNORM_Q, in, 3, &y, leps, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_LAYERNORM_Q, in, 3, &y, lzp, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_PARAM);
  c = call1(TPKG_OP_LAYERNORM_Q, in, 2, &y, lok, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_SHAPE);
  tfw_tensor wrong_b[3] = {in[0], in[1], in[1]};
  c = call1(TPKG_OP_LAYERNORM_Q, wrong_b, 3, &y, lok, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_DTYPE);
  tfw_tensor short_g[3] = {in[0], t7, in[2]};
  c = call1(TPKG_OP_LAYERNORM_Q, short_g, 3, &y, lok, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_SHAPE);
  ((int32_t *)in[1].data)[3] = 1 << 30; /* a multiplier at or above 2^30 */
  c = call1(TPKG_OP_LAYERNORM_Q, in, 3, &y, lok, 6, 0, 0), expect_error(tfw_k_layernorm_q, &c, TFW_FB_E_PARAM);
  for (int i = 0; i < 3; i++) free(in[i].data);
  free(y.data), free(f.data), free(t7.data);
}

/* ---- host and RV32 agree bit for bit ---------------------------------------- */

static const char *iss_path, *fw_elf_path;

static void test_firmware_checksums(void **state) {
  (void)state;
  if (!iss_path || !fw_elf_path) fail_msg("usage: test_ops_move TESSEL_ISS FW_OPS_MOVE_CRC.elf");
  move_checksums h;
  move_checksum_all(&h);
  assert_int_equal(h.rc, 0); /* every checksum call is valid: it ran */
  char want[200];
  snprintf(want, sizeof want, "tfw-ops-move-crc move %08x resize %08x reduce %08x norm %08x int8 %08x rc %d\n",
           (unsigned)h.move, (unsigned)h.resize, (unsigned)h.reduce, (unsigned)h.norm, (unsigned)h.int8, (int)h.rc);
  fw_crc_check(iss_path, fw_elf_path, "2000000000", "tfw-ops-move-crc", want);
}

int main(int argc, char **argv) {
  if (argc == 3) iss_path = argv[1], fw_elf_path = argv[2];
  else if (argc != 1) return fprintf(stderr, "usage: test_ops_move [TESSEL_ISS FW_OPS_MOVE_CRC.elf]\n"), 2;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_transpose_random), cmocka_unit_test(test_slice_random),
      cmocka_unit_test(test_concat_random),    cmocka_unit_test(test_gather_random),
      cmocka_unit_test(test_gather_fixed),     cmocka_unit_test(test_tile_random),
      cmocka_unit_test(test_pad_random),       cmocka_unit_test(test_pad_numpy),
      cmocka_unit_test(test_resize_modes),     cmocka_unit_test(test_resize_onnx_examples),
      cmocka_unit_test(test_resize_onnx_node_tests),
      cmocka_unit_test(test_reduce_random),    cmocka_unit_test(test_reduce_edges),
      cmocka_unit_test(test_arg_random),       cmocka_unit_test(test_softmax_axis),
      cmocka_unit_test(test_layer_norm),       cmocka_unit_test(test_channel_norms),
      cmocka_unit_test(test_softmax_q_bound),  cmocka_unit_test(test_softmax_q_definition),
      cmocka_unit_test(test_softmax_q_paths),
      cmocka_unit_test(test_softmax_qf_bound),
      cmocka_unit_test(test_layernorm_q_bound),
      cmocka_unit_test(test_int8_norm_errors), cmocka_unit_test(test_errors),
      cmocka_unit_test(test_firmware_checksums),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
