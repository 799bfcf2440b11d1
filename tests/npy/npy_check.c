/* npy-check FILE...: parse each .npy file with compiler/npy and print its
 * dtype and shape. Exit 0 if every file parses, 1 otherwise (each failure is
 * printed with the file name and what is wrong), 2 on bad usage.
 * Used by the models-manifest suite; also handy by hand. */
#include <stdio.h>
#include <string.h>

#include "npy.h"

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fprintf(argc < 2 ? stderr : stdout,
            "usage: npy-check FILE.npy...\n"
            "Parse each .npy file and print its dtype and shape.\n");
    return argc < 2 ? 2 : 0;
  }
  int bad = 0;
  for (int i = 1; i < argc; i++) {
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
    npy_free(&a);
  }
  return bad;
}
