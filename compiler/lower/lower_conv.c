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
 *  3. per output row tile, group of G output blocks and column tile (an
 *     output wider than 255 is cut into equal column tiles): a hardware LOOP of
 *     MATMULs into one of two ACC buffers, then a LOOP of STOREs; tokens
 *     EXEC->STORE (tile ready) and STORE->EXEC (buffer free, pre-charged 2G),
 *     so the epilogue of one group overlaps the MATMULs of the next;
 *  4. weights that do not fit at once are reloaded per chunk: after a MARK
 *     (one buffer), or into two buffers alternately, the next chunk loading
 *     while this one computes (EXEC->LOAD tokens from ENOPs; docs/lowering.md,
 *     "Weight reloads").
 * The tiling (row tile, blocks per loop, chunk, order, buffers) is the tuned
 * schedule's, the forced knobs', or by default the cheapest of a grid of
 * tilings, each emitted and priced by the cost model (emit_cheapest). */
#include <stdlib.h>
#include <string.h>

#include "cost_model.h"
#include "lower_internal.h"


enum { MAX_NCB = 255 }; /* CFG_EXEC's ncb field: more input blocks take several MATMULs */

/* Whether a packed input's conv has border columns (lower_packed). */
static int has_border(const lower_packed *pk) { return pk->left || pk->right; }

/* Weight rows per output block: per tap, its input blocks' DIM rows
 * (depthwise: one row per tap); a packed input's border columns add their
 * kh x kw taps of one block. */
static int64_t ob_rows(const lower_conv_geom *g, int64_t ncb, int64_t dim) {
  if (g->depthwise) return g->kh * g->kw;
  return g->kh * g->kw * ncb * dim + (has_border(&g->pk) ? g->kh * g->pk.kw * dim : 0);
}

/* Weight of output m, input c (global), tap t, with groups expanded densely. */
static int wval(const lower_conv_geom *g, int64_t m, int64_t c, int64_t t) {
  int64_t cg = g->c / g->group, mg = g->m / g->group;
  if (m >= g->m || c >= g->c || c / cg != m / mg) return 0;
  return g->wgt[(m * cg + c % cg) * g->kh * g->kw + t];
}

/* Step 1: the PARAM rows (9*DIM bytes per output block). */
int64_t lower_conv_params(lower_program *p, const lower_conv_geom *g, int64_t nob, int dim) {
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
int64_t lower_conv_weights(lower_program *p, const lower_conv_geom *g, int64_t nob, int64_t ncb, int64_t chunk,
                           int dim, int64_t *rows) {
  int64_t taps = g->kh * g->kw;
  *rows = nob * ob_rows(g, ncb, dim);
  uint64_t n = (uint64_t)*rows * dim;
  int8_t *buf = calloc(n, 1);
  if (!buf) return -1;
  if (g->depthwise) {
    for (int64_t ch = 0; ch < g->m; ch++)
      for (int64_t t = 0; t < taps; t++) buf[((ch / dim) * taps + t) * dim + ch % dim] = g->wgt[ch * taps + t];
  } else {
    /* Per output block, per chunk of at most `chunk` input blocks (one MATMUL
     * each): the chunk's taps, each with its input blocks; a packed input's
     * border columns: the conv's own kh x kw taps, lane k channel k. */
    const lower_packed *pk = &g->pk;
    int64_t row = 0;
    for (int64_t ob = 0; ob < nob; ob++) {
      for (int64_t cb0 = 0; cb0 < ncb; cb0 += chunk)
        for (int64_t t = 0; t < taps; t++)
          for (int64_t cb = cb0; cb < ncb && cb < cb0 + chunk; cb++)
            for (int k = 0; k < dim; k++, row++)
              for (int nn = 0; nn < dim; nn++)
                buf[row * dim + nn] = (int8_t)wval(g, ob * dim + nn, cb * dim + k, t);
      for (int64_t t = 0; has_border(pk) && t < g->kh * pk->kw; t++)
        for (int k = 0; k < dim; k++, row++)
          for (int nn = 0; nn < dim; nn++) {
            int64_t m = ob * dim + nn;
            if (m < g->m && k < pk->c) buf[row * dim + nn] = pk->wgt[(m * pk->c + k) * g->kh * pk->kw + t];
          }
    }
  }
  int64_t off = lower_consts_add(p, buf, n);
  free(buf);
  return off;
}

/* SPAD rows and DRAM bytes of `lines` input lines: every channel block's
 * plane; a packed input's one plane of the interior's rows (its blocks are
 * consecutive rows) and its border columns, a pixel a row. */
static int64_t in_rows_of(const lower_conv_geom *g, int64_t ncb, int64_t lines) {
  return g->pk.line ? lines * (g->w + g->pk.cl + g->pk.cr) : ncb * lines * g->w;
}
static int64_t in_bytes_of(const lower_conv_geom *g, int64_t ncb, int64_t lines, int64_t dim) {
  return g->pk.line ? lines * (g->w * dim + (g->pk.cl + g->pk.cr) * g->pk.b) : ncb * lines * g->w * dim;
}

/* Input rows [*lo, *hi] an output row tile [oy0, oy0+oh) reads (clamped to the image). */
void lower_conv_in_rows(const lower_conv_geom *g, int64_t oy0, int64_t oh, int64_t *lo, int64_t *hi) {
  *lo = oy0 * g->sy - g->pt;
  *hi = (oy0 + oh - 1) * g->sy - g->pt + (g->kh - 1) * g->dy;
  if (*lo < 0) *lo = 0;
  if (*hi > g->h - 1) *hi = g->h - 1;
  if (*lo > g->h - 1) *lo = g->h - 1; /* a tile wholly in the padding still loads one line */
  if (*hi < *lo) *hi = *lo;
}

/* The tiling of a conv: output row tiles, weight chunks, loop order. */
typedef struct {
  int64_t oh_t;     /* output rows per tile */
  int64_t in_rows;  /* input lines a tile needs at most (h when the input is resident) */
  int64_t gw;       /* output channel blocks per weight chunk (resident weights) */
  int64_t G;        /* output channel blocks per hardware loop (ACC tokens) */
  int64_t ow_t;     /* output columns per tile (STORE's ow is at most 255: column tiles) */
  int rows_outer;   /* 1: for each row tile, every chunk (weights reloaded); 0: for each chunk, every tile */
  int wbuf;         /* weight buffers: 1 (a reload waits at a MARK), 2 (the next chunk loads while this one runs) */
} conv_tiling;

static int64_t max_in_rows(const lower_conv_geom *g, int64_t oh_t) {
  int64_t best = 0;
  for (int64_t oy0 = 0; oy0 < g->oh; oy0 += oh_t) {
    int64_t lo, hi, oh = g->oh - oy0 < oh_t ? g->oh - oy0 : oh_t;
    lower_conv_in_rows(g, oy0, oh, &lo, &hi);
    if (hi - lo + 1 > best) best = hi - lo + 1;
  }
  return best;
}

/* Chooses the tiling: the largest weight chunk and row tile that fit the
 * scratchpad, accumulator and PARAM rows (forced knobs first), and the loop
 * order with the smaller DRAM time by the cost model. 0, or -1 if nothing fits. */
static int choose_tiling(const tsl_target_t *tg, const lower_conv_geom *g, const lower_sched *ks, int64_t ncb,
                         int64_t nob, int64_t per_ob, int64_t need_oh, conv_tiling *t) {
  /* The working set lives below spad_limit (resident tensors sit above it);
   * a resident input costs no working rows and is never reloaded. */
  const int64_t limit = g->spad_limit > 0 ? g->spad_limit : tg->spad_rows;
  const int dim = (int)tg->dim;
  int64_t gmax = ks->ob_group > 0 ? ks->ob_group : 7;
  if (gmax > tg->token_max / 2) gmax = tg->token_max / 2;
  if (gmax > nob) gmax = nob;
  if (gmax > tg->param_rows) gmax = tg->param_rows;
  /* Most blocks per hardware loop first; for each, the largest row tile whose
   * input lines leave room for at least that many blocks of weights.  Column
   * tiles of equal width, at most 255 (STORE's ow); only when that fits
   * nothing (cut 1), narrower ones so two ACC tiles of G blocks of one line
   * fit.  A fused pool needs the whole width. */
  for (int cut = 0; cut < 2; cut++)
  for (int64_t G = gmax; G >= 1; G--) {
    int64_t ow_max = cut ? tg->acc_rows / (2 * G) : 255;
    if (ow_max > 255) ow_max = 255;
    if (ow_max < 1 || (g->pool_k && ow_max < g->ow)) continue;
    const int64_t ncol = (g->ow + ow_max - 1) / ow_max, ow_t = (g->ow + ncol - 1) / ncol;
    if (g->pk.line && ncol > 1) continue; /* a packed input's columns are one tile */
    int64_t oh_max = tg->acc_rows / (2 * G * ow_t);
    if (oh_max > 255) oh_max = 255;
    if (oh_max > g->oh) oh_max = g->oh;
    if (ks->oh_tile > 0 && ks->oh_tile < oh_max) oh_max = ks->oh_tile;
    if (oh_max < need_oh) continue; /* a fused pool needs this many rows in one tile */
    for (int64_t oh_t = oh_max; oh_t >= (need_oh ? need_oh : 1); oh_t--) {
      int64_t rows = g->in_spad >= 0 ? g->h : max_in_rows(g, oh_t), in_sp = g->in_spad >= 0 ? 0 : in_rows_of(g, ncb, rows);
      /* Two weight buffers when the weights are reloaded and the input is
       * not: it is loaded once (resident, or whole); otherwise one buffer,
       * and a MARK before each reload. */
      const int64_t room = (limit - in_sp) / per_ob;
      const int two_ok = g->in_spad >= 0 || rows == g->h;
      int64_t cap = room < tg->param_rows ? room : tg->param_rows; /* blocks per load */
      if (ks->ob_chunk > 0 && ks->ob_chunk < cap) cap = ks->ob_chunk;
      int wbuf = ks->wbuf ? ks->wbuf : cap < nob ? 2 : 1; /* by default two where the weights reload */
      if (!two_ok || room < 2) wbuf = 1;                  /* the knob is an upper bound, as the others */
      int64_t gw = room / wbuf;
      if (gw > nob) gw = nob;
      if (gw > tg->param_rows) gw = tg->param_rows;
      if (ks->ob_chunk > 0 && ks->ob_chunk < gw) gw = ks->ob_chunk;
      if (gw < G) continue;
      gw -= gw % G; /* whole hardware-loop groups */
      t->oh_t = oh_t, t->in_rows = rows, t->gw = gw, t->G = G, t->ow_t = ow_t, t->wbuf = wbuf;
      /* Loop order: rows outer reloads the weights per tile, chunks outer the input per chunk. */
      int64_t ntiles = (g->oh + oh_t - 1) / oh_t, nchunks = (nob + gw - 1) / gw;
      uint64_t wbytes = (uint64_t)(nob * per_ob * dim), ibytes = (uint64_t)in_bytes_of(g, ncb, g->h, dim);
      uint64_t tile_in = (uint64_t)in_bytes_of(g, ncb, rows, dim);
      uint64_t rows_outer = cost_dram_cycles(tg, 1, ibytes) + (uint64_t)ntiles * cost_dram_cycles(tg, 1, wbytes);
      uint64_t chunks_outer = cost_dram_cycles(tg, 1, wbytes) +
                              (uint64_t)(ntiles > 1 ? nchunks * ntiles : 1) * cost_dram_cycles(tg, 1, tile_in);
      if (nchunks == 1) rows_outer = 1, chunks_outer = 2; /* weights resident: loaded once */
      t->rows_outer = ks->order ? ks->order == 1 : rows_outer <= chunks_outer;
      return 0;
    }
  }
  return -1;
}

int64_t lower_conv_load_bytes(const tsl_target_t *tg, const lower_conv_geom *g, const lower_sched *ks, int64_t ncb,
                              int64_t nob) {
  conv_tiling t;
  const int64_t dim = tg->dim, per_ob = ob_rows(g, ncb, dim);
  if (choose_tiling(tg, g, ks, ncb, nob, per_ob, g->pool_k ? g->oh : 0, &t)) return -1;
  const int64_t ntiles = (g->oh + t.oh_t - 1) / t.oh_t, nchunks = (nob + t.gw - 1) / t.gw;
  const int64_t wbytes = nob * per_ob * dim + nob * 9 * dim;
  int64_t in_once = 0; /* the input lines of every tile, once */
  if (g->in_spad < 0) {
    if (t.in_rows == g->h) in_once = in_bytes_of(g, ncb, g->h, dim);
    else
      for (int64_t oy0 = 0; oy0 < g->oh; oy0 += t.oh_t) {
        int64_t lo, hi;
        lower_conv_in_rows(g, oy0, g->oh - oy0 < t.oh_t ? g->oh - oy0 : t.oh_t, &lo, &hi);
        in_once += in_bytes_of(g, ncb, hi - lo + 1, dim);
      }
  }
  int input_tiled = g->in_spad < 0 && t.in_rows != g->h;
  if (t.rows_outer) return in_once + (nchunks > 1 ? ntiles : 1) * wbytes;
  return wbytes + (input_tiled ? nchunks : 1) * in_once;
}

/* The epilogue's configuration, giving EXEC one STORE->EXEC token ("an ACC
 * slot is free"): the prologue's pre-charge, and a group of fewer than G
 * blocks gives the tokens of its missing blocks with it (emit). */
static void emit_epi(lower_stream *s, const lower_conv_geom *g) {
  LOWER_EMIT(s, cfg_epi, .push_prev = 1, .zp_out = g->zy, .lo = g->lo, .hi = g->hi, .pool_k = g->pool_k,
             .pool_s = g->pool_k ? g->pool_s : 0, .pool_pad_t = g->pool_pt, .pool_pad_l = g->pool_pl,
             .src_h = g->pool_k ? g->oh : 0, .src_w = g->pool_k ? g->ow : 0);
}

/* Steps 2 and 3: k's stream for tiling t (PARAM rows at poff, weights at
 * woff), with k's schedule, tiles and memory use. 0, or -1 with d set. */
static int emit(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
                const lower_conv_geom *g, const conv_tiling *tp, int64_t poff, int64_t woff, diag *d) {
  const tsl_target_t *tg = p->target;
  const int dim = (int)tg->dim;
  const int64_t ncb = x->blocks, nob = y->blocks, taps = g->kh * g->kw;
  const int64_t per_ob = ob_rows(g, ncb, dim);
  const lower_packed *pk = &g->pk;
  const int border = has_border(pk);
  const conv_tiling t = *tp;
  lower_stream *s = &k->stream;
  k->sched.oh_tile = (int)t.oh_t;
  k->sched.ob_group = (int)t.G;
  k->sched.ob_chunk = (int)t.gw;
  k->sched.order = t.rows_outer ? 1 : 2;
  k->sched.wbuf = t.wbuf;
  k->ow_tile = t.ow_t < g->ow ? (int)t.ow_t : 0;
  const int64_t T = t.oh_t * t.ow_t;            /* ACC rows per output block tile */
  const int64_t ncol = (g->ow + t.ow_t - 1) / t.ow_t;
  /* SPAD: input tile from row 0 (unless resident; a packed input's border
   * columns after its interior: lbase, rbase), weights after it. */
  const int64_t wbase = g->in_spad >= 0 ? 0 : in_rows_of(g, ncb, t.in_rows);
  const int64_t lbase = t.in_rows * g->w, rbase = lbase + t.in_rows * pk->cl;
  k->spad_rows_used = wbase + t.wbuf * t.gw * per_ob;
  k->acc_rows_used = 2 * t.G * T;
  /* Two weight buffers: PARAM rows for windows of whole chunks, up to param_rows blocks. */
  const int64_t cpw = t.wbuf == 2 ? tg->param_rows / t.gw : 1; /* chunks per PARAM window */
  k->param_rows_used = t.wbuf == 1 ? t.gw : cpw * t.gw < nob ? cpw * t.gw : nob;

  /* Step 2/3 prologue: stores configured, the two ACC buffers pre-charged as free. */
  LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
  /* The stored image: the conv output, or its max pool (y's shape) when fused. */
  const int64_t sh = g->pool_k ? y->h : g->oh, sw = g->pool_k ? y->w : g->ow;
  LOWER_EMIT(s, cfg_store, .src_pitch = t.ow_t, .stride_x = dim, .stride_y = sw * dim, .spad_pitch = sw);
  LOWER_EMIT(s, loop, .count = 2 * t.G, .body = 1);
  emit_epi(s, g);
  const int64_t plane = sh * sw * dim; /* DRAM bytes of one output channel block */
  const int64_t ntiles = (g->oh + t.oh_t - 1) / t.oh_t, nchunks = (nob + t.gw - 1) / t.gw;
  /* Two weight buffers: the PARAM rows of a window (cpw chunks) are loaded
   * before its first chunk, after a MARK when they replace another window's.
   * Within a window's run of loads, load i goes to buffer i % 2 and from the
   * third on waits for the EXEC->LOAD token an ENOP gives when the MATMULs
   * of load i - 2 are done (the ENOP is put where load i - 1 starts), so
   * load i + 1 streams while load i computes.  One window: a single run over
   * every tile; several: a run per window's visit. */
  const int64_t nwin = (nchunks + cpw - 1) / cpw;
  const int64_t reloads = t.rows_outer && nchunks > 1 ? ntiles * nchunks : nchunks;
  int64_t nload = 0, wrow = wbase, win = -1, pbase = 0, run_i = 0, run_n = 0;
  int64_t step = 0, loaded_tile = -1, loaded_chunk = -1;
  int exec_border = 0; /* CFG_EXEC holds a border's geometry: the interior's again before its MATMULs */
  for (int64_t outer = 0; outer < (t.rows_outer ? ntiles : nchunks); outer++)
    for (int64_t inner = 0; inner < (t.rows_outer ? nchunks : ntiles); inner++) {
      int64_t r = t.rows_outer ? outer : inner, j = t.rows_outer ? inner : outer;
      int64_t oy0 = r * t.oh_t, oh = g->oh - oy0 < t.oh_t ? g->oh - oy0 : t.oh_t;
      int64_t c0 = j * t.gw, ccnt = nob - c0 < t.gw ? nob - c0 : t.gw;
      int64_t lo, hi;
      lower_conv_in_rows(g, oy0, oh, &lo, &hi);
      if (t.in_rows == g->h) lo = 0, hi = g->h - 1; /* resident input: loaded once, whole */
      int need_in = g->in_spad >= 0 ? 0 : t.in_rows == g->h ? loaded_tile < 0 : loaded_tile != r;
      int need_w = loaded_chunk != j;
      if (g->in_spad >= 0 && loaded_tile < 0) loaded_tile = r; /* resident: "loaded" from the start */
      if (need_in || need_w) {
        /* A reload overwrites what earlier commands read: MARK waits for them
         * (with two weight buffers, the token from the ENOP two loads back). */
        const int two = t.wbuf == 2;
        const int64_t w = j / cpw;
        if (two && need_w) {
          run_i = nwin == 1 ? nload : j - w * cpw;
          run_n = nwin == 1 ? reloads : nchunks - w * cpw < cpw ? nchunks - w * cpw : cpw;
        }
        if (two && need_w && run_i > 0 && run_i + 1 < run_n) LOWER_EMIT(s, enop, .push_prev = 1);
        if (loaded_tile >= 0 && (!two || (need_w && w != win)))
          LOWER_EMIT(s, mark, .kernel = (k - p->kernels) & 0xFFFF);
        if (two && need_w && w != win) {
          pbase = w * cpw * t.gw;
          LOWER_EMIT(s, cfg_load, .stride_x = 9 * dim);
          LOWER_EMIT(s, load, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = poff + pbase * 9 * dim, .row = 0,
                     .nx = nob - pbase < cpw * t.gw ? nob - pbase : cpw * t.gw, .ny = 1, .nz = 1);
          win = w;
        }
        if (need_in) {
          /* A packed input: each line's interior bytes in rows of DIM, then
           * its border columns a pixel (b lanes, the rest zx) a row. */
          const int64_t line = pk->line ? pk->line : g->w * dim, nl = hi - lo + 1;
          const int64_t xdram = (int64_t)(x->dram + x->pack_off); /* pixel (0, 0) */
          LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = line, .stride_z = g->h * g->w * dim);
          /* The last LOAD gives EXEC the one LOAD->EXEC token. */
          LOWER_EMIT(s, load, .push_next = !need_w && !border, .mem = TSL_MEM_SPAD, .n0 = dim, .pad = g->zx,
                     .dram = xdram + lo * line + pk->x0, .row = 0, .nx = g->w, .ny = nl,
                     .nz = pk->line ? 1 : ncb);
          if (border) LOWER_EMIT(s, cfg_load, .stride_x = pk->b, .stride_y = line);
          if (pk->cl)
            LOWER_EMIT(s, load, .push_next = !need_w && !pk->cr, .mem = TSL_MEM_SPAD, .n0 = pk->b, .pad = g->zx,
                       .dram = xdram + lo * line, .row = lbase, .nx = pk->cl, .ny = nl, .nz = 1);
          if (pk->cr)
            LOWER_EMIT(s, load, .push_next = !need_w, .mem = TSL_MEM_SPAD, .n0 = pk->b, .pad = g->zx,
                       .dram = xdram + lo * line + pk->cr0 * pk->b, .row = rbase, .nx = pk->cr, .ny = nl,
                       .nz = 1);
        }
        if (need_w) {
          const int wait = two && run_i >= 2;
          wrow = wbase + (two ? run_i % 2 : 0) * t.gw * per_ob;
          LOWER_EMIT(s, cfg_load, .stride_x = dim, .stride_y = dim * dim, .stride_z = per_ob * dim);
          if (g->depthwise)
            LOWER_EMIT(s, load, .pop_next = wait, .push_next = two, .mem = TSL_MEM_SPAD, .n0 = dim,
                       .dram = woff + c0 * per_ob * dim, .row = wrow, .nx = taps, .ny = 1, .nz = ccnt);
          else
            LOWER_EMIT(s, load, .pop_next = wait, .push_next = two, .mem = TSL_MEM_SPAD, .n0 = dim,
                       .dram = woff + c0 * per_ob * dim, .row = wrow, .nx = dim, .ny = per_ob / dim, .nz = ccnt);
          if (!two) {
            LOWER_EMIT(s, cfg_load, .stride_x = 9 * dim);
            LOWER_EMIT(s, load, .push_next = 1, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = poff + c0 * 9 * dim, .row = 0,
                       .nx = ccnt, .ny = 1, .nz = 1);
          }
          nload++;
        }
        loaded_tile = r, loaded_chunk = j;
      }
      const int64_t cb_stride = pk->line ? 1 : (hi - lo + 1) * g->w, nl = hi - lo + 1;
      if (need_in || need_w) {
        LOWER_EMIT(s, cfg_exec, .pop_prev = 1, .out_pitch = t.ow_t, .kh = g->kh, .kw = g->kw,
                   .ncb = g->depthwise ? 1 : (ncb < MAX_NCB ? ncb : MAX_NCB), .pad = g->zx, .stride_y = g->sy,
                   .stride_x = g->sx, .dil_y = g->dy,
                   .dil_x = g->dx, .in_h = nl, .in_w = g->w, .in_pitch = g->w, .cb_stride = cb_stride);
        exec_border = 0;
      }
      const int64_t in0 = g->in_spad >= 0 ? g->in_spad : 0; /* SPAD row of the input's pixel (0,0), block 0 */
      /* Per group of G output blocks and column tile: one ACC buffer each, alternating. */
      for (int64_t ob0 = c0; ob0 < c0 + ccnt; ob0 += t.G)
      for (int64_t cx = 0; cx < ncol; cx++, step++) {
        int64_t cnt = c0 + ccnt - ob0 < t.G ? c0 + ccnt - ob0 : t.G, accb = (step % 2) * t.G * T;
        int64_t ox0 = cx * t.ow_t, ow = g->ow - ox0 < t.ow_t ? g->ow - ox0 : t.ow_t;
        int64_t iy0 = oy0 * g->sy - g->pt - lo, ix0 = ox0 * g->sx - g->pl;
        if (g->depthwise) {
          LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_b = cb_stride, .stride_c = T, .stride_d = taps);
          LOWER_EMIT(s, dwconv, .pop_next = 1, .push_next = 1, .oh = oh, .ow = ow, .in = in0 + ob0 * cb_stride,
                     .wgt = wrow + (ob0 - c0) * taps, .acc = accb, .iy0 = iy0, .ix0 = ix0);
        } else {
          /* Over MAX_NCB input blocks: one MATMUL per chunk, accumulating. */
          for (int64_t cb0 = 0; cb0 < ncb; cb0 += MAX_NCB) {
            int64_t nq = ncb - cb0 < MAX_NCB ? ncb - cb0 : MAX_NCB, last = cb0 + nq == ncb;
            if (ncb > MAX_NCB || exec_border) {
              LOWER_EMIT(s, cfg_exec, .out_pitch = t.ow_t, .kh = g->kh, .kw = g->kw, .ncb = nq, .pad = g->zx,
                         .stride_y = g->sy, .stride_x = g->sx, .dil_y = g->dy, .dil_x = g->dx, .in_h = nl,
                         .in_w = g->w, .in_pitch = g->w, .cb_stride = cb_stride);
              exec_border = 0;
            }
            LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = T, .stride_d = per_ob);
            LOWER_EMIT(s, matmul, .pop_next = cb0 == 0, .push_next = last && !border, .acc_mode = cb0 > 0,
                       .oh = oh, .ow = ow - pk->left - pk->right, .in = in0 + cb0 * cb_stride,
                       .wgt = wrow + (ob0 - c0) * per_ob + g->kh * g->kw * cb0 * dim, .acc = accb + pk->left,
                       .iy0 = iy0, .ix0 = ix0);
          }
          /* A packed input's border columns (one column tile): the conv
           * itself over their pixels, left then right; the last pushes. */
          for (int side = 0; side < 2 && border; side++) {
            const int64_t n = side ? pk->right : pk->left, cols = side ? pk->cr : pk->cl;
            if (!n) continue;
            LOWER_EMIT(s, cfg_exec, .out_pitch = t.ow_t, .kh = g->kh, .kw = pk->kw, .ncb = 1, .pad = g->zx,
                       .stride_y = g->sy, .stride_x = pk->sx, .dil_y = g->dy, .dil_x = 1, .in_h = nl, .in_w = cols,
                       .in_pitch = cols, .cb_stride = 1);
            LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = T, .stride_d = per_ob);
            LOWER_EMIT(s, matmul, .push_next = side || !pk->right, .oh = oh, .ow = n, .in = side ? rbase : lbase,
                       .wgt = wrow + (ob0 - c0) * per_ob + g->kh * ncb * dim, .acc = accb + (side ? g->ow - n : 0),
                       .iy0 = iy0, .ix0 = side ? 0 : -pk->pl);
            exec_border = 1;
          }
        }
        /* The ACC tokens count slots, not names: each group takes and gives
         * G of them, so group s's MATMULs wait for the STOREs of group s-2,
         * the last user of its buffer. A group of cnt < G blocks (a chunk's
         * last) takes the other G - cnt with ENOPs after its MATMULs and
         * gives them with CFG_EPIs after its STOREs; without them the next
         * groups' MATMULs would take the tokens of other slots than their
         * own and overwrite a slot whose STORE had not read it (the RTL runs
         * the queues side by side). */
        if (cnt < t.G) {
          LOWER_EMIT(s, loop, .count = t.G - cnt, .body = 1);
          LOWER_EMIT(s, enop, .pop_next = 1);
        }
        /* To DRAM, or into the SPAD rows where the next kernel reads it (resident). */
        const int64_t prow = sh * sw; /* SPAD rows of one output block */
        LOWER_EMIT(s, lstride, .stride_g = g->out_spad >= 0 ? 0 : plane, .stride_h = g->out_spad >= 0 ? prow : 0);
        LOWER_EMIT(s, loop, .count = cnt, .body = 1, .stride_c = T, .stride_d = 1);
        LOWER_EMIT(s, store, .pop_prev = 1, .push_prev = 1, .src_mem = TSL_SRC_ACC,
                   .dst_mem = g->out_spad >= 0 ? TSL_DST_SPAD : TSL_DST_DRAM, .n0 = dim, .oh = g->pool_k ? sh : oh,
                   .ow = g->pool_k ? sw : ow,
                   .dram = g->out_spad >= 0 ? 0 : (int64_t)y->dram + ob0 * plane + (oy0 * sw + ox0) * dim,
                   .dst_row = g->out_spad >= 0 ? g->out_spad + ob0 * prow + oy0 * sw + ox0 : 0, .src_row = accb,
                   .param = ob0 - (t.wbuf == 2 ? pbase : c0));
        if (cnt < t.G) {
          LOWER_EMIT(s, loop, .count = t.G - cnt, .body = 1);
          emit_epi(s, g);
        }
      }
    }
  if (s->bad) return ir_node_error(d, k->node, "a command field is out of range for %s (a dimension, stride or "
                                   "dilation beyond the ISA's limits) or out of memory", tg->name);
  if (nload != reloads) return ir_node_error(d, k->node, "internal: %lld weight loads, %lld counted for the tokens",
                                             (long long)nload, (long long)reloads);
  return 0;
}

static int same_tiling(const conv_tiling *a, const conv_tiling *b) {
  return a->oh_t == b->oh_t && a->in_rows == b->in_rows && a->gw == b->gw && a->G == b->G && a->ow_t == b->ow_t &&
         a->rows_outer == b->rows_outer && a->wbuf == b->wbuf;
}

/* The cycles the fetch of an n-command stream adds before its kernel runs
 * (shared/tfw_exec.c, fetch_ahead): the NPU fetches it while the previous
 * NPU kernel runs (prev_est cycles, prev_n commands) when both fit the
 * command SRAM, else after that kernel (and so for a first kernel). The
 * fetch takes turns with that kernel's LOADs on the memory port, so only
 * half its time counts as hiding it (squeezenet1_1's classifier: a fetch
 * priced at 24.1 k cycles behind a 24.2 k kernel waited 5.7 k more). */
static uint64_t fetch_exposed(const tsl_target_t *tg, uint64_t n, uint64_t prev_n, uint64_t prev_est) {
  const uint64_t f = cost_fetch_cycles(tg, n);
  if (!prev_n || prev_n + n > (uint64_t)tg->cmd_sram_bytes / TSL_CMD_BYTES) return f;
  return f > prev_est / 2 ? f - prev_est / 2 : 0;
}

/* Step 0, the default schedule: the tiling choose_tiling gives with no knob
 * (t0) and the distinct ones it gives for a grid of knobs (row tiles of all,
 * half or a quarter of the output rows; 1, 2, 4 or the most blocks per
 * hardware loop, with a chunk of one loop or the most that fit; either loop
 * order; one or two weight buffers) are each emitted and priced: the cost
 * model's estimate (lower_estimate_cycles) plus the part of the stream's
 * fetch the previous kernel does not hide (fetch_exposed); k keeps the
 * cheapest (the first on a tie, so t0 unless another is cheaper). Smaller
 * groups and chunks shorten the unhidden first load and last stores at more
 * commands; the price weighs both (docs/lowering.md, "The default schedule"). */
static int emit_cheapest(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
                         const lower_conv_geom *g, const conv_tiling *t0, int64_t poff, int64_t woff, diag *d) {
  const tsl_target_t *tg = p->target;
  const int64_t ncb = x->blocks, nob = y->blocks;
  const int64_t per_ob = ob_rows(g, ncb, tg->dim);
  enum { MAXC = 96 };
  conv_tiling seen[MAXC];
  int nseen = 0;
  seen[nseen++] = *t0;
  const int64_t ohs[3] = {0, (g->oh + 1) / 2, (g->oh + 3) / 4};
  const int groups[4] = {0, 4, 2, 1};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 4; b++)
      for (int c = 0; c < 2; c++)
        for (int o = 1; o <= 2; o++)
          for (int w = 1; w <= 2; w++) {
            lower_sched ks = {.oh_tile = (int)ohs[a], .ob_group = groups[b], .ob_chunk = c ? groups[b] : 0,
                              .order = o, .wbuf = w};
            conv_tiling t;
            if ((a && ohs[a] == ohs[a - 1]) || choose_tiling(tg, g, &ks, ncb, nob, per_ob, g->pool_k ? g->oh : 0, &t))
              continue;
            int dup = 0;
            for (int i = 0; i < nseen && !dup; i++) dup = same_tiling(&seen[i], &t);
            if (!dup && nseen < MAXC) seen[nseen++] = t;
          }
  /* The previous NPU kernel, whose run hides this one's fetch. */
  const lower_kernel *q = k;
  while (q > p->kernels && q[-1].kind == LOWER_K_FALLBACK) q--;
  const uint64_t prev_n = q > p->kernels ? q[-1].stream.n : 0;
  const uint64_t prev_est = prev_n ? lower_estimate_cycles(tg, &q[-1].stream) : 0;
  /* t0 first: its errors are the kernel's; a candidate that cannot be emitted is skipped. */
  if (emit(p, k, x, y, g, &seen[0], poff, woff, d)) return -1;
  uint64_t best = lower_estimate_cycles(tg, &k->stream) + fetch_exposed(tg, k->stream.n, prev_n, prev_est);
  for (int i = 1; i < nseen; i++) {
    lower_kernel keep = *k;
    k->stream = (lower_stream){0};
    uint64_t cost;
    if (!emit(p, k, x, y, g, &seen[i], poff, woff, NULL) &&
        (cost = lower_estimate_cycles(tg, &k->stream) + fetch_exposed(tg, k->stream.n, prev_n, prev_est)) < best) {
      best = cost;
      free(keep.stream.bytes);
    } else {
      free(k->stream.bytes);
      *k = keep;
    }
  }
  return 0;
}

int lower_conv(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_conv_geom *g, diag *d) {
  const tsl_target_t *tg = p->target;
  const int dim = (int)tg->dim;
  const int64_t ncb = x->blocks, nob = y->blocks;
  k->kind = g->depthwise ? LOWER_K_DWCONV : LOWER_K_CONV;

  const int64_t per_ob = ob_rows(g, ncb, dim); /* weight rows per output block */
  conv_tiling t;
  /* A tuned schedule for this workload (lower_opts.sched_for) replaces the
   * default; one that does not fit here (a log from another plan) falls back. */
  lower_workload_key(p, k, g, x, y, k->key, sizeof k->key);
  const lower_sched dflt = k->sched;
  k->sched_from = p->sched_for && p->sched_for(p->sched_ctx, k->key, &k->sched);
  if (k->sched_from && choose_tiling(tg, g, &k->sched, ncb, nob, per_ob, g->pool_k ? g->oh : 0, &t))
    k->sched = dflt, k->sched_from = -1;
  /* A fused pool needs the whole image in one tile. */
  /* When not even one output block's weights fit next to one input line
   * group, the input channels are tiled (lower_conv_ktile.c). */
  if (choose_tiling(tg, g, &k->sched, ncb, nob, per_ob, g->pool_k ? g->oh : 0, &t)) {
    if (g->depthwise || g->pool_k || g->pk.line)
      return ir_node_error(d, k->node, "no tiling fits %s: %lld weight rows per output block and %lld-pixel lines",
                           tg->name, (long long)per_ob, (long long)g->w);
    return lower_conv_ktiled(p, k, x, y, g, d);
  }
  /* Step 1 (after the tiling, so a plan that does not fit adds no constants). */
  int64_t wrows = 0;
  int64_t poff = lower_conv_params(p, g, nob, dim);
  int64_t woff = lower_conv_weights(p, g, nob, ncb, MAX_NCB, dim, &wrows);
  if (poff < 0 || woff < 0) return diag_oom(d);
  /* The default schedule (no tuned one, no knob forced): the cheapest of the
   * candidate tilings by the cost model (step 0). */
  if (!k->sched_from && !k->sched.oh_tile && !k->sched.ob_group && !k->sched.ob_chunk && !k->sched.order &&
      !k->sched.wbuf)
    return emit_cheapest(p, k, x, y, g, &t, poff, woff, d);
  return emit(p, k, x, y, g, &t, poff, woff, d);
}

