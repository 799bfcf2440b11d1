// load_tb.cpp: unit bench of the LOAD unit (3D strides, padding with a pad
// value, lanes past n0, SPAD/ACC/PARAM, bursts split at 4 KiB, several rows in
// flight, runs of contiguous rows merged into one burst of at most
// dram_burst_bytes) against the C model. The DRAM side has random request stalls,
// latencies and data gaps, and checks the port rules (no burst crosses 4 KiB,
// no read outside the window). All three memories and the byte counters must
// equal the model's.
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "Vnpu_load_tb.h"
#include "tb_util.h"
#include "tb_target.h"

extern "C" {
#include "npu_model.h"
}

static Vnpu_load_tb *top;
static const uint32_t kBase = 0x80000000u;
static std::vector<uint8_t> dram;
static TbRng rng(4242);
struct Burst { uint32_t addr; int beats; uint64_t due; };
static std::deque<Burst> bursts;
static uint64_t now, maxq;
static int row_beats_max;          // beats a single row of the current case may need
static int merged, burst_max;      // requests longer than one row; longest burst (beats)
static bool bad_req;
static bool seen_done, seen_ready;
static uint64_t dram_rd, spad_wr, acc_wr;

static void cycle() {
  top->dma_req_ready_i = rng.range(0, 9) < 7;
  top->gnt_i = rng.range(0, 9) < 8;
  bool give = !bursts.empty() && bursts.front().due <= now && rng.range(0, 9) < 8;
  uint64_t beat = 0;
  if (give) {
    uint32_t a = bursts.front().addr;
    for (int k = 0; k < 8; k++) {
      uint64_t off = (uint64_t)a + k - kBase;
      beat |= (uint64_t)(off < dram.size() ? dram[off] : 0xEE) << (8 * k);
    }
  }
  top->dma_r_valid_i = give;
  top->dma_r_data_i = beat;
  top->clk_i = 0;
  top->eval();
  seen_done = top->done_o;
  seen_ready = top->cmd_ready_o;
  dram_rd += top->dram_rd_bytes_o;
  spad_wr += top->spad_wr_bytes_o;
  acc_wr += top->acc_wr_bytes_o;
  if (top->dma_req_valid_o && top->dma_req_ready_i) {
    uint32_t a = top->dma_req_addr_o & ~7u;
    int beats = top->dma_req_len_o + 1;
    if ((a >> 12) != ((a + 8 * beats - 1) >> 12)) bad_req = true;          // crosses 4 KiB
    if (a < kBase || (uint64_t)(a - kBase) + 8 * beats > dram.size() + 8) bad_req = true;
    bursts.push_back({a, beats, now + (uint64_t)rng.range(2, 25)});
    if (beats > row_beats_max) merged++;
    if (beats > burst_max) burst_max = beats;
    if (bursts.size() > maxq) maxq = bursts.size();
  }
  if (give && top->dma_r_ready_o) {
    bursts.front().addr += 8;
    if (--bursts.front().beats == 0) bursts.pop_front();
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
  return false;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  const tsl_target_t *t = tb_target();
  if (!t) return 2;
  const int dim = (int)t->dim;
  top = new Vnpu_load_tb;
  TbCount tc;
  npu_model_t *m = npu_model_new(t);
  dram.resize(16384);
  for (auto &b : dram) b = (uint8_t)rng.next();
  top->dram_base_i = kBase;
  top->rst_ni = 0;
  cycle();
  cycle();
  top->rst_ni = 1;

  int cases = 0, skipped = 0, splits = 0;
  while (cases < 200 && skipped < 20000) {
    tsl_cfg_load_t c = {};
    tsl_load_t l = {};
    l.mem = rng.range(0, 2);
    l.n0 = l.mem == 2 ? dim : rng.range(1, dim);
    l.pad = l.mem == 2 ? 0 : rng.range(-128, 127);
    l.nx = rng.range(1, 6); l.ny = rng.range(1, 4); l.nz = rng.range(1, 3);
    if (l.mem != 2) {
      l.pad_left = rng.range(0, 2); l.pad_right = rng.range(0, 2);
      l.pad_top = rng.range(0, 2); l.pad_bottom = rng.range(0, 1);
      if (l.pad_left + l.pad_right > l.nx) l.pad_left = l.pad_right = 0;
      if (l.pad_top + l.pad_bottom > l.ny) l.pad_top = l.pad_bottom = 0;
    }
    int64_t e = l.mem == 0 ? 1 : l.mem == 1 ? 4 : 9;
    c.stride_x = l.n0 * e + rng.range(-2, 40);
    if (c.stride_x < 0) c.stride_x = 0;
    // a third of the cases: full rows back to back (the DMA merges them)
    bool contiguous = l.mem != 2 && rng.range(0, 2) == 0;
    if (contiguous) {
      l.n0 = dim;
      l.nx = rng.range(1, 20);
      c.stride_x = l.n0 * e;
    }
    c.stride_y = c.stride_x * l.nx + rng.range(0, 300);
    c.stride_z = c.stride_y * l.ny + rng.range(0, 2000);
    int64_t span = (l.nz - 1) * c.stride_z + (l.ny - 1) * c.stride_y + (l.nx - 1) * c.stride_x + l.n0 * e;
    if (span >= 16384) { skipped++; continue; }
    l.dram = rng.range(0, 16384 - span);
    if (rng.range(0, 3) == 0) l.dram = 4096 - rng.range(1, 8) - rng.range(0, 2) * 8;   // straddle 4 KiB
    if (contiguous) l.dram &= ~(int64_t)7;
    int64_t rows = l.mem == 0 ? t->spad_rows : l.mem == 1 ? t->acc_rows : t->param_rows;
    int64_t n = l.nx * l.ny * l.nz;
    if (n > rows) { skipped++; continue; }
    l.row = rng.range(0, rows - n);
    uint32_t w[8];
    tsl_cfg_load_encode(&c, w);
    tsl_load_encode(&l, w + 4);
    uint8_t stream[32];
    for (int i = 0; i < 8; i++)
      for (int b = 0; b < 4; b++) stream[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
    npu_run_t run = {};
    run.stream = stream; run.stream_len = 2; run.dram = dram.data(); run.dram_size = dram.size();
    npu_result_t res;
    if (npu_model_run(m, &run, &res) != 0) { skipped++; continue; }
    cases++;
    for (int64_t z = 0; z < l.nz; z++)
      for (int64_t y = 0; y < l.ny; y++)
        for (int64_t x = 0; x < l.nx; x++) {
          uint64_t a = kBase + l.dram + z * c.stride_z + (y - l.pad_top) * c.stride_y + (x - l.pad_left) * c.stride_x;
          if ((a >> 12) != ((a + l.n0 * e - 1) >> 12)) splits++;
        }
    const uint64_t *mc = npu_model_counters(m);
    uint64_t d0 = dram_rd, s0 = spad_wr, a0 = acc_wr;
    row_beats_max = (int)((l.n0 * e + 7) / 8) + 1;
    int merged0 = merged;
    bool ok = run_cmd(w, 100) && run_cmd(w + 4, 100000);
    if (!contiguous) tc.check(merged == merged0, ("case " + std::to_string(cases) + ": rows not contiguous in DRAM "
                                                  "are not merged").c_str());
    std::string what = "case " + std::to_string(cases) + " (mem " + std::to_string(l.mem) + " n0 " +
                       std::to_string(l.n0) + " box " + std::to_string(l.nz) + "x" + std::to_string(l.ny) + "x" +
                       std::to_string(l.nx) + "): ";
    tc.check(ok, (what + "finishes").c_str());
    tc.check(!bad_req, (what + "requests keep the port rules").c_str());
    int bad = 0;
    for (int64_t r = l.row; r < l.row + n && ok; r++) {
      uint8_t row[16 * 9];
      const uint8_t *ref;
      size_t len;
      if (l.mem == 0) {
        top->tb_spad_addr_i = (uint32_t)r; cycle(); top->eval();
        tb_get(top->tb_spad_rdata_o, row, dim);
        ref = (const uint8_t *)(npu_model_spad(m) + r * dim); len = (size_t)dim;
      } else if (l.mem == 1) {
        top->tb_acc_addr_i = (uint32_t)r; cycle(); top->eval();
        tb_get(top->tb_acc_rdata_o, row, 4 * dim);
        ref = (const uint8_t *)(npu_model_acc(m) + r * dim); len = 4 * (size_t)dim;
      } else {
        top->tb_param_addr_i = (uint32_t)r; cycle(); top->eval();
        tb_get(top->tb_param_rdata_o, row, 9 * dim);
        ref = npu_model_param(m) + r * 9 * dim; len = 9 * (size_t)dim;
      }
      if (memcmp(row, ref, len) != 0) bad++;
    }
    tc.check(bad == 0, (what + "rows equal the model's").c_str());
    tc.check(dram_rd - d0 == mc[TSL_CNT_DRAM_RD_BYTES] && spad_wr - s0 == mc[TSL_CNT_SPAD_WR_BYTES] &&
                 acc_wr - a0 == mc[TSL_CNT_ACC_WR_BYTES],
             (what + "byte counters equal the model's").c_str());
    if (tc.fail > 6) break;
  }
  printf("coverage: %d cases (%d drawn invalid), %d rows across 4 KiB, up to %llu bursts in flight, "
         "%d merged bursts (longest %d beats)\n", cases, skipped, splits, (unsigned long long)maxq, merged, burst_max);
  tc.check(cases >= 150, "at least 150 random cases ran");
  // several in flight: up to the target's limit (+1 for a split; npu2 allows 1)
  int64_t want_q = t->dram_max_inflight + 1 < 3 ? t->dram_max_inflight + 1 : 3;
  tc.check(splits >= 10 && maxq >= (uint64_t)want_q, "4 KiB splits and several bursts in flight were exercised");
  tc.check(merged >= 20, "bursts of several contiguous rows were exercised");
  tc.check(maxq <= t->dram_max_inflight + 1, "at most dram_max_inflight requests wait for data (one more: a 4 KiB split)");
  tc.check(burst_max <= (int)t->dram_burst_bytes / 8 || burst_max <= (9 * dim + 14) / 8,
           "no burst is longer than dram_burst_bytes (or one PARAM row)");
  delete top;
  npu_model_free(m);
  return tc.finish();
}
