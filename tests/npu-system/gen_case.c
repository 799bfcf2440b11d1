/* gen_case.c: the random cases of the NPU system tests (see gen_case.h).
 * Each kernel takes fresh scratchpad, accumulator, parameter and DRAM
 * regions and hands data between queues with tokens, so no result depends
 * on timing (a race would make the RTL and the C model differ for nothing). */
#include "gen_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

coverage_t gen_cov;

/* ---- random numbers: xorshift64*, seeded per case ------------------------- */
static uint64_t rng_state;
void gen_seed(uint64_t seed) { rng_state = seed; }
static uint32_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}
/* Uniform in [lo, hi]. */
static int64_t rr(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }
static int chance(int percent) { return (int)(rnd() % 100) < percent; }

#define EMIT(g, kind, ...)                                                       \
  do {                                                                           \
    tsl_##kind##_t c_ = {__VA_ARGS__};                                           \
    uint32_t w_[4];                                                              \
    if (tsl_##kind##_encode(&c_, w_) != 0) {                                     \
      fprintf(stderr, "sysgen: internal: %s field out of range at line %d\n",   \
              #kind, __LINE__);                                                  \
      exit(1);                                                                   \
    }                                                                            \
    emit_words(g, w_);                                                           \
  } while (0)

static void emit_words(gcase_t *g, const uint32_t w[4]) {
  if (g->n >= MAX_CMDS) {
    g->overflow = 1;
    return;
  }
  gen_cov.opcode[tsl_opcode(w)]++;
  int q = tsl_op_queue(tsl_opcode(w));
  if (q > 0)
    for (int f = 0; f < 4; f++) gen_cov.token[q][f] += (w[0] >> (8 + f)) & 1u;
  tsl_cmd_to_bytes(w, g->stream + 16u * g->n++);
}

/* DRAM window bytes (8-aligned), filled with random data. -1 if full. */
static int64_t win_alloc(gcase_t *g, uint32_t bytes) {
  uint32_t at = (g->win_used + 7u) & ~7u;
  if (bytes > MAX_WINDOW - at) return -1;
  g->win_used = at + bytes;
  return at;
}
static int64_t row_alloc(int64_t *next, int64_t limit, int64_t rows) {
  if (rows > limit - *next) return -1;
  int64_t r = *next;
  *next += rows;
  return r;
}

static void fill_random(gcase_t *g, int64_t at, uint32_t bytes, int lo, int hi) {
  for (uint32_t i = 0; i < bytes; i++) g->win[at + i] = (uint8_t)(int8_t)rr(lo, hi);
}

/* A token-free LOOP header; the body follows. */
static void loop_open(gcase_t *g, int64_t count, int64_t body, const int64_t s[6]) {
  EMIT(g, loop, .count = count, .body = body, .stride_a = s[0], .stride_b = s[1], .stride_c = s[2],
       .stride_d = s[3], .stride_e = s[4], .stride_f = s[5]);
  g->depth++;
  if (g->depth > g->max_depth) g->max_depth = g->depth;
}

/* Loads an image of nz planes of h x w real pixels (n0 lanes of `ebytes`
 * bytes each from DRAM, random strides) into SPAD with random LOAD padding.
 * Returns the SPAD row of plane 0, padded (0,0), and the padded sizes. */
typedef struct {
  int64_t row, ny, nx, nz;
} image_t;
static int load_image(gcase_t *g, int64_t nz, int64_t h, int64_t w, int push, image_t *img) {
  int d = g->dim;
  int64_t n0 = chance(70) ? d : rr(1, d);
  int64_t pt = chance(50) ? rr(0, 2) : 0, pb = chance(50) ? rr(0, 2) : 0;
  int64_t pl = chance(50) ? rr(0, 2) : 0, pr = chance(50) ? rr(0, 2) : 0;
  int64_t sx = n0 + rr(0, 3), sy = sx * w + rr(0, 8), sz = sy * h + rr(0, 8);
  int64_t pad = chance(20) ? 0 : chance(20) ? -128 : rr(-128, 127);
  int64_t ny = h + pt + pb, nx = w + pl + pr;
  int64_t at = win_alloc(g, (uint32_t)(sz * nz));
  int64_t row = row_alloc(&g->spad_next, g->t->spad_rows, nz * ny * nx);
  if (at < 0 || row < 0) return -1;
  fill_random(g, at, (uint32_t)(sz * nz), g->small ? -3 : -128, g->small ? 3 : 127);
  EMIT(g, cfg_load, .stride_x = sx, .stride_y = sy, .stride_z = sz);
  g->load_idx[g->nload++ & 63] = g->n;
  EMIT(g, load, .mem = TSL_MEM_SPAD, .n0 = n0, .pad = pad, .dram = at, .row = row, .nx = nx, .ny = ny, .nz = nz,
       .pad_top = pt, .pad_bottom = pb, .pad_left = pl, .pad_right = pr, .push_next = push);
  if (pt) gen_cov.pad_side[0]++;
  if (pb) gen_cov.pad_side[1]++;
  if (pl) gen_cov.pad_side[2]++;
  if (pr) gen_cov.pad_side[3]++;
  if (n0 < d) gen_cov.pad_lanes++;
  if (pt || pb || pl || pr || n0 < d) gen_cov.pad_value[(uint8_t)pad]++;
  img->row = row;
  img->ny = ny;
  img->nx = nx;
  img->nz = nz;
  return 0;
}

/* Loads `rows` SPAD rows of DIM random int8 (weights, vector operands). */
static int64_t load_rows(gcase_t *g, int64_t rows, int lo, int hi, int push) {
  int d = g->dim;
  int64_t at = win_alloc(g, (uint32_t)(rows * d));
  int64_t row = row_alloc(&g->spad_next, g->t->spad_rows, rows);
  if (at < 0 || row < 0) return -1;
  fill_random(g, at, (uint32_t)(rows * d), lo, hi);
  EMIT(g, cfg_load, .stride_x = d, .stride_y = d * rows, .stride_z = d * rows);
  g->load_idx[g->nload++ & 63] = g->n;
  EMIT(g, load, .mem = TSL_MEM_SPAD, .n0 = d, .dram = at, .row = row, .nx = rows, .ny = 1, .nz = 1,
       .push_next = push);
  return row;
}

static void put32(uint8_t *p, int64_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)((uint64_t)v >> (8 * i));
}

/* Loads `rows` PARAM rows with biases, multipliers and shifts chosen so that
 * rounding ties, saturation and clamping all happen. */
static int64_t load_params(gcase_t *g, int64_t rows) {
  int d = g->dim;
  int64_t at = win_alloc(g, (uint32_t)(rows * 9 * d));
  int64_t row = row_alloc(&g->param_next, g->t->param_rows, rows);
  if (at < 0 || row < 0) return -1;
  for (int64_t r = 0; r < rows; r++) {
    uint8_t *p = g->win + at + r * 9 * d;
    for (int c = 0; c < d; c++) {
      int64_t bias = g->small ? rr(-40, 40) : chance(5) ? (chance(50) ? INT32_MAX - rr(0, 1000) : INT32_MIN + rr(0, 1000)) : rr(-3000, 3000);
      int64_t mult, shift;
      if (chance(50)) { /* small shifts: ties are frequent */
        mult = rr(1, 7);
        shift = rr(1, 4);
      } else {
        mult = chance(10) ? -rr(1, 1 << 20) : rr(1, 1 << 20);
        shift = rr(8, 30);
      }
      put32(p + 4 * c, bias);
      put32(p + 4 * (d + c), mult);
      p[8 * d + c] = (uint8_t)(shift | (chance(10) ? 0x40 : 0)); /* bits 7:6 are ignored */
    }
  }
  EMIT(g, cfg_load, .stride_x = 9 * d, .stride_y = 9 * d * rows, .stride_z = 9 * d * rows);
  g->load_idx[g->nload++ & 63] = g->n;
  EMIT(g, load, .mem = TSL_MEM_PARAM, .n0 = d, .dram = at, .row = row, .nx = rows, .ny = 1, .nz = 1);
  return row;
}

/* Output size of a window op: -1 if no output fits. */
static int64_t out_size(int64_t in, int64_t pad_lo, int64_t pad_hi, int64_t k, int64_t dil, int64_t stride) {
  int64_t span = in + pad_lo + pad_hi - dil * (k - 1) - 1;
  return span < 0 ? -1 : span / stride + 1;
}

/* Random epilogue and the STORE(s) of an oh x ow tile whose pixel (y, x) is
 * source row src + y*pitch + x in src_mem, lanes of `nblk` blocks (the STORE
 * runs in a LOOP over blocks with stride blk_rows). The first STORE-queue
 * command pops the token of the producer. */
static int store_tile(gcase_t *g, int src_mem, int64_t src, int64_t pitch, int64_t oh, int64_t ow, int64_t nblk,
                      int64_t blk_rows, int64_t param) {
  int d = g->dim;
  int raw = src_mem == TSL_SRC_ACC && chance(15);
  int pool = !raw && oh <= 255 && ow <= 255 && chance(30);
  int64_t pk = pool ? rr(1, 3) : 0, ps = pool ? rr(1, 2) : 1, ppt = pool ? rr(0, pk - 1) : 0,
          ppl = pool ? rr(0, pk - 1) : 0;
  int64_t soh = oh, sow = ow;
  if (pool) {
    soh = out_size(oh, ppt, 0, pk, 1, ps);
    sow = out_size(ow, ppl, 0, pk, 1, ps);
    if (soh < 1) soh = 1;
    if (sow < 1) sow = 1;
    gen_cov.maxpool++;
  }
  if (soh > 255 || sow > 255) return -1;
  int64_t n0 = chance(70) ? d : rr(1, d);
  int64_t e = raw ? 4 : 1;
  int64_t zp = rr(-20, 20), lo = chance(40) ? -128 : rr(-128, 0), hi = chance(40) ? 127 : rr(lo, 127);
  if (src_mem == TSL_SRC_SPAD) zp = 0;
  int to_spad = !raw && chance(25);
  int64_t sx = n0 * e + rr(0, 2), sy = sx * sow + rr(0, 5);
  int64_t dram = -1, dst_row = 0, spad_pitch = sow + rr(0, 1);
  if (to_spad) {
    dst_row = row_alloc(&g->spad_next, g->t->spad_rows, nblk * soh * spad_pitch);
    if (dst_row < 0) return -1;
  }
  int64_t blk_bytes = sy * soh;
  /* room for the STORE's pixels, or for the scratchpad copy's (DIM lanes) */
  int64_t region = (blk_bytes > d * sow * soh ? blk_bytes : d * sow * soh) * nblk + 8;
  dram = win_alloc(g, (uint32_t)region);
  if (dram < 0) return -1;
  fill_random(g, dram, (uint32_t)region, -128, 127); /* bytes the NPU must not touch */
  EMIT(g, cfg_store, .pop_prev = 1, .src_pitch = pitch, .stride_x = sx, .stride_y = sy, .spad_pitch = spad_pitch);
  EMIT(g, cfg_epi, .pool_k = pk, .pool_s = pool ? ps : 0, .pool_pad_t = ppt, .pool_pad_l = ppl, .zp_out = zp,
       .lo = lo, .hi = hi, .src_h = pool ? oh : 0, .src_w = pool ? ow : 0);
  if (nblk > 1) {
    EMIT(g, lstride, .stride_g = blk_bytes, .stride_h = soh * spad_pitch);
    loop_open(g, nblk, 1, (int64_t[6]){0, 0, blk_rows, src_mem == TSL_SRC_ACC ? 1 : 0, 0, 0});
  }
  EMIT(g, store, .src_mem = src_mem, .dst_mem = to_spad ? TSL_DST_SPAD : TSL_DST_DRAM, .raw = raw, .n0 = n0,
       .oh = soh, .ow = sow, .dram = to_spad ? 0 : dram, .dst_row = dst_row, .src_row = src, .param = param);
  if (nblk > 1) g->depth--;
  if (raw) gen_cov.raw_store++;
  if (to_spad) {
    /* and copy the scratchpad result out, so it is compared too */
    gen_cov.spad_store++;
    EMIT(g, cfg_store, .src_pitch = spad_pitch, .stride_x = d, .stride_y = d * sow, .spad_pitch = 1);
    EMIT(g, cfg_epi, .lo = -128, .hi = 127);
    EMIT(g, store, .src_mem = TSL_SRC_SPAD, .dst_mem = TSL_DST_DRAM, .n0 = d, .oh = soh * nblk, .ow = sow,
         .dram = dram, .src_row = dst_row);
  }
  return 0;
}

/* Conv / matmul: channel blocks, kernel, stride, dilation, LOAD padding and
 * generator padding; output blocks in a LOOP, optional row tiles in an inner
 * LOOP, optional outer repeat (nesting up to 3). */
static int kernel_conv(gcase_t *g, int depthwise) {
  int d = g->dim;
  int64_t ncb = depthwise ? 1 : rr(1, 2), h = rr(1, 6), w = rr(1, 6);
  g->small = chance(50);
  image_t img;
  if (load_image(g, ncb, h, w, 0, &img)) return -1;
  int64_t kh = rr(1, 3), kw = rr(1, 3), sy = rr(1, 3), sx = rr(1, 3), dy = rr(1, 3), dx = rr(1, 3);
  if (chance(40)) sy = sx = dy = dx = 1;
  int64_t gt = rr(0, 2), gb = rr(0, 2), gl = rr(0, 2), gr = rr(0, 2);
  int64_t oh = out_size(img.ny, gt, gb, kh, dy, sy), ow = out_size(img.nx, gl, gr, kw, dx, sx);
  if (oh < 1 || ow < 1) {
    kh = kw = dy = dx = 1;
    oh = out_size(img.ny, gt, gb, 1, 1, sy);
    ow = out_size(img.nx, gl, gr, 1, 1, sx);
  }
  int64_t nob = depthwise ? 1 : rr(1, 2);
  int64_t taps = kh * kw, wrows_blk = depthwise ? taps : taps * ncb * d;
  int64_t wgt = load_rows(g, wrows_blk * nob, g->small ? -3 : -128, g->small ? 3 : 127, 0);
  int64_t param = load_params(g, nob);
  if (wgt < 0 || param < 0) return -1;
  int64_t out_pitch = ow + (chance(30) ? rr(1, 2) : 0);
  int64_t blk_rows = oh * out_pitch;
  int64_t acc = row_alloc(&g->acc_next, g->t->acc_rows, blk_rows * nob);
  if (acc < 0) return -1;
  int64_t cpad = chance(30) ? 0 : rr(-128, 127);
  /* The loads hand over to EXEC with one token, from a CFG_LOAD after them
   * (the LOAD queue runs in order, so it completes after all of them). */
  EMIT(g, cfg_load, .push_next = 1, .stride_x = d, .stride_y = d, .stride_z = d);
  EMIT(g, cfg_exec, .pop_prev = 1, .out_pitch = out_pitch, .kh = kh, .kw = kw, .ncb = ncb, .pad = cpad,
       .stride_y = sy, .stride_x = sx, .dil_y = dy, .dil_x = dx, .in_h = img.ny, .in_w = img.nx,
       .in_pitch = img.nx, .cb_stride = img.ny * img.nx);
  gen_cov.stride[sy]++;
  gen_cov.stride[sx]++;
  gen_cov.dil[dy]++;
  gen_cov.dil[dx]++;
  if (gt || gb || gl || gr) {
    gen_cov.gen_pad++;
    gen_cov.pad_value[(uint8_t)cpad]++;
  }
  /* row tiles: split oh into ntiles equal tiles when it divides */
  int64_t ntiles = 1;
  if (oh % 2 == 0 && chance(40)) ntiles = 2;
  else if (oh % 3 == 0 && chance(40)) ntiles = 3;
  int64_t th = oh / ntiles;
  int rep = chance(25) ? 2 : 1;
  int accmode = chance(30);
  if (accmode) gen_cov.accumulate++;
  int body_inner = 1, body_mid = ntiles > 1 ? 1 + body_inner : body_inner;
  int body_outer = nob > 1 ? 1 + body_mid : body_mid;
  int lv = 0;
  if (rep > 1) {
    loop_open(g, rep, body_outer, (int64_t[6]){0});
    lv++;
  }
  if (nob > 1) {
    loop_open(g, nob, body_mid, (int64_t[6]){0, 0, blk_rows, wrows_blk, 0, 0});
    lv++;
  }
  if (ntiles > 1) {
    loop_open(g, ntiles, 1, (int64_t[6]){0, 0, th * out_pitch, 0, th * sy, 0});
    lv++;
  }
  /* Rep 2 with OVERWRITE recomputes the same rows; with ACCUMULATE the
   * rows must hold a value first, so the accumulate pass follows an
   * overwrite pass of its own. */
  if (depthwise)
    EMIT(g, dwconv, .acc_mode = TSL_ACCMODE_OVERWRITE, .oh = th, .in = img.row, .wgt = wgt, .acc = acc,
         .ow = ow, .iy0 = -gt, .ix0 = -gl);
  else
    EMIT(g, matmul, .acc_mode = TSL_ACCMODE_OVERWRITE, .oh = th, .in = img.row, .wgt = wgt, .acc = acc, .ow = ow,
         .iy0 = -gt, .ix0 = -gl);
  g->depth -= lv;
  if (accmode) {
    if (depthwise)
      EMIT(g, dwconv, .acc_mode = TSL_ACCMODE_ACCUMULATE, .oh = oh, .in = img.row, .wgt = wgt, .acc = acc,
           .ow = ow, .iy0 = -gt, .ix0 = -gl);
    else
      EMIT(g, matmul, .acc_mode = TSL_ACCMODE_ACCUMULATE, .oh = oh, .in = img.row, .wgt = wgt, .acc = acc,
           .ow = ow, .iy0 = -gt, .ix0 = -gl);
  }
  EMIT(g, enop, .push_next = 1);
  g->small = 0;
  return store_tile(g, TSL_SRC_ACC, acc, out_pitch, oh, ow, nob, blk_rows, param);
}

/* Double-buffered GEMM rows (VTA's pattern), every token direction: per
 * iteration a LOAD brings a tile of A (pops EXEC->LOAD, pushes LOAD->EXEC),
 * a MATMUL multiplies it by resident weights (pops LOAD->EXEC and
 * STORE->EXEC, pushes EXEC->LOAD and EXEC->STORE), a STORE writes it out
 * (pops EXEC->STORE, pushes STORE->EXEC). Both "free" directions are
 * pre-charged with 2 tokens. One LOOP of three commands: the LOAD's and the
 * MATMUL's input rows share slot B, the MATMUL's and the STORE's ACC rows
 * slot C, so one stride each moves them together. */
static int kernel_pipelined(gcase_t *g) {
  int d = g->dim;
  int64_t ncb = rr(1, 2), tile = rr(1, 12), iters = rr(2, 6), m = tile * iters;
  int64_t wgt = load_rows(g, ncb * d, -128, 127, 1);
  int64_t param = load_params(g, 1);
  int64_t a_at = win_alloc(g, (uint32_t)(ncb * m * d));
  int64_t a_row = row_alloc(&g->spad_next, g->t->spad_rows, ncb * m);
  int64_t acc = row_alloc(&g->acc_next, g->t->acc_rows, m);
  int64_t n0 = chance(70) ? d : rr(1, d);
  int64_t c_at = win_alloc(g, (uint32_t)(m * d + 8));
  if (wgt < 0 || param < 0 || a_at < 0 || a_row < 0 || acc < 0 || c_at < 0) return -1;
  fill_random(g, a_at, (uint32_t)(ncb * m * d), -128, 127);
  fill_random(g, c_at, (uint32_t)(m * d + 8), -128, 127);
  EMIT(g, enop, .pop_prev = 1); /* the weights and parameters are in */
  EMIT(g, enop, .push_prev = 1);
  EMIT(g, enop, .push_prev = 1);
  EMIT(g, cfg_exec, .out_pitch = tile, .kh = 1, .kw = 1, .ncb = ncb, .stride_y = 1, .stride_x = 1, .dil_y = 1,
       .dil_x = 1, .in_h = 1, .in_w = tile, .in_pitch = tile, .cb_stride = tile);
  EMIT(g, cfg_store, .push_prev = 1, .src_pitch = tile, .stride_x = n0, .stride_y = n0 * tile);
  EMIT(g, cfg_store, .push_prev = 1, .src_pitch = tile, .stride_x = n0, .stride_y = n0 * tile);
  EMIT(g, cfg_epi, .zp_out = rr(-10, 10), .lo = -128, .hi = 127);
  EMIT(g, cfg_load, .stride_x = d, .stride_y = d * tile, .stride_z = d * m);
  EMIT(g, lstride, .stride_g = n0 * tile);
  /* SPAD: tile i's ncb planes are consecutive (a LOAD writes rows in order
   * z, y, x), so both the LOAD and the MATMUL step by ncb*tile rows. */
  loop_open(g, iters, 3, (int64_t[6]){tile * d, ncb * tile, tile, 0, 0, 0});
  g->load_idx[g->nload++ & 63] = g->n;
  EMIT(g, load, .pop_next = 1, .push_next = 1, .n0 = d, .dram = a_at, .row = a_row, .nx = tile, .ny = 1, .nz = ncb);
  EMIT(g, matmul, .pop_prev = 1, .pop_next = 1, .push_prev = 1, .push_next = 1, .oh = 1, .ow = tile, .in = a_row,
       .wgt = wgt, .acc = acc);
  EMIT(g, store, .pop_prev = 1, .push_prev = 1, .n0 = n0, .oh = 1, .ow = tile, .dram = c_at, .src_row = acc,
       .param = param);
  g->depth--;
  return 0;
}

/* Residual add: two operands, requantised, written apart or in place. */
static int kernel_vadd(gcase_t *g) {
  int64_t rows = rr(1, 24);
  int64_t a = load_rows(g, rows, -128, 127, 0);
  int64_t b = load_rows(g, rows, -128, 127, 1);
  if (a < 0 || b < 0) return -1;
  int inplace = chance(25);
  int64_t out = inplace ? (chance(50) ? a : b) : row_alloc(&g->spad_next, g->t->spad_rows, rows);
  if (out < 0) return -1;
  if (inplace) gen_cov.inplace_vadd++;
  int64_t shift = rr(0, 20);
  int64_t lim = shift < 4 ? 8 : (int64_t)1 << (shift + 1);
  if (lim > (1 << 24)) lim = 1 << 24;
  int64_t lo = chance(40) ? -128 : rr(-128, 0);
  EMIT(g, cfg_vec, .pop_prev = 1, .shift = shift, .zp_out = rr(-30, 30), .mult_a = rr(-lim, lim),
       .mult_b = rr(-lim, lim), .zp_a = rr(-30, 30), .zp_b = rr(-30, 30), .lo = lo,
       .hi = chance(40) ? 127 : rr(lo, 127));
  EMIT(g, vadd, .push_next = 1, .a = a, .b = b, .out = out, .rows = rows);
  return store_tile(g, TSL_SRC_SPAD, out, rows, 1, rows, 1, 0, 0);
}

/* Average or global pooling with its border divisor. */
static int kernel_vpool(gcase_t *g) {
  int64_t h = rr(1, 6), w = rr(1, 6);
  image_t img;
  if (load_image(g, 1, h, w, 1, &img)) return -1;
  int global = chance(25);
  int64_t kh = global ? img.ny : rr(1, 3), kw = global ? img.nx : rr(1, 3);
  int64_t sy = rr(1, 3), sx = rr(1, 3), dy = chance(70) ? 1 : rr(1, 2), dx = chance(70) ? 1 : rr(1, 2);
  int64_t gt = global ? 0 : rr(0, kh - 1), gl = global ? 0 : rr(0, kw - 1);
  int64_t gb = global ? 0 : rr(0, kh - 1), gr = global ? 0 : rr(0, kw - 1);
  if (global) dy = dx = 1;
  int64_t oh = out_size(img.ny, gt, gb, kh, dy, sy), ow = out_size(img.nx, gl, gr, kw, dx, sx);
  if (oh < 1 || ow < 1) {
    kh = kw = dy = dx = 1;
    gt = gl = gb = gr = 0;
    oh = out_size(img.ny, 0, 0, 1, 1, sy);
    ow = out_size(img.nx, 0, 0, 1, 1, sx);
  }
  int64_t out = row_alloc(&g->spad_next, g->t->spad_rows, oh * ow);
  if (out < 0) return -1;
  int64_t shift = rr(0, 12);
  int excl = chance(50);
  if (global) gen_cov.global_pool++;
  if (excl) gen_cov.exclude_pad++;
  if (gt || gl || gb || gr) gen_cov.gen_pad++;
  gen_cov.stride[sy]++;
  gen_cov.stride[sx]++;
  gen_cov.dil[dy]++;
  gen_cov.dil[dx]++;
  EMIT(g, cfg_exec, .pop_prev = 1, .out_pitch = ow, .kh = kh, .kw = kw, .ncb = 1, .stride_y = sy, .stride_x = sx,
       .dil_y = dy, .dil_x = dx, .in_h = img.ny, .in_w = img.nx, .in_pitch = img.nx, .cb_stride = 0);
  int64_t lo = chance(40) ? -128 : rr(-128, 0);
  EMIT(g, cfg_vec, .shift = shift, .zp_out = rr(-20, 20), .mult_a = rr(1, (int64_t)1 << (shift + 1)),
       .zp_a = rr(-20, 20), .lo = lo, .hi = chance(40) ? 127 : rr(lo, 127));
  EMIT(g, vpool, .push_next = 1, .exclude_pad = excl, .oh = oh, .in = img.row, .out = out, .ow = ow, .iy0 = -gt,
       .ix0 = -gl);
  return store_tile(g, TSL_SRC_SPAD, out, ow, oh, ow, 1, 0, 0);
}

/* A valid case: 1..4 kernels, NOPs and MARK barriers between some. */
int gen_valid(gcase_t *g) {
  int nk = (int)rr(1, 4);
  for (int k = 0; k < nk; k++) {
    uint32_t n_before = g->n, win_before = g->win_used;
    int64_t s0 = g->spad_next, a0 = g->acc_next, p0 = g->param_next;
    uint32_t l0 = g->nload;
    if (chance(20)) EMIT(g, nop);
    int which = (int)rr(0, 10), rc;
    if (which < 5) rc = kernel_conv(g, 0);
    else if (which < 7) rc = kernel_conv(g, 1);
    else if (which < 8) rc = kernel_vadd(g);
    else if (which < 9) rc = kernel_pipelined(g);
    else rc = kernel_vpool(g);
    if (rc != 0 || g->overflow) { /* out of room: drop this kernel */
      g->n = n_before;
      g->win_used = win_before;
      g->spad_next = s0;
      g->acc_next = a0;
      g->param_next = p0;
      g->nload = l0;
      g->overflow = 0;
      g->depth = 0;
      break;
    }
    if (chance(30)) EMIT(g, mark, .kernel = (int64_t)k + 1);
  }
  return g->n > 0 ? 0 : -1;
}

/* ---- the GEMM benchmark: C[256x256] = A[256x256] * W[256x256], int8 -------
 * A is a 16x16 "image" of 256 pixels with K/DIM channel blocks, W in tile
 * layout, a 1x1 conv per output block. ACC holds 2048/256 = acc_slots output
 * blocks: MATMULs and STOREs pass slots back and forth with tokens (the
 * STORE->EXEC direction pre-charged), in groups of acc_slots blocks whose
 * weights are explicit (slot D is the MATMUL's weights and the STORE's
 * parameter row, so one loop cannot step both). part 0: the loads only;
 * part 1: compute on resident operands; part 2: loads and compute in one
 * stream (weights loaded per group, overlapping the previous group). */
int gen_gemm(gcase_t *g, int part) {
  int d = g->dim;
  const int64_t M = 256, K = 256, N = 256, pix = M, ncb = K / d, nob = N / d;
  int64_t slots = g->t->acc_rows / pix;
  if (slots > 8) slots = 8;
  if (slots < 1 || 2 * ncb * pix > g->t->spad_rows || nob > g->t->param_rows) return -1;
  int64_t a_at = win_alloc(g, (uint32_t)(M * K)), w_at = win_alloc(g, (uint32_t)(K * N));
  int64_t p_at = win_alloc(g, (uint32_t)(nob * 9 * d)), c_at = win_alloc(g, (uint32_t)(M * N));
  if (a_at < 0 || w_at < 0 || p_at < 0 || c_at < 0) return -1;
  fill_random(g, a_at, (uint32_t)(M * K), -128, 127);
  fill_random(g, w_at, (uint32_t)(K * N), -128, 127);
  for (int64_t r = 0; r < nob; r++)
    for (int c = 0; c < d; c++) {
      uint8_t *p = g->win + p_at + r * 9 * d;
      put32(p + 4 * c, rr(-1000, 1000));
      put32(p + 4 * (d + c), rr(1 << 14, 1 << 15));
      p[8 * d + c] = 22;
    }
  const int64_t a_row = 0, w_row = ncb * pix, wrows_blk = ncb * d;
  if (part != 1) { /* A planes [cb][pixel], W [nb][cb][k], then the parameters */
    EMIT(g, cfg_load, .stride_x = d, .stride_y = d * pix, .stride_z = d * pix);
    EMIT(g, load, .n0 = d, .dram = a_at, .row = a_row, .nx = pix, .ny = ncb, .nz = 1, .push_next = part == 2);
    EMIT(g, cfg_load, .stride_x = 9 * d, .stride_y = 9 * d, .stride_z = 9 * d);
    EMIT(g, load, .mem = TSL_MEM_PARAM, .n0 = d, .dram = p_at, .row = 0, .nx = nob, .ny = 1, .nz = 1);
    EMIT(g, cfg_load, .stride_x = d, .stride_y = d * wrows_blk * slots, .stride_z = d);
  }
  if (part == 0) {
    EMIT(g, load, .n0 = d, .dram = w_at, .row = w_row, .nx = wrows_blk * slots, .ny = nob / slots, .nz = 1);
    return 0;
  }
  EMIT(g, cfg_store, .stride_x = d, .stride_y = d * 16, .src_pitch = 16);
  EMIT(g, cfg_epi, .lo = -128, .hi = 127);
  loop_open(g, slots, 1, (int64_t[6]){0});
  EMIT(g, cfg_store, .push_prev = 1, .stride_x = d, .stride_y = d * 16, .src_pitch = 16);
  g->depth--;
  EMIT(g, cfg_exec, .pop_prev = part == 2, .out_pitch = 16, .kh = 1, .kw = 1, .ncb = ncb, .stride_y = 1,
       .stride_x = 1, .dil_y = 1, .dil_x = 1, .in_h = 16, .in_w = 16, .in_pitch = 16, .cb_stride = pix);
  for (int64_t grp = 0; grp < nob / slots; grp++) {
    int64_t nb0 = grp * slots;
    if (part == 2) {
      EMIT(g, load, .n0 = d, .dram = w_at + nb0 * wrows_blk * d, .row = w_row + nb0 * wrows_blk,
           .nx = wrows_blk * slots, .ny = 1, .nz = 1, .push_next = 1);
      EMIT(g, enop, .pop_prev = 1);
    }
    loop_open(g, slots, 1, (int64_t[6]){0, 0, pix, wrows_blk, 0, 0});
    EMIT(g, matmul, .pop_next = 1, .push_next = 1, .oh = 16, .ow = 16, .in = a_row,
         .wgt = w_row + nb0 * wrows_blk, .acc = 0);
    g->depth--;
    EMIT(g, lstride, .stride_g = pix * d);
    loop_open(g, slots, 1, (int64_t[6]){0, 0, pix, 1, 0, 0});
    EMIT(g, store, .pop_prev = 1, .push_prev = 1, .n0 = d, .oh = 16, .ow = 16, .dram = c_at + nb0 * pix * d,
         .src_row = 0, .param = nb0);
    g->depth--;
  }
  return 0;
}

/* ---- planted faults ------------------------------------------------------- */
static void put_cmd(gcase_t *g, uint32_t i, const uint32_t w[4]) { tsl_cmd_to_bytes(w, g->stream + 16u * i); }
static void get_cmd(const gcase_t *g, uint32_t i, uint32_t w[4]) { tsl_cmd_from_bytes(g->stream + 16u * i, w); }

/* Plants fault kind k into a valid case; returns the intended code. */
int gen_fault(gcase_t *g, int k) {
  uint32_t w[4];
  uint32_t i = (uint32_t)rr(0, g->n - 1);
  uint32_t li = g->load_idx[rnd() % (g->nload < 64 ? g->nload : 64)];
  tsl_load_t ld;
  switch (k) {
  case 0: /* opcode that is not a command */
    get_cmd(g, i, w);
    {
      static const uint8_t bad[] = {0x00, 0x05, 0x0F, 0x12, 0x26, 0x2E, 0x33, 0x7F, 0xFF};
      w[0] = (w[0] & ~0xFFu) | bad[rnd() % sizeof bad];
    }
    put_cmd(g, i, w);
    return TSL_ERR_BAD_OPCODE;
  case 1: /* a reserved bit */
    get_cmd(g, li, w);
    w[0] |= 1u << 14; /* LOAD bits 14..15 are reserved */
    put_cmd(g, li, w);
    return TSL_ERR_BAD_FIELD;
  case 2: /* scratchpad rows past the end */
    get_cmd(g, li, w);
    if (tsl_load_decode(w, &ld) != 0) return -1; /* not a LOAD: cannot happen, li names LOADs */
    if (ld.mem != TSL_MEM_SPAD) return -1;
    ld.row = g->t->spad_rows - 1;
    ld.nx = ld.nx < 2 ? 2 : ld.nx;
    if (ld.pad_left + ld.pad_right > ld.nx) return -1;
    tsl_load_encode(&ld, w);
    put_cmd(g, li, w);
    return TSL_ERR_SPAD_RANGE;
  case 3: /* DRAM window violation */
    get_cmd(g, li, w);
    if (tsl_load_decode(w, &ld) != 0) return -1; /* not a LOAD: cannot happen, li names LOADs */
    if (ld.pad_top + ld.pad_bottom >= ld.ny || ld.pad_left + ld.pad_right >= ld.nx) return -1;
    ld.dram = (int64_t)((g->win_used + 7u) & ~7u) + rr(0, 100); /* at or past the window's end */
    tsl_load_encode(&ld, w);
    put_cmd(g, li, w);
    return TSL_ERR_DRAM_RANGE;
  case 4: /* deadlock: a STORE-queue command waits for a token nobody gives */
    EMIT(g, cfg_store, .pop_prev = 1);
    return TSL_ERR_DEADLOCK;
  case 5: /* accumulator range */
    EMIT(g, cfg_exec, .out_pitch = 1, .kh = 1, .kw = 1, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 1, .in_w = 1, .in_pitch = 1, .cb_stride = 1);
    EMIT(g, matmul, .oh = 1, .ow = 2, .in = 0, .wgt = 0, .acc = g->t->acc_rows - 1);
    return TSL_ERR_ACC_RANGE;
  case 6: /* a loop body leaving the stream */
    EMIT(g, loop, .count = 2, .body = 3);
    EMIT(g, nop);
    return TSL_ERR_LOOP;
  default: /* a loop whose iterations walk a LOAD out of the scratchpad */
    EMIT(g, cfg_load, .stride_x = g->dim, .stride_y = g->dim, .stride_z = g->dim);
    EMIT(g, loop, .count = 4000, .body = 1, .stride_b = g->t->spad_rows / 3000 + 1);
    EMIT(g, load, .n0 = 1, .nx = 1, .ny = 1, .nz = 1, .pad_top = 1);
    return TSL_ERR_SPAD_RANGE;
  }
}
