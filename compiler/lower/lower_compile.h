/* lower_compile: the back half of `tessel compile`: lowers a quantised graph
 * for a target (compiler/lower/), prints the memory report, and hands the
 * result to the package writer through tpkg.h. */
#ifndef TESSEL_LOWER_COMPILE_H
#define TESSEL_LOWER_COMPILE_H

#include <stdio.h>

#include "ir.h"

struct lower_sched; /* lower/lower.h */

typedef struct lower_compile_opts {
  const char *target;    /* target name (NULL: npu8) */
  const char *out;       /* .tpkg path, or NULL: no .tpkg file */
  const char *emit_c;    /* --emit-c: the package as a C array (emit_c.h) here, or NULL */
  FILE *report;          /* --report: memory fit and kernels go here, or NULL */
  int no_fusion;         /* --no-fusion */
  int no_sram_residency; /* --no-sram-residency */
  int no_pack_input;     /* --no-pack-input */
  int int8_io;           /* --int8-io: graph inputs/outputs as the int8 tensors the NPU reads and writes */
  int npu_only;          /* --npu-only: refuse ops the control core would run */
  long long cmd_sram_limit; /* --cmd-sram-limit: command SRAM budget in bytes (0: the target's) */
  const char *tuning_log;   /* --tuning-log: apply the best record per workload (docs/tuning.md), or NULL */
  int (*sched_for)(void *ctx, const char *key, struct lower_sched *s); /* the tuner: per-kernel schedules, or NULL */
  void *sched_ctx;
  const char *print_after;  /* --print-after: a lowering stage (lower_stage_find) to dump after, or NULL */
  const char *print_before; /* --print-before: likewise, before (the stage before it; "layout": the IR) */
  int print_after_all;      /* --print-after-all: dump after every lowering stage too */
  int calibrated;           /* --calib was given (ptq ran): for the float-op message */
} lower_compile_opts;

/* 0 when name is a graph pass or a lowering stage (`tessel compile
 * --print-after=NAME`), else -1 with a message naming both lists. */
int lower_compile_check_print(const char *option, const char *name, diag *d);

enum { LOWER_COMPILE_UNSUPPORTED = -2 }; /* an int8 op with neither an NPU lowering nor a fallback yet */

/* Lowers g (after the quantisation pipeline) and writes the package to
 * o->out and/or, as C source, to o->emit_c (the same bytes; neither: lower
 * and report only).
 * 0, or -1 with d filled (unknown target, a layer that does not fit, the
 * writer's refusal), or LOWER_COMPILE_UNSUPPORTED with d filled. */
int lower_compile(const ir_graph *g, const lower_compile_opts *o, diag *d);

#endif
