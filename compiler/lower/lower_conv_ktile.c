/* lower_conv_ktile: a conv whose weights for one output block (or whose input
 * lines) do not fit the scratchpad next to each other: the input channels
 * are tiled, and the accumulator adds the chunks up.
 *
 * Requires: what lower_conv requires, a dense (not depthwise) conv without a
 * fused pool; called by lower_conv when its own tiling (all input channels
 * at once) fits nowhere.  Guarantees: k->stream computes y bit-exactly as
 * ref_int8 does (integer sums are the same in any order), ends with every
 * store issued (the next kernel's MARK is the barrier).
 *
 * The schedule (docs/lowering.md, "Input channel tiling"):
 *
 *   for each output tile (a band of oh_t rows, a column tile of ow_t columns):
 *     for each ACC pass of A output blocks (A tiles of oh_t x ow_t rows):
 *       for each chunk of cq input channel blocks:
 *         for each group of gw output blocks of the pass:
 *           MARK (what earlier commands read is free), LOAD the chunk's input
 *           lines (first group only), its weights (and the pass's PARAM rows),
 *           one LOAD->EXEC token; MATMUL per block, overwriting the ACC for
 *           the first chunk and accumulating for the others;
 *       MARK, a LOOP of STOREs (epilogue) of the A blocks.
 *
 * Simple and serial on purpose (a MARK between reloads, no double buffering):
 * such layers are rare (very wide input channels at a small DIM) and this
 * keeps the proof of exactness short. */
#include "lower_internal.h"

enum { KT_MAX_NCB = 255 }; /* CFG_EXEC's ncb field */

/* The input lines an output band of oh_t rows needs at most. */
static int64_t band_rows(const lower_conv_geom *g, int64_t oh_t) {
  int64_t best = 0;
  for (int64_t oy0 = 0; oy0 < g->oh; oy0 += oh_t) {
    int64_t lo, hi;
    lower_conv_in_rows(g, oy0, g->oh - oy0 < oh_t ? g->oh - oy0 : oh_t, &lo, &hi);
    if (hi - lo + 1 > best) best = hi - lo + 1;
  }
  return best;
}

/* The input-channel tiling. */
typedef struct {
  int64_t oh_t, ow_t; /* output tile */
  int64_t rows;       /* input lines of a band (h when resident) */
  int64_t cq;         /* input channel blocks per chunk */
  int64_t A;          /* output blocks per ACC pass */
  int64_t gw;         /* output blocks whose chunk weights are resident at once */
} ktiling;

/* The largest output band whose chunk of at least one input block fits with
 * one output block's weights; then as many blocks per pass and per weight
 * load as fit.  0, or -1 when even one input block does not fit. */
static int choose(const tsl_target_t *tg, const lower_conv_geom *g, int64_t ncb, int64_t nob, ktiling *t) {
  const int64_t limit = g->spad_limit > 0 ? g->spad_limit : tg->spad_rows;
  const int64_t per_cb = g->kh * g->kw * tg->dim; /* weight rows per output block and input block */
  int64_t ow_max = tg->acc_rows < 255 ? tg->acc_rows : 255;
  const int64_t ncol = (g->ow + ow_max - 1) / ow_max;
  t->ow_t = (g->ow + ncol - 1) / ncol;
  int64_t oh_max = tg->acc_rows / t->ow_t;
  if (oh_max > 255) oh_max = 255;
  if (oh_max > g->oh) oh_max = g->oh;
  for (int64_t oh_t = oh_max; oh_t >= 1; oh_t--) {
    int64_t rows = g->in_spad >= 0 ? g->h : band_rows(g, oh_t), in_cb = g->in_spad >= 0 ? 0 : rows * g->w;
    int64_t cq = limit / (in_cb + per_cb);
    if (cq < 1) continue;
    if (cq > KT_MAX_NCB) cq = KT_MAX_NCB;
    if (cq > ncb) cq = ncb;
    const int64_t nq = (ncb + cq - 1) / cq;
    cq = (ncb + nq - 1) / nq; /* equal chunks */
    t->oh_t = oh_t, t->rows = rows, t->cq = cq;
    t->A = tg->acc_rows / (oh_t * t->ow_t);
    if (t->A > nob) t->A = nob;
    if (t->A > tg->param_rows) t->A = tg->param_rows;
    t->gw = (limit - cq * in_cb) / (cq * per_cb);
    if (t->gw > t->A) t->gw = t->A;
    return 0;
  }
  return -1;
}

int lower_conv_ktiled(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
                      const lower_conv_geom *g, diag *d) {
  const tsl_target_t *tg = p->target;
  const int dim = (int)tg->dim;
  const int64_t ncb = x->blocks, nob = y->blocks, taps = g->kh * g->kw, per_ob = taps * ncb * dim;
  lower_stream *s = &k->stream;
  ktiling t;
  if (choose(tg, g, ncb, nob, &t))
    return ir_node_error(d, k->node, "no tiling fits %s: one input channel block of %lld-pixel lines and its "
                         "%lld weight rows do not fit the scratchpad", tg->name, (long long)g->w,
                         (long long)(taps * dim));
  /* Constants: weights in chunks of cq input blocks (one MATMUL each). */
  int64_t wrows = 0;
  int64_t poff = lower_conv_params(p, g, nob, dim);
  int64_t woff = lower_conv_weights(p, g, nob, ncb, t.cq, dim, &wrows);
  if (poff < 0 || woff < 0) return diag_oom(d);
  k->kind = LOWER_K_CONV;
  k->sched.oh_tile = (int)t.oh_t;
  k->sched.ob_group = (int)t.gw;
  k->sched.ob_chunk = (int)t.A;
  k->sched.order = 1;
  k->sched.wbuf = 1;
  k->ic_chunk = (int)t.cq;
  k->ow_tile = t.ow_t < g->ow ? (int)t.ow_t : 0;
  const int64_t T = t.oh_t * t.ow_t;                          /* ACC rows per output block */
  const int64_t in_cb = g->in_spad >= 0 ? 0 : t.rows * g->w;  /* SPAD rows per input block of a chunk */
  const int64_t wbase = t.cq * in_cb;                         /* weights after the input chunk */
  k->spad_rows_used = wbase + t.gw * taps * t.cq * dim;
  k->acc_rows_used = t.A * T;
  k->param_rows_used = t.A;

  const uint16_t id = (uint16_t)((k - p->kernels) & 0xFFFF);
  LOWER_EMIT(s, mark, .kernel = id);
  const int64_t sw = g->ow, plane = g->oh * g->ow * dim, prow = g->oh * g->ow;
  LOWER_EMIT(s, cfg_store, .src_pitch = t.ow_t, .stride_x = dim, .stride_y = sw * dim, .spad_pitch = sw);
  LOWER_EMIT(s, cfg_epi, .zp_out = g->zy, .lo = g->lo, .hi = g->hi);
  int first = 1;
  for (int64_t oy0 = 0; oy0 < g->oh; oy0 += t.oh_t)
    for (int64_t ox0 = 0; ox0 < g->ow; ox0 += t.ow_t)
      for (int64_t a0 = 0; a0 < nob; a0 += t.A) {
        const int64_t oh = g->oh - oy0 < t.oh_t ? g->oh - oy0 : t.oh_t, ow = g->ow - ox0 < t.ow_t ? g->ow - ox0 : t.ow_t;
        const int64_t acnt = nob - a0 < t.A ? nob - a0 : t.A;
        int64_t lo, hi;
        lower_conv_in_rows(g, oy0, oh, &lo, &hi);
        if (g->in_spad >= 0) lo = 0, hi = g->h - 1; /* resident: the whole image is there */
        const int64_t lines = hi - lo + 1, cb_stride = lines * g->w;
        for (int64_t cb0 = 0; cb0 < ncb; cb0 += t.cq) {
          const int64_t cqn = ncb - cb0 < t.cq ? ncb - cb0 : t.cq;
          const int64_t wq = taps * cqn * dim; /* weight rows of one output block in this chunk */
          const int64_t in0 = g->in_spad >= 0 ? g->in_spad + cb0 * cb_stride : 0;
          for (int64_t o0 = a0; o0 < a0 + acnt; o0 += t.gw) {
            const int64_t gcnt = a0 + acnt - o0 < t.gw ? a0 + acnt - o0 : t.gw;
            if (!first) LOWER_EMIT(s, mark, .kernel = id); /* reloads overwrite what was read */
            first = 0;
            const int params = cb0 == 0 && o0 == a0;
            if (o0 == a0 && g->in_spad < 0) {
              LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = g->w * dim, .stride_z = g->h * g->w * dim);
              LOWER_EMIT(s, load, .mem = TSL_MEM_SPAD, .n0 = dim, .pad = g->zx,
                         .dram = (int64_t)x->dram + cb0 * g->h * g->w * dim + lo * g->w * dim, .row = 0, .nx = g->w,
                         .ny = lines, .nz = cqn);
            }
            LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = dim * dim, .stride_z = per_ob * dim);
            LOWER_EMIT(s, load, .push_next = !params, .mem = TSL_MEM_SPAD, .n0 = dim,
                       .dram = woff + (o0 * per_ob + taps * cb0 * dim) * dim, .row = wbase, .nx = dim,
                       .ny = taps * cqn, .nz = gcnt);
            if (params) {
              LOWER_EMIT(s, cfg_load, .stride_x = 9 * dim);
              LOWER_EMIT(s, load, .push_next = 1, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = poff + a0 * 9 * dim, .row = 0,
                         .nx = acnt, .ny = 1, .nz = 1);
            }
            LOWER_EMIT(s, cfg_exec, .pop_prev = 1, .out_pitch = t.ow_t, .kh = g->kh, .kw = g->kw, .ncb = cqn,
                       .pad = g->zx, .stride_y = g->sy, .stride_x = g->sx, .dil_y = g->dy, .dil_x = g->dx,
                       .in_h = lines, .in_w = g->w, .in_pitch = g->w, .cb_stride = cb_stride);
            LOWER_EMIT(s, loop, .count = gcnt, .body = 1, .stride_c = T, .stride_d = wq);
            LOWER_EMIT(s, matmul, .acc_mode = cb0 > 0, .oh = oh, .ow = ow, .in = in0, .wgt = wbase,
                       .acc = (o0 - a0) * T, .iy0 = oy0 * g->sy - g->pt - lo, .ix0 = ox0 * g->sx - g->pl);
          }
        }
        /* Every chunk summed: the epilogue of the pass's blocks. */
        LOWER_EMIT(s, mark, .kernel = id);
        LOWER_EMIT(s, lstride, .stride_g = g->out_spad >= 0 ? 0 : plane, .stride_h = g->out_spad >= 0 ? prow : 0);
        LOWER_EMIT(s, loop, .count = acnt, .body = 1, .stride_c = T, .stride_d = 1);
        LOWER_EMIT(s, store, .src_mem = TSL_SRC_ACC, .dst_mem = g->out_spad >= 0 ? TSL_DST_SPAD : TSL_DST_DRAM,
                   .n0 = dim, .oh = oh, .ow = ow,
                   .dram = g->out_spad >= 0 ? 0 : (int64_t)y->dram + a0 * plane + (oy0 * sw + ox0) * dim,
                   .dst_row = g->out_spad >= 0 ? g->out_spad + a0 * prow + oy0 * sw + ox0 : 0, .src_row = 0,
                   .param = 0);
      }
  if (s->bad) return ir_node_error(d, k->node, "a command field is out of range for %s (a dimension, stride or "
                                   "dilation beyond the ISA's limits) or out of memory", tg->name);
  return 0;
}
