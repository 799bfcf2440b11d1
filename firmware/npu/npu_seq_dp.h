/* npu_seq_dp.h: npu_datapath.h's hooks on the npu_seq_dp registers (the
 * NPU_SEQ window, targets/memmap.def, docs/npu-seq.md). Included by
 * npu_datapath.h when the firmware is built with TSL_NPU_SEQ_DP.
 *
 * Per tap the core stores the DIM x DIM weights into W and the DIM inputs
 * into X (the store of the last input starts the MACs); S holds the pixel's
 * DIM sums from npu_dp_pixel_begin to npu_dp_pixel_end. Per STORE the
 * epilogue's PARAM row goes into the lane registers once; per value one
 * REQ_ACC store and one REQ_OUT load. Registers wait (the bus holds the
 * access) while the array or the requantiser runs, so no polling. Rows of
 * even DIM are 2-byte aligned in the model's SPAD, so they move as
 * halfwords; odd DIM moves bytes. */
#ifndef NPU_SEQ_DP_H
#define NPU_SEQ_DP_H

#include <stdint.h>

#include "tessel_memmap.h"
#include "tessel_target.h"
#include "trap.h"

#define NPU_SEQ_REG8(a) (*(volatile uint8_t *)(uintptr_t)(a))
#define NPU_SEQ_REG16(a) (*(volatile uint16_t *)(uintptr_t)(a))
#define NPU_SEQ_REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))

/* 1 when the datapath answers on its window with its ID and the DIM the
 * firmware is built for (a SoC without it answers a bus error: caught). */
static inline int npu_dp_present(void) {
  uint32_t id, dim;
  return trap_probe_read32(TSL_NPU_SEQ_ID, &id) == 0 && id == 0x51455354u &&
         trap_probe_read32(TSL_NPU_SEQ_DIM, &dim) == 0 && dim == (uint32_t)TSL_DIM;
}

/* n bytes from src to the byte-array register at reg: halfwords when n is
 * even (DIM 2's 2 inputs and 4 weights: one and two stores). */
static inline __attribute__((always_inline)) void npu_dp_put(uint32_t reg, const int8_t *src, int n) {
  const uint16_t *h = (const uint16_t *)(const void *)src;
  if (n == 2) {
    NPU_SEQ_REG16(reg) = h[0];
  } else if (n == 4) {
    NPU_SEQ_REG16(reg) = h[0];
    NPU_SEQ_REG16(reg + 2u) = h[1];
  } else if (n % 2 == 0) {
    for (int i = 0; i < n / 2; i++) NPU_SEQ_REG16(reg + 2u * (uint32_t)i) = h[i];
  } else {
    for (int i = 0; i < n; i++) NPU_SEQ_REG8(reg + (uint32_t)i) = (uint8_t)src[i];
  }
}

static inline void npu_dp_pixel_begin(uint32_t *sum, int dim) {
  for (int n = 0; n < dim; n++) NPU_SEQ_REG32(TSL_NPU_SEQ_S + 4u * (uint32_t)n) = sum[n];
}

static inline void npu_dp_tap(uint32_t *sum, const int8_t *in, const int8_t *w, int dim) {
  (void)sum;
  npu_dp_put(TSL_NPU_SEQ_W, w, dim * dim);
  npu_dp_put(TSL_NPU_SEQ_X, in, dim); /* the last input's store starts the MACs */
}

static inline void npu_dp_pixel_end(uint32_t *sum, int dim) {
  for (int n = 0; n < dim; n++) sum[n] = NPU_SEQ_REG32(TSL_NPU_SEQ_S + 4u * (uint32_t)n);
}

static inline void npu_dp_epi_begin(npu_dp_epi *e, const uint8_t *param, int dim, int8_t zp, int8_t lo, int8_t hi) {
  *e = (npu_dp_epi){param, dim, zp, lo, hi};
  for (int k = 0; k < dim; k++) {
    uint32_t o = 4u * (uint32_t)k;
    NPU_SEQ_REG32(TSL_NPU_SEQ_REQ_BIAS + o) = (uint32_t)npu_rd32(param + 4 * k);
    NPU_SEQ_REG32(TSL_NPU_SEQ_REQ_MULT + o) = (uint32_t)npu_rd32(param + 4 * (dim + k));
    NPU_SEQ_REG32(TSL_NPU_SEQ_REQ_SHIFT + o) = param[8 * dim + k];
  }
  NPU_SEQ_REG32(TSL_NPU_SEQ_REQ_OUTP) = (uint32_t)(uint8_t)zp << TSL_NPU_SEQ_REQ_OUTP_ZP_LSB |
                                        (uint32_t)(uint8_t)lo << TSL_NPU_SEQ_REQ_OUTP_LO_LSB |
                                        (uint32_t)(uint8_t)hi << TSL_NPU_SEQ_REQ_OUTP_HI_LSB;
}

static inline int8_t npu_dp_requant(const npu_dp_epi *e, int k, int32_t acc) {
  (void)e;
  NPU_SEQ_REG32(TSL_NPU_SEQ_REQ_ACC + 4u * (uint32_t)k) = (uint32_t)acc;
  return (int8_t)NPU_SEQ_REG32(TSL_NPU_SEQ_REQ_OUT);
}

#endif
