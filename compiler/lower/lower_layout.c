/* lower_layout: the blocked DRAM layout of activations (NCHW -> NCHWc, c = DIM)
 * and the stream buffer.
 *
 * Contract: lower_pack/lower_unpack convert between the IR's row-major order
 * (NCHW, or [R, K] for a matmul operand) and [blocks][h][w][DIM] bytes; lanes
 * >= c are written with the zero point, so they read as real zeros. A
 * tensor a conv reads packed is [h][w][pack_b] bytes instead (one block of
 * pack_b lanes) from byte pack_off, the bytes around them left as they are. */
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"

/* Index of element (ch, y, x) in the IR's row-major order. */
static int64_t ir_index(const lower_tensor *t, int64_t ch, int64_t y, int64_t x) {
  if (t->rk) return y * t->c + ch; /* [R, K]: h = R rows, channel = K */
  return (ch * t->h + y) * t->w + x;
}

/* t's blocks in DRAM and their lanes: blocks of DIM, or one of pack_b. */
static int64_t dram_lanes(const lower_tensor *t, int dim) { return t->pack_b ? t->pack_b : dim; }

void lower_pack(const lower_tensor *t, int dim, const int8_t *src, uint8_t *dst) {
  const int64_t lanes = dram_lanes(t, dim), blocks = (t->c + lanes - 1) / lanes;
  for (int64_t b = 0; b < blocks; b++)
    for (int64_t y = 0; y < t->h; y++)
      for (int64_t x = 0; x < t->w; x++)
        for (int64_t l = 0; l < lanes; l++) {
          int64_t ch = b * lanes + l;
          int8_t v = ch < t->c ? src[ir_index(t, ch, y, x)] : (int8_t)t->zp;
          dst[t->pack_off + ((b * t->h + y) * t->w + x) * lanes + l] = (uint8_t)v;
        }
}

void lower_unpack(const lower_tensor *t, int dim, const uint8_t *src, int8_t *dst) {
  const int64_t lanes = dram_lanes(t, dim);
  for (int64_t ch = 0; ch < t->c; ch++)
    for (int64_t y = 0; y < t->h; y++)
      for (int64_t x = 0; x < t->w; x++)
        dst[ir_index(t, ch, y, x)] = (int8_t)src[t->pack_off + (((ch / lanes) * t->h + y) * t->w + x) * lanes + ch % lanes];
}

void lower_stream_put(lower_stream *s, const uint32_t w[4]) {
  if (s->bad) return;
  if (s->n == s->cap) {
    uint32_t cap = s->cap ? 2 * s->cap : 64;
    uint8_t *nb = realloc(s->bytes, (size_t)cap * 16);
    if (!nb) {
      s->bad = 1;
      return;
    }
    s->bytes = nb;
    s->cap = cap;
  }
  tsl_cmd_to_bytes(w, s->bytes + 16u * s->n++);
}
