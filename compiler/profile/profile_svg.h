/* profile_svg: one self-contained SVG (no scripts, no external files) with
 * three charts: cycles per kernel stacked by what the EXEC unit did (compute,
 * preload stall, token stall, idle) plus fallback ops; DRAM bytes per kernel
 * (read + written) against the compulsory bytes; and the roofline of the
 * target (attainable MACs/cycle = min(DIM*DIM, intensity * DRAM bytes/cycle))
 * with one point per kernel (class "point"). */
#ifndef TESSEL_PROFILE_SVG_H
#define TESSEL_PROFILE_SVG_H

#include <stdio.h>

#include "profile_report.h"

/* Writes the charts. The DRAM bandwidth comes from the target named in the
 * profile (targets/NAME.cfg); an unknown target is an error (-1, message in d). */
int prof_print_svg(FILE *f, const profile *p, const prof_row *rows, size_t n, diag *d);

#endif
