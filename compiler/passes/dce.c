/* dce: dead code elimination.
 *
 * Requires: a structurally valid graph.
 * Guarantees: every node's output is used, directly or transitively, by a
 *           graph output; constants no node uses are dropped.  Graph inputs
 *           stay even when unused: they are the model's interface.
 * Invalidates: nothing. */
#include <stdlib.h>

#include "passes.h"

int dce(ir_graph *g, diag *d) {
  int max_id = 0;
  for (int i = 0; i < g->n_values; i++)
    if (g->values[i]->id > max_id) max_id = g->values[i]->id;
  char *live = calloc((size_t)max_id + 1, 1);
  if (!live) return diag_oom(d);
  /* 1. outputs are live; walk nodes backwards marking inputs of live nodes */
  for (int i = 0; i < g->n_outputs; i++) live[g->outputs[i]->id] = 1;
  for (int i = g->n_nodes - 1; i >= 0; i--) {
    const ir_node *n = g->nodes[i];
    if (!live[n->out->id]) continue;
    for (int k = 0; k < n->n_in; k++) live[n->in[k]->id] = 1;
  }
  /* 2. drop dead nodes, keeping order */
  int j = 0;
  for (int i = 0; i < g->n_nodes; i++)
    if (live[g->nodes[i]->out->id]) g->nodes[j++] = g->nodes[i];
  g->n_nodes = j;
  ir_uses_rebuild(g); /* the dropped nodes read values too */
  free(live);
  /* 3. drop values nothing refers to any more */
  ir_compact_values(g);
  return 0;
}
