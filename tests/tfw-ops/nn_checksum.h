/* nn_checksum: CRC-32s of the network kernels' output bits
 * (shared/tfw_ops_nn.c) over fixed random calls, computed the same way on
 * the host and on the RV32 firmware; the tfw-ops-nn suite fails unless both
 * give the same numbers (tfw_ops.h: same source, same bits).
 *
 * Freestanding (tfw_ops_nn and shared/crc32 only; static buffers). */
#ifndef TESSEL_NN_CHECKSUM_H
#define TESSEL_NN_CHECKSUM_H

#include <stdint.h>

/* The parts, so a mismatch says which kernel differs. */
typedef struct {
  uint32_t matmul;         /* MatMul/Gemm: transposes, broadcast batches, 1-D operands, C */
  uint32_t conv;           /* groups, depthwise, strides, pads, dilations, bias */
  uint32_t conv_transpose; /* the same, with output padding */
  uint32_t pool;           /* max f32/i8/u8, avg both count modes, lp p = 1, 2 (3, 1.5 with NN_CK_POWF), ceil sizes */
  uint32_t calls;          /* calls made */
  int32_t rc;              /* their return codes ORed (0: all ran) */
} nn_checksums;

void nn_checksum_all(nn_checksums *c);

#endif
