/* npu_arith.h: the NPU's integer arithmetic (docs/isa.md section 3), shared
 * by the C model and the compiler's int8 reference executor so both round as
 * the NPU does. (The firmware's fallback ops have their own float-free
 * arithmetic in shared/tfw_fallback.c, held bit-exact by the fallback suite.)
 * Freestanding: needs only <stdint.h>, no libc or libm. */
#ifndef NPU_ARITH_H
#define NPU_ARITH_H

#include <stdint.h>

/* The little-endian int32 at p (ACC rows in DRAM, PARAM rows' fields). */
static inline int32_t npu_rd32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* p / 2^s rounded to nearest, ties to even; 0 <= s <= 63 (s is masked). */
int64_t npu_rne_shift(int64_t p, unsigned s);

/* n / d rounded to nearest, ties to even; d > 0 (d <= 0 returns 0). */
int64_t npu_rne_div(int64_t n, int64_t d);

/* Saturate to int8 / int32. */
int8_t npu_sat8(int64_t x);
int32_t npu_sat32(int64_t x);

/* min(max(x, lo), hi) as int8; callers guarantee lo <= hi. */
int8_t npu_clamp8(int64_t x, int8_t lo, int8_t hi);

/* The STORE epilogue for one lane: clamp(rne_shift(sat32(acc + bias) * mult,
 * shift & 63) + zp_out, lo, hi). */
int8_t npu_requant(int32_t acc, int32_t bias, int32_t mult, uint8_t shift, int8_t zp_out, int8_t lo,
                   int8_t hi);

/* VADD for one lane: clamp(rne_shift((a-za)*ma + (b-zb)*mb, s) + zo, lo, hi). */
int8_t npu_vadd(int8_t a, int8_t b, int8_t za, int8_t zb, int32_t ma, int32_t mb, unsigned s, int8_t zo,
                int8_t lo, int8_t hi);

/* VPOOL for one lane: clamp(rne_div(sum * mult, cnt << s) + zo, lo, hi), or
 * clamp(zo, lo, hi) when cnt == 0; sum is the window's sum of (x - zp_in),
 * s <= 47, cnt < 2^16. */
int8_t npu_avgpool(int64_t sum, int64_t cnt, int32_t mult, unsigned s, int8_t zo, int8_t lo, int8_t hi);

#endif
