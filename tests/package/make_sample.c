/* make_sample: writes the sample package (sample_pkg.c) to argv[1], or with
 * --minimal a package with one NOP kernel and nothing else: the inputs of
 * the inspect and emit-c tests and the fuzzer's seeds. */
#include <stdio.h>
#include <string.h>

#include "sample_pkg.h"
#include "tessel_isa.h"
#include "tessel_target.h"

int main(int argc, char **argv) {
  int minimal = argc == 3 && !strcmp(argv[2], "--minimal");
  if (argc != 2 && !minimal) {
    fprintf(stderr, "usage: make-sample OUT.tpkg [--minimal]\n");
    return 2;
  }
  static const uint32_t nop[1][4] = {{TSL_OP_NOP, 0, 0, 0}};
  tpkg_kernel k = {.name = "k", .cmds = nop, .n_cmds = 1};
  tpkg_package p = {.target_name = TSL_TARGET_NAME, .target_hash = TSL_TARGET_HASH,
                    .window = {.window_bytes = 16}, .kernels = &k, .n_kernels = 1};
  diag d = {{0}};
  if (!minimal) sample_pkg(&p);
  if (tpkg_write_file(&p, argv[1], &d)) {
    fprintf(stderr, "make-sample: %s\n", d.msg);
    return 1;
  }
  return 0;
}
