/* run_engine: runs a validated model package on one of the engines of
 * `tessel run` (docs/runtime.md):
 *   model  the NPU C model in this process, through the firmware's own
 *          executor (shared/tfw_exec.c) and fallback ops;
 *   rtl    the runner firmware (build/firmware/<t>/tessel-fw.elf) on the
 *          target's cycle-accurate simulator (build/<t>/tessel-sim), talking
 *          through the DRAM mailbox of shared/tfw_mailbox.h;
 *   board  the link firmware (build/firmware/<t>/tessel-link.elf) on a board
 *          or on tessel-sim --uart-pty, over a serial port with the frames
 *          of shared/link_proto.h (docs/host-link.md).
 * All take the inputs as the package's I/O records lay them out in the
 * window (dtype, layout) and give the outputs back the same way. */
#ifndef TESSEL_RUN_ENGINE_H
#define TESSEL_RUN_ENGINE_H

#include <stdint.h>

#include "diag.h"
#include "tessel_isa.h"
#include "npu_model.h"
#include "tessel_rt.h"
#include "tpkg_format.h"

typedef struct {
  const char *sim;        /* rtl: simulator binary (NULL: next to tessel, build/<target>/tessel-sim) */
  const char *firmware;   /* rtl: runner ELF (NULL: build/firmware/<target>/tessel-fw.elf) */
  const char *trace;      /* rtl: FST waveform of the whole run (NULL: none) */
  uint64_t trace_from, trace_to; /* rtl: with trace, only these simulated cycles (0, 0: all) */
  uint64_t max_cycles;    /* rtl: simulator cycle limit (0: a bound from the package's estimates) */
  int check_weights;      /* verify the weights CRC where the NPU reads them */
  uint32_t watchdog;      /* rtl: 0, or every NPU run's watchdog in cycles */
  const char *port;       /* board: the serial device */
  uint32_t baud;          /* board: its rate (a pty ignores it) */
  double timeout_s;       /* board: the longest wait for any reply */
} run_opts;

/* One batch of inferences and what came back. */
typedef struct {
  uint32_t runs;            /* inferences */
  uint32_t n_in, n_out;     /* graph inputs and outputs (package order) */
  uint8_t **in;             /* in[i]: runs x io.size bytes (caller's) */
  uint8_t **out;            /* out[i]: runs x io.size bytes (filled; allocated by the engine) */
  uint64_t (*kcounters)[TSL_NCOUNTERS]; /* per kernel record: the last run's counters (allocated) */
  uint64_t *fb_cycles;      /* per fallback record: core cycles of the last run (allocated; 0 on model) */
  uint64_t (*kspan)[2];     /* rtl: per kernel record the core clock at its start and end, last run
                               (allocated; NULL on model) */
  tfw_tl_mark *marks;       /* rtl, model: the last run's timeline marks (allocated; NULL on board) */
  uint32_t nmarks;          /*   how many */
  uint32_t marks_dropped;   /*   marks that did not fit (marks[nmarks-1] is the latest) */
  uint64_t run_cycles;      /* rtl: core cycles in the runtime's run, all runs; model: NPU cycles, all runs */
  uint64_t sim_cycles;      /* rtl: cycles the simulator ran in all (boot, load, I/O copies included) */
  double host_seconds;      /* wall time of the engine */
  uint32_t link_retries;    /* board: RUN frames sent again (NAK, corrupted or no reply) */
  int want_window;          /* 1: give back the DRAM window as the last run left it */
  int want_timeline;        /* record every command of the last run */
  npu_cmd_event_t *timeline; /* model: the commands, `marks` = the kernel record's index, cycles
                                counted from the run's first kernel (allocated) */
  size_t ntimeline;
  uint64_t (*rtl_cmds)[3];  /* rtl: every command's {unit, start, end} in simulated cycles, all runs */
  size_t n_rtl_cmds;
  uint64_t *run_starts;     /* rtl: the simulated cycle each NPU run (kernel record) started, all runs */
  size_t n_run_starts;
  uint8_t *window;          /* then: window_bytes bytes (allocated) */
  uint32_t window_bytes;
} run_batch;

/* Runs b->runs inferences of the package (len bytes at pkg, already
 * validated into v). 0, or -1 with d filled. */
int run_engine_model(const uint8_t *pkg, uint32_t len, const tpkg_view *v, run_batch *b, diag *d);
int run_engine_rtl(const uint8_t *pkg, uint32_t len, const tpkg_view *v,
                   const run_opts *o, run_batch *b, diag *d);

/* Board: as run_engine_rtl; RUN_ENGINE_E_USAGE when the port cannot be
 * opened or is not a tty (a usage error), -1 for everything else. */
enum { RUN_ENGINE_E_USAGE = -2 };
int run_engine_board(const uint8_t *pkg, uint32_t len, const tpkg_view *v,
                     const run_opts *o, run_batch *b, diag *d);

/* The result arrays of b for package v: outputs (runs x size, zeroed),
 * counters and fallback cycles. 0, or -1 with d filled. */
int run_batch_alloc(const tpkg_view *v, run_batch *b, diag *d);

/* Room for the timeline of one inference of v: every mark tfw_run and the
 * runner make (tessel_rt.h). */
uint32_t run_timeline_max(const tpkg_view *v);

/* Frees what an engine allocated in b. */
void run_batch_free(run_batch *b);

#endif
