/* ptq: post-training quantisation of a float graph from calibration data.
 *
 * Requires: shapes inferred, graph passes done (bn-fold: BatchNorm is gone),
 *           calibration samples for every graph input.
 * Guarantees: the graph is rewritten into the QDQ form quantisation tools
 *           emit, which qdq-fold then folds into quantised ops:
 *           - weights of Conv, Gemm and MatMul (constant, float) become int8
 *             constants, symmetric per output channel (zp 0, scale
 *             max|w|/n with n in [64, 127] chosen for the least rounding
 *             error, values in [-n, n]) behind a DequantizeLinear;
 *             biases stay float (qdq-fold quantises them to int32 at
 *             s_x * s_w[c]);
 *           - every activation that a quantisable op reads or writes gets a
 *             QuantizeLinear -> DequantizeLinear pair (int8, per tensor,
 *             asymmetric: the calibrated range widened to include 0, scale
 *             (hi - lo) / 255, zp = round(-128 - lo / scale)); a Relu/Clip
 *             right after Conv/Gemm/MatMul/Add is quantised after it (it
 *             becomes the op's clamp), pass-through ops (MaxPool,
 *             Flatten, Reshape, ...) reuse their input's parameters so they
 *             stay exact on int8, and a Mul of int8 values by a unary op of
 *             one (a gate) has the gate quantised too;
 *           Ops that are not quantisable stay float between DQ and Q (the
 *           float reference, a firmware fallback downstream).  Before
 *           calibration a MatMul of a rank-3+ activation by constant [K, N]
 *           weights (plus a constant bias Add) becomes Flatten -> MatMul or
 *           Gemm of the rows -> Reshape (matmul_rows), which the NPU takes;
 *           a unary op between two of them stays on the rows.
 * Invalidates: nothing. */
#include "ptq.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_op.h"
#include "passes.h"
#include "lower.h"
#include "quant.h"

typedef struct qparam {
  int set;      /* 1 when the value gets a QDQ pair */
  float scale;  /* its scale */
  int32_t zp;   /* its int8 zero point */
} qparam;

/* An activation shape the NPU holds (the lowering's blocked layout: rank
 * 2, or rank 3 or 4 with batch 1); an op on other shapes runs in float on
 * the control core instead, so it is not quantised. */
static int npu_shape(const ir_value *v) {
  return v->rank == 2 || ((v->rank == 3 || v->rank == 4) && v->dims[0] == 1);
}

/* Window attributes inside the NPU's conv window fields (docs/isa.md
 * CFG_CONV: strides and dilations 1..7, kernel 1..255). */
static int npu_window(const ir_node *n) {
  static const char *const names[] = {"strides", "dilations", "kernel_shape"};
  for (int a = 0; a < 3; a++) {
    int cnt = 0;
    const int64_t *v = ir_attr_ints(n, names[a], &cnt);
    for (int i = 0; v && i < cnt; i++)
      if (v[i] < 1 || v[i] > (a < 2 ? 7 : 255)) return 0;
  }
  return 1;
}

/* Whether the lowering takes n's images (lower.h): a conv's or pool's input
 * lines at most LOWER_CONV_MAX_LINE long (a second of raw audio as [1, C,
 * 16000] is not), a vector kernel's images (Add, pool outputs, a global
 * pool's window) at most LOWER_VEC_MAX_SIDE a side.  Else n stays float and
 * runs on the core: it was an error in the lowering. */
static int npu_image(const ir_node *n) {
  int64_t h, w;
  lower_image_hw(n->in[0], &h, &w);
  switch (n->op) {
  case IR_OP_CONV: return w <= LOWER_CONV_MAX_LINE;
  case IR_OP_AVGPOOL: return w <= LOWER_CONV_MAX_LINE && lower_vec_fits(n->out);
  case IR_OP_GLOBAL_AVGPOOL: return lower_vec_fits(n->in[0]);
  case IR_OP_ADD: return lower_vec_fits(n->out);
  default: return 1;
  }
}

static int is_anchor(const ir_node *n) {
  if (!npu_shape(n->in[0]) || !npu_shape(n->out) || !npu_window(n) || !npu_image(n)) return 0;
  switch (n->op) {
  case IR_OP_CONV:
    return n->in[1]->kind == IR_VALUE_CONST && n->in[1]->dtype == IR_F32 &&
           (n->n_in < 3 || n->in[2]->kind == IR_VALUE_CONST);
  case IR_OP_MATMUL: /* a [M, K] matrix: the lowering lays rank 3 out as an image of channels dims[1] */
    return n->in[1]->kind == IR_VALUE_CONST && n->in[1]->rank == 2 && n->in[0]->rank == 2 &&
           n->in[1]->dtype == IR_F32;
  case IR_OP_GEMM:
    return n->in[1]->kind == IR_VALUE_CONST && n->in[1]->dtype == IR_F32 && !ir_attr_int(n, "transA", 0) &&
           ir_attr_float(n, "alpha", 1) == 1 && ir_attr_float(n, "beta", 1) == 1 &&
           (n->n_in < 3 || (n->in[2]->kind == IR_VALUE_CONST && ir_value_numel(n->in[2]) == n->out->dims[1]));
  case IR_OP_ADD:
    return n->in[0]->rank == n->in[1]->rank && n->in[0]->kind != IR_VALUE_CONST &&
           n->in[1]->kind != IR_VALUE_CONST &&
           !memcmp(n->in[0]->dims, n->in[1]->dims, sizeof(int64_t) * (size_t)n->in[0]->rank);
  case IR_OP_AVGPOOL: /* the NPU pools 2-D windows */
    return n->in[0]->rank == 4 && !(ir_attr_int(n, "ceil_mode", 0) && ir_attr_int(n, "count_include_pad", 0));
  case IR_OP_GLOBAL_AVGPOOL: return n->in[0]->rank == 4;
  default: return 0;
  }
}

static int is_passthrough(const ir_node *n) {
  switch (n->op) {
  case IR_OP_MAXPOOL: case IR_OP_GLOBAL_MAXPOOL: case IR_OP_FLATTEN: case IR_OP_RESHAPE:
  case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE: case IR_OP_TRANSPOSE:
    return 1;
  default: return 0;
  }
}

/* The range from_range quantises: the calibrated one widened to include 0. */
static void widened(const calib_range *r, double *lo, double *hi) {
  *lo = r->seen ? r->lo : 0, *hi = r->seen ? r->hi : 0;
  *lo = *lo < 0 ? *lo : 0, *hi = *hi > 0 ? *hi : 0; /* 0 must be exact (padding, ReLU) */
  if (!isfinite(*lo) || !isfinite(*hi)) *lo = *lo < 0 ? -1 : 0, *hi = *hi > 0 ? 1 : 0;
}

/* A range with nothing in it: the value was 0 in every sample.  Not an
 * absolute "small": a random-weight EfficientNet or MobileNetV3 (BatchNorm
 * as initialised, no bias) has logits of 1e-14 and 1e-10, every tensor on
 * its own tiny scale, and a threshold of 1e-8 quantised them all to 0.  The
 * bound keeps range / 255 a normal f32. */
static int range_empty(const calib_range *r) {
  double lo, hi;
  widened(r, &lo, &hi);
  return !(hi - lo >= 1e-30);
}

static qparam from_range(const calib_range *r) {
  double lo, hi;
  widened(r, &lo, &hi);
  /* An empty range gives no scale.  ONNX Runtime's compute_scale_zp takes
   * scale 1 and zero point 0 for rmin == rmax; so do we (ptq warns, naming
   * the value).  (Stretched to 1e-8 once, its scale made biases quantised at
   * s_x * s_w overflow int32; quantise_weights now keeps them in range.) */
  if (range_empty(r)) return (qparam){1, 1.0f, 0};
  qparam p = {1, (float)((hi - lo) / 255.0), 0};
  p.zp = (int32_t)quant_round_sat(-128.0 - lo / p.scale, -128, 127);
  return p;
}

/* Replaces the uses of v with DQ(Q(v)) placed right after v's producer. */
static int insert_qdq(ir_graph *g, ir_value *v, const qparam *p, diag *d) {
  char base[512];
  int64_t none[1] = {0};
  snprintf(base, sizeof base, "%.480s.scale", v->name);
  ir_value *s = quant_new_const(g, base, IR_F32, 0, none, d);
  snprintf(base, sizeof base, "%.480s.zp", v->name);
  ir_value *z = quant_new_const(g, base, IR_I8, 0, none, d);
  if (!s || !z) return -1;
  *(float *)s->data = p->scale;
  *(int8_t *)z->data = (int8_t)p->zp;
  int pos = v->kind == IR_VALUE_NODE ? quant_node_pos(g, v->def) + 1 : 0;
  const char *src = v->kind == IR_VALUE_NODE ? v->def->src : v->name;
  ir_value *qin[3] = {v, s, z};
  snprintf(base, sizeof base, "%.480s.q", v->name);
  ir_node *q = quant_new_node(g, pos, IR_OP_QUANTIZE, src, qin, 3, base, IR_I8, v, d);
  if (!q) return -1;
  ir_value *dqin[3] = {q->out, s, z};
  snprintf(base, sizeof base, "%.480s.dq", v->name);
  ir_node *dq = quant_new_node(g, pos + 1, IR_OP_DEQUANTIZE, src, dqin, 3, base, IR_F32, v, d);
  if (!dq) return -1;
  ir_replace_uses(g, v, dq->out);
  ir_node_set_input(g, q, 0, v); /* replace_uses rewired it too */
  if (dq->out->is_output) ir_value_swap_names(g, v, dq->out); /* the graph output keeps its name */
  return 0;
}

/* quant_round_sat(v, -127, 127) for the weight search, inline: the same
 * value (round half to even in the default rounding mode, then clamp), by
 * the 1.5 * 2^52 trick for |v| < 2^51, quant_round_sat itself otherwise (and
 * for NaN). */
static inline double round_sat127(double v) {
  if (!(fabs(v) < 0x1p51)) return (double)quant_round_sat(v, -127, 127);
  const double magic = 0x1.8p52;
  double r = (v + magic) - magic;
  return r < -127 ? -127 : r > 127 ? 127 : r;
}

/* Squared error of channel c's weights (elements (o * m + c) * inner + j)
 * quantised at scale sc, or a value above `stop` as soon as a running sum
 * exceeds it (checked every 32 elements: the caller only compares with
 * stop, so an early answer is the same decision). */
static double weight_err(const float *w, int64_t outer, int64_t m, int64_t inner, int64_t c, float sc, double stop) {
  double err = 0;
  for (int64_t o = 0; o < outer && err <= stop; o++) {
    const float *row = w + (o * m + c) * inner;
    for (int64_t j = 0; j < inner; j++) {
      float x = row[j];
      double e = x - (double)sc * round_sat127((double)(x / sc));
      err += e * e;
      if ((j & 31) == 31 && err > stop) return err;
    }
  }
  return err;
}

/* The scale of channel c: max|w| / n, the level n of the largest weight
 * chosen from 127 down to 64 for the least squared rounding error (ties: the
 * finer scale).  For weights of arbitrary values that is almost always 127;
 * for weights that lie on a coarser grid (low-precision training, or the
 * generated test nets' few-bit weights) a level that is a multiple of the
 * grid makes every weight exact instead of rounding each by up to half a
 * step.  Never clips: every weight keeps |q| <= n. */
static float weight_scale(const float *w, int64_t outer, int64_t m, int64_t inner, int64_t c) {
  float a = 0;
  double energy = 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      float x = w[(o * m + c) * inner + j];
      a = fabsf(x) > a ? fabsf(x) : a;
      energy += (double)x * x;
    }
  if (!(a > 0)) return 1.0f;
  /* Errors this far below the weights' energy are f32 rounding of the
   * scale, not quantisation: such a level counts as exact. */
  double exact = 1e-10 * energy;
  float best = a / 127.0f;
  double best_err = weight_err(w, outer, m, inner, c, best, INFINITY);
  for (int n = 126; n >= 64 && best_err > exact; n--) {
    float sc = a / (float)n;
    double err = weight_err(w, outer, m, inner, c, sc, best_err);
    if (err < best_err - exact) best_err = err, best = sc;
  }
  return best;
}

/* Per-channel symmetric int8 weights behind a DequantizeLinear, for input 1 of n. */
/* Weights and bias must be finite: a NaN weight rounded to 0 and an Inf one
 * gave an infinite scale, so the int8 model silently differed from the float
 * one (whose outputs were NaN). */
static int check_finite(const ir_node *n, diag *d) {
  for (int k = 1; k < n->n_in && k < 3; k++) {
    const ir_value *v = n->in[k];
    if (v->kind != IR_VALUE_CONST || v->dtype != IR_F32 || !v->data) continue;
    const float *x = v->data;
    for (int64_t i = 0, e = ir_value_numel(v); i < e; i++)
      if (!isfinite(x[i]))
        return ir_node_error(d, n, "%s '%s' holds %s at element %lld: it cannot be quantised", k == 1 ? "weight" : "bias",
                             v->name, isnan(x[i]) ? "NaN" : "Inf", (long long)i);
  }
  return 0;
}

/* The smallest weight scale of channel c at which the node's float bias b[c]
 * still fits the int32 bias at scale sx * s_w[c] together with the NPU's
 * zero-point correction -zp_x * sum(q[c]) (|zp_x| <= 128, |q| <= 127, k
 * weights per channel), or 0 when there is no such bias or bound.  A
 * channel whose input is nearly constant (a squeeze-excitation's fc2 after
 * an almost-dead ReLU, calibrated to a range of 1e-6) has a tiny sx, and its
 * bias (0.5 once HardSigmoid is folded in) overflowed int32 at the weights'
 * own scale; a coarser weight scale costs nothing there, since x * w is far
 * below one output step.  ONNX Runtime's quantiser widens the weight scale
 * the same way. */
static float bias_min_scale(const ir_node *n, int64_t m, int64_t k, float sx, int64_t c) {
  const ir_value *b = n->n_in > 2 ? n->in[2] : NULL;
  if (!(sx > 0) || !b || b->kind != IR_VALUE_CONST || b->dtype != IR_F32 || !b->data || ir_value_numel(b) != m)
    return 0;
  double room = 2147483647.0 - 1.0 - 128.0 * 127.0 * (double)k; /* 1: the rounding of b / s */
  double need = fabs((double)((const float *)b->data)[c]) / ((double)sx * room);
  return room > 0 ? (float)(need * (1 + 1e-6)) : 0; /* f32 rounding of the scale */
}

/* sx: the input's scale (0 when it gets none here). */
static int quantise_weights(ir_graph *g, ir_node *n, int axis, float sx, diag *d) {
  if (check_finite(n, d)) return -1;
  ir_value *w = n->in[1];
  int64_t m = w->dims[axis], e = ir_value_numel(w), inner = 1;
  for (int i = axis + 1; i < w->rank; i++) inner *= w->dims[i];
  char base[512];
  snprintf(base, sizeof base, "%.480s.q", w->name);
  ir_value *wq = quant_new_const(g, base, IR_I8, w->rank, w->dims, d);
  snprintf(base, sizeof base, "%.480s.scale", w->name);
  ir_value *s = quant_new_const(g, base, IR_F32, 1, &m, d);
  snprintf(base, sizeof base, "%.480s.zp", w->name);
  ir_value *z = quant_new_const(g, base, IR_I8, 1, &m, d);
  if (!wq || !s || !z) return -1;
  const float *wd = w->data;
  float *sd = s->data;
  for (int64_t c = 0; c < m; c++) {
    float lo = bias_min_scale(n, m, e / m, sx, c);
    sd[c] = weight_scale(wd, e / (m * inner), m, inner, c);
    sd[c] = sd[c] < lo ? lo : sd[c];
  }
  for (int64_t i = 0, c = 0; i < e; c = c + 1 < m ? c + 1 : 0) /* element i is channel (i / inner) % m */
    for (int64_t j = 0; j < inner; j++, i++)
      ((int8_t *)wq->data)[i] = (int8_t)round_sat127((double)(wd[i] / sd[c]));
  ir_value *in[3] = {wq, s, z};
  snprintf(base, sizeof base, "%.480s.dq", w->name);
  ir_node *dq = quant_new_node(g, quant_node_pos(g, n), IR_OP_DEQUANTIZE, n->src, in, 3, base, IR_F32, w, d);
  if (!dq || ir_attr_set_int(g, dq, "axis", axis, d)) return -1;
  ir_node_set_input(g, n, 1, dq->out);
  return 0;
}

/* Between two row products the rows stay rows: Reshape(v) -> a unary
 * elementwise op (GELU, SiLU, ...) -> Flatten back to v's shape becomes the
 * op on v itself, so that the op sits between two quantised matrices (one
 * int8 table) instead of between reshapes of float tensors. */
static int rows_through_unary(ir_graph *g, diag *d) {
  uint32_t fn;
  float alpha, beta;
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *r = g->nodes[i], *u = r->op == IR_OP_RESHAPE ? quant_single_user(g, r->out) : NULL;
    ir_node *f = u && core_unary_of(u, &fn, &alpha, &beta) ? quant_single_user(g, u->out) : NULL;
    const ir_value *v = r->in[0];
    if (!f || f->op != IR_OP_FLATTEN || f->out->rank != v->rank ||
        memcmp(f->out->dims, v->dims, sizeof(int64_t) * (size_t)v->rank))
      continue;
    ir_node_set_input(g, u, 0, r->in[0]);
    if (shape_infer_node(g, u, d)) return -1;
    ir_replace_uses(g, f->out, u->out);
    ir_node_remove(g, f);
    ir_node_remove(g, r);
    i = -1;
  }
  return 0;
}

/* A MatMul of an activation of rank 3 or more by constant [K, N] weights
 * (a transformer's projections and MLPs: [1, T, K] x [K, N]) multiplies
 * rows: it becomes Flatten -> MatMul of [rows, K] -> Reshape back, with a
 * following Add of a constant [N] bias folded in as a Gemm, so that the NPU
 * takes it (its blocked layout holds a matrix as rank 2).  The float graph
 * computes the same numbers. */
static int matmul_rows(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    ir_value *x = n->in[0], *w = n->n_in > 1 ? n->in[1] : NULL;
    if (n->op != IR_OP_MATMUL || x->rank < 3 || x->dtype != IR_F32 || w->kind != IR_VALUE_CONST ||
        w->dtype != IR_F32 || w->rank != 2)
      continue;
    int64_t rows = 1, nn = w->dims[1];
    for (int k = 0; k < x->rank - 1; k++) rows *= x->dims[k];
    if (rows < 1) continue;
    ir_node *u = quant_single_user(g, n->out);
    ir_value *b = NULL, *y = n->out;
    if (u && u->op == IR_OP_ADD) { /* MatMul + bias: a Gemm */
      ir_value *o = u->in[0] == n->out ? u->in[1] : u->in[0];
      if (o->kind == IR_VALUE_CONST && o->dtype == IR_F32 && ir_value_numel(o) == nn && o->dims[o->rank - 1] == nn)
        b = o, y = u->out;
    }
    char base[512];
    int pos = quant_node_pos(g, n);
    snprintf(base, sizeof base, "%.480s.rows", x->name);
    ir_node *f = quant_new_node(g, pos++, IR_OP_FLATTEN, n->src, &x, 1, base, IR_F32, x, d);
    if (!f || ir_attr_set_int(g, f, "axis", x->rank - 1, d) || shape_infer_node(g, f, d)) return -1;
    ir_value *bias = NULL;
    if (b) { /* the bias as [N] */
      snprintf(base, sizeof base, "%.480s.n", b->name);
      if (!(bias = quant_new_const(g, base, IR_F32, 1, &nn, d))) return -1;
      memcpy(bias->data, b->data, sizeof(float) * (size_t)nn);
    }
    ir_value *m_in[3] = {f->out, w, bias};
    snprintf(base, sizeof base, "%.480s.rows", y->name);
    ir_node *m = quant_new_node(g, pos++, b ? IR_OP_GEMM : IR_OP_MATMUL, b ? u->src : n->src, m_in, b ? 3 : 2, base,
                                IR_F32, x, d);
    if (!m || shape_infer_node(g, m, d)) return -1;
    int64_t r = y->rank;
    snprintf(base, sizeof base, "%.480s.shape", y->name);
    ir_value *shape = quant_new_const(g, base, IR_I64, 1, &r, d);
    if (!shape) return -1;
    memcpy(shape->data, y->dims, sizeof(int64_t) * (size_t)r);
    ir_value *r_in[2] = {m->out, shape};
    ir_node *back = quant_new_node(g, pos, IR_OP_RESHAPE, b ? u->src : n->src, r_in, 2, base, IR_F32, y, d);
    if (!back || shape_infer_node(g, back, d)) return -1;
    /* the new Reshape takes over y (its uses and its name); MatMul and Add go */
    const char *name = y->name, *tmp = ir_unique_name(g, "dead");
    if (!tmp) return diag_oom(d);
    ir_replace_uses(g, y, back->out);
    ir_value_rename(g, y, tmp);
    ir_value_rename(g, back->out, name);
    if (b) ir_node_remove(g, u);
    ir_node_remove(g, n);
    i = quant_node_pos(g, back);
  }
  return rows_through_unary(g, d);
}

int ptq(ir_graph *g, const calib_data *c, diag *d) {
  if (!c || c->n_samples < 1) return diag_set(d, "ptq needs calibration data (--calib X.npy)");
  if (c->n_inputs != g->n_inputs)
    return diag_set(d, "ptq: %d calibration inputs per sample, the graph has %d inputs", c->n_inputs, g->n_inputs);
  calib_range *r;
  int nr;
  if (matmul_rows(g, d) || calibrate(g, c, &r, &nr, d)) return -1;
  qparam *qp = calloc((size_t)nr, sizeof *qp);
  ir_value **order = calloc((size_t)nr, sizeof *order);
  if (!qp || !order) {
    free(r), free(qp), free(order);
    return diag_oom(d);
  }
  int n_order = 0, rc = 0;
#define WANT(v, p)                                                   \
  do {                                                               \
    if ((v)->dtype == IR_F32 && (v)->kind != IR_VALUE_CONST && !qp[(v)->id].set) { \
      qp[(v)->id] = (p);                                             \
      order[n_order++] = (v);                                        \
    }                                                                \
  } while (0)
  /* 1. which values get a QDQ pair, and their parameters (topological order) */
  int n0 = g->n_nodes;
  ir_node **nodes = malloc(sizeof(ir_node *) * (size_t)(n0 ? n0 : 1));
  if (!nodes) {
    free(r), free(qp), free(order);
    return diag_oom(d);
  }
  if (n0) memcpy(nodes, g->nodes, sizeof(ir_node *) * (size_t)n0); /* a graph of no nodes has NULL nodes */
  for (int i = 0; i < n0; i++) {
    ir_node *n = nodes[i];
    /* An Add goes to the NPU only where both operands are int8 already: one
     * that would quantise a float operand (a transformer's residual stream
     * beside its float LayerNorms, two graph inputs) costs a conversion on
     * the core and the operand's precision, and saves nothing. */
    int add_float = n->op == IR_OP_ADD && (!qp[n->in[0]->id].set || !qp[n->in[1]->id].set);
    if (is_anchor(n) && !add_float) {
      int nin = n->op == IR_OP_ADD ? 2 : 1;
      for (int k = 0; k < nin; k++) WANT(n->in[k], from_range(&r[n->in[k]->id]));
      ir_value *out = n->out;
      ir_node *u = quant_single_user(g, out);
      if (u && (u->op == IR_OP_RELU || u->op == IR_OP_CLIP) && n->op != IR_OP_AVGPOOL &&
          n->op != IR_OP_GLOBAL_AVGPOOL)
        out = u->out; /* quantise after the activation: it becomes the clamp */
      WANT(out, from_range(&r[out->id]));
    } else if (is_passthrough(n) && n->in[0]->dtype == IR_F32 && qp[n->in[0]->id].set) {
      WANT(n->out, qp[n->in[0]->id]);
    } else if (n->op == IR_OP_CONCAT) {
      /* The union of its inputs' ranges: what minmax measures of the
       * Concat itself, and under spread the input with the widest range
       * keeps its parameters, so it needs no requantisation (squeezenet's
       * fire modules store one expand conv straight into the Concat). */
      int all = 1;
      calib_range u = r[n->out->id];
      for (int k = 0; k < n->n_in; k++) {
        const calib_range *rk = &r[n->in[k]->id];
        all &= qp[n->in[k]->id].set && rk->seen;
        if (all) u.lo = k ? fmin(u.lo, rk->lo) : rk->lo, u.hi = k ? fmax(u.hi, rk->hi) : rk->hi;
      }
      u.seen = 1;
      if (all) WANT(n->out, from_range(&u));
    }
  }
  /* 1b. A Mul whose output and one operand are int8 by now, the other
   * operand a unary op of an int8 value read by nothing else (a
   * squeeze-excitation gate: Conv -> Sigmoid -> Mul): that operand too, so
   * the unary op becomes a table and the Mul an int8 QMul, not three float
   * passes on the core. */
  for (int i = 0; i < n0; i++) {
    ir_node *n = nodes[i];
    if (n->op != IR_OP_MUL || n->n_in != 2 || !qp[n->out->id].set) continue;
    for (int k = 0; k < 2; k++) {
      ir_value *v = n->in[k];
      const ir_node *u = v->kind == IR_VALUE_NODE ? v->def : NULL;
      uint32_t fn;
      float alpha, beta;
      if (u && qp[n->in[1 - k]->id].set && u->n_in == 1 && qp[u->in[0]->id].set &&
          quant_single_user(g, v) == n && core_unary_of(u, &fn, &alpha, &beta))
        WANT(v, from_range(&r[v->id]));
    }
  }
#undef WANT
  /* Values calibrated to an empty range (0 in every sample: all-zero or
   * unrepresentative calibration data) take scale 1: say which. */
  int n_empty = 0;
  const ir_value *first_empty = NULL;
  for (int i = 0; i < n_order; i++)
    if (range_empty(&r[order[i]->id]) && !n_empty++) first_empty = order[i];
  if (n_empty) {
    char more[64] = "";
    if (n_empty > 1) snprintf(more, sizeof more, " (and %d other%s)", n_empty - 1, n_empty > 2 ? "s" : "");
    fprintf(stderr,
            "tessel: warning: %s: value '%s'%s is 0 in every calibration sample (an empty range): "
            "quantised with scale 1 and zero point 0, as ONNX Runtime does (or with the scale of the Add or Concat it "
            "feeds); calibrate with representative data\n",
            c->source ? c->source : "the calibration data", first_empty->name, more);
  }
  /* 1c. An empty range's scale is arbitrary: any scale holds its one value,
   * 0, exactly.  Scale 1 beside a tiny neighbour made a ratio of 2^31 or
   * more that no multiplier holds (a residual Add of a dead branch, input
   * ratio 8e9: "cannot be represented"), so such a value takes the scale of
   * what its first Add, Concat or pass-through consumer makes of it (ratio
   * 1); in reverse order, so that a chain of pass-through values ends up
   * with one scale. */
  for (int i = n_order - 1; i >= 0; i--) {
    ir_value *v = order[i];
    if (!range_empty(&r[v->id])) continue;
    for (int j = 0; j < n0; j++) {
      const ir_node *n = nodes[j];
      int reads = 0;
      for (int k = 0; k < n->n_in; k++) reads |= n->in[k] == v;
      if (!reads || !(is_passthrough(n) || n->op == IR_OP_ADD || n->op == IR_OP_CONCAT)) continue;
      const ir_node *u = quant_single_user(g, n->out);
      const ir_value *y = !qp[n->out->id].set && u && (u->op == IR_OP_RELU || u->op == IR_OP_CLIP) ? u->out : n->out;
      if (qp[y->id].set) {
        qp[v->id].scale = qp[y->id].scale;
        break;
      }
    }
  }
  /* 2. weights, then the pairs */
  for (int i = 0; i < n0 && !rc; i++) {
    ir_node *n = nodes[i];
    if (!is_anchor(n) || n->op == IR_OP_ADD || n->op == IR_OP_AVGPOOL || n->op == IR_OP_GLOBAL_AVGPOOL) continue;
    int axis = n->op == IR_OP_CONV ? 0 : n->op == IR_OP_GEMM && ir_attr_int(n, "transB", 0) ? 0 : 1;
    const qparam *px = &qp[n->in[0]->id];
    rc = quantise_weights(g, n, axis, px->set ? px->scale : 0, d);
  }
  for (int i = 0; i < n_order && !rc; i++) rc = insert_qdq(g, order[i], &qp[order[i]->id], d);
  free(nodes), free(r), free(qp), free(order);
  return rc;
}
