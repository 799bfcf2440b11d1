/* nonfinite: NaN and Inf in the float input data of `tessel run` and
 * `tessel ref`.
 *
 * Every engine quantises such data without complaint (NaN to the zero point,
 * Inf to the int8 limits; the float reference computes with it), and all of
 * them agree, so the user would never hear of it.  Refusing the data would
 * refuse legitimate inputs (masked values, sentinels), so both commands
 * warn instead, from this one place, and keep their exit status. */
#ifndef TESSEL_NONFINITE_H
#define TESSEL_NONFINITE_H

#include <stdint.h>

#include "npy.h"

/* Number of NaN and Inf elements in a (0 unless float32/float64); when any,
 * *first is the flat (C-order) index of the first and *first_nan whether it
 * is a NaN. */
int64_t nonfinite_count(const npy_array *a, int64_t *first, int *first_nan);

/* Prints to stderr, when `a` holds NaN or Inf,
 *   tessel CMD: warning: FILE: input 'NAME' holds N NaN/Inf values, the first
 *   (NaN) at element I: <what happens to them>
 * (quantised: the int8 engines' rule; else the float reference's) and returns
 * the count (0: nothing printed). */
int64_t nonfinite_warn(const char *cmd, const char *file, const char *input, const npy_array *a, int quantised);

#endif
