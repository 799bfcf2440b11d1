/* run_rtl: the `rtl` engine of tessel run: the runner firmware on the
 * target's cycle-accurate simulator (see run_engine.h). The request goes in
 * as a DRAM image (tfw_mailbox.h) loaded with --load, the results come back
 * with --dump; nothing else passes between the processes.
 *
 * DRAM layout (offsets from TFW_MAILBOX_ADDR, each area 64-byte aligned):
 *   mailbox | stats | outputs (runs x out_stride) | inputs | package | window
 * The first three are dumped at the end; the image loaded is everything up
 * to the end of the package; the weights go straight to their place in the
 * window with a second --load (TFW_LOAD_WEIGHTS_PLACED), so the firmware
 * does not copy them. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_engine.h"
#include "scratch.h"
#include "tessel_targets.h"
#include "tessel_rt.h"
#include "tfw_mailbox.h"

/* A tfw_kernel_stats in the mailbox: the counters, start and end (u64
 * each); a tfw_tl_mark: u64 t, u32 phase, u32 index. */
#define RTL_KSTATS_BYTES (8u * (TSL_NCOUNTERS + 2))
_Static_assert(sizeof(tfw_kernel_stats) == RTL_KSTATS_BYTES, "tfw_kernel_stats is the mailbox's layout");
_Static_assert(sizeof(tfw_tl_mark) == 16, "tfw_tl_mark is the mailbox's layout");

/* Default DRAM of the simulator, and the largest it models. */
#define RTL_DRAM_MIN (64ull << 20)
#define RTL_DRAM_MAX (2ull << 30)
/* Exit codes tessel-sim reserves (docs/simulator.md). */
enum { SIM_EXIT_USAGE = 120, SIM_EXIT_CYCLES = 121, SIM_EXIT_INTERNAL = 122, SIM_EXIT_BAD_EXIT = 123 };

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Where the request's areas go. */
typedef struct {
  uint64_t stats, stats_bytes, out, out_stride, in, in_stride, pkg, window, end;
} rtl_layout;

static uint64_t io_stride(const tpkg_view *v, uint32_t dir) {
  uint64_t s = 0;
  tpkg_io io;
  for (uint32_t k = 0; k < v->n_io; k++) {
    tpkg_view_io(v, k, &io);
    if (io.dir == dir) s += align_up(io.size, 8);
  }
  return s;
}

static rtl_layout plan(const tpkg_view *v, uint32_t len, uint32_t runs) {
  rtl_layout l;
  l.stats = TFW_MAILBOX_BYTES;
  l.stats_bytes = (uint64_t)v->n_kernels * RTL_KSTATS_BYTES + (uint64_t)v->n_fallbacks * 8;
  l.stats_bytes += (uint64_t)run_timeline_max(v) * sizeof(tfw_tl_mark); /* the runner keeps at most 512 */
  l.out = align_up(l.stats + l.stats_bytes, 64);
  l.out_stride = io_stride(v, TPKG_DIR_OUTPUT);
  l.in = align_up(l.out + l.out_stride * runs, 64);
  l.in_stride = io_stride(v, TPKG_DIR_INPUT);
  l.pkg = align_up(l.in + l.in_stride * runs, 64);
  l.window = align_up(l.pkg + len, 64);
  l.end = l.window + v->window.window_bytes;
  return l;
}

/* Directory of the running tessel (…/build/bin), for the default paths. */
static void self_dir(char *buf, size_t n) {
  ssize_t k = readlink("/proc/self/exe", buf, n - 1);
  buf[k > 0 ? k : 0] = 0;
  char *slash = strrchr(buf, '/');
  if (slash) *slash = 0;
  else snprintf(buf, n, ".");
}

static int write_file(const char *path, const void *data, size_t n, diag *d) {
  FILE *f = fopen(path, "wb");
  if (!f) return diag_set(d, "%s: %s", path, strerror(errno));
  int bad = fwrite(data, 1, n, f) != n;
  bad |= fclose(f) != 0;
  return bad ? diag_set(d, "%s: write failed", path) : 0;
}

static uint8_t *read_file(const char *path, size_t want, diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return diag_set(d, "%s: %s (the simulator wrote no results)", path, strerror(errno)), NULL;
  uint8_t *b = calloc(1, want ? want : 1);
  size_t got = b ? fread(b, 1, want, f) : 0;
  fclose(f);
  if (got != want) {
    free(b);
    diag_set(d, "%s: %zu of %zu bytes", path, got, want);
    return NULL;
  }
  return b;
}

/* Runs argv with stdin from /dev/null, stdout to out_path (NULL: our
 * stderr, where the firmware's UART belongs) and stderr to err_path (NULL:
 * ours), in a process group of its own that a signal to tessel stops too
 * (scratch.h). Returns the exit status, or -1 with d filled. */
static int spawn(char *const *argv, const char *out_path, const char *err_path, diag *d) {
  int out = -1, err = -1;
  if (out_path && (out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
    return diag_set(d, "%s: %s", out_path, strerror(errno));
  if (err_path && (err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
    if (out >= 0) close(out);
    return diag_set(d, "%s: %s", err_path, strerror(errno));
  }
  pid_t pid = scratch_spawn(argv, out, err, d);
  if (out >= 0) close(out);
  if (err >= 0) close(err);
  if (pid < 0) return -1;
  int st;
  if (scratch_wait(pid, &st, 0) < 0) return diag_set(d, "waiting for %s: %s", argv[0], strerror(errno));
  if (WIFSIGNALED(st)) return diag_set(d, "%s died of signal %d", argv[0], WTERMSIG(st));
  return WEXITSTATUS(st);
}

/* The simulator's stderr: echoes everything but the --stats lines, takes
 * the cycle count from them. */
static uint64_t relay_sim_stderr(const char *path) {
  FILE *f = fopen(path, "r");
  char line[512];
  uint64_t cycles = 0;
  unsigned long long c;
  while (f && fgets(line, sizeof line, f)) {
    if (sscanf(line, "tessel-sim: cycles %llu", &c) == 1) cycles = c;
    else if (strncmp(line, "tessel-sim: retired", 19) && strncmp(line, "tessel-sim: CPI", 15) &&
             strncmp(line, "tessel-sim: simulated", 21) && strncmp(line, "tessel-sim: DRAM", 16))
      fputs(line, stderr);
  }
  if (f) fclose(f);
  return cycles;
}

/* `tessel-sim --version` must name the package's target. */
static int check_sim_target(const char *sim, const char *tmp, const tpkg_view *v, diag *d) {
  char out[4096 + 32], *argv[] = {(char *)sim, "--version", NULL};
  snprintf(out, sizeof out, "%s/version.txt", tmp);
  if (spawn(argv, out, NULL, d) < 0) return -1;
  FILE *f = fopen(out, "r");
  char name[64] = "";
  unsigned hash = 0;
  int ok = f && fscanf(f, "tessel-sim target %63s hash %x", name, &hash) == 2;
  if (f) fclose(f);
  if (!ok) return diag_set(d, "%s --version did not name a target: rebuild it (make)", sim);
  if (hash != v->target_hash)
    return diag_set(d, "the simulator %s is built for %s (hash 0x%08X), the package for %s (hash 0x%08X): "
                       "rebuild the simulator or the package", sim, name, hash, v->target_name, v->target_hash);
  return 0;
}

static uint32_t rd32(const uint8_t *p) { return tpkg_rd32(p); }

/* Turns the mailbox's result fields into 0 or a message. */
static int check_result(const uint8_t *mb, const char *fw, const tpkg_view *v, uint32_t runs, diag *d) {
  if (rd32(mb + TFW_MB_FW_VERSION) != TFW_RUNTIME_VERSION)
    return diag_set(d, "the firmware %s has runtime version %u, this tessel %u: rebuild both (make)", fw,
                    rd32(mb + TFW_MB_FW_VERSION), TFW_RUNTIME_VERSION);
  if (rd32(mb + TFW_MB_FW_TARGET) != v->target_hash)
    return diag_set(d, "the firmware %s is built for target hash 0x%08X, the package for %s (0x%08X): "
                       "use build/firmware/%s/tessel-fw.elf", fw, rd32(mb + TFW_MB_FW_TARGET), v->target_name,
                    v->target_hash, v->target_name);
  if (rd32(mb + TFW_MB_DONE) != TFW_MAILBOX_MAGIC) return diag_set(d, "the firmware did not finish the run");
  int32_t status = (int32_t)rd32(mb + TFW_MB_STATUS);
  if (status != TFW_OK) {
    char msg[TFW_MAILBOX_MSG_BYTES + 1];
    memcpy(msg, mb + TFW_MB_MSG, TFW_MAILBOX_MSG_BYTES);
    msg[TFW_MAILBOX_MSG_BYTES] = 0;
    return diag_set(d, "the firmware refused or failed the run (inference %u): %s", rd32(mb + TFW_MB_RUNS_DONE),
                    msg);
  }
  if (rd32(mb + TFW_MB_RUNS_DONE) != runs) return diag_set(d, "the firmware ran %u of %u inferences",
                                                         rd32(mb + TFW_MB_RUNS_DONE), runs);
  return 0;
}

/* Splits the dumped outputs into b->out and the stats into the counters. */
static int take_results(const uint8_t *dump, const rtl_layout *l, const tpkg_view *v, run_batch *b, diag *d) {
  if (run_batch_alloc(v, b, d)) return -1;
  b->kspan = calloc(v->n_kernels ? v->n_kernels : 1, sizeof *b->kspan);
  if (!b->kspan) return diag_set(d, "out of memory");
  const uint8_t *st = dump + l->stats;
  for (uint32_t k = 0; k < v->n_kernels; k++) {
    const uint8_t *ks = st + (uint64_t)k * RTL_KSTATS_BYTES;
    for (uint32_t c = 0; c < TSL_NCOUNTERS; c++) b->kcounters[k][c] = tpkg_rd64(ks + 8 * c);
    b->kspan[k][0] = tpkg_rd64(ks + 8 * TSL_NCOUNTERS), b->kspan[k][1] = tpkg_rd64(ks + 8 * TSL_NCOUNTERS + 8);
  }
  for (uint32_t f = 0; f < v->n_fallbacks; f++)
    b->fb_cycles[f] = tpkg_rd64(st + (uint64_t)v->n_kernels * RTL_KSTATS_BYTES + 8 * f);
  /* The timeline: at most the room the request gave it. */
  const uint8_t *tl = st + (uint64_t)v->n_kernels * RTL_KSTATS_BYTES + 8ull * v->n_fallbacks;
  uint32_t n = tpkg_rd32(dump + TFW_MB_TL_COUNT), max = run_timeline_max(v);
  if (n > max) return diag_set(d, "the firmware reports %u timeline marks, more than the %u it had room for", n, max);
  if (!(b->marks = calloc(n ? n : 1, sizeof *b->marks))) return diag_set(d, "out of memory");
  for (uint32_t i = 0; i < n; i++, tl += sizeof(tfw_tl_mark))
    b->marks[i] = (tfw_tl_mark){.t = tpkg_rd64(tl), .phase = tpkg_rd32(tl + 8), .index = tpkg_rd32(tl + 12)};
  b->nmarks = n, b->marks_dropped = tpkg_rd32(dump + TFW_MB_TL_DROPPED);
  uint64_t pos = 0;
  tpkg_io io;
  for (uint32_t k = 0, i = 0; k < v->n_io; k++) {
    tpkg_view_io(v, k, &io);
    if (io.dir != TPKG_DIR_OUTPUT) continue;
    for (uint32_t r = 0; r < b->runs; r++)
      memcpy(b->out[i] + (size_t)r * io.size, dump + l->out + r * l->out_stride + pos, io.size);
    pos += align_up(io.size, 8);
    i++;
  }
  return 0;
}

/* The request image: mailbox fields, inputs, package. */
static uint8_t *build_image(const uint8_t *pkg, uint32_t len, const tpkg_view *v, const rtl_layout *l,
                            const run_batch *b, unsigned flags, uint32_t watchdog) {
  uint8_t *img = calloc(1, l->window);
  if (!img) return NULL;
  const uint32_t base = TFW_MAILBOX_ADDR;
  tpkg_wr32(img + TFW_MB_MAGIC, TFW_MAILBOX_MAGIC);
  tpkg_wr32(img + TFW_MB_VERSION, TFW_MAILBOX_VERSION);
  tpkg_wr32(img + TFW_MB_FLAGS, flags);
  tpkg_wr32(img + TFW_MB_PKG, base + (uint32_t)l->pkg);
  tpkg_wr32(img + TFW_MB_PKG_BYTES, len);
  tpkg_wr32(img + TFW_MB_WINDOW, base + (uint32_t)l->window);
  tpkg_wr32(img + TFW_MB_WINDOW_BYTES, v->window.window_bytes);
  tpkg_wr32(img + TFW_MB_RUNS, b->runs);
  tpkg_wr32(img + TFW_MB_IN, base + (uint32_t)l->in);
  tpkg_wr32(img + TFW_MB_IN_STRIDE, (uint32_t)l->in_stride);
  tpkg_wr32(img + TFW_MB_OUT, base + (uint32_t)l->out);
  tpkg_wr32(img + TFW_MB_OUT_STRIDE, (uint32_t)l->out_stride);
  tpkg_wr32(img + TFW_MB_STATS, base + (uint32_t)l->stats);
  tpkg_wr32(img + TFW_MB_STATS_BYTES, (uint32_t)l->stats_bytes);
  tpkg_wr32(img + TFW_MB_WATCHDOG, watchdog);
  uint64_t pos = 0;
  tpkg_io io;
  for (uint32_t k = 0, i = 0; k < v->n_io; k++) {
    tpkg_view_io(v, k, &io);
    if (io.dir != TPKG_DIR_INPUT) continue;
    for (uint32_t r = 0; r < b->runs; r++)
      memcpy(img + l->in + r * l->in_stride + pos, b->in[i] + (size_t)r * io.size, io.size);
    pos += align_up(io.size, 8);
    i++;
  }
  memcpy(img + l->pkg, pkg, len);
  return img;
}

/* tessel-sim --npu-timeline's file: run starts and command spans. */
static int read_timeline(const char *path, run_batch *b, diag *d) {
  FILE *f = fopen(path, "r");
  if (!f) return diag_set(d, "%s: %s (the simulator wrote no timeline)", path, strerror(errno));
  size_t cap_c = 0, cap_r = 0;
  char line[128];
  int bad = 0;
  while (!bad && fgets(line, sizeof line, f)) {
    unsigned long long a, s, e;
    if (sscanf(line, "C %llu %llu %llu", &a, &s, &e) == 3 && a < 3 && s <= e) {
      if (b->n_rtl_cmds == cap_c) {
        cap_c = cap_c ? 2 * cap_c : 1024;
        uint64_t(*c)[3] = realloc(b->rtl_cmds, cap_c * sizeof *c);
        if (!c) bad = 1;
        else b->rtl_cmds = c;
      }
      if (!bad) b->rtl_cmds[b->n_rtl_cmds][0] = a, b->rtl_cmds[b->n_rtl_cmds][1] = s, b->rtl_cmds[b->n_rtl_cmds++][2] = e;
    } else if (sscanf(line, "R %llu", &s) == 1) {
      if (b->n_run_starts == cap_r) {
        cap_r = cap_r ? 2 * cap_r : 256;
        uint64_t *r = realloc(b->run_starts, cap_r * sizeof *r);
        if (!r) bad = 1;
        else b->run_starts = r;
      }
      if (!bad) b->run_starts[b->n_run_starts++] = s;
    } else {
      bad = 2;
    }
  }
  fclose(f);
  return bad == 1 ? diag_set(d, "out of memory") : bad ? diag_set(d, "%s: not a timeline line: %s", path, line) : 0;
}

/* Cycle bound: boot and validation, the I/O copies, and per run the
 * kernels' estimates with a wide margin (a hung NPU is caught by the
 * firmware's watchdog first). */
static uint64_t default_max_cycles(const tpkg_view *v, const rtl_layout *l, uint32_t runs) {
  uint64_t est = 0;
  for (uint32_t k = 0; k < v->n_kernels; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    est += kv.estimate_cycles;
  }
  uint64_t per_run = 64 * est + 50 * (l->in_stride + l->out_stride) + 4000000;
  return 200000000ull + 40 * (uint64_t)v->total_bytes + per_run * runs + TFW_WATCHDOG_BASE * 2;
}

int run_engine_rtl(const uint8_t *pkg, uint32_t len, const tpkg_view *v, const run_opts *o,
                   run_batch *b, diag *d) {
  double t0 = now_s();
  char dir[4096], sim[4200], fw[4200];
  self_dir(dir, sizeof dir);
  snprintf(sim, sizeof sim, "%s", o->sim ? o->sim : "");
  snprintf(fw, sizeof fw, "%s", o->firmware ? o->firmware : "");
  if (!o->sim) snprintf(sim, sizeof sim, "%s/../%s/tessel-sim", dir, v->target_name);
  if (!o->firmware) snprintf(fw, sizeof fw, "%s/../firmware/%s/tessel-fw.elf", dir, v->target_name);
  /* a folder passes access(X_OK) and failed later as "cannot start" */
  struct stat sim_st;
  if (stat(sim, &sim_st) != 0 || !S_ISREG(sim_st.st_mode) || access(sim, X_OK) != 0)
    return diag_set(d, "no simulator for target %s at %s (build it: make build/%s/tessel-sim, or give --sim)",
                    v->target_name, sim, v->target_name);
  if (access(fw, R_OK) != 0)
    return diag_set(d, "no runner firmware for target %s at %s (build it: make build/firmware/%s/tessel-fw.elf, "
                       "or give --firmware)", v->target_name, fw, v->target_name);
  rtl_layout l = plan(v, len, b->runs);
  if (l.end > RTL_DRAM_MAX)
    return diag_set(d, "%u inferences of this model need %llu bytes of simulated DRAM, more than its %llu: "
                       "run fewer at a time", b->runs, (unsigned long long)l.end, (unsigned long long)RTL_DRAM_MAX);
  uint64_t dram = l.end < RTL_DRAM_MIN ? RTL_DRAM_MIN : align_up(l.end, 1u << 20);
  /* The request, the weights and the results pass through a folder under
   * $TMPDIR that is removed on every exit, a signal's too (scratch.h). */
  char tmp[SCRATCH_PATH_MAX - 64]; /* room for the file names */
  if (scratch_dir(tmp, sizeof tmp, "tessel-run", d)) return -1;
  char img_path[SCRATCH_PATH_MAX], w_path[SCRATCH_PATH_MAX], res_path[SCRATCH_PATH_MAX], err_path[SCRATCH_PATH_MAX],
      ver_path[SCRATCH_PATH_MAX], win_path[SCRATCH_PATH_MAX], tl_path[SCRATCH_PATH_MAX];
  snprintf(img_path, sizeof img_path, "%s/request.bin", tmp);
  snprintf(w_path, sizeof w_path, "%s/weights.bin", tmp);
  snprintf(res_path, sizeof res_path, "%s/result.bin", tmp);
  snprintf(err_path, sizeof err_path, "%s/stderr.txt", tmp);
  snprintf(ver_path, sizeof ver_path, "%s/version.txt", tmp);
  snprintf(win_path, sizeof win_path, "%s/window.bin", tmp);
  snprintf(tl_path, sizeof tl_path, "%s/npu-timeline.txt", tmp);
  int rc = -1;
  uint8_t *img = NULL, *dump = NULL;
  if (check_sim_target(sim, tmp, v, d)) goto done;
  unsigned flags = TFW_LOAD_WEIGHTS_PLACED | (o->check_weights ? 0 : TFW_LOAD_LAZY_WEIGHTS);
  if (!(img = build_image(pkg, len, v, &l, b, flags, o->watchdog))) {
    diag_set(d, "out of memory");
    goto done;
  }
  /* The weights as the given bytes hold them (v may describe an intact copy,
   * tests/run/fw_reject.c), cut at the end of the bytes. */
  uint64_t w_at = v->sect_offset[TPKG_SECT_WEIGHTS];
  uint64_t w_len = w_at >= len ? 0 : w_at + v->weights_bytes > len ? len - w_at : v->weights_bytes;
  if (write_file(img_path, img, l.window, d) || write_file(w_path, pkg + w_at, w_len, d)) goto done;
  char a_dram[32], a_cycles[32], a_tcyc[64], a_bw[32], a_lat[32];
  char a_img[SCRATCH_PATH_MAX + 32], a_w[SCRATCH_PATH_MAX + 32], a_dump[SCRATCH_PATH_MAX + 32], a_win[SCRATCH_PATH_MAX + 32];
  snprintf(a_dram, sizeof a_dram, "%llu", (unsigned long long)dram);
  snprintf(a_cycles, sizeof a_cycles, "%llu",
           (unsigned long long)(o->max_cycles ? o->max_cycles : default_max_cycles(v, &l, b->runs)));
  snprintf(a_img, sizeof a_img, "0x%08X=%s", TFW_MAILBOX_ADDR, img_path);
  snprintf(a_w, sizeof a_w, "0x%08llX=%s", (unsigned long long)(TFW_MAILBOX_ADDR + l.window + v->window.weights_offset),
           w_path);
  snprintf(a_dump, sizeof a_dump, "0x%08X:%llu=%s", TFW_MAILBOX_ADDR, (unsigned long long)l.in, res_path);
  char *argv[32];
  int n = 0;
  argv[n++] = sim, argv[n++] = fw;
  argv[n++] = "--dram-size", argv[n++] = a_dram;
  /* The DRAM the target is specified against (targets/<t>.cfg), which the
   * cost model assumes too: the simulator's own default is not the target's. */
  const tsl_target_t *t = tsl_target_find(v->target_name);
  if (t) {
    snprintf(a_bw, sizeof a_bw, "%lld", (long long)t->dram_bytes_per_cycle);
    snprintf(a_lat, sizeof a_lat, "%lld", (long long)t->dram_latency);
    argv[n++] = "--dram-bw", argv[n++] = a_bw;
    argv[n++] = "--dram-latency", argv[n++] = a_lat;
  }
  argv[n++] = "--max-cycles", argv[n++] = a_cycles;
  argv[n++] = "--load", argv[n++] = a_img;
  if (w_len) argv[n++] = "--load", argv[n++] = a_w;
  argv[n++] = "--dump", argv[n++] = a_dump;
  snprintf(a_win, sizeof a_win, "0x%08llX:%u=%s", (unsigned long long)(TFW_MAILBOX_ADDR + l.window),
           v->window.window_bytes, win_path);
  if (b->want_window) argv[n++] = "--dump", argv[n++] = a_win;
  if (b->want_timeline) argv[n++] = "--npu-timeline", argv[n++] = tl_path;
  argv[n++] = "--stats";
  if (o->trace) argv[n++] = "--trace", argv[n++] = (char *)o->trace;
  snprintf(a_tcyc, sizeof a_tcyc, "%llu:%llu", (unsigned long long)o->trace_from, (unsigned long long)o->trace_to);
  if (o->trace && o->trace_to) argv[n++] = "--trace-cycles", argv[n++] = a_tcyc;
  argv[n] = NULL;
  int st = spawn(argv, NULL, err_path, d);
  b->sim_cycles = relay_sim_stderr(err_path);
  if (st < 0) goto done;
  if (st == SIM_EXIT_CYCLES) {
    diag_set(d, "the simulation reached its cycle limit (%s cycles; --max-cycles to raise it)", a_cycles);
    goto done;
  }
  if (st >= SIM_EXIT_USAGE) {
    diag_set(d, "the simulator failed (exit %d; its messages are above)", st);
    goto done;
  }
  if (!(dump = read_file(res_path, l.in, d))) goto done;
  if (check_result(dump, fw, v, b->runs, d)) goto done;
  if (take_results(dump, &l, v, b, d)) goto done;
  b->run_cycles = tpkg_rd64(dump + TFW_MB_CYCLES);
  if (b->want_timeline && read_timeline(tl_path, b, d)) goto done;
  if (b->want_window) {
    if (!(b->window = read_file(win_path, v->window.window_bytes, d))) goto done;
    b->window_bytes = v->window.window_bytes;
  }
  rc = 0;
done:
  free(img);
  free(dump);
  scratch_dir_remove(tmp);
  b->host_seconds = now_s() - t0;
  return rc;
}
