// memport_bench.cpp: Verilator bench of the memory-port path (arbiter with
// three masters + the SoC's register slice, memport_tb_top.sv) against
// docs/memory-port.md.
//
// C++ masters issue random read and write bursts (1..64 beats, random ids,
// some to addresses the memory lacks) with random valid gaps and ready
// stalls; W beats may be offered before their request is granted. A C++
// memory answers with random stalls and reorders bursts across ids. The
// bench checks every beat's data, id, last and err flags, same-id ordering,
// that the port holds offered items stable, that W never precedes its
// request, and that bursts do not cross 4 KiB. Each configuration is one
// test; the output ends with "N passed, N failed". An optional argument
// prefixes the test names (the RTL configuration).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vmemport_tb_top.h"
#include "verilated.h"

namespace {

constexpr int N = 3;                       // masters
constexpr uint32_t Base = 0x80000000u;     // memory the slave has
constexpr uint32_t Region = 1u << 16;      // bytes per master
constexpr uint32_t BadBase = 0x90000000u;  // the slave answers err here
constexpr unsigned MaxOutstanding = 8;     // per master

struct Config {
  const char *name;
  uint32_t seed;
  double issue, w_rate, r_ready, b_ready;    // masters
  double req_ready, w_ready, r_rate, b_rate; // memory
  bool writes, reads;
};

struct Rng {
  std::mt19937 g;
  explicit Rng(uint32_t s) : g(s) {}
  uint32_t u(uint32_t n) { return g() % n; }
  bool p(double x) { return double(g() & 0xffffff) < x * double(0x1000000); }
};

struct Burst {
  bool write = false, bad = false;
  uint32_t addr = 0, beats = 0, id = 0, done = 0;
  std::vector<uint64_t> data;  // write data, or expected read data
  std::vector<uint8_t> strb;
};

int errors = 0;
void error(const std::string &m) {
  if (errors++ < 10) std::printf("  error: %s\n", m.c_str());
}

// One master: random traffic into its own region.
struct Master {
  int idx;
  std::vector<uint8_t> shadow = std::vector<uint8_t>(Region, 0);
  bool req_offered = false, w_offered = false;
  Burst cur;                                 // offered request
  std::deque<Burst> wq;                      // writes whose data is not all sent
  std::map<uint32_t, std::deque<Burst>> rd, wr;
  unsigned outstanding = 0;
  uint64_t completed = 0;
  bool r_ready = false, b_ready = false;

  bool overlaps(uint32_t a, uint32_t n) const {
    auto hit = [&](const Burst &b) { return a < b.addr + 8 * b.beats && b.addr < a + n; };
    for (auto &kv : rd) for (auto &b : kv.second) if (hit(b)) return true;
    for (auto &kv : wr) for (auto &b : kv.second) if (hit(b)) return true;
    for (auto &b : wq) if (hit(b)) return true;
    return req_offered && hit(cur);
  }

  void maybe_issue(Rng &r, const Config &c) {
    if (req_offered || outstanding >= MaxOutstanding || !r.p(c.issue)) return;
    Burst b;
    b.write = c.writes && (!c.reads || r.p(0.5));
    uint32_t k = r.u(100);
    b.beats = k < 70 ? 1 + r.u(4) : k < 95 ? 1 + r.u(16) : 1 + r.u(64);
    b.id = r.u(4);
    b.bad = r.p(0.03);
    uint32_t off = r.u(Region / 8) * 8;
    // Keep the burst inside its 4 KiB page and the region.
    uint32_t page_left = (4096 - (off & 4095)) / 8;
    if (b.beats > page_left) b.beats = page_left;
    uint32_t base = b.bad ? BadBase : Base + uint32_t(idx) * Region;
    if (!b.bad && overlaps(base + off, 8 * b.beats)) return;
    b.addr = base + off;
    b.data.resize(b.beats);
    b.strb.resize(b.beats);
    for (uint32_t i = 0; i < b.beats; i++) {
      if (b.write) {
        b.data[i] = (uint64_t(r.g()) << 32) | r.g();
        b.strb[i] = r.p(0.7) ? 0xff : uint8_t(r.g());
        if (!b.bad)
          for (int j = 0; j < 8; j++)
            if (b.strb[i] >> j & 1) shadow[off + 8 * i + j] = uint8_t(b.data[i] >> (8 * j));
      } else if (!b.bad) {
        std::memcpy(&b.data[i], &shadow[off + 8 * i], 8);
      }
    }
    cur = b;
    req_offered = true;
    outstanding++;
    if (b.write) wq.push_back(b);  // data may be offered before the grant
  }

  void drive(Vmemport_tb_top *t, Rng &r, const Config &c) {
    uint32_t m = uint32_t(idx);
    auto setbit = [m](auto &v, bool on) { v = on ? (v | (1u << m)) : (v & ~(1u << m)); };
    setbit(t->m_req_valid_i, req_offered);
    setbit(t->m_req_write_i, cur.write);
    t->m_req_addr_i[m] = cur.addr;
    t->m_req_len_i = (t->m_req_len_i & ~(0xffu << (8 * m))) | ((cur.beats - 1) & 0xff) << (8 * m);
    t->m_req_id_i = (t->m_req_id_i & ~(0xfu << (4 * m))) | (cur.id << (4 * m));
    if (!w_offered && !wq.empty() && r.p(c.w_rate)) w_offered = true;
    setbit(t->m_w_valid_i, w_offered);
    if (w_offered) {
      const Burst &b = wq.front();
      t->m_w_data_i[2 * m] = uint32_t(b.data[b.done]);
      t->m_w_data_i[2 * m + 1] = uint32_t(b.data[b.done] >> 32);
      t->m_w_strb_i = (t->m_w_strb_i & ~(0xffu << (8 * m))) | uint32_t(b.strb[b.done]) << (8 * m);
      setbit(t->m_w_last_i, b.done + 1 == b.beats);
    }
    r_ready = r.p(c.r_ready);
    b_ready = r.p(c.b_ready);
    setbit(t->m_r_ready_i, r_ready);
    setbit(t->m_b_ready_i, b_ready);
  }

  // Handshakes at the coming edge.
  void observe(Vmemport_tb_top *t) {
    uint32_t m = uint32_t(idx);
    char msg[200];
    if (req_offered && (t->m_req_ready_o >> m & 1)) {
      req_offered = false;
      (cur.write ? wr : rd)[cur.id].push_back(cur);
    }
    if (w_offered && (t->m_w_ready_o >> m & 1)) {
      w_offered = false;
      Burst &b = wq.front();
      if (++b.done == b.beats) wq.pop_front();
    }
    if ((t->m_r_valid_o >> m & 1) && r_ready) {
      uint32_t id = t->m_r_id_o;
      auto &q = rd[id];
      if (q.empty()) {
        std::snprintf(msg, sizeof msg, "master %u: read beat for id %u with no read in flight", m, id);
        error(msg);
      } else {
        Burst &b = q.front();
        uint64_t got = t->m_r_data_o;
        bool last = t->m_r_last_o, err = t->m_r_err_o;
        if (err != b.bad || (!b.bad && got != b.data[b.done]) || last != (b.done + 1 == b.beats)) {
          std::snprintf(msg, sizeof msg,
                        "master %u id %u read 0x%08x beat %u/%u: data %016llx err %d last %d, "
                        "expected %016llx err %d last %d",
                        m, id, b.addr, b.done, b.beats, (unsigned long long)got, err, last,
                        (unsigned long long)(b.bad ? 0 : b.data[b.done]), b.bad,
                        b.done + 1 == b.beats);
          error(msg);
        }
        if (++b.done == b.beats) {
          q.pop_front();
          outstanding--;
          completed++;
        }
      }
    }
    if ((t->m_b_valid_o >> m & 1) && b_ready) {
      uint32_t id = t->m_b_id_o;
      auto &q = wr[id];
      if (q.empty()) {
        std::snprintf(msg, sizeof msg, "master %u: write response for id %u with no write in flight", m, id);
        error(msg);
      } else {
        if (t->m_b_err_o != q.front().bad) {
          std::snprintf(msg, sizeof msg, "master %u id %u write 0x%08x: err %d", m, id,
                        q.front().addr, t->m_b_err_o);
          error(msg);
        }
        q.pop_front();
        outstanding--;
        completed++;
      }
    }
  }
};

// The memory at the port: random stalls, bursts reordered across ids.
struct Memory {
  std::vector<uint8_t> mem = std::vector<uint8_t>(N * Region, 0);
  std::vector<Burst> reads;         // accepted, in order
  std::deque<Burst> wdata;          // writes awaiting data, in order
  std::vector<Burst> wdone;         // writes awaiting B, in order
  int serving = -1;                 // index in reads of the burst on R
  bool r_offered = false, b_offered = false;
  size_t b_pick = 0;
  bool req_ready = false, w_ready = false;
  // What the port offered last cycle without a transfer (must hold).
  bool req_held = false, w_held = false;
  uint64_t req_prev[4] = {}, w_prev[3] = {};

  bool has(uint32_t a) const { return a >= Base && a - Base < N * Region; }

  // Oldest burst of a random id among those waiting.
  int pick_oldest(Rng &r, const std::vector<Burst> &v) {
    std::vector<int> cands;
    std::map<uint32_t, bool> seen;
    for (size_t i = 0; i < v.size(); i++)
      if (!seen[v[i].id]) { seen[v[i].id] = true; cands.push_back(int(i)); }
    return cands.empty() ? -1 : cands[r.u(uint32_t(cands.size()))];
  }

  void drive(Vmemport_tb_top *t, Rng &r, const Config &c) {
    req_ready = r.p(c.req_ready);
    w_ready = r.p(c.w_ready);
    t->s_req_ready_i = req_ready;
    t->s_w_ready_i = w_ready;
    if (!r_offered) {
      if (serving < 0 && r.p(c.r_rate)) serving = pick_oldest(r, reads);
      if (serving >= 0 && r.p(c.r_rate)) {
        Burst &b = reads[size_t(serving)];
        uint32_t a = b.addr + 8 * b.done;
        uint64_t d = 0;
        if (has(a)) std::memcpy(&d, &mem[a - Base], 8);
        t->s_r_data_i = d;
        t->s_r_id_i = b.id;
        t->s_r_last_i = b.done + 1 == b.beats;
        t->s_r_err_i = !has(a);
        r_offered = true;
      }
    }
    t->s_r_valid_i = r_offered;
    if (!b_offered && !wdone.empty() && r.p(c.b_rate)) {
      b_pick = size_t(pick_oldest(r, wdone));
      t->s_b_id_i = wdone[b_pick].id;
      t->s_b_err_i = wdone[b_pick].bad;
      b_offered = true;
    }
    t->s_b_valid_i = b_offered;
  }

  void observe(Vmemport_tb_top *t) {
    char msg[200];
    // Offered items stay unchanged until taken (rule 2).
    uint64_t req_now[4] = {t->s_req_write_o, t->s_req_addr_o, t->s_req_len_o, t->s_req_id_o};
    uint64_t w_now[3] = {t->s_w_data_o, t->s_w_strb_o, t->s_w_last_o};
    if (req_held && (!t->s_req_valid_o || std::memcmp(req_now, req_prev, sizeof req_now)))
      error("port: an offered request changed or was withdrawn before it was taken");
    if (w_held && (!t->s_w_valid_o || std::memcmp(w_now, w_prev, sizeof w_now)))
      error("port: offered write data changed or was withdrawn before it was taken");
    req_held = t->s_req_valid_o && !req_ready;
    w_held = t->s_w_valid_o && !w_ready;
    std::memcpy(req_prev, req_now, sizeof req_now);
    std::memcpy(w_prev, w_now, sizeof w_now);

    if (t->s_r_ready_o && r_offered) {
      r_offered = false;
      Burst &b = reads[size_t(serving)];
      if (++b.done == b.beats) {
        reads.erase(reads.begin() + serving);
        serving = -1;
      }
    }
    if (t->s_b_ready_o && b_offered) {
      b_offered = false;
      wdone.erase(wdone.begin() + long(b_pick));
    }
    if (t->s_w_valid_o && w_ready) {
      if (wdata.empty()) {
        error("port: write data before its request");
      } else {
        Burst &b = wdata.front();
        uint32_t a = b.addr + 8 * b.done;
        if (has(a)) {
          for (int j = 0; j < 8; j++)
            if (t->s_w_strb_o >> j & 1) mem[a - Base + j] = uint8_t(t->s_w_data_o >> (8 * j));
        } else {
          b.bad = true;
        }
        bool last = ++b.done == b.beats;
        if (last != bool(t->s_w_last_o)) {
          std::snprintf(msg, sizeof msg, "port: write 0x%08x beat %u/%u: last %d", b.addr, b.done,
                        b.beats, t->s_w_last_o);
          error(msg);
        }
        if (last) {
          wdone.push_back(b);
          wdata.pop_front();
        }
      }
    }
    if (t->s_req_valid_o && req_ready) {
      Burst b;
      b.write = t->s_req_write_o;
      b.addr = t->s_req_addr_o & ~7u;
      b.beats = t->s_req_len_o + 1u;
      b.id = t->s_req_id_o;
      b.bad = !has(b.addr);
      if ((b.addr >> 12) != ((b.addr + 8 * b.beats - 1) >> 12)) {
        std::snprintf(msg, sizeof msg, "port: burst 0x%08x x%u crosses 4 KiB", b.addr, b.beats);
        error(msg);
      }
      (b.write ? (void)wdata.push_back(b) : reads.push_back(b));
    }
  }
};

const char *label = "";  // names the configuration of the RTL under test

bool run(const Config &c, uint64_t cycles) {
  errors = 0;
  Rng r(c.seed);
  auto t = std::make_unique<Vmemport_tb_top>();
  Master ms[N];
  for (int i = 0; i < N; i++) ms[i].idx = i;
  Memory mem;
  t->rst_ni = 0;
  for (int i = 0; i < 4; i++) {
    t->clk_i = 0; t->eval();
    t->clk_i = 1; t->eval();
  }
  t->rst_ni = 1;
  uint64_t cyc = 0, limit = cycles * 4;
  for (; cyc < limit; cyc++) {
    bool issuing = cyc < cycles;
    bool idle = true;
    for (auto &m : ms) {
      if (issuing) m.maybe_issue(r, c);
      m.drive(t.get(), r, c);
      if (m.outstanding) idle = false;
    }
    if (!issuing && idle) break;
    mem.drive(t.get(), r, c);
    t->clk_i = 0;
    t->eval();
    for (auto &m : ms) m.observe(t.get());
    mem.observe(t.get());
    t->clk_i = 1;
    t->eval();
    if (errors > 10) break;
  }
  uint64_t done = 0;
  for (auto &m : ms) {
    done += m.completed;
    if (m.outstanding) {
      char msg[100];
      std::snprintf(msg, sizeof msg, "master %d: %u bursts never completed", m.idx, m.outstanding);
      error(msg);
    }
    if (m.completed < 50) {
      char msg[100];
      std::snprintf(msg, sizeof msg, "master %d completed only %llu bursts", m.idx,
                    (unsigned long long)m.completed);
      error(msg);
    }
  }
  std::printf("%s %s%s: %llu bursts in %llu cycles\n", errors ? "FAIL" : "PASS", label, c.name,
              (unsigned long long)done, (unsigned long long)cyc);
  return errors == 0;
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  if (argc > 1) label = argv[1];
  const Config configs[] = {
      // name              seed issue w    r_rdy b_rdy req  w    r    b    writes reads
      {"no-stalls",          1, 0.6, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, true, true},
      {"random-stalls",      2, 0.5, 0.6, 0.6, 0.6, 0.5, 0.5, 0.6, 0.6, true, true},
      {"heavy-stalls",       3, 0.9, 0.3, 0.3, 0.2, 0.2, 0.3, 0.3, 0.2, true, true},
      {"slow-memory",        4, 0.9, 0.9, 0.9, 0.9, 0.1, 0.1, 0.2, 0.1, true, true},
      {"reads-only",         5, 0.7, 0.5, 0.5, 0.5, 0.7, 0.7, 0.7, 0.7, false, true},
      {"writes-only",        6, 0.7, 0.5, 0.5, 0.5, 0.7, 0.7, 0.7, 0.7, true, false},
      {"masters-stall-rsp",  7, 0.8, 0.8, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9, true, true},
  };
  int pass = 0, fail = 0;
  for (const Config &c : configs) (run(c, 40000) ? pass : fail)++;
  std::printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}
