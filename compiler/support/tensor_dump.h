/* tensor_dump: `--dump-tensors DIR` of tessel ref and tessel run: one .npy
 * per tensor, named after it, so `tessel compare DIR_A DIR_B` lines up the
 * tensors of two runs (docs/runtime.md, "Finding where results differ").
 *
 * File names: the tensor's name with every character outside [A-Za-z0-9._-]
 * replaced by '_', then ".npy". A quantised value of the int8 reference
 * named X.q is also written dequantised (float32) as X.npy, the name the
 * float reference gives the same tensor, so comparing a float dump with an
 * int8 dump shows per tensor where accuracy goes. */
#ifndef TESSEL_TENSOR_DUMP_H
#define TESSEL_TENSOR_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "ir.h"
#include "npy.h"

/* Creates dir (and its parents) if needed. 0, or -1 with d filled. */
int tensor_dump_dir(const char *dir, diag *d);

/* dir/<sanitised name><suffix>.npy into buf. */
void tensor_dump_path(char *buf, size_t n, const char *dir, const char *name, const char *suffix);

/* Writes array a as dir/<name><suffix>.npy. 0, or -1 with d filled. */
int tensor_dump_array(const char *dir, const char *name, const char *suffix, const npy_array *a, diag *d);

/* Writes value v (its elements at data) of a reference run, and its
 * dequantised float form as described above. 0, or -1 with d filled. */
int tensor_dump_value(const char *dir, const ir_value *v, const void *data, diag *d);

#endif
