// store_tb.cpp: unit bench of the STORE unit (epilogue, max pooling, SPAD and
// DRAM destinations) against the C model. Random SRAM contents, random
// epilogue parameters biased towards rounding ties and saturation, random
// pooling geometries with borders; the DRAM side answers with random stalls
// and response delays. DRAM window, SPAD and the byte counters must equal the
// model's; ties and saturations hit are counted and required. The SPAD read
// and write ports are granted at random, as when EXEC uses them.
// The last 40 cases store to the SPAD with every port free, where the
// STORE's cycles from accept to done must equal the cost model's.
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "Vnpu_store_tb.h"
#include "tb_util.h"
#include "tb_target.h"

extern "C" {
#include "cost_model.h"
#include "npu_arith.h"
#include "npu_model.h"
}

static Vnpu_store_tb *top;
static const uint32_t kBase = 0x80000000u;
static std::vector<uint8_t> dram;
static TbRng rng(777);
struct WReq { uint32_t addr; int beats; };
struct WBeat { uint64_t data; uint8_t strb; bool last; };
static std::deque<WReq> reqs;                // write bursts: first beat address, beats left
static std::deque<WBeat> beats;
static std::deque<uint64_t> bdue;
static uint64_t now;
static bool wild_write;
static bool port_bad;                        // a burst crosses 4 KiB, or `last` is misplaced
static bool seen_done, seen_ready;   // sampled with this cycle's inputs, before the edge
static uint64_t spad_wr, dram_wr, acc_rd, spad_rd;
static bool steady;                  // every port ready and granted: cycles are the cost model's

static void cycle() {
  top->dma_req_ready_i = steady || rng.range(0, 9) < 7;
  top->dma_w_ready_i = steady || rng.range(0, 9) < 7;
  top->rgnt_i = steady || rng.range(0, 9) < 7;   // SPAD ports shared with EXEC in the NPU
  top->dma_b_valid_i = !bdue.empty() && bdue.front() <= now;
  if (top->dma_b_valid_i) bdue.pop_front();
  top->clk_i = 0;
  top->eval();
  seen_done = top->done_o;
  seen_ready = top->cmd_ready_o;
  if (top->dma_req_valid_o && top->dma_req_ready_i) {
    uint32_t a = top->dma_req_addr_o & ~7u;
    int n = top->dma_req_len_o + 1;
    if ((a >> 12) != ((a + 8u * n - 1) >> 12)) port_bad = true;
    reqs.push_back({a, n});
  }
  if (top->dma_w_valid_o && top->dma_w_ready_i)
    beats.push_back({top->dma_w_data_o, top->dma_w_strb_o, (bool)top->dma_w_last_o});
  spad_wr += top->spad_wr_bytes_o;
  dram_wr += top->dram_wr_bytes_o;
  if (top->src_is_acc_o) acc_rd += top->src_rd_bytes_o;
  else spad_rd += top->src_rd_bytes_o;
  // beats go to the bursts in request order; one response per burst
  while (!reqs.empty() && !beats.empty()) {
    uint32_t a = reqs.front().addr;
    auto b = beats.front();
    beats.pop_front();
    for (int k = 0; k < 8; k++)
      if (b.strb >> k & 1) {
        uint64_t off = (uint64_t)a + k - kBase;
        if (a + k < kBase || off >= dram.size()) wild_write = true;
        else dram[off] = (uint8_t)(b.data >> (8 * k));
      }
    if (b.last != (reqs.front().beats == 1)) port_bad = true;
    reqs.front().addr += 8;
    if (--reqs.front().beats == 0) {
      reqs.pop_front();
      bdue.push_back(now + (uint64_t)rng.range(1, 12));
    }
  }
  top->clk_i = 1;
  top->eval();
  now++;
}

static bool run_cmd(const uint32_t w[4], uint64_t limit) {
  for (int i = 0; i < 4; i++) top->cmd_i[i] = w[i];
  top->cmd_valid_i = 1;
  for (uint64_t n = 0; n < limit; n++) {
    cycle();
    if (seen_ready) top->cmd_valid_i = 0;
    if (seen_done) return true;
  }
  printf("  timeout: %zu requests and %zu beats unpaired, %zu responses due\n", reqs.size(), beats.size(), bdue.size());
  return false;
}

// an epilogue lane biased towards ties (small shifts, mult 1) and saturation
static void rand_param(uint8_t *p, int dim, int lane) {
  int32_t bias, mult;
  uint8_t sh;
  switch (rng.range(0, 3)) {
  case 0: bias = (int32_t)rng.range(-8, 8); mult = 1; sh = (uint8_t)rng.range(1, 3); break;
  case 1: bias = rng.range(0, 1) ? INT32_MAX : INT32_MIN; mult = (int32_t)rng.range(1, 1 << 20); sh = (uint8_t)rng.range(20, 40); break;
  case 2: bias = (int32_t)rng.next(); mult = (int32_t)rng.next(); sh = (uint8_t)rng.range(30, 63); break;
  default: bias = (int32_t)rng.range(-1000, 1000); mult = (int32_t)rng.range(1 << 28, INT32_MAX); sh = (uint8_t)rng.range(31, 40); break;
  }
  if (rng.range(0, 7) == 0) sh |= 0x40;   // only bits 5:0 count
  for (int b = 0; b < 4; b++) {
    p[4 * lane + b] = (uint8_t)((uint32_t)bias >> (8 * b));
    p[4 * (dim + lane) + b] = (uint8_t)((uint32_t)mult >> (8 * b));
  }
  p[8 * dim + lane] = sh;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  const tsl_target_t *t = tb_target();
  if (!t) return 2;
  const int dim = (int)t->dim;
  top = new Vnpu_store_tb;
  TbCount tc;
  npu_model_t *m = npu_model_new(t);
  int8_t *mspad = npu_model_spad(m);
  int32_t *macc = npu_model_acc(m);
  uint8_t *mparam = npu_model_param(m);
  dram.assign(4096, 0);
  top->dram_base_i = kBase;
  top->rst_ni = 0;
  cycle();
  cycle();
  top->rst_ni = 1;

  for (int64_t r = 0; r < t->spad_rows; r++) {
    for (int k = 0; k < dim; k++) mspad[r * dim + k] = (int8_t)rng.next();
    top->tb_spad_we_i = 1;
    top->tb_spad_addr_i = (uint32_t)r;
    tb_put(top->tb_spad_wdata_i, (const uint8_t *)&mspad[r * dim], dim);
    cycle();
  }
  top->tb_spad_we_i = 0;
  for (int64_t r = 0; r < t->acc_rows; r++) {
    for (int k = 0; k < dim; k++) {
      int64_t v = rng.range(0, 2) == 0 ? rng.range(-64, 64) : (int64_t)(int32_t)rng.next();
      macc[r * dim + k] = (int32_t)v;
    }
    top->tb_acc_we_i = 1;
    top->tb_acc_addr_i = (uint32_t)r;
    tb_put(top->tb_acc_wdata_i, (const uint8_t *)&macc[r * dim], 4 * dim);
    cycle();
  }
  top->tb_acc_we_i = 0;
  for (int64_t r = 0; r < t->param_rows; r++) {
    for (int k = 0; k < dim; k++) rand_param(mparam + r * 9 * dim, dim, k);
    top->tb_param_we_i = 1;
    top->tb_param_addr_i = (uint32_t)r;
    tb_put(top->tb_param_wdata_i, mparam + r * 9 * dim, 9 * dim);
    cycle();
  }
  top->tb_param_we_i = 0;

  // coverage: ties (r == half) and saturations seen by the epilogue of lanes stored
  uint64_t ties = 0, sat32 = 0, clamps = 0;
  // 150 cases with random ready and grant, then 40 to the SPAD with every
  // port free, where the STORE's cycles must be the cost model's
  int cases = 0, skipped = 0;
  while (cases < 190 && skipped < 20000) {
    steady = cases >= 150;
    tsl_cfg_store_t cs = {};
    tsl_cfg_epi_t ce = {};
    tsl_store_t st = {};
    st.src_mem = rng.range(0, 3) == 0;       // mostly ACC
    st.dst_mem = steady || rng.range(0, 2) == 0;   // mostly DRAM
    st.raw = !st.src_mem && !st.dst_mem && rng.range(0, 4) == 0;
    st.n0 = rng.range(1, dim);
    ce.zp_out = rng.range(-20, 20);
    ce.lo = rng.range(-128, 0);
    ce.hi = rng.range(ce.lo, 127);
    if (rng.range(0, 3) == 0) { ce.lo = -128; ce.hi = 127; }
    if (!st.raw && rng.range(0, 1)) {
      ce.pool_k = rng.range(1, 3); ce.pool_s = rng.range(1, 3);
      ce.pool_pad_t = rng.range(0, 2); ce.pool_pad_l = rng.range(0, 2);
      ce.src_h = rng.range(1, 6); ce.src_w = rng.range(1, 6);
      st.oh = rng.range(1, 4); st.ow = rng.range(1, 4);
      cs.src_pitch = rng.range(0, 3) == 0 ? rng.range(0, ce.src_w) : ce.src_w + rng.range(0, 2);   // lines may alias
    } else {
      ce.pool_s = 1; ce.src_h = 1; ce.src_w = 1;
      st.oh = rng.range(1, 5); st.ow = rng.range(1, 6);
      cs.src_pitch = st.ow + rng.range(-1, 2);
      if (cs.src_pitch < 0) cs.src_pitch = 0;
    }
    int64_t e = st.raw ? 4 : 1;
    cs.stride_x = st.n0 * e + rng.range(0, 5);
    cs.stride_y = cs.stride_x * st.ow + rng.range(0, 9);
    cs.spad_pitch = st.ow + rng.range(0, 2);
    int64_t srcmax = st.src_mem ? t->spad_rows / 2 : t->acc_rows;
    st.src_row = rng.range(0, srcmax - 64);
    st.param = rng.range(0, t->param_rows - 1);
    st.dram = rng.range(0, 4096 - cs.stride_y * st.oh - 8);
    st.dst_row = rng.range(t->spad_rows / 2, t->spad_rows - 64);
    uint32_t w[12];
    tsl_cfg_store_encode(&cs, w);
    tsl_cfg_epi_encode(&ce, w + 4);
    tsl_store_encode(&st, w + 8);
    uint8_t stream[48];
    for (int i = 0; i < 12; i++)
      for (int b = 0; b < 4; b++) stream[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
    std::vector<uint8_t> mdram = dram;
    npu_run_t run = {};
    run.stream = stream; run.stream_len = 3; run.dram = mdram.data(); run.dram_size = mdram.size();
    npu_result_t res;
    if (npu_model_run(m, &run, &res) != 0) { skipped++; continue; }
    cases++;
    // coverage of what the epilogue saw (source rows of ACC through requant)
    if (!st.src_mem && !st.raw)
      for (int64_t y = 0; y < (ce.pool_k ? ce.src_h : st.oh); y++)
        for (int64_t x = 0; x < (ce.pool_k ? ce.src_w : st.ow); x++)
          for (int k = 0; k < dim; k++) {
            const uint8_t *p = mparam + st.param * 9 * dim;
            int32_t b = (int32_t)(p[4 * k] | p[4 * k + 1] << 8 | p[4 * k + 2] << 16 | (uint32_t)p[4 * k + 3] << 24);
            int32_t mu = (int32_t)(p[4 * (dim + k)] | p[4 * (dim + k) + 1] << 8 | p[4 * (dim + k) + 2] << 16 |
                                   (uint32_t)p[4 * (dim + k) + 3] << 24);
            unsigned s = p[8 * dim + k] & 63u;
            int64_t a = macc[(st.src_row + y * cs.src_pitch + x) * dim + k];
            int64_t tt = a + b;
            if (tt > INT32_MAX || tt < INT32_MIN) sat32++;
            int64_t pr = (int64_t)npu_sat32(tt) * mu;
            if (s && (uint64_t)(pr - ((pr >> s) << s)) == (1ull << (s - 1))) ties++;
            int64_t q = npu_rne_shift(pr, s) + ce.zp_out;
            if (q < ce.lo || q > ce.hi) clamps++;
          }
    const uint64_t *mc = npu_model_counters(m);
    uint64_t sw0 = spad_wr, dw0 = dram_wr, ar0 = acc_rd, sr0 = spad_rd;
    bool ok = run_cmd(w, 100) && run_cmd(w + 4, 100);
    uint64_t t0 = now;
    ok = ok && run_cmd(w + 8, 200000);
    uint64_t cyc = now - t0;
    std::string what = "case " + std::to_string(cases) + " (src " + (st.src_mem ? "SPAD" : "ACC") + " dst " +
                       (st.dst_mem ? "SPAD" : "DRAM") + (st.raw ? " raw" : "") + " pool_k " +
                       std::to_string(ce.pool_k) + " oh " + std::to_string(st.oh) + " ow " + std::to_string(st.ow) + "): ";
    tc.check(ok, (what + "finishes").c_str());
    tc.check(dram == mdram && !wild_write, (what + "DRAM window equals the model's").c_str());
    tc.check(!port_bad, (what + "write bursts within 4 KiB, last on each burst's final beat").c_str());
    int bad = 0;
    for (int64_t r = t->spad_rows / 2; r < t->spad_rows && ok; r++) {
      top->tb_spad_addr_i = (uint32_t)r;
      cycle();
      top->eval();
      uint8_t row[16];
      tb_get(top->tb_spad_rdata_o, row, dim);
      if (memcmp(row, &mspad[r * dim], (size_t)dim) != 0) bad++;
    }
    tc.check(bad == 0, (what + "SPAD equals the model's").c_str());
    tc.check(spad_wr - sw0 == mc[TSL_CNT_SPAD_WR_BYTES] && dram_wr - dw0 == mc[TSL_CNT_DRAM_WR_BYTES] &&
                 acc_rd - ar0 == mc[TSL_CNT_ACC_RD_BYTES] && spad_rd - sr0 == mc[TSL_CNT_SPAD_RD_BYTES],
             (what + "byte counters equal the model's").c_str());
    if (steady) {
      uint64_t est = cost_store(t, (uint64_t)st.oh, (uint64_t)st.ow, (uint64_t)ce.pool_k, 0, st.src_mem, st.raw).cycles;
      if (cyc != est) printf("  %llu cycles, cost model %llu\n", (unsigned long long)cyc, (unsigned long long)est);
      tc.check(cyc == est, (what + "cycles equal the cost model's").c_str());
    }
    if (tc.fail > 6) break;
  }
  printf("coverage: %d cases (%d drawn invalid), rounding ties %llu, int32 saturations %llu, clamps %llu\n", cases,
         skipped, (unsigned long long)ties, (unsigned long long)sat32, (unsigned long long)clamps);
  tc.check(cases >= 150, "at least 150 random cases ran");
  tc.check(ties >= 50 && sat32 >= 10 && clamps >= 50, "ties, saturations and clamps were hit");
  delete top;
  npu_model_free(m);
  return tc.finish();
}
