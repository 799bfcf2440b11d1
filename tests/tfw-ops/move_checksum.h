/* move_checksum: CRC-32s of the outputs of the control core's data-movement
 * and reduction kernels (shared/tfw_ops_move.c, tfw_ops_reduce.c) over fixed
 * calls, computed the same way on the host and on the RV32 firmware; the
 * tfw-ops-move suite fails unless both give the same numbers (the kernels'
 * f32 arithmetic must round alike on every engine, tfw_ops.h).
 *
 * Freestanding: the kernels, shared/crc32 and static buffers only. */
#ifndef TESSEL_MOVE_CHECKSUM_H
#define TESSEL_MOVE_CHECKSUM_H

#include <stdint.h>

/* The parts, so a mismatch says which family differs. */
typedef struct {
  uint32_t move;   /* Transpose, Slice, Concat, Gather, Tile, Pad over several dtypes */
  uint32_t resize; /* every Resize mode, coordinate mode, nearest mode, exclude_outside */
  uint32_t reduce; /* every Reduce fn, ArgMax/ArgMin, Softmax/LogSoftmax */
  uint32_t norm;   /* Layer, Instance and Batch normalisation */
  uint32_t int8;   /* the int8 Softmax and LayerNorm, their builders' constants */
  int32_t rc;      /* the calls' return codes ORed (0: all ran) */
} move_checksums;

void move_checksum_all(move_checksums *c);

#endif
