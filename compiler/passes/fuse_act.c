/* fuse_act: activations exporters write as several nodes become the one
 * unary op, so that a quantised model defines them as one int8 table
 * (docs/quantisation.md "Lookup tables") and the core runs one kernel.
 *
 * Requires: shapes inferred (shape_infer), constants folded (const_fold).
 * Guarantees:
 *   - SiLU: Mul(x, Sigmoid(x)) (either operand order; the Sigmoid read only
 *     by the Mul) is Silu(x), the same f32 operations (x * sigmoid(x));
 *   - GELU as PyTorch exports it before opset 20: Mul(Mul(x, Add(Erf(Div(x,
 *     sqrt 2)), 1)), 0.5), operands of Mul and Add in either order, Div by
 *     sqrt 2 or Mul by 1/sqrt 2, each intermediate read only by the next
 *     node, the constants scalars within 1e-6 of their values, is
 *     Gelu(x) {approximate=0} (the f32 result may differ by an ulp);
 *   the last node of the pattern becomes the new op in place (its output and
 *   name stay), the others are left without users for dce.
 * Invalidates: nothing. */
#include <math.h>

#include "passes.h"

/* Whether v is a scalar f32 constant within 1e-6 (relative) of want. */
static int is_const(const ir_value *v, double want) {
  if (v->kind != IR_VALUE_CONST || v->dtype != IR_F32 || ir_value_numel(v) != 1 || !v->data) return 0;
  return fabs(*(const float *)v->data - want) <= 1e-6 * fabs(want);
}

/* The node that computes v, when v is read by nothing but `by` and its op is
 * `op`; NULL otherwise. */
static ir_node *only_for(const ir_graph *g, const ir_value *v, const ir_node *by, ir_op op) {
  if (v->kind != IR_VALUE_NODE || v->def->op != op || ir_single_user(g, v) != by) return NULL;
  return v->def;
}

/* The operand of binary n other than `one` (n's input 0 or 1), or NULL. */
static ir_value *other(const ir_node *n, const ir_value *one) {
  return n->in[0] == one ? n->in[1] : n->in[1] == one ? n->in[0] : NULL;
}

/* n becomes op(x) in place. */
static int retarget(ir_graph *g, ir_node *n, ir_op op, ir_value *x, diag *d) {
  n->op = op;
  ir_node_set_inputs(g, n, &x, 1);
  n->attrs = NULL;
  return op == IR_OP_GELU ? ir_attr_set_int(g, n, "approximate", 0, d) : 0;
}

/* Mul(x, Sigmoid(x)): 1 when n was rewritten. */
static int silu(ir_graph *g, ir_node *n, diag *d) {
  for (int k = 0; k < 2; k++) {
    ir_node *s = only_for(g, n->in[k], n, IR_OP_SIGMOID);
    if (s && s->in[0] == n->in[1 - k]) return retarget(g, n, IR_OP_SILU, s->in[0], d) ? -1 : 1;
  }
  return 0;
}

/* n = Mul(m, 0.5), m = Mul(x, a), a = Add(e, 1), e = Erf(t), t = x / sqrt 2:
 * 1 when n was rewritten. */
static int gelu(ir_graph *g, ir_node *n, diag *d) {
  for (int k = 0; k < 2; k++) {
    ir_node *m = is_const(n->in[1 - k], 0.5) ? only_for(g, n->in[k], n, IR_OP_MUL) : NULL;
    for (int j = 0; m && j < 2; j++) {
      ir_node *a = only_for(g, m->in[j], m, IR_OP_ADD);
      ir_value *x = m->in[1 - j];
      ir_node *e = NULL;
      for (int i = 0; a && i < 2 && !e; i++)
        if (is_const(a->in[1 - i], 1.0)) e = only_for(g, a->in[i], a, IR_OP_ERF);
      ir_node *t = e && e->in[0]->kind == IR_VALUE_NODE && ir_single_user(g, e->in[0]) == e ? e->in[0]->def : NULL;
      int scaled = t && ((t->op == IR_OP_DIV && t->in[0] == x && is_const(t->in[1], sqrt(2.0))) ||
                         (t->op == IR_OP_MUL && other(t, x) && is_const(other(t, x), 1.0 / sqrt(2.0))));
      if (scaled) return retarget(g, n, IR_OP_GELU, x, d) ? -1 : 1;
    }
  }
  return 0;
}

int fuse_act(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (n->op != IR_OP_MUL || n->out->dtype != IR_F32 || n->in[0]->dtype != IR_F32 || n->in[1]->dtype != IR_F32)
      continue;
    int rc = silu(g, n, d);
    if (!rc) rc = gelu(g, n, d);
    if (rc < 0) return -1;
  }
  return 0;
}
