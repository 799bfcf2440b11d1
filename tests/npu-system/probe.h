/* probe.h: what the instrumented copy of the C model saw (probe.c): the
 * epilogue events the differential tests must cover. Totals since start. */
#ifndef NPU_SYSTEM_PROBE_H
#define NPU_SYSTEM_PROBE_H

#include <stdint.h>

typedef struct {
  uint64_t requant, vadd, pool;        /* lanes through each path */
  uint64_t tie_requant, tie_vadd, tie_pool; /* exact ties of the final rounding */
  uint64_t sat32;                      /* acc + bias saturated to int32 */
  uint64_t clamp_lo, clamp_hi;         /* results clamped at lo / hi */
} probe_stats_t;

extern probe_stats_t probe_stats;

#endif
