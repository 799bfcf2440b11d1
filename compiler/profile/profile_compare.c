#include "profile_compare.h"
int prof_print_compare(FILE *f, prof_cmp_format fmt, arena *ar, const profile *a, const profile *b, diag *d) {
  (void)f; (void)fmt; (void)ar; (void)a; (void)b;
  return diag_set(d, "compare: not yet");
}
