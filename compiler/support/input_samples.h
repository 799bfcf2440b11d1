/* input_samples: an .npy file's data as samples of one graph input, and the
 * messages that say why it is not: shared by `--calib` (compile, ir, ref),
 * `run`/`ref --input` and `tessel tune`, so a user gets the same words from
 * each.
 *
 * A file holds k samples of an input of shape [N, d1, ...] when its shape is
 * [k*N, d1, ...] with k >= 1: samples stack along dimension 0. */
#ifndef TESSEL_INPUT_SAMPLES_H
#define TESSEL_INPUT_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "ir.h"
#include "npy.h"

/* Returns k, or -1 with d set to "PATH: holds DTYPE, input 'X' is DTYPE"
 * (with how to convert numpy's default float64) or "PATH: shape [..] does
 * not match input 'X' [..] (samples stack along dimension 0: [N,..])". */
int64_t input_samples(const ir_value *in, const npy_array *x, const char *path, diag *d);

/* -1 with d set to the dtype message above when x's dtype is not in's; 0
 * otherwise. */
int input_dtype_check(const ir_value *in, const npy_array *x, const char *path, diag *d);

/* "[d0,d1,...]" of n dims into buf ('?' for a symbolic dimension < 0). */
const char *input_shape_text(const int64_t *dims, int n, char *buf, size_t size);

#endif
