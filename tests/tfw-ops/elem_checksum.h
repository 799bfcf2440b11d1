/* elem_checksum: CRC-32s of the output bits of shared/tfw_math.c and the
 * element-wise kernels (shared/tfw_ops_elem.c) over fixed inputs, computed
 * the same way on the host and on the RV32 firmware (fw_elem_crc.c); the
 * tfw-ops-elem suite fails unless both give the same numbers.
 *
 * Freestanding (tfw_math, tfw_ops_elem and shared/crc32 only). */
#ifndef TESSEL_ELEM_CHECKSUM_H
#define TESSEL_ELEM_CHECKSUM_H

#include <stdint.h>

/* The parts, so a mismatch says which differs. */
typedef struct {
  uint32_t math;   /* every tfw_math.h function over float bit patterns of every class */
  uint32_t pow;    /* tfw_powf over random pairs and integer pairs */
  uint32_t unary;  /* every UNARY function (f32 and integer forms) */
  uint32_t binary; /* every BINARY function, f32 / i32 / i8 / i64, broadcast shapes */
  uint32_t other;  /* WHERE, CAST (every dtype pair), LUT */
  int32_t rc;      /* the kernels' return codes ORed (0: all ran) */
} ec_sums;

void ec_checksum_all(ec_sums *s);

#endif
