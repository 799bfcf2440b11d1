/* npu_arith.c: integer rounding and saturation of the NPU. Everything is
 * computed on int64/uint64 so no intermediate can overflow for the operand
 * ranges the ISA allows (|acc*mult| < 2^62, |(a-za)*ma| < 2^40). */
#include "npu_arith.h"

int64_t npu_rne_shift(int64_t p, unsigned s) {
  s &= 63;
  if (s == 0) return p;
  /* floor division by 2^s: arithmetic shift, written portably */
  int64_t q = p >= 0 ? (int64_t)((uint64_t)p >> s) : -(int64_t)((~(uint64_t)p >> s) + 1);
  uint64_t r = (uint64_t)p - ((uint64_t)q << s); /* 0 <= r < 2^s, exact mod 2^64 */
  uint64_t half = (uint64_t)1 << (s - 1);
  if (r > half || (r == half && (q & 1))) q++;
  return q;
}

int64_t npu_rne_div(int64_t n, int64_t d) {
  if (d <= 0) return 0;
  /* C's truncated n / d and n % d, from the unsigned ones of |n|: the core
   * has no 64-bit divide, and libgcc's signed division and remainder would
   * be 2.2 KB more of its firmware than the unsigned ones, which it needs
   * anyway. 0 - u keeps |INT64_MIN| and its quotient by 1 exact mod 2^64. */
  uint64_t un = n < 0 ? 0 - (uint64_t)n : (uint64_t)n, uq = un / (uint64_t)d, ur = un % (uint64_t)d;
  int64_t q = (int64_t)(n < 0 ? 0 - uq : uq), r = n < 0 ? -(int64_t)ur : (int64_t)ur;
  /* truncated toward zero: make it floor */
  if (r < 0) {
    q--;
    r += d;
  }
  /* compare 2r with d without overflow */
  if (r > d - r || (r == d - r && (q & 1))) q++;
  return q;
}

int8_t npu_sat8(int64_t x) { return (int8_t)(x < -128 ? -128 : x > 127 ? 127 : x); }

int32_t npu_sat32(int64_t x) {
  return (int32_t)(x < INT32_MIN ? INT32_MIN : x > INT32_MAX ? INT32_MAX : x);
}

int8_t npu_clamp8(int64_t x, int8_t lo, int8_t hi) {
  return (int8_t)(x < lo ? lo : x > hi ? hi : x);
}

int8_t npu_requant(int32_t acc, int32_t bias, int32_t mult, uint8_t shift, int8_t zp_out, int8_t lo,
                   int8_t hi) {
  int64_t t = npu_sat32((int64_t)acc + bias);
  int64_t q = npu_rne_shift(t * (int64_t)mult, shift & 63u);
  return npu_clamp8(q + zp_out, lo, hi);
}

int8_t npu_vadd(int8_t a, int8_t b, int8_t za, int8_t zb, int32_t ma, int32_t mb, unsigned s, int8_t zo,
                int8_t lo, int8_t hi) {
  int64_t v = ((int64_t)a - za) * ma + ((int64_t)b - zb) * mb;
  return npu_clamp8(npu_rne_shift(v, s) + zo, lo, hi);
}

int8_t npu_avgpool(int64_t sum, int64_t cnt, int32_t mult, unsigned s, int8_t zo, int8_t lo, int8_t hi) {
  if (cnt <= 0) return npu_clamp8(zo, lo, hi);
  return npu_clamp8(npu_rne_div(sum * mult, cnt << (s & 63u)) + zo, lo, hi);
}
