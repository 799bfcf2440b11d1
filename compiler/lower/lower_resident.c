/* lower_resident: SRAM residency decisions of the lowering (Vela's
 * cascading, one step at a time): which tensors stay in the scratchpad
 * between a producer kernel and the kernels that read them, and at which
 * row; a region is taken only when every kernel involved still tiles and
 * the DRAM traffic saved exceeds the reloads the smaller working sets add
 * (the same load arithmetic as the tiling, lower_conv_load_bytes). */
#include "lower_internal.h"

/* The node index of n in the graph, or -1. */
static int node_index(const ir_graph *g, const ir_node *n) {
  for (int i = 0; i < g->n_nodes; i++)
    if (g->nodes[i] == n) return i;
  return -1;
}

/* A vector kernel (pool, global pool, standalone max pool, QAdd, QRequant)
 * that can read its input from the scratchpad: its own kernel, not fused,
 * and on the NPU (a 1-D max pool runs on the control core, which reads the
 * conv's output from DRAM: kept in the scratchpad, it was never written). */
static int vec_consumer(const lower_program *p, const ir_node *n) {
  switch (n->op) {
  case IR_OP_QAVGPOOL: case IR_OP_MAXPOOL: case IR_OP_GLOBAL_MAXPOOL: case IR_OP_QADD: case IR_OP_QREQUANT: break;
  default: return 0;
  }
  return !lower_is_fused(p->graph, p, n) && !lower_fb_is_core(n);
}

/* Residency of conv output y for its one consumer c, a vector kernel that
 * runs right after: it reads y in place (lower_pool / lower_vadd with the
 * input resident; one pass over all blocks).  Taken when c's other rows fit
 * below the region (average pool outputs, a QAdd's other operand), the
 * producer still tiles, and the DRAM saved (y written and read) exceeds the
 * producer's extra reloads.  Its row, or -1. */
static int64_t vec_resident_row(const lower_program *p, const lower_kernel *k, const lower_tensor *x,
                                const lower_tensor *y, const lower_conv_geom *pg, const ir_node *c) {
  const tsl_target_t *t = p->target;
  const ir_graph *gr = p->graph;
  int pi = node_index(gr, k->node), ci = node_index(gr, c);
  for (int i = pi + 1; i < ci; i++) /* nothing with a kernel in between */
    if (!(lower_is_alias(p, gr->nodes[i]) || lower_is_fused(gr, p, gr->nodes[i]))) return -1;
  const lower_tensor *z = lower_find_tensor(p, c->out);
  if (!z || !z->blocked || z->h > 255 || z->w > 255 || y->h > 255 || y->w > 255) return -1;
  const int64_t rows = y->blocks * y->h * y->w, xr = x->spad_row, xrows = x->blocks * x->h * x->w;
  int64_t row = t->spad_rows - rows;
  if (xr >= 0 && row < xr + xrows) row = xr - rows; /* below the producer's live input */
  if (row < 1) return -1;
  int64_t below = 0; /* rows the consumer needs below the region */
  if (c->op == IR_OP_QAVGPOOL) below = z->blocks * z->h * z->w;
  if (c->op == IR_OP_QADD) {
    const lower_tensor *b = lower_find_tensor(p, c->in[c->in[0] == y->v ? 1 : 0]);
    if (!b || !b->blocked || b->spad_row >= 0 || b->c != y->c || b->h != y->h || b->w != y->w) return -1;
    below = b->blocks * b->h * b->w;
  }
  if (below > row) return -1;
  lower_conv_geom g = *pg;
  g.out_spad = row;
  g.spad_limit = xr >= 0 && xr < row ? xr : row;
  int64_t with = lower_conv_load_bytes(t, &g, &k->sched, x->blocks, y->blocks);
  int64_t without = lower_conv_load_bytes(t, pg, &k->sched, x->blocks, y->blocks);
  if (with < 0 || without < 0) return -1;
  return with < without + 2 * (int64_t)y->bytes ? row : -1;
}

/* SRAM residency (Vela's cascading, for one step): the output y of kernel k
 * stays in the scratchpad for its consumers, one or two conv/matmul kernels
 * that read it as their input and run right after k (squeezenet's squeeze
 * output feeds both expand convs), when every kernel involved still has a
 * tiling with the resident rows reserved.  A consumer never writes below
 * its spad_limit, so the rows survive the first consumer for the second.
 * The region sits at the top of the scratchpad, or just below the
 * producer's resident input when they would overlap.  Returns its row, or
 * -1 (DRAM). */
int64_t lower_resident_row(const lower_program *p, const lower_kernel *k, const lower_tensor *x,
                            const lower_tensor *y, const lower_conv_geom *pg) {
  const ir_graph *gr = p->graph;
  const tsl_target_t *t = p->target;
  const int uses = ir_use_count(gr, y->v);
  if (p->no_sram_residency || y->alias >= 0 || y->v->is_output || uses < 1 || uses > 2) return -1;
  for (int i = 0; i < p->n_tensors; i++)
    if (p->tensors[i].alias == (int)(y - p->tensors)) return -1;
  const ir_node *cs[2];
  int cis[2], nc = 0;
  for (int i = 0; i < gr->n_nodes; i++)
    for (int j = 0; j < gr->nodes[i]->n_in; j++)
      if (gr->nodes[i]->in[j] == y->v) {
        /* only as a conv/matmul's activation input, or a vector kernel's (QAdd: either operand) */
        if ((j != 0 && !(j == 1 && gr->nodes[i]->op == IR_OP_QADD)) || nc == 2) return -1;
        cs[nc] = gr->nodes[i], cis[nc++] = i;
      }
  if (nc != uses) return -1;
  if (nc == 1 && vec_consumer(p, cs[0])) return vec_resident_row(p, k, x, y, pg, cs[0]);
  for (int j = 0; j < nc; j++) {
    if (cs[j]->op != IR_OP_QCONV && cs[j]->op != IR_OP_QMATMUL) return -1;
    /* A fused add loads its other operand from row 0 up to its own output:
     * no room for a resident input (a fused requantisation has none). */
    if (p->fused_add[cis[j]] && p->fused_add[cis[j]]->op == IR_OP_QADD) return -1;
  }
  /* The consumers must be the next kernels: any other kernel in between
   * would use the scratchpad rows the tensor waits in. */
  int pi = 0;
  while (pi < gr->n_nodes && gr->nodes[pi] != k->node) pi++;
  for (int i = pi + 1; i < cis[nc - 1]; i++) {
    const ir_node *n = gr->nodes[i];
    if (i == cis[0]) continue;
    if (!(lower_is_alias(p, n) || lower_is_fused(gr, p, n) || (n->op == IR_OP_CONCAT && lower_is_concat_done(p, n)))) return -1;
  }
  const int64_t rows = y->blocks * y->h * y->w;
  const int64_t xr = x->spad_row, xrows = x->blocks * x->h * x->w;
  int64_t row = t->spad_rows - rows;
  if (xr >= 0 && row < xr + xrows) row = xr - rows; /* below the producer's live input */
  if (row < 1) return -1;
  /* Worth it only if the DRAM saved (y written once and read by each
   * consumer) exceeds what the smaller working sets add in reloads, by the
   * same load arithmetic. */
  lower_conv_geom g = *pg, g0 = *pg;
  g.out_spad = row;
  g.spad_limit = xr >= 0 && xr < row ? xr : row;
  int64_t with = lower_conv_load_bytes(t, &g, &k->sched, x->blocks, y->blocks);
  int64_t without = lower_conv_load_bytes(t, &g0, &k->sched, x->blocks, y->blocks);
  if (with < 0) return -1;
  for (int j = 0; j < nc; j++) {
    const ir_node *cpool = p->fused[cis[j]];
    const lower_tensor *z = lower_find_tensor(p, (cpool ? cpool : cs[j])->out); /* the conv's own output */
    if (!z || !z->blocked) return -1;
    lower_conv_geom cg, cg0;
    if (lower_conv_geom_of(p, cs[j], cpool, y, z, &cg, NULL, NULL)) return -1;
    cg0 = cg;
    cg.in_spad = row;
    cg.spad_limit = row;
    if (p->fused_add[cis[j]]) { /* requantised: its own output waits below the input (conv_vec_row) */
      const lower_tensor *cy = lower_find_tensor(p, cs[j]->out);
      cg.spad_limit = row - cy->blocks * cy->h * cy->w;
      cg0.spad_limit = t->spad_rows - cy->blocks * cy->h * cy->w;
      if (cg.spad_limit < 1) return -1;
    }
    int64_t wc = lower_conv_load_bytes(t, &cg, &k->sched, y->blocks, z->blocks);
    if (wc < 0) return -1;
    with += wc;
    without += lower_conv_load_bytes(t, &cg0, &k->sched, y->blocks, z->blocks);
  }
  return with < without + (1 + nc) * (int64_t)y->bytes ? row : -1;
}

/* The conv/matmul kernel anchor (node index) that writes Concat input v:
 * its own output, or through a requantisation fused into it; -1 otherwise. */
static int concat_producer(const lower_program *p, const ir_value *v) {
  const ir_graph *g = p->graph;
  if (v->kind != IR_VALUE_NODE || ir_use_count(g, v) != 1) return -1;
  const ir_node *def = v->def;
  if (def->op == IR_OP_QCONV || def->op == IR_OP_QMATMUL) {
    int i = node_index(g, def);
    return i >= 0 && !p->fused[i] && !p->fused_add[i] ? i : -1;
  }
  for (int i = 0; def->op == IR_OP_QREQUANT && i < g->n_nodes; i++)
    if (p->fused_add[i] == def) return i;
  return -1;
}

/* The working-set limit and DRAM load bytes of producer anchor i (writing
 * Concat input v) when the Concat region starts at zr (-1: Concat in DRAM);
 * -1 when it has no tiling. */
static int64_t producer_loads(const lower_program *p, int i, int64_t zr) {
  const ir_node *c = p->graph->nodes[i];
  const lower_tensor *x = lower_find_tensor(p, c->in[0]), *y = lower_find_tensor(p, c->out);
  lower_conv_geom g;
  if (!x || !y || lower_conv_geom_of(p, c, NULL, x, y, &g, NULL, NULL)) return -1;
  g.in_spad = x->spad_row;
  if (p->fused_add[i]) g.spad_limit = lower_conv_vec_row(p, x, zr, y->blocks * y->h * y->w);
  else if (zr >= 0) g.spad_limit = x->spad_row >= 0 && x->spad_row < zr ? x->spad_row : zr;
  else g.spad_limit = x->spad_row >= 0 ? x->spad_row : 0;
  if (g.spad_limit < 0 || (g.spad_limit == 0 && (zr >= 0 || p->fused_add[i] || x->spad_row >= 0))) return -1;
  lower_sched none = {0};
  return lower_conv_load_bytes(p->target, &g, &none, x->blocks, y->blocks);
}

/* SRAM residency of a channel Concat (squeezenet's fire modules:
 * expand1x1 and expand3x3 concatenated and read by the next squeeze conv):
 * the Concat z is an alias region whose inputs its producers store into;
 * when z fits the scratchpad, its only consumer is a conv/matmul reading it
 * as its input, every input is written by a conv/matmul kernel (directly or
 * through a fused requantisation) and those kernels run one after the other
 * right before the consumer, the region moves to the scratchpad: each
 * producer stores its channel blocks into its part of the region (tiling
 * below it) and the consumer reads the whole region in place.  The region
 * sits at the top, or below the producers' resident inputs.  Taken when
 * every kernel still tiles and the DRAM saved (z written and read once)
 * exceeds the reloads the smaller working sets add.  Returns the region's
 * row, or -1 (DRAM). */
static int64_t concat_row(const lower_program *p, const lower_tensor *z) {
  const ir_graph *gr = p->graph;
  const tsl_target_t *t = p->target;
  if (p->no_sram_residency || !z->blocked || z->v->rank != 4 || z->v->is_output || z->alias >= 0 ||
      ir_use_count(gr, z->v) != 1 || z->v->kind != IR_VALUE_NODE || z->v->def->op != IR_OP_CONCAT)
    return -1;
  const ir_node *cn = z->v->def;
  int ci = -1;
  for (int i = 0; i < gr->n_nodes && ci < 0; i++)
    for (int j = 0; j < gr->nodes[i]->n_in; j++)
      if (gr->nodes[i]->in[j] == z->v) ci = j == 0 ? i : -2;
  if (ci < 0) return -1;
  const ir_node *cons = gr->nodes[ci];
  /* A standalone max pool reads the region in place too (squeezenet's
   * pooled fire4/fire7 Concats): STORE pools straight from its planes. */
  const int pool = cons->op == IR_OP_MAXPOOL && vec_consumer(p, cons);
  if ((cons->op != IR_OP_QCONV && cons->op != IR_OP_QMATMUL && !pool) ||
      (p->fused_add[ci] && p->fused_add[ci]->op == IR_OP_QADD))
    return -1;
  if (pool) {
    const lower_tensor *po = lower_find_tensor(p, cons->out);
    if (!po || !po->blocked || po->h > 255 || po->w > 255 || z->h > 255 || z->w > 255) return -1;
  }
  /* The producers, and nothing else with a kernel between the first and the consumer. */
  enum { MAXP = 8 };
  int prod[MAXP], np = 0, first = gr->n_nodes;
  if (cn->n_in > MAXP) return -1;
  for (int j = 0; j < cn->n_in; j++) {
    int i = concat_producer(p, cn->in[j]);
    if (i < 0) return -1;
    prod[np++] = i;
    if (i < first) first = i;
  }
  for (int i = first; i < ci; i++) {
    const ir_node *n = gr->nodes[i];
    int is_prod = 0;
    for (int j = 0; j < np; j++) is_prod |= prod[j] == i;
    if (!(is_prod || n == cn || lower_is_alias(p, n) || lower_is_fused(gr, p, n))) return -1;
  }
  /* Place the region: the top, or below the producers' resident inputs. */
  const int64_t rows = z->blocks * z->h * z->w;
  int64_t row = t->spad_rows - rows;
  for (int pass = 0; pass < np; pass++)
    for (int j = 0; j < np; j++) {
      const lower_tensor *x = lower_find_tensor(p, gr->nodes[prod[j]]->in[0]);
      int64_t xr = x ? x->spad_row : -1, xrows = x ? x->blocks * x->h * x->w : 0;
      if (xr >= 0 && row < xr + xrows && xr < row + rows) row = xr - rows;
    }
  if (row < 1) return -1;
  /* Worth it: z's write and read saved against the producers' and the
   * consumer's extra reloads. */
  int64_t with = 0, without = 0;
  for (int j = 0; j < np; j++) {
    int64_t a = producer_loads(p, prod[j], row), b = producer_loads(p, prod[j], -1);
    if (a < 0 || b < 0) return -1;
    with += a, without += b;
  }
  if (pool) return with < without + 2 * (int64_t)z->bytes ? row : -1;
  const ir_node *cpool = p->fused[ci];
  const lower_tensor *co = lower_find_tensor(p, (cpool ? cpool : cons)->out), *cy = lower_find_tensor(p, cons->out);
  lower_conv_geom cg, cg0;
  if (!co || !co->blocked || !cy || lower_conv_geom_of(p, cons, cpool, z, co, &cg, NULL, NULL)) return -1;
  cg0 = cg;
  cg.in_spad = row;
  cg.spad_limit = p->fused_add[ci] ? row - cy->blocks * cy->h * cy->w : row;
  if (p->fused_add[ci]) cg0.spad_limit = t->spad_rows - cy->blocks * cy->h * cy->w;
  if (cg.spad_limit < 1 || cg0.spad_limit < 0) return -1;
  lower_sched none = {0};
  int64_t a = lower_conv_load_bytes(t, &cg, &none, z->blocks, co->blocks);
  int64_t b = lower_conv_load_bytes(t, &cg0, &none, z->blocks, co->blocks);
  if (a < 0 || b < 0) return -1;
  with += a, without += b;
  return with < without + 2 * (int64_t)z->bytes ? row : -1;
}

/* The SPAD row kernel k stores tensor t to when t is a part of a resident
 * Concat (deciding the Concat at its first producer), or -1: DRAM. */
int64_t lower_concat_dest_row(lower_program *p, const lower_kernel *k, lower_tensor *t) {
  (void)k;
  if (!t || t->alias < 0) return -1;
  lower_tensor *z = &p->tensors[t->alias];
  if (!z->concat_tried) {
    z->concat_tried = 1;
    z->spad_row = concat_row(p, z);
    for (int i = 0; z->spad_row >= 0 && i < p->n_tensors; i++)
      if (p->tensors[i].alias == t->alias)
        p->tensors[i].spad_row = z->spad_row + p->tensors[i].alias_off / p->target->dim;
  }
  return z->spad_row >= 0 ? t->spad_row : -1;
}

/* The SPAD row where a conv fused with a vector op (add, requant) keeps its
 * own output y (rows of it): the top of the scratchpad, or below the
 * resident regions the kernel must keep (its input x, its output's Concat
 * region zr) when there are any. */
int64_t lower_conv_vec_row(const lower_program *p, const lower_tensor *x, int64_t zr, int64_t rows) {
  int64_t floor = p->target->spad_rows;
  if (x && x->spad_row >= 0 && x->spad_row < floor) floor = x->spad_row;
  if (zr >= 0 && zr < floor) floor = zr;
  return floor - rows;
}

/* Residency of a pool's output y for its one consumer, a conv/matmul that
 * reads it as its input and runs right after (squeezenet's MaxPools feeding
 * the next squeeze conv): the pool writes y into a scratchpad region (VPOOL
 * straight into it, or STORE to SPAD) and the conv reads it in place.  The
 * region sits at the top, or below the pool's resident input x; a pool
 * reading x from DRAM works below it.  Taken when the consumer still tiles
 * and the write and read saved exceed its extra reloads.  Its row, or -1. */
int64_t lower_pool_out_row(const lower_program *p, const lower_kernel *k, const lower_tensor *x,
                            const lower_tensor *y) {
  const ir_graph *gr = p->graph;
  const tsl_target_t *t = p->target;
  if (p->no_sram_residency || !y->blocked || y->alias >= 0 || y->v->is_output || ir_use_count(gr, y->v) != 1 ||
      y->h > 255 || y->w > 255)
    return -1;
  for (int i = 0; i < p->n_tensors; i++)
    if (p->tensors[i].alias == (int)(y - p->tensors)) return -1;
  int ci = -1;
  for (int i = 0; i < gr->n_nodes && ci < 0; i++)
    for (int j = 0; j < gr->nodes[i]->n_in; j++)
      if (gr->nodes[i]->in[j] == y->v) ci = j == 0 ? i : -2;
  if (ci < 0) return -1;
  const ir_node *c = gr->nodes[ci];
  if ((c->op != IR_OP_QCONV && c->op != IR_OP_QMATMUL) || p->fused_add[ci]) return -1;
  for (int i = node_index(gr, k->node) + 1; i < ci; i++) /* nothing with a kernel in between */
    if (!(lower_is_alias(p, gr->nodes[i]) || lower_is_fused(gr, p, gr->nodes[i]))) return -1;
  const int64_t rows = y->blocks * y->h * y->w, xr = x->spad_row, xrows = x->blocks * x->h * x->w;
  int64_t row = t->spad_rows - rows;
  if (xr >= 0 && row < xr + xrows && xr < row + rows) row = xr - rows;
  if (row < 1 || (xr < 0 && x->h * x->w > row)) return -1; /* one input plane must fit below */
  const ir_node *cpool = p->fused[ci];
  const lower_tensor *z = lower_find_tensor(p, (cpool ? cpool : c)->out);
  lower_conv_geom cg, cg0;
  if (!z || !z->blocked || lower_conv_geom_of(p, c, cpool, y, z, &cg, NULL, NULL)) return -1;
  cg0 = cg;
  cg.in_spad = row;
  cg.spad_limit = row;
  lower_sched none = {0};
  const int64_t with = lower_conv_load_bytes(t, &cg, &none, y->blocks, z->blocks);
  const int64_t without = lower_conv_load_bytes(t, &cg0, &none, y->blocks, z->blocks); /* reads y */
  if (with < 0 || without < 0) return -1;
  return with < without + (int64_t)y->bytes ? row : -1;
}
