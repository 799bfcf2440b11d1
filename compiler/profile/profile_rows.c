/* profile_rows: derived per-kernel figures (formulas: docs/profiling.md). */
#include "profile_report.h"

#include <math.h>
#include <string.h>

#include "tessel_targets.h"

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : NAN; }

static uint64_t div_up(uint64_t num, uint64_t den) { return num / den + (num % den != 0); }

prof_bound prof_roofline(uint64_t useful_macs, uint64_t compulsory, uint64_t dim, uint64_t bpc, uint64_t measured) {
  prof_bound b;
  b.mac_cycles = div_up(useful_macs, dim * dim);
  b.dram_cycles = div_up(compulsory, bpc);
  b.cycles = b.mac_cycles > b.dram_cycles ? b.mac_cycles : b.dram_cycles;
  b.over = ratio(measured, b.cycles);
  return b;
}

uint64_t prof_dram_bytes_per_cycle(const profile *p) {
  const tsl_target_t *t = tsl_target_find(p->target);
  if (!t || (uint64_t)t->dim != p->dim || t->dram_bytes_per_cycle <= 0) return 0;
  return (uint64_t)t->dram_bytes_per_cycle;
}

/* Figures every row computes the same way from a counter set (useful_macs
 * and compulsory set first); bpc 0: no bound. */
static void from_counters(prof_row *r, const uint64_t *c, uint64_t dim, uint64_t bpc) {
  double peak = (double)c[TSL_CNT_CYCLES] * (double)dim * (double)dim;
  r->npu_cycles = c[TSL_CNT_CYCLES];
  r->macs = c[TSL_CNT_MACS];
  r->util = peak > 0 ? (double)r->useful_macs / peak : NAN;
  r->occupancy = peak > 0 ? (double)r->macs / peak : NAN;
  r->has_bound = bpc > 0;
  if (r->has_bound) r->bound = prof_roofline(r->useful_macs, r->compulsory, dim, bpc, r->npu_cycles);
  else r->bound.over = NAN;
  r->spad_rd = c[TSL_CNT_SPAD_RD_BYTES];
  r->spad_wr = c[TSL_CNT_SPAD_WR_BYTES];
  r->acc_rd = c[TSL_CNT_ACC_RD_BYTES];
  r->acc_wr = c[TSL_CNT_ACC_WR_BYTES];
  r->dram_rd = c[TSL_CNT_DRAM_RD_BYTES];
  r->dram_wr = c[TSL_CNT_DRAM_WR_BYTES];
  r->dram_over_compulsory = ratio(r->dram_rd + r->dram_wr, r->compulsory);
  r->intensity = ratio(r->useful_macs, r->dram_rd + r->dram_wr);
  r->stall_dma = c[TSL_CNT_LOAD_STALL_DRAM] + c[TSL_CNT_STORE_STALL_DRAM];
  r->stall_token = c[TSL_CNT_LOAD_STALL_TOKEN] + c[TSL_CNT_EXEC_STALL_TOKEN] + c[TSL_CNT_STORE_STALL_TOKEN];
  r->stall_preload = c[TSL_CNT_EXEC_STALL_PRELOAD];
  r->load_busy = c[TSL_CNT_LOAD_BUSY];
  r->exec_busy = c[TSL_CNT_EXEC_BUSY];
  r->store_busy = c[TSL_CNT_STORE_BUSY];
  r->ratio = ratio(r->npu_cycles, r->estimate);
}

size_t prof_rows(arena *a, const profile *p, prof_row **rows) {
  size_t n = p->nkernels + p->nfallbacks + 1;
  prof_row *r = arena_alloc(a, n * sizeof *r);
  if (!r) return 0;
  prof_row *tot = &r[n - 1];
  uint64_t fb = 0, bpc = prof_dram_bytes_per_cycle(p);
  for (size_t i = 0; i < p->nfallbacks; i++) fb += p->fallbacks[i].core_cycles;
  tot->kind = PROF_ROW_TOTAL;
  tot->name = "total";
  tot->fallback_cycles = fb;
  for (size_t i = 0; i < p->nkernels; i++) {
    const prof_kernel *k = &p->kernels[i];
    prof_row *x = &r[i];
    x->kind = PROF_ROW_KERNEL;
    x->index = i;
    x->id = k->id;
    x->name = k->name;
    x->nodes = k->onnx_nodes;
    x->nnodes = k->nonnx;
    x->cycles = k->c[TSL_CNT_CYCLES];
    x->useful_macs = k->useful_macs;
    x->compulsory = k->compulsory_dram_bytes;
    x->estimate = k->estimate_cycles;
    from_counters(x, k->c, p->dim, bpc);
    tot->useful_macs += k->useful_macs;
    tot->compulsory += k->compulsory_dram_bytes;
    tot->estimate += k->estimate_cycles;
  }
  for (size_t i = 0; i < p->nfallbacks; i++) {
    const prof_fallback *f = &p->fallbacks[i];
    prof_row *x = &r[p->nkernels + i];
    x->kind = PROF_ROW_FALLBACK;
    x->index = i;
    x->name = f->name;
    x->nodes = &f->op;
    x->nnodes = 1;
    x->cycles = f->core_cycles;
    x->fallback_cycles = f->core_cycles;
    x->util = x->occupancy = x->dram_over_compulsory = x->intensity = x->ratio = NAN;
    x->bound.over = NAN; /* on the core: no NPU cycles, no bound (has_bound 0) */
  }
  from_counters(tot, p->total, p->dim, bpc);
  /* The run's bound is the sum of its kernels' (they run one after another,
   * MARK to MARK), as the throughput issue sums it: not the bound of the
   * summed MACs and bytes, which lets one kernel's DRAM time hide another's
   * MAC time. */
  if (tot->has_bound) {
    tot->bound = (prof_bound){0, 0, 0, NAN};
    for (size_t i = 0; i < p->nkernels; i++) {
      tot->bound.mac_cycles += r[i].bound.mac_cycles;
      tot->bound.dram_cycles += r[i].bound.dram_cycles;
      tot->bound.cycles += r[i].bound.cycles;
    }
    tot->bound.over = ratio(tot->npu_cycles, tot->bound.cycles);
  }
  tot->cycles = p->total[TSL_CNT_CYCLES] + fb;
  for (size_t i = 0; i < n; i++) r[i].share = ratio(r[i].cycles, tot->cycles);
  *rows = r;
  return n;
}
