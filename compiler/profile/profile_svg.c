#include "profile_svg.h"
int prof_print_svg(FILE *f, const profile *p, const prof_row *rows, size_t n, diag *d) {
  (void)f; (void)p; (void)rows; (void)n;
  return diag_set(d, "svg: not yet");
}
