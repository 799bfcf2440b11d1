/* csr.c: machine-mode CSRs. See csr.h. */
#include "csr.h"

int csr_exists(uint32_t addr) {
  switch (addr) {
  case TSL_CSR_MSTATUS: case TSL_CSR_MISA: case TSL_CSR_MIE: case TSL_CSR_MTVEC:
  case TSL_CSR_MSCRATCH: case TSL_CSR_MEPC: case TSL_CSR_MCAUSE: case TSL_CSR_MTVAL:
  case TSL_CSR_MIP: case TSL_CSR_MCYCLE: case TSL_CSR_MINSTRET: case TSL_CSR_MCYCLEH:
  case TSL_CSR_MINSTRETH: case TSL_CSR_MVENDORID: case TSL_CSR_MARCHID: case TSL_CSR_MIMPID:
  case TSL_CSR_MHARTID:
    return 1;
  default:
    return 0;
  }
}

int csr_read(const hart_t *h, uint32_t addr, uint32_t *value) {
  switch (addr) {
  case TSL_CSR_MSTATUS: *value = (h->mstatus & (TSL_MSTATUS_MIE | TSL_MSTATUS_MPIE)) | TSL_MSTATUS_MPP; return 0;
  case TSL_CSR_MISA: *value = TSL_CSR_MISA_VALUE; return 0;
  case TSL_CSR_MIE: *value = h->mie; return 0;
  case TSL_CSR_MTVEC: *value = h->mtvec; return 0;
  case TSL_CSR_MSCRATCH: *value = h->mscratch; return 0;
  case TSL_CSR_MEPC: *value = h->mepc; return 0;
  case TSL_CSR_MCAUSE: *value = h->mcause; return 0;
  case TSL_CSR_MTVAL: *value = h->mtval; return 0;
  case TSL_CSR_MIP: *value = hart_mip(h); return 0;
  case TSL_CSR_MCYCLE: *value = (uint32_t)h->mcycle; return 0;
  case TSL_CSR_MINSTRET: *value = (uint32_t)h->minstret; return 0;
  case TSL_CSR_MCYCLEH: *value = (uint32_t)(h->mcycle >> 32); return 0;
  case TSL_CSR_MINSTRETH: *value = (uint32_t)(h->minstret >> 32); return 0;
  case TSL_CSR_MVENDORID: case TSL_CSR_MARCHID: case TSL_CSR_MIMPID:
  case TSL_CSR_MHARTID: *value = 0; return 0;
  default: return -1;
  }
}

static void set_lo(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFF00000000ull) | v; }
static void set_hi(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFFull) | ((uint64_t)v << 32); }

int csr_write(hart_t *h, uint32_t addr, uint32_t value) {
  /* CSR addresses with bits 11:10 == 3 are read-only by the privileged spec. */
  if (!csr_exists(addr) || (addr >> 10) == 3) return -1;
  switch (addr) {
  case TSL_CSR_MSTATUS: h->mstatus = value & (TSL_MSTATUS_MIE | TSL_MSTATUS_MPIE); break;
  case TSL_CSR_MISA: break; /* WARL: the ISA is fixed */
  case TSL_CSR_MIE: h->mie = value & (TSL_MIE_MTIE | TSL_MIE_MEIE); break;
  case TSL_CSR_MTVEC: h->mtvec = value & ~3u; break;
  case TSL_CSR_MSCRATCH: h->mscratch = value; break;
  case TSL_CSR_MEPC: h->mepc = value & ~3u; break;
  case TSL_CSR_MCAUSE: h->mcause = value; break;
  case TSL_CSR_MTVAL: h->mtval = value; break;
  case TSL_CSR_MIP: break; /* MTIP and MEIP are driven by devices */
  case TSL_CSR_MCYCLE: set_lo(&h->mcycle, value); break;
  case TSL_CSR_MINSTRET: set_lo(&h->minstret, value); break;
  case TSL_CSR_MCYCLEH: set_hi(&h->mcycle, value); break;
  case TSL_CSR_MINSTRETH: set_hi(&h->minstret, value); break;
  default: return -1;
  }
  return 0;
}
