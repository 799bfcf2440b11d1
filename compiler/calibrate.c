/* calibrate: one float reference run per sample with an observer that folds
 * each computed tensor into its value's range. */
#include "calibrate.h"

#include <stdlib.h>

#include "ref_exec.h"

typedef struct ctx {
  const calib_data *c;
  calib_range *r;
  int oom;
} ctx;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void observe(const ir_value *v, const void *data, void *user) {
  ctx *k = user;
  if (!ir_dtype_is_float(v->dtype)) return;
  int64_t n = ir_value_numel(v);
  if (n <= 0) return;
  double lo, hi;
  if (k->c->method == CALIB_PERCENTILE && n > 1) {
    double *s = malloc(sizeof(double) * (size_t)n);
    if (!s) {
      k->oom = 1;
      return;
    }
    for (int64_t i = 0; i < n; i++) s[i] = ir_elem_f64(v->dtype, data, i);
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    double p = k->c->percentile / 100.0;
    int64_t ih = (int64_t)(p * (double)(n - 1) + 0.5), il = (n - 1) - ih;
    lo = s[il], hi = s[ih];
    free(s);
  } else {
    lo = hi = ir_elem_f64(v->dtype, data, 0);
    for (int64_t i = 1; i < n; i++) {
      double x = ir_elem_f64(v->dtype, data, i);
      lo = x < lo ? x : lo, hi = x > hi ? x : hi;
    }
  }
  calib_range *r = &k->r[v->id];
  if (!r->seen || lo < r->lo) r->lo = lo;
  if (!r->seen || hi > r->hi) r->hi = hi;
  r->seen = 1;
}

int calibrate(const ir_graph *g, const calib_data *c, calib_range **ranges, int *n_ranges, diag *d) {
  int max_id = 0;
  for (int i = 0; i < g->n_values; i++)
    if (g->values[i]->id > max_id) max_id = g->values[i]->id;
  calib_range *r = calloc((size_t)max_id + 1, sizeof *r);
  void **outs = calloc((size_t)g->n_outputs + 1, sizeof(void *));
  if (!r || !outs) {
    free(r);
    free(outs);
    return diag_oom(d);
  }
  ctx k = {c, r, 0};
  for (int s = 0; s < c->n_samples; s++) {
    const void *const *in = c->samples + (size_t)s * (size_t)c->n_inputs;
    for (int i = 0; i < g->n_inputs; i++) observe(g->inputs[i], in[i], &k);
    int rc = ref_run(g, in, outs, observe, &k, d);
    for (int i = 0; i < g->n_outputs && !rc; i++) free(outs[i]);
    if (rc || k.oom) {
      free(r);
      free(outs);
      return rc ? -1 : diag_oom(d);
    }
  }
  free(outs);
  *ranges = r;
  *n_ranges = max_id + 1;
  return 0;
}
