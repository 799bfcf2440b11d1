/* remove_noops: drops nodes that do not change their input.
 *
 * Requires: shapes inferred (shape_infer).
 * Guarantees: no Identity or Dropout node remains, nor a Cast to the same
 *           dtype, a Reshape/Flatten/Squeeze/Unsqueeze that keeps the shape,
 *           a Transpose with the identity permutation or a Pad of zeros.
 *           Uses of a removed node's output use its input instead.  When the
 *           output is a graph output, the input value takes over its name;
 *           if the input is itself a graph input, constant or output, the
 *           node stays (the model's interface keeps its names).
 *           A Relu whose only user is a Clip(min, max) with min <= max and
 *           max >= 0 is merged into it (Clip(min', max) reads the Relu's
 *           input, min' = max(min, 0): the same values).  PyTorch exports
 *           F.relu6 as Relu -> Clip(0, 6), and quantisation fuses one
 *           activation into a Conv/Gemm, not two.
 * Invalidates: nothing. */
#include <math.h>
#include <string.h>

#include "passes.h"

static int same_type(const ir_value *a, const ir_value *b) {
  if (a->dtype != b->dtype || a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

static int is_noop(const ir_node *n) {
  int cnt;
  switch (n->op) {
  case IR_OP_IDENTITY: case IR_OP_DROPOUT: return 1;
  case IR_OP_CAST: case IR_OP_RESHAPE: case IR_OP_FLATTEN: case IR_OP_SQUEEZE:
  case IR_OP_UNSQUEEZE:
    return same_type(n->in[0], n->out);
  case IR_OP_TRANSPOSE: {
    const int64_t *p = ir_attr_ints(n, "perm", &cnt);
    for (int i = 0; i < cnt; i++)
      if (p[i] != i) return 0;
    return 1;
  }
  case IR_OP_PAD: {
    const int64_t *p = ir_attr_ints(n, "pads", &cnt);
    for (int i = 0; i < cnt; i++)
      if (p[i] != 0) return 0;
    return 1;
  }
  default: return 0;
  }
}

/* Relu -> Clip with the Relu read only by the Clip: the Clip reads the
 * Relu's input and clamps at no less than 0; the Relu is dropped. */
static int merge_relu_clip(ir_graph *g, ir_node *clip, diag *d) {
  ir_value *x = clip->in[0];
  if (x->kind != IR_VALUE_NODE || x->def->op != IR_OP_RELU || ir_single_user(g, x) != clip) return 0;
  float lo = ir_attr_float(clip, "min", -INFINITY), hi = ir_attr_float(clip, "max", INFINITY);
  if (!(lo <= hi) || !(hi >= 0)) return 0; /* an empty or negative range: leave it as written */
  if (ir_attr_set_float(g, clip, "min", lo > 0 ? lo : 0, d)) return -1;
  ir_node *relu = x->def;
  ir_node_set_input(g, clip, 0, relu->in[0]);
  ir_node_remove(g, relu);
  return 1;
}

int remove_noops(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (!is_noop(n)) continue;
    ir_value *src = n->in[0], *dst = n->out;
    if (dst->is_output) {
      if (src->kind != IR_VALUE_NODE || src->is_output) continue;
      const char *name = dst->name;
      ir_value_rename(g, dst, ""); /* dst is dead from here on */
      ir_value_rename(g, src, name); /* the interface keeps its output name */
    }
    ir_replace_uses(g, dst, src);
    ir_node_remove(g, n);
    i--;
  }
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (n->op != IR_OP_CLIP) continue;
    int rc = merge_relu_clip(g, n, d);
    if (rc < 0) return -1;
    i -= rc; /* the Relu came before the Clip in the list */
  }
  ir_compact_values(g);
  return 0;
}
