/* npu_common.h: what both NPU drivers (npu.c for the hardware NPU,
 * npu_seq.c for the core-sequenced one) say the same way: the names of the
 * driver's return codes, with the device's own words for the three that
 * differ. Included by the drivers only. */
#ifndef TESSEL_FW_NPU_COMMON_H
#define TESSEL_FW_NPU_COMMON_H

#include "npu.h"

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
