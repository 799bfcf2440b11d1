/* csr.h: the machine-mode CSR file of the hart: which CSRs exist, which are
 * read-only, and what each write keeps. An access to a CSR that does not exist,
 * or a write to a read-only one, is an illegal instruction. */
#ifndef TESSEL_ISS_CSR_H
#define TESSEL_ISS_CSR_H

#include <stdint.h>

#include "hart.h"

/* CSR numbers: TSL_CSR_* of the generated tessel_memmap.h (via hart.h). */

/* Reads CSR addr into *value. Returns 0, or -1 if the CSR does not exist. */
int csr_read(const hart_t *h, uint32_t addr, uint32_t *value);

/* Writes CSR addr. Returns 0, or -1 if it does not exist or is read-only.
 * Read-only bits and WARL fields keep their fixed values. */
int csr_write(hart_t *h, uint32_t addr, uint32_t value);

/* Whether addr names a CSR at all (without reading it). */
int csr_exists(uint32_t addr);

#endif
