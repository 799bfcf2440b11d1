/* tfw_npu.c: the runtime's backend on the NPU driver (firmware/npu/npu.h),
 * for this build's target. */
#include "cost_model.h"
#include "npu.h"
#include "tessel_rt.h"
#include "tfw_cvt.h"
#include "timer.h"

static int npu_backend_init(void *ctx) {
  (void)ctx;
  tfw_cvt_init(); /* the SoC's converter, where it has one, takes the fallback ops' conversions */
  return npu_init();
}

static int npu_backend_window(void *ctx, uint8_t *base, uint32_t bytes) {
  (void)ctx;
  return npu_set_window((uint32_t)(uintptr_t)base, bytes);
}

static int npu_backend_load(void *ctx, uint32_t off, const uint8_t *cmds, uint32_t n) {
  (void)ctx;
  return npu_load_stream(off, cmds, n);
}

/* The fetch window is the package's STREAMS section: a command's offset in
 * it is its address less the window's. */
static uint32_t fetch_base;

static int npu_backend_fetch_window(void *ctx, const uint8_t *base, uint32_t bytes) {
  (void)ctx;
  fetch_base = (uint32_t)(uintptr_t)base;
  return npu_set_fetch_window(fetch_base, bytes);
}

static int npu_backend_fetch(void *ctx, uint32_t off, const uint8_t *cmds, uint32_t n) {
  (void)ctx;
  return npu_fetch_stream((uint32_t)(uintptr_t)cmds - fetch_base, off, n);
}

static int npu_backend_fetch_wait(void *ctx) {
  (void)ctx;
  uint32_t code;
  int rc = npu_fetch_wait(NPU_FETCH_TIMEOUT_DEFAULT, &code);
  return rc == NPU_ERR_HW ? (int)code : rc;
}

/* npu_run as the two halves the runtime may split it into. */
static int npu_backend_start(void *ctx, uint32_t off, uint32_t n) {
  (void)ctx;
  return npu_start(off, n);
}

static int npu_backend_wait(void *ctx, uint64_t timeout, tfw_npu_result *r) {
  (void)ctx;
  npu_run_info_t info;
  int rc = npu_wait(timeout, &info);
  if (rc != NPU_OK && rc != NPU_ERR_HW && rc != NPU_ERR_TIMEOUT) return rc;
  r->status = info.err_code;
  r->err_index = info.err_index;
  r->timed_out = rc == NPU_ERR_TIMEOUT;
  return 0;
}

static int npu_backend_run(void *ctx, uint32_t off, uint32_t n, uint64_t timeout, tfw_npu_result *r) {
  int rc = npu_backend_start(ctx, off, n);
  return rc ? rc : npu_backend_wait(ctx, timeout, r);
}

static void npu_backend_counters(void *ctx, uint64_t out[TSL_NCOUNTERS]) {
  (void)ctx;
  npu_read_counters(out);
}

static uint64_t npu_backend_now(void *ctx) {
  (void)ctx;
  return timer_now();
}

static const tfw_backend npu_backend = {
    .target_hash = TSL_TARGET_HASH,
    .dim = TSL_DIM,
    .cmd_sram_bytes = TSL_CMD_SRAM_BYTES,
    .fetch_cmd_cycles = TSL_DRAM_LATENCY + COST_FETCH_CMD,
    .init = npu_backend_init,
    .set_window = npu_backend_window,
    .load_stream = npu_backend_load,
    .run = npu_backend_run,
    .start = npu_backend_start,
    .wait = npu_backend_wait,
    .counters = npu_backend_counters,
    .now = npu_backend_now,
    .strerror = npu_strerror,
    .set_fetch_window = npu_backend_fetch_window,
    .fetch_stream = npu_backend_fetch,
    .fetch_wait = npu_backend_fetch_wait,
};

const tfw_backend *tfw_npu_backend(void) { return &npu_backend; }
