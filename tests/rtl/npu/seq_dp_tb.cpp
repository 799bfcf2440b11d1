// seq_dp_tb: the core-sequenced NPU's datapath (npu_seq_dp) through its bus,
// at the offsets of the generated tessel_memmap.h (so the module's offsets
// are the map's), against the C model: every requantised value against
// npu_requant() (sim/npu-model/npu_arith.c) and every sum against a C MAC
// with the C model's wrapping uint32 sums. Also: ID and DIM, the bus errors
// of offsets that name no register and of narrow stores to word registers,
// write-only registers reading 0, and the cycles each access waits.
//   seq_dp_tb [N]   N random requantisations and N/4 MAC rounds (default 200,000)
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "Vnpu_seq_dp.h"
#include "tb_util.h"
#include "tessel_memmap.h"
#include "tessel_target.h"
#include "verilated.h"

extern "C" {
#include "npu_arith.h"
}

static Vnpu_seq_dp *top;
static TbRng rng(0x5EC0DA7Aull);
static long cycles;

static void tick() {
  top->clk_i = 1;
  top->eval();
  top->clk_i = 0;
  top->eval();
  cycles++;
}

struct Rsp {
  uint32_t rdata;
  bool err;
  long waited;   // cycles the request waited for req_ready_o
};

// One bus access; the response comes the cycle after the request is taken.
static Rsp access(bool we, unsigned be, uint32_t off, uint32_t wdata) {
  top->req_valid_i = 1;
  top->req_we_i = we;
  top->req_be_i = be;
  top->req_addr_i = off;
  top->req_wdata_i = wdata;
  top->eval();
  Rsp r{0, false, 0};
  while (!top->req_ready_o) {
    tick();
    if (++r.waited > 1000) {
      printf("FAIL offset 0x%03x: req_ready_o stays low\n", off);
      exit(1);
    }
  }
  tick();
  top->req_valid_i = 0;
  top->eval();
  if (!top->rsp_valid_o) {
    printf("FAIL offset 0x%03x: no response the cycle after the request\n", off);
    exit(1);
  }
  r.rdata = top->rsp_rdata_o;
  r.err = top->rsp_err_o;
  return r;
}
static Rsp wr(uint32_t off, uint32_t v, unsigned be = 0xF) { return access(true, be, off, v); }
static Rsp rd(uint32_t off) { return access(false, 0xF, off, 0); }

// an int32 of random magnitude, often an extreme
static int32_t any32() {
  switch (rng.next() % 8) {
  case 0: return INT32_MAX;
  case 1: return INT32_MIN;
  case 2: return (int32_t)(rng.next() % 5) - 2;
  default: {
    int bits = 1 + (int)(rng.next() % 32);
    uint32_t v = (uint32_t)rng.next() & (bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1);
    return rng.next() % 2 ? (int32_t)(0u - v) : (int32_t)v;
  }
  }
}

static const int Dim = TSL_DIM;
static const uint32_t WOff = TSL_NPU_SEQ_W_OFFSET, XOff = TSL_NPU_SEQ_X_OFFSET, SOff = TSL_NPU_SEQ_S_OFFSET;

// ---- requantiser -------------------------------------------------------------
static void test_requant(TbCount &tc, long n) {
  int32_t bias[Dim], mult[Dim];
  uint32_t shiftw[Dim];
  long bad = 0, sats = 0, ties = 0, clamps = 0, inverted = 0, maxwait = 0, badwait = 0;
  for (long i = 0; i < n; i++) {
    int k = (int)(rng.next() % Dim);
    if (i == 0) {
      for (int j = 0; j < Dim; j++) {
        bias[j] = any32(), mult[j] = any32(), shiftw[j] = (uint32_t)rng.next();
        wr(TSL_NPU_SEQ_REQ_BIAS_OFFSET + 4 * j, (uint32_t)bias[j]);
        wr(TSL_NPU_SEQ_REQ_MULT_OFFSET + 4 * j, (uint32_t)mult[j]);
        wr(TSL_NPU_SEQ_REQ_SHIFT_OFFSET + 4 * j, shiftw[j]);
      }
    }
    // an exact tie now and then: bias 0, mult 1, acc = j*2^s + 2^(s-1); or
    // mult 2^30 and a shift of 32..50 (the first 32 at once), acc = j*2^(s-30) + 2^(s-31)
    bool tie = rng.next() % 8 == 0, tie_big = tie && rng.next() % 2;
    if (tie_big) {
      bias[k] = 0, mult[k] = 1 << 30, shiftw[k] = 32 + (uint32_t)(rng.next() % 19);
    } else if (tie) {
      bias[k] = 0, mult[k] = 1, shiftw[k] = 1 + (uint32_t)(rng.next() % 20);
    } else if (rng.next() % 4) {
      // new parameters for lane k most of the time; the other lanes keep theirs
      bias[k] = rng.next() % 4 ? any32() : 0;
      mult[k] = any32();
      // bits above 5:0 are ignored (shift & 63); shifts 0 and 63 often
      shiftw[k] = (uint32_t)rng.next();
      if (rng.next() % 8 == 0) shiftw[k] = (shiftw[k] & ~63u) | (rng.next() % 2 ? 63u : 0u);
    }
    wr(TSL_NPU_SEQ_REQ_BIAS_OFFSET + 4 * k, (uint32_t)bias[k]);
    wr(TSL_NPU_SEQ_REQ_MULT_OFFSET + 4 * k, (uint32_t)mult[k]);
    wr(TSL_NPU_SEQ_REQ_SHIFT_OFFSET + 4 * k, shiftw[k]);
    int8_t zp = (int8_t)rng.next(), lo = (int8_t)rng.next(), hi = (int8_t)rng.next();
    if (rng.next() % 4 == 0) lo = -128, hi = 127;
    // lo > hi now and then: the RTL must clamp in npu_clamp8's order (lo first)
    if (lo > hi && rng.next() % 8) { int8_t x = lo; lo = hi; hi = x; }
    inverted += lo > hi;
    wr(TSL_NPU_SEQ_REQ_OUTP_OFFSET, (uint32_t)(uint8_t)zp << TSL_NPU_SEQ_REQ_OUTP_ZP_LSB |
                                        (uint32_t)(uint8_t)lo << TSL_NPU_SEQ_REQ_OUTP_LO_LSB |
                                        (uint32_t)(uint8_t)hi << TSL_NPU_SEQ_REQ_OUTP_HI_LSB | (uint32_t)rng.next() << 24);
    uint8_t shift = (uint8_t)(shiftw[k] & 63u);
    int32_t acc = any32();
    if (tie) {
      int64_t j = (int64_t)(rng.next() % 512) - 256;
      int s0 = tie_big ? shift - 30 : shift;
      acc = (int32_t)(j * ((int64_t)1 << s0) + ((int64_t)1 << (s0 - 1)));
    }
    int64_t t = (int64_t)acc + bias[k];
    sats += t > INT32_MAX || t < INT32_MIN;
    int64_t pp = (int64_t)npu_sat32(t) * mult[k];
    if (shift && (((uint64_t)pp & (((uint64_t)1 << shift) - 1)) == ((uint64_t)1 << (shift - 1)))) ties++;
    int8_t want = npu_requant(acc, bias[k], mult[k], shift, zp, lo, hi);
    clamps += want == lo || want == hi;
    wr(TSL_NPU_SEQ_REQ_ACC_OFFSET + 4 * k, (uint32_t)acc);
    // ID, DIM and the array's registers answer at once while the requantiser runs
    if (rng.next() % 8 == 0 && rd(TSL_NPU_SEQ_ID_OFFSET).waited != 0) badwait++;
    if (rng.next() % 8 == 0 && rd(SOff + 4 * (uint32_t)k).waited != 0) badwait++;
    Rsp r = rd(TSL_NPU_SEQ_REQ_OUT_OFFSET);
    if (r.waited > maxwait) maxwait = r.waited;
    // the result is ready (shift & 31) + 4 cycles after the REQ_ACC write was
    // taken (a shift of 32 or more starts with 32 at once)
    if (r.waited > (shift & 31) + 4) badwait++;
    if (r.err || r.rdata != (uint32_t)(int32_t)want) {
      if (bad < 5)
        printf("FAIL lane %d acc %d bias %d mult %d shift %u zp %d lo %d hi %d: RTL 0x%08x err %d, npu_requant %d\n",
               k, acc, bias[k], mult[k], shift, zp, lo, hi, r.rdata, r.err, want);
      bad++;
    }
  }
  char msg[200];
  snprintf(msg, sizeof msg, "%ld requantisations equal npu_requant() (sat32 %ld, ties %ld, clamps %ld, lo > hi %ld)",
           n, sats, ties, clamps, inverted);
  tc.check(bad == 0, msg);
  if (!bad) printf("PASS %s\n", msg);
  tc.check(sats > n / 100 && ties > n / 200 && clamps > n / 100 && inverted > n / 200,
           "coverage: saturations, ties, clamps and lo > hi each seen");
  snprintf(msg, sizeof msg, "REQ_OUT waits at most (shift & 31) + 4 cycles after REQ_ACC (longest %ld); ID and S never", maxwait);
  tc.check(badwait == 0 && maxwait == 31 + 4, msg);
  if (!badwait) printf("PASS %s\n", msg);
}

// ---- array -----------------------------------------------------------------------
static void test_mac(TbCount &tc, long rounds) {
  uint8_t w[Dim * Dim];
  uint32_t s[Dim];
  long bad = 0, badwait = 0;
  for (long r = 0; r < rounds; r++) {
    // new weights (bytes, halfwords or words), new or old sums, then taps
    if (r == 0 || rng.next() % 2) {
      for (int b = 0; b < Dim * Dim; b++) w[b] = (uint8_t)rng.next();
      if (rng.next() % 8 == 0) for (int b = 0; b < Dim * Dim; b++) w[b] = rng.next() % 2 ? 0x80 : 0x7F;
      int mode = (int)(rng.next() % 3);
      for (int b = 0; b < Dim * Dim; b += 4) {
        uint32_t v = 0;
        for (int j = 0; j < 4 && b + j < Dim * Dim; j++) v |= (uint32_t)w[b + j] << (8 * j);
        if (mode == 0) wr(WOff + b, v);
        else if (mode == 1) { wr(WOff + b, v, 0x3); wr(WOff + b, v, 0xC); }
        else for (int j = 0; j < 4; j++) wr(WOff + b, v, 1u << j);
      }
    }
    if (r == 0 || rng.next() % 2) {
      for (int j = 0; j < Dim; j++) {
        s[j] = rng.next() % 2 ? 0u : (uint32_t)any32();
        wr(SOff + 4 * j, s[j]);
      }
    }
    int taps = 1 + (int)(rng.next() % 9);
    for (int tp = 0; tp < taps; tp++) {
      uint8_t x[4] = {0, 0, 0, 0};
      for (int k = 0; k < Dim; k++) x[k] = rng.next() % 8 ? (uint8_t)rng.next() : (rng.next() % 2 ? 0x80 : 0x7F);
      uint32_t xv = x[0] | x[1] << 8 | x[2] << 16 | (uint32_t)x[3] << 24;
      // the lanes below the last may come in a first store; the store that
      // writes X[DIM-1] starts the MAC
      if (Dim == 4 && rng.next() % 2) { wr(XOff, xv, 0x3); wr(XOff, xv, 0xC); }
      else wr(XOff, xv, Dim == 2 ? 0x3 : 0xF);
      for (int n = 0; n < Dim; n++)
        for (int k = 0; k < Dim; k++) s[n] += (uint32_t)((int32_t)(int8_t)x[k] * (int8_t)w[k * Dim + n]);
    }
    for (int n = 0; n < Dim; n++) {
      Rsp q = rd(SOff + 4 * n);
      if (n == 0 && q.waited > 2 * Dim) badwait++;
      if (q.err || q.rdata != s[n]) {
        if (bad < 5) printf("FAIL round %ld S[%d]: RTL 0x%08x err %d, C MAC 0x%08x\n", r, n, q.rdata, q.err, s[n]);
        bad++;
      }
    }
  }
  char msg[160];
  snprintf(msg, sizeof msg, "%ld MAC rounds: every S[n] equals the C MAC (wrapping uint32 sums)", rounds);
  tc.check(bad == 0, msg);
  if (!bad) printf("PASS %s\n", msg);
  tc.check(badwait == 0, "S waits at most 2 * DIM cycles after the X write");
}

// ---- registers and bus errors -----------------------------------------------------
// is OFF a register's word, and which kind
enum { K_NONE, K_RO, K_WO_WORD, K_WO_BYTES, K_RW_WORD };
static int kind_of(uint32_t off) {
  uint32_t w = off & ~3u;
  if (w == TSL_NPU_SEQ_ID_OFFSET || w == TSL_NPU_SEQ_DIM_OFFSET || w == TSL_NPU_SEQ_REQ_OUT_OFFSET) return K_RO;
  if (w == TSL_NPU_SEQ_REQ_OUTP_OFFSET) return K_WO_WORD;
  if (w >= SOff && w < SOff + 4 * Dim) return K_RW_WORD;
  const uint32_t lanes[] = {TSL_NPU_SEQ_REQ_BIAS_OFFSET, TSL_NPU_SEQ_REQ_MULT_OFFSET, TSL_NPU_SEQ_REQ_SHIFT_OFFSET};
  for (uint32_t b : lanes)
    if (w >= b && w < b + 4 * Dim) return K_WO_WORD;
  if (w >= XOff && w < XOff + 4 * ((Dim + 3) / 4)) return K_WO_BYTES;
  if (w >= WOff && w < WOff + 4 * ((Dim * Dim + 3) / 4)) return K_WO_BYTES;
  return K_NONE;   // REQ_ACC is left out: it starts work (tested above)
}

static void test_regs(TbCount &tc) {
  Rsp r = rd(TSL_NPU_SEQ_ID_OFFSET);
  tc.check(!r.err && r.rdata == 0x51455354u, "ID reads 0x51455354");
  if (!r.err && r.rdata == 0x51455354u) printf("PASS ID reads 0x51455354 (TSEQ)\n");
  r = rd(TSL_NPU_SEQ_DIM_OFFSET);
  tc.check(!r.err && r.rdata == (uint32_t)Dim, "DIM reads the target's DIM");
  wr(TSL_NPU_SEQ_ID_OFFSET, 0);
  wr(TSL_NPU_SEQ_DIM_OFFSET, 0);
  tc.check(rd(TSL_NPU_SEQ_ID_OFFSET).rdata == 0x51455354u && rd(TSL_NPU_SEQ_DIM_OFFSET).rdata == (uint32_t)Dim,
           "writes to ID and DIM are ignored");
  // every word of the window: offsets that name no register are a bus error
  // (read and write, rdata 0); write-only registers read 0
  long bad = 0, holes = 0;
  for (uint32_t off = 0; off < TSL_MEM_NPU_SEQ_SIZE; off += 4) {
    uint32_t a = off + (uint32_t)(rng.next() % 4);   // the byte inside the word does not matter
    if ((off & ~3u) >= TSL_NPU_SEQ_REQ_ACC_OFFSET && (off & ~3u) < TSL_NPU_SEQ_REQ_ACC_OFFSET + 4 * Dim) continue;
    int k = kind_of(off);
    Rsp q = rd(a & ~3u);
    if (k == K_NONE) {
      holes++;
      Rsp e = wr(a & ~3u, (uint32_t)rng.next());
      if (!q.err || q.rdata != 0 || !e.err) bad++;
    } else if (k == K_WO_WORD || k == K_WO_BYTES) {
      if (q.err || q.rdata != 0) bad++;
    } else if (q.err) {
      bad++;
    }
  }
  char msg[160];
  snprintf(msg, sizeof msg, "%ld offsets that name no register answer a bus error; write-only registers read 0", holes);
  tc.check(bad == 0, msg);
  if (!bad) printf("PASS %s\n", msg);
  // a narrow store to a word register is a bus error and changes nothing
  wr(SOff, 0x12345678u);
  bool e1 = wr(SOff, 0xFFFFFFFFu, 0x1).err, e2 = wr(TSL_NPU_SEQ_REQ_ACC_OFFSET, 5, 0x3).err;
  bool e3 = wr(TSL_NPU_SEQ_REQ_BIAS_OFFSET, 5, 0x8).err;
  tc.check(e1 && e2 && e3 && rd(SOff).rdata == 0x12345678u, "sb/sh to S, REQ_ACC, REQ_BIAS: bus error, no change");
  if (e1 && e2 && e3) printf("PASS narrow stores to word registers: bus error\n");
  // the X write below the last lane's word (DIM 8 and up only) cannot be
  // tested at DIM <= 4: X is one word there
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  long n = argc > 1 ? atol(argv[1]) : 200000;
  if (n < 8) {
    fprintf(stderr, "seq_dp_tb: N must be >= 8\n");
    return 2;
  }
  top = new Vnpu_seq_dp;
  top->clk_i = 0;
  top->rst_ni = 0;
  top->req_valid_i = 0;
  tick();
  tick();
  top->rst_ni = 1;
  top->eval();
  TbCount tc;
  printf("seq_dp_tb: DIM %d\n", Dim);
  test_regs(tc);
  test_mac(tc, n / 4);
  test_requant(tc, n);
  printf("(%ld cycles)\n", cycles);
  delete top;
  return tc.finish();
}
