/* input_samples: .npy data as samples of a graph input (input_samples.h). */
#include "input_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *input_shape_text(const int64_t *dims, int n, char *buf, size_t size) {
  size_t at = (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < n && at < size; i++) {
    if (dims[i] < 0) at += (size_t)snprintf(buf + at, size - at, "%s?", i ? "," : "");
    else at += (size_t)snprintf(buf + at, size - at, "%s%lld", i ? "," : "", (long long)dims[i]);
  }
  if (at < size) snprintf(buf + at, size - at, "]");
  return buf;
}

int input_dtype_check(const ir_value *in, const npy_array *x, const char *path, diag *d) {
  if ((ir_dtype)x->dtype == in->dtype) return 0;
  /* numpy's float64 is the default dtype of np.array/np.random: say how to
   * convert when the model wants float32 */
  return diag_set(d, "%s: holds %s, input '%s' is %s%s", path, npy_dtype_name(x->dtype), in->name,
                  ir_dtype_name(in->dtype),
                  in->dtype == IR_F32 ? " (save it as float32: x.astype(numpy.float32))" : "");
}

int64_t input_samples(const ir_value *in, const npy_array *x, const char *path, diag *d) {
  if (input_dtype_check(in, x, path, d)) return -1;
  /* a scalar input: one sample, or several as a vector */
  if (in->rank == 0 && x->ndim <= 1) return x->ndim ? x->shape[0] : 1;
  int same = x->ndim == in->rank && in->rank >= 1;
  for (int i = 1; same && i < in->rank; i++) same = x->shape[i] == in->dims[i];
  if (same && in->dims[0] >= 1 && x->shape[0] > 0 && x->shape[0] % in->dims[0] == 0)
    return x->shape[0] / in->dims[0];
  char has[160], want[160], stack[160];
  int rank = in->rank < IR_MAX_RANK ? in->rank : IR_MAX_RANK;
  int64_t sd[IR_MAX_RANK];
  for (int i = 0; i < rank; i++) sd[i] = i ? in->dims[i] : -1;
  input_shape_text(sd, rank, stack, sizeof stack);
  if (stack[1] == '?') stack[1] = 'N';
  diag_set(d, "%s: shape %s does not match input '%s' %s (samples stack along dimension 0: %s)", path,
           input_shape_text(x->shape, x->ndim, has, sizeof has), in->name,
           input_shape_text(in->dims, in->rank, want, sizeof want), stack);
  return -1;
}

const char *input_names_text(const ir_graph *g, char *buf, size_t size) {
  size_t at = 0;
  buf[0] = 0;
  for (int i = 0; i < g->n_inputs && at < size; i++)
    at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? ", " : "", g->inputs[i]->name);
  return buf;
}

int input_spec_find(const ir_graph *g, const char *opt, const char *spec, const char **file, diag *d) {
  const char *eq = strchr(spec, '=');
  *file = eq ? eq + 1 : spec;
  if (!eq) return -2;
  size_t n = (size_t)(eq - spec);
  for (int i = 0; i < g->n_inputs; i++)
    if (strlen(g->inputs[i]->name) == n && !strncmp(g->inputs[i]->name, spec, n)) return i;
  char names[400];
  diag_set(d, "%s %s: the model has no graph input '%.*s' (its inputs: %s)", opt, spec, (int)n, spec,
           input_names_text(g, names, sizeof names));
  return -1;
}

void input_sample_set_free(input_sample_set *set) {
  for (int k = 0; set->files && k < set->n_files; k++) npy_free(&set->files[k]);
  free(set->files);
  free(set->samples);
  *set = (input_sample_set){0};
}

/* Samples of graph input k from the specs naming it: counts in *count, the
 * specs' files read into set->files. */
static int load_files(const ir_graph *g, const char *const *specs, int n_specs, input_sample_set *set, int64_t *count,
                      diag *d) {
  for (int s = 0; s < n_specs; s++) {
    const char *file;
    int k = input_spec_find(g, "--calib", specs[s], &file, d);
    if (k == -1) return -1;
    if (k == -2 && g->n_inputs != 1) {
      char names[400];
      return diag_set(d, "--calib %s: the model has %d graph inputs (%s): give --calib NAME=FILE.npy for each", specs[s],
                      g->n_inputs, input_names_text(g, names, sizeof names));
    }
    if (k == -2) k = 0;
    const ir_value *in = g->inputs[k];
    int64_t per = ir_value_numel(in);
    if (per == 0) return diag_set(d, "--calib: input '%s' has no elements (a dimension is 0)", in->name);
    if (per < 0) return diag_set(d, "--calib: the shape of input '%s' is unknown (use --input-shape)", in->name);
    npy_array *x = &set->files[s];
    char err[512];
    if (npy_read(file, x, err, sizeof err)) return diag_set(d, "--calib: %s", err);
    int64_t n = input_samples(in, x, file, d);
    if (n < 0) return -1;
    count[k] += n;
  }
  return 0;
}

int input_sample_set_load(const ir_graph *g, const char *const *specs, int n_specs, input_sample_set *set, diag *d) {
  *set = (input_sample_set){.n_files = n_specs, .n_inputs = g->n_inputs};
  int64_t *count = calloc((size_t)g->n_inputs + 1, sizeof *count);
  set->files = calloc((size_t)n_specs + 1, sizeof *set->files);
  int rc = !count || !set->files ? diag_oom(d) : load_files(g, specs, n_specs, set, count, d);
  /* every input has samples; the counts agree (or are 1) */
  int64_t n = 1;
  for (int k = 0; !rc && k < g->n_inputs; k++) {
    if (!count[k])
      rc = diag_set(d, "--calib: no samples for graph input '%s' (give --calib %s=FILE.npy)", g->inputs[k]->name,
                    g->inputs[k]->name);
    else if (count[k] > 1 && n > 1 && count[k] != n) {
      int j = 0;
      while (count[j] != n) j++;
      rc = diag_set(d, "--calib: input '%s' has %lld samples, input '%s' %lld: give each input as many (or one, used "
                    "with every sample)", g->inputs[j]->name, (long long)n, g->inputs[k]->name, (long long)count[k]);
    } else if (count[k] > 1) {
      n = count[k];
    }
  }
  if (!rc && (n > (1 << 24) || !(set->samples = calloc((size_t)n * (size_t)(g->n_inputs + 1), sizeof(void *)))))
    rc = n > (1 << 24) ? diag_set(d, "--calib: %lld samples: at most 16777216", (long long)n) : diag_oom(d);
  /* 2. the pointers: sample s of input k is the s-th in its files' order */
  for (int k = 0; !rc && k < g->n_inputs; k++) {
    const ir_value *in = g->inputs[k];
    size_t bytes = (size_t)ir_value_numel(in) * ir_dtype_size(in->dtype);
    int64_t s = 0;
    for (int f = 0; f < n_specs; f++) {
      const char *file;
      int i = input_spec_find(g, "--calib", specs[f], &file, d);
      if ((i == -2 ? 0 : i) != k) continue;
      for (size_t at = 0; at < set->files[f].nbytes; at += bytes, s++)
        set->samples[s * g->n_inputs + k] = (const char *)set->files[f].data + at;
    }
    for (; s < n; s++) set->samples[s * g->n_inputs + k] = set->samples[k]; /* one sample, used with all */
  }
  free(count);
  if (rc) {
    input_sample_set_free(set);
    return -1;
  }
  set->n_samples = (int)n;
  return 0;
}
