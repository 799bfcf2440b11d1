/* libFuzzer target for npy_parse: any byte string must give either a
 * consistent array or -1 with a message, never a crash, leak or UB. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  npy_array a;
  char err[256];
  if (npy_parse(data, size, &a, err, sizeof err) == 0) {
    /* A parsed array must describe itself consistently. */
    size_t count = 1;
    if (a.ndim < 0 || a.ndim > NPY_MAX_DIMS) abort();
    for (int i = 0; i < a.ndim; i++) {
      if (a.shape[i] < 0) abort();
      count *= (size_t)a.shape[i];
    }
    if (a.nbytes != count * npy_dtype_size(a.dtype) || a.data == NULL) abort();
    if (a.nbytes > size) abort();
    if (a.nbytes) ((volatile uint8_t *)a.data)[a.nbytes - 1] ^= 0;
    npy_free(&a);
  } else if (err[0] == '\0' || a.data != NULL) {
    abort(); /* every failure says why, and owns nothing */
  }
  return 0;
}
