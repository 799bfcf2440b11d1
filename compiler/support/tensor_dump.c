/* tensor_dump: see tensor_dump.h. */
#include "tensor_dump.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tensor_dump_dir(const char *dir, diag *d) {
  char p[4096];
  if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return diag_set(d, "%s: path too long", dir);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(p, 0777) && errno != EEXIST) return diag_set(d, "%s: %s", p, strerror(errno));
    *s = '/';
  }
  if (mkdir(p, 0777) && errno != EEXIST) return diag_set(d, "%s: %s", p, strerror(errno));
  struct stat st;
  if (stat(p, &st) || !S_ISDIR(st.st_mode)) return diag_set(d, "%s: not a folder", p);
  return 0;
}

void tensor_dump_path(char *buf, size_t n, const char *dir, const char *name, const char *suffix) {
  size_t k = (size_t)snprintf(buf, n, "%s/", dir);
  for (const char *c = name; *c && k + 1 < n; c++) {
    int keep = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
               *c == '_' || *c == '-';
    buf[k++] = keep ? *c : '_';
  }
  if (k < n) snprintf(buf + k, n - k, "%s.npy", suffix);
}

int tensor_dump_array(const char *dir, const char *name, const char *suffix, const npy_array *a, diag *d) {
  char path[4096], err[512];
  tensor_dump_path(path, sizeof path, dir, name, suffix);
  return npy_write(path, a, err, sizeof err) ? diag_set(d, "%s", err) : 0;
}

static npy_array array_of(const ir_value *v, npy_dtype t, void *data) {
  npy_array a = {.dtype = t, .ndim = v->rank, .data = data};
  for (int i = 0; i < v->rank; i++) a.shape[i] = v->dims[i];
  a.nbytes = npy_dtype_size(t) * (size_t)ir_value_numel(v);
  return a;
}

int tensor_dump_value(const char *dir, const ir_value *v, const void *data, diag *d) {
  npy_array a = array_of(v, (npy_dtype)v->dtype, (void *)data);
  if (tensor_dump_array(dir, v->name, "", &a, d)) return -1;
  size_t len = strlen(v->name);
  const ir_quant *q = &v->quant;
  if (q->kind == IR_QUANT_NONE || len < 3 || strcmp(v->name + len - 2, ".q")) return 0;
  int64_t n = ir_value_numel(v);
  float *f = malloc((size_t)n * sizeof *f + 1);
  if (!f) return diag_set(d, "out of memory");
  /* The channel of element i for per-channel parameters (axis ax). */
  int64_t inner = 1, ch = q->kind == IR_QUANT_CHANNEL ? v->dims[q->axis] : 1;
  for (int i = q->kind == IR_QUANT_CHANNEL ? q->axis + 1 : v->rank; i < v->rank; i++) inner *= v->dims[i];
  for (int64_t i = 0; i < n; i++) {
    int64_t c = q->n > 1 ? (i / inner) % ch : 0;
    f[i] = (float)((double)(ir_elem_i64(v->dtype, data, i) - q->zero_point[c]) * q->scale[c]);
  }
  /* A float value of the same name, if the graph has one, wins: written
   * whenever it comes, and not overwritten here. */
  char base[1024], path[4096];
  snprintf(base, sizeof base, "%.*s", (int)(len - 2), v->name);
  tensor_dump_path(path, sizeof path, dir, base, "");
  npy_array fa = array_of(v, NPY_F32, f);
  int rc = access(path, F_OK) == 0 ? 0 : tensor_dump_array(dir, base, "", &fa, d);
  free(f);
  return rc;
}
