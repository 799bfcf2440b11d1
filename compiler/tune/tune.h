/* tune: the autotuner's driver (docs/tuning.md).
 *
 * Tasks are the distinct workload keys of a model's conv/matmul kernels
 * (identical layers share one).  Level 1, per task against the default SRAM
 * plan: the cost model explores the schedule knobs (exhaustively when the
 * space is small, else random + evolutionary), then the most promising
 * schedules are measured, the default always among them; halfway the cost
 * model is refit on every measurement so far and re-ranks the rest.  Level
 * 2: the whole model with SRAM residency on (best schedules) and off,
 * measured end to end.  Every measurement is a package run as its own
 * process (tune_measure.h) and one JSON line in the log (tune_log.h). */
#ifndef TESSEL_TUNE_H
#define TESSEL_TUNE_H

#include <stdint.h>

#include "diag.h"
#include "tune_launch.h"

enum { TUNE_MAX_CALIB = 64 };

typedef struct tune_opts {
  const char *model;                  /* MODEL.onnx */
  const char *target;                 /* npu8 */
  const char *calib[TUNE_MAX_CALIB];  /* calibration .npy files */
  int n_calib;
  const char *input;                  /* the measured input (.npy; NULL: the first calibration sample) */
  int trials;                         /* measurements per task, the default included */
  int explore;                        /* cost-model lowerings for the exploration (0: 256) */
  int jobs;                           /* measurements at once */
  const char *log;                    /* JSON-lines log (appended) */
  const char *engine;                 /* rtl or model */
  double time_budget;                 /* seconds (0: none): no new measurement after it */
  double timeout;                     /* seconds per measurement */
  int resume;                         /* reuse the log's measurements of the same schedules */
  int batch;                          /* 1: one package per rank holds a candidate of every task */
  uint64_t seed;                      /* search randomness */
  const char *workdir;                /* packages and profiles (NULL: a fresh /tmp folder, removed after) */
  const char *tessel;                 /* the tessel binary measurements run (NULL: this one) */
  int progress;                       /* 1: progress bar on stderr */
  tune_launcher launch;               /* where measurements run (local: this machine, --jobs at once) */
  int fold;                           /* 1: results already in workdir's round folders are taken, not run */
} tune_opts;

/* Tunes o->model; prints the report to stdout.  0, or -1 with d filled
 * (the model, its inputs or the log cannot be used: nothing was tuned). */
int tune_run(const tune_opts *o, diag *d);

#endif
