/* qdq_fold: QuantizeLinear/DequantizeLinear patterns become quantised ops.
 *
 * Requires: shapes inferred; quant-ops done (not required, but it leaves
 *           fewer patterns).
 * Guarantees: for every QuantizeLinear Q (per tensor, constant params) whose
 *           input is produced (optionally through a Relu or Clip used only
 *           by Q) by one of the ops below, all of whose activation inputs
 *           are DequantizeLinear (per tensor, constant params), the pattern
 *           is one quantised op and Q's output now comes from it:
 *             Conv (DQ weights, per tensor or per channel on axis 0)  -> QConv
 *             MatMul, Gemm (alpha = beta = 1, no transA; DQ weights)   -> QMatMul
 *             Add (same shapes)                                        -> QAdd
 *             Mul (numpy broadcasting; s_a * s_b / s_y representable)  -> QMul
 *             AveragePool, GlobalAveragePool                           -> QAveragePool
 *             MaxPool, GlobalMaxPool, Flatten, Reshape, Squeeze,
 *             Unsqueeze, Transpose, Concat                             -> the same op on int8
 *             a unary elementwise op (Sigmoid, Tanh, HardSwish, GELU,
 *             LeakyRelu, ...; Relu/Clip alone)                         -> QLut (its table)
 *           and a Softmax to f32 (no QuantizeLinear after it) of a DQ'd
 *           int8 tensor is a QSoftmax to f32 (its exp table).
 *           A float bias becomes int32 round(b / (s_x * s_w[c])); a DQ'd int32
 *           bias is rescaled to that scale (unchanged when it already has
 *           it).  Relu/Clip become the op's clamp (lo, hi) in the output's
 *           integers: Q is monotonic, so clamping before or after it is the
 *           same.  Pass-through ops whose input and output parameters
 *           differ get a QRequant after them; Concat requantises the inputs
 *           that differ.  Activations are int8 (uint8 shifted, exactly).
 *           Patterns that do not match stay as they are (the float
 *           reference runs them: a documented fallback).  Bad parameters
 *           (zero scale, zero point out of range, per-channel size
 *           mismatch) of any QuantizeLinear/DequantizeLinear are located
 *           errors, folded or not.
 * Invalidates: nothing; leaves dead nodes for the dce at its end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_op.h"
#include "passes.h"
#include "quant.h"

typedef struct dq_in {
  ir_value *q;     /* the integer value being dequantised */
  quant_params p;  /* its parameters */
} dq_in;

/* v = DequantizeLinear(q, s, z) with constant params: 0; 1 when not; -1 error. */
static int dq_of(ir_graph *g, ir_value *v, dq_in *r, diag *d) {
  ir_node *n = v->def;
  if (v->kind != IR_VALUE_NODE || n->op != IR_OP_DEQUANTIZE) return 1;
  int rc = quant_params_of_node(g, n, n->in[0]->rank, &r->p, d);
  if (rc) return rc;
  r->q = n->in[0];
  return 0;
}

static int dq_tensor(ir_graph *g, ir_value *v, dq_in *r, diag *d) {
  int rc = dq_of(g, v, r, d);
  if (rc) return rc;
  return r->p.n == 1 && (r->q->dtype == IR_I8 || r->q->dtype == IR_U8) ? 0 : 1;
}

/* What the fold knows about the pattern's tail. */
typedef struct tail {
  ir_node *q;       /* the QuantizeLinear */
  ir_node *act;     /* Relu or Clip between the op and q, or NULL */
  float sy;         /* output scale */
  int32_t zy8;      /* output zero point, int8 domain */
  int64_t lo, hi;   /* clamp in the output's int8 integers */
  char src[512];    /* ONNX nodes the result stands for */
} tail;

/* Q(v) in the int8 domain, as QuantizeLinear computes it (f32 division). */
static int64_t q_of(double v, const tail *t) {
  if (isinf(v)) return v < 0 ? -128 : 127;
  float r = (float)v / t->sy;
  return quant_round_sat((double)nearbyintf(r) + t->zy8, -128, 127);
}

/* The new node's output takes over Q's. */
static int finish(ir_graph *g, ir_node *nn, const tail *t, diag *d) {
  if (quant_set(g, nn->out, 1, 0, 0, &t->sy, &t->zy8, d) || shape_infer_node(g, nn, d)) return -1;
  return quant_replace_output(g, t->q->out, nn->out, d);
}

static int set_clamp(ir_graph *g, ir_node *nn, const tail *t, diag *d) {
  return ir_attr_set_int(g, nn, "hi", t->hi, d) || ir_attr_set_int(g, nn, "lo", t->lo, d) ? -1 : 0;
}

/* int32 bias at scale sx*sw[c]: from a float constant or a DQ'd int32 constant. */
static ir_value *bias_i32(ir_graph *g, ir_value *b, int64_t m, float sx, const quant_params *pw, diag *d,
                          int *rc) {
  dq_in db;
  const ir_value *src = b;
  int r = dq_of(g, b, &db, d);
  if (r < 0) return *rc = -1, NULL;
  if (r == 0) src = db.q;
  if (src->kind != IR_VALUE_CONST || ir_value_numel(src) != m || (r == 0 && src->dtype != IR_I32) ||
      (r == 1 && src->dtype != IR_F32) || (r == 0 && db.p.n != 1 && db.p.n != m))
    return *rc = 1, NULL;
  char base[512];
  snprintf(base, sizeof base, "%.480s.i32", b->name);
  int64_t dims[1] = {m};
  ir_value *c = quant_new_const(g, base, IR_I32, 1, dims, d);
  if (!c) return *rc = -1, NULL;
  for (int64_t i = 0; i < m; i++) {
    double real = r == 0 ? (double)db.p.scale[db.p.n > 1 ? i : 0] *
                               (double)(((int32_t *)src->data)[i] - db.p.zp[db.p.n > 1 ? i : 0])
                         : ((float *)src->data)[i];
    double s = (double)sx * pw->scale[pw->n > 1 ? i : 0];
    ((int32_t *)c->data)[i] = (int32_t)quant_round_sat(real / s, INT32_MIN, INT32_MAX);
  }
  *rc = 0;
  return c;
}

static int fold_conv(ir_graph *g, ir_node *p, tail *t, diag *d) {
  dq_in x, w;
  int rc;
  if ((rc = dq_tensor(g, p->in[0], &x, d)) || (rc = dq_of(g, p->in[1], &w, d))) return rc;
  int64_t m = w.q->dims[0];
  if (w.q->kind != IR_VALUE_CONST || (w.q->dtype != IR_I8 && w.q->dtype != IR_U8)) return 1;
  if (w.p.n > 1 && (w.p.axis != 0 || w.p.n != m))
    return ir_node_error(d, w.q->def ? w.q->def : p, "weights '%s': %d per-channel scales for %lld output channels on axis %d",
                         w.q->name, w.p.n, (long long)m, w.p.axis);
  ir_value *in[3], *bias = NULL;
  if (p->n_in > 2 && !(bias = bias_i32(g, p->in[2], m, x.p.scale[0], &w.p, d, &rc))) return rc;
  if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d))) return rc;
  if (!(in[1] = quant_weights_i8(g, w.q, w.p.n, 0, w.p.per_channel, w.p.scale, w.p.zp, d))) return -1;
  in[2] = bias;
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), IR_OP_QCONV, t->src, in, bias ? 3 : 2,
                               t->q->out->name, IR_I8, t->q->out, d);
  if (!nn || ir_attrs_copy(g, nn, p, d) || set_clamp(g, nn, t, d)) return -1;
  return finish(g, nn, t, d);
}

static int fold_matmul(ir_graph *g, ir_node *p, tail *t, diag *d) {
  dq_in x, w;
  int rc, gemm = p->op == IR_OP_GEMM;
  if ((rc = dq_tensor(g, p->in[0], &x, d)) || (rc = dq_of(g, p->in[1], &w, d))) return rc;
  if (w.q->kind != IR_VALUE_CONST || w.q->rank != 2 || x.q->rank < 2) return 1;
  if (w.q->dtype != IR_I8 && w.q->dtype != IR_U8) return 1;
  int tb = 0;
  if (gemm) {
    if (ir_attr_int(p, "transA", 0) || ir_attr_float(p, "alpha", 1) != 1 || ir_attr_float(p, "beta", 1) != 1)
      return 1;
    tb = ir_attr_int(p, "transB", 0) != 0;
  }
  int caxis = tb ? 0 : 1;
  int64_t k = w.q->dims[1 - caxis], n = w.q->dims[caxis];
  if (w.p.n > 1 && (w.p.axis != caxis || w.p.n != n))
    return ir_node_error(d, p, "weights '%s': %d per-channel scales for %lld output columns", w.q->name, w.p.n,
                         (long long)n);
  /* 1. weights as [K, N] */
  const ir_value *wsrc = w.q;
  if (tb) {
    int64_t dims[2] = {k, n};
    char base[512];
    snprintf(base, sizeof base, "%.480s.t", w.q->name);
    ir_value *wt = quant_new_const(g, base, w.q->dtype, 2, dims, d);
    if (!wt) return -1;
    for (int64_t i = 0; i < k; i++)
      for (int64_t j = 0; j < n; j++) ((uint8_t *)wt->data)[i * n + j] = ((uint8_t *)w.q->data)[j * k + i];
    wsrc = wt;
  }
  ir_value *in[3], *bias = NULL;
  if (gemm && p->n_in > 2 && !(bias = bias_i32(g, p->in[2], n, x.p.scale[0], &w.p, d, &rc))) return rc;
  if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d))) return rc;
  if (!(in[1] = quant_weights_i8(g, wsrc, w.p.n, 1, w.p.per_channel, w.p.scale, w.p.zp, d))) return -1;
  in[2] = bias;
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), IR_OP_QMATMUL, t->src, in, bias ? 3 : 2,
                               t->q->out->name, IR_I8, t->q->out, d);
  if (!nn || set_clamp(g, nn, t, d)) return -1;
  return finish(g, nn, t, d);
}

/* The quantised binary op `op` of the int8 tensors behind a and b, with
 * the tail's output and clamp. */
static int fold_binary(ir_graph *g, const dq_in *a, const dq_in *b, ir_op op, tail *t, diag *d) {
  ir_value *in[2];
  int rc;
  if ((rc = quant_input_i8(g, a->q, a->p.scale[0], a->p.zp[0], &in[0], d)) ||
      (rc = quant_input_i8(g, b->q, b->p.scale[0], b->p.zp[0], &in[1], d)))
    return rc;
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), op, t->src, in, 2, t->q->out->name, IR_I8, t->q->out, d);
  if (!nn || set_clamp(g, nn, t, d)) return -1;
  return finish(g, nn, t, d);
}

static int fold_add(ir_graph *g, ir_node *p, tail *t, diag *d) {
  dq_in a, b;
  int rc;
  if ((rc = dq_tensor(g, p->in[0], &a, d)) || (rc = dq_tensor(g, p->in[1], &b, d))) return rc;
  const ir_value *x = p->in[0], *y = p->in[1];
  if (x->rank != y->rank || memcmp(x->dims, y->dims, sizeof(int64_t) * (size_t)x->rank)) return 1;
  return fold_binary(g, &a, &b, IR_OP_QADD, t, d);
}

/* Mul of two dequantised int8 tensors (either may be a constant: a DQ'd
 * one is an operand like any other), broadcasting as ONNX does: a QMul on
 * the control core (docs/quantisation.md, "Mul of two int8 tensors").  A
 * float constant operand (no DequantizeLinear) stays float, as does a
 * ratio s_a * s_b / s_y the multiplier cannot hold. */
static int fold_mul(ir_graph *g, ir_node *p, tail *t, diag *d) {
  dq_in a, b;
  int rc, s;
  int32_t m;
  if ((rc = dq_tensor(g, p->in[0], &a, d)) || (rc = dq_tensor(g, p->in[1], &b, d))) return rc;
  if (quant_multiplier((double)a.p.scale[0] * b.p.scale[0] / t->sy, &m, &s)) return 1;
  return fold_binary(g, &a, &b, IR_OP_QMUL, t, d);
}

static int fold_avgpool(ir_graph *g, ir_node *p, tail *t, diag *d) {
  dq_in x;
  int rc;
  if ((rc = dq_tensor(g, p->in[0], &x, d))) return rc;
  if (x.q->rank != 4 && x.q->rank != 3) return 1;
  int global = p->op == IR_OP_GLOBAL_AVGPOOL;
  /* ceil_mode with count_include_pad divides by a count the NPU does not form */
  if (!global && ir_attr_int(p, "ceil_mode", 0) && ir_attr_int(p, "count_include_pad", 0)) return 1;
  ir_value *in[1];
  if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d))) return rc;
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), IR_OP_QAVGPOOL, t->src, in, 1, t->q->out->name,
                               IR_I8, t->q->out, d);
  if (!nn || set_clamp(g, nn, t, d)) return -1;
  if (global) {
    int s = x.q->rank - 2;
    int64_t k[2], one[2] = {1, 1}, zero[4] = {0, 0, 0, 0};
    for (int i = 0; i < s; i++) k[i] = x.q->dims[2 + i];
    if (ir_attr_set_ints(g, nn, "kernel_shape", k, s, d) || ir_attr_set_ints(g, nn, "strides", one, s, d) ||
        ir_attr_set_ints(g, nn, "pads", zero, 2 * s, d) || ir_attr_set_int(g, nn, "count_include_pad", 0, d) ||
        ir_attr_set_int(g, nn, "ceil_mode", 0, d))
      return -1;
  } else if (ir_attrs_copy(g, nn, p, d)) {
    return -1;
  }
  return finish(g, nn, t, d);
}

/* An int8 version of x requantised to the tail's parameters (x itself when equal). */
static int to_tail_params(ir_graph *g, ir_value *x, const tail *t, int pos, ir_value **out, diag *d) {
  if (x->quant.scale[0] == t->sy && x->quant.zero_point[0] == t->zy8) {
    *out = x;
    return 0;
  }
  ir_node *r = quant_new_requant(g, pos, x, IR_I8, t->src, d);
  if (!r || quant_set(g, r->out, 1, 0, 0, &t->sy, &t->zy8, d)) return -1;
  *out = r->out;
  return 0;
}

/* Ops that move or select values: the same op on the integers. */
static int fold_passthrough(ir_graph *g, ir_node *p, tail *t, diag *d) {
  int rc, concat = p->op == IR_OP_CONCAT;
  ir_value *in[IR_MAX_INPUTS];
  if (t->act) return 1;
  /* 1. every data input must be a dequantised tensor before anything is built */
  for (int k = 0; k < p->n_in && (k == 0 || concat); k++) {
    dq_in x;
    if ((rc = dq_tensor(g, p->in[k], &x, d))) return rc;
  }
  /* 2. the inputs as int8 (at the output's parameters for Concat) */
  for (int k = 0; k < p->n_in; k++) {
    dq_in x;
    if (k > 0 && !concat) { /* shape operands (Reshape) stay */
      in[k] = p->in[k];
      continue;
    }
    if ((rc = dq_tensor(g, p->in[k], &x, d))) return rc;
    if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[k], d))) return rc;
    if (concat && to_tail_params(g, in[k], t, quant_node_pos(g, t->q), &in[k], d)) return -1;
  }
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), p->op, t->src, in, p->n_in, t->q->out->name, IR_I8,
                               t->q->out, d);
  if (!nn || ir_attrs_copy(g, nn, p, d)) return -1;
  if (concat) return finish(g, nn, t, d);
  /* 3. the op keeps its input's parameters; 4. requantise when Q's differ */
  if (quant_set(g, nn->out, 1, 0, 0, in[0]->quant.scale, in[0]->quant.zero_point, d) ||
      shape_infer_node(g, nn, d))
    return -1;
  ir_value *res;
  if (to_tail_params(g, nn->out, t, quant_node_pos(g, nn) + 1, &res, d))
    return -1;
  if (res != nn->out && shape_infer_node(g, res->def, d)) return -1;
  return quant_replace_output(g, t->q->out, res, d);
}

/* A unary elementwise op between int8 tensors (Sigmoid, Tanh, HardSwish,
 * GELU, ...; a Relu or Clip after it clamps): its int8 definition, the table
 * of DequantizeLinear -> op -> QuantizeLinear over the 256 input codes
 * (tfw_lut_build, the core's own arithmetic), as a QLut. */
static int fold_lut(ir_graph *g, ir_node *p, tail *t, diag *d) {
  uint32_t fn;
  float alpha, beta;
  dq_in x;
  int rc;
  if (!core_unary_of(p, &fn, &alpha, &beta) || p->n_in != 1 || p->out->dtype != IR_F32) return 1;
  if ((rc = dq_tensor(g, p->in[0], &x, d))) return rc;
  ir_value *in[1];
  if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d))) return rc;
  int8_t tab[256];
  if (tfw_lut_build(fn, alpha, beta, in[0]->quant.scale[0], in[0]->quant.zero_point[0], t->sy, t->zy8, tab)) return 1;
  int64_t table[256];
  for (int i = 0; i < 256; i++) table[i] = tab[i] < t->lo ? t->lo : tab[i] > t->hi ? t->hi : tab[i];
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), IR_OP_QLUT, t->src, in, 1, t->q->out->name, IR_I8,
                               t->q->out, d);
  if (!nn || ir_attr_set_ints(g, nn, "table", table, 256, d) || ir_attr_set_int(g, nn, "fn", fn, d)) return -1;
  return finish(g, nn, t, d);
}

/* A new int32 or int64 constant of n elements named after node p, holding
 * a copy of data. */
static ir_value *int_const(ir_graph *g, const ir_node *p, const char *what, ir_dtype t, int64_t n, const void *data,
                           diag *d) {
  char base[512];
  snprintf(base, sizeof base, "%.400s.%s", p->out->name, what);
  ir_value *c = quant_new_const(g, base, t, 1, &n, d);
  if (c) memcpy(c->data, data, (size_t)n * ir_dtype_size(t));
  return c;
}

/* Softmax along one axis between int8 tensors: its int8 definition
 * (tfw_softmax_q_build's exp table and output multiplier), as a QSoftmax.
 * Before opset 13 only where the coerced row is the last axis.  The
 * constants are built before the graph changes: a Softmax that stays float
 * leaves nothing behind. */
static int fold_softmax(ir_graph *g, ir_node *p, tail *t, diag *d) {
  int rank = p->in[0]->rank, ax = (int)ir_attr_int(p, "axis", -1), rc;
  ax = ax < 0 ? ax + rank : ax;
  if (t->act || p->out->dtype != IR_F32 || (ir_attr_int(p, "coerce2d", 0) && ax != rank - 1)) return 1;
  dq_in x;
  if ((rc = dq_tensor(g, p->in[0], &x, d))) return rc;
  int32_t table[256], mult, shift;
  if (tfw_softmax_q_build(x.p.scale[0], t->sy, table, &mult, &shift)) return 1;
  ir_value *in[2];
  if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d))) return rc;
  if (!(in[1] = int_const(g, p, "exp", IR_I32, 256, table, d))) return -1;
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), IR_OP_QSOFTMAX, t->src, in, 2, t->q->out->name, IR_I8,
                               t->q->out, d);
  if (!nn || ir_attr_set_int(g, nn, "axis", ax, d) || ir_attr_set_int(g, nn, "mult", mult, d) ||
      ir_attr_set_int(g, nn, "shift", shift, d))
    return -1;
  return finish(g, nn, t, d);
}

/* Softmax with a float output whose input is an int8 tensor dequantised:
 * its int8 definition with an f32 result (tfw_softmax_qf_build's exp table),
 * as a QSoftmax to f32 that takes over p's output. Left to the float path
 * where fold_softmax would be (a Relu/Clip tail is not one here). */
static int fold_softmax_f32(ir_graph *g, ir_node *p, diag *d) {
  int rank = p->in[0]->rank, ax = (int)ir_attr_int(p, "axis", -1), rc;
  ax = ax < 0 ? ax + rank : ax;
  if (p->out->dtype != IR_F32 || (ir_attr_int(p, "coerce2d", 0) && ax != rank - 1)) return 1;
  dq_in x;
  if ((rc = dq_tensor(g, p->in[0], &x, d))) return rc;
  float table[256];
  if (tfw_softmax_qf_build(x.p.scale[0], table)) return 1;
  ir_value *in[2];
  if ((rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d))) return rc;
  int64_t n = 256;
  char base[512];
  snprintf(base, sizeof base, "%.400s.exp", p->out->name);
  if (!(in[1] = quant_new_const(g, base, IR_F32, 1, &n, d))) return -1;
  memcpy(in[1]->data, table, sizeof table);
  ir_node *nn = quant_new_node(g, quant_node_pos(g, p), IR_OP_QSOFTMAX, p->src, in, 2, p->out->name, IR_F32,
                               p->out, d);
  if (!nn || ir_attr_set_int(g, nn, "axis", ax, d) || shape_infer_node(g, nn, d)) return -1;
  return quant_replace_output(g, p->out, nn->out, d);
}

/* LayerNormalization with float constant scale and bias of the normalised
 * shape between int8 tensors: its int8 definition (tfw_layernorm_q_build),
 * as a QLayerNorm whose per-element multipliers and biases are constants.
 * Broadcast scales and biases keep the float path. */
static int fold_layernorm(ir_graph *g, ir_node *p, tail *t, diag *d) {
  int rank = p->in[0]->rank, ax = (int)ir_attr_int(p, "axis", -1), rc;
  ax = ax < 0 ? ax + rank : ax;
  int64_t n = 1;
  for (int i = ax; i < rank; i++) n *= p->in[0]->dims[i];
  const ir_value *gv = p->in[1], *bv = p->n_in > 2 ? p->in[2] : NULL;
  if (t->act || p->out->dtype != IR_F32 || n < 1 || n > 65536 || gv->kind != IR_VALUE_CONST ||
      gv->dtype != IR_F32 || ir_value_numel(gv) != n ||
      (bv && (bv->kind != IR_VALUE_CONST || bv->dtype != IR_F32 || ir_value_numel(bv) != n)))
    return 1;
  dq_in x;
  if ((rc = dq_tensor(g, p->in[0], &x, d))) return rc;
  int32_t *gq = malloc(sizeof *gq * (size_t)n), gs;
  int64_t *bq = malloc(sizeof *bq * (size_t)n);
  uint32_t eps[2];
  rc = gq && bq ? 0 : diag_oom(d);
  if (!rc && tfw_layernorm_q_build(x.p.scale[0], t->sy, ir_attr_float(p, "epsilon", 1e-5f), (uint32_t)n, gv->data,
                                   bv ? bv->data : NULL, gq, bq, &gs, eps))
    rc = 1;
  ir_value *in[3] = {0};
  if (!rc) rc = quant_input_i8(g, x.q, x.p.scale[0], x.p.zp[0], &in[0], d);
  if (!rc && (!(in[1] = int_const(g, p, "g", IR_I32, n, gq, d)) || !(in[2] = int_const(g, p, "b", IR_I64, n, bq, d))))
    rc = -1;
  free(gq), free(bq);
  if (rc) return rc;
  ir_node *nn = quant_new_node(g, quant_node_pos(g, t->q), IR_OP_QLAYERNORM, t->src, in, 3, t->q->out->name,
                               IR_I8, t->q->out, d);
  int64_t e2[2] = {eps[0], eps[1]};
  if (!nn || ir_attr_set_int(g, nn, "axis", ax, d) || ir_attr_set_int(g, nn, "gshift", gs, d) ||
      ir_attr_set_ints(g, nn, "eps", e2, 2, d))
    return -1;
  return finish(g, nn, t, d);
}

/* Tries the fold anchored at QuantizeLinear q: 0 folded, 1 not, -1 error. */
static int fold_at(ir_graph *g, ir_node *q, diag *d) {
  quant_params py;
  int rc = quant_params_of_node(g, q, q->out->rank, &py, d);
  if (rc) return rc;
  if (py.n != 1 || (q->out->dtype != IR_I8 && q->out->dtype != IR_U8)) return 1;
  tail t = {.q = q, .sy = py.scale[0], .lo = -128, .hi = 127};
  t.zy8 = py.zp[0] - (q->out->dtype == IR_U8 ? 128 : 0);
  ir_value *v = q->in[0];
  if (v->kind != IR_VALUE_NODE) return 1;
  ir_node *p = v->def;
  if ((p->op == IR_OP_RELU || p->op == IR_OP_CLIP) && quant_single_user(g, v) == q) {
    t.act = p;
    v = p->in[0];
    if (v->kind != IR_VALUE_NODE) return 1;
    p = v->def;
    if (t.act->op == IR_OP_RELU) {
      t.lo = t.zy8;
    } else {
      t.lo = q_of(ir_attr_float(t.act, "min", -INFINITY), &t);
      t.hi = q_of(ir_attr_float(t.act, "max", INFINITY), &t);
    }
  }
  if (quant_single_user(g, v) != (t.act ? t.act : q)) return 1;
  if (t.act && p->op == IR_OP_DEQUANTIZE) { /* DQ -> Relu/Clip -> Q alone: a table too */
    ir_node *a = t.act;
    t.act = NULL, t.lo = -128, t.hi = 127;
    snprintf(t.src, sizeof t.src, "%.500s", a->src);
    return fold_lut(g, a, &t, d);
  }
  if (t.act) snprintf(t.src, sizeof t.src, "%.250s+%.250s", p->src, t.act->src);
  else snprintf(t.src, sizeof t.src, "%.500s", p->src);
  switch (p->op) {
  case IR_OP_CONV: return fold_conv(g, p, &t, d);
  case IR_OP_MATMUL: case IR_OP_GEMM: return fold_matmul(g, p, &t, d);
  case IR_OP_ADD: return fold_add(g, p, &t, d);
  case IR_OP_MUL: return fold_mul(g, p, &t, d);
  case IR_OP_AVGPOOL: case IR_OP_GLOBAL_AVGPOOL: return fold_avgpool(g, p, &t, d);
  case IR_OP_MAXPOOL: case IR_OP_GLOBAL_MAXPOOL: case IR_OP_FLATTEN: case IR_OP_RESHAPE:
  case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE: case IR_OP_TRANSPOSE: case IR_OP_CONCAT:
    return fold_passthrough(g, p, &t, d);
  case IR_OP_SOFTMAX: return fold_softmax(g, p, &t, d);
  case IR_OP_LAYER_NORM: return fold_layernorm(g, p, &t, d);
  default: return fold_lut(g, p, &t, d);
  }
}

int qdq_fold(ir_graph *g, diag *d) {
  /* 1. every Q/DQ's constant parameters are checked, folded or not */
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    quant_params p;
    if ((n->op == IR_OP_QUANTIZE || n->op == IR_OP_DEQUANTIZE) &&
        quant_params_of_node(g, n, n->in[0]->rank, &p, d) < 0)
      return -1;
  }
  /* 2. the folds, anchored at each QuantizeLinear */
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (n->op != IR_OP_QUANTIZE) continue;
    int rc = fold_at(g, n, d);
    if (rc < 0) return -1;
    if (rc == 0) {
      ir_node_remove(g, n); /* its output has no users left */
      i = -1;                /* new nodes went in before it: rescan */
    } else {
      /* A fold that gave up may have left unused nodes before n (dce drops
       * them): go on after n wherever it now stands, never at n again. */
      i = quant_node_pos(g, n);
    }
  }
  /* 3. Softmax to float of a dequantised int8 tensor */
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (n->op != IR_OP_SOFTMAX) continue;
    int rc = fold_softmax_f32(g, n, d);
    if (rc < 0) return -1;
    if (rc == 0) i = quant_node_pos(g, n); /* the new node went in before n */
  }
  return dce(g, d);
}
