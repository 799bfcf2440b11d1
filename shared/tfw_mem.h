/* tfw_mem.h: little-endian 32-bit loads and stores of byte buffers, with
 * one word access where the address is 4-aligned.
 *
 * On the SoC the DRAM window and a package in DRAM sit behind the memory
 * port, where every access costs tens of cycles: an aligned word takes one
 * access instead of four. Unaligned addresses (possible on the host) take
 * byte accesses; both give the little-endian value. may_alias makes the
 * word access legal on a byte buffer. Freestanding: <stdint.h> only. */
#ifndef TESSEL_TFW_MEM_H
#define TESSEL_TFW_MEM_H

#include <stdint.h>

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TFW_WORD_ACCESS 1
typedef uint32_t __attribute__((may_alias)) tfw_word;
#endif

static inline int tfw_aligned4(const void *p) { return ((uintptr_t)p & 3u) == 0; }

#ifdef TFW_WORD_ACCESS
/* The aligned word load, as an instruction of its own on the core: GCC 12
 * saw that both branches of tfw_rd32 give the same value, dropped the test
 * and kept the byte loads, so every word cost four trips to DRAM (140 of
 * the 400 cycles an element of the input QuantizeLinear). (tfw_wr32 keeps
 * its test: two stores are not the same effect.) */
static inline uint32_t tfw_load_word(const uint8_t *p) {
#if defined(__riscv) && __riscv_xlen == 32
  uint32_t v;
  __asm__("lw %0, 0(%1)" : "=r"(v) : "r"(p), "m"(*(const tfw_word *)p));
  return v;
#else
  return *(const tfw_word *)p;
#endif
}
#endif

static inline uint32_t tfw_rd32(const uint8_t *p) {
#ifdef TFW_WORD_ACCESS
  if (tfw_aligned4(p)) return tfw_load_word(p);
#endif
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void tfw_wr32(uint8_t *p, uint32_t v) {
#ifdef TFW_WORD_ACCESS
  if (tfw_aligned4(p)) {
    *(tfw_word *)p = v;
    return;
  }
#endif
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* tfw_wr32 at a 4-aligned p: one word store, no test. */
static inline void tfw_wr32_aligned(uint8_t *p, uint32_t v) {
#ifdef TFW_WORD_ACCESS
  *(tfw_word *)p = v;
#else
  tfw_wr32(p, v);
#endif
}

/* n bytes from src (fast memory: a kernel's buffer on the stack) to dst, a
 * word store per four where dst is aligned: on the SoC each store to DRAM
 * waits for its answer (about 40 cycles), whatever its width. */
static inline void tfw_put_bytes(uint8_t *dst, const uint8_t *src, uint32_t n) {
  uint32_t i = 0;
  for (; i < n && !tfw_aligned4(dst + i); i++) dst[i] = src[i];
  for (; i + 4 <= n; i += 4)
    tfw_wr32_aligned(dst + i, (uint32_t)src[i] | (uint32_t)src[i + 1] << 8 | (uint32_t)src[i + 2] << 16 |
                                  (uint32_t)src[i + 3] << 24);
  for (; i < n; i++) dst[i] = src[i];
}

#endif
