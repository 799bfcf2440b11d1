/* npy: read and write NumPy .npy files (format versions 1.0, 2.0 and 3.0).
 *
 * Used by the compiler (--bind, --calib), the simulator (inputs/outputs) and
 * the tests (reference outputs). Data is little-endian and C order: Fortran-
 * order files are transposed to C order on read, big-endian files are
 * rejected (one-byte types have no byte order and are always accepted).
 * Every header field is checked, no more leniently than numpy (a shape
 * number with a leading zero, "(1, 1,08, 8)", is refused as Python refuses
 * the literal), and every error comes back as -1 with a one-line message
 * naming what is wrong.
 *
 * Memory: a successful npy_parse/npy_read fills `out` with a malloc'd
 * `data` buffer owned by the caller; release it with npy_free(). On error
 * `out` is left zeroed and owns nothing.
 */
#ifndef TESSEL_NPY_H
#define TESSEL_NPY_H

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 8

typedef enum {
  NPY_F32,  /* '<f4' */
  NPY_F64,  /* '<f8' */
  NPY_I8,   /* '|i1' */
  NPY_U8,   /* '|u1' */
  NPY_I16,  /* '<i2' */
  NPY_I32,  /* '<i4' */
  NPY_I64,  /* '<i8' */
  NPY_BOOL, /* '|b1', one byte per element */
  NPY_U16,  /* '<u2' */
  NPY_U32,  /* '<u4' */
  NPY_U64,  /* '<u8' */
} npy_dtype;

typedef struct {
  npy_dtype dtype;                /* element type */
  int ndim;                       /* 0 (scalar) .. NPY_MAX_DIMS */
  int64_t shape[NPY_MAX_DIMS];    /* shape[0..ndim-1], each >= 0 */
  void *data;                     /* C-order elements, little-endian */
  size_t nbytes;                  /* product(shape) * npy_dtype_size(dtype) */
} npy_array;

/* Parse a complete .npy image of `len` bytes. Returns 0 and fills `out`
 * (data copied, caller frees with npy_free), or -1 with a message in `err`
 * (always NUL-terminated when errlen > 0; err may be NULL). */
int npy_parse(const uint8_t *buf, size_t len, npy_array *out, char *err,
              size_t errlen);

/* Read and parse the file at `path`; messages start with the path. */
int npy_read(const char *path, npy_array *out, char *err, size_t errlen);

/* Write `a` to `path` as a version 1.0 file (2.0 if the header needs it).
 * The file appears complete or not at all: it is written to a temporary file
 * in the same folder and renamed over `path`. `a` is checked first (ndim,
 * shape, nbytes consistent). Returns 0, or -1 with a message. */
int npy_write(const char *path, const npy_array *a, char *err, size_t errlen);

/* Free a->data and zero *a. Safe on a zeroed array and on NULL. */
void npy_free(npy_array *a);

/* Bytes per element of `t`; 0 for a value outside the enum. */
size_t npy_dtype_size(npy_dtype t);

/* NumPy's name of `t` ("float32", "int8", ...); "?" outside the enum. */
const char *npy_dtype_name(npy_dtype t);

/* Element i of `a` as a double (int64/uint64 rounded to the nearest double;
 * bool 0 or 1); 0 for a dtype outside the enum. */
double npy_elem(const npy_array *a, size_t i);

#endif
