/* gen_case.h: builds the random cases of the NPU system tests: a command
 * stream and its DRAM window per case (valid kernels, planted faults, the
 * GEMM benchmark), counting what it emitted in gen_cov. Used by sysgen.c
 * (docs/npu-system.md). Not thread-safe: one generator state. */
#ifndef NPU_SYSTEM_GEN_CASE_H
#define NPU_SYSTEM_GEN_CASE_H

#include <stdint.h>

#include "tessel_isa.h"
#include "tessel_targets.h"

enum { MAX_CMDS = 960, MAX_WINDOW = 1 << 18 };

/* ---- coverage ------------------------------------------------------------- */
typedef struct {
  uint64_t opcode[256];
  uint64_t pad_side[4];     /* LOAD pad_top, pad_bottom, pad_left, pad_right > 0 */
  uint64_t pad_lanes;       /* LOAD with n0 < DIM (lanes padded) */
  uint64_t pad_value[256];  /* LOAD and CFG_EXEC pad values used with padding */
  uint64_t gen_pad;         /* MATMUL/DWCONV/VPOOL with taps outside the image */
  uint64_t stride[8];       /* conv/pool strides (y and x) */
  uint64_t dil[8];          /* dilations (y and x) */
  uint64_t nest[8];         /* deepest loop nesting per case */
  uint64_t token[4][4];      /* [queue][pop_prev, pop_next, push_prev, push_next] */
  uint64_t maxpool, raw_store, spad_store, accumulate, inplace_vadd, global_pool, exclude_pad;
  uint64_t err[TSL_NERRORS];
} coverage_t;
extern coverage_t gen_cov; /* totals over every case built */

/* ---- one case under construction ----------------------------------------- */
typedef struct {
  const tsl_target_t *t;
  int dim;
  uint8_t stream[MAX_CMDS * 16];
  uint32_t n;
  int overflow;
  uint8_t win[MAX_WINDOW];
  uint32_t win_used; /* bump allocator over the window */
  int64_t spad_next, acc_next, param_next;
  int depth, max_depth; /* loop nesting while emitting */
  int small;            /* this kernel uses data in -3..3, so results stay in range and ties show */
  uint32_t load_idx[64], nload; /* indices of LOADs (for planted faults) */
} gcase_t;

/* Seeds the generator (xorshift64*); the same seed builds the same case. */
void gen_seed(uint64_t seed);

/* A valid case into *g (zeroed, t and dim set): 1..4 independent kernels.
 * Returns 0, or -1 if nothing fitted. */
int gen_valid(gcase_t *g);

/* The 256x256x256 GEMM: part 0 loads the operands, 1 computes on resident
 * operands, 2 loads and computes in one stream. Returns 0 or -1 (too small). */
int gen_gemm(gcase_t *g, int part);

/* Plants fault kind k (0..7, rotating) into a valid case; returns the
 * intended error code, or -1 if this case cannot take that fault. */
int gen_fault(gcase_t *g, int k);

#endif
