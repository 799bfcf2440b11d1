/* npu.c: the NPU driver. See npu.h; register semantics in docs/isa.md
 * section 6. */
#include "npu.h"
#include "npu_common.h"

#include "csr.h"
#include "dcache.h"
#include "mmio.h"
#include "timer.h"
#include "trap.h"

static inline uint32_t reg_read(uint32_t off) { return mmio_read32(NPU_REG_BASE + off); }
static inline void reg_write(uint32_t off, uint32_t v) { mmio_write32(NPU_REG_BASE + off, v); }

int npu_init(void) {
  /* The data cache, where the SoC has one, is probed now (not in the first
   * run's wait) and holds nothing stale of a run before this one. */
  dcache_invalidate();
  /* A missing NPU answers with a bus error: the probe turns it into a code. */
  uint32_t id;
  if (trap_probe_read32(NPU_REG_BASE + TSL_REG_ID, &id) != 0 || id != TSL_REG_ID_VALUE) return NPU_ERR_NO_DEVICE;
  uint32_t version = reg_read(TSL_REG_VERSION);
  if ((version & 0xFFu) != TSL_ISA_VERSION || ((version >> 8) & 0xFFu) != TSL_DIM) return NPU_ERR_TARGET;
  if (reg_read(TSL_REG_TARGET_HASH) != TSL_TARGET_HASH) return NPU_ERR_TARGET;
  return NPU_OK;
}

uint32_t npu_status(void) { return reg_read(TSL_REG_STATUS); }

static int busy(void) { return (npu_status() & TSL_REG_STATUS_BUSY) != 0; }

int npu_load_stream(uint32_t sram_off, const void *cmds, uint32_t ncmds) {
  if (!npu_sram_range_ok(sram_off, ncmds)) return NPU_ERR_ARG;
  if (busy()) return NPU_ERR_BUSY;
  /* Byte reads (the caller's buffer may be unaligned), word writes. */
  const uint8_t *b = cmds;
  for (uint32_t i = 0; i < ncmds * (TSL_CMD_BYTES / 4); i++, b += 4) {
    uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    mmio_write32(NPU_CMD_BASE + sram_off + 4 * i, w);
  }
  return NPU_OK;
}

int npu_set_window(uint32_t base, uint32_t size) {
  /* The NPU checks command addresses only against size (docs/isa.md section 6). */
  if (!npu_window_ok(base, size)) return NPU_ERR_ARG;
  if (busy()) return NPU_ERR_BUSY;
  reg_write(TSL_REG_DRAM_BASE, base);
  reg_write(TSL_REG_DRAM_SIZE, size);
  return NPU_OK;
}

int npu_start(uint32_t sram_off, uint32_t ncmds) {
  if (busy()) return NPU_ERR_BUSY;
  reg_write(TSL_REG_STATUS, TSL_REG_STATUS_IRQ); /* a stale interrupt would wake the wait at once */
  reg_write(TSL_REG_STREAM_BASE, sram_off);
  reg_write(TSL_REG_STREAM_LEN, ncmds);
  reg_write(TSL_REG_IRQ_EN, 1u);
  reg_write(TSL_REG_CTRL, TSL_REG_CTRL_START);
  return NPU_OK;
}

void npu_abort(void) { reg_write(TSL_REG_CTRL, TSL_REG_CTRL_ABORT); }

static int fetch_busy(void) { return (npu_status() & TSL_REG_STATUS_FETCH_BUSY) != 0; }

int npu_set_fetch_window(uint32_t base, uint32_t size) {
  /* as npu_set_window: the NPU checks fetches only against size */
  if (!npu_window_ok(base, size)) return NPU_ERR_ARG;
  if (fetch_busy()) return NPU_ERR_BUSY;
  reg_write(TSL_REG_FETCH_BASE, base);
  reg_write(TSL_REG_FETCH_SIZE, size);
  return NPU_OK;
}

int npu_fetch_stream(uint32_t src_off, uint32_t sram_off, uint32_t ncmds) {
  if (!npu_sram_range_ok(sram_off, ncmds)) return NPU_ERR_ARG;
  if (fetch_busy()) return NPU_ERR_BUSY;
  reg_write(TSL_REG_FETCH_SRC, src_off);
  reg_write(TSL_REG_FETCH_DST, sram_off);
  reg_write(TSL_REG_FETCH_LEN, ncmds);
  reg_write(TSL_REG_CTRL, TSL_REG_CTRL_FETCH);
  return NPU_OK;
}

int npu_fetch_wait(uint64_t timeout_cycles, uint32_t *err_code) {
  uint64_t deadline = timer_now() + timeout_cycles;
  int timed_out = 0;
  while (fetch_busy()) {
    if (timer_now() >= deadline) {
      timed_out = 1;
      npu_abort();
      /* the fetch stops after its command in flight; bound the wait anyway */
      for (int i = 0; i < 1000 && fetch_busy(); i++) {
      }
      break;
    }
  }
  uint32_t code = reg_read(TSL_REG_FETCH_ERR);
  if (err_code) *err_code = code;
  if (timed_out) return NPU_ERR_TIMEOUT;
  return code != TSL_ERR_NONE ? NPU_ERR_HW : NPU_OK;
}

static void read_info(npu_run_info_t *info, uint32_t status) {
  info->status = status;
  info->err_code = reg_read(TSL_REG_ERR_CODE);
  info->err_index = reg_read(TSL_REG_ERR_INDEX);
  info->mark_count = reg_read(TSL_REG_MARK_COUNT);
  info->mark_kernel = reg_read(TSL_REG_MARK_KERNEL);
}

int npu_wait(uint64_t timeout_cycles, npu_run_info_t *info) {
  npu_run_info_t local;
  if (!info) info = &local;
  info->wakeups = 0;
  uint32_t saved_mie = csr_read(mie);
  uint32_t saved_mstatus = csr_read(mstatus);
  uint64_t t0 = timer_now();
  uint64_t deadline = t0 + timeout_cycles;
  /* With mstatus.MIE off, wfi wakes on an enabled pending interrupt without
   * taking it: the NPU's line (MEIP) ends the sleep, the timer (MTIP) is the
   * watchdog. No handler is involved, so nothing else's state changes. */
  irq_global_disable();
  timer_set_compare(deadline);
  csr_set(mie, MIE_MEIE | MIE_MTIE);
  uint32_t status;
  int timed_out = 0;
  while ((status = npu_status()) & TSL_REG_STATUS_BUSY) {
    if (timer_now() >= deadline) {
      timed_out = 1;
      break;
    }
    __asm__ volatile("wfi");
    info->wakeups++;
  }
  if (timed_out) {
    npu_abort();
    /* ABORT stops at once; bound the wait anyway so a dead NPU cannot hang us. */
    for (int i = 0; i < 1000 && ((status = npu_status()) & TSL_REG_STATUS_BUSY); i++) {
    }
  }
  /* The run is over and its last DRAM write answered (BUSY drops only
   * then): the data cache must forget what it held of the DRAM it wrote. */
  dcache_invalidate();
  reg_write(TSL_REG_STATUS, TSL_REG_STATUS_IRQ); /* drop the interrupt line */
  timer_disarm();
  csr_write(mie, saved_mie);
  csr_write(mstatus, saved_mstatus);
  info->wait_cycles = timer_now() - t0;
  read_info(info, status);
  if (timed_out) return NPU_ERR_TIMEOUT;
  return (status & TSL_REG_STATUS_ERROR) ? NPU_ERR_HW : NPU_OK;
}

int npu_run(uint32_t sram_off, uint32_t ncmds, uint64_t timeout_cycles, npu_run_info_t *info) {
  int rc = npu_start(sram_off, ncmds);
  if (rc != NPU_OK) return rc;
  return npu_wait(timeout_cycles, info);
}

uint64_t npu_counter(unsigned i) {
  if (i >= TSL_NCOUNTERS) return 0;
  uint32_t off = TSL_REG_COUNTERS + 8u * i;
  /* Counters only move while BUSY; read hi/lo/hi anyway so a read during a
   * run is not torn by a carry. */
  uint32_t hi, lo, hi2;
  do {
    hi = reg_read(off + 4);
    lo = reg_read(off);
    hi2 = reg_read(off + 4);
  } while (hi != hi2);
  return (uint64_t)hi << 32 | lo;
}

void npu_read_counters(uint64_t *out) {
  for (unsigned i = 0; i < TSL_NCOUNTERS; i++) out[i] = npu_counter(i);
}

const char *npu_hw_error_name(uint32_t code) { return tsl_err_name((int)code); }

const char *npu_strerror(int rc) {
  return npu_strerror_as(rc, "no NPU answers at 0x30000000", "the NPU is built for another target",
                         "watchdog: the run did not end in time and was aborted");
}
