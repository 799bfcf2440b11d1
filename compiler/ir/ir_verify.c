/* ir_verify: one walk over the graph in order, tracking which values are
 * defined so far. */
#include "ir_verify.h"

#include <stdlib.h>
#include <string.h>

/* Input count range of each operator in canonical form. */
static void input_range(ir_op op, int *lo, int *hi) {
  *lo = *hi = 1;
  switch (op) {
  case IR_OP_CONV: *lo = 2, *hi = 3; break;
  case IR_OP_GEMM: *lo = 2, *hi = 3; break;
  case IR_OP_MATMUL: case IR_OP_ADD: case IR_OP_MUL: case IR_OP_SUB: case IR_OP_DIV:
  case IR_OP_RESHAPE: case IR_OP_GATHER: *lo = *hi = 2; break;
  case IR_OP_BATCHNORM: *lo = *hi = 5; break;
  case IR_OP_CONCAT: *lo = 1, *hi = IR_MAX_INPUTS; break;
  case IR_OP_QUANTIZE: case IR_OP_DEQUANTIZE: *lo = 2, *hi = 3; break;
  case IR_OP_QLINEAR_CONV: *lo = 8, *hi = 9; break;
  case IR_OP_QLINEAR_MATMUL: *lo = *hi = 8; break;
  case IR_OP_CONV_INTEGER: case IR_OP_MATMUL_INTEGER: *lo = 2, *hi = 4; break;
  case IR_OP_QCONV: case IR_OP_QMATMUL: *lo = 2, *hi = 3; break;
  case IR_OP_QADD: case IR_OP_QMUL: case IR_OP_QSOFTMAX: *lo = *hi = 2; break;
  case IR_OP_QLAYERNORM: *lo = *hi = 3; break;
  case IR_OP_PRELU: case IR_OP_POW: case IR_OP_EQUAL: case IR_OP_LESS: case IR_OP_GREATER:
  case IR_OP_LESS_EQUAL: case IR_OP_GREATER_EQUAL: case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR:
    *lo = *hi = 2; break;
  case IR_OP_MIN: case IR_OP_MAX: case IR_OP_MEAN: case IR_OP_SUM: *lo = 1, *hi = IR_MAX_INPUTS; break;
  case IR_OP_WHERE: case IR_OP_INSTANCE_NORM: *lo = *hi = 3; break;
  case IR_OP_LAYER_NORM: case IR_OP_CONV_TRANSPOSE: *lo = 2, *hi = 3; break;
  /* before shape-infer, parameters computed from shapes wait as inputs ("pending") */
  case IR_OP_SLICE: *lo = 1, *hi = 5; break;
  case IR_OP_TILE: *lo = 1, *hi = 3; break;
  case IR_OP_EXPAND: case IR_OP_PAD: case IR_OP_REDUCE_MEAN: case IR_OP_REDUCE_SUM:
  case IR_OP_REDUCE_MAX: case IR_OP_REDUCE_MIN: case IR_OP_REDUCE_PROD: case IR_OP_REDUCE_L1:
  case IR_OP_REDUCE_L2: case IR_OP_REDUCE_LOG_SUM_EXP: case IR_OP_REDUCE_SUM_SQUARE: *lo = 1, *hi = 2; break;
  case IR_OP_RESIZE: *lo = 1, *hi = 3; break;
  default: break;
  }
}

static int check_value(const ir_value *v, diag *d) {
  if (v->rank > IR_MAX_RANK || v->rank < -1)
    return diag_set(d, "verifier: value '%s': bad rank %d", v->name, v->rank);
  for (int i = 0; i < v->rank; i++)
    if (v->dims[i] < -1) return diag_set(d, "verifier: value '%s': bad dimension", v->name);
  if ((unsigned)v->dtype >= IR_DTYPE_COUNT)
    return diag_set(d, "verifier: value '%s': bad dtype", v->name);
  const ir_quant *q = &v->quant;
  if (q->kind == IR_QUANT_TENSOR && (q->n != 1 || !q->scale || !q->zero_point))
    return diag_set(d, "verifier: value '%s': per-tensor quantisation needs one scale", v->name);
  if (q->kind == IR_QUANT_CHANNEL) {
    if (q->axis < 0 || q->axis >= v->rank || !q->scale || !q->zero_point)
      return diag_set(d, "verifier: value '%s': bad quantisation axis %d", v->name, q->axis);
    if (v->dims[q->axis] >= 0 && q->n != v->dims[q->axis])
      return diag_set(d, "verifier: value '%s': %d scales for %lld channels", v->name, q->n,
                      (long long)v->dims[q->axis]);
  }
  if (v->kind == IR_VALUE_CONST && (!v->data || ir_value_numel(v) < 0))
    return diag_set(d, "verifier: constant '%s' has no data or no known shape", v->name);
  return 0;
}

int ir_verify(const ir_graph *g, diag *d) {
  int rc = -1;
  /* defined[id] marks values usable so far (ids are < n_values after compaction? no:
   * ids are creation indices, so size by the largest id). */
  int max_id = 0;
  for (int i = 0; i < g->n_values; i++)
    if (g->values[i]->id > max_id) max_id = g->values[i]->id;
  for (int i = 0; i < g->n_nodes; i++)
    if (g->nodes[i]->out->id > max_id) max_id = g->nodes[i]->out->id;
  char *defined = calloc((size_t)max_id + 1, 1);
  if (!defined) return diag_oom(d);
  for (int i = 0; i < g->n_values; i++) {
    const ir_value *v = g->values[i];
    /* the name index finds one value per name: a second value of the same
     * name (or a value the index lost) is not the one it finds */
    if (ir_value_find(g, v->name) != v) {
      diag_set(d, "verifier: value name '%s' used twice", v->name);
      goto out;
    }
    if (check_value(v, d)) goto out;
    if (v->kind == IR_VALUE_CONST) defined[v->id] = 1;
  }
  for (int i = 0; i < g->n_inputs; i++) {
    if (g->inputs[i]->kind != IR_VALUE_INPUT) {
      diag_set(d, "verifier: graph input '%s' is not an input value", g->inputs[i]->name);
      goto out;
    }
    defined[g->inputs[i]->id] = 1;
  }
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    int lo, hi;
    input_range(n->op, &lo, &hi);
    if (n->n_in < lo || n->n_in > hi) {
      ir_node_error(d, n, "verifier: %d inputs, expected %d to %d", n->n_in, lo, hi);
      goto out;
    }
    for (int k = 0; k < n->n_in; k++)
      if (!n->in[k] || !defined[n->in[k]->id]) {
        ir_node_error(d, n, "verifier: input %d '%s' is used before it is defined", k,
                      n->in[k] ? n->in[k]->name : "(null)");
        goto out;
      }
    if (!n->out || n->out->def != n || n->out->kind != IR_VALUE_NODE) {
      ir_node_error(d, n, "verifier: output does not point back at its node");
      goto out;
    }
    if (defined[n->out->id]) {
      ir_node_error(d, n, "verifier: output '%s' is defined twice", n->out->name);
      goto out;
    }
    if (check_value(n->out, d)) goto out;
    defined[n->out->id] = 1;
  }
  if (g->n_outputs == 0) {
    diag_set(d, "verifier: the graph has no outputs");
    goto out;
  }
  for (int i = 0; i < g->n_outputs; i++)
    if (!defined[g->outputs[i]->id]) {
      diag_set(d, "verifier: graph output '%s' is not defined", g->outputs[i]->name);
      goto out;
    }
  /* the users lists ir.c keeps agree with the node inputs (a pass that
   * edited in[] behind its back would make use counts lie) */
  if (!g->uses_stale) {
    int *uses = calloc((size_t)max_id + 1, sizeof *uses);
    if (!uses) {
      diag_oom(d);
      goto out;
    }
    for (int i = 0; i < g->n_nodes; i++)
      for (int k = 0; k < g->nodes[i]->n_in; k++) uses[g->nodes[i]->in[k]->id]++;
    for (int i = 0; i < g->n_nodes; i++)
      for (int k = 0; k < g->nodes[i]->n_in; k++) {
        const ir_value *v = g->nodes[i]->in[k];
        if (uses[v->id] != v->n_users) {
          ir_node_error(d, g->nodes[i], "verifier: input '%s' is read %d times but listed with %d users", v->name,
                        uses[v->id], v->n_users);
          free(uses);
          goto out;
        }
      }
    free(uses);
  }
  rc = 0;
out:
  free(defined);
  return rc;
}
