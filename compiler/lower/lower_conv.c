/* lower_conv: one conv/matmul kernel -> command stream (MATMUL or DWCONV with
 * the STORE epilogue).
 *
 * Requires: x, y in the blocked DRAM layout (lower_layout.c); g checked by the
 * caller (weights zero point 0, group 1 or depthwise or any group, expanded).
 * Guarantees: k->stream computes y bit-exactly as ref_int8 does, and ends with
 * every store done (the next kernel's MARK is the barrier).
 *
 * How a conv becomes commands (docs/lowering.md, "a conv"):
 *  1. constants: weight tiles in the order MATMUL reads them (per output block
 *     ob: tap t, input block cb, DIM rows k of DIM lanes n = W[ob*DIM+n][cb*DIM+k][t]),
 *     one PARAM row per output block with the bias folded with -zx*sum(w);
 *  2. LOADs: the whole input (one SPAD plane per channel block), the weights,
 *     the PARAM rows; one LOAD->EXEC token;
 *  3. per output row tile and group of G output blocks: a hardware LOOP of
 *     MATMULs into one of two ACC buffers, then a LOOP of STOREs; tokens
 *     EXEC->STORE (tile ready) and STORE->EXEC (buffer free, pre-charged 2G),
 *     so the epilogue of one group overlaps the MATMULs of the next. */
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"


/* Weight of output m, input c (global), tap t, with groups expanded densely. */
static int wval(const lower_conv_geom *g, int64_t m, int64_t c, int64_t t) {
  int64_t cg = g->c / g->group, mg = g->m / g->group;
  if (m >= g->m || c >= g->c || c / cg != m / mg) return 0;
  return g->wgt[(m * cg + c % cg) * g->kh * g->kw + t];
}

/* Step 1: the PARAM rows (9*DIM bytes per output block). */
static int64_t add_params(lower_program *p, const lower_conv_geom *g, int64_t nob, int dim) {
  uint64_t n = (uint64_t)nob * 9 * dim;
  uint8_t *buf = calloc(n, 1);
  if (!buf) return -1;
  int64_t cg = g->depthwise ? 1 : g->c / g->group, taps = g->kh * g->kw;
  for (int64_t m = 0; m < g->m; m++) {
    int64_t sumw = 0;
    for (int64_t i = 0; i < cg * taps; i++) sumw += g->wgt[m * cg * taps + i];
    int64_t b = (g->bias ? g->bias[m] : 0) - (int64_t)g->zx * sumw; /* requant checked it fits */
    int32_t bias = (int32_t)b;
    int32_t mult = (int32_t)g->mult[g->n_mult == 1 ? 0 : m];
    uint8_t shift = (uint8_t)g->shift[g->n_mult == 1 ? 0 : m];
    uint8_t *row = buf + (m / dim) * 9 * dim;
    int l = (int)(m % dim);
    for (int i = 0; i < 4; i++) {
      row[4 * l + i] = (uint8_t)((uint32_t)bias >> (8 * i));
      row[4 * dim + 4 * l + i] = (uint8_t)((uint32_t)mult >> (8 * i));
    }
    row[8 * dim + l] = shift;
  }
  int64_t off = lower_consts_add(p, buf, n);
  free(buf);
  return off;
}

/* Step 1: the weight rows, in the order MATMUL (or DWCONV) reads them. */
static int64_t add_weights(lower_program *p, const lower_conv_geom *g, int64_t nob, int64_t ncb,
                           int dim, int64_t *rows) {
  int64_t taps = g->kh * g->kw;
  *rows = g->depthwise ? nob * taps : nob * taps * ncb * dim;
  uint64_t n = (uint64_t)*rows * dim;
  int8_t *buf = calloc(n, 1);
  if (!buf) return -1;
  if (g->depthwise) {
    for (int64_t ch = 0; ch < g->m; ch++)
      for (int64_t t = 0; t < taps; t++) buf[((ch / dim) * taps + t) * dim + ch % dim] = g->wgt[ch * taps + t];
  } else {
    for (int64_t ob = 0; ob < nob; ob++)
      for (int64_t t = 0; t < taps; t++)
        for (int64_t cb = 0; cb < ncb; cb++)
          for (int k = 0; k < dim; k++)
            for (int nn = 0; nn < dim; nn++) {
              int64_t row = ((ob * taps + t) * ncb + cb) * dim + k;
              buf[row * dim + nn] = (int8_t)wval(g, ob * dim + nn, cb * dim + k, t);
            }
  }
  int64_t off = lower_consts_add(p, buf, n);
  free(buf);
  return off;
}

int lower_conv(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_conv_geom *g, diag *d) {
  const tsl_target_t *tg = p->target;
  const int dim = (int)tg->dim;
  const int64_t ncb = x->blocks, nob = y->blocks, taps = g->kh * g->kw;
  lower_stream *s = &k->stream;
  k->kind = g->depthwise ? LOWER_K_DWCONV : LOWER_K_CONV;

  /* Step 1. */
  int64_t wrows = 0;
  int64_t poff = add_params(p, g, nob, dim);
  int64_t woff = add_weights(p, g, nob, ncb, dim, &wrows);
  if (poff < 0 || woff < 0) return diag_oom(d);
  const int64_t per_ob = g->depthwise ? taps : taps * ncb * dim; /* weight rows per output block */

  /* SRAM plan of the kernel: input planes from row 0, weights after them. */
  const int64_t in_rows = ncb * g->h * g->w, wbase = in_rows;
  if (in_rows + wrows > tg->spad_rows)
    return ir_node_error(d, k->node, "input (%lld rows) and weights (%lld rows) do not fit the %lld-row scratchpad of %s "
                         "(input tiling is not implemented yet)", (long long)in_rows, (long long)wrows,
                         (long long)tg->spad_rows, tg->name);
  if (nob > tg->param_rows)
    return ir_node_error(d, k->node, "%lld output channel blocks exceed the %lld PARAM rows of %s", (long long)nob,
                         (long long)tg->param_rows, tg->name);
  if (g->ow > 255) return ir_node_error(d, k->node, "output width %lld exceeds 255 (column tiling is not implemented yet)",
                                        (long long)g->ow);
  int64_t G = k->sched.ob_group > 0 ? k->sched.ob_group : 7;
  if (G > nob) G = nob;
  if (G > (tg->token_max) / 2) G = tg->token_max / 2;
  int64_t oh_t = tg->acc_rows / (2 * G * g->ow);
  if (oh_t > 255) oh_t = 255;
  if (oh_t > g->oh) oh_t = g->oh;
  if (k->sched.oh_tile > 0 && k->sched.oh_tile < oh_t) oh_t = k->sched.oh_tile;
  if (oh_t < 1) return ir_node_error(d, k->node, "an output line does not fit the accumulator of %s", tg->name);
  k->sched.oh_tile = (int)oh_t;
  k->sched.ob_group = (int)G;
  const int64_t T = oh_t * g->ow; /* ACC rows per output block tile */
  k->spad_rows_used = in_rows + wrows;
  k->acc_rows_used = 2 * G * T;
  k->param_rows_used = nob;

  /* Step 2: loads. */
  LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
  LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = g->w * dim, .stride_z = g->h * g->w * dim);
  LOWER_EMIT(s, load, .mem = TSL_MEM_SPAD, .n0 = dim, .pad = g->zx, .dram = (int64_t)x->dram, .row = 0,
             .nx = g->w, .ny = g->h, .nz = ncb);
  LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = dim * dim, .stride_z = per_ob * dim);
  if (g->depthwise)
    LOWER_EMIT(s, load, .mem = TSL_MEM_SPAD, .n0 = dim, .dram = woff, .row = wbase, .nx = taps, .ny = 1, .nz = nob);
  else
    LOWER_EMIT(s, load, .mem = TSL_MEM_SPAD, .n0 = dim, .dram = woff, .row = wbase, .nx = dim, .ny = taps * ncb,
               .nz = nob);
  LOWER_EMIT(s, cfg_load, .stride_x = 9 * dim);
  LOWER_EMIT(s, load, .push_next = 1, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = poff, .row = 0, .nx = nob, .ny = 1,
             .nz = 1);

  /* Step 3: compute and store, with the two ACC buffers pre-charged as free. */
  LOWER_EMIT(s, cfg_exec, .out_pitch = g->ow, .kh = g->kh, .kw = g->kw, .ncb = g->depthwise ? 1 : ncb, .pad = g->zx,
             .stride_y = g->sy, .stride_x = g->sx, .dil_y = g->dy, .dil_x = g->dx, .in_h = g->h, .in_w = g->w,
             .in_pitch = g->w, .cb_stride = g->h * g->w);
  LOWER_EMIT(s, enop, .pop_prev = 1);
  LOWER_EMIT(s, cfg_store, .src_pitch = g->ow, .stride_x = dim, .stride_y = g->ow * dim);
  LOWER_EMIT(s, loop, .count = 2 * G, .body = 1);
  LOWER_EMIT(s, cfg_epi, .push_prev = 1, .zp_out = g->zy, .lo = g->lo, .hi = g->hi);
  const int64_t plane = g->oh * g->ow * dim; /* DRAM bytes of one output channel block */
  int64_t step = 0;
  for (int64_t oy0 = 0; oy0 < g->oh; oy0 += oh_t) {
    int64_t oh = g->oh - oy0 < oh_t ? g->oh - oy0 : oh_t;
    for (int64_t ob0 = 0; ob0 < nob; ob0 += G, step++) {
      int64_t cnt = nob - ob0 < G ? nob - ob0 : G, accb = (step % 2) * G * T;
      int64_t iy0 = oy0 * g->sy - g->pt, ix0 = -g->pl;
      if (g->depthwise) {
        LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_b = g->h * g->w, .stride_c = T, .stride_d = taps);
        LOWER_EMIT(s, dwconv, .pop_next = 1, .push_next = 1, .oh = oh, .ow = g->ow, .in = ob0 * g->h * g->w,
                   .wgt = wbase + ob0 * taps, .acc = accb, .iy0 = iy0, .ix0 = ix0);
      } else {
        LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = T, .stride_d = per_ob);
        LOWER_EMIT(s, matmul, .pop_next = 1, .push_next = 1, .oh = oh, .ow = g->ow, .in = 0,
                   .wgt = wbase + ob0 * per_ob, .acc = accb, .iy0 = iy0, .ix0 = ix0);
      }
      LOWER_EMIT(s, lstride, .stride_g = plane);
      LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = T, .stride_d = 1);
      LOWER_EMIT(s, store, .pop_prev = 1, .push_prev = 1, .src_mem = TSL_SRC_ACC, .dst_mem = TSL_DST_DRAM, .n0 = dim,
                 .oh = oh, .ow = g->ow, .dram = (int64_t)y->dram + ob0 * plane + oy0 * g->ow * dim, .src_row = accb,
                 .param = ob0);
    }
  }
  if (s->bad) return ir_node_error(d, k->node, "a command field is out of range for %s (a dimension, stride or "
                                   "dilation beyond the ISA's limits) or out of memory", tg->name);
  return 0;
}
