/* fit_eval: the cost model's error against RTL cycles on a fixed kernel set
 * (make bench-tune).
 *   fit_eval LOG.jsonl...
 * Reads the kernel records of the logs measured on the RTL (engine "rtl",
 * status ok).  The fixed set is every default-schedule record (each task of
 * each net at its default schedule, as the default package measured it).
 * Prints the mean absolute relative error and Spearman's rank correlation of
 *   - the unfitted estimate,
 *   - the refit (tune_fit.h) trained on every record of the other nets
 *     (leave one net out: the set's net never trains its own prediction),
 *   - the refit trained on everything (in sample).
 * each with PASS or FAIL against the targets (mean absolute error
 * under 5%, Spearman over 0.95).  A benchmark's figures: exit 0 whatever
 * they say (1 when a log cannot be read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/tune_fit.h"
#include "tune/tune_log.h"

/* The targets: mean absolute error under 5%, rank correlation over 0.95. */
#define TARGET_MAE 0.05
#define TARGET_RHO 0.95

/* One row: the figures of predictions p against measured y, and PASS when
 * both meet the targets. */
static void report(const char *what, const double *p, const double *y, int m) {
  double mae = tune_fit_mae(p, y, (size_t)m), rho = tune_fit_spearman(p, y, (size_t)m);
  printf("  %-34s mean abs error %6.1f%%, Spearman %.3f  %s (targets < %.0f%%, > %.2f)\n", what, 100 * mae, rho,
         m > 0 && mae < TARGET_MAE && rho > TARGET_RHO ? "PASS" : "FAIL", 100 * TARGET_MAE, TARGET_RHO);
}

int main(int argc, char **argv) {
  tune_table t = {.keep_all = 1};
  for (int i = 1; i < argc; i++) {
    diag d = {{0}};
    if (tune_table_load(&t, argv[i], stderr, &d)) {
      fprintf(stderr, "fit_eval: %s\n", d.msg);
      return 1;
    }
  }
  int n = 0;
  tune_record **r = calloc((size_t)t.n_all + 1, sizeof *r);
  double(*x)[TUNE_FIT_NF] = calloc((size_t)t.n_all + 1, sizeof *x);
  double *y = calloc((size_t)t.n_all + 1, sizeof *y);
  if (!r || !x || !y) return 1;
  for (int i = 0; i < t.n_all; i++) {
    tune_record *q = &t.all[i];
    if (q->residency >= 0 || q->status != TUNE_STATUS_OK || strcmp(q->engine, "rtl") || !q->estimate) continue;
    r[n] = q;
    tune_fit_features(q->estimate, q->busy, x[n]);
    y[n] = (double)q->cycles;
    n++;
  }
  tune_fit all = tune_fit_solve((const double(*)[TUNE_FIT_NF])x, y, (size_t)n);
  /* The fixed set and its three predictions. */
  double *ym = calloc((size_t)n + 1, sizeof *ym), *pe = calloc((size_t)n + 1, sizeof *pe);
  double *po = calloc((size_t)n + 1, sizeof *po), *pa = calloc((size_t)n + 1, sizeof *pa);
  double(*xo)[TUNE_FIT_NF] = calloc((size_t)n + 1, sizeof *xo);
  double *yo = calloc((size_t)n + 1, sizeof *yo);
  if (!ym || !pe || !po || !pa || !xo || !yo) return 1;
  int m = 0, nets = 0;
  char seen[64][128];
  for (int i = 0; i < n; i++) {
    if (!r[i]->is_default) continue;
    /* Leave this record's net out of the training set. */
    int k = 0;
    for (int j = 0; j < n; j++)
      if (strcmp(r[j]->model, r[i]->model)) memcpy(xo[k], x[j], sizeof xo[k]), yo[k++] = y[j];
    tune_fit lo = tune_fit_solve((const double(*)[TUNE_FIT_NF])xo, yo, (size_t)k);
    ym[m] = y[i], pe[m] = x[i][0], po[m] = tune_fit_predict(&lo, x[i]), pa[m] = tune_fit_predict(&all, x[i]);
    m++;
    int known = 0;
    for (int s = 0; s < nets; s++) known |= !strcmp(seen[s], r[i]->model);
    if (!known && nets < 64) snprintf(seen[nets++], sizeof seen[0], "%s", r[i]->model);
  }
  printf("  fixed set: %d kernels' default schedules (%d nets), fitted on %d RTL measurements\n", m, nets, n);
  report("unfitted estimate:", pe, ym, m);
  report("refit, leave one net out:", po, ym, m);
  report("refit on everything (in sample):", pa, ym, m);
  printf("  weights: %.3f x estimate + %.3f LOAD + %.3f EXEC + %.3f STORE + %.3f dispatch + %.3f min(LOAD,EXEC) + "
         "%.3f min(EXEC,STORE) busy\n", all.w[0], all.w[1], all.w[2], all.w[3], all.w[4], all.w[5], all.w[6]);
  free(r), free(x), free(y), free(ym), free(pe), free(po), free(pa), free(xo), free(yo);
  tune_table_free(&t);
  return 0;
}
