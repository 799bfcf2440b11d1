/* make_sample: writes the sample package (sample_pkg.c) to argv[1]: the
 * input of the inspect and emit-c tests and the fuzzer's seed. */
#include <stdio.h>

#include "sample_pkg.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make-sample OUT.tpkg\n");
    return 2;
  }
  tpkg_package p;
  diag d = {{0}};
  sample_pkg(&p);
  if (tpkg_write_file(&p, argv[1], &d)) {
    fprintf(stderr, "make-sample: %s\n", d.msg);
    return 1;
  }
  return 0;
}
