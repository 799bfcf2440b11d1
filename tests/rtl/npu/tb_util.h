// tb_util.h: helpers shared by the NPU unit benches: moving byte arrays in
// and out of Verilator's port types, a seeded RNG, pass/fail counting.
#ifndef NPU_TB_UTIL_H
#define NPU_TB_UTIL_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "verilated.h"

// Little-endian bytes <-> a Verilator port value (scalar or VlWide).
template <class T> static void tb_put(T &dst, const uint8_t *b, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
  dst = (T)v;
}
template <std::size_t W> static void tb_put(VlWide<W> &dst, const uint8_t *b, int n) {
  for (std::size_t w = 0; w < W; w++) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
      if ((int)(4 * w) + i < n) v |= (uint32_t)b[4 * w + i] << (8 * i);
    dst[w] = v;
  }
}
template <class T> static void tb_get(const T &src, uint8_t *b, int n) {
  uint64_t v = (uint64_t)src;
  for (int i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
}
template <std::size_t W> static void tb_get(const VlWide<W> &src, uint8_t *b, int n) {
  for (int i = 0; i < n; i++) b[i] = (uint8_t)(src[i / 4] >> (8 * (i % 4)));
}

// xorshift64*: reproducible streams from a seed
struct TbRng {
  uint64_t s;
  explicit TbRng(uint64_t seed) : s(seed ? seed : 1) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }
};

struct TbCount {
  int pass = 0, fail = 0;
  void check(bool ok, const char *what) {
    if (ok) pass++;
    else {
      fail++;
      printf("FAIL %s\n", what);
    }
  }
  int finish() {
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
  }
};

#endif
