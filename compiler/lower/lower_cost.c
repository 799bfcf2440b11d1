/* lower_cost: the cost model's estimate of a kernel's stream.
 *
 * Walks the stream with hardware loops expanded (a body's cost times its
 * count: loop offsets move addresses, never sizes), prices every command with
 * the one cost model (sim/npu-model/cost_model.h) under the configuration
 * registers in force, and sums per unit.  The estimate is the busiest unit's
 * total: the queues overlap perfectly when tokens allow, which the default
 * schedules are built for (an optimistic bound; the C model's timeline gives
 * the overlap actually achieved). */
#include "cost_model.h"
#include "lower_internal.h"

typedef struct {
  int64_t ld_sx, ld_sy, ld_sz;     /* CFG_LOAD */
  int64_t kh, kw, ncb;             /* CFG_EXEC */
  int64_t st_sx, st_sy, pool_k;    /* CFG_STORE, CFG_EPI */
  int64_t src_h, src_w;
  uint64_t unit[4];                /* busy cycles per queue (FRONT, LOAD, EXEC, STORE) */
} cost_walk;

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
    uint64_t runs = nx && ny ? cost_runs(nx, ny, (uint64_t)x.nz, (uint64_t)x.n0 * e, (uint64_t)c->ld_sx,
                                         (uint64_t)c->ld_sy, (uint64_t)c->ld_sz, &run_rows) : 0;
    k = cost_load(t, runs, run_rows * (uint64_t)x.n0 * e, (uint64_t)(x.nx * x.ny * x.nz));
    break;
  }
  case TSL_OP_CFG_EXEC: {
    tsl_cfg_exec_t x = {0};
    tsl_cfg_exec_decode(w, &x);
    c->kh = x.kh, c->kw = x.kw, c->ncb = x.ncb;
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
    k = cost_dwconv(t, (uint64_t)(x.oh * x.ow), (uint64_t)(c->kh * c->kw));
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
    k = cost_vpool(t, (uint64_t)(x.oh * x.ow), (uint64_t)(x.oh * x.ow * c->kh * c->kw));
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
    k = cost_config(t);
    break;
  }
  case TSL_OP_STORE: {
    tsl_store_t x = {0};
    tsl_store_decode(w, &x);
    uint64_t e = x.raw ? 4 : 1, run_rows = 1, px = (uint64_t)(x.oh * x.ow);
    uint64_t src = c->pool_k ? (uint64_t)(c->src_h * c->src_w) : px;
    uint64_t runs = x.dst_mem == TSL_DST_DRAM ? cost_runs((uint64_t)x.ow, (uint64_t)x.oh, 1, (uint64_t)x.n0 * e,
                                                           (uint64_t)c->st_sx, (uint64_t)c->st_sy, 0, &run_rows) : 0;
    k = cost_store(t, src, px, runs, run_rows * (uint64_t)x.n0 * e);
    break;
  }
  default:
    k = cost_config(t);
    break;
  }
  (void)dim;
  if (q >= 0) c->unit[q] += k.cycles * times;
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
      i = walk(t, s, i + 1, i + 1 + (uint32_t)l.body, times * (uint64_t)l.count, c);
      continue;
    }
    price(t, w, c, times);
    i++;
  }
  return i;
}

uint64_t lower_estimate_cycles(const tsl_target_t *t, const lower_stream *s) {
  cost_walk c = {0};
  walk(t, s, 0, s->n, 1, &c);
  uint64_t best = c.unit[0];
  for (int q = 1; q < 4; q++)
    if (c.unit[q] > best) best = c.unit[q];
  return best;
}
