/* tune_fit: least-squares refit and error figures (tune_fit.h). */
#include "tune_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tune_fit_features(uint64_t estimate, const uint64_t busy[4], double x[TUNE_FIT_NF]) {
  x[0] = (double)estimate;
  x[1] = (double)busy[1];
  x[2] = (double)busy[2];
  x[3] = (double)busy[3];
  x[4] = (double)busy[0];
  x[5] = (double)(busy[1] < busy[2] ? busy[1] : busy[2]);
  x[6] = (double)(busy[2] < busy[3] ? busy[2] : busy[3]);
}

tune_fit tune_fit_identity(void) {
  tune_fit f = {.w = {1}, .n = 0};
  return f;
}

double tune_fit_predict(const tune_fit *f, const double x[TUNE_FIT_NF]) {
  double p = 0;
  for (int i = 0; i < TUNE_FIT_NF; i++) p += f->w[i] * x[i];
  return p;
}

/* Solves the k x k system a w = b in place (Gaussian elimination with
 * partial pivoting). 0, or -1 when singular. */
static int solve(double a[TUNE_FIT_NF][TUNE_FIT_NF], double b[TUNE_FIT_NF], double w[TUNE_FIT_NF]) {
  const int k = TUNE_FIT_NF;
  for (int c = 0; c < k; c++) {
    int piv = c;
    for (int r = c + 1; r < k; r++)
      if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
    if (fabs(a[piv][c]) < 1e-12) return -1;
    if (piv != c) {
      for (int j = 0; j < k; j++) {
        double t = a[c][j];
        a[c][j] = a[piv][j], a[piv][j] = t;
      }
      double t = b[c];
      b[c] = b[piv], b[piv] = t;
    }
    for (int r = c + 1; r < k; r++) {
      double m = a[r][c] / a[c][c];
      for (int j = c; j < k; j++) a[r][j] -= m * a[c][j];
      b[r] -= m * b[c];
    }
  }
  for (int r = k - 1; r >= 0; r--) {
    double s = b[r];
    for (int j = r + 1; j < k; j++) s -= a[r][j] * w[j];
    w[r] = s / a[r][r];
  }
  return 0;
}

tune_fit tune_fit_solve(const double (*x)[TUNE_FIT_NF], const double *y, size_t n) {
  tune_fit f = tune_fit_identity();
  if (n < TUNE_FIT_NF) return f;
  /* Rows scaled by 1/y: minimises the squared relative error.  Features are
   * scaled by 1/y too, so every column is "cycles per measured cycle" and
   * of order one: the ridge (lambda towards the identity) is scale free. */
  double a[TUNE_FIT_NF][TUNE_FIT_NF] = {{0}}, b[TUNE_FIT_NF] = {0};
  for (size_t s = 0; s < n; s++) {
    if (!(y[s] > 0)) continue;
    double r[TUNE_FIT_NF];
    for (int i = 0; i < TUNE_FIT_NF; i++) r[i] = x[s][i] / y[s];
    for (int i = 0; i < TUNE_FIT_NF; i++) {
      for (int j = 0; j < TUNE_FIT_NF; j++) a[i][j] += r[i] * r[j];
      b[i] += r[i]; /* target y / y = 1 */
    }
  }
  const double lambda = 1e-3 * (double)n;
  for (int i = 0; i < TUNE_FIT_NF; i++) {
    a[i][i] += lambda;
    b[i] += lambda * f.w[i];
  }
  double w[TUNE_FIT_NF];
  if (solve(a, b, w)) return f;
  memcpy(f.w, w, sizeof w);
  f.n = (int)n;
  return f;
}

double tune_fit_mae(const double *pred, const double *y, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += fabs(pred[i] - y[i]) / (y[i] > 0 ? y[i] : 1);
  return n ? s / (double)n : 0;
}

/* Average ranks (1-based) of v[n] into r[n]. */
static void ranks(const double *v, double *r, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t less = 0, same = 0;
    for (size_t j = 0; j < n; j++) less += v[j] < v[i], same += v[j] == v[i];
    r[i] = (double)less + (double)(same + 1) / 2.0;
  }
}

double tune_fit_spearman(const double *a, const double *b, size_t n) {
  if (n < 2) return 1;
  double *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
  if (!ra || !rb) {
    free(ra);
    free(rb);
    return 0;
  }
  ranks(a, ra, n);
  ranks(b, rb, n);
  double ma = 0, mb = 0;
  for (size_t i = 0; i < n; i++) ma += ra[i], mb += rb[i];
  ma /= (double)n, mb /= (double)n;
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; i++) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  free(ra);
  free(rb);
  if (saa == 0 && sbb == 0) return 1;
  if (saa == 0 || sbb == 0) return 0;
  return sab / sqrt(saa * sbb);
}
