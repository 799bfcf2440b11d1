/* lower_vec: the kernels that are not on the array: residual add (VADD),
 * average/global pooling (VPOOL), requantisation (VADD with mult_b = 0) and
 * a standalone max pool (STORE's pooling from the scratchpad).
 *
 * Requires: inputs and output in the blocked DRAM layout; one channel block
 * plane of every operand fits the scratchpad.
 * Guarantees: the output in DRAM equals ref_int8 (and ref_ops for MaxPool)
 * bit for bit; the stream ends with every store done.
 * Pattern: channel blocks are independent, so the kernel runs in passes of
 * as many blocks as fit the scratchpad (a MARK between passes, since a pass
 * overwrites what the previous one read):
 *  1. LOADs of the pass's planes (the last pushes one LOAD->EXEC token);
 *  2. per chunk of at most min(8, token_max) blocks a LOOP of EXEC commands
 *     pushing EXEC->STORE and a LOOP of STOREs popping them (chunks keep the
 *     tokens under token_max and the dispatcher from blocking on a full
 *     queue before it reaches the STOREs: more pushes than token_max before
 *     the first STORE deadlock, as at npu2's token_max 3). */
#include "lower_internal.h"

enum { CHUNK_MAX = 8 };

/* Blocks per EXEC->STORE chunk: each pushes one token before its STORE pops it. */
static int64_t chunk_blocks(const lower_program *p) {
  return p->target->token_max < CHUNK_MAX ? p->target->token_max : CHUNK_MAX;
}

/* LOAD of blocks b0..b0+nb-1 of t into SPAD from row `row`. */
static void load_blocks(lower_stream *s, const lower_tensor *t, int dim, int64_t b0, int64_t nb, int64_t row, int pad,
                        int push) {
  LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = t->w * dim, .stride_z = t->h * t->w * dim);
  LOWER_EMIT(s, load, .push_next = push, .mem = TSL_MEM_SPAD, .n0 = dim, .pad = pad,
             .dram = (int64_t)t->dram + b0 * t->h * t->w * dim, .row = row, .nx = t->w, .ny = t->h, .nz = nb);
}

/* STOREs of cnt SPAD planes (from row src, plane_rows apart) to blocks b0.. of y. */
static void store_planes(lower_stream *s, const lower_tensor *y, int dim, int64_t src, int64_t plane_rows, int64_t b0,
                         int64_t cnt, int pop) {
  int64_t rows = y->h * y->w;
  LOWER_EMIT(s, lstride, .stride_g = rows * dim);
  LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = plane_rows);
  LOWER_EMIT(s, store, .pop_prev = pop, .src_mem = TSL_SRC_SPAD, .dst_mem = TSL_DST_DRAM, .n0 = dim, .oh = y->h,
             .ow = y->w, .dram = (int64_t)y->dram + b0 * rows * dim, .src_row = src);
}

/* Blocks per pass when each block needs rows_per_block SPAD rows; 0 (with
 * an error) when one block does not fit. */
static int64_t blocks_per_pass(lower_program *p, lower_kernel *k, int64_t rows_per_block, int64_t blocks,
                               const lower_tensor *y, int64_t limit, diag *d) {
  if (y->h > 255 || y->w > 255) {
    ir_node_error(d, k->node, "output image over 255 in a dimension (not tiled yet)");
    return 0;
  }
  int64_t n = limit / rows_per_block;
  if (n < 1) {
    ir_node_error(d, k->node, "one channel block (%lld rows) does not fit the %lld-row scratchpad of %s",
                  (long long)rows_per_block, (long long)p->target->spad_rows, p->target->name);
    return 0;
  }
  if (n > blocks) n = blocks;
  k->spad_rows_used = n * rows_per_block;
  return n;
}

static int finish(lower_program *p, lower_kernel *k, diag *d) {
  return k->stream.bad ? ir_node_error(d, k->node, "a command field is out of range for %s (window, stride or padding "
                                       "beyond the ISA's limits)", p->target->name) : 0;
}

int lower_vadd(lower_program *p, lower_kernel *k, const lower_tensor *a, const lower_tensor *b,
               const lower_tensor *y, const lower_vadd_params *v, int64_t a_spad, int64_t out_spad, diag *d) {
  const int dim = (int)p->target->dim;
  lower_stream *s = &k->stream;
  const int64_t plane = a->h * a->w;
  int64_t nb, arow = 0, brow;
  if (a_spad >= 0) { /* a resident (a fused conv stored it, or its producer left it): b below it, one pass */
    if (y->h > 255 || y->w > 255 || (b && b->blocks * plane > a_spad))
      return ir_node_error(d, k->node, "fused residual add does not fit below its resident operand");
    nb = y->blocks, arow = a_spad, brow = b ? 0 : a_spad; /* a requantisation: b is a, mult_b = 0 */
    if (k->spad_rows_used < a_spad + a->blocks * plane) k->spad_rows_used = a_spad + a->blocks * plane;
    if (out_spad >= 0 && k->spad_rows_used < out_spad + y->blocks * plane)
      k->spad_rows_used = out_spad + y->blocks * plane;
  } else {
    k->kind = LOWER_K_VEC;
    nb = blocks_per_pass(p, k, b ? 2 * plane : plane, y->blocks, y, p->target->spad_rows, d);
    if (!nb) return -1;
    brow = b ? nb * plane : 0; /* QRequant: b is a, with mult_b = 0 */
  }
  const int64_t chunk = chunk_blocks(p);
  LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
  LOWER_EMIT(s, cfg_store, .src_pitch = y->w, .stride_x = dim, .stride_y = y->w * dim);
  for (int64_t p0 = 0; p0 < y->blocks; p0 += nb) {
    int64_t pn = y->blocks - p0 < nb ? y->blocks - p0 : nb;
    if (p0) LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
    if (a_spad < 0) load_blocks(s, a, dim, p0, pn, 0, a->zp, !b);
    if (b) load_blocks(s, b, dim, p0, pn, brow, b->zp, 1);
    /* A fused requantisation loads nothing (the MARK above waited for the
     * conv's stores), so there is no LOAD->EXEC token to take. */
    LOWER_EMIT(s, cfg_vec, .pop_prev = b || a_spad < 0, .shift = v->shift, .zp_out = y->zp, .mult_a = v->mult_a,
               .mult_b = v->mult_b, .zp_a = a->zp, .zp_b = b ? b->zp : 0, .lo = v->lo, .hi = v->hi);
    for (int64_t c0 = 0; c0 < pn; c0 += chunk) {
      int64_t cnt = pn - c0 < chunk ? pn - c0 : chunk;
      LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_b = plane, .stride_c = plane, .stride_d = plane);
      if (out_spad >= 0) { /* into the resident region the next kernel reads: no store */
        LOWER_EMIT(s, vadd, .a = arow + c0 * plane, .b = brow + c0 * plane, .out = out_spad + c0 * plane,
                   .rows = plane);
        continue;
      }
      LOWER_EMIT(s, vadd, .push_next = 1, .a = arow + c0 * plane, .b = brow + c0 * plane, .out = arow + c0 * plane,
                 .rows = plane);
      store_planes(s, y, dim, arow + c0 * plane, plane, p0 + c0, cnt, 1);
    }
  }
  return finish(p, k, d);
}

int lower_pool(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_pool_params *q, int64_t in_spad, int64_t out_spad, diag *d) {
  const int dim = (int)p->target->dim;
  lower_stream *s = &k->stream;
  k->kind = LOWER_K_VEC;
  const int64_t plane = x->h * x->w, oplane = y->h * y->w;
  if (q->max && (x->h > 255 || x->w > 255)) return ir_node_error(d, k->node, "max pool input over 255 in a dimension");
  int64_t nb;
  const int res_out = out_spad >= 0;
  if (in_spad >= 0) { /* resident input (all blocks from in_spad): one pass, outputs below it */
    if (y->h > 255 || y->w > 255 || (!q->max && !res_out && y->blocks * oplane > in_spad))
      return ir_node_error(d, k->node, "pool output does not fit below its resident input");
    nb = y->blocks;
    k->spad_rows_used = in_spad + x->blocks * plane;
  } else { /* passes below the output region when it is resident (VPOOL writes straight into it) */
    nb = blocks_per_pass(p, k, q->max || out_spad >= 0 ? plane : plane + oplane, y->blocks, y,
                         out_spad >= 0 ? out_spad : p->target->spad_rows, d);
  }
  if (!nb) return -1;
  if (res_out && k->spad_rows_used < out_spad + y->blocks * oplane) k->spad_rows_used = out_spad + y->blocks * oplane;
  LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
  if (q->max) {
    /* Max pool: STORE pools the SPAD planes (padding never wins). */
    LOWER_EMIT(s, cfg_epi, .pool_k = q->kh, .pool_s = q->sy, .pool_pad_t = q->pt, .pool_pad_l = q->pl,
               .zp_out = y->zp, .lo = -128, .hi = 127, .src_h = x->h, .src_w = x->w);
  } else {
    /* Average pool: VPOOL per channel block into SPAD after the pass's input. */
    LOWER_EMIT(s, cfg_exec, .out_pitch = y->w, .kh = q->kh, .kw = q->kw, .ncb = 1, .pad = x->zp, .stride_y = q->sy,
               .stride_x = q->sx, .dil_y = 1, .dil_x = 1, .in_h = x->h, .in_w = x->w, .in_pitch = x->w,
               .cb_stride = plane);
    LOWER_EMIT(s, cfg_vec, .shift = q->shift, .zp_out = y->zp, .mult_a = q->mult, .zp_a = x->zp, .lo = q->lo,
               .hi = q->hi);
    if (!res_out) LOWER_EMIT(s, cfg_store, .src_pitch = y->w, .stride_x = dim, .stride_y = y->w * dim);
  }
  for (int64_t p0 = 0; p0 < y->blocks; p0 += nb) {
    int64_t pn = y->blocks - p0 < nb ? y->blocks - p0 : nb;
    if (p0) LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
    /* A resident input is there already: the kernel's MARK waited for the
     * producer's stores, so no load and no LOAD->EXEC token. */
    const int res = in_spad >= 0;
    const int64_t in0 = res ? in_spad : 0;
    if (!res) load_blocks(s, x, dim, p0, pn, 0, q->max ? -128 : x->zp, 1);
    if (q->max) {
      if (!res) LOWER_EMIT(s, enop, .pop_prev = 1, .push_next = 1); /* LOAD -> EXEC -> STORE: the planes are in */
      LOWER_EMIT(s, cfg_store, .pop_prev = !res, .src_pitch = x->w, .stride_x = dim, .stride_y = y->w * dim,
                 .spad_pitch = y->w);
      /* To DRAM, or into the region the next conv reads in place. */
      LOWER_EMIT(s, lstride, .stride_g = res_out ? 0 : oplane * dim, .stride_h = res_out ? oplane : 0);
      LOWER_EMIT(s, loop, .count = pn, .body = 1, .stride_c = plane);
      LOWER_EMIT(s, store, .src_mem = TSL_SRC_SPAD, .dst_mem = res_out ? TSL_DST_SPAD : TSL_DST_DRAM, .n0 = dim,
                 .oh = y->h, .ow = y->w, .dram = res_out ? 0 : (int64_t)y->dram + p0 * oplane * dim,
                 .dst_row = res_out ? out_spad + p0 * oplane : 0, .src_row = in0);
      continue;
    }
    if (!res) LOWER_EMIT(s, enop, .pop_prev = 1);
    const int64_t chunk = chunk_blocks(p);
    const int64_t obase = res_out ? out_spad + p0 * oplane : res ? 0 : pn * plane;
    for (int64_t c0 = 0; c0 < pn; c0 += chunk) {
      int64_t cnt = pn - c0 < chunk ? pn - c0 : chunk;
      LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_b = plane, .stride_c = oplane);
      LOWER_EMIT(s, vpool, .push_next = !res_out, .exclude_pad = !q->count_include_pad, .oh = y->h, .ow = y->w,
                 .in = in0 + c0 * plane, .out = obase + c0 * oplane, .iy0 = -q->pt, .ix0 = -q->pl);
      if (res_out) continue; /* resident output: the next kernel's MARK waits for the VPOOLs */
      store_planes(s, y, dim, obase + c0 * oplane, oplane, p0 + c0, cnt, 1);
    }
  }
  return finish(p, k, d);
}
