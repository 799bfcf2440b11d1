/* tune_measure: measurements as independent processes.
 *
 * A measurement is one command, `tessel run PKG --input X.npy --engine E
 * --profile P.json -q`, so the same step runs on a farm (docs/tuning.md).
 * The pool starts up to `jobs` of them (fork/exec, each in its own process
 * group so a timeout also stops the simulator it started), reaps them with
 * waitpid, kills those over the timeout, and reads each profile back.  A
 * failure or a timeout is a status with a message, never fatal. */
#ifndef TESSEL_TUNE_MEASURE_H
#define TESSEL_TUNE_MEASURE_H

#include <stdint.h>
#include <sys/types.h>

#include "diag.h"
#include "tessel_isa.h"

enum { TUNE_PATH_MAX = 512 };

/* One run and, when it is done, what it measured. */
typedef struct tune_job {
  int seq;                   /* the caller's sequence number */
  pid_t pid;                 /* running: the child (and its process group); 0: free slot */
  double start;              /* monotonic seconds it started */
  char pkg[TUNE_PATH_MAX];   /* the package it runs */
  char prof[TUNE_PATH_MAX];  /* its profile */
  char out[TUNE_PATH_MAX];   /* its stdout/stderr */
  /* Results (after tune_pool_wait returned it). */
  int status;                /* TUNE_STATUS_* (tune_log.h) */
  char error[160];           /* status != ok: why */
  double seconds;            /* wall time */
  uint64_t total[TSL_NCOUNTERS]; /* the run's counters */
  int nk;                    /* kernel records in the profile */
  uint64_t (*kc)[TSL_NCOUNTERS]; /* per kernel record: counters (malloc'd; tune_job_clear) */
  uint64_t *kid;             /* per kernel record: the MARK kernel id (the lowering's kernel index) */
} tune_job;

typedef struct tune_pool {
  const char *tessel;  /* the tessel binary to run */
  const char *input;   /* the .npy input */
  const char *engine;  /* rtl or model */
  double timeout;      /* seconds per run (> 0) */
  int jobs;            /* at most this many at once */
  tune_job *slot;      /* jobs slots */
  int running;
} tune_pool;

/* Monotonic seconds. */
double tune_now(void);

/* Allocates the pool's slots. 0 or -1 (out of memory). */
int tune_pool_init(tune_pool *p);
void tune_pool_free(tune_pool *p);

/* Starts a run of pkg (seq, profile and output paths derived from pkg) in a
 * free slot; the caller waits for a free one first (running < jobs).  0, or
 * -1 with d filled when fork fails. */
int tune_pool_start(tune_pool *p, int seq, const char *pkg, diag *d);

/* Waits for a run to end (block = 0: only checks) and returns its slot,
 * results filled; NULL when none ended (or none is running).  The caller
 * copies what it needs, then tune_job_clear()s the slot. */
tune_job *tune_pool_wait(tune_pool *p, int block);
void tune_job_clear(tune_job *j);

/* Stops every running job (interrupt or error). */
void tune_pool_kill(tune_pool *p);

#endif
