/* lower_vec: the kernels that are not on the array: residual add (VADD),
 * average/global pooling (VPOOL), requantisation (VADD with mult_b = 0) and
 * a standalone max pool (STORE's pooling from the scratchpad).
 *
 * Requires: inputs and output in the blocked DRAM layout, static shapes that
 * fit the scratchpad whole (input tiling is not implemented for these).
 * Guarantees: the output in DRAM equals ref_int8 (and ref_ops for MaxPool)
 * bit for bit; the stream ends with every store done.
 * Pattern: LOADs (one LOAD->EXEC token), then per chunk of at most 8 channel
 * blocks a LOOP of EXEC commands pushing EXEC->STORE and a LOOP of STOREs
 * popping them (chunks keep the tokens under token_max and the dispatcher
 * from blocking on a full queue before it reaches the STOREs). */
#include "lower_internal.h"

enum { CHUNK = 8 };

static void load_tensor(lower_stream *s, const lower_tensor *t, int dim, int64_t row, int pad, int push) {
  LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = t->w * dim, .stride_z = t->h * t->w * dim);
  LOWER_EMIT(s, load, .push_next = push, .mem = TSL_MEM_SPAD, .n0 = dim, .pad = pad, .dram = (int64_t)t->dram,
             .row = row, .nx = t->w, .ny = t->h, .nz = t->blocks);
}

/* STOREs of the SPAD planes (base + b*plane_rows) of y to its DRAM home,
 * for blocks b0..b0+cnt-1 (a chunk), each popping one EXEC->STORE token. */
static void store_planes(lower_stream *s, const lower_tensor *y, int dim, int64_t base, int64_t b0, int64_t cnt) {
  int64_t rows = y->h * y->w;
  LOWER_EMIT(s, lstride, .stride_g = rows * dim);
  LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = rows);
  LOWER_EMIT(s, store, .pop_prev = 1, .src_mem = TSL_SRC_SPAD, .dst_mem = TSL_DST_DRAM, .n0 = dim, .oh = y->h,
             .ow = y->w, .dram = (int64_t)y->dram + b0 * rows * dim, .src_row = base + b0 * rows);
}

static int fits(lower_program *p, lower_kernel *k, int64_t rows, const lower_tensor *y, diag *d) {
  if (rows > p->target->spad_rows)
    return ir_node_error(d, k->node, "its operands (%lld rows) do not fit the %lld-row scratchpad of %s",
                         (long long)rows, (long long)p->target->spad_rows, p->target->name);
  if (y->h > 255 || y->w > 255) return ir_node_error(d, k->node, "output image over 255 in a dimension (not tiled yet)");
  k->spad_rows_used = rows;
  return 0;
}

int lower_vadd(lower_program *p, lower_kernel *k, const lower_tensor *a, const lower_tensor *b,
               const lower_tensor *y, const lower_vadd_params *v, diag *d) {
  const int dim = (int)p->target->dim;
  lower_stream *s = &k->stream;
  k->kind = LOWER_K_VEC;
  const int64_t plane = a->h * a->w, arows = a->blocks * plane;
  const int64_t brow = b ? arows : 0; /* QRequant: b is a, with mult_b = 0 */
  if (fits(p, k, b ? 2 * arows : arows, y, d)) return -1;
  LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
  load_tensor(s, a, dim, 0, a->zp, !b);
  if (b) load_tensor(s, b, dim, brow, b->zp, 1);
  LOWER_EMIT(s, cfg_vec, .pop_prev = 1, .shift = v->shift, .zp_out = y->zp, .mult_a = v->mult_a, .mult_b = v->mult_b,
             .zp_a = a->zp, .zp_b = b ? b->zp : 0, .lo = v->lo, .hi = v->hi);
  LOWER_EMIT(s, cfg_store, .src_pitch = y->w, .stride_x = dim, .stride_y = y->w * dim);
  for (int64_t b0 = 0; b0 < y->blocks; b0 += CHUNK) {
    int64_t cnt = y->blocks - b0 < CHUNK ? y->blocks - b0 : CHUNK;
    LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_b = plane, .stride_c = plane, .stride_d = plane);
    LOWER_EMIT(s, vadd, .push_next = 1, .a = b0 * plane, .b = brow + b0 * plane, .out = b0 * plane, .rows = plane);
    store_planes(s, y, dim, 0, b0, cnt);
  }
  return s->bad ? ir_node_error(d, k->node, "a command field is out of range for %s", p->target->name) : 0;
}

int lower_pool(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_pool_params *q, diag *d) {
  const int dim = (int)p->target->dim;
  lower_stream *s = &k->stream;
  k->kind = LOWER_K_VEC;
  const int64_t plane = x->h * x->w, xrows = x->blocks * plane, oplane = y->h * y->w;
  LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
  if (q->max) {
    /* Max pool: STORE pools the SPAD planes (padding never wins). */
    if (fits(p, k, xrows, y, d)) return -1;
    if (x->h > 255 || x->w > 255) return ir_node_error(d, k->node, "max pool input over 255 in a dimension");
    load_tensor(s, x, dim, 0, -128, 1);
    LOWER_EMIT(s, enop, .pop_prev = 1, .push_next = 1);
    LOWER_EMIT(s, cfg_store, .pop_prev = 1, .src_pitch = x->w, .stride_x = dim, .stride_y = y->w * dim);
    LOWER_EMIT(s, cfg_epi, .pool_k = q->kh, .pool_s = q->sy, .pool_pad_t = q->pt, .pool_pad_l = q->pl,
               .zp_out = y->zp, .lo = -128, .hi = 127, .src_h = x->h, .src_w = x->w);
    LOWER_EMIT(s, lstride, .stride_g = oplane * dim);
    LOWER_EMIT(s, loop, .count = x->blocks, .body = 1, .stride_c = plane);
    LOWER_EMIT(s, store, .src_mem = TSL_SRC_SPAD, .dst_mem = TSL_DST_DRAM, .n0 = dim, .oh = y->h, .ow = y->w,
               .dram = (int64_t)y->dram, .src_row = 0);
  } else {
    /* Average pool: VPOOL per channel block into SPAD after the input. */
    if (fits(p, k, xrows + y->blocks * oplane, y, d)) return -1;
    load_tensor(s, x, dim, 0, x->zp, 1);
    LOWER_EMIT(s, cfg_exec, .pop_prev = 1, .out_pitch = y->w, .kh = q->kh, .kw = q->kw, .ncb = 1, .pad = x->zp,
               .stride_y = q->sy, .stride_x = q->sx, .dil_y = 1, .dil_x = 1, .in_h = x->h, .in_w = x->w,
               .in_pitch = x->w, .cb_stride = plane);
    LOWER_EMIT(s, cfg_vec, .shift = q->shift, .zp_out = y->zp, .mult_a = q->mult, .zp_a = x->zp, .lo = q->lo,
               .hi = q->hi);
    LOWER_EMIT(s, cfg_store, .src_pitch = y->w, .stride_x = dim, .stride_y = y->w * dim);
    for (int64_t b0 = 0; b0 < y->blocks; b0 += CHUNK) {
      int64_t cnt = y->blocks - b0 < CHUNK ? y->blocks - b0 : CHUNK;
      LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_b = plane, .stride_c = oplane);
      LOWER_EMIT(s, vpool, .push_next = 1, .exclude_pad = !q->count_include_pad, .oh = y->h, .ow = y->w,
                 .in = b0 * plane, .out = xrows + b0 * oplane, .iy0 = -q->pt, .ix0 = -q->pl);
      store_planes(s, y, dim, xrows, b0, cnt);
    }
  }
  return s->bad ? ir_node_error(d, k->node, "a command field is out of range for %s (window, stride or padding "
                                "beyond the ISA's limits)", p->target->name) : 0;
}
