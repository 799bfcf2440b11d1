/* cost_model.h: the one NPU cost model. A per-command cycle estimate from the
 * target configuration (compute, DMA bytes over bandwidth, DRAM latency,
 * requests in flight, weight preload); the C model adds queue overlap by
 * running each unit on its own timeline. The C model, the compiler's
 * estimates and the tuner all call these functions. Formulas and their
 * rationale: docs/cost-model.md. Pure functions, no allocation. */
#ifndef COST_MODEL_H
#define COST_MODEL_H

#include <stdint.h>

#include "tessel_targets.h"

/* Cycles one command keeps its unit busy, and the stalls inside them. */
typedef struct {
  uint64_t cycles;        /* busy cycles, stalls included */
  uint64_t stall_dram;    /* of cycles: waiting for DRAM latency or bandwidth */
  uint64_t stall_preload; /* of cycles: array idle waiting for a weight preload */
} cost_t;

/* Cycles to read `runs` contiguous DRAM byte runs of `run_bytes` each through
 * the memory port (split into bursts; latency and the port's round trip;
 * requests in flight; one beat per cycle), not counting on-chip work. */
uint64_t cost_dram_cycles(const tsl_target_t *t, uint64_t runs, uint64_t run_bytes);

/* The stream fetch (CTRL.FETCH, npu_fetch.sv) of n commands: one at a time,
 * the memory latency plus COST_FETCH_CMD cycles each (request, two beats,
 * four word writes into command SRAM): 42 per command at npu8's latency 30. */
#define COST_FETCH_CMD 12
uint64_t cost_fetch_cycles(const tsl_target_t *t, uint64_t n);

/* The memory port's beat (docs/memory-port.md): a LOAD merges rows into
 * one burst only when they are whole beats from an address on a beat. */
enum { COST_PORT_BYTES = 8 };

/* How many runs (DMA requests before the burst split) a 3D strided LOAD of
 * nz x ny x nx rows of row_bytes each makes, its first real row at DRAM byte
 * offset addr, with byte strides sx, sy, sz: *run_rows rows per run.  As the
 * RTL's LOAD: the rows of one line merge when contiguous (sx == row_bytes),
 * of whole 8-byte beats and starting on a beat; lines never. */
uint64_t cost_runs(uint64_t nx, uint64_t ny, uint64_t nz, uint64_t row_bytes, uint64_t addr, uint64_t sx,
                   uint64_t sy, uint64_t sz, uint64_t *run_rows);

/* LOAD writing `rows` on-chip rows (pad included) of which the real ones come
 * from DRAM as `runs` runs of run_bytes. */
cost_t cost_load(const tsl_target_t *t, uint64_t runs, uint64_t run_bytes, uint64_t rows);

/* MATMUL: `rows` output pixels (oh*ow) streamed for each of `passes` weight
 * tiles (kh*kw*ncb). */
cost_t cost_matmul(const tsl_target_t *t, uint64_t rows, uint64_t passes);

/* DWCONV over oh x ow outputs with a kh x kw kernel, column stride sx and
 * column dilation dx (CFG_EXEC's). */
cost_t cost_dwconv(const tsl_target_t *t, uint64_t oh, uint64_t ow, uint64_t kh, uint64_t kw, uint64_t sx,
                   uint64_t dx);

/* VADD of `rows` rows; VPOOL reading `tap_rows` input rows for `outputs`
 * outputs with CFG_VEC shift `shift` (0..47). */
cost_t cost_vadd(const tsl_target_t *t, uint64_t rows);
cost_t cost_vpool(const tsl_target_t *t, uint64_t outputs, uint64_t tap_rows, uint64_t shift);

/* STORE of oh x ow output pixels, each from pool_k x pool_k taps (pool_k 0:
 * no pooling, one tap), to DRAM as px_bytes per pixel, or to the scratchpad
 * when px_bytes is 0; from the scratchpad when src_spad, else from ACC
 * (through the requantisers unless raw). */
cost_t cost_store(const tsl_target_t *t, uint64_t oh, uint64_t ow, uint64_t pool_k, uint64_t px_bytes,
                  int src_spad, int raw);

/* A configuration command or ENOP. */
cost_t cost_config(const tsl_target_t *t);

/* GEMM M x K x N (int8) on the array with operands resident and the best
 * tiling: a lower bound the tuner and the benchmarks compare against. */
uint64_t cost_gemm_ideal_cycles(const tsl_target_t *t, uint64_t m, uint64_t k, uint64_t n);

/* The model's error against measured cycles (RTL, later boards): add pairs,
 * then read the summary. Relative error = (estimate - measured) / measured. */
typedef struct {
  uint64_t n;             /* pairs added */
  double sum_abs_rel;     /* sum of |relative error| */
  double max_abs_rel;     /* largest |relative error| */
  double sum_est, sum_meas; /* totals, for the aggregate error */
} cost_error_t;

void cost_error_add(cost_error_t *e, uint64_t estimated, uint64_t measured);
double cost_error_mean_abs(const cost_error_t *e);  /* mean |relative error|, 0 if none */
double cost_error_total_rel(const cost_error_t *e); /* (sum_est - sum_meas) / sum_meas */

#endif
