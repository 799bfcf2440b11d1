/* run_model: the `model` engine of tessel run: the firmware's executor with
 * a backend on the NPU C model (see run_engine.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cost_model.h"
#include "npu_model.h"
#include "run_engine.h"
#include "tessel_rt.h"
#include "tessel_targets.h"

typedef struct {
  npu_model_t *npu;
  uint8_t *cmd_sram;
  uint32_t cmd_sram_bytes;
  uint8_t *window;
  uint32_t window_bytes;
  const uint8_t *fetch_win; /* the stream fetch's window (FETCH_BASE/FETCH_SIZE) */
  uint32_t fetch_win_bytes;
  npu_fetch_t fetch;        /* the fetch in flight (pending until a run or fetch_wait) */
  int fetch_err;            /* TSL_ERR_* of the last fetch started */
  uint64_t npu_cycles; /* all runs */
  uint32_t start_off, start_n; /* the run model_start deferred to model_wait */
  char message[256];   /* the model's message for the last failed run */
  /* --timeline: the commands of the current inference, and the kernel
   * records run and NPU cycles spent in it so far. */
  int timeline;
  npu_cmd_event_t *events;
  size_t nevents, cap;
  uint32_t record;
  uint64_t at;
  int oom;
} model_ctx;

/* Appends the last run's commands, tagged with the record and shifted to
 * the inference's clock. */
static void keep_timeline(model_ctx *m) {
  size_t n = npu_model_ntimeline(m->npu, NULL);
  const npu_cmd_event_t *ev = npu_model_timeline(m->npu);
  if (m->nevents + n > m->cap) {
    size_t cap = (m->nevents + n) * 2;
    npu_cmd_event_t *e = realloc(m->events, cap * sizeof *e);
    if (!e) {
      m->oom = 1;
      return;
    }
    m->events = e, m->cap = cap;
  }
  for (size_t i = 0; i < n; i++) {
    npu_cmd_event_t e = ev[i];
    e.marks = m->record, e.start += m->at, e.end += m->at;
    m->events[m->nevents++] = e;
  }
}

enum { MODEL_E_NOMEM = -100, MODEL_E_ARG = -101, MODEL_E_LIMIT = -102 };

static int model_window(void *c, uint8_t *base, uint32_t bytes) {
  model_ctx *m = c;
  m->window = base, m->window_bytes = bytes;
  return 0;
}

static int model_load(void *c, uint32_t off, const uint8_t *cmds, uint32_t n) {
  model_ctx *m = c;
  if (off % TSL_CMD_BYTES || off > m->cmd_sram_bytes || n > (m->cmd_sram_bytes - off) / TSL_CMD_BYTES)
    return MODEL_E_ARG;
  memcpy(m->cmd_sram + off, cmds, (size_t)n * TSL_CMD_BYTES);
  return 0;
}

/* The stream fetch as the hardware's (npu_fetch_start): no run is going on
 * when the runtime starts one (model runs end before they return). */
static int model_fetch_window(void *c, const uint8_t *base, uint32_t bytes) {
  model_ctx *m = c;
  m->fetch_win = base, m->fetch_win_bytes = bytes;
  return 0;
}

static int model_fetch(void *c, uint32_t off, const uint8_t *cmds, uint32_t n) {
  model_ctx *m = c;
  if (m->fetch.pending) return MODEL_E_ARG; /* the driver's NPU_ERR_BUSY */
  uint32_t src = (uint32_t)(cmds - m->fetch_win);
  m->fetch_err = npu_fetch_start(&m->fetch, m->fetch_win, m->fetch_win_bytes, src, off, n, m->cmd_sram_bytes, 0, 0);
  return 0;
}

static int model_fetch_wait(void *c) {
  model_ctx *m = c;
  npu_fetch_finish(&m->fetch, m->cmd_sram);
  return m->fetch_err;
}

static int model_run(void *c, uint32_t off, uint32_t n, uint64_t timeout, tfw_npu_result *r) {
  model_ctx *m = c;
  npu_result_t res;
  (void)timeout; /* the model ends every run: deadlocks are detected, dispatch and cycles are bounded */
  npu_model_run_fetching(m->npu, m->cmd_sram, m->cmd_sram_bytes, off, n, m->window, m->window_bytes, &m->fetch,
                         &res);
  if (res.code == NPU_MODEL_ERR_NOMEM) return MODEL_E_NOMEM;
  if (res.code == NPU_MODEL_ERR_LIMIT) return MODEL_E_LIMIT;
  m->npu_cycles += npu_model_counters(m->npu)[TSL_CNT_CYCLES];
  if (m->timeline) keep_timeline(m);
  m->at += npu_model_counters(m->npu)[TSL_CNT_CYCLES];
  m->record++;
  if (res.code != TSL_ERR_NONE) snprintf(m->message, sizeof m->message, "%s", res.message);
  *r = (tfw_npu_result){.status = (uint32_t)res.code, .err_index = res.index};
  return 0;
}

/* A run split in two runs at its wait: the fallback ops the runtime puts
 * beside it (records after it in the package's order among them) run
 * first, so a record that does depend on the run reads what it has not
 * written yet and the engines disagree: the C model checks the package's
 * beside counts that the SoC relies on. */
static int model_start(void *c, uint32_t off, uint32_t n) {
  model_ctx *m = c;
  m->start_off = off, m->start_n = n;
  return 0;
}

static int model_wait(void *c, uint64_t timeout, tfw_npu_result *r) {
  model_ctx *m = c;
  return model_run(c, m->start_off, m->start_n, timeout, r);
}

static void model_counters(void *c, uint64_t out[TSL_NCOUNTERS]) {
  model_ctx *m = c;
  memcpy(out, npu_model_counters(m->npu), sizeof(uint64_t) * TSL_NCOUNTERS);
}

/* The timeline's clock: the NPU cycles of the runs so far. The core costs
 * nothing here, so fallback ops and runtime work take 0 cycles. */
static uint64_t model_now(void *c) {
  model_ctx *m = c;
  return m->npu_cycles;
}

static const char *model_strerror(int code) {
  switch (code) {
  case MODEL_E_NOMEM: return "the C model ran out of memory";
  case MODEL_E_ARG: return "stream outside the command SRAM";
  case MODEL_E_LIMIT: return "the C model's work limit was reached (dispatched commands or simulated cycles of one run: docs/isa.md, C model run limits)";
  default: return "?";
  }
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static uint32_t find_io(const tpkg_view *v, uint32_t dir, uint32_t i, tpkg_io *io) {
  for (uint32_t k = 0, n = 0; k < v->n_io; k++) {
    tpkg_view_io(v, k, io);
    if (io->dir == dir && n++ == i) return k;
  }
  TSL_UNREACHABLE();
  return 0;
}

int run_batch_alloc(const tpkg_view *v, run_batch *b, diag *d) {
  b->out = calloc(b->n_out ? b->n_out : 1, sizeof *b->out);
  b->kcounters = calloc(v->n_kernels ? v->n_kernels : 1, sizeof *b->kcounters);
  b->fb_cycles = calloc(v->n_fallbacks ? v->n_fallbacks : 1, sizeof *b->fb_cycles);
  if (!b->out || !b->kcounters || !b->fb_cycles) return diag_set(d, "out of memory");
  for (uint32_t i = 0; i < b->n_out; i++) {
    tpkg_io io;
    find_io(v, TPKG_DIR_OUTPUT, i, &io);
    if (!(b->out[i] = calloc((size_t)b->runs, io.size ? io.size : 1))) return diag_set(d, "out of memory");
  }
  return 0;
}

int run_engine_model(const uint8_t *pkg, uint32_t len, const tpkg_view *v, run_batch *b, diag *d) {
  double t0 = now_s();
  const tsl_target_t *t = tsl_target_find(v->target_name);
  if (!t) return diag_set(d, "the package's target '%s' is not one this tessel knows", v->target_name);
  if (run_batch_alloc(v, b, d)) return -1;
  model_ctx c = {.npu = npu_model_new(t), .cmd_sram_bytes = (uint32_t)t->cmd_sram_bytes};
  c.timeline = b->want_timeline;
  if (c.npu && c.timeline) npu_model_set_timeline(c.npu, 1);
  c.cmd_sram = calloc(1, c.cmd_sram_bytes);
  uint8_t *window = aligned_alloc(64, ((size_t)v->window.window_bytes + 63) / 64 * 64 + 64);
  tfw_backend be = {.ctx = &c, .target_hash = t->hash, .dim = (uint32_t)t->dim,
                    .cmd_sram_bytes = c.cmd_sram_bytes, .fetch_cmd_cycles = (uint32_t)cost_fetch_cycles(t, 1),
                    .set_window = model_window, .load_stream = model_load,
                    .run = model_run, .counters = model_counters, .now = model_now, .strerror = model_strerror,
                    .set_fetch_window = model_fetch_window, .fetch_stream = model_fetch,
                    .fetch_wait = model_fetch_wait, .start = model_start, .wait = model_wait};
  tfw_model m;
  tfw_error e;
  void *fb_pool = NULL;
  int rc = -1;
  if (!c.npu || !c.cmd_sram || !window) {
    diag_set(d, "out of memory");
    goto done;
  }
  memset(window, 0, v->window.window_bytes);
  if (tfw_load(&m, &be, pkg, len, window, v->window.window_bytes, 0, &e) != TFW_OK) goto fail;
  /* Every fallback record prepared once, as the SoC's runner does (a
   * prepared record with its slot takes at most 16 bytes more than the
   * record itself). */
  uint32_t pool_bytes = (v->sect_size[TPKG_SECT_FALLBACK] + 32u * v->n_fallbacks + 7u) & ~7u;
  if (!(fb_pool = aligned_alloc(8, pool_bytes + 8u))) {
    diag_set(d, "out of memory");
    goto done;
  }
  if (tfw_prepare_fallbacks(&m, fb_pool, pool_bytes, &e) != TFW_OK) goto fail;
  tfw_kernel_stats *ks = calloc(v->n_kernels ? v->n_kernels : 1, sizeof *ks);
  if (!ks) {
    diag_set(d, "out of memory");
    goto done;
  }
  tfw_set_stats(&m, ks, b->fb_cycles);
  uint32_t tl_max = run_timeline_max(v);
  if (!(b->marks = calloc(tl_max, sizeof *b->marks))) {
    free(ks);
    diag_set(d, "out of memory");
    goto done;
  }
  tfw_set_timeline(&m, b->marks, tl_max);
  uint32_t r;
  for (r = 0; r < b->runs; r++) {
    tpkg_io io;
    for (uint32_t i = 0; i < b->n_in; i++) {
      find_io(v, TPKG_DIR_INPUT, i, &io);
      memcpy(window + io.offset, b->in[i] + (size_t)r * io.size, io.size);
    }
    c.nevents = 0, c.record = 0, c.at = 0; /* the timeline keeps the last inference */
    if (tfw_run(&m, &e) != TFW_OK) break;
    for (uint32_t i = 0; i < b->n_out; i++) {
      find_io(v, TPKG_DIR_OUTPUT, i, &io);
      memcpy(b->out[i] + (size_t)r * io.size, window + io.offset, io.size);
    }
  }
  tfw_run_stats(&m);
  b->nmarks = m.tl_count, b->marks_dropped = m.tl_dropped;
  for (uint32_t k = 0; k < v->n_kernels; k++) memcpy(b->kcounters[k], ks[k].counters, sizeof b->kcounters[k]);
  free(ks);
  if (r < b->runs) goto fail;
  if (c.oom) {
    diag_set(d, "out of memory recording the command timeline");
    goto done;
  }
  b->timeline = c.events, b->ntimeline = c.nevents, c.events = NULL;
  if (b->want_window) {
    if (!(b->window = malloc(v->window.window_bytes + 1u))) {
      diag_set(d, "out of memory");
      goto done;
    }
    memcpy(b->window, window, v->window.window_bytes);
    b->window_bytes = v->window.window_bytes;
  }
  b->run_cycles = c.npu_cycles;
  rc = 0;
  goto done;
fail: {
  char msg[256];
  tfw_format_error(&e, msg, sizeof msg);
  if (e.code == TFW_E_DEVICE && e.detail) diag_set(d, "%s (%s)", msg, model_strerror(e.detail));
  else if (e.code == TFW_E_NPU) diag_set(d, "%s: %s", msg, c.message);
  else diag_set(d, "%s", msg);
}
done:
  b->host_seconds = now_s() - t0;
  npu_model_free(c.npu);
  free(c.events);
  free(c.cmd_sram);
  free(window);
  free(fb_pool);
  return rc;
}

uint32_t run_timeline_max(const tpkg_view *v) { return 4 * v->n_kernels + 2 * v->n_fallbacks + 8; }

void run_batch_free(run_batch *b) {
  for (uint32_t i = 0; b->out && i < b->n_out; i++) free(b->out[i]);
  free(b->out);
  free(b->kcounters);
  free(b->fb_cycles);
  free(b->window);
  free(b->kspan);
  free(b->timeline);
  free(b->rtl_cmds);
  free(b->run_starts);
  free(b->marks);
  b->marks = NULL, b->nmarks = 0;
  b->out = NULL, b->kcounters = NULL, b->fb_cycles = NULL, b->window = NULL, b->kspan = NULL, b->timeline = NULL;
  b->rtl_cmds = NULL, b->run_starts = NULL;
}
