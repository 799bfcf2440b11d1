/* cost_model.c: cycle estimates; see docs/cost-model.md for each formula. */
#include "cost_model.h"

static uint64_t div_up(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : a; }
static uint64_t max_u(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Pipeline overheads (cycles): command start/finish handshakes. */
enum { CMD_OVERHEAD = 2, EPI_PIPE = 4, VEC_PIPE = 4 };
/* VPOOL's rounding division: one radix-2 divider per lane, 64 steps. */
enum { DIV_CYCLES = 64 };
/* The SoC's memory port (NPU DMA -> arbiter -> register slices -> DRAM and
 * back) adds about 3 cycles to each request's round trip on top of the DRAM's
 * latency (measured on the RTL: a slot is held L + beats + 3). Not priced yet:
 * golden C-model timelines (tests/profile) would change; docs/cost-model.md. */
enum { PORT_LAT = 0 };

uint64_t cost_runs(uint64_t nx, uint64_t ny, uint64_t nz, uint64_t row_bytes, uint64_t sx, uint64_t sy,
                   uint64_t sz, uint64_t *run_rows) {
  uint64_t run = 1, total = nx * ny * nz;
  if (sx == row_bytes || nx == 1) {
    run = nx;
    if (sy == nx * row_bytes || ny == 1) {
      run *= ny;
      if (sz == nx * ny * row_bytes || nz == 1) run *= nz;
    }
  }
  *run_rows = run;
  return run ? total / run : 0;
}

uint64_t cost_dram_cycles(const tsl_target_t *t, uint64_t rows, uint64_t bytes_per_row) {
  if (rows == 0 || bytes_per_row == 0) return 0;
  uint64_t bpc = (uint64_t)t->dram_bytes_per_cycle, burst = (uint64_t)t->dram_burst_bytes;
  uint64_t lat = (uint64_t)t->dram_latency + PORT_LAT, inflight = (uint64_t)t->dram_max_inflight;
  /* each row is split into bursts; a burst occupies the port for its beats */
  uint64_t reqs_per_row = div_up(bytes_per_row, burst);
  uint64_t beats_per_row = 0, full = bytes_per_row / burst, rest = bytes_per_row % burst;
  beats_per_row = full * div_up(burst, bpc) + (rest ? div_up(rest, bpc) : 0);
  uint64_t reqs = rows * reqs_per_row, beats = rows * beats_per_row;
  /* bandwidth bound vs. requests-in-flight bound (each request holds a slot
   * for latency + its beats), plus the first request's latency */
  uint64_t by_bw = beats;
  uint64_t by_inflight = div_up(reqs * lat + beats, inflight);
  return lat + max_u(by_bw, by_inflight);
}

cost_t cost_load(const tsl_target_t *t, uint64_t runs, uint64_t run_bytes, uint64_t rows) {
  cost_t c = {0, 0, 0};
  uint64_t onchip = rows; /* one row written per cycle */
  uint64_t dram = cost_dram_cycles(t, runs, run_bytes);
  uint64_t body = max_u(onchip, dram);
  c.cycles = body + CMD_OVERHEAD;
  c.stall_dram = body - onchip;
  return c;
}

cost_t cost_matmul(const tsl_target_t *t, uint64_t rows, uint64_t passes) {
  cost_t c = {0, 0, 0};
  uint64_t dim = (uint64_t)t->dim;
  uint64_t pre = div_up(dim, (uint64_t)t->preload_rows_per_cycle);
  /* weights double-buffered: tile i+1 preloads while tile i streams, so a
   * pass costs max(rows, preload); the first preload and the array's skew
   * (DIM in, DIM out) are not hidden */
  uint64_t per_pass = max_u(rows, pre);
  c.cycles = pre + passes * per_pass + 2 * dim + CMD_OVERHEAD;
  c.stall_preload = pre + passes * (per_pass - rows);
  return c;
}

cost_t cost_dwconv(const tsl_target_t *t, uint64_t pixels, uint64_t taps) {
  cost_t c = {0, 0, 0};
  uint64_t dim = (uint64_t)t->dim, macs = pixels * taps * dim;
  /* The RTL's depthwise path reads one tap row (DIM lanes) of the scratchpad
   * per cycle, so it cannot beat DIM MACs per cycle whatever the target's
   * dw_macs_per_cycle says (priced at 8x too fast at npu8 before, which made
   * mobilenet_v2's estimate -50% off). */
  uint64_t rate = (uint64_t)t->dw_macs_per_cycle < dim ? (uint64_t)t->dw_macs_per_cycle : dim;
  c.cycles = div_up(macs, rate) + dim + CMD_OVERHEAD;
  return c;
}

cost_t cost_vadd(const tsl_target_t *t, uint64_t rows) {
  cost_t c = {0, 0, 0};
  c.cycles = div_up(rows, (uint64_t)t->vec_rows_per_cycle) + VEC_PIPE + CMD_OVERHEAD;
  return c;
}

cost_t cost_vpool(const tsl_target_t *t, uint64_t outputs, uint64_t tap_rows) {
  cost_t c = {0, 0, 0};
  c.cycles = div_up(tap_rows, (uint64_t)t->vec_rows_per_cycle) + outputs * DIV_CYCLES + VEC_PIPE + CMD_OVERHEAD;
  return c;
}

cost_t cost_store(const tsl_target_t *t, uint64_t src_rows, uint64_t out_pixels, uint64_t runs,
                  uint64_t run_bytes) {
  cost_t c = {0, 0, 0};
  uint64_t onchip = max_u(src_rows, out_pixels);
  uint64_t dram = runs ? cost_dram_cycles(t, runs, run_bytes) : 0;
  uint64_t body = max_u(onchip, dram);
  c.cycles = body + EPI_PIPE + CMD_OVERHEAD;
  c.stall_dram = body - onchip;
  return c;
}

cost_t cost_config(const tsl_target_t *t) {
  (void)t;
  cost_t c = {1, 0, 0};
  return c;
}

uint64_t cost_gemm_ideal_cycles(const tsl_target_t *t, uint64_t m, uint64_t k, uint64_t n) {
  uint64_t dim = (uint64_t)t->dim;
  return m * div_up(k, dim) * div_up(n, dim);
}

void cost_error_add(cost_error_t *e, uint64_t estimated, uint64_t measured) {
  double rel = measured ? ((double)estimated - (double)measured) / (double)measured : 0.0;
  double a = rel < 0 ? -rel : rel;
  e->n++;
  e->sum_abs_rel += a;
  if (a > e->max_abs_rel) e->max_abs_rel = a;
  e->sum_est += (double)estimated;
  e->sum_meas += (double)measured;
}

double cost_error_mean_abs(const cost_error_t *e) { return e->n ? e->sum_abs_rel / (double)e->n : 0.0; }

double cost_error_total_rel(const cost_error_t *e) {
  return e->sum_meas > 0 ? (e->sum_est - e->sum_meas) / e->sum_meas : 0.0;
}
