/* test_npu_model.c: golden tests of the C model (sim/npu-model) against the
 * plain C reference loops of ref.c, on every target: conv with stride,
 * padding with a nonzero pad value (in the address generator and in the
 * DMA), dilation, depthwise, matmul, epilogue rounding ties and saturation,
 * average/global/max pooling borders, residual add, hardware loops, tokens,
 * MARK records and exact counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "npu_arith.h"
#include "npu_internal.h"
#include "npu_model.h"
#include "ref.h"
#include "stream_build.h"

static uint32_t rng = 1;
static int quiet; /* random cases do not print their counters */
static uint64_t last_counters[TSL_NCOUNTERS]; /* of the last conv_case */
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static int rnd_range(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }
static void rnd_fill(int8_t *p, size_t n, int lo, int hi) {
  for (size_t i = 0; i < n; i++) p[i] = (int8_t)rnd_range(lo, hi);
}
static int cdiv(int a, int b) { return (a + b - 1) / b; }
static int imin(int a, int b) { return a < b ? a : b; }
static void put32(uint8_t *p, int32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)((uint32_t)v >> (8 * i));
}

/* The cases here are sized for npu4 and up (channel counts, SPAD and ACC
 * rows): npu2, the core-sequenced iCEBreaker target, has 1,024 SPAD and 128
 * ACC rows and is covered by the model suite and the boards suite instead. */
static int cases_fit(const tsl_target_t *t) { return t->spad_rows >= 4096 && t->acc_rows >= 512; }

/* Runs sb on a fresh model of t, expecting success; returns the model. Also
 * runs it timing-only on a copy of the DRAM: the counters must be identical
 * (costs never depend on data) and that copy must stay untouched. */
static npu_model_t *run_ok(const tsl_target_t *t, const sb_t *sb, uint8_t *dram, uint64_t size) {
  assert_false(sb->bad);
  npu_model_t *m = npu_model_new(t), *mt = npu_model_new(t);
  assert_non_null(m);
  assert_non_null(mt);
  uint8_t *copy = malloc(size + 1), *orig = malloc(size + 1);
  memcpy(copy, dram, size);
  memcpy(orig, dram, size);
  npu_run_t run = {sb->buf, sb->n, dram, size, 0, 0, 0};
  npu_result_t r;
  int rc = npu_model_run(m, &run, &r);
  if (rc) print_error("%s: %s\n", t->name, r.message);
  assert_int_equal(rc, TSL_ERR_NONE);
  npu_run_t trun = {sb->buf, sb->n, copy, size, 0, 1, 0};
  assert_int_equal(npu_model_run(mt, &trun, &r), TSL_ERR_NONE);
  assert_memory_equal(npu_model_counters(m), npu_model_counters(mt), sizeof(uint64_t) * TSL_NCOUNTERS);
  if (npu_model_nsnapshots(m) == 0) assert_memory_equal(copy, orig, size); /* MARK records are written */
  npu_model_free(mt);
  free(copy);
  free(orig);
  return m;
}

/* Prints a run's counters (the "Done when" streams report them). */
static void show(const char *what, const tsl_target_t *t, npu_model_t *m) {
  const uint64_t *c = npu_model_counters(m);
  printf("  %-5s %-38s", t->name, what);
  for (int i = 0; i < TSL_NCOUNTERS; i++)
    if (c[i] && (i == TSL_CNT_CYCLES || i >= TSL_CNT_MACS)) printf(" %s=%llu", tsl_counter_name(i), (unsigned long long)c[i]);
  printf("\n");
}

/* Writes PARAM rows for `cout` channels: DIM per row, 9*DIM bytes each. */
static void put_params(uint8_t *p, int dim, int cout, const int32_t *bias, const int32_t *mult,
                       const uint8_t *shift) {
  int nob = cdiv(cout, dim);
  memset(p, 0, (size_t)(nob * 9 * dim));
  for (int oc = 0; oc < cout; oc++) {
    uint8_t *row = p + (oc / dim) * 9 * dim;
    int lane = oc % dim;
    put32(row + 4 * lane, bias[oc]);
    put32(row + 4 * (dim + lane), mult[oc]);
    row[8 * dim + lane] = shift[oc];
  }
}

/* ---- conv (groups = 1) ------------------------------------------------- */

/* Builds and runs a conv + bias + requant + clamp on target t; dma_pad puts
 * the padding in the LOAD (pad rows) instead of the address generator. */
static void conv_case(const tsl_target_t *t, ref_conv_t p, int dma_pad) {
  const int dim = (int)t->dim, ncb = cdiv(p.cin, dim), nob = cdiv(p.cout, dim);
  const int taps = p.kh * p.kw, rows_ob = taps * ncb * dim;
  int pb = (p.oh - 1) * p.sy + (p.kh - 1) * p.dy + 1 - p.pt - p.h;
  int pr = (p.ow - 1) * p.sx + (p.kw - 1) * p.dx + 1 - p.pl - p.w;
  if (pb < 0) pb = 0;
  if (pr < 0) pr = 0;
  const int hp = dma_pad ? p.h + p.pt + pb : p.h, wp = dma_pad ? p.w + p.pl + pr : p.w;
  const int plane = hp * wp;
  size_t nx = (size_t)(p.h * p.w * p.cin), nw = (size_t)(p.cout * taps * p.cin), no = (size_t)(p.oh * p.ow * p.cout);
  int8_t *x = malloc(nx), *wt = malloc(nw), *ref = malloc(no);
  int32_t bias[64], mult[64], nbias[64];
  uint8_t shift[64];
  rnd_fill(x, nx, -128, 127);
  rnd_fill(wt, nw, -128, 127);
  for (int oc = 0; oc < p.cout; oc++) {
    bias[oc] = rnd_range(-20000, 20000);
    mult[oc] = rnd_range(1 << 20, 1 << 30);
    shift[oc] = (uint8_t)rnd_range(36, 44);
  }
  ref_conv(&p, x, wt, bias, mult, shift, ref);
  /* DRAM: input, weights (NPU tile layout), params, output */
  size_t in_off = 0, w_off = nx, p_off = w_off + (size_t)(nob * rows_ob * dim), o_off = p_off + (size_t)(nob * 9 * dim);
  size_t size = o_off + no;
  uint8_t *dram = calloc(size, 1);
  memcpy(dram + in_off, x, nx);
  for (int oc = 0; oc < p.cout; oc++) {
    int64_t sw = 0;
    for (int tp = 0; tp < taps; tp++)
      for (int ic = 0; ic < p.cin; ic++) {
        int8_t v = wt[(oc * taps + tp) * p.cin + ic];
        sw += v;
        int ob = oc / dim, n = oc % dim, cb = ic / dim, k = ic % dim;
        dram[w_off + (size_t)(ob * rows_ob + (tp * ncb + cb) * dim + k) * dim + n] = (uint8_t)v;
      }
    nbias[oc] = (int32_t)(bias[oc] - (int64_t)p.zx * sw); /* zero-point correction (compiler's job) */
  }
  put_params(dram + p_off, dim, p.cout, nbias, mult, shift);

  sb_t *sb = calloc(1, sizeof *sb);
  const int wbase = ncb * plane;
  SB_ADD(sb, cfg_load, .stride_x = p.cin, .stride_y = p.w * p.cin, .stride_z = 0);
  for (int cb = 0; cb < ncb; cb++)
    SB_ADD(sb, load, .mem = TSL_MEM_SPAD, .n0 = imin(dim, p.cin - cb * dim), .pad = p.zx,
           .dram = (int64_t)in_off + cb * dim, .row = cb * plane, .nx = wp, .ny = hp, .nz = 1,
           .pad_top = dma_pad ? p.pt : 0, .pad_bottom = dma_pad ? pb : 0, .pad_left = dma_pad ? p.pl : 0,
           .pad_right = dma_pad ? pr : 0);
  SB_ADD(sb, cfg_load, .stride_x = dim, .stride_y = rows_ob * dim, .stride_z = 0);
  SB_ADD(sb, load, .mem = TSL_MEM_SPAD, .n0 = dim, .dram = (int64_t)w_off, .row = wbase, .nx = rows_ob, .ny = nob,
         .nz = 1);
  SB_ADD(sb, cfg_load, .stride_x = 9 * dim);
  SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = (int64_t)p_off, .row = 0, .nx = nob, .ny = 1, .nz = 1,
         .push_next = 1);
  SB_ADD(sb, cfg_exec, .out_pitch = p.ow, .kh = p.kh, .kw = p.kw, .ncb = ncb, .pad = dma_pad ? 77 : p.zx,
         .stride_y = p.sy, .stride_x = p.sx, .dil_y = p.dy, .dil_x = p.dx, .in_h = hp, .in_w = wp, .in_pitch = wp,
         .cb_stride = plane);
  SB_ADD(sb, enop, .pop_prev = 1);
  SB_ADD(sb, loop, .count = nob, .body = 1, .stride_c = p.oh * p.ow, .stride_d = rows_ob);
  SB_ADD(sb, matmul, .acc_mode = TSL_ACCMODE_OVERWRITE, .oh = p.oh, .ow = p.ow, .in = 0, .wgt = wbase, .acc = 0,
         .iy0 = dma_pad ? 0 : -p.pt, .ix0 = dma_pad ? 0 : -p.pl);
  SB_ADD(sb, enop, .push_next = 1);
  SB_ADD(sb, cfg_store, .src_pitch = p.ow, .stride_x = p.cout, .stride_y = p.ow * p.cout);
  SB_ADD(sb, cfg_epi, .zp_out = p.zo, .lo = p.lo, .hi = p.hi);
  for (int ob = 0; ob < nob; ob++)
    SB_ADD(sb, store, .pop_prev = ob == 0, .src_mem = TSL_SRC_ACC, .dst_mem = TSL_DST_DRAM,
           .n0 = imin(dim, p.cout - ob * dim), .oh = p.oh, .ow = p.ow, .dram = (int64_t)o_off + ob * dim,
           .src_row = ob * p.oh * p.ow, .param = ob);
  npu_model_t *m = run_ok(t, sb, dram, size);
  assert_memory_equal(dram + o_off, ref, no);
  char what[64];
  snprintf(what, sizeof what, "conv %dx%d s%d d%d p%d%s +bias+requant+clamp", p.kh, p.kw, p.sy, p.dy, p.pt,
           dma_pad ? " (DMA pad)" : "");
  if (!quiet) show(what, t, m);
  const uint64_t *c = npu_model_counters(m);
  memcpy(last_counters, c, sizeof last_counters);
  uint64_t d = (uint64_t)dim;
  assert_true(c[TSL_CNT_MACS] == (uint64_t)(nob * p.oh * p.ow * taps * ncb) * d * d);
  assert_true(c[TSL_CNT_DRAM_WR_BYTES] == no);
  assert_true(c[TSL_CNT_DRAM_RD_BYTES] == nx + (uint64_t)(nob * rows_ob) * d + (uint64_t)nob * 9 * d);
  assert_true(c[TSL_CNT_EXEC_CMDS] == (uint64_t)(3 + nob));
  assert_true(c[TSL_CNT_CYCLES] > 0 && c[TSL_CNT_EXEC_BUSY] > 0);
  npu_model_free(m);
  free(sb);
  free(dram);
  free(x);
  free(wt);
  free(ref);
}

static ref_conv_t conv_params(int h, int w, int cin, int cout, int k, int s, int pad, int dil, int zx) {
  ref_conv_t p = {h, w, cin, cout, k, k, s, s, dil, dil, pad, pad, 0, 0, 1, zx, -5, -5, 127};
  p.oh = (h + 2 * pad - dil * (k - 1) - 1) / s + 1;
  p.ow = (w + 2 * pad - dil * (k - 1) - 1) / s + 1;
  return p;
}

static void test_conv_bias_requant_relu(void **state) {
  (void)state;
  for (int i = 0; i < tsl_ntargets; i++) {
    if (!cases_fit(&tsl_targets[i])) continue;
    rng = 7;
    conv_case(&tsl_targets[i], conv_params(9, 7, 11, 10, 3, 2, 1, 1, 3), 0); /* stride 2, pad 1, zx 3 */
    conv_case(&tsl_targets[i], conv_params(9, 7, 11, 10, 3, 2, 1, 1, 3), 1); /* the same with DMA padding */
    conv_case(&tsl_targets[i], conv_params(8, 8, 5, 6, 3, 1, 2, 2, -7), 0);  /* dilation 2, pad 2 */
    conv_case(&tsl_targets[i], conv_params(6, 5, 20, 17, 1, 1, 0, 1, 0), 0); /* 1x1, several blocks */
    conv_case(&tsl_targets[i], conv_params(7, 7, 3, 4, 5, 2, 2, 1, -128), 1); /* 5x5 s2, pad = int8 min */
  }
}

/* ---- grouped conv (groups = 2, channels per group not a multiple of DIM) --
 * Each group's input channels are loaded into their own channel-block planes
 * (the DMA picks channels g*cpg .. g*cpg+cpg-1), each group is one MATMUL with
 * its own weights, and its outputs are stored at channel offset g*opg. */
static void test_grouped_conv(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    rng = 13;
    ref_conv_t p = conv_params(7, 6, 12, 10, 3, 1, 1, 1, 4);
    p.groups = 2;
    const int dim = (int)t->dim, G = 2, cpg = 6, opg = 5, ncb = cdiv(cpg, dim), nobg = cdiv(opg, dim);
    const int taps = 9, plane = p.h * p.w, rows_q = taps * ncb * dim, NQ = G * nobg; /* q = (group, out block) */
    size_t nx = (size_t)(plane * p.cin), nw = (size_t)(p.cout * taps * cpg), no = (size_t)(p.oh * p.ow * p.cout);
    int8_t *x = malloc(nx), *wt = malloc(nw), *ref = malloc(no);
    int32_t bias[16], mult[16], nbias[16];
    uint8_t shift[16];
    rnd_fill(x, nx, -128, 127);
    rnd_fill(wt, nw, -128, 127);
    for (int oc = 0; oc < p.cout; oc++) bias[oc] = rnd_range(-999, 999), mult[oc] = rnd_range(1 << 28, 1 << 30), shift[oc] = 40;
    ref_conv(&p, x, wt, bias, mult, shift, ref);
    size_t w_off = nx, p_off = w_off + (size_t)(NQ * rows_q * dim), o_off = p_off + (size_t)(NQ * 9 * dim), size = o_off + no;
    uint8_t *dram = calloc(size, 1);
    memcpy(dram, x, nx);
    for (int oc = 0; oc < p.cout; oc++) {
      int g = oc / opg, q = g * nobg + (oc % opg) / dim, n = (oc % opg) % dim;
      int64_t sw = 0;
      for (int tp = 0; tp < taps; tp++)
        for (int ic = 0; ic < cpg; ic++) {
          int8_t v = wt[(oc * taps + tp) * cpg + ic];
          sw += v;
          dram[w_off + (size_t)(q * rows_q + (tp * ncb + ic / dim) * dim + ic % dim) * dim + n] = (uint8_t)v;
        }
      nbias[oc] = (int32_t)(bias[oc] - (int64_t)p.zx * sw);
    }
    /* PARAM row q holds the channels of (group, out block) q in its lanes */
    for (int q = 0; q < NQ; q++) {
      int first = (q / nobg) * opg + (q % nobg) * dim, cnt = imin(dim, opg - (q % nobg) * dim);
      put_params(dram + p_off + (size_t)(q * 9 * dim), dim, cnt, nbias + first, mult + first, shift + first);
    }
    sb_t *sb = calloc(1, sizeof *sb);
    SB_ADD(sb, cfg_load, .stride_x = p.cin, .stride_y = p.w * p.cin);
    for (int g = 0; g < G; g++)
      for (int cb = 0; cb < ncb; cb++) /* the DMA picks the group's channels */
        SB_ADD(sb, load, .n0 = imin(dim, cpg - cb * dim), .pad = p.zx, .dram = g * cpg + cb * dim,
               .row = (g * ncb + cb) * plane, .nx = p.w, .ny = p.h, .nz = 1);
    SB_ADD(sb, cfg_load, .stride_x = dim);
    SB_ADD(sb, load, .n0 = dim, .dram = (int64_t)w_off, .row = G * ncb * plane, .nx = NQ * rows_q, .ny = 1, .nz = 1);
    SB_ADD(sb, cfg_load, .stride_x = 9 * dim);
    SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = (int64_t)p_off, .nx = NQ, .ny = 1, .nz = 1, .push_next = 1);
    SB_ADD(sb, cfg_exec, .out_pitch = p.ow, .kh = 3, .kw = 3, .ncb = ncb, .pad = p.zx, .stride_y = 1, .stride_x = 1,
           .dil_y = 1, .dil_x = 1, .in_h = p.h, .in_w = p.w, .in_pitch = p.w, .cb_stride = plane);
    SB_ADD(sb, enop, .pop_prev = 1);
    SB_ADD(sb, loop, .count = G, .body = 2, .stride_b = ncb * plane, .stride_c = nobg * p.oh * p.ow,
           .stride_d = nobg * rows_q);
    SB_ADD(sb, loop, .count = nobg, .body = 1, .stride_c = p.oh * p.ow, .stride_d = rows_q);
    SB_ADD(sb, matmul, .oh = p.oh, .ow = p.ow, .in = 0, .wgt = G * ncb * plane, .acc = 0, .iy0 = -1, .ix0 = -1);
    SB_ADD(sb, enop, .push_next = 1);
    SB_ADD(sb, cfg_store, .src_pitch = p.ow, .stride_x = p.cout, .stride_y = p.ow * p.cout);
    SB_ADD(sb, cfg_epi, .pop_prev = 1, .zp_out = p.zo, .lo = p.lo, .hi = p.hi);
    for (int q = 0; q < NQ; q++)
      SB_ADD(sb, store, .n0 = imin(dim, opg - (q % nobg) * dim), .oh = p.oh, .ow = p.ow,
             .dram = (int64_t)o_off + (q / nobg) * opg + (q % nobg) * dim, .src_row = q * p.oh * p.ow, .param = q);
    npu_model_t *m = run_ok(t, sb, dram, size);
    assert_memory_equal(dram + o_off, ref, no);
    npu_model_free(m);
    free(sb);
    free(dram);
    free(x);
    free(wt);
    free(ref);
  }
}

/* Random conv shapes (kernel, stride, dilation, padding, channel counts,
 * zero points, padding in the generator or in the DMA) on every target. */
static void test_conv_random(void **state) {
  (void)state;
  rng = 2718;
  quiet = 1;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    for (int n = 0; n < 40; n++) {
      int k = rnd_range(1, 4), s = rnd_range(1, 3), d = rnd_range(1, 2), pad = rnd_range(0, k - 1);
      int h = rnd_range(k * d, 11), w = rnd_range(k * d, 11);
      ref_conv_t p = conv_params(h, w, rnd_range(1, 20), rnd_range(1, 20), k, s, pad, d, rnd_range(-128, 127));
      p.zo = rnd_range(-20, 20);
      p.lo = rnd_range(-128, 0);
      p.hi = rnd_range(p.lo, 127);
      if (p.oh < 1 || p.ow < 1) continue;
      conv_case(&tsl_targets[ti], p, (int)(rnd() & 1));
    }
  }
  quiet = 0;
}

/* ---- depthwise --------------------------------------------------------- */

static void dw_case(const tsl_target_t *t, ref_conv_t p) {
  const int dim = (int)t->dim, c = p.cin, ncb = cdiv(c, dim), taps = p.kh * p.kw, plane = p.h * p.w;
  size_t nx = (size_t)(plane * c), nw = (size_t)(c * taps), no = (size_t)(p.oh * p.ow * c);
  int8_t *x = malloc(nx), *wt = malloc(nw), *ref = malloc(no);
  int32_t bias[64], mult[64], nbias[64];
  uint8_t shift[64];
  rnd_fill(x, nx, -128, 127);
  rnd_fill(wt, nw, -128, 127);
  for (int oc = 0; oc < c; oc++) {
    bias[oc] = rnd_range(-3000, 3000);
    mult[oc] = rnd_range(1 << 24, 1 << 30);
    shift[oc] = (uint8_t)rnd_range(34, 38);
  }
  ref_conv(&p, x, wt, bias, mult, shift, ref);
  size_t w_off = nx, p_off = w_off + (size_t)(ncb * taps * dim), o_off = p_off + (size_t)(ncb * 9 * dim);
  size_t size = o_off + no;
  uint8_t *dram = calloc(size, 1);
  memcpy(dram, x, nx);
  for (int ch = 0; ch < c; ch++) {
    int64_t sw = 0;
    for (int tp = 0; tp < taps; tp++) {
      int8_t v = wt[ch * taps + tp];
      sw += v;
      dram[w_off + (size_t)((ch / dim) * taps + tp) * dim + ch % dim] = (uint8_t)v;
    }
    nbias[ch] = (int32_t)(bias[ch] - (int64_t)p.zx * sw);
  }
  put_params(dram + p_off, dim, c, nbias, mult, shift);
  sb_t *sb = calloc(1, sizeof *sb);
  int wbase = ncb * plane;
  SB_ADD(sb, cfg_load, .stride_x = c, .stride_y = p.w * c);
  for (int cb = 0; cb < ncb; cb++)
    SB_ADD(sb, load, .mem = TSL_MEM_SPAD, .n0 = imin(dim, c - cb * dim), .pad = p.zx, .dram = cb * dim,
           .row = cb * plane, .nx = p.w, .ny = p.h, .nz = 1);
  SB_ADD(sb, cfg_load, .stride_x = dim);
  SB_ADD(sb, load, .mem = TSL_MEM_SPAD, .n0 = dim, .dram = (int64_t)w_off, .row = wbase, .nx = ncb * taps, .ny = 1,
         .nz = 1);
  SB_ADD(sb, cfg_load, .stride_x = 9 * dim);
  SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = (int64_t)p_off, .nx = ncb, .ny = 1, .nz = 1,
         .push_next = 1);
  SB_ADD(sb, cfg_exec, .out_pitch = p.ow, .kh = p.kh, .kw = p.kw, .ncb = 1, .pad = p.zx, .stride_y = p.sy,
         .stride_x = p.sx, .dil_y = p.dy, .dil_x = p.dx, .in_h = p.h, .in_w = p.w, .in_pitch = p.w,
         .cb_stride = 0);
  SB_ADD(sb, enop, .pop_prev = 1);
  SB_ADD(sb, loop, .count = ncb, .body = 1, .stride_b = plane, .stride_c = p.oh * p.ow, .stride_d = taps);
  SB_ADD(sb, dwconv, .oh = p.oh, .ow = p.ow, .in = 0, .wgt = wbase, .acc = 0, .iy0 = -p.pt, .ix0 = -p.pl);
  SB_ADD(sb, enop, .push_next = 1);
  SB_ADD(sb, cfg_store, .src_pitch = p.ow, .stride_x = c, .stride_y = p.ow * c);
  SB_ADD(sb, cfg_epi, .zp_out = p.zo, .lo = p.lo, .hi = p.hi);
  for (int cb = 0; cb < ncb; cb++)
    SB_ADD(sb, store, .pop_prev = cb == 0, .n0 = imin(dim, c - cb * dim), .oh = p.oh, .ow = p.ow,
           .dram = (int64_t)o_off + cb * dim, .src_row = cb * p.oh * p.ow, .param = cb);
  npu_model_t *m = run_ok(t, sb, dram, size);
  assert_memory_equal(dram + o_off, ref, no);
  show("depthwise conv +bias+requant+clamp", t, m);
  assert_true(npu_model_counters(m)[TSL_CNT_MACS] == (uint64_t)(ncb * p.oh * p.ow * taps * dim));
  npu_model_free(m);
  free(sb);
  free(dram);
  free(x);
  free(wt);
  free(ref);
}

static void test_depthwise(void **state) {
  (void)state;
  for (int i = 0; i < tsl_ntargets; i++) {
    if (!cases_fit(&tsl_targets[i])) continue;
    rng = 11;
    ref_conv_t p = conv_params(9, 8, 12, 12, 3, 1, 1, 1, 9);
    p.groups = 12;
    dw_case(&tsl_targets[i], p);
    ref_conv_t q = conv_params(10, 9, 19, 19, 3, 2, 2, 2, -3); /* stride 2, dilation 2 */
    q.groups = 19;
    q.lo = -128;
    q.hi = 6 * 10; /* a ReLU6-like clamp */
    dw_case(&tsl_targets[i], q);
  }
}

/* ---- matmul (raw int32 out) ---------------------------------------------- */

static void matmul_case(const tsl_target_t *t, int M, int K, int N) {
  const int dim = (int)t->dim, nkb = cdiv(K, dim), nnb = cdiv(N, dim), rows_nb = nkb * dim;
  int8_t *a = malloc((size_t)(M * K)), *b = malloc((size_t)(K * N));
  int32_t *ref = malloc(sizeof(int32_t) * (size_t)(M * N));
  rnd_fill(a, (size_t)(M * K), -128, 127);
  rnd_fill(b, (size_t)(K * N), -128, 127);
  ref_matmul(M, K, N, a, b, ref);
  size_t b_off = (size_t)(M * K), c_off = b_off + (size_t)(nnb * rows_nb * dim), size = c_off + 4u * (size_t)(M * N);
  uint8_t *dram = calloc(size, 1);
  memcpy(dram, a, (size_t)(M * K));
  for (int k = 0; k < K; k++)
    for (int n = 0; n < N; n++)
      dram[b_off + (size_t)((n / dim) * rows_nb + k) * dim + n % dim] = (uint8_t)b[k * N + n];
  sb_t *sb = calloc(1, sizeof *sb);
  int wbase = nkb * M;
  SB_ADD(sb, cfg_load, .stride_x = K);
  for (int kb = 0; kb < nkb; kb++)
    SB_ADD(sb, load, .n0 = imin(dim, K - kb * dim), .dram = kb * dim, .row = kb * M, .nx = M, .ny = 1, .nz = 1);
  SB_ADD(sb, cfg_load, .stride_x = dim);
  SB_ADD(sb, load, .n0 = dim, .dram = (int64_t)b_off, .row = wbase, .nx = nnb * rows_nb, .ny = 1, .nz = 1,
         .push_next = 1);
  SB_ADD(sb, cfg_exec, .out_pitch = M, .kh = 1, .kw = 1, .ncb = nkb, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 1, .in_w = M, .in_pitch = M, .cb_stride = M);
  /* a loop body pops and pushes on every iteration: the one-time tokens go
   * on commands around the loops (ENOP, CFG_EPI) */
  SB_ADD(sb, enop, .pop_prev = 1);
  SB_ADD(sb, loop, .count = nnb, .body = 1, .stride_c = M, .stride_d = rows_nb);
  SB_ADD(sb, matmul, .oh = 1, .ow = M, .wgt = wbase);
  SB_ADD(sb, enop, .push_next = 1);
  SB_ADD(sb, cfg_store, .src_pitch = M, .stride_x = 4 * N, .stride_y = 0);
  SB_ADD(sb, cfg_epi, .pop_prev = 1, .lo = -128, .hi = 127);
  SB_ADD(sb, lstride, .stride_g = 4 * dim);
  SB_ADD(sb, loop, .count = nnb - 1, .body = 1, .stride_c = M);
  SB_ADD(sb, store, .raw = 1, .n0 = dim, .oh = 1, .ow = M, .dram = (int64_t)c_off);
  SB_ADD(sb, store, .raw = 1, .n0 = N - (nnb - 1) * dim, .oh = 1, .ow = M,
         .dram = (int64_t)c_off + 4 * (nnb - 1) * dim, .src_row = (nnb - 1) * M);
  npu_model_t *m = run_ok(t, sb, dram, size);
  for (int i = 0; i < M * N; i++) {
    int32_t v;
    memcpy(&v, dram + c_off + 4 * (size_t)i, 4);
    if (v != ref[i]) fail_msg("%s: C[%d] = %d, want %d", t->name, i, v, ref[i]);
  }
  show("matmul (raw int32 out)", t, m);
  assert_true(npu_model_counters(m)[TSL_CNT_MACS] == (uint64_t)(M * nkb * nnb) * (uint64_t)(dim * dim));
  npu_model_free(m);
  free(sb);
  free(dram);
  free(a);
  free(b);
  free(ref);
}

/* N > 16 >= DIM, so there are always at least two output blocks */
static void test_matmul(void **state) {
  (void)state;
  for (int i = 0; i < tsl_ntargets; i++) {
    if (!cases_fit(&tsl_targets[i])) continue;
    rng = 5;
    matmul_case(&tsl_targets[i], 20, 19, 37);
    matmul_case(&tsl_targets[i], 64, 48, 33);
  }
}

/* ---- arithmetic: the model's rounding against the reference formula ------ */

static void test_rounding_helpers(void **state) {
  (void)state;
  /* ties go to even, both signs */
  assert_true(npu_rne_shift(1, 1) == 0 && npu_rne_shift(3, 1) == 2 && npu_rne_shift(5, 1) == 2);
  assert_true(npu_rne_shift(-1, 1) == 0 && npu_rne_shift(-3, 1) == -2 && npu_rne_shift(-5, 1) == -2);
  assert_true(npu_rne_shift(6, 2) == 2 && npu_rne_shift(-6, 2) == -2 && npu_rne_shift(7, 2) == 2);
  assert_true(npu_rne_shift(INT64_MIN, 63) == -1 && npu_rne_shift(INT64_MAX, 63) == 1);
  assert_true(npu_rne_div(5, 2) == 2 && npu_rne_div(7, 2) == 4 && npu_rne_div(-5, 2) == -2);
  assert_true(npu_rne_div(-7, 2) == -4 && npu_rne_div(10, 4) == 2 && npu_rne_div(-10, 4) == -2);
  assert_true(npu_rne_div(1, 3) == 0 && npu_rne_div(2, 3) == 1 && npu_rne_div(-2, 3) == -1);
  rng = 3;
  for (int i = 0; i < 200000; i++) {
    int64_t v = ((int64_t)rnd() << 31) ^ (int64_t)rnd();
    if (rnd() & 1) v = -v;
    unsigned s = rnd() % 64;
    if (s > 40 && (rnd() & 1)) v = (int64_t)((uint64_t)v << 20);
    if (i % 7 == 0) v = (int64_t)((uint64_t)(rnd() % 64) << (s ? s - 1 : 0)); /* exact ties and multiples */
    if (npu_rne_shift(v, s) != ref_rne_shift(v, s))
      fail_msg("rne_shift(%lld, %u) = %lld, want %lld", (long long)v, s, (long long)npu_rne_shift(v, s),
               (long long)ref_rne_shift(v, s));
    int64_t d = (int64_t)(rnd() % 100000) + 1;
    if (i % 5 == 0) v = d * (int64_t)(rnd() % 1000) + d / 2 * (int64_t)(d % 2 == 0); /* ties */
    if (npu_rne_div(v, d) != ref_rne_div(v, d))
      fail_msg("rne_div(%lld, %lld)", (long long)v, (long long)d);
  }
  /* the ends of int64 (npu_rne_div divides |n| unsigned) */
  const int64_t ends[] = {INT64_MIN, INT64_MIN + 1, -((int64_t)1 << 62), -3, -1, 0, 1, 3, (int64_t)1 << 62, INT64_MAX};
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
    for (size_t j = 0; j < sizeof ends / sizeof ends[0]; j++)
      if (ends[j] > 0 && npu_rne_div(ends[i], ends[j]) != ref_rne_div(ends[i], ends[j]))
        fail_msg("rne_div(%lld, %lld)", (long long)ends[i], (long long)ends[j]);
}

/* ---- epilogue: ties, saturation, clamps, through LOAD ACC + STORE --------- */

static void test_epilogue_ties_and_saturation(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    const int dim = (int)t->dim, nrows = 12;
    int32_t acc[12 * 16];
    int32_t bias[16], mult[16];
    uint8_t shift[16];
    rng = 99;
    for (int c = 0; c < dim; c++) {
      bias[c] = c % 4 == 0 ? INT32_MAX : c % 4 == 1 ? INT32_MIN : rnd_range(-9, 9);
      mult[c] = c % 3 == 0 ? 1 : c % 3 == 1 ? INT32_MAX : rnd_range(1, 1 << 30);
      shift[c] = (uint8_t)(c % 3 == 0 ? 1 : c % 3 == 1 ? 62 : rnd_range(20, 40));
    }
    for (int r = 0; r < nrows; r++)
      for (int c = 0; c < dim; c++) {
        int32_t v;
        switch (r % 4) {
        case 0: v = 2 * rnd_range(-5, 5) + 1 - bias[c] % 2 * 0; break;             /* odd: ties at shift 1 */
        case 1: v = r % 8 < 4 ? INT32_MAX : INT32_MIN; break;                       /* saturation */
        case 2: v = (int32_t)(rnd_range(-1, 1) * ((int64_t)1 << (shift[c] > 30 ? 30 : shift[c] - 1))); break;
        default: v = (int32_t)rnd();
        }
        acc[r * dim + c] = v;
      }
    /* ties: make acc + bias odd when mult = 1, shift = 1 */
    for (int r = 0; r < nrows; r += 4)
      for (int c = 0; c < dim; c += 3)
        if (bias[c] > -100 && bias[c] < 100) acc[r * dim + c] = 2 * rnd_range(-5, 5) + 1 - bias[c];
    const int zo = -3, lo = -100, hi = 90;
    size_t a_off = 0, p_off = (size_t)(4 * nrows * dim), o_off = p_off + (size_t)(9 * dim), size = o_off + (size_t)(nrows * dim);
    uint8_t *dram = calloc(size, 1);
    for (int i = 0; i < nrows * dim; i++) put32(dram + a_off + 4 * i, acc[i]);
    put_params(dram + p_off, dim, dim, bias, mult, shift);
    sb_t *sb = calloc(1, sizeof *sb);
    SB_ADD(sb, cfg_load, .stride_x = 4 * dim);
    SB_ADD(sb, load, .mem = TSL_MEM_ACC, .n0 = dim, .row = 3, .nx = nrows, .ny = 1, .nz = 1);
    SB_ADD(sb, cfg_load, .stride_x = 9 * dim);
    SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = (int64_t)p_off, .row = 1, .nx = 1, .ny = 1, .nz = 1,
           .push_next = 1);
    SB_ADD(sb, enop, .pop_prev = 1, .push_next = 1);
    SB_ADD(sb, cfg_store, .src_pitch = 4, .stride_x = dim, .stride_y = 4 * dim);
    SB_ADD(sb, cfg_epi, .zp_out = zo, .lo = lo, .hi = hi);
    SB_ADD(sb, store, .pop_prev = 1, .n0 = dim, .oh = 3, .ow = 4, .dram = (int64_t)o_off, .src_row = 3, .param = 1);
    npu_model_t *m = run_ok(t, sb, dram, size);
    for (int i = 0; i < nrows * dim; i++) {
      int c = i % dim;
      int64_t tt = (int64_t)acc[i] + bias[c];
      tt = tt > INT32_MAX ? INT32_MAX : tt < INT32_MIN ? INT32_MIN : tt;
      int8_t want = ref_clamp(ref_rne_shift(tt * mult[c], shift[c]) + zo, lo, hi);
      if ((int8_t)dram[o_off + (size_t)i] != want)
        fail_msg("%s: lane %d row %d: %d, want %d", t->name, c, i / dim, (int8_t)dram[o_off + (size_t)i], want);
    }
    npu_model_free(m);
    free(sb);
    free(dram);
  }
}

/* ---- residual add ------------------------------------------------------- */

static void test_residual_add(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    const int dim = (int)t->dim, h = 5, w = 7, c = 11, ncb = cdiv(c, dim), n = h * w;
    const int za = 4, zb = -9, zo = 2, lo = -128, hi = 127, sh = 20;
    const int32_t ma = 700000, mb = 1300000;
    size_t nb = (size_t)(n * c);
    uint8_t *dram = calloc(3 * nb, 1);
    rng = 17;
    rnd_fill((int8_t *)dram, 2 * nb, -128, 127);
    sb_t *sb = calloc(1, sizeof *sb);
    SB_ADD(sb, cfg_load, .stride_x = c);
    for (int in = 0; in < 2; in++)
      for (int cb = 0; cb < ncb; cb++)
        SB_ADD(sb, load, .n0 = imin(dim, c - cb * dim), .dram = (int64_t)(in * nb) + cb * dim,
               .row = (in * ncb + cb) * n, .nx = n, .ny = 1, .nz = 1, .push_next = in == 1 && cb == ncb - 1);
    SB_ADD(sb, cfg_vec, .shift = sh, .zp_out = zo, .mult_a = ma, .mult_b = mb, .zp_a = za, .zp_b = zb, .lo = lo,
           .hi = hi);
    SB_ADD(sb, vadd, .pop_prev = 1, .push_next = 1, .a = 0, .b = ncb * n, .out = 0, .rows = ncb * n); /* in place */
    SB_ADD(sb, cfg_store, .src_pitch = w, .stride_x = c, .stride_y = w * c);
    SB_ADD(sb, cfg_epi, .pop_prev = 1, .lo = -128, .hi = 127);
    for (int cb = 0; cb < ncb; cb++)
      SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .n0 = imin(dim, c - cb * dim), .oh = h, .ow = w,
             .dram = (int64_t)(2 * nb) + cb * dim, .src_row = cb * n);
    npu_model_t *m = run_ok(t, sb, dram, 3 * nb);
    for (size_t i = 0; i < nb; i++) {
      int64_t v = ((int64_t)(int8_t)dram[i] - za) * ma + ((int64_t)(int8_t)dram[nb + i] - zb) * mb;
      int8_t want = ref_clamp(ref_rne_shift(v, sh) + zo, lo, hi);
      assert_int_equal((int8_t)dram[2 * nb + i], want);
    }
    show("residual add (VADD, requant both)", t, m);
    const uint64_t *cn = npu_model_counters(m);
    assert_true(cn[TSL_CNT_SPAD_RD_BYTES] == (uint64_t)(2 * ncb * n * dim) + (uint64_t)(ncb * n * dim));
    assert_true(cn[TSL_CNT_DRAM_WR_BYTES] == nb && cn[TSL_CNT_DRAM_RD_BYTES] == 2 * nb);
    npu_model_free(m);
    free(sb);
    free(dram);
  }
}

/* ---- pooling ------------------------------------------------------------- */

static void pool_case(const tsl_target_t *t, int h, int w, int k, int s, int pad, int include_pad, int global) {
  const int dim = (int)t->dim, c = 10, ncb = cdiv(c, dim), plane = h * w;
  int oh = global ? 1 : (h + 2 * pad - k) / s + 1, ow = global ? 1 : (w + 2 * pad - k) / s + 1;
  int kh = global ? h : k, kw = global ? w : k;
  const int zx = -6, zo = 5, sh = 16;
  const int32_t mult = 51000; /* scale_in/scale_out ~ 0.78 */
  size_t nx = (size_t)(plane * c), no = (size_t)(oh * ow * c), nmo = (size_t)(((h + 2 * pad - 3) / 2 + 1) * ((w + 2 * pad - 3) / 2 + 1) * c);
  uint8_t *dram = calloc(nx + no + nmo, 1);
  int8_t *ref = malloc(no), *mref = malloc(nmo);
  rnd_fill((int8_t *)dram, nx, -128, 127);
  if (global) {
    /* reference: a global pool is a k = h x w window; do it by hand */
    for (int ch = 0; ch < c; ch++) {
      int64_t sum = 0;
      for (int i = 0; i < plane; i++) sum += (int8_t)dram[i * c + ch] - zx;
      ref[ch] = ref_clamp(ref_rne_div(sum * mult, (int64_t)plane << sh) + zo, -128, 127);
    }
  } else {
    ref_avgpool(h, w, c, k, s, pad, include_pad, zx, mult, sh, zo, -128, 127, oh, ow, (const int8_t *)dram, ref);
  }
  int moh = (h + 2 * pad - 3) / 2 + 1, mow = (w + 2 * pad - 3) / 2 + 1;
  ref_maxpool(h, w, c, 3, 2, pad, moh, mow, (const int8_t *)dram, mref);
  sb_t *sb = calloc(1, sizeof *sb);
  SB_ADD(sb, cfg_load, .stride_x = c, .stride_y = w * c);
  for (int cb = 0; cb < ncb; cb++)
    SB_ADD(sb, load, .n0 = imin(dim, c - cb * dim), .pad = -128, .dram = cb * dim, .row = cb * plane, .nx = w,
           .ny = h, .nz = 1, .push_next = cb == ncb - 1);
  SB_ADD(sb, cfg_exec, .out_pitch = ow, .kh = kh, .kw = kw, .ncb = 1, .pad = 0, .stride_y = s, .stride_x = s,
         .dil_y = 1, .dil_x = 1, .in_h = h, .in_w = w, .in_pitch = w);
  SB_ADD(sb, cfg_vec, .shift = sh, .zp_out = zo, .mult_a = mult, .zp_a = zx, .lo = -128, .hi = 127);
  int obase = ncb * plane;
  SB_ADD(sb, enop, .pop_prev = 1);
  SB_ADD(sb, loop, .count = ncb, .body = 1, .stride_b = plane, .stride_c = oh * ow);
  SB_ADD(sb, vpool, .exclude_pad = !include_pad, .oh = oh, .ow = ow, .in = 0, .out = obase, .iy0 = global ? 0 : -pad,
         .ix0 = global ? 0 : -pad);
  SB_ADD(sb, enop, .push_next = 1);
  SB_ADD(sb, cfg_store, .src_pitch = ow, .stride_x = c, .stride_y = ow * c);
  SB_ADD(sb, cfg_epi, .pop_prev = 1, .lo = -128, .hi = 127);
  for (int cb = 0; cb < ncb; cb++)
    SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .n0 = imin(dim, c - cb * dim), .oh = oh, .ow = ow,
           .dram = (int64_t)nx + cb * dim, .src_row = obase + cb * oh * ow);
  /* max pool 3x3 s2 straight from the input planes, by the STORE unit */
  SB_ADD(sb, cfg_store, .src_pitch = w, .stride_x = c, .stride_y = mow * c);
  SB_ADD(sb, cfg_epi, .pool_k = 3, .pool_s = 2, .pool_pad_t = pad, .pool_pad_l = pad, .lo = -128, .hi = 127,
         .src_h = h, .src_w = w);
  for (int cb = 0; cb < ncb; cb++)
    SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .n0 = imin(dim, c - cb * dim), .oh = moh, .ow = mow,
           .dram = (int64_t)(nx + no) + cb * dim, .src_row = cb * plane);
  npu_model_t *m = run_ok(t, sb, dram, nx + no + nmo);
  assert_memory_equal(dram + nx, ref, no);
  assert_memory_equal(dram + nx + no, mref, nmo);
  npu_model_free(m);
  free(sb);
  free(dram);
  free(ref);
  free(mref);
}

static void test_pooling_borders(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    rng = 23;
    pool_case(&tsl_targets[ti], 7, 6, 3, 2, 1, 0, 0); /* exclude pad: border divisors 4, 6 */
    pool_case(&tsl_targets[ti], 7, 6, 3, 2, 1, 1, 0); /* include pad: always 9 */
    pool_case(&tsl_targets[ti], 5, 5, 2, 2, 0, 0, 0);
    pool_case(&tsl_targets[ti], 7, 7, 1, 1, 0, 0, 1); /* global 7x7 */
  }
}

/* Max pool fused in the epilogue, from ACC, after requantisation. */
static void test_epilogue_maxpool(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    const int dim = (int)t->dim, sh = 6, sw = 5, n = sh * sw, oh = 3, ow = 3; /* 2x2 s2 pad 1 (top-left) */
    int32_t bias[16], mult[16];
    uint8_t shift[16];
    rng = 31;
    for (int c = 0; c < dim; c++) bias[c] = rnd_range(-100, 100), mult[c] = rnd_range(1 << 20, 1 << 22), shift[c] = 24;
    size_t p_off = (size_t)(4 * n * dim), o_off = p_off + (size_t)(9 * dim), size = o_off + (size_t)(oh * ow * dim);
    uint8_t *dram = calloc(size, 1);
    int32_t acc[30 * 16];
    for (int i = 0; i < n * dim; i++) put32(dram + 4 * i, acc[i] = rnd_range(-3000, 3000));
    put_params(dram + p_off, dim, dim, bias, mult, shift);
    sb_t *sb = calloc(1, sizeof *sb);
    SB_ADD(sb, cfg_load, .stride_x = 4 * dim);
    SB_ADD(sb, load, .mem = TSL_MEM_ACC, .n0 = dim, .nx = n, .ny = 1, .nz = 1);
    SB_ADD(sb, cfg_load, .stride_x = 9 * dim);
    SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = dim, .dram = (int64_t)p_off, .nx = 1, .ny = 1, .nz = 1, .push_next = 1);
    SB_ADD(sb, enop, .pop_prev = 1, .push_next = 1);
    SB_ADD(sb, cfg_store, .src_pitch = sw, .stride_x = dim, .stride_y = ow * dim);
    SB_ADD(sb, cfg_epi, .pool_k = 2, .pool_s = 2, .pool_pad_t = 1, .pool_pad_l = 1, .zp_out = 1, .lo = 0, .hi = 127,
           .src_h = sh, .src_w = sw);
    SB_ADD(sb, store, .pop_prev = 1, .n0 = dim, .oh = oh, .ow = ow, .dram = (int64_t)o_off);
    npu_model_t *m = run_ok(t, sb, dram, size);
    for (int y = 0; y < oh; y++)
      for (int x = 0; x < ow; x++)
        for (int c = 0; c < dim; c++) {
          int best = -1000;
          for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
              int yy = 2 * y - 1 + i, xx = 2 * x - 1 + j;
              if (yy < 0 || yy >= sh || xx < 0 || xx >= sw) continue;
              int v = ref_clamp(ref_rne_shift((int64_t)(acc[(yy * sw + xx) * dim + c] + bias[c]) * mult[c], 24) + 1, 0, 127);
              if (v > best) best = v;
            }
          assert_int_equal((int8_t)dram[o_off + (size_t)((y * ow + x) * dim + c)], best);
        }
    /* the windows' inside taps cover source rows 0..4 x cols 0..4 (row 5 is
     * never read), each read once: every read counts */
    assert_true(npu_model_counters(m)[TSL_CNT_ACC_RD_BYTES] == (uint64_t)(25 * 4 * dim));
    npu_model_free(m);
    free(sb);
    free(dram);
  }
}

/* ---- hardware loops --------------------------------------------------------- */

/* A 2-level loop nest copies a 6x10 grid of 3x4-pixel tiles (C = 3) through
 * the scratchpad to another place, transposing the tile order; the same
 * stream unrolled by hand gives identical memory and counters. */
static void build_tile_copy(sb_t *sb, int dim, int unrolled) {
  const int C = 3, TH = 3, TW = 4, GY = 6, GX = 10, W = GX * TW;
  const int64_t out = (int64_t)GY * TH * W * C;
  SB_ADD(sb, cfg_load, .stride_x = C, .stride_y = W * C);
  SB_ADD(sb, cfg_store, .src_pitch = TW, .stride_x = C, .stride_y = W * C);
  (void)dim;
  /* every LOAD gives EXEC a token, which an ENOP takes; one token then goes
   * to STORE (pushing one per tile would fill the EXEC->STORE counter before
   * the dispatcher reaches the STOREs: a deadlock the model reports) */
  if (!unrolled) {
    SB_ADD(sb, loop, .count = GY, .body = 3, .stride_a = TH * W * C, .stride_b = GX * TH * TW);
    SB_ADD(sb, loop, .count = GX, .body = 2, .stride_a = TW * C, .stride_b = TH * TW);
    SB_ADD(sb, load, .n0 = C, .nx = TW, .ny = TH, .nz = 1, .push_next = 1);
    SB_ADD(sb, enop, .pop_prev = 1);
  } else {
    for (int gy = 0; gy < GY; gy++)
      for (int gx = 0; gx < GX; gx++) {
        SB_ADD(sb, load, .n0 = C, .nx = TW, .ny = TH, .nz = 1, .push_next = 1,
               .dram = (gy * TH * W + gx * TW) * C, .row = (gy * GX + gx) * TH * TW);
        SB_ADD(sb, enop, .pop_prev = 1);
      }
  }
  SB_ADD(sb, enop, .push_next = 1);
  SB_ADD(sb, cfg_epi, .pop_prev = 1, .lo = -128, .hi = 127);
  if (!unrolled) { /* store pass: a separate nest, walking the tiles in transposed order */
    SB_ADD(sb, lstride, .stride_g = TW * C);
    SB_ADD(sb, loop, .count = GX, .body = 3, .stride_c = TH * TW);
    SB_ADD(sb, lstride, .stride_g = TH * W * C);
    SB_ADD(sb, loop, .count = GY, .body = 1, .stride_c = GX * TH * TW);
    SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .n0 = C, .oh = TH, .ow = TW, .dram = out);
  } else {
    for (int gx = 0; gx < GX; gx++)
      for (int gy = 0; gy < GY; gy++)
        SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .n0 = C, .oh = TH, .ow = TW,
               .dram = out + (gy * TH * W + gx * TW) * C, .src_row = (gy * GX + gx) * TH * TW);
  }
}

static void test_loops(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    size_t half = 18 * 40 * 3;
    uint8_t *d1 = calloc(2 * half, 1), *d2 = calloc(2 * half, 1);
    rng = 41;
    rnd_fill((int8_t *)d1, half, -128, 127);
    memcpy(d2, d1, half);
    sb_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    build_tile_copy(a, (int)t->dim, 0);
    build_tile_copy(b, (int)t->dim, 1);
    assert_true(a->n < 14 && b->n > 150);
    assert_int_equal(b->n, a->n - 6 - 3 + 60 * 2 + 60); /* loops gone, bodies unrolled */
    npu_model_t *ma = run_ok(t, a, d1, 2 * half), *mb = run_ok(t, b, d2, 2 * half);
    assert_memory_equal(d1 + half, d1, half); /* the copy is exact */
    assert_memory_equal(d1, d2, 2 * half);
    /* exact counters agree; cycles may differ by the LOOP commands' dispatch slots */
    for (int k = TSL_CNT_MACS; k < TSL_NCOUNTERS; k++)
      assert_true(npu_model_counters(ma)[k] == npu_model_counters(mb)[k]);
    assert_memory_equal(npu_model_spad(ma), npu_model_spad(mb), (size_t)(t->spad_rows * t->dim));
    npu_model_free(ma);
    npu_model_free(mb);
    free(a);
    free(b);
    free(d1);
    free(d2);
  }
}

/* Slot E/F strides walk a conv over output tiles: 4 tiles of a 3x3 conv, one
 * MATMUL in a 2-level loop, equal to the whole-image conv. */
static void test_loop_conv_tiles(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu8");
  const int dim = 8, H = 8, W = 8, C = 8, taps = 9;
  ref_conv_t p = conv_params(H, W, C, C, 3, 1, 1, 1, 2);
  int8_t x[8 * 8 * 8], wt[8 * 9 * 8];
  int32_t ref[8 * 8 * 8];
  rng = 57;
  rnd_fill(x, sizeof x, -128, 127);
  rnd_fill(wt, sizeof wt, -128, 127);
  ref_conv_acc(&p, x, wt, ref);
  size_t w_off = sizeof x, o_off = w_off + (size_t)(taps * dim * dim), size = o_off + sizeof ref;
  uint8_t *dram = calloc(size, 1);
  memcpy(dram, x, sizeof x);
  int32_t corr[8] = {0};
  for (int oc = 0; oc < C; oc++)
    for (int tp = 0; tp < taps; tp++)
      for (int ic = 0; ic < C; ic++) {
        dram[w_off + (size_t)(tp * dim + ic) * dim + oc] = (uint8_t)wt[(oc * taps + tp) * C + ic];
        corr[oc] += p.zx * wt[(oc * taps + tp) * C + ic];
      }
  sb_t *sb = calloc(1, sizeof *sb);
  SB_ADD(sb, cfg_load, .stride_x = C, .stride_y = W * C);
  SB_ADD(sb, load, .n0 = C, .nx = W, .ny = H, .nz = 1);
  SB_ADD(sb, cfg_load, .stride_x = dim);
  SB_ADD(sb, load, .n0 = dim, .dram = (int64_t)w_off, .row = 64, .nx = taps * dim, .ny = 1, .nz = 1, .push_next = 1);
  SB_ADD(sb, cfg_exec, .out_pitch = W, .kh = 3, .kw = 3, .ncb = 1, .pad = p.zx, .stride_y = 1, .stride_x = 1,
         .dil_y = 1, .dil_x = 1, .in_h = H, .in_w = W, .in_pitch = W, .cb_stride = 0);
  SB_ADD(sb, enop, .pop_prev = 1);
  /* tiles of 4x4 outputs: E/F move the window, C moves the accumulator tile */
  SB_ADD(sb, loop, .count = 2, .body = 2, .stride_c = 4 * W, .stride_e = 4);
  SB_ADD(sb, loop, .count = 2, .body = 1, .stride_c = 4, .stride_f = 4);
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .wgt = 64, .iy0 = -1, .ix0 = -1);
  SB_ADD(sb, enop, .push_next = 1);
  SB_ADD(sb, cfg_store, .src_pitch = W, .stride_x = 4 * C, .stride_y = 4 * W * C);
  SB_ADD(sb, cfg_epi, .pop_prev = 1);
  SB_ADD(sb, store, .raw = 1, .n0 = C, .oh = H, .ow = W, .dram = (int64_t)o_off);
  npu_model_t *m = run_ok(t, sb, dram, size);
  for (int i = 0; i < H * W * C; i++) {
    int32_t v;
    memcpy(&v, dram + o_off + 4 * (size_t)i, 4);
    assert_int_equal(v - corr[i % C], ref[i]);
  }
  npu_model_free(m);
  free(sb);
  free(dram);
}

/* ---- tokens: a double-buffered LOAD/EXEC/STORE pipeline ---------------------- */

static void pipeline(const tsl_target_t *t, int tokens, uint8_t *dram, size_t size, uint64_t *cycles) {
  const int dim = (int)t->dim, M = 64, T = 6; /* T tiles of M x DIM times DIM x DIM */
  sb_t *sb = calloc(1, sizeof *sb);
  SB_ADD(sb, cfg_load, .stride_x = dim);
  SB_ADD(sb, load, .n0 = dim, .dram = 0, .row = 1000, .nx = dim, .ny = 1, .nz = 1, .push_next = !tokens);
  SB_ADD(sb, cfg_exec, .out_pitch = M, .kh = 1, .kw = 1, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 1, .in_w = M, .in_pitch = M);
  SB_ADD(sb, cfg_store, .src_pitch = M, .stride_x = 4 * dim);
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127);
  if (!tokens) SB_ADD(sb, enop, .pop_prev = 1);
  for (int i = 0; i < T; i++) {
    int buf = i % 2;
    int64_t a = dim * dim + (int64_t)i * M * dim, c = dim * dim + (int64_t)T * M * dim + (int64_t)i * M * 4 * dim;
    if (tokens) {
      /* LOAD: wait until EXEC freed the buffer (not for the first two) */
      SB_ADD(sb, load, .pop_next = i >= 2, .push_next = 1, .n0 = dim, .dram = a, .row = buf * M, .nx = M, .ny = 1, .nz = 1);
      SB_ADD(sb, matmul, .pop_prev = 1, .pop_next = i >= 2, .push_prev = 1, .push_next = 1, .oh = 1, .ow = M,
             .in = buf * M, .wgt = 1000, .acc = buf * M);
      SB_ADD(sb, store, .pop_prev = 1, .push_prev = 1, .raw = 1, .n0 = dim, .oh = 1, .ow = M, .dram = c,
             .src_row = buf * M);
    } else { /* serialised: every step waits for the previous one */
      SB_ADD(sb, load, .push_next = 1, .n0 = dim, .dram = a, .row = buf * M, .nx = M, .ny = 1, .nz = 1);
      SB_ADD(sb, matmul, .pop_prev = 1, .push_next = 1, .oh = 1, .ow = M, .in = buf * M, .wgt = 1000, .acc = buf * M);
      SB_ADD(sb, store, .pop_prev = 1, .push_prev = 1, .raw = 1, .n0 = dim, .oh = 1, .ow = M, .dram = c,
             .src_row = buf * M);
      SB_ADD(sb, enop, .pop_next = 1, .push_prev = 1);
      SB_ADD(sb, load, .pop_next = 1, .n0 = 1, .dram = 0, .row = 2000, .nx = 1, .ny = 1, .nz = 1);
    }
  }
  npu_model_t *m = run_ok(t, sb, dram, size);
  *cycles = npu_model_counters(m)[TSL_CNT_CYCLES];
  if (tokens) assert_true(npu_model_counters(m)[TSL_CNT_LOAD_STALL_TOKEN] + npu_model_counters(m)[TSL_CNT_EXEC_STALL_TOKEN] > 0);
  npu_model_free(m);
  free(sb);
}

static void test_tokens_double_buffer(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    const int dim = (int)t->dim, M = 64, T = 6;
    size_t a_sz = (size_t)(dim * dim + T * M * dim), size = a_sz + (size_t)(T * M * 4 * dim);
    uint8_t *d1 = calloc(size, 1), *d2 = calloc(size, 1);
    rng = 71;
    rnd_fill((int8_t *)d1, a_sz, -128, 127);
    memcpy(d2, d1, a_sz);
    uint64_t fast, slow;
    pipeline(t, 1, d1, size, &fast);
    pipeline(t, 0, d2, size, &slow);
    assert_memory_equal(d1, d2, size);
    int32_t *ref = malloc(sizeof(int32_t) * (size_t)(M * dim));
    for (int i = 0; i < T; i++) {
      ref_matmul(M, dim, dim, (const int8_t *)d1 + dim * dim + i * M * dim, (const int8_t *)d1, ref);
      assert_memory_equal(d1 + a_sz + (size_t)(i * M * 4 * dim), ref, sizeof(int32_t) * (size_t)(M * dim));
    }
    free(ref);
    assert_true(fast < slow); /* overlap pays */
    free(d1);
    free(d2);
  }
}

/* ---- MARK: barrier, snapshots, records ------------------------------------ */

static void test_mark_records(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu8");
  size_t size = 4096;
  uint8_t *dram = calloc(size, 1);
  sb_t *sb = calloc(1, sizeof *sb);
  SB_ADD(sb, mark, .kernel = 7, .record = 1, .dram = 1024);
  SB_ADD(sb, cfg_load, .stride_x = 8);
  SB_ADD(sb, load, .n0 = 5, .nx = 3, .ny = 1, .nz = 1);
  SB_ADD(sb, mark, .kernel = 8, .record = 1, .dram = 2048);
  SB_ADD(sb, mark, .kernel = 9);
  npu_model_t *m = run_ok(t, sb, dram, size);
  assert_int_equal(npu_model_nsnapshots(m), 3);
  const npu_snapshot_t *s0 = npu_model_snapshot(m, 0), *s1 = npu_model_snapshot(m, 1);
  assert_true(s0->kernel == 7 && s0->seq == 1 && s0->counters[TSL_CNT_DRAM_RD_BYTES] == 0);
  assert_true(s1->kernel == 8 && s1->seq == 2);
  /* the barrier waited for the LOAD: its exact bytes are in the snapshot */
  assert_true(s1->counters[TSL_CNT_DRAM_RD_BYTES] == 15 && s1->counters[TSL_CNT_SPAD_WR_BYTES] == 3 * 8);
  assert_true(s1->counters[TSL_CNT_LOAD_CMDS] == 2);
  uint64_t v;
  memcpy(&v, dram + 2048, 8);
  assert_true(v == 8);
  memcpy(&v, dram + 2048 + 8, 8);
  assert_true(v == 2);
  for (int i = 0; i < TSL_NCOUNTERS; i++) {
    memcpy(&v, dram + 2048 + 16 + 8 * (size_t)i, 8);
    assert_true(v == s1->counters[i]);
  }
  assert_null(npu_model_snapshot(m, 3));
  npu_model_free(m);
  free(sb);
  free(dram);
}

/* ---- the counters' exact byte rules for a MATMUL ---------------------------- */

static void test_counters_exact(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu4");
  uint8_t dram[64] = {0};
  sb_t *sb = calloc(1, sizeof *sb);
  /* 2x3 output, 3x3 kernel, pad 1 on a 2x3 image, ncb 2, accumulate */
  SB_ADD(sb, cfg_exec, .out_pitch = 3, .kh = 3, .kw = 3, .ncb = 2, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 2, .in_w = 3, .in_pitch = 3, .cb_stride = 6);
  SB_ADD(sb, matmul, .acc_mode = TSL_ACCMODE_ACCUMULATE, .oh = 2, .ow = 3, .in = 0, .wgt = 100, .iy0 = -1, .ix0 = -1);
  SB_ADD(sb, matmul, .acc_mode = TSL_ACCMODE_OVERWRITE, .oh = 2, .ow = 3, .in = 0, .wgt = 100, .iy0 = -1, .ix0 = -1);
  npu_model_t *m = run_ok(t, sb, dram, sizeof dram);
  const uint64_t *c = npu_model_counters(m);
  /* inside taps: for each output pixel, the 3x3 window's taps inside the 2x3
   * image: corners 4, middles 6 -> 4+6+4+4+6+4 = 28, times 2 blocks */
  uint64_t inside = 28 * 2, passes = 18, rows = 6;
  assert_true(c[TSL_CNT_SPAD_RD_BYTES] == 2 * (inside * 4 + passes * 16));
  assert_true(c[TSL_CNT_ACC_WR_BYTES] == 2 * passes * rows * 16);
  assert_true(c[TSL_CNT_ACC_RD_BYTES] == (passes + passes - 1) * rows * 16);
  assert_true(c[TSL_CNT_MACS] == 2 * rows * passes * 16);
  assert_true(c[TSL_CNT_EXEC_STALL_PRELOAD] > 0); /* 6 rows per tile vs 4-cycle preload: only the first */
  npu_model_free(m);
  free(sb);
}

/* Timing follows from the dependences alone: stepping the units in any order
 * gives the same counters, cycles included (the double-buffered pipeline, the
 * streamed GEMM of the bench shape scaled down, and a deadlock). */
static void test_step_order_independent(void **state) {
  (void)state;
  for (int ti = 0; ti < tsl_ntargets; ti++) {
    if (!cases_fit(&tsl_targets[ti])) continue;
    const tsl_target_t *t = &tsl_targets[ti];
    const int dim = (int)t->dim, M = 64, T = 6;
    size_t size = (size_t)(dim * dim + T * M * dim) + (size_t)(T * M * 4 * dim);
    uint8_t *d = calloc(size, 1);
    uint64_t want = 0;
    for (int order = 0; order < 12; order++) {
      npu_model_step_order = order;
      uint64_t cyc;
      pipeline(t, 1, d, size, &cyc);
      if (order == 0) want = cyc;
      assert_true(cyc == want);
      pipeline(t, 0, d, size, &cyc);
    }
    npu_model_step_order = 0;
    free(d);
  }
  /* a conv with a full EXEC queue and STOREs overlapping MATMULs */
  rng = 5;
  quiet = 1;
  uint64_t ref[TSL_NCOUNTERS];
  for (int order = 0; order < 12; order++) {
    npu_model_step_order = order;
    conv_case(tsl_target_find("npu8"), conv_params(8, 8, 16, 64, 3, 1, 1, 1, 3), 0);
    if (order == 0) memcpy(ref, last_counters, sizeof ref);
    assert_memory_equal(ref, last_counters, sizeof ref);
  }
  quiet = 0;
  npu_model_step_order = 0;
}

/* The model is deterministic: the same run twice gives the same everything. */
static void test_deterministic(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu8");
  uint64_t a, b;
  size_t size = (size_t)(64 + 6 * 64 * 8 + 6 * 64 * 32);
  uint8_t *d = calloc(size, 1);
  pipeline(t, 1, d, size, &a);
  pipeline(t, 1, d, size, &b);
  assert_true(a == b);
  free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rounding_helpers),
      cmocka_unit_test(test_conv_bias_requant_relu),
      cmocka_unit_test(test_conv_random),
      cmocka_unit_test(test_grouped_conv),
      cmocka_unit_test(test_depthwise),
      cmocka_unit_test(test_matmul),
      cmocka_unit_test(test_epilogue_ties_and_saturation),
      cmocka_unit_test(test_residual_add),
      cmocka_unit_test(test_pooling_borders),
      cmocka_unit_test(test_epilogue_maxpool),
      cmocka_unit_test(test_loops),
      cmocka_unit_test(test_loop_conv_tiles),
      cmocka_unit_test(test_tokens_double_buffer),
      cmocka_unit_test(test_mark_records),
      cmocka_unit_test(test_counters_exact),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_step_order_independent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
