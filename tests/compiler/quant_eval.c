/* quant-eval: accuracy of post-training quantisation on a float model.
 *   quant-eval MODEL.onnx CALIB.npy EVAL.npy [--percentile P | --mse 1] [--max-rel-l2 X] [--min-top1 F]
 * Quantises MODEL from the samples in CALIB.npy (stacked along dimension 0),
 * then runs every sample of EVAL.npy through the float reference and the
 * int8 reference and compares the first graph output: relative L2 error
 * ||q - f|| / ||f||, SNR in dB, and top-1 agreement (argmax over the last
 * dimension).  Prints one line of figures; with --max-rel-l2 / --min-top1
 * it fails (exit 1) when the worst sample's error or the agreement is worse
 * (the accuracy test), otherwise it only reports (bench-quant).
 * Exit 2 on bad arguments or files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "onnx_import.h"
#include "pipeline.h"
#include "quant.h"
#include "ref_exec.h"

static ir_graph *load(const char *path, int quantise, const calib_data *c, diag *d) {
  ir_graph *g = onnx_import_file(path, NULL, 0, d);
  pipeline_opts o = {.calib = c, .dump = stderr};
  if (!g) return NULL;
  if (pipeline_graph(g, &o, d) || (quantise && pipeline_quant(g, &o, d))) {
    ir_graph_free(g);
    return NULL;
  }
  return g;
}

static int argmax_agree(const float *a, const float *b, int64_t n, int64_t row) {
  int agree = 0;
  for (int64_t r = 0; r < n / row; r++) {
    int64_t ia = 0, ib = 0;
    for (int64_t i = 1; i < row; i++) {
      if (a[r * row + i] > a[r * row + ia]) ia = i;
      if (b[r * row + i] > b[r * row + ib]) ib = i;
    }
    agree += ia == ib;
  }
  return agree;
}

int main(int argc, char **argv) {
  double percentile = 0, max_rel = -1, min_top1 = -1;
  int mse = 0;
  if (argc < 4) {
    fprintf(stderr, "usage: quant-eval MODEL.onnx CALIB.npy EVAL.npy [--percentile P] [--max-rel-l2 X] [--min-top1 F]\n");
    return 2;
  }
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--percentile")) percentile = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--mse")) mse = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--max-rel-l2")) max_rel = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--min-top1")) min_top1 = atof(argv[i + 1]);
    else return fprintf(stderr, "quant-eval: unknown option %s\n", argv[i]), 2;
  }
  npy_array cal, ev;
  char err[512];
  if (npy_read(argv[2], &cal, err, sizeof err) || npy_read(argv[3], &ev, err, sizeof err))
    return fprintf(stderr, "quant-eval: %s\n", err), 2;
  diag d = {{0}};
  ir_graph *gf = load(argv[1], 0, NULL, &d);
  if (!gf) return fprintf(stderr, "quant-eval: %s\n", d.msg), 2;
  if (gf->n_inputs != 1 || gf->inputs[0]->dtype != IR_F32)
    return fprintf(stderr, "quant-eval: needs one f32 graph input\n"), 2;
  int64_t per = ir_value_numel(gf->inputs[0]);
  size_t bytes = (size_t)per * sizeof(float);
  int n_cal = (int)(cal.nbytes / bytes), n_ev = (int)(ev.nbytes / bytes);
  if (n_cal < 1 || n_ev < 1 || cal.nbytes % bytes || ev.nbytes % bytes || cal.dtype != NPY_F32 || ev.dtype != NPY_F32)
    return fprintf(stderr, "quant-eval: calibration/eval data do not hold whole f32 samples\n"), 2;
  const void **samples = malloc(sizeof(void *) * (size_t)n_cal);
  for (int s = 0; s < n_cal; s++) samples[s] = (const char *)cal.data + (size_t)s * bytes;
  calib_data c = {.n_samples = n_cal, .n_inputs = 1, .samples = samples,
                  .method = mse ? CALIB_MSE : percentile > 0 ? CALIB_PERCENTILE : CALIB_MINMAX,
                  .percentile = percentile};
  ir_graph *gq = load(argv[1], 1, &c, &d);
  if (!gq) return fprintf(stderr, "quant-eval: %s\n", d.msg), 2;
  int qops = 0, fops = 0;
  for (int i = 0; i < gq->n_nodes; i++) {
    ir_op op = gq->nodes[i]->op;
    if (quant_is_qop(op)) qops++;
    else if (op == IR_OP_CONV || op == IR_OP_GEMM || op == IR_OP_MATMUL || op == IR_OP_ADD ||
             op == IR_OP_AVGPOOL || op == IR_OP_GLOBAL_AVGPOOL)
      fops++;
  }
  const ir_value *out = gf->outputs[0];
  int64_t on = ir_value_numel(out), row = out->rank ? out->dims[out->rank - 1] : 1;
  double worst = 0, sum_rel = 0, sig = 0, noise = 0;
  int agree = 0, rows = 0, rc = 0;
  for (int s = 0; s < n_ev && !rc; s++) {
    const void *in[1] = {(const char *)ev.data + (size_t)s * bytes};
    void *of[8] = {0}, *oq[8] = {0};
    if (ref_run(gf, in, of, NULL, NULL, &d) || ref_run(gq, in, oq, NULL, NULL, &d)) {
      fprintf(stderr, "quant-eval: %s\n", d.msg);
      rc = 2;
    } else {
      const float *f = of[0], *q = oq[0];
      double e2 = 0, f2 = 0;
      for (int64_t i = 0; i < on; i++) e2 += (q[i] - f[i]) * (double)(q[i] - f[i]), f2 += (double)f[i] * f[i];
      double rel = sqrt(e2 / (f2 > 0 ? f2 : 1));
      worst = rel > worst ? rel : worst;
      sum_rel += rel, sig += f2, noise += e2;
      agree += argmax_agree(f, q, on, row);
      rows += (int)(on / row);
    }
    for (int k = 0; k < gf->n_outputs; k++) free(of[k]), free(oq[k]);
  }
  if (!rc) {
    double top1 = rows ? (double)agree / rows : 0;
    printf("%s: %d calib, %d eval samples, %s; %d quantised ops, %d float compute ops left; rel L2 mean %.4f "
           "max %.4f; SNR %.1f dB; top-1 agreement %d/%d (%.0f%%)\n",
           argv[1], n_cal, n_ev, mse ? "mse" : percentile > 0 ? "percentile" : "minmax", qops, fops, sum_rel / n_ev, worst,
           10 * log10(sig / (noise > 0 ? noise : 1e-30)), agree, rows, 100 * top1);
    if ((max_rel >= 0 && worst > max_rel) || (min_top1 >= 0 && top1 < min_top1)) rc = 1;
  }
  free(samples);
  npy_free(&cal), npy_free(&ev);
  ir_graph_free(gf), ir_graph_free(gq);
  return rc;
}
