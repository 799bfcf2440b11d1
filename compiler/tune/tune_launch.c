/* tune_launch: rounds of tasks on GNU parallel or Slurm (tune_launch.h). */
#include "tune_launch.h"

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

#include "scratch.h"
#include "tune_measure.h"

/* A task that left the queue gets this long for its .rc to show (a shared
 * file system's attribute cache) before it counts as lost. */
static const double GONE_GRACE_S = 2.0;
static const double QUEUE_POLL_S = 1.0;

static const char *const launcher_names[] = {"local", "parallel", "slurm"};

const char *tune_launch_name(int kind) { return launcher_names[kind]; }

int tune_launch_opt(tune_launcher *l, int k, const char *v, diag *d) {
  switch (k) {
  case 0:
    for (int i = 0; i < 3; i++)
      if (!strcmp(v, launcher_names[i])) return l->kind = i, 0;
    return diag_set(d, "--launcher '%s': expected local, parallel or slurm", v);
  case 1:
    if (!*v) return diag_set(d, "--sshlogin needs a list of logins (parallel's -S syntax, ':' is this host)");
    l->sshlogin = v;
    return 0;
  case 2:
    if (!*v) return diag_set(d, "--partition needs a partition name");
    l->partition = v;
    return 0;
  case 3:
    if (!*v) return diag_set(d, "--time-limit needs a Slurm time (MINUTES, or D-HH:MM:SS)");
    l->time_limit = v;
    return 0;
  default:
    if (l->n_sbatch_opt == TUNE_LAUNCH_MAX_SBATCH) return diag_set(d, "more than %d --sbatch-opt", TUNE_LAUNCH_MAX_SBATCH);
    if (v[0] != '-') return diag_set(d, "--sbatch-opt '%s': expected an sbatch option (--account=A, --qos=Q, ...)", v);
    l->sbatch_opt[l->n_sbatch_opt++] = v;
    return 0;
  }
}

/* name's path on PATH into buf; -1 when it is not there. */
static int find_on_path(const char *name, char *buf, size_t n) {
  const char *path = getenv("PATH");
  if (!path || !*path) path = "/usr/bin:/bin";
  for (const char *p = path; *p;) {
    size_t len = strcspn(p, ":");
    if (len && (size_t)snprintf(buf, n, "%.*s/%s", (int)len, p, name) < n && access(buf, X_OK) == 0) return 0;
    p += len + (p[len] == ':');
  }
  return -1;
}

int tune_launch_check(tune_launcher *l, const char *workdir, diag *d) {
  const char *name = tune_launch_name(l->kind);
  if (l->sshlogin && l->kind != TUNE_LAUNCH_PARALLEL) return diag_set(d, "--sshlogin is for --launcher parallel");
  const char *slurm_only = l->partition ? "--partition" : l->time_limit ? "--time-limit" : l->n_sbatch_opt ? "--sbatch-opt" : NULL;
  if (slurm_only && l->kind != TUNE_LAUNCH_SLURM) return diag_set(d, "%s is for --launcher slurm", slurm_only);
  if (l->kind == TUNE_LAUNCH_LOCAL) return 0;
  if (!workdir)
    return diag_set(d, "--launcher %s needs --workdir DIR, a folder every node sees at the same path (it is kept)", name);
  const char *tool = l->kind == TUNE_LAUNCH_SLURM ? "sbatch" : "parallel";
  if (find_on_path(tool, l->tool, sizeof l->tool))
    return diag_set(d, "--launcher %s: no '%s' on PATH (install %s, or use --launcher local)", name, tool,
                    l->kind == TUNE_LAUNCH_SLURM ? "Slurm's client commands" : "GNU parallel");
  return 0;
}

int tune_shell_quote(const char *s, char *buf, size_t n) {
  size_t k = 0;
  if (n < 3) return -1;
  buf[k++] = '\'';
  for (; *s; s++) {
    const char *piece = *s == '\'' ? "'\\''" : NULL;
    size_t len = piece ? 4 : 1;
    if (k + len + 2 > n) return -1;
    if (piece) memcpy(buf + k, piece, 4);
    else buf[k] = *s;
    k += len;
  }
  buf[k++] = '\'';
  buf[k] = 0;
  return 0;
}

void tune_round_file(const tune_round *r, int i, const char *suffix, char *buf, size_t n) {
  if (snprintf(buf, n, "%s/t%05d%s", r->dir, i, suffix) >= (int)n && n) buf[0] = 0;
}

static int write_file(const char *path, const char *text, int mode, diag *d) {
  FILE *f = fopen(path, "w");
  if (!f) return diag_set(d, "%s: %s", path, strerror(errno));
  int bad = fputs(text, f) < 0;
  bad |= fclose(f) != 0;
  if (bad) return diag_set(d, "%s: write failed", path);
  if (mode && chmod(path, (mode_t)mode) != 0) return diag_set(d, "%s: %s", path, strerror(errno));
  return 0;
}

/* task.sh: one task of the round, by index (its argument, or Slurm's array
 * index).  The status is renamed into place so a reader never sees half. */
static int write_task_script(const tune_round *r, diag *d) {
  char path[TUNE_LAUNCH_PATH + 16], text[4 * TUNE_LAUNCH_PATH], qdir[2 * TUNE_LAUNCH_PATH], tmo[64] = "";
  if (tune_shell_quote(r->dir, qdir, sizeof qdir)) return diag_set(d, "%s: path too long", r->dir);
  if (r->l->timeout > 0) snprintf(tmo, sizeof tmo, "timeout -k 5 %.3f ", r->l->timeout);
  snprintf(path, sizeof path, "%s/task.sh", r->dir);
  snprintf(text, sizeof text,
           "#!/bin/sh\n"
           "# One task of this round (tessel, docs/tuning.md): line I+1 of tasks.txt, where I is\n"
           "# the argument or SLURM_ARRAY_TASK_ID. Leaves tNNNNN.started, .out and .rc here.\n"
           "cd %s || exit 1\n"
           "i=${1:-$SLURM_ARRAY_TASK_ID}\n"
           "t=$(printf 't%%05d' \"$i\")\n"
           ": > \"$t.started\"\n"
           "cmd=$(sed -n \"$((i + 1))p\" tasks.txt)\n"
           "%ssh -c \"$cmd\" > \"$t.out\" 2>&1\n"
           "echo $? > \"$t.rc.tmp\" && mv -f \"$t.rc.tmp\" \"$t.rc\"\n",
           qdir, tmo);
  return write_file(path, text, 0755, d);
}

/* Submits the array; the job id into r->jobid. */
static int submit_slurm(tune_round *r, diag *d) {
  char cmd[8192], q[2 * TUNE_LAUNCH_PATH];
  size_t k = 0;
  tune_shell_quote(r->l->tool, q, sizeof q);
  k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s --parsable --array=0-%d --job-name=tessel", q, r->n - 1);
  tune_shell_quote(r->dir, q, sizeof q);
  k += (size_t)snprintf(cmd + k, sizeof cmd - k, " --chdir=%s --output=%s/slurm-%%a.out", q, q);
  if (r->l->partition && k < sizeof cmd && !tune_shell_quote(r->l->partition, q, sizeof q))
    k += (size_t)snprintf(cmd + k, sizeof cmd - k, " --partition=%s", q);
  if (r->l->time_limit && k < sizeof cmd && !tune_shell_quote(r->l->time_limit, q, sizeof q))
    k += (size_t)snprintf(cmd + k, sizeof cmd - k, " --time=%s", q);
  for (int i = 0; i < r->l->n_sbatch_opt && k < sizeof cmd; i++)
    if (!tune_shell_quote(r->l->sbatch_opt[i], q, sizeof q)) k += (size_t)snprintf(cmd + k, sizeof cmd - k, " %s", q);
  tune_shell_quote(r->dir, q, sizeof q);
  if (k < sizeof cmd) k += (size_t)snprintf(cmd + k, sizeof cmd - k, " %s/task.sh 2>&1", q);
  if (k >= sizeof cmd) return diag_set(d, "sbatch: command line too long");
  FILE *p = popen(cmd, "r");
  if (!p) return diag_set(d, "cannot start sbatch: %s", strerror(errno));
  char out[512] = "", line[256];
  while (fgets(line, sizeof line, p))
    if (strlen(out) + strlen(line) < sizeof out) strcat(out, line);
  int st = pclose(p);
  if (st != 0 || !out[0] || out[0] < '0' || out[0] > '9') {
    out[strcspn(out, "\n")] = 0;
    return diag_set(d, "sbatch refused the array: %s", out[0] ? out : "no job id");
  }
  out[strcspn(out, ";\n")] = 0;
  snprintf(r->jobid, sizeof r->jobid, "%s", out);
  return 0;
}

static int start_parallel(tune_round *r, diag *d) {
  char args[TUNE_LAUNCH_PATH + 16], script[TUNE_LAUNCH_PATH + 16], log[TUNE_LAUNCH_PATH + 16], jobs[16];
  snprintf(args, sizeof args, "%s/args.txt", r->dir);
  snprintf(script, sizeof script, "%s/task.sh", r->dir);
  snprintf(log, sizeof log, "%s/parallel.log", r->dir);
  FILE *f = fopen(args, "w");
  if (!f) return diag_set(d, "%s: %s", args, strerror(errno));
  for (int i = 0; i < r->n; i++) fprintf(f, "%d\n", i);
  if (fclose(f) != 0) return diag_set(d, "%s: write failed", args);
  char *argv[16];
  int a = 0;
  argv[a++] = (char *)r->l->tool, argv[a++] = "--will-cite", argv[a++] = "--no-notice";
  if (r->l->jobs > 0) snprintf(jobs, sizeof jobs, "%d", r->l->jobs), argv[a++] = "--jobs", argv[a++] = jobs;
  if (r->l->sshlogin) argv[a++] = "--sshlogin", argv[a++] = (char *)r->l->sshlogin;
  argv[a++] = "--arg-file", argv[a++] = args, argv[a++] = script, argv[a] = NULL;
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return diag_set(d, "%s: %s", log, strerror(errno));
  pid_t pid = scratch_spawn(argv, fd, fd, d);
  close(fd);
  if (pid < 0) return -1;
  r->child = pid;
  return 0;
}

int tune_round_start(tune_round *r, const tune_launcher *l, const char *dir, char *const *cmds, int n, diag *d) {
  memset(r, 0, sizeof *r);
  r->l = l, r->n = n, r->left = n;
  if (snprintf(r->dir, sizeof r->dir, "%s", dir) >= (int)sizeof r->dir) return diag_set(d, "%s: path too long", dir);
  r->state = calloc((size_t)n + 1, 1), r->told = calloc((size_t)n + 1, 1), r->gone = calloc((size_t)n + 1, sizeof *r->gone);
  if (!r->state || !r->told || !r->gone) return diag_set(d, "out of memory");
  char path[TUNE_LAUNCH_PATH + 16];
  snprintf(path, sizeof path, "%s/tasks.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f) return diag_set(d, "%s: %s", path, strerror(errno));
  for (int i = 0; i < n; i++) {
    fprintf(f, "%s\n", cmds[i]);
    const char *sfx[] = {".rc", ".rc.tmp", ".started", ".out"};
    for (int s = 0; s < 4; s++) tune_round_file(r, i, sfx[s], path, sizeof path), unlink(path);
  }
  snprintf(path, sizeof path, "%s/tasks.txt", dir);
  if (fclose(f) != 0) return diag_set(d, "%s: write failed", path);
  if (write_task_script(r, d)) return -1;
  return l->kind == TUNE_LAUNCH_SLURM ? submit_slurm(r, d) : start_parallel(r, d);
}

/* Slurm: which tasks are still queued or running (in_queue[i] = 1). 0, or
 * -1 when squeue did not answer (nothing is then known to be lost). */
static int slurm_queue(tune_round *r, unsigned char *in_queue) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "squeue -h -r -j %s -o '%%K %%t' 2>&1", r->jobid);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  char line[256];
  int purged = 0; /* the whole array ended long ago (MinJobAge): none of it is queued */
  while (fgets(line, sizeof line, p)) {
    int k;
    char st[16];
    if (strstr(line, "Invalid job id")) purged = 1;
    if (sscanf(line, "%d %15s", &k, st) == 2 && k >= 0 && k < r->n) {
      in_queue[k] = 1;
      if (!strcmp(st, "R") && r->state[k] == TUNE_TASK_QUEUED) r->state[k] = TUNE_TASK_RUNNING;
    }
  }
  return pclose(p) == 0 || purged ? 0 : -1;
}

/* Slurm's word for a task that ended without a status (CANCELLED, TIMEOUT,
 * NODE_FAIL, ...), or "gone". */
static void slurm_state(const tune_round *r, int i, char *buf, size_t n) {
  char cmd[160], line[4096];
  snprintf(buf, n, "gone from the queue");
  snprintf(cmd, sizeof cmd, "scontrol -o show job %s_%d 2>/dev/null", r->jobid, i);
  FILE *p = popen(cmd, "r");
  if (!p) return;
  while (fgets(line, sizeof line, p)) {
    const char *s = strstr(line, "JobState=");
    if (s) snprintf(buf, n, "Slurm: %.*s", (int)strcspn(s + 9, " \n"), s + 9);
  }
  pclose(p);
}

static int read_rc(const char *path) {
  FILE *f = fopen(path, "r");
  int rc = -1;
  if (f) {
    if (fscanf(f, "%d", &rc) != 1) rc = -1;
    fclose(f);
  }
  return rc;
}

int tune_round_next(tune_round *r, int block, int *exit_code, char *why, size_t n_why) {
  unsigned char *in_queue = calloc((size_t)r->n + 1, 1);
  if (!in_queue) return -2;
  int found = -1;
  while (r->left > 0 && found < 0) {
    if (r->child && scratch_wait(r->child, &r->child_status, WNOHANG) == r->child) r->child = 0;
    /* Whether the launcher still holds a task: parallel while it runs;
     * Slurm's queue, asked once a second. */
    int queue_known = 0;
    double now = tune_now();
    if (r->l->kind == TUNE_LAUNCH_SLURM && now - r->last_queue >= QUEUE_POLL_S) {
      memset(in_queue, 0, (size_t)r->n);
      queue_known = slurm_queue(r, in_queue) == 0;
      r->last_queue = now;
    } else if (r->l->kind == TUNE_LAUNCH_PARALLEL) {
      queue_known = 1;
      memset(in_queue, !!r->child, (size_t)r->n);
    }
    for (int i = 0; i < r->n && found < 0; i++) {
      if (r->told[i]) continue;
      char path[TUNE_LAUNCH_PATH + 16];
      tune_round_file(r, i, ".rc", path, sizeof path);
      int rc = read_rc(path);
      if (rc >= 0) {
        r->state[i] = rc == 0 ? TUNE_TASK_DONE : TUNE_TASK_FAILED;
        *exit_code = rc;
        snprintf(why, n_why, "exit %d", rc);
        /* killed by a signal: Slurm's scancel or time limit, when it says so
         * (asked once the task has left the queue) */
        if (rc > 128 && r->l->kind == TUNE_LAUNCH_SLURM && !(queue_known && !in_queue[i])) continue;
        if (rc > 128 && r->l->kind == TUNE_LAUNCH_SLURM) {
          char st[96];
          slurm_state(r, i, st, sizeof st);
          if (strstr(st, "CANCELLED") || strstr(st, "TIMEOUT") || strstr(st, "PREEMPTED") || strstr(st, "FAIL"))
            *exit_code = -1, snprintf(why, n_why, "%s", st);
        }
        found = i;
        break;
      }
      tune_round_file(r, i, ".started", path, sizeof path);
      if (r->state[i] == TUNE_TASK_QUEUED && access(path, F_OK) == 0) r->state[i] = TUNE_TASK_RUNNING;
      if (!queue_known) continue;
      if (in_queue[i]) {
        r->gone[i] = 0;
      } else if (!r->gone[i]) {
        r->gone[i] = now;
      } else if (now - r->gone[i] > GONE_GRACE_S) {
        r->state[i] = TUNE_TASK_FAILED;
        *exit_code = -1;
        if (r->l->kind == TUNE_LAUNCH_SLURM) slurm_state(r, i, why, n_why);
        else snprintf(why, n_why, "parallel ended without its status");
        found = i;
      }
    }
    if (found >= 0 || !block) break;
    struct timespec ts = {0, 50000000}; /* 50 ms */
    nanosleep(&ts, NULL);
  }
  free(in_queue);
  if (found < 0) return r->left > 0 ? -1 : -2;
  r->told[found] = 1;
  r->left--;
  return found;
}

void tune_round_counts(const tune_round *r, int count[4]) {
  for (int s = 0; s < 4; s++) count[s] = 0;
  for (int i = 0; r->state && i < r->n; i++) count[r->state[i]]++;
}

void tune_round_cancel(tune_round *r) {
  if (r->child) scratch_stop(r->child, SCRATCH_GRACE_MS, NULL), r->child = 0;
  if (r->jobid[0] && r->left > 0) {
    char cmd[96];
    snprintf(cmd, sizeof cmd, "scancel %s >/dev/null 2>&1", r->jobid);
    if (system(cmd) != 0) fprintf(stderr, "tessel: warning: scancel %s failed: cancel the job by hand\n", r->jobid);
  }
  tune_round_free(r);
}

void tune_round_free(tune_round *r) {
  /* parallel exits just after its last task: give it a few seconds */
  for (int i = 0; r->child && i < 100; i++) {
    if (scratch_wait(r->child, &r->child_status, WNOHANG) == r->child) r->child = 0;
    struct timespec ts = {0, 50000000};
    if (r->child) nanosleep(&ts, NULL);
  }
  if (r->child) scratch_stop(r->child, SCRATCH_GRACE_MS, NULL), r->child = 0;
  free(r->state), free(r->told), free(r->gone);
  r->state = r->told = NULL, r->gone = NULL;
  r->left = 0;
}
