// dcache_bench.cpp: Verilator bench of the SoC's data cache
// (rtl-model/soc/tessel_dcache.sv, on plain ports in dcache_tb.sv) against a
// C model of the cache (docs/memory-map.md, section DCACHE): direct-mapped
// lines of 32 bytes, filled by a load that misses unless a beat of the line
// fails, updated by a store that hits, dropped (the line at a store's index)
// by a store that fails, all dropped by INVAL and by reset.
//
// The bench is the core and the memory at once. As the core, it issues one
// access at a time on the DRAM window or the register window, the next one
// in the very cycle the last is answered or a few cycles later, and checks
// each answer against the model: a load's word and fault (loads that hit
// what the model holds answer one cycle after they are taken; the rest read
// the memory as it is), a store's fault, a register's value and fault. As
// another memory-port master, it writes DRAM behind the cache's back (only
// when the cache has nothing in flight), so a line the model holds stays
// stale until INVAL, exactly as the hardware's must. As the memory, it holds
// 64 KiB of DRAM at 0x80000000 less its last 16 bytes, then a region that
// answers every access with an error (so one line is half DRAM, half error),
// and answers under several timings (`timings`): random latency, random
// req_ready/w_ready stalls, gaps between a burst's beats and before B, write
// data taken before its request, and a burst's data read when its request is
// taken or beat by beat as it goes (both are allowed: the port orders no read
// against a write). One group makes the memory fail some DRAM writes too.
//
// Every cycle the cache's side of the port is held to docs/memory-port.md:
// REQ and W valid and payload do not depend on req_ready/w_ready, an offered
// item stays unchanged until taken, and the cache asks for nothing the
// accesses do not need: a load that misses reads its line with one 4-beat
// burst (len 3, id 0, the line's address), a load that hits reads nothing, a
// store writes one beat with exactly its bytes (len 0, w_last, id 0); no
// read while a write is unanswered and no write while a burst's beats are
// still coming; nothing while the core has asked for nothing. At the end of
// each group every byte of the memory equals the model's.
//
// Groups, each under every timing: registers (ID, LINES, INVAL, unknown
// offsets fault, writes to read-only ones ignored), hits (a second pass over
// lines answered from the cache), conflicts (lines sharing an index), stores
// (bytes, halves, words, to cached lines and to lines not cached), bus
// errors (the error region and the half line: a beat of DRAM loads, a beat
// of the region faults, every time), invalidate (stale until INVAL, fresh
// after; writes by the other master to lines not cached are seen at once),
// refill racing a store (a store in the very cycle a refill's first beat
// answers its load, to the same line and to the same word; loads of the
// line's arrived beats and of other lines during the refill), write errors
// (the memory fails some writes: the store faults, its line is dropped),
// and random mixes of all of it, resets (every line dropped) and register
// accesses included, with and without write errors. Each prints
// "PASS name" or "FAIL name: " and its first mismatch; the output ends with
// "N passed, N failed" and the exit status is non-zero on a failure. An
// optional argument is the seed (default 1).
#include <array>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vdcache_tb.h"
#include "port_bench.h"
#include "verilated.h"

extern "C" {
#include "tessel_memmap.h"
}

namespace {

using port_bench::fmt;
using port_bench::hex;
using port_bench::Offer;
using port_bench::Rng;

constexpr uint32_t DramBase = 0x80000000u;
constexpr uint32_t DramBytes = (64u << 10) - 16;  // the last line: two beats of DRAM, two of the error region
constexpr uint32_t SpaceBytes = 68u << 10;        // DRAM, then the error region
constexpr uint32_t HalfLine = DramBase + DramBytes - 16;
constexpr uint32_t BadLine = DramBase + (66u << 10);  // a line wholly in the error region
constexpr uint32_t IdValue = 0x48434454u;             // "TDCH"

using Space = port_bench::Space<DramBase, DramBytes, SpaceBytes>;

// ---- the C model of the cache ------------------------------------------------------
struct Model {
  uint32_t lines = 0;
  std::vector<bool> valid;
  std::vector<uint32_t> line_addr;              // the line each entry holds
  std::vector<std::array<uint8_t, 32>> bytes;  // its bytes

  void reset(uint32_t n) {
    lines = n;
    valid.assign(n, false);
    line_addr.assign(n, 0);
    bytes.assign(n, {});
  }
  uint32_t idx(uint32_t a) const { return (a >> 5) & (lines - 1); }
  bool hit(uint32_t a) const { return valid[idx(a)] && line_addr[idx(a)] == (a & ~31u); }
  uint32_t word(uint32_t a) const {
    uint32_t v = 0;
    for (uint32_t k = 0; k < 4; k++) v |= (uint32_t)bytes[idx(a)][(a & 28u) + k] << (8 * k);
    return v;
  }
  // A load that missed: the line from memory, kept unless a beat of it fails.
  void fill(uint32_t a, const Space &s) {
    uint32_t i = idx(a), line = a & ~31u;
    line_addr[i] = line;
    valid[i] = Space::in_dram(line) && Space::in_dram(line + 31);
    for (uint32_t k = 0; k < 32; k++) bytes[i][k] = s.get(line + k);
  }
  // A store that succeeded: its bytes (word lanes by be) into a line it hits.
  void store(uint32_t a, uint32_t wdata, uint32_t be) {
    if (!hit(a)) return;
    for (uint32_t k = 0; k < 4; k++)
      if (be >> k & 1) bytes[idx(a)][(a & 28u) + k] = (uint8_t)(wdata >> (8 * k));
  }
  void drop(uint32_t a) { valid[idx(a)] = false; }
  void inval() { valid.assign(lines, false); }
};

// ---- the memory's timing -----------------------------------------------------------
struct Timing {
  const char *name;
  uint32_t lat_min, lat_max;  // cycles from a request (and its data) to its first response
  double req_ready, w_ready;  // chance the memory takes an offered request / data beat
  double r_rate, b_rate;      // chance a due response (each beat) is offered in a cycle
  bool w_early;               // may take write data before its request (else only after, as the arbiter)
  double snap;                // chance a burst's data is read when its request is taken (else beat by beat)
};

// clang-format off
const Timing timings[] = {
    // name             lat    req  w    r    b    early snap
    {"no-stalls",       1, 1,  1.0, 1.0, 1.0, 1.0, false, 0.5},
    {"random-stalls",   1, 40, 0.6, 0.6, 0.7, 0.7, false, 0.5},
    {"heavy-stalls",    1, 40, 0.2, 0.25, 0.3, 0.3, false, 0.5},
    {"early-w-data",    1, 12, 0.5, 0.7, 0.8, 0.8, true, 0.5},
    {"slow-memory",     30, 40, 0.9, 0.9, 0.9, 0.9, false, 1.0},
    {"sim-dram",        20, 20, 1.0, 1.0, 1.0, 1.0, false, 0.0},  // tessel-sim's DRAM model, its defaults
};
// clang-format on

// One step of a script: an access on the core bus, a write by the other
// master, or a reset.
enum Kind { K_LOAD, K_STORE, K_REG_READ, K_REG_WRITE, K_OTHER_WRITE, K_RESET };
struct Op {
  Kind kind;
  uint32_t addr;       // byte address (DRAM window), offset (register window)
  uint32_t be = 0xf;   // byte lanes of a store (a load's are not used)
  uint32_t wdata = 0;  // a store's word (its bytes in their lanes); the other master's byte
  uint32_t gap = 0;    // cycles from the last answer to this access (0: the same cycle)
};

struct Group {
  std::string name;
  uint64_t fails = 0;
  std::string first;
  void fail(const std::string &m) {
    if (fails++ == 0) first = m;
  }
};

struct Bench {
  Vdcache_tb &m;
  Rng rng;
  Space mem, ref;  // the memory the cache sees; the model's
  Model model;
  const Timing *t = &timings[0];
  double write_fail = 0;  // chance the memory fails a DRAM write (b_err, nothing written)
  uint64_t cycle = 0;
  std::vector<std::string> viol;  // rule violations and wrong answers since the last check

  // the memory's state
  struct Burst {
    uint32_t line;
    uint32_t next;  // beats already sent
    uint64_t due;
    bool snap;
    std::array<uint64_t, 4> data;  // read when the request was taken (snap)
  };
  struct Resp {
    uint64_t due;
    bool err;
  };
  struct Data {
    uint64_t data;
    uint32_t strb;
  };
  std::deque<Burst> reads;     // taken, beats still to send
  std::deque<uint32_t> wreqs;  // write requests taken, waiting for their data
  std::deque<Data> wdata;      // write data taken before its request (early-w-data)
  std::deque<Resp> bs;         // writes complete, B not yet taken
  bool r_off = false, b_off = false, r_err = false, r_last = false;
  uint64_t r_data = 0;
  bool last_write_err = false;  // the outcome of the store's write
  bool req_held = false, w_held = false;
  Offer prev{};

  // the core's side
  const std::vector<Op> *script = nullptr;
  size_t pos = 0;
  uint64_t ready_at = 0;  // the next access may go out from this cycle on
  bool next_valid = false;
  Op next{};
  uint64_t next_since = 0;
  struct Out {
    bool on = false;
    Op op{};
    uint64_t at = 0;      // the cycle it was taken
    bool hit = false;     // a load the model holds: answered the next cycle
    bool either = false;  // a load the refill in flight may answer, or a new one (see take)
    uint32_t want = 0;
    bool want_err = false;
  } out;
  // what the port may carry for the access taken last
  bool may_read = false, must_read = false, may_write = false;
  uint32_t read_line = 0;
  // the line of the last refill whose beats were not all DRAM, while nothing
  // but loads followed it (its good beats may be answered from it)
  bool part_on = false;
  uint32_t part_line = 0;
  uint64_t loads = 0, hits = 0, bursts = 0;

  Bench(Vdcache_tb &dut, uint32_t seed) : m(dut), rng(seed) {}

  void violation(const std::string &s) {
    if (viol.size() < 4) viol.push_back("cycle " + std::to_string(cycle) + ": " + s);
  }

  Offer offer() const { return port_bench::offer_of(m); }

  uint32_t latency() { return t->lat_min + rng.below(t->lat_max - t->lat_min + 1); }
  bool port_idle() const { return reads.empty() && wreqs.empty() && wdata.empty() && bs.empty() && !r_off && !b_off; }

  // ---- the memory ---------------------------------------------------------------
  void write_beat(uint32_t addr, uint64_t data, uint32_t strb) {
    uint32_t beat = addr & ~7u;
    bool err = !Space::in_dram(beat) || rng.p(write_fail);
    if (!err)
      for (uint32_t k = 0; k < 8; k++)
        if (strb >> k & 1) mem.put(beat + k, (uint8_t)(data >> (8 * k)));
    last_write_err = err;
    bs.push_back({cycle + latency(), err});
  }

  void take_request(const Offer &o) {
    if (o.req_id != 0) violation(fmt("request with id %" PRIu32 " (id 0)", o.req_id));
    if (!o.req_write) {
      if (!wreqs.empty() || !wdata.empty() || !bs.empty() || b_off)
        violation("a read request while a write is unanswered");
      if (!may_read)
        violation(fmt("a read of 0x%08" PRIx32 " no access needs", o.req_addr));
      else if (o.req_addr != read_line || o.req_len != 3)
        violation(fmt("read 0x%08" PRIx32 " len %" PRIu32 "; expected the line 0x%08" PRIx32 ", len 3", o.req_addr,
                      o.req_len, read_line));
      may_read = must_read = false;
      Burst b{o.req_addr & ~31u, 0, cycle + latency(), rng.p(t->snap), {}};
      for (uint32_t k = 0; k < 4; k++) b.data[k] = mem.get64(b.line + 8 * k);
      reads.push_back(b);
      bursts++;
      return;
    }
    if (!reads.empty() || r_off) violation("a write request while a burst's beats are still coming");
    if (!may_write)
      violation(fmt("a write of 0x%08" PRIx32 " no access needs", o.req_addr));
    else if (o.req_addr != (out.op.addr & ~3u) || o.req_len != 0)
      violation(fmt("write 0x%08" PRIx32 " len %" PRIu32 "; expected 0x%08" PRIx32 ", len 0", o.req_addr, o.req_len,
                    out.op.addr & ~3u));
    may_write = false;
    if (!wdata.empty()) {
      write_beat(o.req_addr, wdata.front().data, wdata.front().strb);
      wdata.pop_front();
    } else {
      wreqs.push_back(o.req_addr);
    }
  }

  void take_data(const Offer &o) {
    if (!o.w_last) violation("a single-beat write's data without w_last");
    // exactly the store's bytes, in their lanes
    uint32_t lane = out.op.addr & 4u;
    uint32_t want_strb = out.op.be << lane;
    uint64_t want = (uint64_t)out.op.wdata << (8 * lane);
    uint64_t mask = 0;
    for (uint32_t k = 0; k < 8; k++)
      if (want_strb >> k & 1) mask |= 0xffull << (8 * k);
    if (o.w_strb != want_strb || (o.w_data & mask) != (want & mask))
      violation(fmt("write data 0x%016" PRIx64 " strobes 0x%02" PRIx32 "; expected 0x%016" PRIx64 " strobes 0x%02" PRIx32,
                    o.w_data, o.w_strb, want & mask, want_strb));
    if (!wreqs.empty()) {
      write_beat(wreqs.front(), o.w_data, o.w_strb);
      wreqs.pop_front();
    } else {
      wdata.push_back({o.w_data, o.w_strb});  // early-w-data only
    }
  }

  // ---- the core -----------------------------------------------------------------
  void drive_bus() {
    bool on = next_valid && (next.kind == K_LOAD || next.kind == K_STORE);
    bool reg = next_valid && (next.kind == K_REG_READ || next.kind == K_REG_WRITE);
    m.bus_req_valid_i = on;
    m.bus_req_we_i = next.kind == K_STORE;
    m.bus_req_be_i = next.be;
    m.bus_req_addr_i = next.addr;
    m.bus_req_wdata_i = next.wdata;
    m.reg_req_valid_i = reg;
    m.reg_req_we_i = next.kind == K_REG_WRITE;
    m.reg_req_be_i = next.be;
    m.reg_req_addr_i = next.addr & 0xfffu;
  }

  // The answer to the access in flight, this cycle.
  void answer(bool on_bus, uint32_t data, bool err) {
    const Op &op = out.op;
    bool from_bus = op.kind == K_LOAD || op.kind == K_STORE;
    if (on_bus != from_bus) violation("an answer on the other window than the access's");
    std::string what = fmt("%s %s", op.kind == K_LOAD ? "load" : op.kind == K_STORE ? "store" : "register", hex(op.addr).c_str());
    uint64_t lat = cycle - out.at;
    if (op.kind == K_LOAD) {
      if (out.hit && lat != 1) violation(fmt("%s hits but is answered %" PRIu64 " cycles after it was taken", what.c_str(), lat));
      if (must_read) violation(what + " is answered without reading its line");
      if (data != out.want || err != out.want_err)
        violation(fmt("%s: 0x%08" PRIx32 " err %d, expected 0x%08" PRIx32 " err %d%s", what.c_str(), data, err, out.want,
                      out.want_err, out.hit ? " (held by the cache)" : ""));
    } else if (op.kind == K_STORE) {
      if (may_write || !wreqs.empty() || !wdata.empty() || !b_off)
        violation(what + " is answered before its write response");
      if (err != last_write_err) violation(fmt("%s: err %d, the memory said %d", what.c_str(), err, last_write_err));
      if (!last_write_err) {
        for (uint32_t k = 0; k < 4; k++)
          if (op.be >> k & 1) ref.put((op.addr & ~3u) + k, (uint8_t)(op.wdata >> (8 * k)));
        model.store(op.addr, op.wdata, op.be);
      } else {
        model.drop(op.addr);
      }
    } else {
      if (lat != 1) violation(fmt("%s answered %" PRIu64 " cycles after it was taken", what.c_str(), lat));
      if ((op.kind == K_REG_READ && data != out.want) || err != out.want_err)
        violation(fmt("%s: 0x%08" PRIx32 " err %d, expected 0x%08" PRIx32 " err %d", what.c_str(), data, err, out.want,
                      out.want_err));
    }
    out.on = false;
  }

  // The access goes in: what the model expects of it.
  void take(const Op &op) {
    out = Out{};
    out.on = true;
    out.op = op;
    out.at = cycle;
    may_read = must_read = may_write = false;
    uint32_t a = op.addr & ~3u;
    switch (op.kind) {
      case K_LOAD: {
        loads++;
        uint32_t line = a & ~31u;
        out.hit = model.hit(a);
        // A load of a DRAM beat of a refill in flight whose line keeps no
        // valid (a beat failed) may be answered from the refill or refill
        // again: either reads the same bytes.
        out.either = !out.hit && part_on && line == part_line && Space::in_dram(a & ~7u);
        out.want = out.hit ? model.word(a) : ref.get32(a);
        out.want_err = !out.hit && !Space::in_dram(a & ~7u);
        if (out.hit) {
          hits++;
        } else {
          model.fill(a, ref);
          may_read = true, must_read = !out.either, read_line = line;
          part_on = !model.valid[model.idx(a)], part_line = line;
        }
        break;
      }
      case K_STORE:
        may_write = true;
        part_on = false;
        break;
      case K_REG_READ:
      case K_REG_WRITE: {
        part_on = false;
        uint32_t off = op.addr & 0xfffu;
        bool known = off == TSL_DCACHE_ID_OFFSET || off == TSL_DCACHE_LINES_OFFSET || off == TSL_DCACHE_INVAL_OFFSET;
        out.want_err = !known;
        out.want = 0;
        if (op.kind == K_REG_READ) {
          if (off == TSL_DCACHE_ID_OFFSET) out.want = IdValue;
          if (off == TSL_DCACHE_LINES_OFFSET) out.want = model.lines;
        } else if (off == TSL_DCACHE_INVAL_OFFSET && op.be != 0) {
          model.inval();
        }
        break;
      }
      default:
        std::abort();  // a bench bug: not an access
    }
  }

  // The script's next step, when its time has come: an access goes on the
  // bus; the other master's write and a reset happen when nothing is in flight.
  void feed() {
    while (!next_valid && !out.on && script && pos < script->size() && cycle >= ready_at) {
      const Op &op = (*script)[pos];
      if (op.kind == K_OTHER_WRITE || op.kind == K_RESET) {
        if (!port_idle()) return;
        if (op.kind == K_RESET) return;  // run() does it
        mem.put(op.addr, (uint8_t)op.wdata);
        ref.put(op.addr, (uint8_t)op.wdata);
        pos++;
        continue;
      }
      next = op, next_valid = true, next_since = cycle, pos++;
    }
  }

  // One clock cycle.
  void step() {
    // 1. the memory's responses, from its state alone
    if (!r_off && !reads.empty() && reads.front().due <= cycle && rng.p(t->r_rate)) {
      Burst &b = reads.front();
      uint32_t beat = b.line + 8 * b.next;
      r_data = b.snap ? b.data[b.next] : mem.get64(beat);
      r_err = !Space::in_dram(beat);
      r_last = b.next == 3;
      r_off = true;
    }
    if (!b_off && !bs.empty() && bs.front().due <= cycle && rng.p(t->b_rate)) b_off = true;
    m.m_r_valid_i = r_off;
    m.m_r_data_i = r_data;
    m.m_r_err_i = r_err;
    m.m_r_last_i = r_last;
    m.m_r_id_i = 0;
    m.m_b_valid_i = b_off;
    m.m_b_err_i = b_off && bs.front().err;
    m.m_b_id_i = 0;
    m.clk_i = 0;
    m.m_req_ready_i = 0;
    m.m_w_ready_i = 0;
    drive_bus();
    m.eval();

    // 2. the answer to the access in flight; the next access may go out in
    // the same cycle
    bool rsp_bus = m.bus_rsp_valid_o, rsp_reg = m.reg_rsp_valid_o;
    if (rsp_bus && rsp_reg) violation("answers on both windows at once");
    if (rsp_bus || rsp_reg) {
      if (!out.on) {
        violation("an answer with no access in flight");
      } else {
        answer(rsp_bus, rsp_bus ? (uint32_t)m.bus_rsp_rdata_o : (uint32_t)m.reg_rsp_rdata_o,
               rsp_bus ? (bool)m.bus_rsp_err_o : (bool)m.reg_rsp_err_o);
        ready_at = cycle + (script && pos < script->size() ? (*script)[pos].gap : 0);
      }
    }
    feed();
    drive_bus();
    m.eval();

    // 3. the cache's offers with both readies low, then with the memory's
    Offer o = offer();
    bool req_rdy = rng.p(t->req_ready);
    bool wreq_now = req_rdy && o.req_valid && o.req_write;
    bool w_rdy = rng.p(t->w_ready) && (t->w_early || !wreqs.empty() || wreq_now);
    m.m_req_ready_i = req_rdy;
    m.m_w_ready_i = w_rdy;
    m.eval();
    if (!(offer() == o)) violation("REQ or W valid/payload changes with req_ready/w_ready (rule 1)");
    if (req_held && (!o.req_valid || !o.same_req(prev)))
      violation("a request offered and not taken was withdrawn or changed (rule 2)");
    if (w_held && (!o.w_valid || !o.same_w(prev)))
      violation("write data offered and not taken was withdrawn or changed (rule 2)");
    if ((o.req_valid || o.w_valid) && !out.on && port_idle() && !req_held && !w_held && !may_read && !may_write)
      violation("the cache offers a request or data no access asked for");
    if (!m.m_r_ready_o || !m.m_b_ready_o) violation("r_ready or b_ready low");

    // 4. handshakes: the port's (a request before the data that may go
    // with it), the core's
    if (o.req_valid && req_rdy) take_request(o);
    if (o.w_valid && w_rdy) take_data(o);
    if (r_off) {
      r_off = false;
      if (++reads.front().next == 4) reads.pop_front();
    }
    if (b_off) b_off = false, bs.pop_front();
    req_held = o.req_valid && !req_rdy;
    w_held = o.w_valid && !w_rdy;
    prev = o;
    if (next_valid) {
      bool bus = next.kind == K_LOAD || next.kind == K_STORE;
      if (bus ? m.bus_req_ready_o : m.reg_req_ready_o) {
        take(next);
        next_valid = false;
      } else if (cycle - next_since > 5000) {
        violation(fmt("an access to %s waits 5000 cycles to be taken", hex(next.addr).c_str()));
        next_valid = false;
      }
    }

    // 5. the edge
    m.clk_i = 1;
    m.eval();
    cycle++;
  }

  // Resets the cache (synchronous: held over a few edges) and the model.
  void reset() {
    m.rst_ni = 0;
    for (int k = 0; k < 3; k++) {
      m.clk_i = 0;
      m.bus_req_valid_i = 0;
      m.reg_req_valid_i = 0;
      m.m_r_valid_i = 0;
      m.m_b_valid_i = 0;
      m.eval();
      m.clk_i = 1;
      m.eval();
      cycle++;
    }
    m.rst_ni = 1;
    m.clk_i = 0;
    m.eval();
    reads.clear(), wreqs.clear(), wdata.clear(), bs.clear();
    r_off = b_off = req_held = w_held = false;
    out = Out{};
    next_valid = false;
    may_read = must_read = may_write = part_on = false;
    model.reset(model.lines);
    if (m.m_req_valid_o || m.m_w_valid_o) violation("REQ or W valid after reset (rule 4)");
  }

  // Runs a script to its end: every access answered, the port idle. Then the
  // memories must agree.
  void run(const std::vector<Op> &s, Group &g) {
    script = &s;
    pos = 0;
    ready_at = cycle;
    uint64_t limit = cycle + 20000 + 2000 * (uint64_t)s.size();
    while ((pos < s.size() || next_valid || out.on || !port_idle()) && cycle < limit) {
      if (pos < s.size() && s[pos].kind == K_RESET && !next_valid && !out.on && port_idle()) {
        reset();
        pos++;
        continue;
      }
      step();
      if (!viol.empty()) break;
    }
    if (viol.empty() && cycle >= limit) violation("the script did not finish");
    if (viol.empty() && mem.b != ref.b) {
      size_t k = 0;
      while (mem.b[k] == ref.b[k]) k++;
      violation(fmt("memory byte 0x%08" PRIx32 ": 0x%02x, the model's 0x%02x", DramBase + (uint32_t)k, mem.b[k], ref.b[k]));
    }
    if (!viol.empty()) g.fail(viol[0]);
    viol.clear();
    mem.b = ref.b;  // the next script starts from equal memories
    if (!port_idle() || out.on || next_valid) reset();
    script = nullptr;
  }

  // ---- scripts --------------------------------------------------------------------
  uint32_t gap() { return rng.p(0.5) ? 0 : rng.below(4); }
  Op load(uint32_t a) { return {K_LOAD, a & ~3u, rng.below(16), 0, gap()}; }
  Op store(uint32_t a, uint32_t be, uint32_t v) { return {K_STORE, a, be, v, gap()}; }
  // A store of a random byte, half or word at a (aligned to its size).
  Op store_any(uint32_t a) {
    uint32_t be;
    switch (rng.below(3)) {
      case 0: be = 1u << (a & 3u); break;
      case 1: be = (a & 2u) ? 0xcu : 0x3u; break;
      default: be = 0xfu; break;
    }
    return store(a & ~3u, be, rng.u32());
  }
  Op reg_read(uint32_t off) { return {K_REG_READ, off, 0xf, 0, gap()}; }
  Op inval(uint32_t be = 0xf) { return {K_REG_WRITE, TSL_DCACHE_INVAL_OFFSET, be, rng.u32(), gap()}; }
  Op other_write(uint32_t a) { return {K_OTHER_WRITE, a, 0, rng.below(256), 0}; }
};

// Lines of DRAM the scripts use: some sharing an index with others.
std::vector<uint32_t> hot_lines(Bench &b, uint32_t n) {
  std::vector<uint32_t> v;
  uint32_t dram_lines = DramBytes / 32 - 1;  // not the half line
  while (v.size() < n) {
    uint32_t l = DramBase + 32 * b.rng.below(dram_lines);
    v.push_back(l);
    if (v.size() < n && b.rng.p(0.5)) {  // the same index, another tag
      uint32_t l2 = l + 32 * b.model.lines * (1 + b.rng.below(8));
      if (Space::in_dram(l2 + 31)) v.push_back(l2);
    }
  }
  return v;
}
uint32_t any_word(Bench &b, uint32_t line) { return line + 4 * b.rng.below(8); }

// ---- groups ------------------------------------------------------------------------
void group_registers(Bench &b, std::vector<Op> &s) {
  s.push_back(b.reg_read(TSL_DCACHE_ID_OFFSET));
  s.push_back(b.reg_read(TSL_DCACHE_LINES_OFFSET));
  s.push_back(b.reg_read(TSL_DCACHE_INVAL_OFFSET));
  s.push_back(b.reg_read(0x00c));
  s.push_back(b.reg_read(0xffc));
  s.push_back({K_REG_WRITE, 0x00c, 0xf, 1, 0});
  s.push_back({K_REG_WRITE, TSL_DCACHE_ID_OFFSET, 0xf, 0, 1});  // read-only: ignored
  s.push_back({K_REG_WRITE, TSL_DCACHE_LINES_OFFSET, 0xf, 0, 0});
  s.push_back(b.reg_read(TSL_DCACHE_ID_OFFSET));
  s.push_back(b.reg_read(TSL_DCACHE_LINES_OFFSET));
  // INVAL by a byte store, and by a store of no bytes (which does nothing)
  uint32_t l = hot_lines(b, 1)[0];
  s.push_back(b.load(l));
  s.push_back(b.inval(0x2));
  s.push_back(b.other_write(l));
  s.push_back(b.load(l));
  s.push_back(b.inval(0x0));
  s.push_back(b.other_write(l));
  s.push_back(b.load(l));
}

void group_hits(Bench &b, std::vector<Op> &s) {
  std::vector<uint32_t> lines;
  uint32_t first = DramBase + 32 * b.rng.below(64);
  for (uint32_t k = 0; k < b.model.lines; k++) lines.push_back(first + 32 * k);  // one per index
  for (int pass = 0; pass < 3; pass++)
    for (uint32_t l : lines)
      for (uint32_t w = 0; w < 8; w++) s.push_back(b.load(l + 4 * w));
}

void group_conflicts(Bench &b, std::vector<Op> &s) {
  uint32_t l = DramBase + 32 * b.rng.below(64), stride = 32 * b.model.lines;
  for (int k = 0; k < 60; k++) s.push_back(b.load(any_word(b, l + stride * b.rng.below(3))));
}

void group_stores(Bench &b, std::vector<Op> &s) {
  std::vector<uint32_t> lines = hot_lines(b, 8);
  for (int k = 0; k < 150; k++) {
    uint32_t a = any_word(b, lines[b.rng.below((uint32_t)lines.size())]) + b.rng.below(4);
    s.push_back(b.rng.p(0.5) ? b.store_any(a) : b.load(a));
  }
}

void group_errors(Bench &b, std::vector<Op> &s) {
  for (int k = 0; k < 80; k++) {
    uint32_t pick = b.rng.below(4);
    uint32_t a = pick == 0 ? any_word(b, BadLine) : pick == 1 ? any_word(b, hot_lines(b, 1)[0]) : any_word(b, HalfLine);
    s.push_back(b.rng.p(0.3) ? b.store_any(a) : b.load(a));
  }
}

void group_invalidate(Bench &b, std::vector<Op> &s) {
  std::vector<uint32_t> lines = hot_lines(b, 6);
  for (int k = 0; k < 120; k++) {
    uint32_t a = any_word(b, lines[b.rng.below((uint32_t)lines.size())]);
    uint32_t r = b.rng.below(10);
    if (r < 2)
      s.push_back(b.other_write(a + b.rng.below(4)));
    else if (r < 3)
      s.push_back(b.inval());
    else
      s.push_back(b.load(a));
  }
}

// A load that misses, then in the very cycle it is answered (its beat, the
// refill's first when it asks for beat 0) a store into the same line, or a
// load of the same line or of a line held.
void group_race(Bench &b, std::vector<Op> &s) {
  std::vector<uint32_t> lines = hot_lines(b, 4);
  for (uint32_t l : lines) s.push_back(b.load(l));  // held
  for (int k = 0; k < 40; k++) {
    uint32_t l = DramBase + 32 * b.rng.below(DramBytes / 32 - 1);
    s.push_back(b.inval());
    for (uint32_t h : lines) s.push_back(b.load(h));
    Op miss = b.load(l + 4 * b.rng.below(2));
    s.push_back(miss);
    Op next;
    switch (b.rng.below(4)) {
      case 0: next = b.store_any(miss.addr); break;                     // the same word
      case 1: next = b.store_any(l + 8 + 4 * b.rng.below(6)); break;   // a beat still to come
      case 2: next = b.load(l + 4 * b.rng.below(8)); break;             // the line, arrived or not
      default: next = b.load(lines[b.rng.below(4)]); break;             // a line held
    }
    next.gap = 0;
    s.push_back(next);
    for (int w = 0; w < 4; w++) s.push_back(b.load(l + 8 * w));
  }
}

void group_random(Bench &b, std::vector<Op> &s, int n) {
  std::vector<uint32_t> lines = hot_lines(b, 3 * b.model.lines / 2 + 2);
  lines.push_back(HalfLine);
  lines.push_back(BadLine);
  for (int k = 0; k < n; k++) {
    uint32_t a = any_word(b, lines[b.rng.below((uint32_t)lines.size())]) + b.rng.below(4);
    uint32_t r = b.rng.below(100);
    if (r < 55)
      s.push_back(b.load(a));
    else if (r < 80)
      s.push_back(b.store_any(a));
    else if (r < 88)
      s.push_back(b.other_write(a));
    else if (r < 93)
      s.push_back(b.inval());
    else if (r < 97)
      s.push_back(b.reg_read(4 * b.rng.below(5)));
    else if (r < 99)
      s.push_back(b.load(any_word(b, DramBase + 32 * b.rng.below(DramBytes / 32 - 1))));
    else
      s.push_back({K_RESET, 0, 0, 0, 0});
  }
}

}  // namespace

int main(int argc, char **argv) {
  uint32_t seed = argc > 1 ? (uint32_t)std::strtoul(argv[1], nullptr, 0) : 1u;
  auto ctx = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vdcache_tb>(ctx.get());
  Bench b(*dut, seed);
  for (uint32_t k = 0; k < SpaceBytes; k++) b.mem.b[k] = b.ref.b[k] = (uint8_t)b.rng.u32();
  b.model.lines = 1;  // until LINES is read
  b.reset();
  {  // the cache's size, as the firmware would learn it
    b.m.reg_req_valid_i = 1, b.m.reg_req_we_i = 0, b.m.reg_req_addr_i = TSL_DCACHE_LINES_OFFSET;
    b.m.clk_i = 0, b.m.eval(), b.m.clk_i = 1, b.m.eval(), b.m.clk_i = 0;
    b.m.reg_req_valid_i = 0, b.m.eval();
    b.model.reset(b.m.reg_rsp_rdata_o);
    if (b.model.lines < 2 || (b.model.lines & (b.model.lines - 1))) {
      std::printf("FAIL LINES reads %u\n0 passed, 1 failed\n", b.model.lines);
      return 1;
    }
  }
  std::printf("dcache bench: %u lines, seed %u\n", b.model.lines, seed);

  using Fill = void (*)(Bench &, std::vector<Op> &);
  struct {
    const char *name;
    Fill fill;
    double write_fail;
  } groups[] = {
      {"registers", group_registers, 0},
      {"hits", group_hits, 0},
      {"conflicts", group_conflicts, 0},
      {"stores", group_stores, 0},
      {"bus-errors", group_errors, 0},
      {"invalidate", group_invalidate, 0},
      {"refill-vs-store", group_race, 0},
      {"write-errors", group_stores, 0.3},
      {"random", [](Bench &bb, std::vector<Op> &s) { group_random(bb, s, 3000); }, 0},
      {"random-write-errors", [](Bench &bb, std::vector<Op> &s) { group_random(bb, s, 1000); }, 0.1},
  };
  int passed = 0, failed = 0;
  for (const auto &gr : groups) {
    for (const Timing &tm : timings) {
      Group g;
      g.name = std::string(gr.name) + "/" + tm.name;
      b.t = &tm;
      b.write_fail = gr.write_fail;
      b.reset();
      for (int rep = 0; rep < 4 && g.fails == 0; rep++) {
        std::vector<Op> s;
        gr.fill(b, s);
        b.run(s, g);
      }
      if (g.fails == 0) {
        std::printf("PASS %s\n", g.name.c_str());
        passed++;
      } else {
        std::printf("FAIL %s: %s\n", g.name.c_str(), g.first.c_str());
        failed++;
      }
    }
  }
  // every group but the first must have hit and missed
  std::printf("(%" PRIu64 " loads, %" PRIu64 " answered from the cache, %" PRIu64 " refills)\n", b.loads, b.hits,
              b.bursts);
  if (b.hits == 0 || b.bursts == 0) {
    std::printf("FAIL the cache neither hit nor refilled\n");
    failed++;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
