/* csr.c: machine-mode CSRs. See csr.h. */
#include "csr.h"

int csr_exists(uint32_t addr) {
  switch (addr) {
  case CSR_MSTATUS: case CSR_MISA: case CSR_MIE: case CSR_MTVEC:
  case CSR_MSCRATCH: case CSR_MEPC: case CSR_MCAUSE: case CSR_MTVAL:
  case CSR_MIP: case CSR_MCYCLE: case CSR_MINSTRET: case CSR_MCYCLEH:
  case CSR_MINSTRETH: case CSR_MVENDORID: case CSR_MARCHID: case CSR_MIMPID:
  case CSR_MHARTID:
    return 1;
  default:
    return 0;
  }
}

int csr_read(const hart_t *h, uint32_t addr, uint32_t *value) {
  switch (addr) {
  case CSR_MSTATUS: *value = (h->mstatus & (MSTATUS_MIE | MSTATUS_MPIE)) | MSTATUS_MPP; return 0;
  case CSR_MISA: *value = MISA_RV32IM; return 0;
  case CSR_MIE: *value = h->mie; return 0;
  case CSR_MTVEC: *value = h->mtvec; return 0;
  case CSR_MSCRATCH: *value = h->mscratch; return 0;
  case CSR_MEPC: *value = h->mepc; return 0;
  case CSR_MCAUSE: *value = h->mcause; return 0;
  case CSR_MTVAL: *value = h->mtval; return 0;
  case CSR_MIP: *value = hart_mip(h); return 0;
  case CSR_MCYCLE: *value = (uint32_t)h->mcycle; return 0;
  case CSR_MINSTRET: *value = (uint32_t)h->minstret; return 0;
  case CSR_MCYCLEH: *value = (uint32_t)(h->mcycle >> 32); return 0;
  case CSR_MINSTRETH: *value = (uint32_t)(h->minstret >> 32); return 0;
  case CSR_MVENDORID: case CSR_MARCHID: case CSR_MIMPID:
  case CSR_MHARTID: *value = 0; return 0;
  default: return -1;
  }
}

static void set_lo(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFF00000000ull) | v; }
static void set_hi(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFFull) | ((uint64_t)v << 32); }

int csr_write(hart_t *h, uint32_t addr, uint32_t value) {
  /* CSR addresses with bits 11:10 == 3 are read-only by the privileged spec. */
  if (!csr_exists(addr) || (addr >> 10) == 3) return -1;
  switch (addr) {
  case CSR_MSTATUS: h->mstatus = value & (MSTATUS_MIE | MSTATUS_MPIE); break;
  case CSR_MISA: break; /* WARL: the ISA is fixed */
  case CSR_MIE: h->mie = value & (MIE_MTIE | MIE_MEIE); break;
  case CSR_MTVEC: h->mtvec = value & ~3u; break;
  case CSR_MSCRATCH: h->mscratch = value; break;
  case CSR_MEPC: h->mepc = value & ~3u; break;
  case CSR_MCAUSE: h->mcause = value; break;
  case CSR_MTVAL: h->mtval = value; break;
  case CSR_MIP: break; /* MTIP and MEIP are driven by devices */
  case CSR_MCYCLE: set_lo(&h->mcycle, value); break;
  case CSR_MINSTRET: set_lo(&h->minstret, value); break;
  case CSR_MCYCLEH: set_hi(&h->mcycle, value); break;
  case CSR_MINSTRETH: set_hi(&h->minstret, value); break;
  default: return -1;
  }
  return 0;
}
