/* test_nn: the control core's network kernels (shared/tfw_ops_nn.c) on the
 * host, under ASan/UBSan.  Each kernel runs on random shapes, strides, pads,
 * dilations and groups and is checked twice: against a double-precision
 * reference written the plain way (matmul by index, conv transpose as a
 * scatter), within the f32 rounding bound, and bit for bit against an f32
 * model of the order tfw_ops.h documents.  Then the edge cases the header
 * defines (empty windows, NaN, ceil_mode taps) and bad calls: the right
 * TFW_FB_E_* code and not one output byte written.  Last, the checksums of
 * nn_checksum.c from the RV32 firmware (on tessel-iss) must equal the host's.
 *
 *   test_nn [TESSEL_ISS FW_NN_CRC.elf]
 * Without the two arguments the firmware comparison fails (it is part of the
 * suite, not optional). */
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

#include "nn_checksum.h"
#include "tfw_math.h"
#include "tfw_ops.h"

#define U 5.9604645e-8 /* 2^-24, f32's unit roundoff */

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

static uint32_t rng_state = 2463534242u;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}
static uint32_t rnd_in(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1); } /* [lo, hi] */
static float rnd_float(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f; }

static float *rnd_floats(size_t n) {
  float *p = malloc((n ? n : 1) * sizeof *p);
  assert_non_null(p);
  for (size_t i = 0; i < n; i++) p[i] = rnd_float(-2.0f, 2.0f);
  return p;
}

static tfw_tensor tens(void *data, uint32_t dtype, uint32_t rank, const uint32_t *dims) {
  tfw_tensor t = {data, dtype, rank, {0}};
  for (uint32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  return t;
}
static size_t count(uint32_t rank, const uint32_t *dims) {
  size_t n = 1;
  for (uint32_t i = 0; i < rank; i++) n *= dims[i];
  return n;
}

/* |got - want| within tol * mag (mag: the sum of the magnitudes of the terms). */
static void check_close(float got, double want, double mag, double tol, const char *what, size_t i) {
  double err = fabs((double)got - want);
  if (!(err <= tol * mag + 1e-30)) {
    print_error("%s: element %zu is %.9g, reference %.9g (error %.3g, bound %.3g)\n", what, i, got, want, err,
                tol * mag);
    fail();
  }
}
static void check_bits(float got, float want, const char *what, size_t i) {
  if (bits(got) != bits(want)) {
    print_error("%s: element %zu is %.9g (0x%08x), the documented order gives %.9g (0x%08x)\n", what, i, got,
                bits(got), want, bits(want));
    fail();
  }
}
static float canon(float x) { return x != x ? from_bits(0x7fc00000u) : x; }

/* ---- MATMUL -------------------------------------------------------------- */

typedef struct {
  uint32_t ra, rb, rc, ry;
  uint32_t ad[8], bd[8], cd[8], yd[8];
  int ta, tb, has_c;
  uint32_t m, n, k, nb;
  float alpha, beta;
} mm_case;

/* Element offset in an operand of `rank` dims of the output batch index bi
 * (nb dims), ranks right-aligned, broadcast dims at 0; the operand's own
 * dims from `first` on are its batch dims. */
static size_t bcast_off(const uint32_t *dims, uint32_t rank, uint32_t own_batch, const uint32_t *bi, uint32_t nb,
                        size_t inner) {
  size_t off = 0, stride = inner;
  for (uint32_t j = own_batch; j-- > 0;) {
    uint32_t i = nb - own_batch + j;
    if (dims[j] != 1) off += bi[i] * stride;
    stride *= dims[j];
  }
  (void)rank;
  return off;
}

static void run_matmul_case(const mm_case *t, const char *what) {
  size_t na = count(t->ra, t->ad), nbv = count(t->rb, t->bd), ny = count(t->ry, t->yd);
  size_t nc = t->has_c ? count(t->rc, t->cd) : 0;
  float *a = rnd_floats(na), *b = rnd_floats(nbv), *cv = rnd_floats(nc), *y = malloc((ny + 1) * sizeof *y);
  assert_non_null(y);
  tfw_tensor in[3] = {tens(a, TPKG_DT_F32, t->ra, t->ad), tens(b, TPKG_DT_F32, t->rb, t->bd),
                      tens(cv, TPKG_DT_F32, t->rc, t->cd)};
  tfw_tensor out = tens(y, TPKG_DT_F32, t->ry, t->yd);
  int32_t ints[2] = {t->ta, t->tb};
  float floats[2] = {t->alpha, t->beta};
  tfw_call c = {TPKG_OP_MATMUL, t->has_c ? 3u : 2u, 1, in, &out, ints, 2, floats, 2};
  assert_int_equal(tfw_k_matmul(&c), 0);

  uint32_t a_batch = t->ra > 2 ? t->ra - 2 : 0, b_batch = t->rb > 2 ? t->rb - 2 : 0;
  size_t a_mat = t->ra >= 2 ? (size_t)t->m * t->k : t->k, b_mat = t->rb >= 2 ? (size_t)t->k * t->n : t->k;
  size_t nbatch = count(t->nb, t->yd), yi = 0;
  uint32_t bi[8] = {0};
  for (size_t bt = 0; bt < nbatch; bt++) {
    size_t tmp = bt;
    for (uint32_t d = t->nb; d-- > 0;) bi[d] = (uint32_t)(tmp % t->yd[d]), tmp /= t->yd[d];
    size_t ao = bcast_off(t->ad, t->ra, a_batch, bi, t->nb, a_mat);
    size_t bo = bcast_off(t->bd, t->rb, b_batch, bi, t->nb, b_mat);
    for (uint32_t i = 0; i < t->m; i++)
      for (uint32_t j = 0; j < t->n; j++, yi++) {
        double ref = 0, mag = 0;
        float acc = 0.0f;
        for (uint32_t q = 0; q < t->k; q++) {
          float av = t->ra == 1 ? a[q] : t->ta ? a[ao + (size_t)q * t->m + i] : a[ao + (size_t)i * t->k + q];
          float bv = t->rb == 1 ? b[q] : t->tb ? b[bo + (size_t)j * t->k + q] : b[bo + (size_t)q * t->n + j];
          ref += (double)av * bv;
          mag += fabs((double)av * bv);
          acc = acc + av * bv;
        }
        ref *= t->alpha;
        mag *= fabs(t->alpha);
        if (t->alpha != 1.0f) acc = t->alpha * acc;
        if (t->has_c) {
          /* C's element: Y's index (batch, i, j) right-aligned onto C's dims. */
          uint32_t yidx[8];
          for (uint32_t d = 0; d < t->nb; d++) yidx[d] = bi[d];
          uint32_t r = t->nb;
          if (t->ra >= 2) yidx[r++] = i;
          if (t->rb >= 2) yidx[r++] = j;
          size_t co = 0;
          for (uint32_t d = 0; d < t->rc; d++) {
            uint32_t yd = yidx[t->ry - t->rc + d];
            co = co * t->cd[d] + (t->cd[d] == 1 ? 0 : yd);
          }
          ref += (double)t->beta * cv[co];
          mag += fabs((double)t->beta * cv[co]);
          acc = acc + (t->beta == 1.0f ? cv[co] : t->beta * cv[co]);
        }
        check_close(y[yi], ref, mag, 2.0 * (t->k + 3) * U, what, yi);
        check_bits(y[yi], acc, what, yi);
      }
  }
  assert_int_equal(yi, ny);
  free(a), free(b), free(cv), free(y);
}

/* A random case: ranks 1..4, broadcast batch dims, transposes, optional C. */
static mm_case rnd_matmul_case(void) {
  mm_case t;
  memset(&t, 0, sizeof t);
  t.ra = rnd_in(1, 4), t.rb = rnd_in(1, 4);
  uint32_t a_batch = t.ra > 2 ? t.ra - 2 : 0, b_batch = t.rb > 2 ? t.rb - 2 : 0;
  t.nb = a_batch > b_batch ? a_batch : b_batch;
  t.m = rnd_in(1, 6), t.n = rnd_in(1, 6), t.k = rnd_in(0, 9);
  t.ta = t.ra >= 2 && rnd() % 2, t.tb = t.rb >= 2 && rnd() % 2;
  uint32_t da[8], db[8];
  for (uint32_t i = 0; i < t.nb; i++) {
    uint32_t d = rnd_in(1, 3);
    da[i] = rnd() % 3 && i >= t.nb - a_batch ? d : 1; /* dims an operand lacks count as 1 */
    db[i] = rnd() % 3 && i >= t.nb - b_batch ? d : 1;
    t.yd[i] = da[i] > db[i] ? da[i] : db[i];
  }
  for (uint32_t i = 0; i < a_batch; i++) t.ad[i] = da[t.nb - a_batch + i];
  for (uint32_t i = 0; i < b_batch; i++) t.bd[i] = db[t.nb - b_batch + i];
  if (t.ra == 1) t.ad[0] = t.k;
  else t.ad[a_batch] = t.ta ? t.k : t.m, t.ad[a_batch + 1] = t.ta ? t.m : t.k;
  if (t.rb == 1) t.bd[0] = t.k;
  else t.bd[b_batch] = t.tb ? t.n : t.k, t.bd[b_batch + 1] = t.tb ? t.k : t.n;
  t.ry = t.nb;
  if (t.ra >= 2) t.yd[t.ry++] = t.m;
  else t.m = 1;
  if (t.rb >= 2) t.yd[t.ry++] = t.n;
  else t.n = 1;
  t.has_c = rnd() % 2;
  if (t.has_c) {
    t.rc = rnd_in(0, t.ry);
    for (uint32_t d = 0; d < t.rc; d++) t.cd[d] = rnd() % 2 ? t.yd[t.ry - t.rc + d] : 1;
  }
  t.alpha = rnd() % 3 ? rnd_float(-2.0f, 2.0f) : 1.0f;
  t.beta = rnd() % 3 ? rnd_float(-2.0f, 2.0f) : 1.0f;
  return t;
}

static void test_matmul_random(void **state) {
  (void)state;
  for (int i = 0; i < 4000; i++) {
    mm_case t = rnd_matmul_case();
    run_matmul_case(&t, "matmul");
  }
}

/* Gemm: rank 2, every transpose, C as [], [1], [N], [1,N], [M,1], [M,N], [1,1]. */
static void test_gemm_c_broadcast(void **state) {
  (void)state;
  for (int shape = 0; shape < 7; shape++)
    for (int tr = 0; tr < 4; tr++) {
      mm_case t;
      memset(&t, 0, sizeof t);
      t.ra = t.rb = t.ry = 2, t.m = 5, t.n = 4, t.k = 7, t.ta = tr & 1, t.tb = tr >> 1, t.has_c = 1;
      t.alpha = 0.75f, t.beta = shape == 3 ? 1.0f : -1.5f;
      t.ad[0] = t.ta ? t.k : t.m, t.ad[1] = t.ta ? t.m : t.k;
      t.bd[0] = t.tb ? t.n : t.k, t.bd[1] = t.tb ? t.k : t.n;
      t.yd[0] = t.m, t.yd[1] = t.n;
      static const uint32_t rc[7] = {0, 1, 1, 2, 2, 2, 2};
      static const uint32_t cd[7][2] = {{0, 0}, {1, 0}, {4, 0}, {1, 4}, {5, 1}, {5, 4}, {1, 1}};
      t.rc = rc[shape], t.cd[0] = cd[shape][0], t.cd[1] = cd[shape][1];
      run_matmul_case(&t, "gemm");
    }
}

/* 1-D operands: [K]@[K] is a scalar, [K]@[2,K,N] is [2,N], [2,M,K]@[K] is [2,M]. */
static void test_matmul_vectors(void **state) {
  (void)state;
  mm_case t;
  memset(&t, 0, sizeof t);
  t.ra = t.rb = 1, t.ry = 0, t.k = 6, t.ad[0] = t.bd[0] = 6, t.m = t.n = 1, t.alpha = t.beta = 1.0f;
  run_matmul_case(&t, "dot");
  memset(&t, 0, sizeof t);
  t.ra = 1, t.rb = 3, t.ry = 2, t.nb = 1, t.k = 5, t.m = 1, t.n = 3, t.alpha = t.beta = 1.0f;
  t.ad[0] = 5, t.bd[0] = 2, t.bd[1] = 5, t.bd[2] = 3, t.yd[0] = 2, t.yd[1] = 3;
  run_matmul_case(&t, "vector @ batch");
  memset(&t, 0, sizeof t);
  t.ra = 3, t.rb = 1, t.ry = 2, t.nb = 1, t.k = 5, t.m = 4, t.n = 1, t.alpha = t.beta = 1.0f;
  t.ad[0] = 2, t.ad[1] = 4, t.ad[2] = 5, t.bd[0] = 5, t.yd[0] = 2, t.yd[1] = 4;
  run_matmul_case(&t, "batch @ vector");

  /* The added dim stays out of Y: [K]@[K] into a [1] output is refused. */
  float a[3] = {1, 2, 3}, y[1] = {0};
  uint32_t k3[1] = {3}, one[1] = {1};
  tfw_tensor in[2] = {tens(a, TPKG_DT_F32, 1, k3), tens(a, TPKG_DT_F32, 1, k3)};
  tfw_tensor out = tens(y, TPKG_DT_F32, 1, one);
  int32_t ints[2] = {0, 0};
  float floats[2] = {1, 1};
  tfw_call c = {TPKG_OP_MATMUL, 2, 1, in, &out, ints, 2, floats, 2};
  assert_int_equal(tfw_k_matmul(&c), TFW_FB_E_SHAPE);
  out.rank = 0;
  assert_int_equal(tfw_k_matmul(&c), 0);
  assert_true(y[0] == 14.0f);
}

/* inf * 0 and a NaN operand with a payload both store 0x7fc00000. */
static void test_matmul_nan(void **state) {
  (void)state;
  float a[2] = {INFINITY, 1.0f}, b[2] = {0.0f, 1.0f}, y[2];
  uint32_t d12[2] = {1, 2}, d21[2] = {2, 1}, d11[2] = {1, 1};
  tfw_tensor in[2] = {tens(a, TPKG_DT_F32, 2, d12), tens(b, TPKG_DT_F32, 2, d21)};
  tfw_tensor out = tens(y, TPKG_DT_F32, 2, d11);
  int32_t ints[2] = {0, 0};
  float floats[2] = {1, 1};
  tfw_call c = {TPKG_OP_MATMUL, 2, 1, in, &out, ints, 2, floats, 2};
  assert_int_equal(tfw_k_matmul(&c), 0);
  assert_int_equal(bits(y[0]), 0x7fc00000u);
  a[0] = from_bits(0xffc12345u);
  b[0] = 1.0f;
  assert_int_equal(tfw_k_matmul(&c), 0);
  assert_int_equal(bits(y[0]), 0x7fc00000u);
}

/* ---- CONV and CONV_TRANSPOSE --------------------------------------------- */

typedef struct {
  uint32_t N, C, H, W, M, OH, OW, group;
  int32_t kh, kw, sy, sx, pt, pl, pb, pr, dy, dx;
  int has_bias;
} conv_case;

static void conv_ints(const conv_case *t, int32_t *v) {
  int32_t w[11] = {(int32_t)t->group, t->kh, t->kw, t->sy, t->sx, t->pt, t->pl, t->pb, t->pr, t->dy, t->dx};
  memcpy(v, w, sizeof w);
}

static conv_case rnd_conv_shape(int transpose) {
  conv_case t;
  memset(&t, 0, sizeof t);
  t.N = rnd_in(1, 2);
  uint32_t cg = rnd_in(1, 3), mg = rnd_in(1, 3);
  t.group = rnd_in(1, 3);
  if (rnd() % 4 == 0) cg = 1, mg = rnd_in(1, 2), t.group = rnd_in(2, 5); /* depthwise */
  t.C = t.group * cg, t.M = t.group * mg;
  t.kh = (int32_t)rnd_in(1, 4), t.kw = (int32_t)rnd_in(1, 4);
  t.sy = (int32_t)rnd_in(1, 3), t.sx = (int32_t)rnd_in(1, 3);
  t.dy = (int32_t)rnd_in(1, 3), t.dx = (int32_t)rnd_in(1, 3);
  t.pt = (int32_t)rnd_in(0, 3), t.pl = (int32_t)rnd_in(0, 3), t.pb = (int32_t)rnd_in(0, 3), t.pr = (int32_t)rnd_in(0, 3);
  t.H = rnd_in(1, transpose ? 5 : 9), t.W = rnd_in(1, transpose ? 5 : 9);
  if (rnd() % 5 == 0) t.H = 1, t.kh = 1, t.pt = t.pb = 0, t.sy = 1, t.dy = 1; /* 1-D */
  t.has_bias = rnd() % 3 != 0;
  return t;
}

/* Input size (at least 1) for which the dilated kernel fits the padded input. */
static uint32_t fit(uint32_t in, int32_t k, int32_t d, int32_t p0, int32_t p1) {
  int32_t need = d * (k - 1) + 1 - p0 - p1;
  return (int32_t)in < need ? (uint32_t)need : in;
}

static void run_conv_case(conv_case t) {
  t.H = fit(t.H, t.kh, t.dy, t.pt, t.pb), t.W = fit(t.W, t.kw, t.dx, t.pl, t.pr);
  t.OH = (t.H + t.pt + t.pb - t.dy * (t.kh - 1) - 1) / t.sy + 1;
  t.OW = (t.W + t.pl + t.pr - t.dx * (t.kw - 1) - 1) / t.sx + 1;
  uint32_t cg = t.C / t.group, mg = t.M / t.group;
  uint32_t xd[4] = {t.N, t.C, t.H, t.W}, wd[4] = {t.M, cg, (uint32_t)t.kh, (uint32_t)t.kw}, bd[1] = {t.M};
  uint32_t yd[4] = {t.N, t.M, t.OH, t.OW};
  size_t ny = count(4, yd);
  float *x = rnd_floats(count(4, xd)), *w = rnd_floats(count(4, wd)), *bias = rnd_floats(t.M);
  float *y = malloc(ny * sizeof *y);
  assert_non_null(y);
  tfw_tensor in[3] = {tens(x, TPKG_DT_F32, 4, xd), tens(w, TPKG_DT_F32, 4, wd), tens(bias, TPKG_DT_F32, 1, bd)};
  tfw_tensor out = tens(y, TPKG_DT_F32, 4, yd);
  int32_t ints[11];
  conv_ints(&t, ints);
  tfw_call c = {TPKG_OP_CONV, t.has_bias ? 3u : 2u, 1, in, &out, ints, 11, 0, 0};
  assert_int_equal(tfw_k_conv(&c), 0);
  size_t yi = 0;
  for (uint32_t n = 0; n < t.N; n++)
    for (uint32_t m = 0; m < t.M; m++)
      for (uint32_t oy = 0; oy < t.OH; oy++)
        for (uint32_t ox = 0; ox < t.OW; ox++, yi++) {
          float acc = t.has_bias ? bias[m] : 0.0f;
          double ref = acc, mag = fabs(ref);
          uint32_t taps = 0;
          for (uint32_t ci = 0; ci < cg; ci++)
            for (int32_t ky = 0; ky < t.kh; ky++)
              for (int32_t kx = 0; kx < t.kw; kx++) {
                int32_t iy = (int32_t)oy * t.sy - t.pt + ky * t.dy, ix = (int32_t)ox * t.sx - t.pl + kx * t.dx;
                if (iy < 0 || iy >= (int32_t)t.H || ix < 0 || ix >= (int32_t)t.W) continue;
                uint32_t cc = (m / mg) * cg + ci;
                float xv = x[((n * t.C + cc) * t.H + iy) * t.W + ix];
                float wv = w[((m * cg + ci) * t.kh + ky) * t.kw + kx];
                ref += (double)xv * wv, mag += fabs((double)xv * wv), taps++;
                acc = acc + xv * wv;
              }
          check_close(y[yi], ref, mag, 2.0 * (taps + 2) * U, "conv", yi);
          check_bits(y[yi], acc, "conv", yi);
        }
  free(x), free(w), free(bias), free(y);
}

static void test_conv_random(void **state) {
  (void)state;
  for (int i = 0; i < 2000; i++) run_conv_case(rnd_conv_shape(0));
}

static void run_conv_transpose_case(conv_case t) {
  int32_t opy = (int32_t)rnd_in(0, (uint32_t)t.sy - 1), opx = (int32_t)rnd_in(0, (uint32_t)t.sx - 1);
  int32_t oh = t.sy * ((int32_t)t.H - 1) + t.dy * (t.kh - 1) + 1 - t.pt - t.pb + opy;
  int32_t ow = t.sx * ((int32_t)t.W - 1) + t.dx * (t.kw - 1) + 1 - t.pl - t.pr + opx;
  if (oh < 1) t.pt = t.pb = 0, oh = t.sy * ((int32_t)t.H - 1) + t.dy * (t.kh - 1) + 1 + opy;
  if (ow < 1) t.pl = t.pr = 0, ow = t.sx * ((int32_t)t.W - 1) + t.dx * (t.kw - 1) + 1 + opx;
  t.OH = (uint32_t)oh, t.OW = (uint32_t)ow;
  uint32_t cg = t.C / t.group, mg = t.M / t.group;
  uint32_t xd[4] = {t.N, t.C, t.H, t.W}, wd[4] = {t.C, mg, (uint32_t)t.kh, (uint32_t)t.kw}, bd[1] = {t.M};
  uint32_t yd[4] = {t.N, t.M, t.OH, t.OW};
  size_t ny = count(4, yd);
  float *x = rnd_floats(count(4, xd)), *w = rnd_floats(count(4, wd)), *bias = rnd_floats(t.M);
  float *y = malloc(ny * sizeof *y);
  double *ref = calloc(ny, sizeof *ref), *mag = calloc(ny, sizeof *mag);
  uint32_t *taps = calloc(ny, sizeof *taps);
  assert_true(y && ref && mag && taps);
  tfw_tensor in[3] = {tens(x, TPKG_DT_F32, 4, xd), tens(w, TPKG_DT_F32, 4, wd), tens(bias, TPKG_DT_F32, 1, bd)};
  tfw_tensor out = tens(y, TPKG_DT_F32, 4, yd);
  int32_t ints[11];
  conv_ints(&t, ints);
  tfw_call c = {TPKG_OP_CONV_TRANSPOSE, t.has_bias ? 3u : 2u, 1, in, &out, ints, 11, 0, 0};
  assert_int_equal(tfw_k_conv_transpose(&c), 0);

  /* The double reference scatters every input tap to its output. */
  for (uint32_t n = 0; n < t.N; n++)
    for (uint32_t m = 0; m < t.M; m++) {
      size_t yb = (size_t)(n * t.M + m) * t.OH * t.OW;
      for (size_t i = 0; i < (size_t)t.OH * t.OW; i++) ref[yb + i] = t.has_bias ? bias[m] : 0.0, mag[yb + i] = fabs(ref[yb + i]);
      for (uint32_t ci = 0; ci < cg; ci++) {
        uint32_t cc = (m / mg) * cg + ci;
        for (uint32_t iy = 0; iy < t.H; iy++)
          for (uint32_t ix = 0; ix < t.W; ix++)
            for (int32_t ky = 0; ky < t.kh; ky++)
              for (int32_t kx = 0; kx < t.kw; kx++) {
                int32_t oy = (int32_t)iy * t.sy - t.pt + ky * t.dy, ox = (int32_t)ix * t.sx - t.pl + kx * t.dx;
                if (oy < 0 || oy >= (int32_t)t.OH || ox < 0 || ox >= (int32_t)t.OW) continue;
                double v = (double)x[((n * t.C + cc) * t.H + iy) * t.W + ix] *
                           w[((cc * mg + m % mg) * t.kh + ky) * t.kw + kx];
                ref[yb + (size_t)oy * t.OW + ox] += v, mag[yb + (size_t)oy * t.OW + ox] += fabs(v);
                taps[yb + (size_t)oy * t.OW + ox]++;
              }
      }
    }
  /* The f32 model gathers in the documented order: c, ky, kx ascending. */
  size_t yi = 0;
  for (uint32_t n = 0; n < t.N; n++)
    for (uint32_t m = 0; m < t.M; m++)
      for (uint32_t oy = 0; oy < t.OH; oy++)
        for (uint32_t ox = 0; ox < t.OW; ox++, yi++) {
          float acc = t.has_bias ? bias[m] : 0.0f;
          for (uint32_t ci = 0; ci < cg; ci++)
            for (int32_t ky = 0; ky < t.kh; ky++)
              for (int32_t kx = 0; kx < t.kw; kx++) {
                int32_t ty = (int32_t)oy + t.pt - ky * t.dy, tx = (int32_t)ox + t.pl - kx * t.dx;
                if (ty < 0 || tx < 0 || ty % t.sy || tx % t.sx) continue;
                int32_t iy = ty / t.sy, ix = tx / t.sx;
                if (iy >= (int32_t)t.H || ix >= (int32_t)t.W) continue;
                uint32_t cc = (m / mg) * cg + ci;
                acc = acc + x[((n * t.C + cc) * t.H + iy) * t.W + ix] *
                                w[((cc * mg + m % mg) * t.kh + ky) * t.kw + kx];
              }
          check_close(y[yi], ref[yi], mag[yi], 2.0 * (taps[yi] + 2) * U, "conv transpose", yi);
          check_bits(y[yi], acc, "conv transpose", yi);
        }
  free(x), free(w), free(bias), free(y), free(ref), free(mag), free(taps);
}

static void test_conv_transpose_random(void **state) {
  (void)state;
  for (int i = 0; i < 2000; i++) run_conv_transpose_case(rnd_conv_shape(1));
  /* Strides and dilations sharing a factor (the gather's step is s/gcd(s,d)). */
  for (int i = 0; i < 300; i++) {
    conv_case t = rnd_conv_shape(1);
    t.sy = t.dy = (int32_t)rnd_in(2, 4), t.sx = 2 * (int32_t)rnd_in(1, 2), t.dx = 2 * (int32_t)rnd_in(1, 3);
    t.kh = (int32_t)rnd_in(2, 6), t.kw = (int32_t)rnd_in(2, 6);
    run_conv_transpose_case(t);
  }
}

/* ---- POOL ---------------------------------------------------------------- */

typedef struct {
  int32_t kind, cip;
  float p;
  uint32_t dtype, N, C, H, W, OH, OW;
  int32_t kh, kw, sy, sx, pt, pl, pb, pr, dy, dx;
} pool_case;

static void pool_ints(const pool_case *t, int32_t *v) {
  int32_t w[12] = {t->kind, t->kh, t->kw, t->sy, t->sx, t->pt, t->pl, t->pb, t->pr, t->dy, t->dx, t->cip};
  memcpy(v, w, sizeof w);
}

static double read_x(const void *x, uint32_t dtype, size_t i) {
  if (dtype == TPKG_DT_I8) return ((const int8_t *)x)[i];
  if (dtype == TPKG_DT_U8) return ((const uint8_t *)x)[i];
  return ((const float *)x)[i];
}

static void run_pool_case(pool_case t) {
  uint32_t xd[4] = {t.N, t.C, t.H, t.W}, yd[4] = {t.N, t.C, t.OH, t.OW};
  size_t nx = count(4, xd), ny = count(4, yd), sz = t.dtype == TPKG_DT_F32 ? 4 : 1;
  void *x = malloc(nx * sz + 1), *y = malloc(ny * sz + 1);
  assert_true(x && y);
  for (size_t i = 0; i < nx; i++) {
    if (sz == 4) ((float *)x)[i] = rnd_float(-2.0f, 2.0f);
    else ((uint8_t *)x)[i] = (uint8_t)rnd();
  }
  tfw_tensor in = tens(x, t.dtype, 4, xd), out = tens(y, t.dtype, 4, yd);
  int32_t ints[12];
  pool_ints(&t, ints);
  tfw_call c = {TPKG_OP_POOL, 1, 1, &in, &out, ints, 12, &t.p, 1};
  assert_int_equal(tfw_k_pool(&c), 0);
  size_t yi = 0;
  for (uint32_t pl = 0; pl < t.N * t.C; pl++)
    for (uint32_t oy = 0; oy < t.OH; oy++)
      for (uint32_t ox = 0; ox < t.OW; ox++, yi++) {
        double ref = t.kind == 0 ? -INFINITY : 0, mag = 0;
        float acc = t.kind == 0 ? -INFINITY : 0.0f;
        uint32_t in_image = 0, in_padded = 0;
        for (int32_t ky = 0; ky < t.kh; ky++)
          for (int32_t kx = 0; kx < t.kw; kx++) {
            int32_t iy = (int32_t)oy * t.sy - t.pt + ky * t.dy, ix = (int32_t)ox * t.sx - t.pl + kx * t.dx;
            if (iy < (int32_t)t.H + t.pb && ix < (int32_t)t.W + t.pr) in_padded++;
            if (iy < 0 || iy >= (int32_t)t.H || ix < 0 || ix >= (int32_t)t.W) continue;
            in_image++;
            size_t xi = (size_t)pl * t.H * t.W + (size_t)iy * t.W + ix;
            double v = read_x(x, t.dtype, xi);
            float f = (float)v;
            if (t.kind == 0) {
              if (v > ref) ref = v;
              if (f > acc) acc = f;
            } else if (t.kind == 1) {
              ref += v, mag += fabs(v), acc = acc + f;
            } else {
              ref += pow(fabs(v), t.p), mag += pow(fabs(v), t.p);
              acc = acc + (t.p == 1.0f ? fabsf(f) : t.p == 2.0f ? f * f : tfw_powf(fabsf(f), t.p));
            }
          }
        if (t.kind == 1) {
          uint32_t n = t.cip ? in_padded : in_image;
          ref /= n, mag /= n;
          acc = n ? acc / (float)n : NAN;
        } else if (t.kind == 2) {
          ref = pow(ref, 1.0 / t.p), mag = pow(mag, 1.0 / t.p);
          if (t.p != 1.0f) acc = t.p == 2.0f ? tfw_sqrtf(acc) : tfw_powf(acc, 1.0f / t.p);
        }
        if (t.dtype != TPKG_DT_F32) {
          double lowest = t.dtype == TPKG_DT_I8 ? -128 : 0;
          assert_true(read_x(y, t.dtype, yi) == (in_image ? ref : lowest));
          continue;
        }
        float got = ((float *)y)[yi];
        if (t.kind == 0 || (t.kind == 1 && in_image)) {
          assert_true(isinf(ref) ? got == (float)ref : fabs(got - ref) <= 2.0 * (in_image + 2) * U * mag + 1e-30);
        } else if (t.kind == 2) {
          check_close(got, ref, mag, 1e-5, "lp pool", yi);
        }
        check_bits(got, canon(acc), "pool", yi);
      }
  free(x), free(y);
}

static void test_pool_random(void **state) {
  (void)state;
  static const float ps[4] = {1.0f, 2.0f, 3.0f, 1.5f};
  for (int i = 0; i < 5000; i++) {
    pool_case t;
    memset(&t, 0, sizeof t);
    t.kind = (int32_t)rnd_in(0, 2), t.cip = (int32_t)rnd_in(0, 1), t.p = ps[rnd() % 4];
    t.dtype = TPKG_DT_F32;
    if (t.kind == 0 && rnd() % 3 == 0) t.dtype = rnd() % 2 ? TPKG_DT_I8 : TPKG_DT_U8;
    t.N = rnd_in(1, 2), t.C = rnd_in(1, 3);
    t.kh = (int32_t)rnd_in(1, 4), t.kw = (int32_t)rnd_in(1, 4);
    t.sy = (int32_t)rnd_in(1, 3), t.sx = (int32_t)rnd_in(1, 3);
    t.dy = (int32_t)rnd_in(1, 2), t.dx = (int32_t)rnd_in(1, 2);
    t.pt = (int32_t)rnd_in(0, 2), t.pl = (int32_t)rnd_in(0, 2), t.pb = (int32_t)rnd_in(0, 2), t.pr = (int32_t)rnd_in(0, 2);
    t.H = rnd_in(1, 9), t.W = rnd_in(1, 9);
    if (rnd() % 5 == 0) t.H = 1, t.kh = 1, t.pt = t.pb = 0, t.sy = 1, t.dy = 1; /* 1-D */
    t.H = fit(t.H, t.kh, t.dy, t.pt, t.pb), t.W = fit(t.W, t.kw, t.dx, t.pl, t.pr);
    int32_t numy = (int32_t)t.H + t.pt + t.pb - t.dy * (t.kh - 1) - 1;
    int32_t numx = (int32_t)t.W + t.pl + t.pr - t.dx * (t.kw - 1) - 1;
    int ceil_mode = rnd() % 2;
    t.OH = (uint32_t)((numy + (ceil_mode ? t.sy - 1 : 0)) / t.sy + 1);
    t.OW = (uint32_t)((numx + (ceil_mode ? t.sx - 1 : 0)) / t.sx + 1);
    run_pool_case(t);
  }
}

/* One pooling call on a [1,1,H,W] f32 input: ints are the 12 parameters. */
static int pool1(const float *x, uint32_t H, uint32_t W, float *y, uint32_t OH, uint32_t OW, const int32_t *ints,
                 float p) {
  uint32_t xd[4] = {1, 1, H, W}, yd[4] = {1, 1, OH, OW};
  tfw_tensor in = tens((void *)x, TPKG_DT_F32, 4, xd), out = tens(y, TPKG_DT_F32, 4, yd);
  tfw_call c = {TPKG_OP_POOL, 1, 1, &in, &out, ints, 12, &p, 1};
  return tfw_k_pool(&c);
}

/* Windows wholly in the padding, NaN taps, and ceil_mode's taps beyond the
 * padded extent, as tfw_ops.h defines them. */
static void test_pool_edges(void **state) {
  (void)state;
  /* x [1,1,1,1], 1x1 window, pads top/left 1: outputs (0,0), (0,1), (1,0) are empty. */
  float x1[1] = {-5.0f}, y[4];
  int32_t mx[12] = {0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0};
  assert_int_equal(pool1(x1, 1, 1, y, 2, 2, mx, 0), 0);
  for (int i = 0; i < 3; i++) assert_true(isinf(y[i]) && y[i] < 0);
  assert_true(y[3] == -5.0f);
  int32_t avg0[12] = {1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0}, avg1[12] = {1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1};
  assert_int_equal(pool1(x1, 1, 1, y, 2, 2, avg0, 0), 0);
  for (int i = 0; i < 3; i++) assert_int_equal(bits(y[i]), 0x7fc00000u);
  assert_int_equal(pool1(x1, 1, 1, y, 2, 2, avg1, 0), 0);
  for (int i = 0; i < 3; i++) assert_int_equal(bits(y[i]), 0); /* +0 / 1 */
  int32_t lp[12] = {2, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0};
  assert_int_equal(pool1(x1, 1, 1, y, 2, 2, lp, 3.0f), 0);
  for (int i = 0; i < 3; i++) assert_int_equal(bits(y[i]), 0);

  /* i8 / u8 empty windows give the dtype's minimum. */
  for (int s = 0; s < 2; s++) {
    uint8_t xb[1] = {0x85}, yb[4];
    uint32_t xd[4] = {1, 1, 1, 1}, yd[4] = {1, 1, 2, 2};
    uint32_t dt = s ? TPKG_DT_I8 : TPKG_DT_U8;
    tfw_tensor in = tens(xb, dt, 4, xd), out = tens(yb, dt, 4, yd);
    float p = 0;
    tfw_call c = {TPKG_OP_POOL, 1, 1, &in, &out, mx, 12, &p, 1};
    assert_int_equal(tfw_k_pool(&c), 0);
    for (int i = 0; i < 3; i++) assert_int_equal(yb[i], s ? 0x80 : 0x00);
    assert_int_equal(yb[3], 0x85);
  }

  /* A NaN tap (payload, either sign) makes the max the quiet NaN; the first
   * of equal values wins (-0 before +0). */
  float x4[4] = {1.0f, from_bits(0xffc12345u), -0.0f, 0.0f};
  int32_t mx12[12] = {0, 1, 2, 1, 2, 0, 0, 0, 0, 1, 1, 0};
  assert_int_equal(pool1(x4, 2, 2, y, 2, 1, mx12, 0), 0);
  assert_int_equal(bits(y[0]), 0x7fc00000u);
  assert_int_equal(bits(y[1]), 0x80000000u);
  assert_int_equal(pool1(x4, 2, 2, y, 2, 1, avg0, 0), TFW_FB_E_SHAPE); /* 1x1 window, pads 1: OH is 3 */

  /* 1-D avg over W=5, window 2, stride 2, ceil_mode: the last window [4, 6)
   * has one tap in the image and none in padding: both modes divide by 1. */
  float x5[5] = {1, 2, 3, 4, 8};
  int32_t ac0[12] = {1, 1, 2, 1, 2, 0, 0, 0, 0, 1, 1, 0}, ac1[12] = {1, 1, 2, 1, 2, 0, 0, 0, 0, 1, 1, 1};
  assert_int_equal(pool1(x5, 1, 5, y, 1, 3, ac0, 0), 0);
  assert_true(y[0] == 1.5f && y[1] == 3.5f && y[2] == 8.0f);
  assert_int_equal(pool1(x5, 1, 5, y, 1, 3, ac1, 0), 0);
  assert_true(y[0] == 1.5f && y[1] == 3.5f && y[2] == 8.0f);
  /* With a right pad of 1 the last window's second tap is padding: it counts
   * only under count_include_pad (floor and ceil sizes are both 3). */
  int32_t ap1[12] = {1, 1, 2, 1, 2, 0, 0, 0, 1, 1, 1, 1};
  assert_int_equal(pool1(x5, 1, 5, y, 1, 3, ap1, 0), 0);
  assert_true(y[2] == 4.0f);
  ap1[11] = 0;
  assert_int_equal(pool1(x5, 1, 5, y, 1, 3, ap1, 0), 0);
  assert_true(y[2] == 8.0f);
  /* The floor and ceil sizes are accepted, nothing else. */
  assert_int_equal(pool1(x5, 1, 5, y, 1, 2, ac0, 0), 0);
  assert_int_equal(pool1(x5, 1, 5, y, 1, 4, ac0, 0), TFW_FB_E_SHAPE);
  assert_int_equal(pool1(x5, 1, 5, y, 1, 1, ac0, 0), TFW_FB_E_SHAPE);
}

/* Empty outputs run (and write nothing, without a loop over their other
 * dims): x [1,1,2^29,0] transposed has OH = 2^29 and OW = 0.  A dim above
 * 2^29 is refused even in an empty operand. */
static void test_empty_outputs(void **state) {
  (void)state;
  float x[1] = {1}, w[1] = {2}, y[1] = {7};
  uint32_t xd[4] = {1, 1, 1u << 29, 0}, wd[4] = {1, 1, 1, 1}, yd[4] = {1, 1, 1u << 29, 0};
  tfw_tensor in[2] = {tens(x, TPKG_DT_F32, 4, xd), tens(w, TPKG_DT_F32, 4, wd)};
  tfw_tensor out = tens(y, TPKG_DT_F32, 4, yd);
  int32_t ints[11] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1};
  tfw_call c = {TPKG_OP_CONV_TRANSPOSE, 2, 1, in, &out, ints, 11, 0, 0};
  assert_int_equal(tfw_k_conv_transpose(&c), 0);
  out.dims[2] = (1u << 29) - 1; /* one below the smallest size */
  assert_int_equal(tfw_k_conv_transpose(&c), TFW_FB_E_SHAPE);
  in[0].dims[2] = 0xffffffffu, out.dims[2] = 0xffffffffu;
  assert_int_equal(tfw_k_conv_transpose(&c), TFW_FB_E_SHAPE);
  in[0].dims[2] = 1u << 29, out.dims[2] = 1u << 29;
  /* Conv to no output channels, pooling of no images, a [0,3] @ [3,2] product. */
  uint32_t xd2[4] = {1, 1, 2, 2}, wd2[4] = {0, 1, 1, 1}, yd2[4] = {1, 0, 2, 2};
  in[0] = tens(x, TPKG_DT_F32, 4, xd2), in[1] = tens(w, TPKG_DT_F32, 4, wd2), out = tens(y, TPKG_DT_F32, 4, yd2);
  c.op = TPKG_OP_CONV;
  ints[3] = 1;
  assert_int_equal(tfw_k_conv(&c), 0);
  uint32_t xd3[4] = {0, 3, 4, 4}, yd3[4] = {0, 3, 4, 4};
  int32_t pints[12] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0};
  float p = 0;
  tfw_tensor pin = tens(x, TPKG_DT_F32, 4, xd3), pout = tens(y, TPKG_DT_F32, 4, yd3);
  tfw_call pc = {TPKG_OP_POOL, 1, 1, &pin, &pout, pints, 12, &p, 1};
  assert_int_equal(tfw_k_pool(&pc), 0);
  uint32_t ad[2] = {0, 3}, bd[2] = {3, 2}, ydm[2] = {0, 2};
  in[0] = tens(x, TPKG_DT_F32, 2, ad), in[1] = tens(w, TPKG_DT_F32, 2, bd), out = tens(y, TPKG_DT_F32, 2, ydm);
  int32_t mints[2] = {0, 0};
  float mf[2] = {1, 1};
  tfw_call mc = {TPKG_OP_MATMUL, 2, 1, in, &out, mints, 2, mf, 2};
  assert_int_equal(tfw_k_matmul(&mc), 0);
  assert_true(y[0] == 7.0f);
}

/* ---- bad calls ----------------------------------------------------------- */

/* A call with its own operands and parameters, copied and spoiled one field
 * at a time; bind() points the call at the copy's arrays. */
typedef struct {
  tfw_tensor in[3], out;
  int32_t ints[12];
  float floats[2];
  tfw_call c;
} fixture;

static void bind(fixture *f) {
  f->c.in = f->in;
  f->c.out = &f->out;
  f->c.ints = f->ints;
  f->c.floats = f->floats;
}

static float in_buf[3][4096];
static union {
  float f[4097];
  uint8_t b[4097 * 4];
} out_buf;

static int (*kernel_of(uint32_t op))(const tfw_call *) {
  return op == TPKG_OP_MATMUL ? tfw_k_matmul
       : op == TPKG_OP_CONV   ? tfw_k_conv
       : op == TPKG_OP_CONV_TRANSPOSE ? tfw_k_conv_transpose
                                      : tfw_k_pool;
}

/* Runs a copy of f0 and requires `code` and the output buffer untouched. */
static void expect_error(const fixture *f0, int code, const char *what, int line) {
  fixture f = *f0;
  bind(&f);
  memset(out_buf.b, 0x5a, sizeof out_buf.b);
  int got = kernel_of(f.c.op)(&f.c);
  if (got != code) {
    print_error("line %d, %s: got %d, want %d\n", line, what, got, code);
    fail();
  }
  for (size_t i = 0; i < sizeof out_buf.b; i++)
    if (out_buf.b[i] != 0x5a) {
      print_error("line %d, %s: output byte %zu written\n", line, what, i);
      fail();
    }
}
#define BAD(f, code, what) expect_error(&(f), code, what, __LINE__)

static tfw_tensor t4(void *d, uint32_t dt, uint32_t a, uint32_t b, uint32_t c, uint32_t e) {
  uint32_t dims[4] = {a, b, c, e};
  return tens(d, dt, 4, dims);
}

static void base_ok(const fixture *f0) {
  fixture f = *f0;
  bind(&f);
  assert_int_equal(kernel_of(f.c.op)(&f.c), 0);
}

static void test_matmul_errors(void **state) {
  (void)state;
  fixture b;
  memset(&b, 0, sizeof b);
  uint32_t ad[3] = {2, 3, 4}, bd[3] = {2, 4, 5}, yd[3] = {2, 3, 5}, cd[1] = {5};
  b.in[0] = tens(in_buf[0], TPKG_DT_F32, 3, ad), b.in[1] = tens(in_buf[1], TPKG_DT_F32, 3, bd);
  b.in[2] = tens(in_buf[2], TPKG_DT_F32, 1, cd), b.out = tens(out_buf.f, TPKG_DT_F32, 3, yd);
  b.floats[0] = b.floats[1] = 1.0f;
  b.c = (tfw_call){TPKG_OP_MATMUL, 3, 1, 0, 0, 0, 2, 0, 2};
  base_ok(&b);
  fixture f;
  f = b, f.c.n_ints = 1, BAD(f, TFW_FB_E_PARAM, "one int");
  f = b, f.c.n_floats = 3, BAD(f, TFW_FB_E_PARAM, "three floats");
  f = b, f.c.n_in = 1, BAD(f, TFW_FB_E_SHAPE, "one input");
  f = b, f.c.n_in = 4, BAD(f, TFW_FB_E_SHAPE, "four inputs");
  f = b, f.c.n_out = 2, BAD(f, TFW_FB_E_SHAPE, "two outputs");
  f = b, f.in[0].dtype = TPKG_DT_I8, BAD(f, TFW_FB_E_DTYPE, "i8 A");
  f = b, f.in[2].dtype = TPKG_DT_I32, BAD(f, TFW_FB_E_DTYPE, "i32 C");
  f = b, f.out.dtype = TPKG_DT_U8, BAD(f, TFW_FB_E_DTYPE, "u8 Y");
  f = b, f.in[1].data = 0, BAD(f, TFW_FB_E_ARG, "NULL B");
  f = b, f.in[1].data = (uint8_t *)in_buf[1] + 2, BAD(f, TFW_FB_E_ARG, "misaligned B");
  f = b, f.in[0].dims[2] = 5, BAD(f, TFW_FB_E_SHAPE, "K differs");
  f = b, f.in[0].dims[0] = 3, BAD(f, TFW_FB_E_SHAPE, "batch 3 vs 2");
  f = b, f.out.dims[0] = 1, BAD(f, TFW_FB_E_SHAPE, "Y batch");
  f = b, f.out.dims[1] = 4, BAD(f, TFW_FB_E_SHAPE, "Y rows");
  f = b, f.out.dims[2] = 4, BAD(f, TFW_FB_E_SHAPE, "Y cols");
  f = b, f.out.rank = 2, f.out.dims[0] = 3, f.out.dims[1] = 5, BAD(f, TFW_FB_E_SHAPE, "Y rank");
  f = b, f.in[2].dims[0] = 3, BAD(f, TFW_FB_E_SHAPE, "C not broadcastable");
  f = b, f.in[2].rank = 4, f.in[2].dims[0] = f.in[2].dims[1] = f.in[2].dims[2] = f.in[2].dims[3] = 1,
  BAD(f, TFW_FB_E_SHAPE, "C rank above Y's");
  f = b, f.ints[0] = 2, BAD(f, TFW_FB_E_PARAM, "trans_a 2");
  f = b, f.ints[1] = -1, BAD(f, TFW_FB_E_PARAM, "trans_b -1");
  f = b, f.in[1].rank = 1, f.in[1].dims[0] = 4, f.ints[1] = 1, f.out.rank = 2, BAD(f, TFW_FB_E_PARAM, "1-D B transposed");
  f = b, f.in[0].rank = 0, BAD(f, TFW_FB_E_SHAPE, "scalar A");
  f = b, f.in[0].rank = 9, BAD(f, TFW_FB_E_SHAPE, "rank 9");
  f = b, f.in[0].dims[0] = 1u << 30, BAD(f, TFW_FB_E_SHAPE, "2^32 elements");
}

static void test_conv_errors(void **state) {
  (void)state;
  for (int tr = 0; tr < 2; tr++) {
    fixture b;
    memset(&b, 0, sizeof b);
    uint32_t op = tr ? TPKG_OP_CONV_TRANSPOSE : TPKG_OP_CONV;
    /* conv: x [1,4,5,5], w [6,2,3,3] group 2, pads 1, stride 1: y [1,6,5,5].
     * transpose: x [1,4,5,5], w [4,3,3,3] group 2, stride 2, pads 1: y [1,6,9..10,9..10]. */
    b.in[0] = t4(in_buf[0], TPKG_DT_F32, 1, 4, 5, 5);
    b.in[1] = tr ? t4(in_buf[1], TPKG_DT_F32, 4, 3, 3, 3) : t4(in_buf[1], TPKG_DT_F32, 6, 2, 3, 3);
    uint32_t bd[1] = {6};
    b.in[2] = tens(in_buf[2], TPKG_DT_F32, 1, bd);
    b.out = tr ? t4(out_buf.f, TPKG_DT_F32, 1, 6, 10, 9) : t4(out_buf.f, TPKG_DT_F32, 1, 6, 5, 5);
    int32_t ints[11] = {2, 3, 3, tr ? 2 : 1, tr ? 2 : 1, 1, 1, 1, 1, 1, 1};
    memcpy(b.ints, ints, sizeof ints);
    b.c = (tfw_call){op, 3, 1, 0, 0, 0, 11, 0, 0};
    base_ok(&b);
    fixture f;
    f = b, f.c.n_ints = 10, BAD(f, TFW_FB_E_PARAM, "10 ints");
    f = b, f.c.n_floats = 1, BAD(f, TFW_FB_E_PARAM, "a float");
    f = b, f.c.n_in = 1, BAD(f, TFW_FB_E_SHAPE, "no weights");
    f = b, f.in[0].dtype = TPKG_DT_U8, BAD(f, TFW_FB_E_DTYPE, "u8 x");
    f = b, f.in[2].dtype = TPKG_DT_I32, BAD(f, TFW_FB_E_DTYPE, "i32 bias");
    f = b, f.ints[0] = 0, BAD(f, TFW_FB_E_PARAM, "group 0");
    f = b, f.ints[0] = 3, BAD(f, TFW_FB_E_SHAPE, "group 3 does not divide 4 channels");
    f = b, f.ints[0] = 4, BAD(f, TFW_FB_E_SHAPE, "group 4 does not divide 6 outputs");
    f = b, f.ints[3] = 0, BAD(f, TFW_FB_E_PARAM, "stride 0");
    f = b, f.ints[10] = 0, BAD(f, TFW_FB_E_PARAM, "dilation 0");
    f = b, f.ints[7] = -1, BAD(f, TFW_FB_E_PARAM, "pad -1");
    f = b, f.ints[2] = 65537, BAD(f, TFW_FB_E_PARAM, "kernel 65537");
    f = b, f.ints[1] = 2, BAD(f, TFW_FB_E_SHAPE, "kh differs from w");
    f = b, f.in[1].dims[1] = 1, BAD(f, TFW_FB_E_SHAPE, "w's second dim");
    f = b, f.in[1].dims[0] = 5, BAD(f, TFW_FB_E_SHAPE, "w's first dim");
    f = b, f.in[2].dims[0] = 5, BAD(f, TFW_FB_E_SHAPE, "bias size");
    f = b, f.in[2].rank = 2, f.in[2].dims[1] = 1, BAD(f, TFW_FB_E_SHAPE, "bias rank 2");
    f = b, f.in[0].rank = 3, BAD(f, TFW_FB_E_SHAPE, "x rank 3");
    f = b, f.out.dims[0] = 2, BAD(f, TFW_FB_E_SHAPE, "batch differs");
    f = b, f.out.dims[1] = 8, BAD(f, TFW_FB_E_SHAPE, "y channels");
    f = b, f.out.dims[2] += 1, BAD(f, TFW_FB_E_SHAPE, "OH one too many");
    f = b, f.out.dims[3] -= 1, BAD(f, TFW_FB_E_SHAPE, "OW one too few");
    f = b, f.ints[9] = 4, BAD(f, TFW_FB_E_SHAPE, "dilated kernel changes OH");
    f = b, f.in[0].data = 0, BAD(f, TFW_FB_E_ARG, "NULL x");
  }
  /* A dilated kernel wider than the padded input. */
  fixture b;
  memset(&b, 0, sizeof b);
  b.in[0] = t4(in_buf[0], TPKG_DT_F32, 1, 1, 1, 3);
  b.in[1] = t4(in_buf[1], TPKG_DT_F32, 1, 1, 1, 3);
  b.out = t4(out_buf.f, TPKG_DT_F32, 1, 1, 1, 1);
  int32_t ints[11] = {1, 1, 3, 1, 1, 0, 0, 0, 0, 1, 2};
  memcpy(b.ints, ints, sizeof ints);
  b.c = (tfw_call){TPKG_OP_CONV, 2, 1, 0, 0, 0, 11, 0, 0};
  BAD(b, TFW_FB_E_SHAPE, "kernel extent 5 over 3");
  b.ints[6] = 2, base_ok(&b); /* a left pad of 2 makes it fit */
  /* A NULL call. */
  assert_int_equal(tfw_k_conv(0), TFW_FB_E_ARG);
  assert_int_equal(tfw_k_conv_transpose(0), TFW_FB_E_ARG);
  assert_int_equal(tfw_k_matmul(0), TFW_FB_E_ARG);
  assert_int_equal(tfw_k_pool(0), TFW_FB_E_ARG);
}

static void test_pool_errors(void **state) {
  (void)state;
  fixture b;
  memset(&b, 0, sizeof b);
  /* x [1,2,5,5], 3x3 window, stride 2, pads 1: y [1,2,3,3]. */
  b.in[0] = t4(in_buf[0], TPKG_DT_F32, 1, 2, 5, 5);
  b.out = t4(out_buf.f, TPKG_DT_F32, 1, 2, 3, 3);
  int32_t ints[12] = {1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
  memcpy(b.ints, ints, sizeof ints);
  b.floats[0] = 2.0f;
  b.c = (tfw_call){TPKG_OP_POOL, 1, 1, 0, 0, 0, 12, 0, 1};
  base_ok(&b);
  fixture f;
  f = b, f.c.n_floats = 0, BAD(f, TFW_FB_E_PARAM, "no p");
  f = b, f.c.n_ints = 11, BAD(f, TFW_FB_E_PARAM, "11 ints");
  f = b, f.c.n_in = 2, BAD(f, TFW_FB_E_SHAPE, "two inputs");
  f = b, f.ints[0] = 3, BAD(f, TFW_FB_E_PARAM, "kind 3");
  f = b, f.ints[11] = 2, BAD(f, TFW_FB_E_PARAM, "count_include_pad 2");
  f = b, f.ints[0] = 2, f.floats[0] = 0.0f, BAD(f, TFW_FB_E_PARAM, "p 0");
  f = b, f.ints[0] = 2, f.floats[0] = -1.0f, BAD(f, TFW_FB_E_PARAM, "p -1");
  f = b, f.ints[0] = 2, f.floats[0] = INFINITY, BAD(f, TFW_FB_E_PARAM, "p inf");
  f = b, f.ints[0] = 2, f.floats[0] = NAN, BAD(f, TFW_FB_E_PARAM, "p NaN");
  f = b, f.in[0].dtype = f.out.dtype = TPKG_DT_I8, BAD(f, TFW_FB_E_DTYPE, "avg on i8");
  f = b, f.ints[0] = 2, f.in[0].dtype = f.out.dtype = TPKG_DT_U8, BAD(f, TFW_FB_E_DTYPE, "lp on u8");
  f = b, f.ints[0] = 0, f.out.dtype = TPKG_DT_I8, BAD(f, TFW_FB_E_DTYPE, "f32 in, i8 out");
  f = b, f.in[0].dtype = TPKG_DT_I32, f.out.dtype = TPKG_DT_I32, f.ints[0] = 0, BAD(f, TFW_FB_E_DTYPE, "i32 max");
  f = b, f.out.dims[1] = 3, BAD(f, TFW_FB_E_SHAPE, "channels differ");
  f = b, f.out.dims[2] = 4, BAD(f, TFW_FB_E_SHAPE, "OH above ceil");
  f = b, f.out.dims[3] = 2, BAD(f, TFW_FB_E_SHAPE, "OW below floor");
  f = b, f.out.rank = 3, BAD(f, TFW_FB_E_SHAPE, "y rank 3");
  f = b, f.ints[4] = 0, BAD(f, TFW_FB_E_PARAM, "stride 0");
  f = b, f.ints[6] = -2, BAD(f, TFW_FB_E_PARAM, "pad -2");
  f = b, f.ints[1] = 0, BAD(f, TFW_FB_E_PARAM, "kernel 0");
  f = b, f.ints[1] = 9, BAD(f, TFW_FB_E_SHAPE, "kernel 9 over 5 + 2");
  /* max on i8 is fine, and so is the ceil size. */
  f = b, f.ints[0] = 0, f.in[0].dtype = f.out.dtype = TPKG_DT_I8, base_ok(&f);
  f = b, f.in[0].dims[2] = 6, base_ok(&f); /* floor(5/2)+1 = 3, ceil(5/2)+1 = 4: 3 is the floor */
  f = b, f.in[0].dims[2] = 6, f.out.dims[2] = 4, base_ok(&f);
}

/* ---- bit-exact against the RV32 firmware ---------------------------------- */

static const char *iss_path, *fw_elf_path;

static void test_firmware_checksums(void **state) {
  (void)state;
  if (!iss_path || !fw_elf_path) fail_msg("usage: test_nn TESSEL_ISS FW_NN_CRC.elf");
  nn_checksums h;
  nn_checksum_all(&h);
  assert_int_equal(h.rc, 0); /* every checksum call is valid: they all ran */
  char want[200];
  snprintf(want, sizeof want, "nn-crc matmul %08x conv %08x conv_transpose %08x pool %08x calls %u rc %d\n",
           (unsigned)h.matmul, (unsigned)h.conv, (unsigned)h.conv_transpose, (unsigned)h.pool, (unsigned)h.calls,
           (int)h.rc);
  fw_crc_check(iss_path, fw_elf_path, "4000000000", "nn-crc", want);
}

int main(int argc, char **argv) {
  if (argc == 3) iss_path = argv[1], fw_elf_path = argv[2];
  else if (argc != 1) return fprintf(stderr, "usage: test_nn [TESSEL_ISS FW_NN_CRC.elf]\n"), 2;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matmul_random),        cmocka_unit_test(test_gemm_c_broadcast),
      cmocka_unit_test(test_matmul_vectors),       cmocka_unit_test(test_matmul_nan),
      cmocka_unit_test(test_conv_random),          cmocka_unit_test(test_conv_transpose_random),
      cmocka_unit_test(test_pool_random),          cmocka_unit_test(test_pool_edges),
      cmocka_unit_test(test_empty_outputs),        cmocka_unit_test(test_matmul_errors),        cmocka_unit_test(test_conv_errors),
      cmocka_unit_test(test_pool_errors),          cmocka_unit_test(test_firmware_checksums),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
