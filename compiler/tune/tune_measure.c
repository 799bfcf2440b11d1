/* tune_measure: the measurement pool (tune_measure.h). */
#include "tune_measure.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arena.h"
#include "scratch.h"
#include "profile/profile.h"
#include "tune_log.h"

double tune_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int remote(const tune_pool *p) { return p->launch && p->launch->kind != TUNE_LAUNCH_LOCAL; }
/* The fold pass (and a remote launcher) put packages in round folders. */
static int in_rounds(const tune_pool *p) { return remote(p) || p->fold; }

int tune_pool_init(tune_pool *p) {
  if (in_rounds(p)) p->jobs = TUNE_ROUND_MAX;
  p->slot = calloc((size_t)p->jobs, sizeof *p->slot);
  p->round_slot = calloc((size_t)p->jobs, sizeof *p->round_slot);
  p->running = 0;
  return p->slot && p->round_slot ? 0 : -1;
}

int tune_pool_path(tune_pool *p, int seq, char *buf, size_t n, diag *d) {
  if (!in_rounds(p)) {
    if (snprintf(buf, n, "%s/m%05d.tpkg", p->dir, seq) >= (int)n) return diag_set(d, "work folder path too long");
    return 0;
  }
  char dir[TUNE_PATH_MAX];
  if (snprintf(dir, sizeof dir, "%s/round-%03d", p->dir, p->rounds) >= (int)sizeof dir ||
      snprintf(buf, n, "%s/m%05d.tpkg%s", dir, seq, p->fold ? ".new" : "") >= (int)n)
    return diag_set(d, "work folder path too long");
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return diag_set(d, "%s: cannot create: %s", dir, strerror(errno));
  return 0;
}

void tune_pool_counts(const tune_pool *p, int count[4]) {
  count[TUNE_TASK_QUEUED] = p->queued, count[TUNE_TASK_RUNNING] = 0;
  count[TUNE_TASK_DONE] = p->done, count[TUNE_TASK_FAILED] = p->failed;
  if (p->round.state) {
    int c[4];
    tune_round_counts(&p->round, c);
    count[TUNE_TASK_QUEUED] += c[TUNE_TASK_QUEUED], count[TUNE_TASK_RUNNING] = c[TUNE_TASK_RUNNING];
  } else if (!remote(p)) {
    count[TUNE_TASK_RUNNING] = p->running;
  }
}

void tune_pool_free(tune_pool *p) {
  tune_pool_kill(p);
  for (int i = 0; p->slot && i < p->jobs; i++) tune_job_clear(&p->slot[i]);
  free(p->slot);
  free(p->round_slot);
  p->slot = NULL;
  p->round_slot = NULL;
}

void tune_job_clear(tune_job *j) {
  free(j->kc);
  free(j->kid);
  memset(j, 0, sizeof *j);
}

static int read_profile(tune_job *j);

/* Whether two files hold the same bytes. */
static int same_file(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  int same = fa && fb;
  while (same) {
    int ca = getc(fa), cb = getc(fb);
    same = ca == cb;
    if (ca == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

int tune_pool_start(tune_pool *p, int seq, const char *pkg, diag *d) {
  tune_job *j = NULL;
  for (int i = 0; i < p->jobs && !j; i++)
    if (!p->slot[i].pid && !p->slot[i].start) j = &p->slot[i];
  if (!j) return diag_set(d, "internal: no free measurement slot");
  memset(j, 0, sizeof *j);
  j->seq = seq;
  p->since++;
  size_t len = strlen(pkg);
  if (p->fold && len > 4 && !strcmp(pkg + len - 4, ".new")) len -= 4; /* compiled beside the kept one */
  if (snprintf(j->pkg, sizeof j->pkg, "%.*s", (int)len, pkg) >= (int)sizeof j->pkg ||
      snprintf(j->prof, sizeof j->prof, "%s.profile.json", j->pkg) >= (int)sizeof j->prof ||
      snprintf(j->out, sizeof j->out, "%s.log", j->pkg) >= (int)sizeof j->out)
    return diag_set(d, "%s: path too long", pkg);
  if (p->fold && strcmp(pkg, j->pkg)) {
    if (same_file(pkg, j->pkg) && read_profile(j) == 0) { /* measured before: its profile is the result */
      unlink(pkg);
      j->status = TUNE_STATUS_OK;
      snprintf(j->out, sizeof j->out, "%s", j->prof);
      j->ready = 1, j->start = tune_now();
      p->running++;
      return 0;
    }
    if (rename(pkg, j->pkg) != 0) return diag_set(d, "%s: %s", j->pkg, strerror(errno));
  }
  unlink(j->prof);
  if (remote(p)) { /* submitted by the next wait, with the rest of its round */
    j->pid = -1, j->start = tune_now();
    j->out[0] = 0; /* set when it is submitted */
    p->running++, p->queued++;
    return 0;
  }
  if (p->fold) { /* fold without a launcher: what the folder does not hold is not measured */
    j->status = TUNE_STATUS_ERROR;
    snprintf(j->error, sizeof j->error, "no result in the folded folder (run it with --launcher parallel or slurm)");
    j->ready = 1, j->start = tune_now();
    p->running++;
    return 0;
  }
  int fd = open(j->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return diag_set(d, "%s: %s", j->out, strerror(errno));
  char *argv[] = {(char *)p->tessel, "run", j->pkg, "--input", (char *)p->input, "--engine", (char *)p->engine,
                  "--profile", j->prof, "-q", NULL};
  /* Own process group, stopped on a timeout or when tune is signalled:
   * SIGTERM first, so `tessel run` stops its simulator and removes its
   * temporary folder (scratch.h). */
  pid_t pid = scratch_spawn(argv, fd, fd, d);
  close(fd);
  if (pid < 0) return -1;
  j->pid = pid;
  j->start = tune_now();
  p->running++;
  return 0;
}

/* The last non-empty line of the job's output, as the error message. */
static void last_line(const char *path, char *dst, size_t n) {
  FILE *f = fopen(path, "r");
  char line[512];
  dst[0] = 0;
  while (f && fgets(line, sizeof line, f)) {
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
    if (l) snprintf(dst, n, "%s", line);
  }
  if (f) fclose(f);
}

/* Reads the finished job's profile into its result fields; 0 when it was
 * read. */
static int read_profile(tune_job *j) {
  arena *a = arena_new();
  profile pr;
  diag d = {{0}};
  if (!a || profile_load(a, j->prof, &pr, &d)) {
    j->status = TUNE_STATUS_ERROR;
    snprintf(j->error, sizeof j->error, "profile: %.140s", a ? d.msg : "out of memory");
    arena_free(a);
    return -1;
  }
  memcpy(j->total, pr.total, sizeof j->total);
  j->kc = calloc(pr.nkernels + 1, sizeof *j->kc);
  j->kid = calloc(pr.nkernels + 1, sizeof *j->kid);
  if (!j->kc || !j->kid) {
    j->status = TUNE_STATUS_ERROR;
    snprintf(j->error, sizeof j->error, "out of memory");
  } else {
    for (size_t i = 0; i < pr.nkernels; i++) {
      memcpy(j->kc[i], pr.kernels[i].c, sizeof j->kc[i]);
      j->kid[i] = pr.kernels[i].id;
    }
    j->nk = (int)pr.nkernels;
  }
  arena_free(a);
  return j->status == TUNE_STATUS_OK ? 0 : -1;
}

static void finish(tune_pool *p, tune_job *j, int wstatus, int timed_out) {
  j->pid = 0;
  p->running--;
  j->seconds = tune_now() - j->start;
  if (timed_out) {
    j->status = TUNE_STATUS_TIMEOUT;
    snprintf(j->error, sizeof j->error, "no result after %.0f s (killed)", p->timeout);
  } else if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    char why[140];
    last_line(j->out, why, sizeof why);
    j->status = TUNE_STATUS_ERROR;
    if (WIFSIGNALED(wstatus))
      snprintf(j->error, sizeof j->error, "killed by signal %d: %.120s", WTERMSIG(wstatus), why);
    else
      snprintf(j->error, sizeof j->error, "exit %d: %.120s", WEXITSTATUS(wstatus), why);
  } else {
    j->status = TUNE_STATUS_OK;
    read_profile(j);
  }
}

/* A task of a round ended with exit code code (-1: none, why says so). */
static void finish_task(tune_pool *p, tune_job *j, int code, const char *why) {
  j->pid = 0;
  p->running--;
  j->seconds = tune_now() - j->start;
  char last[140];
  last_line(j->out, last, sizeof last);
  j->status = TUNE_STATUS_ERROR;
  if (code == 0) {
    j->status = TUNE_STATUS_OK;
    read_profile(j);
  } else if (code == 124 || (code < 0 && strstr(why, "TIMEOUT"))) {
    j->status = TUNE_STATUS_TIMEOUT;
    if (code == 124) snprintf(j->error, sizeof j->error, "no result after %.0f s (killed)", p->timeout);
    else snprintf(j->error, sizeof j->error, "%.120s (the time limit)", why);
  } else if (code < 0) {
    snprintf(j->error, sizeof j->error, "ended without a result: %.120s", why);
  } else if (code > 128 && code < 192) {
    snprintf(j->error, sizeof j->error, "killed by signal %d: %.120s", code - 128, last);
  } else {
    snprintf(j->error, sizeof j->error, "exit %d: %.120s", code, last);
  }
  if (j->status == TUNE_STATUS_OK) p->done++;
  else p->failed++;
}

/* Writes the queued jobs into their round folder and submits them. */
static int submit(tune_pool *p, diag *d) {
  int n = 0;
  char **cmds = calloc((size_t)p->queued + 1, sizeof *cmds);
  if (!cmds) return diag_set(d, "out of memory");
  char qt[2 * TUNE_PATH_MAX], qp[2 * TUNE_PATH_MAX], qi[2 * TUNE_PATH_MAX], qf[2 * TUNE_PATH_MAX], qe[64];
  int bad = tune_shell_quote(p->tessel, qt, sizeof qt) || tune_shell_quote(p->input, qi, sizeof qi) ||
            tune_shell_quote(p->engine, qe, sizeof qe);
  /* in launch order: task i of the round is the i-th measurement started */
  for (int seq_min = -1;;) {
    int best = -1;
    for (int i = 0; i < p->jobs; i++)
      if (p->slot[i].pid == -1 && !p->slot[i].out[0] && p->slot[i].seq > seq_min &&
          (best < 0 || p->slot[i].seq < p->slot[best].seq))
        best = i;
    if (best < 0) break;
    tune_job *j = &p->slot[best];
    seq_min = j->seq;
    size_t len = 5 * sizeof qt;
    cmds[n] = malloc(len);
    bad = bad || !cmds[n] || tune_shell_quote(j->pkg, qp, sizeof qp) || tune_shell_quote(j->prof, qf, sizeof qf);
    if (bad || snprintf(cmds[n], len, "%s run %s --input %s --engine %s --profile %s -q", qt, qp, qi, qe, qf) >= (int)len) {
      bad = 1;
      break;
    }
    p->round_slot[n++] = best;
    snprintf(j->out, sizeof j->out, "-"); /* taken; the real name once the round exists */
  }
  char dir[TUNE_PATH_MAX];
  snprintf(dir, sizeof dir, "%s/round-%03d", p->dir, p->rounds);
  int rc = bad ? diag_set(d, "%s: a path too long for a task's command", dir)
               : tune_round_start(&p->round, p->launch, dir, cmds, n, d);
  for (int i = 0; i < n; i++) {
    free(cmds[i]);
    tune_round_file(&p->round, i, ".out", p->slot[p->round_slot[i]].out, sizeof p->slot[0].out);
  }
  free(cmds[n]); /* a command that did not fit */
  free(cmds);
  p->rounds++;
  p->queued = 0;
  if (rc) { /* nothing runs: every task of it is a failed measurement */
    for (int i = 0; i < n; i++) {
      tune_job *j = &p->slot[p->round_slot[i]];
      j->pid = 0, j->ready = 1, j->status = TUNE_STATUS_ERROR;
      snprintf(j->error, sizeof j->error, "%.150s", d->msg);
      p->failed++;
    }
    tune_round_free(&p->round);
  }
  return rc;
}

static tune_job *wait_remote(tune_pool *p, int block) {
  /* The first wait after starts ends the round: it is submitted (or, all
   * folded, only counted, so the folders are numbered as a run's were). */
  if (p->since && !p->round.state) {
    diag d = {{0}};
    p->since = 0;
    if (!p->queued) p->rounds++;
    else if (submit(p, &d)) fprintf(stderr, "tessel tune: warning: %s\n", d.msg);
  }
  for (;;) {
    for (int i = 0; i < p->jobs; i++)
      if (p->slot[i].ready) {
        p->slot[i].ready = 0;
        p->running--;
        return &p->slot[i];
      }
    if (!p->running) return NULL;
    if (!p->round.state) { /* the round before ended: the next one goes */
      diag d = {{0}};
      if (!p->queued) return NULL;
      p->since = 0;
      if (submit(p, &d)) fprintf(stderr, "tessel tune: warning: %s\n", d.msg);
      continue;
    }
    int code = -1;
    char why[128] = "";
    int t = tune_round_next(&p->round, 0, &code, why, sizeof why);
    if (t == -1 && block) { /* nothing ended yet: the progress line, then look again */
      double now = tune_now();
      if (p->tick && now - p->last_tick >= 0.5) p->tick(p->tick_ctx), p->last_tick = now;
      struct timespec ts = {0, 50000000}; /* 50 ms */
      nanosleep(&ts, NULL);
      continue;
    }
    if (t == -2) {
      tune_round_free(&p->round);
      continue;
    }
    if (t < 0) return NULL;
    tune_job *j = &p->slot[p->round_slot[t]];
    finish_task(p, j, code, why);
    if (!p->round.left) tune_round_free(&p->round); /* the round is over: the next starts make a new one */
    return j;
  }
}

tune_job *tune_pool_wait(tune_pool *p, int block) {
  if (in_rounds(p)) return wait_remote(p, block);
  for (;;) {
    if (!p->running) return NULL;
    for (int i = 0; i < p->jobs; i++) {
      tune_job *j = &p->slot[i];
      if (!j->pid) continue;
      int st = 0;
      pid_t r = scratch_wait(j->pid, &st, WNOHANG);
      if (r == j->pid) {
        finish(p, j, st, 0);
        return j;
      }
      if (tune_now() - j->start > p->timeout) {
        scratch_stop(j->pid, SCRATCH_GRACE_MS, &st);
        finish(p, j, st, 1);
        return j;
      }
    }
    if (!block) return NULL;
    struct timespec ts = {0, 2000000}; /* 2 ms */
    nanosleep(&ts, NULL);
  }
}

void tune_pool_kill(tune_pool *p) {
  if (p->round.state) tune_round_cancel(&p->round);
  for (int i = 0; p->slot && i < p->jobs; i++)
    if (p->slot[i].pid == -1 || p->slot[i].ready) p->slot[i].pid = 0, p->slot[i].ready = 0, p->running--;
  p->queued = 0;
  for (int i = 0; p->slot && i < p->jobs; i++) {
    tune_job *j = &p->slot[i];
    if (!j->pid) continue;
    scratch_stop(j->pid, SCRATCH_GRACE_MS, NULL);
    j->pid = 0;
    p->running--;
  }
}
