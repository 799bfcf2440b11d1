/* run_chunks: `tessel run --launcher parallel|slurm --chunk N`: a batch
 * split into chunks of N inferences, each chunk one `tessel run` task of a
 * round (compiler/tune/tune_launch.h) in the work folder, the chunks'
 * outputs concatenated in order into the --output files: the same bytes a
 * local run of the whole batch writes. */
#ifndef TESSEL_RUN_CHUNKS_H
#define TESSEL_RUN_CHUNKS_H

#include <stdint.h>

#include "diag.h"
#include "npy.h"
#include "tune/tune_launch.h"

enum { RUN_CHUNKS_MAX_IO = 32, RUN_CHUNKS_MAX_PASS = 16 };

typedef struct run_chunks_job {
  const char *pkg;                          /* the package */
  int n_in;
  const char *in_name[RUN_CHUNKS_MAX_IO];   /* the package's inputs */
  const npy_array *in[RUN_CHUNKS_MAX_IO];   /* as read, runs entries along dimension 0 */
  int n_out;
  const char *out_name[RUN_CHUNKS_MAX_IO];  /* the package's outputs */
  const char *out_file[RUN_CHUNKS_MAX_IO];  /* their --output files (NULL: not written) */
  int64_t runs;                             /* inferences */
  const char *engine;                       /* rtl or model */
  const char *pass[RUN_CHUNKS_MAX_PASS];    /* options every chunk's run gets (--sim PATH, ...) */
  int n_pass;
  const tune_launcher *launch;
  int64_t chunk;                            /* inferences per chunk */
  const char *workdir;                      /* chunks, round files (kept) */
  int quiet, progress;
} run_chunks_job;

/* Runs the chunks and writes the merged outputs; a summary line on stderr
 * unless quiet.  0, or -1 with d filled (a chunk failed: which, and why). */
int run_chunks(const run_chunks_job *c, diag *d);

#endif
