/* calibrate: activation ranges of a float graph from calibration inputs.
 *
 * Runs the float reference executor once per calibration sample and keeps,
 * per value, the range used for quantisation:
 *   spread      (the default) minmax, each bound then moved out to 2.33
 *               standard deviations of the per-sample extremes past their
 *               mean where that is further: few calibration samples
 *               under-estimate the range of the next input;
 *   minmax      the smallest and largest element over all samples;
 *   percentile  per sample, the P-th and (100-P)-th percentiles of the
 *               tensor's elements (P = 99.99 by default), then the widest
 *               of those over the samples: clips rare outliers that would
 *               otherwise spend most of the int8 range;
 *   mse         min/max first, then a histogram of each value over that
 *               range (a second run of the samples), and the range
 *               [lo*f, hi*f] (f from 1 down to 0.21) with the least expected
 *               squared quantisation error: rounding noise inside, clipping
 *               outside.
 * Float graph inputs get ranges too (from the samples themselves); inputs
 * of other dtypes (indices, masks) go into each run as given, unranged. */
#ifndef TESSEL_CALIBRATE_H
#define TESSEL_CALIBRATE_H

#include "ir.h"

typedef enum {
  CALIB_SPREAD,     /* min/max widened by the spread of the per-sample extremes */
  CALIB_MINMAX,     /* min/max over every sample */
  CALIB_PERCENTILE, /* per-sample percentiles, widest over samples */
  CALIB_MSE,        /* least expected squared error over a histogram */
} calib_method;

typedef struct calib_data {
  int n_samples;               /* number of calibration samples */
  int n_inputs;                /* graph inputs per sample */
  const void *const *samples;  /* samples[s * n_inputs + k]: graph input k of sample s */
  calib_method method;         /* how ranges are formed */
  double percentile;           /* CALIB_PERCENTILE: P in (50, 100] */
  const char *source;          /* the calibration file(s), for messages; NULL: "the calibration data" */
} calib_data;

typedef struct calib_range {
  double lo, hi; /* the range */
  int seen;      /* 1 when the value was computed or is an input */
  int n;         /* samples that computed it */
  double s_lo, ss_lo; /* sum and sum of squares of each sample's minimum (spread) */
  double s_hi, ss_hi; /* the same of each sample's maximum */
} calib_range;

/* Ranges of every value of g (indexed by value id; *n_ranges entries,
 * malloc'd, caller frees).  0, or -1 with an error from the reference. */
int calibrate(const ir_graph *g, const calib_data *c, calib_range **ranges, int *n_ranges, diag *d);

/* 0 when the n floats of calibration file `path` are all finite; else -1
 * with d naming the file and the first NaN or Inf (a NaN was skipped by the
 * ranges and an Inf replaced them by [-1, 1], so the scales came from
 * nothing the model will see). */
int calib_check_finite(const float *x, size_t n, const char *path, diag *d);

#endif
