/* tune_front: model loading for the tuner (tune_front.h).  The same steps
 * as the CLI's compile (import, pipeline_graph, ptq with the calibration
 * samples, pipeline_quant), without its dump options. */
#include "tune_front.h"

#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "input_samples.h"
#include "npy.h"
#include "onnx_import.h"
#include "pipeline.h"

enum { TUNE_MAX_CALIB = 64, TUNE_MAX_SAMPLES = 1024 };

ir_graph *tune_front_load(const char *model, const char *const *calib, int n, diag *d) {
  ir_graph *g = onnx_import_file(model, NULL, 0, d);
  if (!g) return NULL;
  pipeline_opts po = {0};
  npy_array *arrs = calloc(TUNE_MAX_CALIB, sizeof *arrs);
  const void **samples = calloc(TUNE_MAX_SAMPLES, sizeof *samples);
  calib_data cd = {0};
  int rc = arrs && samples ? 0 : diag_oom(d);
  if (!rc && n > TUNE_MAX_CALIB) rc = diag_set(d, "--calib: at most %d files", TUNE_MAX_CALIB);
  if (!rc) rc = pipeline_graph(g, &po, d);
  if (!rc && n) {
    if (g->n_inputs != 1) rc = diag_set(d, "--calib: the model has %d graph inputs; calibration supports one", g->n_inputs);
    const ir_value *in = rc ? NULL : g->inputs[0];
    int64_t per = in ? ir_value_numel(in) : 0;
    if (!rc && per == 0) rc = diag_set(d, "--calib: input '%s' has no elements (a dimension is 0)", in->name);
    if (!rc && per < 0) rc = diag_set(d, "--calib: the shape of input '%s' is unknown", in->name);
    int ns = 0;
    for (int k = 0; !rc && k < n; k++) {
      char err[512];
      if (npy_read(calib[k], &arrs[k], err, sizeof err)) {
        rc = diag_set(d, "--calib: %s", err);
        break;
      }
      int64_t cnt = arrs[k].dtype == NPY_F32 &&
                            calib_check_finite(arrs[k].data, arrs[k].nbytes / sizeof(float), calib[k], d)
                        ? -1
                        : input_samples(in, &arrs[k], calib[k], d);
      if (cnt < 0) rc = -1;
      for (int64_t s = 0; !rc && s < cnt; s++) {
        if (ns == TUNE_MAX_SAMPLES) rc = diag_set(d, "--calib: more than %d samples", TUNE_MAX_SAMPLES);
        else samples[ns++] = (const char *)arrs[k].data + (size_t)(s * per) * ir_dtype_size(in->dtype);
      }
    }
    cd = (calib_data){.n_samples = ns, .n_inputs = 1, .samples = samples, .method = CALIB_SPREAD,
                      .percentile = 99.99};
    po.calib = &cd;
  }
  if (!rc) rc = pipeline_quant(g, &po, d);
  for (int k = 0; arrs && k < TUNE_MAX_CALIB; k++) npy_free(&arrs[k]);
  free(arrs);
  free(samples);
  if (rc) {
    diag_prefix(d, model);
    ir_graph_free(g);
    return NULL;
  }
  return g;
}

int tune_front_input(const ir_graph *g, const char *src, const char *dst, diag *d) {
  if (g->n_inputs != 1) return diag_set(d, "the model has %d graph inputs; the tuner runs models with one",
                                        g->n_inputs);
  const ir_value *in = g->inputs[0];
  npy_array x = {0};
  char err[512];
  if (npy_read(src, &x, err, sizeof err)) return diag_set(d, "%s", err);
  int rc = 0;
  int64_t cnt = input_samples(in, &x, src, d);
  if (cnt < 0) rc = -1;
  if (!rc) {
    npy_array one = x;
    one.ndim = in->rank;
    for (int i = 0; i < in->rank; i++) one.shape[i] = in->dims[i];
    one.nbytes = (size_t)ir_value_numel(in) * npy_dtype_size(x.dtype);
    if (npy_write(dst, &one, err, sizeof err)) rc = diag_set(d, "%s", err);
  }
  npy_free(&x);
  return rc;
}
