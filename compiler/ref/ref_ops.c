/* ref_ops: straightforward loops, written for checking, not speed (except
 * conv2d, calibration's hot loop: same sums in the same order, eight output
 * channels at a time).  Sums are accumulated in double so the float
 * reference sits closer to exact than the frameworks it is compared with. */
#include "ref_ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Softmax, QuantizeLinear and DequantizeLinear on float32 run the firmware's
 * fallback arithmetic (f32 only, no libm), so this reference, the C model
 * engine and the firmware agree bit for bit. Included by path so every build
 * of the compiler's sources (fuzzers too) finds it without another -I. */
#include "tfw_fallback.h"

#define ERR(...) ir_node_error(d, n, __VA_ARGS__)

static int64_t numel(const ir_value *v) { return ir_value_numel(v); }

static void strides_of(const ir_value *v, int64_t *st) {
  int64_t s = 1;
  for (int i = v->rank - 1; i >= 0; i--) {
    st[i] = s;
    s *= v->dims[i];
  }
}

/* Round half to even, as ONNX's QuantizeLinear rounds. */
static double round_even(double x) { return nearbyint(x); }

static double saturate(ir_dtype t, double x) {
  double lo = 0, hi = 0;
  switch (t) {
  case IR_I8: lo = -128, hi = 127; break;
  case IR_U8: lo = 0, hi = 255; break;
  case IR_I16: lo = -32768, hi = 32767; break;
  case IR_U16: lo = 0, hi = 65535; break;
  case IR_I32: lo = -2147483648.0, hi = 2147483647.0; break;
  case IR_U32: lo = 0, hi = 4294967295.0; break;
  default: return x;
  }
  return x < lo ? lo : x > hi ? hi : x;
}

/* Offset into a broadcast operand b (rank rb, dims bd) for the output index
 * given as a flat index into out. */
static int64_t bcast_offset(const ir_value *o, const ir_value *b, int64_t flat) {
  int64_t off = 0, bst[IR_MAX_RANK];
  strides_of(b, bst);
  for (int i = o->rank - 1; i >= 0; i--) {
    int64_t idx = flat % o->dims[i];
    flat /= o->dims[i];
    int bi = i - (o->rank - b->rank);
    if (bi >= 0 && b->dims[bi] != 1) off += idx * bst[bi];
  }
  return off;
}

static int binary(const ir_node *n, const double *a, const double *b, double *out, diag *d) {
  const ir_value *o = n->out;
  int isint = !ir_dtype_is_float(o->dtype);
  for (int64_t i = 0, e = numel(o); i < e; i++) {
    double x = a[bcast_offset(o, n->in[0], i)], y = b[bcast_offset(o, n->in[1], i)];
    switch (n->op) {
    case IR_OP_ADD: out[i] = x + y; break;
    case IR_OP_SUB: out[i] = x - y; break;
    case IR_OP_MUL: out[i] = x * y; break;
    case IR_OP_DIV:
      if (isint && y == 0) return ERR("integer division by zero");
      out[i] = isint ? trunc(x / y) : x / y;
      break;
    default: TSL_UNREACHABLE();
    }
    if (o->dtype == IR_F32) out[i] = (float)out[i]; /* round each step as f32 does */
  }
  return 0;
}

/* Geometry of a 1-D or 2-D sliding window (1-D is 2-D with height 1). */
typedef struct win {
  int64_t n, c, h, w;     /* input N, C, H, W */
  int64_t oc, oh, ow;     /* output channels, height, width */
  int64_t kh, kw;         /* kernel */
  int64_t sh, sw;         /* strides */
  int64_t pt, pl, pb, pr; /* pads: top, left, bottom, right */
  int64_t dh, dw;         /* dilations */
} win;

static int get_win(const ir_node *n, const ir_value *x, win *g, diag *d) {
  int s = x->rank - 2, cnt;
  if (s < 1 || s > 2) return ERR("only 1-D and 2-D windows are supported, not %d-D", s);
  const int64_t *k = ir_attr_ints(n, "kernel_shape", &cnt), *st = ir_attr_ints(n, "strides", &cnt);
  const int64_t *p = ir_attr_ints(n, "pads", &cnt), *dl = ir_attr_ints(n, "dilations", &cnt);
  TSL_ASSERT(k && st && p);
  g->n = x->dims[0], g->c = x->dims[1];
  g->h = s == 2 ? x->dims[2] : 1, g->w = x->dims[s + 1];
  g->oc = n->out->dims[1];
  g->oh = s == 2 ? n->out->dims[2] : 1, g->ow = n->out->dims[s + 1];
  g->kh = s == 2 ? k[0] : 1, g->kw = k[s - 1];
  g->sh = s == 2 ? st[0] : 1, g->sw = st[s - 1];
  g->dh = s == 2 && dl ? dl[0] : 1, g->dw = dl ? dl[s - 1] : 1;
  g->pt = s == 2 ? p[0] : 0, g->pl = p[s - 1];
  g->pb = s == 2 ? p[2] : 0, g->pr = p[2 * s - 1];
  return 0;
}

/* Two doubles as one SSE2 register: element-wise IEEE arithmetic, so each
 * lane computes exactly what scalar code computes. */
typedef double v2d __attribute__((vector_size(16)));

enum { CONV_LANES = 8 }; /* output channels computed together */

/* y[n][m] = sum (x - xzp) * (w - wzp[m]) (+ bias[m]) over the group's channels.
 * Every output starts at its bias and adds its taps in the order c, ky, kx,
 * padding skipped: the order the float reference has always used, so the
 * results are bit for bit the same.  For speed (this loop is most of
 * calibration's time) eight output channels of one group go together, one
 * per SIMD lane: the same input value meets eight weights, which are
 * pre-arranged as wt[c][ky][kx][lane] = w - wzp; the tap ranges inside the
 * image are computed once per row and column instead of checked per tap.
 * Lanes past the group's last channel compute on zero weights and are
 * dropped. wt: scratch of cg * kh * kw * CONV_LANES doubles. */
static void conv2d(const win *g, int64_t group, const double *x, const double *w, const double *bias,
                   double xzp, const double *wzp, int wzp_per_ch, double *y, double *wt) {
  int64_t cg = g->c / group, mg = g->oc / group, taps = g->kh * g->kw, plane = g->oh * g->ow;
  const v2d z = {xzp, xzp};
  for (int64_t b = 0; b < g->n; b++)
    for (int64_t m = 0; m < g->oc;) {
      int64_t gi = m / mg, end = (gi + 1) * mg, nb = end - m < CONV_LANES ? end - m : CONV_LANES;
      for (int64_t i = 0; i < cg * taps; i++)
        for (int64_t j = 0; j < CONV_LANES; j++)
          wt[i * CONV_LANES + j] = j < nb ? w[(m + j) * cg * taps + i] - (wzp ? wzp[wzp_per_ch ? m + j : 0] : 0) : 0;
      double b0[CONV_LANES];
      for (int64_t j = 0; j < CONV_LANES; j++) b0[j] = bias && j < nb ? bias[m + j] : 0;
      const double *x0 = x + ((b * g->c) + gi * cg) * g->h * g->w;
      for (int64_t oy = 0; oy < g->oh; oy++) {
        int64_t ty = oy * g->sh - g->pt, ky0 = 0, ky1 = g->kh; /* taps with 0 <= ty + ky*dh < h */
        while (ky0 < ky1 && ty + ky0 * g->dh < 0) ky0++;
        while (ky1 > ky0 && ty + (ky1 - 1) * g->dh >= g->h) ky1--;
        for (int64_t ox = 0; ox < g->ow; ox++) {
          int64_t tx = ox * g->sw - g->pl, kx0 = 0, kx1 = g->kw;
          while (kx0 < kx1 && tx + kx0 * g->dw < 0) kx0++;
          while (kx1 > kx0 && tx + (kx1 - 1) * g->dw >= g->w) kx1--;
          v2d a0 = {b0[0], b0[1]}, a1 = {b0[2], b0[3]}, a2 = {b0[4], b0[5]}, a3 = {b0[6], b0[7]};
          for (int64_t c = 0; c < cg; c++) {
            const double *xp = x0 + c * g->h * g->w, *wc = wt + c * taps * CONV_LANES;
            for (int64_t ky = ky0; ky < ky1; ky++) {
              const double *xr = xp + (ty + ky * g->dh) * g->w + tx;
              const double *wr = wc + ky * g->kw * CONV_LANES;
              for (int64_t kx = kx0; kx < kx1; kx++) {
                v2d xv = {xr[kx * g->dw], xr[kx * g->dw]};
                const double *wl = wr + kx * CONV_LANES;
                xv -= z;
                a0 += xv * (v2d){wl[0], wl[1]};
                a1 += xv * (v2d){wl[2], wl[3]};
                a2 += xv * (v2d){wl[4], wl[5]};
                a3 += xv * (v2d){wl[6], wl[7]};
              }
            }
          }
          double out[CONV_LANES] = {a0[0], a0[1], a1[0], a1[1], a2[0], a2[1], a3[0], a3[1]};
          for (int64_t j = 0; j < nb; j++) y[(b * g->oc + m + j) * plane + oy * g->ow + ox] = out[j];
        }
      }
      m += nb;
    }
}

static void pool2d(const win *g, int is_max, int count_pad, const double *x, double *y) {
  for (int64_t bc = 0; bc < g->n * g->c; bc++)
    for (int64_t oy = 0; oy < g->oh; oy++)
      for (int64_t ox = 0; ox < g->ow; ox++) {
        double acc = is_max ? -INFINITY : 0;
        int64_t cnt = 0, cnt_pad = 0;
        for (int64_t ky = 0; ky < g->kh; ky++) {
          int64_t iy = oy * g->sh - g->pt + ky * g->dh;
          for (int64_t kx = 0; kx < g->kw; kx++) {
            int64_t ix = ox * g->sw - g->pl + kx * g->dw;
            /* positions inside the explicit padding count for count_include_pad */
            if (iy >= -g->pt && iy < g->h + g->pb && ix >= -g->pl && ix < g->w + g->pr) cnt_pad++;
            if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w) continue;
            double v = x[(bc * g->h + iy) * g->w + ix];
            cnt++;
            if (is_max) acc = v > acc ? v : acc;
            else acc += v;
          }
        }
        if (!is_max) acc = count_pad ? acc / (double)cnt_pad : cnt ? acc / (double)cnt : 0;
        y[(bc * g->oh + oy) * g->ow + ox] = acc;
      }
}

/* numpy.matmul with broadcast batch dims; a/b zero points subtracted. */
static void matmul(const ir_value *va, const ir_value *vb, const ir_value *vo, const double *a,
                   const double *b, double azp, const double *bzp, int bzp_per_col, double *y) {
  int64_t M = va->rank >= 2 ? va->dims[va->rank - 2] : 1, K = va->dims[va->rank - 1];
  int64_t N = vb->rank >= 2 ? vb->dims[vb->rank - 1] : 1;
  int64_t mn = M * N, batch = mn > 0 ? numel(vo) / mn : 0;
  /* batch shapes of a and b, broadcast to the output's batch dims */
  int ob = vo->rank - (va->rank >= 2) - (vb->rank >= 2);
  ir_value ab = {.rank = va->rank > 2 ? va->rank - 2 : 0}, bb = {.rank = vb->rank > 2 ? vb->rank - 2 : 0};
  ir_value obv = {.rank = ob};
  memcpy(ab.dims, va->dims, sizeof(int64_t) * (size_t)ab.rank);
  memcpy(bb.dims, vb->dims, sizeof(int64_t) * (size_t)bb.rank);
  memcpy(obv.dims, vo->dims, sizeof(int64_t) * (size_t)ob);
  for (int64_t t = 0; t < batch; t++) {
    const double *ap = a + bcast_offset(&obv, &ab, t) * M * K;
    const double *bp = b + bcast_offset(&obv, &bb, t) * K * N;
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        double acc = 0, bz = bzp ? bzp[bzp_per_col ? j : 0] : 0;
        for (int64_t k = 0; k < K; k++) acc += (ap[i * K + k] - azp) * (bp[k * N + j] - bz);
        y[(t * M + i) * N + j] = acc;
      }
  }
}

/* Requantise accumulators: y = sat(round_even(acc * s_in[c] / s_out) + zp). */
static void requant(double *y, int64_t cnt, int64_t inner, int64_t chans, double xs,
                    const double *ws, int64_t n_ws, double ys, double yzp, ir_dtype t) {
  for (int64_t i = 0; i < cnt; i++) {
    int64_t c = (i / inner) % chans;
    double s = xs * ws[n_ws > 1 ? c : 0] / ys;
    y[i] = saturate(t, round_even(y[i] * s) + yzp);
  }
}

static int conv_like(const ir_node *n, const double *const *in, double *out, diag *d) {
  win g;
  if (get_win(n, n->in[0], &g, d)) return -1;
  int64_t group = ir_attr_int(n, "group", 1);
  size_t wt_n = (size_t)(g.c / group) * (size_t)(g.kh * g.kw) * CONV_LANES;
  double *wt = malloc((wt_n ? wt_n : 1) * sizeof *wt); /* conv2d's lane-arranged weights */
  if (!wt) return ERR("out of memory");
  if (n->op == IR_OP_CONV) {
    conv2d(&g, group, in[0], in[1], n->n_in > 2 ? in[2] : NULL, 0, NULL, 0, out, wt);
  } else if (n->op == IR_OP_CONV_INTEGER) {
    double xzp = n->n_in > 2 ? in[2][0] : 0;
    const double *wzp = n->n_in > 3 ? in[3] : NULL;
    conv2d(&g, group, in[0], in[1], NULL, xzp, wzp, n->n_in > 3 && numel(n->in[3]) > 1, out, wt);
  } else { /* QLinearConv: x, xs, xzp, w, ws, wzp, ys, yzp, [B int32] */
    conv2d(&g, group, in[0], in[3], n->n_in > 8 ? in[8] : NULL, in[2][0], in[5], numel(n->in[5]) > 1, out, wt);
    requant(out, numel(n->out), g.oh * g.ow, g.oc, in[1][0], in[4], numel(n->in[4]), in[6][0], in[7][0],
            n->out->dtype);
  }
  free(wt);
  return 0;
}

static int gemm(const ir_node *n, const double *const *in, double *out) {
  const ir_value *a = n->in[0], *b = n->in[1], *o = n->out;
  int ta = ir_attr_int(n, "transA", 0) != 0, tb = ir_attr_int(n, "transB", 0) != 0;
  double alpha = ir_attr_float(n, "alpha", 1), beta = ir_attr_float(n, "beta", 1);
  int64_t M = o->dims[0], N = o->dims[1], K = a->dims[1 - ta];
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      double acc = 0;
      for (int64_t k = 0; k < K; k++) {
        double x = ta ? in[0][k * M + i] : in[0][i * K + k];
        double y = tb ? in[1][j * K + k] : in[1][k * N + j];
        acc += x * y;
      }
      acc *= alpha;
      if (n->n_in > 2) acc += beta * in[2][bcast_offset(o, n->in[2], i * N + j)];
      out[i * N + j] = acc;
    }
  (void)b;
  return 0;
}

/* float32 rows go through tfw_softmax_f32 (the fallback op's steps); other
 * float types keep double and libm. */
static int softmax(const ir_node *n, const double *x, double *y, diag *d) {
  const ir_value *v = n->in[0];
  int64_t axis = ir_attr_int(n, "axis", -1);
  if (axis < 0) axis += v->rank;
  int64_t outer = 1, len = 1, inner = 1;
  for (int i = 0; i < axis; i++) outer *= v->dims[i];
  if (ir_attr_int(n, "coerce2d", 0)) {
    for (int i = (int)axis; i < v->rank; i++) len *= v->dims[i];
  } else {
    len = v->dims[axis];
    for (int i = (int)axis + 1; i < v->rank; i++) inner *= v->dims[i];
  }
  if (v->dtype == IR_F32) {
    int64_t e = outer * len * inner;
    float *f = malloc(sizeof(float) * (size_t)(e ? e : 1));
    if (!f) return ERR("out of memory");
    for (int64_t i = 0; i < e; i++) f[i] = (float)x[i];
    for (int64_t o = 0; o < outer; o++)
      for (int64_t in = 0; in < inner; in++) {
        float *row = f + o * len * inner + in;
        tfw_softmax_f32(row, row, (uint64_t)len, (uint64_t)inner);
      }
    for (int64_t i = 0; i < e; i++) y[i] = f[i];
    free(f);
    return 0;
  }
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      const double *xp = x + o * len * inner + in;
      double *yp = y + o * len * inner + in, mx = -INFINITY, sum = 0;
      for (int64_t k = 0; k < len; k++) mx = xp[k * inner] > mx ? xp[k * inner] : mx;
      for (int64_t k = 0; k < len; k++) sum += yp[k * inner] = exp(xp[k * inner] - mx);
      for (int64_t k = 0; k < len; k++) yp[k * inner] /= sum;
    }
  return 0;
}

/* The range of an integer type that fits int32, for tfw_quantize. */
static int int32_range(ir_dtype t, int32_t *lo, int32_t *hi) {
  switch (t) {
  case IR_I8: *lo = -128, *hi = 127; return 1;
  case IR_U8: *lo = 0, *hi = 255; return 1;
  case IR_I16: *lo = -32768, *hi = 32767; return 1;
  case IR_U16: *lo = 0, *hi = 65535; return 1;
  case IR_I32: *lo = INT32_MIN, *hi = INT32_MAX; return 1;
  default: return 0;
  }
}

static void transpose(const ir_node *n, const double *x, double *y) {
  const ir_value *v = n->in[0], *o = n->out;
  int cnt;
  const int64_t *perm = ir_attr_ints(n, "perm", &cnt);
  int64_t ist[IR_MAX_RANK];
  strides_of(v, ist);
  for (int64_t i = 0, e = numel(o); i < e; i++) {
    int64_t rem = i, off = 0;
    for (int k = o->rank - 1; k >= 0; k--) {
      off += (rem % o->dims[k]) * ist[perm[k]];
      rem /= o->dims[k];
    }
    y[i] = x[off];
  }
}

static void concat(const ir_node *n, const double *const *in, double *y) {
  const ir_value *o = n->out;
  int64_t axis = ir_attr_int(n, "axis", 0);
  if (axis < 0) axis += o->rank;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; i++) outer *= o->dims[i];
  for (int i = (int)axis + 1; i < o->rank; i++) inner *= o->dims[i];
  for (int64_t t = 0; t < outer; t++) {
    for (int k = 0; k < n->n_in; k++) {
      int64_t chunk = n->in[k]->dims[axis] * inner;
      memcpy(y, in[k] + t * chunk, sizeof(double) * (size_t)chunk);
      y += chunk;
    }
  }
}

static int gather(const ir_node *n, const double *x, const double *ix, double *y, diag *d) {
  const ir_value *v = n->in[0];
  int64_t axis = ir_attr_int(n, "axis", 0);
  if (axis < 0) axis += v->rank;
  int64_t outer = 1, inner = 1, nidx = numel(n->in[1]), len = v->dims[axis];
  for (int i = 0; i < axis; i++) outer *= v->dims[i];
  for (int i = (int)axis + 1; i < v->rank; i++) inner *= v->dims[i];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < nidx; k++) {
      int64_t j = (int64_t)ix[k];
      if (j < -len || j >= len) return ERR("index %lld is out of range [-%lld, %lld)", (long long)j, (long long)len, (long long)len);
      if (j < 0) j += len;
      memcpy(y + (o * nidx + k) * inner, x + (o * len + j) * inner, sizeof(double) * (size_t)inner);
    }
  return 0;
}

static void pad(const ir_node *n, const double *x, double *y) {
  const ir_value *v = n->in[0], *o = n->out;
  int cnt;
  const int64_t *p = ir_attr_ints(n, "pads", &cnt);
  double value = ir_attr_float(n, "value", 0);
  int64_t ist[IR_MAX_RANK];
  strides_of(v, ist);
  for (int64_t i = 0, e = numel(o); i < e; i++) {
    int64_t rem = i, off = 0;
    int inside = 1;
    for (int k = o->rank - 1; k >= 0; k--) {
      int64_t idx = rem % o->dims[k] - p[k];
      rem /= o->dims[k];
      if (idx < 0 || idx >= v->dims[k]) inside = 0;
      off += idx * ist[k];
    }
    y[i] = inside ? x[off] : value;
  }
}

/* Per-axis (or per-tensor) parameters: index of the parameter for element i. */
static int64_t param_index(const ir_node *n, int64_t i, int64_t n_params) {
  if (n_params <= 1) return 0;
  const ir_value *x = n->in[0];
  int64_t axis = ir_attr_int(n, "axis", 1), inner = 1;
  if (axis < 0) axis += x->rank;
  for (int k = (int)axis + 1; k < x->rank; k++) inner *= x->dims[k];
  return (i / inner) % x->dims[axis];
}

int ref_op_has(const ir_node *n) {
  const ir_attr *mode = ir_attr_get(n, "mode");
  switch (n->op) {
  case IR_OP_CONV: case IR_OP_QLINEAR_CONV: case IR_OP_CONV_INTEGER: case IR_OP_GEMM: case IR_OP_MATMUL:
  case IR_OP_MATMUL_INTEGER: case IR_OP_QLINEAR_MATMUL: case IR_OP_RELU: case IR_OP_LEAKY_RELU: case IR_OP_CLIP:
  case IR_OP_BATCHNORM: case IR_OP_ADD: case IR_OP_MUL: case IR_OP_SUB: case IR_OP_DIV: case IR_OP_MAXPOOL:
  case IR_OP_AVGPOOL: case IR_OP_GLOBAL_AVGPOOL: case IR_OP_GLOBAL_MAXPOOL: case IR_OP_FLATTEN: case IR_OP_RESHAPE:
  case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE: case IR_OP_IDENTITY: case IR_OP_DROPOUT: case IR_OP_CAST:
  case IR_OP_TRANSPOSE: case IR_OP_CONCAT: case IR_OP_SHAPE: case IR_OP_GATHER: case IR_OP_SOFTMAX:
  case IR_OP_QUANTIZE: case IR_OP_DEQUANTIZE:
    return 1;
  case IR_OP_PAD: /* constant padding only */
    return !mode || (mode->kind == IR_ATTR_STRING && !strcmp(mode->s, "constant"));
  default:
    return 0;
  }
}

int ref_op(const ir_node *n, const double *const *in, double *out, diag *d) {
  const ir_value *x = n->in[0], *o = n->out;
  int64_t e = numel(o);
  switch (n->op) {
  case IR_OP_CONV: case IR_OP_QLINEAR_CONV: case IR_OP_CONV_INTEGER: return conv_like(n, in, out, d);
  case IR_OP_GEMM: return gemm(n, in, out);
  case IR_OP_MATMUL: matmul(x, n->in[1], o, in[0], in[1], 0, NULL, 0, out); return 0;
  case IR_OP_MATMUL_INTEGER:
    matmul(x, n->in[1], o, in[0], in[1], n->n_in > 2 ? in[2][0] : 0, n->n_in > 3 ? in[3] : NULL,
           n->n_in > 3 && numel(n->in[3]) > 1, out);
    return 0;
  case IR_OP_QLINEAR_MATMUL: {
    /* a, as, azp, b, bs, bzp, ys, yzp; b's scale/zp may be per column */
    matmul(x, n->in[3], o, in[0], in[3], in[2][0], in[5], numel(n->in[5]) > 1, out);
    int64_t ncol = o->dims[o->rank - 1];
    requant(out, e, 1, ncol, in[1][0], in[4], numel(n->in[4]), in[6][0], in[7][0], o->dtype);
    return 0;
  }
  case IR_OP_RELU: for (int64_t i = 0; i < e; i++) out[i] = in[0][i] > 0 ? in[0][i] : 0; return 0;
  case IR_OP_LEAKY_RELU: {
    double a = ir_attr_float(n, "alpha", 0.01f);
    for (int64_t i = 0; i < e; i++) out[i] = in[0][i] >= 0 ? in[0][i] : (float)(a * in[0][i]);
    return 0;
  }
  case IR_OP_CLIP: {
    double lo = ir_attr_float(n, "min", -INFINITY), hi = ir_attr_float(n, "max", INFINITY);
    for (int64_t i = 0; i < e; i++) out[i] = in[0][i] < lo ? lo : in[0][i] > hi ? hi : in[0][i];
    return 0;
  }
  case IR_OP_BATCHNORM: {
    double eps = ir_attr_float(n, "epsilon", 1e-5f);
    int64_t c = x->dims[1], inner = e / (x->dims[0] * c);
    for (int64_t i = 0; i < e; i++) {
      int64_t ch = (i / inner) % c;
      out[i] = (in[0][i] - in[3][ch]) / sqrt(in[4][ch] + eps) * in[1][ch] + in[2][ch];
    }
    return 0;
  }
  case IR_OP_ADD: case IR_OP_MUL: case IR_OP_SUB: case IR_OP_DIV: return binary(n, in[0], in[1], out, d);
  case IR_OP_MAXPOOL: case IR_OP_AVGPOOL: {
    win g;
    if (get_win(n, x, &g, d)) return -1;
    pool2d(&g, n->op == IR_OP_MAXPOOL, (int)ir_attr_int(n, "count_include_pad", 0), in[0], out);
    return 0;
  }
  case IR_OP_GLOBAL_AVGPOOL: case IR_OP_GLOBAL_MAXPOOL: {
    int64_t inner = numel(x) / (e ? e : 1);
    for (int64_t i = 0; i < e; i++) {
      double acc = n->op == IR_OP_GLOBAL_MAXPOOL ? -INFINITY : 0;
      for (int64_t k = 0; k < inner; k++) {
        double v = in[0][i * inner + k];
        acc = n->op == IR_OP_GLOBAL_MAXPOOL ? (v > acc ? v : acc) : acc + v;
      }
      out[i] = n->op == IR_OP_GLOBAL_MAXPOOL ? acc : acc / (double)inner;
    }
    return 0;
  }
  case IR_OP_FLATTEN: case IR_OP_RESHAPE: case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE:
  case IR_OP_IDENTITY: case IR_OP_DROPOUT: case IR_OP_CAST:
    memcpy(out, in[0], sizeof(double) * (size_t)e);
    if (n->op == IR_OP_CAST && !ir_dtype_is_float(o->dtype))
      for (int64_t i = 0; i < e; i++) out[i] = o->dtype == IR_BOOL ? out[i] != 0 : trunc(out[i]);
    return 0;
  case IR_OP_TRANSPOSE: transpose(n, in[0], out); return 0;
  case IR_OP_CONCAT: concat(n, in, out); return 0;
  case IR_OP_PAD: pad(n, in[0], out); return 0;
  case IR_OP_SHAPE: {
    int64_t st = ir_attr_int(n, "start", 0);
    if (st < 0) st += x->rank;
    if (st < 0) st = 0;
    for (int64_t i = 0; i < e; i++) out[i] = (double)x->dims[st + i];
    return 0;
  }
  case IR_OP_GATHER: return gather(n, in[0], in[1], out, d);
  case IR_OP_SOFTMAX: return softmax(n, in[0], out, d);
  case IR_OP_QUANTIZE: {
    int64_t ns = numel(n->in[1]);
    int32_t lo = 0, hi = 0;
    int fb = x->dtype == IR_F32 && int32_range(o->dtype, &lo, &hi); /* the fallback op's arithmetic */
    for (int64_t i = 0; i < e; i++) {
      int64_t p = param_index(n, i, ns);
      double zp = n->n_in > 2 ? in[2][p] : 0, s = in[1][p];
      if (s == 0) return ERR("scale is zero");
      if (fb) {
        out[i] = tfw_quantize((float)in[0][i], (float)s, (int32_t)zp, lo, hi);
        continue;
      }
      /* x / scale in f32 as ONNX defines it: double would round some ties differently */
      float q = (float)in[0][i] / (float)s;
      out[i] = saturate(o->dtype, round_even(q) + zp);
    }
    return 0;
  }
  case IR_OP_DEQUANTIZE: {
    int64_t ns = numel(n->in[1]);
    int32_t lo, hi;
    int fb = o->dtype == IR_F32 && int32_range(x->dtype, &lo, &hi); /* the fallback op's arithmetic */
    for (int64_t i = 0; i < e; i++) {
      int64_t p = param_index(n, i, ns);
      double zp = n->n_in > 2 ? in[2][p] : 0;
      if (fb) out[i] = tfw_dequantize((int32_t)in[0][i], (float)in[1][p], (int32_t)zp);
      else out[i] = (float)((in[0][i] - zp) * in[1][p]);
    }
    return 0;
  }
  case IR_OP_QCONV: case IR_OP_QMATMUL: case IR_OP_QADD: case IR_OP_QMUL: case IR_OP_QAVGPOOL: case IR_OP_QREQUANT:
    break; /* ref_int8.c: ref_eval never sends them here */
  case IR_OP_COUNT: break;
  default: return ir_node_error(d, n, "no float reference for %s yet", ir_op_name(n->op));
  }
  TSL_UNREACHABLE();
  return -1;
}
