/* tune_fit: refitting the cost model on measured cycles.
 *
 * The cost model (sim/npu-model/cost_model.h) prices every command; the
 * lowering's estimate places them on the units' timelines.  The refit keeps
 * those prices and learns how the measured cycles relate to them: measured
 * ~= a * estimate + b_load * LOAD busy + b_exec * EXEC busy + b_store *
 * STORE busy + b_front * dispatcher busy + c_le * min(LOAD, EXEC busy) +
 * c_es * min(EXEC, STORE busy) (the busy cycles per command class,
 * lower_unit_cycles; the two minima are the overlap the timelines assume
 * between neighbouring units, which the RTL does not fully get), fitted
 * by least squares on the relative error over every measurement (all tasks,
 * random schedules too, not only the winners), with a small ridge towards
 * the unfitted model (a = 1) so a handful of samples cannot run away.
 * Errors are reported as the mean absolute relative error and Spearman's
 * rank correlation, before (the estimate itself) and after the refit. */
#ifndef TESSEL_TUNE_FIT_H
#define TESSEL_TUNE_FIT_H

#include <stddef.h>
#include <stdint.h>

enum { TUNE_FIT_NF = 7 }; /* features: estimate, LOAD, EXEC, STORE, dispatcher busy, min(LOAD, EXEC), min(EXEC, STORE) */

typedef struct tune_fit {
  double w[TUNE_FIT_NF]; /* weights; {1, 0, ...} is the unfitted model */
  int n;                 /* samples it was fitted on (0: unfitted) */
} tune_fit;

/* One sample's features from the estimate and busy[4] (FRONT, LOAD, EXEC, STORE). */
void tune_fit_features(uint64_t estimate, const uint64_t busy[4], double x[TUNE_FIT_NF]);

/* The unfitted model. */
tune_fit tune_fit_identity(void);
/* Fits on n samples x[i][TUNE_FIT_NF], measured y[i] > 0.  Fewer than
 * TUNE_FIT_NF samples, or a singular system, keep the identity. */
tune_fit tune_fit_solve(const double (*x)[TUNE_FIT_NF], const double *y, size_t n);
/* The model's prediction for features x. */
double tune_fit_predict(const tune_fit *f, const double x[TUNE_FIT_NF]);

/* Mean |pred - y| / y over n pairs (0 when n == 0). */
double tune_fit_mae(const double *pred, const double *y, size_t n);
/* Spearman's rank correlation (average ranks for ties); 1 when n < 2 or a
 * side is constant and the other too, 0 when only one side is constant. */
double tune_fit_spearman(const double *a, const double *b, size_t n);

#endif
