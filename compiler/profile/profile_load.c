/* profile_load: profile JSON -> profile structs, with every check the
 * report relies on (see profile.h). */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "in_file.h"
#include "json.h"

/* Messages: "P.json: 12:5: kernels[3].counters.MACS: expected ..." */
static int bad(diag *d, const json_value *v, const char *where, const char *what) {
  if (v) return diag_set(d, "%d:%d: %s: %s", v->line, v->col, where, what);
  return diag_set(d, "%s: %s", where, what);
}

static int get_uint(const json_value *v, const char *where, uint64_t *out, diag *d) {
  char msg[160];
  if (!v) return bad(d, NULL, where, "missing");
  if (v->kind == JSON_NUMBER) {
    if (v->is_uint) {
      *out = v->u;
      return 0;
    }
    return bad(d, v, where, signbit(v->num) ? "negative number (expected a count)"
                            : v->num >= 18446744073709551616.0 ? "number too large for 64 bits"
                                                                : "expected an integer, got a fraction or exponent");
  }
  if (v->kind == JSON_STRING) { /* writers spell values past 2^53 as decimal digits */
    uint64_t u = 0;
    if (!v->len) return bad(d, v, where, "expected a non-negative integer, got an empty string");
    for (size_t i = 0; i < v->len; i++) {
      unsigned dgt = (unsigned)(v->str[i] - '0');
      if (dgt > 9) return bad(d, v, where, "expected a non-negative integer, got a string that is not one");
      if (u > (UINT64_MAX - dgt) / 10) return bad(d, v, where, "number too large for 64 bits");
      u = u * 10 + dgt;
    }
    *out = u;
    return 0;
  }
  snprintf(msg, sizeof msg, "expected a non-negative integer, got %s", json_kind_name(v->kind));
  return bad(d, v, where, msg);
}

/* obj's member key; when it is missing, says so at obj's place (the first
 * error wins, so the getter's own "missing" that follows is dropped). */
static const json_value *member(const json_value *obj, const char *key, const char *where, diag *d) {
  const json_value *v = json_get(obj, key);
  if (!v && obj) bad(d, obj, where, "missing");
  return v;
}

static int get_str(const json_value *v, const char *where, const char **out, diag *d) {
  char msg[120];
  if (!v) return bad(d, NULL, where, "missing");
  if (v->kind != JSON_STRING) {
    snprintf(msg, sizeof msg, "expected a string, got %s", json_kind_name(v->kind));
    return bad(d, v, where, msg);
  }
  *out = v->str;
  return 0;
}

static int get_kind(const json_value *v, json_kind k, const char *where, diag *d) {
  char msg[120];
  if (!v) return bad(d, NULL, where, "missing");
  if (v->kind == k) return 0;
  snprintf(msg, sizeof msg, "expected %s %s, got %s", k == JSON_ARRAY || k == JSON_OBJECT ? "an" : "a",
           json_kind_name(k), json_kind_name(v->kind));
  return bad(d, v, where, msg);
}

/* Every counter of the generated table, by name. */
static int get_counters(const json_value *obj, const char *where, uint64_t c[TSL_NCOUNTERS], diag *d) {
  if (get_kind(obj, JSON_OBJECT, where, d)) return -1;
  char w[160];
  for (int i = 0; i < TSL_NCOUNTERS; i++) {
    const char *name = tsl_counter_name(i);
    snprintf(w, sizeof w, "%s.%s", where, name);
    if (get_uint(member(obj, name, w, d), w, &c[i], d)) return -1;
  }
  return 0;
}

static int load_kernel(arena *a, const json_value *k, size_t i, prof_kernel *out, diag *d) {
  char w[96], ww[160];
  snprintf(w, sizeof w, "kernels[%zu]", i);
  if (get_kind(k, JSON_OBJECT, w, d)) return -1;
#define FIELD(key, fn, dst) (snprintf(ww, sizeof ww, "%s.%s", w, key), fn(member(k, key, ww, d), ww, dst, d))
  if (FIELD("index", get_uint, &out->index) || FIELD("id", get_uint, &out->id) || FIELD("name", get_str, &out->name) ||
      FIELD("estimate_cycles", get_uint, &out->estimate_cycles) ||
      FIELD("compulsory_dram_bytes", get_uint, &out->compulsory_dram_bytes) ||
      FIELD("useful_macs", get_uint, &out->useful_macs))
    return -1;
  snprintf(ww, sizeof ww, "%s.counters", w);
  if (get_counters(json_get(k, "counters"), ww, out->c, d)) return -1;
  const json_value *nodes = json_get(k, "onnx_nodes");
  snprintf(ww, sizeof ww, "%s.onnx_nodes", w);
  if (get_kind(nodes, JSON_ARRAY, ww, d)) return -1;
  out->nonnx = nodes->len;
  out->onnx_nodes = arena_alloc(a, (nodes->len + 1) * sizeof *out->onnx_nodes);
  if (!out->onnx_nodes) return diag_oom(d);
  for (size_t j = 0; j < nodes->len; j++) {
    snprintf(ww, sizeof ww, "%s.onnx_nodes[%zu]", w, j);
    if (get_str(nodes->items[j], ww, &out->onnx_nodes[j], d)) return -1;
  }
  return 0;
#undef FIELD
}

static int load_fallback(const json_value *f, size_t i, prof_fallback *out, diag *d) {
  char w[96], ww[160];
  snprintf(w, sizeof w, "fallback_ops[%zu]", i);
  if (get_kind(f, JSON_OBJECT, w, d)) return -1;
#define FIELD(key, fn, dst) (snprintf(ww, sizeof ww, "%s.%s", w, key), fn(member(f, key, ww, d), ww, dst, d))
  if (FIELD("index", get_uint, &out->index) || FIELD("op", get_str, &out->op) || FIELD("name", get_str, &out->name) ||
      FIELD("core_cycles", get_uint, &out->core_cycles))
    return -1;
  return 0;
#undef FIELD
}

static int unit_of(const char *s) {
  if (!strcmp(s, "LOAD")) return PROF_UNIT_LOAD;
  if (!strcmp(s, "EXEC")) return PROF_UNIT_EXEC;
  if (!strcmp(s, "STORE")) return PROF_UNIT_STORE;
  return -1;
}

static int load_command(const json_value *c, size_t i, const profile *p, prof_command *out, diag *d) {
  char w[96], ww[160];
  const char *unit;
  uint64_t ki;
  snprintf(w, sizeof w, "commands[%zu]", i);
  if (get_kind(c, JSON_OBJECT, w, d)) return -1;
#define FIELD(key, fn, dst) (snprintf(ww, sizeof ww, "%s.%s", w, key), fn(member(c, key, ww, d), ww, dst, d))
  const json_value *kid = json_get(c, "kernel");
  int outside = kid && kid->kind == JSON_NULL; /* a command before the first MARK */
  if (FIELD("unit", get_str, &unit) || (!outside && FIELD("kernel", get_uint, &out->kernel)) ||
      FIELD("index", get_uint, &out->index) ||
      FIELD("op", get_str, &out->op) || FIELD("start", get_uint, &out->start) || FIELD("end", get_uint, &out->end))
    return -1;
  if ((out->unit = unit_of(unit)) < 0) return bad(d, json_get(c, "unit"), ww, "expected \"LOAD\", \"EXEC\" or \"STORE\"");
  if (out->end < out->start) return bad(d, c, w, "\"end\" is before \"start\"");
  out->kernel_index = -1;
  const json_value *kv = json_get(c, "kernel_index");
  if (kv) { /* optional: which kernel, by position (ids may repeat) */
    if (FIELD("kernel_index", get_uint, &ki)) return -1;
    if (ki >= p->nkernels) return bad(d, kv, ww, "no kernel has this index");
    out->kernel_index = (int64_t)ki;
  }
  return 0;
#undef FIELD
}

/* Timeline item i; prev_end: where the item before it ended. */
static int load_item(const json_value *t, size_t i, const profile *p, uint64_t prev_end, prof_item *out, diag *d) {
  char w[96], ww[160];
  const char *kind;
  snprintf(w, sizeof w, "timeline[%zu]", i);
  if (get_kind(t, JSON_OBJECT, w, d)) return -1;
#define FIELD(key, fn, dst) (snprintf(ww, sizeof ww, "%s.%s", w, key), fn(member(t, key, ww, d), ww, dst, d))
  if (FIELD("kind", get_str, &kind) || FIELD("name", get_str, &out->name) || FIELD("start", get_uint, &out->start) ||
      FIELD("end", get_uint, &out->end))
    return -1;
  if (!strcmp(kind, "kernel")) out->kind = PROF_ITEM_KERNEL;
  else if (!strcmp(kind, "fallback")) out->kind = PROF_ITEM_FALLBACK;
  else if (!strcmp(kind, "gap")) out->kind = PROF_ITEM_GAP;
  else return bad(d, json_get(t, "kind"), (snprintf(ww, sizeof ww, "%s.kind", w), ww),
                  "expected \"kernel\", \"fallback\" or \"gap\"");
  out->what = NULL;
  out->beside = 0;
  const json_value *bs = json_get(t, "beside"); /* optional, fallback ops only */
  if (bs) {
    snprintf(ww, sizeof ww, "%s.beside", w);
    if (out->kind != PROF_ITEM_FALLBACK) return bad(d, bs, ww, "only a fallback op runs beside the NPU");
    if (get_kind(bs, JSON_BOOL, ww, d)) return -1;
    out->beside = bs->boolean;
  }
  if (out->kind == PROF_ITEM_GAP) {
    if (FIELD("what", get_str, &out->what)) return -1;
  } else {
    if (FIELD("index", get_uint, &out->index)) return -1;
    if (out->index >= (out->kind == PROF_ITEM_KERNEL ? p->nkernels : p->nfallbacks))
      return bad(d, json_get(t, "index"), ww,
                 out->kind == PROF_ITEM_KERNEL ? "no kernel has this index" : "no fallback op has this index");
  }
  if (out->end < out->start) return bad(d, t, w, "\"end\" is before \"start\"");
  if (out->start < prev_end) {
    snprintf(ww, sizeof ww, "%s.start", w);
    return bad(d, json_get(t, "start"), ww, "before the end of the item before it (items are in order, not overlapping)");
  }
  return 0;
#undef FIELD
}

int profile_parse(arena *a, const char *path, const char *text, size_t len, profile *p, diag *d) {
  memset(p, 0, sizeof *p);
  p->path = path;
  json_value *root = json_parse(a, text, len, d);
  if (!root) return -1;
  if (get_kind(root, JSON_OBJECT, "the document", d)) return -1;
  const char *format;
  uint64_t version;
  if (get_str(json_get(root, "format"), "format", &format, d)) return -1;
  if (strcmp(format, "tessel-profile"))
    return diag_set(d, "%d:%d: format: \"%.60s\" is not a Tessel profile (expected \"tessel-profile\")",
                    json_get(root, "format")->line, json_get(root, "format")->col, format);
  if (get_uint(json_get(root, "version"), "version", &version, d)) return -1;
  if (version != 1)
    return diag_set(d, "%d:%d: version: %llu is not supported (this tessel reads version 1)",
                    json_get(root, "version")->line, json_get(root, "version")->col, (unsigned long long)version);
  if (get_str(json_get(root, "target"), "target", &p->target, d) ||
      get_str(json_get(root, "target_hash"), "target_hash", &p->target_hash, d) ||
      get_str(json_get(root, "engine"), "engine", &p->engine, d) ||
      get_str(json_get(root, "model"), "model", &p->model, d) ||
      get_uint(json_get(root, "clock_mhz"), "clock_mhz", &p->clock_mhz, d) ||
      get_uint(json_get(root, "dim"), "dim", &p->dim, d) || get_counters(json_get(root, "total"), "total", p->total, d))
    return -1;
  if (p->dim < 1 || p->dim > 256) return bad(d, json_get(root, "dim"), "dim", "expected an array size in 1..256");
  const json_value *ks = json_get(root, "kernels"), *fs = json_get(root, "fallback_ops");
  if (get_kind(ks, JSON_ARRAY, "kernels", d)) return -1;
  if (fs && get_kind(fs, JSON_ARRAY, "fallback_ops", d)) return -1;
  p->nkernels = ks->len;
  p->kernels = arena_alloc(a, (ks->len + 1) * sizeof *p->kernels);
  p->nfallbacks = fs ? fs->len : 0;
  p->fallbacks = arena_alloc(a, (p->nfallbacks + 1) * sizeof *p->fallbacks);
  if (!p->kernels || !p->fallbacks) return diag_oom(d);
  uint64_t at = 0;
  for (size_t i = 0; i < ks->len; i++) {
    if (load_kernel(a, ks->items[i], i, &p->kernels[i], d)) return -1;
    p->kernels[i].start = at;
    at += p->kernels[i].c[TSL_CNT_CYCLES];
    if (at < p->kernels[i].c[TSL_CNT_CYCLES]) return bad(d, ks->items[i], "kernels", "cycles overflow 64 bits");
  }
  for (size_t i = 0; i < p->nfallbacks; i++)
    if (load_fallback(fs->items[i], i, &p->fallbacks[i], d)) return -1;
  const json_value *cs = json_get(root, "commands");
  if (cs) {
    if (get_kind(cs, JSON_ARRAY, "commands", d)) return -1;
    p->ncommands = cs->len;
    p->commands = arena_alloc(a, (cs->len + 1) * sizeof *p->commands);
    if (!p->commands) return diag_oom(d);
    for (size_t i = 0; i < cs->len; i++)
      if (load_command(cs->items[i], i, p, &p->commands[i], d)) return -1;
  }
  const json_value *ts = json_get(root, "timeline");
  if (ts) {
    if (get_kind(ts, JSON_ARRAY, "timeline", d)) return -1;
    p->nitems = ts->len;
    p->items = arena_alloc(a, (ts->len + 1) * sizeof *p->items);
    if (!p->items) return diag_oom(d);
    for (size_t i = 0; i < ts->len; i++)
      if (load_item(ts->items[i], i, p, i ? p->items[i - 1].end : 0, &p->items[i], d)) return -1;
  }
  return 0;
}

int profile_load(arena *a, const char *path, profile *p, diag *d) {
  FILE *f = in_file_open_max(path, PROFILE_MAX_BYTES, "a profile", d);
  if (!f) return -1;
  size_t cap = 1 << 16, n = 0;
  char *buf = NULL;
  int rc = -1;
  for (;;) { /* the file may be a pipe: read until EOF */
    char *nb = realloc(buf, cap);
    if (!nb) {
      diag_set(d, "out of memory reading the file");
      break;
    }
    buf = nb;
    n += fread(buf + n, 1, cap - n, f);
    if (ferror(f)) {
      diag_set(d, "read error");
      break;
    }
    if (n < cap) {
      rc = 0;
      break;
    }
    if (cap >= PROFILE_MAX_BYTES) {
      diag_set(d, "larger than %d bytes", PROFILE_MAX_BYTES);
      break;
    }
    cap *= 2;
  }
  fclose(f);
  if (rc == 0) rc = profile_parse(a, path, buf, n, p, d);
  free(buf);
  if (rc) diag_prefix(d, path);
  return rc;
}
