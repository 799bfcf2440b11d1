// dram_model: the DRAM behind the SoC's external memory port in simulation
// (docs/memory-port.md, docs/simulator.md). A slave on the port with a
// latency (cycles from a request's handshake to its first data) and a
// bandwidth (bytes per cycle, fractional allowed, shared by reads and
// writes). Up to MaxInflight requests are accepted at once; reads are
// answered in acceptance order, writes too, each on its own channel.
// Accesses outside [base, base+size) answer err.
//
// Use per cycle, only while the port or the model is busy (see busy()):
//   before the clock edge: commit(out, in())  -- the handshakes of this edge
//   after the clock edge:  drive()            -- the inputs for the next edge
#ifndef TESSEL_SIM_DRAM_MODEL_H
#define TESSEL_SIM_DRAM_MODEL_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

// What the SoC drives onto the port (the model's inputs).
struct MemPortOut {
  bool req_valid = false;
  bool req_write = false;
  uint32_t req_addr = 0;
  uint32_t req_len = 0;   // beats - 1
  uint32_t req_id = 0;
  bool w_valid = false;
  uint64_t w_data = 0;
  uint32_t w_strb = 0;
  bool w_last = false;
  bool r_ready = false;
  bool b_ready = false;
};

// What the model drives back.
struct MemPortIn {
  bool req_ready = true;
  bool w_ready = false;
  bool r_valid = false;
  uint64_t r_data = 0;
  uint32_t r_id = 0;
  bool r_last = false;
  bool r_err = false;
  bool b_valid = false;
  uint32_t b_id = 0;
  bool b_err = false;
};

struct DramStats {
  uint64_t read_reqs = 0, write_reqs = 0;    // requests accepted
  uint64_t read_beats = 0, write_beats = 0;  // beats transferred
  uint64_t errors = 0;                       // beats answered with err
};

class DramModel {
 public:
  static constexpr unsigned MaxInflight = 16;

  DramModel(uint64_t base, uint64_t size, double bytes_per_cycle, uint32_t latency);
  ~DramModel();
  DramModel(const DramModel &) = delete;
  DramModel &operator=(const DramModel &) = delete;

  // Backdoor for the loader: false when [addr, addr+n) is not all inside.
  bool write_bytes(uint64_t addr, const uint8_t *src, size_t n);
  bool read_bytes(uint64_t addr, uint8_t *dst, size_t n) const;

  // Handshakes at the coming clock edge (edge number `edge`), given what the
  // SoC drives and what in() drives. Returns false on a protocol violation
  // (message in error()).
  bool commit(const MemPortOut &out, uint64_t edge);
  // Chooses in() for the edge after `edge`.
  void drive(uint64_t edge);
  const MemPortIn &in() const { return in_; }
  // True while a request is in flight or a response is presented.
  bool busy() const {
    return !reads_.empty() || !writes_.empty() || !bresp_.empty() || in_.r_valid || in_.w_ready ||
           in_.b_valid || !in_.req_ready;
  }

  const DramStats &stats() const { return stats_; }
  const std::string &error() const { return error_; }

 private:
  struct Burst {
    uint32_t addr;     // byte address of beat 0 (8-byte aligned)
    uint32_t beats;    // total beats
    uint32_t done;     // beats transferred so far
    uint32_t id;
    uint64_t ready_at; // first edge its data may move
    bool err;          // writes: some beat was outside the memory
  };
  struct WriteResp {
    uint32_t id;
    bool err;
    uint64_t ready_at;
  };

  bool inside(uint64_t addr) const { return addr >= base_ && addr + 8 <= base_ + size_; }
  void refill(uint64_t edge);

  uint64_t base_, size_;
  uint8_t *mem_;
  double bw_, credit_, cap_;
  uint64_t credit_edge_ = 0;     // edge up to which credit_ is accounted
  uint32_t latency_;
  std::deque<Burst> reads_;      // accepted reads, in order
  std::deque<Burst> writes_;     // accepted writes awaiting data, in order
  std::deque<WriteResp> bresp_;  // writes whose data is in, awaiting B
  MemPortIn in_;
  bool r_presented_ = false;     // in_ holds an R beat not yet taken
  DramStats stats_;
  std::string error_;
};

#endif
