/* tune_log: writing and reading the JSON-lines tuning log (tune_log.h). */
#include "tune_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "in_file.h"
#include "json.h"
#include "json_write.h"

enum { TUNE_LOG_VERSION = 1, TUNE_LINE_MAX = 1 << 16 };

void tune_log_write(FILE *f, const tune_record *r) {
  char when[32];
  time_t now = time(NULL);
  struct tm tmv;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
  static const char *const status[] = {"ok", "error", "timeout"};
  fprintf(f, "{\"format\": \"tessel-tune\", \"version\": %d, \"key\": ", TUNE_LOG_VERSION);
  json_write_str(f, r->key);
  fprintf(f, ", \"target\": ");
  json_write_str(f, r->target);
  if (r->residency >= 0)
    fprintf(f, ", \"sched\": {\"sram_residency\": %d}", r->residency);
  else
    fprintf(f, ", \"sched\": {\"oh_tile\": %d, \"ob_group\": %d, \"ob_chunk\": %d, \"order\": %d, \"wbuf\": %d}",
            r->sched.oh_tile, r->sched.ob_group, r->sched.ob_chunk, r->sched.order, r->sched.wbuf);
  fprintf(f, ", \"default\": %s, \"status\": \"%s\"", r->is_default ? "true" : "false", status[r->status]);
  if (r->status != TUNE_STATUS_OK) {
    fprintf(f, ", \"error\": ");
    json_write_str(f, r->error);
  }
  fprintf(f, ", \"cycles\": %llu, \"estimate\": %llu, \"estimate_busy\": [%llu, %llu, %llu, %llu], \"kernels\": %d",
          (unsigned long long)r->cycles, (unsigned long long)r->estimate, (unsigned long long)r->busy[0],
          (unsigned long long)r->busy[1], (unsigned long long)r->busy[2], (unsigned long long)r->busy[3],
          r->n_kernels);
  fprintf(f, ", \"counters\": {");
  for (int i = 0; i < TSL_NCOUNTERS; i++)
    fprintf(f, "%s\"%s\": %llu", i ? ", " : "", tsl_counter_name(i), (unsigned long long)r->counters[i]);
  fprintf(f, "}, \"engine\": ");
  json_write_str(f, r->engine);
  fprintf(f, ", \"simulator\": ");
  json_write_str(f, r->simulator);
  fprintf(f, ", \"model\": ");
  json_write_str(f, r->model);
  fprintf(f, ", \"trial\": %d, \"time\": \"%s\", \"seconds\": %.3f}\n", r->trial, when, r->seconds);
  fflush(f);
}

/* Copies a string member into dst[n]; -1 when missing, not a string or too long. */
static int get_str(const json_value *o, const char *k, char *dst, size_t n) {
  const json_value *v = json_get(o, k);
  if (!v || v->kind != JSON_STRING || v->len >= n || strlen(v->str) != v->len) return -1;
  memcpy(dst, v->str, v->len + 1);
  return 0;
}

/* An unsigned integer member (missing: -1). */
static int get_u(const json_value *o, const char *k, uint64_t max, uint64_t *out) {
  const json_value *v = json_get(o, k);
  if (!v || v->kind != JSON_NUMBER || !v->is_uint || v->u > max) return -1;
  *out = v->u;
  return 0;
}

int tune_log_parse_line(const char *line, size_t len, tune_record *r, diag *d) {
  arena *a = arena_new();
  if (!a) return diag_oom(d);
  int rc = -1;
  json_value *root = json_parse(a, line, len, d);
  if (!root) goto out;
  const json_value *fmt = json_get(root, "format");
  if (root->kind != JSON_OBJECT || !fmt || fmt->kind != JSON_STRING || strcmp(fmt->str, "tessel-tune")) {
    rc = 0; /* someone else's JSON */
    goto out;
  }
  uint64_t u = 0;
  memset(r, 0, sizeof *r);
  r->residency = -1;
  if (get_u(root, "version", 1000, &u) || u != TUNE_LOG_VERSION) {
    diag_set(d, "version is not %d", TUNE_LOG_VERSION);
    goto out;
  }
  if (get_str(root, "key", r->key, sizeof r->key) || !r->key[0]) {
    diag_set(d, "\"key\" is missing or not a string of at most %d bytes", LOWER_KEY_MAX - 1);
    goto out;
  }
  if (get_str(root, "target", r->target, sizeof r->target)) {
    diag_set(d, "\"target\" is missing");
    goto out;
  }
  const json_value *s = json_get(root, "sched");
  if (!s || s->kind != JSON_OBJECT) {
    diag_set(d, "\"sched\" is missing or not an object");
    goto out;
  }
  if (json_get(s, "sram_residency")) {
    if (get_u(s, "sram_residency", 1, &u)) {
      diag_set(d, "sched.sram_residency must be 0 or 1");
      goto out;
    }
    r->residency = (int)u;
  } else {
    /* wbuf came later: a log without it keeps the default (0). */
    static const char *const knobs[] = {"oh_tile", "ob_group", "ob_chunk", "order", "wbuf"};
    static const uint64_t max[] = {255, 7, 1 << 16, 2, 2};
    int *dst[] = {&r->sched.oh_tile, &r->sched.ob_group, &r->sched.ob_chunk, &r->sched.order, &r->sched.wbuf};
    for (int i = 0; i < 5; i++) {
      if (i == 4 && !json_get(s, knobs[i])) break;
      if (get_u(s, knobs[i], max[i], &u)) {
        diag_set(d, "sched.%s is missing or out of range [0, %llu]", knobs[i], (unsigned long long)max[i]);
        goto out;
      }
      *dst[i] = (int)u;
    }
  }
  const json_value *st = json_get(root, "status");
  if (!st || st->kind != JSON_STRING) {
    diag_set(d, "\"status\" is missing");
    goto out;
  }
  r->status = !strcmp(st->str, "ok") ? TUNE_STATUS_OK : !strcmp(st->str, "timeout") ? TUNE_STATUS_TIMEOUT
                                                                                       : TUNE_STATUS_ERROR;
  if (get_u(root, "cycles", UINT64_MAX, &r->cycles) || (r->status == TUNE_STATUS_OK && r->cycles == 0)) {
    diag_set(d, "\"cycles\" is missing or not a positive integer");
    goto out;
  }
  const json_value *df = json_get(root, "default");
  r->is_default = df && df->kind == JSON_BOOL && df->boolean;
  /* Information only: absent or malformed does not reject the record. */
  get_u(root, "estimate", UINT64_MAX, &r->estimate);
  get_str(root, "engine", r->engine, sizeof r->engine);
  get_str(root, "simulator", r->simulator, sizeof r->simulator);
  get_str(root, "model", r->model, sizeof r->model);
  if (!get_u(root, "trial", INT32_MAX, &u)) r->trial = (int)u;
  const json_value *eb = json_get(root, "estimate_busy");
  for (int i = 0; eb && eb->kind == JSON_ARRAY && i < 4 && (size_t)i < eb->len; i++)
    if (eb->items[i]->kind == JSON_NUMBER && eb->items[i]->is_uint) r->busy[i] = eb->items[i]->u;
  const json_value *c = json_get(root, "counters");
  for (int i = 0; c && i < TSL_NCOUNTERS; i++) get_u(c, tsl_counter_name(i), UINT64_MAX, &r->counters[i]);
  uint64_t nk = 0;
  if (!get_u(root, "kernels", 1 << 20, &nk)) r->n_kernels = (int)nk;
  rc = 1;
out:
  arena_free(a);
  return rc;
}

int tune_table_add(tune_table *t, const tune_record *r) {
  if (t->keep_all) {
    if (t->n_all == t->cap_all) {
      int cap = t->cap_all ? 2 * t->cap_all : 64;
      tune_record *na = realloc(t->all, sizeof *na * (size_t)cap);
      if (!na) return -1;
      t->all = na, t->cap_all = cap;
    }
    t->all[t->n_all++] = *r;
  }
  if (r->status != TUNE_STATUS_OK) {
    t->failed++;
    return 0;
  }
  for (int i = 0; i < t->n; i++)
    if (!strcmp(t->best[i].key, r->key)) {
      if (r->cycles < t->best[i].cycles) t->best[i] = *r;
      return 0;
    }
  if (t->n == t->cap) {
    int cap = t->cap ? 2 * t->cap : 16;
    tune_record *nb = realloc(t->best, sizeof *nb * (size_t)cap);
    if (!nb) return -1;
    t->best = nb, t->cap = cap;
  }
  t->best[t->n++] = *r;
  return 0;
}

enum { TUNE_WARN_MAX = 10 }; /* warnings per log; then one line saying there are more */

int tune_table_load(tune_table *t, const char *path, FILE *warn, diag *d) {
  FILE *f = in_file_open(path, d);
  if (!f) return -1;
  char *line = malloc(TUNE_LINE_MAX);
  tune_record *r = malloc(sizeof *r);
  int rc = line && r ? 0 : diag_oom(d);
  for (int ln = 1; !rc && fgets(line, TUNE_LINE_MAX, f); ln++) {
    size_t len = strlen(line);
    int whole = len > 0 && line[len - 1] == '\n';
    if (!whole && !feof(f)) { /* longer than any record: skip the rest of it */
      int ch;
      while ((ch = fgetc(f)) != EOF && ch != '\n') {}
      t->skipped++;
      if (warn && t->skipped <= TUNE_WARN_MAX)
        fprintf(warn, "tessel: warning: %s:%d: line too long for a tuning record, skipped\n", path, ln);
      continue;
    }
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
    if (!len) continue;
    diag ld = {{0}};
    int k = tune_log_parse_line(line, len, r, &ld);
    if (k == 1) {
      t->records++;
      if (tune_table_add(t, r)) rc = diag_oom(d);
      continue;
    }
    t->skipped++;
    if (warn && t->skipped == TUNE_WARN_MAX + 1)
      fprintf(warn, "tessel: warning: %s: more lines skipped (the count follows)\n", path);
    if (warn && t->skipped <= TUNE_WARN_MAX) {
      if (k == 0) fprintf(warn, "tessel: warning: %s:%d: not a tessel-tune record, skipped\n", path, ln);
      else fprintf(warn, "tessel: warning: %s:%d: corrupt tuning record (%s), skipped\n", path, ln, ld.msg);
    }
  }
  if (!rc && ferror(f)) rc = diag_set(d, "%s: read error", path);
  /* Lines but not one record: not a tuning log at all (a binary file gave a
   * warning per "line" and compiled as if untuned). */
  if (!rc && t->skipped && !t->records)
    rc = diag_set(d, "%s: not a tuning log: none of its %d lines is a tessel-tune record", path, t->skipped);
  fclose(f);
  free(line);
  free(r);
  return rc;
}

const tune_record *tune_table_find(const tune_table *t, const char *key) {
  for (int i = 0; t && i < t->n; i++)
    if (!strcmp(t->best[i].key, key)) return &t->best[i];
  return NULL;
}

void tune_table_free(tune_table *t) {
  free(t->best);
  free(t->all);
  memset(t, 0, sizeof *t);
}

int tune_table_sched(void *ctx, const char *key, lower_sched *s) {
  const tune_record *r = tune_table_find(ctx, key);
  if (!r || r->residency >= 0) return 0;
  *s = r->sched;
  return 1;
}
