/* csr.h: the machine-mode CSR file of the hart: which CSRs exist, which are
 * read-only, and what each write keeps. An access to a CSR that does not exist,
 * or a write to a read-only one, is an illegal instruction. */
#ifndef TESSEL_ISS_CSR_H
#define TESSEL_ISS_CSR_H

#include <stdint.h>

#include "hart.h"

enum {
  CSR_MSTATUS = 0x300, CSR_MISA = 0x301, CSR_MIE = 0x304, CSR_MTVEC = 0x305,
  CSR_MSCRATCH = 0x340, CSR_MEPC = 0x341, CSR_MCAUSE = 0x342, CSR_MTVAL = 0x343,
  CSR_MIP = 0x344, CSR_MCYCLE = 0xB00, CSR_MINSTRET = 0xB02,
  CSR_MCYCLEH = 0xB80, CSR_MINSTRETH = 0xB82, CSR_MVENDORID = 0xF11, CSR_MARCHID = 0xF12,
  CSR_MIMPID = 0xF13, CSR_MHARTID = 0xF14,
};

/* Reads CSR addr into *value. Returns 0, or -1 if the CSR does not exist. */
int csr_read(const hart_t *h, uint32_t addr, uint32_t *value);

/* Writes CSR addr. Returns 0, or -1 if it does not exist or is read-only.
 * Read-only bits and WARL fields keep their fixed values. */
int csr_write(hart_t *h, uint32_t addr, uint32_t value);

/* Whether addr names a CSR at all (without reading it). */
int csr_exists(uint32_t addr);

#endif
