/* bench_npu_model.c: `make bench-npu-model`. Prints, for hand-written
 * streams at npu8:
 *   - a 256x256x256 int8 GEMM with both operands resident in the scratchpad,
 *     and the same with the weights streamed from DRAM (double-buffered);
 *   - a 3x3 conv (16x16x64 -> 64, pad 1) with bias, requant and ReLU;
 * the cost model's cycle estimate (the C model's CYCLES counter), MAC
 * utilisation, exact DRAM bytes, and the C model's own speed in simulated
 * NPU cycles per host second. Figures, not pass/fail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cost_model.h"
#include "npu_model.h"
#include "stream_build.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* GEMM C[256][256] (int32) = A[256][256] * B[256][256], A channel-blocked in
 * DRAM ([K/DIM][M][DIM], loaded as 32 K-block planes of 256 rows), B in the
 * array's tile layout; output blocks double-buffered in the accumulator.
 * Resident: A and B loaded first, then a MARK (the compute phase is measured
 * from it). Streamed: B blocks loaded per N-block, double-buffered. */
static void gemm_stream(sb_t *sb, int streamed, uint64_t *a_off, uint64_t *b_off, uint64_t *c_off) {
  const int D = 8, M = 256, K = 256, N = 256, NKB = K / D, NNB = N / D, WB = NKB * M, BROWS = NKB * D;
  *a_off = 0;
  *b_off = (uint64_t)M * K;
  *c_off = *b_off + (uint64_t)K * N;
  SB_ADD(sb, cfg_load, .stride_x = D, .stride_y = M * D);
  SB_ADD(sb, load, .n0 = D, .dram = (int64_t)*a_off, .row = 0, .nx = M, .ny = NKB, .nz = 1, .push_next = !streamed);
  SB_ADD(sb, cfg_exec, .out_pitch = M, .kh = 1, .kw = 1, .ncb = NKB, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 1, .in_w = M, .in_pitch = M, .cb_stride = M);
  SB_ADD(sb, cfg_store, .src_pitch = 16, .stride_x = 4 * N, .stride_y = 16 * 4 * N); /* 256 rows as 16 x 16 */
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127, .push_prev = 1); /* two accumulator buffers start free */
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127, .push_prev = 1);
  if (!streamed) {
    SB_ADD(sb, cfg_load, .stride_x = D, .stride_y = BROWS * D);
    SB_ADD(sb, load, .n0 = D, .dram = (int64_t)*b_off, .row = WB, .nx = BROWS, .ny = NNB, .nz = 1, .push_next = 1);
    SB_ADD(sb, enop, .pop_prev = 1);
    SB_ADD(sb, enop, .pop_prev = 1);
    SB_ADD(sb, mark, .kernel = 1); /* operands resident from here on */
    SB_ADD(sb, lstride, .stride_g = 2 * D * 4);
    SB_ADD(sb, loop, .count = NNB / 2, .body = 4, .stride_d = 2 * BROWS);
    SB_ADD(sb, matmul, .pop_next = 1, .push_next = 1, .oh = 1, .ow = M, .wgt = WB, .acc = 0);
    SB_ADD(sb, matmul, .pop_next = 1, .push_next = 1, .oh = 1, .ow = M, .wgt = WB + BROWS, .acc = M);
  } else {
    /* two weight buffers: a LOAD waits until the MATMUL before last freed its buffer */
    SB_ADD(sb, cfg_load, .stride_x = D);
    SB_ADD(sb, load, .n0 = 1, .dram = 0, .row = WB + 2 * BROWS, .nx = 1, .ny = 1, .nz = 1, .push_next = 1);
    SB_ADD(sb, enop, .pop_prev = 1, .push_prev = 1);
    SB_ADD(sb, enop, .push_prev = 1);
    SB_ADD(sb, lstride, .stride_g = 2 * D * 4);
    SB_ADD(sb, loop, .count = NNB / 2, .body = 6, .stride_a = 2 * BROWS * D);
    SB_ADD(sb, load, .pop_next = 1, .push_next = 1, .n0 = D, .dram = (int64_t)*b_off, .row = WB, .nx = BROWS, .ny = 1,
           .nz = 1);
    SB_ADD(sb, load, .pop_next = 1, .push_next = 1, .n0 = D, .dram = (int64_t)*b_off + BROWS * D, .row = WB + BROWS,
           .nx = BROWS, .ny = 1, .nz = 1);
    SB_ADD(sb, matmul, .pop_prev = 1, .pop_next = 1, .push_prev = 1, .push_next = 1, .oh = 1, .ow = M, .wgt = WB,
           .acc = 0);
    SB_ADD(sb, matmul, .pop_prev = 1, .pop_next = 1, .push_prev = 1, .push_next = 1, .oh = 1, .ow = M,
           .wgt = WB + BROWS, .acc = M);
  }
  SB_ADD(sb, store, .pop_prev = 1, .push_prev = 1, .raw = 1, .n0 = D, .oh = 16, .ow = 16, .dram = (int64_t)*c_off,
         .src_row = 0);
  SB_ADD(sb, store, .pop_prev = 1, .push_prev = 1, .raw = 1, .n0 = D, .oh = 16, .ow = 16,
         .dram = (int64_t)*c_off + 4 * D, .src_row = M);
}

/* 3x3 conv, 16x16x64 -> 64, pad 1, stride 1, bias + requant + ReLU, int8 out;
 * activations in DRAM channel-blocked ([C/DIM][H][W][DIM], the compiler's
 * layout), so every transfer is one contiguous run. */
static void conv_stream(sb_t *sb, uint64_t *size) {
  const int D = 8, H = 16, W = 16, C = 64, NCB = C / D, NOB = C / D, TAPS = 9, PLANE = H * W;
  const int WROWS = TAPS * NCB * D, WB = NCB * PLANE;
  uint64_t w_off = (uint64_t)H * W * C, p_off = w_off + (uint64_t)NOB * WROWS * D, o_off = p_off + (uint64_t)NOB * 9 * D;
  *size = o_off + (uint64_t)H * W * C;
  SB_ADD(sb, cfg_load, .stride_x = D, .stride_y = W * D, .stride_z = PLANE * D);
  SB_ADD(sb, load, .n0 = D, .pad = 0, .dram = 0, .row = 0, .nx = W, .ny = H, .nz = NCB);
  SB_ADD(sb, cfg_load, .stride_x = D, .stride_y = WROWS * D);
  SB_ADD(sb, load, .n0 = D, .dram = (int64_t)w_off, .row = WB, .nx = WROWS, .ny = NOB, .nz = 1);
  SB_ADD(sb, cfg_load, .stride_x = 9 * D);
  SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = D, .dram = (int64_t)p_off, .nx = NOB, .ny = 1, .nz = 1, .push_next = 1);
  SB_ADD(sb, cfg_exec, .out_pitch = W, .kh = 3, .kw = 3, .ncb = NCB, .pad = 0, .stride_y = 1, .stride_x = 1,
         .dil_y = 1, .dil_x = 1, .in_h = H, .in_w = W, .in_pitch = W, .cb_stride = PLANE);
  SB_ADD(sb, enop, .pop_prev = 1);
  SB_ADD(sb, loop, .count = NOB, .body = 1, .stride_c = PLANE, .stride_d = WROWS);
  SB_ADD(sb, matmul, .push_next = 1, .oh = H, .ow = W, .wgt = WB, .iy0 = -1, .ix0 = -1);
  SB_ADD(sb, cfg_store, .src_pitch = W, .stride_x = D, .stride_y = W * D);
  SB_ADD(sb, cfg_epi, .zp_out = -3, .lo = -3, .hi = 127);
  SB_ADD(sb, lstride, .stride_g = PLANE * D);
  SB_ADD(sb, loop, .count = NOB, .body = 1, .stride_c = PLANE, .stride_d = 1);
  SB_ADD(sb, store, .pop_prev = 1, .n0 = D, .oh = H, .ow = W, .dram = (int64_t)o_off);
}

static void report(const char *what, const tsl_target_t *t, npu_model_t *m, double host_s, int runs) {
  const uint64_t *c = npu_model_counters(m);
  if (npu_model_nsnapshots(m) == 1) { /* phase after the MARK */
    const uint64_t *s = npu_model_snapshot(m, 0)->counters;
    uint64_t cyc = c[TSL_CNT_CYCLES] - s[TSL_CNT_CYCLES], macs = c[TSL_CNT_MACS] - s[TSL_CNT_MACS];
    printf("%-34s %s: compute phase (after the loads' MARK): %llu cycles, MAC utilisation %.1f%%\n", what, t->name,
           (unsigned long long)cyc, 100.0 * (double)macs / ((double)cyc * (double)(t->dim * t->dim)));
  }
  double util = (double)c[TSL_CNT_MACS] / ((double)c[TSL_CNT_CYCLES] * (double)(t->dim * t->dim));
  printf("%-34s %s: estimate %9llu cycles (%.1f us at %lld MHz), MACs %llu, MAC utilisation %.1f%%, "
         "DRAM read %llu B, written %llu B, EXEC busy %llu, preload stall %llu, token stall L/E/S %llu/%llu/%llu\n",
         what, t->name, (unsigned long long)c[TSL_CNT_CYCLES], (double)c[TSL_CNT_CYCLES] / (double)t->clock_mhz,
         (long long)t->clock_mhz, (unsigned long long)c[TSL_CNT_MACS], 100.0 * util,
         (unsigned long long)c[TSL_CNT_DRAM_RD_BYTES], (unsigned long long)c[TSL_CNT_DRAM_WR_BYTES],
         (unsigned long long)c[TSL_CNT_EXEC_BUSY], (unsigned long long)c[TSL_CNT_EXEC_STALL_PRELOAD],
         (unsigned long long)c[TSL_CNT_LOAD_STALL_TOKEN], (unsigned long long)c[TSL_CNT_EXEC_STALL_TOKEN],
         (unsigned long long)c[TSL_CNT_STORE_STALL_TOKEN]);
  printf("%-34s %s: C model speed %.1f million simulated NPU cycles per host second (%d runs, %.3f s)\n", what,
         t->name, (double)c[TSL_CNT_CYCLES] * runs / host_s / 1e6, runs, host_s);
}

static int run_bench(const char *what, const tsl_target_t *t, const sb_t *sb, uint8_t *dram, uint64_t size,
                     int timing_only) {
  npu_model_t *m = npu_model_new(t);
  if (!m || sb->bad) {
    fprintf(stderr, "bench-npu-model: %s: setup failed\n", what);
    return 1;
  }
  npu_run_t run = {sb->buf, sb->n, dram, size, 0, timing_only, 0};
  npu_result_t r;
  int runs = 0;
  double t0 = now(), t1;
  do { /* repeat for at least 0.5 s of host time */
    if (npu_model_run(m, &run, &r)) {
      fprintf(stderr, "bench-npu-model: %s: %s\n", what, r.message);
      npu_model_free(m);
      return 1;
    }
    runs++;
    t1 = now();
  } while (t1 - t0 < 0.5);
  report(what, t, m, t1 - t0, runs);
  npu_model_free(m);
  return 0;
}

int main(void) {
  const tsl_target_t *t = tsl_target_find("npu8");
  int rc = 0;
  sb_t *sb = calloc(1, sizeof *sb);
  uint64_t a, b, c, size;
  gemm_stream(sb, 0, &a, &b, &c);
  size = c + 4ull * 256 * 256;
  uint8_t *dram = calloc(size, 1);
  for (uint64_t i = 0; i < c; i++) dram[i] = (uint8_t)(i * 2654435761u >> 24);
  printf("GEMM 256x256x256 ideal (DIM*DIM MACs every cycle): %llu cycles\n",
         (unsigned long long)cost_gemm_ideal_cycles(t, 256, 256, 256));
  rc |= run_bench("GEMM 256^3, operands resident", t, sb, dram, size, 0);
  rc |= run_bench("GEMM 256^3, resident, timing only", t, sb, dram, size, 1);
  memset(sb, 0, sizeof *sb);
  gemm_stream(sb, 1, &a, &b, &c);
  rc |= run_bench("GEMM 256^3, weights from DRAM", t, sb, dram, size, 0);
  free(dram);
  memset(sb, 0, sizeof *sb);
  conv_stream(sb, &size);
  dram = calloc(size, 1);
  for (uint64_t i = 0; i < size; i++) dram[i] = (uint8_t)(i * 2654435761u >> 25);
  rc |= run_bench("conv 3x3 16x16x64->64 +bias+ReLU", t, sb, dram, size, 0);
  free(dram);
  free(sb);
  return rc;
}
