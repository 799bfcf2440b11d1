/* tune_space: the schedule space of one task and how the search moves in it.
 *
 * The knobs are the lowering's (docs/lowering.md, section 5): oh_tile in
 * 1..min(OH, 255), ob_group in 1..min(7, output blocks), ob_chunk in
 * 1..output blocks, order 1 or 2, wbuf (weight buffers) 1 or 2.  They are
 * upper bounds the lowering clamps to what fits, so many points give the same effective schedule;
 * the driver dedupes by the effective one.  Randomness is a seeded
 * xorshift64*, so a seed gives the same search on every machine. */
#ifndef TESSEL_TUNE_SPACE_H
#define TESSEL_TUNE_SPACE_H

#include <stdint.h>

#include "lower/lower.h"

typedef struct tune_space {
  int oh_max, g_max, chunk_max; /* knob ranges (each >= 1) */
} tune_space;

/* The space of a kernel writing m output channels of an oh-row image on a
 * target with dim lanes. */
tune_space tune_space_of(int64_t m, int64_t oh, int64_t dim);
/* Points in the space. */
uint64_t tune_space_size(const tune_space *s);
/* Point number i (0 <= i < size), in a fixed order. */
lower_sched tune_space_point(const tune_space *s, uint64_t i);

/* Seeded generator state (never 0). */
typedef struct tune_rng {
  uint64_t s;
} tune_rng;
tune_rng tune_rng_seed(uint64_t seed);
uint64_t tune_rng_next(tune_rng *r);
/* Uniform in [0, n). */
uint64_t tune_rng_below(tune_rng *r, uint64_t n);

/* A uniformly random point. */
lower_sched tune_space_random(const tune_space *s, tune_rng *r);
/* A neighbour of x: one knob moved (a step, a halving/doubling or a fresh
 * value); with another parent y != NULL, first a crossover of the two. */
lower_sched tune_space_mutate(const tune_space *s, const lower_sched *x, const lower_sched *y, tune_rng *r);

#endif
