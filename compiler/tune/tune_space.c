/* tune_space: knob ranges, enumeration, random points, mutation (tune_space.h). */
#include "tune_space.h"

tune_space tune_space_of(int64_t m, int64_t oh, int64_t dim) {
  int64_t nob = (m + dim - 1) / dim;
  tune_space s = {.oh_max = (int)(oh < 1 ? 1 : oh > 255 ? 255 : oh), .g_max = (int)(nob < 1 ? 1 : nob > 7 ? 7 : nob),
                  .chunk_max = (int)(nob < 1 ? 1 : nob > 65535 ? 65535 : nob)};
  return s;
}

uint64_t tune_space_size(const tune_space *s) {
  return (uint64_t)s->oh_max * (uint64_t)s->g_max * (uint64_t)s->chunk_max * 2 * 2;
}

lower_sched tune_space_point(const tune_space *s, uint64_t i) {
  lower_sched x = {0};
  x.order = (int)(i % 2) + 1, i /= 2;
  x.wbuf = (int)(i % 2) + 1, i /= 2;
  x.ob_group = (int)(i % (uint64_t)s->g_max) + 1, i /= (uint64_t)s->g_max;
  x.ob_chunk = (int)(i % (uint64_t)s->chunk_max) + 1, i /= (uint64_t)s->chunk_max;
  x.oh_tile = (int)(i % (uint64_t)s->oh_max) + 1;
  return x;
}

tune_rng tune_rng_seed(uint64_t seed) {
  tune_rng r = {seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull};
  if (!r.s) r.s = 1;
  return r;
}

uint64_t tune_rng_next(tune_rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ull;
}

uint64_t tune_rng_below(tune_rng *r, uint64_t n) { return n ? tune_rng_next(r) % n : 0; }

lower_sched tune_space_random(const tune_space *s, tune_rng *r) {
  return tune_space_point(s, tune_rng_below(r, tune_space_size(s)));
}

/* Moves v in [1, max]: a step, a halving/doubling, or a fresh value. */
static int move(int v, int max, tune_rng *r) {
  switch (tune_rng_below(r, 4)) {
  case 0: v = v > 1 ? v - 1 : v + 1; break;
  case 1: v = v + 1; break;
  case 2: v = tune_rng_below(r, 2) ? v / 2 : v * 2; break;
  default: v = (int)tune_rng_below(r, (uint64_t)max) + 1; break;
  }
  return v < 1 ? 1 : v > max ? max : v;
}

lower_sched tune_space_mutate(const tune_space *s, const lower_sched *x, const lower_sched *y, tune_rng *r) {
  lower_sched z = *x;
  if (y) { /* uniform crossover */
    if (tune_rng_below(r, 2)) z.oh_tile = y->oh_tile;
    if (tune_rng_below(r, 2)) z.ob_group = y->ob_group;
    if (tune_rng_below(r, 2)) z.ob_chunk = y->ob_chunk;
    if (tune_rng_below(r, 2)) z.order = y->order;
    if (tune_rng_below(r, 2)) z.wbuf = y->wbuf;
  }
  switch (tune_rng_below(r, 5)) {
  case 0: z.oh_tile = move(z.oh_tile, s->oh_max, r); break;
  case 1: z.ob_group = move(z.ob_group, s->g_max, r); break;
  case 2: z.ob_chunk = move(z.ob_chunk, s->chunk_max, r); break;
  case 3: z.order = z.order == 2 ? 1 : 2; break;
  default: z.wbuf = z.wbuf == 2 ? 1 : 2; break;
  }
  if (z.oh_tile < 1) z.oh_tile = 1;
  if (z.ob_group < 1) z.ob_group = 1;
  if (z.ob_chunk < 1) z.ob_chunk = 1;
  if (z.order != 1 && z.order != 2) z.order = 1;
  if (z.wbuf != 1 && z.wbuf != 2) z.wbuf = 1;
  return z;
}
