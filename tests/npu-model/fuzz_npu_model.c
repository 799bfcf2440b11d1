/* fuzz_npu_model.c: libFuzzer target for the C model's stream reader and
 * dispatcher. The input is a command stream (whole 16-byte commands); it runs
 * on a small target (so any single command is cheap) with a 4 KiB window and
 * a dispatch limit. Every outcome is fine except a crash, a sanitizer report,
 * a hang, or a write outside the window (guard bytes). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npu_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const tsl_target_t tiny = {
    .name = "fuzz", .hash = 0, .dim = 4, .spad_rows = 256, .spad_banks = 2, .acc_rows = 64, .acc_banks = 1,
    .param_rows = 4, .cmd_sram_bytes = 4096, .queue_depth = 4, .token_max = 3, .loop_depth = 4,
    .dram_bytes_per_cycle = 8, .dram_latency = 30, .dram_max_inflight = 4, .dram_burst_bytes = 64,
    .preload_rows_per_cycle = 1, .dw_macs_per_cycle = 16, .dw_cache_taps = 9, .vec_rows_per_cycle = 1, .clock_mhz = 50};

enum { WIN = 4096, GUARD = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t mem[GUARD + WIN + GUARD];
  static npu_model_t *m;
  if (!m) m = npu_model_new(&tiny);
  if (!m) abort();
  size_t n = size / 16;
  if (n > 256) n = 256;
  memset(mem, 0x5A, sizeof mem);
  /* 300 commands and 2^22 simulated cycles: a 255x255-window VPOOL or
   * MATMUL takes 65,025 cycles an output pixel, so under the default 2^32
   * a few hundred of them ran for half a minute under ASan */
  npu_run_t run = {data, (uint32_t)n, mem + GUARD, WIN, 300, 0, (uint64_t)1 << 22};
  npu_result_t r;
  int rc = npu_model_run(m, &run, &r);
  if (rc < 0 || (rc > 0 && r.message[0] == 0)) abort();
  for (int i = 0; i < GUARD; i++)
    if (mem[i] != 0x5A || mem[GUARD + WIN + i] != 0x5A) abort();
  return 0;
}
