/* tfw_ops_move: the control core's data-movement kernels (tfw_ops.h):
 * Transpose, Slice, Concat, Gather, Tile (also Expand), Pad and Resize.
 *
 * All but Resize copy whole elements of any dtype (f32, u8, i8, i32, i64,
 * bool) and so are exact; Resize computes in f32 under tfw_ops.h's rules.
 * Each kernel first validates everything (dtypes, ranks, dims against the
 * parameters and the output, parameter counts and values, Gather's index
 * values), then writes: on an error nothing is written.  No scratch memory:
 * outputs are written in row-major order with an odometer over the outer
 * dims, and the innermost dimension is copied as one run wherever the
 * source is contiguous there (Slice with step 1, Transpose keeping the last
 * axis, Concat, Gather, Tile, Pad's middle part).
 *
 * Element offsets are size_t: every kernel first checks that each operand's
 * bytes (numel * element size) fit in a size_t. */
#include "tfw_ops.h"
#include "tfw_math.h"

#define MV_NAN_BITS 0x7fc00000u

#if defined(__GNUC__)
typedef uint32_t __attribute__((may_alias)) mv_u32;
typedef uint64_t __attribute__((may_alias)) mv_u64;
typedef float __attribute__((may_alias)) mv_f32;
#else
typedef uint32_t mv_u32;
typedef uint64_t mv_u64;
typedef float mv_f32;
#endif

/* ---- shared pieces ---------------------------------------------------------- */

/* Elements of t, or 0 with *ok cleared when its bytes would not fit a size_t. */
static size_t elems(const tfw_tensor *t, int *ok) {
  uint64_t n = 1, sz = tpkg_dtype_bytes(t->dtype);
  if (t->rank > TFW_MAX_RANK || !sz) return *ok = 0, 0;
  for (uint32_t i = 0; i < t->rank; i++) {
    n *= t->dims[i];
    if (n > (uint64_t)SIZE_MAX / 8u) return *ok = 0, 0;
  }
  return (size_t)n;
}

/* Operands of c present, typed and sized: n_in inputs, one output. */
static int operands_ok(const tfw_call *c, uint32_t min_in, uint32_t max_in) {
  if (!c || c->n_in < min_in || c->n_in > max_in || c->n_out != 1 || !c->in || !c->out) return 0;
  int ok = 1;
  for (uint32_t i = 0; i <= c->n_in; i++) {
    const tfw_tensor *t = i < c->n_in ? &c->in[i] : c->out;
    elems(t, &ok);
    if (!ok || !t->data) return 0;
  }
  return 1;
}

static int bad_operands(const tfw_call *c) {
  if (!c || !c->in || !c->out || c->n_out != 1) return TFW_FB_E_ARG;
  for (uint32_t i = 0; i <= c->n_in; i++) {
    const tfw_tensor *t = i < c->n_in ? &c->in[i] : c->out;
    if (!tpkg_dtype_bytes(t->dtype)) return TFW_FB_E_DTYPE;
    if (!t->data) return TFW_FB_E_ARG;
  }
  return TFW_FB_E_SHAPE;
}

/* Row-major element strides of t into st[0..rank-1]. */
static void strides(const tfw_tensor *t, ptrdiff_t *st) {
  ptrdiff_t s = 1;
  for (uint32_t i = t->rank; i-- > 0;) {
    st[i] = s;
    s *= (ptrdiff_t)t->dims[i];
  }
}

/* n contiguous elements of sz bytes from src to dst. */
static void copy_run(uint8_t *dst, const uint8_t *src, size_t n, uint32_t sz) {
  switch (sz) {
  case 4:
    for (size_t i = 0; i < n; i++) ((mv_u32 *)dst)[i] = ((const mv_u32 *)src)[i];
    break;
  case 8:
    for (size_t i = 0; i < n; i++) ((mv_u64 *)dst)[i] = ((const mv_u64 *)src)[i];
    break;
  default:
    for (size_t i = 0; i < n * sz; i++) dst[i] = src[i];
  }
}

/* One element at element index i of src to element index j of dst. */
static void copy_one(uint8_t *dst, size_t j, const uint8_t *src, size_t i, uint32_t sz) {
  switch (sz) {
  case 1: dst[j] = src[i]; break;
  case 4: ((mv_u32 *)dst)[j] = ((const mv_u32 *)src)[i]; break;
  case 8: ((mv_u64 *)dst)[j] = ((const mv_u64 *)src)[i]; break;
  default:
    for (uint32_t b = 0; b < sz; b++) dst[j * sz + b] = src[i * sz + b];
  }
}

/* The output walk shared by Transpose and Slice: out element (i_0..i_{r-1})
 * = src[base + sum i_d * step[d]], written in row-major order, the last dim
 * as one run when its step is 1. */
static void strided_copy(uint8_t *dst, const uint8_t *src, ptrdiff_t base, const uint32_t *dims,
                         const ptrdiff_t *step, uint32_t rank, uint32_t sz) {
  if (rank == 0) {
    copy_one(dst, 0, src, (size_t)base, sz);
    return;
  }
  for (uint32_t d = 0; d < rank; d++)
    if (!dims[d]) return;
  uint32_t idx[TFW_MAX_RANK] = {0};
  size_t inner = dims[rank - 1], o = 0;
  ptrdiff_t off = base, is = step[rank - 1];
  for (;;) {
    if (is == 1) {
      copy_run(dst + o * sz, src + (size_t)off * sz, inner, sz);
    } else {
      for (size_t k = 0; k < inner; k++) copy_one(dst, o + k, src, (size_t)(off + (ptrdiff_t)k * is), sz);
    }
    o += inner;
    uint32_t d = rank - 1;
    for (;;) {
      if (d == 0) return;
      d--;
      off += step[d];
      if (++idx[d] < dims[d]) break;
      off -= step[d] * (ptrdiff_t)dims[d];
      idx[d] = 0;
    }
  }
}

/* Steps the odometer idx over dims[0..n-1] (the last fastest); 0 when it wraps. */
static int next_index(uint32_t *idx, const uint32_t *dims, uint32_t n) {
  for (uint32_t d = n; d-- > 0;) {
    if (++idx[d] < dims[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

/* ---- Transpose: perm[r] ----------------------------------------------------- */

int tfw_k_transpose(const tfw_call *c) {
  if (!operands_ok(c, 1, 1)) return bad_operands(c);
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
  uint32_t r = x->rank;
  if (y->rank != r) return TFW_FB_E_SHAPE;
  if (c->n_ints != r || (r && !c->ints) || c->n_floats) return TFW_FB_E_PARAM;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < r; i++) {
    int32_t p = c->ints[i];
    if (p < 0 || (uint32_t)p >= r || (seen >> p & 1u)) return TFW_FB_E_PARAM;
    seen |= 1u << p;
  }
  for (uint32_t i = 0; i < r; i++)
    if (y->dims[i] != x->dims[c->ints[i]]) return TFW_FB_E_SHAPE;
  ptrdiff_t xs[TFW_MAX_RANK], step[TFW_MAX_RANK];
  strides(x, xs);
  for (uint32_t i = 0; i < r; i++) step[i] = xs[c->ints[i]];
  strided_copy(y->data, x->data, 0, y->dims, step, r, tpkg_dtype_bytes(x->dtype));
  return TFW_FB_OK;
}

/* ---- Slice: start[r] step[r]; the output dims are the counts ---------------- */

int tfw_k_slice(const tfw_call *c) {
  if (!operands_ok(c, 1, 1)) return bad_operands(c);
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
  uint32_t r = x->rank;
  if (y->rank != r) return TFW_FB_E_SHAPE;
  if (c->n_ints != 2 * r || (r && !c->ints) || c->n_floats) return TFW_FB_E_PARAM;
  int empty = 0;
  for (uint32_t d = 0; d < r; d++) {
    int64_t s = c->ints[d], st = c->ints[r + d], n = y->dims[d], last = s + (n - 1) * st;
    if (st == 0) return TFW_FB_E_PARAM;
    if (!n) {
      empty = 1;
      continue;
    }
    if (s < 0 || s >= (int64_t)x->dims[d] || last < 0 || last >= (int64_t)x->dims[d]) return TFW_FB_E_PARAM;
  }
  if (empty) return TFW_FB_OK;
  ptrdiff_t xs[TFW_MAX_RANK], step[TFW_MAX_RANK], base = 0;
  strides(x, xs);
  for (uint32_t d = 0; d < r; d++) {
    base += (ptrdiff_t)c->ints[d] * xs[d];
    step[d] = (ptrdiff_t)c->ints[r + d] * xs[d];
  }
  strided_copy(y->data, x->data, base, y->dims, step, r, tpkg_dtype_bytes(x->dtype));
  return TFW_FB_OK;
}

/* Axis a of rank r (negative counts from the end) into *ax; 0 if out of range. */
static int norm_axis(int32_t a, uint32_t r, uint32_t *ax) {
  int64_t v = a < 0 ? (int64_t)a + r : a;
  if (v < 0 || v >= (int64_t)r) return 0;
  *ax = (uint32_t)v;
  return 1;
}

/* ---- Concat: axis ----------------------------------------------------------- */

int tfw_k_concat(const tfw_call *c) {
  if (!operands_ok(c, 1, 64)) return bad_operands(c);
  const tfw_tensor *y = c->out;
  uint32_t r = y->rank, ax;
  if (c->n_ints != 1 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  if (!norm_axis(c->ints[0], r, &ax)) return TFW_FB_E_SHAPE;
  uint64_t total = 0;
  for (uint32_t k = 0; k < c->n_in; k++) {
    const tfw_tensor *x = &c->in[k];
    if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
    if (x->rank != r) return TFW_FB_E_SHAPE;
    for (uint32_t d = 0; d < r; d++)
      if (d != ax && x->dims[d] != y->dims[d]) return TFW_FB_E_SHAPE;
    total += x->dims[ax];
  }
  if (total != y->dims[ax]) return TFW_FB_E_SHAPE;
  uint32_t sz = tpkg_dtype_bytes(y->dtype);
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < ax; d++) outer *= y->dims[d];
  for (uint32_t d = ax + 1; d < r; d++) inner *= y->dims[d];
  uint8_t *o = y->data;
  for (size_t i = 0; i < outer; i++)
    for (uint32_t k = 0; k < c->n_in; k++) {
      size_t run = (size_t)c->in[k].dims[ax] * inner;
      copy_run(o, c->in[k].data + i * run * sz, run, sz);
      o += run * sz;
    }
  return TFW_FB_OK;
}

/* ---- Gather: axis; data, indices i32/i64 ------------------------------------ */

static int64_t index_at(const tfw_tensor *t, size_t i) {
  if (t->dtype == TPKG_DT_I32) return (int32_t)((const mv_u32 *)t->data)[i];
  return (int64_t)((const mv_u64 *)t->data)[i];
}

int tfw_k_gather(const tfw_call *c) {
  if (!operands_ok(c, 2, 2)) return bad_operands(c);
  const tfw_tensor *x = &c->in[0], *ix = &c->in[1], *y = c->out;
  if (x->dtype != y->dtype || (ix->dtype != TPKG_DT_I32 && ix->dtype != TPKG_DT_I64)) return TFW_FB_E_DTYPE;
  uint32_t r = x->rank, q = ix->rank, ax;
  if (c->n_ints != 1 || !c->ints || c->n_floats) return TFW_FB_E_PARAM;
  if (!norm_axis(c->ints[0], r, &ax) || y->rank != r - 1 + q) return TFW_FB_E_SHAPE;
  for (uint32_t d = 0; d < y->rank; d++) {
    uint32_t want = d < ax ? x->dims[d] : d < ax + q ? ix->dims[d - ax] : x->dims[d - q + 1];
    if (y->dims[d] != want) return TFW_FB_E_SHAPE;
  }
  int ok = 1;
  size_t nidx = elems(ix, &ok), n = x->dims[ax], outer = 1, inner = 1;
  for (uint32_t d = 0; d < ax; d++) outer *= x->dims[d];
  for (uint32_t d = ax + 1; d < r; d++) inner *= x->dims[d];
  for (size_t j = 0; j < nidx; j++) {
    int64_t v = index_at(ix, j);
    if (v < -(int64_t)n || v >= (int64_t)n) return TFW_FB_E_INDEX;
  }
  uint32_t sz = tpkg_dtype_bytes(x->dtype);
  uint8_t *o = y->data;
  for (size_t i = 0; i < outer; i++)
    for (size_t j = 0; j < nidx; j++) {
      int64_t v = index_at(ix, j);
      size_t at = (size_t)(v < 0 ? v + (int64_t)n : v);
      copy_run(o, x->data + ((i * n + at) * inner) * sz, inner, sz);
      o += inner * sz;
    }
  return TFW_FB_OK;
}

/* ---- Tile / Expand: out[i] = in[i mod in_dim], ranks right-aligned ---------- */

int tfw_k_tile(const tfw_call *c) {
  if (!operands_ok(c, 1, 1)) return bad_operands(c);
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
  if (c->n_ints || c->n_floats) return TFW_FB_E_PARAM;
  uint32_t r = y->rank, lead;
  if (x->rank > r) return TFW_FB_E_SHAPE;
  lead = r - x->rank;
  uint32_t xd[TFW_MAX_RANK];
  int empty = 0;
  for (uint32_t d = 0; d < r; d++) {
    xd[d] = d < lead ? 1u : x->dims[d - lead];
    if (xd[d] ? y->dims[d] % xd[d] != 0 : y->dims[d] != 0) return TFW_FB_E_SHAPE;
    if (!y->dims[d]) empty = 1;
  }
  if (empty) return TFW_FB_OK;
  uint32_t sz = tpkg_dtype_bytes(x->dtype);
  if (r == 0) {
    copy_one(y->data, 0, x->data, 0, sz);
    return TFW_FB_OK;
  }
  ptrdiff_t xs[TFW_MAX_RANK];
  ptrdiff_t s = 1;
  for (uint32_t d = r; d-- > 0;) xs[d] = s, s *= (ptrdiff_t)xd[d];
  uint32_t idx[TFW_MAX_RANK] = {0};
  size_t in_run = xd[r - 1], reps = y->dims[r - 1] / in_run, o = 0;
  do {
    size_t off = 0;
    for (uint32_t d = 0; d + 1 < r; d++) off += (size_t)(idx[d] % xd[d]) * (size_t)xs[d];
    for (size_t k = 0; k < reps; k++, o += in_run) {
      if (in_run == 1) copy_one(y->data, o, x->data, off, sz);
      else copy_run(y->data + o * sz, x->data + off * sz, in_run, sz);
    }
  } while (next_index(idx, y->dims, r - 1));
  return TFW_FB_OK;
}

/* ---- Pad: mode pads[2r]; value ---------------------------------------------- */
/* Per dim, negative pads first crop the input (n' = n + min(b,0) + min(e,0)
 * elements remain); the positive pads then extend what remains: constant
 * writes the value, edge repeats the border element, reflect mirrors
 * without repeating the border (period 2(n'-1); n' = 1 repeats it), wrap
 * repeats the remaining input periodically (numpy's modes). */

enum { PAD_CONSTANT = 0, PAD_REFLECT = 1, PAD_EDGE = 2, PAD_WRAP = 3 };

typedef struct {
  int64_t crop, kept, before; /* cropped at the start, elements kept, positive begin pad */
} pad_dim;

/* Input index of output index o along a dim, or -1 for the constant value. */
static int64_t pad_map(const pad_dim *p, int mode, int64_t o) {
  int64_t i = o - p->before, n = p->kept;
  if (i < 0 || i >= n) {
    switch (mode) {
    case PAD_EDGE: i = i < 0 ? 0 : n - 1; break;
    case PAD_WRAP: i = ((i % n) + n) % n; break;
    case PAD_REFLECT: {
      if (n == 1) {
        i = 0;
        break;
      }
      int64_t per = 2 * (n - 1), m = ((i % per) + per) % per;
      i = m < n ? m : per - m;
      break;
    }
    default: return -1;
    }
  }
  return i + p->crop;
}

/* The pad value as the bits of one element of dtype (integers truncated toward
 * zero and saturated, NaN as 0; bool: value != 0). */
static uint64_t pad_value_bits(float v, uint32_t dtype) {
  if (dtype == TPKG_DT_F32) {
    if (v != v) return MV_NAN_BITS;
    return tfw_f32_bits(v);
  }
  if (dtype == TPKG_DT_BOOL) return v != 0.0f;
  int64_t lo = 0, hi = 0;
  switch (dtype) {
  case TPKG_DT_I8: lo = -128, hi = 127; break;
  case TPKG_DT_U8: lo = 0, hi = 255; break;
  case TPKG_DT_I16: lo = INT16_MIN, hi = INT16_MAX; break;
  case TPKG_DT_U16: lo = 0, hi = UINT16_MAX; break;
  case TPKG_DT_I32: lo = INT32_MIN, hi = INT32_MAX; break;
  case TPKG_DT_U32: lo = 0, hi = UINT32_MAX; break;
  default: lo = INT64_MIN, hi = INT64_MAX;
  }
  int64_t q;
  if (v != v) q = 0;
  else if (v <= (float)lo) q = lo;
  else if (v >= (float)hi) q = hi; /* (float)hi rounds up for i32/i64: saturates */
  else q = (int64_t)v;
  return (uint64_t)q;
}

static void store_bits(uint8_t *dst, size_t j, uint64_t bits, uint32_t sz) {
  switch (sz) {
  case 1: dst[j] = (uint8_t)bits; break;
  case 4: ((mv_u32 *)dst)[j] = (uint32_t)bits; break;
  default: ((mv_u64 *)dst)[j] = bits;
  }
}

int tfw_k_pad(const tfw_call *c) {
  if (!operands_ok(c, 1, 1)) return bad_operands(c);
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
  uint32_t r = x->rank;
  if (y->rank != r) return TFW_FB_E_SHAPE;
  if (c->n_ints != 1 + 2 * r || !c->ints || c->n_floats != 1 || !c->floats) return TFW_FB_E_PARAM;
  int mode = c->ints[0];
  if (mode < PAD_CONSTANT || mode > PAD_WRAP) return TFW_FB_E_PARAM;
  pad_dim pd[TFW_MAX_RANK];
  int empty = 0;
  for (uint32_t d = 0; d < r; d++) {
    int64_t b = c->ints[1 + d], e = c->ints[1 + r + d];
    pd[d].crop = b < 0 ? -b : 0;
    pd[d].kept = (int64_t)x->dims[d] - pd[d].crop - (e < 0 ? -e : 0);
    pd[d].before = b > 0 ? b : 0;
    if (pd[d].kept < 0) return TFW_FB_E_PARAM;
    if (pd[d].before + pd[d].kept + (e > 0 ? e : 0) != (int64_t)y->dims[d]) return TFW_FB_E_SHAPE;
    if (!y->dims[d]) empty = 1;
    else if (!pd[d].kept && mode != PAD_CONSTANT) return TFW_FB_E_PARAM; /* nothing to repeat */
  }
  if (empty) return TFW_FB_OK;
  uint32_t sz = tpkg_dtype_bytes(x->dtype);
  uint64_t vbits = pad_value_bits(c->floats[0], x->dtype);
  if (r == 0) {
    copy_one(y->data, 0, x->data, 0, sz);
    return TFW_FB_OK;
  }
  ptrdiff_t xs[TFW_MAX_RANK];
  strides(x, xs);
  uint32_t idx[TFW_MAX_RANK] = {0};
  const pad_dim *last = &pd[r - 1];
  size_t row = y->dims[r - 1], o = 0;
  do {
    int64_t off = 0;
    int outside = 0;
    for (uint32_t d = 0; d + 1 < r; d++) {
      int64_t i = pad_map(&pd[d], mode, idx[d]);
      if (i < 0) outside = 1;
      off += i * xs[d];
    }
    if (outside) {
      for (size_t k = 0; k < row; k++) store_bits(y->data, o + k, vbits, sz);
    } else {
      size_t mid0 = (size_t)last->before, mid1 = mid0 + (size_t)last->kept;
      for (size_t k = 0; k < row; k++) {
        if (k == mid0 && mid1 > mid0) {
          copy_run(y->data + (o + k) * sz, x->data + (size_t)(off + last->crop) * sz, mid1 - mid0, sz);
          k = mid1 - 1;
          continue;
        }
        int64_t i = pad_map(last, mode, (int64_t)k);
        if (i < 0) store_bits(y->data, o + k, vbits, sz);
        else copy_one(y->data, o + k, x->data, (size_t)(off + i), sz);
      }
    }
    o += row;
  } while (next_index(idx, y->dims, r - 1));
  return TFW_FB_OK;
}

/* ---- Resize: mode coord nearest exclude_outside; cubic_coeff_a scale[r]
 *      (tf_crop_and_resize: then roi_start[r] roi_end[r] extrapolation_value) */
/* Per dim, output index x maps to the input coordinate (ONNX Resize, opset
 * 11-19; s = scale[d], n = input length, m = output length), in f32:
 *   half_pixel            (x + 0.5) / s - 0.5
 *   asymmetric            x / s
 *   pytorch_half_pixel    m > 1 ? (x + 0.5) / s - 0.5 : 0
 *   tf_half_pixel_for_nn  (x + 0.5) / s
 *   align_corners         s n == 1 ? 0 : x * (n - 1) / (s n - 1)
 *   half_pixel_symmetric  n/2 * (1 - m / (s n)) + (x + 0.5) / s - 0.5
 *   tf_crop_and_resize    m > 1 ? x (e - b) (n - 1) / (m - 1) + b (n - 1)
 *                               : (e - b) (n - 1) / 2 + b (n - 1)
 *                         (b, e: the dim's roi start and end), in that
 *                         order of operations, as ONNX's reference; a
 *                         coordinate outside [0, n - 1] makes the element
 *                         extrapolation_value (float only)
 * align_corners takes the scaled length s n for the resized one, as ONNX's
 * reference and node tests do (they differ from m when a model gives scales
 * that m = floor(s n) does not reproduce; with sizes s = m / n).
 * Nearest rounds it (round_prefer_floor/ceil, floor, ceil) and clamps to
 * [0, n-1]; linear takes floor and floor+1 with weights 1-t, t (t the
 * fraction); cubic floor-1 .. floor+2 with the Keys weights of coefficient
 * a.  Taps outside [0, n) read the border element, or with exclude_outside
 * get weight 0 and the rest are divided by their sum (in tap order).
 * Over several dims the result is the nested sum of ONNX's reference,
 * dim 0 outermost: v = sum_j w0_j (sum_k w1_k (...)), each sum from 0 in
 * tap order; a tap whose weight is exactly 0 is skipped; a dim whose
 * coordinate is outside the crop gives extrapolation_value at its level. */

enum { RS_NEAREST = 0, RS_LINEAR = 1, RS_CUBIC = 2 };

typedef struct {
  uint32_t n;                  /* taps */
  int32_t at[4];               /* input index of each tap */
  float w[4];                  /* its weight */
  int out;                     /* tf_crop_and_resize: the coordinate is outside [0, n - 1] */
} rs_taps;

/* floor of a float in [-2^30, 2^30]. */
static int32_t floor_i(float v) {
  int32_t i = (int32_t)v;
  return (float)i > v ? i - 1 : i;
}

static float rs_coord(int coord, float x, float s, uint32_t n, uint32_t m) {
  switch (coord) {
  case TFW_COORD_ASYMMETRIC: return x / s;
  case TFW_COORD_PYTORCH_HALF_PIXEL: return m > 1 ? (x + 0.5f) / s - 0.5f : 0.0f;
  case TFW_COORD_TF_HALF_PIXEL_FOR_NN: return (x + 0.5f) / s;
  case TFW_COORD_ALIGN_CORNERS: {
    float len = s * (float)n; /* ONNX's reference: the scaled length, m itself when s = m / n */
    return len == 1.0f ? 0.0f : x * (float)(n - 1) / (len - 1.0f);
  }
  case TFW_COORD_HALF_PIXEL_SYMMETRIC: {
    float adj = (float)m / (s * (float)n), center = (float)n / 2.0f;
    return center * (1.0f - adj) + (x + 0.5f) / s - 0.5f;
  }
  default: return (x + 0.5f) / s - 0.5f; /* half_pixel */
  }
}

static float cubic_w(float a, float s) { /* s = |distance| in [0, 2] */
  if (s <= 1.0f) return ((a + 2.0f) * s - (a + 3.0f)) * s * s + 1.0f;
  return ((a * s - 5.0f * a) * s + 8.0f * a) * s - 4.0f * a;
}

static int32_t clamp_i(int32_t v, uint32_t n) { return v < 0 ? 0 : v >= (int32_t)n ? (int32_t)n - 1 : v; }

/* The taps of output index x along a dim of input length n, output length
 * m; roi: the dim's crop {start, end} (tf_crop_and_resize), else NULL. */
static void rs_taps_of(rs_taps *t, int mode, int coord, int nearest, int excl, float a, float s, uint32_t n,
                       uint32_t m, uint32_t x, const float *roi) {
  float v, lim = (float)n + 4.0f;
  t->out = 0;
  if (roi) {
    float len = (float)(n - 1), ext = roi[1] - roi[0];
    v = (m > 1 ? (float)x * ext * len / (float)(m - 1) : ext * len / 2.0f) + roi[0] * len;
    t->out = !(v >= 0.0f && v <= len);
  } else {
    v = rs_coord(coord, (float)x, s, n, m);
  }
  if (v != v) v = 0.0f;
  if (v < -4.0f) v = -4.0f;
  if (v > lim) v = lim;
  int32_t f = floor_i(v);
  float fr = v - (float)f;
  if (mode == RS_NEAREST) {
    int32_t i = f;
    switch (nearest) {
    case TFW_NEAREST_ROUND_PREFER_CEIL: i = fr >= 0.5f ? f + 1 : f; break;
    case TFW_NEAREST_FLOOR: break;
    case TFW_NEAREST_CEIL: i = fr > 0.0f ? f + 1 : f; break;
    default: i = fr > 0.5f ? f + 1 : f; /* round_prefer_floor */
    }
    t->n = 1, t->at[0] = clamp_i(i, n), t->w[0] = 1.0f;
    return;
  }
  int32_t first;
  if (mode == RS_LINEAR) {
    t->n = 2, first = f;
    t->w[0] = 1.0f - fr, t->w[1] = fr;
  } else {
    t->n = 4, first = f - 1;
    t->w[0] = cubic_w(a, fr + 1.0f), t->w[1] = cubic_w(a, fr);
    t->w[2] = cubic_w(a, 1.0f - fr), t->w[3] = cubic_w(a, 2.0f - fr);
  }
  if (excl) {
    float sum = 0.0f;
    for (uint32_t k = 0; k < t->n; k++) {
      int32_t i = first + (int32_t)k;
      if (i < 0 || i >= (int32_t)n) t->w[k] = 0.0f;
      sum += t->w[k];
    }
    for (uint32_t k = 0; k < t->n; k++) t->w[k] = t->w[k] / sum;
  }
  for (uint32_t k = 0; k < t->n; k++) t->at[k] = clamp_i(first + (int32_t)k, n);
}

/* The nested weighted sum over dims d..r-1 from element offset off (ext:
 * tf_crop_and_resize's extrapolation_value). */
static float rs_sum(const float *x, const rs_taps *t, const ptrdiff_t *xs, uint32_t d, uint32_t r, ptrdiff_t off,
                    float ext) {
  if (d == r) return x[off];
  if (t[d].out) return ext;
  float acc = 0.0f;
  for (uint32_t k = 0; k < t[d].n; k++)
    if (t[d].w[k] != 0.0f) acc += t[d].w[k] * rs_sum(x, t, xs, d + 1, r, off + t[d].at[k] * xs[d], ext);
  return acc;
}

int tfw_k_resize(const tfw_call *c) {
  if (!operands_ok(c, 1, 1)) return bad_operands(c);
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (x->dtype != y->dtype) return TFW_FB_E_DTYPE;
  uint32_t r = x->rank;
  if (y->rank != r) return TFW_FB_E_SHAPE;
  if (c->n_ints != 4 || !c->ints || !c->floats) return TFW_FB_E_PARAM;
  int mode = c->ints[0], coord = c->ints[1], nearest = c->ints[2], excl = c->ints[3];
  if (mode < RS_NEAREST || mode > RS_CUBIC || coord < 0 || coord > TFW_COORD_TF_CROP_AND_RESIZE ||
      nearest < 0 || nearest > TFW_NEAREST_CEIL || (excl != 0 && excl != 1))
    return TFW_FB_E_PARAM;
  int crop = coord == TFW_COORD_TF_CROP_AND_RESIZE;
  if (c->n_floats != 1 + r + (crop ? 2 * r + 1 : 0)) return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_F32 &&
      (crop || !(mode == RS_NEAREST && (x->dtype == TPKG_DT_I8 || x->dtype == TPKG_DT_U8))))
    return TFW_FB_E_DTYPE;
  float a = c->floats[0];
  if (!(a > -1e30f && a < 1e30f)) return TFW_FB_E_PARAM;
  const float *roi = crop ? c->floats + 1 + r : NULL; /* starts, then ends */
  float ext = crop ? c->floats[1 + 3 * r] : 0.0f, be[TFW_MAX_RANK][2];
  for (uint32_t d = 0; crop && d < r; d++) {
    be[d][0] = roi[d], be[d][1] = roi[r + d];
    if (!(be[d][0] > -1e30f && be[d][0] < 1e30f && be[d][1] > -1e30f && be[d][1] < 1e30f)) return TFW_FB_E_PARAM;
  }
  int empty = 0;
  for (uint32_t d = 0; d < r; d++) {
    float s = c->floats[1 + d];
    if (!(s > 0.0f && s < 1e30f) || x->dims[d] > (1u << 30) || y->dims[d] > (1u << 30)) return TFW_FB_E_PARAM;
    if (!y->dims[d]) empty = 1;
    else if (!x->dims[d]) return TFW_FB_E_SHAPE;
  }
  if (empty) return TFW_FB_OK;
  uint32_t sz = tpkg_dtype_bytes(x->dtype);
  ptrdiff_t xs[TFW_MAX_RANK];
  strides(x, xs);
  uint32_t idx[TFW_MAX_RANK] = {0};
  rs_taps t[TFW_MAX_RANK];
  for (uint32_t d = 0; d < r; d++)
    rs_taps_of(&t[d], mode, coord, nearest, excl, a, c->floats[1 + d], x->dims[d], y->dims[d], 0,
               crop ? be[d] : NULL);
  size_t o = 0;
  for (;;) {
    if (mode == RS_NEAREST) {
      ptrdiff_t off = 0;
      int out = 0;
      for (uint32_t d = 0; d < r; d++) off += t[d].at[0] * xs[d], out |= t[d].out;
      if (out) ((mv_f32 *)y->data)[o] = ext != ext ? tfw_bits_f32(MV_NAN_BITS) : ext;
      else copy_one(y->data, o, x->data, (size_t)off, sz);
    } else {
      float v = rs_sum((const float *)x->data, t, xs, 0, r, 0, ext);
      ((mv_f32 *)y->data)[o] = v != v ? tfw_bits_f32(MV_NAN_BITS) : v;
    }
    o++;
    uint32_t d = r;
    for (;;) {
      if (d == 0) return TFW_FB_OK;
      d--;
      if (++idx[d] < y->dims[d]) break;
      idx[d] = 0;
      rs_taps_of(&t[d], mode, coord, nearest, excl, a, c->floats[1 + d], x->dims[d], y->dims[d], 0,
                 crop ? be[d] : NULL);
    }
    rs_taps_of(&t[d], mode, coord, nearest, excl, a, c->floats[1 + d], x->dims[d], y->dims[d], idx[d],
               crop ? be[d] : NULL);
  }
}
