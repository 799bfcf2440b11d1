/* profile_compare: two profiles side by side (e.g. fused vs --no-fusion).
 *
 * Kernels are matched by name (the k-th kernel named X in A with the k-th
 * named X in B). Kernels left over are grouped by the ONNX nodes they share
 * (one fused kernel in A against the unfused kernels of its nodes in B), and
 * unnamed kernels without nodes (a bare command stream) match by MARK id;
 * what still has no partner is listed as present in one profile only. Each
 * line shows cycles, DRAM bytes and MACs of both sides and B/A ratios;
 * totals at the end. */
#ifndef TESSEL_PROFILE_COMPARE_H
#define TESSEL_PROFILE_COMPARE_H

#include <stdio.h>

#include "profile.h"

typedef enum { PROF_CMP_TABLE, PROF_CMP_CSV, PROF_CMP_JSON } prof_cmp_format;

/* Writes the comparison of a (the baseline) and b. Returns 0, or -1 when
 * memory runs out (message in d). */
int prof_print_compare(FILE *f, prof_cmp_format fmt, arena *ar, const profile *a, const profile *b, diag *d);

#endif
