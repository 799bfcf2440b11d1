/* fb_record: the tests' way to make a FALLBACK record (package format v2,
 * shared/tpkg_format.h) without a package: a description with its operands
 * and parameters in arrays the test edits field by field, encoded into the
 * record's bytes and decoded into the tpkg_fallback tfw_fallback_run takes.
 *
 * Freestanding and header-only (the RV32 checksum firmware uses it too). */
#ifndef TESSEL_FB_RECORD_H
#define TESSEL_FB_RECORD_H

#include <stdint.h>

#include "tfw_fallback.h"
#include "tpkg_format.h"

#define FB_TEST_OPERANDS 8u
#define FB_TEST_INTS 8u
#define FB_TEST_FLOATS 4u

/* A record: o[0 .. n_in-1] the inputs, then the outputs. */
typedef struct {
  uint32_t op, before_kernel;
  uint32_t n_in, n_out, n_ints, n_floats; /* at most the FB_TEST_* capacities */
  tpkg_operand o[FB_TEST_OPERANDS];
  int32_t ints[FB_TEST_INTS];
  float floats[FB_TEST_FLOATS];
} fb_desc;

/* The encoded bytes and the decoded header that points into them. */
typedef struct {
  uint8_t bytes[TPKG_FB_HEADER_BYTES + FB_TEST_OPERANDS * TPKG_FB_OPERAND_BYTES + 4u * (FB_TEST_INTS + FB_TEST_FLOATS)];
  tpkg_fallback f;
} fb_encoded;

static inline uint32_t fb_f32_bits(float f) {
  union {
    float f;
    uint32_t u;
  } b;
  b.f = f;
  return b.u;
}

/* An operand: rank dims from dims[], layout PLAIN, no scale, zp or block. */
static inline tpkg_operand fb_operand(uint32_t dtype, uint32_t rank, const uint32_t *dims, uint32_t offset,
                                      uint32_t size) {
  tpkg_operand o = {0};
  o.dtype = (uint8_t)dtype;
  o.rank = (uint8_t)rank;
  for (uint32_t i = 0; i < rank && i < TPKG_FB_MAX_RANK; i++) o.dims[i] = dims[i];
  o.offset = offset;
  o.size = size;
  return o;
}

/* Sets o's layout and, for BLOCKED, its block (the NPU's DIM); 0 otherwise. */
static inline void fb_set_layout(tpkg_operand *o, uint32_t layout, uint32_t dim) {
  o->layout = (uint8_t)layout;
  o->block = layout == TPKG_LAYOUT_BLOCKED ? dim : 0;
}

/* Encodes d into e (counts clamped to the capacities) and returns the
 * decoded record. The record's name is "" (a pointer to a NUL). */
static inline const tpkg_fallback *fb_encode(const fb_desc *d, fb_encoded *e) {
  uint32_t n_in = d->n_in, n_out = d->n_out, n_ints = d->n_ints, n_floats = d->n_floats;
  if (n_in > FB_TEST_OPERANDS) n_in = FB_TEST_OPERANDS;
  if (n_out > FB_TEST_OPERANDS - n_in) n_out = FB_TEST_OPERANDS - n_in;
  if (n_ints > FB_TEST_INTS) n_ints = FB_TEST_INTS;
  if (n_floats > FB_TEST_FLOATS) n_floats = FB_TEST_FLOATS;
  uint8_t *r = e->bytes;
  for (uint32_t i = 0; i < sizeof e->bytes; i++) r[i] = 0;
  uint32_t bytes = tpkg_fallback_bytes(n_in + n_out, n_ints, n_floats);
  tpkg_wr32(r + TPKG_FB_OP, d->op);
  tpkg_wr32(r + TPKG_FB_BEFORE, d->before_kernel);
  tpkg_wr32(r + TPKG_FB_BYTES, bytes);
  r[TPKG_FB_N_IN] = (uint8_t)n_in, r[TPKG_FB_N_OUT] = (uint8_t)n_out;
  r[TPKG_FB_N_INTS] = (uint8_t)n_ints, r[TPKG_FB_N_FLOATS] = (uint8_t)n_floats;
  for (uint32_t k = 0; k < n_in + n_out; k++) {
    const tpkg_operand *o = &d->o[k];
    uint8_t *p = r + TPKG_FB_HEADER_BYTES + k * TPKG_FB_OPERAND_BYTES;
    p[TPKG_FBO_DTYPE] = o->dtype, p[TPKG_FBO_LAYOUT] = o->layout, p[TPKG_FBO_RANK] = o->rank;
    tpkg_wr32(p + TPKG_FBO_OFFSET, o->offset);
    tpkg_wr32(p + TPKG_FBO_SIZE, o->size);
    for (uint32_t i = 0; i < TPKG_FB_MAX_RANK; i++) tpkg_wr32(p + TPKG_FBO_DIMS + 4 * i, o->dims[i]);
    tpkg_wr32(p + TPKG_FBO_SCALE, fb_f32_bits(o->scale));
    tpkg_wr32(p + TPKG_FBO_ZP, (uint32_t)o->zp);
    tpkg_wr32(p + TPKG_FBO_BLOCK, o->block);
  }
  uint8_t *q = r + TPKG_FB_HEADER_BYTES + (n_in + n_out) * TPKG_FB_OPERAND_BYTES;
  for (uint32_t i = 0; i < n_ints; i++) tpkg_wr32(q + 4 * i, (uint32_t)d->ints[i]);
  for (uint32_t i = 0; i < n_floats; i++) tpkg_wr32(q + 4 * (n_ints + i), fb_f32_bits(d->floats[i]));
  static const char no_name[1] = "";
  e->f = (tpkg_fallback){.op = d->op, .name = no_name, .before_kernel = d->before_kernel, .n_in = n_in,
                         .n_out = n_out, .n_ints = n_ints, .n_floats = n_floats, .rec = r, .bytes = bytes};
  return &e->f;
}

/* Encodes d and runs it: tfw_fallback_run's code. */
static inline int fb_run(const fb_desc *d, uint8_t *window, uint32_t window_bytes, uint32_t dim) {
  fb_encoded e;
  return tfw_fallback_run(fb_encode(d, &e), window, window_bytes, dim);
}

#endif
