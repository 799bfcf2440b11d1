/* input_samples: an .npy file's data as samples of one graph input, and the
 * messages that say why it is not: shared by `--calib` (compile, ir, ref),
 * `run`/`ref --input` and `tessel tune`, so a user gets the same words from
 * each.
 *
 * A file holds k samples of an input of shape [N, d1, ...] when its shape is
 * [k*N, d1, ...] with k >= 1: samples stack along dimension 0.
 *
 * Options name their graph input as NAME=FILE.npy or give a bare FILE.npy
 * (the only input of a one-input model for --calib; graph-input order for
 * --input). */
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

/* The graph input a NAME=FILE (*file = FILE) or bare FILE (*file = spec)
 * names: its index in g's inputs, -2 for a bare FILE, or -1 with d set to
 * "OPT NAME=FILE: the model has no graph input 'NAME' (its inputs: a, b)". */
int input_spec_find(const ir_graph *g, const char *opt, const char *spec, const char **file, diag *d);

/* The calibration samples of every graph input of g from --calib options
 * (specs[0..n_specs)): each file is read and checked (input_samples; the
 * caller checks that floats are finite); several files of one input are more samples, in order.  Every
 * input needs samples, and the inputs the same number of them, except that
 * an input given one sample uses it with every sample of the others (an
 * index or mask input that calibration does not range).  Inputs that are
 * not float (int64, int32, bool, uint8, int8) travel through unchanged. */
typedef struct input_sample_set {
  int n_files;
  npy_array *files;     /* the files read, by spec */
  int n_samples;        /* samples per input */
  int n_inputs;         /* g's graph inputs */
  const void **samples; /* samples[s * n_inputs + k]: input k of sample s */
} input_sample_set;

/* 0 with *set filled (input_sample_set_free it), or -1 with d set and
 * *set freed: "--calib FILE: the model has 2 graph inputs (a, b): give
 * --calib NAME=FILE.npy for each", an unknown NAME, "--calib: no samples for
 * graph input 'b' (give --calib b=FILE.npy)", unequal sample counts, and
 * input_samples' messages. */
int input_sample_set_load(const ir_graph *g, const char *const *specs, int n_specs, input_sample_set *set, diag *d);
void input_sample_set_free(input_sample_set *set);

/* "a, b, c": the names of g's graph inputs into buf. */
const char *input_names_text(const ir_graph *g, char *buf, size_t size);

/* "[d0,d1,...]" of n dims into buf ('?' for a symbolic dimension < 0). */
const char *input_shape_text(const int64_t *dims, int n, char *buf, size_t size);

#endif
