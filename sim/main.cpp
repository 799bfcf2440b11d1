// main.cpp: tessel-sim, the cycle-accurate simulator of the Tessel SoC.
// Loads an ELF (and raw files) into the SoC's memories, runs the Verilated
// model from the ELF entry until the firmware ends the run, and maps the
// outcome to an exit status (sim_options.h, docs/simulator.md).
//
// The same source builds three binaries: the RTL model (tessel-sim), the
// RTL model with FST tracing compiled in (tessel-sim-trace, which
// tessel-sim runs for --trace so tracing costs the normal run nothing), and
// the yosys netlist model (gate-level test). IMEM_BYTES/DMEM_BYTES must
// match the model's TCM parameters.
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vtessel_soc.h"
#include "dram_model.h"
#include "tessel_memmap.h" /* build/gen/: the SoC memory map (targets/memmap.def) */
#ifdef TESSEL_SIM_NPU
#include "tessel_target.h" /* build/gen/<target>/: the NPU target this build simulates */
#endif
#include "elf_load.h"
#include "host_file.h"
#include "sim_options.h"
#include "verilated.h"
#ifdef TESSEL_TRACE
#include "verilated_fst_c.h"
#endif

#ifndef IMEM_BYTES
#error "IMEM_BYTES must be defined to the SoC's ImemBytes"
#endif
#ifndef DMEM_BYTES
#error "DMEM_BYTES must be defined to the SoC's DmemBytes"
#endif

namespace {

constexpr uint32_t ImemBase = TSL_MEM_IMEM_BASE;
constexpr uint32_t DmemBase = TSL_MEM_DMEM_BASE;
constexpr uint64_t DramBase = TSL_MEM_DRAM_BASE;

// An error for the user: message to stderr, status to exit with.
struct Failure {
  int status;
  std::string msg;
};

// Whole file into memory, at most max bytes; false with why set on failure
// ("more than MAX bytes" past max: a file that large is no input for these
// memories, refused by its size before any read). Only a regular file is
// read (host_file.h): a FIFO used to block here forever.
bool read_file(const char *path, std::vector<uint8_t> &out, uint64_t max, std::string &why) {
  const char *reason = nullptr;
  size_t len = 0;
  unsigned char *buf = host_file_read_all(path, max, &len, &reason);
  if (!buf) {
    why = reason == host_file_too_big ? "more than " + std::to_string(max) + " bytes" : std::string(reason);
    return false;
  }
  out.assign(buf, buf + len);
  std::free(buf);
  return true;
}

// The memories a program can be loaded into: TCM images here (loaded
// through the SoC's loader port), DRAM straight into the model.
class Memories {
 public:
  Memories(DramModel &dram, uint64_t dram_size)
      : imem_(IMEM_BYTES, 0), dmem_(DMEM_BYTES, 0), dram_(dram), dram_size_(dram_size) {}

  // Places [addr, addr+memsz): filesz bytes of data, the rest zeros.
  // Returns false if the range is not inside one memory.
  bool place(uint32_t addr, const uint8_t *data, uint64_t filesz, uint64_t memsz) {
    uint64_t end = uint64_t(addr) + memsz;
    if (addr >= ImemBase && end <= ImemBase + uint64_t(IMEM_BYTES)) {
      copy(imem_, addr - ImemBase, data, filesz, memsz);
    } else if (addr >= DmemBase && end <= DmemBase + uint64_t(DMEM_BYTES)) {
      copy(dmem_, addr - DmemBase, data, filesz, memsz);
    } else if (addr >= DramBase && end <= DramBase + dram_size_) {
      // No zero fill past filesz: the DRAM starts zeroed, ELF segments are
      // placed before any --load and never overlap (elf_load checks), so
      // the bytes are zero already. Writing them would touch every page of
      // a segment with a huge memsz (GiBs of RSS for a 4 KiB file).
      if (filesz && !dram_.write_bytes(addr, data, filesz)) return false;
    } else {
      return false;
    }
    return true;
  }

  bool fetchable(uint32_t addr) const {
    return addr < ImemBase + uint64_t(IMEM_BYTES) ||
           (addr >= DmemBase && addr < DmemBase + uint64_t(DMEM_BYTES)) ||
           (addr >= DramBase && addr < DramBase + dram_size_);
  }

  const std::vector<uint8_t> &imem() const { return imem_; }
  const std::vector<uint8_t> &dmem() const { return dmem_; }

 private:
  static void copy(std::vector<uint8_t> &m, uint64_t off, const uint8_t *data, uint64_t filesz,
                   uint64_t memsz) {
    if (filesz) std::memcpy(m.data() + off, data, filesz);
    std::memset(m.data() + off + filesz, 0, memsz - filesz);
  }

  std::vector<uint8_t> imem_, dmem_;
  DramModel &dram_;
  uint64_t dram_size_;
};

std::string hex32(uint64_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08llx", (unsigned long long)v);
  return b;
}

// Loads the ELF and --load files; throws Failure on bad input.
uint32_t load_program(const SimOptions &o, Memories &mem, ElfImage &img, std::vector<uint8_t> &elf) {
  // An ELF holds at most every memory's bytes plus its headers and symbols.
  const uint64_t elf_max = IMEM_BYTES + DMEM_BYTES + o.dram_size + (64ull << 20);
  std::string why;
  if (!read_file(o.elf, elf, elf_max, why))
    throw Failure{SIM_EXIT_BAD_INPUT,
                  std::string(o.elf) + ": " + why +
                      (why.rfind("more than", 0) == 0 ? ": larger than an ELF for these memories" : "")};
  char err[256];
  if (elf_load(elf.data(), elf.size(), &img, err, sizeof err) != 0)
    throw Failure{SIM_EXIT_BAD_INPUT, std::string(o.elf) + ": " + err};
  for (int i = 0; i < img.nsegs; i++) {
    const ElfSegment &s = img.segs[i];
    if (!mem.place(s.addr, s.data, s.filesz, s.memsz))
      throw Failure{SIM_EXIT_BAD_INPUT,
                    std::string(o.elf) + ": segment " + hex32(s.addr) + ".." +
                        hex32(uint64_t(s.addr) + s.memsz) +
                        " is not inside one memory (IMEM, DMEM or DRAM)"};
  }
  if (!mem.fetchable(img.entry))
    throw Failure{SIM_EXIT_BAD_INPUT,
                  std::string(o.elf) + ": entry point " + hex32(img.entry) + " is not in memory"};
  for (int i = 0; i < o.nloads; i++) {
    std::vector<uint8_t> data;
    // A --load file fits in one memory at most, the DRAM the largest.
    const uint64_t load_max = std::max<uint64_t>(o.dram_size, IMEM_BYTES);
    if (!read_file(o.loads[i].path, data, load_max, why))
      throw Failure{SIM_EXIT_BAD_INPUT,
                    std::string("--load ") + o.loads[i].path + ": " + why +
                        (why.rfind("more than", 0) == 0 ? ": larger than any memory" : "")};
    if (data.empty() || !mem.place(o.loads[i].addr, data.data(), data.size(), data.size()))
      throw Failure{SIM_EXIT_BAD_INPUT, std::string("--load ") + o.loads[i].path + ": " +
                                            std::to_string(data.size()) + " bytes at " +
                                            hex32(o.loads[i].addr) +
                                            (data.empty() ? " (empty file)"
                                                          : " do not fit inside one memory")};
  }
  return img.entry;
}

// Runs tessel-sim-trace (beside this binary) with the same arguments.
[[noreturn]] void exec_traced(char **argv) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    std::string path(self);
    path = path.substr(0, path.rfind('/') + 1) + "tessel-sim-trace";
    execv(path.c_str(), argv);
    std::fprintf(stderr, "tessel-sim: --trace needs %s: %s\n", path.c_str(), std::strerror(errno));
  } else {
    std::fprintf(stderr, "tessel-sim: --trace: cannot locate this binary\n");
  }
  std::exit(SIM_EXIT_INTERNAL);
}

// --uart-pty: the UART's byte streams on a pseudo-terminal, for a host
// program that talks to the firmware as to a board's serial port
// (`tessel run --engine board`, docs/host-link.md). Raw mode, non-blocking.
// The simulator keeps the slave side open itself, so bytes sent before the
// host opens the port wait in the pty and a host closing it is no hangup:
// the run goes on to EXIT or --max-cycles either way.
class UartPty {
 public:
  ~UartPty() {
    if (slave_ >= 0) close(slave_);
    if (master_ >= 0) close(master_);
  }

  void open_pty(const char *link_path) {
    master_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0 || !ptsname(master_))
      throw Failure{SIM_EXIT_INTERNAL, std::string("--uart-pty: cannot make a pseudo-terminal: ") +
                                           std::strerror(errno)};
    path_ = ptsname(master_);
    slave_ = open(path_.c_str(), O_RDWR | O_NOCTTY);
    struct termios t;
    if (slave_ < 0 || tcgetattr(slave_, &t) != 0)
      throw Failure{SIM_EXIT_INTERNAL, "--uart-pty: " + path_ + ": " + std::strerror(errno)};
    cfmakeraw(&t);  // no echo, no line editing, no CR/LF translation: bytes as sent
    if (tcsetattr(slave_, TCSANOW, &t) != 0 || fcntl(master_, F_SETFL, O_NONBLOCK) != 0)
      throw Failure{SIM_EXIT_INTERNAL, "--uart-pty: " + path_ + ": " + std::strerror(errno)};
    std::fprintf(stderr, "tessel-sim: uart on %s\n", path_.c_str());
    std::fflush(stderr);
    if (link_path) {
      // Written under another name and renamed: a script waiting for the
      // file never reads half of it.
      std::string tmp = std::string(link_path) + ".tmp";
      FILE *f = std::fopen(tmp.c_str(), "w");
      bool ok = f && std::fprintf(f, "%s\n", path_.c_str()) > 0;
      if (f && std::fclose(f) != 0) ok = false;
      if (!ok || std::rename(tmp.c_str(), link_path) != 0) {
        int e = errno;
        std::remove(tmp.c_str());  // no stray PATH.tmp left behind
        throw Failure{SIM_EXIT_BAD_INPUT, std::string("--uart-pty-link ") + link_path + ": " +
                                              std::strerror(e)};
      }
    }
  }

  bool active() const { return master_ >= 0; }
  // The UART may take another byte unless the host has left a lot unread.
  bool can_send() const { return tx_.size() < kTxMax; }
  void send(uint8_t c) { tx_.push_back(c); }

  // Moves what it can: pending output to the pty, and up to a buffer of
  // input from it into in (when in is empty). Never blocks.
  void pump(std::vector<uint8_t> &in, size_t &in_pos) {
    if (!tx_.empty()) {
      ssize_t n = write(master_, tx_.data(), tx_.size());
      if (n > 0) tx_.erase(tx_.begin(), tx_.begin() + n);
    }
    if (in_pos == in.size()) {
      in.resize(4096);
      ssize_t n = read(master_, in.data(), in.size());
      in.resize(n > 0 ? size_t(n) : 0);
      in_pos = 0;
    }
  }

  // At the end of the run: the last bytes (a reply to the host's last
  // frame) out to the pty, and a moment for the host to read them before
  // the pty goes away (at most 2 s).
  // Bytes written to the master reach the slave's queue a little later
  // (the kernel moves them asynchronously), so an empty queue counts only
  // when seen twice, 10 ms apart, after the last write.
  void drain() {
    int empty_seen = 0;
    for (int i = 0; i < 200 && empty_seen < 2; i++) {
      if (!tx_.empty()) {
        ssize_t n = write(master_, tx_.data(), tx_.size());
        if (n > 0) tx_.erase(tx_.begin(), tx_.begin() + n);
      }
      usleep(10000);
      int unread = 0;
      bool empty = tx_.empty() && (ioctl(slave_, FIONREAD, &unread) != 0 || unread == 0);
      empty_seen = empty ? empty_seen + 1 : 0;
    }
  }

 private:
  static constexpr size_t kTxMax = 1 << 16;
  int master_ = -1, slave_ = -1;
  std::string path_;
  std::vector<uint8_t> tx_;
};

class Harness {
 public:
  Harness(const SimOptions &o, DramModel &dram) : o_(o), dram_(dram), top_(new Vtessel_soc) {}

  ~Harness() {
#ifdef TESSEL_TRACE
    if (fst_) fst_->close();
#endif
    top_->final();
  }

  void open_trace() {
#ifdef TESSEL_TRACE
    if (o_.trace_fst) {
      Verilated::traceEverOn(true);
      fst_.reset(new VerilatedFstC);
      top_->trace(fst_.get(), 99);
      // The FST writer opens the file itself (a FIFO would block it).
      const char *why = nullptr;
      if (host_file_check_out(o_.trace_fst, &why) != 0)
        throw Failure{SIM_EXIT_BAD_INPUT, std::string("--trace ") + o_.trace_fst + ": " + why};
      fst_->open(o_.trace_fst);
      if (!fst_->isOpen())
        throw Failure{SIM_EXIT_BAD_INPUT, std::string("--trace ") + o_.trace_fst + ": cannot open"};
    }
#endif
  }

  // Holds the core in reset and writes both TCM images through the loader.
  void reset_and_load(const Memories &mem, uint32_t entry, const ElfImage &img) {
    top_->rst_ni = 0;
    top_->boot_addr_i = entry;
    top_->uart_tx_ready_i = 1;
    top_->uart_rx_valid_i = 0;
    top_->tohost_en_i = img.has_tohost ? 1 : 0;
    top_->tohost_addr_i = img.tohost;
    drive_mem_inputs();
    for (int i = 0; i < 4; i++) tick();
    load_image(mem.imem(), ImemBase);
    load_image(mem.dmem(), DmemBase);
    top_->load_valid_i = 0;
    for (int i = 0; i < 2; i++) tick();
    top_->rst_ni = 1;
  }

  // --uart-pty: before the run, so the host can open the port while the
  // firmware boots.
  void open_uart_pty() {
    if (o_.uart_pty) pty_.open_pty(o_.uart_pty_link);
  }

  // Runs to the end; returns the exit status.
  int run() {
    FILE *commits = nullptr, *npu_tl = nullptr;
    const char *why = nullptr;
    if (o_.npu_timeline) {
      npu_tl = host_file_open_out(o_.npu_timeline, "w", &why);
      if (!npu_tl)
        throw Failure{SIM_EXIT_BAD_INPUT, std::string("--npu-timeline ") + o_.npu_timeline + ": " + why};
    }
    if (o_.trace_commits) {
      commits = host_file_open_out(o_.trace_commits, "w", &why);
      if (!commits)
        throw Failure{SIM_EXIT_BAD_INPUT, std::string("--trace-commits ") + o_.trace_commits + ": " + why};
    }
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    int status = -1, ending = -1;
    unsigned drain_left = 0;
    uint64_t cycle = 0, retired = 0;
    const uint64_t max = o_.max_cycles;
    while (status < 0) {
      if (cycle == max) {
        std::fflush(stdout);
        std::fprintf(stderr, "tessel-sim: cycle limit %llu reached (--max-cycles)\n",
                     (unsigned long long)max);
        status = SIM_EXIT_LIMIT;
        break;
      }
      cycle_ = cycle;
      top_->clk_i = 0;
      eval();
      // Everything below is what happens at the coming rising edge.
      if (top_->uart_tx_valid_o && top_->uart_tx_ready_i) put_byte(top_->uart_tx_data_o);
      if (ending < 0 && (top_->sim_exit_valid_o | top_->sim_tohost_valid_o)) {
        // The ending store was taken by the bus; it retires in this cycle
        // or a few later (a DRAM store waits for its write response). Run
        // on until it does, so the commit trace ends with it as the ISS's.
        ending = finish();
        drain_left = 10000;
      }
      if (top_->commit_valid_o) {
        retired++;
        if (commits) write_commit(commits);
        // The store that ended the run has retired: stop after this edge.
        if (ending >= 0 && (top_->commit_insn_o & 0x7f) == 0x23) status = ending;
      }
      if (ending >= 0 && drain_left-- == 0) status = ending;
      if (npu_tl) note_npu(npu_tl, cycle);
      bool mem_active = top_->mem_req_valid_o | top_->mem_w_valid_o | dram_.busy();
      if (mem_active && !dram_.commit(sample_mem_outputs(), cycle)) {
        std::fprintf(stderr, "tessel-sim: internal error: %s\n", dram_.error().c_str());
        status = SIM_EXIT_INTERNAL;
      }
      if (rx_have_ && top_->uart_rx_ready_o) {  // taken at this edge
        rx_have_ = false;
        next_rx_byte();
      }
      top_->clk_i = 1;
      eval();
      if (mem_active) {
        dram_.drive(cycle);
        drive_mem_inputs();
      }
      cycle++;
      if (pty_.active() && (cycle & 0xfff) == 0) {
        // Every 4K cycles on a pty: a host waits for each reply, so the
        // link's round trip must stay short.
        pty_.pump(rx_buf_, rx_pos_);
        if (!rx_have_) next_rx_byte();
        top_->uart_tx_ready_i = pty_.can_send();
      } else if (!pty_.active() && (cycle & 0xffff) == 0) {
        // Every 64K cycles: show output that has no newline yet (a prompt),
        // and look for UART input.
        std::fflush(stdout);
        if (!rx_eof_ && !rx_have_) poll_stdin();
      }
      if (top_->uart_rx_valid_i != rx_have_ || (rx_have_ && top_->uart_rx_data_i != rx_byte_)) {
        top_->uart_rx_valid_i = rx_have_;
        top_->uart_rx_data_i = rx_byte_;
      }
    }
    if (pty_.active()) pty_.drain();
    auto t1 = std::chrono::steady_clock::now();
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    // UART output that could not be written (stdout on a full disk) is
    // lost: say so, as for the other outputs, rather than exit as if whole.
    if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && !pty_.active()) {
      std::fprintf(stderr, "tessel-sim: writing the UART output to stdout failed\n");
      status = SIM_EXIT_INTERNAL;
    }
    if (npu_tl && std::fclose(npu_tl) != 0) {
      std::fprintf(stderr, "tessel-sim: --npu-timeline %s: write failed\n", o_.npu_timeline);
      status = SIM_EXIT_INTERNAL;
    }
    if (commits && std::fclose(commits) != 0) {
      std::fprintf(stderr, "tessel-sim: --trace-commits %s: write failed\n", o_.trace_commits);
      status = SIM_EXIT_INTERNAL;
    }
    if (o_.stats) print_stats(cycle, retired, std::chrono::duration<double>(t1 - t0).count(), cpu);
    return status;
  }

 private:
  void eval() {
    top_->eval();
#ifdef TESSEL_TRACE
    if (fst_ && (o_.trace_to == 0 || (cycle_ >= o_.trace_from && cycle_ < o_.trace_to))) fst_->dump(time_);
    time_ += 5;
#endif
  }

  void tick() {
    top_->clk_i = 0;
    eval();
    top_->clk_i = 1;
    eval();
  }

  void load_image(const std::vector<uint8_t> &img, uint32_t base) {
    top_->load_valid_i = 1;
    for (size_t off = 0; off + 4 <= img.size(); off += 4) {
      uint32_t w;
      std::memcpy(&w, img.data() + off, 4);
      top_->load_addr_i = base + uint32_t(off);
      top_->load_data_i = w;
      tick();
    }
  }

  MemPortOut sample_mem_outputs() const {
    MemPortOut m;
    m.req_valid = top_->mem_req_valid_o;
    m.req_write = top_->mem_req_write_o;
    m.req_addr = top_->mem_req_addr_o;
    m.req_len = top_->mem_req_len_o;
    m.req_id = top_->mem_req_id_o;
    m.w_valid = top_->mem_w_valid_o;
    m.w_data = top_->mem_w_data_o;
    m.w_strb = top_->mem_w_strb_o;
    m.w_last = top_->mem_w_last_o;
    m.r_ready = top_->mem_r_ready_o;
    m.b_ready = top_->mem_b_ready_o;
    return m;
  }

  void drive_mem_inputs() {
    const MemPortIn &i = dram_.in();
    top_->mem_req_ready_i = i.req_ready;
    top_->mem_w_ready_i = i.w_ready;
    top_->mem_r_valid_i = i.r_valid;
    top_->mem_r_data_i = i.r_data;
    top_->mem_r_id_i = i.r_id;
    top_->mem_r_last_i = i.r_last;
    top_->mem_r_err_i = i.r_err;
    top_->mem_b_valid_i = i.b_valid;
    top_->mem_b_id_i = i.b_id;
    top_->mem_b_err_i = i.b_err;
  }

  void put_byte(uint8_t c) {
    if (pty_.active()) return pty_.send(c);
    std::putchar(c);
    if (c == '\n') std::fflush(stdout);
  }

  void write_commit(FILE *f) {
    if (top_->commit_rd_we_o && top_->commit_rd_o != 0)
      std::fprintf(f, "%08x %08x x%u=%08x\n", top_->commit_pc_o, top_->commit_insn_o,
                   unsigned(top_->commit_rd_o), top_->commit_rd_wdata_o);
    else
      std::fprintf(f, "%08x %08x\n", top_->commit_pc_o, top_->commit_insn_o);
  }

  // The firmware ended the run through EXIT or tohost.
  int finish() {
    std::fflush(stdout);
    if (top_->sim_exit_valid_o) {
      uint32_t code = top_->sim_exit_code_o;
      if (code <= 119) return int(code);
      std::fprintf(stderr, "tessel-sim: firmware wrote EXIT value %u (valid: 0..119)\n", code);
      return SIM_EXIT_PROTOCOL;
    }
    uint32_t v = top_->sim_tohost_data_o;
    if (v == 1) return 0;
    if (v & 1) {
      uint32_t test = v >> 1;
      std::fprintf(stderr, "tessel-sim: test %u failed (tohost 0x%x)\n", test, v);
      return test > 119 ? 119 : int(test);
    }
    std::fprintf(stderr, "tessel-sim: firmware wrote even value 0x%x to tohost (expected 1 or odd)\n", v);
    return SIM_EXIT_PROTOCOL;
  }

  // UART input: stdin is looked at every 64K cycles, never blocking; what
  // is there is buffered and offered to the UART a byte at a time.
  void poll_stdin() {
    if (rx_pos_ == rx_buf_.size()) {
      struct pollfd p = {0, POLLIN, 0};
      if (poll(&p, 1, 0) <= 0) return;
      rx_buf_.resize(4096);
      ssize_t n = read(0, rx_buf_.data(), rx_buf_.size());
      rx_buf_.resize(n > 0 ? size_t(n) : 0);
      rx_pos_ = 0;
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) rx_eof_ = true;
    }
    next_rx_byte();
  }

  void next_rx_byte() {
    if (rx_pos_ < rx_buf_.size()) {
      rx_byte_ = rx_buf_[rx_pos_++];
      rx_have_ = true;
    }
  }

  // --npu-timeline: "R cycle" where an NPU run starts, and "C unit start
  // end" per command a unit completes (0 LOAD, 1 EXEC, 2 STORE; busy from
  // start to end-1; a command that kept its unit busy for no cycle has
  // start = end). The NPU's dbg_o bits, read once per cycle only when asked.
  void note_npu(FILE *f, uint64_t cycle) {
    const unsigned dbg = top_->npu_dbg_o;
    if ((dbg & 1) && !npu_run_) std::fprintf(f, "R %llu\n", (unsigned long long)cycle);
    npu_run_ = dbg & 1;
    for (int u = 0; u < 3; u++) {
      if (((dbg >> (1 + u)) & 1) && npu_open_[u] == kNoCmd) npu_open_[u] = cycle;
      if ((dbg >> (4 + u)) & 1) {
        uint64_t start = npu_open_[u] == kNoCmd ? cycle + 1 : npu_open_[u];
        std::fprintf(f, "C %d %llu %llu\n", u, (unsigned long long)start, (unsigned long long)(cycle + 1));
        npu_open_[u] = kNoCmd;
      }
    }
  }

  // Speed is given per wall-clock second and per CPU second: on a shared
  // machine the second one is the model's own speed.
  void print_stats(uint64_t cycles, uint64_t retired, double secs, double cpu) {
    const DramStats &d = dram_.stats();
    std::fprintf(stderr,
                 "tessel-sim: cycles %llu\n"
                 "tessel-sim: retired %llu\n"
                 "tessel-sim: CPI %.3f\n"
                 "tessel-sim: simulated cycles/s %.0f (%.3f s wall)\n"
                 "tessel-sim: simulated cycles/CPU-s %.0f (%.3f s CPU)\n"
                 "tessel-sim: DRAM reads %llu (%llu beats), writes %llu (%llu beats), errors %llu\n",
                 (unsigned long long)cycles, (unsigned long long)retired,
                 retired ? double(cycles) / double(retired) : 0.0, secs > 0 ? cycles / secs : 0.0,
                 secs, cpu > 0 ? cycles / cpu : 0.0, cpu, (unsigned long long)d.read_reqs,
                 (unsigned long long)d.read_beats, (unsigned long long)d.write_reqs,
                 (unsigned long long)d.write_beats, (unsigned long long)d.errors);
  }

  const SimOptions &o_;
  DramModel &dram_;
  std::unique_ptr<Vtessel_soc> top_;
  UartPty pty_;                            // --uart-pty, else the UART is on stdin/stdout
  bool rx_have_ = false, rx_eof_ = false;  // a byte is offered; stdin ended
  uint8_t rx_byte_ = 0;
  std::vector<uint8_t> rx_buf_;            // read from stdin, not yet offered
  size_t rx_pos_ = 0;
  uint64_t cycle_ = 0;                     // the run loop's cycle, for --trace-cycles
  static constexpr uint64_t kNoCmd = ~uint64_t(0);
  bool npu_run_ = false;                   // --npu-timeline: a run was in progress last cycle
  uint64_t npu_open_[3] = {kNoCmd, kNoCmd, kNoCmd}; // first busy cycle of each unit's command
#ifdef TESSEL_TRACE
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0;
#endif
};

// The NPU target this build simulates (sim/rules.mk passes the target's
// name and hash; a SoC build without the NPU has none).
void print_version() {
#ifdef TESSEL_SIM_NPU
  std::printf("tessel-sim target %s hash 0x%08X dim %d\n", TSL_TARGET_NAME, unsigned(TSL_TARGET_HASH), int(TSL_DIM));
#ifdef TESSEL_SIM_NPU_SEQ
  std::printf("tessel-sim: the core-sequenced NPU (its datapath on the NPU_SEQ window; docs/npu-seq.md)\n");
#endif
#else
  std::printf("tessel-sim target none (SoC without the NPU)\n");
#endif
}

// --dump ranges must lie inside DRAM: checked before the run, so a typo costs nothing.
void check_dumps(const SimOptions &o) {
  for (int i = 0; i < o.ndumps; i++) {
    const SimDump &d = o.dumps[i];
    if (d.addr < DramBase || uint64_t(d.addr) + d.len > DramBase + o.dram_size)
      throw Failure{SIM_EXIT_BAD_INPUT, "--dump " + hex32(d.addr) + ":" + std::to_string(d.len) +
                                            ": not inside DRAM (" + hex32(uint32_t(DramBase)) + ", " +
                                            std::to_string(o.dram_size) + " bytes)"};
  }
}

void write_dumps(const SimOptions &o, const DramModel &dram) {
  for (int i = 0; i < o.ndumps; i++) {
    const SimDump &d = o.dumps[i];
    std::vector<uint8_t> buf(d.len);
    const char *why = nullptr;
    FILE *f = host_file_open_out(d.path, "wb", &why);
    if (!f) throw Failure{SIM_EXIT_INTERNAL, std::string("--dump ") + d.path + ": " + why};
    bool ok = dram.read_bytes(d.addr, buf.data(), buf.size()) &&
              std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
    if (f && std::fclose(f) != 0) ok = false;
    if (!ok) throw Failure{SIM_EXIT_INTERNAL, std::string("--dump ") + d.path + ": " + std::strerror(errno)};
  }
}

}  // namespace

int main(int argc, char **argv) {
  SimOptions o;
  char err[256];
  if (sim_options_parse(argc, argv, &o, err, sizeof err) != 0) {
    std::fprintf(stderr, "tessel-sim: %s\n", err);
    return SIM_EXIT_BAD_INPUT;
  }
  if (o.help) {
    sim_options_usage(stdout);
    return 0;
  }
  if (o.version) {
    print_version();
    return 0;
  }
#ifndef TESSEL_TRACE
  if (o.trace_fst) exec_traced(argv);
#endif
  try {
    DramModel dram(DramBase, o.dram_size, o.dram_bw, o.dram_latency);
    if (!dram.error().empty()) throw Failure{SIM_EXIT_INTERNAL, dram.error()};
    Memories mem(dram, o.dram_size);
    ElfImage img;
    std::vector<uint8_t> elf;
    uint32_t entry = load_program(o, mem, img, elf);
    Verilated::commandArgs(1, argv);
    Harness h(o, dram);
    h.open_trace();
    check_dumps(o);
    h.open_uart_pty();
    h.reset_and_load(mem, entry, img);
    int status = h.run();
    write_dumps(o, dram);
    return status;
  } catch (const Failure &f) {
    std::fflush(stdout);
    std::fprintf(stderr, "tessel-sim: %s\n", f.msg.c_str());
    return f.status;
  }
}
