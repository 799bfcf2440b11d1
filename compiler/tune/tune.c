/* tune: the driver (tune.h).
 *
 * Steps, in order:
 *  1. the model (tune_front), its default lowering: tasks = distinct
 *     workload keys of its conv/matmul kernels, the graph key;
 *  2. exploration by the cost model: for every task its knob space, all of
 *     it when small, else random points then a few evolutionary
 *     generations; every point is lowered (one whole-graph lowering serves
 *     one point of every task at once, since a schedule never moves another
 *     kernel) and priced by lower_estimate_cycles; points are deduped by the
 *     schedule the lowering actually used;
 *  3. measurement: the default package once (every task's default), then
 *     per task the best predicted points plus a quarter random ones (the
 *     refit needs spread); the cost model is refit on all measurements so
 *     far, re-ranks the rest, and the second half is measured;
 *  4. level 2: SRAM residency on (best schedules) and off, end to end;
 *  5. the report.
 * Log records are written in launch order, whatever order runs end in, so
 * a seed gives the same log (times aside) with any --jobs. */
#include "tune.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "lower/lower.h"
#include "scratch.h"
#include "lower_compile.h"
#include "tessel_targets.h"
#include "tune_apply.h"
#include "tune_fit.h"
#include "tune_front.h"
#include "tune_log.h"
#include "tune_measure.h"
#include "tune_space.h"

/* A point of a task's space as the lowering used it, and what we know of it. */
typedef struct cand {
  lower_sched eff;   /* the effective schedule */
  uint64_t est;      /* cost model estimate (cycles, the task's kernels) */
  uint64_t busy[4];  /* busy cycles per queue */
  double pred;       /* the current (refit) model's prediction */
  int measured;      /* 0 not yet, 1 measured, -1 failed, 2 queued */
  uint64_t cycles;   /* measured */
  int round;         /* the measurement round it was measured in (0, 1) */
} cand;

typedef struct task {
  char key[LOWER_KEY_MAX];
  int *kidx;          /* its kernels (the lowering's indices = MARK ids) */
  int nk;
  tune_space space;
  cand *c;            /* distinct effective schedules seen */
  int nc, capc;
  int dflt;           /* index of the default schedule in c */
  int exhaustive;     /* the whole space was lowered */
  lower_sched cur;    /* the hook's schedule while `active` */
  int active;
  int trials;         /* measurements launched or reused */
  int best;           /* index of the fastest measured, -1 */
} task;

/* What a launched measurement was for. */
enum { JOB_DEFAULT, JOB_CAND, JOB_GRAPH_ON, JOB_GRAPH_OFF };
typedef struct outcome {
  int kind;               /* JOB_* */
  int *pt, *pc, np;       /* JOB_CAND: the (task, candidate) pairs in the package (one, or one per task with --batch) */
  int ready;              /* its records are filled */
  tune_record *r;         /* records to write (n) */
  int n;
} outcome;

typedef struct tuner {
  const tune_opts *o;
  ir_graph *g;
  const tsl_target_t *tg;
  task *t;
  int nt;
  char graph_key[LOWER_KEY_MAX];
  tune_rng rng;
  FILE *log;
  tune_table old;         /* --resume: the log's earlier records */
  tune_pool pool;
  char dir[TUNE_PATH_MAX];
  int own_dir;
  int log_errno;   /* first failed write of the log (0: none): tune then fails, records were lost */
  char input[TUNE_PATH_MAX];
  char tessel[TUNE_PATH_MAX];
  char simver[96];
  char model_base[128];
  outcome *out;           /* per launched measurement (seq) */
  int nout, capout, written;
  double t0;
  int over_budget;
  int planned, done, failed, reused, records;
  tune_fit fit;
  tune_fit fit1;          /* the refit after round 0, for the held-out figures */
  int round;              /* the measurement round running */
  uint64_t default_total, on_total, off_total; /* end-to-end CYCLES (0: not measured) */
} tuner;

static int hook(void *ctx, const char *key, lower_sched *s) {
  tuner *T = ctx;
  for (int i = 0; i < T->nt; i++)
    if (T->t[i].active && !strcmp(T->t[i].key, key)) {
      *s = T->t[i].cur;
      return 1;
    }
  return 0;
}

static int same_sched(const lower_sched *a, const lower_sched *b) {
  return a->oh_tile == b->oh_tile && a->ob_group == b->ob_group && a->ob_chunk == b->ob_chunk && a->order == b->order &&
         a->wbuf == b->wbuf;
}

static double budget_left(const tuner *T) {
  return T->o->time_budget > 0 ? T->o->time_budget - (tune_now() - T->t0) : 1e30;
}

/* Adds (or finds) the effective schedule of task k in program p. Index, or -1. */
static int add_cand(task *k, const lower_program *p, const tuner *T) {
  const lower_kernel *k0 = &p->kernels[k->kidx[0]];
  for (int j = 0; j < k->nk; j++)
    if (p->kernels[k->kidx[j]].sched_from < 0) return -1; /* did not fit */
  for (int i = 0; i < k->nc; i++)
    if (same_sched(&k->c[i].eff, &k0->sched)) return i;
  if (k->nc == k->capc) {
    int cap = k->capc ? 2 * k->capc : 32;
    cand *nc = realloc(k->c, sizeof *nc * (size_t)cap);
    if (!nc) return -1;
    k->c = nc, k->capc = cap;
  }
  cand *c = &k->c[k->nc];
  memset(c, 0, sizeof *c);
  c->eff = k0->sched;
  for (int j = 0; j < k->nk; j++) {
    const lower_stream *s = &p->kernels[k->kidx[j]].stream;
    uint64_t b[4];
    c->est += lower_estimate_cycles(T->tg, s);
    lower_unit_cycles(T->tg, s, b);
    for (int q = 0; q < 4; q++) c->busy[q] += b[q];
  }
  double x[TUNE_FIT_NF];
  tune_fit_features(c->est, c->busy, x);
  c->pred = tune_fit_predict(&T->fit, x);
  return k->nc++;
}

/* Lowers the model with the active tasks' `cur` schedules and records them. */
static int evaluate(tuner *T, diag *d) {
  lower_opts lo = {.sched_for = hook, .sched_ctx = T};
  lower_program *p = lower_graph(T->g, T->tg, &lo, d);
  if (!p) return -1;
  for (int i = 0; i < T->nt; i++)
    if (T->t[i].active) add_cand(&T->t[i], p, T);
  lower_program_free(p);
  return 0;
}

/* Step 1: tasks from the default lowering. */
static int find_tasks(tuner *T, diag *d) {
  lower_opts lo = {0};
  lower_program *p = lower_graph(T->g, T->tg, &lo, d);
  if (!p) return -1;
  tune_graph_key(p, T->graph_key, sizeof T->graph_key);
  T->t = calloc((size_t)p->n_kernels + 1, sizeof *T->t);
  if (!T->t) {
    lower_program_free(p);
    return diag_oom(d);
  }
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (!k->key[0]) continue;
    task *tk = NULL;
    for (int j = 0; j < T->nt && !tk; j++)
      if (!strcmp(T->t[j].key, k->key)) tk = &T->t[j];
    if (!tk) {
      tk = &T->t[T->nt++];
      snprintf(tk->key, sizeof tk->key, "%s", k->key);
      tk->kidx = calloc((size_t)p->n_kernels, sizeof *tk->kidx);
      if (!tk->kidx) {
        lower_program_free(p);
        return diag_oom(d);
      }
      /* The knob ranges from the key's output shape ("m<M> <OH>x<OW>"). */
      long long m = 1, oh = 1, ow = 1;
      const char *ms = strstr(k->key, " m");
      if (!ms || sscanf(ms, " m%lld %lldx%lld", &m, &oh, &ow) != 3) m = oh = 1;
      tk->space = tune_space_of(m, oh, T->tg->dim);
      tk->best = -1;
    }
    tk->kidx[tk->nk++] = i;
  }
  for (int j = 0; j < T->nt; j++) {
    T->t[j].dflt = add_cand(&T->t[j], p, T);
    if (T->t[j].dflt < 0) {
      lower_program_free(p);
      return diag_oom(d);
    }
  }
  lower_program_free(p);
  return 0;
}

/* Step 2: exploration by the cost model, about `lowerings` whole-graph
 * lowerings in all (each serves one point of every task). */
static int explore(tuner *T, int lowerings, diag *d) {
  int rounds = 0, half = lowerings / 2 > 1 ? lowerings / 2 : 1;
  uint64_t *pos = calloc((size_t)T->nt + 1, sizeof *pos);
  if (!pos) return diag_oom(d);
  for (int i = 0; i < T->nt; i++) T->t[i].exhaustive = tune_space_size(&T->t[i].space) <= (uint64_t)lowerings;
  /* Exhaustive tasks walk their space; the others take random points. */
  for (;; rounds++) {
    int any = 0;
    for (int i = 0; i < T->nt; i++) {
      task *k = &T->t[i];
      k->active = 0;
      if (k->exhaustive && pos[i] < tune_space_size(&k->space)) k->cur = tune_space_point(&k->space, pos[i]++), k->active = 1;
      else if (!k->exhaustive && rounds < half) k->cur = tune_space_random(&k->space, &T->rng), k->active = 1;
      any |= k->active;
    }
    if (!any || budget_left(T) < 0) break;
    if (evaluate(T, d)) {
      free(pos);
      return -1;
    }
  }
  free(pos);
  /* Evolution for the others: children of the best predicted so far. */
  const int gens = 3, per_gen = (lowerings - half) / gens > 1 ? (lowerings - half) / gens : 1;
  for (int gen = 0; gen < gens; gen++)
    for (int c = 0; c < per_gen && budget_left(T) > 0; c++) {
      int any = 0;
      for (int i = 0; i < T->nt; i++) {
        task *k = &T->t[i];
        k->active = 0;
        if (k->exhaustive || !k->nc) continue;
        /* Tournament of two among the candidates, twice: parents. */
        int a = (int)tune_rng_below(&T->rng, (uint64_t)k->nc), b = (int)tune_rng_below(&T->rng, (uint64_t)k->nc);
        int pa = k->c[a].pred <= k->c[b].pred ? a : b;
        a = (int)tune_rng_below(&T->rng, (uint64_t)k->nc), b = (int)tune_rng_below(&T->rng, (uint64_t)k->nc);
        int pb = k->c[a].pred <= k->c[b].pred ? a : b;
        k->cur = tune_space_mutate(&k->space, &k->c[pa].eff, pb != pa ? &k->c[pb].eff : NULL, &T->rng);
        k->active = 1;
        any = 1;
      }
      if (!any) break;
      if (evaluate(T, d)) return -1;
    }
  for (int i = 0; i < T->nt; i++) T->t[i].active = 0;
  return 0;
}

/* The record of a measurement of task k's candidate c (or a graph). */
static void fill_record(const tuner *T, tune_record *r, int trial) {
  memset(r, 0, sizeof *r);
  r->residency = -1;
  snprintf(r->target, sizeof r->target, "%s", T->tg->name);
  snprintf(r->engine, sizeof r->engine, "%s", T->o->engine);
  snprintf(r->simulator, sizeof r->simulator, "%s", T->simver);
  snprintf(r->model, sizeof r->model, "%s", T->model_base);
  r->trial = trial;
}

/* Sums the counters of task k's kernels from a finished job into r. */
static void task_counters(const task *k, const tune_job *j, tune_record *r) {
  for (int i = 0; i < j->nk; i++)
    for (int q = 0; q < k->nk; q++)
      if (j->kid[i] == (uint64_t)k->kidx[q]) {
        for (int c = 0; c < TSL_NCOUNTERS; c++) r->counters[c] += j->kc[i][c];
        break;
      }
  for (int q = 0; q < k->nk; q++) /* a kernel that never reported: not a valid measurement */
    for (int i = 0; i <= j->nk; i++) {
      if (i == j->nk) {
        r->status = TUNE_STATUS_ERROR;
        snprintf(r->error, sizeof r->error, "the profile has no record of kernel %d", k->kidx[q]);
        break;
      }
      if (j->kid[i] == (uint64_t)k->kidx[q]) break;
    }
  r->n_kernels = k->nk;
  r->cycles = r->counters[TSL_CNT_CYCLES];
  if (r->status == TUNE_STATUS_OK && !r->cycles) r->status = TUNE_STATUS_ERROR, snprintf(r->error, sizeof r->error, "zero cycles");
}

/* A candidate's outcome is known: update the task. */
static void settle(tuner *T, int ti, int ci, const tune_record *r) {
  task *k = &T->t[ti];
  cand *c = &k->c[ci];
  if (r->status != TUNE_STATUS_OK) {
    c->measured = -1;
    T->failed++;
    return;
  }
  c->measured = 1;
  c->cycles = r->cycles;
  /* Fastest wins; on a tie the default (it needs no log entry to be right). */
  if (k->best < 0 || c->cycles < k->c[k->best].cycles || (c->cycles == k->c[k->best].cycles && ci == k->dflt))
    k->best = ci;
}

static void write_ready(tuner *T) {
  while (T->written < T->nout && T->out[T->written].ready) {
    outcome *oc = &T->out[T->written++];
    for (int i = 0; i < oc->n; i++) {
      errno = 0;
      tune_log_write(T->log, &oc->r[i]);
      if (ferror(T->log) && !T->log_errno) T->log_errno = errno ? errno : EIO; /* errno of the failed write */
      T->records++;
    }
    free(oc->r);
    oc->r = NULL;
  }
  /* a full disk used to lose every record and still exit 0 */
  errno = 0;
  if (T->log && (fflush(T->log) != 0 || ferror(T->log)) && !T->log_errno) T->log_errno = errno ? errno : EIO;
}

static void progress(const tuner *T) {
  if (!T->o->progress) return;
  int tasks_done = 0;
  uint64_t best = 0, dflt = 0;
  for (int i = 0; i < T->nt; i++) {
    const task *k = &T->t[i];
    tasks_done += k->trials >= T->o->trials || k->trials >= k->nc;
    if (k->best >= 0) best += k->c[k->best].cycles;
    if (k->c[k->dflt].measured == 1) dflt += k->c[k->dflt].cycles;
  }
  int width = 24, fill = T->planned ? width * T->done / T->planned : width;
  fprintf(stderr, "\r\033[Ktune [");
  for (int i = 0; i < width; i++) fputc(i < fill ? '#' : '.', stderr);
  fprintf(stderr, "] tasks %d/%d, trials %d/%d, best %llu cycles (default %llu)%s", tasks_done, T->nt, T->done,
          T->planned, (unsigned long long)best, (unsigned long long)dflt, T->over_budget ? ", time budget spent" : "");
  if (T->o->launch.kind != TUNE_LAUNCH_LOCAL) {
    int c[4];
    tune_pool_counts(&T->pool, c);
    fprintf(stderr, "; %s: %d queued, %d running, %d done, %d failed", tune_launch_name(T->o->launch.kind),
            c[TUNE_TASK_QUEUED], c[TUNE_TASK_RUNNING], c[TUNE_TASK_DONE], c[TUNE_TASK_FAILED]);
  }
  fflush(stderr);
}

static void progress_tick(void *ctx) { progress(ctx); }

/* A job ended: its records. */
static void handle(tuner *T, tune_job *j) {
  outcome *oc = &T->out[j->seq];
  int n = oc->kind == JOB_DEFAULT ? T->nt + 1 : oc->kind == JOB_CAND ? oc->np : 1;
  oc->r = calloc((size_t)n, sizeof *oc->r);
  if (!oc->r) n = 0;
  for (int i = 0; i < n; i++) {
    tune_record *r = &oc->r[i];
    fill_record(T, r, j->seq);
    r->status = j->status;
    snprintf(r->error, sizeof r->error, "%s", j->error);
    r->seconds = j->seconds;
    int ti = oc->kind == JOB_CAND ? oc->pt[i] : i;
    if (oc->kind == JOB_CAND || (oc->kind == JOB_DEFAULT && i < T->nt)) {
      task *k = &T->t[ti];
      int ci = oc->kind == JOB_CAND ? oc->pc[i] : k->dflt;
      snprintf(r->key, sizeof r->key, "%s", k->key);
      r->sched = k->c[ci].eff;
      r->is_default = ci == k->dflt;
      r->estimate = k->c[ci].est;
      memcpy(r->busy, k->c[ci].busy, sizeof r->busy);
      if (r->status == TUNE_STATUS_OK) task_counters(k, j, r);
      settle(T, ti, ci, r);
    } else { /* the whole graph: end to end */
      snprintf(r->key, sizeof r->key, "%s", T->graph_key);
      r->residency = oc->kind != JOB_GRAPH_OFF;
      r->is_default = oc->kind == JOB_DEFAULT;
      if (r->status == TUNE_STATUS_OK) {
        memcpy(r->counters, j->total, sizeof r->counters);
        r->cycles = j->total[TSL_CNT_CYCLES];
        r->n_kernels = j->nk;
      }
      uint64_t *dst = oc->kind == JOB_DEFAULT ? &T->default_total : oc->kind == JOB_GRAPH_ON ? &T->on_total
                                                                                           : &T->off_total;
      *dst = r->status == TUNE_STATUS_OK ? r->cycles : 0;
    }
  }
  oc->n = n;
  oc->ready = 1;
  free(oc->pt), free(oc->pc);
  oc->pt = oc->pc = NULL;
  T->done++;
  if (!T->o->workdir) { /* a scratch folder: nothing to keep */
    unlink(j->pkg);
    unlink(j->prof);
    unlink(j->out);
  }
  tune_job_clear(j);
  write_ready(T);
  progress(T);
}

/* Compiles the package of a measurement and starts its run; a compile
 * failure is a failed measurement (recorded), not an error. */
static int launch(tuner *T, int kind, const int *pt, const int *pc, int np, diag *d) {
  if (T->nout == T->capout) {
    int cap = T->capout ? 2 * T->capout : 64;
    outcome *no = realloc(T->out, sizeof *no * (size_t)cap);
    if (!no) return diag_oom(d);
    T->out = no, T->capout = cap;
  }
  int seq = T->nout++;
  T->out[seq] = (outcome){.kind = kind, .np = np};
  if (np) {
    T->out[seq].pt = malloc(sizeof(int) * (size_t)np), T->out[seq].pc = malloc(sizeof(int) * (size_t)np);
    if (!T->out[seq].pt || !T->out[seq].pc) return diag_oom(d);
    memcpy(T->out[seq].pt, pt, sizeof(int) * (size_t)np), memcpy(T->out[seq].pc, pc, sizeof(int) * (size_t)np);
  }
  while (T->pool.running >= T->pool.jobs) handle(T, tune_pool_wait(&T->pool, 1));
  for (int i = 0; i < T->nt; i++) T->t[i].active = 0;
  if (kind == JOB_CAND) {
    for (int i = 0; i < np; i++) T->t[pt[i]].active = 1, T->t[pt[i]].cur = T->t[pt[i]].c[pc[i]].eff;
  } else if (kind == JOB_GRAPH_ON) {
    for (int i = 0; i < T->nt; i++)
      if (T->t[i].best >= 0) T->t[i].active = 1, T->t[i].cur = T->t[i].c[T->t[i].best].eff;
  }
  char pkg[TUNE_PATH_MAX];
  if (tune_pool_path(&T->pool, seq, pkg, sizeof pkg, d)) return -1;
  lower_compile_opts co = {.target = T->tg->name, .out = pkg, .no_sram_residency = kind == JOB_GRAPH_OFF,
                           .sched_for = kind == JOB_CAND || kind == JOB_GRAPH_ON ? hook : NULL, .sched_ctx = T};
  diag cd = {{0}};
  int rc = lower_compile(T->g, &co, &cd);
  for (int i = 0; i < T->nt; i++) T->t[i].active = 0;
  if (rc) { /* as if the run failed */
    tune_job j = {.seq = seq, .status = TUNE_STATUS_ERROR};
    snprintf(j.error, sizeof j.error, "compile: %.140s", cd.msg);
    snprintf(j.pkg, sizeof j.pkg, "%s", pkg);
    handle(T, &j);
    return 0;
  }
  return tune_pool_start(&T->pool, seq, pkg, d);
}

/* --resume: an earlier ok measurement of the same schedule, or NULL. */
static const tune_record *resumed(const tuner *T, const char *key, const lower_sched *s, int residency) {
  for (int i = 0; i < T->old.n_all; i++) {
    const tune_record *r = &T->old.all[i];
    if (r->status == TUNE_STATUS_OK && !strcmp(r->key, key) && !strcmp(r->engine, T->o->engine) &&
        r->residency == residency && (residency >= 0 || same_sched(&r->sched, s)))
      return r;
  }
  return NULL;
}

/* Whether candidate ci of task ti needs a run: 0 when it is measured
 * already, taken from the resumed log, or the time budget is spent; 1
 * (marked queued) otherwise. */
static int needs_run(tuner *T, int ti, int ci) {
  task *k = &T->t[ti];
  if (k->c[ci].measured) return 0;
  const tune_record *r = resumed(T, k->key, &k->c[ci].eff, -1);
  k->trials++;
  if (r) {
    settle(T, ti, ci, r);
    T->reused++;
    return 0;
  }
  if (budget_left(T) < 0) {
    T->over_budget = 1;
    k->trials--;
    return 0;
  }
  k->c[ci].measured = 2;
  k->c[ci].round = T->round;
  return 1;
}

static void drain(tuner *T) {
  tune_job *j;
  while ((j = tune_pool_wait(&T->pool, 1))) handle(T, j);
}

/* Candidates of task k not measured yet, best predicted first (ties: found first). */
static int ranked(const task *k, int *idx) {
  int n = 0;
  for (int i = 0; i < k->nc; i++)
    if (!k->c[i].measured) idx[n++] = i;
  for (int i = 1; i < n; i++) /* insertion sort: stable, and the lists are short */
    for (int j = i; j > 0 && k->c[idx[j]].pred < k->c[idx[j - 1]].pred; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1], idx[j - 1] = t;
    }
  return n;
}

/* Step 3b: refit the cost model on every measurement so far; *before and
 * *after get the mean absolute relative errors, *rs_b / *rs_a Spearman. */
static void refit(tuner *T, double *before, double *after, double *rs_b, double *rs_a, int *n_out) {
  int n = 0;
  for (int i = 0; i < T->nt; i++)
    for (int c = 0; c < T->t[i].nc; c++) n += T->t[i].c[c].measured == 1;
  double(*x)[TUNE_FIT_NF] = calloc((size_t)n + 1, sizeof *x);
  double *y = calloc((size_t)n + 1, sizeof *y), *pe = calloc((size_t)n + 1, sizeof *pe);
  double *pf = calloc((size_t)n + 1, sizeof *pf);
  *n_out = 0;
  if (x && y && pe && pf) {
    int m = 0;
    for (int i = 0; i < T->nt; i++)
      for (int c = 0; c < T->t[i].nc; c++) {
        const cand *cd = &T->t[i].c[c];
        if (cd->measured != 1) continue;
        tune_fit_features(cd->est, cd->busy, x[m]);
        y[m] = (double)cd->cycles;
        pe[m] = (double)cd->est;
        m++;
      }
    T->fit = tune_fit_solve((const double(*)[TUNE_FIT_NF])x, y, (size_t)m);
    for (int i = 0; i < m; i++) pf[i] = tune_fit_predict(&T->fit, x[i]);
    *before = tune_fit_mae(pe, y, (size_t)m), *after = tune_fit_mae(pf, y, (size_t)m);
    *rs_b = tune_fit_spearman(pe, y, (size_t)m), *rs_a = tune_fit_spearman(pf, y, (size_t)m);
    *n_out = m;
    for (int i = 0; i < T->nt; i++)
      for (int c = 0; c < T->t[i].nc; c++) {
        double f[TUNE_FIT_NF];
        tune_fit_features(T->t[i].c[c].est, T->t[i].c[c].busy, f);
        T->t[i].c[c].pred = tune_fit_predict(&T->fit, f);
      }
  }
  free(x), free(y), free(pe), free(pf);
}

/* Step 3: measurements, two rounds around the refit. */
static int search(tuner *T, double fig[4], int *nfit, diag *d) {
  int maxc = 1;
  for (int i = 0; i < T->nt; i++) maxc = T->t[i].nc > maxc ? T->t[i].nc : maxc;
  int *idx = calloc((size_t)maxc + 1, sizeof *idx);
  if (!idx) return diag_oom(d);
  const int want = T->o->trials - 1; /* besides the default */
  const int n1 = (want + 1) / 2;
  for (int round = 0; round < 2; round++) {
    T->round = round;
    const int quota = round == 0 ? n1 : want - n1;
    /* Round robin over tasks, so a time budget cuts every task alike. */
    int *sel = calloc((size_t)T->nt * (size_t)(quota + 1) + 1, sizeof *sel);
    int *nsel = calloc((size_t)T->nt + 1, sizeof *nsel);
    if (!sel || !nsel) {
      free(sel), free(nsel), free(idx);
      return diag_oom(d);
    }
    for (int i = 0; i < T->nt; i++) {
      task *k = &T->t[i];
      int n = ranked(k, idx);
      int take = quota < n ? quota : n;
      int rnd = round == 0 ? take / 4 : 0, top = take - rnd;
      for (int j = 0; j < top; j++) sel[i * (quota + 1) + nsel[i]++] = idx[j];
      /* The random quarter: from the rest, so the refit sees spread. */
      for (int j = 0; j < rnd && n - top - j > 0; j++) {
        int pick = top + j + (int)tune_rng_below(&T->rng, (uint64_t)(n - top - j));
        int t = idx[top + j];
        idx[top + j] = idx[pick], idx[pick] = t;
        sel[i * (quota + 1) + nsel[i]++] = idx[top + j];
      }
    }
    /* One package per candidate; with --batch one per rank, holding that
     * rank's candidate of every task (their kernels are measured apart). */
    int *bt = calloc((size_t)T->nt + 1, sizeof *bt), *bc = calloc((size_t)T->nt + 1, sizeof *bc), nb = 0, rc = 0;
    if (!bt || !bc) rc = diag_oom(d);
    for (int r = 0; !rc && r <= quota; r++) {
      for (int i = 0; !rc && i < T->nt; i++)
        if (r < nsel[i] && needs_run(T, i, sel[i * (quota + 1) + r])) {
          bt[nb] = i, bc[nb++] = sel[i * (quota + 1) + r];
          if (!T->o->batch) rc = launch(T, JOB_CAND, bt, bc, nb, d), nb = 0;
        }
      if (!rc && nb) rc = launch(T, JOB_CAND, bt, bc, nb, d), nb = 0;
    }
    free(bt), free(bc), free(sel), free(nsel);
    if (rc) {
      free(idx);
      return -1;
    }
    drain(T);
    refit(T, &fig[0], &fig[1], &fig[2], &fig[3], nfit);
    if (round == 0) T->fit1 = T->fit;
  }
  free(idx);
  return 0;
}

static void report(const tuner *T, const double fig[4], int nfit, double seconds) {
  printf("tune: %s on %s (engine %s): %d tasks, %d measurements (%d failed, %d from the log), %.1f s%s\n",
         T->model_base, T->tg->name, T->o->engine, T->nt, T->done, T->failed, T->reused, seconds,
         T->over_budget ? ", time budget reached" : "");
  printf("%-4s %-7s %10s %10s %7s  %-26s %s\n", "task", "kernels", "default", "best", "gain", "schedule (oh,grp,chunk,ord,buf)",
         "workload");
  uint64_t sd = 0, sb = 0;
  for (int i = 0; i < T->nt; i++) {
    const task *k = &T->t[i];
    const cand *dc = &k->c[k->dflt], *bc = k->best >= 0 ? &k->c[k->best] : NULL;
    char sch[64] = "-";
    if (bc)
      snprintf(sch, sizeof sch, "%d,%d,%d,%s,%d%s", bc->eff.oh_tile, bc->eff.ob_group, bc->eff.ob_chunk,
               bc->eff.order == 1 ? "rows" : "chunks", bc->eff.wbuf, k->best == k->dflt ? " (default)" : "");
    if (dc->measured == 1 && bc) {
      sd += dc->cycles, sb += bc->cycles;
      printf("%-4d %-7d %10llu %10llu %6.1f%%  %-26s %s\n", i, k->nk, (unsigned long long)dc->cycles,
             (unsigned long long)bc->cycles, 100.0 * ((double)dc->cycles - (double)bc->cycles) / (double)dc->cycles,
             sch, k->key);
    } else {
      printf("%-4d %-7d %10s %10s %7s  %-26s %s\n", i, k->nk, dc->measured == 1 ? "" : "failed", bc ? "" : "-", "",
             sch, k->key);
    }
  }
  if (sd) printf("tasks: %llu -> %llu cycles (%.1f%% fewer; per task, once each)\n", (unsigned long long)sd,
                 (unsigned long long)sb, 100.0 * ((double)sd - (double)sb) / (double)sd);
  printf("model: default %llu cycles, tuned %llu with SRAM residency on, %llu off: %s",
         (unsigned long long)T->default_total, (unsigned long long)T->on_total, (unsigned long long)T->off_total,
         !T->on_total && !T->off_total ? "not measured\n" : "");
  if (T->on_total || T->off_total) {
    int off = T->off_total && (!T->on_total || T->off_total < T->on_total);
    uint64_t best = off ? T->off_total : T->on_total;
    if (T->default_total && T->default_total < best) best = T->default_total, off = 0;
    printf("residency %s, %llu cycles (%.1f%% fewer than default)\n", off ? "off" : "on", (unsigned long long)best,
           T->default_total ? 100.0 * ((double)T->default_total - (double)best) / (double)T->default_total : 0.0);
  }
  printf("cost model: refit on %d measurements: mean abs error %.1f%% -> %.1f%%, Spearman %.3f -> %.3f "
         "(weights: %.3f x estimate + %.3f LOAD + %.3f EXEC + %.3f STORE + %.3f dispatch + %.3f min(LOAD,EXEC) + "
         "%.3f min(EXEC,STORE))\n",
         nfit, 100 * fig[0], 100 * fig[1], fig[2], fig[3], T->fit.w[0], T->fit.w[1], T->fit.w[2], T->fit.w[3], T->fit.w[4],
         T->fit.w[5], T->fit.w[6]);
  /* Held out: the refit of round 0 against what round 1 measured. */
  int nh = 0;
  for (int i = 0; i < T->nt; i++)
    for (int c = 0; c < T->t[i].nc; c++) nh += T->t[i].c[c].measured == 1 && T->t[i].c[c].round == 1;
  double *y = calloc((size_t)nh + 1, sizeof *y), *pe = calloc((size_t)nh + 1, sizeof *pe);
  double *pf = calloc((size_t)nh + 1, sizeof *pf);
  if (nh >= 2 && y && pe && pf) {
    int m = 0;
    for (int i = 0; i < T->nt; i++)
      for (int c = 0; c < T->t[i].nc; c++) {
        const cand *cd = &T->t[i].c[c];
        if (cd->measured != 1 || cd->round != 1) continue;
        double x[TUNE_FIT_NF];
        tune_fit_features(cd->est, cd->busy, x);
        y[m] = (double)cd->cycles, pe[m] = (double)cd->est, pf[m] = tune_fit_predict(&T->fit1, x);
        m++;
      }
    printf("cost model, held out (refit on round 1, tested on the %d measurements of round 2): mean abs error "
           "%.1f%% -> %.1f%%, Spearman %.3f -> %.3f\n", m, 100 * tune_fit_mae(pe, y, (size_t)m),
           100 * tune_fit_mae(pf, y, (size_t)m), tune_fit_spearman(pe, y, (size_t)m), tune_fit_spearman(pf, y, (size_t)m));
  }
  free(y), free(pe), free(pf);
  printf("log: %s (%d records written)\n", T->o->log, T->records);
}

/* The simulator's version line (`tessel-sim --version` next to tessel), or a note. */
static void sim_version(tuner *T) {
  char dir[TUNE_PATH_MAX], cmd[2 * TUNE_PATH_MAX + 32];
  snprintf(dir, sizeof dir, "%s", T->tessel);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  snprintf(cmd, sizeof cmd, "'%s/../%s/tessel-sim' --version 2>/dev/null", slash ? dir : ".", T->tg->name);
  snprintf(T->simver, sizeof T->simver, "unavailable");
  FILE *p = popen(cmd, "r");
  if (!p) return;
  char line[96];
  if (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\r\n")] = 0;
    if (line[0]) snprintf(T->simver, sizeof T->simver, "%s", line);
  }
  pclose(p);
}

static int setup(tuner *T, diag *d) {
  const tune_opts *o = T->o;
  T->tg = tsl_target_find(o->target);
  if (!T->tg) return diag_set(d, "--target: unknown target '%s' (npu4, npu8, npu16)", o->target);
  char abs[PATH_MAX];
  if (o->tessel && o->launch.kind != TUNE_LAUNCH_LOCAL && strchr(o->tessel, '/') && realpath(o->tessel, abs)) {
    if (snprintf(T->tessel, sizeof T->tessel, "%s", abs) >= (int)sizeof T->tessel) /* tasks run in their round folder */
      return diag_set(d, "--tessel %s: path too long", abs);
  } else if (o->tessel) {
    snprintf(T->tessel, sizeof T->tessel, "%s", o->tessel);
  } else {
    ssize_t n = readlink("/proc/self/exe", T->tessel, sizeof T->tessel - 1);
    if (n <= 0) return diag_set(d, "cannot find the tessel binary (/proc/self/exe); give --tessel PATH");
    T->tessel[n] = 0;
  }
  const char *base = strrchr(o->model, '/');
  snprintf(T->model_base, sizeof T->model_base, "%s", base ? base + 1 : o->model);
  sim_version(T);
  if (o->workdir) {
    /* the folder must exist (it is made if missing, one level): an empty
     * --workdir used to put every package in / */
    struct stat st;
    if (stat(o->workdir, &st) != 0 && mkdir(o->workdir, 0777) != 0)
      return diag_set(d, "--workdir %s: cannot create: %s", o->workdir, strerror(errno));
    if (stat(o->workdir, &st) != 0 || !S_ISDIR(st.st_mode)) return diag_set(d, "--workdir %s: not a folder", o->workdir);
    /* absolute: the tasks of a remote launcher run elsewhere */
    char wabs[PATH_MAX];
    if (!realpath(o->workdir, wabs) || snprintf(T->dir, sizeof T->dir, "%s", wabs) >= (int)sizeof T->dir)
      return diag_set(d, "--workdir %s: path too long or unreadable", o->workdir);
  } else {
    /* under $TMPDIR, removed on every exit, a signal's too (scratch.h) */
    if (scratch_dir(T->dir, sizeof T->dir, "tessel-tune", d)) return -1;
    T->own_dir = 1;
  }
  T->g = tune_front_load(o->model, o->calib, o->n_calib, d);
  if (!T->g) return -1;
  if (snprintf(T->input, sizeof T->input, "%s/input.npy", T->dir) >= (int)sizeof T->input)
    return diag_set(d, "work folder path too long");
  const char *src = o->input ? o->input : o->n_calib ? o->calib[0] : NULL;
  if (!src) return diag_set(d, "give --input X.npy (or --calib X.npy): the measurements need an input");
  if (tune_front_input(T->g, src, T->input, d)) return -1;
  if (o->resume) {
    T->old.keep_all = 1;
    FILE *probe = fopen(o->log, "r");
    if (probe) {
      fclose(probe);
      if (tune_table_load(&T->old, o->log, stderr, d)) return -1;
    }
  }
  if (!o->resume) { /* appending to a file that is not a tuning log would corrupt it */
    struct stat st;
    tune_table probe = {0};
    int bad = stat(o->log, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && tune_table_load(&probe, o->log, NULL, d);
    tune_table_free(&probe);
    if (bad) return -1;
  }
  T->log = fopen(o->log, "a");
  if (!T->log) return diag_set(d, "%s: cannot append: %s", o->log, strerror(errno));
  T->pool = (tune_pool){.tessel = T->tessel, .input = T->input, .engine = o->engine, .timeout = o->timeout,
                        .jobs = o->jobs, .launch = &o->launch, .dir = T->dir, .fold = o->fold,
                        .tick = o->progress ? progress_tick : NULL, .tick_ctx = T};
  if (tune_pool_init(&T->pool)) return diag_oom(d);
  T->rng = tune_rng_seed(o->seed);
  T->fit = tune_fit_identity();
  return 0;
}

static void teardown(tuner *T) {
  tune_pool_free(&T->pool);
  if (T->log) fclose(T->log);
  if (T->own_dir) scratch_dir_remove(T->dir);
  for (int i = 0; T->t && i < T->nt; i++) {
    free(T->t[i].kidx);
    free(T->t[i].c);
  }
  free(T->t);
  for (int i = 0; i < T->nout; i++) free(T->out[i].r), free(T->out[i].pt), free(T->out[i].pc);
  free(T->out);
  tune_table_free(&T->old);
  ir_graph_free(T->g);
}

int tune_run(const tune_opts *o, diag *d) {
  tuner T = {.o = o, .t0 = tune_now(), .fit1 = tune_fit_identity()};
  double fig[4] = {0, 0, 1, 1};
  int nfit = 0, rc = setup(&T, d);
  if (!rc) rc = find_tasks(&T, d);
  /* A fixed number of lowerings (not a time): the same seed explores the
   * same points on any machine, under any load. */
  if (!rc) rc = explore(&T, o->explore > 0 ? o->explore : 256, d);
  /* The progress bar's total: the default package, the trials, level 2. */
  T.planned = 3;
  for (int i = 0; !rc && i < T.nt; i++) {
    int left = T.t[i].nc - 1;
    T.planned += left < o->trials - 1 ? left : o->trials - 1;
  }
  /* The default package: every task's default at once, and the model's total. */
  int all_resumed = T.nt > 0;
  for (int i = 0; !rc && i < T.nt; i++) {
    const tune_record *r = resumed(&T, T.t[i].key, &T.t[i].c[T.t[i].dflt].eff, -1);
    if (r) settle(&T, i, T.t[i].dflt, r), T.t[i].trials++, T.reused++;
    else all_resumed = 0;
  }
  if (!rc && !all_resumed) {
    for (int i = 0; i < T.nt; i++)
      if (T.t[i].c[T.t[i].dflt].measured != 1) T.t[i].trials++;
    rc = launch(&T, JOB_DEFAULT, NULL, NULL, 0, d);
    if (!rc) drain(&T);
  } else if (!rc) {
    const tune_record *r = resumed(&T, T.graph_key, NULL, 1);
    T.default_total = r ? r->cycles : 0;
  }
  if (!rc) rc = search(&T, fig, &nfit, d);
  /* Level 2: the whole model, residency on (best schedules) and off. */
  if (!rc) rc = launch(&T, JOB_GRAPH_ON, NULL, NULL, 0, d);
  if (!rc) rc = launch(&T, JOB_GRAPH_OFF, NULL, NULL, 0, d);
  if (!rc) drain(&T);
  if (o->progress) fprintf(stderr, "\r\033[K");
  if (T.log && fclose(T.log) != 0 && !T.log_errno) T.log_errno = errno;
  T.log = NULL;
  if (!rc && T.log_errno)
    rc = diag_set(d, "%s: writing the log failed: %s (measurements were lost)", o->log, strerror(T.log_errno));
  if (!rc) report(&T, fig, nfit, tune_now() - T.t0);
  teardown(&T);
  return rc;
}
