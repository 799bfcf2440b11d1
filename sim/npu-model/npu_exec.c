/* npu_exec.c: what each queue command does to the NPU memories, exactly as
 * docs/isa.md section 3 states it, with its byte and MAC counters and its
 * cost. Commands arrive checked (npu_check.c): every address here is in
 * range, so this file has no error paths of its own. */
#include <stdlib.h>
#include <string.h>

#include "npu_arith.h"
#include "npu_datapath.h"
#include "npu_internal.h"

static void wr32(uint8_t *p, int32_t v) {
  uint32_t u = (uint32_t)v;
  p[0] = (uint8_t)u;
  p[1] = (uint8_t)(u >> 8);
  p[2] = (uint8_t)(u >> 16);
  p[3] = (uint8_t)(u >> 24);
}

static cost_t exec_load(npu_model_t *m, const tsl_load_t *l, const tsl_cfg_load_t *c) {
  const int dim = m->dim;
  const int64_t e = l->mem == TSL_MEM_SPAD ? 1 : l->mem == TSL_MEM_ACC ? 4 : 9; /* PARAM: 9 bytes per channel */
  uint64_t real = 0, pad = 0;
  /* Rows r = row, row+1, ... in (z, y, x) order; sources by additions
   * along x (the loop runs on the core of the core-sequenced NPU: x and the
   * line's real rows count in int, nx <= 4095). */
  const int64_t rowb = dim * e; /* bytes of one destination row */
  uint8_t *dst = l->mem == TSL_MEM_SPAD ? (uint8_t *)m->spad : l->mem == TSL_MEM_ACC ? (uint8_t *)m->acc : m->param;
  dst += l->row * rowb;
  const int nx = (int)l->nx, x0 = (int)l->pad_left, x1 = (int)(l->nx - l->pad_right);
  for (int64_t z = 0; z < l->nz; z++)
    for (int64_t y = 0; y < l->ny; y++) {
      const int ypad = y < l->pad_top || y >= l->ny - l->pad_bottom;
      int64_t off = l->dram + z * c->stride_z + (y - l->pad_top) * c->stride_y - l->pad_left * c->stride_x;
      int nreal = 0;
      for (int x = 0; x < nx; x++, off += c->stride_x, dst += rowb) {
        const int is_pad = ypad || x < x0 || x >= x1;
        const uint8_t *src = is_pad ? NULL : m->dram + off;
        nreal += !is_pad;
        if (m->timing_only) continue;
        if (l->mem == TSL_MEM_SPAD) {
          for (int k = 0; k < dim; k++) dst[k] = (uint8_t)((src && k < l->n0) ? src[k] : l->pad);
        } else if (l->mem == TSL_MEM_ACC) {
          int32_t *row = (int32_t *)(void *)dst;
          for (int k = 0; k < dim; k++) row[k] = (src && k < l->n0) ? npu_rd32(src + 4 * k) : (int32_t)l->pad;
        } else {
          memcpy(dst, src, (size_t)(9 * dim));
        }
      }
      real += (uint64_t)nreal;
      pad += (uint64_t)(nx - nreal);
    }
  m->cnt[TSL_CNT_DRAM_RD_BYTES] += real * (uint64_t)(l->n0 * e);
  if (l->mem == TSL_MEM_SPAD) m->cnt[TSL_CNT_SPAD_WR_BYTES] += (real + pad) * (uint64_t)dim;
  if (l->mem == TSL_MEM_ACC) m->cnt[TSL_CNT_ACC_WR_BYTES] += (real + pad) * 4u * (uint64_t)dim;
  uint64_t rx = (uint64_t)(l->nx - l->pad_left - l->pad_right), ry = (uint64_t)(l->ny - l->pad_top - l->pad_bottom);
  uint64_t rb = (uint64_t)(l->n0 * e), run_rows = 0;
  uint64_t runs = real ? cost_runs(rx, ry, (uint64_t)l->nz, rb, (uint64_t)l->dram, (uint64_t)c->stride_x,
                                   (uint64_t)c->stride_y, (uint64_t)c->stride_z, &run_rows)
                       : 0;
  return cost_load(m->t, runs, run_rows * rb, real + pad);
}

/* The taps of one output pixel in the ISA's order (ky outer, kx inner),
 * walked by additions only: no multiply or divide per tap, since the
 * core-sequenced NPU runs these loops on an RV32 core (docs/npu-seq.md).
 * Coordinates and the byte offset stay int64 (`in` may be a virtual row and
 * iy0/ix0 far outside, docs/isa.md); a pointer is formed only for a tap
 * inside the image, whose rows the checks put in the SPAD. */
typedef struct {
  const npu_model_t *m;
  const tsl_cfg_exec_t *g;
  int64_t iy, ix, off;  /* the current tap: input row and column, SPAD byte offset of channel block 0 */
  int64_t ix0, off0;    /* the same at kx = 0 of the current ky */
  int64_t dxb, dyb;     /* byte steps of one kx and one ky */
  int kx, kw;           /* the current kx and the window's width (1..255) */
  int inside;           /* every tap of the window lies in the image: taps_row checks nothing */
} taps_t;

static void taps_start(taps_t *t, const npu_model_t *m, const tsl_cfg_exec_t *g, int64_t in, int64_t iy0,
                       int64_t ix0, int64_t y, int64_t x) {
  const int64_t dim = m->dim;
  t->m = m, t->g = g, t->kx = 0, t->kw = (int)g->kw;
  t->iy = iy0 + y * g->stride_y;
  t->ix = t->ix0 = ix0 + x * g->stride_x;
  t->off = t->off0 = (in + t->iy * g->in_pitch + t->ix) * dim;
  t->dxb = g->dil_x * dim, t->dyb = g->dil_y * g->in_pitch * dim;
  t->inside = t->iy >= 0 && t->iy + (g->kh - 1) * g->dil_y < g->in_h && t->ix >= 0 &&
              t->ix + (g->kw - 1) * g->dil_x < g->in_w;
}

/* The current tap's SPAD row of channel block 0, or NULL outside the image. */
static const int8_t *taps_row(const taps_t *t) {
  const tsl_cfg_exec_t *g = t->g;
  if (!t->inside && (t->iy < 0 || t->iy >= g->in_h || t->ix < 0 || t->ix >= g->in_w)) return NULL;
  return t->m->spad + t->off;
}

static void taps_next(taps_t *t) {
  if (++t->kx < t->kw) {
    t->ix += t->g->dil_x, t->off += t->dxb;
    return;
  }
  t->kx = 0, t->iy += t->g->dil_y;
  t->ix = t->ix0, t->off = t->off0 += t->dyb;
}

/* The tap and channel-block loops count in int (taps up to 255 x 255,
 * blocks up to 255: docs/isa.md CFG_EXEC) and a pixel's taps inside the
 * image in an int, added to the 64-bit total once per pixel: on the
 * core-sequenced NPU's RV32 core each 64-bit step is several instructions. */
static cost_t exec_matmul(npu_model_t *m, const tsl_matmul_t *c, const tsl_cfg_exec_t *g) {
  const int dim = m->dim, nt = (int)(g->kh * g->kw), nc = (int)g->ncb, dd = dim * dim;
  const int64_t ntap = nt, ncb = nc, cbb = g->cb_stride * dim;
  _Alignas(4) int8_t padrow[16]; /* halfword loads on the core-sequenced NPU */
  memset(padrow, (int)(int8_t)g->pad, sizeof padrow);
  uint64_t inside = 0;
  for (int64_t y = 0; y < c->oh; y++)
    for (int64_t x = 0; x < c->ow; x++) {
      int32_t *out = m->acc + (c->acc + y * g->out_pitch + x) * dim;
      uint32_t sum[16];
      for (int n = 0; n < dim; n++) sum[n] = c->acc_mode == TSL_ACCMODE_ACCUMULATE ? (uint32_t)out[n] : 0u;
      if (!m->timing_only) npu_dp_pixel_begin(sum, dim);
      const int8_t *w = m->spad + c->wgt * dim; /* weight rows: (tap, channel block) in order, DIM rows each */
      taps_t tp;
      taps_start(&tp, m, g, c->in, c->iy0, c->ix0, y, x);
      int nin = 0;
      for (int t = 0; t < nt; t++, taps_next(&tp)) {
        const int8_t *in = taps_row(&tp);
        nin += in != NULL;
        if (m->timing_only) continue;
        for (int cb = 0; cb < nc; cb++, w += dd) {
          npu_dp_tap(sum, in ? in : padrow, w, dim);
          if (in) in += cbb;
        }
      }
      inside += (uint64_t)nin * (uint64_t)ncb;
      if (!m->timing_only) {
        npu_dp_pixel_end(sum, dim);
        for (int n = 0; n < dim; n++) out[n] = (int32_t)sum[n];
      }
    }
  uint64_t rows = (uint64_t)(c->oh * c->ow), passes = (uint64_t)(ntap * ncb), d = (uint64_t)dim;
  m->cnt[TSL_CNT_MACS] += rows * passes * d * d;
  m->cnt[TSL_CNT_SPAD_RD_BYTES] += inside * d + passes * d * d;
  m->cnt[TSL_CNT_ACC_WR_BYTES] += passes * rows * 4 * d;
  m->cnt[TSL_CNT_ACC_RD_BYTES] += (passes - (c->acc_mode == TSL_ACCMODE_OVERWRITE)) * rows * 4 * d;
  return cost_matmul(m->t, rows, passes);
}

static cost_t exec_dwconv(npu_model_t *m, const tsl_dwconv_t *c, const tsl_cfg_exec_t *g) {
  const int dim = m->dim, nt = (int)(g->kh * g->kw);
  const int64_t ntap = nt;
  uint64_t inside = 0;
  for (int64_t y = 0; y < c->oh; y++)
    for (int64_t x = 0; x < c->ow; x++) {
      int32_t *out = m->acc + (c->acc + y * g->out_pitch + x) * dim;
      uint32_t sum[16];
      for (int n = 0; n < dim; n++) sum[n] = c->acc_mode == TSL_ACCMODE_ACCUMULATE ? (uint32_t)out[n] : 0u;
      const int8_t *w = m->spad + c->wgt * dim;
      taps_t tp;
      taps_start(&tp, m, g, c->in, c->iy0, c->ix0, y, x);
      int nin = 0;
      for (int t = 0; t < nt; t++, taps_next(&tp), w += dim) {
        const int8_t *in = taps_row(&tp);
        nin += in != NULL;
        if (m->timing_only) continue;
        for (int n = 0; n < dim; n++) sum[n] += (uint32_t)((in ? in[n] : (int32_t)(int8_t)g->pad) * w[n]);
      }
      inside += (uint64_t)nin;
      if (!m->timing_only)
        for (int n = 0; n < dim; n++) out[n] = (int32_t)sum[n];
    }
  uint64_t px = (uint64_t)(c->oh * c->ow), d = (uint64_t)dim;
  m->cnt[TSL_CNT_MACS] += px * (uint64_t)ntap * d;
  m->cnt[TSL_CNT_SPAD_RD_BYTES] += inside * d + (uint64_t)ntap * d;
  m->cnt[TSL_CNT_ACC_WR_BYTES] += px * 4 * d;
  if (c->acc_mode == TSL_ACCMODE_ACCUMULATE) m->cnt[TSL_CNT_ACC_RD_BYTES] += px * 4 * d;
  return cost_dwconv(m->t, (uint64_t)c->oh, (uint64_t)c->ow, (uint64_t)g->kh, (uint64_t)g->kw,
                     (uint64_t)g->stride_x, (uint64_t)g->dil_x);
}

static cost_t exec_vadd(npu_model_t *m, const tsl_vadd_t *c, const tsl_cfg_vec_t *v) {
  const int dim = m->dim;
  for (int64_t i = 0; i < c->rows && !m->timing_only; i++) {
    const int8_t *a = m->spad + (c->a + i) * dim, *b = m->spad + (c->b + i) * dim;
    int8_t tmp[16];
    for (int k = 0; k < dim; k++)
      tmp[k] = npu_vadd(a[k], b[k], (int8_t)v->zp_a, (int8_t)v->zp_b, (int32_t)v->mult_a, (int32_t)v->mult_b,
                        (unsigned)v->shift, (int8_t)v->zp_out, (int8_t)v->lo, (int8_t)v->hi);
    memcpy(m->spad + (c->out + i) * dim, tmp, (size_t)dim);
  }
  m->cnt[TSL_CNT_SPAD_RD_BYTES] += 2 * (uint64_t)c->rows * (uint64_t)dim;
  m->cnt[TSL_CNT_SPAD_WR_BYTES] += (uint64_t)c->rows * (uint64_t)dim;
  return cost_vadd(m->t, (uint64_t)c->rows);
}

static cost_t exec_vpool(npu_model_t *m, const tsl_vpool_t *c, const tsl_cfg_exec_t *g, const tsl_cfg_vec_t *v) {
  const int dim = m->dim;
  const int64_t ntap = g->kh * g->kw;
  uint64_t inside = 0;
  for (int64_t y = 0; y < c->oh; y++)
    for (int64_t x = 0; x < c->ow; x++) {
      int64_t sum[16] = {0};
      int64_t cnt = 0;
      taps_t tp;
      taps_start(&tp, m, g, c->in, c->iy0, c->ix0, y, x);
      for (int64_t t = 0; t < ntap; t++, taps_next(&tp)) {
        const int8_t *in = taps_row(&tp);
        if (!in) continue;
        cnt++;
        for (int k = 0; k < dim && !m->timing_only; k++) sum[k] += (int64_t)in[k] - v->zp_a;
      }
      inside += (uint64_t)cnt;
      if (m->timing_only) continue;
      if (!c->exclude_pad) cnt = ntap;
      int8_t *out = m->spad + (c->out + y * g->out_pitch + x) * dim;
      for (int k = 0; k < dim; k++)
        out[k] = npu_avgpool(sum[k], cnt, (int32_t)v->mult_a, (unsigned)v->shift, (int8_t)v->zp_out,
                             (int8_t)v->lo, (int8_t)v->hi);
    }
  uint64_t outs = (uint64_t)(c->oh * c->ow);
  m->cnt[TSL_CNT_SPAD_RD_BYTES] += inside * (uint64_t)dim;
  m->cnt[TSL_CNT_SPAD_WR_BYTES] += outs * (uint64_t)dim;
  /* a cycle for every tap of the window, inside the image or not, as the
   * RTL walks them (and as the work above grows) */
  return cost_vpool(m->t, outs, outs * (uint64_t)ntap, (uint64_t)v->shift);
}

/* One source pixel through the epilogue ep (ACC) or as is (SPAD), into v[]. */
static void store_value(npu_model_t *m, const tsl_store_t *s, const npu_dp_epi *ep, int64_t row, int32_t *v) {
  const int dim = m->dim;
  if (s->src_mem == TSL_SRC_SPAD) {
    for (int k = 0; k < dim; k++) v[k] = m->spad[row * dim + k];
    return;
  }
  const int32_t *a = m->acc + row * dim;
  if (s->raw) {
    for (int k = 0; k < dim; k++) v[k] = a[k];
    return;
  }
  for (int k = 0; k < dim; k++) v[k] = npu_dp_requant(ep, k, a[k]);
}

static cost_t exec_store(npu_model_t *m, const tsl_store_t *s, const npu_cfg_t *c) {
  const int dim = m->dim;
  const tsl_cfg_epi_t *e = &c->epi;
  const int64_t pitch = c->store.src_pitch;
  npu_dp_epi ep = {0};
  if (!m->timing_only && s->src_mem == TSL_SRC_ACC && !s->raw)
    npu_dp_epi_begin(&ep, m->param + s->param * 9 * dim, dim, (int8_t)e->zp_out, (int8_t)e->lo, (int8_t)e->hi);
  /* source rows read, as often as read: a pixel's one, or its window's inside taps */
  uint64_t src_rows = e->pool_k ? 0 : (uint64_t)(s->oh * s->ow);
  for (int64_t y = 0; y < s->oh; y++)
    for (int64_t x = 0; x < s->ow; x++) {
      int32_t v[16], w[16];
      if (e->pool_k == 0) {
        if (m->timing_only) continue;
        int64_t r = s->src_row + y * pitch + x;
        store_value(m, s, &ep, r, v);
      } else {
        int32_t none = s->src_mem == TSL_SRC_ACC ? (int32_t)e->lo : -128;
        int any = 0;
        for (int k = 0; k < dim; k++) v[k] = none;
        for (int64_t i = 0; i < e->pool_k; i++)
          for (int64_t j = 0; j < e->pool_k; j++) {
            int64_t sy = y * e->pool_s - e->pool_pad_t + i, sx = x * e->pool_s - e->pool_pad_l + j;
            if (sy < 0 || sy >= e->src_h || sx < 0 || sx >= e->src_w) continue;
            int64_t r = s->src_row + sy * pitch + sx;
            src_rows++;
            if (m->timing_only) continue;
            store_value(m, s, &ep, r, w);
            for (int k = 0; k < dim; k++)
              if (!any || w[k] > v[k]) v[k] = w[k];
            any = 1;
          }
      }
      if (m->timing_only) continue;
      if (s->dst_mem == TSL_DST_SPAD) {
        int8_t *out = m->spad + (s->dst_row + y * c->store.spad_pitch + x) * dim;
        for (int k = 0; k < dim; k++) out[k] = k < s->n0 ? (int8_t)v[k] : (int8_t)e->zp_out;
      } else {
        uint8_t *out = m->dram + s->dram + y * c->store.stride_y + x * c->store.stride_x;
        for (int k = 0; k < s->n0; k++) {
          if (s->raw) wr32(out + 4 * k, v[k]);
          else out[k] = (uint8_t)(int8_t)v[k];
        }
      }
    }
  uint64_t px = (uint64_t)(s->oh * s->ow), d = (uint64_t)dim;
  if (s->src_mem == TSL_SRC_ACC) m->cnt[TSL_CNT_ACC_RD_BYTES] += src_rows * 4 * d;
  else m->cnt[TSL_CNT_SPAD_RD_BYTES] += src_rows * d;
  uint64_t bpp = (uint64_t)s->n0 * (s->raw ? 4u : 1u);
  if (s->dst_mem == TSL_DST_SPAD) m->cnt[TSL_CNT_SPAD_WR_BYTES] += px * d;
  else m->cnt[TSL_CNT_DRAM_WR_BYTES] += px * bpp;
  return cost_store(m->t, (uint64_t)s->oh, (uint64_t)s->ow, (uint64_t)e->pool_k,
                    s->dst_mem == TSL_DST_SPAD ? 0 : bpp, s->src_mem == TSL_SRC_SPAD, s->raw);
}

cost_t npu_exec(npu_model_t *m, const npu_qcmd_t *q) {
  switch (q->op) {
  case TSL_OP_LOAD: return exec_load(m, &q->u.load, &q->cfg.load);
  case TSL_OP_MATMUL: return exec_matmul(m, &q->u.mm, &q->cfg.exec);
  case TSL_OP_DWCONV: return exec_dwconv(m, &q->u.dw, &q->cfg.exec);
  case TSL_OP_VADD: return exec_vadd(m, &q->u.vadd, &q->cfg.vec);
  case TSL_OP_VPOOL: return exec_vpool(m, &q->u.vpool, &q->cfg.exec, &q->cfg.vec);
  case TSL_OP_STORE: return exec_store(m, &q->u.store, &q->cfg);
  default: return cost_config(m->t); /* CFG_*, ENOP: nothing to do */
  }
}
