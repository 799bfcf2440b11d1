/* calibrate: one float reference run per sample with an observer that folds
 * each computed tensor into its value's range (and its per-sample extremes'
 * sums, for spread); the mse method runs the samples a second time to fill
 * a histogram per value over that range. */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>

#include "ref_exec.h"

enum { BINS = 1024 }; /* histogram bins per value (mse) */

typedef struct ctx {
  const calib_data *c;
  calib_range *r;
  double **hist; /* mse, second pass: BINS counts per value id over its range */
  int oom;
} ctx;

/* Second pass: elements into the value's histogram.  Exact zeros are left
 * out: zero is exactly representable whatever the range, so it must not pull
 * the search towards narrow ranges. */
static void observe_hist(const ir_value *v, const void *data, void *user) {
  ctx *k = user;
  calib_range *r = &k->r[v->id];
  if (!ir_dtype_is_float(v->dtype) || !r->seen || !(r->hi > r->lo)) return;
  double *h = k->hist[v->id];
  if (!h && !(h = k->hist[v->id] = calloc(BINS, sizeof(double)))) {
    k->oom = 1;
    return;
  }
  int64_t n = ir_value_numel(v);
  double w = (r->hi - r->lo) / BINS;
  for (int64_t i = 0; i < n; i++) {
    double x = ir_elem_f64(v->dtype, data, i);
    if (x == 0) continue;
    int b = (int)((x - r->lo) / w);
    h[b < 0 ? 0 : b >= BINS ? BINS - 1 : b]++;
  }
}

/* The range [lo*f, hi*f] (f in (0, 1]) with the least expected squared
 * error: uniform rounding noise step^2/12 inside, the clipping distance
 * squared outside. */
static void mse_range(calib_range *r, const double *h) {
  double w = (r->hi - r->lo) / BINS, best = INFINITY, best_f = 1;
  for (int step = 0; step < 80; step++) {
    double f = 1.0 - 0.01 * step, lo = r->lo * f, hi = r->hi * f;
    double lo0 = lo < 0 ? lo : 0, hi0 = hi > 0 ? hi : 0, q = (hi0 - lo0) / 255, err = 0;
    for (int b = 0; b < BINS; b++) {
      if (h[b] == 0) continue;
      double x = r->lo + (b + 0.5) * w;
      double e = x > hi ? (x - hi) * (x - hi) : x < lo ? (lo - x) * (lo - x) : q * q / 12;
      err += h[b] * e;
    }
    if (err < best) best = err, best_f = f;
  }
  r->lo *= best_f, r->hi *= best_f;
}

/* spread: each bound moved out to z = 2.33 standard deviations of the
 * per-sample extremes past their mean (where a normal model of them puts
 * 99% of samples) when that is past what was seen.  With 4 samples the
 * largest seen is about 1 deviation past the mean, so the range grows by
 * about 1.3 deviations; with a hundred it is already past 2.33 and
 * nothing changes; a single sample, or samples that agree, change nothing. */
static void spread_range(calib_range *r) {
  const double z = 2.33;
  if (!r->seen || r->n < 2) return;
  double m = r->s_hi / r->n, v = (r->ss_hi - r->n * m * m) / (r->n - 1);
  if (v > 0 && m + z * sqrt(v) > r->hi) r->hi = m + z * sqrt(v);
  m = r->s_lo / r->n, v = (r->ss_lo - r->n * m * m) / (r->n - 1);
  if (v > 0 && m - z * sqrt(v) < r->lo) r->lo = m - z * sqrt(v);
}

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
  } else if (v->dtype == IR_F32) { /* the common case, without a call per element */
    const float *f = data;
    float flo = f[0], fhi = f[0];
    for (int64_t i = 1; i < n; i++) flo = f[i] < flo ? f[i] : flo, fhi = f[i] > fhi ? f[i] : fhi;
    lo = flo, hi = fhi;
  } else {
    lo = hi = ir_elem_f64(v->dtype, data, 0);
    for (int64_t i = 1; i < n; i++) {
      double x = ir_elem_f64(v->dtype, data, i);
      lo = x < lo ? x : lo, hi = x > hi ? x : hi;
    }
  }
  calib_range *r = &k->r[v->id];
  r->n++, r->s_lo += lo, r->ss_lo += lo * lo, r->s_hi += hi, r->ss_hi += hi * hi;
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
  ctx k = {c, r, NULL, 0};
  int passes = c->method == CALIB_MSE ? 2 : 1, rc = 0;
  if (passes == 2 && !(k.hist = calloc((size_t)max_id + 1, sizeof(double *)))) rc = diag_oom(d);
  /* 1. ranges (minmax or percentile); 2. mse: histograms over them */
  for (int pass = 0; pass < passes && !rc; pass++) {
    ref_observer obs = pass == 0 ? observe : observe_hist;
    for (int s = 0; s < c->n_samples && !rc; s++) {
      const void *const *in = c->samples + (size_t)s * (size_t)c->n_inputs;
      for (int i = 0; i < g->n_inputs; i++) obs(g->inputs[i], in[i], &k);
      rc = ref_run(g, in, outs, obs, &k, d);
      for (int i = 0; i < g->n_outputs && !rc; i++) free(outs[i]);
      if (!rc && k.oom) rc = diag_oom(d);
    }
  }
  if (k.hist) {
    for (int i = 0; i <= max_id; i++) {
      if (!rc && k.hist[i]) mse_range(&r[i], k.hist[i]);
      free(k.hist[i]);
    }
    free(k.hist);
  }
  free(outs);
  if (!rc && c->method == CALIB_SPREAD)
    for (int i = 0; i <= max_id; i++) spread_range(&r[i]);
  if (rc) {
    free(r);
    return -1;
  }
  *ranges = r;
  *n_ranges = max_id + 1;
  return 0;
}

int calib_check_finite(const float *x, size_t n, const char *path, diag *d) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return diag_set(d, "%s: element %zu is %s: calibration samples must be finite", path, i,
                      isnan(x[i]) ? "NaN" : "Inf");
  return 0;
}
