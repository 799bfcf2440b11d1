/* tfw_math: libm-free f32 functions for the fallback ops (tfw_ops.h rules:
 * f32 +, -, *, /, comparisons, integer ops and int <-> f32 conversions only,
 * so host and rv32 soft-float give the same bits; tfw_math.c in fact uses
 * integer arithmetic only).  Each states its error against the exact result
 * over its whole domain (subnormal results included), as the tfw-ops-elem
 * suite measures it against double libm on ~1M points spread over every
 * float plus dense sweeps of the interesting ranges; the suite asserts the
 * bound given here.  Measured maxima (asserted bound in brackets):
 *   sqrt  0.5 ulp, bit-equal to a correctly rounded sqrtf [0.5]
 *   exp   0.503 ulp [1]
 *   log, log1p, expm1, tanh, sigmoid  0.5000 ulp [1]
 *   erf   0.5007 ulp [1]
 *   (a one-off run on every 257th float, 16.7M points each: exp 0.5045,
 *   erf 0.5013, the others 0.5000)
 *   pow   0.5000 ulp on 400k pairs of every class [1]: results that are
 *         floats (pow(2, 3) = 8) come out exact
 * i.e. all but exp are the correctly rounded result except within a tiny
 * fraction of an ulp of a rounding boundary; subnormal results are rounded
 * once, on their own grid.  floor, ceil, rint, fabs are exact.
 * NaN in gives the quiet NaN 0x7fc00000; -0 in gives -0 where the function
 * is odd (sqrt(-0) = -0). */
#ifndef TESSEL_TFW_MATH_H
#define TESSEL_TFW_MATH_H

#include <stdint.h>

/* A compensated f32 sum (Kahan), the order every engine keeps: from
 * {0, 0}, add each v in turn; .sum stays within a few ulp however long the
 * run (no reassociation under -ffp-contract=off, without -ffast-math). */
typedef struct {
  float sum, comp;
} tfw_ksum;

static inline void tfw_ksum_add(tfw_ksum *s, float v) {
  float y = v - s->comp;
  float t = s->sum + y;
  s->comp = (t - s->sum) - y;
  s->sum = t;
}

/* exp(x), computed in integer fixed point (no float operation at all, so
 * it is exact-by-construction the same everywhere, and ~15x cheaper than
 * soft-float on the RV32 core): within 1 ulp of the correctly rounded
 * result on every float of [-104, 89] (the fallback suite and
 * `make bench-fallback` measure it), exactly 1 at 0, +inf above ~88.72,
 * 0 below ~-103.97, subnormal results rounded once. */
float tfw_expf(float x);
float tfw_logf(float x);
float tfw_sqrtf(float x);      /* correctly rounded */
/* C99 / ONNX special cases: pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN;
 * a negative base with an integer exponent gets the sign of its parity, with
 * any other exponent NaN; zeros, infinities as C99 F.9.4.4. */
float tfw_powf(float x, float y);
float tfw_tanhf(float x);
float tfw_sigmoidf(float x);
float tfw_erff(float x);
float tfw_log1pf(float x);
float tfw_expm1f(float x);
float tfw_floorf(float x);
float tfw_ceilf(float x);
float tfw_rintf(float x);      /* round half to even; floor, ceil, rint keep -0 (ceil(-0.5) = -0) */
float tfw_fabsf(float x);
/* m * 2^e rounded once to f32 (nearest, ties to even; subnormals on their
 * grid, +inf above FLT_MAX, 0 for m = 0). Exact integer arithmetic. */
float tfw_f32_scaled(uint64_t m, int32_t e);
uint32_t tfw_f32_bits(float x);
float tfw_bits_f32(uint32_t b);
int tfw_isnan(float x);

#endif
