// cvt_dma_bench.cpp: Verilator bench of the SoC's float/int8 converter as a
// DMA unit (rtl-model/soc/tessel_cvt.sv, on plain ports in cvt_dma_tb.sv)
// against a C model of its jobs (docs/memory-map.md, section CVT; the job of
// shared/tfw_fallback.h's tfw_cvt_job) built on the firmware's own
// tfw_quantize and tfw_dequantize, linked from shared/'s host library, and
// on plain byte copies for OP 3 (the firmware's 8-bit relayouts).
//
// The bench is the firmware and the memory at once. As the firmware, it
// writes a job's registers through the core bus, starts it and polls CTRL
// until BUSY clears. As the memory, it holds 256 KiB of DRAM at 0x80000000
// and behind it an 8 KiB region that answers every access with an error
// (its reads still return its bytes, its writes are dropped), and answers
// the unit's single-beat reads and writes in order under several timings
// (`timings`): random latency (1..40 cycles), random req_ready/w_ready
// stalls, random delays of R and B, write data taken before its request or
// only after, and memories that take a bounded number of requests in flight
// (a read counts until its R beat is taken), as tessel-sim's DRAM model
// does (sim-dram: 16, latency 20). After each job every byte of the memory must equal the C model's
// memory (so bytes outside the destination stay untouched), ERR must say
// whether the job touched the error region, and the unit's reads must
// number at least the source's distinct beats and at most one per change of
// beat from one reading element to the next (docs: an element whose beat
// the element before it read reuses it; the unit may reuse more).
//
// Every cycle the unit's side of the port is held to docs/memory-port.md:
// REQ and W valid and payload do not depend on req_ready/w_ready (the bench
// evaluates with them low, then with their values, and compares), an offered
// item stays unchanged until taken, single beats (len 0, w_last 1), id 0,
// reads only of beats that hold a source element the job reads, strobes
// only on bytes the job writes, nothing while no job runs, nothing in flight
// once BUSY is clear.
//
// Groups: the registers (ID, read-back with byte enables, unknown offsets,
// OP 0 starts nothing and OP 3 a copy, writes ignored while BUSY), jobs of
// no elements, random jobs of each operation and shape (the firmware's
// blocked and row jobs, its BLOCKED<->PLAIN relayouts, random strides)
// under each timing, every relayout of DIM 4, 8 and 16 with 1..DIM real
// lanes, negative strides, long rows (16-bit INNER, padding runs, 40,000
// rows of one source beat), jobs that meet the error region, and one
// firmware job that hung tessel-sim (regression/). Copies get any U8,
// SCALE and RECIP (ignored) and any ZP (its low byte pads). Each group
// prints "PASS name" or "FAIL name: " and its first mismatch; the output
// ends with "N passed, N failed" and the exit status is non-zero on a
// failure. It also prints, as figures and not checks, the cycles per
// element, with a fixed memory latency of 20 and no stalls, of a 3x64x64
// float input quantised into BLOCKED DIM 8, and of the copies of a DIM 8
// channel block from BLOCKED into PLAIN (8 real lanes, 64x64 pixels) and
// from PLAIN into BLOCKED (3 real lanes). An optional argument is the seed
// (default 1).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vcvt_dma_tb.h"
#include "port_bench.h"
#include "verilated.h"

extern "C" {
#include "tessel_memmap.h"
#include "tfw_fallback.h"
}

namespace {

using port_bench::fmt;
using port_bench::hex;
using port_bench::Offer;
using port_bench::Rng;

constexpr uint32_t DramBase = 0x80000000u;
constexpr uint32_t DramBytes = 256u << 10;
constexpr uint32_t BadBase = DramBase + DramBytes;  // answers every access with an error
constexpr uint32_t BadBytes = 8u << 10;
constexpr uint32_t SpaceBytes = DramBytes + BadBytes;
constexpr uint32_t IdValue = 0x54564354u;  // "TCVT"

using Space = port_bench::Space<DramBase, DramBytes, SpaceBytes>;

// CTRL.OP: the job's operation.
enum Op : uint32_t {
  OP_QUANT = 1,    // f32 -> 8-bit code
  OP_DEQUANT = 2,  // 8-bit code -> f32
  OP_COPY = 3,     // byte -> byte
};

// A job as the registers hold it (docs/memory-map.md, CVT).
struct Job {
  Op op = OP_QUANT;           // CTRL.OP
  bool u8 = false;            // CTRL.U8 (copies: ignored)
  uint32_t src = 0, dst = 0;  // byte addresses of element (0, 0)
  uint32_t inner = 0, inner_real = 0, outer = 0;
  uint32_t si = 0, so = 0, di = 0, dout = 0;  // byte strides, mod 2^32
  uint32_t scale = 0x3f800000u;               // f32 bits
  int32_t zp = 0;

  uint32_t src_at(uint32_t j, uint32_t i) const { return src + j * so + i * si; }
  uint32_t dst_at(uint32_t j, uint32_t i) const { return dst + j * dout + i * di; }
  // Quantising and copying, elements i >= INNER_REAL are padding.
  bool pads() const { return op != OP_DEQUANT; }
  bool reads(uint32_t i) const { return !pads() || i < inner_real; }
  uint32_t src_es() const { return op == OP_QUANT ? 4 : 1; }  // element sizes in bytes
  uint32_t dst_es() const { return op == OP_DEQUANT ? 4 : 1; }
  std::string str() const {
    static const char *names[] = {"op-0", "quantise", "dequantise", "copy"};
    return fmt("%s %s src=0x%08" PRIx32 " dst=0x%08" PRIx32 " inner=%" PRIu32 " real=%" PRIu32 " outer=%" PRIu32
               " strides src %" PRId32 "/%" PRId32 " dst %" PRId32 "/%" PRId32 " scale=0x%08" PRIx32
               " (%g) zp=%" PRId32,
               names[op & 3], u8 ? "uint8" : "int8", src, dst, inner, inner_real, outer, (int32_t)si, (int32_t)so,
               (int32_t)di, (int32_t)dout, scale, (double)tfw_bits_f32(scale), zp);
  }
};

// ---- the C model of a job ------------------------------------------------------
// Element (j, i) in loop order: quantising, the f32 at its source address
// (low two bits ignored) through tfw_quantize, or the zero point clamped for
// i >= INNER_REAL; dequantising, the code at its source through
// tfw_dequantize into the f32 at its destination (low two bits ignored);
// copying, the byte at its source, or the zero point's low byte for
// i >= INNER_REAL.
void model_run(const Job &j, Space &s) {
  int32_t lo = j.u8 ? 0 : -128, hi = j.u8 ? 255 : 127;
  int32_t pad = std::min(std::max(j.zp, lo), hi);
  for (uint32_t oj = 0; oj < j.outer; oj++) {
    for (uint32_t ii = 0; ii < j.inner; ii++) {
      uint32_t sa = j.src_at(oj, ii), da = j.dst_at(oj, ii);
      if (j.op == OP_COPY) {
        s.put(da, ii >= j.inner_real ? (uint8_t)j.zp : s.get(sa));
      } else if (j.op == OP_QUANT) {
        int32_t q =
            ii >= j.inner_real ? pad : tfw_quantize(tfw_bits_f32(s.get32(sa & ~3u)), tfw_bits_f32(j.scale), j.zp, lo, hi);
        s.put(da, (uint8_t)q);
      } else {
        uint8_t c = s.get(sa);
        int32_t q = j.u8 ? (int32_t)c : (int32_t)(int8_t)c;
        uint32_t y = tfw_f32_bits(tfw_dequantize(q, tfw_bits_f32(j.scale), j.zp));
        for (int k = 0; k < 4; k++) s.put((da & ~3u) + k, (uint8_t)(y >> (8 * k)));
      }
    }
  }
}

// What a job may touch, and what it should do on the port.
struct Footprint {
  std::vector<uint8_t> src_beat = std::vector<uint8_t>(SpaceBytes / 8, 0);  // beats holding a source element read
  std::vector<uint8_t> dst_byte = std::vector<uint8_t>(SpaceBytes, 0);      // bytes the job writes
  uint64_t beats = 0;                                                       // distinct source beats: the fewest reads
  uint64_t reads = 0;  // one per element that reads a beat other than the previous reading element's: the most
  bool err = false;    // an access meets the error region (or leaves the space)
};

// Marks the job's bytes; false when one lies outside the space (a bench bug).
bool footprint_of(const Job &j, Footprint &f) {
  bool ok = true, have_last = false;
  uint32_t last = 0;
  for (uint32_t oj = 0; oj < j.outer; oj++) {
    for (uint32_t ii = 0; ii < j.inner; ii++) {
      if (j.reads(ii)) {
        uint32_t beat = j.src_at(oj, ii) & ~7u;
        if (!have_last || beat != last) f.reads++;
        have_last = true, last = beat;
        if (!Space::has(beat))
          ok = false, f.err = true;
        else {
          uint8_t &seen = f.src_beat[(beat - DramBase) / 8];
          f.beats += !seen, seen = 1;
          f.err |= !Space::in_dram(beat);
        }
      }
      uint32_t da = j.dst_at(oj, ii), n = j.dst_es();
      if (n == 4) da &= ~3u;
      for (uint32_t k = 0; k < n; k++) {
        if (!Space::has(da + k))
          ok = false, f.err = true;
        else
          f.dst_byte[da + k - DramBase] = 1, f.err |= !Space::in_dram(da + k);
      }
    }
  }
  return ok;
}

// ---- the memory's timing ---------------------------------------------------------
struct Timing {
  const char *name;
  uint32_t lat_min, lat_max;  // cycles from a request (and its data) to its response
  double req_ready, w_ready;  // chance the memory takes an offered request / data beat
  double r_rate, b_rate;      // chance a due response is offered in a cycle
  bool w_early;               // may take write data before its request (else only after, as the arbiter)
  unsigned max_out;           // requests in flight it takes (0: no limit; see in_flight)
};

// clang-format off
const Timing timings[] = {
    // name             lat    req  w    r    b    early  max
    {"no-stalls",       1, 1,  1.0, 1.0, 1.0, 1.0, false, 0},
    {"random-stalls",   1, 40, 0.6, 0.6, 0.7, 0.7, false, 0},
    {"limited-stalls",  1, 40, 0.6, 0.6, 0.7, 0.7, false, 8},
    {"heavy-stalls",    1, 40, 0.2, 0.25, 0.3, 0.3, false, 0},
    {"early-w-data",    1, 12, 0.5, 0.7, 0.8, 0.8, true, 0},
    {"slow-memory",     30, 40, 0.9, 0.9, 0.9, 0.9, false, 0},
    {"sim-dram",        20, 20, 1.0, 1.0, 1.0, 1.0, false, 16},  // tessel-sim's DRAM model, its defaults
};
const Timing fixed20 = {"fixed-20", 20, 20, 1.0, 1.0, 1.0, 1.0, false, 0};
// clang-format on

const Timing *timing(const std::string &name) {
  for (const Timing &t : timings)
    if (name == t.name) return &t;
  std::abort();  // a bench bug: no such timing
}

// One test: its jobs and its first failure.
struct Group {
  std::string name;
  uint64_t jobs = 0, elems = 0, fails = 0;
  std::string first;
  void fail(const std::string &m) {
    if (fails++ == 0) first = m;
  }
};

struct Bench {
  Vcvt_dma_tb &m;
  Rng rng;
  Space mem, ref;  // the memory the unit sees; the C model's
  const Timing *t = &timings[0];
  const Footprint *fp = nullptr;  // the running job's, or nullptr: no access allowed
  uint64_t cycle = 0;
  std::vector<std::string> viol;  // port and bus rule violations since the last check

  // the memory's state
  struct Read {
    uint32_t beat;
    uint64_t due;
  };
  struct Resp {
    uint64_t due;
    bool err;
  };
  struct Data {
    uint64_t data;
    uint32_t strb;
  };
  std::deque<Read> reads;      // taken, not yet answered
  std::deque<uint32_t> wreqs;  // write requests taken, waiting for their data
  std::deque<Data> wdata;      // write data taken before its request (early-w-data)
  std::deque<Resp> bs;         // writes complete, B not yet taken
  bool r_off = false, b_off = false;
  uint64_t n_reads = 0, n_writes = 0;
  // what the unit offered last cycle and did not get taken (rule 2)
  bool req_held = false, w_held = false;
  Offer prev{};

  // the core bus request of the coming cycle
  bool bus_valid = false, bus_we = false;
  uint32_t bus_be = 0, bus_addr = 0, bus_wdata = 0;

  Bench(Vcvt_dma_tb &dut, uint32_t seed) : m(dut), rng(seed) {}

  void violation(const std::string &s) {
    if (viol.size() < 4) viol.push_back("cycle " + std::to_string(cycle) + ": " + s);
  }

  Offer offer() const { return port_bench::offer_of(m); }

  uint32_t latency() { return t->lat_min + rng.below(t->lat_max - t->lat_min + 1); }
  // Requests the memory counts against max_out, as tessel-sim's DRAM model
  // (sim/dram_model.cpp): reads until their R beat is taken, writes until
  // their data is.
  size_t in_flight() const { return reads.size() + wreqs.size(); }
  bool memory_idle() const { return reads.empty() && wreqs.empty() && wdata.empty() && bs.empty(); }

  // A write's data meets its request: the bytes go to memory, B comes later.
  void write_beat(uint32_t addr, uint64_t data, uint32_t strb) {
    uint32_t beat = addr & ~7u;
    bool err = !Space::in_dram(beat);
    for (uint32_t k = 0; k < 8; k++) {
      if (!(strb >> k & 1)) continue;
      uint32_t a = beat + k;
      if (!fp || !Space::has(a) || !fp->dst_byte[a - DramBase])
        violation(
            fmt("write of byte 0x%08" PRIx32 " (strobes 0x%02" PRIx32 "), not a destination byte of the job", a, strb));
      mem.put(a, (uint8_t)(data >> (8 * k)));
    }
    bs.push_back({cycle + latency(), err});
    n_writes++;
  }

  void take_request(const Offer &o) {
    if (o.req_len != 0 || o.req_id != 0)
      violation(fmt("request 0x%08" PRIx32 " with len %" PRIu32 " id %" PRIu32 " (single beats, id 0)", o.req_addr,
                    o.req_len, o.req_id));
    if (!o.req_write) {
      uint32_t beat = o.req_addr & ~7u;
      if (!fp || !Space::has(beat) || !fp->src_beat[(beat - DramBase) / 8])
        violation(fmt("read of beat 0x%08" PRIx32 ", which holds no source element of the job", beat));
      reads.push_back({beat, cycle + latency()});
      n_reads++;
      return;
    }
    if (!wdata.empty()) {
      write_beat(o.req_addr, wdata.front().data, wdata.front().strb);
      wdata.pop_front();
    } else {
      wreqs.push_back(o.req_addr);
    }
  }

  void take_data(const Offer &o) {
    if (!o.w_last) violation("a single-beat write's data without w_last");
    if (!wreqs.empty()) {
      write_beat(wreqs.front(), o.w_data, o.w_strb);
      wreqs.pop_front();
    } else {
      wdata.push_back({o.w_data, o.w_strb});  // early-w-data only: w_ready waits for a request otherwise
    }
  }

  // One clock cycle: the memory's responses, the unit's offers checked and
  // taken or stalled, the core bus request (if any), the edge.
  void step() {
    // 1. responses, decided from the memory's state alone
    if (!r_off && !reads.empty() && reads.front().due <= cycle && rng.p(t->r_rate)) {
      uint32_t beat = reads.front().beat;
      uint64_t d = 0;
      for (uint32_t k = 0; k < 8; k++) d |= (uint64_t)mem.get(beat + k) << (8 * k);
      m.m_r_data_i = d;
      m.m_r_err_i = !Space::in_dram(beat);
      r_off = true;
    }
    if (!b_off && !bs.empty() && bs.front().due <= cycle && rng.p(t->b_rate)) {
      m.m_b_err_i = bs.front().err;
      b_off = true;
    }
    m.m_r_valid_i = r_off;
    m.m_r_id_i = 0;
    m.m_r_last_i = 1;
    m.m_b_valid_i = b_off;
    m.m_b_id_i = 0;
    m.bus_req_valid_i = bus_valid;
    m.bus_req_we_i = bus_we;
    m.bus_req_be_i = bus_be;
    m.bus_req_addr_i = bus_addr;
    m.bus_req_wdata_i = bus_wdata;

    // 2. the unit's offers with both readies low, then with the memory's
    m.clk_i = 0;
    m.m_req_ready_i = 0;
    m.m_w_ready_i = 0;
    m.eval();
    Offer o = offer();
    bool req_rdy = rng.p(t->req_ready) && (t->max_out == 0 || in_flight() < t->max_out);
    bool wreq_now = req_rdy && o.req_valid && o.req_write;
    bool w_rdy = rng.p(t->w_ready) && (t->w_early || !wreqs.empty() || wreq_now);
    m.m_req_ready_i = req_rdy;
    m.m_w_ready_i = w_rdy;
    m.eval();
    if (!(offer() == o)) violation("REQ or W valid/payload changes with req_ready/w_ready (rule 1)");
    if (!m.bus_req_ready_o) violation("core bus req_ready low");

    // 3. the port's rules on what is offered
    if (req_held && (!o.req_valid || !o.same_req(prev)))
      violation("a request offered and not taken was withdrawn or changed (rule 2)");
    if (w_held && (!o.w_valid || !o.same_w(prev)))
      violation("write data offered and not taken was withdrawn or changed (rule 2)");
    if ((o.req_valid || o.w_valid) && !fp) violation("the unit offers a request or data while no job runs");

    // 4. handshakes (a request before the data that may go with it)
    if (o.req_valid && req_rdy) take_request(o);
    if (o.w_valid && w_rdy) take_data(o);
    if (r_off && m.m_r_ready_o) r_off = false, reads.pop_front();
    if (b_off && m.m_b_ready_o) b_off = false, bs.pop_front();
    req_held = o.req_valid && !req_rdy;
    w_held = o.w_valid && !w_rdy;
    prev = o;

    // 5. the edge; the bus answers one cycle after its request
    m.clk_i = 1;
    m.eval();
    cycle++;
    if ((bool)m.bus_rsp_valid_o != bus_valid) violation("core bus: a response without a request, or none for one");
    bus_valid = false;
  }

  void idle(uint32_t n) {
    for (uint32_t k = 0; k < n; k++) step();
  }

  // A core-bus access: the response's data and err.
  struct Rsp {
    uint32_t data;
    bool err;
  };
  Rsp access(bool we, uint32_t off, uint32_t v, uint32_t be) {
    bus_valid = true, bus_we = we, bus_be = be, bus_addr = off, bus_wdata = v;
    step();
    return {(uint32_t)m.bus_rsp_rdata_o, (bool)m.bus_rsp_err_o};
  }
  Rsp read(uint32_t off) { return access(false, off, 0, 0xf); }
  Rsp write(uint32_t off, uint32_t v, uint32_t be = 0xf) { return access(true, off, v, be); }

  // Resets the unit (synchronous: the first edge still sees its old
  // offers), then forgets what the memory had in flight.
  void reset() {
    m.rst_ni = 0;
    fp = nullptr;
    step();
    viol.clear();
    reads.clear(), wreqs.clear(), wdata.clear(), bs.clear();
    r_off = b_off = req_held = w_held = false;
    for (int k = 0; k < 3; k++) {
      step();
      if (m.m_req_valid_o || m.m_w_valid_o) violation("REQ or W valid during reset (rule 4)");
    }
    m.rst_ni = 1;
  }

  // ---- a job through the registers, as the firmware's driver -------------------------
  void program(const Job &j) {
    const uint32_t regs[][2] = {
        {TSL_CVT_SRC_OFFSET, j.src},
        {TSL_CVT_DST_OFFSET, j.dst},
        {TSL_CVT_INNER_OFFSET, j.inner},
        {TSL_CVT_INNER_REAL_OFFSET, j.inner_real},
        {TSL_CVT_OUTER_OFFSET, j.outer},
        {TSL_CVT_SRC_INNER_OFFSET, j.si},
        {TSL_CVT_SRC_OUTER_OFFSET, j.so},
        {TSL_CVT_DST_INNER_OFFSET, j.di},
        {TSL_CVT_DST_OUTER_OFFSET, j.dout},
        {TSL_CVT_SCALE_OFFSET, j.scale},
        {TSL_CVT_RECIP_OFFSET, tfw_quantize_recip(tfw_bits_f32(j.scale))},
        {TSL_CVT_ZP_OFFSET, (uint32_t)j.zp},
    };
    for (const auto &r : regs)
      if (write(r[0], r[1]).err) violation("core bus: rsp_err writing register " + hex(r[0]));
  }
  uint32_t ctrl_of(const Job &j) const { return (uint32_t)j.op | (j.u8 ? TSL_CVT_CTRL_U8 : 0u); }

  // Polls CTRL (a gap of 0..6 cycles between reads, or `gap`) until BUSY
  // clears: false when it is still set after `limit` cycles.
  bool wait_done(uint64_t limit, uint32_t *ctrl, int gap = -1) {
    uint64_t t0 = cycle;
    for (;;) {
      Rsp r = read(TSL_CVT_CTRL_OFFSET);
      *ctrl = r.data;
      if (!(r.data & TSL_CVT_CTRL_BUSY)) return true;
      if (cycle - t0 > limit) return false;
      idle(gap < 0 ? rng.below(7) : (uint32_t)gap);
    }
  }

  // The first byte where the unit's memory differs from the model's, with
  // the element that writes it; empty when they agree.
  std::string compare(const Job &j) {
    if (mem.b == ref.b) return "";
    size_t k = 0;
    while (mem.b[k] == ref.b[k]) k++;
    uint32_t a = DramBase + (uint32_t)k;
    std::string s = fmt("byte 0x%08" PRIx32 ": unit 0x%02x, model 0x%02x", a, mem.b[k], ref.b[k]);
    for (uint32_t oj = 0; oj < j.outer && s.size() < 400; oj++)
      for (uint32_t ii = 0; ii < j.inner && s.size() < 400; ii++) {
        uint32_t da = j.dst_at(oj, ii), sa = j.src_at(oj, ii);
        if (j.dst_es() == 1 ? da != a : (da & ~3u) != (a & ~3u)) continue;
        s += fmt("; element (%" PRIu32 ", %" PRIu32 ") ", oj, ii);
        if (!j.reads(ii))
          s += "padding";
        else if (j.op == OP_QUANT)
          s += "x=" + hex(ref.get32(sa & ~3u));
        else
          s += fmt("code=0x%02x", ref.get(sa));
      }
    mem.b = ref.b;  // the next job starts from equal memories
    return s + "; job: " + j.str();
  }

  // After BUSY cleared: the port idle, ERR as expected, the reads counted,
  // every byte of memory, the rules. The first failure, or empty.
  std::string check_done(const Job &j, const Footprint &f, uint32_t ctrl, uint64_t reads0) {
    std::string fail;
    if (!memory_idle() || r_off || b_off) {
      fail =
          fmt("BUSY clear with accesses in flight: %zu reads, %zu writes without data, %zu data without a request, "
              "%zu B",
              reads.size(), wreqs.size(), wdata.size(), bs.size());
    } else if (!(ctrl & TSL_CVT_CTRL_ERR) != !f.err) {
      fail = std::string("ERR ") + ((ctrl & TSL_CVT_CTRL_ERR) ? "set" : "clear") + ", expected " +
             (f.err ? "set" : "clear");
    } else if (!viol.empty()) {
      fail = "port: " + viol[0];
    } else if (n_reads - reads0 < f.beats || n_reads - reads0 > f.reads) {
      fail = fmt("%" PRIu64 " read requests, expected %" PRIu64 " (the source's beats) to %" PRIu64
                 " (one per change of beat from one reading element to the next)",
                 n_reads - reads0, f.beats, f.reads);
    }
    std::string mis = compare(j);
    if (fail.empty() && !mis.empty()) fail = mis;
    if (!fail.empty() && fail.find("job:") == std::string::npos) fail += "; job: " + j.str();
    viol.clear();
    return fail;
  }

  // What the port looks like when a job hangs, and the first rule it broke.
  std::string stuck() const {
    return fmt("; memory: %zu reads in flight (R offered: %d, unit r_ready %d), %zu writes awaiting data, unit offers "
               "%s%s",
               reads.size(), r_off, (int)m.m_r_ready_o, wreqs.size(),
               m.m_req_valid_o ? (m.m_req_write_o ? "a write request" : "a read request") : "no request",
               m.m_w_valid_o ? " and write data" : "") +
           (viol.empty() ? "" : "; before that, port: " + viol[0]);
  }

  // Runs a job on the unit and on the model; true when it passed.
  bool run(Group &g, const Job &j, int gap = -1, uint64_t *busy_cycles = nullptr) {
    auto f = std::make_unique<Footprint>();
    if (!footprint_of(j, *f)) {
      g.fail("bench: a job outside the memory: " + j.str());
      return false;
    }
    model_run(j, ref);
    g.jobs++, g.elems += (uint64_t)j.inner * j.outer;
    program(j);  // (violations since the last job's check count against this one)
    fp = f.get();
    uint64_t reads0 = n_reads, t0 = cycle;
    write(TSL_CVT_CTRL_OFFSET, ctrl_of(j));
    uint32_t ctrl = 0;
    // (the slowest passing jobs, under heavy stalls, take about 14 cycles an element)
    uint64_t limit = 10000 + 100 * (uint64_t)j.inner * j.outer;
    if (!wait_done(limit, &ctrl, gap)) {
      g.fail("BUSY still set after " + std::to_string(cycle - t0) + " cycles" + stuck() + "; job: " + j.str());
      reset();
      mem.b = ref.b;
      return false;
    }
    if (busy_cycles) *busy_cycles = cycle - t0 - 1;
    idle(2);  // nothing may move now
    fp = nullptr;
    std::string fail = check_done(j, *f, ctrl, reads0);
    if (!fail.empty()) g.fail(fail);
    return fail.empty();
  }

  // ---- the jobs' data -------------------------------------------------------------------
  uint32_t gen_scale() {
    static const uint32_t fixed[] = {
        0x3f800000u,
        0x3b808081u /* 1/255 */,
        0x3c010204u /* 1/127 */,
        0x3f000000u,
        0x3dcccccdu /* 0.1 */,
        0x40400000u,
        0x0d800000u /* 2^-100 */,
        0x71ffffffu /* the largest */,
        0x35800000u /* 2^-20 */,
    };
    uint32_t k = rng.below(10);
    if (k < 4) return tfw_f32_bits((float)std::pow(10.0, -3.0 + 3.0 * rng.u32() / 4294967296.0));
    if (k < 7) return ((27u + rng.below(201)) << 23) | (rng.u32() & 0x7fffffu);
    return fixed[rng.below(sizeof fixed / sizeof fixed[0])];
  }
  int32_t gen_zp(bool u8) {
    static const int32_t i8[] = {-128, 127, 0, -1}, u8s[] = {0, 255, 128, 1};
    if (rng.p(0.5)) return u8 ? u8s[rng.below(4)] : i8[rng.below(4)];
    return u8 ? (int32_t)rng.below(256) : rng.range(-128, 127);
  }
  // A copy's ZP: any int32, its low byte the padding; often one no code
  // range holds (the quantiser would clamp it, a copy must not).
  int32_t gen_copy_zp() {
    static const int32_t edge[] = {256, -129, 511, -256, 0x7fffffff, INT32_MIN, 0x12345678, -0x12345680};
    switch (rng.below(4)) {
      case 0:
        return rng.range(-128, 255);
      case 1:
        return rng.p(0.5) ? rng.range(256, 100000) : rng.range(-100000, -129);
      case 2:
        return edge[rng.below(sizeof edge / sizeof edge[0])];
      default:
        return (int32_t)rng.u32();
    }
  }
  // An f32 of every class: NaN, +-inf, +-0, subnormals, huge, on and near
  // the quantisation boundaries (k + 0.5) * scale, in range, any bits.
  uint32_t gen_x(uint32_t scale) {
    double s = tfw_bits_f32(scale);
    uint32_t sign = rng.below(2) << 31;
    switch (rng.below(12)) {
      case 0:
        return sign | 0x7f800000u | ((rng.u32() & 0x7fffffu) | 1u);  // NaN, quiet or signalling
      case 1:
        return sign | 0x7f800000u;
      case 2:
        return sign;
      case 3:
        return sign | (rng.u32() & 0x7fffffu);  // subnormal
      case 4:
        return sign | ((250u + rng.below(5)) << 23) | (rng.u32() & 0x7fffffu);
      case 5:
      case 6: {
        float x = (float)(((double)rng.range(-300, 300) + 0.5) * s);
        for (int k = rng.range(-3, 3); k != 0; k += k > 0 ? -1 : 1) x = std::nextafter(x, k > 0 ? INFINITY : -INFINITY);
        return tfw_f32_bits(x);
      }
      case 7:
      case 8:
        return tfw_f32_bits((float)((rng.u32() / 4294967296.0 - 0.5) * 600.0 * s));
      case 9:
        return tfw_f32_bits((float)((double)rng.range(-300, 300) * s));
      case 10:
        return rng.u32();
      default:
        return tfw_f32_bits((float)((rng.u32() / 4294967296.0 - 0.5) * 2.0 * s));
    }
  }

  // Source elements get fresh values (every f32, or every byte), the
  // destination sometimes fresh bytes, in both memories.
  void fill(const Job &j) {
    for (uint32_t oj = 0; oj < j.outer; oj++)
      for (uint32_t ii = 0; ii < j.inner; ii++) {
        if (!j.reads(ii)) continue;
        uint32_t sa = j.src_at(oj, ii);
        if (j.op == OP_QUANT) {
          uint32_t x = gen_x(j.scale);
          for (int k = 0; k < 4; k++)
            mem.fill((sa & ~3u) + k, (uint8_t)(x >> (8 * k))), ref.fill((sa & ~3u) + k, (uint8_t)(x >> (8 * k)));
        } else {
          uint8_t c = (uint8_t)rng.u32();
          mem.fill(sa, c), ref.fill(sa, c);
        }
      }
    if (rng.p(0.5)) {
      for (uint32_t oj = 0; oj < j.outer; oj++)
        for (uint32_t ii = 0; ii < j.inner; ii++) {
          uint32_t da = j.dst_at(oj, ii);
          for (uint32_t k = 0; k < j.dst_es(); k++) {
            uint8_t v = (uint8_t)rng.u32();
            mem.fill(da + k, v), ref.fill(da + k, v);
          }
        }
    }
  }

  // ---- placing a job in memory ---------------------------------------------------------------
  // The byte span [lo, hi] of a side's elements (those the job reads, on
  // the source side), relative to its base.
  static void span(const Job &j, bool src, int64_t *lo, int64_t *hi) {
    uint32_t es = src ? j.src_es() : j.dst_es(), si = src ? j.si : j.di, so = src ? j.so : j.dout;
    uint32_t n = src && j.pads() ? std::min(j.inner, j.inner_real) : j.inner;
    *lo = 0, *hi = es - 1;
    for (uint32_t oj = 0; oj < j.outer; oj++)
      for (uint32_t ii = 0; ii < n; ii++) {
        int64_t off = (int32_t)(oj * so + ii * si);
        *lo = std::min(*lo, off), *hi = std::max(*hi, off + es - 1);
      }
  }

  // A base for a side so its span lies in [from, to), aligned to `align`.
  uint32_t base_in(int64_t lo, int64_t hi, uint32_t from, uint32_t to, uint32_t align) {
    int64_t first = (int64_t)from - lo, last = (int64_t)to - 1 - hi;
    if (last < first) return 0;
    int64_t b = first + (int64_t)(rng.u32() % (uint32_t)(last - first + 1));
    b = (b + align - 1) / align * align;
    if (b > last) b -= align;
    return (uint32_t)b;
  }

  // Places src and dst in DRAM, not overlapping (f32 sides 4-aligned);
  // false when they do not fit.
  bool place(Job &j) {
    int64_t slo, shi, dlo, dhi;
    span(j, true, &slo, &shi);
    span(j, false, &dlo, &dhi);
    for (int tries = 0; tries < 200; tries++) {
      j.src = base_in(slo, shi, DramBase, DramBase + DramBytes, j.src_es());
      j.dst = base_in(dlo, dhi, DramBase, DramBase + DramBytes, j.dst_es());
      if (!j.src || !j.dst) return false;
      int64_t s0 = j.src + slo, s1 = j.src + shi, d0 = j.dst + dlo, d1 = j.dst + dhi;
      if (s1 < d0 || d1 < s0) return true;
    }
    return false;
  }

  // ---- the job shapes ---------------------------------------------------------------------------
  // Copies ignore U8, SCALE and RECIP: they get any bits.
  Job base_job(Op op) {
    Job j;
    j.op = op;
    j.u8 = rng.p(0.5);
    if (op == OP_COPY) {
      j.scale = rng.p(0.5) ? gen_scale() : rng.u32();
      j.zp = gen_copy_zp();
    } else {
      j.scale = gen_scale();
      j.zp = gen_zp(j.u8);
    }
    return j;
  }
  Op any_op() { return (Op)(1 + rng.below(3)); }

  // A channel block of a PLAIN NCHW float tensor into BLOCKED (quantise:
  // i the lanes, j the pixels), or back (dequantise), as the firmware does.
  Job blocked_job(Op op) {
    Job j = base_job(op);
    uint32_t dim = 4u << rng.below(3), hw = 1 + rng.below(50), real = rng.p(0.5) ? dim : 1 + rng.below(dim);
    j.outer = hw;
    if (op == OP_QUANT) {
      j.inner = dim, j.inner_real = real;
      j.si = hw * 4, j.so = 4, j.di = 1, j.dout = dim;
    } else {
      j.inner = real, j.inner_real = 0;
      j.si = 1, j.so = dim, j.di = hw * 4, j.dout = 4;
    }
    return j;
  }

  // The firmware's 8-bit relayout of a channel block of `real` lanes
  // (tfw_fallback.c, relayout_by_cvt), i the lanes and j the pixels:
  // BLOCKED DIM `dim` into PLAIN (the real lanes), or PLAIN into BLOCKED
  // (every lane, the padding ones too).
  Job relayout_job(bool to_plain, uint32_t dim, uint32_t real, uint32_t hw) {
    Job j = base_job(OP_COPY);
    j.outer = hw;
    if (to_plain) {
      j.inner = real, j.inner_real = real;
      j.si = 1, j.so = dim, j.di = hw, j.dout = 1;
    } else {
      j.inner = dim, j.inner_real = real;
      j.si = hw, j.so = 1, j.di = 1, j.dout = dim;
    }
    return j;
  }
  Job random_relayout_job(bool to_plain) {
    uint32_t dim = 4u << rng.below(3), hw = 1 + rng.below(50), real = rng.p(0.5) ? dim : 1 + rng.below(dim);
    return relayout_job(to_plain, dim, real, hw);
  }

  // Contiguous rows.
  Job rows_job(Op op) {
    Job j = base_job(op);
    j.inner = 1 + rng.below(20), j.outer = 1 + rng.below(50);
    j.inner_real = j.pads() && rng.p(0.3) ? rng.below(j.inner + 1) : j.inner;
    uint32_t se = j.src_es(), de = j.dst_es();
    j.si = se, j.so = j.inner * se, j.di = de, j.dout = j.inner * de;
    return j;
  }

  // A side's strides: row-major, column-major, or random (sometimes 0:
  // elements that share bytes; the later one wins the destination).
  void strides(const Job &j, uint32_t es, uint32_t *si, uint32_t *so, bool negative) {
    uint32_t k = rng.below(4);
    uint32_t gap = rng.p(0.5) ? 0 : es * rng.below(4);
    if (k == 0)
      *si = es, *so = j.inner * es + gap;
    else if (k == 1)
      *si = j.outer * es + gap, *so = es;
    else {
      uint32_t step = es == 4 ? 4 : 1;
      *si = rng.p(0.05) ? 0 : step * rng.below(es == 4 ? 12 : 40);
      *so = rng.p(0.05) ? 0 : step * rng.below(es == 4 ? 80 : 300);
    }
    if (negative) {
      if (rng.p(0.5)) *si = 0u - *si;
      if (rng.p(0.5)) *so = 0u - *so;
    }
  }

  Job strided_job(Op op, bool negative) {
    Job j = base_job(op);
    j.inner = 1 + rng.below(20), j.outer = 1 + rng.below(50);
    j.inner_real = rng.below(j.inner + 1);
    strides(j, j.src_es(), &j.si, &j.so, negative);
    strides(j, j.dst_es(), &j.di, &j.dout, negative);
    return j;
  }

  // Long rows (the firmware's contiguous jobs), 16-bit INNER, padding runs,
  // one source element for many rows.
  enum Long { LONG_ROW, LONG_PADDING, LONG_ONE_BEAT };
  Job long_job(Long kind, Op op) {
    Job j = base_job(op);
    uint32_t se = j.src_es(), de = j.dst_es();
    switch (kind) {
      case LONG_ROW:
        j.inner = 30000 + rng.below(10000), j.inner_real = j.inner - rng.below(10), j.outer = 1;
        j.si = se, j.so = 0, j.di = de, j.dout = 0;
        break;
      case LONG_PADDING:
        j.inner = 65535, j.inner_real = rng.below(100), j.outer = 2;  // mostly padding
        j.si = se, j.so = 100 * se, j.di = de, j.dout = 65535 * de + rng.below(8);
        break;
      case LONG_ONE_BEAT:
        j.inner = 1, j.inner_real = 1, j.outer = 20000 + rng.below(20000);
        j.si = 0, j.so = 0, j.di = de, j.dout = de * (1 + rng.below(3));
        break;
    }
    return j;
  }
};

// ---- the groups ---------------------------------------------------------------------------------

const uint32_t rw_regs[][2] = {
    // offset, bits that hold
    {TSL_CVT_SRC_OFFSET, 0xffffffffu},       {TSL_CVT_DST_OFFSET, 0xffffffffu},
    {TSL_CVT_INNER_OFFSET, 0xffffu},         {TSL_CVT_INNER_REAL_OFFSET, 0xffffu},
    {TSL_CVT_OUTER_OFFSET, 0xffffffu},       {TSL_CVT_SRC_INNER_OFFSET, 0xffffffffu},
    {TSL_CVT_SRC_OUTER_OFFSET, 0xffffffffu}, {TSL_CVT_DST_INNER_OFFSET, 0xffffffffu},
    {TSL_CVT_DST_OUTER_OFFSET, 0xffffffffu}, {TSL_CVT_SCALE_OFFSET, 0xffffffffu},
    {TSL_CVT_RECIP_OFFSET, 0xffffffffu},     {TSL_CVT_ZP_OFFSET, 0xffffffffu},
};
constexpr size_t NumRw = sizeof rw_regs / sizeof rw_regs[0];

uint32_t be_mask(uint32_t be) {
  uint32_t m = 0;
  for (int k = 0; k < 4; k++)
    if (be >> k & 1) m |= 0xffu << (8 * k);
  return m;
}

// Reads every RW register: its value, or a failure in g.
void expect_regs(Bench &b, Group &g, const uint32_t *want, const char *when) {
  for (size_t r = 0; r < NumRw; r++) {
    Bench::Rsp x = b.read(rw_regs[r][0]);
    if (x.err || x.data != want[r])
      g.fail(std::string(when) + ": register " + hex(rw_regs[r][0]) + " reads " + hex(x.data) +
             (x.err ? " (rsp_err)" : "") + ", expected " + hex(want[r]));
  }
}

// Right after reset: ID, CTRL and every register 0, then writes with random
// byte enables read back (each register's width).
void test_registers(Bench &b, Group &g) {
  uint32_t want[NumRw] = {};
  Bench::Rsp id = b.read(TSL_CVT_ID_OFFSET), ctrl = b.read(TSL_CVT_CTRL_OFFSET);
  if (id.err || id.data != IdValue) g.fail("ID reads " + hex(id.data) + (id.err ? " (rsp_err)" : ""));
  if (ctrl.err || ctrl.data != 0) g.fail("CTRL after reset reads " + hex(ctrl.data));
  expect_regs(b, g, want, "after reset");
  for (int round = 0; round < 60; round++) {
    for (size_t r = 0; r < NumRw; r++) {
      uint32_t v = b.rng.u32(), be = round < 10 ? 0xf : b.rng.below(16);
      if (b.write(rw_regs[r][0], v, be).err) g.fail("rsp_err writing " + hex(rw_regs[r][0]));
      want[r] = ((want[r] & ~be_mask(be)) | (v & be_mask(be))) & rw_regs[r][1];
    }
    b.write(TSL_CVT_ID_OFFSET, b.rng.u32());  // read-only: ignored
    expect_regs(b, g, want, "read-back");
  }
  id = b.read(TSL_CVT_ID_OFFSET);
  if (id.data != IdValue) g.fail("ID changed by a write: " + hex(id.data));
}

// Offsets that name no register answer rsp_err (reads and writes) and
// change nothing; the registers' offsets do not.
void test_unknown(Bench &b, Group &g) {
  uint32_t want[NumRw];
  for (size_t r = 0; r < NumRw; r++) {
    want[r] = b.rng.u32() & rw_regs[r][1];
    b.write(rw_regs[r][0], want[r]);
  }
  std::vector<uint32_t> offs = {0x038, 0x03c, 0x040, 0x100, 0x800, 0xffc, 0x001, 0x002, 0x003, 0x005, 0x009, 0x036};
  for (int k = 0; k < 40; k++) offs.push_back(0x038 + b.rng.below(0xfc8));
  for (uint32_t off : offs) {
    Bench::Rsp r = b.read(off), w = b.write(off, b.rng.u32(), 1 + b.rng.below(15));
    if (!r.err || r.data != 0)
      g.fail("read of offset " + hex(off) + ": " + hex(r.data) + (r.err ? "" : " without rsp_err"));
    if (!w.err) g.fail("write of offset " + hex(off) + " without rsp_err");
  }
  for (uint32_t off = 0; off <= TSL_CVT_ZP_OFFSET; off += 4)
    if (b.read(off).err) g.fail("read of register " + hex(off) + " answers rsp_err");
  expect_regs(b, g, want, "after writes to unknown offsets");
}

// CTRL with OP 0 (U8 either way) starts nothing: BUSY stays clear, no
// access; the same registers then run with the job's OP, most often 3 (a
// copy: it starts, and copies).
void test_op_none(Bench &b, Group &g) {
  for (int k = 0; k < 12; k++) {
    Job j = b.rows_job(k % 3 ? OP_COPY : b.rng.p(0.5) ? OP_QUANT : OP_DEQUANT);
    if (!b.place(j)) continue;
    b.fill(j);
    b.program(j);
    Footprint none;
    b.fp = &none;  // any access is a violation
    for (uint32_t u8 : {0u, TSL_CVT_CTRL_U8}) {
      b.write(TSL_CVT_CTRL_OFFSET, u8);
      b.idle(20);
      Bench::Rsp c = b.read(TSL_CVT_CTRL_OFFSET);
      if (c.data & TSL_CVT_CTRL_BUSY) g.fail("CTRL " + hex(u8) + " (OP 0) started a job; job: " + j.str());
    }
    b.fp = nullptr;
    std::string mis = b.compare(j);
    if (!mis.empty()) g.fail("memory changed: " + mis);
    if (!b.viol.empty()) g.fail("port: " + b.viol[0]);
    b.viol.clear();
    b.run(g, j);
  }
}

// A job of INNER 0 or OUTER 0 ends at once (BUSY clear within four cycles
// of the start, polled back to back) and touches nothing.
void test_empty(Bench &b, Group &g, bool inner0) {
  for (int k = 0; k < 20; k++) {
    Job j = b.rows_job(b.any_op());
    if (!b.place(j)) continue;
    if (inner0)
      j.inner = 0;
    else
      j.outer = 0;
    b.program(j);
    Footprint none;
    b.fp = &none;
    b.write(TSL_CVT_CTRL_OFFSET, b.ctrl_of(j));
    uint32_t ctrl = 0;
    if (!b.wait_done(4, &ctrl, 0)) g.fail("BUSY still set 4 cycles after an empty job's start; job: " + j.str());
    b.wait_done(100000, &ctrl, 0);
    b.idle(10);
    b.fp = nullptr;
    if (ctrl & TSL_CVT_CTRL_ERR) g.fail("ERR set by an empty job");
    std::string mis = b.compare(j);
    if (!mis.empty()) g.fail("memory changed: " + mis);
    if (!b.viol.empty()) g.fail("port: " + b.viol[0]);
    b.viol.clear();
    g.jobs++;
  }
}

// Writes while BUSY are ignored: a long job under heavy stalls; mid-job,
// every register (and CTRL, with another OP) gets a new value; the job
// runs with the old ones, which the registers still read afterwards.
void test_busy_writes(Bench &b, Group &g) {
  const Timing *saved = b.t;
  b.t = timing("heavy-stalls");
  for (int k = 0; k < 18; k++) {
    Job j = b.strided_job((Op)(1 + k % 3), false);
    j.inner = 10 + b.rng.below(11), j.outer = 30 + b.rng.below(21),
    j.inner_real = j.inner / 2 + b.rng.below(j.inner / 2 + 1);
    b.strides(j, j.src_es(), &j.si, &j.so, false);
    b.strides(j, j.dst_es(), &j.di, &j.dout, false);
    if (!b.place(j)) continue;
    b.fill(j);
    auto f = std::make_unique<Footprint>();
    footprint_of(j, *f);
    model_run(j, b.ref);
    b.program(j);
    uint32_t want[NumRw];
    for (size_t r = 0; r < NumRw; r++) want[r] = b.read(rw_regs[r][0]).data;
    b.fp = f.get();
    uint64_t reads0 = b.n_reads;
    b.write(TSL_CVT_CTRL_OFFSET, b.ctrl_of(j));
    g.jobs++, g.elems += (uint64_t)j.inner * j.outer;
    b.idle(b.rng.below(40));
    // SRC first, read back at once, then the rest in a random order
    b.write(TSL_CVT_SRC_OFFSET, j.src ^ 0x100u);
    Bench::Rsp s = b.read(TSL_CVT_SRC_OFFSET);
    if (s.data != j.src) g.fail("SRC written while BUSY reads " + hex(s.data) + ", expected " + hex(j.src));
    for (size_t r = 0; r < NumRw; r++) b.write(rw_regs[b.rng.below(NumRw)][0], b.rng.u32());
    b.write(TSL_CVT_CTRL_OFFSET, (uint32_t)j.op % 3 + 1);  // 1 -> 2 -> 3 -> 1
    Bench::Rsp c = b.read(TSL_CVT_CTRL_OFFSET);
    if (!(c.data & TSL_CVT_CTRL_BUSY)) g.fail("bench: the job ended before the writes (make it longer)");
    uint32_t ctrl = 0;
    if (!b.wait_done(10000 + 100 * (uint64_t)j.inner * j.outer, &ctrl)) {
      g.fail("BUSY still set" + b.stuck() + "; job: " + j.str());
      b.reset();
      b.mem.b = b.ref.b;
      continue;
    }
    b.idle(2);
    b.fp = nullptr;
    std::string fail = b.check_done(j, *f, ctrl, reads0);
    if (!fail.empty()) g.fail(fail);
    expect_regs(b, g, want, "after the job");
  }
  b.t = saved;
}

// Jobs whose source or destination reaches into the error region: ERR set,
// BUSY clears, every byte as the model (reads there return its bytes,
// writes there are dropped); the next clean job reads ERR clear. Copies,
// or quantisations and dequantisations.
void test_errors(Bench &b, Group &g, bool on_src, bool copy) {
  for (int k = 0; k < 60; k++) {
    Job j = b.strided_job(copy ? OP_COPY : b.rng.p(0.5) ? OP_QUANT : OP_DEQUANT, false);
    if (j.inner_real == 0 && on_src && j.pads()) j.inner_real = 1;  // a job that reads
    int64_t slo, shi, dlo, dhi;
    Bench::span(j, true, &slo, &shi);
    Bench::span(j, false, &dlo, &dhi);
    // the erring side straddles the start of the error region, or lies in it
    int64_t lo = on_src ? slo : dlo, hi = on_src ? shi : dhi;
    uint32_t from = b.rng.p(0.3) ? BadBase : BadBase - (uint32_t)(hi - lo + 1) / 2;
    uint32_t align = on_src ? j.src_es() : j.dst_es(), other_align = on_src ? j.dst_es() : j.src_es();
    uint32_t base = b.base_in(lo, hi, from, BadBase + BadBytes, align);
    if (!base || hi - lo + 1 > BadBytes) continue;
    (on_src ? j.src : j.dst) = base;
    uint32_t other = b.base_in(on_src ? dlo : slo, on_src ? dhi : shi, DramBase, BadBase - 0x10000u, other_align);
    if (!other) continue;
    (on_src ? j.dst : j.src) = other;
    b.fill(j);
    b.run(g, j);
    Job c = b.rows_job(b.any_op());  // ERR clears on the next start
    if (b.place(c)) {
      b.fill(c);
      b.run(g, c);
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint32_t seed = argc > 1 ? (uint32_t)std::strtoul(argv[1], nullptr, 0) : 1u;
  auto t0 = std::chrono::steady_clock::now();
  auto dut = std::make_unique<Vcvt_dma_tb>();
  Bench b(*dut, seed);
  for (uint32_t k = 0; k < SpaceBytes; k++) b.mem.b[k] = b.ref.b[k] = (uint8_t)b.rng.u32();
  b.reset();

  std::deque<Group> groups;  // (references stay valid as groups are added)
  auto group = [&](const std::string &name) -> Group & {
    groups.push_back(Group{});
    groups.back().name = name;
    return groups.back();
  };

  test_registers(b, group("registers/reset-and-read-back"));
  test_unknown(b, group("registers/unknown-offsets"));
  test_op_none(b, group("registers/op-0-starts-nothing-op-3-copies"));
  test_busy_writes(b, group("registers/writes-while-busy-ignored"));
  test_empty(b, group("empty/inner-0"), true);
  test_empty(b, group("empty/outer-0"), false);

  // Random jobs: each shape under each memory timing.
  enum Kind { SHAPE_BLOCKED, SHAPE_ROWS, SHAPE_STRIDED, SHAPE_TO_PLAIN, SHAPE_TO_BLOCKED };
  struct Shape {
    const char *name;
    Op op;
    Kind kind;
  } shapes[] = {
      {"quantise-blocked", OP_QUANT, SHAPE_BLOCKED},
      {"quantise-rows", OP_QUANT, SHAPE_ROWS},
      {"quantise-strided", OP_QUANT, SHAPE_STRIDED},
      {"dequantise-blocked", OP_DEQUANT, SHAPE_BLOCKED},
      {"dequantise-rows", OP_DEQUANT, SHAPE_ROWS},
      {"dequantise-strided", OP_DEQUANT, SHAPE_STRIDED},
      {"copy-blocked-to-plain", OP_COPY, SHAPE_TO_PLAIN},
      {"copy-plain-to-blocked", OP_COPY, SHAPE_TO_BLOCKED},
      {"copy-rows", OP_COPY, SHAPE_ROWS},
      {"copy-strided", OP_COPY, SHAPE_STRIDED},
  };
  const int per_group = 100;
  for (const Timing &tm : timings) {
    b.t = &tm;
    for (const Shape &s : shapes) {
      Group &g = group(std::string(s.name) + "/" + tm.name);
      for (int k = 0; k < per_group; k++) {
        Job j = s.kind == SHAPE_BLOCKED    ? b.blocked_job(s.op)
                : s.kind == SHAPE_ROWS     ? b.rows_job(s.op)
                : s.kind == SHAPE_STRIDED  ? b.strided_job(s.op, false)
                : s.kind == SHAPE_TO_PLAIN ? b.random_relayout_job(true)
                                           : b.random_relayout_job(false);
        if (!b.place(j)) continue;
        b.fill(j);
        b.run(g, j);
      }
    }
  }
  // The firmware's relayouts, every DIM and number of real lanes, under
  // each timing (1..70 pixels: PLAIN planes of any alignment).
  for (bool to_plain : {true, false}) {
    Group &g = group(std::string("relayout/") + (to_plain ? "blocked-to-plain" : "plain-to-blocked") +
                     "-dim-4-8-16-every-real-lanes/every-timing");
    for (const Timing &tm : timings) {
      b.t = &tm;
      for (uint32_t dim : {4u, 8u, 16u})
        for (uint32_t real = 1; real <= dim; real++) {
          Job j = b.relayout_job(to_plain, dim, real, 1 + b.rng.below(70));
          if (!b.place(j)) continue;
          b.fill(j);
          b.run(g, j);
        }
    }
  }
  b.t = timing("random-stalls");
  for (Op op : {OP_QUANT, OP_DEQUANT, OP_COPY}) {
    static const char *names[] = {"", "quantise", "dequantise", "copy"};
    Group &g = group(std::string(names[op]) + "-negative-strides/random-stalls");
    for (int k = 0; k < per_group; k++) {
      Job j = b.strided_job(op, true);
      if (!b.place(j)) continue;
      b.fill(j);
      b.run(g, j);
    }
  }
  {
    struct {
      const char *name;
      Bench::Long kind;
      Op op;
    } longs[] = {
        {"long/quantise-row", Bench::LONG_ROW, OP_QUANT},
        {"long/dequantise-row", Bench::LONG_ROW, OP_DEQUANT},
        {"long/copy-row", Bench::LONG_ROW, OP_COPY},
        {"long/padding-65535", Bench::LONG_PADDING, OP_QUANT},
        {"long/copy-padding-65535", Bench::LONG_PADDING, OP_COPY},
        {"long/one-source-beat", Bench::LONG_ONE_BEAT, OP_QUANT},
        {"long/copy-one-source-beat", Bench::LONG_ONE_BEAT, OP_COPY},
    };
    for (const auto &l : longs) {
      Group &g = group(l.name);
      for (int k = 0; k < 2; k++) {
        b.t = timing(k == 0 ? "no-stalls" : "random-stalls");
        Job j = b.long_job(l.kind, l.op);
        if (!b.place(j)) {
          g.fail("bench: the job does not fit: " + j.str());
          continue;
        }
        b.fill(j);
        b.run(g, j);
      }
    }
  }
  b.t = timing("random-stalls");
  test_errors(b, group("errors/source-in-error-region"), true, false);
  test_errors(b, group("errors/destination-in-error-region"), false, false);
  test_errors(b, group("errors/copy-source-in-error-region"), true, true);
  test_errors(b, group("errors/copy-destination-in-error-region"), false, true);

  // The figures: latency 20, no stalls, CTRL polled back to back. 3x64x64
  // floats into BLOCKED DIM 8 (one channel block).
  {
    Group &g = group("figure/quantise-3x64x64-blocked-dim8");
    b.t = &fixed20;
    Job j = b.base_job(OP_QUANT);
    j.inner = 8, j.inner_real = 3, j.outer = 64 * 64;
    j.si = 64 * 64 * 4, j.so = 4, j.di = 1, j.dout = 8;
    j.src = DramBase, j.dst = DramBase + 0x10000u;
    b.fill(j);
    uint64_t cyc = 0, reads0 = b.n_reads, writes0 = b.n_writes;
    if (b.run(g, j, 0, &cyc))
      std::printf("cvt-dma: 3x64x64 f32 into BLOCKED DIM 8, latency 20, no stalls: %" PRIu64 " cycles (%" PRIu64
                  " reads, %" PRIu64 " writes), %.3f per input element, %.3f per output byte (padding lanes too)\n",
                  cyc, b.n_reads - reads0, b.n_writes - writes0, (double)cyc / (3 * 64 * 64),
                  (double)cyc / (8 * 64 * 64));
  }
  // The firmware's relayouts of a DIM 8 channel block of 64x64 pixels: 8
  // real lanes from BLOCKED into PLAIN, 3 from PLAIN into BLOCKED.
  for (bool to_plain : {true, false}) {
    uint32_t real = to_plain ? 8 : 3;
    Group &g =
        group(fmt("figure/copy-%" PRIu32 "x64x64-%s-dim8", real, to_plain ? "blocked-to-plain" : "plain-to-blocked"));
    b.t = &fixed20;
    Job j = b.relayout_job(to_plain, 8, real, 64 * 64);
    j.src = DramBase, j.dst = DramBase + 0x10000u;
    b.fill(j);
    uint64_t cyc = 0, reads0 = b.n_reads, writes0 = b.n_writes;
    if (b.run(g, j, 0, &cyc))
      std::printf(
          "cvt-dma: copy %s, %" PRIu32 " real lanes x 64x64, latency 20, no stalls: %" PRIu64 " cycles (%" PRIu64
          " reads, %" PRIu64 " writes), %.3f per element%s\n",
          to_plain ? "BLOCKED DIM 8 -> PLAIN" : "PLAIN -> BLOCKED DIM 8", real, cyc, b.n_reads - reads0,
          b.n_writes - writes0, (double)cyc / (real * 64 * 64),
          to_plain
              ? ""
              : fmt(" (real lanes), %.3f per output byte (padding lanes too)", (double)cyc / (8 * 64 * 64)).c_str());
  }

  // The firmware's dequantisation of a BLOCKED DIM 8 tensor into PLAIN, a
  // channel block with 2 real channels of 32x32 pixels (tfw_fallback.c,
  // dequantize_by_cvt), on tessel-sim's DRAM model at its defaults: it hung
  // tessel-sim (the unit held r_ready low waiting for its write request to
  // be taken, the DRAM took no request until its R beat was).
  {
    Group &g = group("regression/dequantise-blocked-dim8-2-channels-32x32/sim-dram");
    b.t = timing("sim-dram");
    Job j = b.base_job(OP_DEQUANT);
    j.inner = 2, j.outer = 32 * 32;
    j.si = 1, j.so = 8, j.di = 32 * 32 * 4, j.dout = 4;
    j.src = DramBase + 0x20000u, j.dst = DramBase;
    b.fill(j);
    b.run(g, j);
  }

  int pass = 0, fail = 0;
  uint64_t jobs = 0, elems = 0;
  for (const Group &g : groups) {
    jobs += g.jobs, elems += g.elems;
    std::string jobs_of = g.jobs ? fmt(" in %" PRIu64 " jobs", g.jobs) : "";
    if (g.fails == 0) {
      std::printf("PASS %s%s\n", g.name.c_str(), g.jobs ? fmt(" (%" PRIu64 " jobs)", g.jobs).c_str() : "");
      pass++;
    } else {
      std::printf("FAIL %s: %s (%" PRIu64 " failures%s)\n", g.name.c_str(), g.first.c_str(), g.fails, jobs_of.c_str());
      fail++;
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cvt-dma: %" PRIu64 " jobs, %" PRIu64 " elements, %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
              " cycles, seed %" PRIu32 ", %.1f s\n",
              jobs, elems, b.n_reads, b.n_writes, b.cycle, seed, secs);
  dut->final();
  std::printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}
