/* fb_checksum: a CRC-32 of the output bits of the fallback ops
 * (shared/tfw_fallback.c) over fixed sweeps, computed the same way
 * on the host and on the RV32 firmware; the fallback suite fails unless both
 * give the same number (docs/firmware.md, "Fallback ops").
 *
 * Freestanding (tfw_fallback and shared/crc32 only). */
#ifndef TESSEL_FB_CHECKSUM_H
#define TESSEL_FB_CHECKSUM_H

#include <stdint.h>

/* The parts, so a mismatch says which op differs. */
typedef struct {
  uint32_t expf;       /* tfw_expf over float bit patterns of every class */
  uint32_t quantize;   /* tfw_quantize, u8 and i8, several scales and zero points */
  uint32_t dequantize; /* tfw_dequantize, i8/u8/i32 values */
  uint32_t softmax;    /* tfw_softmax_f32 rows, including NaN and inf rows */
  uint32_t run;        /* tfw_fallback_run records over a small window, the window's bytes */
  int32_t run_rc;      /* the records' return codes ORed (0: all ran) */
} fb_checksums;

void fb_checksum_all(fb_checksums *c);

#endif
