/* tune_log: the tuning log, JSON lines (docs/tuning.md, "The log").
 *
 * One record per measurement: the workload key, the schedule, the measured
 * cycles and counters, target, engine, simulator version, time.  Graph
 * records ("graph <target> <hash>" keys) hold the level-2 decision (SRAM
 * residency on or off) measured end to end.  Reading keeps, per key, the
 * record with the fewest measured cycles (ties: the earliest); foreign
 * lines (not a tessel-tune record) and corrupt ones are skipped and
 * counted, never fatal.  The table is the lowering's per-kernel hook
 * (lower_opts.sched_for), so `tessel compile --tuning-log` and the tuner
 * apply logs the same way, across models. */
#ifndef TESSEL_TUNE_LOG_H
#define TESSEL_TUNE_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "lower/lower.h"
#include "tessel_isa.h"

enum { TUNE_STATUS_OK, TUNE_STATUS_ERROR, TUNE_STATUS_TIMEOUT };

/* One measurement, as written to and read from the log. */
typedef struct tune_record {
  char key[LOWER_KEY_MAX];   /* workload key, or "graph <target> <hash>" */
  char target[32];           /* npu8 */
  lower_sched sched;         /* kernel records: the effective schedule */
  int residency;             /* graph records: 1 SRAM residency on, 0 off; -1 for kernel records */
  int is_default;            /* the default schedule (or plan) */
  int status;                /* TUNE_STATUS_* */
  char error[160];           /* what went wrong (status != ok) */
  uint64_t cycles;           /* measured CYCLES of the task's kernels (graph: the whole run) */
  uint64_t estimate;         /* the cost model's estimate of the same */
  uint64_t busy[4];          /* the cost model's busy cycles per queue (FRONT, LOAD, EXEC, STORE) */
  int n_kernels;             /* kernels of the task in the package */
  uint64_t counters[TSL_NCOUNTERS]; /* measured, summed over those kernels */
  char engine[8];            /* rtl or model */
  char simulator[96];        /* `tessel-sim --version` (rtl), or "c-model" */
  char model[128];           /* the model file's base name (information only) */
  int trial;                 /* sequence number in its tuning run */
  double seconds;            /* wall time of the measurement */
} tune_record;

/* Appends r to f as one JSON line (time stamped now, UTC); flushes. */
void tune_log_write(FILE *f, const tune_record *r);

/* Parses one log line into r. 1: a tessel-tune record; 0: valid JSON but
 * foreign (another format); -1: corrupt, with the reason in d. */
int tune_log_parse_line(const char *line, size_t len, tune_record *r, diag *d);

/* The best record per key. */
typedef struct tune_table {
  tune_record *best; /* n entries, one per key */
  int n, cap;
  int records;       /* tessel-tune records read */
  int skipped;       /* foreign or corrupt lines skipped */
  int failed;        /* records of failed measurements (never applied) */
  int keep_all;      /* set before loading: also keep every record in all[] (the tuner's --resume) */
  tune_record *all;  /* n_all records in log order, when keep_all */
  int n_all, cap_all;
} tune_table;

/* Adds a record (a successful one replaces the key's entry when faster). 0 or -1 (out of memory). */
int tune_table_add(tune_table *t, const tune_record *r);
/* Reads a log file into t (t may already hold entries).  Foreign and corrupt
 * lines are counted in t->skipped, with a warning per line on warn (NULL:
 * silent) naming the file and line (the first 10; then one line saying more
 * follow).  0, or -1 with d filled when the file cannot be read at all or
 * has lines but not one tessel-tune record (not a tuning log). */
int tune_table_load(tune_table *t, const char *path, FILE *warn, diag *d);
/* The entry of key, or NULL. */
const tune_record *tune_table_find(const tune_table *t, const char *key);
void tune_table_free(tune_table *t);

/* lower_sched_fn over a tune_table (ctx): the best schedule of the key. */
int tune_table_sched(void *ctx, const char *key, lower_sched *s);

#endif
