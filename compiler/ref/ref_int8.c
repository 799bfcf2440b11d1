/* ref_int8: direct loops over int8 data; accumulators are int64 and the
 * requant pass guarantees they fit int32 (it checks the reduction length), so
 * passing them to npu_requant as int32 is exact. */
#include "ref_int8.h"

#include <stdio.h>

#include "core_op.h"
#include "npu_arith.h"
#include "quant.h"

#define ERR(...) ir_node_error(d, n, __VA_ARGS__)

static int32_t zp_of(const ir_value *v, int64_t c) {
  const ir_quant *q = &v->quant;
  if (q->kind == IR_QUANT_NONE) return 0;
  return q->zero_point[q->n > 1 ? c : 0];
}

static int64_t get(const ir_value *v, const void *data, int64_t i) {
  return ir_elem_i64(v->dtype, data, i);
}

/* mult[c] and shift[c] (or the single entry) of a requantising node. */
static int requant_attrs(const ir_node *n, int64_t chans, const int64_t **mult, const int64_t **shift,
                         diag *d) {
  int cm = 0, cs = 0;
  *mult = ir_attr_ints(n, "mult", &cm);
  *shift = ir_attr_ints(n, "shift", &cs);
  if (!*mult || !*shift) return ERR("no requantisation constants (mult, shift): run the requant pass");
  if (cm != cs || (cm != 1 && cm != chans))
    return ERR("mult/shift have %d/%d entries for %lld channels", cm, cs, (long long)chans);
  for (int i = 0; i < cm; i++)
    if ((*mult)[i] < 0 || (*mult)[i] > INT32_MAX || (*shift)[i] < 0 || (*shift)[i] > 63)
      return ERR("requantisation constant %d out of range (mult %lld, shift %lld)", i,
                 (long long)(*mult)[i], (long long)(*shift)[i]);
  return 0;
}

static int clamp_attrs(const ir_node *n, int8_t *lo, int8_t *hi, diag *d) {
  int64_t l = ir_attr_int(n, "lo", -128), h = ir_attr_int(n, "hi", 127);
  if (l < -128 || h > 127 || l > h) return ERR("bad clamp lo=%lld hi=%lld", (long long)l, (long long)h);
  *lo = (int8_t)l, *hi = (int8_t)h;
  return 0;
}

/* Stores one output: raw int32 accumulator, or requantised int8. */
static void put(const ir_node *n, void *out, int64_t i, int64_t acc, int32_t bias, int64_t c, int raw,
                const int64_t *mult, const int64_t *shift, int nm, int8_t lo, int8_t hi) {
  if (raw) {
    ((int32_t *)out)[i] = (int32_t)(uint32_t)(uint64_t)(acc + bias); /* int32 wrap, as the accumulator */
    return;
  }
  int k = nm > 1 ? (int)c : 0;
  ((int8_t *)out)[i] = npu_requant((int32_t)acc, bias, (int32_t)mult[k], (uint8_t)shift[k],
                                   (int8_t)zp_of(n->out, 0), lo, hi);
}

static int qconv(const ir_node *n, const void *const *in, void *out, diag *d) {
  const ir_value *x = n->in[0], *w = n->in[1], *o = n->out;
  int s = x->rank - 2, cnt;
  if (s < 1 || s > 2) return ERR("only 1-D and 2-D windows are supported");
  const int64_t *st = ir_attr_ints(n, "strides", &cnt), *p = ir_attr_ints(n, "pads", &cnt);
  const int64_t *dl = ir_attr_ints(n, "dilations", &cnt);
  TSL_ASSERT(st && p && dl);
  int64_t N = x->dims[0], C = x->dims[1], H = s == 2 ? x->dims[2] : 1, W = x->dims[s + 1];
  int64_t M = o->dims[1], OH = s == 2 ? o->dims[2] : 1, OW = o->dims[s + 1];
  int64_t KH = s == 2 ? w->dims[2] : 1, KW = w->dims[s + 1];
  int64_t SH = s == 2 ? st[0] : 1, SW = st[s - 1], DH = s == 2 ? dl[0] : 1, DW = dl[s - 1];
  int64_t PT = s == 2 ? p[0] : 0, PL = p[s - 1];
  int64_t group = ir_attr_int(n, "group", 1), cg = C / group, mg = M / group;
  int raw = (int)ir_attr_int(n, "raw", 0);
  const int64_t *mult = NULL, *shift = NULL;
  int8_t lo = -128, hi = 127;
  int nm = 0;
  if (!raw) {
    if (requant_attrs(n, M, &mult, &shift, d) || clamp_attrs(n, &lo, &hi, d)) return -1;
    ir_attr_ints(n, "mult", &nm);
  }
  const int32_t *bias = n->n_in > 2 ? in[2] : NULL;
  const int8_t *xd = in[0], *wd = in[1]; /* shape-infer holds both to int8 */
  int32_t zx = zp_of(x, 0);
  for (int64_t b = 0; b < N; b++)
    for (int64_t m = 0; m < M; m++) {
      int64_t gi = m / mg;
      int32_t zw = zp_of(w, m);
      for (int64_t oy = 0; oy < OH; oy++)
        for (int64_t ox = 0; ox < OW; ox++) {
          int64_t acc = 0;
          for (int64_t c = 0; c < cg; c++) {
            int64_t xb = ((b * C) + gi * cg + c) * H * W, wb = ((m * cg) + c) * KH * KW;
            for (int64_t ky = 0; ky < KH; ky++) {
              int64_t iy = oy * SH - PT + ky * DH;
              if (iy < 0 || iy >= H) continue; /* pad taps are the zero point: contribute 0 */
              for (int64_t kx = 0; kx < KW; kx++) {
                int64_t ix = ox * SW - PL + kx * DW;
                if (ix < 0 || ix >= W) continue;
                acc += (int64_t)(xd[xb + iy * W + ix] - zx) * (wd[wb + ky * KW + kx] - zw);
              }
            }
          }
          put(n, out, ((b * M + m) * OH + oy) * OW + ox, acc, bias ? bias[m] : 0, m, raw, mult, shift, nm, lo, hi);
        }
    }
  return 0;
}

/* a [.., M, K] x b [K, N] or b with a's batch dims. */
static int qmatmul(const ir_node *n, const void *const *in, void *out, diag *d) {
  const ir_value *a = n->in[0], *b = n->in[1], *o = n->out;
  if (a->rank < 2 || b->rank < 2) return ERR("QMatMul needs operands of rank >= 2");
  int64_t M = a->dims[a->rank - 2], K = a->dims[a->rank - 1], N = b->dims[b->rank - 1];
  int64_t batch = (M > 0 && N > 0) ? ir_value_numel(o) / (M * N) : 0;
  int64_t bbatch = (K > 0 && N > 0) ? ir_value_numel(b) / (K * N) : 1;
  if (bbatch != 1 && bbatch != batch) return ERR("QMatMul: batch dimensions of b must be 1 or a's");
  int raw = (int)ir_attr_int(n, "raw", 0), nm = 0;
  const int64_t *mult = NULL, *shift = NULL;
  int8_t lo = -128, hi = 127;
  if (!raw) {
    if (requant_attrs(n, N, &mult, &shift, d) || clamp_attrs(n, &lo, &hi, d)) return -1;
    ir_attr_ints(n, "mult", &nm);
  }
  const int32_t *bias = n->n_in > 2 ? in[2] : NULL;
  int32_t za = zp_of(a, 0);
  for (int64_t t = 0; t < batch; t++)
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        int64_t acc = 0, bo = (bbatch == 1 ? 0 : t) * K * N;
        int32_t zb = zp_of(b, j);
        for (int64_t k = 0; k < K; k++)
          acc += (get(a, in[0], (t * M + i) * K + k) - za) * (get(b, in[1], bo + k * N + j) - zb);
        put(n, out, (t * M + i) * N + j, acc, bias ? bias[j] : 0, j, raw, mult, shift, nm, lo, hi);
      }
  return 0;
}

static int qadd(const ir_node *n, const void *const *in, void *out, diag *d) {
  int64_t e = ir_value_numel(n->out);
  int8_t lo, hi;
  int64_t ma = ir_attr_int(n, "mult_a", -1), mb = ir_attr_int(n, "mult_b", -1);
  int64_t s = ir_attr_int(n, "shift", -1);
  if (ma < 0 || mb < 0 || s < 0) return ERR("no requantisation constants (mult_a, mult_b, shift): run the requant pass");
  if (ma > INT32_MAX || mb > INT32_MAX || s > 63) return ERR("requantisation constants out of range");
  if (clamp_attrs(n, &lo, &hi, d)) return -1;
  const int8_t *a = in[0], *b = in[1];
  int8_t za = (int8_t)zp_of(n->in[0], 0), zb = (int8_t)zp_of(n->in[1], 0), zo = (int8_t)zp_of(n->out, 0);
  for (int64_t i = 0; i < e; i++)
    ((int8_t *)out)[i] = npu_vadd(a[i], b[i], za, zb, (int32_t)ma, (int32_t)mb, (unsigned)s, zo, lo, hi);
  return 0;
}

static int qavgpool(const ir_node *n, const void *const *in, void *out, diag *d) {
  const ir_value *x = n->in[0], *o = n->out;
  int s = x->rank - 2, cnt;
  if (s < 1 || s > 2) return ERR("only 1-D and 2-D windows are supported");
  const int64_t *k = ir_attr_ints(n, "kernel_shape", &cnt), *st = ir_attr_ints(n, "strides", &cnt);
  const int64_t *p = ir_attr_ints(n, "pads", &cnt);
  TSL_ASSERT(k && st && p);
  const int64_t *mult, *shift;
  int8_t lo, hi;
  if (requant_attrs(n, 1, &mult, &shift, d) || clamp_attrs(n, &lo, &hi, d)) return -1;
  if (shift[0] > 47) return ERR("shift %lld exceeds 47", (long long)shift[0]);
  int64_t NC = x->dims[0] * x->dims[1], H = s == 2 ? x->dims[2] : 1, W = x->dims[s + 1];
  int64_t OH = s == 2 ? o->dims[2] : 1, OW = o->dims[s + 1];
  int64_t KH = s == 2 ? k[0] : 1, KW = k[s - 1], SH = s == 2 ? st[0] : 1, SW = st[s - 1];
  int64_t PT = s == 2 ? p[0] : 0, PL = p[s - 1];
  if (KH * KW >= 65536) return ERR("pooling window of %lld taps is too large", (long long)(KH * KW));
  int include_pad = ir_attr_int(n, "count_include_pad", 0) != 0;
  int32_t zx = zp_of(x, 0);
  int8_t zo = (int8_t)zp_of(o, 0);
  for (int64_t bc = 0; bc < NC; bc++)
    for (int64_t oy = 0; oy < OH; oy++)
      for (int64_t ox = 0; ox < OW; ox++) {
        int64_t sum = 0, inside = 0;
        for (int64_t ky = 0; ky < KH; ky++) {
          int64_t iy = oy * SH - PT + ky;
          for (int64_t kx = 0; kx < KW; kx++) {
            int64_t ix = ox * SW - PL + kx;
            if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
            sum += get(x, in[0], (bc * H + iy) * W + ix) - zx;
            inside++;
          }
        }
        ((int8_t *)out)[(bc * OH + oy) * OW + ox] =
            npu_avgpool(sum, include_pad ? KH * KW : inside, (int32_t)mult[0], (unsigned)shift[0], zo, lo, hi);
      }
  return 0;
}

/* Integer rescale between quantised types (also the exact uint8 <-> int8 shift). */
static int qrequant(const ir_node *n, const void *const *in, void *out, diag *d) {
  const int64_t *mult, *shift;
  if (requant_attrs(n, 1, &mult, &shift, d)) return -1;
  int64_t e = ir_value_numel(n->out), zx = zp_of(n->in[0], 0), zo = zp_of(n->out, 0);
  int64_t lo = n->out->dtype == IR_U8 ? 0 : -128, hi = n->out->dtype == IR_U8 ? 255 : 127;
  for (int64_t i = 0; i < e; i++) {
    int64_t v = npu_rne_shift((get(n->in[0], in[0], i) - zx) * mult[0], (unsigned)shift[0]) + zo;
    v = v < lo ? lo : v > hi ? hi : v;
    if (n->out->dtype == IR_U8) ((uint8_t *)out)[i] = (uint8_t)v;
    else ((int8_t *)out)[i] = (int8_t)v;
  }
  return 0;
}

/* QLut: y = table[x + 128] (the table is the int8 definition of the unary
 * op: docs/quantisation.md). */
static int qlut(const ir_node *n, const void *const *in, void *out, diag *d) {
  int cnt = 0;
  const int64_t *t = ir_attr_ints(n, "table", &cnt);
  if (!t || cnt != 256) return ERR("attribute table must hold 256 entries");
  const int8_t *x = in[0];
  int8_t *y = out;
  for (int64_t i = 0, e = ir_value_numel(n->out); i < e; i++) y[i] = (int8_t)t[x[i] + 128];
  return 0;
}

/* The parameters the kernels index must be sane even on hand-written IR
 * (const-fold can run a kernel before the requant pass checks it): zero
 * points inside their types, per-channel only where a channel exists. */
static int check_params(const ir_node *n, diag *d) {
  char who[600];
  snprintf(who, sizeof who, "node '%.256s' (%s)", n->src, ir_op_name(n->op));
  for (int k = 0; k <= n->n_in; k++) {
    const ir_value *v = k < n->n_in ? n->in[k] : n->out;
    if (v->dtype == IR_I32 || v->dtype == IR_I64) continue;
    if (quant_check_value(v, who, d)) return -1;
    int weights = k == 1 && (n->op == IR_OP_QCONV || n->op == IR_OP_QMATMUL);
    int axis = n->op == IR_OP_QCONV ? 0 : v->rank - 1;
    if (v->quant.kind == IR_QUANT_CHANNEL && !(weights && v->quant.axis == axis))
      return ERR("value '%s': per-channel quantisation is only for weights (axis %d)", v->name, axis);
  }
  return 0;
}

int ref_int8_eval(const ir_node *n, const void *const *in, void *out, diag *d) {
  if (check_params(n, d)) return -1;
  switch (n->op) {
  case IR_OP_QCONV: return qconv(n, in, out, d);
  case IR_OP_QMATMUL: return qmatmul(n, in, out, d);
  case IR_OP_QADD: return qadd(n, in, out, d);
  case IR_OP_QAVGPOOL: return qavgpool(n, in, out, d);
  case IR_OP_QREQUANT: return qrequant(n, in, out, d);
  case IR_OP_QLUT: return qlut(n, in, out, d);
  case IR_OP_QMUL: case IR_OP_QSOFTMAX: case IR_OP_QLAYERNORM: { /* integer kernels: the core's own definition */
    core_op c;
    return core_op_of(n, &c, NULL, d) ? -1 : core_op_run(&c, n, in, out, d);
  }
  default: break;
  }
  TSL_UNREACHABLE();
  return -1;
}
