/* fuzz_tpkg: libFuzzer target for the package reader (tpkg_check).
 * Each input is checked twice: as given, and with its CRCs recomputed from
 * its own section table, so mutations get past the CRCs and reach the
 * bounds, window, record and command checks. A package that validates is
 * then read through every accessor, and each fallback record prepared as
 * the runtime prepares it at load (tfw_fallback_prepare, with room and
 * without), so ASan sees any read the checks let through. The buffer is an
 * exact-size copy (no slack for overreads). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "tfw_fallback.h"
#include "tpkg_format.h"

static void read_all(const tpkg_view *v) {
  volatile uint32_t sink = 0;
  for (uint32_t k = 0; k < v->n_kernels; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    sink += (uint32_t)strlen(kv.name);
    for (uint32_t j = 0; j < kv.node_count; j++) sink += (uint32_t)strlen(tpkg_view_node(v, kv.node_first + j));
    for (uint32_t j = 0; j < kv.cmd_count; j++) sink += tpkg_view_cmd(v, kv.cmd_first + j)[15];
  }
  for (uint32_t i = 0; i < v->n_io; i++) {
    tpkg_io io;
    tpkg_view_io(v, i, &io);
    sink += (uint32_t)strlen(io.name);
  }
  uint32_t pos = 0;
  for (uint32_t i = 0; i < v->n_fallbacks; i++) {
    tpkg_fallback f;
    tpkg_view_fallback_at(v, &pos, &f);
    sink += (uint32_t)strlen(f.name);
    for (uint32_t k = 0; k < f.n_in + f.n_out; k++) {
      tpkg_operand o;
      tpkg_fallback_operand(&f, k, &o);
      sink += o.dims[TPKG_FB_MAX_RANK - 1] + o.block;
    }
    for (uint32_t k = 0; k < f.n_ints; k++) sink += (uint32_t)tpkg_fallback_int(&f, k);
    for (uint32_t k = 0; k < f.n_floats; k++) sink += tpkg_fallback_float(&f, k) > 0.0f;
  }
  if (v->n_fallbacks) {
    tpkg_fallback f;
    tpkg_view_fallback(v, v->n_fallbacks - 1, &f); /* the indexed walk to the last */
    sink += f.bytes;
  }
  /* Preparation reads the record and never the window (its operands become
   * pointers into it), so a small stand-in window will do. */
  static uint8_t window[64];
  static uint64_t prepared[8192 / 8];
  pos = 0;
  for (uint32_t i = 0; i < v->n_fallbacks; i++) {
    tpkg_fallback f;
    tpkg_view_fallback_at(v, &pos, &f);
    uint32_t need = 0;
    int checked = tfw_fallback_prepare(&f, window, v->window.window_bytes, 8, NULL, 0, &need);
    int rc = tfw_fallback_prepare(&f, window, v->window.window_bytes, 8, prepared, sizeof prepared, NULL);
    if (rc != checked || rc > 0 || rc <= -TFW_FB_E_NCODES || need % 8) abort();
  }
  if (v->weights_bytes) sink += v->weights[v->weights_bytes - 1];
  (void)sink;
}

static void refresh_crcs(uint8_t *b, size_t n) {
  if (n < TPKG_HEADER_BYTES) return;
  for (unsigned s = 0; s < TPKG_NSECT; s++) {
    uint8_t *e = b + TPKG_HEADER_FIXED + s * TPKG_SECT_ENTRY;
    uint64_t off = tpkg_rd32(e + 4), size = tpkg_rd32(e + 8);
    if (off + size <= n) tpkg_wr32(e + 12, crc32(b + off, (size_t)size));
  }
  tpkg_wr32(b + TPKG_H_CRC, 0);
  tpkg_wr32(b + TPKG_H_CRC, crc32(b, TPKG_HEADER_BYTES));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *b = malloc(size ? size : 1);
  if (!b) return 0;
  memcpy(b, data, size);
  tpkg_view v;
  tpkg_error e;
  if (tpkg_check(b, size, 0, TPKG_CHECK_ANY_TARGET, &v, &e) == TPKG_OK) read_all(&v);
  refresh_crcs(b, size);
  if (tpkg_check(b, size, 0, TPKG_CHECK_ANY_TARGET | TPKG_CHECK_LAZY_WEIGHTS, &v, &e) == TPKG_OK) {
    read_all(&v);
    (void)tpkg_check_weights(&v, &e);
  }
  if (e.msg == NULL || (unsigned)e.code >= TPKG_E_NCODES) abort(); /* every result names itself */
  free(b);
  return 0;
}
