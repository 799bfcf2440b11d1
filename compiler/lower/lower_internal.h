/* lower_internal: what the lowering's stages share (not for other modules). */
#ifndef TESSEL_LOWER_INTERNAL_H
#define TESSEL_LOWER_INTERNAL_H

#include "lower.h"
#include "tessel_isa.h"

/* Geometry of a conv-like kernel (QMatMul is a 1x1 conv on an [R,K] "image"). */
typedef struct lower_conv_geom {
  int64_t c, h, w;        /* input channels and image */
  int64_t m, oh, ow;      /* output channels and image */
  int64_t kh, kw;         /* kernel */
  int64_t sy, sx, dy, dx; /* strides, dilations */
  int64_t pt, pl;         /* padding top, left (bottom/right follow from oh, ow) */
  int64_t group;          /* 1, or c == m == group for depthwise */
  int depthwise;          /* DWCONV */
  int zx, zy;             /* input, output zero points */
  int lo, hi;             /* clamp */
  /* w[m][c/group][kh][kw] as int8 (QMatMul: transposed into this form). */
  const int8_t *wgt;
  const int32_t *bias;    /* m biases, or NULL */
  const int64_t *mult, *shift; /* m (or 1: per tensor) requantisation constants */
  int n_mult;             /* entries in mult/shift */
} lower_conv_geom;

/* Appends n bytes to the program's constant blob (16-byte aligned start);
 * returns the DRAM offset, or -1 when out of memory. */
int64_t lower_consts_add(lower_program *p, const void *bytes, uint64_t n);

/* Lowers one conv/matmul kernel into k->stream: loads, MATMUL/DWCONV with the
 * epilogue in STORE (bias with the zero-point fold, requant, clamp).  Requires
 * x and y in the blocked DRAM layout; fills k's SRAM use.  0, or -1 with a
 * located error when it does not fit the target. */
int lower_conv(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_conv_geom *g, diag *d);

#endif
