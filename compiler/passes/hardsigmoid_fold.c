/* hardsigmoid_fold: a HardSigmoid right after a Conv or Gemm with constant
 * weights becomes the Conv/Gemm's affine map plus a Clip(0, 1).
 *
 * HardSigmoid(y) = clip(alpha * y + beta, 0, 1), and alpha * y + beta of
 * y = W x + b is (alpha W) x + (alpha b + beta).  A squeeze-excitation gate
 * (MobileNetV3: fc2 Conv -> HardSigmoid -> Mul) then quantises after the
 * Clip, which ptq fuses into the Conv as its clamp: the gate is int8 over
 * [0, 1] (step 1/255) instead of the Conv's own wide range, of which
 * HardSigmoid uses only |y| < 3 (docs/quantisation.md, "HardSigmoid gates").
 *
 * Requires: shapes inferred (shape_infer).
 * Guarantees: a HardSigmoid (finite alpha, beta) of an f32 value computed by
 *           a Conv whose weights and bias (if any) are f32 constants, or a
 *           Gemm whose B and C (if any) are, the value read by nothing but
 *           the HardSigmoid and not a graph output, is Clip {min=0, max=1}
 *           in place (its output, name and src stay); the Conv/Gemm reads
 *           new constants (computed in double, stored as f32; the old
 *           ones, which other nodes may share, are never written):
 *             Conv: weights alpha*W, bias alpha*b + beta (beta when the
 *                   Conv had no bias);
 *             Gemm: B' = alpha*B, C' = alpha*gemm_beta*C + beta (an [N]
 *                   constant beta when it had no C), gemm beta = 1.
 *           The float result differs by f32 rounding only.
 * Invalidates: nothing; leaves the old constants for dce. */
#include <math.h>
#include <stdio.h>

#include "passes.h"

/* A new f32 constant shaped like `like` (or [n] when like is NULL), named
 * base + "_hsfold". */
static ir_value *new_const(ir_graph *g, const char *base, const ir_value *like, int64_t n, diag *d) {
  char buf[512];
  snprintf(buf, sizeof buf, "%.400s_hsfold", base);
  const char *name = ir_unique_name(g, buf);
  ir_value *v = name ? ir_value_new(g, name, IR_VALUE_CONST, d) : NULL;
  if (!name) diag_oom(d);
  if (!v) return NULL;
  if (like) {
    ir_value_copy_type(v, like);
  } else {
    v->rank = 1;
    v->dims[0] = n;
  }
  v->dtype = IR_F32;
  return ir_value_alloc_data(g, v, d) ? NULL : v;
}

static int f32_const(const ir_value *v) { return v->kind == IR_VALUE_CONST && v->dtype == IR_F32 && v->data; }

/* Whether p (the producer of HardSigmoid h's input) can take the affine map. */
static int foldable(const ir_graph *g, const ir_node *p, const ir_node *h) {
  if (p->op != IR_OP_CONV && p->op != IR_OP_GEMM) return 0;
  if (p->out->is_output || ir_single_user(g, p->out) != h || p->out->dtype != IR_F32) return 0;
  for (int k = 1; k < p->n_in; k++)
    if (!f32_const(p->in[k])) return 0;
  if (p->op == IR_OP_CONV) return p->in[1]->rank >= 1 && p->in[1]->dims[0] > 0;
  return p->out->rank == 2 && p->out->dims[1] > 0;
}

/* p computes alpha * p + beta with new constants. */
static int scale_affine(ir_graph *g, ir_node *p, double alpha, double beta, diag *d) {
  ir_value *w = p->in[1], *c = p->n_in > 2 ? p->in[2] : NULL;
  int conv = p->op == IR_OP_CONV;
  double cmul = conv ? 1.0 : ir_attr_float(p, "beta", 1.0f); /* Gemm: C is scaled by its beta */
  int64_t m = conv ? w->dims[0] : p->out->dims[1];
  /* 1. the weights times alpha */
  ir_value *nw = new_const(g, w->name, w, 0, d);
  if (!nw) return -1;
  const float *wd = w->data;
  float *nwd = nw->data;
  for (int64_t i = 0, e = ir_value_numel(w); i < e; i++) nwd[i] = (float)(alpha * wd[i]);
  /* 2. the bias: alpha * b + beta, or beta alone */
  char base[512];
  snprintf(base, sizeof base, "%.400s.bias", p->out->name);
  ir_value *nc = c ? new_const(g, c->name, c, 0, d) : new_const(g, base, NULL, m, d);
  if (!nc) return -1;
  const float *cd = c ? c->data : NULL;
  float *ncd = nc->data;
  for (int64_t i = 0, e = ir_value_numel(nc); i < e; i++) ncd[i] = (float)((cd ? alpha * cmul * cd[i] : 0.0) + beta);
  ir_value *in[3] = {p->in[0], nw, nc};
  ir_node_set_inputs(g, p, in, 3);
  return conv ? 0 : ir_attr_set_float(g, p, "beta", 1.0f, d);
}

int hardsigmoid_fold(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *h = g->nodes[i];
    if (h->op != IR_OP_HARD_SIGMOID || h->in[0]->kind != IR_VALUE_NODE) continue;
    double alpha = ir_attr_float(h, "alpha", 0.2f), beta = ir_attr_float(h, "beta", 0.5f);
    if (!isfinite(alpha) || !isfinite(beta) || !foldable(g, h->in[0]->def, h)) continue;
    if (scale_affine(g, h->in[0]->def, alpha, beta, d)) return -1;
    h->op = IR_OP_CLIP;
    h->attrs = NULL;
    if (ir_attr_set_float(g, h, "min", 0.0f, d) || ir_attr_set_float(g, h, "max", 1.0f, d)) return -1;
  }
  return 0;
}
