/* elem_test.h: what the two files of the tfw-ops-elem suite share. */
#ifndef TESSEL_ELEM_TEST_H
#define TESSEL_ELEM_TEST_H

#include <stdint.h>

uint32_t et_bits(float f);
float et_float(uint32_t u);
/* |got - ref| in units of the f32 ulp at ref (2^-149 at least); 0 when both
 * are the same infinity or got is the canonical NaN for a NaN ref; 1e9 for
 * a wrong class (finite vs inf, NaN vs number, a non-canonical NaN). */
double et_ulp_error(float got, double ref);

/* The math tests (test_elem_math.c). */
void test_math_sqrt(void **state);
void test_math_exp(void **state);
void test_math_log(void **state);
void test_math_log1p(void **state);
void test_math_expm1(void **state);
void test_math_tanh(void **state);
void test_math_sigmoid(void **state);
void test_math_erf(void **state);
void test_math_rounding(void **state);
void test_math_pow(void **state);
void test_math_pow_special(void **state);
void test_math_bits(void **state);

#endif
