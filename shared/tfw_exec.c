/* tfw_exec.c: the package executor of tessel_rt.h, shared by the firmware
 * and the host's C-model engine. Freestanding. */
#include "tessel_rt.h"

#include "tfw_fallback.h"

static int fail(tfw_error *e, int code, int detail, int32_t kernel, int64_t index, uint64_t value,
                const char *msg) {
  if (e) *e = (tfw_error){.code = code, .detail = detail, .kernel = kernel, .index = index, .value = value, .msg = msg};
  return code;
}

/* Word copies when both ends are word aligned (weights in DRAM: a byte
 * copy costs four bus round trips per word). may_alias: the bytes are
 * accessed as words. */
typedef uint32_t __attribute__((may_alias)) tfw_word;

static void copy_bytes(uint8_t *dst, const uint8_t *src, uint32_t n) {
  uint32_t i = 0;
  if (((uintptr_t)dst | (uintptr_t)src) % 4 == 0)
    for (; i + 4 <= n; i += 4) *(tfw_word *)(void *)(dst + i) = *(const tfw_word *)(const void *)(src + i);
  for (; i < n; i++) dst[i] = src[i];
}

/* The whole STREAMS section fits the command SRAM: loaded once at offset 0,
 * each kernel starts at its first command. Otherwise, when the backend has
 * the stream fetch and takes STREAMS as its fetch window, the NPU fetches
 * each kernel record's stream itself, the next one while the current one
 * runs (fetch_streams); else each is loaded at offset 0 before its run. */
static int place_streams(tfw_model *m, tfw_error *e) {
  const tfw_backend *b = m->npu;
  uint32_t max_cmds = b->cmd_sram_bytes / TSL_CMD_BYTES;
  m->estimate_total = 0;
  for (uint32_t i = 0; i < TFW_FETCH_JOIN_WORDS; i++) m->fetch_join[i] = 0;
  tpkg_kernel_view prev = {0};
  for (uint32_t k = 0; k < m->pkg.n_kernels; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(&m->pkg, k, &kv);
    m->estimate_total += kv.estimate_cycles;
    if (kv.cmd_count > max_cmds)
      return fail(e, TFW_E_CMD_SRAM, 0, (int32_t)k, -1, kv.cmd_count,
                  "kernel stream has more commands than the command SRAM holds (recompile for this target)");
    /* k joins k-1's fetch group: contiguous, and k-1 too short to hide k's fetch (fetch_ahead) */
    if (k > 0 && k < 32 * TFW_FETCH_JOIN_WORDS && kv.cmd_first == prev.cmd_first + prev.cmd_count &&
        prev.estimate_cycles < (uint64_t)b->fetch_cmd_cycles * kv.cmd_count)
      m->fetch_join[k / 32] |= 1u << (k % 32);
    prev = kv;
  }
  m->streams_resident = m->pkg.n_cmds <= max_cmds;
  m->fetch_kernel = -1, m->fetch_pending = 0;
  if (!m->streams_resident && b->set_fetch_window && b->fetch_stream && b->fetch_wait)
    m->streams_fetched =
        b->set_fetch_window(b->ctx, tpkg_view_cmd(&m->pkg, 0), m->pkg.n_cmds * TSL_CMD_BYTES) == 0;
  if (m->streams_resident && m->pkg.n_cmds > 0) {
    int rc = b->load_stream(b->ctx, 0, tpkg_view_cmd(&m->pkg, 0), m->pkg.n_cmds);
    if (rc) return fail(e, TFW_E_DEVICE, rc, -1, -1, 0, "loading the command streams failed");
  }
  return TFW_OK;
}

int tfw_load(tfw_model *m, const tfw_backend *npu, const void *pkg, uint32_t len, void *window,
             uint32_t window_bytes, unsigned flags, tfw_error *e) {
  if (!m || !npu || !pkg) return fail(e, TFW_E_ARG, 0, -1, -1, 0, "NULL model, backend or package");
  *m = (tfw_model){.npu = npu, .watchdog_base = TFW_WATCHDOG_BASE, .watchdog_per_est = TFW_WATCHDOG_PER_EST};
  tpkg_error pe = {0};
  unsigned cf = TPKG_CHECK_LAZY_WEIGHTS; /* the weights are checked where they will be used, below */
  tpkg_err_code pc = tpkg_check(pkg, len, npu->target_hash, cf, &m->pkg, &pe);
  if (pc != TPKG_OK) return fail(e, TFW_E_PACKAGE, (int)pc, -1, pe.index, pe.value, pe.msg);
  /* An I/O record's block (0: this NPU's DIM) is one smaller block when set. */
  for (uint32_t i = 0; i < m->pkg.n_io; i++) {
    tpkg_io io;
    tpkg_view_io(&m->pkg, i, &io);
    if (io.block >= npu->dim)
      return fail(e, TFW_E_PACKAGE, TPKG_E_IO, -1, i, io.block, "I/O record's block is not below this NPU's DIM");
  }
  /* The fallback ops block tensors by the package's DIM (each BLOCKED
   * operand's block, which tpkg_check only knows to be nonzero): it must be
   * this NPU's, or one smaller block (tfw_fb_block_ok). */
  uint32_t pos = 0;
  for (uint32_t f = 0; f < m->pkg.n_fallbacks; f++) {
    tpkg_fallback fb;
    tpkg_view_fallback_at(&m->pkg, &pos, &fb);
    for (uint32_t k = 0; k < fb.n_in + fb.n_out; k++) {
      tpkg_operand o;
      tpkg_fallback_operand(&fb, k, &o);
      if (!tfw_fb_block_ok(&o, npu->dim))
        return fail(e, TFW_E_PACKAGE, TPKG_E_FALLBACK, -1, f, o.block,
                    "fallback operand's block is not this NPU's DIM (nor one smaller block of its channels)");
    }
  }
  const tpkg_window *w = &m->pkg.window;
  if (!window || (uintptr_t)window % 8 != 0)
    return fail(e, TFW_E_ARG, 0, -1, -1, (uintptr_t)window, "the DRAM window must be 8-byte aligned");
  if (window_bytes < w->window_bytes)
    return fail(e, TFW_E_WINDOW, 0, -1, -1, w->window_bytes, "the memory given for the DRAM window is too small");
  uint8_t *dst = (uint8_t *)window + w->weights_offset;
  if (!(flags & TFW_LOAD_WEIGHTS_PLACED) && dst != m->pkg.weights) copy_bytes(dst, m->pkg.weights, w->weights_bytes);
  if (!(flags & TFW_LOAD_LAZY_WEIGHTS)) {
    /* The CRC of the bytes the NPU will read: a loader that placed them
     * (or a copy that went wrong) is caught too. */
    tpkg_view placed = m->pkg;
    placed.weights = dst;
    pc = tpkg_check_weights(&placed, &pe);
    if (pc != TPKG_OK) return fail(e, TFW_E_PACKAGE, (int)pc, -1, pe.index, pe.value, pe.msg);
  }
  int rc = npu->init ? npu->init(npu->ctx) : 0;
  if (rc) return fail(e, TFW_E_DEVICE, rc, -1, -1, 0, "no NPU, or an NPU of another target");
  rc = npu->set_window(npu->ctx, window, w->window_bytes);
  if (rc) return fail(e, TFW_E_DEVICE, rc, -1, -1, (uintptr_t)window, "the NPU refused the DRAM window");
  m->window = window;
  m->window_bytes = w->window_bytes;
  if ((rc = place_streams(m, e)) != TFW_OK) return rc;
  m->loaded = 1;
  return TFW_OK;
}

void tfw_set_stats(tfw_model *m, tfw_kernel_stats *kstats, uint64_t *fallback_cycles) {
  m->kstats = kstats;
  m->fallback_cycles = fallback_cycles;
}

static uint64_t now(const tfw_model *m) { return m->npu->now ? m->npu->now(m->npu->ctx) : 0; }

void tfw_set_timeline(tfw_model *m, tfw_tl_mark *marks, uint32_t max) {
  m->tl = marks && max >= 2 ? marks : NULL;
  m->tl_max = m->tl ? max : 0;
  m->tl_count = m->tl_dropped = 0;
  m->tl_open = 0;
}

void tfw_timeline_begin(tfw_model *m) {
  m->tl_count = m->tl_dropped = 0;
  m->tl_open = 1;
}

uint64_t tfw_mark(tfw_model *m, tfw_tl_phase phase, uint32_t index) {
  uint64_t t = now(m);
  if (!m->tl) return t;
  uint32_t i = m->tl_count;
  if (i == m->tl_max) i--, m->tl_dropped++; /* full: the last slot keeps the latest mark */
  else m->tl_count++;
  m->tl[i] = (tfw_tl_mark){.t = t, .phase = (uint32_t)phase, .index = index};
  return t;
}

/* A mark that nothing else times: no clock read without a timeline. */
static void note(tfw_model *m, tfw_tl_phase phase, uint32_t index) {
  if (m->tl) tfw_mark(m, phase, index);
}

static const tpkg_io *nth_io(const tfw_model *m, uint32_t dir, uint32_t i, tpkg_io *io) {
  for (uint32_t k = 0; m->loaded && k < m->pkg.n_io; k++) {
    tpkg_view_io(&m->pkg, k, io);
    if (io->dir == dir && i-- == 0) return io;
  }
  return NULL;
}

static uint32_t count_io(const tfw_model *m, uint32_t dir) {
  uint32_t n = 0;
  tpkg_io io;
  for (uint32_t k = 0; m->loaded && k < m->pkg.n_io; k++) {
    tpkg_view_io(&m->pkg, k, &io);
    n += io.dir == dir;
  }
  return n;
}

const tpkg_io *tfw_input(const tfw_model *m, uint32_t i, tpkg_io *io) { return nth_io(m, TPKG_DIR_INPUT, i, io); }
const tpkg_io *tfw_output(const tfw_model *m, uint32_t i, tpkg_io *io) { return nth_io(m, TPKG_DIR_OUTPUT, i, io); }
uint32_t tfw_num_inputs(const tfw_model *m) { return count_io(m, TPKG_DIR_INPUT); }
uint32_t tfw_num_outputs(const tfw_model *m) { return count_io(m, TPKG_DIR_OUTPUT); }

void *tfw_io_data(const tfw_model *m, const tpkg_io *io) {
  return io && m->loaded ? m->window + io->offset : NULL;
}

/* Single fields of validated records, read where they lie: the package may
 * sit in slow memory (DRAM without a cache), so the run loop reads the few
 * bytes it needs instead of decoding whole records. */
static uint32_t kernel_field(const tfw_model *m, uint32_t k, uint32_t field) {
  return tpkg_rd32(m->pkg.buf + m->pkg.sect_offset[TPKG_SECT_KERNELS] + k * TPKG_KERNEL_BYTES + field);
}

/* before_kernel of the record at byte pos of the FALLBACK section. */
static uint32_t fallback_before(const tfw_model *m, uint32_t pos) {
  return tpkg_rd32(m->pkg.buf + m->pkg.sect_offset[TPKG_SECT_FALLBACK] + pos + TPKG_FB_BEFORE);
}

/* A fallback record in the pool (tfw_prepare_fallbacks): this, then its
 * prepared form (tfw_fallback_prepare). The last slot is an end mark:
 * index FB_POOL_END and nothing after it. */
typedef struct {
  uint32_t index;         /* the fallback record */
  uint32_t before_kernel; /* its before_kernel */
  uint32_t next_pos;      /* byte position of the next record in FALLBACK */
  uint16_t bytes;         /* this slot's bytes, the prepared form's included: a multiple of 8 */
  uint16_t op;            /* the record's TPKG_OP_* (a known op: it was prepared) */
  uint16_t ahead, behind; /* its beside counts (TPKG_FB_AHEAD, TPKG_FB_BEHIND) */
  uint32_t pad;           /* 0: the prepared form after the slot stays 8-byte aligned */
} fb_slot;
_Static_assert(sizeof(fb_slot) % 8 == 0, "a pool slot keeps the prepared form after it 8-byte aligned");
#define FB_POOL_END 0xffffffffu /* no record's index (a record takes 24 bytes or more) */

int tfw_prepare_fallbacks(tfw_model *m, void *pool, uint32_t pool_bytes, tfw_error *e) {
  if (!m || !m->loaded) return fail(e, TFW_E_ARG, 0, -1, -1, 0, "tfw_prepare_fallbacks before a successful tfw_load");
  if ((uintptr_t)pool % 8 != 0)
    return fail(e, TFW_E_ARG, 0, -1, -1, (uintptr_t)pool, "the fallback pool must be 8-byte aligned");
  m->fb_pool = NULL;
  uint8_t *at = pool;
  /* the room for slots, the end mark's kept back */
  uint32_t left = pool && pool_bytes >= sizeof(fb_slot) ? (pool_bytes & ~7u) - (uint32_t)sizeof(fb_slot) : 0;
  uint32_t pos = 0;
  for (uint32_t i = 0; i < m->pkg.n_fallbacks; i++) {
    tpkg_fallback f;
    tpkg_view_fallback_at(&m->pkg, &pos, &f);
    uint32_t room = left > sizeof(fb_slot) ? left - (uint32_t)sizeof(fb_slot) : 0, need = 0;
    int rc = tfw_fallback_prepare(&f, m->window, m->window_bytes, m->npu->dim, room ? at + sizeof(fb_slot) : NULL,
                                  room, &need);
    if (rc) return fail(e, TFW_E_FALLBACK, rc, (int32_t)i, -1, f.op, tfw_fallback_strerror(rc));
    if (room && need <= room) { /* need < 2^16: at most one record of the format's largest */
      fb_slot *s = (fb_slot *)(void *)at;
      *s = (fb_slot){i, f.before_kernel, pos, (uint16_t)(sizeof(fb_slot) + need), (uint16_t)f.op, (uint16_t)f.ahead,
                     (uint16_t)f.behind, 0};
      at += s->bytes, left -= s->bytes;
    }
  }
  if (at != pool) {
    *(fb_slot *)(void *)at = (fb_slot){.index = FB_POOL_END};
    m->fb_pool = pool;
  }
  return TFW_OK;
}

/* Where tfw_run is in the fallback records: the next one, its byte
 * position in FALLBACK, and the pool's next slot (NULL: no pool). */
typedef struct {
  uint32_t next, pos;
  const uint8_t *slot;
} fb_walk;

/* The slot of the walk's next record, NULL when it is not in the pool. */
static const fb_slot *pooled(const fb_walk *w) {
  const fb_slot *s = (const fb_slot *)(const void *)w->slot;
  return s && s->index == w->next ? s : NULL;
}

/* before_kernel of the walk's next record; n_kernels after the last. */
static uint32_t next_before(const tfw_model *m, const fb_walk *w) {
  if (w->next >= m->pkg.n_fallbacks) return m->pkg.n_kernels;
  const fb_slot *s = pooled(w);
  return s ? s->before_kernel : fallback_before(m, w->pos);
}

/* The walk's next record's AHEAD (ahead != 0) or BEHIND count; 0 after the last. */
static uint32_t next_beside(const tfw_model *m, const fb_walk *w, int ahead) {
  if (w->next >= m->pkg.n_fallbacks) return 0;
  const fb_slot *s = pooled(w);
  if (s) return ahead ? s->ahead : s->behind;
  return tpkg_rd16(m->pkg.buf + m->pkg.sect_offset[TPKG_SECT_FALLBACK] + w->pos +
                   (ahead ? TPKG_FB_AHEAD : TPKG_FB_BEHIND));
}

/* Moves the walk past its next record without running it. */
static void step(const tfw_model *m, fb_walk *w) {
  const fb_slot *s = pooled(w);
  if (s) w->pos = s->next_pos, w->slot += s->bytes;
  else w->pos += tpkg_rd32(m->pkg.buf + m->pkg.sect_offset[TPKG_SECT_FALLBACK] + w->pos + TPKG_FB_BYTES);
  w->next++;
}

/* Fallback records from the walk's next up to record `until` (not
 * included), in execution order; phase FALLBACK, or BESIDE while the NPU
 * runs. A pooled one runs from its prepared form, the others are read from
 * the package and checked again. */
static int run_fallbacks(tfw_model *m, fb_walk *w, uint32_t until, tfw_tl_phase phase, tfw_error *e) {
  const tfw_backend *b = m->npu;
  for (; w->next < until; w->next++) {
    const fb_slot *s = pooled(w);
    tpkg_fallback f;
    uint64_t t0 = tfw_mark(m, phase, w->next);
    int rc;
    if (s) {
      rc = tfw_fallback_run_prepared(s + 1);
      w->pos = s->next_pos, w->slot += s->bytes;
    } else {
      tpkg_view_fallback_at(&m->pkg, &w->pos, &f);
      rc = tfw_fallback_run(&f, m->window, m->window_bytes, b->dim);
    }
    if (rc) return fail(e, TFW_E_FALLBACK, rc, (int32_t)w->next, -1, s ? s->op : f.op, tfw_fallback_strerror(rc));
    uint64_t t1 = tfw_mark(m, TFW_TL_RUNTIME, 0);
    if (m->fallback_cycles) m->fallback_cycles[w->next] = t1 - t0;
  }
  return TFW_OK;
}

/* Streams fetched by the NPU (fetch_ready, then fetch_ahead once k runs).
 * Kernel k's stream is in command SRAM if k lies in the fetched group
 * fetch_kernel..fetch_last (their streams back to back from fetch_off; the
 * fetch waited for on entering the group), else it is fetched to offset 0
 * now (kernel 0's fetch starts with tfw_run, beside the input's
 * conversion); *off says where. */
static uint64_t kernel_est(const tfw_model *m, uint32_t k) {
  return kernel_field(m, k, TPKG_K_EST_CYCLES) | (uint64_t)kernel_field(m, k, TPKG_K_EST_CYCLES + 4) << 32;
}

static int fetch_start(tfw_model *m, uint32_t k, uint32_t last, uint32_t at, uint32_t n, tfw_error *e) {
  const tfw_backend *b = m->npu;
  int rc = b->fetch_stream(b->ctx, at * TSL_CMD_BYTES, tpkg_view_cmd(&m->pkg, kernel_field(m, k, TPKG_K_CMD_FIRST)), n);
  if (rc) return fail(e, TFW_E_DEVICE, rc, (int32_t)k, -1, 0, "starting a kernel's stream fetch failed");
  m->fetch_kernel = (int32_t)k, m->fetch_last = (int32_t)last, m->fetch_off = at * TSL_CMD_BYTES;
  m->fetch_pending = 1;
  return TFW_OK;
}

static int fetch_ready(tfw_model *m, uint32_t k, uint32_t count, uint32_t *off, tfw_error *e) {
  int rc;
  if ((m->fetch_kernel < 0 || (int32_t)k < m->fetch_kernel || (int32_t)k > m->fetch_last) &&
      (rc = fetch_start(m, k, k, 0, count, e)) != TFW_OK)
    return rc;
  if (m->fetch_pending) {
    m->fetch_pending = 0;
    if ((rc = m->npu->fetch_wait(m->npu->ctx)) != 0) {
      m->fetch_kernel = -1;
      return fail(e, TFW_E_DEVICE, rc, (int32_t)k, -1, 0, "fetching a kernel's stream failed");
    }
  }
  *off = m->fetch_off;
  if ((int32_t)k != m->fetch_kernel) /* later in its group */
    *off += (kernel_field(m, k, TPKG_K_CMD_FIRST) - kernel_field(m, (uint32_t)m->fetch_kernel, TPKG_K_CMD_FIRST)) *
            TSL_CMD_BYTES;
  return TFW_OK;
}

/* While kernel k runs from *off (count commands), unless its group holds
 * more kernels: the next group's fetch, into command SRAM clear of k's
 * stream (at offset 0 when it fits below, else right after k's commands;
 * when k+1 fits neither, it is fetched after k's run). The group is k+1
 * and each next kernel that joins it (fetch_join, set at load: its stream
 * follows the one before, whose estimate is shorter than its fetch at the
 * backend's fetch_cmd_cycles per command) while it fits the same room and
 * the group's fetch still fits in k's estimate: a short kernel (a residual
 * add) then does not leave the next one's fetch unhidden. The core copies
 * nothing. */
static int joins_fetch(const tfw_model *m, uint32_t k) {
  return k < 32 * TFW_FETCH_JOIN_WORDS && (m->fetch_join[k / 32] >> (k % 32) & 1u);
}

static int fetch_ahead(tfw_model *m, uint32_t k, uint32_t count, uint32_t off, tfw_error *e) {
  if ((int32_t)k < m->fetch_last || k + 1 >= m->pkg.n_kernels) return TFW_OK;
  const uint32_t max = m->npu->cmd_sram_bytes / TSL_CMD_BYTES;
  uint32_t at = off / TSL_CMD_BYTES, room, j = k + 1, n = kernel_field(m, j, TPKG_K_CMD_COUNT);
  if (n <= at) room = at, at = 0;
  else if (at + count + n <= max) room = max - at - count, at += count;
  else return TFW_OK;
  const uint64_t per = m->npu->fetch_cmd_cycles;
  for (uint64_t hide = 0; j + 1 < m->pkg.n_kernels && joins_fetch(m, j + 1); j++) {
    uint32_t n1 = kernel_field(m, j + 1, TPKG_K_CMD_COUNT);
    if (!hide) hide = kernel_est(m, k); /* read from the package only when a kernel may join */
    if (n + n1 > room || per * (n + n1) > hide) break;
    n += n1;
  }
  return fetch_start(m, k + 1, j, at, n, e);
}

/* Kernel records merge into one NPU run, back to back with no core work
 * between them, when their streams are resident (they lie back to back in
 * command SRAM, as in the package) and framed (tpkg_view.counter_records:
 * each starts with a MARK reset, as a run of its own, and writes its
 * counter record, so no counter is read between them). Record k then
 * starts a new run only where a fallback op runs before it. */
static int merges(const tfw_model *m) { return m->streams_resident && m->pkg.counter_records; }

/* The last kernel record of the run that starts at k: before the walk's
 * next fallback op (or the end), or k alone. */
static uint32_t run_last(const tfw_model *m, uint32_t k, const fb_walk *w) {
  if (!merges(m)) return k;
  uint32_t stop = next_before(m, w);
  return stop > k + 1 ? stop - 1 : k;
}

/* Whether the backend starts a run and waits for it apart (fallback ops
 * beside the NPU). */
static int splits(const tfw_model *m) { return m->npu->start && m->npu->wait; }

/* Whether the walk's next record, after the run k..last, is touched by
 * none of its kernels (its BEHIND count covers them): it may run beside. */
static int joins(const tfw_model *m, const fb_walk *w, uint32_t k, uint32_t last) {
  return w->next < m->pkg.n_fallbacks && next_before(m, w) == last + 1 && next_beside(m, w, 0) >= last + 1 - k;
}

/* Kernel records k..last as one NPU run. On a backend that splits, the
 * core runs beside it the walk's records up to `until` (records before k
 * that no kernel of the run touches), then the records after it that join
 * it. An error names the record and the command inside it; a fallback
 * op's error wins (the run is waited for first). */
static int run_kernels(tfw_model *m, uint32_t k, uint32_t last, fb_walk *w, uint32_t until, tfw_error *e) {
  const tfw_backend *b = m->npu;
  uint32_t first = kernel_field(m, k, TPKG_K_CMD_FIRST), count;
  uint64_t estimate = m->estimate_total; /* a merged run's watchdog: the package's whole estimate */
  if (k == last) {
    count = kernel_field(m, k, TPKG_K_CMD_COUNT);
    estimate = kernel_est(m, k);
  } else { /* the records lie back to back */
    count = kernel_field(m, last, TPKG_K_CMD_FIRST) + kernel_field(m, last, TPKG_K_CMD_COUNT) - first;
  }
  uint32_t off = 0;
  int rc;
  if (m->streams_resident) {
    off = first * TSL_CMD_BYTES;
  } else if (m->streams_fetched) {
    note(m, TFW_TL_STREAM_WAIT, k);
    if ((rc = fetch_ready(m, k, count, &off, e)) != TFW_OK) return rc;
  } else {
    note(m, TFW_TL_STREAM_COPY, k);
    if ((rc = b->load_stream(b->ctx, 0, tpkg_view_cmd(&m->pkg, first), count)) != 0)
      return fail(e, TFW_E_DEVICE, rc, (int32_t)k, -1, 0, "loading a kernel's stream failed");
  }
  /* Segments after the first carry no estimate: the base alone guards them. */
  uint64_t timeout = m->watchdog_base + m->watchdog_per_est * estimate;
  tfw_npu_result r = {0};
  /* On a backend that splits the run, the next fetch is started and the
   * fallback ops beside it run once the NPU runs; else the fetch first. */
  int fb_rc = TFW_OK, beside = splits(m) && (w->next < until || joins(m, w, k, last));
  int ahead = m->streams_fetched, split = splits(m) && (beside || ahead);
  if (ahead && !split && (rc = fetch_ahead(m, k, count, off, e)) != TFW_OK) return rc;
  uint64_t t0 = tfw_mark(m, TFW_TL_KERNEL, k);
  if (split && (rc = b->start(b->ctx, off, count)) == 0) {
    if (ahead) fb_rc = fetch_ahead(m, k, count, off, e);
    if (beside && fb_rc == TFW_OK) {
      fb_rc = run_fallbacks(m, w, until, TFW_TL_BESIDE, e);
      while (fb_rc == TFW_OK && joins(m, w, k, last)) fb_rc = run_fallbacks(m, w, w->next + 1, TFW_TL_BESIDE, e);
      note(m, TFW_TL_KERNEL, k); /* waiting for the run */
    }
    rc = b->wait(b->ctx, timeout, &r);
  } else if (!split) {
    rc = b->run(b->ctx, off, count, timeout, &r);
  }
  int read = m->kstats && !m->pkg.counter_records; /* no record: the counters now */
  uint64_t t1 = tfw_mark(m, read ? TFW_TL_COUNTERS : TFW_TL_RUNTIME, read ? k : 0);
  if (rc) return fail(e, TFW_E_DEVICE, rc, (int32_t)k, -1, 0, "starting the NPU failed");
  m->kernels_run = last + 1;
  if (m->kstats) {
    for (uint32_t j = k; j <= last; j++) m->kstats[j].start = t0, m->kstats[j].end = t1; /* tfw_run_stats splits */
    if (read) b->counters(b->ctx, m->kstats[k].counters), note(m, TFW_TL_RUNTIME, 0);
  }
  if (fb_rc != TFW_OK) return fb_rc;
  if (!r.timed_out && r.status == TSL_ERR_NONE) return TFW_OK;
  /* the record the failing command belongs to; the records before it are done */
  uint32_t j = k, at = r.err_index;
  for (uint32_t n; j < last && at >= (n = kernel_field(m, j, TPKG_K_CMD_COUNT)); j++) at -= n;
  m->kernels_run = j;
  if (r.timed_out) return fail(e, TFW_E_TIMEOUT, (int)r.status, (int32_t)j, at, timeout,
                               "the NPU did not finish in time: the watchdog aborted the run");
  return fail(e, TFW_E_NPU, (int)r.status, (int32_t)j, at, r.status, "the NPU stopped with an error");
}

/* The timeline: a new one unless the caller opened it (tfw_timeline_begin),
 * the executor's work from here; every way out marks TFW_TL_RETURN. */
int tfw_run(tfw_model *m, tfw_error *e) {
  if (!m || !m->loaded) return fail(e, TFW_E_ARG, 0, -1, -1, 0, "tfw_run before a successful tfw_load");
  if (!m->tl_open) m->tl_count = m->tl_dropped = 0;
  m->tl_open = 0;
  m->kernels_run = 0;
  note(m, TFW_TL_RUNTIME, 0);
  fb_walk fw = {0, 0, m->fb_pool};
  /* Kernel 0's stream is fetched beside the records before it (the input's conversion). */
  int rc = m->streams_fetched && m->pkg.n_kernels
               ? fetch_start(m, 0, 0, 0, kernel_field(m, 0, TPKG_K_CMD_COUNT), e)
               : TFW_OK;
  for (uint32_t k = 0; rc == TFW_OK && k < m->pkg.n_kernels; k++) {
    /* 1. the records before k, up to `end`; the run k..last stops at the next */
    fb_walk end = fw;
    while (end.next < m->pkg.n_fallbacks && next_before(m, &end) == k) step(m, &end);
    uint32_t last = run_last(m, k, &end), tail = fw.next;
    /* 2. from `tail` on, none of them touched by a kernel of the run: beside it */
    for (fb_walk w = fw; w.next < end.next; step(m, &w))
      if (!splits(m) || next_beside(m, &w, 1) < last + 1 - k) tail = w.next + 1;
    if ((rc = run_fallbacks(m, &fw, tail, TFW_TL_FALLBACK, e)) != TFW_OK) break;
    if ((rc = run_kernels(m, k, last, &fw, end.next, e)) != TFW_OK) break;
    k = last;
  }
  /* A failed run may leave the next kernel's fetch in flight: it ends
   * here, so the next tfw_run (or tfw_load) finds the NPU's fetch idle. */
  if (m->fetch_pending) {
    m->npu->fetch_wait(m->npu->ctx);
    m->fetch_pending = 0;
  }
  m->fetch_kernel = -1;
  if (rc == TFW_OK) rc = run_fallbacks(m, &fw, m->pkg.n_fallbacks, TFW_TL_FALLBACK, e);
  note(m, TFW_TL_RETURN, 0);
  return rc;
}

/* ---- statistics from the counter records ------------------------------------ */

/* Counter i of kernel record k's MARK record (cumulative from its run's start). */
static uint64_t record_counter(const tfw_model *m, uint32_t k, uint32_t i) {
  return tpkg_rd64(m->window + m->pkg.window.marks_offset + k * TSL_MARK_RECORD_BYTES + 16 + 8 * i);
}

/* A kernel mark for record k at t, in time order from position *at on,
 * inside a stretch where the core waits for the run (not in fallback ops
 * beside it); *at moves to it. None when the timeline is full, or t falls
 * in work beside the run (the record then has no item of its own). */
static void insert_mark(tfw_model *m, uint32_t *at, uint64_t t, uint32_t k) {
  if (!m->tl || m->tl_count == m->tl_max || *at >= m->tl_count) return;
  uint32_t p = *at;
  while (p + 1 < m->tl_count && m->tl[p + 1].t < t) p++;
  if (m->tl[p].phase != TFW_TL_KERNEL) return;
  for (uint32_t i = m->tl_count; i > p + 1; i--) m->tl[i] = m->tl[i - 1];
  m->tl[p + 1] = (tfw_tl_mark){.t = t, .phase = TFW_TL_KERNEL, .index = k};
  m->tl_count++;
  *at = p + 1;
}

void tfw_run_stats(tfw_model *m) {
  if (!m || !m->loaded || !m->kstats || !m->pkg.counter_records) return;
  uint32_t fb = 0, fb_pos = 0, tl = 0;
  uint64_t prev[TSL_NCOUNTERS] = {0}, t0 = 0;
  for (uint32_t k = 0; k < m->kernels_run; k++) {
    tfw_kernel_stats *s = &m->kstats[k];
    /* 1. a new run at k: the first record, or a fallback op ran before it */
    int starts = k == 0 || !merges(m);
    for (; fb < m->pkg.n_fallbacks && fallback_before(m, fb_pos) <= k; fb++) {
      tpkg_fallback f;
      starts |= fallback_before(m, fb_pos) == k;
      tpkg_view_fallback_at(&m->pkg, &fb_pos, &f);
    }
    if (starts) {
      for (uint32_t i = 0; i < TSL_NCOUNTERS; i++) prev[i] = 0;
      t0 = s->start; /* run_kernels gave every record of the run its start and end */
      while (tl < m->tl_count && !(m->tl[tl].phase == TFW_TL_KERNEL && m->tl[tl].index == k)) tl++;
    }
    /* 2. its counters: its record less the one before it in the run */
    s->start = t0 + prev[TSL_CNT_CYCLES];
    for (uint32_t i = 0; i < TSL_NCOUNTERS; i++) {
      uint64_t c = record_counter(m, k, i);
      s->counters[i] = c - prev[i];
      prev[i] = c;
    }
    /* 3. it ends at its record where the run goes on (the next record's
     * mark goes in the timeline there), else where the core woke up */
    int goes_on = k + 1 < m->kernels_run && merges(m) && !(fb < m->pkg.n_fallbacks && fallback_before(m, fb_pos) == k + 1);
    if (goes_on) {
      s->end = t0 + prev[TSL_CNT_CYCLES];
      insert_mark(m, &tl, s->end, k + 1);
    }
  }
}

const char *tfw_strerror(int code) {
  static const char *const names[TFW_E_COUNT] = {"OK",     "ARG", "PACKAGE", "WINDOW",  "CMD_SRAM",
                                                 "DEVICE", "NPU", "TIMEOUT", "FALLBACK"};
  return code <= 0 && code > -TFW_E_COUNT ? names[-code] : "?";
}

/* ---- error text without stdio ------------------------------------------- */
typedef struct {
  char *p;
  size_t left;
} sbuf;

static void put_str(sbuf *s, const char *t) {
  while (t && *t && s->left > 1) *s->p++ = *t++, s->left--;
}

static void put_u64(sbuf *s, uint64_t v) {
  char d[21];
  int n = 0;
  do d[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
  while (n > 0 && s->left > 1) *s->p++ = d[--n], s->left--;
}

static void put_i64(sbuf *s, int64_t v) {
  if (v < 0) put_str(s, "-");
  put_u64(s, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

static const char *detail_name(const tfw_error *e) {
  switch (e->code) {
  case TFW_E_PACKAGE: return tpkg_err_name((tpkg_err_code)e->detail);
  case TFW_E_NPU: case TFW_E_TIMEOUT: return tsl_err_name(e->detail);
  case TFW_E_FALLBACK: return tfw_fallback_strerror(e->detail);
  default: return NULL;
  }
}

const char *tfw_format_error(const tfw_error *e, char *buf, size_t len) {
  sbuf s = {buf, len};
  if (!buf || len == 0) return "";
  put_str(&s, tfw_strerror(e->code));
  const char *dn = detail_name(e);
  if (dn) put_str(&s, "/"), put_str(&s, dn);
  else if (e->detail) put_str(&s, " (code "), put_i64(&s, e->detail), put_str(&s, ")");
  put_str(&s, ": ");
  put_str(&s, e->msg);
  if (e->kernel >= 0) put_str(&s, e->code == TFW_E_FALLBACK ? "; fallback " : "; kernel "), put_i64(&s, e->kernel);
  if (e->index >= 0) put_str(&s, e->code == TFW_E_PACKAGE ? "; item " : "; command "), put_i64(&s, e->index);
  if (e->code == TFW_E_PACKAGE || e->code == TFW_E_CMD_SRAM || e->code == TFW_E_WINDOW)
    put_str(&s, "; value "), put_u64(&s, e->value);
  *s.p = 0;
  return buf;
}
