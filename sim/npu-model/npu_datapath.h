/* npu_datapath.h: the arithmetic of the C model that a core-sequenced NPU
 * (docs/npu-seq.md) hands to its datapath: the array's multiply-accumulate
 * of one output pixel, tap by tap, and the epilogue's requantisation, lane
 * by lane. Without TSL_NPU_SEQ_DP (the host tools, and every firmware but
 * the core-sequenced one) each hook is the plain C below; with it, the same
 * hooks drive the npu_seq_dp registers on the NPU_SEQ window. The results
 * are the same bits either way (npu_arith.h's definitions; the datapath's
 * bench holds the RTL to them).
 *
 * Use, per output pixel of MATMUL (sum[] as the ACC row starts it):
 *   npu_dp_pixel_begin(sum, dim); for each (tap, channel block)
 *   npu_dp_tap(sum, in_row, weight_rows, dim); npu_dp_pixel_end(sum, dim);
 * and per STORE through the epilogue:
 *   npu_dp_epi ep; npu_dp_epi_begin(&ep, param_row, dim, zp, lo, hi);
 *   for each lane k of each source row: npu_dp_requant(&ep, k, acc[k]). */
#ifndef NPU_DATAPATH_H
#define NPU_DATAPATH_H

#include <stdint.h>

#include "npu_arith.h"

/* The epilogue parameters of one STORE: a PARAM row (docs/isa.md: DIM int32
 * biases, DIM int32 multipliers, DIM shift bytes) and the output's zero
 * point and clamp. */
typedef struct {
  const uint8_t *param;
  int dim;
  int8_t zp, lo, hi;
} npu_dp_epi;

#ifndef TSL_NPU_SEQ_DP

/* 1: the datapath answers (the plain C one always does). */
static inline int npu_dp_present(void) { return 1; }

static inline void npu_dp_pixel_begin(uint32_t *sum, int dim) { (void)sum, (void)dim; }

/* sum[n] += in[k] * w[k*dim + n] for k, n < dim, wrapping at 32 bits. */
static inline void npu_dp_tap(uint32_t *sum, const int8_t *in, const int8_t *w, int dim) {
  for (int k = 0; k < dim; k++) {
    int32_t v = in[k];
    if (v == 0) continue;
    const int8_t *wr = w + k * dim;
    for (int n = 0; n < dim; n++) sum[n] += (uint32_t)(v * wr[n]);
  }
}

static inline void npu_dp_pixel_end(uint32_t *sum, int dim) { (void)sum, (void)dim; }

static inline void npu_dp_epi_begin(npu_dp_epi *e, const uint8_t *param, int dim, int8_t zp, int8_t lo, int8_t hi) {
  *e = (npu_dp_epi){param, dim, zp, lo, hi};
}

/* npu_requant of lane k's accumulator with lane k's bias, multiplier, shift. */
static inline int8_t npu_dp_requant(const npu_dp_epi *e, int k, int32_t acc) {
  const uint8_t *p = e->param;
  return npu_requant(acc, npu_rd32(p + 4 * k), npu_rd32(p + 4 * (e->dim + k)), p[8 * e->dim + k], e->zp, e->lo,
                     e->hi);
}

#else
#include "npu_seq_dp.h" /* firmware/npu: the register-level hooks */
#endif

#endif
