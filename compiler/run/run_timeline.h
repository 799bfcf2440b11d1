/* run_timeline: the inference's timeline for the profile (the "timeline"
 * key of docs/profile-format.md) from the runtime's marks (tessel_rt.h).
 *
 * Each mark starts a phase that lasts until the next mark; the last mark
 * ends the inference. A kernel's or a fallback op's phase becomes its item;
 * every other phase is a gap, named for what the runtime did and, where
 * that alone does not place it, after its neighbours ("runtime between
 * kernel 2 'conv3' and fallback f1 'prob' (Softmax)"). Gaps of 0 cycles are
 * left out (the C model's clock counts NPU cycles only). Marks that did not
 * fit the runtime's buffer become one gap "not recorded" before the last. */
#ifndef TESSEL_RUN_TIMELINE_H
#define TESSEL_RUN_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "npu_profile.h"
#include "tessel_rt.h"
#include "tpkg_format.h"

typedef struct {
  npu_span_t *items; /* in order (allocated) */
  size_t n;
  char *names;       /* the items' names (allocated) */
} run_timeline;

/* The items of nmarks marks of one inference of package v (dropped: marks
 * that did not fit; marks[nmarks-1] is then the latest). Kernel items are
 * indexed by position in the profile's kernels (a kernel's segments share
 * it), fallback items by fallback record. 0, or -1 with d filled (out of
 * memory, or a mark naming a record the package does not have). Fewer than
 * two marks give no items. Free with run_timeline_free. */
int run_timeline_build(const tpkg_view *v, const tfw_tl_mark *marks, uint32_t nmarks, uint32_t dropped,
                       run_timeline *out, diag *d);

void run_timeline_free(run_timeline *t);

#endif
