// port_bench.h: what the Verilator benches of memory-port masters share
// (tests/cvt/cvt_dma_bench.cpp, tests/dcache/dcache_bench.cpp): printf into
// a string, a seeded random source, the address space the bench answers
// as the memory, and the master's side of the port in one cycle
// (docs/memory-port.md). Header only, C++17.
#ifndef TESSEL_PORT_BENCH_H
#define TESSEL_PORT_BENCH_H

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace port_bench {

// printf into a string.
__attribute__((format(printf, 1, 2))) inline std::string fmt(const char *f, ...) {
  va_list ap, ap2;
  va_start(ap, f);
  va_copy(ap2, ap);
  std::string s((size_t)std::vsnprintf(nullptr, 0, f, ap), '\0');
  std::vsnprintf(&s[0], s.size() + 1, f, ap2);
  va_end(ap2);
  va_end(ap);
  return s;
}

inline std::string hex(uint32_t v) { return fmt("0x%08" PRIx32, v); }

struct Rng {
  std::mt19937 g;
  explicit Rng(uint32_t s) : g(s) {}
  uint32_t u32() { return (uint32_t)g(); }
  uint32_t below(uint32_t n) { return (uint32_t)(g() % n); }
  int32_t range(int32_t lo, int32_t hi) { return lo + (int32_t)below((uint32_t)(hi - lo + 1)); }
  bool p(double x) { return double(g() & 0xffffff) < x * double(0x1000000); }
};

// The address space the bench answers from Base: DramBytes of DRAM, then
// an error region up to SpaceBytes. Both hold bytes; the error region's
// are read (with r_err) but never written by the master.
template <uint32_t Base, uint32_t DramBytes, uint32_t SpaceBytes>
struct Space {
  std::vector<uint8_t> b = std::vector<uint8_t>(SpaceBytes, 0);

  static bool has(uint32_t a) { return a - Base < SpaceBytes; }
  static bool in_dram(uint32_t a) { return a - Base < DramBytes; }
  uint8_t get(uint32_t a) const { return has(a) ? b[a - Base] : 0; }
  void put(uint32_t a, uint8_t v) {  // a write: DRAM only
    if (in_dram(a)) b[a - Base] = v;
  }
  void fill(uint32_t a, uint8_t v) {  // a bench's setup: either region
    if (has(a)) b[a - Base] = v;
  }
  uint32_t get32(uint32_t a) const {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v |= (uint32_t)get(a + k) << (8 * k);
    return v;
  }
  uint64_t get64(uint32_t a) const {
    uint64_t v = 0;
    for (int k = 0; k < 8; k++) v |= (uint64_t)get(a + k) << (8 * k);
    return v;
  }
};

// The master's side of the port in one cycle.
struct Offer {
  bool req_valid, req_write;
  uint32_t req_addr;
  uint32_t req_len, req_id;
  bool w_valid;
  uint64_t w_data;
  uint32_t w_strb;
  bool w_last;

  bool same_req(const Offer &o) const {
    return req_write == o.req_write && req_addr == o.req_addr && req_len == o.req_len && req_id == o.req_id;
  }
  bool same_w(const Offer &o) const { return w_data == o.w_data && w_strb == o.w_strb && w_last == o.w_last; }
  bool operator==(const Offer &o) const {
    return req_valid == o.req_valid && w_valid == o.w_valid && same_req(o) && same_w(o);
  }
};

// The offer of a Verilated bench whose master port is m_*_o.
template <class Tb>
Offer offer_of(const Tb &m) {
  return {(bool)m.m_req_valid_o,   (bool)m.m_req_write_o,  (uint32_t)m.m_req_addr_o,
          (uint32_t)m.m_req_len_o, (uint32_t)m.m_req_id_o, (bool)m.m_w_valid_o,
          (uint64_t)m.m_w_data_o,  (uint32_t)m.m_w_strb_o, (bool)m.m_w_last_o};
}

}  // namespace port_bench

#endif
