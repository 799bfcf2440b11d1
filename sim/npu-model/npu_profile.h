/* npu_profile.h: writes the profile JSON of docs/profile-format.md from the
 * counters of a run and its MARK records, whichever engine produced them (the
 * C model's snapshots, or the records the RTL wrote into DRAM). Used by
 * `tessel run --profile`. */
#ifndef NPU_PROFILE_H
#define NPU_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "npu_model.h"

/* What the package's kernel table says about kernel id i (kernels[i]). */
typedef struct {
  const char *name;               /* "conv1+bn+relu" */
  const char *const *onnx_nodes;  /* source ONNX node names */
  size_t nonnx;                   /* entries in onnx_nodes */
  uint64_t estimate_cycles;       /* the cost model's estimate for the kernel */
  uint64_t compulsory_dram_bytes; /* weights + inputs + outputs once */
  uint64_t useful_macs;           /* the graph's MACs (MACS also counts padded channels and taps) */
} npu_kernel_info_t;

/* An op the firmware ran on the core. */
typedef struct {
  const char *op;       /* ONNX op type, "Softmax" */
  const char *name;     /* node name */
  uint64_t core_cycles; /* cycles it took on the core */
} npu_fallback_info_t;

/* One item of the inference's timeline ("timeline" in the profile): a
 * kernel's run, a fallback op, or a gap of runtime work between them. */
typedef struct {
  const char *kind;     /* "kernel", "fallback" or "gap" */
  const char *what;     /* gaps: what the runtime did ("runtime", "input_copy", ...); else NULL */
  int64_t index;        /* kernel: position in "kernels"; fallback: in "fallback_ops"; gap: -1 */
  const char *name;     /* kernel or node name; gaps: what, named after the neighbours */
  uint64_t start, end;  /* cycles from the inference's first mark */
  int beside;           /* fallback: 1 when the NPU ran the kernel item before it meanwhile */
} npu_span_t;

typedef struct {
  const tsl_target_t *target;        /* the package's target */
  const char *engine;                /* "rtl" or "model" */
  const char *model;                 /* package file name */
  const uint64_t *total;             /* TSL_NCOUNTERS counters of the whole run */
  const npu_snapshot_t *marks;       /* MARK records in order: a MARK before the first kernel and after each */
  size_t nmarks;
  const npu_kernel_info_t *kernels;  /* indexed by MARK kernel id (may be NULL) */
  size_t nkernels;
  const npu_fallback_info_t *fallbacks; /* may be NULL */
  size_t nfallbacks;
  const npu_span_t *spans;           /* the inference's timeline, in order (NULL: no "timeline" key) */
  size_t nspans;
} npu_profile_t;

/* Writes the profile as one JSON object. Kernel k (0 <= k < nmarks-1) gets
 * the counters marks[k+1] - marks[k] and the id of marks[k+1]. Returns 0, or
 * -1 if writing failed. */
int npu_profile_write_json(FILE *f, const npu_profile_t *p);

/* The same plus the optional "commands" array (docs/profile-format.md): one
 * entry per command of the run's timeline (npu_model_timeline), with its
 * unit, kernel, stream index, op and busy cycles. ncmds = 0: no array. */
int npu_profile_write_json_timeline(FILE *f, const npu_profile_t *p, const npu_cmd_event_t *cmds, size_t ncmds);

#endif
