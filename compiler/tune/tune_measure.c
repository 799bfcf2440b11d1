/* tune_measure: the measurement pool (tune_measure.h). */
#include "tune_measure.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int tune_pool_init(tune_pool *p) {
  p->slot = calloc((size_t)p->jobs, sizeof *p->slot);
  p->running = 0;
  return p->slot ? 0 : -1;
}

void tune_pool_free(tune_pool *p) {
  tune_pool_kill(p);
  for (int i = 0; p->slot && i < p->jobs; i++) tune_job_clear(&p->slot[i]);
  free(p->slot);
  p->slot = NULL;
}

void tune_job_clear(tune_job *j) {
  free(j->kc);
  free(j->kid);
  memset(j, 0, sizeof *j);
}

int tune_pool_start(tune_pool *p, int seq, const char *pkg, diag *d) {
  tune_job *j = NULL;
  for (int i = 0; i < p->jobs && !j; i++)
    if (!p->slot[i].pid && !p->slot[i].start) j = &p->slot[i];
  if (!j) return diag_set(d, "internal: no free measurement slot");
  memset(j, 0, sizeof *j);
  j->seq = seq;
  if (snprintf(j->pkg, sizeof j->pkg, "%s", pkg) >= (int)sizeof j->pkg ||
      snprintf(j->prof, sizeof j->prof, "%s.profile.json", pkg) >= (int)sizeof j->prof ||
      snprintf(j->out, sizeof j->out, "%s.log", pkg) >= (int)sizeof j->out)
    return diag_set(d, "%s: path too long", pkg);
  unlink(j->prof);
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

/* Reads the finished job's profile into its result fields. */
static void read_profile(tune_job *j) {
  arena *a = arena_new();
  profile pr;
  diag d = {{0}};
  if (!a || profile_load(a, j->prof, &pr, &d)) {
    j->status = TUNE_STATUS_ERROR;
    snprintf(j->error, sizeof j->error, "profile: %.140s", a ? d.msg : "out of memory");
    arena_free(a);
    return;
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

tune_job *tune_pool_wait(tune_pool *p, int block) {
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
  for (int i = 0; p->slot && i < p->jobs; i++) {
    tune_job *j = &p->slot[i];
    if (!j->pid) continue;
    scratch_stop(j->pid, SCRATCH_GRACE_MS, NULL);
    j->pid = 0;
    p->running--;
  }
}
