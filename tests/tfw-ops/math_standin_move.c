/* TEST-ONLY STAND-IN for shared/tfw_math.c, for the tfw-ops-move suite until
 * the real tfw_math.c is built into the shared library: the few tfw_math.h
 * functions tfw_ops_move.c and tfw_ops_reduce.c call.  Written under
 * tfw_ops.h's arithmetic rules (f32 + - * /, integers, int <-> f32), so the
 * host and the RV32 build give the same bits and the suite's firmware
 * checksums can compare them: sqrtf is correctly rounded (integer square
 * root); logf is a plain atanh series, within a few ulp, not the real one.
 * Weak, so the real definitions win as soon as they are linked; the lead
 * drops this file (and its mentions in tests/tfw-ops/move.mk) then. */
#include "tfw_math.h"

#define SI_NAN 0x7fc00000u

__attribute__((weak)) uint32_t tfw_f32_bits(float x) {
  union {
    float f;
    uint32_t u;
  } v = {x};
  return v.u;
}

__attribute__((weak)) float tfw_bits_f32(uint32_t b) {
  union {
    uint32_t u;
    float f;
  } v = {b};
  return v.f;
}

__attribute__((weak)) float tfw_fabsf(float x) { return tfw_bits_f32(tfw_f32_bits(x) & 0x7fffffffu); }

/* 2^p for p in [-126, 127]. */
static float pow2(int32_t p) { return tfw_bits_f32((uint32_t)(p + 127) << 23); }

__attribute__((weak)) float tfw_sqrtf(float x) {
  uint32_t b = tfw_f32_bits(x);
  if ((b & 0x7fffffffu) == 0 || b == 0x7f800000u) return x; /* +-0, +inf */
  if (b > 0x7f800000u) return tfw_bits_f32(SI_NAN);         /* NaN, negative */
  int32_t e = (int32_t)(b >> 23) - 150;                      /* x = m 2^e */
  uint64_t m = b & 0x7fffffu;
  if (b >> 23) m |= 0x800000u;
  else e = -149;
  while (m < 0x800000u) m <<= 1, e--;
  if (e & 1) m <<= 1, e--;
  uint64_t M = m << 26, r = 0, bit = (uint64_t)1 << 50; /* r = isqrt(M), M in [2^49, 2^51) */
  while (bit > M) bit >>= 2;
  while (bit) {
    if (M >= r + bit) M -= r + bit, r = (r >> 1) + bit;
    else r >>= 1;
    bit >>= 2;
  }
  /* sqrt(x) = (r + rest) 2^((e - 26) / 2): r with a sticky bit, rounded once by the conversion */
  uint32_t s = (uint32_t)(r << 1 | (M != 0));
  return (float)s * pow2((e - 26) / 2 - 1);
}

__attribute__((weak)) float tfw_logf(float x) {
  uint32_t b = tfw_f32_bits(x);
  if (b > 0x7f800000u) return tfw_bits_f32(SI_NAN); /* NaN, negative */
  if ((b & 0x7fffffffu) == 0) return tfw_bits_f32(0xff800000u);
  if (b == 0x7f800000u) return x;
  int32_t e = 0;
  if (!(b >> 23)) x = x * 8388608.0f, b = tfw_f32_bits(x), e = -23; /* subnormal: exact */
  e += (int32_t)(b >> 23) - 127;
  float m = tfw_bits_f32((b & 0x7fffffu) | 0x3f800000u); /* [1, 2) */
  if (m > 1.41421356f) m = m * 0.5f, e++;
  float f = m - 1.0f, s = f / (2.0f + f), z = s * s;
  float R = z * (0.666666667f + z * (0.4f + z * (0.285714286f + z * 0.222222222f)));
  float fe = (float)e;
  return fe * 0.693145752f + ((2.0f * s + s * R) + fe * 1.42860677e-06f);
}
