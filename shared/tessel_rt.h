/* tessel_rt.h: the Tessel runtime: runs a compiled model package (.tpkg) on
 * the NPU (docs/runtime.md).
 *
 * The runtime validates a package before the NPU sees any of it (tpkg_check:
 * magic, version, target, CRCs, every offset, size and command address),
 * places its weights in the NPU's DRAM window, keeps the command streams
 * resident in the NPU command SRAM when they fit (loaded once, replayed by
 * every run) or else has the NPU fetch each kernel's stream while the one
 * before it runs (the backend's stream fetch), and runs the kernels in order with the fallback ops
 * (shared/tfw_fallback.c) between them, taking a counter snapshot
 * per kernel and guarding every NPU run with a watchdog.
 *
 * The executor is independent of how the NPU is reached: a tfw_backend says
 * how to load a stream, run it and read the counters. The firmware uses the
 * NPU driver (tfw_npu_backend(), firmware/npu/npu.h); the host's
 * `tessel run --engine model` uses the C model. One executor, one fallback
 * source: both engines run the same code in the same order.
 *
 * Firmware use (package linked in with `tessel compile --emit-c`):
 *   static tfw_model m;
 *   tfw_error e;
 *   if (tfw_load(&m, tfw_npu_backend(), tessel_pkg, tessel_pkg_size, window, window_bytes, 0, &e))
 *     printf("%s\n", tfw_format_error(&e, buf, sizeof buf));
 *   static uint64_t pool[1024];                              // optional: the fallback records
 *   if (tfw_prepare_fallbacks(&m, pool, sizeof pool, &e)) ...; // decoded once, not every run
 *   float *in = tfw_io_data(&m, tfw_input(&m, 0, &io));    // io.dims, io.dtype
 *   ... fill in ...
 *   if (tfw_run(&m, &e)) ...;
 *   const float *probs = tfw_io_data(&m, tfw_output(&m, 0, &io));
 *
 * Freestanding: no malloc, no stdio, no libm. Not reentrant. */
#ifndef TESSEL_RT_H
#define TESSEL_RT_H

#include <stddef.h>
#include <stdint.h>

#include "tessel_isa.h"
#include "tpkg_format.h"

/* Runtime version: the mailbox (tfw_mailbox.h) and `tessel run` check it. */
#define TFW_RUNTIME_VERSION 1u

/* Return codes: 0 or negative. tfw_error.detail refines them. */
enum {
  TFW_OK = 0,
  TFW_E_ARG = -1,      /* NULL pointer, misaligned window, run before load */
  TFW_E_PACKAGE = -2,  /* the package failed validation; detail = tpkg_err_code */
  TFW_E_WINDOW = -3,   /* the memory given for the DRAM window is smaller than the package needs */
  TFW_E_CMD_SRAM = -4, /* a kernel's stream is larger than the NPU's command SRAM */
  TFW_E_DEVICE = -5,   /* no NPU, or an NPU of another target (detail: backend code) */
  TFW_E_NPU = -6,      /* an NPU run ended with an error; detail = TSL_ERR_* code */
  TFW_E_TIMEOUT = -7,  /* the watchdog expired: the NPU run was aborted */
  TFW_E_FALLBACK = -8, /* a fallback op failed; detail = TFW_FB_E_* */
  TFW_E_COUNT = 9,
};

/* What went wrong, where. */
typedef struct {
  int code;         /* TFW_E_* */
  int detail;       /* tpkg_err_code, TSL_ERR_*, TFW_FB_E_* or a backend code; 0 if none */
  int32_t kernel;   /* kernel record (or fallback record for TFW_E_FALLBACK); -1 if none */
  int64_t index;    /* offending command / package item; -1 if none */
  uint64_t value;   /* offending value (package errors) */
  const char *msg;  /* static text naming what is wrong */
} tfw_error;

/* How the executor reaches an NPU. Every function returns 0 or a negative
 * backend code (reported as tfw_error.detail). */
typedef struct {
  uint32_t status;    /* TSL_ERR_* of the run (TSL_ERR_NONE when it succeeded) */
  uint32_t err_index; /* offending command, from the stream start */
  int timed_out;      /* 1: the watchdog fired and the run was aborted */
} tfw_npu_result;

typedef struct tfw_backend {
  void *ctx;
  uint32_t target_hash;    /* TSL_TARGET_HASH of the NPU behind the backend */
  uint32_t dim;            /* its DIM */
  uint32_t cmd_sram_bytes; /* its command SRAM */
  uint32_t fetch_cmd_cycles; /* NPU cycles the stream fetch takes per command (0: unknown, one kernel fetched ahead) */
  int (*init)(void *ctx);  /* probe the device (may be NULL) */
  int (*set_window)(void *ctx, uint8_t *base, uint32_t bytes);
  int (*load_stream)(void *ctx, uint32_t sram_off, const uint8_t *cmds, uint32_t ncmds);
  /* Runs ncmds commands from sram_off; aborts after timeout_cycles. Returns
   * 0 when the run ended (successfully or not: see r->status), < 0 when the
   * backend itself failed. */
  int (*run)(void *ctx, uint32_t sram_off, uint32_t ncmds, uint64_t timeout_cycles, tfw_npu_result *r);
  void (*counters)(void *ctx, uint64_t out[TSL_NCOUNTERS]); /* of the last run */
  uint64_t (*now)(void *ctx); /* a cycle clock for fallback timing (may be NULL: 0) */
  const char *(*strerror)(int code); /* backend code -> name (may be NULL) */
  /* The stream fetch (optional: NULL, or set_fetch_window refusing, and the
   * streams that do not fit are copied with load_stream before each run).
   * set_fetch_window lets the NPU read bytes [base, base+bytes) (the
   * package's streams); fetch_stream starts copying ncmds commands from cmds
   * (inside that window) to sram_off and returns at once, a run may go on
   * meanwhile from another part of the command SRAM; fetch_wait waits for
   * the fetch to end. Each returns 0, else a backend code (< 0) or the
   * NPU's TSL_ERR_* (> 0, a refused fetch). */
  int (*set_fetch_window)(void *ctx, const uint8_t *base, uint32_t bytes);
  int (*fetch_stream)(void *ctx, uint32_t sram_off, const uint8_t *cmds, uint32_t ncmds);
  int (*fetch_wait)(void *ctx);
  /* run in two halves (optional: both NULL, and no fallback op runs beside
   * the NPU): start returns once the NPU runs ncmds commands from sram_off;
   * wait waits for that run to end (its watchdog counts from the call) and
   * fills r as run does. Between them the core runs the fallback records
   * the package says no kernel of the run touches. */
  int (*start)(void *ctx, uint32_t sram_off, uint32_t ncmds);
  int (*wait)(void *ctx, uint64_t timeout_cycles, tfw_npu_result *r);
} tfw_backend;

/* Per kernel record, filled by every tfw_run (with tfw_run_stats after it
 * for a package with counter records) when the caller gave room. */
typedef struct {
  uint64_t counters[TSL_NCOUNTERS]; /* the NPU's counters for the record's run */
  uint64_t start, end;              /* the backend's clock when the run started and ended (0 without a clock) */
} tfw_kernel_stats;

/* The timeline of one inference: what the core does, when. Each mark says
 * "from cycle t on, the core does phase (index)"; a phase lasts until the
 * next mark, and the last mark ends the inference. tfw_run marks its own
 * phases; the caller may mark its work around it (the runner marks its
 * input and output copies). Each mark is one read of the backend's clock
 * and one 16-byte store. */
typedef enum {
  TFW_TL_RUNTIME,     /* the executor's own work: package fields, dispatch (tfw_run's entry too) */
  TFW_TL_KERNEL,      /* index: kernel record; the NPU runs it, the core waits for its interrupt */
  TFW_TL_FALLBACK,    /* index: fallback record; the core runs the op */
  TFW_TL_STREAM_COPY, /* index: kernel record; the core copies its stream into command SRAM */
  TFW_TL_STREAM_WAIT, /* index: kernel record; waiting for the NPU's fetch of its stream, starting the next */
  TFW_TL_COUNTERS,    /* index: kernel record; reading the NPU's counters after it */
  TFW_TL_RETURN,      /* tfw_run returned: the caller's own work from here */
  TFW_TL_INPUT_COPY,  /* the caller copies or converts the inputs into the window (caller's mark) */
  TFW_TL_OUTPUT_COPY, /* the caller copies the outputs out of the window (caller's mark) */
  TFW_TL_END,         /* the inference ends here (caller's mark; lasts nothing) */
  TFW_TL_BESIDE,      /* index: fallback record; the core runs the op while the NPU runs the kernel marked before */
  TFW_TL_COUNT,
} tfw_tl_phase;

typedef struct {
  uint64_t t;     /* the backend's clock (0 without a clock) */
  uint32_t phase; /* tfw_tl_phase */
  uint32_t index; /* kernel or fallback record; 0 for the other phases */
} tfw_tl_mark;

/* Load flags. */
enum {
  TFW_LOAD_WEIGHTS_PLACED = 1u << 0, /* the weights are already at window + weights_offset (a loader put
                                        them there): not copied, and their CRC is checked there */
  TFW_LOAD_LAZY_WEIGHTS = 1u << 1,   /* skip the weights CRC (large models on trusted storage) */
};

/* Default watchdog: a run may take WATCHDOG_BASE + WATCHDOG_PER_EST x the
 * kernel's estimate cycles (a run of several records: the package's whole
 * estimate) before it is aborted (tfw_model's watchdog_base and
 * watchdog_per_est, which a firmware may change after tfw_load). */
#define TFW_WATCHDOG_BASE 20000000ull
#define TFW_WATCHDOG_PER_EST 16u
/* Kernels (of the first 32 x this many) whose fetch may join the one before's. */
#define TFW_FETCH_JOIN_WORDS 8

typedef struct {
  tpkg_view pkg;
  const tfw_backend *npu;
  uint8_t *window;
  uint32_t window_bytes;
  int streams_resident;            /* 1: all of STREAMS is in command SRAM, loaded once */
  int streams_fetched;             /* 1: not resident; the NPU fetches each kernel's stream */
  int32_t fetch_kernel;            /* first kernel of the fetched group (or in flight) at fetch_off; -1 none */
  int32_t fetch_last;              /* its last kernel: their streams lie back to back from fetch_off */
  uint32_t fetch_off;              /* the group's command SRAM byte offset */
  int fetch_pending;               /* 1: the group's fetch is not waited for yet */
  uint32_t fetch_join[TFW_FETCH_JOIN_WORDS]; /* bit k: kernel k may join k-1's fetch group (set at load) */
  uint64_t watchdog_base;          /* TFW_WATCHDOG_BASE unless changed after load */
  uint32_t watchdog_per_est;       /* TFW_WATCHDOG_PER_EST unless changed after load */
  tfw_kernel_stats *kstats;        /* optional: n_kernels entries (tfw_set_stats) */
  uint64_t *fallback_cycles;       /* optional: n_fallbacks entries, backend clock cycles */
  tfw_tl_mark *tl;                 /* optional: the timeline's marks (tfw_set_timeline) */
  uint32_t tl_max;                 /* room in tl (>= 2) */
  uint32_t tl_count;               /* marks in tl */
  uint32_t tl_dropped;             /* marks that did not fit (the last slot holds the latest) */
  int tl_open;                     /* 1: tfw_timeline_begin was called; tfw_run continues its log */
  uint32_t kernels_run;            /* kernel records the last tfw_run completed (tfw_run_stats) */
  uint64_t estimate_total;         /* the kernel records' estimates summed (a merged run's watchdog) */
  const uint8_t *fb_pool;          /* fallback records prepared at load (tfw_prepare_fallbacks); NULL: none */
  int loaded;
} tfw_model;

/* Validates len bytes at pkg for the backend's target (flags TFW_LOAD_*),
 * gives the NPU the window (window_bytes bytes at window, 8-byte aligned, at
 * least the package's window size), places the weights there (copied unless
 * TFW_LOAD_WEIGHTS_PLACED or already in place) and loads the streams into
 * command SRAM when they fit. pkg must stay valid while m is used. */
int tfw_load(tfw_model *m, const tfw_backend *npu, const void *pkg, uint32_t len, void *window,
             uint32_t window_bytes, unsigned flags, tfw_error *e);

/* Prepares the fallback records once, after tfw_load and before the first
 * tfw_run: each record is decoded and checked (tfw_fallback_prepare: every
 * check that depends only on the package, the window and the NPU's DIM),
 * and the prepared form of those that fit is kept in pool (pool_bytes bytes,
 * 8-byte aligned; fast memory, like the statistics. On the RV32 core 144
 * bytes per QuantizeLinear, DequantizeLinear or relayout, 36 + 44 per
 * operand + 4 per parameter, rounded up to 8, for the others, and 24 for
 * the end), in record order, skipping those that do not fit. tfw_run runs a prepared record without reading it
 * from the package again; the others as without a pool (decoded and checked
 * on every run). pool NULL or pool_bytes 0: every record is still checked,
 * none kept. Returns TFW_OK, TFW_E_ARG (not loaded, pool misaligned), or
 * TFW_E_FALLBACK for the first record that fails (detail TFW_FB_E_*, kernel
 * = the fallback record, value = its op): tfw_run would fail on it every
 * time. On an error no record is kept. The pool must stay valid, and the
 * window where it is, while m is used; tfw_load drops the pool. */
int tfw_prepare_fallbacks(tfw_model *m, void *pool, uint32_t pool_bytes, tfw_error *e);

/* Where to keep per-kernel counters and per-fallback cycles (either may be
 * NULL); arrays of m->pkg.n_kernels and m->pkg.n_fallbacks entries, each
 * written when its kernel or op runs (a run that stops early leaves the
 * later entries as they were). Keep them in fast memory: they are written
 * during the run. */
void tfw_set_stats(tfw_model *m, tfw_kernel_stats *kstats, uint64_t *fallback_cycles);

/* Where to keep the timeline of each inference: max marks at marks (NULL
 * or max < 2: none). Fast memory, like the statistics. Every tfw_run starts
 * a new timeline (unless tfw_timeline_begin opened one) and ends with a
 * TFW_TL_RETURN mark; marks past max overwrite the last slot and are
 * counted in m->tl_dropped, so the timeline still ends at the latest mark
 * and the unrecorded stretch before it is known. A firmware sizes marks
 * for its largest model: about 4 per kernel record and 2 per fallback op,
 * plus 4. */
void tfw_set_timeline(tfw_model *m, tfw_tl_mark *marks, uint32_t max);

/* Opens a new timeline before tfw_run, so the caller can mark its own work
 * (an input copy) before the run's marks. */
void tfw_timeline_begin(tfw_model *m);

/* Marks that the core starts phase (index) now, when a timeline is kept;
 * returns the clock it read (the backend's clock, 0 without one). */
uint64_t tfw_mark(tfw_model *m, tfw_tl_phase phase, uint32_t index);

/* Graph inputs and outputs: the i-th of each (tpkg_io filled); NULL if out of range. */
const tpkg_io *tfw_input(const tfw_model *m, uint32_t i, tpkg_io *io);
const tpkg_io *tfw_output(const tfw_model *m, uint32_t i, tpkg_io *io);
uint32_t tfw_num_inputs(const tfw_model *m);
uint32_t tfw_num_outputs(const tfw_model *m);
/* The tensor's bytes in the window (io->size of them, in io->layout). */
void *tfw_io_data(const tfw_model *m, const tpkg_io *io);

/* One inference: every kernel and fallback op in order. Kernel records
 * with no fallback op between them run as one NPU run when their streams
 * are resident in command SRAM (back to back: no core work between them).
 * With a backend that starts and waits apart, the fallback records around
 * a run that the package says none of its kernels touches (their AHEAD and
 * BEHIND counts) run on the core while the NPU runs it, in their order; an
 * error in one waits for the run and is the one reported.
 * Where the package writes counter records (tpkg_view.counter_records),
 * the NPU snapshots each record's counters at its end and tfw_run reads
 * none: tfw_run_stats fills the statistics afterwards. */
int tfw_run(tfw_model *m, tfw_error *e);

/* The statistics of the last tfw_run's completed kernel records from their
 * counter records in the window: each record's counters (its snapshot less
 * the one before it in the same NPU run) and its start and end on the
 * backend's clock, and a timeline mark for each record that began inside a
 * merged run. Reads DRAM: call it after the inference, outside a latency
 * measurement. Does nothing without statistics or counter records (tfw_run
 * then read the counters itself). */
void tfw_run_stats(tfw_model *m);

/* Names: "PACKAGE", ...; a one-line description of e into buf. */
const char *tfw_strerror(int code);
const char *tfw_format_error(const tfw_error *e, char *buf, size_t len);

/* The firmware's NPU backend (firmware/npu/npu.h, this build's target). */
const tfw_backend *tfw_npu_backend(void);

#endif
