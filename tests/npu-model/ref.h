/* ref.h: plain C reference loops for the NPU golden tests, written from the
 * operator definitions (NHWC int8, zero points, per-channel requantisation)
 * and deliberately not from the NPU's data layout or its arithmetic helpers:
 * rounding here uses a different formula than npu_arith.c. */
#ifndef REF_H
#define REF_H

#include <stdint.h>

/* round(v / 2^s), ties to even, by the add-and-shift formula. */
int64_t ref_rne_shift(int64_t v, unsigned s);
/* round(n / d), ties to even, d > 0, by comparing remainders in long double-free integer math. */
int64_t ref_rne_div(int64_t n, int64_t d);
int8_t ref_clamp(int64_t v, int lo, int hi);

/* A quantised convolution, NHWC in and out, weights [cout][kh][kw][cin/groups].
 * acc = sum over valid taps of (x - zx) * w; out = clamp(rne(sat32(acc + bias) * m, s) + zo). */
typedef struct {
  int h, w, cin, cout, kh, kw, sy, sx, dy, dx, pt, pl, oh, ow, groups;
  int zx, zo, lo, hi;
} ref_conv_t;

void ref_conv(const ref_conv_t *p, const int8_t *x, const int8_t *wt, const int32_t *bias, const int32_t *mult,
              const uint8_t *shift, int8_t *out);
/* The raw int32 accumulator of the same conv (no bias, no requant). */
void ref_conv_acc(const ref_conv_t *p, const int8_t *x, const int8_t *wt, int32_t *acc);

/* C[m][n] = sum_k A[m][k] * B[k][n] (int32). */
void ref_matmul(int m, int k, int n, const int8_t *a, const int8_t *b, int32_t *c);

/* Average pool over NHWC int8 with zero point zx: mean of (x - zx) over the
 * window (count_include_pad or not), times mult / 2^s, + zo, clamped. */
void ref_avgpool(int h, int w, int c, int k, int s, int pad, int include_pad, int zx, int32_t mult, unsigned sh,
                 int zo, int lo, int hi, int oh, int ow, const int8_t *x, int8_t *out);

/* Max pool over NHWC int8 (padding ignored). */
void ref_maxpool(int h, int w, int c, int k, int s, int pad, int oh, int ow, const int8_t *x, int8_t *out);

#endif
