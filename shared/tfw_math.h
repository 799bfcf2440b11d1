/* tfw_math: libm-free f32 functions for the fallback ops (tfw_ops.h rules:
 * f32 +, -, *, /, comparisons, integer ops and int <-> f32 conversions only,
 * so host and rv32 soft-float give the same bits).  Each states its error
 * against the correctly rounded result over its whole domain, measured by
 * the tfw-math suite.  NaN in gives the quiet NaN 0x7fc00000. */
#ifndef TESSEL_TFW_MATH_H
#define TESSEL_TFW_MATH_H

#include <stdint.h>

float tfw_expf(float x); /* tfw_fallback.h */
float tfw_logf(float x);
float tfw_sqrtf(float x);      /* correctly rounded */
float tfw_powf(float x, float y);
float tfw_tanhf(float x);
float tfw_sigmoidf(float x);
float tfw_erff(float x);
float tfw_log1pf(float x);
float tfw_expm1f(float x);
float tfw_floorf(float x);
float tfw_ceilf(float x);
float tfw_rintf(float x);      /* round half to even */
float tfw_fabsf(float x);
uint32_t tfw_f32_bits(float x);
float tfw_bits_f32(uint32_t b);
int tfw_isnan(float x);

#endif
