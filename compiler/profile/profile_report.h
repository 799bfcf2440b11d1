/* profile_report: the per-kernel figures of a profile (one row per fused
 * kernel, one per fallback op, and the total) and the three text reports
 * built from them: the terminal table, CSV and JSON. Formulas are in
 * docs/profiling.md; every output uses these rows, so they agree.
 *
 * Utilisation is on the graph's MACs (useful_macs, what another tool counts
 * for the same network); the hardware's MACS, which include channels padded
 * to DIM and padding taps, give the array occupancy. */
#ifndef TESSEL_PROFILE_REPORT_H
#define TESSEL_PROFILE_REPORT_H

#include <stdio.h>

#include "profile.h"

typedef enum { PROF_ROW_KERNEL, PROF_ROW_FALLBACK, PROF_ROW_TOTAL } prof_row_kind;

/* The roofline bound of a kernel or a run: the fewest NPU cycles in which a
 * DIM x DIM array fed by a port of the target's DRAM bytes per cycle can do
 * the graph's MACs and move the compulsory bytes. */
typedef struct {
  uint64_t mac_cycles;  /* ceil(useful_macs / DIM^2) */
  uint64_t dram_cycles; /* ceil(compulsory_dram_bytes / dram_bytes_per_cycle) */
  uint64_t cycles;      /* the larger of the two: the bound */
  double over;          /* measured NPU cycles / cycles; NaN when the bound is 0 */
} prof_bound;

/* The bound of useful_macs and compulsory bytes on an array of dim x dim
 * (dim >= 1) with bpc DRAM bytes per cycle (bpc >= 1), and measured over it.
 * Exact in 64-bit integers (no rounding before the ceilings). */
prof_bound prof_roofline(uint64_t useful_macs, uint64_t compulsory, uint64_t dim, uint64_t bpc, uint64_t measured);

typedef struct {
  prof_row_kind kind;
  size_t index;               /* kernel or fallback position */
  uint64_t id;                /* MARK kernel id (kernels) */
  const char *name;           /* kernel name, fallback node name, "total" */
  const char *const *nodes;   /* ONNX nodes fused (fallback: its op type) */
  size_t nnodes;
  uint64_t cycles;            /* kernel CYCLES; fallback core cycles; total: NPU CYCLES + fallback cycles */
  double share;               /* cycles / total cycles */
  uint64_t macs, useful_macs; /* hardware MACS, the graph's MACs */
  double util;                /* utilisation: useful_macs / (CYCLES * DIM^2) (NPU cycles; NaN without) */
  double occupancy;           /* array occupancy: MACS / (CYCLES * DIM^2) (padding included) */
  int has_bound;              /* bound is known: not a fallback op, and the target's bandwidth is known */
  prof_bound bound;           /* roofline bound of useful_macs and compulsory (when has_bound) */
  uint64_t spad_rd, spad_wr, acc_rd, acc_wr, dram_rd, dram_wr;
  uint64_t compulsory;        /* compulsory DRAM bytes */
  double dram_over_compulsory;/* (dram_rd + dram_wr) / compulsory; NaN when compulsory is 0 */
  double intensity;           /* useful_macs / (dram_rd + dram_wr); NaN when no DRAM bytes */
  uint64_t stall_dma;         /* LOAD_STALL_DRAM + STORE_STALL_DRAM */
  uint64_t stall_token;       /* LOAD/EXEC/STORE_STALL_TOKEN */
  uint64_t stall_preload;     /* EXEC_STALL_PRELOAD */
  uint64_t fallback_cycles;   /* core cycles of fallback ops */
  uint64_t estimate;          /* estimate_cycles (sum over kernels for the total) */
  double ratio;               /* measured / estimate (NPU cycles); NaN when estimate is 0 */
  uint64_t load_busy, exec_busy, store_busy, npu_cycles;
} prof_row;

/* The DRAM bytes per cycle of p's target, from this tessel's target table
 * (targets/<target>.cfg); 0 when the target is unknown or its DIM is not the
 * profile's (then no row has a bound). */
uint64_t prof_dram_bytes_per_cycle(const profile *p);

/* Rows of p in arena a: kernels in order, fallback ops, then the total.
 * Returns the number of rows (>= 1), or 0 when memory runs out. */
size_t prof_rows(arena *a, const profile *p, prof_row **rows);

/* The human table (two sections: time, memory traffic), at most 120 columns. */
void prof_print_table(FILE *f, const profile *p, const prof_row *rows, size_t n);
/* CSV: a header line, then one line per row, every column, raw numbers. */
void prof_print_csv(FILE *f, const profile *p, const prof_row *rows, size_t n);
/* JSON: {"format": "tessel-profile-report", ...} with every column. */
void prof_print_json(FILE *f, const profile *p, const prof_row *rows, size_t n);

/* Helpers shared by the outputs. */
void prof_json_num(FILE *f, double x);            /* a JSON number, null for NaN/inf */
/* v in at most width characters: exact digits, else 12.3k / 4.5M / 6.7G. */
const char *prof_fmt_count(char *buf, size_t size, int width, uint64_t v);
/* s cut to width characters, '~' marking the cut. */
const char *prof_fit(char *buf, size_t size, int width, const char *s);
/* The node list "Conv_0,Relu_1" cut to width, "+N" counting the nodes left out. */
const char *prof_fit_nodes(char *buf, size_t size, int width, const char *const *nodes, size_t n);

#endif
