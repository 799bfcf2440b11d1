/* bn_fold: folds BatchNormalization into the convolution before it.
 *
 * Requires: shapes inferred (shape_infer).
 * Guarantees: a BatchNormalization whose input is a float Conv with constant
 *           weights (and constant bias, if any), used by nothing else, and
 *           whose scale/bias/mean/var are constant, is gone: the Conv gets
 *           new weights w*s and bias (b-mean)*s+beta with s=scale/sqrt(var+eps)
 *           (computed in double, stored as f32) and takes over the
 *           BatchNormalization's output value and name; its src becomes
 *           "conv+bn" so dumps and the profiler still name both ONNX nodes.
 *           Other BatchNormalizations stay (the reference runs them).
 * Invalidates: nothing; leaves the old weights for dce. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"

static int all_const(const ir_node *n, int from) {
  for (int k = from; k < n->n_in; k++)
    if (n->in[k]->kind != IR_VALUE_CONST) return 0;
  return 1;
}

/* A new f32 constant shaped like `like`, named after it. */
static ir_value *new_const(ir_graph *g, const ir_value *like, const char *suffix, diag *d) {
  char base[512];
  snprintf(base, sizeof base, "%.400s%s", like->name, suffix);
  const char *name = ir_unique_name(g, base);
  ir_value *v = name ? ir_value_new(g, name, IR_VALUE_CONST, d) : NULL;
  if (!name) diag_oom(d);
  if (!v) return NULL;
  ir_value_copy_type(v, like);
  v->dtype = IR_F32;
  return ir_value_alloc_data(g, v, d) ? NULL : v;
}

static int fold(ir_graph *g, ir_node *conv, ir_node *bn, diag *d) {
  ir_value *w = conv->in[1], *bias = conv->n_in > 2 ? conv->in[2] : NULL;
  const float *scale = bn->in[1]->data, *beta = bn->in[2]->data, *mean = bn->in[3]->data,
              *var = bn->in[4]->data;
  double eps = ir_attr_float(bn, "epsilon", 1e-5f);
  int64_t m = w->dims[0], per = ir_value_numel(w) / m;
  /* 1. new weights and bias */
  ir_value *nw = new_const(g, w, "_bnfold", d);
  ir_value *nb = new_const(g, bn->in[2], "_bnfold", d);
  if (!nw || !nb) return -1;
  const float *wd = w->data, *bd = bias ? bias->data : NULL;
  float *nwd = nw->data, *nbd = nb->data;
  for (int64_t c = 0; c < m; c++) {
    double s = scale[c] / sqrt((double)var[c] + eps);
    for (int64_t k = 0; k < per; k++) nwd[c * per + k] = (float)(wd[c * per + k] * s);
    nbd[c] = (float)(((bd ? bd[c] : 0.0) - mean[c]) * s + beta[c]);
  }
  /* 2. the conv takes over the BN's output and names both sources */
  ir_value *cin[3] = {conv->in[0], nw, nb};
  ir_node_set_inputs(g, conv, cin, 3);
  char src[512];
  snprintf(src, sizeof src, "%.250s+%.250s", conv->src, bn->src);
  if (!(conv->src = arena_strdup(g->arena, src))) return diag_oom(d);
  ir_value *old = conv->out;
  conv->out = bn->out;
  bn->out->def = conv;
  old->def = NULL;
  old->kind = IR_VALUE_CONST; /* dead: no users, compacted away below */
  old->data = NULL;
  ir_node_remove(g, bn);
  return 0;
}

int bn_fold(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *bn = g->nodes[i];
    if (bn->op != IR_OP_BATCHNORM || !all_const(bn, 1)) continue;
    ir_node *conv = bn->in[0]->def;
    if (!conv || conv->op != IR_OP_CONV || !all_const(conv, 1)) continue;
    if (conv->out->is_output || ir_use_count(g, conv->out) != 1) continue;
    if (conv->in[1]->dtype != IR_F32) continue;
    if (fold(g, conv, bn, d)) return -1;
    i--;
  }
  /* drop the dead conv outputs (and old weights no one uses) */
  int j = 0;
  for (int i = 0; i < g->n_values; i++) {
    ir_value *v = g->values[i];
    if (!(v->kind == IR_VALUE_CONST && !v->data)) g->values[j++] = v;
  }
  g->n_values = j;
  ir_compact_values(g);
  return 0;
}
