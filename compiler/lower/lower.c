/* lower: the driver of the lowering: walks the quantised graph in order,
 * gives every activation a DRAM home (blocked layout), and turns each
 * supported node into a kernel (lower_conv.c) or a fallback record.
 *
 * Requires: g after `requant` (quantised ops carry mult/shift), static shapes,
 * batch 1.  Guarantees: kernels in graph order; activations from window
 * offset 0, then the constants (16-byte aligned); every kernel's stream
 * leaves its output in DRAM.
 *  1. every activation a kernel touches gets a tensor and a DRAM home;
 *  2. each node becomes a kernel (constants appended as it is emitted).  Unsupported ops are errors naming the node unless they
 * are fallbacks (non-quantised ops: the firmware runs them in float). */
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"

static uint64_t align16(uint64_t x) { return (x + 15) & ~(uint64_t)15; }

int64_t lower_consts_add(lower_program *p, const void *bytes, uint64_t n) {
  uint64_t off = align16(p->consts_bytes), end = off + n;
  uint8_t *nb = realloc(p->consts, end ? end : 1);
  if (!nb) return -1;
  memset(nb + p->consts_bytes, 0, off - p->consts_bytes);
  memcpy(nb + off, bytes, n);
  p->consts = nb;
  p->consts_bytes = end;
  return (int64_t)(p->consts_base + off);
}

const lower_tensor *lower_find_tensor(const lower_program *p, const ir_value *v) {
  for (int i = 0; i < p->n_tensors; i++)
    if (p->tensors[i].v == v) return &p->tensors[i];
  return NULL;
}

/* The tensor index of v, creating it (shape from v) on first use; -1 with an error. */
static int tensor_of(lower_program *p, const ir_value *v, const ir_node *n, diag *d) {
  for (int i = 0; i < p->n_tensors; i++)
    if (p->tensors[i].v == v) return i;
  if (v->dtype != IR_I8) return ir_node_error(d, n, "value '%s' is %s: only int8 activations run on the NPU", v->name,
                                              ir_dtype_name(v->dtype));
  if (v->quant.kind != IR_QUANT_TENSOR)
    return ir_node_error(d, n, "value '%s' needs one scale and zero point (per-tensor quantisation)", v->name);
  lower_tensor t = {.v = v, .zp = v->quant.zero_point[0]};
  if (v->rank == 4 && v->dims[0] == 1) {
    t.c = v->dims[1], t.h = v->dims[2], t.w = v->dims[3];
  } else if (v->rank == 3 && v->dims[0] == 1) {
    t.c = v->dims[1], t.h = 1, t.w = v->dims[2];
  } else if (v->rank == 2) {
    t.c = v->dims[1], t.h = v->dims[0], t.w = 1, t.rk = 1;
  } else {
    return ir_node_error(d, n, "value '%s': only [1,C,H,W], [1,C,W] and [R,K] activations are supported", v->name);
  }
  if (t.c < 1 || t.h < 1 || t.w < 1) return ir_node_error(d, n, "value '%s' has an empty or unknown shape", v->name);
  t.blocks = (t.c + p->target->dim - 1) / p->target->dim;
  t.bytes = (uint64_t)(t.blocks * t.h * t.w * p->target->dim);
  lower_tensor *nt = realloc(p->tensors, sizeof *nt * (size_t)(p->n_tensors + 1));
  if (!nt) return diag_oom(d);
  p->tensors = nt;
  p->tensors[p->n_tensors] = t;
  return p->n_tensors++;
}

static lower_kernel *new_kernel(lower_program *p, const ir_node *n, const lower_opts *o, diag *d) {
  lower_kernel *nk = realloc(p->kernels, sizeof *nk * (size_t)(p->n_kernels + 1));
  if (!nk) {
    diag_oom(d);
    return NULL;
  }
  p->kernels = nk;
  lower_kernel *k = &p->kernels[p->n_kernels++];
  memset(k, 0, sizeof *k);
  k->node = n;
  k->in = k->out = -1;
  if (o) k->sched = o->sched;
  return k;
}

/* Shared checks of QConv/QMatMul: requantised, no weight zero point. */
static int common_attrs(const ir_node *n, lower_conv_geom *g, int64_t m, diag *d) {
  if (ir_attr_int(n, "raw", 0)) return ir_node_error(d, n, "raw int32 outputs are not lowered yet (fallback missing)");
  int nm = 0, ns = 0;
  g->mult = ir_attr_ints(n, "mult", &nm);
  g->shift = ir_attr_ints(n, "shift", &ns);
  if (!g->mult || !g->shift || nm != ns || (nm != 1 && nm != m))
    return ir_node_error(d, n, "missing or malformed mult/shift (run the requant pass first)");
  g->n_mult = nm;
  g->lo = (int)ir_attr_int(n, "lo", -128);
  g->hi = (int)ir_attr_int(n, "hi", 127);
  const ir_value *w = n->in[1];
  if (w->kind != IR_VALUE_CONST || w->dtype != IR_I8)
    return ir_node_error(d, n, "weights must be an int8 constant");
  for (int i = 0; i < w->quant.n; i++)
    if (w->quant.zero_point[i] != 0)
      return ir_node_error(d, n, "weight zero point %d is not lowered (the NPU has none; fold it or fall back)",
                           (int)w->quant.zero_point[i]);
  if (n->n_in > 2) {
    if (n->in[2]->kind != IR_VALUE_CONST || n->in[2]->dtype != IR_I32)
      return ir_node_error(d, n, "bias must be an int32 constant");
    g->bias = n->in[2]->data;
  }
  return 0;
}

static int lower_qconv(lower_program *p, lower_kernel *k, diag *d) {
  const ir_node *n = k->node;
  const ir_value *w = n->in[1];
  const lower_tensor *x = &p->tensors[k->in], *y = &p->tensors[k->out];
  int cnt = 0;
  const int64_t *st = ir_attr_ints(n, "strides", &cnt), *pd = ir_attr_ints(n, "pads", &cnt);
  const int64_t *dl = ir_attr_ints(n, "dilations", &cnt);
  if (!st || !pd || !dl) return ir_node_error(d, n, "missing strides/pads/dilations");
  int two = w->rank == 4;
  lower_conv_geom g = {
      .c = x->c, .h = x->h, .w = x->w, .m = y->c, .oh = y->h, .ow = y->w,
      .kh = two ? w->dims[2] : 1, .kw = w->dims[w->rank - 1],
      .sy = two ? st[0] : 1, .sx = st[two ? 1 : 0], .dy = two ? dl[0] : 1, .dx = dl[two ? 1 : 0],
      .pt = two ? pd[0] : 0, .pl = pd[two ? 1 : 0], .group = ir_attr_int(n, "group", 1),
      .zx = x->zp, .zy = y->zp, .wgt = w->data,
  };
  if (common_attrs(n, &g, g.m, d)) return -1;
  g.depthwise = g.group > 1 && g.group == g.c && g.group == g.m;
  return lower_conv(p, k, x, y, &g, d);
}

static int lower_qmatmul(lower_program *p, lower_kernel *k, diag *d) {
  const ir_node *n = k->node;
  const ir_value *b = n->in[1];
  const lower_tensor *x = &p->tensors[k->in], *y = &p->tensors[k->out];
  if (b->rank != 2) return ir_node_error(d, n, "only a 2-D constant b is lowered");
  int64_t K = b->dims[0], N = b->dims[1];
  lower_conv_geom g = {
      .c = x->c, .h = x->h, .w = x->w, .m = N, .oh = y->h, .ow = y->w, .kh = 1, .kw = 1,
      .sy = 1, .sx = 1, .dy = 1, .dx = 1, .group = 1, .zx = x->zp, .zy = y->zp,
  };
  if (common_attrs(n, &g, N, d)) return -1;
  /* b [K, N] -> the conv form w[N][K][1][1]. */
  int8_t *wt = malloc((size_t)(K * N));
  if (!wt) return diag_oom(d);
  const int8_t *bd = b->data;
  for (int64_t i = 0; i < K; i++)
    for (int64_t j = 0; j < N; j++) wt[j * K + i] = bd[i * N + j];
  g.wgt = wt;
  int rc = lower_conv(p, k, x, y, &g, d);
  free(wt);
  return rc;
}

lower_program *lower_graph(const ir_graph *g, const tsl_target_t *t, const lower_opts *o, diag *d) {
  lower_program *p = calloc(1, sizeof *p);
  if (!p) {
    diag_oom(d);
    return NULL;
  }
  p->target = t;
  /* Step 1. */
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    if (n->op != IR_OP_QCONV && n->op != IR_OP_QMATMUL) continue;
    if (tensor_of(p, n->in[0], n, d) < 0 || tensor_of(p, n->out, n, d) < 0) goto fail;
  }
  uint64_t off = 0;
  for (int i = 0; i < p->n_tensors; i++) {
    p->tensors[i].dram = off;
    off = align16(off + p->tensors[i].bytes);
  }
  p->consts_base = off;
  /* Step 2. */
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    lower_kernel *k = new_kernel(p, n, o, d);
    if (!k) goto fail;
    if (n->op == IR_OP_QCONV || n->op == IR_OP_QMATMUL) {
      k->in = tensor_of(p, n->in[0], n, d);
      k->out = tensor_of(p, n->out, n, d);
      if ((n->op == IR_OP_QCONV ? lower_qconv(p, k, d) : lower_qmatmul(p, k, d)) != 0) goto fail;
    } else {
      k->kind = LOWER_K_FALLBACK; /* the firmware runs it (its record names the node) */
    }
  }
  p->dram_bytes = align16(p->consts_base + p->consts_bytes);
  return p;
fail:
  lower_program_free(p);
  return NULL;
}

void lower_program_free(lower_program *p) {
  if (!p) return;
  for (int i = 0; i < p->n_kernels; i++) free(p->kernels[i].stream.bytes);
  free(p->kernels);
  free(p->tensors);
  free(p->consts);
  free(p);
}
