/* pair_eval: mean absolute relative error and Spearman's rank correlation of
 * estimate/measured pairs (tests/tune/cost_vs_rtl.sh).
 *   pair_eval < PAIRS     one "estimate measured" pair per line
 * Prints "n N mae M spearman S" (M as a fraction).  The figures come from
 * tune_fit.h, the ones the tuner and fit_eval report.  Exit 1 on a line that
 * is not two non-negative integers (naming it), or with no pairs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tune/tune_fit.h"

int main(void) {
  size_t n = 0, cap = 0, line = 0;
  double *e = NULL, *m = NULL;
  char buf[256];
  while (fgets(buf, sizeof buf, stdin)) {
    line++;
    uint64_t a, b;
    char extra;
    if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %c", &a, &b, &extra) != 2 || b == 0) {
      fprintf(stderr, "pair_eval: line %zu: want \"estimate measured\" (measured > 0)\n", line);
      return 1;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      double *e2 = realloc(e, cap * sizeof *e), *m2 = e2 ? realloc(m, cap * sizeof *m) : NULL;
      if (!e2 || !m2) return 1;
      e = e2, m = m2;
    }
    e[n] = (double)a, m[n] = (double)b, n++;
  }
  if (!n) {
    fprintf(stderr, "pair_eval: no pairs\n");
    return 1;
  }
  printf("n %zu mae %.4f spearman %.4f\n", n, tune_fit_mae(e, m, n), tune_fit_spearman(e, m, n));
  free(e), free(m);
  return 0;
}
