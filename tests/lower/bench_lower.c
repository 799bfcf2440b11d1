/* bench_lower: figures of the lowering on the generated nets (make bench-lower).
 *
 * Per net and target: the lowering's time (import and quantisation excluded),
 * the cost model's estimate, the C model's cycles and DRAM bytes (timing-only
 * run: counters without data), and DRAM bytes against the compulsory lower
 * bound (weights + graph input + graph output, once), with and without
 * fusion.  Fallback kernels are not counted (they run on the control core).
 * First, per net, the whole `tessel compile` (import, passes, calibration,
 * PTQ, lowering, package) as a process: best wall time of three runs and
 * its CPU time (user + system), the figure for "on one core". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "lower.h"
#include "npu_model.h"
#include "npy.h"
#include "onnx_import.h"
#include "pipeline.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench(ir_graph *g, const char *net, const char *tname, int no_fusion) {
  const tsl_target_t *t = tsl_target_find(tname);
  lower_opts o = {.no_fusion = no_fusion & 1, .no_sram_residency = no_fusion >> 1};
  diag d = {0};
  double t0 = now();
  lower_program *p = lower_graph(g, t, &o, &d);
  double ms = 1e3 * (now() - t0);
  if (!p) {
    printf("%-14s %-6s %-9s lowering failed: %s\n", net, tname, no_fusion == 3 ? "neither" : no_fusion == 2 ? "no-sram" : no_fusion ? "no-fusion" : "default", d.msg);
    return;
  }
  uint8_t *dram = calloc(p->dram_bytes, 1);
  npu_model_t *m = npu_model_new(t);
  uint64_t est = 0, cycles = 0, dram_bytes = 0, macs = 0, busiest = 0;
  double worst = 0; /* the largest per-kernel |estimate - C model| / C model */
  int kernels = 0;
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK) continue;
    kernels++;
    uint64_t e = lower_estimate_cycles(t, &k->stream);
    est += e;
    busiest += lower_busiest_unit_cycles(t, &k->stream);
    npu_run_t run = {.stream = k->stream.bytes, .stream_len = k->stream.n, .dram = dram, .dram_size = p->dram_bytes,
                     .timing_only = 1};
    npu_result_t r;
    if (npu_model_run(m, &run, &r) != 0) {
      printf("%s %s: kernel %d: %s\n", net, tname, i, r.message);
      break;
    }
    const uint64_t *c = npu_model_counters(m);
    cycles += c[TSL_CNT_CYCLES];
    double err = c[TSL_CNT_CYCLES] ? ((double)e - (double)c[TSL_CNT_CYCLES]) / (double)c[TSL_CNT_CYCLES] : 0;
    if (err < 0) err = -err;
    if (err > worst) worst = err;
    dram_bytes += c[TSL_CNT_DRAM_RD_BYTES] + c[TSL_CNT_DRAM_WR_BYTES];
    macs += c[TSL_CNT_MACS];
  }
  /* Compulsory: the constants once, the first NPU kernel's input and the last one's output once. */
  uint64_t comp = p->consts_bytes;
  for (int i = 0; i < p->n_kernels; i++)
    if (p->kernels[i].kind != LOWER_K_FALLBACK) {
      comp += p->tensors[p->kernels[i].in].bytes;
      break;
    }
  for (int i = p->n_kernels - 1; i >= 0; i--)
    if (p->kernels[i].kind != LOWER_K_FALLBACK) {
      comp += p->tensors[p->kernels[i].out].bytes;
      break;
    }
  printf("%-14s %-6s %-9s %3d kernels  lower %7.1f ms  estimate %9llu  C model %9llu cycles  est.err %+5.1f%% "
         "(worst kernel %4.1f%%, busiest-unit bound %+5.1f%%)  DRAM %9llu B = %.2fx compulsory %llu B\n",
         net, tname, no_fusion == 3 ? "neither" : no_fusion == 2 ? "no-sram" : no_fusion ? "no-fusion" : "default", kernels, ms, (unsigned long long)est,
         (unsigned long long)cycles, cycles ? 100.0 * ((double)est - (double)cycles) / (double)cycles : 0.0,
         100.0 * worst, cycles ? 100.0 * ((double)busiest - (double)cycles) / (double)cycles : 0.0,
         (unsigned long long)dram_bytes, (double)dram_bytes / (double)comp, (unsigned long long)comp);
  (void)macs;
  npu_model_free(m);
  free(dram);
  lower_program_free(p);
}

static double children_cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_CHILDREN, &u);
  return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
         1e-6 * (double)u.ru_stime.tv_usec;
}

/* `tessel compile` of one net at npu8 with its calibration file, three times. */
static void bench_compile(const char *tessel, const char *dir, const char *net) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' compile '%s/nets/%s.onnx' --calib '%s/calib/%s.calib.npy' -o /dev/null", tessel,
           dir, net, dir, net);
  double best = 1e9, best_cpu = 1e9;
  for (int r = 0; r < 3; r++) {
    double c0 = children_cpu(), t0 = now();
    if (system(cmd) != 0) {
      printf("%-14s tessel compile failed: %s\n", net, cmd);
      return;
    }
    double wall = now() - t0, cpu = children_cpu() - c0;
    best = wall < best ? wall : best;
    best_cpu = cpu < best_cpu ? cpu : best_cpu;
  }
  printf("%-14s tessel compile (import + passes + calibration + PTQ + lowering + package, npu8): "
         "%6.3f s wall (best of 3), %6.3f s CPU\n", net, best, best_cpu);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "tests/models";
  if (argc > 2) {
    static const char *all[] = {"tiny_cnn", "squeezenet1_1", "resnet18", "mobilenet_v2"};
    for (int n = 0; n < 4; n++) bench_compile(argv[2], dir, all[n]);
  }
  static const char *nets[] = {"tiny_cnn", "squeezenet1_1", "resnet18", "mobilenet_v2"};
  static const char *targets[] = {"npu4", "npu8", "npu16"};
  printf("lowering figures (timing-only C model runs; DRAM = bytes read + written by the NPU kernels)\n");
  printf("default: fusion and SRAM residency; no-fusion, no-sram: one of them off; neither: both off\n");
  for (int n = 0; n < 4; n++) {
    char path[512], err[256] = "";
    diag d = {0};
    snprintf(path, sizeof path, "%s/nets/%s.onnx", dir, nets[n]);
    ir_graph *g = onnx_import_file(path, NULL, 0, &d);
    npy_array cal = {0};
    snprintf(path, sizeof path, "%s/calib/%s.calib.npy", dir, nets[n]);
    pipeline_opts po = {.dump = stderr};
    int rc = !g || npy_read(path, &cal, err, sizeof err) || pipeline_graph(g, &po, &d);
    if (!rc) {
      size_t per = cal.nbytes / (size_t)cal.shape[0];
      const void *samples[4];
      int ns = cal.shape[0] < 4 ? (int)cal.shape[0] : 4;
      for (int i = 0; i < ns; i++) samples[i] = (const uint8_t *)cal.data + per * (size_t)i;
      calib_data cd = {.n_samples = ns, .n_inputs = 1, .samples = samples, .method = CALIB_MINMAX};
      po.calib = &cd;
      rc = pipeline_quant(g, &po, &d);
    }
    if (rc) {
      printf("%s: setup failed: %s %s\n", nets[n], d.msg, err);
      npy_free(&cal);
      ir_graph_free(g);
      return 1;
    }
    for (int t = 0; t < 3; t++)
      for (int f = 0; f < 4; f++) bench(g, nets[n], targets[t], f); /* bit 0: no fusion, bit 1: no residency */
    npy_free(&cal);
    ir_graph_free(g);
  }
  return 0;
}
