/* tfw_ops_reduce: the control core's reduction kernels (tfw_ops.h): Reduce*,
 * ArgMax/ArgMin, and Layer, Instance and Batch normalisation, and the int8
 * Softmax and LayerNorm (Softmax/LogSoftmax: tfw_ops_softmax.c).
 *
 * Order of the arithmetic (every engine runs this file, so it is the
 * definition; tfw_ops.h's rules: f32 only, no reassociation):
 *   - a reduction visits its elements in row-major order of the input (the
 *     reduced dims as an odometer, the last fastest) and accumulates in f32;
 *   - sums (SUM, MEAN, L1, L2, SUM_SQUARE, LOG_SUM_EXP, the normalisations'
 *     mean and variance, LogSoftmax's denominator) are compensated (Kahan):
 *     t = s + (v - c), c = (t - s) - (v - c), s = t, from s = c = 0;
 *   - PROD multiplies from 1 in order; integer SUM and PROD wrap (two's
 *     complement); MAX and MIN of f32 give NaN when any element is NaN;
 *   - MEAN = sum / count; L2 = sqrt(sum of x*x); LOG_SUM_EXP = m + log(sum of
 *     exp(x - m)), m the maximum (NaN if any is NaN, m itself if m is +-inf);
 *   - an empty reduction gives SUM, L1, L2, SUM_SQUARE 0, PROD 1, MEAN NaN,
 *     LOG_SUM_EXP -inf; MAX and MIN refuse it (TFW_FB_E_SHAPE);
 *   - normalisation: mean = sum(x) / n, var = sum((x - mean)^2) / n (two
 *     passes), y = (x - mean) / sqrt(var + eps) * scale + bias, evaluated left
 *     to right.
 * NaN results are the quiet NaN 0x7fc00000.  No scratch memory: each output
 * element is computed from the input directly. */
#include "tfw_ops.h"
#include "tfw_ops_check.h"
#include "tfw_math.h"
#include "tfw_mem.h"

#define RD_NAN_BITS 0x7fc00000u

#if defined(__GNUC__)
typedef uint32_t __attribute__((may_alias)) rd_u32;
typedef uint64_t __attribute__((may_alias)) rd_u64;
typedef float __attribute__((may_alias)) rd_f32;
#else
typedef uint32_t rd_u32;
typedef uint64_t rd_u64;
typedef float rd_f32;
#endif

/* ---- shared pieces ---------------------------------------------------------- */

static float canon(float v) { return v != v ? tfw_bits_f32(RD_NAN_BITS) : v; }

static void strides(const tfw_tensor *t, size_t *st) {
  size_t s = 1;
  for (uint32_t i = t->rank; i-- > 0;) {
    st[i] = s;
    s *= t->dims[i];
  }
}

/* A split of a tensor's dims into kept and reduced ones, each walked as an
 * odometer: element offsets of the kept dims' start and of each reduced
 * element relative to it. */
typedef struct {
  uint32_t n;                    /* dims in the group */
  uint32_t dims[TFW_MAX_RANK];   /* their lengths */
  size_t st[TFW_MAX_RANK];       /* their element strides in the input */
  uint32_t idx[TFW_MAX_RANK];    /* the odometer */
  size_t off;                    /* current offset */
  size_t count;                  /* product of dims */
} rd_group;

static void group_add(rd_group *g, uint32_t dim, size_t st) {
  g->dims[g->n] = dim, g->st[g->n] = st, g->idx[g->n] = 0;
  g->n++;
  g->count *= dim;
}

static void group_reset(rd_group *g) {
  for (uint32_t i = 0; i < g->n; i++) g->idx[i] = 0;
  g->off = 0;
}

/* Next element of g; 0 when it wraps. */
static int group_next(rd_group *g) {
  for (uint32_t i = g->n; i-- > 0;) {
    g->off += g->st[i];
    if (++g->idx[i] < g->dims[i]) return 1;
    g->off -= g->st[i] * g->dims[i];
    g->idx[i] = 0;
  }
  return 0;
}

/* ---- Reduce: fn axes_mask --------------------------------------------------- */

static float reduce_f32(const float *x, rd_group *g, int fn) {
  group_reset(g);
  if (fn == TFW_RED_PROD) {
    float p = 1.0f;
    if (g->count) do p *= x[g->off]; while (group_next(g));
    return p;
  }
  if (fn == TFW_RED_MAX || fn == TFW_RED_MIN || fn == TFW_RED_LOG_SUM_EXP) {
    float m = g->count ? x[g->off] : tfw_bits_f32(0xff800000u);
    int nan = 0;
    if (g->count) do {
        float v = x[g->off];
        if (v != v) nan = 1;
        else if (fn == TFW_RED_MIN ? v < m : v > m) m = v;
      } while (group_next(g));
    if (nan) return tfw_bits_f32(RD_NAN_BITS);
    if (fn != TFW_RED_LOG_SUM_EXP) return m;
    if (!g->count) return tfw_logf(0.0f);
    if (m - m != 0.0f) return m; /* +-inf */
    tfw_ksum s = {0.0f, 0.0f};
    group_reset(g);
    do tfw_ksum_add(&s, tfw_expf(x[g->off] - m)); while (group_next(g));
    return m + tfw_logf(s.sum);
  }
  tfw_ksum s = {0.0f, 0.0f};
  if (g->count) do {
      float v = x[g->off];
      if (fn == TFW_RED_L1) v = tfw_fabsf(v);
      else if (fn == TFW_RED_L2 || fn == TFW_RED_SUM_SQUARE) v = v * v;
      tfw_ksum_add(&s, v);
    } while (group_next(g));
  if (fn == TFW_RED_MEAN) return s.sum / (float)g->count;
  if (fn == TFW_RED_L2) return tfw_sqrtf(s.sum);
  return s.sum;
}

static int64_t load_int(const uint8_t *p, uint32_t dtype, size_t i) {
  switch (dtype) {
  case TPKG_DT_I32: return (int32_t)((const rd_u32 *)p)[i];
  case TPKG_DT_I64: return (int64_t)((const rd_u64 *)p)[i];
  case TPKG_DT_U32: return ((const rd_u32 *)p)[i];
  case TPKG_DT_I16: return (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
  case TPKG_DT_U16: return (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
  case TPKG_DT_I8: return (int8_t)p[i];
  default: return p[i]; /* u8, bool */
  }
}

static int64_t reduce_int(const uint8_t *x, uint32_t dtype, rd_group *g, int fn) {
  group_reset(g);
  uint64_t acc = fn == TFW_RED_PROD ? 1u : 0u;
  int64_t m = load_int(x, dtype, g->off);
  do {
    int64_t v = load_int(x, dtype, g->off);
    switch (fn) {
    case TFW_RED_SUM: acc += (uint64_t)v; break;
    case TFW_RED_PROD: acc *= (uint64_t)v; break;
    case TFW_RED_MAX: m = v > m ? v : m; break;
    default: m = v < m ? v : m;
    }
  } while (group_next(g));
  return fn == TFW_RED_MAX || fn == TFW_RED_MIN ? m : (int64_t)acc;
}

int tfw_k_reduce(const tfw_call *c) {
  int e = tfw_op_operands(c, 1, 1);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (c->n_ints != 2 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  int fn = c->ints[0];
  uint32_t r = x->rank, mask = (uint32_t)c->ints[1];
  if (fn < TFW_RED_SUM || fn > TFW_RED_SUM_SQUARE || (r < 32 && (mask >> r))) return TFW_FB_E_PARAM;
  if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
  int is_int = x->dtype == TPKG_DT_I32 || x->dtype == TPKG_DT_I64;
  if (x->dtype != TPKG_DT_F32 &&
      !(is_int && (fn == TFW_RED_SUM || fn == TFW_RED_MAX || fn == TFW_RED_MIN || fn == TFW_RED_PROD)))
    return TFW_FB_E_DTYPE;
  size_t xs[TFW_MAX_RANK];
  strides(x, xs);
  rd_group keep = {.count = 1}, red = {.count = 1};
  for (uint32_t d = 0; d < r; d++) group_add(mask >> d & 1u ? &red : &keep, x->dims[d], xs[d]);
  int ok = 1;
  if (tfw_op_elems(y, &ok) != keep.count) return TFW_FB_E_SHAPE;
  if (!red.count && keep.count && (fn == TFW_RED_MAX || fn == TFW_RED_MIN)) return TFW_FB_E_SHAPE;
  if (!keep.count) return TFW_FB_OK;
  size_t o = 0;
  group_reset(&keep);
  do {
    if (x->dtype == TPKG_DT_F32) {
      ((rd_f32 *)y->data)[o] = canon(reduce_f32((const float *)x->data + keep.off, &red, fn));
    } else {
      int64_t v = red.count ? reduce_int(x->data + keep.off * tpkg_dtype_bytes(x->dtype), x->dtype, &red, fn)
                            : fn == TFW_RED_PROD;
      if (x->dtype == TPKG_DT_I32) ((rd_u32 *)y->data)[o] = (uint32_t)v;
      else ((rd_u64 *)y->data)[o] = (uint64_t)v;
    }
    o++;
  } while (group_next(&keep));
  return TFW_FB_OK;
}

/* ---- ArgMax / ArgMin: axis select_last is_min; out i64 ---------------------- */
/* The first extreme element's index (the last with select_last).  For f32 a
 * NaN beats every number (numpy's rule): the first NaN, or the last with
 * select_last, as ONNX's reference computes it on the reversed axis. */

int tfw_k_arg(const tfw_call *c) {
  int e = tfw_op_operands(c, 1, 1);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (c->n_ints != 3 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  int last = c->ints[1], is_min = c->ints[2];
  if ((last != 0 && last != 1) || (is_min != 0 && is_min != 1)) return TFW_FB_E_PARAM;
  uint32_t ax;
  if (!tfw_op_axis(c->ints[0], x->rank, &ax)) return TFW_FB_E_SHAPE;
  if (y->dtype != TPKG_DT_I64 || x->dtype == TPKG_DT_BOOL) return TFW_FB_E_DTYPE;
  int ok = 1;
  size_t n = x->dims[ax], outer = 1, inner = 1;
  for (uint32_t d = 0; d < ax; d++) outer *= x->dims[d];
  for (uint32_t d = ax + 1; d < x->rank; d++) inner *= x->dims[d];
  if (tfw_op_elems(y, &ok) != outer * inner) return TFW_FB_E_SHAPE;
  if (!n && outer && inner) return TFW_FB_E_SHAPE;
  rd_u64 *out = (rd_u64 *)y->data;
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < inner; i++) {
      size_t base = o * n * inner + i, best = 0;
      if (x->dtype == TPKG_DT_F32) {
        const float *v = (const float *)x->data + base;
        float m = v[0];
        int nan = m != m;
        for (size_t k = 1; k < n; k++) {
          float a = v[k * inner];
          int better;
          if (nan) better = last && a != a;
          else if (a != a) better = 1;
          else if (a == m) better = last;
          else better = is_min ? a < m : a > m;
          if (better) best = k, m = a, nan = a != a;
        }
      } else {
        int64_t m = load_int(x->data, x->dtype, base);
        for (size_t k = 1; k < n; k++) {
          int64_t a = load_int(x->data, x->dtype, base + k * inner);
          if (a == m ? last : is_min ? a < m : a > m) best = k, m = a;
        }
      }
      out[o * inner + i] = (uint64_t)best;
    }
  return TFW_FB_OK;
}

/* ---- Normalisation: kind axis; epsilon -------------------------------------- */

enum { NORM_LAYER = 0, NORM_INSTANCE = 1, NORM_BATCH = 2 };

/* mean and variance of n elements x[0], x[st], ... */
static void mean_var(const float *x, size_t n, size_t st, float *mean, float *var) {
  tfw_ksum s = {0.0f, 0.0f};
  for (size_t k = 0; k < n; k++) tfw_ksum_add(&s, x[k * st]);
  float m = s.sum / (float)n;
  tfw_ksum q = {0.0f, 0.0f};
  for (size_t k = 0; k < n; k++) {
    float d = x[k * st] - m;
    tfw_ksum_add(&q, d * d);
  }
  *mean = m, *var = q.sum / (float)n;
}

/* t broadcasts unidirectionally to dims[0..n-1] (right-aligned, each dim 1 or
 * equal); its element strides per target dim into st (0 where broadcast). */
static int bcast_to(const tfw_tensor *t, const uint32_t *dims, uint32_t n, size_t *st) {
  if (t->rank > n || t->dtype != TPKG_DT_F32) return 0;
  size_t s = 1;
  for (uint32_t i = n; i-- > 0;) {
    uint32_t j = t->rank + i - n, d = i + t->rank >= n ? t->dims[j] : 1u;
    if (i + t->rank >= n && d != 1 && d != dims[i]) return 0;
    st[i] = d == 1 ? 0 : s;
    s *= d;
  }
  return 1;
}

static int layer_norm(const tfw_call *c, float eps) {
  const tfw_tensor *x = &c->in[0], *y = c->out;
  uint32_t ax;
  if (c->n_in < 2 || c->n_in > 3 || !tfw_op_axis(c->ints[1], x->rank, &ax)) return TFW_FB_E_SHAPE;
  uint32_t n = x->rank - ax;
  const uint32_t *td = x->dims + ax;
  size_t sst[TFW_MAX_RANK], bst[TFW_MAX_RANK] = {0};
  for (uint32_t i = 1; i < c->n_in; i++)
    if (c->in[i].dtype != TPKG_DT_F32) return TFW_FB_E_DTYPE;
  if (!bcast_to(&c->in[1], td, n, sst) || (c->n_in == 3 && !bcast_to(&c->in[2], td, n, bst)))
    return TFW_FB_E_SHAPE;
  size_t outer = 1, len = 1;
  for (uint32_t d = 0; d < ax; d++) outer *= x->dims[d];
  for (uint32_t d = 0; d < n; d++) len *= td[d];
  const float *xp = (const float *)x->data, *sp = (const float *)c->in[1].data;
  const float *bp = c->n_in == 3 ? (const float *)c->in[2].data : 0;
  float *yp = (float *)y->data;
  if (!len) return TFW_FB_OK;
  for (size_t o = 0; o < outer; o++) {
    const float *row = xp + o * len;
    float mean, var;
    mean_var(row, len, 1, &mean, &var);
    float sd = tfw_sqrtf(var + eps);
    uint32_t idx[TFW_MAX_RANK] = {0};
    size_t so = 0, bo = 0;
    for (size_t k = 0; k < len; k++) {
      float v = (row[k] - mean) / sd * sp[so];
      if (bp) v = v + bp[bo];
      yp[o * len + k] = canon(v);
      for (uint32_t d = n; d-- > 0;) {
        so += sst[d], bo += bst[d];
        if (++idx[d] < td[d]) break;
        so -= sst[d] * td[d], bo -= bst[d] * td[d];
        idx[d] = 0;
      }
    }
  }
  return TFW_FB_OK;
}

/* A per-channel operand: f32 with exactly C elements. */
static int per_channel(const tfw_tensor *t, uint32_t ch) {
  int ok = 1;
  return t->dtype == TPKG_DT_F32 && tfw_op_elems(t, &ok) == ch;
}

static int channel_norm(const tfw_call *c, int kind, float eps) {
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (c->n_in != (kind == NORM_INSTANCE ? 3u : 5u) || x->rank < 2) return TFW_FB_E_SHAPE;
  uint32_t ch = x->dims[1];
  for (uint32_t i = 1; i < c->n_in; i++)
    if (!per_channel(&c->in[i], ch)) return c->in[i].dtype != TPKG_DT_F32 ? TFW_FB_E_DTYPE : TFW_FB_E_SHAPE;
  size_t batch = x->dims[0], len = 1;
  for (uint32_t d = 2; d < x->rank; d++) len *= x->dims[d];
  const float *xp = (const float *)x->data, *sc = (const float *)c->in[1].data, *bi = (const float *)c->in[2].data;
  float *yp = (float *)y->data;
  if (!len) return TFW_FB_OK;
  for (size_t b = 0; b < batch; b++)
    for (size_t k = 0; k < ch; k++) {
      const float *row = xp + (b * ch + k) * len;
      float mean, var;
      if (kind == NORM_INSTANCE) mean_var(row, len, 1, &mean, &var);
      else mean = ((const float *)c->in[3].data)[k], var = ((const float *)c->in[4].data)[k];
      float sd = tfw_sqrtf(var + eps);
      for (size_t i = 0; i < len; i++) yp[(b * ch + k) * len + i] = canon((row[i] - mean) / sd * sc[k] + bi[k]);
    }
  return TFW_FB_OK;
}

int tfw_k_norm(const tfw_call *c) {
  int e = tfw_op_operands(c, 1, 5);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (c->n_ints != 2 || !c->ints || c->n_floats != 1 || !c->floats) return TFW_FB_E_PARAM;
  int kind = c->ints[0];
  float eps = c->floats[0];
  if (kind < NORM_LAYER || kind > NORM_BATCH || !(eps >= 0.0f && eps < 1e30f)) return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_F32 || y->dtype != TPKG_DT_F32) return TFW_FB_E_DTYPE;
  if (!tfw_op_same_dims(x, y)) return TFW_FB_E_SHAPE;
  return kind == NORM_LAYER ? layer_norm(c, eps) : channel_norm(c, kind, eps);
}

/* ---- Int8 Softmax and LayerNorm (docs/quantisation.md "Softmax and
 * LayerNorm in int8") -------------------------------------------------------
 * Integer arithmetic only, so the definition is the same on every engine and
 * cheap on the core and in hardware; the constants come from
 * tfw_softmax_q_build / tfw_layernorm_q_build (tfw_ops.c). */

static int8_t sat8(int64_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

/* floor(sqrt(v)), bit by bit. */
static uint64_t isqrt64(uint64_t v) {
  uint64_t r = 0, bit = 1ull << 62;
  while (bit > v) bit >>= 2;
  while (bit) {
    if (v >= r + bit) v -= r + bit, r = (r >> 1) + bit;
    else r >>= 1;
    bit >>= 2;
  }
  return r;
}

/* Rows of x along [ax, ax + n_axes): *outer rows of *len elements, *inner
 * apart (inner = 1 when the row is the trailing dims). */
static void rows_of(const tfw_tensor *x, uint32_t ax, uint32_t n_axes, size_t *outer, size_t *len, size_t *inner) {
  *outer = *len = *inner = 1;
  for (uint32_t d = 0; d < x->rank; d++) {
    size_t *p = d < ax ? outer : d < ax + n_axes ? len : inner;
    *p *= x->dims[d];
  }
}

/* 1/s as mult * 2^-shift, mult in [2^30, 2^31), from the f32 reciprocal's
 * bits; 0, or -1 when s is not a positive finite scale with 1/s in
 * [2^-66, 2^31). */
static int recip_mult(float s, int32_t *mult, int32_t *shift) {
  if (!(s > 0.0f) || !(s < 3.0e38f)) return -1;
  uint32_t bits = tfw_f32_bits(1.0f / s), ex = (bits >> 23) & 0xffu;
  if (ex < 157u - 96u || ex >= 157u) return -1; /* 1/s = (mantissa << 7) * 2^(ex - 157) */
  *mult = (int32_t)(((bits & 0x7fffffu) | 0x800000u) << 7);
  *shift = (int32_t)(157u - ex);
  return 0;
}

int tfw_softmax_q_build(float s_in, float s_out, int32_t table[256], int32_t *mult, int32_t *shift) {
  if (!(s_in > 0.0f) || !(s_in < 3.0e38f) || recip_mult(s_out, mult, shift)) return TFW_FB_E_PARAM;
  for (int k = 0; k < 256; k++) table[k] = (int32_t)tfw_rintf(tfw_expf(-(s_in * (float)k)) * 32768.0f);
  return TFW_FB_OK;
}

int tfw_softmax_qf_build(float s_in, float table[256]) {
  if (!(s_in > 0.0f) || !(s_in < 3.0e38f)) return TFW_FB_E_PARAM;
  for (int k = 0; k < 256; k++) table[k] = tfw_expf(-(s_in * (float)k));
  return TFW_FB_OK;
}

int tfw_layernorm_q_build(float s_in, float s_out, float eps, uint32_t n, const float *gamma, const float *beta,
                          int32_t *g, int64_t *b, int32_t *gshift, uint32_t eps_words[2]) {
  if (!(s_in > 0.0f) || !(s_in < 3.0e38f) || !(s_out > 0.0f) || !(s_out < 3.0e38f) || !(eps >= 0.0f) ||
      !(eps < 3.0e38f) || !n || n > 65536u || !gamma)
    return TFW_FB_E_PARAM;
  float gmax = 0.0f;
  for (uint32_t k = 0; k < n; k++) {
    float v = tfw_fabsf(gamma[k] / s_out);
    if (!(v < 3.0e38f) || (beta && !(tfw_fabsf(beta[k]) < 3.0e38f))) return TFW_FB_E_PARAM;
    gmax = v > gmax ? v : gmax;
  }
  int32_t gs = 30;
  float f = 1073741824.0f; /* 2^gs */
  while (gs > 0 && gmax * f >= 1073741824.0f) gs--, f = f * 0.5f;
  if (gmax * f >= 1073741824.0f) return TFW_FB_E_PARAM;
  for (uint32_t k = 0; k < n; k++) {
    g[k] = (int32_t)tfw_rintf(gamma[k] / s_out * f);
    float bv = beta ? tfw_rintf(beta[k] / s_out * f * 65536.0f) : 0.0f;
    if (!(tfw_fabsf(bv) < 2305843009213693952.0f)) return TFW_FB_E_PARAM; /* 2^61 */
    b[k] = (int64_t)bv;
  }
  float e = eps / s_in / s_in * (float)n * (float)n;
  uint64_t ev = e < 2305843009213693952.0f ? (uint64_t)tfw_rintf(e) : (1ull << 61);
  *gshift = gs;
  eps_words[0] = (uint32_t)ev, eps_words[1] = (uint32_t)(ev >> 32);
  return TFW_FB_OK;
}

/* The table checked (T[0] = 2^15, no entry negative or above the one
 * before) and copied to t: on the core t is on the stack, in the data TCM,
 * where a lookup takes a cycle; the table in the DRAM window is 32 lines
 * of the 16-line data cache, and the row's lookups missed it. 0 when the
 * table is refused. */
static int sm_table(const uint8_t *tp, int32_t t[256]) {
  const uint32_t *src = (const uint32_t *)(const void *)tp, *end = src + 256;
  uint32_t prev = src[0]; /* unsigned: a negative entry is above the one before */
  if (prev != 32768u) return 0;
  for (uint32_t *d = (uint32_t *)t; src < end; src += 8, d += 8) { /* eight at a time, T[0] again first */
    uint32_t a = src[0], b = src[1], c = src[2], e = src[3], f = src[4], g = src[5], h = src[6], i = src[7];
    if (a > prev || b > a || c > b || e > c || f > e || g > f || h > g || i > h) return 0;
    d[0] = a, d[1] = b, d[2] = c, d[3] = e, d[4] = f, d[5] = g, d[6] = h, d[7] = i, prev = i;
  }
  return 1;
}

/* The largest of a row of n int8 values, inner apart. */
static int32_t row_max(const int8_t *xr, size_t n, size_t inner) {
  int32_t m = -128;
  if (inner == 1)
    for (const int8_t *p = xr; p < xr + n; p++) m = *p > m ? *p : m;
  else
    for (size_t k = 0; k < n; k++) m = xr[k * inner] > m ? xr[k * inner] : m;
  return m;
}

/* The int8 Softmax's outputs, y = sat8(zp + floor((T * R + 2^(sh-1)) /
 * 2^sh)), the definition's numbers in 32-bit pieces: T < 2^16 and R = rh
 * 2^32 + rl < 2^47, so T R < 2^62 has the high word hi = T rh + mulhu(T,
 * rl) < 2^30, and for 32 < sh < 63 the rounding constant lies in the high
 * word: y = sat8(zp + ((hi + 2^(sh-33)) >> (sh - 32))), no 64-bit
 * arithmetic. sh <= 32 takes the 64-bit sum; sh >= 63 gives zp. */
typedef struct {
  uint32_t rh, rl, half; /* R's words; 2^(sh-33) */
  unsigned sh, s2;       /* sh, sh - 32 */
  int fast;              /* 32 < sh < 63 */
  int32_t zp;
} sm_out;

static inline __attribute__((always_inline)) int8_t sm_value(uint32_t tv, const sm_out *o) {
  uint32_t hi = tv * o->rh + (uint32_t)(((uint64_t)tv * o->rl) >> 32);
  int64_t q;
  if (o->fast) q = (hi + o->half) >> o->s2;
  else q = o->sh >= 63u ? 0 : (int64_t)((((uint64_t)hi << 32 | (uint32_t)(tv * o->rl)) + (1ull << (o->sh - 1))) >> o->sh);
  return sat8(q + o->zp);
}

/* One row's outputs from T at its maximum (tm[-x] = T[m - x]). A
 * contiguous row (inner 1) is stored four to a word where aligned: on the
 * core each store is a trip to DRAM. */
static void softmax_q_row(const int8_t *xr, int8_t *yr, size_t n, size_t inner, const int32_t *tm,
                          const sm_out *o) {
  size_t k = 0;
  if (inner == 1) {
    for (; k < n && !tfw_aligned4(yr + k); k++) yr[k] = sm_value((uint32_t)tm[-xr[k]], o);
    for (; k + 4 <= n; k += 4) {
      uint32_t w = (uint8_t)sm_value((uint32_t)tm[-xr[k]], o);
      w |= (uint32_t)(uint8_t)sm_value((uint32_t)tm[-xr[k + 1]], o) << 8;
      w |= (uint32_t)(uint8_t)sm_value((uint32_t)tm[-xr[k + 2]], o) << 16;
      w |= (uint32_t)(uint8_t)sm_value((uint32_t)tm[-xr[k + 3]], o) << 24;
      tfw_wr32((uint8_t *)yr + k, w);
    }
  }
  for (; k < n; k++) yr[k * inner] = sm_value((uint32_t)tm[-xr[k * inner]], o);
}

/* R = floor(mult 2^31 / s) (mult < 2^31, 2^15 <= s) as long division k
 * bits at a time with 32-bit divides, when every partial remainder r < s
 * keeps r 2^k < 2^32: a row of n <= 2^(17-k) entries of at most 2^15 has
 * s <= 2^(32-k). R = (mult / s) 2^31 + lo, the 31 bits of lo k (the last
 * fewer) a divide: 1 + ceil(31 / k) divides, 4 for rows of 3 to 64, where
 * libgcc's 64/32-bit division took 250 cycles a row on the core. (r - d s,
 * not a remainder instruction: that would be a second divide.) */
static inline __attribute__((always_inline)) uint64_t sm_recip_long(uint32_t mult, uint32_t s, unsigned k) {
  uint32_t top = mult / s, lo = 0;
  __asm__("" : "+r"(top));
  uint32_t r = mult - top * s;
  for (unsigned left = 31; left;) {
    unsigned b = left < k ? left : k;
    r <<= b;
    uint32_t d = r / s;
    __asm__("" : "+r"(d));
    r -= d * s, lo = lo << b | d, left -= b;
  }
  return (uint64_t)top << 31 | lo;
}

/* R for any row (k = 0: the 64-bit division). */
static uint64_t sm_recip(uint32_t mult, uint32_t s, unsigned k) {
  return k ? sm_recip_long(mult, s, k) : ((uint64_t)mult << 31) / s;
}

/* sm_recip's k for rows of n: the largest k <= 17 with n <= 2^(17-k), 0
 * below 8 (rows above 512, the 64-bit division). */
static unsigned sm_recip_bits(size_t n) {
  unsigned k = 17;
  while (k >= 8 && n > (1u << (17 - k))) k--;
  return k >= 8 ? k : 0;
}

/* One output when 32 < sh < 63, before the zero point: q = (hi +
 * 2^(sh-33)) >> (sh - 32) < 2^31, never negative. */
static inline __attribute__((always_inline)) uint32_t sm_q(uint32_t tv, uint32_t rh, uint32_t rl, uint32_t half,
                                                           unsigned s2) {
  return (tv * rh + (uint32_t)(((uint64_t)tv * rl) >> 32) + half) >> s2;
}

/* The largest of a contiguous row of n, a multiple of 4, four at a time
 * from the first: one test of the four (m - x < 0 for one larger than m),
 * the rare new largest out of the way (on the core a taken forward branch
 * costs a cycle). */
static inline __attribute__((always_inline)) int32_t row_max4(const int8_t *p, size_t n) {
  int32_t m = p[0];
  for (const int8_t *end = p + n; p < end; p += 4) {
    int32_t a = p[0], b = p[1], c = p[2], d = p[3];
    if (__builtin_expect(((m - a) | (m - b) | (m - c) | (m - d)) < 0, 0)) {
      m = a > m ? a : m, m = b > m ? b : m;
      m = c > m ? c : m, m = d > m ? d : m;
    }
  }
  return m;
}

/* The rows softmax_q_rows4 takes: at most this long (their T values on the
 * stack). */
#define SM_ROW_MAX 256

/* The usual case, one call for all the rows: contiguous rows (inner 1) of
 * n <= SM_ROW_MAX, a multiple of 4, the output 4-aligned, 32 < sh < 63.
 * Per row: the max, the T values kept (tv, in the data TCM on the core: the
 * output pass reads them, not the row and the table again) and summed, R
 * by sm_recip_long (k >= 9), and, when no output saturates (q of T[0], the
 * largest, at most 127 - zp), y = zp + q stored four to a word: each byte q
 * + zp + 128 (0..255: no carry into the next), then 0x80 flipped, (zp + q)
 * mod 256. A row that saturates takes sm_value. */
static __attribute__((noinline)) void softmax_q_rows4(const int8_t *xr, int8_t *yr, size_t rows, size_t n,
                                                      const int32_t *t, sm_out *o, uint32_t mult, unsigned k) {
  uint32_t tv[SM_ROW_MAX], *vend = tv + n;
  uint32_t half = o->half, bias = (uint32_t)(o->zp + 128) * 0x01010101u, lim = (uint32_t)(127 - o->zp);
  unsigned s2 = o->s2;
  for (; rows; rows--, xr += n, yr += n) {
    const int32_t *tm = t + row_max4(xr, n);
    const int8_t *p = xr;
    uint32_t s = 0, *v = tv; /* s <= 256 * 2^15 */
    for (; v < vend; v += 4, p += 4) {
      uint32_t a = (uint32_t)tm[-p[0]], b = (uint32_t)tm[-p[1]], c = (uint32_t)tm[-p[2]], d = (uint32_t)tm[-p[3]];
      v[0] = a, v[1] = b, v[2] = c, v[3] = d;
      s += a + b + c + d;
    }
    uint64_t r = sm_recip_long(mult, s, k);
    uint32_t rh = (uint32_t)(r >> 32), rl = (uint32_t)r;
    if (sm_q(32768u, rh, rl, half, s2) > lim) {
      o->rh = rh, o->rl = rl;
      for (size_t i = 0; i < n; i++) yr[i] = sm_value(tv[i], o);
      continue;
    }
    int8_t *q = yr;
    for (v = tv; v < vend; v += 4, q += 4) {
      uint32_t w = sm_q(v[0], rh, rl, half, s2) | sm_q(v[1], rh, rl, half, s2) << 8 |
                   sm_q(v[2], rh, rl, half, s2) << 16 | sm_q(v[3], rh, rl, half, s2) << 24;
      tfw_wr32_aligned((uint8_t *)q, (w + bias) ^ 0x80808080u);
    }
  }
}

int tfw_k_softmax_q(const tfw_call *c) {
  int e = tfw_op_operands(c, 2, 2);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *tt = &c->in[1], *y = c->out;
  if (c->n_ints != 4 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  int32_t mult = c->ints[1], shift = c->ints[2], zp = c->ints[3];
  if (mult < (1 << 30) || shift < 0 || shift > 96 || zp < -128 || zp > 127) return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_I8 || y->dtype != TPKG_DT_I8 || tt->dtype != TPKG_DT_I32) return TFW_FB_E_DTYPE;
  uint32_t ax;
  if (!tfw_op_same_dims(x, y) || !tfw_op_axis(c->ints[0], x->rank, &ax) || tt->rank != 1 || tt->dims[0] != 256)
    return TFW_FB_E_SHAPE;
  int32_t t[256];
  if (!sm_table(tt->data, t)) return TFW_FB_E_PARAM;
  size_t outer, n, inner;
  rows_of(x, ax, 1, &outer, &n, &inner);
  if (n > 65536u) return TFW_FB_E_SHAPE;
  const int8_t *xp = (const int8_t *)x->data;
  int8_t *yp = (int8_t *)y->data;
  unsigned sh = 31u + (unsigned)shift;
  sm_out o = {.sh = sh, .s2 = sh - 32u, .fast = sh > 32u && sh < 63u, .zp = zp};
  o.half = o.fast ? 1u << (sh - 33u) : 0u;
  unsigned k = sm_recip_bits(n);
  if (inner == 1 && o.fast && n <= SM_ROW_MAX && n % 4 == 0 && tfw_aligned4(yp)) {
    softmax_q_rows4(xp, yp, outer, n, t, &o, (uint32_t)mult, k);
    return TFW_FB_OK;
  }
  for (size_t row = 0; row < outer; row++)
    for (size_t i = 0; i < inner; i++) {
      const int8_t *xr = xp + row * n * inner + i;
      int8_t *yr = yp + row * n * inner + i;
      int32_t m = row_max(xr, n, inner);
      uint32_t s = 0; /* <= 65536 * 2^15 */
      const int32_t *tm = t + m;
      if (inner == 1)
        for (const int8_t *p = xr; p < xr + n; p++) s += (uint32_t)tm[-*p];
      else
        for (size_t j = 0; j < n; j++) s += (uint32_t)tm[-xr[j * inner]];
      uint64_t r = sm_recip((uint32_t)mult, s, k); /* < 2^47: s >= 2^15 */
      o.rh = (uint32_t)(r >> 32), o.rl = (uint32_t)r;
      softmax_q_row(xr, yr, n, inner, tm, &o);
    }
  return TFW_FB_OK;
}

/* Softmax of int8 to f32: S sums the row's table entries in Q46 (an entry
 * is at most 1 = T[0], a row at most 2^16 long: S < 2^63; what an entry
 * loses below 2^-46 is < 2^-30 of S, which T[0] alone makes >= 1). With
 * S32 = S's top 32 bits (S >> sh) and R = floor((2^63 - 1) / S32), one
 * 64/32-bit division per row, each output is T * R * 2^(46 - 63 - sh) rounded
 * once: within 2^-30 of T / S before the rounding. A table with an entry
 * outside [0, 1] (its bits above 1.0f's: negative, NaN, > 1) is refused. */
#define QF_ONE_BITS 0x3f800000u

/* p * 2^e rounded to f32 (nearest, ties to even) as tfw_f32_scaled does, a
 * shorter way for the usual case: p in [2^54, 2^56) (a normal entry times
 * R) and a normal result. */
static float qf_round(uint64_t p, int32_t e) {
  uint32_t s = p >> 55 ? 32u : 31u; /* p >> s in [2^23, 2^24) */
  int32_t b = e + (int32_t)s + 150;  /* the result's biased exponent */
  if (p < (1ull << 54) || b < 1) return tfw_f32_scaled(p, e);
  uint64_t q = p >> s, rem = p & ((1ull << s) - 1u), half = 1ull << (s - 1u);
  if (rem > half || (rem == half && (q & 1u))) q++;
  return tfw_bits_f32(((uint32_t)(b - 1) << 23) + (uint32_t)q); /* q = 2^24 carries into the exponent */
}

/* T[0] is 1 and every entry the rows use is in [0, 1] (bits at most 1.0f's:
 * not negative, not NaN). Checked before anything is written: the entries a
 * short tensor uses (two reads per element), or all 256. */
static int qf_table_ok(const uint32_t *t, const int8_t *xp, size_t outer, size_t n, size_t inner) {
  if (t[0] != QF_ONE_BITS) return 0;
  if (outer * n * inner >= 256) {
    for (int k = 1; k < 256; k++)
      if (t[k] > QF_ONE_BITS) return 0;
    return 1;
  }
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < inner; i++) {
      const int8_t *xr = xp + o * n * inner + i;
      int32_t m = row_max(xr, n, inner);
      for (size_t k = 0; k < n; k++)
        if (t[m - xr[k * inner]] > QF_ONE_BITS) return 0;
    }
  return 1;
}

int tfw_k_softmax_qf(const tfw_call *c) {
  int e = tfw_op_operands(c, 2, 2);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *tt = &c->in[1], *y = c->out;
  if (c->n_ints != 1 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_I8 || y->dtype != TPKG_DT_F32 || tt->dtype != TPKG_DT_F32) return TFW_FB_E_DTYPE;
  uint32_t ax;
  if (!tfw_op_same_dims(x, y) || !tfw_op_axis(c->ints[0], x->rank, &ax) || tt->rank != 1 || tt->dims[0] != 256)
    return TFW_FB_E_SHAPE;
  const uint32_t *t = (const uint32_t *)tt->data; /* f32 bits */
  size_t outer, n, inner;
  rows_of(x, ax, 1, &outer, &n, &inner);
  if (n > 65536u) return TFW_FB_E_SHAPE;
  const int8_t *xp = (const int8_t *)x->data;
  float *yp = (float *)y->data;
  if (!qf_table_ok(t, xp, outer, n, inner)) return TFW_FB_E_PARAM;
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < inner; i++) {
      const int8_t *xr = xp + o * n * inner + i;
      float *yr = yp + o * n * inner + i;
      int32_t m = row_max(xr, n, inner);
      uint64_t s = 0;
      for (size_t k = 0; k < n; k++) {
        uint32_t b = t[m - xr[k * inner]], ex = b >> 23;
        uint64_t mant = (b & 0x7fffffu) | (ex ? 0x800000u : 0u);
        int32_t up = (int32_t)(ex ? ex : 1) - 104; /* the entry is mant * 2^(up - 46) */
        s += up >= 0 ? mant << up : (up > -24 ? mant >> -up : 0);
      }
      int32_t sh = 15; /* s >= 2^46 */
      while (s >> sh >= (1ull << 32)) sh++;
      uint64_t r = 0x7fffffffffffffffull / (uint32_t)(s >> sh); /* < 2^32 */
      for (size_t k = 0; k < n; k++) {
        uint32_t b = t[m - xr[k * inner]], ex = b >> 23;
        uint64_t mant = (b & 0x7fffffu) | (ex ? 0x800000u : 0u);
        yr[k * inner] = qf_round(mant * r, (int32_t)(ex ? ex : 1) - 167 - sh);
      }
    }
  return TFW_FB_OK;
}

int tfw_k_layernorm_q(const tfw_call *c) {
  int e = tfw_op_operands(c, 3, 3);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *gt = &c->in[1], *bt = &c->in[2], *y = c->out;
  if (c->n_ints != 6 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  int32_t zx = c->ints[1], zy = c->ints[2], gs = c->ints[3];
  uint64_t eps = (uint64_t)(uint32_t)c->ints[4] | (uint64_t)(uint32_t)c->ints[5] << 32;
  if (zx < -128 || zx > 127 || zy < -128 || zy > 127 || gs < 0 || gs > 30 || eps >= (1ull << 62))
    return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_I8 || y->dtype != TPKG_DT_I8 || gt->dtype != TPKG_DT_I32 || bt->dtype != TPKG_DT_I64)
    return TFW_FB_E_DTYPE;
  uint32_t ax;
  if (!tfw_op_same_dims(x, y) || !tfw_op_axis(c->ints[0], x->rank, &ax)) return TFW_FB_E_SHAPE;
  size_t outer, n, inner;
  rows_of(x, ax, x->rank - ax, &outer, &n, &inner);
  int ok = 1;
  if (n > 65536u || tfw_op_elems(gt, &ok) != n || tfw_op_elems(bt, &ok) != n || !ok) return TFW_FB_E_SHAPE;
  const int32_t *g = (const int32_t *)gt->data;
  const int64_t *b = (const int64_t *)bt->data;
  for (size_t k = 0; k < n; k++)
    if (g[k] <= -(1 << 30) || g[k] >= (1 << 30) || b[k] <= -(1ll << 61) || b[k] >= (1ll << 61))
      return TFW_FB_E_PARAM;
  const int8_t *xp = (const int8_t *)x->data;
  int8_t *yp = (int8_t *)y->data;
  for (size_t o = 0; o < outer; o++) {
    const int8_t *xr = xp + o * n;
    int32_t s = 0;
    uint64_t q = 0;
    for (size_t k = 0; k < n; k++) {
      int32_t d = xr[k] - zx;
      s += d, q += (uint64_t)(d * d);
    }
    /* V = n * Q - S^2 + E = n^2 (var + eps) / s_in^2, normalised to 32 bits by an even shift */
    uint64_t v = (uint64_t)n * q - (uint64_t)((int64_t)s * s) + eps;
    unsigned ev = 0;
    while ((v >> ev) >> 32) ev += 2;
    uint64_t vn = v >> ev, inv = vn ? isqrt64((1ull << 62) / vn) : 0; /* ~ 2^(31 + ev/2) / sqrt(V) */
    for (size_t k = 0; k < n; k++) {
      int64_t cz = (int64_t)n * (xr[k] - zx) - s;                   /* |cz| < 2^25 */
      int64_t z = tfw_op_shr_rne(cz * (int64_t)inv, 15u + ev / 2u);       /* the normalised value, Q16 */
      int64_t acc = z * g[k] + b[k];                                /* Q(16 + gs) output steps */
      yp[o * n + k] = sat8(tfw_op_shr_rne(acc, 16u + (unsigned)gs) + zy);
    }
  }
  return TFW_FB_OK;
}
