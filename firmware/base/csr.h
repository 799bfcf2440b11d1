/* csr.h: machine-mode CSR access and the bit names the firmware uses. */
#ifndef TESSEL_FW_CSR_H
#define TESSEL_FW_CSR_H

#include <stdint.h>

#define MSTATUS_MIE  (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MIE_MTIE     (1u << 7)
#define MIE_MEIE     (1u << 11)
#define MIP_MTIP     (1u << 7)
#define MIP_MEIP     (1u << 11)
#define MCAUSE_IRQ   0x80000000u

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
