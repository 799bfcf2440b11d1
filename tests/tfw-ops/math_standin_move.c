/* TEST-ONLY STAND-IN for shared/tfw_math.c, for the tfw-ops-move suite until
 * the real tfw_math.c is built into the shared library: the few tfw_math.h
 * functions tfw_ops_move.c and tfw_ops_reduce.c call, on the host's libm.
 * Weak, so the real definitions win as soon as they are linked; the lead
 * drops this file (and its line in tests/tfw-ops/move.mk) then. */
#include <math.h>
#include <string.h>

#include "tfw_math.h"

__attribute__((weak)) float tfw_logf(float x) { return x != x ? tfw_bits_f32(0x7fc00000u) : logf(x); }
__attribute__((weak)) float tfw_sqrtf(float x) { return x != x || x < 0 ? tfw_bits_f32(0x7fc00000u) : sqrtf(x); }
__attribute__((weak)) float tfw_fabsf(float x) { return fabsf(x); }
__attribute__((weak)) uint32_t tfw_f32_bits(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}
__attribute__((weak)) float tfw_bits_f32(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
