/* npu_batchcheck.c: reads a batch (tests/npu-system/npu_batch.h) at
 * NPU_BATCH_BUS_ADDR without running it and prints the CRC-32 of every
 * case's stream and initial window:
 *
 *   case K ncmds=N stream=XXXXXXXX window=XXXXXXXX
 *
 * The generator writes the same lines (--initial), so the batch layout and
 * the firmware's CRC are checked on any SoC, with or without the NPU.
 * Exit 0, or 5 for a bad batch. */
#include <stdio.h>

#include "npu_batch.h"
#include "tessel_target.h"

static uint32_t crc_table[256];

int main(void) {
  npu_batch_crc32_table(crc_table);
  const npu_batch_hdr_t *h = (const npu_batch_hdr_t *)NPU_BATCH_BUS_ADDR;
  if (h->magic != NPU_BATCH_MAGIC || h->version != NPU_BATCH_VERSION || h->ncases > NPU_BATCH_MAX_CASES ||
      h->target_hash != TSL_TARGET_HASH) {
    printf("npu_batchcheck: no valid %s batch at 0x%08lx\n", TSL_TARGET_NAME, (unsigned long)NPU_BATCH_BUS_ADDR);
    return 5;
  }
  const npu_batch_case_t *cases = (const npu_batch_case_t *)(h + 1);
  const uint8_t *base = (const uint8_t *)NPU_BATCH_BUS_ADDR;
  for (uint32_t k = 0; k < h->ncases; k++) {
    const npu_batch_case_t *c = &cases[k];
    printf("case %lu ncmds=%lu stream=%08lx window=%08lx\n", (unsigned long)k, (unsigned long)c->ncmds,
           (unsigned long)npu_batch_crc32_fast(crc_table, 0, base + c->stream_off, 16u * c->ncmds),
           (unsigned long)npu_batch_crc32_fast(crc_table, 0, base + c->window_off, c->window_size));
  }
  return 0;
}
