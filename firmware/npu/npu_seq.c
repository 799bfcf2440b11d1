/* npu_seq.c: the NPU driver (npu.h) for the core-sequenced NPU
 * (docs/npu-seq.md): the control core itself runs the command semantics, with
 * the C model's own source (sim/npu-model: dispatcher, checks, loops, tokens,
 * every command's effect on the memories), and hands the array's MACs and the
 * epilogue's requantisation to the datapath on the NPU_SEQ window
 * (npu_datapath.h). Results, error codes, error indices and byte/MAC counters
 * are the C model's, so they equal the hardware NPU's of the same target bit
 * for bit; the cycle counters are the C model's estimates for that hardware,
 * and npu_run_info_t.wait_cycles is the core's real time.
 *
 * What a register window gives the hardware driver lives here in data
 * memory: the command SRAM image, the DRAM window, STREAM_BASE/LEN and the
 * outcome of the last run. The scratchpad, accumulator and parameter rows
 * are the model's (allocated once, at npu_init). A run is synchronous: the
 * core executes the whole stream in npu_wait (npu_start only records it), so
 * STATUS is never BUSY between calls, npu_abort has nothing to stop, and the
 * watchdog is the model's work limit (every run ends: deadlocks are
 * detected, loops are bounded), reported as NPU_ERR_TIMEOUT. */
#include <string.h>

#include "npu.h"
#include "npu_common.h"
#include "npu_datapath.h"
#include "npu_model.h"
#include "timer.h"

static npu_model_t *model;
static uint8_t cmd_sram[TSL_CMD_SRAM_BYTES] __attribute__((aligned(16)));
static uint32_t win_base, win_size;
static uint32_t fetch_base, fetch_size;
static uint32_t stream_base, stream_len;
static int started;
static npu_result_t last;
static npu_fetch_t fetch;    /* the fetch in flight (the model's: same checks and codes as the hardware) */
static uint32_t fetch_code;  /* its CTRL.FETCH outcome */

int npu_init(void) {
  if (model) return NPU_OK;
  const tsl_target_t *t = tsl_target_find(TSL_TARGET_NAME);
  if (!t || t->hash != TSL_TARGET_HASH) return NPU_ERR_TARGET;
  if (!npu_dp_present()) return NPU_ERR_NO_DEVICE;
  model = npu_model_new(t);
  return model ? NPU_OK : NPU_ERR_NO_DEVICE;
}

uint32_t npu_status(void) {
  uint32_t s = last.code != TSL_ERR_NONE ? TSL_REG_STATUS_ERROR : 0;
  if (fetch.pending) s |= TSL_REG_STATUS_FETCH_BUSY; /* a fetch completes when waited for or a run starts */
  return started ? s : s | TSL_REG_STATUS_DONE;
}

int npu_load_stream(uint32_t sram_off, const void *cmds, uint32_t ncmds) {
  if (!npu_sram_range_ok(sram_off, ncmds)) return NPU_ERR_ARG;
  memcpy(cmd_sram + sram_off, cmds, (size_t)ncmds * TSL_CMD_BYTES);
  return NPU_OK;
}

int npu_set_window(uint32_t base, uint32_t size) {
  if (!npu_window_ok(base, size)) return NPU_ERR_ARG;
  win_base = base, win_size = size;
  return NPU_OK;
}

int npu_start(uint32_t sram_off, uint32_t ncmds) {
  if (!model) return NPU_ERR_NO_DEVICE;
  stream_base = sram_off, stream_len = ncmds, started = 1;
  return NPU_OK;
}

void npu_abort(void) {}

/* The stream fetch (npu.h): the checks of CTRL.FETCH at npu_fetch_stream, the
 * copy when the fetch is waited for or a run starts (npu_model_run_fetching:
 * FETCH_OVERLAP if the run's stream meets its destination). */
int npu_set_fetch_window(uint32_t base, uint32_t size) {
  if (!npu_window_ok(base, size)) return NPU_ERR_ARG;
  if (fetch.pending) return NPU_ERR_BUSY;
  fetch_base = base, fetch_size = size;
  return NPU_OK;
}

int npu_fetch_stream(uint32_t src_off, uint32_t sram_off, uint32_t ncmds) {
  if (!npu_sram_range_ok(sram_off, ncmds)) return NPU_ERR_ARG;
  if (fetch.pending) return NPU_ERR_BUSY;
  fetch_code = (uint32_t)npu_fetch_start(&fetch, (const uint8_t *)(uintptr_t)fetch_base, fetch_size, src_off,
                                         sram_off, ncmds, sizeof cmd_sram, started ? stream_base : 0,
                                         started ? stream_len : 0);
  return NPU_OK;
}

int npu_fetch_wait(uint64_t timeout_cycles, uint32_t *err_code) {
  (void)timeout_cycles;
  npu_fetch_finish(&fetch, cmd_sram);
  if (err_code) *err_code = fetch_code;
  return fetch_code != TSL_ERR_NONE ? NPU_ERR_HW : NPU_OK;
}

int npu_wait(uint64_t timeout_cycles, npu_run_info_t *info) {
  npu_run_info_t local;
  if (!info) info = &local;
  (void)timeout_cycles;
  uint64_t t0 = timer_now();
  if (!started) return NPU_ERR_ARG;
  started = 0;
  npu_model_run_fetching(model, cmd_sram, sizeof cmd_sram, stream_base, stream_len,
                         (uint8_t *)(uintptr_t)win_base, win_size, &fetch, &last);
  size_t ns = npu_model_nsnapshots(model);
  *info = (npu_run_info_t){
      .status = npu_status(),
      .err_code = last.code,
      .err_index = last.index,
      .mark_count = (uint32_t)ns,
      .mark_kernel = ns ? (uint32_t)npu_model_snapshot(model, ns - 1)->kernel : 0,
      .wait_cycles = timer_now() - t0,
  };
  if (last.code == NPU_MODEL_ERR_LIMIT) return NPU_ERR_TIMEOUT;
  if (last.code == NPU_MODEL_ERR_NOMEM) return NPU_ERR_NO_DEVICE;
  return last.code != TSL_ERR_NONE ? NPU_ERR_HW : NPU_OK;
}

int npu_run(uint32_t sram_off, uint32_t ncmds, uint64_t timeout_cycles, npu_run_info_t *info) {
  int rc = npu_start(sram_off, ncmds);
  if (rc != NPU_OK) return rc;
  return npu_wait(timeout_cycles, info);
}

uint64_t npu_counter(unsigned i) { return i < TSL_NCOUNTERS && model ? npu_model_counters(model)[i] : 0; }

void npu_read_counters(uint64_t *out) {
  for (unsigned i = 0; i < TSL_NCOUNTERS; i++) out[i] = npu_counter(i);
}

const char *npu_hw_error_name(uint32_t code) { return tsl_err_name((int)code); }

const char *npu_strerror(int rc) {
  return npu_strerror_as(rc, "no core-sequenced NPU datapath answers (or no memory for its SRAMs)",
                         "the firmware is built for a target it does not know", "the run passed the C model's work limit");
}
