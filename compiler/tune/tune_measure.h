/* tune_measure: measurements as independent processes.
 *
 * A measurement is one command, `tessel run PKG --input X.npy --engine E
 * --profile P.json -q`, so the same step runs on a farm (docs/tuning.md).
 * The pool starts up to `jobs` of them (fork/exec, each in its own process
 * group so a timeout also stops the simulator it started), reaps them with
 * waitpid, kills those over the timeout, and reads each profile back.  A
 * failure or a timeout is a status with a message, never fatal.
 *
 * With a remote launcher (tune_launch.h) the same commands run as one
 * round per batch of starts: tune_pool_start only queues, the first
 * tune_pool_wait after it writes the round folder (round-NNN under the
 * work folder, where tune_pool_path put the packages) and submits it as
 * one `parallel` call or one Slurm array; results come back as tasks end.
 * With fold, a package identical to one already in its round folder that
 * has a profile there is not run again: that profile is its result. */
#ifndef TESSEL_TUNE_MEASURE_H
#define TESSEL_TUNE_MEASURE_H

#include <stdint.h>
#include <sys/types.h>

#include "diag.h"
#include "tessel_isa.h"
#include "tune_launch.h"

enum { TUNE_PATH_MAX = 512, TUNE_ROUND_MAX = 1000 /* tasks of one array: Slurm's default MaxArraySize is 1001 */ };

/* One run and, when it is done, what it measured. */
typedef struct tune_job {
  int seq;                   /* the caller's sequence number */
  pid_t pid;                 /* running: the child (and its process group), -1: queued on a launcher; 0: not running */
  int ready;                 /* its result is known (folded): the next wait returns it */
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
  int jobs;            /* at most this many at once (a remote launcher: TUNE_ROUND_MAX) */
  const tune_launcher *launch; /* NULL or local: fork/exec here; else rounds (tune_launch.h) */
  const char *dir;     /* the work folder (rounds go in it) */
  int fold;            /* reuse results already in the round folders */
  tune_job *slot;      /* jobs slots */
  int running;         /* started and not returned (remote: queued ones too) */
  int rounds;          /* rounds submitted */
  int queued;          /* started, not submitted yet */
  int since;           /* started since the last round ended */
  tune_round round;    /* the round running (round.state: NULL when none) */
  int *round_slot;     /* its task i is slot round_slot[i] */
  int done, failed;    /* remote: tasks ended ok / not (for the progress line) */
  void (*tick)(void *ctx); /* remote, while a wait blocks: called about twice a second (NULL: never) */
  void *tick_ctx;
  double last_tick;
} tune_pool;

/* Monotonic seconds. */
double tune_now(void);

/* Allocates the pool's slots. 0 or -1 (out of memory). */
int tune_pool_init(tune_pool *p);
void tune_pool_free(tune_pool *p);

/* Where the package of measurement seq goes (dir/mNNNNN.tpkg; with a
 * remote launcher or fold dir/round-NNN/mNNNNN.tpkg, the folder made; with
 * fold with ".new" appended, tune_pool_start compares it with the kept
 * one).  0, or -1 with d filled. */
int tune_pool_path(tune_pool *p, int seq, char *buf, size_t n, diag *d);

/* Tasks on the launcher by TUNE_TASK_* (local: running ones as running). */
void tune_pool_counts(const tune_pool *p, int count[4]);

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
