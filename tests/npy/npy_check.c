/* npy-check [--values N] FILE...: parse each .npy file with compiler/npy and
 * print its dtype and shape, and with --values its first N elements. Exit 0
 * if every file parses, 1 otherwise (each failure is printed with the file
 * name and what is wrong), 2 on bad usage.
 * Used by the models-manifest suite and the demo; also handy by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

static void print_element(const npy_array *a, size_t i) {
  switch (a->dtype) {
  case NPY_F32: printf("%.6g", ((const float *)a->data)[i]); break;
  case NPY_F64: printf("%.6g", ((const double *)a->data)[i]); break;
  case NPY_I8: printf("%d", ((const int8_t *)a->data)[i]); break;
  case NPY_U8: printf("%u", ((const uint8_t *)a->data)[i]); break;
  case NPY_I16: printf("%d", ((const int16_t *)a->data)[i]); break;
  case NPY_I32: printf("%d", ((const int32_t *)a->data)[i]); break;
  case NPY_I64: printf("%lld", (long long)((const int64_t *)a->data)[i]); break;
  case NPY_U16: printf("%u", ((const uint16_t *)a->data)[i]); break;
  case NPY_U32: printf("%u", ((const uint32_t *)a->data)[i]); break;
  case NPY_U64: printf("%llu", (unsigned long long)((const uint64_t *)a->data)[i]); break;
  case NPY_BOOL: printf("%u", ((const uint8_t *)a->data)[i] != 0); break;
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("npy-check %s\n", TESSEL_VERSION);
    return 0;
  }
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fprintf(argc < 2 ? stderr : stdout,
            "usage: npy-check [--values N] FILE.npy...\n"
            "Parse each .npy file and print its dtype and shape (and its first N values).\n");
    return argc < 2 ? 2 : 0;
  }
  int first = 1;
  long values = 0;
  if (strcmp(argv[1], "--values") == 0) {
    char *end = NULL;
    values = argc > 2 ? strtol(argv[2], &end, 10) : -1;
    if (values < 0 || !end || *end != '\0' || argc < 4) {
      fprintf(stderr, "npy-check: --values needs a count >= 0 and then files\n");
      return 2;
    }
    first = 3;
  }
  for (int i = first; i < argc; i++)
    if (argv[i][0] == '-' && argv[i][1]) { /* it was read as a file: "--frob: cannot open" */
      fprintf(stderr, "npy-check: unknown option '%s' (a file named so: ./%s)\n", argv[i], argv[i]);
      return 2;
    }
  int bad = 0;
  for (int i = first; i < argc; i++) {
    npy_array a;
    char err[512];
    if (npy_read(argv[i], &a, err, sizeof err) != 0) {
      fprintf(stderr, "npy-check: %s\n", err);
      bad = 1;
      continue;
    }
    printf("%s: %s (", argv[i], npy_dtype_name(a.dtype));
    for (int d = 0; d < a.ndim; d++)
      printf("%s%lld", d ? ", " : "", (long long)a.shape[d]);
    printf("%s) %zu bytes\n", a.ndim == 1 ? "," : "", a.nbytes);
    size_t count = a.nbytes / npy_dtype_size(a.dtype);
    if (values > 0 && count > 0) {
      printf("  [");
      for (size_t k = 0; k < count && k < (size_t)values; k++) {
        printf("%s", k ? ", " : "");
        print_element(&a, k);
      }
      printf("%s]\n", count > (size_t)values ? ", ..." : "");
    }
    npy_free(&a);
  }
  return bad;
}
