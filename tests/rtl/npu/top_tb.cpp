// top_tb.cpp: the whole NPU (tessel_npu) standalone against the C model.
// Each scenario is a command stream and a DRAM image: the bench writes the
// stream into the command SRAM and the registers over the core-bus ports,
// starts the run, plays the memory port (random stalls and latencies, port
// rules checked, writes outside the window flagged), waits for the interrupt
// and compares with npu_model_run on the same inputs: error code and index,
// the DRAM window, SPAD/ACC/PARAM, and the byte, MAC and command counters.
// Scenarios: conv 3x3 + bias + requant + ReLU with loops and tokens,
// depthwise 3x3 with a max-pool store, matmul with accumulate and a raw ACC
// dump, residual add, average pooling, a MARK record, and invalid streams
// (bad opcode, ranges, LOOP, LSTRIDE, deadlock, STREAM_RANGE).
// The stream fetch (CTRL.FETCH): every fixed scenario runs again with its
// stream fetched from the fetch window instead of written by the core, and
// with a second fetch into the rest of the command SRAM during the run
// (its reads share the port with the LOADs); fetches outside the window or
// the SRAM end with FETCH_RANGE before any read; a fetch into the running
// stream and a START over a fetch in flight end with FETCH_OVERLAP; and a
// ping-pong of runs from one half while the other half is fetched.
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "Vtessel_npu.h"
#include "Vtessel_npu___024root.h"
#include "tb_util.h"
#include "tb_target.h"

extern "C" {
#include "npu_model.h"
}

static Vtessel_npu *top;
static const uint32_t kBase = 0x80000000u;
static std::vector<uint8_t> dram;
// the fetch window: read only, at its own bus address
static const uint32_t kFetch = 0x90000000u;
static std::vector<uint8_t> fwin(4096);
static uint64_t fetch_reads;   // read requests with the fetch's id
static TbRng rng(99);
static uint64_t now;
static bool port_bad;
static std::string port_msg;

// ---- the memory port --------------------------------------------------------
struct Req { uint32_t addr; int beats; uint64_t due; int id; };
static std::deque<Req> rq, wq;
struct WBeat { uint64_t data; uint8_t strb; bool last; };
static std::deque<WBeat> wbeats;
static std::deque<uint64_t> bq;

static void port_fail(const std::string &m) {
  if (!port_bad) port_msg = m;
  port_bad = true;
}

static void cycle() {
  top->dma_req_ready_i = rng.range(0, 9) < 8;
  top->dma_w_ready_i = rng.range(0, 9) < 8;
  bool give = !rq.empty() && rq.front().due <= now && rng.range(0, 9) < 9;
  uint64_t beat = 0;
  if (give) {
    uint32_t a = rq.front().addr;
    for (int k = 0; k < 8; k++) {
      uint64_t off = (uint64_t)a + k - kBase, foff = (uint64_t)a + k - kFetch;
      uint8_t v = off < dram.size() ? dram[off] : foff < fwin.size() ? fwin[foff] : 0xEE;
      beat |= (uint64_t)v << (8 * k);
    }
  }
  top->dma_r_valid_i = give;
  top->dma_r_data_i = beat;
  top->dma_r_last_i = give && rq.front().beats == 1;
  top->dma_r_id_i = give ? rq.front().id : 0;
  top->dma_r_err_i = 0;
  bool bgive = !bq.empty() && bq.front() <= now;
  top->dma_b_valid_i = bgive;
  top->dma_b_id_i = 1;
  top->dma_b_err_i = 0;
  top->clk_i = 0;
  top->eval();
  if (top->dma_req_valid_o && top->dma_req_ready_i) {
    uint32_t a = top->dma_req_addr_o & ~7u;
    int beats = top->dma_req_len_o + 1;
    if ((a >> 12) != ((a + 8u * beats - 1) >> 12)) port_fail("a burst crosses 4 KiB");
    int id = top->dma_req_id_o;
    if (top->dma_req_write_o) wq.push_back({a, beats, 0, id});
    else rq.push_back({a, beats, now + (uint64_t)rng.range(3, 30), id});
    if (!top->dma_req_write_o && id == 2) {
      fetch_reads++;
      if (a < kFetch || (uint64_t)a + 8u * beats > kFetch + fwin.size()) port_fail("a fetch read outside the fetch window");
    }
  }
  if (top->dma_w_valid_o && top->dma_w_ready_i)
    wbeats.push_back({top->dma_w_data_o, top->dma_w_strb_o, (bool)top->dma_w_last_o});
  while (!wq.empty() && !wbeats.empty()) {
    uint32_t a = wq.front().addr;
    auto b = wbeats.front();
    wbeats.pop_front();
    for (int k = 0; k < 8; k++)
      if (b.strb >> k & 1) {
        uint64_t off = (uint64_t)a + k - kBase;
        if (a + k < kBase || off >= dram.size()) port_fail("write outside the DRAM window");
        else dram[off] = (uint8_t)(b.data >> (8 * k));
      }
    if (b.last != (wq.front().beats == 1)) port_fail("write last not on the burst's final beat");
    wq.front().addr += 8;
    if (--wq.front().beats == 0) {
      wq.pop_front();
      bq.push_back(now + (uint64_t)rng.range(1, 10));
    }
  }
  if (give && top->dma_r_ready_o) {
    rq.front().addr += 8;
    if (--rq.front().beats == 0) rq.pop_front();
  }
  if (bgive) bq.pop_front();
  top->clk_i = 1;
  top->eval();
  now++;
}

// ---- core-bus accesses ----------------------------------------------------------
static uint32_t bus(bool cmd, bool we, uint16_t addr, uint32_t wdata, uint8_t be = 0xF) {
  if (cmd) {
    top->cmd_req_valid_i = 1; top->cmd_req_we_i = we; top->cmd_req_be_i = be;
    top->cmd_req_addr_i = addr; top->cmd_req_wdata_i = wdata;
  } else {
    top->reg_req_valid_i = 1; top->reg_req_we_i = we; top->reg_req_be_i = 0xF;
    top->reg_req_addr_i = addr; top->reg_req_wdata_i = wdata;
  }
  cycle();
  top->cmd_req_valid_i = 0;
  top->reg_req_valid_i = 0;
  for (int i = 0; i < 10; i++) {
    top->eval();
    if (cmd ? top->cmd_rsp_valid_o : top->reg_rsp_valid_o) {
      uint32_t r = cmd ? top->cmd_rsp_rdata_o : top->reg_rsp_rdata_o;
      cycle();
      return r;
    }
    cycle();
  }
  port_fail("no bus response");
  return 0;
}
static void wr_reg(uint16_t a, uint32_t v) { bus(false, true, a, v); }
static uint32_t rd_reg(uint16_t a) { return bus(false, false, a, 0); }

// ---- streams ----------------------------------------------------------------------
struct Stream {
  std::vector<uint8_t> b;
  template <class T, class F> void add(const T &c, F enc) {
    uint32_t w[4];
    if (enc(&c, w) != 0) {
      fprintf(stderr, "top_tb: a field does not fit (command %zu)\n", b.size() / 16);
      exit(2);
    }
    raw(w);
  }
  void raw(const uint32_t w[4]) {
    uint8_t x[16];
    tsl_cmd_to_bytes(w, x);
    b.insert(b.end(), x, x + 16);
  }
  uint32_t n() const { return (uint32_t)(b.size() / 16); }
};
#define ADD(s, kind, ...)                          \
  do {                                             \
    tsl_##kind##_t c_ = {};                        \
    __VA_ARGS__;                                   \
    (s).add(c_, tsl_##kind##_encode);              \
  } while (0)

struct Scenario {
  std::string name;
  Stream s;
  std::vector<uint8_t> dram;
  uint32_t len_override = 0;   // STREAM_LEN other than the stream's (STREAM_RANGE)
  bool use_override = false;
  int64_t mark_at = -1;
  size_t skip_from = SIZE_MAX;  // MARK records of random streams land from here on: not compared        // a MARK record here: cycle counters differ from the model's estimates
};

static const tsl_target_t *T;
static int D;

// The command SRAM through the core's port: words written with random byte
// enables read back as a byte shadow says (npu_cmd_sram keeps a core copy and
// a dispatcher copy; the streams below check the dispatcher's).
static void cmd_sram_readback(TbCount &tc) {
  TbRng r(7);  // its own generator: the scenarios below draw as before
  std::vector<uint8_t> shadow(T->cmd_sram_bytes);
  for (uint32_t a = 0; a < T->cmd_sram_bytes; a += 4) {
    uint32_t w = r.next();
    bus(true, true, (uint16_t)a, w);
    for (int b = 0; b < 4; b++) shadow[a + b] = (uint8_t)(w >> (8 * b));
  }
  for (int k = 0; k < 2000; k++) {
    uint32_t a = (r.next() % (T->cmd_sram_bytes / 4)) * 4, w = r.next();
    uint8_t be = (uint8_t)(r.next() & 0xF);
    bus(true, true, (uint16_t)a, w, be);
    for (int b = 0; b < 4; b++)
      if (be >> b & 1) shadow[a + b] = (uint8_t)(w >> (8 * b));
  }
  bool ok = true;
  for (uint32_t a = 0; a < T->cmd_sram_bytes && ok; a += 4) {
    uint32_t want = shadow[a] | shadow[a + 1] << 8 | shadow[a + 2] << 16 | (uint32_t)shadow[a + 3] << 24;
    ok = bus(true, false, (uint16_t)a, 0) == want;
  }
  tc.check(ok, "command SRAM: byte-enabled writes read back through the core's port");
}

static void fill(std::vector<uint8_t> &m, size_t off, size_t n, int lo = -128, int hi = 127) {
  for (size_t i = 0; i < n; i++) m[off + i] = (uint8_t)(int8_t)rng.range(lo, hi);
}
static void put32(std::vector<uint8_t> &m, size_t off, uint32_t v) {
  for (int i = 0; i < 4; i++) m[off + i] = (uint8_t)(v >> (8 * i));
}
// PARAM rows: bias, multiplier, shift per channel (a realistic requantisation)
static void fill_param(std::vector<uint8_t> &m, size_t off, int rows) {
  for (int r = 0; r < rows; r++) {
    size_t p = off + (size_t)r * 9 * D;
    for (int k = 0; k < D; k++) {
      put32(m, p + 4 * k, (uint32_t)rng.range(-2000, 2000));
      put32(m, p + 4 * (D + k), (uint32_t)rng.range(1 << 29, (1u << 31) - 1));
      m[p + 8 * D + k] = (uint8_t)rng.range(36, 40);
    }
  }
}

// conv HxW, NCB input blocks -> NOB output blocks, 3x3 pad 1 stride 1, bias + requant + ReLU
static Scenario sc_conv() {
  Scenario c;
  c.name = "conv 3x3 + bias + requant + ReLU";
  const int H = 6, W = 5, NCB = 2, NOB = 2, NT = 9;
  const size_t IN = 0, WT = IN + NCB * H * W * D, PR = WT + (size_t)NOB * NT * NCB * D * D,
               OUT = PR + (size_t)NOB * 9 * D, MK = OUT + (size_t)NOB * H * W * D + 8 + 3;
  c.dram.assign(MK + 200, 0);
  fill(c.dram, IN, NCB * H * W * D);
  fill(c.dram, WT, (size_t)NOB * NT * NCB * D * D, -20, 20);
  fill_param(c.dram, PR, NOB);
  const int WROWS = NT * NCB * D, SW = NCB * H * W;   // weight rows per output block, first weight row
  ADD(c.s, cfg_load, c_.stride_x = D; c_.stride_y = W * D; c_.stride_z = H * W * D);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = IN; c_.row = 0; c_.nx = W; c_.ny = H; c_.nz = NCB);
  ADD(c.s, cfg_load, c_.stride_x = D; c_.stride_y = (int64_t)WROWS * D);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = WT; c_.row = SW; c_.nx = WROWS; c_.ny = NOB; c_.nz = 1);
  ADD(c.s, cfg_load, c_.stride_x = 9 * D);
  ADD(c.s, load, c_.mem = 2; c_.n0 = D; c_.dram = PR; c_.row = 0; c_.nx = NOB; c_.ny = 1; c_.nz = 1; c_.push_next = 1);
  ADD(c.s, cfg_exec, c_.out_pitch = W; c_.kh = 3; c_.kw = 3; c_.ncb = NCB; c_.pad = 3; c_.stride_y = 1;
      c_.stride_x = 1; c_.dil_y = 1; c_.dil_x = 1; c_.in_h = H; c_.in_w = W; c_.in_pitch = W; c_.cb_stride = H * W);
  ADD(c.s, enop, c_.pop_prev = 1);
  ADD(c.s, loop, c_.count = NOB; c_.body = 1; c_.stride_c = H * W; c_.stride_d = WROWS);
  ADD(c.s, matmul, c_.push_next = 1; c_.oh = H; c_.ow = W; c_.in = 0; c_.wgt = SW; c_.acc = 0; c_.iy0 = -1; c_.ix0 = -1);
  ADD(c.s, cfg_store, c_.src_pitch = W; c_.stride_x = D; c_.stride_y = W * D);
  ADD(c.s, cfg_epi, c_.zp_out = -3; c_.lo = -3; c_.hi = 127);
  ADD(c.s, lstride, c_.stride_g = H * W * D);
  ADD(c.s, loop, c_.count = NOB; c_.body = 1; c_.stride_c = H * W; c_.stride_d = 1);
  ADD(c.s, store, c_.pop_prev = 1; c_.n0 = D; c_.oh = H; c_.ow = W; c_.dram = OUT; c_.src_row = 0; c_.param = 0);
  ADD(c.s, mark, c_.kernel = 7; c_.record = 1; c_.dram = MK);
  c.mark_at = (int64_t)MK;
  return c;
}

// depthwise 3x3 stride 2 with pad, then a 2x2 max-pooled store to DRAM and to SPAD
static Scenario sc_dw() {
  Scenario c;
  c.name = "depthwise 3x3 + max-pool store";
  const int H = 7, W = 6, OH = 4, OW = 3;
  const size_t IN = 0, WT = IN + H * W * D, PR = WT + 9 * D, OUT = PR + 9 * D + 5;
  c.dram.assign(OUT + 64 * D, 0);
  fill(c.dram, IN, H * W * D);
  fill(c.dram, WT, 9 * D);
  fill_param(c.dram, PR, 1);
  ADD(c.s, cfg_load, c_.stride_x = D; c_.stride_y = W * D; c_.stride_z = H * W * D);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = IN; c_.row = 0; c_.nx = W; c_.ny = H; c_.nz = 1);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = WT; c_.row = 100; c_.nx = 9; c_.ny = 1; c_.nz = 1);
  ADD(c.s, cfg_load, c_.stride_x = 9 * D);
  ADD(c.s, load, c_.mem = 2; c_.n0 = D; c_.dram = PR; c_.row = 3; c_.nx = 1; c_.ny = 1; c_.nz = 1; c_.push_next = 1);
  ADD(c.s, cfg_exec, c_.out_pitch = OW; c_.kh = 3; c_.kw = 3; c_.ncb = 1; c_.pad = -2; c_.stride_y = 2;
      c_.stride_x = 2; c_.dil_y = 1; c_.dil_x = 1; c_.in_h = H; c_.in_w = W; c_.in_pitch = W; c_.cb_stride = 0);
  ADD(c.s, dwconv, c_.pop_prev = 1; c_.push_next = 1; c_.oh = OH; c_.ow = OW; c_.in = 0; c_.wgt = 100; c_.acc = 10;
      c_.iy0 = -1; c_.ix0 = -1);
  ADD(c.s, cfg_store, c_.src_pitch = OW; c_.stride_x = D + 1; c_.stride_y = 3 * (D + 1); c_.spad_pitch = 2);
  ADD(c.s, cfg_epi, c_.pool_k = 2; c_.pool_s = 2; c_.pool_pad_t = 1; c_.pool_pad_l = 1; c_.zp_out = 2; c_.lo = -100;
      c_.hi = 100; c_.src_h = OH; c_.src_w = OW);
  ADD(c.s, store, c_.pop_prev = 1; c_.n0 = D - 1; c_.oh = 3; c_.ow = 2; c_.dram = OUT; c_.src_row = 10; c_.param = 3);
  ADD(c.s, store, c_.dst_mem = 1; c_.n0 = D; c_.oh = 3; c_.ow = 2; c_.dst_row = 500; c_.src_row = 10; c_.param = 3);
  return c;
}

// matmul M=12 (3x4), K=3 blocks, N=2 blocks; the second K half accumulates; raw ACC dump
static Scenario sc_matmul() {
  Scenario c;
  c.name = "matmul (accumulate, raw ACC store)";
  const int M = 12, KB = 3, NB = 2;
  const size_t A = 0, B = A + (size_t)KB * M * D, OUT = B + (size_t)NB * KB * D * D + 4;
  c.dram.assign(OUT + (size_t)NB * M * 4 * D + 64, 0);
  fill(c.dram, A, (size_t)KB * M * D);
  fill(c.dram, B, (size_t)NB * KB * D * D);
  ADD(c.s, cfg_load, c_.stride_x = D; c_.stride_y = M * D; c_.stride_z = 0);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = A; c_.row = 0; c_.nx = M; c_.ny = KB; c_.nz = 1);
  ADD(c.s, cfg_load, c_.stride_x = D);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = B; c_.row = 1000; c_.nx = NB * KB * D; c_.ny = 1; c_.nz = 1;
      c_.push_next = 1);
  ADD(c.s, cfg_exec, c_.out_pitch = 4; c_.kh = 1; c_.kw = 1; c_.ncb = 2; c_.stride_y = 1; c_.stride_x = 1;
      c_.dil_y = 1; c_.dil_x = 1; c_.in_h = 3; c_.in_w = 4; c_.in_pitch = 4; c_.cb_stride = M);
  ADD(c.s, enop, c_.pop_prev = 1);
  ADD(c.s, loop, c_.count = NB; c_.body = 3; c_.stride_c = M; c_.stride_d = KB * D);
  ADD(c.s, matmul, c_.oh = 3; c_.ow = 4; c_.in = 0; c_.wgt = 1000; c_.acc = 0);
  ADD(c.s, cfg_exec, c_.out_pitch = 4; c_.kh = 1; c_.kw = 1; c_.ncb = 1; c_.stride_y = 1; c_.stride_x = 1;
      c_.dil_y = 1; c_.dil_x = 1; c_.in_h = 3; c_.in_w = 4; c_.in_pitch = 4; c_.cb_stride = M);
  ADD(c.s, matmul, c_.push_next = 1; c_.acc_mode = 1; c_.oh = 3; c_.ow = 4; c_.in = 2 * M; c_.wgt = 1000 + 2 * D;
      c_.acc = 0);
  ADD(c.s, cfg_store, c_.src_pitch = 4; c_.stride_x = 4 * D; c_.stride_y = 16 * D);
  ADD(c.s, lstride, c_.stride_g = M * 4 * D);
  ADD(c.s, loop, c_.count = NB; c_.body = 1; c_.stride_c = M);
  ADD(c.s, store, c_.pop_prev = 1; c_.raw = 1; c_.n0 = D; c_.oh = 3; c_.ow = 4; c_.dram = OUT; c_.src_row = 0);
  return c;
}

// residual add (VADD) and average pooling (VPOOL) in SPAD, stored as copies
static Scenario sc_vec() {
  Scenario c;
  c.name = "residual add + average pooling";
  const int R = 10;
  const size_t A = 0, B = (size_t)R * D, OUT = 2 * (size_t)R * D + 3;
  c.dram.assign(OUT + 64 * D, 0);
  fill(c.dram, A, 2 * (size_t)R * D);
  ADD(c.s, cfg_load, c_.stride_x = D);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = A; c_.row = 0; c_.nx = R; c_.ny = 1; c_.nz = 1);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = B; c_.row = 50; c_.nx = R; c_.ny = 1; c_.nz = 1; c_.push_next = 1);
  ADD(c.s, cfg_vec, c_.mult_a = 1 << 20; c_.mult_b = 3 << 19; c_.shift = 21; c_.zp_a = 3; c_.zp_b = -5;
      c_.zp_out = 1; c_.lo = -120; c_.hi = 110);
  ADD(c.s, vadd, c_.pop_prev = 1; c_.a = 0; c_.b = 50; c_.out = 100; c_.rows = R);
  ADD(c.s, vadd, c_.a = 0; c_.b = 50; c_.out = 50; c_.rows = R);
  ADD(c.s, cfg_exec, c_.out_pitch = 2; c_.kh = 3; c_.kw = 3; c_.ncb = 1; c_.stride_y = 2; c_.stride_x = 2;
      c_.dil_y = 1; c_.dil_x = 1; c_.in_h = 2; c_.in_w = 5; c_.in_pitch = 5; c_.cb_stride = 0);
  ADD(c.s, cfg_vec, c_.mult_a = 3; c_.shift = 1; c_.zp_a = -4; c_.zp_out = 2; c_.lo = -128; c_.hi = 127);
  ADD(c.s, vpool, c_.exclude_pad = 1; c_.oh = 1; c_.ow = 3; c_.in = 0; c_.out = 200; c_.iy0 = -1; c_.ix0 = -1);
  ADD(c.s, vpool, c_.push_next = 1; c_.oh = 1; c_.ow = 3; c_.in = 0; c_.out = 210; c_.iy0 = -1; c_.ix0 = -1);
  ADD(c.s, cfg_store, c_.src_pitch = 10; c_.stride_x = D; c_.stride_y = 10 * D);
  ADD(c.s, store, c_.pop_prev = 1; c_.src_mem = 1; c_.n0 = D; c_.oh = 1; c_.ow = 10; c_.dram = OUT; c_.src_row = 100);
  ADD(c.s, store, c_.src_mem = 1; c_.n0 = D; c_.oh = 1; c_.ow = 10; c_.dram = OUT + 10 * D; c_.src_row = 200);
  ADD(c.s, store, c_.src_mem = 1; c_.n0 = D; c_.oh = 1; c_.ow = 10; c_.dram = OUT + 20 * D; c_.src_row = 50);
  return c;
}

static Scenario sc_err(int kind) {
  Scenario c;
  c.dram.assign(4096, 0);
  ADD(c.s, cfg_load, c_.stride_x = D);
  ADD(c.s, nop, (void)0);
  switch (kind) {
  case 0: {
    c.name = "error: bad opcode";
    uint32_t w[4] = {0x77, 0, 0, 0};
    c.s.raw(w);
    break;
  }
  case 1:
    c.name = "error: SPAD range inside a loop";
    ADD(c.s, loop, c_.count = 5; c_.body = 1; c_.stride_b = (int64_t)(T->spad_rows / 4));
    ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = 0; c_.row = 0; c_.nx = 2; c_.ny = 1; c_.nz = 1);
    break;
  case 2:
    c.name = "error: DRAM range";
    ADD(c.s, cfg_store, c_.stride_x = D; c_.stride_y = D);
    ADD(c.s, store, c_.n0 = D; c_.oh = 1; c_.ow = 1; c_.dram = 4094; c_.src_row = 0; c_.param = 0);
    break;
  case 3:
    c.name = "error: loop body past the stream";
    ADD(c.s, loop, c_.count = 2; c_.body = 5);
    ADD(c.s, nop, (void)0);
    break;
  case 4:
    c.name = "error: LSTRIDE without LOOP";
    ADD(c.s, lstride, c_.stride_g = 8);
    ADD(c.s, nop, (void)0);
    break;
  case 5:
    c.name = "error: token deadlock";
    ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = 0; c_.row = 0; c_.nx = 2; c_.ny = 1; c_.nz = 1);
    ADD(c.s, enop, c_.pop_prev = 1; c_.pop_next = 1);
    ADD(c.s, nop, (void)0);
    break;
  case 8: // MARK reset: the token pushed before it is gone, the pop after it waits forever
    c.name = "MARK reset drops the tokens held";
    ADD(c.s, cfg_load, c_.push_next = 1);
    ADD(c.s, mark, c_.kernel = 1; c_.reset = 1);
    ADD(c.s, enop, c_.pop_prev = 1);
    break;
  case 9: // ... and frees their room: token_max pushes on each side of it
    c.name = "MARK reset: room for token_max more tokens";
    ADD(c.s, loop, c_.count = T->token_max; c_.body = 1);
    ADD(c.s, cfg_load, c_.push_next = 1);
    ADD(c.s, mark, c_.kernel = 1; c_.reset = 1);
    ADD(c.s, loop, c_.count = T->token_max; c_.body = 1);
    ADD(c.s, cfg_load, c_.push_next = 1);
    break;
  case 10: // ... and clears the configuration: VPOOL finds CFG_EXEC's kh 0
    c.name = "MARK reset clears the configuration";
    ADD(c.s, cfg_exec, c_.out_pitch = 1; c_.kh = 1; c_.kw = 1; c_.ncb = 1; c_.stride_y = 1; c_.stride_x = 1;
        c_.dil_y = 1; c_.dil_x = 1; c_.in_h = 1; c_.in_w = 1; c_.in_pitch = 1; c_.cb_stride = 1);
    ADD(c.s, cfg_vec, c_.lo = -128; c_.hi = 127);
    ADD(c.s, mark, c_.kernel = 1; c_.reset = 1);
    ADD(c.s, vpool, c_.oh = 1; c_.ow = 1; c_.in = 0; c_.out = 64);
    break;
  case 6:
    c.name = "error: STREAM_RANGE";
    c.use_override = true;
    c.len_override = (uint32_t)(T->cmd_sram_bytes / 16 + 1);
    break;
  default:
    c.name = "error: bad field (PARAM load with padding)";
    ADD(c.s, load, c_.mem = 2; c_.n0 = D; c_.dram = 0; c_.row = 0; c_.nx = 2; c_.ny = 1; c_.nz = 1; c_.pad_left = 1);
    break;
  }
  return c;
}

// Random streams: commands with small random fields, so that most are valid
// and some fail a check, loop, carry tokens that deadlock, or overlap; the RTL
// must end exactly as the model does (code and index) and, when the run
// succeeds, leave the same memories and counters. Most commands are followed
// by a MARK barrier so that the queues never race.
static Scenario sc_random(int seed) {
  Scenario c;
  c.name = "random stream " + std::to_string(seed);
  c.dram.assign(4096, 0);
  fill(c.dram, 0, 4096);
  c.skip_from = 3600;
  for (int r = 0; r < 4; r++) fill_param(c.dram, 3000 + 9 * D * r, 1);
  auto R = [](int64_t lo, int64_t hi) { return rng.range(lo, hi); };
  auto tok = [&](int64_t &pp, int64_t &pn, int64_t &qp, int64_t &qn) {
    if (R(0, 3) == 0) { pp = R(0, 1); pn = R(0, 1); qp = R(0, 1); qn = R(0, 1); }
  };
  // data first: SPAD rows 0..255, PARAM rows 0..3, ACC rows 0..63
  ADD(c.s, cfg_load, c_.stride_x = D; c_.stride_y = 16 * D; c_.stride_z = 0);
  ADD(c.s, load, c_.mem = 0; c_.n0 = D; c_.dram = 0; c_.row = 0; c_.nx = 16; c_.ny = 16; c_.nz = 1);
  ADD(c.s, cfg_load, c_.stride_x = 9 * D);
  ADD(c.s, load, c_.mem = 2; c_.n0 = D; c_.dram = 3000; c_.row = 0; c_.nx = 4; c_.ny = 1; c_.nz = 1);
  ADD(c.s, cfg_load, c_.stride_x = 4 * D);
  ADD(c.s, load, c_.mem = 1; c_.n0 = D; c_.dram = 512; c_.row = 0; c_.nx = 64; c_.ny = 1; c_.nz = 1; c_.push_next = 1);
  ADD(c.s, enop, c_.pop_prev = 1);
  ADD(c.s, cfg_exec, c_.out_pitch = 4; c_.kh = 2; c_.kw = 2; c_.ncb = 1; c_.pad = 5; c_.stride_y = 1; c_.stride_x = 1;
      c_.dil_y = 1; c_.dil_x = 1; c_.in_h = 4; c_.in_w = 4; c_.in_pitch = 4; c_.cb_stride = 16);
  ADD(c.s, cfg_vec, c_.mult_a = 1 << 16; c_.mult_b = 1 << 15; c_.shift = 16; c_.lo = -128; c_.hi = 127);
  ADD(c.s, cfg_store, c_.src_pitch = 4; c_.stride_x = D; c_.stride_y = 4 * D; c_.spad_pitch = 4);
  ADD(c.s, cfg_epi, c_.zp_out = 1; c_.lo = -100; c_.hi = 100; c_.pool_s = 1; c_.src_h = 1; c_.src_w = 1);
  int n = (int)R(4, 14);
  for (int i = 0; i < n; i++) {
    int64_t pp = 0, pn = 0, qp = 0, qn = 0;
    switch (R(0, 13)) {
    case 0:
      ADD(c.s, cfg_exec, c_.out_pitch = R(1, 6); c_.kh = R(1, 3); c_.kw = R(1, 3); c_.ncb = R(1, 2); c_.pad = R(-128, 127);
          c_.stride_y = R(1, 2); c_.stride_x = R(1, 2); c_.dil_y = R(1, 2); c_.dil_x = R(1, 2); c_.in_h = R(1, 6);
          c_.in_w = R(1, 6); c_.in_pitch = R(1, 8); c_.cb_stride = R(0, 64));
      break;
    case 1: case 2:
      tok(pp, pn, qp, qn);
      ADD(c.s, matmul, c_.pop_prev = pp; c_.pop_next = pn; c_.push_prev = qp; c_.push_next = qn;
          c_.acc_mode = R(0, 1); c_.oh = R(1, 4); c_.ow = R(1, 4); c_.in = R(-4, 200); c_.wgt = R(0, 300);
          c_.acc = R(0, 80); c_.iy0 = R(-2, 2); c_.ix0 = R(-2, 2));
      break;
    case 3:
      ADD(c.s, dwconv, c_.acc_mode = R(0, 1); c_.oh = R(1, 4); c_.ow = R(1, 4); c_.in = R(-4, 200);
          c_.wgt = R(0, 250); c_.acc = R(0, 80); c_.iy0 = R(-2, 2); c_.ix0 = R(-2, 2));
      break;
    case 4:
      ADD(c.s, cfg_vec, c_.mult_a = R(1, 1 << 20); c_.mult_b = R(-(1 << 20), 1 << 20); c_.shift = R(0, 30);
          c_.zp_a = R(-10, 10); c_.zp_b = R(-10, 10); c_.zp_out = R(-10, 10); c_.lo = R(-128, 0); c_.hi = R(0, 127));
      break;
    case 5:
      ADD(c.s, vadd, c_.a = R(0, 250); c_.b = R(0, 250); c_.out = R(200, 400); c_.rows = R(1, 8));
      break;
    case 6:
      ADD(c.s, vpool, c_.exclude_pad = R(0, 1); c_.oh = R(1, 3); c_.ow = R(1, 3); c_.in = R(0, 100);
          c_.out = R(150, 400); c_.iy0 = R(-1, 1); c_.ix0 = R(-1, 1));
      break;
    case 7:
      ADD(c.s, cfg_store, c_.src_pitch = R(0, 6); c_.stride_x = R(1, 40); c_.stride_y = R(1, 200);
          c_.spad_pitch = R(1, 6));
      break;
    case 8:
      ADD(c.s, cfg_epi, c_.pool_k = R(0, 3) == 0 ? R(1, 3) : 0; c_.pool_s = R(1, 2); c_.pool_pad_t = R(0, 1);
          c_.pool_pad_l = R(0, 1); c_.zp_out = R(-10, 10); c_.lo = R(-128, 0); c_.hi = R(R(0, 9) ? 0 : -3, 127); c_.src_h = R(1, 4);
          c_.src_w = R(1, 4));
      break;
    case 9: case 10:
      tok(pp, pn, qp, qn);
      ADD(c.s, store, c_.pop_prev = pp; c_.push_prev = qp; c_.src_mem = R(0, 3) == 0; c_.dst_mem = R(0, 2) == 0;
          c_.raw = R(0, 5) == 0; c_.n0 = R(1, D); c_.oh = R(1, 3); c_.ow = R(1, 3); c_.dram = R(1000, 2900);
          c_.dst_row = R(300, 500); c_.src_row = R(0, 60); c_.param = R(0, 4));
      break;
    case 11:
      ADD(c.s, loop, c_.count = R(1, 3); c_.body = R(1, 3); c_.stride_a = R(-1, 1) * 8; c_.stride_b = R(-2, 2);
          c_.stride_c = R(0, 3); c_.stride_d = R(-1, 2); c_.stride_e = R(-1, 1); c_.stride_f = R(-1, 1));
      break;
    case 12:
      tok(pp, pn, qp, qn);
      ADD(c.s, enop, c_.pop_prev = pp; c_.pop_next = pn; c_.push_prev = qp; c_.push_next = qn);
      break;
    default:
      if (R(0, 1)) ADD(c.s, lstride, c_.stride_g = R(-3, 3) * 16; c_.stride_h = R(-1, 1));
      else ADD(c.s, mark, c_.kernel = R(0, 9); c_.record = R(0, 1); c_.reset = R(0, 3) == 0; c_.dram = R(3700, 3850));
      break;
    }
    // a barrier after each queue command: the queues may not race (their
    // results would be undefined), the dispatcher's work is still random
    uint8_t op = c.s.b[c.s.b.size() - 16];
    if (op != TSL_OP_LOOP && op != TSL_OP_LSTRIDE) {
      ADD(c.s, mark, c_.kernel = 1);
      // ... and one before it: commands of two loop iterations never race either
      std::vector<uint8_t> cmd(c.s.b.end() - 32, c.s.b.end() - 16);
      c.s.b.erase(c.s.b.end() - 32, c.s.b.end() - 16);
      ADD(c.s, mark, c_.kernel = 2);
      c.s.b.insert(c.s.b.end() - 16, cmd.begin(), cmd.end());
    }
  }
  // now and then one flipped bit anywhere after the preamble: reserved bits,
  // opcodes and field ranges must be judged as the model judges them
  if (R(0, 2) == 0) {
    size_t cmd = 11 + (size_t)R(0, c.s.n() - 12);
    int bit = (int)R(0, 127);
    c.s.b[16 * cmd + bit / 8] ^= (uint8_t)(1u << (bit % 8));
    // ... but not one that turns a MARK into a record below skip_from: its
    // cycle counters are the model's estimates, they differ from the RTL's
    if (c.s.b[16 * cmd] == TSL_OP_MARK && (c.s.b[16 * cmd + 3] & 1)) c.s.b[16 * cmd + bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  return c;
}

// ---- running and comparing ------------------------------------------------------------
// SPAD row i: rows are interleaved over TB_SPAD_WAYS memories (npu_spad)
#if TB_SPAD_WAYS == 1
#define SPAD_ROW(r, i) (r)->tessel_npu__DOT__u_spad__DOT__g_one__DOT__u_mem__DOT__mem_q[i]
#else
#define SPAD_WAY(r, j) (r)->tessel_npu__DOT__u_spad__DOT__g_ways__DOT__g_way__BRA__##j##__KET____DOT__u_mem__DOT__mem_q
#if TB_SPAD_WAYS == 2
#define SPAD_ROW(r, i) (*((i) % 2 ? &SPAD_WAY(r, 1)[(i) / 2] : &SPAD_WAY(r, 0)[(i) / 2]))
#elif TB_SPAD_WAYS == 4
#define SPAD_ROW(r, i)                                                                               \
  (*((i) % 4 == 0 ? &SPAD_WAY(r, 0)[(i) / 4] : (i) % 4 == 1 ? &SPAD_WAY(r, 1)[(i) / 4]              \
     : (i) % 4 == 2 ? &SPAD_WAY(r, 2)[(i) / 4] : &SPAD_WAY(r, 3)[(i) / 4]))
#endif
#endif

static void zero_srams() {
  auto *r = top->rootp;
  for (int64_t i = 0; i < T->spad_rows; i++) SPAD_ROW(r, i) = 0;
  for (int64_t i = 0; i < T->acc_rows; i++) {
    uint8_t z[64] = {0};
    tb_put(r->tessel_npu__DOT__u_acc__DOT__mem_q[i], z, 4 * D);
  }
  for (int64_t i = 0; i < T->param_rows; i++) {
    uint8_t z[160] = {0};
    tb_put(r->tessel_npu__DOT__u_param__DOT__mem_q[i], z, 9 * D);
  }
}

static bool srams_equal(npu_model_t *m, std::string &why) {
  auto *r = top->rootp;
  uint8_t row[160];
  for (int64_t i = 0; i < T->spad_rows; i++) {
    tb_get(SPAD_ROW(r, i), row, D);
    if (memcmp(row, npu_model_spad(m) + i * D, (size_t)D)) { why = "SPAD row " + std::to_string(i); return false; }
  }
  for (int64_t i = 0; i < T->acc_rows; i++) {
    tb_get(r->tessel_npu__DOT__u_acc__DOT__mem_q[i], row, 4 * D);
    if (memcmp(row, npu_model_acc(m) + i * D, 4 * (size_t)D)) { why = "ACC row " + std::to_string(i); return false; }
  }
  for (int64_t i = 0; i < T->param_rows; i++) {
    tb_get(r->tessel_npu__DOT__u_param__DOT__mem_q[i], row, 9 * D);
    if (memcmp(row, npu_model_param(m) + i * 9 * D, 9 * (size_t)D)) { why = "PARAM row " + std::to_string(i); return false; }
  }
  return true;
}

static const int kExact[] = {TSL_CNT_MACS, TSL_CNT_SPAD_RD_BYTES, TSL_CNT_SPAD_WR_BYTES, TSL_CNT_ACC_RD_BYTES,
                             TSL_CNT_ACC_WR_BYTES, TSL_CNT_DRAM_RD_BYTES, TSL_CNT_DRAM_WR_BYTES,
                             TSL_CNT_LOAD_CMDS, TSL_CNT_EXEC_CMDS, TSL_CNT_STORE_CMDS};

static int rcodes[16], last_code;

// ---- the stream fetch ------------------------------------------------------------
// Starts a fetch of n commands from byte src of the fetch window to byte dst
// of the command SRAM.
static void fetch(uint32_t src, uint32_t dst, uint32_t n, uint32_t win = (uint32_t)fwin.size()) {
  wr_reg((uint16_t)TSL_REG_FETCH_BASE, kFetch);
  wr_reg((uint16_t)TSL_REG_FETCH_SIZE, win);
  wr_reg((uint16_t)TSL_REG_FETCH_SRC, src);
  wr_reg((uint16_t)TSL_REG_FETCH_DST, dst);
  wr_reg((uint16_t)TSL_REG_FETCH_LEN, n);
  wr_reg((uint16_t)TSL_REG_CTRL, TSL_REG_CTRL_FETCH);
}
// Waits for STATUS.FETCH_BUSY to drop; returns FETCH_ERR, or -1 if it never does.
static int fetch_wait() {
  for (uint64_t t0 = now; rd_reg((uint16_t)TSL_REG_STATUS) & TSL_REG_STATUS_FETCH_BUSY;)
    if (now - t0 > 1000000) return -1;
  return (int)rd_reg((uint16_t)TSL_REG_FETCH_ERR);
}
// The command SRAM bytes [off, off+n) through the core's port equal want.
static bool sram_holds(uint32_t off, const uint8_t *want, uint32_t n) {
  for (uint32_t a = 0; a < n; a += 4) {
    uint32_t w = want[a] | want[a + 1] << 8 | want[a + 2] << 16 | (uint32_t)want[a + 3] << 24;
    if (bus(true, false, (uint16_t)(off + a), 0) != w) return false;
  }
  return true;
}

// How run() puts the stream into the command SRAM.
enum { BY_CORE, BY_FETCH, BY_FETCH_AND_FETCH_DURING_RUN };

static void run(TbCount &tc, Scenario &c, int how = BY_CORE) {
  npu_model_t *m = npu_model_new(T);
  std::vector<uint8_t> mdram = c.dram;
  uint32_t len = c.use_override ? c.len_override : c.s.n();
  std::vector<uint8_t> sram((size_t)T->cmd_sram_bytes, 0);
  memcpy(sram.data(), c.s.b.data(), c.s.b.size());
  if (getenv("TOP_TB_DUMP") && c.name == getenv("TOP_TB_DUMP")) {   // for debugging: the stream as a file
    FILE *f = fopen("top_tb_stream.bin", "wb");
    if (f) { fwrite(c.s.b.data(), 1, c.s.b.size(), f); fclose(f); }
  }
  npu_result_t res;
  npu_model_run_sram(m, sram.data(), (uint32_t)sram.size(), 0, len, mdram.data(), mdram.size(), &res);
  last_code = res.code;

  dram = c.dram;
  port_bad = false;
  zero_srams();
  std::string pre = how == BY_CORE ? "" : how == BY_FETCH ? "fetched " : "fetched, fetch during the run ";
  if (how == BY_CORE) {
    for (size_t i = 0; i < c.s.b.size(); i += 4)
      bus(true, true, (uint16_t)i, c.s.b[i] | c.s.b[i + 1] << 8 | c.s.b[i + 2] << 16 | (uint32_t)c.s.b[i + 3] << 24);
  } else {
    std::fill(fwin.begin(), fwin.end(), 0);
    memcpy(fwin.data() + 8, c.s.b.data(), c.s.b.size());  // 8-byte, not 16-byte, aligned source
    fetch(8, 0, c.s.n());
    tc.check(fetch_wait() == TSL_ERR_NONE && sram_holds(0, c.s.b.data(), (uint32_t)c.s.b.size()),
             (pre + c.name + ": the fetch ends without error, the command SRAM holds the stream").c_str());
  }
  // the rest of the command SRAM, fetched while the stream runs
  uint32_t extra_off = c.s.n() * 16, extra = 0;
  if (how == BY_FETCH_AND_FETCH_DURING_RUN) {
    extra = std::min<uint32_t>(48, (uint32_t)(T->cmd_sram_bytes / 16) - c.s.n());
    for (uint32_t i = 0; i < extra * 16; i++) fwin[64 + i] = (uint8_t)rng.next();
  }
  wr_reg((uint16_t)TSL_REG_DRAM_BASE, kBase);
  wr_reg((uint16_t)TSL_REG_DRAM_SIZE, (uint32_t)dram.size());
  wr_reg((uint16_t)TSL_REG_STREAM_BASE, 0);
  wr_reg((uint16_t)TSL_REG_STREAM_LEN, len);
  wr_reg((uint16_t)TSL_REG_IRQ_EN, 1);
  uint64_t t0 = now;
  wr_reg((uint16_t)TSL_REG_CTRL, 1);
  if (extra) fetch(64, extra_off, extra);
  while (!top->irq_o && now - t0 < 3000000) cycle();
  uint64_t cycles = now - t0;
  std::string what = pre + c.name + " (" + std::to_string(cycles) + " cycles): ";
  if (extra)
    tc.check(fetch_wait() == TSL_ERR_NONE && sram_holds(extra_off, fwin.data() + 64, extra * 16),
             (what + "the fetch during the run filled the rest of the command SRAM").c_str());
  tc.check(top->irq_o, (what + "ends with the interrupt").c_str());
  uint32_t status = rd_reg((uint16_t)TSL_REG_STATUS);
  uint32_t code = rd_reg((uint16_t)TSL_REG_ERR_CODE), index = rd_reg((uint16_t)TSL_REG_ERR_INDEX);
  char buf[200];
  snprintf(buf, sizeof buf, "error %u at %u equals the model's %d at %u (%s)", code, index, res.code, res.index,
           res.message);
  tc.check((int)code == res.code && (code == 0 || index == res.index), (what + buf).c_str());
  tc.check((status & 0xF) == (res.code ? 0xCu : 0xAu), (what + "STATUS shows DONE or ERROR and IRQ").c_str());
  wr_reg((uint16_t)TSL_REG_STATUS, 8);
  tc.check(!top->irq_o, (what + "writing STATUS.IRQ clears the interrupt").c_str());
  tc.check(!port_bad, (what + "memory port rules kept (" + port_msg + ")").c_str());
  if (res.code == 0) {
    // a MARK record: kernel, count and the exact counters equal; cycle counters are estimates in the model
    if (c.mark_at >= 0) {
      auto rd64 = [](const std::vector<uint8_t> &v, size_t o) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++) x |= (uint64_t)v[o + i] << (8 * i);
        return x;
      };
      size_t o = (size_t)c.mark_at;
      bool ok = rd64(dram, o) == rd64(mdram, o) && rd64(dram, o + 8) == rd64(mdram, o + 8);
      for (int k : kExact) ok = ok && rd64(dram, o + 16 + 8 * k) == rd64(mdram, o + 16 + 8 * k);
      tc.check(ok, (what + "MARK record: kernel, count, byte/MAC/command counters equal the model's").c_str());
      // the snapshot cycle counters: taken at the MARK, so within the run's
      uint64_t cyc = rd_reg((uint16_t)TSL_REG_COUNTERS + 8 * TSL_CNT_CYCLES);
      uint64_t fsm = rd_reg((uint16_t)TSL_REG_COUNTERS + 8 * TSL_CNT_FRONT_STALL_MARK);
      uint64_t rc = rd64(dram, o + 16 + 8 * TSL_CNT_CYCLES), rf = rd64(dram, o + 16 + 8 * TSL_CNT_FRONT_STALL_MARK);
      tc.check(rc > 0 && rc < cyc && rf > 0 && rf <= fsm,
               (what + "MARK record: CYCLES and FRONT_STALL_MARK at the MARK, within the run's").c_str());
      for (size_t i = 0; i < 8u * (2 + TSL_NCOUNTERS); i++) dram[o + i] = mdram[o + i];
    }
    for (size_t i = c.skip_from; i < dram.size(); i++) dram[i] = mdram[i];
    tc.check(dram == mdram, (what + "DRAM equals the model's").c_str());
    std::string why;
    tc.check(srams_equal(m, why), (what + "SPAD/ACC/PARAM equal the model's " + why).c_str());
    const uint64_t *mc = npu_model_counters(m);
    std::string bad;
    for (int k : kExact) {
      uint64_t v = rd_reg((uint16_t)TSL_REG_COUNTERS + 8 * k) | (uint64_t)rd_reg((uint16_t)TSL_REG_COUNTERS + 8 * k + 4) << 32;
      if (v != mc[k]) bad += std::string(" ") + tsl_counter_name(k) + " " + std::to_string(v) + "!=" + std::to_string(mc[k]);
    }
    tc.check(bad.empty(), (what + "byte, MAC and command counters equal the model's" + bad).c_str());
    printf("%s: %llu cycles, MACs %llu\n", c.name.c_str(), (unsigned long long)cycles,
           (unsigned long long)mc[TSL_CNT_MACS]);
  }
  npu_model_free(m);
}

// Starts the stream of n commands at byte off (no wait).
static void start(uint32_t off, uint32_t n) {
  wr_reg((uint16_t)TSL_REG_STREAM_BASE, off);
  wr_reg((uint16_t)TSL_REG_STREAM_LEN, n);
  wr_reg((uint16_t)TSL_REG_IRQ_EN, 1);
  wr_reg((uint16_t)TSL_REG_CTRL, TSL_REG_CTRL_START);
}
// Waits for the run's interrupt, clears it; returns ERR_CODE, or -1 on no end.
static int run_wait() {
  for (uint64_t t0 = now; !top->irq_o;) {
    if (now - t0 > 3000000) return -1;
    cycle();
  }
  wr_reg((uint16_t)TSL_REG_STATUS, TSL_REG_STATUS_IRQ);
  return (int)rd_reg((uint16_t)TSL_REG_ERR_CODE);
}
static void put_loop_nops(uint8_t *at, uint32_t count, uint32_t kernel) {
  Stream s;
  ADD(s, mark, c_.kernel = kernel);
  ADD(s, loop, c_.count = count; c_.body = 1);
  ADD(s, nop, (void)0);
  memcpy(at, s.b.data(), s.b.size());
}

// The fetch's refusals and the ping-pong of halves.
static void fetch_checks(TbCount &tc) {
  port_bad = false;
  uint32_t rows = (uint32_t)(T->cmd_sram_bytes / 16);
  std::vector<uint8_t> before(T->cmd_sram_bytes);
  for (uint32_t a = 0; a < T->cmd_sram_bytes; a += 4) {
    uint32_t w = bus(true, false, (uint16_t)a, 0);
    for (int b = 0; b < 4; b++) before[a + b] = (uint8_t)(w >> (8 * b));
  }
  // refused before any read: the SRAM keeps its bytes, the port sees nothing
  struct { uint32_t src, dst, n, win; const char *what; } bad[] = {
      {4, 0, 1, 4096, "a source not 8-byte aligned"},
      {0, 8, 1, 4096, "a destination not 16-byte aligned"},
      {4096 - 16, 0, 2, 4096, "a source past the fetch window's end"},
      {0, 0, 2, 16, "a window smaller than the fetch"},
      {0xFFFFFFF0u, 0, 2, 4096, "a source offset that wraps 32 bits"},
      {0, (rows - 1) * 16, 2, 4096, "a destination past the command SRAM"},
  };
  for (auto &b : bad) {
    uint64_t r0 = fetch_reads;
    fetch(b.src, b.dst, b.n, b.win);
    uint32_t st = rd_reg((uint16_t)TSL_REG_STATUS);
    int err = fetch_wait();
    tc.check(err == TSL_ERR_FETCH_RANGE && (st & TSL_REG_STATUS_FETCH_ERROR) && !(st & TSL_REG_STATUS_FETCH_BUSY) &&
                 fetch_reads == r0 && sram_holds(0, before.data(), T->cmd_sram_bytes),
             (std::string("fetch refused with FETCH_RANGE, nothing read or written: ") + b.what).c_str());
  }
  fetch(0, 0, 0);
  tc.check(fetch_wait() == TSL_ERR_NONE && !(rd_reg((uint16_t)TSL_REG_STATUS) & TSL_REG_STATUS_FETCH_ERROR),
           "an empty fetch ends at once without error (and clears FETCH_ERROR)");

  // a run of LOOP 4000 {NOP} at rows 0..2; a fetch into it is refused, beside it taken
  std::fill(fwin.begin(), fwin.end(), 0);
  put_loop_nops(fwin.data(), 4000, 7);
  fetch(0, 0, 3);
  tc.check(fetch_wait() == TSL_ERR_NONE, "fetch a long NOP loop into rows 0..2");
  wr_reg((uint16_t)TSL_REG_DRAM_BASE, kBase);
  wr_reg((uint16_t)TSL_REG_DRAM_SIZE, (uint32_t)dram.size());
  start(0, 3);
  fetch(0, 32, 3);   // rows 2..4: meets row 2
  int e1 = fetch_wait();
  fetch(0, 48, 3);   // rows 3..5
  int e2 = fetch_wait();
  uint32_t st = rd_reg((uint16_t)TSL_REG_STATUS);
  tc.check(e1 == TSL_ERR_FETCH_OVERLAP && e2 == TSL_ERR_NONE && (st & TSL_REG_STATUS_BUSY),
           "during a run: a fetch into its stream ends with FETCH_OVERLAP, one beside it completes");
  tc.check(run_wait() == TSL_ERR_NONE && rd_reg((uint16_t)TSL_REG_MARK_KERNEL) == 7 &&
               sram_holds(48, fwin.data(), 48),
           "the run ends DONE, rows 3..5 hold the fetched stream");

  // a START over a fetch in flight ends with FETCH_OVERLAP at index 0; the fetch goes on
  for (uint32_t i = 0; i < 64 * 16; i++) fwin[1024 + i] = (uint8_t)rng.next();
  uint32_t n = std::min<uint32_t>(64, rows - 8);
  fetch(1024, 128, n);   // rows 8..8+n-1
  start(128 + 16 * (n - 1), 1);
  int re = run_wait();
  uint32_t idx = rd_reg((uint16_t)TSL_REG_ERR_INDEX);
  uint32_t busy_then = rd_reg((uint16_t)TSL_REG_STATUS) & TSL_REG_STATUS_FETCH_BUSY;
  tc.check(re == TSL_ERR_FETCH_OVERLAP && idx == 0 && busy_then, "a START over a fetch in flight: FETCH_OVERLAP at index 0");
  tc.check(fetch_wait() == TSL_ERR_NONE && sram_holds(128, fwin.data() + 1024, 16 * n),
           "the fetch in flight completes untouched");
  fetch(1024, 128, n);
  start(0, 3);   // rows 0..2: beside the fetch
  tc.check(run_wait() == TSL_ERR_NONE && fetch_wait() == TSL_ERR_NONE, "a START beside a fetch in flight runs");

  // ABORT stops a fetch after its command in flight
  fetch(1024, 128, n);
  wr_reg((uint16_t)TSL_REG_CTRL, TSL_REG_CTRL_ABORT);
  tc.check(fetch_wait() == TSL_ERR_ABORTED, "CTRL.ABORT stops a fetch: FETCH_ERR ABORTED");

  // ping-pong: run kernel k from one half while kernel k+1 is fetched into the other
  uint32_t half = rows / 2 * 16;
  for (uint32_t k = 0; k < 6; k++) put_loop_nops(fwin.data() + 64 * k, 300 + 50 * k, 100 + k);
  fetch(0, 0, 3);
  bool ok = fetch_wait() == TSL_ERR_NONE;
  uint64_t overlapped = 0;
  for (uint32_t k = 0; k < 6; k++) {
    uint32_t off = (k % 2) * half;
    start(off, 3);
    if (k + 1 < 6) fetch(64 * (k + 1), ((k + 1) % 2) * half, 3);
    overlapped += (rd_reg((uint16_t)TSL_REG_STATUS) & TSL_REG_STATUS_BUSY) != 0;
    ok = ok && run_wait() == TSL_ERR_NONE && rd_reg((uint16_t)TSL_REG_MARK_KERNEL) == 100 + k;
    ok = ok && fetch_wait() == TSL_ERR_NONE;
  }
  tc.check(ok && overlapped == 6, "ping-pong: six runs alternate halves, each next stream fetched during the run");
  tc.check(!port_bad, ("fetch checks: memory port rules kept (" + port_msg + ")").c_str());
}

// --gemm: a 256x256x256 int8 GEMM with both operands already in SPAD, through
// the whole NPU (dispatcher, queues, EXEC): cycles, MAC utilisation and the
// C model's (cost model's) estimate with its error.
static int gemm() {
  const int ncb = 256 / D, nblk = 256 / D;
  Scenario c;
  c.name = "GEMM 256x256x256 (operands in SPAD)";
  c.dram.assign(64, 0);
  ADD(c.s, cfg_exec, c_.out_pitch = 16; c_.kh = 1; c_.kw = 1; c_.ncb = ncb; c_.stride_y = 1; c_.stride_x = 1;
      c_.dil_y = 1; c_.dil_x = 1; c_.in_h = 16; c_.in_w = 16; c_.in_pitch = 16; c_.cb_stride = 256);
  ADD(c.s, loop, c_.count = nblk; c_.body = 1; c_.stride_d = 0);
  ADD(c.s, matmul, c_.oh = 16; c_.ow = 16; c_.in = 0; c_.wgt = 256 * ncb; c_.acc = 0);
  npu_model_t *m = npu_model_new(T);
  std::vector<uint8_t> mdram = c.dram;
  npu_run_t r = {};
  r.stream = c.s.b.data(); r.stream_len = c.s.n(); r.dram = mdram.data(); r.dram_size = mdram.size();
  r.timing_only = 1;
  npu_result_t res;
  npu_model_run(m, &r, &res);
  uint64_t est = npu_model_counters(m)[TSL_CNT_CYCLES];
  dram = c.dram;
  for (size_t i = 0; i < c.s.b.size(); i += 4)
    bus(true, true, (uint16_t)i, c.s.b[i] | c.s.b[i + 1] << 8 | c.s.b[i + 2] << 16 | (uint32_t)c.s.b[i + 3] << 24);
  wr_reg((uint16_t)TSL_REG_DRAM_BASE, kBase);
  wr_reg((uint16_t)TSL_REG_DRAM_SIZE, (uint32_t)dram.size());
  wr_reg((uint16_t)TSL_REG_STREAM_BASE, 0);
  wr_reg((uint16_t)TSL_REG_STREAM_LEN, c.s.n());
  wr_reg((uint16_t)TSL_REG_IRQ_EN, 1);
  wr_reg((uint16_t)TSL_REG_CTRL, 1);
  while (!top->irq_o && now < 100000000) cycle();
  auto cnt = [](int k) {
    return rd_reg((uint16_t)(TSL_REG_COUNTERS + 8 * k)) | (uint64_t)rd_reg((uint16_t)(TSL_REG_COUNTERS + 8 * k + 4)) << 32;
  };
  uint64_t cyc = cnt(TSL_CNT_CYCLES), macs = cnt(TSL_CNT_MACS);
  printf("tessel_npu %s: 256x256x256 GEMM, operands in SPAD: %llu cycles, %llu MACs, MAC utilisation %.1f%%; "
         "C model estimate %llu cycles (error %+.1f%%)\n",
         TB_TARGET, (unsigned long long)cyc, (unsigned long long)macs, 100.0 * (double)macs / ((double)cyc * D * D),
         (unsigned long long)est, 100.0 * ((double)est - (double)cyc) / (double)cyc);
  npu_model_free(m);
  return macs == 256ull * 256 * 256 ? 0 : 1;
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  T = tb_target();
  if (!T) return 2;
  D = (int)T->dim;
  fwin.assign((size_t)T->cmd_sram_bytes + 4096, 0);
  top = new Vtessel_npu;
  TbCount tc;
  top->rst_ni = 0;
  cycle();
  cycle();
  top->rst_ni = 1;
  cycle();
  if (argc > 1 && !strcmp(argv[1], "--gemm")) {
    int rc = gemm();
    delete top;
    return rc;
  }
  tc.check(rd_reg((uint16_t)TSL_REG_ID) == 0x54534E50u, "ID reads 'TSNP'");
  tc.check(rd_reg((uint16_t)TSL_REG_VERSION) == (uint32_t)(D << 8 | 1), "VERSION holds DIM and the ISA version");
  tc.check(rd_reg((uint16_t)TSL_REG_TARGET_HASH) == T->hash, "TARGET_HASH equals the target's");
  cmd_sram_readback(tc);
  std::vector<Scenario> scs = {sc_conv(), sc_dw(), sc_matmul(), sc_vec()};
  for (int k = 0; k < 11; k++) scs.push_back(sc_err(k));
  for (auto &c : scs) run(tc, c);
  for (auto &c : scs) run(tc, c, BY_FETCH);
  for (auto &c : scs) run(tc, c, c.use_override ? BY_FETCH : BY_FETCH_AND_FETCH_DURING_RUN);
  fetch_checks(tc);
  int nrand = argc > 1 ? atoi(argv[1]) : 120;
  for (int k = 0; k < nrand; k++) {
    Scenario c = sc_random(k);
    run(tc, c);
    rcodes[last_code < 16 ? last_code : 15]++;
  }
  printf("random streams by outcome:");
  for (int k = 0; k < 16; k++)
    if (rcodes[k]) printf(" %s %d", k < TSL_NERRORS ? tsl_err_name(k) : "other", rcodes[k]);
  printf("\n");
  tc.check(rcodes[0] >= nrand / 8, "at least an eighth of the random streams ran without error");
  delete top;
  return tc.finish();
}
