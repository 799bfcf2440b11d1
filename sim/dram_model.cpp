// dram_model.cpp: timing and storage of the simulated DRAM (dram_model.h).
//
// Bandwidth is a token bucket in bytes: it fills by bytes_per_cycle every
// cycle, up to one beat more than a cycle's worth, and every beat moved on
// R or W takes 8 bytes from it. Latency is counted from the edge a request
// was accepted to the first edge its data may move.
#include "dram_model.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

DramModel::DramModel(uint64_t base, uint64_t size, double bytes_per_cycle, uint32_t latency)
    : base_(base), size_(size), bw_(bytes_per_cycle), latency_(latency) {
  // calloc: pages are only touched when used, so 64 MiB costs nothing.
  mem_ = static_cast<uint8_t *>(std::calloc(size, 1));
  cap_ = 8.0 + bw_;  // a beat plus a cycle's worth, so fractions carry over
  credit_ = cap_;
  if (!mem_) error_ = "cannot allocate DRAM";
}

DramModel::~DramModel() { std::free(mem_); }

bool DramModel::write_bytes(uint64_t addr, const uint8_t *src, size_t n) {
  if (addr < base_ || addr - base_ > size_ || n > size_ - (addr - base_)) return false;
  std::memcpy(mem_ + (addr - base_), src, n);
  return true;
}

bool DramModel::read_bytes(uint64_t addr, uint8_t *dst, size_t n) const {
  if (addr < base_ || addr - base_ > size_ || n > size_ - (addr - base_)) return false;
  std::memcpy(dst, mem_ + (addr - base_), n);
  return true;
}

void DramModel::refill(uint64_t edge) {
  if (edge > credit_edge_) {
    credit_ = std::min(cap_, credit_ + bw_ * double(edge - credit_edge_));
    credit_edge_ = edge;
  }
}

bool DramModel::commit(const MemPortOut &out, uint64_t edge) {
  refill(edge);
  // Read data and write responses taken by the SoC.
  if (in_.r_valid && out.r_ready) {
    r_presented_ = false;
    Burst &b = reads_.front();
    if (++b.done == b.beats) reads_.pop_front();
  }
  if (in_.b_valid && out.b_ready) bresp_.pop_front();
  // Write data.
  if (in_.w_ready && out.w_valid) {
    Burst &b = writes_.front();
    uint64_t addr = uint64_t(b.addr) + 8ull * b.done;
    if (inside(addr)) {
      uint8_t *p = mem_ + (addr - base_);
      for (int i = 0; i < 8; i++)
        if (out.w_strb >> i & 1) p[i] = uint8_t(out.w_data >> (8 * i));
    } else {
      b.err = true;
      stats_.errors++;
    }
    credit_ -= 8.0;
    stats_.write_beats++;
    bool last = ++b.done == b.beats;
    if (last != out.w_last) {
      error_ = "memory port: write data 'last' flag does not match the burst length";
      return false;
    }
    if (last) {
      bresp_.push_back({b.id, b.err, edge + latency_});
      writes_.pop_front();
    }
  }
  // A new request.
  if (in_.req_ready && out.req_valid) {
    uint32_t beats = out.req_len + 1;
    uint32_t addr = out.req_addr & ~7u;
    if (uint64_t(addr) + 8ull * beats > 0x100000000ull) {
      error_ = "memory port: burst runs past the end of the address space";
      return false;
    }
    Burst b{addr, beats, 0, out.req_id, edge + latency_, false};
    if (out.req_write) {
      writes_.push_back(b);
      stats_.write_reqs++;
    } else {
      reads_.push_back(b);
      stats_.read_reqs++;
    }
  }
  return true;
}

void DramModel::drive(uint64_t edge) {
  const uint64_t next = edge + 1;  // the edge these inputs are for
  refill(next);
  // R: a presented beat stays until taken; else present the next one when
  // its latency has passed and a beat's worth of bandwidth is there.
  if (!r_presented_) {
    in_.r_valid = false;
    if (!reads_.empty()) {
      const Burst &b = reads_.front();
      if (next >= b.ready_at && credit_ >= 8.0) {
        credit_ -= 8.0;
        uint64_t addr = uint64_t(b.addr) + 8ull * b.done;
        in_.r_valid = true;
        in_.r_id = b.id;
        in_.r_last = b.done + 1 == b.beats;
        in_.r_err = !inside(addr);
        in_.r_data = 0;
        if (!in_.r_err) std::memcpy(&in_.r_data, mem_ + (addr - base_), 8);
        else stats_.errors++;
        stats_.read_beats++;
        r_presented_ = true;
      }
    }
  }
  // W: ready when a write is waiting for data and the bandwidth allows
  // (the bytes are taken in commit, if a beat moves).
  in_.w_ready = !writes_.empty() && credit_ >= 8.0;
  // B: the oldest finished write, once its latency has passed.
  in_.b_valid = !bresp_.empty() && next >= bresp_.front().ready_at;
  if (in_.b_valid) {
    in_.b_id = bresp_.front().id;
    in_.b_err = bresp_.front().err;
  }
  in_.req_ready = reads_.size() + writes_.size() < MaxInflight;
}
