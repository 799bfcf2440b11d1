/* hart.c: decode and execute RV32IM + Zicsr, machine mode. See hart.h.
 *
 * An instruction either retires (its register write and its commit-trace
 * line happen) or traps (nothing architectural changes except the trap CSRs
 * and pc). Every check that can trap is done before any state is written. */
#include "hart.h"

#include <string.h>

#include "csr.h"

void hart_reset(hart_t *h, bus_t *bus, uint32_t pc) {
  memset(h, 0, sizeof *h);
  h->bus = bus;
  h->pc = pc;
}

uint32_t hart_mip(const hart_t *h) { return bus_pending_irqs(h->bus); }

static void take_trap(hart_t *h, uint32_t cause, uint32_t tval) {
  h->mepc = h->pc;
  h->mcause = cause;
  h->mtval = tval;
  /* MPIE <- MIE, MIE <- 0; MPP stays machine mode. */
  uint32_t mie = h->mstatus & TSL_MSTATUS_MIE;
  h->mstatus = mie ? TSL_MSTATUS_MPIE : 0;
  h->pc = h->mtvec;
}

static int32_t imm_i(uint32_t in) { return (int32_t)in >> 20; }
static int32_t imm_s(uint32_t in) {
  /* Shift left as unsigned (no signed overflow), then arithmetic right. */
  uint32_t v = ((in >> 25) << 5) | ((in >> 7) & 0x1F);
  return (int32_t)(v << 20) >> 20;
}
static int32_t imm_b(uint32_t in) {
  uint32_t v = ((in >> 31) << 12) | (((in >> 7) & 1) << 11) | (((in >> 25) & 0x3F) << 5) |
               (((in >> 8) & 0xF) << 1);
  return (int32_t)(v << 19) >> 19;
}
static int32_t imm_j(uint32_t in) {
  uint32_t v = ((in >> 31) << 20) | (((in >> 12) & 0xFF) << 12) | (((in >> 20) & 1) << 11) |
               (((in >> 21) & 0x3FF) << 1);
  return (int32_t)(v << 11) >> 11;
}

/* M extension: division follows the RISC-V rules for x/0 and INT_MIN/-1. */
static uint32_t exec_muldiv(uint32_t f3, uint32_t a, uint32_t b) {
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  switch (f3) {
  case 0: return a * b;
  case 1: return (uint32_t)(((int64_t)sa * (int64_t)sb) >> 32);
  case 2: return (uint32_t)(((int64_t)sa * (int64_t)(uint64_t)b) >> 32);
  case 3: return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
  case 4:
    if (b == 0) return 0xFFFFFFFFu;
    if (a == 0x80000000u && sb == -1) return a;
    return (uint32_t)(sa / sb);
  case 5: return b == 0 ? 0xFFFFFFFFu : a / b;
  case 6:
    if (b == 0) return a;
    if (a == 0x80000000u && sb == -1) return 0;
    return (uint32_t)(sa % sb);
  default: return b == 0 ? a : a % b;
  }
}

/* Base R-type ALU; returns -1 for an encoding that is not RV32IM. */
static int exec_alu_r(uint32_t f3, uint32_t f7, uint32_t a, uint32_t b, uint32_t *out) {
  if (f7 == 0x01) {
    *out = exec_muldiv(f3, a, b);
    return 0;
  }
  if (f7 == 0x20) {
    if (f3 == 0) { *out = a - b; return 0; }
    if (f3 == 5) { *out = (uint32_t)((int32_t)a >> (b & 31)); return 0; }
    return -1;
  }
  if (f7 != 0) return -1;
  switch (f3) {
  case 0: *out = a + b; break;
  case 1: *out = a << (b & 31); break;
  case 2: *out = (int32_t)a < (int32_t)b; break;
  case 3: *out = a < b; break;
  case 4: *out = a ^ b; break;
  case 5: *out = a >> (b & 31); break;
  case 6: *out = a | b; break;
  default: *out = a & b; break;
  }
  return 0;
}

static int exec_alu_i(uint32_t f3, uint32_t in, uint32_t a, uint32_t *out) {
  int32_t imm = imm_i(in);
  uint32_t shamt = (in >> 20) & 31, f7 = in >> 25;
  switch (f3) {
  case 0: *out = a + (uint32_t)imm; break;
  case 2: *out = (int32_t)a < imm; break;
  case 3: *out = a < (uint32_t)imm; break;
  case 4: *out = a ^ (uint32_t)imm; break;
  case 6: *out = a | (uint32_t)imm; break;
  case 7: *out = a & (uint32_t)imm; break;
  case 1:
    if (f7 != 0) return -1;
    *out = a << shamt;
    break;
  default: /* 5 */
    if (f7 == 0) *out = a >> shamt;
    else if (f7 == 0x20) *out = (uint32_t)((int32_t)a >> shamt);
    else return -1;
    break;
  }
  return 0;
}

/* Zicsr. rd_val gets the old value. A write happens unless the instruction
 * is csrrs/csrrc (or their immediate forms) with a zero source. */
static int exec_csr(hart_t *h, uint32_t in, uint32_t *rd_val, int *wrote_cycle,
                    int *wrote_instret) {
  uint32_t f3 = (in >> 12) & 7, rs1 = (in >> 15) & 31, addr = in >> 20;
  uint32_t src = (f3 & 4) ? rs1 : h->x[rs1];
  int op = f3 & 3; /* 1 rw, 2 rs, 3 rc */
  int writes = op == 1 || rs1 != 0;
  uint32_t old = 0;
  if (!csr_exists(addr)) return -1;
  if (writes && (addr >> 10) == 3) return -1;
  if (csr_read(h, addr, &old) != 0) return -1;
  if (writes) {
    uint32_t nv = op == 1 ? src : op == 2 ? (old | src) : (old & ~src);
    if (csr_write(h, addr, nv) != 0) return -1;
    if (addr == TSL_CSR_MCYCLE || addr == TSL_CSR_MCYCLEH) *wrote_cycle = 1;
    if (addr == TSL_CSR_MINSTRET || addr == TSL_CSR_MINSTRETH) *wrote_instret = 1;
  }
  *rd_val = old;
  return 0;
}

/* Load or store. Misalignment is checked before the bus is asked, so a
 * misaligned access to an unmapped address reports misaligned. */
static int load(hart_t *h, uint32_t f3, uint32_t addr, uint32_t *out, uint32_t *cause) {
  unsigned size;
  switch (f3) {
  case 0: case 4: size = 1; break;
  case 1: case 5: size = 2; break;
  case 2: size = 4; break;
  default: *cause = TSL_CAUSE_ILLEGAL; return -1;
  }
  if (addr & (size - 1)) { *cause = TSL_CAUSE_LOAD_MISALIGNED; return -1; }
  uint32_t v;
  if (bus_load(h->bus, addr, size, &v) != BUS_OK) { *cause = TSL_CAUSE_LOAD_FAULT; return -1; }
  if (f3 == 0) v = (uint32_t)(int32_t)(int8_t)v;
  if (f3 == 1) v = (uint32_t)(int32_t)(int16_t)v;
  *out = v;
  return 0;
}

static int store(hart_t *h, uint32_t f3, uint32_t addr, uint32_t v, uint32_t *cause) {
  if (f3 > 2) { *cause = TSL_CAUSE_ILLEGAL; return -1; }
  unsigned size = 1u << f3;
  if (addr & (size - 1)) { *cause = TSL_CAUSE_STORE_MISALIGNED; return -1; }
  if (bus_store(h->bus, addr, size, v) != BUS_OK) { *cause = TSL_CAUSE_STORE_FAULT; return -1; }
  return 0;
}

/* wfi: wait until an interrupt is pending and enabled in mie (whatever
 * mstatus.MIE says). The only source that advances by itself is the timer,
 * so jump time forward to its compare value; with nothing that can wake the
 * hart, wfi retires as a no-op (the spec allows that). */
static void exec_wfi(hart_t *h) {
  bus_t *b = h->bus;
  if (hart_mip(h) & h->mie) return;
  if ((h->mie & TSL_MIE_MTIE) && b->mtimecmp > b->mtime && b->mtimecmp != UINT64_MAX) {
    h->mcycle += b->mtimecmp - b->mtime;
    b->mtime = b->mtimecmp;
  }
}

step_result hart_step(hart_t *h) {
  bus_t *b = h->bus;
  uint32_t pending = hart_mip(h) & h->mie;
  if ((h->mstatus & TSL_MSTATUS_MIE) && pending) {
    take_trap(h, (pending & TSL_MIE_MEIE) ? (uint32_t)TSL_CAUSE_IRQ_EXTERNAL : (uint32_t)TSL_CAUSE_IRQ_TIMER, 0);
    b->mtime++;
    h->mcycle++;
    return STEP_TRAPPED;
  }

  uint32_t pc = h->pc, in = 0, cause = TSL_CAUSE_ILLEGAL, tval = 0;
  uint32_t next = pc + 4, rd = 0, rd_val = 0;
  int writes_rd = 0, wrote_cycle = 0, wrote_instret = 0;
  uint8_t *p = bus_ram_ptr(b, pc, 4);
  if (!p || (pc & 3)) {
    cause = (pc & 3) ? TSL_CAUSE_FETCH_MISALIGNED : TSL_CAUSE_FETCH_FAULT;
    tval = pc;
    goto trap;
  }
  in = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  rd = (in >> 7) & 31;
  uint32_t f3 = (in >> 12) & 7, f7 = in >> 25;
  uint32_t a = h->x[(in >> 15) & 31], bv = h->x[(in >> 20) & 31];
  tval = in; /* illegal-instruction traps report the instruction word */

  switch (in & 0x7F) {
  case 0x37: rd_val = in & 0xFFFFF000u; writes_rd = 1; break;          /* lui */
  case 0x17: rd_val = pc + (in & 0xFFFFF000u); writes_rd = 1; break;   /* auipc */
  case 0x6F:                                                           /* jal */
    next = pc + (uint32_t)imm_j(in);
    rd_val = pc + 4; writes_rd = 1;
    break;
  case 0x67:                                                           /* jalr */
    if (f3 != 0) goto trap;
    next = (a + (uint32_t)imm_i(in)) & ~1u;
    rd_val = pc + 4; writes_rd = 1;
    break;
  case 0x63: {                                                         /* branches */
    int taken;
    switch (f3) {
    case 0: taken = a == bv; break;
    case 1: taken = a != bv; break;
    case 4: taken = (int32_t)a < (int32_t)bv; break;
    case 5: taken = (int32_t)a >= (int32_t)bv; break;
    case 6: taken = a < bv; break;
    case 7: taken = a >= bv; break;
    default: goto trap;
    }
    if (taken) next = pc + (uint32_t)imm_b(in);
    break;
  }
  case 0x03:                                                           /* loads */
    if (load(h, f3, a + (uint32_t)imm_i(in), &rd_val, &cause) != 0) {
      if (cause != TSL_CAUSE_ILLEGAL) tval = a + (uint32_t)imm_i(in);
      goto trap;
    }
    writes_rd = 1;
    break;
  case 0x23:                                                           /* stores */
    if (store(h, f3, a + (uint32_t)imm_s(in), bv, &cause) != 0) {
      if (cause != TSL_CAUSE_ILLEGAL) tval = a + (uint32_t)imm_s(in);
      goto trap;
    }
    break;
  case 0x13:                                                           /* ALU immediate */
    if (exec_alu_i(f3, in, a, &rd_val) != 0) goto trap;
    writes_rd = 1;
    break;
  case 0x33:                                                           /* ALU register */
    if (exec_alu_r(f3, f7, a, bv, &rd_val) != 0) goto trap;
    writes_rd = 1;
    break;
  case 0x0F:                                                           /* fence, fence.i */
    /* No caches or reordering here: both are no-ops once decoded. */
    if (f3 > 1) goto trap;
    break;
  case 0x73:                                                           /* system */
    if (f3 == 0) {
      if (in == 0x00000073u) { cause = TSL_CAUSE_ECALL_M; tval = 0; goto trap; }
      if (in == 0x00100073u) { cause = TSL_CAUSE_BREAKPOINT; tval = 0; goto trap; }
      if (in == 0x30200073u) {                                         /* mret */
        next = h->mepc;
        h->mstatus = ((h->mstatus & TSL_MSTATUS_MPIE) ? TSL_MSTATUS_MIE : 0) | TSL_MSTATUS_MPIE;
        break;
      }
      if (in == 0x10500073u) { exec_wfi(h); break; }
      goto trap;
    }
    if (f3 == 4) goto trap;
    if (exec_csr(h, in, &rd_val, &wrote_cycle, &wrote_instret) != 0) goto trap;
    writes_rd = 1;
    break;
  default:
    goto trap;
  }

  /* Control transfers to a target that is not 4-byte aligned trap on the
   * jump itself, which then does not retire (rd is not written). */
  if (next & 3) {
    cause = TSL_CAUSE_FETCH_MISALIGNED;
    tval = next;
    goto trap;
  }
  if (writes_rd && rd != 0) h->x[rd] = rd_val;
  if (h->trace) {
    if (writes_rd && rd != 0)
      fprintf(h->trace, "%08x %08x x%u=%08x\n", pc, in, rd, rd_val);
    else
      fprintf(h->trace, "%08x %08x\n", pc, in);
  }
  h->pc = next;
  if (!wrote_instret) h->minstret++;
  if (!wrote_cycle) h->mcycle++;
  b->mtime++;
  return STEP_RETIRED;

trap:
  take_trap(h, cause, tval);
  h->mcycle++;
  b->mtime++;
  return STEP_TRAPPED;
}
