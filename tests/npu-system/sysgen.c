/* sysgen.c: tessel-npu-sysgen, the stream generator of the NPU system tests
 * (docs/npu-system.md).
 *
 *   tessel-npu-sysgen --target T --seed S --count N --kind valid|errors
 *                     --batch OUT.bin --expect OUT.txt [--check-coverage]
 *
 * Builds N random cases for target T, each a command stream plus its DRAM
 * window, runs each on the C model (an instrumented copy, probe.c), and
 * writes (1) the batch file the test firmware runs on the RTL (npu_batch.h)
 * and (2) the line per case the firmware must print, from the model's result.
 *
 * valid: streams of 1..4 independent kernels (conv/matmul with hardware
 *   loops, depthwise, residual add, pooling; epilogue with pooling, raw and
 *   scratchpad stores), each with fresh SRAM and DRAM regions, ordered by
 *   tokens, so no result depends on timing. Every case must run clean.
 * errors: a valid case with one planted fault (bad opcode, reserved bit,
 *   scratchpad/accumulator range, DRAM window, deadlock, loop leaving the
 *   stream); the model's code and index are the expectation.
 *
 * Prints coverage (opcodes, pad sides and values, strides, dilation, loop
 * nesting, rounding ties, saturation); --check-coverage fails below the
 * thresholds of docs/npu-system.md. Exit: 0 ok, 1 a check failed, 2 usage. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h" /* outputs: a FIFO with no reader blocked fopen */
#include "gen_case.h"
#include "npu_batch.h"
#include "npu_model.h"
#include "probe.h"
#include "tessel_isa.h"
#include "tessel_targets.h"

/* ---- main ----------------------------------------------------------------- */
static void usage(void) {
  fprintf(stderr, "usage: tessel-npu-sysgen --target T --seed S --count N --kind valid|errors "
                  "--batch OUT.bin --expect OUT.txt [--initial OUT.txt] [--check-coverage]\n");
  exit(2);
}

static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (errno || end == s || *end || s[0] == '-') return -1;
  *v = x;
  return 0;
}

static int check(const char *what, uint64_t got, uint64_t min, int *fails) {
  int ok = got >= min;
  printf("  %-34s %8" PRIu64 "  (min %" PRIu64 ")%s\n", what, got, min, ok ? "" : "  BELOW THRESHOLD");
  if (!ok) (*fails)++;
  return ok;
}

int main(int argc, char **argv) {
  const char *tname = NULL, *kind = NULL, *batch_path = NULL, *expect_path = NULL, *initial_path = NULL;
  uint64_t seed = 1, count = 0;
  int check_cov = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--check-coverage")) {
      check_cov = 1;
      continue;
    }
    if (i + 1 >= argc) usage();
    const char *v = argv[++i];
    if (!strcmp(a, "--target")) tname = v;
    else if (!strcmp(a, "--kind")) kind = v;
    else if (!strcmp(a, "--batch")) batch_path = v;
    else if (!strcmp(a, "--expect")) expect_path = v;
    else if (!strcmp(a, "--initial")) initial_path = v;
    else if (!strcmp(a, "--seed")) {
      if (parse_u64(v, &seed)) {
        fprintf(stderr, "tessel-npu-sysgen: --seed: '%s' is not a number\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--count")) {
      if (parse_u64(v, &count) || count < 1 || count > NPU_BATCH_MAX_CASES) {
        fprintf(stderr, "tessel-npu-sysgen: --count: '%s' is not in 1..%u\n", v, NPU_BATCH_MAX_CASES);
        return 2;
      }
    } else {
      fprintf(stderr, "tessel-npu-sysgen: unknown option '%s'\n", a);
      usage();
    }
  }
  if (!tname || !kind || !batch_path || !expect_path || !count) usage();
  const tsl_target_t *t = tsl_target_find(tname);
  if (!t) {
    fprintf(stderr, "tessel-npu-sysgen: --target: unknown target '%s'\n", tname);
    return 2;
  }
  int errors = !strcmp(kind, "errors");
  int gemm = !strcmp(kind, "gemm-resident") ? 1 : !strcmp(kind, "gemm-dram") ? 2 : 0;
  if (!errors && !gemm && strcmp(kind, "valid")) {
    fprintf(stderr, "tessel-npu-sysgen: --kind: '%s' is not valid, errors, gemm-resident or gemm-dram\n", kind);
    return 2;
  }
  /* gemm-resident: case 0 loads the operands, case 1 computes on them */
  if (gemm) count = gemm == 1 ? 2 : 1;

  /* Batch image: header, case table, then data. */
  size_t cap = sizeof(npu_batch_hdr_t) + count * sizeof(npu_batch_case_t);
  size_t size = cap;
  /* Every failure below goes to `fail`, which releases what is held (so
   * the ASan build's leak check stays quiet on bad arguments too). */
  uint8_t *batch = calloc(1, cap);
  FILE *ex = NULL, *in = NULL, *bf = NULL;
  gcase_t *g = NULL;
  npu_model_t *m = NULL;
  const char *why = "out of memory";
  ex = batch ? host_file_open_out(expect_path, "w", &why) : NULL;
  if (!batch || !ex) {
    fprintf(stderr, "tessel-npu-sysgen: %s: %s\n", expect_path, why);
    goto fail;
  }
  in = initial_path ? host_file_open_out(initial_path, "w", &why) : NULL;
  if (initial_path && !in) {
    fprintf(stderr, "tessel-npu-sysgen: %s: %s\n", initial_path, why);
    goto fail;
  }
  g = malloc(sizeof *g);
  m = npu_model_new(t);
  if (!g || !m) {
    fprintf(stderr, "tessel-npu-sysgen: out of memory\n");
    goto fail;
  }
  static const unsigned cmp[NPU_BATCH_NCMP] = NPU_BATCH_CMP_COUNTERS;
  int bad = 0;
  uint64_t planted_miss = 0;
  for (uint64_t k = 0; k < count; k++) {
    int intended = -1;
    for (int attempt = 0; attempt < 100; attempt++) {
      memset(g, 0, sizeof *g);
      g->t = t;
      g->dim = (int)t->dim;
      gen_seed((seed * 0x9E3779B97F4A7C15ull) ^ (k * 0xD1B54A32D192ED03ull) ^ (uint64_t)attempt * 77 ^ 1);
      coverage_t saved = gen_cov;
      if (gemm) {
        if (gen_gemm(g, gemm == 2 ? 2 : (int)k) != 0 || g->overflow) {
          fprintf(stderr, "tessel-npu-sysgen: target %s cannot hold the 256x256x256 GEMM\n", t->name);
          goto fail;
        }
        /* both parts share one window: operands at the same offsets */
        break;
      }
      if (gen_valid(g) != 0) {
        gen_cov = saved;
        continue;
      }
      if (!errors) break;
      intended = gen_fault(g, (int)(k % 8));
      if (intended >= 0 && !g->overflow) break;
      gen_cov = saved;
    }
    if (g->n == 0) {
      fprintf(stderr, "tessel-npu-sysgen: case %" PRIu64 ": could not build a stream\n", k);
      goto fail;
    }
    uint32_t wsize = (g->win_used + 7u) & ~7u;
    if (wsize == 0) wsize = 8;
    static uint8_t win[MAX_WINDOW];
    memcpy(win, g->win, wsize);
    if (in)
      fprintf(in, "case %" PRIu64 " ncmds=%" PRIu32 " stream=%08" PRIx32 " window=%08" PRIx32 "\n", k, g->n,
              npu_batch_crc32(0, g->stream, 16u * g->n), npu_batch_crc32(0, g->win, wsize));
    npu_result_t r;
    npu_run_t run = {.stream = g->stream, .stream_len = g->n, .dram = win, .dram_size = wsize};
    npu_model_run(m, &run, &r);
    const uint64_t *c = npu_model_counters(m);
    if (!errors && r.code != 0) {
      fprintf(stderr, "tessel-npu-sysgen: case %" PRIu64 ": generated stream is invalid: %s\n", k, r.message);
      bad++;
    }
    if (errors) {
      if (r.code != intended) planted_miss++;
      if (r.code >= 0 && r.code < TSL_NERRORS) gen_cov.err[r.code]++;
      if (r.code == 0) {
        fprintf(stderr, "tessel-npu-sysgen: case %" PRIu64 ": planted fault did not fail\n", k);
        bad++;
      }
    }
    gen_cov.nest[g->max_depth < 7 ? g->max_depth : 7]++;
    /* the case's data */
    size_t soff = (size + 15) & ~(size_t)15;
    size_t woff = (soff + 16u * g->n + 63) & ~(size_t)63;
    size_t nsize = woff + wsize;
    uint8_t *nb = realloc(batch, nsize);
    if (!nb) {
      fprintf(stderr, "tessel-npu-sysgen: out of memory\n");
      goto fail;
    }
    batch = nb;
    memset(batch + size, 0, nsize - size);
    memcpy(batch + soff, g->stream, 16u * g->n);
    memcpy(batch + woff, g->win, wsize);
    size = nsize;
    npu_batch_case_t *bc = (npu_batch_case_t *)(batch + sizeof(npu_batch_hdr_t)) + k;
    bc->stream_off = (uint32_t)soff;
    bc->ncmds = g->n;
    bc->window_off = (uint32_t)woff;
    bc->window_size = wsize;
    /* watchdog: generous against the model's estimate, but a hang ends fast */
    bc->timeout = (uint32_t)(c[TSL_CNT_CYCLES] * 20 + 200000);
    if (r.code != 0) {
      fprintf(ex, "case %" PRIu64 " code=%d index=%" PRIu32 " crc=* cnt=*\n", k, r.code, r.index);
    } else {
      fprintf(ex, "case %" PRIu64 " code=0 index=%" PRIu32 " crc=%08" PRIx32 " cnt=", k, r.index,
              npu_batch_crc32(0, win, wsize));
      for (int i = 0; i < NPU_BATCH_NCMP; i++) fprintf(ex, "%s%" PRIx64, i ? "," : "", c[cmp[i]]);
      fprintf(ex, " cycles=%" PRIu64 "\n", c[TSL_CNT_CYCLES]);
    }
  }
  npu_batch_hdr_t *h = (npu_batch_hdr_t *)batch;
  h->magic = NPU_BATCH_MAGIC;
  h->version = NPU_BATCH_VERSION;
  h->ncases = (uint32_t)count;
  h->target_hash = t->hash;
  h->total_bytes = (uint32_t)size;
  why = "write failed";
  bf = host_file_open_out(batch_path, "wb", &why);
  int bf_bad = !bf || fwrite(batch, 1, size, bf) != size;
  if ((bf && fclose(bf) != 0) || bf_bad) {
    fprintf(stderr, "tessel-npu-sysgen: %s: cannot write: %s\n", batch_path, why);
    goto fail;
  }
  int in_bad = in && fclose(in) != 0;
  in = NULL;
  if (in_bad) {
    fprintf(stderr, "tessel-npu-sysgen: %s: cannot write\n", initial_path);
    goto fail;
  }
  int ex_bad = fclose(ex) != 0;
  ex = NULL;
  if (ex_bad) {
    fprintf(stderr, "tessel-npu-sysgen: %s: cannot write\n", expect_path);
    goto fail;
  }
  npu_model_free(m);
  free(g);
  free(batch);

  /* ---- coverage report ---- */
  int fails = 0;
  printf("coverage: %s, %" PRIu64 " %s cases, seed %" PRIu64 ", batch %zu bytes\n", t->name, count, kind, seed,
         size);
  if (gemm) {
    /* no coverage for the benchmark streams */
  } else if (!errors) {
    static const uint8_t ops[] = {TSL_OP_NOP,     TSL_OP_LOOP,  TSL_OP_MARK,    TSL_OP_LSTRIDE,  TSL_OP_CFG_LOAD,
                                  TSL_OP_LOAD,    TSL_OP_CFG_EXEC, TSL_OP_MATMUL, TSL_OP_DWCONV, TSL_OP_CFG_VEC,
                                  TSL_OP_VADD,    TSL_OP_VPOOL, TSL_OP_ENOP,    TSL_OP_CFG_STORE, TSL_OP_CFG_EPI,
                                  TSL_OP_STORE};
    for (size_t i = 0; i < sizeof ops; i++) {
      char what[64];
      snprintf(what, sizeof what, "opcode %s", tsl_cmd_desc(ops[i])->name);
      check(what, gen_cov.opcode[ops[i]], 1, &fails);
    }
    static const char *sides[4] = {"top", "bottom", "left", "right"};
    for (int i = 0; i < 4; i++) {
      char what[64];
      snprintf(what, sizeof what, "LOAD pad %s", sides[i]);
      check(what, gen_cov.pad_side[i], count / 10, &fails);
    }
    uint64_t distinct = 0;
    for (int i = 0; i < 256; i++) distinct += gen_cov.pad_value[i] != 0;
    check("LOAD pad lanes (n0 < DIM)", gen_cov.pad_lanes, count / 10, &fails);
    check("distinct pad values", distinct, count / 10 < 60 ? count / 10 : 60, &fails);
    check("pad value 0", gen_cov.pad_value[0], 1, &fails);
    check("pad value -128", gen_cov.pad_value[128], 1, &fails);
    check("taps outside the image", gen_cov.gen_pad, count / 10, &fails);
    for (int i = 1; i <= 3; i++) {
      char what[64];
      snprintf(what, sizeof what, "stride %d", i);
      check(what, gen_cov.stride[i], count / 20, &fails);
      snprintf(what, sizeof what, "dilation %d", i);
      check(what, gen_cov.dil[i], count / 20, &fails);
    }
    for (int i = 1; i <= 3; i++) {
      char what[64];
      snprintf(what, sizeof what, "loop nesting depth %d (cases)", i);
      check(what, gen_cov.nest[i], count / 50 + 1, &fails);
    }
    static const struct {
      int q, f;
      const char *what;
    } tok[] = {{TSL_Q_LOAD, 1, "LOAD pop_next (EXEC->LOAD)"},     {TSL_Q_LOAD, 3, "LOAD push_next (LOAD->EXEC)"},
               {TSL_Q_EXEC, 0, "EXEC pop_prev (LOAD->EXEC)"},     {TSL_Q_EXEC, 1, "EXEC pop_next (STORE->EXEC)"},
               {TSL_Q_EXEC, 2, "EXEC push_prev (EXEC->LOAD)"},    {TSL_Q_EXEC, 3, "EXEC push_next (EXEC->STORE)"},
               {TSL_Q_STORE, 0, "STORE pop_prev (EXEC->STORE)"},  {TSL_Q_STORE, 2, "STORE push_prev (STORE->EXEC)"}};
    for (size_t i = 0; i < sizeof tok / sizeof tok[0]; i++) check(tok[i].what, gen_cov.token[tok[i].q][tok[i].f], count / 20, &fails);
    check("max pooling in the epilogue", gen_cov.maxpool, count / 20, &fails);
    check("raw int32 stores", gen_cov.raw_store, count / 20, &fails);
    check("stores to scratchpad", gen_cov.spad_store, count / 20, &fails);
    check("accumulate passes", gen_cov.accumulate, count / 20, &fails);
    check("in-place VADD", gen_cov.inplace_vadd, 1, &fails);
    check("global pooling", gen_cov.global_pool, 1, &fails);
    check("pooling excluding pad", gen_cov.exclude_pad, count / 20, &fails);
    check("rounding ties, requant", probe_stats.tie_requant, count, &fails);
    check("rounding ties, VADD", probe_stats.tie_vadd, count / 10, &fails);
    check("rounding ties, average pool", probe_stats.tie_pool, count / 20, &fails);
    check("int32 saturation (acc + bias)", probe_stats.sat32, count / 10, &fails);
    check("clamped at lo", probe_stats.clamp_lo, count, &fails);
    check("clamped at hi", probe_stats.clamp_hi, count, &fails);
  } else {
    static const int codes[] = {TSL_ERR_BAD_OPCODE, TSL_ERR_BAD_FIELD, TSL_ERR_SPAD_RANGE, TSL_ERR_ACC_RANGE,
                                TSL_ERR_DRAM_RANGE, TSL_ERR_DEADLOCK, TSL_ERR_LOOP};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
      char what[64];
      snprintf(what, sizeof what, "error %s", tsl_err_name(codes[i]));
      check(what, gen_cov.err[codes[i]], count / 16, &fails);
    }
    printf("  %-34s %8" PRIu64 "\n", "planted fault reported otherwise", planted_miss);
  }
  if (bad) printf("FAIL %d generated cases did not behave\n", bad);
  if (check_cov && fails) printf("FAIL coverage: %d figures below their thresholds\n", fails);
  return bad || (check_cov && fails) ? 1 : 0;

fail:
  if (ex) fclose(ex);
  if (in) fclose(in);
  if (m) npu_model_free(m);
  free(g);
  free(batch);
  return 1;
}
