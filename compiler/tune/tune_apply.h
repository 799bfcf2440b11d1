/* tune_apply: what `tessel compile --tuning-log` and the tuner share to
 * apply a tuning log: the graph key of a model (level 2, SRAM residency) and
 * the lowering options that take the best record per workload. */
#ifndef TESSEL_TUNE_APPLY_H
#define TESSEL_TUNE_APPLY_H

#include <stdio.h>

#include "ir.h"
#include "lower/lower.h"
#include "tune_log.h"

/* The key of a whole lowered program ("graph <target> <16 hex digits>": a
 * hash of every kernel's kind, op and workload key, lowered with the default
 * plan), under which graph records keep the level-2 decision. */
void tune_graph_key(const lower_program *p, char *key, size_t n);

/* Makes lo apply table t: per-kernel schedules by workload key, and SRAM
 * residency off when t's best graph record for g says so (g is lowered once
 * with lo's options to find its graph key).  Reports on info (NULL: quiet)
 * how many kernels got a tuned schedule.  0, or -1 with d filled. */
int tune_apply(const ir_graph *g, const tsl_target_t *tg, lower_opts *lo, tune_table *t, FILE *info, diag *d);

#endif
