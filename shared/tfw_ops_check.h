/* tfw_ops_check: the operand checks and the rounding shift the core
 * kernels of tfw_ops_elem.c, tfw_ops_reduce.c and tfw_ops_softmax.c share
 * (static inline: each kernel file stays separately linkable, so a board
 * firmware takes only the kernels its package uses). */
#ifndef TFW_OPS_CHECK_H
#define TFW_OPS_CHECK_H

#include "tfw_ops.h"

/* Elements of t; 0 with *ok cleared when its bytes would not fit a size_t. */
static inline size_t tfw_op_elems(const tfw_tensor *t, int *ok) {
  uint64_t n = 1;
  if (t->rank > TFW_MAX_RANK || !tpkg_dtype_bytes(t->dtype)) return *ok = 0, 0;
  for (uint32_t i = 0; i < t->rank; i++) {
    n *= t->dims[i];
    if (n > (uint64_t)SIZE_MAX / 8u) return *ok = 0, 0;
  }
  return (size_t)n;
}

/* 0 when c has min_in..max_in inputs and one output, each present, typed
 * and sized; else the TFW_FB_E_* error. */
static inline int tfw_op_operands(const tfw_call *c, uint32_t min_in, uint32_t max_in) {
  if (!c || !c->in || !c->out || c->n_out != 1) return TFW_FB_E_ARG;
  if (c->n_in < min_in || c->n_in > max_in) return TFW_FB_E_SHAPE;
  for (uint32_t i = 0; i <= c->n_in; i++) {
    const tfw_tensor *t = i < c->n_in ? &c->in[i] : c->out;
    int ok = 1;
    if (!tpkg_dtype_bytes(t->dtype)) return TFW_FB_E_DTYPE;
    if (!t->data) return TFW_FB_E_ARG;
    tfw_op_elems(t, &ok);
    if (!ok) return TFW_FB_E_SHAPE;
  }
  return 0;
}

/* Axis a of rank r (negative counts from the end) into *ax; 0 if out of range. */
static inline int tfw_op_axis(int32_t a, uint32_t r, uint32_t *ax) {
  int64_t v = a < 0 ? (int64_t)a + r : a;
  if (v < 0 || v >= (int64_t)r) return 0;
  *ax = (uint32_t)v;
  return 1;
}

/* 1 when a and b have the same rank and dims. */
static inline int tfw_op_same_dims(const tfw_tensor *a, const tfw_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (uint32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

/* x / 2^s rounded to nearest, ties to even (the NPU's rne_shift,
 * docs/isa.md section 3); s 1..63, |x| < 2^63. */
static inline int64_t tfw_op_shr_rne(int64_t x, unsigned s) {
  uint64_t ux = (uint64_t)x, half = 1ull << (s - 1);
  int neg = x < 0;
  uint64_t m = neg ? 0u - ux : ux;
  uint64_t q = m >> s, r = m & ((1ull << s) - 1u);
  if (r > half || (r == half && (q & 1u))) q++;
  return neg ? -(int64_t)q : (int64_t)q;
}

#endif
