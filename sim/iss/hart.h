/* hart.h: one RV32IM + Zicsr machine-mode hart, executed one instruction at
 * a time. This is the reference the RTL core is compared against, so traps,
 * CSRs and the commit trace follow the core's specification exactly (see
 * docs/iss.md). Timing is one cycle per step: mcycle and mtime advance by
 * one for every retired instruction and every trap taken. */
#ifndef TESSEL_ISS_HART_H
#define TESSEL_ISS_HART_H

#include <stdint.h>
#include <stdio.h>

#include "bus.h"

/* mcause values (TSL_CAUSE_*), CSR bits (TSL_MSTATUS_*, TSL_MIE_*, TSL_MIP_*)
 * and misa (TSL_CSR_MISA_VALUE) come from the generated tessel_memmap.h
 * (targets/memmap.def), which bus.h includes. */

typedef struct {
  uint32_t x[32];     /* integer registers; x[0] stays 0 */
  uint32_t pc;        /* address of the next instruction */
  uint32_t mstatus;   /* only MIE and MPIE are stored; MPP reads 3 */
  uint32_t mie;       /* MTIE and MEIE */
  uint32_t mtvec;     /* direct mode only: low two bits read 0 */
  uint32_t mepc;      /* low two bits read 0 (no C extension) */
  uint32_t mcause;
  uint32_t mtval;
  uint32_t mscratch;
  uint64_t mcycle;
  uint64_t minstret;
  bus_t *bus;         /* memory and devices, not owned */
  FILE *trace;        /* commit trace, or NULL */
} hart_t;

typedef enum {
  STEP_RETIRED, /* one instruction retired */
  STEP_TRAPPED, /* an exception or interrupt was taken instead */
} step_result;

/* Resets the hart to start at pc with all registers and CSRs zero. */
void hart_reset(hart_t *h, bus_t *bus, uint32_t pc);

/* Takes a pending enabled interrupt or executes one instruction. A retired
 * instruction writes one line to h->trace if set. After the step, the caller
 * checks h->bus->halt. */
step_result hart_step(hart_t *h);

/* Reads mip as software sees it (device-driven MTIP/MEIP). */
uint32_t hart_mip(const hart_t *h);

#endif
