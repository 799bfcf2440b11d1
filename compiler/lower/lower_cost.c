/* lower_cost: the cost model's estimate of a kernel's stream.
 *
 * Walks the stream in order with hardware loops expanded (loop offsets move
 * addresses, never sizes), prices every command with the one cost model
 * (sim/npu-model/cost_model.h) under the configuration registers in force,
 * and places it on the timelines of its unit as the C model does
 * (docs/cost-model.md, "Overlap between units"): the dispatcher hands over
 * one command per cycle and waits at a MARK until every unit is done; a
 * command starts at the latest of its unit's free time, its dispatch time
 * (no earlier than the start of the command queue_depth places before it in
 * the same queue) and the push times of the tokens it pops; its pushes
 * happen when it ends.  The estimate is the time the last unit finishes.
 *
 * Why not the busiest unit's total (the first estimate, 25-35% low): the
 * MARKs between reloads and kernels drain every unit, so a kernel's first
 * LOAD runs alone before the first MATMUL and its last STOREs after the last
 * one; those serial parts are most of the gap.
 *
 * Not modelled (so still a little optimistic): a push waiting for room in a
 * full token counter (token_max), and a pop whose token is pushed later in
 * stream order (the lowering emits none; it is taken as available). */
#include <stdlib.h>

#include "cost_model.h"
#include "lower_internal.h"

enum { F_LE, F_EL, F_ES, F_SE, NFIFO, RING = 256 }; /* token counters: LOAD->EXEC, EXEC->LOAD, ... */

typedef struct {
  uint64_t time[RING]; /* push times not yet popped */
  int head, n;
} tok_fifo;

typedef struct {
  int64_t ld_sx, ld_sy, ld_sz;     /* CFG_LOAD */
  int64_t kh, kw, ncb, sx, dx;     /* CFG_EXEC */
  int64_t vec_shift;               /* CFG_VEC */
  int64_t st_sx, st_sy, pool_k;    /* CFG_STORE, CFG_EPI */
  int64_t src_h, src_w, pool_s, pool_pt, pool_pl;
  uint64_t unit[4];                /* busy cycles per queue (FRONT, LOAD, EXEC, STORE) */
  /* The timeline. */
  uint64_t fe;                     /* the dispatcher's clock */
  uint64_t clock[4];               /* when each unit is free (LOAD, EXEC, STORE; its last pushes done) */
  uint64_t *starts[4];             /* per unit: start times of its last queue_depth commands (ring) */
  uint64_t nstarted[4];
  tok_fifo tok[NFIFO];
} cost_walk;

/* Which token counter a unit's flag uses (-1: none), units indexed by queue. */
static const int pop_prev_f[4] = {-1, -1, F_LE, F_ES}, pop_next_f[4] = {-1, F_EL, F_SE, -1};
static const int push_prev_f[4] = {-1, -1, F_EL, F_SE}, push_next_f[4] = {-1, F_LE, F_ES, -1};

/* Places one command of queue q with cost `cycles` on the timeline. */
static void place(const tsl_target_t *t, const uint32_t w[4], int q, uint64_t cycles, cost_walk *c) {
  unsigned op = w[0] & 0xFF;
  if (q <= 0) { /* the dispatcher's own: one cycle; a MARK first waits for every unit */
    if (op == TSL_OP_MARK)
      for (int u = 1; u < 4; u++)
        if (c->clock[u] > c->fe) c->fe = c->clock[u];
    c->fe++;
    return;
  }
  const uint64_t depth = (uint64_t)t->queue_depth;
  uint64_t disp = c->fe;
  if (c->nstarted[q] >= depth && c->starts[q][c->nstarted[q] % depth] > disp) disp = c->starts[q][c->nstarted[q] % depth];
  c->fe = disp + 1;
  uint64_t start = c->clock[q] > disp ? c->clock[q] : disp;
  const int pops[2] = {(w[0] >> 8) & 1 ? pop_prev_f[q] : -1, (w[0] >> 9) & 1 ? pop_next_f[q] : -1};
  for (int i = 0; i < 2; i++) {
    tok_fifo *f = pops[i] >= 0 ? &c->tok[pops[i]] : NULL;
    if (!f || !f->n) continue;
    if (f->time[f->head] > start) start = f->time[f->head];
    f->head = (f->head + 1) % RING, f->n--;
  }
  c->starts[q][c->nstarted[q]++ % depth] = start;
  c->clock[q] = start + cycles;
  const int pushes[2] = {(w[0] >> 10) & 1 ? push_prev_f[q] : -1, (w[0] >> 11) & 1 ? push_next_f[q] : -1};
  for (int i = 0; i < 2; i++) {
    tok_fifo *f = pushes[i] >= 0 ? &c->tok[pushes[i]] : NULL;
    if (!f) continue;
    if (f->n == RING) f->head = (f->head + 1) % RING, f->n--; /* beyond any token_max: keep the newest */
    f->time[(f->head + f->n++) % RING] = c->clock[q];
  }
}

static void price(const tsl_target_t *t, const uint32_t w[4], cost_walk *c, uint64_t times) {
  const uint64_t dim = (uint64_t)t->dim;
  unsigned op = w[0] & 0xFF;
  int q = tsl_op_queue(op);
  cost_t k = {0};
  switch (op) {
  case TSL_OP_CFG_LOAD: {
    tsl_cfg_load_t x = {0};
    tsl_cfg_load_decode(w, &x);
    c->ld_sx = x.stride_x, c->ld_sy = x.stride_y, c->ld_sz = x.stride_z;
    k = cost_config(t);
    break;
  }
  case TSL_OP_LOAD: {
    tsl_load_t x = {0};
    tsl_load_decode(w, &x);
    uint64_t e = x.mem == TSL_MEM_SPAD ? 1 : x.mem == TSL_MEM_ACC ? 4 : 9, run_rows = 1;
    uint64_t nx = (uint64_t)(x.nx - x.pad_left - x.pad_right), ny = (uint64_t)(x.ny - x.pad_top - x.pad_bottom);
    uint64_t runs = nx && ny ? cost_runs(nx, ny, (uint64_t)x.nz, (uint64_t)x.n0 * e, (uint64_t)x.dram,
                                         (uint64_t)c->ld_sx, (uint64_t)c->ld_sy, (uint64_t)c->ld_sz, &run_rows)
                             : 0;
    k = cost_load(t, runs, run_rows * (uint64_t)x.n0 * e, (uint64_t)(x.nx * x.ny * x.nz));
    break;
  }
  case TSL_OP_CFG_EXEC: {
    tsl_cfg_exec_t x = {0};
    tsl_cfg_exec_decode(w, &x);
    c->kh = x.kh, c->kw = x.kw, c->ncb = x.ncb, c->sx = x.stride_x, c->dx = x.dil_x;
    k = cost_config(t);
    break;
  }
  case TSL_OP_MATMUL: {
    tsl_matmul_t x = {0};
    tsl_matmul_decode(w, &x);
    k = cost_matmul(t, (uint64_t)(x.oh * x.ow), (uint64_t)(c->kh * c->kw * c->ncb));
    break;
  }
  case TSL_OP_DWCONV: {
    tsl_dwconv_t x = {0};
    tsl_dwconv_decode(w, &x);
    k = cost_dwconv(t, (uint64_t)x.oh, (uint64_t)x.ow, (uint64_t)c->kh, (uint64_t)c->kw, (uint64_t)c->sx,
                    (uint64_t)c->dx);
    break;
  }
  case TSL_OP_CFG_VEC: {
    tsl_cfg_vec_t x = {0};
    tsl_cfg_vec_decode(w, &x);
    c->vec_shift = x.shift;
    k = cost_config(t);
    break;
  }
  case TSL_OP_VADD: {
    tsl_vadd_t x = {0};
    tsl_vadd_decode(w, &x);
    k = cost_vadd(t, (uint64_t)x.rows);
    break;
  }
  case TSL_OP_VPOOL: {
    tsl_vpool_t x = {0};
    tsl_vpool_decode(w, &x);
    k = cost_vpool(t, (uint64_t)(x.oh * x.ow), (uint64_t)(x.oh * x.ow * c->kh * c->kw), (uint64_t)c->vec_shift);
    break;
  }
  case TSL_OP_CFG_STORE: {
    tsl_cfg_store_t x = {0};
    tsl_cfg_store_decode(w, &x);
    c->st_sx = x.stride_x, c->st_sy = x.stride_y;
    k = cost_config(t);
    break;
  }
  case TSL_OP_CFG_EPI: {
    tsl_cfg_epi_t x = {0};
    tsl_cfg_epi_decode(w, &x);
    c->pool_k = x.pool_k, c->src_h = x.src_h, c->src_w = x.src_w;
    c->pool_s = x.pool_s, c->pool_pt = x.pool_pad_t, c->pool_pl = x.pool_pad_l;
    k = cost_config(t);
    break;
  }
  case TSL_OP_STORE: {
    tsl_store_t x = {0};
    tsl_store_decode(w, &x);
    uint64_t e = x.raw ? 4 : 1;
    k = cost_store(t, (uint64_t)x.oh, (uint64_t)x.ow, (uint64_t)c->pool_k,
                   x.dst_mem == TSL_DST_DRAM ? (uint64_t)x.n0 * e : 0, x.src_mem == TSL_SRC_SPAD, x.raw);
    break;
  }
  default:
    k = cost_config(t);
    break;
  }
  (void)dim;
  if (q >= 0) c->unit[q] += k.cycles * times;
  if (c->starts[1]) place(t, w, q, k.cycles, c);
}

/* Prices commands [i, end) `times` times; returns the index after them. */
static uint32_t walk(const tsl_target_t *t, const lower_stream *s, uint32_t i, uint32_t end, uint64_t times,
                     cost_walk *c) {
  while (i < end && i < s->n) {
    uint32_t w[4];
    for (int j = 0; j < 4; j++)
      w[j] = (uint32_t)s->bytes[16 * i + 4 * j] | (uint32_t)s->bytes[16 * i + 4 * j + 1] << 8 |
             (uint32_t)s->bytes[16 * i + 4 * j + 2] << 16 | (uint32_t)s->bytes[16 * i + 4 * j + 3] << 24;
    if ((w[0] & 0xFF) == TSL_OP_LOOP) {
      tsl_loop_t l = {0};
      tsl_loop_decode(w, &l);
      if (c->starts[1]) { /* the timeline: the LOOP is dispatched once, its body count times */
        c->fe++;
        for (int64_t r = 0; r < l.count; r++) walk(t, s, i + 1, i + 1 + (uint32_t)l.body, times, c);
        i += 1 + (uint32_t)l.body;
        continue;
      }
      i = walk(t, s, i + 1, i + 1 + (uint32_t)l.body, times * (uint64_t)l.count, c);
      continue;
    }
    price(t, w, c, times);
    i++;
  }
  return i;
}

uint64_t lower_busiest_unit_cycles(const tsl_target_t *t, const lower_stream *s) {
  cost_walk c = {0};
  walk(t, s, 0, s->n, 1, &c);
  uint64_t best = c.unit[0];
  for (int q = 1; q < 4; q++)
    if (c.unit[q] > best) best = c.unit[q];
  return best;
}

void lower_unit_cycles(const tsl_target_t *t, const lower_stream *s, uint64_t busy[4]) {
  cost_walk c = {0};
  walk(t, s, 0, s->n, 1, &c);
  for (int q = 0; q < 4; q++) busy[q] = c.unit[q];
}

uint64_t lower_record_cycles(const tsl_target_t *t) { return 2 * (TSL_MARK_RECORD_BYTES / 8) + t->dram_latency; }

uint64_t lower_estimate_cycles(const tsl_target_t *t, const lower_stream *s) {
  cost_walk c = {0};
  const size_t depth = t->queue_depth > 0 ? (size_t)t->queue_depth : 1;
  uint64_t *ring = calloc(3 * depth, sizeof *ring);
  if (!ring) return lower_busiest_unit_cycles(t, s); /* out of memory: the bound without the timeline */
  for (int q = 1; q < 4; q++) c.starts[q] = ring + (size_t)(q - 1) * depth;
  walk(t, s, 0, s->n, 1, &c);
  free(ring);
  uint64_t end = c.fe;
  for (int q = 1; q < 4; q++)
    if (c.clock[q] > end) end = c.clock[q];
  return end;
}
