/* tfw_ops_elem: the element-wise kernels of the control core (tfw_ops.h):
 * UNARY, BINARY (numpy broadcasting, n-ary for ADD MUL MIN MAX MEAN), WHERE,
 * CAST, LUT and the int8 MUL_Q (broadcasting too).
 *
 * Arithmetic (tfw_ops.h rules): f32 +, -, *, / and comparisons, the
 * functions of tfw_math.h, int <-> f32 conversions; every f32 NaN stored is
 * 0x7fc00000. Integers are computed in 64 bits (uint64_t where they may
 * wrap) and stored truncated to their width: two's complement wrap, no UB.
 * Integer division by 0 gives 0 and INT_MIN / -1 wraps, so nothing traps.
 *
 * Broadcasting needs no scratch memory: each input gets an element stride
 * per output dimension (0 where it broadcasts), and the kernels walk the
 * output row by row (the last dimension), stepping every input's offset.
 * An n-ary BINARY folds into the output: out = in0 op in1, then
 * out = out op in_k for k = 2..n-1 (the same left fold, rounded the same). */
#include "tfw_math.h"
#include "tfw_mem.h"
#include "tfw_ops.h"
#include "tfw_ops_check.h"

/* ---- element access ---------------------------------------------------------- */

/* Operands are aligned to their element size (tfw_ops.h); may_alias makes
 * the typed access legal on byte buffers. Other compilers take bytes. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef uint32_t __attribute__((may_alias)) el_u32;
typedef uint64_t __attribute__((may_alias)) el_u64;
static uint32_t ld32(const uint8_t *p, size_t i) { return ((const el_u32 *)p)[i]; }
static uint64_t ld64(const uint8_t *p, size_t i) { return ((const el_u64 *)p)[i]; }
static void st32(uint8_t *p, size_t i, uint32_t v) { ((el_u32 *)p)[i] = v; }
static void st64(uint8_t *p, size_t i, uint64_t v) { ((el_u64 *)p)[i] = v; }
#else
static uint32_t ld32(const uint8_t *p, size_t i) {
  p += i * 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t ld64(const uint8_t *p, size_t i) { return ld32(p, 2 * i) | (uint64_t)ld32(p, 2 * i + 1) << 32; }
static void st32(uint8_t *p, size_t i, uint32_t v) {
  p += i * 4;
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static void st64(uint8_t *p, size_t i, uint64_t v) { st32(p, 2 * i, (uint32_t)v), st32(p, 2 * i + 1, (uint32_t)(v >> 32)); }
#endif

#define EL_NAN 0x7fc00000u

static float ld_f32(const uint8_t *p, size_t i) { return tfw_bits_f32(ld32(p, i)); }
static void st_f32(uint8_t *p, size_t i, float v) { st32(p, i, v != v ? EL_NAN : tfw_f32_bits(v)); }

/* Any integer dtype (and bool, as 0/1) widened to 64 bits. */
static int64_t ld_int(const uint8_t *p, uint32_t dt, size_t i) {
  switch (dt) {
  case TPKG_DT_U8: return p[i];
  case TPKG_DT_I8: return (int64_t)p[i] - (int64_t)((p[i] & 0x80u) << 1);
  case TPKG_DT_BOOL: return p[i] != 0;
  case TPKG_DT_I16: case TPKG_DT_U16: {
    uint32_t u = (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
    return dt == TPKG_DT_U16 ? (int64_t)u : (int64_t)u - (int64_t)((u & 0x8000u) << 1);
  }
  case TPKG_DT_I32: {
    uint32_t u = ld32(p, i);
    return (int64_t)u - (int64_t)((uint64_t)(u & 0x80000000u) << 1);
  }
  case TPKG_DT_U32: return (int64_t)ld32(p, i);
  default: return (int64_t)ld64(p, i); /* I64 */
  }
}

/* v truncated to dt's width (bool: v != 0). */
static void st_int(uint8_t *p, uint32_t dt, size_t i, uint64_t v) {
  switch (dt) {
  case TPKG_DT_U8: case TPKG_DT_I8: p[i] = (uint8_t)v; break;
  case TPKG_DT_BOOL: p[i] = v != 0; break;
  case TPKG_DT_I16: case TPKG_DT_U16: p[2 * i] = (uint8_t)v, p[2 * i + 1] = (uint8_t)(v >> 8); break;
  case TPKG_DT_I32: case TPKG_DT_U32: st32(p, i, (uint32_t)v); break;
  default: st64(p, i, v); break;
  }
}

static int is_int(uint32_t dt) {
  return dt == TPKG_DT_U8 || dt == TPKG_DT_I8 || dt == TPKG_DT_I16 || dt == TPKG_DT_U16 || dt == TPKG_DT_I32 ||
         dt == TPKG_DT_U32 || dt == TPKG_DT_I64;
}
static int is_known(uint32_t dt) { return dt == TPKG_DT_F32 || dt == TPKG_DT_BOOL || is_int(dt); }

/* Range of an integer dtype. */
static void int_range(uint32_t dt, int64_t *lo, int64_t *hi) {
  switch (dt) {
  case TPKG_DT_U8: *lo = 0, *hi = 255; break;
  case TPKG_DT_I8: *lo = -128, *hi = 127; break;
  case TPKG_DT_I16: *lo = -32768, *hi = 32767; break;
  case TPKG_DT_U16: *lo = 0, *hi = 65535; break;
  case TPKG_DT_I32: *lo = -2147483647 - 1, *hi = 2147483647; break;
  case TPKG_DT_U32: *lo = 0, *hi = 4294967295; break;
  case TPKG_DT_BOOL: *lo = 0, *hi = 1; break;
  default: *lo = INT64_MIN, *hi = INT64_MAX; break;
  }
}

/* f32 -> int64 truncated toward zero, saturated; NaN gives 0. */
static int64_t f32_to_i64_sat(float x) {
  if (x != x) return 0;
  if (x >= 9223372036854775808.0f) return INT64_MAX;
  if (x <= -9223372036854775808.0f) return INT64_MIN;
  return (int64_t)x;
}

/* ---- operand checks -------------------------------------------------------- */

/* Elements of t, 0 for a bad tensor (NULL data with elements, rank > 8, or
 * more elements than a size_t can index 8-byte elements of) via *ok. */
static size_t el_numel(const tfw_tensor *t, int *ok) {
  uint64_t n = 1;
  if (t->rank > TFW_MAX_RANK) {
    *ok = 0;
    return 0;
  }
  for (uint32_t i = 0; i < t->rank; i++) {
    n *= t->dims[i];
    if (n > (uint64_t)(SIZE_MAX / 8)) {
      *ok = 0;
      return 0;
    }
  }
  if (n && !t->data) *ok = 0;
  return (size_t)n;
}

/* The generic checks of a call: operand counts, tensors well-formed with
 * known dtypes, exactly n_ints integer parameters, at most max_floats floats.
 * Counts out of range are TFW_FB_E_SHAPE, as tfw_op_run has them. */
static int check_call(const tfw_call *c, uint32_t min_in, uint32_t max_in, uint32_t n_ints, uint32_t max_floats) {
  if (!c || !c->in || !c->out) return TFW_FB_E_ARG;
  if (c->n_in < min_in || c->n_in > max_in || c->n_out != 1) return TFW_FB_E_SHAPE;
  if (c->n_ints != n_ints || (n_ints && !c->ints) || c->n_floats > max_floats || (c->n_floats && !c->floats))
    return TFW_FB_E_PARAM;
  for (uint32_t i = 0; i <= c->n_in; i++) {
    const tfw_tensor *t = i < c->n_in ? &c->in[i] : c->out;
    int ok = 1;
    el_numel(t, &ok);
    if (!ok) return t->rank > TFW_MAX_RANK ? TFW_FB_E_SHAPE : TFW_FB_E_ARG;
    if (!is_known(t->dtype)) return TFW_FB_E_DTYPE;
  }
  return 0;
}

static int same_dims(const tfw_tensor *a, const tfw_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (uint32_t i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

static size_t numel(const tfw_tensor *t) {
  int ok = 1;
  return el_numel(t, &ok);
}

/* ---- broadcasting -------------------------------------------------------------- */

/* Whether out's dims are exactly the numpy broadcast of the n tensors'. */
static int broadcast_ok(const tfw_tensor *const *in, uint32_t n, const tfw_tensor *out) {
  uint32_t R = 0;
  for (uint32_t k = 0; k < n; k++) R = in[k]->rank > R ? in[k]->rank : R;
  if (out->rank != R) return 0;
  for (uint32_t d = 0; d < R; d++) { /* d counts from the last dimension */
    uint32_t target = 1;
    for (uint32_t k = 0; k < n; k++) {
      if (d >= in[k]->rank) continue;
      uint32_t v = in[k]->dims[in[k]->rank - 1 - d];
      if (v == 1) continue;
      if (target != 1 && target != v) return 0;
      target = v;
    }
    if (out->dims[R - 1 - d] != target) return 0;
  }
  return 1;
}

#define BC_MAX 3u

/* A walk over the output, row by row, with each input's element offset. */
typedef struct {
  uint32_t rank;                    /* output rank, >= 1 (a scalar is [1]) */
  uint32_t dims[TFW_MAX_RANK];      /* output dims */
  size_t stride[BC_MAX][TFW_MAX_RANK]; /* input element strides per output dim, 0 where broadcast */
  uint32_t idx[TFW_MAX_RANK];       /* current row's index (last dim unused) */
  size_t off[BC_MAX];               /* each input's offset at the start of the row */
  size_t rows, len;                 /* rows of the output, elements per row */
  uint32_t n;                       /* inputs */
} bc_walk;

/* in[0..n-1] broadcast to out (broadcast_ok already held). */
static void bc_init(bc_walk *w, const tfw_tensor *const *in, uint32_t n, const tfw_tensor *out) {
  w->n = n;
  w->rank = out->rank ? out->rank : 1;
  for (uint32_t d = 0; d < w->rank; d++) w->dims[d] = out->rank ? out->dims[d] : 1, w->idx[d] = 0;
  for (uint32_t k = 0; k < n; k++) {
    size_t s = 1;
    w->off[k] = 0;
    for (uint32_t d = w->rank; d-- > 0;) {
      uint32_t back = w->rank - 1 - d; /* position from the end */
      uint32_t v = back < in[k]->rank ? in[k]->dims[in[k]->rank - 1 - back] : 1;
      w->stride[k][d] = v == 1 ? 0 : s;
      s *= v;
    }
  }
  /* Neighbouring dims every input walks as one (contiguous, or broadcast
   * in both) become one: rows as long as they can be (a squeeze-excitation
   * gate [1,C,1,1] against [1,C,H,W]: rows of H*W), the same elements in
   * the same order. */
  for (uint32_t d = w->rank - 1; d-- > 0;) {
    uint32_t k = 0;
    while (k < n && w->stride[k][d] == w->stride[k][d + 1] * w->dims[d + 1]) k++;
    if (k < n) continue;
    w->dims[d] *= w->dims[d + 1];
    for (k = 0; k < n; k++) w->stride[k][d] = w->stride[k][d + 1];
    for (uint32_t e = d + 1; e + 1 < w->rank; e++) {
      w->dims[e] = w->dims[e + 1];
      for (k = 0; k < n; k++) w->stride[k][e] = w->stride[k][e + 1];
    }
    w->rank--;
  }
  w->len = w->dims[w->rank - 1];
  w->rows = 1;
  for (uint32_t d = 0; d + 1 < w->rank; d++) w->rows *= w->dims[d];
}

/* To the next row: an odometer over dims 0..rank-2. */
static void bc_next_row(bc_walk *w) {
  for (uint32_t d = w->rank - 1; d-- > 0;) {
    for (uint32_t k = 0; k < w->n; k++) w->off[k] += w->stride[k][d];
    if (++w->idx[d] < w->dims[d]) return;
    w->idx[d] = 0;
    for (uint32_t k = 0; k < w->n; k++) w->off[k] -= w->stride[k][d] * w->dims[d];
  }
}

/* ---- UNARY ------------------------------------------------------------------- */

static float clamp01(float v) { return v != v ? v : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

static float softplus(float x) { /* log(1 + e^x) without overflow */
  if (x > 0.0f) return x + tfw_log1pf(tfw_expf(-x));
  return tfw_log1pf(tfw_expf(x));
}

#define SQRT1_2 0.707106781186547524f     /* 1 / sqrt 2 */
#define SQRT_2_PI 0.797884560802865356f   /* sqrt(2 / pi) */

/* One f32 element of fn; a = alpha (floats[0]), b = beta (floats[1]). */
static float un_f32(uint32_t fn, float x, float a, float b) {
  switch (fn) {
  case TFW_UN_RELU: return x < 0.0f ? 0.0f : x;
  case TFW_UN_SIGMOID: return tfw_sigmoidf(x);
  case TFW_UN_TANH: return tfw_tanhf(x);
  case TFW_UN_EXP: return tfw_expf(x);
  case TFW_UN_LOG: return tfw_logf(x);
  case TFW_UN_SQRT: return tfw_sqrtf(x);
  case TFW_UN_NEG: return -x;
  case TFW_UN_ABS: return tfw_fabsf(x);
  case TFW_UN_FLOOR: return tfw_floorf(x);
  case TFW_UN_CEIL: return tfw_ceilf(x);
  case TFW_UN_ROUND: return tfw_rintf(x);
  case TFW_UN_RECIPROCAL: return 1.0f / x;
  case TFW_UN_ERF: return tfw_erff(x);
  case TFW_UN_SOFTSIGN: {
    float m = tfw_fabsf(x);
    if (m == tfw_bits_f32(0x7f800000u)) return x < 0.0f ? -1.0f : 1.0f; /* inf / inf */
    return x / (1.0f + m);
  }
  case TFW_UN_SOFTPLUS: return softplus(x);
  case TFW_UN_GELU: return 0.5f * x * (1.0f + tfw_erff(x * SQRT1_2));
  case TFW_UN_GELU_TANH: return 0.5f * x * (1.0f + tfw_tanhf(SQRT_2_PI * (x + 0.044715f * x * x * x)));
  case TFW_UN_MISH: return x * tfw_tanhf(softplus(x));
  case TFW_UN_HARD_SIGMOID: return clamp01(a * x + b);
  case TFW_UN_HARD_SWISH: return x * clamp01(x * (1.0f / 6.0f) + 0.5f);
  case TFW_UN_ELU: return x < 0.0f ? a * tfw_expm1f(x) : x;
  case TFW_UN_SELU: return x <= 0.0f ? b * (a * tfw_expm1f(x)) : b * x;
  case TFW_UN_CELU: {
    float lo = a * tfw_expm1f(x / a);
    return (x > 0.0f ? x : 0.0f) + (lo < 0.0f ? lo : 0.0f);
  }
  case TFW_UN_LEAKY_RELU: return x < 0.0f ? a * x : x;
  case TFW_UN_CLIP: {
    if (x != x) return x;
    float v = x < a ? a : x;
    return v > b ? b : v;
  }
  case TFW_UN_THRESHOLDED_RELU: return x > a ? x : 0.0f;
  case TFW_UN_SIGN: return x != x ? x : x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
  case TFW_UN_SILU: return x * tfw_sigmoidf(x);
  }
  return x; /* not reached: fn checked */
}

/* Floats each fn needs (alpha, beta); -1: not an f32 function. */
static int un_floats(uint32_t fn) {
  switch (fn) {
  case TFW_UN_ELU: case TFW_UN_CELU: case TFW_UN_LEAKY_RELU: case TFW_UN_THRESHOLDED_RELU: return 1;
  case TFW_UN_HARD_SIGMOID: case TFW_UN_SELU: case TFW_UN_CLIP: return 2;
  case TFW_UN_NOT: return -1;
  }
  return fn >= TFW_UN_RELU && fn <= TFW_UN_SILU ? 0 : -1;
}

static int un_int_ok(uint32_t fn) {
  return fn == TFW_UN_NEG || fn == TFW_UN_ABS || fn == TFW_UN_SIGN || fn == TFW_UN_RELU || fn == TFW_UN_CLIP;
}

/* A Clip bound for integers: ceil of the lower, floor of the upper, saturated. */
static int64_t int_bound(float v, int upper, uint32_t dt) {
  int64_t lo, hi, r = f32_to_i64_sat(upper ? tfw_floorf(v) : tfw_ceilf(v));
  int_range(dt, &lo, &hi);
  return r < lo ? lo : r > hi ? hi : r;
}

int tfw_k_unary(const tfw_call *c) {
  int rc = check_call(c, 1, 1, 1, 2);
  if (rc) return rc;
  const tfw_tensor *in = &c->in[0], *out = c->out;
  uint32_t fn = (uint32_t)c->ints[0], dt = in->dtype;
  if (fn < TFW_UN_RELU || fn > TFW_UN_SILU) return TFW_FB_E_PARAM;
  if (out->dtype != dt) return TFW_FB_E_DTYPE;
  if (dt == TPKG_DT_BOOL ? fn != TFW_UN_NOT : dt == TPKG_DT_F32 ? fn == TFW_UN_NOT : !un_int_ok(fn))
    return TFW_FB_E_DTYPE;
  if (fn != TFW_UN_NOT && c->n_floats < (uint32_t)un_floats(fn)) return TFW_FB_E_PARAM;
  float a = c->n_floats > 0 ? c->floats[0] : 0.0f, b = c->n_floats > 1 ? c->floats[1] : 0.0f;
  if (fn == TFW_UN_CLIP && (a != a || b != b)) return TFW_FB_E_PARAM;
  if (fn == TFW_UN_CELU && a == 0.0f) return TFW_FB_E_PARAM;
  if (!same_dims(in, out)) return TFW_FB_E_SHAPE;
  size_t n = numel(out);
  if (dt == TPKG_DT_F32) {
    for (size_t i = 0; i < n; i++) st_f32(out->data, i, un_f32(fn, ld_f32(in->data, i), a, b));
  } else if (dt == TPKG_DT_BOOL) {
    for (size_t i = 0; i < n; i++) out->data[i] = in->data[i] == 0;
  } else {
    int64_t lo = fn == TFW_UN_CLIP ? int_bound(a, 0, dt) : 0, hi = fn == TFW_UN_CLIP ? int_bound(b, 1, dt) : 0;
    for (size_t i = 0; i < n; i++) {
      int64_t v = ld_int(in->data, dt, i);
      uint64_t r = (uint64_t)v;
      switch (fn) {
      case TFW_UN_NEG: r = 0u - (uint64_t)v; break;
      case TFW_UN_ABS: r = v < 0 ? 0u - (uint64_t)v : (uint64_t)v; break;
      case TFW_UN_SIGN: r = (uint64_t)(v > 0 ? 1 : v < 0 ? -1 : 0); break;
      case TFW_UN_RELU: r = v < 0 ? 0u : (uint64_t)v; break;
      case TFW_UN_CLIP: {
        int64_t t = v < lo ? lo : v;
        r = (uint64_t)(t > hi ? hi : t);
        break;
      }
      }
      st_int(out->data, dt, i, r);
    }
  }
  return 0;
}

/* ---- BINARY ------------------------------------------------------------------- */

static int bin_nary(uint32_t fn) {
  return fn == TFW_BIN_ADD || fn == TFW_BIN_MUL || fn == TFW_BIN_MIN || fn == TFW_BIN_MAX || fn == TFW_BIN_MEAN;
}
static int bin_compare(uint32_t fn) { return fn >= TFW_BIN_EQUAL && fn <= TFW_BIN_GREATER_EQUAL; }
static int bin_logic(uint32_t fn) { return fn >= TFW_BIN_AND && fn <= TFW_BIN_XOR; }

static float bin_f32(uint32_t fn, float a, float b) {
  switch (fn) {
  case TFW_BIN_ADD: case TFW_BIN_MEAN: return a + b;
  case TFW_BIN_SUB: return a - b;
  case TFW_BIN_MUL: return a * b;
  case TFW_BIN_DIV: return a / b;
  case TFW_BIN_POW: return tfw_powf(a, b);
  case TFW_BIN_MIN: return a != a || b != b ? tfw_bits_f32(EL_NAN) : a < b ? a : b;
  case TFW_BIN_MAX: return a != a || b != b ? tfw_bits_f32(EL_NAN) : a > b ? a : b;
  case TFW_BIN_PRELU: return a < 0.0f ? b * a : a;
  }
  return a;
}

/* a ** b for integers, by squaring, wrapping; a negative exponent gives the
 * truncated 1 / a^|b| (1, -1 or 0; 0 ** negative gives 0). */
static uint64_t ipow(int64_t a, int64_t b) {
  if (b < 0) return a == 1 ? 1u : a == -1 ? ((b & 1) ? (uint64_t)-1 : 1u) : 0u;
  uint64_t r = 1, x = (uint64_t)a, e = (uint64_t)b;
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return r;
}

static uint64_t bin_int(uint32_t fn, int64_t a, int64_t b) {
  switch (fn) {
  case TFW_BIN_ADD: return (uint64_t)a + (uint64_t)b;
  case TFW_BIN_SUB: return (uint64_t)a - (uint64_t)b;
  case TFW_BIN_MUL: return (uint64_t)a * (uint64_t)b;
  case TFW_BIN_DIV:
    if (b == 0) return 0;
    if (b == -1) return 0u - (uint64_t)a; /* INT_MIN / -1 wraps */
    return (uint64_t)(a / b);
  case TFW_BIN_POW: return ipow(a, b);
  case TFW_BIN_MIN: return (uint64_t)(a < b ? a : b);
  case TFW_BIN_MAX: return (uint64_t)(a > b ? a : b);
  case TFW_BIN_PRELU: return a < 0 ? (uint64_t)b * (uint64_t)a : (uint64_t)a;
  }
  return (uint64_t)a;
}

static int cmp_result(uint32_t fn, int lt, int eq, int gt) {
  switch (fn) {
  case TFW_BIN_EQUAL: return eq;
  case TFW_BIN_LESS: return lt;
  case TFW_BIN_GREATER: return gt;
  case TFW_BIN_LESS_EQUAL: return lt || eq;
  default: return gt || eq; /* GREATER_EQUAL */
  }
}

/* One pass: out = fn(x, y), x and y broadcast to out (x may be out itself). */
static void bin_pass(uint32_t fn, const tfw_tensor *x, const tfw_tensor *y, const tfw_tensor *out) {
  const tfw_tensor *ops[2] = {x, y};
  bc_walk w;
  bc_init(&w, ops, 2, out);
  uint32_t dt = x->dtype;
  uint8_t *o = out->data;
  const uint8_t *pa = x->data, *pb = y->data;
  size_t sa = w.stride[0][w.rank - 1], sb = w.stride[1][w.rank - 1], at = 0;
  for (size_t r = 0; r < w.rows; r++, bc_next_row(&w)) {
    size_t ia = w.off[0], ib = w.off[1];
    for (size_t j = 0; j < w.len; j++, at++, ia += sa, ib += sb) {
      if (bin_compare(fn)) {
        int lt, eq, gt;
        if (dt == TPKG_DT_F32) {
          float a = ld_f32(pa, ia), b = ld_f32(pb, ib);
          lt = a < b, eq = a == b, gt = a > b;
        } else {
          int64_t a = ld_int(pa, dt, ia), b = ld_int(pb, dt, ib);
          lt = a < b, eq = a == b, gt = a > b;
        }
        o[at] = (uint8_t)cmp_result(fn, lt, eq, gt);
      } else if (bin_logic(fn)) {
        int a = pa[ia] != 0, b = pb[ib] != 0;
        o[at] = (uint8_t)(fn == TFW_BIN_AND ? a && b : fn == TFW_BIN_OR ? a || b : a != b);
      } else if (dt == TPKG_DT_F32) {
        st_f32(o, at, bin_f32(fn, ld_f32(pa, ia), ld_f32(pb, ib)));
      } else {
        st_int(o, dt, at, bin_int(fn, ld_int(pa, dt, ia), ld_int(pb, dt, ib)));
      }
    }
  }
}

int tfw_k_binary(const tfw_call *c) {
  int rc = check_call(c, 1, 64, 1, 0);
  if (rc) return rc;
  uint32_t fn = (uint32_t)c->ints[0], n = c->n_in, dt = c->in[0].dtype;
  const tfw_tensor *out = c->out;
  if (fn < TFW_BIN_ADD || fn > TFW_BIN_XOR) return TFW_FB_E_PARAM;
  if (!bin_nary(fn) && n != 2) return TFW_FB_E_SHAPE;
  /* 1. dtypes: inputs alike; arithmetic keeps it, comparisons give bool */
  for (uint32_t k = 1; k < n; k++)
    if (c->in[k].dtype != dt) return TFW_FB_E_DTYPE;
  int dt_ok;
  if (bin_compare(fn)) dt_ok = out->dtype == TPKG_DT_BOOL;
  else if (bin_logic(fn)) dt_ok = dt == TPKG_DT_BOOL && out->dtype == TPKG_DT_BOOL;
  else dt_ok = out->dtype == dt && (dt == TPKG_DT_F32 || (is_int(dt) && fn != TFW_BIN_MEAN));
  if (!dt_ok) return TFW_FB_E_DTYPE;
  /* 2. shapes: out is the broadcast of all inputs; PRelu's slope broadcasts to x */
  const tfw_tensor *ins[64];
  for (uint32_t k = 0; k < n; k++) ins[k] = &c->in[k];
  if (!broadcast_ok(ins, n, out)) return TFW_FB_E_SHAPE;
  if (fn == TFW_BIN_PRELU && !same_dims(&c->in[0], out)) return TFW_FB_E_SHAPE;
  /* 3. the left fold */
  if (n == 1) {
    bin_pass(TFW_BIN_MAX, &c->in[0], &c->in[0], out); /* max(x, x) = x (NaN kept, canonical) */
  } else {
    bin_pass(fn, &c->in[0], &c->in[1], out);
    for (uint32_t k = 2; k < n; k++) bin_pass(fn, out, &c->in[k], out);
  }
  if (fn == TFW_BIN_MEAN && n > 1) {
    size_t m = numel(out);
    float d = (float)n;
    for (size_t i = 0; i < m; i++) st_f32(out->data, i, ld_f32(out->data, i) / d);
  }
  return 0;
}

/* ---- WHERE ----------------------------------------------------------------------- */

int tfw_k_where(const tfw_call *c) {
  int rc = check_call(c, 3, 3, 0, 0);
  if (rc) return rc;
  const tfw_tensor *cond = &c->in[0], *x = &c->in[1], *y = &c->in[2], *out = c->out;
  if (cond->dtype != TPKG_DT_BOOL || x->dtype != y->dtype || out->dtype != x->dtype) return TFW_FB_E_DTYPE;
  const tfw_tensor *ops[3] = {cond, x, y};
  if (!broadcast_ok(ops, 3, out)) return TFW_FB_E_SHAPE;
  bc_walk w;
  bc_init(&w, ops, 3, out);
  size_t es = tpkg_dtype_bytes(out->dtype), at = 0;
  size_t sc = w.stride[0][w.rank - 1], sx = w.stride[1][w.rank - 1], sy = w.stride[2][w.rank - 1];
  for (size_t r = 0; r < w.rows; r++, bc_next_row(&w)) {
    size_t ic = w.off[0], ix = w.off[1], iy = w.off[2];
    for (size_t j = 0; j < w.len; j++, at++, ic += sc, ix += sx, iy += sy) {
      const uint8_t *src = cond->data[ic] ? x->data + ix * es : y->data + iy * es;
      uint8_t *dst = out->data + at * es;
      if (out->dtype == TPKG_DT_F32) st_f32(out->data, at, ld_f32(src, 0));
      else
        for (size_t b = 0; b < es; b++) dst[b] = src[b];
    }
  }
  return 0;
}

/* ---- CAST ------------------------------------------------------------------------ */

int tfw_k_cast(const tfw_call *c) {
  int rc = check_call(c, 1, 1, 0, 0);
  if (rc) return rc;
  const tfw_tensor *in = &c->in[0], *out = c->out;
  uint32_t it = in->dtype, ot = out->dtype;
  size_t n = numel(in);
  if (n != numel(out)) return TFW_FB_E_SHAPE;
  int64_t lo, hi;
  int_range(ot, &lo, &hi);
  for (size_t i = 0; i < n; i++) {
    if (it == TPKG_DT_F32) {
      float x = ld_f32(in->data, i);
      if (ot == TPKG_DT_F32) st_f32(out->data, i, x);
      else if (ot == TPKG_DT_BOOL) out->data[i] = x != 0.0f;
      else {
        int64_t v = f32_to_i64_sat(x);
        st_int(out->data, ot, i, (uint64_t)(v < lo ? lo : v > hi ? hi : v));
      }
    } else {
      int64_t v = ld_int(in->data, it, i);
      if (ot == TPKG_DT_F32) st_f32(out->data, i, (float)v); /* to nearest, ties to even */
      else st_int(out->data, ot, i, (uint64_t)v);          /* wraps; bool: != 0 */
    }
  }
  return 0;
}

/* ---- LUT ------------------------------------------------------------------------- */

int tfw_k_lut(const tfw_call *c) {
  int rc = check_call(c, 1, 1, 64, 0);
  if (rc) return rc;
  const tfw_tensor *in = &c->in[0], *out = c->out;
  if ((in->dtype != TPKG_DT_I8 && in->dtype != TPKG_DT_U8) || (out->dtype != TPKG_DT_I8 && out->dtype != TPKG_DT_U8))
    return TFW_FB_E_DTYPE;
  if (!same_dims(in, out)) return TFW_FB_E_SHAPE;
  size_t n = numel(in), i = 0;
  uint8_t flip = in->dtype == TPKG_DT_I8 ? 0x80u : 0u; /* i8 q -> entry q + 128 */
#define LUT_AT(b) ((uint32_t)c->ints[((b) ^ flip) >> 2] >> (8 * (((b) ^ flip) & 3u)) & 0xffu)
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* a word per four elements where both sides are aligned alike: on the SoC
   * each access is a trip to DRAM */
  if ((((uintptr_t)in->data ^ (uintptr_t)out->data) & 3u) == 0) {
    for (; i < n && ((uintptr_t)(in->data + i) & 3u); i++) out->data[i] = (uint8_t)LUT_AT(in->data[i]);
    for (; i + 4 <= n; i += 4) {
      uint32_t v = *(const el_u32 *)(in->data + i);
      *(el_u32 *)(out->data + i) = LUT_AT(v & 0xffu) | LUT_AT(v >> 8 & 0xffu) << 8 | LUT_AT(v >> 16 & 0xffu) << 16 |
                                      LUT_AT(v >> 24) << 24;
    }
  }
#endif
  for (; i < n; i++) out->data[i] = (uint8_t)LUT_AT(in->data[i]);
#undef LUT_AT
  return 0;
}

/* ---- MUL_Q ----------------------------------------------------------------------- */

/* The int8 Mul (docs/quantisation.md "Mul of two int8 tensors"): the NPU's
 * STORE requantisation of the product of the centred operands,
 *   y = clamp(rne_shift((a - zp_a) * (b - zp_b) * mult, shift) + zp_out, lo, hi)
 * |product| <= 255 * 255 < 2^16 and mult < 2^31: exact in 64 bits. */
int tfw_k_mul_q(const tfw_call *c) {
  int rc = check_call(c, 2, 2, 7, 0);
  if (rc) return rc;
  const tfw_tensor *a = &c->in[0], *b = &c->in[1], *out = c->out;
  int32_t za = c->ints[0], zb = c->ints[1], zo = c->ints[2], mult = c->ints[3], shift = c->ints[4];
  int32_t lo = c->ints[5], hi = c->ints[6];
  if (za < -128 || za > 127 || zb < -128 || zb > 127 || zo < -128 || zo > 127 || mult < 0 || shift < 0 ||
      shift > 63 || lo < -128 || lo > hi || hi > 127)
    return TFW_FB_E_PARAM;
  if (a->dtype != TPKG_DT_I8 || b->dtype != TPKG_DT_I8 || out->dtype != TPKG_DT_I8) return TFW_FB_E_DTYPE;
  const tfw_tensor *ins[2] = {a, b};
  if (!broadcast_ok(ins, 2, out)) return TFW_FB_E_SHAPE;
  bc_walk w;
  bc_init(&w, ins, 2, out);
  const int8_t *pa = (const int8_t *)a->data, *pb = (const int8_t *)b->data;
  uint8_t *o = out->data, buf[64]; /* outputs stored a word at a time (tfw_put_bytes) */
  uint32_t nbuf = 0;
  size_t sa = w.stride[0][w.rank - 1], sb = w.stride[1][w.rank - 1];
  unsigned s = (unsigned)shift;
  for (size_t r = 0; r < w.rows; r++, bc_next_row(&w)) {
    const int8_t *xa = pa + w.off[0], *xb = pb + w.off[1];
    for (size_t j = 0; j < w.len; j++, xa += sa, xb += sb) {
      int64_t v = (int64_t)(((int32_t)*xa - za) * ((int32_t)*xb - zb)) * mult;
      int64_t q = (s ? tfw_op_shr_rne(v, s) : v) + zo;
      buf[nbuf++] = (uint8_t)(int8_t)(q < lo ? lo : q > hi ? hi : q);
      if (nbuf == sizeof buf) tfw_put_bytes(o, buf, nbuf), o += nbuf, nbuf = 0;
    }
  }
  tfw_put_bytes(o, buf, nbuf);
  return 0;
}
