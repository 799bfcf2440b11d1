/* test_cost_model.c: the cost model's formulas (docs/cost-model.md) on known
 * shapes, its monotonicity, and the error-report API. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cost_model.h"

static void test_dram(void **state) {
  (void)state;
  /* npu8's port with 4 requests in flight: bw 8, L 30, F 4, B 64 */
  tsl_target_t t4 = *tsl_target_find("npu8"), t8 = t4;
  t4.dram_max_inflight = 4, t8.dram_max_inflight = 8;
  const tsl_target_t *t = &t4;
  assert_true(cost_dram_cycles(t, 0, 100) == 0);
  /* L' = L + 2.5 (the port's round trip). One 4 KiB run: 64 bursts of 8
   * beats, 4 in flight: 15 full rounds of L' + 8, then L' and 4 x 8 beats */
  assert_true(cost_dram_cycles(t, 1, 4096) == 15 * 40.5 + 32.5 + 4 * 8);
  /* 512 runs of 8 bytes, one beat each: latency-bound */
  assert_true(cost_dram_cycles(t, 512, 8) == 127 * 33.5 + 32.5 + 4);
  /* 8 in flight cover the round trip: L' and the 512 beats, rounded up */
  assert_true(cost_dram_cycles(&t8, 1, 4096) == 545);
  /* two runs: no slot waits, L' and the beats (rounded up) */
  assert_true(cost_dram_cycles(t, 2, 64) == 33 + 16);
  uint64_t rr;
  /* the LOAD unit merges the rows of one line only */
  assert_true(cost_runs(16, 16, 8, 8, 64, 8, 128, 2048, &rr) == 128 && rr == 16); /* contiguous lines */
  assert_true(cost_runs(16, 16, 1, 8, 0, 8, 256, 0, &rr) == 16 && rr == 16);     /* lines apart */
  assert_true(cost_runs(16, 4, 1, 8, 0, 64, 1024, 0, &rr) == 64 && rr == 1);     /* strided rows */
  assert_true(cost_runs(16, 1, 1, 4, 0, 4, 0, 0, &rr) == 16 && rr == 1);         /* rows not whole beats */
  assert_true(cost_runs(16, 2, 1, 8, 4, 8, 128, 0, &rr) == 32 && rr == 1);       /* lines off the beat */
  assert_true(cost_runs(16, 2, 1, 8, 8, 8, 132, 0, &rr) == 32 && rr == 1);       /* the second line off it */
}

static void test_matmul(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu8"); /* preload 2 rows/cycle: P = 4 */
  /* first preload, 31 passes of 256 rows, the last pass's rows, pipeline 5 */
  cost_t c = cost_matmul(t, 256, 32);
  assert_true(c.cycles == 4 + 31 * 256 + 256 + 5 && c.stall_preload == 4);
  c = cost_matmul(t, 2, 10); /* short tiles: 2 rows per 4-cycle preload */
  assert_true(c.cycles == 4 + 9 * 4 + 2 + 5 && c.stall_preload == 4 + 9 * 2);
  c = cost_matmul(t, 4, 10); /* exactly P rows: half a cycle more per pass */
  assert_true(c.cycles == 4 + 9 * 4 + 4 + 4 + 5 && c.stall_preload == 4 + 4);
  assert_true(cost_matmul(t, 100, 9).cycles < cost_matmul(t, 101, 9).cycles);
  assert_true(cost_gemm_ideal_cycles(t, 256, 256, 256) == 262144);
  const tsl_target_t *t4 = tsl_target_find("npu4");
  assert_true(cost_matmul(t4, 4, 1).stall_preload == 4); /* P = 4 at npu4 too: only the first preload */
}

static void test_units(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu8");
  cost_t l = cost_load(t, 1, 64, 8);
  assert_true(l.cycles == 41 + 2 && l.stall_dram == l.cycles - 2 - 8); /* L' + 8 beats, rounded up */
  /* STORE: per pixel its taps, finish and output; to DRAM one more cycle
   * per pixel (its own burst) and the last response's latency; without
   * pooling the pixels after the first read their row ahead (to SPAD 2
   * cycles from ACC, 3 from SPAD; to DRAM 1 + the burst's beats + its
   * request) */
  cost_t s = cost_store(t, 16, 16, 0, 0, 1, 0);
  assert_true(s.cycles == 4 + 255 * 3 + 3 && s.stall_dram == 0);           /* SPAD to SPAD: 3 a pixel */
  assert_true(cost_store(t, 16, 16, 0, 0, 0, 0).cycles == 4 + 255 * 2 + 3);  /* ACC to SPAD: 2 */
  cost_t sd = cost_store(t, 16, 16, 0, 8, 0, 0);
  assert_true(sd.cycles == 5 + 255 * 3 + 3 + 31 && sd.stall_dram == 31);
  assert_true(cost_store(t, 16, 16, 0, 32, 0, 1).cycles == 8 + 255 * 6 + 3 + 31); /* raw int32: 4 beats */
  /* 3x3 pooling: 9 taps per pixel, no setup */
  assert_true(cost_store(t, 16, 16, 3, 8, 0, 0).cycles == 256 * 13 + 3 + 31);
  /* two requantisers at DIM 8: an ACC row in 4 groups, every tap 4 cycles,
   * no read ahead; SPAD sources and raw rows skip the requantisers */
  tsl_target_t t2 = *t;
  t2.requant_lanes = 2;
  assert_true(cost_store(&t2, 16, 16, 3, 8, 0, 0).cycles == 256 * (9 * 4 + 4) + 3 + 31);
  assert_true(cost_store(&t2, 16, 16, 0, 0, 0, 0).cycles == 256 * (4 + 3) + 3);
  assert_true(cost_store(&t2, 16, 16, 0, 0, 1, 0).cycles == s.cycles);
  assert_true(cost_store(&t2, 16, 16, 0, 32, 0, 1).cycles == cost_store(t, 16, 16, 0, 32, 0, 1).cycles);
  /* DWCONV as the RTL: 3x3 kernels two tap rows per cycle after the first
   * pixel, larger ones one tap per cycle */
  assert_true(cost_dwconv(t, 8, 8, 3, 3, 1, 2).cycles == 9 + 63 * 5 + 4); /* dilated: no window */
  assert_true(cost_dwconv(t, 8, 8, 3, 3, 3, 1).cycles == 9 + 63 * 5 + 4); /* stride 3: nothing reused */
  /* the window slides: line starts 5 cycles, stride 1 reads 3 rows (2 cycles), stride 2 six (3) */
  assert_true(cost_dwconv(t, 8, 8, 3, 3, 1, 1).cycles == 9 + 7 * 5 + 56 * 2 + 4);
  assert_true(cost_dwconv(t, 8, 8, 3, 3, 2, 1).cycles == 9 + 7 * 5 + 56 * 3 + 4);
  assert_true(cost_dwconv(t, 8, 8, 5, 5, 1, 1).cycles == 64 * 25 + 4); /* over the cache */
  /* 2x3 at stride 1: 4 reused taps do not fit the one cycle its 2 new rows take */
  assert_true(cost_dwconv(t, 8, 8, 2, 3, 1, 1).cycles == 6 + 63 * 3 + 4);
  assert_true(cost_dwconv(t, 8, 8, 3, 2, 1, 1).cycles == 6 + 7 * 3 + 56 * 2 + 4); /* 3 reused in 2 */
  assert_true(cost_vadd(t, 100).cycles == 103 && cost_config(t).cycles == 1);
  assert_true(cost_vpool(t, 1, 49, 0).cycles == 49 + 64 + 6);
  assert_true(cost_vpool(t, 1, 49, 1).cycles == 49 + 64 + 6);
  /* the guard step ends the walk; per pixel its last tap, the division's
   * load and output (measured on npu_exec by exec_tb) */
  assert_true(cost_vpool(t, 2, 49, 30).cycles == 49 + 2 * (35 + 3) + 3);
  /* one vector lane at DIM 8: 8 VADD cycles a row, 8 divisions a pixel */
  tsl_target_t t1 = *t;
  t1.vec_lanes = 1;
  assert_true(cost_vadd(&t1, 100).cycles == 803);
  assert_true(cost_vpool(&t1, 2, 49, 30).cycles == 49 + 2 * (1 + 8 * 37) + 3);
}

static void test_error_report(void **state) {
  (void)state;
  cost_error_t e = {0};
  assert_true(cost_error_mean_abs(&e) == 0.0 && cost_error_total_rel(&e) == 0.0);
  cost_error_add(&e, 110, 100); /* +10% */
  cost_error_add(&e, 80, 100);  /* -20% */
  assert_true(e.n == 2);
  assert_true(cost_error_mean_abs(&e) > 0.149 && cost_error_mean_abs(&e) < 0.151);
  assert_true(e.max_abs_rel > 0.199 && e.max_abs_rel < 0.201);
  assert_true(cost_error_total_rel(&e) > -0.051 && cost_error_total_rel(&e) < -0.049);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dram),
      cmocka_unit_test(test_matmul),
      cmocka_unit_test(test_units),
      cmocka_unit_test(test_error_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
