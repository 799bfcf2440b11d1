/* quant-eval: accuracy of post-training quantisation on a float model.
 *   quant-eval MODEL.onnx CALIB.npy EVAL.npy [--percentile P | --mse 1] [--max-rel-l2 X] [--min-top1 F]
 *              [--per-layer 1]
 * Quantises MODEL from the samples in CALIB.npy (stacked along dimension 0),
 * then runs every sample of EVAL.npy through the float reference and the
 * int8 reference and compares the first graph output: relative L2 error
 * ||q - f|| / ||f||, SNR in dB, and top-1 agreement (argmax over the last
 * dimension).  Prints one line of figures; with --max-rel-l2 / --min-top1
 * it fails (exit 1) when the worst sample's error or the agreement is worse
 * (the accuracy test), otherwise it only reports (bench-quant).
 * --per-layer 1 instead prints, for the first EVAL sample, each quantised
 * activation's error in the QDQ form against float (where the error comes
 * from, layer by layer), and the int8 reference's output error beside it.
 * Exit 2 on bad arguments or files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "onnx_import.h"
#include "pipeline.h"
#include "ptq.h"
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

/* --per-layer: every computed value of one run, by value id (copies). */
typedef struct snap {
  int n;        /* slots (max value id + 1) */
  float **data; /* data[id]: f32 copy, or NULL */
} snap;

static void snap_observe(const ir_value *v, const void *data, void *user) {
  snap *s = user;
  if (v->id >= s->n || v->dtype != IR_F32) return;
  int64_t n = ir_value_numel(v);
  free(s->data[v->id]);
  s->data[v->id] = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  if (s->data[v->id]) memcpy(s->data[v->id], data, sizeof(float) * (size_t)n);
}

static int snap_run(const ir_graph *g, const void *in, snap *s, diag *d) {
  s->n = g->next_value_id;
  s->data = calloc((size_t)s->n, sizeof(float *));
  void *outs[8] = {0};
  const void *ins[1] = {in};
  int rc = ref_run(g, ins, outs, snap_observe, s, d);
  for (int k = 0; k < g->n_outputs; k++) free(outs[k]);
  return rc;
}

static void snap_free(snap *s) {
  for (int i = 0; i < s->n; i++) free(s->data[i]);
  free(s->data);
}

/* Prints, in graph order, each activation's quantisation error in the QDQ
 * form (ptq only, run on the float reference) against the float graph:
 * accumulated relative L2 error, the scale, and the float tensor's range and
 * standard deviation (in steps: how many int8 steps one std spans). */
static int per_layer(const char *model, const calib_data *c, const void *in, diag *d) {
  ir_graph *gf = load(model, 0, NULL, d), *gp = onnx_import_file(model, NULL, 0, d);
  pipeline_opts o = {.calib = c, .dump = stderr};
  int rc = !gf || !gp || pipeline_graph(gp, &o, d) || ptq(gp, c, d);
  snap sf = {0}, sp = {0};
  if (!rc) rc = snap_run(gf, in, &sf, d) || snap_run(gp, in, &sp, d);
  for (int i = 0; i < (rc ? 0 : gp->n_nodes); i++) {
    const ir_node *dq = gp->nodes[i];
    if (dq->op != IR_OP_DEQUANTIZE || dq->in[0]->kind != IR_VALUE_NODE || dq->in[0]->def->op != IR_OP_QUANTIZE)
      continue;
    const ir_value *v = dq->in[0]->def->in[0];
    const ir_value *fv = ir_value_find(gf, v->name);
    if (!fv && dq->out->is_output) fv = gf->outputs[0];
    if (!fv || fv->id >= sf.n || !sf.data[fv->id] || !sp.data[dq->out->id]) continue;
    const float *f = sf.data[fv->id], *q = sp.data[dq->out->id];
    int64_t n = ir_value_numel(fv);
    double e2 = 0, f2 = 0, m = 0, m2 = 0, lo = f[0], hi = f[0];
    for (int64_t k = 0; k < n; k++) {
      e2 += (q[k] - f[k]) * (double)(q[k] - f[k]), f2 += (double)f[k] * f[k];
      m += f[k], m2 += (double)f[k] * f[k];
      lo = f[k] < lo ? f[k] : lo, hi = f[k] > hi ? f[k] : hi;
    }
    /* share of the error energy that is a per-channel mean (what bias
     * correction could remove), channels on dimension 1 */
    int64_t ch = fv->rank >= 2 ? fv->dims[1] : 1, inner = n / (fv->rank >= 1 ? fv->dims[0] : 1) / ch;
    double be = 0;
    for (int64_t cc = 0; cc < ch; cc++) {
      double me = 0;
      int64_t cnt = 0;
      for (int64_t b = 0; b < n / (ch * inner); b++)
        for (int64_t j = 0; j < inner; j++, cnt++) me += q[(b * ch + cc) * inner + j] - f[(b * ch + cc) * inner + j];
      me /= (double)(cnt ? cnt : 1);
      be += me * me * (double)cnt;
    }
    m /= (double)n;
    double sd = sqrt(m2 / (double)n - m * m), scale = *(const float *)dq->in[1]->data;
    printf("%-40.40s %-10s rel %.4f  scale %.4g  range [%.3g, %.3g]  std %.3g (%.1f steps)  mean-err share %.2f\n", v->name,
           v->kind == IR_VALUE_NODE ? ir_op_name(v->def->op) : "input", sqrt(e2 / (f2 > 0 ? f2 : 1)), scale, lo, hi,
           sd, sd / scale, be / (e2 > 0 ? e2 : 1));
  }
  if (!rc) { /* the int8 reference on the same input, for comparison */
    ir_graph *gq = load(model, 1, c, d);
    void *oq[8] = {0};
    const void *ins[1] = {in};
    rc = !gq || ref_run(gq, ins, oq, NULL, NULL, d);
    const ir_value *fo = gf->outputs[0];
    if (!rc && sf.data[fo->id]) {
      double e2 = 0, f2 = 0;
      const float *f = sf.data[fo->id], *q = oq[0];
      for (int64_t k = 0; k < ir_value_numel(fo); k++)
        e2 += (q[k] - f[k]) * (double)(q[k] - f[k]), f2 += (double)f[k] * f[k];
      printf("%-40s int8 reference: rel %.4f\n", "output", sqrt(e2 / (f2 > 0 ? f2 : 1)));
    }
    for (int k = 0; gq && k < gq->n_outputs; k++) free(oq[k]);
    ir_graph_free(gq);
  }
  snap_free(&sf), snap_free(&sp);
  ir_graph_free(gf), ir_graph_free(gp);
  return rc;
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
  int mse = 0, layers = 0;
  if (argc < 4) {
    fprintf(stderr, "usage: quant-eval MODEL.onnx CALIB.npy EVAL.npy [--percentile P | --mse 1] [--max-rel-l2 X] [--min-top1 F] "
                    "[--per-layer 1]\n");
    return 2;
  }
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--percentile")) percentile = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--mse")) mse = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--per-layer")) layers = atoi(argv[i + 1]);
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
  if (layers) {
    int prc = per_layer(argv[1], &c, ev.data, &d);
    if (prc) fprintf(stderr, "quant-eval: %s\n", d.msg);
    free(samples);
    npy_free(&cal), npy_free(&ev);
    ir_graph_free(gf);
    return prc ? 2 : 0;
  }
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
