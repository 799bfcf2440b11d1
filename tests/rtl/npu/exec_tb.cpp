// exec_tb.cpp: unit bench of the EXEC unit (array, conv address generator,
// MATMUL and DWCONV, the vector unit's VADD and VPOOL) against the C model
// (sim/npu-model): random geometries (kernel, stride, dilation, padding with
// a pad value, channel blocks, both accumulate modes) on random SPAD/ACC
// contents; the whole ACC (MATMUL, DWCONV) or SPAD (VADD, VPOOL) and the
// byte and MAC counters must equal the model's, and DWCONV's, VADD's and
// VPOOL's cycles the cost model's. --gemm prints the MAC utilisation
// of a 256x256x256 GEMM with operands in SPAD.
#include <cstdlib>
#include <string>
#include <vector>

#include "Vnpu_exec_tb.h"
#include "tb_util.h"
#include "tb_target.h"

extern "C" {
#include "npu_model.h"
#include "cost_model.h"
}

static Vnpu_exec_tb *top;
static uint64_t cycles;

static void tick() {
  top->clk_i = 0;
  top->eval();
  top->clk_i = 1;
  top->eval();
  cycles++;
}

struct Counts {
  uint64_t macs = 0, spad_rd = 0, acc_rd = 0, acc_wr = 0, busy = 0, stall = 0;
};
static Counts cnt;

static void sample() {
  cnt.macs += top->macs_o;
  cnt.spad_rd += top->spad_rd_bytes_o;
  cnt.acc_rd += top->acc_rd_bytes_o;
  cnt.acc_wr += top->acc_wr_bytes_o;
  cnt.busy += top->busy_o;
  cnt.stall += top->stall_preload_o;
}

// Issue one command and wait for its done pulse (bounded: never hangs).
static bool run_cmd(const uint32_t w[4], uint64_t limit) {
  for (int i = 0; i < 4; i++) top->cmd_i[i] = w[i];
  top->cmd_valid_i = 1;
  uint64_t n = 0;
  for (;;) {
    top->eval();
    bool taken = top->cmd_ready_o;
    bool done = top->done_o;
    sample();
    tick();
    if (taken) top->cmd_valid_i = 0;
    if (done) return true;
    if (++n > limit) return false;
  }
}

// The C model runs the ncmd commands of cw (4 words each, ncmd <= 3) on its
// SRAMs; non-zero when its checks reject them.
static int model_run(npu_model_t *m, const uint32_t *cw, int ncmd) {
  uint8_t stream[48];
  for (int i = 0; i < 4 * ncmd; i++)
    for (int b = 0; b < 4; b++) stream[4 * i + b] = (uint8_t)(cw[i] >> (8 * b));
  uint8_t dram[8] = {0};
  npu_run_t run = {};
  run.stream = stream; run.stream_len = ncmd; run.dram = dram; run.dram_size = sizeof dram;
  npu_result_t res;
  return npu_model_run(m, &run, &res);
}

// 60 random VADD and VPOOL commands (random CFG_VEC; VPOOL windows with
// borders, strides, dilation, both divisors): the whole SPAD, the SPAD
// counters and the command's cycles against the C model and the cost model.
static void vec_cases(const tsl_target_t *t, npu_model_t *m, TbRng &rng, TbCount &tc) {
  const int dim = (int)t->dim;
  int8_t *mspad = npu_model_spad(m);
  int cases = 0, skipped = 0;
  while (cases < 60 && skipped < 5000) {
    bool add = rng.range(0, 1) == 0;
    int64_t rows = rng.range(1, 12);
    tsl_cfg_vec_t v = {};
    v.shift = add ? rng.range(0, 40) : rng.range(0, 47);
    v.zp_out = rng.range(-20, 20);
    v.mult_a = add ? (int32_t)rng.next() : rng.range(1, 1 << 24);
    v.mult_b = (int32_t)rng.next();
    v.zp_a = rng.range(-128, 127);
    v.zp_b = rng.range(-128, 127);
    v.lo = rng.range(-128, 0);
    v.hi = rng.range(v.lo, 127);
    tsl_cfg_exec_t g = {};
    g.kh = rng.range(1, 3); g.kw = rng.range(1, 3); g.ncb = 1;
    g.stride_y = rng.range(1, 2); g.stride_x = rng.range(1, 2);
    g.dil_y = rng.range(1, 2); g.dil_x = rng.range(1, 2);
    g.in_h = rng.range(1, 6); g.in_w = rng.range(1, 6);
    g.in_pitch = g.in_w + rng.range(0, 2);
    g.cb_stride = g.in_pitch * g.in_h;
    int64_t oh = rng.range(1, 3), ow = rng.range(1, 4);
    g.out_pitch = ow + rng.range(0, 2);
    uint32_t cw[12];
    tsl_cfg_exec_encode(&g, cw);
    tsl_cfg_vec_encode(&v, cw + 4);
    int64_t half = t->spad_rows / 2;
    if (add) {
      tsl_vadd_t a = {};
      a.rows = rows;
      a.a = rng.range(0, half - 16);
      a.b = rng.range(0, half - 16);
      a.out = rng.range(0, 2) == 0 ? a.a : rng.range(half, t->spad_rows - 16);   // in place, or apart
      tsl_vadd_encode(&a, cw + 8);
    } else {
      tsl_vpool_t p = {};
      p.exclude_pad = rng.range(0, 1);
      p.oh = oh; p.ow = ow;
      p.in = rng.range(0, half - 64);
      p.out = rng.range(half, t->spad_rows - 64);
      p.iy0 = rng.range(-2, 1); p.ix0 = rng.range(-2, 1);
      tsl_vpool_encode(&p, cw + 8);
    }
    if (model_run(m, cw, 3) != 0) {
      skipped++;
      continue;
    }
    cases++;
    const uint64_t *mc = npu_model_counters(m);
    Counts before = cnt;
    bool ok = run_cmd(cw, 100) && run_cmd(cw + 4, 100);
    uint64_t c0 = cycles;
    ok = ok && run_cmd(cw + 8, 1u << 20);
    uint64_t cmd_cycles = cycles - c0;
    std::string what = "vec case " + std::to_string(cases) + (add ? " (VADD)" : " (VPOOL)") + ": ";
    tc.check(ok, (what + "finishes").c_str());
    int bad = 0;
    top->tb_spad_re_i = 1;
    for (int64_t r = 0; r < t->spad_rows && ok; r++) {
      top->tb_spad_addr_i = (uint32_t)r;
      tick();
      top->eval();
      uint8_t row[16];
      tb_get(top->tb_spad_rdata_o, row, dim);
      if (memcmp(row, &mspad[r * dim], (size_t)dim) != 0 && bad++ < 2)
        printf("  SPAD row %lld differs (lane0 rtl %d model %d)\n", (long long)r, (int8_t)row[0], mspad[r * dim]);
    }
    top->tb_spad_re_i = 0;
    tc.check(bad == 0, (what + "SPAD equals the model").c_str());
    tc.check(cnt.spad_rd - before.spad_rd == mc[TSL_CNT_SPAD_RD_BYTES], (what + "SPAD read counter equals the model").c_str());
    uint64_t est = add ? cost_vadd(t, (uint64_t)rows).cycles
                       : cost_vpool(t, (uint64_t)(oh * ow), (uint64_t)(oh * ow * g.kh * g.kw), (uint64_t)v.shift).cycles;
    if (ok && cmd_cycles != est) printf("  %llu cycles, cost model %llu\n", (unsigned long long)cmd_cycles, (unsigned long long)est);
    tc.check(cmd_cycles == est, (what + "cycles equal the cost model's").c_str());
    if (tc.fail > 6) break;
  }
  tc.check(cases >= 40, "at least 40 random VADD/VPOOL cases ran");
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  const char *tname = TB_TARGET;
  bool gemm = argc > 1 && !strcmp(argv[1], "--gemm");
  const tsl_target_t *t = tb_target();
  if (!t) {
    fprintf(stderr, "exec_tb: unknown target %s\n", tname);
    return 2;
  }
  const int dim = (int)t->dim;
  top = new Vnpu_exec_tb;
  TbCount tc;
  TbRng rng(12345);
  npu_model_t *m = npu_model_new(t);
  int8_t *mspad = npu_model_spad(m);
  int32_t *macc = npu_model_acc(m);

  top->rst_ni = 0;
  tick();
  tick();
  top->rst_ni = 1;

  // random SPAD and ACC, mirrored into the model
  for (int64_t r = 0; r < t->spad_rows; r++) {
    for (int k = 0; k < dim; k++) mspad[r * dim + k] = (int8_t)rng.next();
    top->tb_spad_we_i = 1;
    top->tb_spad_addr_i = (uint32_t)r;
    tb_put(top->tb_spad_wdata_i, (const uint8_t *)&mspad[r * dim], dim);
    tick();
  }
  top->tb_spad_we_i = 0;
  for (int64_t r = 0; r < t->acc_rows; r++) {
    for (int k = 0; k < dim; k++) macc[r * dim + k] = (int32_t)rng.next();
    top->tb_acc_we_i = 1;
    top->tb_acc_addr_i = (uint32_t)r;
    tb_put(top->tb_acc_wdata_i, (const uint8_t *)&macc[r * dim], 4 * dim);
    tick();
  }
  top->tb_acc_we_i = 0;

  if (gemm) {
    // 256x256x256: 256/DIM MATMULs of 256 output rows (16x16), K = 256 (ncb = 256/DIM)
    const int ncb = 256 / dim;
    tsl_cfg_exec_t g = {};
    g.out_pitch = 16; g.kh = 1; g.kw = 1; g.ncb = ncb; g.stride_y = 1; g.stride_x = 1;
    g.dil_y = 1; g.dil_x = 1; g.in_h = 16; g.in_w = 16; g.in_pitch = 16; g.cb_stride = 256;
    uint32_t w[4];
    tsl_cfg_exec_encode(&g, w);
    run_cmd(w, 100);
    Counts before = cnt;
    uint64_t c0 = cycles;
    for (int nb = 0; nb < 256 / dim; nb++) {
      tsl_matmul_t mm = {};
      mm.oh = 16; mm.ow = 16; mm.in = 0; mm.wgt = 256 * ncb; mm.acc = 0;
      tsl_matmul_encode(&mm, w);
      run_cmd(w, 1u << 24);
    }
    uint64_t cyc = cycles - c0, macs = cnt.macs - before.macs;
    printf("exec %s: 256x256x256 GEMM, operands in SPAD: %llu cycles, %llu MACs, utilisation %.1f%%\n", tname,
           (unsigned long long)cyc, (unsigned long long)macs, 100.0 * (double)macs / ((double)cyc * dim * dim));
    delete top;
    npu_model_free(m);
    return 0;
  }

  int cases = 0, skipped = 0, slid = 0;
  while (cases < 150 && skipped < 5000) {
    tsl_cfg_exec_t g = {};
    bool dw = rng.range(0, 1) == 0;
    // DWCONV up to 5x5: kernels over npu_exec's weight cache (9 taps) run one tap per cycle
    g.kh = rng.range(1, dw ? 5 : 3); g.kw = rng.range(1, dw ? 5 : 3); g.ncb = dw ? 1 : rng.range(1, 3);
    g.pad = rng.range(-128, 127);
    g.stride_y = rng.range(1, 2); g.stride_x = rng.range(1, 3);
    g.dil_y = rng.range(1, 2); g.dil_x = rng.range(1, 2);
    g.in_h = rng.range(1, 7); g.in_w = rng.range(1, 7);
    g.in_pitch = g.in_w + rng.range(0, 2);
    g.cb_stride = g.in_pitch * g.in_h + rng.range(0, 3);
    int64_t oh = rng.range(1, 5), ow = rng.range(1, 6);
    if (rng.range(0, 5) == 0) { oh = 1; ow = 1; }   // tiny tiles: pass gap and preload overlap
    if (dw && rng.range(0, 1) == 0) {               // a kernel whose window slides along the lines
      g.kw = rng.range(2, 3); g.kh = rng.range(1, 3); g.dil_x = 1; g.stride_x = rng.range(1, g.kw - 1);
      g.in_w = rng.range(3, 9); g.in_pitch = g.in_w + rng.range(0, 2); g.cb_stride = g.in_pitch * g.in_h;
      ow = rng.range(2, 8);
    }
    g.out_pitch = ow + rng.range(0, 2);
    int64_t ntap = g.kh * g.kw;
    int64_t in_rows = g.cb_stride * g.ncb;
    int64_t wrows = dw ? ntap : ntap * g.ncb * dim;
    int64_t in = rng.range(0, t->spad_rows / 2 - in_rows - 1);
    int64_t wgt = rng.range(t->spad_rows / 2, t->spad_rows - wrows - 1);
    int64_t acc = rng.range(0, t->acc_rows - oh * g.out_pitch - 1);
    int64_t iy0 = rng.range(-2, 1), ix0 = rng.range(-2, 1);
    int accm = (int)rng.range(0, 1);
    uint32_t cw[8];
    tsl_cfg_exec_encode(&g, cw);
    if (dw) {
      tsl_dwconv_t d = {};
      d.acc_mode = accm; d.oh = oh; d.ow = ow; d.in = in; d.wgt = wgt; d.acc = acc; d.iy0 = iy0; d.ix0 = ix0;
      tsl_dwconv_encode(&d, cw + 4);
    } else {
      tsl_matmul_t d = {};
      d.acc_mode = accm; d.oh = oh; d.ow = ow; d.in = in; d.wgt = wgt; d.acc = acc; d.iy0 = iy0; d.ix0 = ix0;
      tsl_matmul_encode(&d, cw + 4);
    }
    if (model_run(m, cw, 2) != 0) {   // the model's checks reject it: draw again
      skipped++;
      continue;
    }
    cases++;
    // a cached kernel that slides its window along the output lines
    if (dw && ntap <= t->dw_cache_taps && t->dw_macs_per_cycle >= 4 * dim && g.dil_x == 1 && g.stride_x <= 2 &&
        g.stride_x < g.kw && g.kh * (g.kw - g.stride_x) <= 3 * ((g.kh * g.stride_x + 1) / 2) && ow > 1)
      slid++;
    const uint64_t *mc = npu_model_counters(m);
    Counts before = cnt;
    bool ok = run_cmd(cw, 100);
    uint64_t c0 = cycles;
    ok = ok && run_cmd(cw + 4, 1u << 20);
    uint64_t cmd_cycles = cycles - c0;
    char what[160];
    snprintf(what, sizeof what, "case %d (%s kh=%lld kw=%lld ncb=%lld s=%lld,%lld d=%lld,%lld in=%lldx%lld oh=%lld ow=%lld acc_mode=%d): ",
             cases, dw ? "DWCONV" : "MATMUL", (long long)g.kh, (long long)g.kw, (long long)g.ncb,
             (long long)g.stride_y, (long long)g.stride_x, (long long)g.dil_y, (long long)g.dil_x,
             (long long)g.in_h, (long long)g.in_w, (long long)oh, (long long)ow, accm);
    std::string w0 = std::string(what);
    tc.check(ok, (w0 + "finishes").c_str());
    // the whole ACC must equal the model's
    int bad = 0;
    for (int64_t r = 0; r < t->acc_rows && ok; r++) {
      top->tb_acc_addr_i = (uint32_t)r;
      tick();
      top->eval();
      uint8_t row[64];
      tb_get(top->tb_acc_rdata_o, row, 4 * dim);
      if (memcmp(row, &macc[r * dim], 4 * (size_t)dim) != 0) {
        if (bad++ < 2) printf("  ACC row %lld differs (lane0 rtl %d model %d)\n", (long long)r,
                              (int)(row[0] | row[1] << 8 | row[2] << 16 | (uint32_t)row[3] << 24), macc[r * dim]);
      }
    }
    tc.check(bad == 0, (w0 + "ACC equals the model").c_str());
    tc.check(cnt.macs - before.macs == mc[TSL_CNT_MACS] && cnt.spad_rd - before.spad_rd == mc[TSL_CNT_SPAD_RD_BYTES] &&
                 cnt.acc_rd - before.acc_rd == mc[TSL_CNT_ACC_RD_BYTES] && cnt.acc_wr - before.acc_wr == mc[TSL_CNT_ACC_WR_BYTES],
             (w0 + "MAC/SPAD/ACC counters equal the model").c_str());
    // the cost model prices DWCONV cycle-exactly (EXEC alone: no dispatcher)
    uint64_t dw_cost = cost_dwconv(t, (uint64_t)oh, (uint64_t)ow, (uint64_t)g.kh, (uint64_t)g.kw,
                                   (uint64_t)g.stride_x, (uint64_t)g.dil_x).cycles;
    if (dw && ok && cmd_cycles != dw_cost)
      printf("  DWCONV: %llu cycles, cost model %llu\n", (unsigned long long)cmd_cycles, (unsigned long long)dw_cost);
    tc.check(!dw || cmd_cycles == dw_cost, (w0 + "DWCONV cycles equal the cost model's").c_str());
    if (tc.fail > 6) break;
  }
  tc.check(cases >= 100, "at least 100 random cases ran");
  vec_cases(t, m, rng, tc);
  printf("exec: %d DWCONV cases slid the window\n", slid);
  if (t->dw_macs_per_cycle >= 4 * dim) tc.check(slid >= 10, "at least 10 DWCONV cases slid the window");
  delete top;
  npu_model_free(m);
  return tc.finish();
}
