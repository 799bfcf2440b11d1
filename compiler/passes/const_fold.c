/* const_fold: constant folding.
 *
 * Requires: shapes inferred (shape_infer).
 * Guarantees: no node has only constant inputs: each such node is evaluated
 *           with the reference executor and becomes a constant value with the
 *           same name.  Unused constants left behind are removed by dce.
 *           DequantizeLinear of a constant stays: it is how quantised
 *           weights are written, and qdq-fold needs to see them.
 * Invalidates: nothing (shapes of folded values are unchanged). */
#include "passes.h"
#include "ref_exec.h"

int const_fold(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    int all_const = 1;
    for (int k = 0; k < n->n_in; k++) all_const &= n->in[k]->kind == IR_VALUE_CONST;
    /* huge results stay computations: folding would only bloat the graph */
    if (!all_const || ir_value_numel(n->out) > (1 << 22) || n->op == IR_OP_DEQUANTIZE) continue;
    if (ir_value_alloc_data(g, n->out, d) || ref_eval_node(n, n->out->data, d)) return -1;
    ir_node_to_const(g, n, n->out->data);
    i--; /* the node list shrank */
  }
  return 0;
}
