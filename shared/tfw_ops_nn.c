/* tfw_ops_nn: the control core's network kernels (tfw_ops.h): MATMUL
 * (MatMul and Gemm), CONV, CONV_TRANSPOSE and POOL, in f32 (max pooling
 * also on i8/u8).  tfw_ops.h states what each computes and in which order
 * it rounds; the compiler's reference executor runs this very code.
 *
 * Each kernel first validates the whole call (operand and parameter counts,
 * dtypes, ranks, every dim against the parameters) and returns TFW_FB_E_*
 * before it writes anything; then it writes each output element once, in
 * row-major order, with no scratch memory.  An operand may hold at most
 * NN_MAX_ELEMS elements (and no dim above it, even when empty) and a window
 * parameter at most NN_MAX_WIN, so every index and coordinate below fits 32
 * bits on both machines (size_t is 32 bits on rv32). */
#include "tfw_math.h"
#include "tfw_ops.h"

#define NN_MAX_ELEMS ((uint64_t)1 << 29) /* most elements of one operand */
#define NN_MAX_WIN 65536                 /* largest kernel size, stride, dilation or pad */

/* ---- scalars ------------------------------------------------------------- */

static float qnan(void) { return tfw_bits_f32(0x7fc00000u); }
static float neg_inf(void) { return tfw_bits_f32(0xff800000u); }
/* Every NaN stored is the quiet NaN 0x7fc00000 (x86 keeps an operand's
 * payload or makes 0xffc00000; rv32 soft-float makes 0x7fc00000). */
static float canon(float x) { return x != x ? qnan() : x; }

/* ---- validation ---------------------------------------------------------- */

/* Elements of t, or NN_MAX_ELEMS + 1 when it has more (t->rank <= TFW_MAX_RANK). */
static uint64_t elems(const tfw_tensor *t) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++) {
    n *= t->dims[i];
    if (n > NN_MAX_ELEMS) return NN_MAX_ELEMS + 1;
  }
  return n;
}

/* 0 when t is a usable operand of dtype `dtype` (f32, i8 or u8).  Each
 * dim is bounded too, even in an empty operand, so every coordinate and
 * output size fits 30 bits. */
static int operand(const tfw_tensor *t, uint32_t dtype) {
  if (!t->data) return TFW_FB_E_ARG;
  if (t->dtype != dtype) return TFW_FB_E_DTYPE;
  if (dtype == TPKG_DT_F32 && ((uintptr_t)t->data & 3)) return TFW_FB_E_ARG; /* the others are bytes */
  if (t->rank > TFW_MAX_RANK) return TFW_FB_E_SHAPE;
  for (uint32_t i = 0; i < t->rank; i++)
    if (t->dims[i] > NN_MAX_ELEMS) return TFW_FB_E_SHAPE;
  if (elems(t) > NN_MAX_ELEMS) return TFW_FB_E_SHAPE;
  return 0;
}

/* 0 when c has min_in..max_in inputs, one output, and exactly n_ints and
 * n_floats parameters. */
static int call_ok(const tfw_call *c, uint32_t min_in, uint32_t max_in, uint32_t n_ints, uint32_t n_floats) {
  if (!c || !c->in || !c->out) return TFW_FB_E_ARG;
  if (c->n_in < min_in || c->n_in > max_in || c->n_out != 1) return TFW_FB_E_SHAPE;
  if (c->n_ints != n_ints || c->n_floats != n_floats || (n_ints && !c->ints) || (n_floats && !c->floats))
    return TFW_FB_E_PARAM;
  return 0;
}

/* ---- walking a broadcast operand in row-major order of the output -------- */

typedef struct {
  uint32_t rank;                 /* output dims walked */
  uint32_t dims[TFW_MAX_RANK];   /* their sizes */
  uint32_t idx[TFW_MAX_RANK];    /* the current output position */
  size_t stride[TFW_MAX_RANK];   /* the operand's element stride per output dim, 0 if broadcast */
  size_t off;                    /* the operand's element offset at idx */
} walk;

/* Steps to the next output position (the offset wraps modulo size_t on the
 * way, which is defined, and ends exact). */
static void walk_next(walk *w) {
  for (uint32_t d = w->rank; d-- > 0;) {
    w->off += w->stride[d];
    if (++w->idx[d] < w->dims[d]) return;
    w->off -= w->stride[d] * w->dims[d];
    w->idx[d] = 0;
  }
}

/* ---- MATMUL -------------------------------------------------------------- */

/* One matrix operand: its last two dims (a vector promoted), as the
 * product's rows x inner or inner x cols. */
typedef struct {
  uint32_t outer, inner;   /* rows (A) or columns (B) of the product, and K */
  size_t s_outer, s_inner; /* element strides of the two */
  uint32_t batch;          /* leading (batch) dims */
  size_t mat;              /* elements of one matrix */
} mat_view;

static mat_view view_of(const tfw_tensor *t, int trans, int is_b) {
  mat_view v;
  if (t->rank == 1) {
    v.outer = 1, v.inner = t->dims[0], v.s_outer = 0, v.s_inner = 1, v.batch = 0, v.mat = t->dims[0];
    return v;
  }
  uint32_t rows = t->dims[t->rank - 2], cols = t->dims[t->rank - 1];
  int inner_is_cols = is_b ? trans : !trans; /* A: K = cols unless transposed; B: K = rows unless transposed */
  v.outer = inner_is_cols ? rows : cols;
  v.inner = inner_is_cols ? cols : rows;
  v.s_outer = inner_is_cols ? cols : 1;
  v.s_inner = inner_is_cols ? 1 : cols;
  v.batch = t->rank - 2;
  v.mat = (size_t)rows * cols;
  return v;
}

int tfw_k_matmul(const tfw_call *c) {
  int e = call_ok(c, 2, 3, 2, 2);
  if (e) return e;
  const tfw_tensor *A = &c->in[0], *B = &c->in[1], *C = c->n_in > 2 ? &c->in[2] : 0, *Y = c->out;
  if ((e = operand(A, TPKG_DT_F32)) || (e = operand(B, TPKG_DT_F32)) || (C && (e = operand(C, TPKG_DT_F32))) ||
      (e = operand(Y, TPKG_DT_F32)))
    return e;
  int32_t ta = c->ints[0], tb = c->ints[1];
  float alpha = c->floats[0], beta = c->floats[1];
  if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1)) return TFW_FB_E_PARAM;
  if (A->rank < 1 || B->rank < 1) return TFW_FB_E_SHAPE;
  if ((ta && A->rank < 2) || (tb && B->rank < 2)) return TFW_FB_E_PARAM; /* a vector has no transpose */

  /* 1. The matrices: A is m x k, B is k x n (views, transposed or not). */
  mat_view va = view_of(A, ta, 0), vb = view_of(B, tb, 1);
  if (va.inner != vb.inner) return TFW_FB_E_SHAPE;
  uint32_t m = va.outer, n = vb.outer, k = va.inner;

  /* 2. Y = batch dims (A's and B's broadcast) + [m if A is a matrix] + [n if B is]. */
  uint32_t nb = va.batch > vb.batch ? va.batch : vb.batch;
  uint32_t ry = nb + (A->rank >= 2) + (B->rank >= 2);
  if (Y->rank != ry) return TFW_FB_E_SHAPE;
  walk wa = {0}, wb = {0};
  wa.rank = wb.rank = nb;
  size_t sa = va.mat, sb = vb.mat;
  for (uint32_t i = nb; i-- > 0;) {
    uint32_t da = i >= nb - va.batch ? A->dims[i - (nb - va.batch)] : 1;
    uint32_t db = i >= nb - vb.batch ? B->dims[i - (nb - vb.batch)] : 1;
    if (da != db && da != 1 && db != 1) return TFW_FB_E_SHAPE;
    if (Y->dims[i] != (da == 1 ? db : da)) return TFW_FB_E_SHAPE;
    wa.dims[i] = wb.dims[i] = Y->dims[i];
    wa.stride[i] = da == 1 ? 0 : sa;
    wb.stride[i] = db == 1 ? 0 : sb;
    sa *= da;
    sb *= db;
  }
  if ((A->rank >= 2 && Y->dims[nb] != m) || (B->rank >= 2 && Y->dims[ry - 1] != n)) return TFW_FB_E_SHAPE;

  /* 3. C, broadcast to Y (ranks right-aligned, each dim Y's or 1). */
  walk wc = {0};
  if (C) {
    if (C->rank > ry) return TFW_FB_E_SHAPE;
    wc.rank = ry;
    size_t sc = 1;
    for (uint32_t d = ry; d-- > 0;) {
      wc.dims[d] = Y->dims[d];
      if (d < ry - C->rank) continue;
      uint32_t cd = C->dims[d - (ry - C->rank)];
      if (cd != Y->dims[d] && cd != 1) return TFW_FB_E_SHAPE;
      wc.stride[d] = cd == 1 ? 0 : sc;
      sc *= cd;
    }
  }

  /* 4. Every output element: a dot product in k order from +0, then alpha, then C. */
  uint64_t ny = elems(Y);
  if (!ny) return 0;
  const float *a = (const float *)(const void *)A->data, *b = (const float *)(const void *)B->data;
  const float *cv = C ? (const float *)(const void *)C->data : 0;
  float *y = (float *)(void *)Y->data;
  size_t batches = (size_t)(ny / ((uint64_t)m * n)), yi = 0;
  for (size_t bt = 0; bt < batches; bt++) {
    for (uint32_t i = 0; i < m; i++) {
      size_t ar = wa.off + i * va.s_outer;
      for (uint32_t j = 0; j < n; j++) {
        size_t bc = wb.off + j * vb.s_outer;
        float acc = 0.0f;
        for (uint32_t q = 0; q < k; q++) acc = acc + a[ar + q * va.s_inner] * b[bc + q * vb.s_inner];
        if (alpha != 1.0f) acc = alpha * acc;
        if (cv) {
          float t = cv[wc.off];
          acc = acc + (beta == 1.0f ? t : beta * t);
          walk_next(&wc);
        }
        y[yi++] = canon(acc);
      }
    }
    walk_next(&wa);
    walk_next(&wb);
  }
  return 0;
}

/* ---- windows: CONV, CONV_TRANSPOSE, POOL --------------------------------- */

/* One spatial dimension of a window. */
typedef struct {
  int32_t k;       /* kernel size */
  int32_t s;       /* stride */
  int32_t d;       /* dilation */
  int32_t p0, p1;  /* padding before and after */
} win1;

/* The 10 window parameters "kh kw sy sx pt pl pb pr dy dx" at v. 0 when
 * every one is in range: sizes, strides and dilations 1..NN_MAX_WIN, pads
 * 0..NN_MAX_WIN. */
static int window_of(const int32_t *v, win1 *wy, win1 *wx) {
  *wy = (win1){v[0], v[2], v[8], v[4], v[6]};
  *wx = (win1){v[1], v[3], v[9], v[5], v[7]};
  const win1 *w[2] = {wy, wx};
  for (int i = 0; i < 2; i++)
    if (w[i]->k < 1 || w[i]->k > NN_MAX_WIN || w[i]->s < 1 || w[i]->s > NN_MAX_WIN || w[i]->d < 1 ||
        w[i]->d > NN_MAX_WIN || w[i]->p0 < 0 || w[i]->p0 > NN_MAX_WIN || w[i]->p1 < 0 || w[i]->p1 > NN_MAX_WIN)
      return TFW_FB_E_PARAM;
  return 0;
}

/* Whether `out` is a sliding window's output size over `in`:
 * floor((in + p0 + p1 - d*(k-1) - 1) / s) + 1, or with ceil_ok also the
 * ceil of the quotient + 1 (pooling's ceil_mode). The dilated kernel must
 * fit the padded input. */
static int fwd_size_ok(const win1 *w, uint32_t in, uint32_t out, int ceil_ok) {
  int64_t num = (int64_t)in + w->p0 + w->p1 - (int64_t)w->d * (w->k - 1) - 1;
  if (num < 0) return 0;
  int64_t lo = num / w->s + 1, hi = ceil_ok ? (num + w->s - 1) / w->s + 1 : lo;
  return out >= lo && out <= hi;
}

/* The taps of output position o of a sliding window over [0, in): kernel
 * indices [lo, hi) whose input position start + k*d lies in [0, in), with
 * start = o*s - p0. (Validation bounds o*s below 2^30.) */
typedef struct {
  int32_t start, lo, hi;
} taps1;

static taps1 taps_of(const win1 *w, int32_t in, int32_t o) {
  taps1 t;
  t.start = o * w->s - w->p0;
  t.lo = t.start >= 0 ? 0 : (-t.start + w->d - 1) / w->d;
  t.hi = t.start >= in ? 0 : (in - 1 - t.start) / w->d + 1;
  if (t.hi > w->k) t.hi = w->k;
  if (t.lo > t.hi) t.lo = t.hi;
  return t;
}

/* CONV and CONV_TRANSPOSE's common checks: x [N,C,H,W], w rank 4 with
 * kh x kw taps, optional bias [M], y [N,M,OH,OW], group >= 1 dividing C and M. */
static int conv_check(const tfw_call *c, win1 *wy, win1 *wx) {
  int e = call_ok(c, 2, 3, 11, 0);
  if (e) return e;
  const tfw_tensor *X = &c->in[0], *Wt = &c->in[1], *Bi = c->n_in > 2 ? &c->in[2] : 0, *Y = c->out;
  if ((e = operand(X, TPKG_DT_F32)) || (e = operand(Wt, TPKG_DT_F32)) || (Bi && (e = operand(Bi, TPKG_DT_F32))) ||
      (e = operand(Y, TPKG_DT_F32)))
    return e;
  if ((e = window_of(c->ints + 1, wy, wx))) return e;
  int32_t group = c->ints[0];
  if (group < 1) return TFW_FB_E_PARAM;
  if (X->rank != 4 || Wt->rank != 4 || Y->rank != 4 || (Bi && (Bi->rank != 1 || Bi->dims[0] != Y->dims[1])))
    return TFW_FB_E_SHAPE;
  if (Y->dims[0] != X->dims[0] || Wt->dims[2] != (uint32_t)wy->k || Wt->dims[3] != (uint32_t)wx->k)
    return TFW_FB_E_SHAPE;
  if (X->dims[1] % (uint32_t)group || Y->dims[1] % (uint32_t)group) return TFW_FB_E_SHAPE;
  return 0;
}

int tfw_k_conv(const tfw_call *c) {
  win1 wy, wx;
  int e = conv_check(c, &wy, &wx);
  if (e) return e;
  const tfw_tensor *X = &c->in[0], *Wt = &c->in[1], *Bi = c->n_in > 2 ? &c->in[2] : 0, *Y = c->out;
  uint32_t group = (uint32_t)c->ints[0];
  uint32_t N = X->dims[0], C = X->dims[1], H = X->dims[2], W = X->dims[3];
  uint32_t M = Y->dims[1], OH = Y->dims[2], OW = Y->dims[3], Cg = C / group, Mg = M / group;
  if (Wt->dims[0] != M || Wt->dims[1] != Cg) return TFW_FB_E_SHAPE;
  if (!fwd_size_ok(&wy, H, OH, 0) || !fwd_size_ok(&wx, W, OW, 0)) return TFW_FB_E_SHAPE;
  if (!elems(Y)) return 0;

  const float *x = (const float *)(const void *)X->data, *w = (const float *)(const void *)Wt->data;
  const float *bias = Bi ? (const float *)(const void *)Bi->data : 0;
  float *y = (float *)(void *)Y->data;
  size_t yi = 0, plane = (size_t)H * W, kk = (size_t)wy.k * (size_t)wx.k;
  for (uint32_t nn = 0; nn < N; nn++)
    for (uint32_t m = 0; m < M; m++) {
      size_t xg = ((size_t)nn * C + (size_t)(m / Mg) * Cg) * plane; /* the group's first input channel */
      size_t wm = (size_t)m * Cg * kk;
      float b0 = bias ? bias[m] : 0.0f;
      for (uint32_t oy = 0; oy < OH; oy++) {
        taps1 ty = taps_of(&wy, (int32_t)H, (int32_t)oy);
        for (uint32_t ox = 0; ox < OW; ox++) {
          taps1 tx = taps_of(&wx, (int32_t)W, (int32_t)ox);
          float acc = b0;
          if (ty.lo < ty.hi && tx.lo < tx.hi)
            for (uint32_t ci = 0; ci < Cg; ci++)
              for (int32_t ky = ty.lo; ky < ty.hi; ky++) {
                const float *xr = x + xg + ci * plane + (size_t)(ty.start + ky * wy.d) * W;
                const float *wr = w + wm + ci * kk + (size_t)ky * (size_t)wx.k;
                for (int32_t kx = tx.lo, ix = tx.start + tx.lo * wx.d; kx < tx.hi; kx++, ix += wx.d)
                  acc = acc + xr[ix] * wr[kx];
              }
          y[yi++] = canon(acc);
        }
      }
    }
  return 0;
}

/* The taps of output position o of a transposed window: the kernel
 * indices k with o + p0 - k*d = i*s for an input position i in [0, in).
 * They are k0, k0 + kstep, ... (count of them), ascending, with i = i0,
 * i0 - istep, ... (kstep = s/gcd(s,d), istep = d/gcd(s,d)). */
typedef struct {
  int32_t k0, i0, count;
} gather1;

static gather1 gather_of(const win1 *w, int32_t kstep, int32_t istep, int32_t in, int32_t o) {
  gather1 g = {0, 0, 0};
  int32_t k = 0, t = o + w->p0; /* t = o + p0 - k*d */
  for (; k < w->k && k < kstep; k++, t -= w->d) {
    if (t < 0) return g;
    if (t % w->s == 0) break;
  }
  if (k >= w->k || k >= kstep) return g; /* no k of the right residue */
  int32_t i = t / w->s;
  if (i >= in) { /* skip the taps past the input's end */
    int32_t j = (i - in) / istep + 1;
    if (j > (w->k - 1 - k) / kstep) return g;
    k += j * kstep;
    i -= j * istep;
  }
  if (i < 0) return g;
  int32_t nk = (w->k - 1 - k) / kstep + 1, ni = i / istep + 1;
  g.k0 = k, g.i0 = i, g.count = nk < ni ? nk : ni;
  return g;
}

/* Whether `out` is a transposed window's output size over `in`: between
 * s*(in-1) + d*(k-1) + 1 - p0 - p1 and that + s - 1 (output_padding). */
static int tr_size_ok(const win1 *w, uint32_t in, uint32_t out) {
  int64_t base = (int64_t)w->s * ((int64_t)in - 1) + (int64_t)w->d * (w->k - 1) + 1 - w->p0 - w->p1;
  return out >= base && out <= base + w->s - 1;
}

static int32_t gcd32(int32_t a, int32_t b) {
  while (b) {
    int32_t t = a % b;
    a = b, b = t;
  }
  return a;
}

int tfw_k_conv_transpose(const tfw_call *c) {
  win1 wy, wx;
  int e = conv_check(c, &wy, &wx);
  if (e) return e;
  const tfw_tensor *X = &c->in[0], *Wt = &c->in[1], *Bi = c->n_in > 2 ? &c->in[2] : 0, *Y = c->out;
  uint32_t group = (uint32_t)c->ints[0];
  uint32_t N = X->dims[0], C = X->dims[1], H = X->dims[2], W = X->dims[3];
  uint32_t M = Y->dims[1], OH = Y->dims[2], OW = Y->dims[3], Cg = C / group, Mg = M / group;
  if (Wt->dims[0] != C || Wt->dims[1] != Mg) return TFW_FB_E_SHAPE;
  if (!tr_size_ok(&wy, H, OH) || !tr_size_ok(&wx, W, OW)) return TFW_FB_E_SHAPE;
  if (!elems(Y)) return 0; /* no loop over OH when OW is 0 */

  int32_t gy = gcd32(wy.s, wy.d), gx = gcd32(wx.s, wx.d);
  int32_t ksy = wy.s / gy, isy = wy.d / gy, ksx = wx.s / gx, isx = wx.d / gx;
  const float *x = (const float *)(const void *)X->data, *w = (const float *)(const void *)Wt->data;
  const float *bias = Bi ? (const float *)(const void *)Bi->data : 0;
  float *y = (float *)(void *)Y->data;
  size_t yi = 0, plane = (size_t)H * W, kk = (size_t)wy.k * (size_t)wx.k;
  for (uint32_t nn = 0; nn < N; nn++)
    for (uint32_t m = 0; m < M; m++) {
      size_t c0 = (size_t)(m / Mg) * Cg;          /* the group's first input channel */
      size_t xg = ((size_t)nn * C + c0) * plane;
      size_t wm = (c0 * Mg + m % Mg) * kk;        /* w[c0][m % Mg] */
      float b0 = bias ? bias[m] : 0.0f;
      for (uint32_t oy = 0; oy < OH; oy++) {
        gather1 ty = gather_of(&wy, ksy, isy, (int32_t)H, (int32_t)oy);
        for (uint32_t ox = 0; ox < OW; ox++) {
          gather1 tx = gather_of(&wx, ksx, isx, (int32_t)W, (int32_t)ox);
          float acc = b0;
          if (ty.count && tx.count)
            for (uint32_t ci = 0; ci < Cg; ci++)
              for (int32_t j = 0, ky = ty.k0, iy = ty.i0; j < ty.count; j++, ky += ksy, iy -= isy) {
                const float *xr = x + xg + ci * plane + (size_t)iy * W;
                const float *wr = w + wm + (size_t)ci * Mg * kk + (size_t)ky * (size_t)wx.k;
                for (int32_t i = 0, kx = tx.k0, ix = tx.i0; i < tx.count; i++, kx += ksx, ix -= isx)
                  acc = acc + xr[ix] * wr[kx];
              }
          y[yi++] = canon(acc);
        }
      }
    }
  return 0;
}

/* Taps of a pooling window inside the padded extent [-p0, in + p1). */
static uint32_t padded_taps(const win1 *w, int32_t in, const taps1 *t) {
  int32_t end = in + w->p1; /* start >= -p0 always */
  if (t->start >= end) return 0;
  int32_t n = (end - 1 - t->start) / w->d + 1;
  return (uint32_t)(n < w->k ? n : w->k);
}

/* Max pooling of i8/u8 planes: padding ignored, an empty window gives the
 * dtype's minimum. */
static void pool_max_int(const tfw_tensor *X, const tfw_tensor *Y, const win1 *wy, const win1 *wx, int is_signed) {
  uint32_t H = X->dims[2], W = X->dims[3], OH = Y->dims[2], OW = Y->dims[3];
  size_t planes = (size_t)X->dims[0] * X->dims[1], plane = (size_t)H * W, yi = 0;
  int32_t lowest = is_signed ? -128 : 0;
  for (size_t pl = 0; pl < planes; pl++)
    for (uint32_t oy = 0; oy < OH; oy++) {
      taps1 ty = taps_of(wy, (int32_t)H, (int32_t)oy);
      for (uint32_t ox = 0; ox < OW; ox++) {
        taps1 tx = taps_of(wx, (int32_t)W, (int32_t)ox);
        int32_t mx = lowest;
        for (int32_t ky = ty.lo; ky < ty.hi; ky++) {
          const uint8_t *xr = X->data + pl * plane + (size_t)(ty.start + ky * wy->d) * W;
          for (int32_t kx = tx.lo, ix = tx.start + tx.lo * wx->d; kx < tx.hi; kx++, ix += wx->d) {
            int32_t v = is_signed ? (int32_t)(int8_t)xr[ix] : (int32_t)xr[ix];
            if (v > mx) mx = v;
          }
        }
        Y->data[yi++] = (uint8_t)(mx & 0xff);
      }
    }
}

int tfw_k_pool(const tfw_call *c) {
  int e = call_ok(c, 1, 1, 12, 1);
  if (e) return e;
  const tfw_tensor *X = &c->in[0], *Y = c->out;
  int32_t kind = c->ints[0], cip = c->ints[11];
  float p = c->floats[0];
  uint32_t dt = X->dtype;
  if (dt != TPKG_DT_F32 && !(kind == 0 && (dt == TPKG_DT_I8 || dt == TPKG_DT_U8))) return TFW_FB_E_DTYPE;
  if ((e = operand(X, dt)) || (e = operand(Y, dt))) return e;
  win1 wy, wx;
  if ((e = window_of(c->ints + 1, &wy, &wx))) return e;
  if (kind < 0 || kind > 2 || (cip != 0 && cip != 1)) return TFW_FB_E_PARAM;
  if (kind == 2 && !(p > 0.0f && p < tfw_bits_f32(0x7f800000u))) return TFW_FB_E_PARAM; /* Lp: 0 < p < inf */
  if (X->rank != 4 || Y->rank != 4 || Y->dims[0] != X->dims[0] || Y->dims[1] != X->dims[1]) return TFW_FB_E_SHAPE;
  if (!fwd_size_ok(&wy, X->dims[2], Y->dims[2], 1) || !fwd_size_ok(&wx, X->dims[3], Y->dims[3], 1))
    return TFW_FB_E_SHAPE;
  if (!elems(Y)) return 0;
  if (dt != TPKG_DT_F32) {
    pool_max_int(X, Y, &wy, &wx, dt == TPKG_DT_I8);
    return 0;
  }

  uint32_t H = X->dims[2], W = X->dims[3], OH = Y->dims[2], OW = Y->dims[3];
  size_t planes = (size_t)X->dims[0] * X->dims[1], plane = (size_t)H * W, yi = 0;
  const float *x = (const float *)(const void *)X->data;
  float *y = (float *)(void *)Y->data;
  float inv_p = 1.0f / p;
  for (size_t pl = 0; pl < planes; pl++)
    for (uint32_t oy = 0; oy < OH; oy++) {
      taps1 ty = taps_of(&wy, (int32_t)H, (int32_t)oy);
      uint32_t py = padded_taps(&wy, (int32_t)H, &ty);
      for (uint32_t ox = 0; ox < OW; ox++) {
        taps1 tx = taps_of(&wx, (int32_t)W, (int32_t)ox);
        float acc = kind == 0 ? neg_inf() : 0.0f;
        int nan = 0;
        for (int32_t ky = ty.lo; ky < ty.hi; ky++) {
          const float *xr = x + pl * plane + (size_t)(ty.start + ky * wy.d) * W;
          int32_t ix0 = tx.start + tx.lo * wx.d;
          if (kind == 0) {
            for (int32_t kx = tx.lo, ix = ix0; kx < tx.hi; kx++, ix += wx.d) {
              float v = xr[ix];
              if (v > acc) acc = v;
              else if (v != v) nan = 1;
            }
          } else if (kind == 1 || p == 1.0f) {
            for (int32_t kx = tx.lo, ix = ix0; kx < tx.hi; kx++, ix += wx.d)
              acc = acc + (kind == 1 ? xr[ix] : tfw_fabsf(xr[ix]));
          } else if (p == 2.0f) {
            for (int32_t kx = tx.lo, ix = ix0; kx < tx.hi; kx++, ix += wx.d) acc = acc + xr[ix] * xr[ix];
          } else {
            for (int32_t kx = tx.lo, ix = ix0; kx < tx.hi; kx++, ix += wx.d) acc = acc + tfw_powf(tfw_fabsf(xr[ix]), p);
          }
        }
        if (nan) {
          acc = qnan();
        } else if (kind == 1) {
          uint64_t n = cip ? (uint64_t)py * padded_taps(&wx, (int32_t)W, &tx)
                           : (uint64_t)(ty.hi - ty.lo) * (uint64_t)(tx.hi - tx.lo);
          acc = n ? acc / (float)n : qnan();
        } else if (kind == 2 && p != 1.0f) {
          acc = p == 2.0f ? tfw_sqrtf(acc) : tfw_powf(acc, inv_p);
        }
        y[yi++] = canon(acc);
      }
    }
  return 0;
}
