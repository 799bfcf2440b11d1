/* npu_run.c: test firmware of the NPU system tests. Runs every case of the
 * batch at NPU_BATCH_BUS_ADDR (tests/npu-system/npu_batch.h, placed there by
 * `tessel-sim --load`) through the driver: stream into command SRAM, window,
 * start, wait on the interrupt. Prints one line per case:
 *
 *   case K code=C index=I crc=XXXXXXXX cnt=H,H,...   (counters in hex)
 *
 * Exit status: 0 every case ran (whatever its NPU error), 2 watchdog expired,
 * 3 no NPU, 4 NPU of another target, 5 bad batch, 6 driver refused a case. */
#include <stdio.h>

#include "npu.h"
#include "npu_batch.h"
#include "tessel_fw.h"

static void print_hex64(uint64_t v) {
  if (v >> 32) printf("%lx%08lx", (unsigned long)(v >> 32), (unsigned long)(uint32_t)v);
  else printf("%lx", (unsigned long)v);
}

static uint32_t crc_table[256];

int main(void) {
  npu_batch_crc32_table(crc_table);
  int rc = npu_init();
  if (rc != NPU_OK) {
    printf("npu_run: %s\n", npu_strerror(rc));
    return rc == NPU_ERR_NO_DEVICE ? 3 : 4;
  }
  const npu_batch_hdr_t *h = (const npu_batch_hdr_t *)NPU_BATCH_BUS_ADDR;
  if (h->magic != NPU_BATCH_MAGIC || h->version != NPU_BATCH_VERSION || h->ncases > NPU_BATCH_MAX_CASES) {
    printf("npu_run: no valid batch at 0x%08lx\n", (unsigned long)NPU_BATCH_BUS_ADDR);
    return 5;
  }
  if (h->target_hash != TSL_TARGET_HASH) {
    printf("npu_run: batch is for target hash %08lx, firmware for %s (%08lx)\n", (unsigned long)h->target_hash,
           TSL_TARGET_NAME, (unsigned long)TSL_TARGET_HASH);
    return 4;
  }
  static const unsigned cmp[NPU_BATCH_NCMP] = NPU_BATCH_CMP_COUNTERS;
  const npu_batch_case_t *cases = (const npu_batch_case_t *)(h + 1);
  for (uint32_t k = 0; k < h->ncases; k++) {
    const npu_batch_case_t *c = &cases[k];
    const uint8_t *base = (const uint8_t *)NPU_BATCH_BUS_ADDR;
    rc = npu_load_stream(0, base + c->stream_off, c->ncmds);
    if (rc == NPU_OK) rc = npu_set_window(NPU_BATCH_BUS_ADDR + c->window_off, c->window_size);
    if (rc != NPU_OK) {
      printf("case %lu: driver refused: %s\n", (unsigned long)k, npu_strerror(rc));
      return 6;
    }
    npu_run_info_t info;
    rc = npu_run(0, c->ncmds, c->timeout ? c->timeout : NPU_TIMEOUT_DEFAULT, &info);
    if (rc == NPU_ERR_TIMEOUT) {
      printf("case %lu: %s (status %lx, index %lu)\n", (unsigned long)k, npu_strerror(rc),
             (unsigned long)info.status, (unsigned long)mmio_read32(NPU_REG_BASE + TSL_REG_CUR_INDEX));
      return 2;
    }
    uint32_t crc = npu_batch_crc32_fast(crc_table, 0, base + c->window_off, c->window_size);
    printf("case %lu code=%lu index=%lu crc=%08lx cnt=", (unsigned long)k, (unsigned long)info.err_code,
           (unsigned long)info.err_index, (unsigned long)crc);
    for (int i = 0; i < NPU_BATCH_NCMP; i++) {
      if (i) putchar(',');
      print_hex64(npu_counter(cmp[i]));
    }
    printf(" cycles=%lu\n", (unsigned long)npu_counter(TSL_CNT_CYCLES));
  }
  return 0;
}
