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

/* mcause values (interrupts have bit 31 set). */
enum {
  CAUSE_FETCH_MISALIGNED = 0,
  CAUSE_FETCH_FAULT = 1,
  CAUSE_ILLEGAL = 2,
  CAUSE_BREAKPOINT = 3,
  CAUSE_LOAD_MISALIGNED = 4,
  CAUSE_LOAD_FAULT = 5,
  CAUSE_STORE_MISALIGNED = 6,
  CAUSE_STORE_FAULT = 7,
  CAUSE_ECALL_M = 11,
  CAUSE_IRQ_TIMER = (int)0x80000007u,
  CAUSE_IRQ_EXTERNAL = (int)0x8000000Bu,
};

#define MSTATUS_MIE  (1u << 3)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP  (3u << 11)
#define MIE_MTIE     (1u << 7)
#define MIE_MEIE     (1u << 11)
#define MISA_RV32IM  0x40001100u

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
