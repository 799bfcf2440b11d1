/* digits-eval: the digits model's accuracy, float against int8, and its
 * lowered form on the NPU C model against the int8 reference.
 *
 *   digits-eval MODEL.onnx CALIB.npy TEST.npy LABELS.npy
 *               [--max-drop POINTS] [--min-float PERCENT]
 *               [--npu TARGET]... [--npu-batch N]
 *
 * 1. Quantises MODEL by PTQ (minmax) from the samples of CALIB.npy (stacked
 *    along dimension 0, as `tessel --calib` reads them), the same passes as
 *    `tessel compile --calib`.
 * 2. Runs every test image through the float reference and the int8
 *    reference and prints both top-1 accuracies against LABELS.npy (int64
 *    or int32) and their difference.  Fails when the int8 accuracy is more
 *    than --max-drop points below float or float is below --min-float.
 * 3. For each --npu target: lowers the quantised graph once and runs the
 *    first N test images (--npu-batch, default 32) on the C model, kernel
 *    by kernel over one DRAM window (fallback kernels on the host with the
 *    reference's own op code, as the firmware will), and fails unless every
 *    output equals the int8 reference's byte for byte and the accuracy on
 *    those images equals the reference's.  Prints the C model's cycles per
 *    inference (NPU kernels only).
 *
 * One line "PASS: ..." / "FAIL: ..." per check, then "N passed, N failed".
 * Exit 0 when everything passed, 1 when a check failed, 2 on bad arguments
 * or files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "npu_model.h"
#include "npy.h"
#include "onnx_import.h"
#include "pipeline.h"
#include "ref_exec.h"

#define MAX_TARGETS 8

static int passed, failed;

static void verdict(int ok, const char *what) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  ok ? passed++ : failed++;
}

/* Index of the largest of n floats (the first on ties). */
static int argmax(const float *v, int64_t n) {
  int best = 0;
  for (int64_t i = 1; i < n; i++)
    if (v[i] > v[best]) best = (int)i;
  return best;
}

/* Import and graph passes; with c, also the quantisation passes (ptq first). */
static ir_graph *load(const char *path, const calib_data *c, diag *d) {
  ir_graph *g = onnx_import_file(path, NULL, 0, d);
  pipeline_opts o = {.calib = c, .dump = stderr};
  if (g && (pipeline_graph(g, &o, d) || (c && pipeline_quant(g, &o, d)))) {
    ir_graph_free(g);
    return NULL;
  }
  return g;
}

/* Runs fallback kernel k on the host as the firmware does: its non-constant
 * inputs from the DRAM window (unpacked when blocked), the reference's
 * ref_eval of the node, its output back into the window. */
static int run_fallback(const lower_program *p, const lower_kernel *k, uint8_t *dram, diag *d) {
  const ir_node *n = k->node;
  int dim = (int)p->target->dim, rc;
  const void *in[IR_MAX_INPUTS] = {0};
  void *tmp[IR_MAX_INPUTS] = {0};
  for (int i = 0; i < n->n_in; i++) {
    const lower_tensor *t = n->in[i]->kind == IR_VALUE_CONST ? NULL : lower_find_tensor(p, n->in[i]);
    if (!t) {
      in[i] = n->in[i]->data;
    } else if (t->blocked) {
      tmp[i] = malloc((size_t)ir_value_numel(n->in[i]));
      lower_unpack(t, dim, dram + t->dram, tmp[i]);
      in[i] = tmp[i];
    } else {
      in[i] = dram + t->dram;
    }
  }
  const lower_tensor *to = lower_find_tensor(p, n->out);
  void *out = malloc((size_t)ir_value_numel(n->out) * ir_dtype_size(n->out->dtype));
  rc = ref_eval(n, in, out, d);
  if (!rc && to->blocked) lower_pack(to, dim, out, dram + to->dram);
  else if (!rc) memcpy(dram + to->dram, out, to->bytes);
  for (int i = 0; i < n->n_in; i++) free(tmp[i]);
  free(out);
  return rc;
}

/* The kernels of program p in order on model m, over the DRAM window dram
 * (constants and the input already in place).  Adds the NPU kernels' cycles
 * to *cycles.  0, or -1 with msg filled. */
static int run_program(const lower_program *p, npu_model_t *m, uint8_t *dram, uint64_t *cycles, char *msg,
                       size_t len) {
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK) {
      diag d = {0};
      if (run_fallback(p, k, dram, &d)) return snprintf(msg, len, "fallback %s: %s", k->node->src, d.msg), -1;
      continue;
    }
    npu_run_t run = {.stream = k->stream.bytes, .stream_len = k->stream.n, .dram = dram, .dram_size = p->dram_bytes};
    npu_result_t r;
    if (npu_model_run(m, &run, &r) != 0)
      return snprintf(msg, len, "kernel %d (%s): %s", i, k->node->src, r.message), -1;
    *cycles += npu_model_counters(m)[TSL_CNT_CYCLES];
  }
  return 0;
}

int main(int argc, char **argv) {
  double max_drop = 1.0, min_float = 90.0;
  const char *targets[MAX_TARGETS];
  int n_targets = 0, batch = 32;
  if (argc < 5) {
    fprintf(stderr, "usage: digits-eval MODEL.onnx CALIB.npy TEST.npy LABELS.npy [--max-drop POINTS] "
                    "[--min-float PERCENT] [--npu TARGET]... [--npu-batch N]\n");
    return 2;
  }
  for (int i = 5; i < argc; i += 2) {
    const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    if (!v) return fprintf(stderr, "digits-eval: %s needs a value\n", opt), 2;
    if (!strcmp(opt, "--max-drop")) max_drop = strtod(v, &end);
    else if (!strcmp(opt, "--min-float")) min_float = strtod(v, &end);
    else if (!strcmp(opt, "--npu-batch")) batch = (int)strtol(v, &end, 10);
    else if (!strcmp(opt, "--npu") && n_targets < MAX_TARGETS) {
      if (!tsl_target_find(v)) return fprintf(stderr, "digits-eval: unknown target '%s'\n", v), 2;
      targets[n_targets++] = v;
      continue;
    } else return fprintf(stderr, "digits-eval: unknown option '%s' (or too many --npu)\n", opt), 2;
    if (!end || *end || end == v) return fprintf(stderr, "digits-eval: %s: '%s' is not a number\n", opt, v), 2;
  }
  if (batch < 1) return fprintf(stderr, "digits-eval: --npu-batch must be at least 1\n"), 2;

  /* Everything freed at done: (bad files exit 2 without leaks under ASan). */
  npy_array cal = {0}, test = {0}, lab = {0};
  ir_graph *gf = NULL, *gq = NULL;
  const void **samples = NULL;
  float *ref_q = NULL;
  char err[512];
  diag d = {0};
  int rc = 2;
  if (npy_read(argv[2], &cal, err, sizeof err) || npy_read(argv[3], &test, err, sizeof err) ||
      npy_read(argv[4], &lab, err, sizeof err)) {
    fprintf(stderr, "digits-eval: %s\n", err);
    goto done;
  }
  if (!(gf = load(argv[1], NULL, &d))) {
    fprintf(stderr, "digits-eval: %s\n", d.msg);
    goto done;
  }
  if (gf->n_inputs != 1 || gf->inputs[0]->dtype != IR_F32 || gf->outputs[0]->dtype != IR_F32) {
    fprintf(stderr, "digits-eval: %s: needs one f32 graph input and an f32 output\n", argv[1]);
    goto done;
  }
  size_t bytes = (size_t)ir_value_numel(gf->inputs[0]) * sizeof(float);
  int n_cal = (int)(cal.nbytes / bytes), n_test = (int)(test.nbytes / bytes);
  if (cal.dtype != NPY_F32 || test.dtype != NPY_F32 || n_cal < 1 || n_test < 1 || cal.nbytes % bytes ||
      test.nbytes % bytes) {
    fprintf(stderr, "digits-eval: %s, %s: do not hold whole f32 images of %s's input\n", argv[2], argv[3], argv[1]);
    goto done;
  }
  if ((lab.dtype != NPY_I64 && lab.dtype != NPY_I32) || lab.ndim != 1 || lab.shape[0] != n_test) {
    fprintf(stderr, "digits-eval: %s: needs %d int64 or int32 labels (one per test image)\n", argv[4], n_test);
    goto done;
  }
  samples = malloc(sizeof(void *) * (size_t)n_cal);
  for (int s = 0; s < n_cal; s++) samples[s] = (const char *)cal.data + (size_t)s * bytes;
  calib_data c = {.n_samples = n_cal, .n_inputs = 1, .samples = samples, .method = CALIB_MINMAX};
  if (!(gq = load(argv[1], &c, &d))) {
    fprintf(stderr, "digits-eval: %s: quantisation: %s\n", argv[1], d.msg);
    goto done;
  }
  rc = 0;

  /* 2. Float and int8 references over the test set. */
  int64_t classes = ir_value_numel(gf->outputs[0]);
  size_t out_bytes = (size_t)classes * sizeof(float);
  ref_q = malloc(out_bytes * (size_t)n_test); /* int8 reference outputs, kept for step 3 */
  int right_f = 0, right_q = 0;
  for (int s = 0; s < n_test && !rc; s++) {
    const void *in[1] = {(const char *)test.data + (size_t)s * bytes};
    void *of[1] = {0}, *oq[1] = {0};
    int64_t want = lab.dtype == NPY_I64 ? ((const int64_t *)lab.data)[s] : ((const int32_t *)lab.data)[s];
    if (ref_run(gf, in, of, NULL, NULL, &d) || ref_run(gq, in, oq, NULL, NULL, &d)) {
      fprintf(stderr, "digits-eval: test image %d: %s\n", s, d.msg);
      rc = 2;
    } else {
      right_f += argmax(of[0], classes) == want;
      right_q += argmax(oq[0], classes) == want;
      memcpy(ref_q + (size_t)s * (size_t)classes, oq[0], out_bytes);
    }
    free(of[0]), free(oq[0]);
  }
  if (!rc) {
    double af = 100.0 * right_f / n_test, aq = 100.0 * right_q / n_test;
    char what[256];
    printf("digits: %d test images, %d calibration images (minmax): float %.2f%% (%d), int8 %.2f%% (%d), "
           "int8 - float %+.2f points\n", n_test, n_cal, af, right_f, aq, right_q, aq - af);
    snprintf(what, sizeof what, "float accuracy %.2f%% >= %.2f%%", af, min_float);
    verdict(af >= min_float, what);
    snprintf(what, sizeof what, "int8 accuracy %.2f%% >= float - %.2f points", aq, max_drop);
    verdict(aq >= af - max_drop - 1e-9, what);
  }

  /* 3. The lowered model on the C model, per target. */
  if (batch > n_test) batch = n_test;
  for (int t = 0; t < n_targets && !rc; t++) {
    const tsl_target_t *tgt = tsl_target_find(targets[t]);
    lower_opts lo = {0};
    lower_program *p = lower_graph(gq, tgt, &lo, &d);
    char what[2600], msg[2048] = "";
    if (!p) {
      snprintf(what, sizeof what, "%s: lowering: %s", targets[t], d.msg);
      verdict(0, what);
      continue;
    }
    const lower_tensor *ti = lower_find_tensor(p, gq->inputs[0]), *to = lower_find_tensor(p, gq->outputs[0]);
    if (!ti || !to || ti->blocked || to->blocked || to->bytes != out_bytes || ti->bytes != bytes) {
      snprintf(what, sizeof what, "%s: graph input/output not plain f32 in the DRAM window", targets[t]);
      verdict(0, what);
      lower_program_free(p);
      continue;
    }
    npu_model_t *m = npu_model_new(tgt);
    uint8_t *dram = malloc(p->dram_bytes);
    uint64_t cycles = 0;
    int exact = 0, right_npu = 0, right_ref = 0, nfb = 0, ok = 1;
    uint32_t cmds = 0;
    for (int i = 0; i < p->n_kernels; i++) {
      nfb += p->kernels[i].kind == LOWER_K_FALLBACK;
      cmds += p->kernels[i].stream.n;
    }
    for (int s = 0; s < batch && ok; s++) {
      const float *want = ref_q + (size_t)s * (size_t)classes;
      int64_t label = lab.dtype == NPY_I64 ? ((const int64_t *)lab.data)[s] : ((const int32_t *)lab.data)[s];
      memset(dram, 0, p->dram_bytes);
      memcpy(dram + p->consts_base, p->consts, p->consts_bytes);
      memcpy(dram + ti->dram, (const char *)test.data + (size_t)s * bytes, bytes);
      if (run_program(p, m, dram, &cycles, msg, sizeof msg)) {
        ok = 0;
        break;
      }
      const float *got = (const float *)(dram + to->dram);
      exact += !memcmp(got, want, out_bytes);
      right_npu += argmax(got, classes) == label;
      right_ref += argmax(want, classes) == label;
    }
    if (!ok) {
      snprintf(what, sizeof what, "%s: %s", targets[t], msg);
      verdict(0, what);
    } else {
      printf("digits on %s: %d NPU kernels + %d fallbacks, %u commands; C model %llu NPU cycles per inference; "
             "%d/%d outputs bit-exact; accuracy on them %.2f%% (int8 reference %.2f%%)\n",
             targets[t], p->n_kernels - nfb, nfb, cmds, (unsigned long long)(cycles / (uint64_t)batch), exact, batch,
             100.0 * right_npu / batch, 100.0 * right_ref / batch);
      snprintf(what, sizeof what, "%s: %d/%d test images bit-exact with the int8 reference", targets[t], exact, batch);
      verdict(exact == batch, what);
      snprintf(what, sizeof what, "%s: accuracy on %d images equals the int8 reference's (%d right)", targets[t],
               batch, right_npu);
      verdict(right_npu == right_ref, what);
    }
    free(dram);
    npu_model_free(m);
    lower_program_free(p);
  }

  printf("%d passed, %d failed\n", passed, failed);
done:
  free(ref_q);
  free(samples);
  npy_free(&cal), npy_free(&test), npy_free(&lab);
  ir_graph_free(gf), ir_graph_free(gq);
  return rc ? rc : failed != 0;
}
