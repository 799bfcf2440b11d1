/* run_chunks: a batch run in chunks on a launcher (run_chunks.h). */
#include "run_chunks.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { CMD_MAX = 16384 };

static void chunk_file(char *buf, size_t n, const char *dir, int64_t c, const char *kind, int k) {
  if (snprintf(buf, n, "%s/chunk-%05lld.%s%d.npy", dir, (long long)c, kind, k) >= (int)n && n) buf[0] = 0;
}

/* Appends ' ' and s quoted to cmd (at *k); -1 when it does not fit. */
static int add_arg(char *cmd, size_t *k, const char *s) {
  char q[2 * PATH_MAX];
  if (tune_shell_quote(s, q, sizeof q)) return -1;
  int w = snprintf(cmd + *k, CMD_MAX - *k, "%s%s", *k ? " " : "", q);
  if (w < 0 || (size_t)w >= CMD_MAX - *k) return -1;
  *k += (size_t)w;
  return 0;
}

/* Chunk c's inputs written, its command built into cmd. */
static int write_chunk(const run_chunks_job *c, const char *dir, const char *tessel, const char *pkg, int64_t ch,
                       char *cmd, diag *d) {
  int64_t r0 = ch * c->chunk, rows = c->runs - r0 < c->chunk ? c->runs - r0 : c->chunk;
  size_t k = 0;
  char path[PATH_MAX], spec[PATH_MAX + 256];
  int bad = add_arg(cmd, &k, tessel) || add_arg(cmd, &k, "run") || add_arg(cmd, &k, pkg);
  for (int i = 0; !bad && i < c->n_in; i++) {
    const npy_array *a = c->in[i];
    size_t per = a->nbytes / (size_t)c->runs;
    npy_array s = *a;
    s.shape[0] = a->shape[0] / c->runs * rows; /* [runs, ...] or [runs * 1, ...]: rows either way */
    s.data = (uint8_t *)a->data + per * (size_t)r0;
    s.nbytes = per * (size_t)rows;
    char err[512];
    chunk_file(path, sizeof path, dir, ch, "in", i);
    if (npy_write(path, &s, err, sizeof err)) return diag_set(d, "%s", err);
    snprintf(spec, sizeof spec, "%s=%s", c->in_name[i], path);
    bad = add_arg(cmd, &k, "--input") || add_arg(cmd, &k, spec);
  }
  for (int o = 0; !bad && o < c->n_out; o++) {
    if (!c->out_file[o]) continue;
    chunk_file(path, sizeof path, dir, ch, "out", o);
    unlink(path);
    snprintf(spec, sizeof spec, "%s=%s", c->out_name[o], path);
    bad = add_arg(cmd, &k, "--output") || add_arg(cmd, &k, spec);
  }
  bad = bad || add_arg(cmd, &k, "--engine") || add_arg(cmd, &k, c->engine) || add_arg(cmd, &k, "-q");
  for (int p = 0; !bad && p < c->n_pass; p++) bad = add_arg(cmd, &k, c->pass[p]);
  if (bad) return diag_set(d, "chunk %lld: the command line is too long", (long long)ch);
  return 0;
}

/* Output o: the chunks' files concatenated along dimension 0. */
static int merge(const run_chunks_job *c, const char *dir, int64_t nch, int o, diag *d) {
  npy_array all = {0};
  size_t cap = 0;
  char path[PATH_MAX], err[512];
  int rc = 0;
  for (int64_t ch = 0; ch < nch && !rc; ch++) {
    npy_array a;
    chunk_file(path, sizeof path, dir, ch, "out", o);
    if (npy_read(path, &a, err, sizeof err)) {
      rc = diag_set(d, "chunk %lld: %s", (long long)ch, err);
      break;
    }
    int same = ch == 0 || (a.dtype == all.dtype && a.ndim == all.ndim && a.ndim >= 1);
    for (int i = 1; same && ch && i < a.ndim; i++) same = a.shape[i] == all.shape[i];
    if (!same || a.ndim < 1) rc = diag_set(d, "%s: not the shape of the other chunks' '%s'", path, c->out_name[o]);
    if (!rc && all.nbytes + a.nbytes + 1 > cap) {
      size_t ncap = 2 * (all.nbytes + a.nbytes) + 1;
      void *nd = realloc(all.data, ncap);
      if (!nd) rc = diag_set(d, "out of memory");
      else all.data = nd, cap = ncap;
    }
    if (!rc) {
      if (ch == 0) {
        void *keep = all.data;
        all = a, all.data = keep, all.nbytes = 0, all.shape[0] = 0;
      }
      memcpy((uint8_t *)all.data + all.nbytes, a.data, a.nbytes);
      all.nbytes += a.nbytes, all.shape[0] += a.shape[0];
    }
    npy_free(&a);
  }
  if (!rc && npy_write(c->out_file[o], &all, err, sizeof err)) rc = diag_set(d, "%s", err);
  free(all.data);
  return rc;
}

int run_chunks(const run_chunks_job *c, diag *d) {
  char dir[PATH_MAX], tessel[PATH_MAX], pkg[PATH_MAX];
  struct stat st;
  if (stat(c->workdir, &st) != 0 && mkdir(c->workdir, 0777) != 0)
    return diag_set(d, "--workdir %s: cannot create: %s", c->workdir, strerror(errno));
  if (!realpath(c->workdir, dir) || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return diag_set(d, "--workdir %s: not a folder", c->workdir);
  if (!realpath(c->pkg, pkg)) return diag_set(d, "%s: %s", c->pkg, strerror(errno));
  ssize_t n = readlink("/proc/self/exe", tessel, sizeof tessel - 1);
  if (n <= 0) return diag_set(d, "cannot find the tessel binary (/proc/self/exe)");
  tessel[n] = 0;
  int64_t nch = (c->runs + c->chunk - 1) / c->chunk;
  if (nch > 100000) return diag_set(d, "%lld chunks: at most 100000 (a larger --chunk)", (long long)nch);
  char **cmds = calloc((size_t)nch, sizeof *cmds);
  int rc = cmds ? 0 : diag_set(d, "out of memory");
  for (int64_t ch = 0; !rc && ch < nch; ch++) {
    if (!(cmds[ch] = malloc(CMD_MAX))) rc = diag_set(d, "out of memory");
    else rc = write_chunk(c, dir, tessel, pkg, ch, cmds[ch], d);
  }
  tune_round r = {0};
  if (!rc) rc = tune_round_start(&r, c->launch, dir, cmds, (int)nch, d);
  for (int64_t ch = 0; cmds && ch < nch; ch++) free(cmds[ch]);
  free(cmds);
  /* Every chunk's end is waited for (a failure is reported once all ended). */
  int failed = -1, code = 0, fcode = 0;
  char why[128], fwhy[128] = "";
  for (int t; !rc && (t = tune_round_next(&r, !c->progress, &code, why, sizeof why)) != -2;) {
    if (t >= 0 && code != 0 && (failed < 0 || t < failed)) failed = t, fcode = code, snprintf(fwhy, sizeof fwhy, "%s", why);
    if (t < 0) { /* only with the progress line: redrawn about every 0.2 s */
      struct timespec ts = {0, 200000000};
      nanosleep(&ts, NULL);
    }
    if (c->progress) {
      int k[4];
      tune_round_counts(&r, k);
      fprintf(stderr, "\r\033[Ktessel run: %lld chunks on %s: %d queued, %d running, %d done, %d failed", (long long)nch,
              tune_launch_name(c->launch->kind), k[TUNE_TASK_QUEUED], k[TUNE_TASK_RUNNING], k[TUNE_TASK_DONE],
              k[TUNE_TASK_FAILED]);
      fflush(stderr);
    }
  }
  if (c->progress) fprintf(stderr, "\r\033[K");
  if (!rc && failed >= 0) {
    char out[PATH_MAX], line[512], last[200] = "";
    tune_round_file(&r, failed, ".out", out, sizeof out);
    FILE *f = fopen(out, "r");
    while (f && fgets(line, sizeof line, f))
      if (line[strspn(line, " \t\r\n")]) snprintf(last, sizeof last, "%.*s", (int)strcspn(line, "\r\n"), line);
    if (f) fclose(f);
    if (fcode >= 0) rc = diag_set(d, "chunk %d of %lld failed (exit %d: %s; its output: %s)", failed, (long long)nch, fcode, last, out);
    else rc = diag_set(d, "chunk %d of %lld failed (%s; its output: %s)", failed, (long long)nch, fwhy, out);
  }
  if (rc && r.state) tune_round_cancel(&r);
  else tune_round_free(&r);
  for (int o = 0; !rc && o < c->n_out; o++)
    if (c->out_file[o]) rc = merge(c, dir, nch, o, d);
  if (!rc && !c->quiet)
    fprintf(stderr, "tessel run: %lld inference%s of %s on %s in %lld chunk%s (%s, %s): outputs merged in order\n",
            (long long)c->runs, c->runs == 1 ? "" : "s", c->pkg, c->engine, (long long)nch, nch == 1 ? "" : "s",
            tune_launch_name(c->launch->kind), dir);
  return rc;
}
