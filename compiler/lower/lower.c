/* lower: the driver of the lowering: walks the quantised graph in order,
 * gives every activation a DRAM home (the blocked layout for the NPU's
 * values, plain for the control core's), and turns each supported node into
 * a kernel (lower_conv.c) or a fallback record.
 *
 * Requires: g after `requant` (quantised ops carry mult/shift), static shapes,
 * batch 1.  Guarantees: kernels in graph order; activations from window
 * offset 0, then the constants (16-byte aligned); every kernel's stream
 * leaves its output in DRAM.
 *  0. the values NPU kernels read or write (find_npu_side);
 *  1. every activation a kernel touches gets a tensor and a DRAM home;
 *  2. each node becomes a kernel (constants appended as it is emitted).  Unsupported ops are errors naming the node unless they
 * are fallbacks (non-quantised ops: the firmware runs them in float). */
#include <stdlib.h>
#include <string.h>

#include "cost_model.h"
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

/* The index of v's tensor, or -1.  By value id (a scan per lookup made
 * lowering N nodes O(N^2)); a value the id map does not cover is scanned for. */
static int tensor_index(const lower_program *p, const ir_value *v) {
  if (v->id >= 0 && v->id < p->n_ids) {
    int i = p->tensor_by_id[v->id] - 1;
    if (i < 0 || p->tensors[i].v == v) return i;
  }
  for (int i = 0; i < p->n_tensors; i++)
    if (p->tensors[i].v == v) return i;
  return -1;
}

const lower_tensor *lower_find_tensor(const lower_program *p, const ir_value *v) {
  int i = tensor_index(p, v);
  return i < 0 ? NULL : &p->tensors[i];
}

/* Whether v can live in the blocked layout (int8, per tensor, batch 1). */
static int blockable(const ir_value *v) {
  if (v->dtype != IR_I8 || v->quant.kind != IR_QUANT_TENSOR) return 0;
  return (v->rank == 4 && v->dims[0] == 1) || (v->rank == 3 && v->dims[0] == 1) || v->rank == 2;
}

/* Whether v takes the blocked layout: it can, and step 0 found it on the
 * NPU's side (a value the id map does not cover keeps the NPU's layout). */
static int wants_blocked(const lower_program *p, const ir_value *v) {
  if (!blockable(v)) return 0;
  if (v->id < 0 || v->id >= p->n_ids || !p->npu_side) return 1;
  return p->npu_side[v->id];
}

/* Output columns [0, *left) and [ow - *right, ow) of a conv (input width w,
 * kernel width kw, column stride sx, left padding pl) whose windows reach
 * into the left or the right padding. */
static void border_cols(int64_t w, int64_t kw, int64_t sx, int64_t pl, int64_t ow, int64_t *left, int64_t *right) {
  int64_t rfirst = (w - kw + pl) / sx + 1; /* the first column whose window passes w - 1 */
  *left = (pl + sx - 1) / sx;
  *right = ow > rfirst ? ow - rfirst : 0;
}

/* The channel blocks of the packed view (lower_conv.c, "Packed input") in
 * which v's one reader reads it, with *pb its layout's block; 0 when v
 * stays blocked by DIM. v must be a QuantizeLinear's output (the converter
 * writes any block as cheaply) with fewer channels C than DIM, read only by
 * a 2-D QConv of group 1 and column dilation 1 with interior columns (whose
 * windows miss the padding) and at most 255 output columns (one column
 * tile). The block b is the least b >= C with sx*b a multiple of DIM (so
 * every output column's window row starts a row of DIM bytes after the
 * one before), below DIM; the kw*b bytes of a window row must take fewer
 * blocks than its kw pixels, and the row stride sx*b/DIM fit CFG_EXEC. */
static int64_t packed_blocks(const lower_program *p, const ir_value *v, int64_t *pb, int64_t *poff) {
  const int64_t dim = p->target->dim;
  if (p->no_pack_input || v->kind != IR_VALUE_NODE || !v->def || v->def->op != IR_OP_QUANTIZE || v->is_output ||
      v->rank != 4 || v->n_users != 1 || v->dims[1] >= dim)
    return 0;
  const ir_node *u = v->users[0];
  int cnt = 0;
  const int64_t *st = ir_attr_ints(u, "strides", &cnt), *pd = ir_attr_ints(u, "pads", &cnt);
  const int64_t *dl = ir_attr_ints(u, "dilations", &cnt);
  if (u->op != IR_OP_QCONV || u->in[0] != v || u->n_in < 2 || u->in[1]->rank != 4 || !st || !pd || !dl ||
      ir_attr_int(u, "group", 1) != 1 || dl[1] != 1 || u->out->rank != 4)
    return 0;
  int64_t r = dim, a = st[1]; /* unit = dim / gcd(sx, dim) */
  while (a) {
    int64_t t = r % a;
    r = a, a = t;
  }
  const int64_t unit = dim / r, b = (v->dims[1] + unit - 1) / unit * unit, kw = u->in[1]->dims[3];
  const int64_t nj = (kw * b + dim - 1) / dim, ow = u->out->dims[3];
  int64_t left, right;
  border_cols(v->dims[3], kw, st[1], pd[1], ow, &left, &right);
  if (b >= dim || nj >= kw || st[1] * b / dim > 7 || left + right >= ow || ow > 255 ||
      2 * ow > p->target->acc_rows)
    return 0;
  *pb = b;
  *poff = (COST_PORT_BYTES - (left * st[1] - pd[1]) * b % COST_PORT_BYTES) % COST_PORT_BYTES; /* x0 on a beat */
  return nj;
}

int lower_tensor_of(lower_program *p, const ir_value *v, const ir_node *n, diag *d) {
  int found = tensor_index(p, v);
  if (found >= 0) return found;
  lower_tensor t = {.v = v, .alias = -1, .spad_row = -1};
  if (ir_value_numel(v) < 1) return ir_node_error(d, n, "value '%s' has an empty or unknown shape", v->name);
  if (wants_blocked(p, v)) {
    t.blocked = 1;
    t.zp = v->quant.zero_point[0];
    t.c = v->dims[1], t.rk = v->rank == 2;
    lower_image_hw(v, &t.h, &t.w);
    t.blocks = (t.c + p->target->dim - 1) / p->target->dim;
    t.bytes = (uint64_t)(t.blocks * t.h * t.w * p->target->dim);
    int64_t b = 0, off = 0, nj = packed_blocks(p, v, &b, &off);
    if (nj) t.pack_b = b, t.pack_off = off, t.blocks = nj, t.bytes = (uint64_t)(off + b * t.h * t.w + p->target->dim);
  } else {
    t.bytes = (uint64_t)ir_value_numel(v) * ir_dtype_size(v->dtype);
  }
  int i = lower_add_tensor(p, t, d);
  if (i >= 0 && v->id >= 0 && v->id < p->n_ids) p->tensor_by_id[v->id] = i + 1;
  return i;
}

int lower_add_tensor(lower_program *p, lower_tensor t, diag *d) {
  if (p->n_tensors == p->cap_tensors) { /* doubling: one element more each time copies O(N^2) */
    int ncap = p->cap_tensors ? p->cap_tensors * 2 : 16;
    lower_tensor *nt = realloc(p->tensors, sizeof *nt * (size_t)ncap);
    if (!nt) return diag_oom(d);
    p->tensors = nt;
    p->cap_tensors = ncap;
  }
  p->tensors[p->n_tensors] = t;
  return p->n_tensors++;
}

/* An NPU operand: its tensor, which must be blocked (and not a constant). */
static const lower_tensor *operand(lower_program *p, const ir_value *v, const ir_node *n, diag *d) {
  if (v->kind == IR_VALUE_CONST) {
    ir_node_error(d, n, "constant operand '%s' is not lowered (only weights and biases may be constants)", v->name);
    return NULL;
  }
  int i = lower_tensor_of(p, v, n, d);
  if (i < 0) return NULL;
  if (!p->tensors[i].blocked) {
    ir_node_error(d, n, "value '%s' is not an int8 per-tensor activation of rank 2..4 with batch 1", v->name);
    return NULL;
  }
  return &p->tensors[i];
}

/* Flatten/Reshape/Squeeze/Unsqueeze/Identity whose output has the very bytes
 * of its input in the blocked layout (same channels, one pixel: [1,C,1,1] ->
 * [1,C]): the output is the input, no kernel. */
int lower_is_alias(const lower_program *p, const ir_node *n) {
  switch (n->op) {
  case IR_OP_FLATTEN: case IR_OP_RESHAPE: case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE: case IR_OP_IDENTITY: break;
  default: return 0;
  }
  const lower_tensor *x = lower_find_tensor(p, n->in[0]);
  const ir_value *y = n->out;
  /* a plain tensor (the control core's) reshaped is the same bytes too */
  if (x && !x->blocked && !x->twin && !x->is_const && !wants_blocked(p, y) && !y->is_output && y->dtype == x->v->dtype)
    return 1;
  if (!x || !x->blocked || !wants_blocked(p, y) || y->quant.zero_point[0] != x->zp) return 0;
  int64_t yc = y->rank == 2 ? y->dims[1] : y->dims[1];
  int64_t yhw = y->rank == 2 ? y->dims[0] : ir_value_numel(y) / y->dims[1];
  return x->h * x->w == 1 && yhw == 1 && yc == x->c;
}

/* A channel Concat whose inputs all end on a block boundary (but the last)
 * costs nothing in the blocked layout: each input's producer writes straight
 * into its part of the output.  Makes the inputs aliases of the output;
 * 1 when it did, 0 when the Concat needs another way (-1 on an error). */
static int concat_alias(lower_program *p, const ir_node *n, diag *d) {
  if (n->op != IR_OP_CONCAT || ir_attr_int(n, "axis", 0) != 1 || n->out->rank != 4 || !wants_blocked(p, n->out))
    return 0;
  const ir_value *y = n->out;
  int64_t off = 0;
  for (int i = 0; i < n->n_in; i++) {
    const ir_value *v = n->in[i];
    if (v->kind != IR_VALUE_NODE || !wants_blocked(p, v) || v->rank != 4 || v->dims[2] != y->dims[2] ||
        v->dims[3] != y->dims[3] || v->quant.zero_point[0] != y->quant.zero_point[0] ||
        v->quant.scale[0] != y->quant.scale[0] || (i < n->n_in - 1 && v->dims[1] % p->target->dim) || v->is_output)
      return 0;
    const lower_tensor *t = lower_find_tensor(p, v);
    if (t && t->alias >= 0) return 0; /* already placed inside another tensor */
  }
  int yi = lower_tensor_of(p, y, n, d);
  if (yi < 0) return -1;
  for (int i = 0; i < n->n_in; i++) {
    int ti = lower_tensor_of(p, n->in[i], n, d);
    if (ti < 0) return -1;
    p->tensors[ti].alias = yi;
    p->tensors[ti].alias_off = off;
    off += (int64_t)p->tensors[ti].bytes;
  }
  return 1;
}

/* Whether MaxPool n went into a conv's epilogue. */
int lower_is_fused(const ir_graph *g, const lower_program *p, const ir_node *n) {
  for (int i = 0; i < g->n_nodes; i++)
    if (p->fused[i] == n || (p->fused_add && p->fused_add[i] == n)) return 1;
  return 0;
}

/* Whether concat_alias placed n's inputs inside its output. */
int lower_is_concat_done(const lower_program *p, const ir_node *n) {
  const lower_tensor *t = lower_find_tensor(p, n->in[0]), *y = lower_find_tensor(p, n->out);
  return t && y && t->alias == (int)(y - p->tensors);
}

/* The layout-aware firmware op that runs n, or 0 when there is none. */
static uint32_t fallback_op(const ir_node *n) {
  switch (n->op) {
  case IR_OP_QUANTIZE: return LOWER_FB_QUANTIZE;
  case IR_OP_DEQUANTIZE: return LOWER_FB_DEQUANTIZE;
  default: return 0;
  }
}

lower_kernel *lower_new_kernel(lower_program *p, const ir_node *n, const lower_opts *o, diag *d) {
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

/* g (read from x's reader, packed_blocks' conditions met) as a packed
 * conv (lower_conv.c, "Packed input"): the geometry of its interior, the
 * kh x 1 conv over the x->blocks rows of DIM bytes from each interior
 * output column's window row on (its byte ox*sx*b in the line, b =
 * x->pack_b), whose channel j is channel j % b of window column j / b; the
 * border columns in g->pk. With wt, the interior's weights
 * w'[m][j][ky] = w[m][j % b][ky][j / b] for j % b < C and j < kw*b, else 0
 * (the zeros meet the padding channels and the bytes past the window
 * row), malloc'd into *wt. */
static int packed_geom(lower_conv_geom *g, const lower_tensor *x, int dim, int8_t **wt, diag *d) {
  const int64_t c = g->c, b = x->pack_b, nj = x->blocks, cv = nj * dim, rs = g->sx * b / dim;
  lower_packed *pk = &g->pk;
  *pk = (lower_packed){.b = b, .line = x->w * b, .c = c, .kw = g->kw, .sx = g->sx, .pl = g->pl, .wgt = g->wgt};
  border_cols(x->w, g->kw, g->sx, g->pl, g->ow, &pk->left, &pk->right);
  pk->x0 = (pk->left * g->sx - g->pl) * b;
  pk->cl = pk->left ? (pk->left - 1) * g->sx - g->pl + g->kw : 0;
  if (pk->cl > x->w) pk->cl = x->w;
  pk->cr0 = (g->ow - pk->right) * g->sx - g->pl;
  pk->cr = pk->right ? x->w - pk->cr0 : 0;
  if (wt) {
    *wt = calloc((size_t)(g->m * cv * g->kh), 1);
    if (!*wt) return diag_oom(d);
    for (int64_t m = 0; m < g->m; m++)
      for (int64_t j = 0; j < g->kw * b; j++)
        for (int64_t ky = 0; j % b < c && ky < g->kh; ky++)
          (*wt)[(m * cv + j) * g->kh + ky] = g->wgt[((m * c + j % b) * g->kh + ky) * g->kw + j / b];
  }
  g->wgt = wt ? *wt : NULL;
  const int64_t ni = g->ow - pk->left - pk->right; /* interior columns */
  g->c = cv, g->w = (ni - 1) * rs + nj, g->sx = rs, g->kw = 1, g->dx = 1, g->pl = 0;
  return 0;
}

/* The conv geometry of node n (QConv, or QMatMul as a 1x1 conv) reading x and
 * writing y (the pooled tensor when `pool` is fused).  With wt != NULL the
 * weights are attached (QMatMul's transposed copy malloc'd into *wt). */
int lower_conv_geom_of(const lower_program *p, const ir_node *n, const ir_node *pool, const lower_tensor *x,
                       const lower_tensor *y, lower_conv_geom *g, int8_t **wt, diag *d) {
  const ir_value *w = n->in[1];
  *g = (lower_conv_geom){.c = x->c, .h = x->h, .w = x->w, .m = y->c, .kh = 1, .kw = 1, .sy = 1, .sx = 1, .dy = 1,
                         .dx = 1, .group = 1, .zx = x->zp, .zy = y->zp, .in_spad = -1, .out_spad = -1};
  int cnt = 0;
  if (n->op == IR_OP_QMATMUL) {
    if (w->rank != 2) return ir_node_error(d, n, "only a 2-D constant b is lowered");
    g->oh = y->h, g->ow = y->w;
    if (common_attrs(n, g, w->dims[1], d)) return -1;
    if (wt) { /* b [K, N] -> the conv form w[N][K][1][1] */
      int64_t K = w->dims[0], N = w->dims[1];
      *wt = malloc((size_t)(K * N));
      if (!*wt) return diag_oom(d);
      const int8_t *bd = w->data;
      for (int64_t i = 0; i < K; i++)
        for (int64_t j = 0; j < N; j++) (*wt)[j * K + i] = bd[i * N + j];
      g->wgt = *wt;
    }
    return 0;
  }
  const int64_t *st = ir_attr_ints(n, "strides", &cnt), *pd = ir_attr_ints(n, "pads", &cnt);
  const int64_t *dl = ir_attr_ints(n, "dilations", &cnt);
  if (!st || !pd || !dl) return ir_node_error(d, n, "missing strides/pads/dilations");
  int two = w->rank == 4;
  const ir_value *cy = n->out; /* the conv's own output (y is the pooled one when fused) */
  g->oh = cy->rank == 4 ? cy->dims[2] : 1, g->ow = cy->dims[cy->rank - 1];
  g->kh = two ? w->dims[2] : 1, g->kw = w->dims[w->rank - 1];
  g->sy = two ? st[0] : 1, g->sx = st[two ? 1 : 0], g->dy = two ? dl[0] : 1, g->dx = dl[two ? 1 : 0];
  g->pt = two ? pd[0] : 0, g->pl = pd[two ? 1 : 0], g->group = ir_attr_int(n, "group", 1);
  g->wgt = w->data;
  if (common_attrs(n, g, g->m, d)) return -1;
  g->depthwise = g->group > 1 && g->group == g->c && g->group == g->m;
  if (x->pack_b && packed_geom(g, x, (int)p->target->dim, wt, d)) return -1;
  if (pool) { /* fused max pool: the STORE pools the whole output image */
    const int64_t *ks = ir_attr_ints(pool, "kernel_shape", &cnt), *ps = ir_attr_ints(pool, "strides", &cnt);
    const int64_t *pp = ir_attr_ints(pool, "pads", &cnt);
    g->pool_k = ks[0], g->pool_s = ps ? ps[0] : 1, g->pool_pt = pp ? pp[0] : 0, g->pool_pl = pp ? pp[1] : 0;
  }
  return 0;
}

static int vadd_params(const ir_node *n, lower_vadd_params *v, diag *d);

/* The conv of a fused residual add or requantisation: its output y stays in
 * the scratchpad (conv_vec_row; the conv tiles below it), then the VADD in
 * the same stream adds the other operand (loaded below; none for a
 * requantisation) and stores the result to DRAM, or writes it straight into
 * the resident Concat region of its output.  Integer addition commutes, so
 * the conv's output is always VADD's operand a. */
static int lower_conv_add(lower_program *p, lower_kernel *k, lower_tensor *x, const lower_conv_geom *pg, diag *d) {
  const ir_node *n = k->add;
  const int first = n->in[0] == k->node->out, two = n->op == IR_OP_QADD;
  const lower_tensor *y = lower_find_tensor(p, k->node->out);
  const lower_tensor *b = two ? lower_find_tensor(p, n->in[first ? 1 : 0]) : NULL;
  lower_tensor *z = (lower_tensor *)lower_find_tensor(p, n->out);
  lower_vadd_params v;
  if (vadd_params(n, &v, d)) return -1;
  if (!first) {
    int64_t t = v.mult_a;
    v.mult_a = v.mult_b, v.mult_b = t;
  }
  const int64_t zr = lower_concat_dest_row(p, k, z);
  lower_conv_geom g = *pg;
  g.in_spad = x->spad_row;
  g.out_spad = g.spad_limit = lower_conv_vec_row(p, x, zr >= 0 ? p->tensors[z->alias].spad_row : -1,
                                           y->blocks * y->h * y->w);
  if (g.out_spad < 1) return ir_node_error(d, k->node, "fused %s: no scratchpad rows left", ir_op_name(n->op));
  if (lower_conv(p, k, x, y, &g, d)) return -1;
  k->out = (int)(z - p->tensors);
  return lower_vadd(p, k, y, b, z, &v, g.out_spad, zr, d);
}

/* QConv or QMatMul (with a fused max pool or residual add) -> one kernel. */
static int lower_convlike(lower_program *p, lower_kernel *k, diag *d) {
  lower_tensor *x = &p->tensors[k->in], *y = &p->tensors[k->out];
  lower_conv_geom g;
  int8_t *wt = NULL;
  int rc = lower_conv_geom_of(p, k->node, k->pool, x, y, &g, &wt, d);
  if (!rc && k->add) {
    rc = lower_conv_add(p, k, x, &g, d);
  } else if (!rc) {
    g.in_spad = x->spad_row;
    g.spad_limit = x->spad_row >= 0 ? x->spad_row : 0;
    int64_t row = lower_concat_dest_row(p, k, y);
    if (row >= 0) { /* into its part of a resident Concat: tile below the whole region */
      const int64_t zr = p->tensors[y->alias].spad_row;
      g.out_spad = row;
      g.spad_limit = x->spad_row >= 0 && x->spad_row < zr ? x->spad_row : zr;
      rc = lower_conv(p, k, x, y, &g, d);
      free(wt);
      return rc;
    }
    row = lower_resident_row(p, k, x, y, &g);
    if (row >= 0) {
      g.out_spad = row;
      g.spad_limit = x->spad_row >= 0 && x->spad_row < row ? x->spad_row : row;
    }
    rc = lower_conv(p, k, x, y, &g, d);
    if (!rc && row >= 0) y->spad_row = row;
  }
  free(wt);
  return rc;
}

static int lower_qadd(lower_program *p, lower_kernel *k, diag *d) {
  const ir_node *n = k->node;
  int two = n->op == IR_OP_QADD;
  const lower_tensor *a = operand(p, n->in[0], n, d), *b = two ? operand(p, n->in[1], n, d) : NULL;
  const lower_tensor *y = operand(p, n->out, n, d);
  if (!a || (two && !b) || !y) return -1;
  if (two && (a->c != b->c || a->h != b->h || a->w != b->w))
    return ir_node_error(d, n, "QAdd with broadcasting is not lowered");
  lower_vadd_params v;
  if (vadd_params(n, &v, d)) return -1;
  k->in = lower_tensor_of(p, n->in[0], n, d), k->out = lower_tensor_of(p, n->out, n, d);
  k->kind = LOWER_K_VEC;
  /* An operand its producer left in the scratchpad is read in place as
   * VADD's a (integer addition commutes: swap the multipliers). */
  if (two && a->spad_row < 0 && b->spad_row >= 0) {
    const lower_tensor *t = a;
    int64_t m = v.mult_a;
    a = b, b = t, v.mult_a = v.mult_b, v.mult_b = m;
  }
  return lower_vadd(p, k, a, b, y, &v, a->spad_row, -1, d);
}

/* The VADD constants of a QAdd or QRequant. */
static int vadd_params(const ir_node *n, lower_vadd_params *v, diag *d) {
  *v = (lower_vadd_params){.lo = (int)ir_attr_int(n, "lo", -128), .hi = (int)ir_attr_int(n, "hi", 127)};
  if (n->op == IR_OP_QADD) {
    v->mult_a = ir_attr_int(n, "mult_a", -1), v->mult_b = ir_attr_int(n, "mult_b", -1);
    v->shift = ir_attr_int(n, "shift", -1);
  } else { /* QRequant: one multiplier; i8 -> i8 only (u8 edges are the runtime's) */
    int nm = 0, ns = 0;
    const int64_t *m = ir_attr_ints(n, "mult", &nm), *sh = ir_attr_ints(n, "shift", &ns);
    if (!m || !sh || nm != 1 || ns != 1) return ir_node_error(d, n, "missing mult/shift (run requant first)");
    v->mult_a = m[0], v->shift = sh[0];
  }
  if (v->mult_a < 0 || v->mult_b < 0 || v->shift < 0 || v->shift > 63)
    return ir_node_error(d, n, "missing or bad mult/shift (run requant first)");
  return 0;
}

static int lower_qpool(lower_program *p, lower_kernel *k, diag *d) {
  const ir_node *n = k->node;
  const lower_tensor *x = operand(p, n->in[0], n, d), *y = operand(p, n->out, n, d);
  if (!x || !y) return -1;
  lower_pool_params q = {.max = n->op != IR_OP_QAVGPOOL, .kh = x->h, .kw = x->w, .sy = 1, .sx = 1};
  int cnt = 0;
  if (n->op == IR_OP_QAVGPOOL || n->op == IR_OP_MAXPOOL) {
    const int64_t *ks = ir_attr_ints(n, "kernel_shape", &cnt);
    const int64_t *st = ir_attr_ints(n, "strides", &cnt), *pd = ir_attr_ints(n, "pads", &cnt);
    const int64_t *dl = ir_attr_ints(n, "dilations", &cnt);
    if (!ks || x->v->rank != 4) return ir_node_error(d, n, "only 2-D pooling windows are lowered");
    q.kh = ks[0], q.kw = ks[1];
    if (st) q.sy = st[0], q.sx = st[1];
    if (pd) q.pt = pd[0], q.pl = pd[1];
    if (dl && (dl[0] != 1 || dl[1] != 1)) return ir_node_error(d, n, "dilated pooling is not lowered");
  }
  if (q.max) {
    if (q.kh != q.kw || q.sy != q.sx) return ir_node_error(d, n, "max pool with a non-square window or stride is not lowered");
  } else {
    int nm = 0;
    const int64_t *m = ir_attr_ints(n, "mult", &nm), *sh = ir_attr_ints(n, "shift", &cnt);
    if (!m || !sh || nm != 1) return ir_node_error(d, n, "missing mult/shift (run requant first)");
    q.mult = m[0], q.shift = sh[0];
    q.count_include_pad = ir_attr_int(n, "count_include_pad", 0) != 0;
    q.lo = (int)ir_attr_int(n, "lo", -128), q.hi = (int)ir_attr_int(n, "hi", 127);
  }
  k->in = lower_tensor_of(p, n->in[0], n, d), k->out = lower_tensor_of(p, n->out, n, d);
  lower_tensor *yt = &p->tensors[k->out];
  const int64_t row = lower_pool_out_row(p, k, x, yt);
  if (lower_pool(p, k, x, y, &q, x->spad_row, row, d)) return -1;
  if (row >= 0) yt->spad_row = row;
  return 0;
}

/* Fusion (TVM's FuseOps rule for an out-elementwise-fusable anchor): a
 * MaxPool whose input is a QConv's output used by nothing else goes into the
 * conv's STORE epilogue, when the whole conv output image is one tile (the
 * pooling windows cross row tiles otherwise) and the window is the STORE's
 * (square, at most 7, stride at most 7, padding at most 7, no dilation).
 * Returns the MaxPool node fused into conv node c, or NULL. */
static const ir_node *fusable_pool(const ir_graph *g, const lower_program *p, const ir_node *c) {
  if (c->op != IR_OP_QCONV || c->out->is_output || ir_use_count(g, c->out) != 1 || c->out->rank != 4) return NULL;
  const ir_node *m = NULL;
  for (int i = 0; i < g->n_nodes && !m; i++)
    if (g->nodes[i]->op == IR_OP_MAXPOOL && g->nodes[i]->in[0] == c->out) m = g->nodes[i];
  if (!m || !blockable(m->out) || m->out->quant.zero_point[0] != c->out->quant.zero_point[0]) return NULL;
  int cnt = 0;
  const int64_t *ks = ir_attr_ints(m, "kernel_shape", &cnt), *st = ir_attr_ints(m, "strides", &cnt);
  const int64_t *pd = ir_attr_ints(m, "pads", &cnt), *dl = ir_attr_ints(m, "dilations", &cnt);
  if (!ks || ks[0] != ks[1] || ks[0] > 7 || (st && (st[0] != st[1] || st[0] > 7)) ||
      (pd && (pd[0] > 7 || pd[1] > 7)) || (dl && (dl[0] != 1 || dl[1] != 1)) || m->out->rank != 4)
    return NULL;
  int64_t oh = c->out->dims[2], ow = c->out->dims[3];
  if (oh > 255 || ow > 255 || 2 * oh * ow > p->target->acc_rows) return NULL;
  /* STORE pools over the window's positions inside the image only, so
   * ceil_mode (squeezenet's pools) is just the output size, as long as every
   * window starts inside the image (a window wholly in the padding would
   * give `lo`, the reference something else). */
  const int64_t s0 = st ? st[0] : 1, pt = pd ? pd[0] : 0, pl = pd ? pd[1] : 0;
  if ((m->out->dims[2] - 1) * s0 - pt >= oh || (m->out->dims[3] - 1) * s0 - pl >= ow) return NULL;
  /* The whole input and one output block's weights must fit the scratchpad. */
  const ir_value *x = c->in[0], *w = c->in[1];
  int64_t dim = p->target->dim, ncb = x->rank == 4 ? (x->dims[1] + dim - 1) / dim : 0;
  if (!ncb || w->rank != 4) return NULL;
  if (ncb * x->dims[2] * x->dims[3] + w->dims[2] * w->dims[3] * ncb * dim > p->target->spad_rows) return NULL;
  return m;
}

/* Fusion of the residual add: a QAdd right after the QConv
 * c (node i + 1) that reads c's output, used by nothing else, and a second
 * operand of the same shape in DRAM, goes into c's kernel: c stores its
 * output into the top rows of the scratchpad instead of DRAM and the VADD
 * runs in the same stream (lower_conv_add).  Taken when the output and the
 * other operand both fit the scratchpad at once and c still has a tiling in
 * the rows left below its output.  Needs every tensor (after step 1).
 * Returns the QAdd fused after node i, or NULL. */
static const ir_node *fusable_add(const ir_graph *g, lower_program *p, int i) {
  const ir_node *c = g->nodes[i], *n = i + 1 < g->n_nodes ? g->nodes[i + 1] : NULL;
  if (c->op != IR_OP_QCONV || p->fused[i] || !n || n->op != IR_OP_QADD || c->out->is_output ||
      ir_use_count(g, c->out) != 1 || (n->in[0] == c->out) == (n->in[1] == c->out))
    return NULL;
  const lower_tensor *x = lower_find_tensor(p, c->in[0]), *y = lower_find_tensor(p, c->out);
  const lower_tensor *b = lower_find_tensor(p, n->in[n->in[0] == c->out]), *z = lower_find_tensor(p, n->out);
  if (!x || !y || !b || !z || !x->blocked || !y->blocked || !b->blocked || !z->blocked || y->alias >= 0 ||
      b->blocks != y->blocks || b->h != y->h || b->w != y->w || z->blocks != y->blocks || y->h > 255 || y->w > 255)
    return NULL;
  for (int t = 0; t < p->n_tensors; t++)
    if (p->tensors[t].alias == (int)(y - p->tensors)) return NULL;
  /* An input that SRAM residency could keep in the scratchpad (a conv's
   * output used only here) saves as much DRAM as the fusion would, and the
   * two do not share the scratchpad yet: residency wins. */
  const ir_value *xv = c->in[0];
  if (!p->no_sram_residency && xv->kind == IR_VALUE_NODE && !xv->is_output && ir_use_count(g, xv) == 1 &&
      (xv->def->op == IR_OP_QCONV || xv->def->op == IR_OP_QMATMUL))
    return NULL;
  const int64_t rows = y->blocks * y->h * y->w, top = p->target->spad_rows - rows;
  if (rows > top) return NULL;
  lower_conv_geom cg;
  diag scratch = {0};
  if (lower_conv_geom_of(p, c, NULL, x, y, &cg, NULL, &scratch)) return NULL;
  cg.out_spad = cg.spad_limit = top;
  lower_sched none = {0};
  return lower_conv_load_bytes(p->target, &cg, &none, x->blocks, y->blocks) < 0 ? NULL : n;
}

/* Whether n multiplies and accumulates (what a float model must be calibrated for). */
static int is_mac_op(const ir_node *n) {
  return n->op == IR_OP_CONV || n->op == IR_OP_GEMM || n->op == IR_OP_MATMUL || n->op == IR_OP_CONV_TRANSPOSE;
}

/* Whether g holds any int8 compute op (a quantised model, from --calib or QDQ). */
static int has_quantised_op(const ir_graph *g) {
  for (int i = 0; i < g->n_nodes; i++)
    switch (g->nodes[i]->op) {
    case IR_OP_QCONV: case IR_OP_QMATMUL: case IR_OP_QADD: case IR_OP_QAVGPOOL: case IR_OP_QREQUANT: return 1;
    default: break;
    }
  return 0;
}

/* Fusion of a requantisation (a Concat input rescaled to the Concat's
 * scale, squeezenet's fire modules): a QRequant whose input is the output of
 * the QConv/QMatMul c (node i), used by nothing else, goes into c's kernel,
 * wherever it sits in the graph (it reads nothing else): c stores its output
 * into scratchpad rows and the VADD (mult_b = 0) requantises them in the same
 * stream.  The int8 value in between is computed exactly as before, so the
 * result stays bit-exact.  Taken when the output fits the scratchpad and c
 * still tiles below it.  Returns the QRequant fused after node i, or NULL. */
static const ir_node *fusable_requant(const ir_graph *g, lower_program *p, int i) {
  const ir_node *c = g->nodes[i], *n = NULL;
  if ((c->op != IR_OP_QCONV && c->op != IR_OP_QMATMUL) || p->fused[i] || c->out->is_output ||
      ir_use_count(g, c->out) != 1)
    return NULL;
  for (int j = i + 1; j < g->n_nodes && !n; j++)
    if (g->nodes[j]->op == IR_OP_QREQUANT && g->nodes[j]->in[0] == c->out) n = g->nodes[j];
  if (!n) return NULL;
  const lower_tensor *x = lower_find_tensor(p, c->in[0]), *y = lower_find_tensor(p, c->out);
  const lower_tensor *z = lower_find_tensor(p, n->out);
  if (!x || !y || !z || !x->blocked || !y->blocked || !z->blocked || y->alias >= 0 || z->blocks != y->blocks ||
      z->h != y->h || z->w != y->w || y->h > 255 || y->w > 255)
    return NULL;
  for (int t = 0; t < p->n_tensors; t++)
    if (p->tensors[t].alias == (int)(y - p->tensors)) return NULL;
  const int64_t rows = y->blocks * y->h * y->w, top = p->target->spad_rows - rows;
  if (rows > top) return NULL;
  lower_conv_geom cg;
  diag scratch = {0};
  if (lower_conv_geom_of(p, c, NULL, x, y, &cg, NULL, &scratch)) return NULL;
  cg.out_spad = cg.spad_limit = top;
  lower_sched none = {0};
  return lower_conv_load_bytes(p->target, &cg, &none, x->blocks, y->blocks) < 0 ? NULL : n;
}

/* One node -> one kernel (or a fallback record). */
static int lower_node(lower_program *p, lower_kernel *k, diag *d) {
  const ir_node *n = k->node;
  switch (n->op) {
  case IR_OP_QCONV:
  case IR_OP_QMATMUL:
    if (!operand(p, n->in[0], n, d) || !operand(p, (k->pool ? k->pool : n)->out, n, d)) return -1;
    k->in = lower_tensor_of(p, n->in[0], n, d), k->out = lower_tensor_of(p, (k->pool ? k->pool : n)->out, n, d);
    return lower_convlike(p, k, d);
  case IR_OP_QADD:
  case IR_OP_QREQUANT:
    return lower_qadd(p, k, d);
  case IR_OP_QAVGPOOL:
  case IR_OP_MAXPOOL:
  case IR_OP_GLOBAL_MAXPOOL:
    return lower_qpool(p, k, d);
  default:
    break;
  }
  k->fallback_op = fallback_op(n);
  if (!k->fallback_op) {
    if (p->unsupported) *p->unsupported = 1;
    return ir_node_error(d, n, "%s runs neither on the NPU nor on the control core yet", ir_op_name(n->op));
  }
  /* The firmware's QuantizeLinear/DequantizeLinear take one constant scale
   * and zero point (package FALLBACK record). */
  for (int j = 1; j < n->n_in; j++)
    if (n->in[j]->kind != IR_VALUE_CONST)
      return ir_node_error(d, n, "%s must be a constant (an initializer, a Constant node or a --bind input); '%s' is %s",
                           j == 1 ? "the scale" : "the zero point", n->in[j]->name,
                           n->in[j]->kind == IR_VALUE_INPUT ? "a graph input" : "computed in the model");
  if ((n->op == IR_OP_QUANTIZE || n->op == IR_OP_DEQUANTIZE) && n->n_in > 1 && ir_value_numel(n->in[1]) != 1) {
    if (p->unsupported) *p->unsupported = 1;
    return ir_node_error(d, n, "per-axis %s runs neither on the NPU nor as a firmware fallback yet",
                         ir_op_name(n->op));
  }
  k->kind = LOWER_K_FALLBACK;
  k->in = lower_tensor_of(p, n->in[0], n, d), k->out = lower_tensor_of(p, n->out, n, d);
  return 0;
}

/* Whether n runs as an NPU kernel (lower_node's NPU cases). */
static int is_npu_node(const ir_node *n) {
  return !lower_fb_is_core(n) && n->op != IR_OP_QUANTIZE && n->op != IR_OP_DEQUANTIZE;
}

/* Channels and pixels of v in the blocked layout (as lower_tensor_of lays
 * it out). */
static void blocked_shape(const ir_value *v, int64_t *c, int64_t *pixels) {
  *c = v->dims[1];
  *pixels = v->rank == 4 ? v->dims[2] * v->dims[3] : v->rank == 3 ? v->dims[2] : v->dims[0];
}

/* How many of n's inputs (the first ones) share bytes with its output when
 * they are blocked: 1 for a reshape-like node of one pixel (lower_is_alias:
 * same channels and zero point), every input of a channel Concat of
 * blockable values (a superset of concat_alias); 0 otherwise.  Decided
 * from the values alone, before any tensor exists. */
static int alias_inputs(const ir_node *n) {
  const ir_value *y = n->out;
  switch (n->op) {
  case IR_OP_FLATTEN: case IR_OP_RESHAPE: case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE: case IR_OP_IDENTITY: {
    const ir_value *x = n->in[0];
    if (!blockable(x) || !blockable(y) || x->quant.zero_point[0] != y->quant.zero_point[0]) return 0;
    int64_t xc, xp, yc, yp;
    blocked_shape(x, &xc, &xp);
    blocked_shape(y, &yc, &yp);
    return xc == yc && xp == 1 && yp == 1;
  }
  case IR_OP_CONCAT:
    if (ir_attr_int(n, "axis", 0) != 1 || y->rank != 4 || !blockable(y)) return 0;
    for (int i = 0; i < n->n_in; i++)
      if (!blockable(n->in[i])) return 0;
    return n->n_in;
  default:
    return 0;
  }
}

static int on_npu_side(const lower_program *p, const ir_value *v) {
  return v->id >= 0 && v->id < p->n_ids && p->npu_side[v->id];
}

/* Sets npu_side[v's id]; *changed when it was not set. */
static void mark_npu_side(lower_program *p, const ir_value *v, int *changed) {
  if (v->kind == IR_VALUE_CONST || v->id < 0 || v->id >= p->n_ids || p->npu_side[v->id]) return;
  p->npu_side[v->id] = 1;
  *changed = 1;
}

/* Step 0: which values are on the NPU's side.  An NPU kernel's inputs and
 * output are, and so is every value an alias_inputs node joins to one (an
 * alias has its input's bytes: it must keep the other side's layout);
 * lower_tensor_of gives those the blocked layout and every other value the
 * plain one, so a chain of control-core ops pays no RELAYOUT.  Joining too
 * much only keeps a value blocked (each core op then relayouts, as it
 * always may); a reshape that is no alias joins nothing: it runs as a core
 * op between the layouts of its two sides. */
static void find_npu_side(const ir_graph *g, lower_program *p) {
  int changed = 0;
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    if (!is_npu_node(n)) continue;
    for (int k = 0; k < n->n_in; k++) mark_npu_side(p, n->in[k], &changed);
    mark_npu_side(p, n->out, &changed);
  }
  do { /* an alias chain carries the mark both ways: until nothing changes */
    changed = 0;
    for (int i = 0; i < g->n_nodes; i++) {
      const ir_node *n = g->nodes[i];
      const int na = alias_inputs(n);
      if (!na) continue;
      int any = on_npu_side(p, n->out);
      for (int k = 0; k < na; k++) any |= on_npu_side(p, n->in[k]);
      if (!any) continue;
      for (int k = 0; k < na; k++) mark_npu_side(p, n->in[k], &changed);
      mark_npu_side(p, n->out, &changed);
    }
  } while (changed);
}

lower_program *lower_graph(const ir_graph *g, const tsl_target_t *t, const lower_opts *o, diag *d) {
  lower_program *p = calloc(1, sizeof *p);
  if (!p) {
    diag_oom(d);
    return NULL;
  }
  p->target = t;
  p->graph = g;
  p->no_sram_residency = o && o->no_sram_residency;
  p->no_pack_input = o && o->no_pack_input;
  p->calibrated = o && o->calibrated;
  p->unsupported = o ? o->unsupported : NULL;
  p->sched_for = o ? o->sched_for : NULL;
  p->sched_ctx = o ? o->sched_ctx : NULL;
  p->npu_only = o && o->npu_only;
  /* A float model with convolutions or matrix products and no calibration
   * is a user's slip, not a model for the control core: the NPU runs int8. */
  if (!has_quantised_op(g) && !p->calibrated)
    for (int i = 0; i < g->n_nodes; i++)
      if (is_mac_op(g->nodes[i])) {
        ir_node_error(d, g->nodes[i], "the model is float: compile it with --calib X.npy (calibration samples "
                      "for post-training quantisation) or give a QDQ-quantised model");
        goto fail;
      }
  /* Step 1 (with the fusion decisions: fused[i] is the MaxPool fused into node i). */
  p->fused = calloc((size_t)g->n_nodes + 1, sizeof *p->fused);
  p->fused_add = calloc((size_t)g->n_nodes + 1, sizeof *p->fused_add);
  p->fb = calloc((size_t)g->n_nodes + 1, sizeof *p->fb);
  p->n_fb = g->n_nodes;
  p->n_ids = g->next_value_id;
  p->tensor_by_id = calloc((size_t)p->n_ids + 1, sizeof *p->tensor_by_id);
  p->npu_side = calloc((size_t)p->n_ids + 1, 1);
  if (!p->fused || !p->fused_add || !p->fb || !p->tensor_by_id || !p->npu_side) {
    diag_oom(d);
    goto fail;
  }
  find_npu_side(g, p);
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    const ir_node *m = o && o->no_fusion ? NULL : fusable_pool(g, p, n);
    if (m) {
      p->fused[i] = m;
      if (lower_tensor_of(p, n->in[0], n, d) < 0 || lower_tensor_of(p, m->out, m, d) < 0) goto fail;
      continue;
    }
    if (n->op == IR_OP_MAXPOOL && lower_is_fused(g, p, n)) continue;
    if (lower_is_alias(p, n)) {
      int src = lower_tensor_of(p, n->in[0], n, d), dst = src < 0 ? -1 : lower_tensor_of(p, n->out, n, d);
      if (dst < 0) goto fail;
      p->tensors[dst].alias = src;
      continue;
    }
    int c = concat_alias(p, n, d);
    if (c < 0) goto fail;
    if (c) continue;
    if (lower_fb_is_core(n)) {
      if (lower_fb_plan(p, i, n, d)) goto fail;
      continue;
    }
    for (int k = 0; k < n->n_in; k++)
      if (n->in[k]->kind != IR_VALUE_CONST && lower_tensor_of(p, n->in[k], n, d) < 0) goto fail;
    if (lower_tensor_of(p, n->out, n, d) < 0) goto fail;
  }
  for (int i = 0; i < g->n_inputs; i++) /* an unused graph input still has its I/O record */
    if (!lower_find_tensor(p, g->inputs[i]) && lower_tensor_of(p, g->inputs[i], g->n_nodes ? g->nodes[0] : NULL, d) < 0)
      goto fail;
  /* Residual adds into the conv before them (every tensor exists now). */
  for (int i = 0; i < g->n_nodes && !(o && o->no_fusion); i++) {
    p->fused_add[i] = fusable_add(g, p, i);
    if (!p->fused_add[i]) p->fused_add[i] = fusable_requant(g, p, i);
  }
  /* DRAM homes: graph inputs and outputs (the package's I/O region), then
   * the other tensors of their own (scratch), then aliases inside them. */
  uint64_t off = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < p->n_tensors; i++) {
      lower_tensor *te = &p->tensors[i];
      int io = !te->twin && (te->v->kind == IR_VALUE_INPUT || te->v->is_output);
      if (te->alias >= 0 || te->is_const || io != (pass == 0)) continue;
      te->dram = off;
      off = align16(off + te->bytes);
    }
    if (pass == 0) p->io_bytes = off;
  }
  for (int i = 0; i < p->n_tensors; i++) {
    int64_t extra = 0, j = i;
    for (int hops = 0; p->tensors[j].alias >= 0; hops++) {
      TSL_ASSERT(hops < p->n_tensors); /* aliases form no cycle */
      extra += p->tensors[j].alias_off;
      j = p->tensors[j].alias;
    }
    p->tensors[i].dram = p->tensors[j].dram + (uint64_t)extra;
  }
  p->consts_base = off;
  /* Step 2. */
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    if (p->fb[i]) { /* step 1's decision (an alias check now could see tensors step 1 made after it) */
      if (lower_fb_emit(p, i, n, d)) goto fail;
      continue;
    }
    if (lower_is_alias(p, n) || (n->op == IR_OP_CONCAT && lower_is_concat_done(p, n)) || lower_is_fused(g, p, n)) continue;
    lower_kernel *k = lower_new_kernel(p, n, o, d);
    if (!k) goto fail;
    k->pool = p->fused[i];
    k->add = p->fused_add[i];
    if (lower_node(p, k, d) != 0) goto fail;
  }
  p->dram_bytes = align16(p->consts_base + p->consts_bytes);
  if (lower_segment(p, o && o->cmd_sram_limit > 0 ? o->cmd_sram_limit : t->cmd_sram_bytes, d) != 0) goto fail;
  return p;
fail:
  lower_program_free(p);
  return NULL;
}

void lower_program_free(lower_program *p) {
  if (!p) return;
  for (int i = 0; i < p->n_kernels; i++) {
    free(p->kernels[i].stream.bytes);
    for (int j = 0; j < p->kernels[i].n_segs; j++) free(p->kernels[i].segs[j].bytes);
    free(p->kernels[i].segs);
  }
  free(p->kernels);
  free(p->tensors);
  free(p->tensor_by_id);
  free(p->npu_side);
  free(p->fused);
  free(p->fused_add);
  lower_fb_free(p);
  free(p->consts);
  free(p);
}
