/* nonfinite: counting NaN/Inf in input data and the one warning about it. */
#include "nonfinite.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int64_t nonfinite_count(const npy_array *a, int64_t *first, int *first_nan) {
  if (a->dtype != NPY_F32 && a->dtype != NPY_F64) return 0;
  size_t size = a->dtype == NPY_F32 ? 4 : 8, n = a->nbytes / size;
  int64_t count = 0;
  for (size_t i = 0; i < n; i++) {
    double x;
    if (a->dtype == NPY_F32) {
      float f;
      memcpy(&f, (const unsigned char *)a->data + i * 4, 4); /* no alignment assumed */
      x = f;
    } else {
      memcpy(&x, (const unsigned char *)a->data + i * 8, 8);
    }
    if (isfinite(x)) continue;
    if (!count++) *first = (int64_t)i, *first_nan = isnan(x) != 0;
  }
  return count;
}

int64_t nonfinite_warn(const char *cmd, const char *file, const char *input, const npy_array *a, int quantised) {
  int64_t first = 0;
  int nan = 0;
  int64_t count = nonfinite_count(a, &first, &nan);
  if (count)
    fprintf(stderr,
            "tessel %s: warning: %s: input '%s' holds %lld NaN/Inf value%s, the first (%s) at element %lld: "
            "%s, so outputs that depend on %s are not meaningful\n",
            cmd, file, input, (long long)count, count == 1 ? "" : "s", nan ? "NaN" : "Inf", (long long)first,
            quantised ? "quantisation maps NaN to the zero point and Inf to the int8 limits"
                      : "the float reference computes with them as they are",
            count == 1 ? "it" : "them");
  return count;
}
