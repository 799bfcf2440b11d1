/* csr.h: machine-mode CSR access and the bit names the firmware uses (the
 * bits from the generated tessel_memmap.h: targets/memmap.def, docs/core.md). */
#ifndef TESSEL_FW_CSR_H
#define TESSEL_FW_CSR_H

#include <stdint.h>

#include "tessel_memmap.h"

#define MSTATUS_MIE  TSL_MSTATUS_MIE
#define MSTATUS_MPIE TSL_MSTATUS_MPIE
#define MIE_MTIE     TSL_MIE_MTIE
#define MIE_MEIE     TSL_MIE_MEIE
#define MIP_MTIP     TSL_MIP_MTIP
#define MIP_MEIP     TSL_MIP_MEIP
#define MCAUSE_IRQ   TSL_CAUSE_IRQ_FLAG

/* The CSR name must be a literal (it is part of the instruction). */
#define csr_read(csr)                                                   \
  ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define csr_write(csr, val)                                             \
  __asm__ volatile("csrw " #csr ", %0" ::"rK"((uint32_t)(val)) : "memory")
#define csr_set(csr, bits)                                              \
  __asm__ volatile("csrs " #csr ", %0" ::"rK"((uint32_t)(bits)) : "memory")
#define csr_clear(csr, bits)                                            \
  __asm__ volatile("csrc " #csr ", %0" ::"rK"((uint32_t)(bits)) : "memory")

static inline void irq_global_enable(void) { csr_set(mstatus, MSTATUS_MIE); }
static inline void irq_global_disable(void) { csr_clear(mstatus, MSTATUS_MIE); }

/* 64-bit counters read consistently across the two halves. */
static inline uint64_t csr_read_mcycle64(void) {
  uint32_t hi, lo, hi2;
  do {
    hi = csr_read(mcycleh);
    lo = csr_read(mcycle);
    hi2 = csr_read(mcycleh);
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t csr_read_minstret64(void) {
  uint32_t hi, lo, hi2;
  do {
    hi = csr_read(minstreth);
    lo = csr_read(minstret);
    hi2 = csr_read(minstreth);
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
}

#endif
