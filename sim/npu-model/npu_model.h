/* npu_model.h: the bit-exact C model of the Tessel NPU (docs/isa.md).
 *
 * A model instance owns the NPU's on-chip memories (scratchpad, accumulator,
 * parameter rows) for one target configuration. npu_model_run executes a
 * command stream on a DRAM window the caller owns, exactly as the hardware
 * would: same results, same error code and command index, same byte and MAC
 * counters. Cycle counters come from the cost model (cost_model.h) with one
 * timeline per unit, so they are estimates, not measurements.
 *
 * Errors are returned as values with a message; a bad stream never aborts,
 * and every run ends (deadlock detection, bounded loops, and a budget of
 * simulated work: a dispatch limit and a cycle limit, see npu_run_t).
 *
 * Typical use:
 *   npu_model_t *m = npu_model_new(tsl_target_find("npu8"));
 *   npu_run_t run = {.stream = bytes, .stream_len = n, .dram = buf, .dram_size = size};
 *   npu_result_t r;
 *   if (npu_model_run(m, &run, &r) != 0) fprintf(stderr, "%s\n", r.message);
 *   uint64_t macs = npu_model_counters(m)[TSL_CNT_MACS];
 *   npu_model_free(m);
 */
#ifndef NPU_MODEL_H
#define NPU_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tessel_isa.h"
#include "tessel_targets.h"

typedef struct npu_model npu_model_t;

/* Model-only outcomes, outside the hardware's error codes. */
enum {
  NPU_MODEL_ERR_LIMIT = 100, /* more than max_dispatch commands dispatched, or max_cycles passed */
  NPU_MODEL_ERR_NOMEM = 101, /* the model could not allocate */
};

/* The budget of simulated work a run gets when npu_run_t leaves it 0.
 * The model simulates faithfully whatever a stream asks, and three nested
 * 65535-iteration loops ask for 2.8e14 commands: the old limit of 2^32
 * commands took 100 s on NOPs, hours with heavy bodies.  The defaults are
 * 100x and more above the largest bundled network's whole inference
 * (resnet18 at npu4, docs/isa.md "C model run limits"), and a run is one
 * kernel or segment, so no real run comes near them; a caller that needs
 * more sets its own. */
#define NPU_MODEL_DEFAULT_MAX_DISPATCH ((uint64_t)1 << 24)  /* commands, loops expanded */
#define NPU_MODEL_DEFAULT_MAX_CYCLES ((uint64_t)1 << 32)    /* simulated NPU cycles */

/* One run: the stream (as in command SRAM) and the DRAM window. */
typedef struct {
  const uint8_t *stream;  /* stream_len commands of 16 bytes, little-endian */
  uint32_t stream_len;    /* commands */
  uint8_t *dram;          /* the DRAM window (read and written in place) */
  uint64_t dram_size;     /* bytes */
  uint64_t max_dispatch;  /* stop with NPU_MODEL_ERR_LIMIT beyond this many dispatched commands;
                             0 = NPU_MODEL_DEFAULT_MAX_DISPATCH */
  int timing_only;        /* 1: checks, counters and cycle estimates only; SRAM and DRAM data are not
                             computed (MARK records are still written): fast estimates for the tuner */
  uint64_t max_cycles;    /* stop with NPU_MODEL_ERR_LIMIT once the simulated cycle count passes
                             this; 0 = NPU_MODEL_DEFAULT_MAX_CYCLES (last: positional initialisers
                             written before it keep working) */
} npu_run_t;

/* How a run ended. */
typedef struct {
  int code;              /* TSL_ERR_* (TSL_ERR_NONE = 0 on success) or NPU_MODEL_ERR_* */
  uint32_t index;        /* ERR_INDEX: offending command (from the stream start) */
  uint64_t dispatched;   /* commands dispatched (loops expanded) */
  char message[256];     /* "command 12 (LOAD): DRAM bytes 96..103 outside the 64-byte window" */
} npu_result_t;

/* A MARK snapshot (also what a MARK record holds). */
typedef struct {
  uint64_t kernel;                  /* MARK kernel id */
  uint64_t seq;                     /* MARK_COUNT after this mark (1, 2, ...) */
  uint64_t counters[TSL_NCOUNTERS]; /* counters at the mark */
} npu_snapshot_t;

/* A model for target t (not copied: t must outlive the model). SRAMs start
 * zeroed. Returns NULL if t is NULL, inconsistent, or memory runs out. */
npu_model_t *npu_model_new(const tsl_target_t *t);
void npu_model_free(npu_model_t *m);
const tsl_target_t *npu_model_target(const npu_model_t *m);

/* Runs a stream (like CTRL.START: counters, tokens, queues, configuration
 * registers and snapshots reset; SRAM contents kept). Returns r->code. */
int npu_model_run(npu_model_t *m, const npu_run_t *run, npu_result_t *r);

/* The same, from a command SRAM image as the hardware sees it: checks
 * STREAM_BASE/STREAM_LEN against the image (STREAM_RANGE otherwise). */
int npu_model_run_sram(npu_model_t *m, const uint8_t *cmd_sram, uint32_t sram_bytes, uint32_t stream_base,
                       uint32_t stream_len, uint8_t *dram, uint64_t dram_size, npu_result_t *r);

/* ---- the stream fetch (CTRL.FETCH, docs/isa.md section 9) ------------------
 * The hardware copies commands from its read-only fetch window into the
 * command SRAM, possibly while a run goes on from another part of it. The
 * model's runs end before they return, so a fetch is modelled as pending:
 * npu_fetch_start makes CTRL.FETCH's checks, npu_fetch_finish copies the
 * commands (at FETCH_BUSY's fall), and npu_model_run_fetching starts a run
 * with a fetch pending as CTRL.START does (FETCH_OVERLAP if they meet, else
 * the fetch completes and the run goes). Same checks, same codes as the
 * hardware; the caller owns the SRAM image and the window. */
typedef struct {
  int pending;            /* 1: started, not finished */
  const uint8_t *src;     /* the first command, in the window */
  uint32_t dst;           /* FETCH_DST: byte offset in the command SRAM */
  uint32_t len;           /* FETCH_LEN: commands */
} npu_fetch_t;

/* CTRL.FETCH of len commands from byte src of the window (win, win_size
 * bytes) to byte dst of a sram_bytes command SRAM, while the stream of
 * run_len commands at byte run_base runs (run_len 0: no run). Returns
 * TSL_ERR_FETCH_RANGE (src not 8-byte or dst not 16-byte aligned, or either
 * range leaves its memory), TSL_ERR_FETCH_OVERLAP (the destination meets the
 * running stream), or TSL_ERR_NONE with *f pending (len 0: not pending).
 * The caller must finish a pending fetch before starting another. */
int npu_fetch_start(npu_fetch_t *f, const uint8_t *win, uint64_t win_size, uint32_t src, uint32_t dst,
                    uint32_t len, uint32_t sram_bytes, uint32_t run_base, uint32_t run_len);

/* TSL_ERR_FETCH_OVERLAP if the stream of len commands at byte base meets the
 * destination of the pending fetch f, else TSL_ERR_NONE. */
int npu_fetch_clash(const npu_fetch_t *f, uint32_t base, uint32_t len);

/* Completes a pending fetch: its commands into cmd_sram; no-op otherwise. */
void npu_fetch_finish(npu_fetch_t *f, uint8_t *cmd_sram);

/* npu_model_run_sram with the fetch f (may be NULL or not pending) in
 * flight: a stream that meets its destination ends at once with
 * TSL_ERR_FETCH_OVERLAP, index 0, counters reset (after a STREAM_RANGE
 * check, as START makes them); otherwise the fetch completes first. */
int npu_model_run_fetching(npu_model_t *m, uint8_t *cmd_sram, uint32_t sram_bytes, uint32_t stream_base,
                           uint32_t stream_len, uint8_t *dram, uint64_t dram_size, npu_fetch_t *f,
                           npu_result_t *r);

/* Counters of the last run (TSL_NCOUNTERS entries, TSL_CNT_* indices). */
const uint64_t *npu_model_counters(const npu_model_t *m);

/* MARK snapshots of the last run, in order. */
size_t npu_model_nsnapshots(const npu_model_t *m);
const npu_snapshot_t *npu_model_snapshot(const npu_model_t *m, size_t i);

/* Direct access to on-chip memory, for tests and tools: spad_rows*DIM int8,
 * acc_rows*DIM int32, param_rows*9*DIM bytes (layout of docs/isa.md). */
int8_t *npu_model_spad(npu_model_t *m);
int32_t *npu_model_acc(npu_model_t *m);
uint8_t *npu_model_param(npu_model_t *m);


/* Per-command timeline (opt-in, for the profiler's trace): every command a
 * unit executes, with the cycles it kept its unit busy. Off by default; when
 * off the run loop only tests a flag. */
typedef struct {
  uint8_t unit;        /* 0 LOAD, 1 EXEC, 2 STORE */
  uint8_t op;          /* TSL_OP_* (its opcode) */
  uint32_t index;      /* stream index of the command (loop iterations repeat it) */
  uint64_t marks;      /* MARKs passed before it ran: it belongs to profile kernel marks-1 */
  uint64_t start, end; /* busy from cycle start to cycle end */
} npu_cmd_event_t;

/* Turns recording on (1) or off (0) for the following runs. */
void npu_model_set_timeline(npu_model_t *m, int on);
/* Commands recorded by the last run, in the order they started per unit. If
 * memory ran out, recording stopped there and *complete (if not NULL) is 0. */
size_t npu_model_ntimeline(const npu_model_t *m, int *complete);
const npu_cmd_event_t *npu_model_timeline(const npu_model_t *m);

#endif
