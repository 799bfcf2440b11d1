/* npu_fetch.c: the stream fetch (CTRL.FETCH) as the hardware checks it
 * (rtl-model/npu/npu_fetch.sv, docs/isa.md section 9). See npu_model.h. */
#include <string.h>

#include "npu_model.h"

/* Byte ranges [a, a+an) and [b, b+bn), both non-empty, meet. */
static int meet(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return an && bn && a < b + bn && b < a + an; }

int npu_fetch_start(npu_fetch_t *f, const uint8_t *win, uint64_t win_size, uint32_t src, uint32_t dst,
                    uint32_t len, uint32_t sram_bytes, uint32_t run_base, uint32_t run_len) {
  uint64_t bytes = 16ull * len;
  f->pending = 0;
  if (src % 8 || dst % 16 || src + bytes > win_size || dst + bytes > sram_bytes) return TSL_ERR_FETCH_RANGE;
  if (meet(dst, bytes, run_base, 16ull * run_len)) return TSL_ERR_FETCH_OVERLAP;
  *f = (npu_fetch_t){.pending = len != 0, .src = win + src, .dst = dst, .len = len};
  return TSL_ERR_NONE;
}

int npu_fetch_clash(const npu_fetch_t *f, uint32_t base, uint32_t len) {
  return f->pending && meet(f->dst, 16ull * f->len, base, 16ull * len) ? TSL_ERR_FETCH_OVERLAP : TSL_ERR_NONE;
}

void npu_fetch_finish(npu_fetch_t *f, uint8_t *cmd_sram) {
  if (!f->pending) return;
  memcpy(cmd_sram + f->dst, f->src, 16u * (size_t)f->len);
  f->pending = 0;
}
