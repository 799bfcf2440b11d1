/* profile_trace: the profile as a Chrome trace (the JSON "traceEvents"
 * format that Perfetto and chrome://tracing open): one track per unit (LOAD,
 * EXEC, STORE), one for the kernels and one for the control core's fallback
 * ops. Without a per-command timeline, each kernel gets one slice per unit
 * sized by the unit's busy cycles, kernels laid back to back by their
 * CYCLES; with one ("commands" in the profile), one slice per command at its
 * recorded start and end. Times are microseconds at the target's clock. */
#ifndef TESSEL_PROFILE_TRACE_H
#define TESSEL_PROFILE_TRACE_H

#include <stdio.h>

#include "profile.h"

void prof_print_trace(FILE *f, const profile *p);

#endif
