/* npu_common.h: what both NPU drivers (npu.c for the hardware NPU,
 * npu_seq.c for the core-sequenced one) say the same way: the names of the
 * driver's return codes, with the device's own words for the three that
 * differ. Included by the drivers only. */
#ifndef TESSEL_FW_NPU_COMMON_H
#define TESSEL_FW_NPU_COMMON_H

#include "npu.h"

/* A DRAM window (the run's or the fetch's) the firmware may give the NPU:
 * 8-byte aligned, inside DRAM, not past the end of the address space. The
 * NPU checks addresses only against the size, so this is the driver's job. */
static inline int npu_window_ok(uint32_t base, uint32_t size) {
  return base % 8 == 0 && base >= NPU_DRAM_BUS_BASE && size <= 0xFFFFFFFFu - base + 1u;
}

/* ncmds commands at byte sram_off of the command SRAM: 16-byte aligned and inside it. */
static inline int npu_sram_range_ok(uint32_t sram_off, uint32_t ncmds) {
  return sram_off % TSL_CMD_BYTES == 0 && sram_off <= TSL_CMD_SRAM_BYTES &&
         ncmds <= (TSL_CMD_SRAM_BYTES - sram_off) / TSL_CMD_BYTES;
}

static inline const char *npu_strerror_as(int rc, const char *no_device, const char *target, const char *timeout) {
  switch (rc) {
  case NPU_OK: return "ok";
  case NPU_ERR_NO_DEVICE: return no_device;
  case NPU_ERR_TARGET: return target;
  case NPU_ERR_ARG: return "bad argument (alignment or range)";
  case NPU_ERR_BUSY: return "the NPU is busy";
  case NPU_ERR_TIMEOUT: return timeout;
  case NPU_ERR_HW: return "the run ended with an NPU error";
  default: return rc > 0 ? tsl_err_name(rc) : "unknown driver error";
  }
}

#endif
