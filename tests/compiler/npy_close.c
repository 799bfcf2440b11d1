/* npy-close: compares two .npy files element by element, for the import suite.
 *   npy-close GOT.npy WANT.npy [--int-tol N]
 * Same dtype and shape required.  Floats: |got-want| <= 1e-4*|want| + 1e-4*max|want|
 * (relative, with an absolute floor at 1e-4 of the tensor's scale so values
 * near zero, whose sums frameworks order differently, do not fail spuriously).
 * Integers: |got-want| <= N (default 0; 1 for "1 LSB" quantised references).
 * Exit 0 when close, 1 when not (printing the worst element), 2 on bad files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"


int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "--int-tol"))) {
    fprintf(stderr, "usage: npy-close GOT.npy WANT.npy [--int-tol N]\n");
    return 2;
  }
  double int_tol = argc == 5 ? atof(argv[4]) : 0;
  npy_array got, want;
  char err[512];
  if (npy_read(argv[1], &got, err, sizeof err) || npy_read(argv[2], &want, err, sizeof err)) {
    fprintf(stderr, "npy-close: %s\n", err);
    return 2;
  }
  int rc = 0;
  if (got.dtype != want.dtype || got.ndim != want.ndim ||
      memcmp(got.shape, want.shape, sizeof(int64_t) * (size_t)got.ndim)) {
    fprintf(stderr, "npy-close: %s is %s rank %d, %s is %s rank %d (or shapes differ)\n", argv[1],
            npy_dtype_name(got.dtype), got.ndim, argv[2], npy_dtype_name(want.dtype), want.ndim);
    rc = 1;
  } else {
    size_t n = got.nbytes / npy_dtype_size(got.dtype);
    int is_float = got.dtype == NPY_F32 || got.dtype == NPY_F64;
    double scale = 0, worst = 0;
    size_t worst_i = 0;
    for (size_t i = 0; i < n; i++) scale = fmax(scale, fabs(npy_elem(&want, i)));
    for (size_t i = 0; i < n; i++) {
      double g = npy_elem(&got, i), w = npy_elem(&want, i);
      double tol = is_float ? 1e-4 * fabs(w) + 1e-4 * scale : int_tol;
      double excess = isnan(g) != isnan(w) ? INFINITY : fabs(g - w) - tol;
      if (excess > worst || (i == 0 && excess > 0)) worst = excess, worst_i = i;
    }
    if (worst > 0) {
      fprintf(stderr, "npy-close: element %zu: got %.9g, want %.9g (tensor scale %.3g)\n", worst_i,
              npy_elem(&got, worst_i), npy_elem(&want, worst_i), scale);
      rc = 1;
    }
  }
  npy_free(&got);
  npy_free(&want);
  return rc;
}
