/* cost_model.c: cycle estimates; see docs/cost-model.md for each formula. */
#include "cost_model.h"

static uint64_t div_up(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : a; }
static uint64_t max_u(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Fixed cycles per command, as the RTL (rtl-model/npu, docs/npu-rtl.md)
 * spends them; measured per command against tessel-sim's --npu-timeline
 * (tests/tune/cost_vs_rtl.sh, docs/cost-model.md):
 *   CMD_OVERHEAD  a LOAD's start and finish handshakes
 *   MM_PIPE       MATMUL's address / MAC / ACC-write stages and done (the
 *                 array collapses the systolic skew, so it is not 2 DIM)
 *   DW_PIPE       DWCONV's pipeline and done
 *   DW_OLD_MUL    products per lane and cycle for a sliding pixel's reused
 *                 taps (npu_exec's DwOldMul)
 *   VADD_PIPE     VADD's read-to-write stage and done
 *   VEC_FIXED     VPOOL's accept and done
 *   VEC_PX        a VPOOL pixel's last-tap cycle
 *   VEC_DIV       a VPOOL division's load and output cycles
 *   ST_FIXED      STORE's accept, PARAM read and done
 *   ST_PX         STORE's per-pixel finish, output and write cycles (after its taps)
 *   ST_PX_DRAM    a DRAM pixel's extra cycle: its write request's handshake
 *   ST_AHEAD_*    cycles a pixel without pooling saves by its source row's
 *                 read ahead (to DRAM, and ACC to SPAD: tap and finish;
 *                 SPAD to SPAD: the tap) */
enum { CMD_OVERHEAD = 2, MM_PIPE = 5, DW_PIPE = 4, DW_OLD_MUL = 3, VADD_PIPE = 3 };
enum { VEC_FIXED = 3, VEC_PX = 1, VEC_DIV = 2 };
enum { ST_FIXED = 3, ST_PX = 3, ST_PX_DRAM = 1, ST_AHEAD = 2, ST_AHEAD_SPAD_SPAD = 1 };
/* VPOOL's rounding division: one radix-2 divider per lane, 64 steps for
 * shift 0 or 1, one fewer per further shift bit (the bits below the shift
 * give only the guard and sticky bits, which take one step). */
enum { DIV_CYCLES = 64 };
/* The SoC's memory port (NPU DMA -> arbiter -> register slices -> DRAM and
 * back) holds a request slot 2.5 cycles longer than the DRAM's latency
 * (measured: resnet18's weight streams of 64-byte bursts, 4 in flight, take
 * (L + 8 + 2.5) / 4 cycles per burst).  In half cycles. */
enum { PORT_LAT_HALF = 5 };

uint64_t cost_runs(uint64_t nx, uint64_t ny, uint64_t nz, uint64_t row_bytes, uint64_t addr, uint64_t sx,
                   uint64_t sy, uint64_t sz, uint64_t *run_rows) {
  /* The LOAD unit merges consecutive rows of one line (x) that are
   * contiguous in DRAM, whole beats and start on a beat; lines and planes
   * are never merged (their runs are separate requests even when
   * contiguous).  Priced as merged when every line starts on a beat. */
  uint64_t run = 1, total = nx * ny * nz;
  const uint64_t beat = COST_PORT_BYTES;
  int aligned = addr % beat == 0 && (ny == 1 || sy % beat == 0) && (nz == 1 || sz % beat == 0);
  if ((sx == row_bytes || nx == 1) && row_bytes % beat == 0 && aligned) run = nx;
  *run_rows = run;
  return run ? total / run : 0;
}

uint64_t cost_dram_cycles(const tsl_target_t *t, uint64_t rows, uint64_t bytes_per_row) {
  if (rows == 0 || bytes_per_row == 0) return 0;
  uint64_t bpc = (uint64_t)t->dram_bytes_per_cycle, burst = (uint64_t)t->dram_burst_bytes;
  uint64_t f = (uint64_t)t->dram_max_inflight ? (uint64_t)t->dram_max_inflight : 1;
  /* each run is split into bursts; a burst occupies the port for its beats */
  uint64_t reqs_per_row = div_up(bytes_per_row, burst);
  uint64_t full = bytes_per_row / burst, rest = bytes_per_row % burst;
  uint64_t beats_per_row = full * div_up(burst, bpc) + (rest ? div_up(rest, bpc) : 0);
  uint64_t n = rows * reqs_per_row, beats = rows * beats_per_row;
  /* In units of 1 / (2 n) cycle, so the port's half cycle and the mean
   * beats per request b = beats / n stay exact.  Request i waits for the
   * slot of request i - F (free L' + b after that one was issued), and the
   * port streams one beat per cycle: with q = (n - 1) / F full rounds and r
   * requests in the last, the last data arrive at q (L' + b) + L' + r b;
   * never before L' + all the beats (bandwidth bound). */
  uint64_t lat2n = (2 * (uint64_t)t->dram_latency + PORT_LAT_HALF) * n, b2n = 2 * beats;
  uint64_t q = (n - 1) / f, r = (n - 1) % f + 1;
  uint64_t by_slots = q * (lat2n + b2n) + lat2n + r * b2n;
  uint64_t by_bw = lat2n + b2n * n;
  return div_up(max_u(by_slots, by_bw), 2 * n);
}

uint64_t cost_fetch_cycles(const tsl_target_t *t, uint64_t n) { return n * ((uint64_t)t->dram_latency + COST_FETCH_CMD); }

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
  if (passes == 0) {
    c.cycles = MM_PIPE;
    return c;
  }
  uint64_t pre = div_up((uint64_t)t->dim, (uint64_t)t->preload_rows_per_cycle);
  /* Weights double-buffered: pass i+1's tile preloads (pre cycles) while
   * pass i streams its rows, so a pass takes max(rows, pre); the first
   * preload and the last pass's rows are not hidden.  A pass of exactly pre
   * rows loses half a cycle more on average: the next bank is usable the
   * cycle after its last rows land (docs/npu-rtl.md, Known limits). */
  uint64_t per_pass = max_u(rows, pre);
  uint64_t exact = rows == pre ? (passes - 1) / 2 : 0;
  c.cycles = pre + (passes - 1) * per_pass + exact + rows + MM_PIPE;
  c.stall_preload = pre + (passes - 1) * (per_pass - rows) + exact;
  return c;
}

cost_t cost_dwconv(const tsl_target_t *t, uint64_t oh, uint64_t ow, uint64_t kh, uint64_t kw, uint64_t sx,
                   uint64_t dx) {
  cost_t c = {0, 0, 0};
  uint64_t pixels = oh * ow, taps = kh * kw;
  if (pixels == 0 || taps == 0) {
    c.cycles = DW_PIPE;
    return c;
  }
  /* The RTL's depthwise path (npu_exec) reads tap rows of DIM lanes from the
   * scratchpad's two read ports.  A kernel of at most dw_cache_taps taps, on
   * a target whose dw_macs_per_cycle asks for 2 DIM or more: the first pixel
   * runs one tap per cycle (its weight rows, read on port B, fill the
   * cache), every later pixel two tap rows per cycle: all ceil(taps / 2)
   * at the start of an output line; on a target asking for 4 DIM, with
   * dil_x 1 and stride_x 1 or 2 below kw, the others slide the window and
   * read only their kh * stride_x new ones, when the kh * (kw - stride_x)
   * reused taps fit DW_OLD_MUL products a cycle in the cycles those take
   * (3x3 at stride 1: 6 in 2).
   * Otherwise one tap per cycle (DIM MACs), whatever dw_macs_per_cycle says
   * beyond that. */
  uint64_t dim = (uint64_t)t->dim;
  if (taps <= (uint64_t)t->dw_cache_taps && (uint64_t)t->dw_macs_per_cycle >= 2 * dim) {
    uint64_t fresh = kh * sx, cyc = div_up(fresh, 2);
    int slide = (uint64_t)t->dw_macs_per_cycle >= 4 * dim && dx == 1 && sx <= 2 && sx < kw &&
                taps - fresh <= DW_OLD_MUL * cyc;
    uint64_t slides = slide ? oh * (ow - 1) : 0;
    c.cycles = taps + (pixels - 1 - slides) * div_up(taps, 2) + slides * cyc + DW_PIPE;
  } else {
    c.cycles = pixels * taps + DW_PIPE;
  }
  return c;
}

/* Lane groups a vector-unit row goes through (vec_lanes, 0 = DIM). */
static uint64_t vec_groups(const tsl_target_t *t) {
  return t->vec_lanes ? (uint64_t)(t->dim / t->vec_lanes) : 1;
}

cost_t cost_vadd(const tsl_target_t *t, uint64_t rows) {
  cost_t c = {0, 0, 0};
  c.cycles = div_up(rows, (uint64_t)t->vec_rows_per_cycle) * vec_groups(t) + VADD_PIPE;
  return c;
}

cost_t cost_vpool(const tsl_target_t *t, uint64_t outputs, uint64_t tap_rows, uint64_t shift) {
  cost_t c = {0, 0, 0};
  uint64_t div = DIV_CYCLES + 1 - max_u(shift, 1);
  c.cycles = div_up(tap_rows, (uint64_t)t->vec_rows_per_cycle) +
             outputs * (VEC_PX + vec_groups(t) * (div + VEC_DIV)) + VEC_FIXED;
  return c;
}

cost_t cost_store(const tsl_target_t *t, uint64_t oh, uint64_t ow, uint64_t pool_k, uint64_t px_bytes,
                  int src_spad, int raw) {
  cost_t c = {0, 0, 0};
  uint64_t px = oh * ow, taps = pool_k ? pool_k * pool_k : 1;
  /* With fewer requantisers than lanes (requant_lanes, 0 = DIM) an ACC row
   * goes through the epilogue in DIM / requant_lanes groups, one a cycle:
   * every tap, inside the image or not, takes that many cycles, and the
   * pixels without pooling get no read ahead. */
  uint64_t groups = (!src_spad && !raw && t->requant_lanes) ? (uint64_t)(t->dim / t->requant_lanes) : 1;
  /* The RTL's STORE (npu_store): per output pixel one cycle per pooling
   * tap (every tap of the window, inside or not), finish and output; to
   * DRAM each pixel is its own write burst (never merged with its
   * neighbours), one more cycle for the request, and the command ends when
   * the last write's response is back (the DRAM's latency). */
  uint64_t per_px = taps * groups + ST_PX;
  uint64_t drain = 0;
  if (px_bytes) {
    per_px += max_u(1, div_up(px_bytes, (uint64_t)t->dram_bytes_per_cycle)) - 1 + ST_PX_DRAM;
    drain = (uint64_t)t->dram_latency + 1;
  }
  /* Without pooling every pixel after the first has its source row read
   * while the one before is output: its tap and finish cycles are hidden
   * behind that pixel's write burst (to DRAM) or row write (ACC to SPAD);
   * SPAD to SPAD reads only after the write, hiding the tap alone. */
  uint64_t ahead = (pool_k || groups > 1) ? 0 : (px_bytes || !src_spad ? ST_AHEAD : ST_AHEAD_SPAD_SPAD) * (px - 1);
  c.cycles = px * per_px - ahead + ST_FIXED + drain;
  c.stall_dram = drain;
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
