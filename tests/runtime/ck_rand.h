/* ck_rand: the integer generator and CRC helpers of the host/RV32 checksum
 * programs (fb_checksum.c, tests/tfw-ops/elem_checksum.c, nn_checksum.c):
 * the same sequence and the same bytes on every machine.  Header only. */
#ifndef TESSEL_CK_RAND_H
#define TESSEL_CK_RAND_H

#include <stdint.h>

#include "crc32.h"

/* xorshift32: the next value of *s (never 0 from a seed that is not 0). */
static inline uint32_t ck_next(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

/* crc folded with w's four bytes, little-endian. */
static inline uint32_t ck_crc_word(uint32_t crc, uint32_t w) {
  uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
  return crc32_update(crc, b, 4);
}

/* A value in [-range, range) from 32 random bits. */
static inline float ck_small_float(uint32_t r, float range) { return (float)(int32_t)r * (range / 2147483648.0f); }

#endif
