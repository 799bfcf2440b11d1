// core_tb: standalone Verilator bench for tessel_core with ideal memories.
//
// Runs flat RISC-V binaries (loaded at address 0, boot address 0) on the core
// under several memory timings, so the same program proves the core on TCM-like
// memory (ready always, response next cycle) and on slow, stalling memory like
// DRAM. Each program reports its own result through the bench's EXIT register.
//
//   core_tb [--config ideal|random|slow|jitter|all] [--timing READY%,MIN,MAX]
//           [--seed N] [--max-cycles N] [--same-trace] [--cpi] [--label S]
//           [--trace-commits F] PROG.bin...
//
// --timing runs one custom timing instead of the named ones: ready is high in
// READY% of cycles, and responses come MIN..MAX cycles after acceptance.
//
// --same-trace: the commit trace (pc, insn, register write) must be identical
// under every memory timing (for programs that read no timing-dependent state).
// --cpi: run with ideal memories and print cycles/instructions between the
// program's first two writes to MARK.
//
// Bench address map (not the SoC's):
//   0x0000_0000 .. 0x000F_FFFF  RAM (both buses)
//   0x2000_0000  PUTC   W  byte to stdout
//   0x2000_0004  EXIT   W  0 = pass, else the number of the failing check
//   0x2000_0008  IRQ    RW bit 0 timer line, bit 1 external line
//   0x2000_000C  IRQ_AT W  bits 15:0 a delay in cycles, bits 17:16 lines to raise then
//   0x2000_0010  MARK   W  records cycles and retired instructions (for --cpi)
//   anything else answers with a bus error (access fault)
#include "Vtessel_core.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kRamBytes = 1u << 20;
constexpr uint32_t kMmioBase = 0x20000000u;
constexpr uint32_t kPutc = kMmioBase + 0x0, kExit = kMmioBase + 0x4, kIrq = kMmioBase + 0x8,
                   kIrqAt = kMmioBase + 0xC, kMark = kMmioBase + 0x10;

// Memory timing of one run.
struct Timing {
  const char *name;
  int ready_pct;   // chance in percent that ready is high in a cycle
  int lat_min;     // response latency in cycles after acceptance (>= 1)
  int lat_max;
};
const Timing kTimings[] = {
    {"ideal", 100, 1, 1},   // TCM: ready always, response next cycle
    {"random", 60, 1, 6},   // random stalls and latencies
    {"slow", 50, 12, 20},   // DRAM-like: tens of cycles per access
    {"jitter", 90, 1, 3},   // nearly TCM: occasional stalls and late responses
};

struct Rng {
  uint64_t s;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (uint32_t)(s >> 11);
  }
  int range(int lo, int hi) { return lo + (int)(next() % (uint32_t)(hi - lo + 1)); }
};

struct Rsp {
  uint64_t due;
  uint32_t data;
  bool err;
};

// A bus side: pending responses, in order, one per cycle at most.
struct Port {
  std::deque<Rsp> q;
  uint64_t last_due = 0;
  // request seen waiting last cycle (for the stability check)
  bool waiting = false;
  uint32_t w_addr = 0, w_wdata = 0, w_be = 0, w_we = 0;
  void push(uint64_t now, int lat, uint32_t data, bool err) {
    uint64_t due = now + (uint64_t)lat;
    if (due <= last_due) due = last_due + 1;
    last_due = due;
    q.push_back({due, data, err});
  }
};

struct Result {
  bool ok = false;
  std::string why;
  uint64_t cycles = 0, insns = 0;
  uint64_t trace_hash = 0;
  uint64_t mark_cycles[2] = {0, 0}, mark_insns[2] = {0, 0};
  int marks = 0;
};

struct Options {
  std::string config = "all";
  bool custom = false;
  Timing custom_timing = {"custom", 100, 1, 1};
  uint64_t seed = 1;
  uint64_t max_cycles = 2000000;
  bool same_trace = false;
  bool cpi = false;
  std::string label = "core";
  const char *trace_path = nullptr;
};

bool load_file(const char *path, std::vector<uint8_t> &ram, std::string &err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    err = std::string(path) + ": cannot open: " + strerror(errno);
    return false;
  }
  size_t n = fread(ram.data(), 1, ram.size(), f);
  bool too_big = (n == ram.size() && fgetc(f) != EOF);
  fclose(f);
  if (n == 0 || too_big) {
    err = std::string(path) + (n == 0 ? ": empty file" : ": larger than the bench RAM (1 MiB)");
    return false;
  }
  return true;
}

uint32_t rd32(const std::vector<uint8_t> &ram, uint32_t a) {
  uint32_t v;
  memcpy(&v, &ram[a], 4);
  return v;
}

Result run(const std::vector<uint8_t> &image, const Timing &t, const Options &o, FILE *trace) {
  Result r;
  std::vector<uint8_t> ram = image;
  Rng rng{o.seed * 0x9E3779B97F4A7C15ull + 12345};
  auto ctx = std::make_unique<VerilatedContext>();
  auto core = std::make_unique<Vtessel_core>(ctx.get());
  Port ib, db;
  uint32_t irq = 0;
  uint64_t irq_at = 0;
  uint32_t irq_at_lines = 0;
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the commit trace
  auto mix = [&h](uint32_t v) {
    for (int i = 0; i < 4; i++) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };

  core->boot_addr_i = 0;
  core->rst_ni = 0;
  core->ibus_req_ready_i = 0;
  core->dbus_req_ready_i = 0;
  core->ibus_rsp_valid_i = 0;
  core->dbus_rsp_valid_i = 0;
  core->irq_timer_i = 0;
  core->irq_external_i = 0;
  for (int i = 0; i < 4; i++) {
    core->clk_i = 0;
    core->eval();
    core->clk_i = 1;
    core->eval();
  }
  core->rst_ni = 1;

  uint64_t now = 0;
  bool exited = false;
  uint32_t exit_code = 0;
  for (; now < o.max_cycles && !exited; now++) {
    if (irq_at && now >= irq_at) {
      irq |= irq_at_lines;
      irq_at = 0;
    }
    // 1. inputs of this cycle
    bool ib_rsp = !ib.q.empty() && ib.q.front().due <= now;
    bool db_rsp = !db.q.empty() && db.q.front().due <= now;
    core->ibus_rsp_valid_i = ib_rsp;
    core->ibus_rsp_rdata_i = ib_rsp ? ib.q.front().data : 0xdeadbeef;
    core->ibus_rsp_err_i = ib_rsp && ib.q.front().err;
    core->dbus_rsp_valid_i = db_rsp;
    core->dbus_rsp_rdata_i = db_rsp ? db.q.front().data : 0xdeadbeef;
    core->dbus_rsp_err_i = db_rsp && db.q.front().err;
    core->ibus_req_ready_i = (int)(rng.next() % 100) < t.ready_pct;
    core->dbus_req_ready_i = (int)(rng.next() % 100) < t.ready_pct;
    core->irq_timer_i = irq & 1;
    core->irq_external_i = (irq >> 1) & 1;
    core->clk_i = 0;
    core->eval();

    // 2. protocol checks: a waiting request may not change or vanish
    if (ib.waiting && (!core->ibus_req_valid_o || core->ibus_req_addr_o != ib.w_addr)) {
      r.why = "ibus request changed or retracted while waiting for ready";
      break;
    }
    if (db.waiting && (!core->dbus_req_valid_o || core->dbus_req_addr_o != db.w_addr ||
                       core->dbus_req_we_o != db.w_we || core->dbus_req_be_o != db.w_be ||
                       (core->dbus_req_we_o && core->dbus_req_wdata_o != db.w_wdata))) {
      r.why = "dbus request changed or retracted while waiting for ready";
      break;
    }
    ib.waiting = core->ibus_req_valid_o && !core->ibus_req_ready_i;
    ib.w_addr = core->ibus_req_addr_o;
    db.waiting = core->dbus_req_valid_o && !core->dbus_req_ready_i;
    db.w_addr = core->dbus_req_addr_o;
    db.w_we = core->dbus_req_we_o;
    db.w_be = core->dbus_req_be_o;
    db.w_wdata = core->dbus_req_wdata_o;

    // 3. accepted requests
    if (core->ibus_req_valid_o && core->ibus_req_ready_i) {
      uint32_t a = core->ibus_req_addr_o;
      bool ok = a < kRamBytes && (a & 3) == 0;
      if ((a & 3) != 0) {
        r.why = "misaligned fetch address";
        break;
      }
      ib.push(now, rng.range(t.lat_min, t.lat_max), ok ? rd32(ram, a) : 0, !ok);
    }
    if (core->dbus_req_valid_o && core->dbus_req_ready_i) {
      uint32_t a = core->dbus_req_addr_o, be = core->dbus_req_be_o;
      uint32_t wd = core->dbus_req_wdata_o;
      bool we = core->dbus_req_we_o;
      // the core issues only naturally aligned accesses with matching lanes
      bool lanes_ok = be == 0xf ? (a & 3) == 0
                    : (be == 0x3 || be == 0xc) ? (a & 1) == 0 && ((be == 0xc) == ((a & 2) != 0))
                    : (be == 1u << (a & 3));
      if (!lanes_ok) {
        r.why = "dbus byte enables do not match the address";
        break;
      }
      uint32_t word = a & ~3u, rdata = 0;
      bool err = false;
      if (word < kRamBytes) {
        if (we) {
          for (int i = 0; i < 4; i++)
            if (be >> i & 1) ram[word + i] = (uint8_t)(wd >> (8 * i));
        }
        rdata = rd32(ram, word);
      } else if (word == kPutc && we) {
        putchar((int)(wd & 0xff));
      } else if (word == kExit && we) {
        exited = true;
        exit_code = wd;
      } else if (word == kIrq) {
        if (we) irq = wd & 3;
        rdata = irq;
      } else if (word == kIrqAt && we) {
        irq_at = now + (wd & 0xffff);
        irq_at_lines = (wd >> 16) & 3;
      } else if (word == kMark && we) {
        if (r.marks < 2) {
          r.mark_cycles[r.marks] = now;
          r.mark_insns[r.marks] = r.insns;
        }
        r.marks++;
      } else {
        err = true;
      }
      db.push(now, rng.range(t.lat_min, t.lat_max), rdata, err);
    }

    // 4. retirement
    if (core->commit_valid_o) {
      r.insns++;
      mix(core->commit_pc_o);
      mix(core->commit_insn_o);
      if (core->commit_rd_we_o) {
        mix(core->commit_rd_o);
        mix(core->commit_rd_wdata_o);
      }
      if (trace) {
        fprintf(trace, "%08x %08x", core->commit_pc_o, core->commit_insn_o);
        if (core->commit_rd_we_o)
          fprintf(trace, " x%d=%08x", core->commit_rd_o, core->commit_rd_wdata_o);
        fputc('\n', trace);
      }
    }

    // 5. clock edge; delivered responses leave their queues
    core->clk_i = 1;
    core->eval();
    if (ib_rsp) ib.q.pop_front();
    if (db_rsp) db.q.pop_front();
  }
  core->final();
  r.cycles = now;
  r.trace_hash = h;
  if (r.why.empty()) {
    if (!exited)
      r.why = "no EXIT after " + std::to_string(o.max_cycles) + " cycles";
    else if (exit_code != 0)
      r.why = "program reported failure of check " + std::to_string(exit_code);
    else
      r.ok = true;
  }
  return r;
}

void usage() {
  fprintf(stderr,
          "usage: core_tb [--config ideal|random|slow|jitter|all] [--timing READY%%,MIN,MAX]\n"
          "               [--seed N] [--max-cycles N] [--same-trace] [--cpi] [--label S]\n"
          "               [--trace-commits F] PROG.bin...\n");
}

bool parse_u64(const char *s, uint64_t &v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (errno || end == s || *end) return false;
  v = x;
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  std::vector<const char *> progs;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto need = [&](const char *what) -> const char * {
      if (i + 1 >= argc) {
        fprintf(stderr, "core_tb: %s needs a value\n", what);
        usage();
        exit(2);
      }
      return argv[++i];
    };
    if (a == "--config") {
      o.config = need("--config");
    } else if (a == "--seed" || a == "--max-cycles") {
      const char *v = need(a.c_str());
      if (!parse_u64(v, a == "--seed" ? o.seed : o.max_cycles)) {
        fprintf(stderr, "core_tb: %s: '%s' is not a number\n", a.c_str(), v);
        return 2;
      }
    } else if (a == "--timing") {
      const char *v = need("--timing");
      int ready, lo, hi;
      char tail;
      if (sscanf(v, "%d,%d,%d%c", &ready, &lo, &hi, &tail) != 3 || ready < 1 || ready > 100 ||
          lo < 1 || hi < lo || hi > 10000) {
        fprintf(stderr,
                "core_tb: --timing '%s': want READY%%,MIN,MAX with 1 <= READY <= 100 and "
                "1 <= MIN <= MAX <= 10000\n", v);
        return 2;
      }
      o.custom = true;
      o.custom_timing.ready_pct = ready;
      o.custom_timing.lat_min = lo;
      o.custom_timing.lat_max = hi;
    } else if (a == "--same-trace") {
      o.same_trace = true;
    } else if (a == "--cpi") {
      o.cpi = true;
    } else if (a == "--label") {
      o.label = need("--label");
    } else if (a == "--trace-commits") {
      o.trace_path = need("--trace-commits");
    } else if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else if (a.size() > 1 && a[0] == '-') {
      fprintf(stderr, "core_tb: unknown option '%s'\n", a.c_str());
      usage();
      return 2;
    } else {
      progs.push_back(argv[i]);
    }
  }
  std::vector<const Timing *> timings;
  for (const Timing &t : kTimings)
    if (o.config == "all" || o.config == t.name) timings.push_back(&t);
  if (o.custom) timings = {&o.custom_timing};
  if (o.cpi) timings = {&kTimings[0]};
  if (timings.empty()) {
    fprintf(stderr, "core_tb: unknown --config '%s' (ideal, random, slow, jitter or all)\n", o.config.c_str());
    return 2;
  }
  if (progs.empty()) {
    fprintf(stderr, "core_tb: no program given\n");
    usage();
    return 2;
  }
  FILE *trace = nullptr;
  if (o.trace_path) {
    trace = fopen(o.trace_path, "w");
    if (!trace) {
      fprintf(stderr, "core_tb: %s: cannot write: %s\n", o.trace_path, strerror(errno));
      return 2;
    }
  }

  int passed = 0, failed = 0;
  for (const char *p : progs) {
    std::vector<uint8_t> image(kRamBytes, 0);
    std::string err;
    if (!load_file(p, image, err)) {
      fprintf(stderr, "core_tb: %s\n", err.c_str());
      failed++;
      continue;
    }
    std::string name = p;
    size_t slash = name.find_last_of('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    uint64_t first_hash = 0;
    for (size_t k = 0; k < timings.size(); k++) {
      Result r = run(image, *timings[k], o, trace);
      if (r.ok && o.same_trace) {
        if (k == 0) first_hash = r.trace_hash;
        else if (r.trace_hash != first_hash) {
          r.ok = false;
          r.why = "commit trace differs from the one under ideal memory";
        }
      }
      if (o.cpi) {
        if (r.ok && r.marks >= 2) {
          uint64_t c = r.mark_cycles[1] - r.mark_cycles[0], n = r.mark_insns[1] - r.mark_insns[0];
          printf("%s %s: %" PRIu64 " cycles, %" PRIu64 " instructions, CPI %.3f\n", o.label.c_str(),
                 name.c_str(), c, n, n ? (double)c / (double)n : 0.0);
        } else if (r.ok) {
          r.ok = false;
          r.why = "program wrote MARK fewer than two times";
        }
      }
      printf("%s %-14s %-6s %s  %8" PRIu64 " cycles %8" PRIu64 " insns%s%s\n", o.label.c_str(),
             name.c_str(), timings[k]->name, r.ok ? "PASS" : "FAIL", r.cycles, r.insns,
             r.ok ? "" : ": ", r.why.c_str());
      (r.ok ? passed : failed)++;
    }
  }
  if (trace) fclose(trace);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
