/* cli: argument parsing and the subcommands.  All messages go to stderr as
 * "tessel: ..." lines; output (IR dumps) goes to stdout or -o. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"
#include "lower_compile.h"
#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"
#include "nonfinite.h"
#include "npy.h"
#include "onnx_import.h"
#include "out_file.h"
#include "pipeline.h"
#include "calibrate.h"
#include "cli_opts.h"
#include "input_samples.h"
#include "quant.h"
#include "ref_exec.h"
#include "profile_cli.h"
#include "run_cli.h"
#include "tessel_rt.h"
#include "tensor_dump.h"
#include "compare_cli.h"
#include "operators_cli.h"
#include "tpkg_inspect.h"
#include "tune_cli.h"

enum { MAX_LIST = 64 };

typedef struct cli_args {
  const char *cmd;                   /* subcommand */
  const char *model;                 /* MODEL.onnx or IN.tir */
  const char *binds[MAX_LIST];       /* NAME=FILE.npy */
  int n_binds;
  const char *inputs[MAX_LIST];      /* ref: NAME=FILE.npy or FILE.npy */
  int n_inputs;
  const char *outputs[MAX_LIST];     /* -o files */
  int n_outputs;
  const char *shapes[MAX_LIST];      /* --input-shape NAME=D0xD1x... */
  int n_shapes;
  const char *calib[MAX_LIST];       /* calibration inputs (.npy) for ptq */
  int n_calib;
  calib_method calib_method;         /* --calib-method */
  double calib_percentile;           /* --calib-percentile */
  int quantised;                     /* ir/ref: run the quantisation passes */
  const char *target;                /* compile: NPU target */
  const char *passes;                /* opt: comma-separated pass names */
  pipeline_opts pipe;                /* dumps and verification */
  ir_print_opts print;               /* printer options */
  int raw;                           /* ir: no shape inference */
  int ranges;                        /* ref: print min/max of every computed value */
  const char *dump_tensors;          /* ref: write every computed value as a .npy into this folder */
  int report;                        /* compile: print the memory fit and kernels */
  int no_fusion;                     /* compile: one kernel per op */
  int no_sram_residency;             /* compile: intermediates through DRAM */
  int no_pack_input;                 /* compile: every NPU input blocked */
  int int8_io;                       /* compile: int8 graph inputs/outputs (no edge (de)quantisation) */
  int npu_only;                      /* compile: refuse ops the control core would run */
  const char *emit_c;                /* compile: --emit-c OUT.c, the package as a C array */
  long long cmd_sram_limit;          /* compile: command SRAM budget in bytes (0: the target's) */
  const char *tuning_log;            /* compile: --tuning-log tune.jsonl (docs/tuning.md) */
  int unsupported_op;                /* the import failed on an operator outside its table */
} cli_args;

static const char *const usage_main =
    "usage: tessel COMMAND [options]\n"
    "commands:\n"
    "  ir       print the IR of an ONNX model (or of a .tir file)\n"
    "  opt      run chosen graph passes on textual IR and print the result\n"
    "  ref      run a model on the float reference executor (.npy in, .npy out)\n"
    "  compile  compile a model into a package (.tpkg) for an NPU target\n"
    "  passes   list the graph passes\n"
    "  operators list the ONNX operators the importer reads (--markdown: docs/operators.md)\n"
    "  inspect  validate a model package and print it (streams disassembled)\n"
    "  emit-c   write a model package as a C array for firmware\n"
    "  run      run a model package on the simulated SoC or the C model (.npy in, .npy out)\n"
    "  compare  compare .npy results tensor by tensor (engines, int8 and float references)\n"
    "  profile  report a run's profile: per-kernel table, CSV/JSON, Chrome trace, SVG charts\n"
    "  tune     search per-kernel schedules on the simulator or the C model, log them (JSON lines)\n"
    "options: --help, --version (also after each command)\n";

static const char *const usage_ir =
    "usage: tessel ir MODEL.onnx|IN.tir [--bind NAME=FILE.npy]... [--input-shape NAME=D0xD1x...]...\n"
    "                 [--raw] [--elide=N] [-o OUT.tir]\n"
    "                 [--quantised [--calib [NAME=]X.npy]... [--calib-method spread|minmax|percentile|mse]\n"
    "                  [--calib-percentile P] [--print-after=PASS ...]]\n"
    "  prints the imported IR after shape inference (--raw: exactly as imported or parsed)\n"
    "  --quantised runs the graph and quantisation passes (ptq from --calib data for a\n"
    "  float model) and prints the quantised IR with its scales and zero points\n"
    "  --elide=N   print constants with more than N elements as <N elements> (not parseable)\n";

static const char *const usage_opt =
    "usage: tessel opt IN.tir --pass=P[,P...] [--print-before=P] [--print-after=P]\n"
    "                  [--print-after-all] [--verify-each] [--elide=N] [-o OUT.tir]\n"
    "  verifies IN.tir, runs shape-infer (always, first), then the passes in order,\n"
    "  and prints the result.  Passes: see `tessel passes`.\n";

static const char *const usage_ref =
    "usage: tessel ref MODEL.onnx|IN.tir [--input [NAME=]X.npy]... -o OUT.npy [-o OUT2.npy]...\n"
    "                  [--bind NAME=FILE.npy]... [--print-after=PASS ...] [--verify-each] [--ranges]\n"
    "                  [--dump-tensors DIR] [--quantised] [--calib [NAME=]X.npy]... [--calib-method M] [--calib-percentile P]\n"
    "  imports, runs the graph passes, then the float reference executor.  Inputs\n"
    "  are given by name or in graph-input order (symbolic dimensions take the\n"
    "  .npy's sizes); one -o per graph output, in order.  --ranges prints\n"
    "  'range %VALUE MIN MAX' for every computed value (calibration data).\n"
    "  --quantised (implied by --calib) runs the quantisation passes and then the int8\n"
    "  reference: quantised ops with exactly the NPU's integer arithmetic.\n"
    "  A batch dimension N where the model has 1 runs N times, outputs stacked.\n"
    "  --dump-tensors DIR writes every computed value of the first run as DIR/NAME.npy\n"
    "  (quantised values X.q also dequantised as X.npy): compare dumps with tessel compare.\n";

static const char *const usage_compile =
    "usage: tessel compile MODEL.onnx [-o OUT.tpkg] [--emit-c OUT.c] [--target T] [--calib [NAME=]X.npy]...\n"
    "                      [--bind NAME=FILE.npy]... [--print-after=PASS|STAGE | --print-after-all]\n"
    "                      [--print-before=PASS|STAGE] [--verify-each] [--elide=N]\n"
    "                      [--input-shape NAME=D0xD1x...]... [--calib-method M] [--calib-percentile P]\n"
    "                      [--report] [--no-fusion] [--no-sram-residency] [--no-pack-input]\n"
    "                      [--cmd-sram-limit BYTES] [--tuning-log tune.jsonl] [--int8-io] [--npu-only]\n"
    "  runs import, the graph passes, quantisation (ptq with --calib) and the lowering\n"
    "  (docs/lowering.md) for target T (npu4, npu8 default, npu16), and writes the\n"
    "  package (-o and/or --emit-c: the same bytes as a C array, see `tessel emit-c`).\n"
    "  --calib NAME=X.npy: samples of graph input NAME, stacked along dimension 0; repeat it\n"
    "  for more samples and for every input (a bare X.npy: the input of a one-input model).\n"
    "  --report prints the target's memory fit and every kernel.\n"
    "  --int8-io: graph inputs and outputs are the int8 tensors the model computes on\n"
    "  (scale, zero point and layout, blocked or plain, in the package's I/O records)\n"
    "  instead of float ones quantised and dequantised by the firmware.\n"
    "  Every op the NPU does not run runs on the control core (docs/operators.md);\n"
    "  --npu-only refuses those instead (but Softmax and the edge (de)quantisation).\n"
    "  --cmd-sram-limit cuts kernel streams into segments of at most BYTES (tests;\n"
    "  default: the target's command SRAM).\n"
    "  --tuning-log applies the best schedule per workload from `tessel tune` logs (docs/tuning.md).\n"
    "  --print-after/--print-before also take a lowering STAGE: layout, fusion, sram-plan, tiling,\n"
    "  emission (docs/compiler.md, \"Lowering dumps\").\n";

static const char *const usage_passes =
    "usage: tessel passes\n"
    "  lists the graph passes (for opt --pass, --print-after and --print-before)\n";

static const cli_opt passes_options[] = {{0}};

static const char *usage_of(const char *cmd) {
  if (!strcmp(cmd, "passes")) return usage_passes;
  if (!strcmp(cmd, "ir")) return usage_ir;
  if (!strcmp(cmd, "opt")) return usage_opt;
  if (!strcmp(cmd, "ref")) return usage_ref;
  if (!strcmp(cmd, "compile")) return usage_compile;
  return usage_main;
}

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "tessel%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage_of(cmd ? cmd : ""));
  return CLI_USAGE;
}

enum {
  OPT_BIND = 1, OPT_INPUT_SHAPE, OPT_INPUT, OPT_OUTPUT, OPT_CALIB, OPT_CALIB_METHOD, OPT_CALIB_PERCENTILE,
  OPT_QUANTISED, OPT_TARGET, OPT_PASS, OPT_PRINT_AFTER, OPT_PRINT_BEFORE, OPT_ELIDE, OPT_PRINT_AFTER_ALL,
  OPT_VERIFY_EACH, OPT_RAW, OPT_RANGES, OPT_DUMP_TENSORS, OPT_CMD_SRAM_LIMIT, OPT_TUNING_LOG, OPT_EMIT_C,
  OPT_REPORT, OPT_NO_FUSION, OPT_NO_SRAM_RESIDENCY, OPT_NO_PACK_INPUT, OPT_INT8_IO, OPT_NPU_ONLY,
};

/* The options ir, opt, ref and compile share.  Some are then refused with a
 * message of their own (--target is only for compile, --calib not for opt). */
#define COMMON_OPTS                                                                                   \
  {OPT_BIND, "--bind", NULL, 1, CLI_OPT_LIST}, {OPT_INPUT_SHAPE, "--input-shape", NULL, 1, CLI_OPT_LIST}, \
  {OPT_INPUT, "--input", NULL, 1, CLI_OPT_LIST}, {OPT_OUTPUT, "-o", "--output", 1, CLI_OPT_LIST},         \
  {OPT_CALIB, "--calib", NULL, 1, CLI_OPT_LIST}, {OPT_CALIB_METHOD, "--calib-method", NULL, 1, CLI_OPT_ONCE}, \
  {OPT_CALIB_PERCENTILE, "--calib-percentile", NULL, 1, CLI_OPT_ONCE},                                  \
  {OPT_QUANTISED, "--quantised", "--quantized", 0, CLI_OPT_ONCE},                                         \
  {OPT_TARGET, "--target", NULL, 1, CLI_OPT_ONCE}, {OPT_PASS, "--pass", NULL, 1, CLI_OPT_ONCE},             \
  {OPT_PRINT_AFTER, "--print-after", NULL, 1, CLI_OPT_ONCE},                                              \
  {OPT_PRINT_BEFORE, "--print-before", NULL, 1, CLI_OPT_ONCE}, {OPT_ELIDE, "--elide", NULL, 1, CLI_OPT_ONCE}, \
  {OPT_PRINT_AFTER_ALL, "--print-after-all", NULL, 0, CLI_OPT_ONCE},                                      \
  {OPT_VERIFY_EACH, "--verify-each", NULL, 0, CLI_OPT_ONCE}, {OPT_RAW, "--raw", NULL, 0, CLI_OPT_ONCE},     \
  {OPT_RANGES, "--ranges", NULL, 0, CLI_OPT_ONCE}

static const cli_opt opts_ir[] = {COMMON_OPTS, {0}};
static const cli_opt opts_opt[] = {COMMON_OPTS, {0}};
static const cli_opt opts_ref[] = {COMMON_OPTS, {OPT_DUMP_TENSORS, "--dump-tensors", NULL, 1, CLI_OPT_ONCE}, {0}};
static const cli_opt opts_compile[] = {
    COMMON_OPTS,
    {OPT_CMD_SRAM_LIMIT, "--cmd-sram-limit", NULL, 1, CLI_OPT_ONCE},
    {OPT_TUNING_LOG, "--tuning-log", NULL, 1, CLI_OPT_ONCE},
    {OPT_EMIT_C, "--emit-c", NULL, 1, CLI_OPT_ONCE},
    {OPT_REPORT, "--report", NULL, 0, CLI_OPT_ONCE},
    {OPT_NO_FUSION, "--no-fusion", NULL, 0, CLI_OPT_ONCE},
    {OPT_NO_SRAM_RESIDENCY, "--no-sram-residency", NULL, 0, CLI_OPT_ONCE},
    {OPT_NO_PACK_INPUT, "--no-pack-input", NULL, 0, CLI_OPT_ONCE},
    {OPT_INT8_IO, "--int8-io", NULL, 0, CLI_OPT_ONCE},
    {OPT_NPU_ONLY, "--npu-only", NULL, 0, CLI_OPT_ONCE},
    {0},
};

static const cli_opt *opts_of(const char *cmd) {
  if (!strcmp(cmd, "ir")) return opts_ir;
  if (!strcmp(cmd, "opt")) return opts_opt;
  if (!strcmp(cmd, "ref")) return opts_ref;
  return opts_compile;
}

static int push(const char *cmd, const char *opt, const char **list, int *n, const char *v) {
  if (*n == MAX_LIST) return usage_error(cmd, "too many %s options", opt);
  list[(*n)++] = v;
  return CLI_OK;
}

/* Parses options after the subcommand.  Returns CLI_OK, CLI_USAGE, or -1
 * when --help was handled. */
static int parse_args(int argc, char **argv, cli_args *a) {
  cli_opts p;
  cli_opts_init(&p, a->cmd, opts_of(a->cmd), argc, argv, 2);
  for (;;) {
    int id = cli_opts_next(&p);
    const char *v = p.value;
    char *end;
    switch (id) {
    case CLI_OPTS_END: return CLI_OK;
    case CLI_OPTS_HELP: fputs(usage_of(a->cmd), stdout); return -1;
    case CLI_OPTS_ERROR: return cli_opts_fail(&p, usage_of(a->cmd));
    case CLI_OPTS_ARG:
      if (a->model) return usage_error(a->cmd, "unexpected argument '%s'", v);
      a->model = v;
      break;
    case OPT_BIND:
      if (!strchr(v, '=') || v[0] == '=') return usage_error(a->cmd, "--bind needs NAME=FILE.npy, got '%s'", v);
      if (push(a->cmd, "--bind", a->binds, &a->n_binds, v)) return CLI_USAGE;
      break;
    case OPT_INPUT_SHAPE:
      if (!strchr(v, '=') || v[0] == '=') return usage_error(a->cmd, "--input-shape needs NAME=D0xD1x..., got '%s'", v);
      if (push(a->cmd, "--input-shape", a->shapes, &a->n_shapes, v)) return CLI_USAGE;
      break;
    case OPT_INPUT:
      if (push(a->cmd, "--input", a->inputs, &a->n_inputs, v)) return CLI_USAGE;
      break;
    case OPT_OUTPUT:
      if (push(a->cmd, "-o", a->outputs, &a->n_outputs, v)) return CLI_USAGE;
      break;
    case OPT_CALIB:
      if (push(a->cmd, "--calib", a->calib, &a->n_calib, v)) return CLI_USAGE;
      break;
    case OPT_CALIB_METHOD:
      if (strcmp(v, "spread") && strcmp(v, "minmax") && strcmp(v, "percentile") && strcmp(v, "mse"))
        return usage_error(a->cmd, "--calib-method needs spread, minmax, percentile or mse, got '%s'", v);
      a->calib_method = !strcmp(v, "spread")   ? CALIB_SPREAD
                        : !strcmp(v, "minmax") ? CALIB_MINMAX
                        : !strcmp(v, "mse")    ? CALIB_MSE
                                               : CALIB_PERCENTILE;
      break;
    case OPT_CALIB_PERCENTILE: {
      double x = strtod(v, &end);
      if (end == v || *end || !(x > 50 && x <= 100))
        return usage_error(a->cmd, "--calib-percentile needs a number in (50, 100], got '%s'", v);
      a->calib_percentile = x;
      break;
    }
    case OPT_QUANTISED: a->quantised = 1; break;
    case OPT_CMD_SRAM_LIMIT: {
      long long n = strtoll(v, &end, 10);
      if (end == v || *end || n < 16 || n > (1ll << 30))
        return usage_error(a->cmd, "--cmd-sram-limit needs a byte count in [16, 2^30], got '%s'", v);
      a->cmd_sram_limit = n;
      break;
    }
    case OPT_TUNING_LOG: a->tuning_log = v; break;
    case OPT_EMIT_C: a->emit_c = v; break;
    case OPT_TARGET: a->target = v; break;
    case OPT_PASS: a->passes = v; break;
    case OPT_PRINT_AFTER: a->pipe.print_after = v; break;
    case OPT_PRINT_BEFORE: a->pipe.print_before = v; break;
    case OPT_ELIDE: {
      errno = 0;
      long n = strtol(v, &end, 10);
      if (end == v || *end || n < 1 || n > INT32_MAX || errno == ERANGE)
        return usage_error(a->cmd, "--elide needs a positive count, got '%s'", v);
      a->print.elide_above = n;
      break;
    }
    case OPT_PRINT_AFTER_ALL: a->pipe.print_after_all = 1; break;
    case OPT_VERIFY_EACH: a->pipe.verify_each = 1; break;
    case OPT_RAW: a->raw = 1; break;
    case OPT_DUMP_TENSORS: a->dump_tensors = v; break;
    case OPT_RANGES: a->ranges = 1; break;
    case OPT_REPORT: a->report = 1; break;
    case OPT_NO_FUSION: a->no_fusion = 1; break;
    case OPT_NO_SRAM_RESIDENCY: a->no_sram_residency = 1; break;
    case OPT_NO_PACK_INPUT: a->no_pack_input = 1; break;
    case OPT_INT8_IO: a->int8_io = 1; break;
    case OPT_NPU_ONLY: a->npu_only = 1; break;
    default: TSL_ASSERT(!"an option without a case");
    }
  }
}

static int fail(diag *d) {
  fprintf(stderr, "tessel: %s\n", d->msg);
  return CLI_BAD_INPUT;
}

/* A failed load: exit 3 when the model needs an operator the importer does
 * not know (docs/compiler.md), else 1. */
static int fail_load(const cli_args *a, diag *d) {
  fail(d);
  return a->unsupported_op ? CLI_UNSUPPORTED : CLI_BAD_INPUT;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* --input-shape NAME=D0xD1x...: gives symbolic input dimensions a size. */
static int apply_input_shapes(ir_graph *g, const cli_args *a, diag *d) {
  for (int k = 0; k < a->n_shapes; k++) {
    const char *eq = strchr(a->shapes[k], '=');
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(eq - a->shapes[k]), a->shapes[k]);
    ir_value *v = NULL;
    for (int i = 0; i < g->n_inputs; i++)
      if (!strcmp(g->inputs[i]->name, name)) v = g->inputs[i];
    if (!v) return diag_set(d, "--input-shape %s: the model has no graph input of that name", name);
    int64_t dims[IR_MAX_RANK];
    int rank = 0;
    const char *p = eq + 1;
    for (;;) {
      char *end;
      long long x = strtoll(p, &end, 10);
      if (end == p || x < 0 || x > (1 << 30) || rank == IR_MAX_RANK)
        return diag_set(d, "--input-shape %s: bad shape '%s'", name, eq + 1);
      dims[rank++] = x;
      if (*end == '\0') break;
      if (*end != 'x') return diag_set(d, "--input-shape %s: bad shape '%s'", name, eq + 1);
      p = end + 1;
    }
    if (v->rank >= 0 && v->rank != rank)
      return diag_set(d, "--input-shape %s: rank %d, the model says %d", name, rank, v->rank);
    for (int i = 0; i < rank && v->rank >= 0; i++)
      if (v->dims[i] >= 0 && v->dims[i] != dims[i])
        return diag_set(d, "--input-shape %s: dimension %d is %lld in the model", name, i, (long long)v->dims[i]);
    v->rank = rank;
    memcpy(v->dims, dims, sizeof(int64_t) * (size_t)rank);
  }
  return 0;
}

/* Loads the model: textual IR (.tir) or ONNX with --bind applied. */
static ir_graph *load_model(cli_args *a, diag *d) {
  if (ends_with(a->model, ".tir")) {
    if (a->n_binds) {
      diag_set(d, "%s: --bind needs an ONNX model", a->model);
      return NULL;
    }
    ir_graph *g = ir_parse_file(a->model, d);
    if (g && ir_verify(g, d)) {
      diag_prefix(d, a->model);
      ir_graph_free(g);
      return NULL;
    }
    return g;
  }
  npy_array arrs[MAX_LIST] = {{0}};
  onnx_bind binds[MAX_LIST] = {{0}};
  int n = 0;
  ir_graph *g = NULL;
  for (; n < a->n_binds; n++) {
    const char *eq = strchr(a->binds[n], '=');
    char err[512];
    static char names[MAX_LIST][256];
    snprintf(names[n], sizeof names[n], "%.*s", (int)(eq - a->binds[n]), a->binds[n]);
    if (npy_read(eq + 1, &arrs[n], err, sizeof err)) {
      diag_set(d, "--bind %s: %s", names[n], err);
      goto out;
    }
    binds[n].name = names[n];
    binds[n].value = &arrs[n];
  }
  onnx_status st = {0};
  g = onnx_import_file_status(a->model, binds, n, &st, d);
  a->unsupported_op = st.unsupported_op;
  if (g && apply_input_shapes(g, a, d)) {
    ir_graph_free(g);
    g = NULL;
  }
out:
  for (int k = 0; k < n; k++) npy_free(&arrs[k]);
  return g;
}

/* Prints G to -o (whole or not at all: out_file.h) or to stdout. */
static int print_out(const cli_args *a, const ir_graph *g, diag *d) {
  if (a->n_outputs > 1) return diag_set(d, "only one -o file is allowed here");
  if (a->n_outputs == 0) {
    ir_print(stdout, g, &a->print);
    return fflush(stdout) == 0 ? 0 : diag_set(d, "stdout: write failed: %s", strerror(errno));
  }
  out_file of;
  if (out_file_open(&of, a->outputs[0], d)) return -1;
  ir_print(of.f, g, &a->print);
  return out_file_commit(&of, d);
}

static const char *file_of(const char *spec);

/* --calib [NAME=]FILE options: samples of every graph input (input_samples.h). */
typedef struct calib_set {
  input_sample_set set; /* the files and the pointers into them */
  calib_data data;      /* what ptq reads */
} calib_set;

static int load_calib(const cli_args *a, const ir_graph *g, calib_set *cs, diag *d) {
  if (input_sample_set_load(g, a->calib, a->n_calib, &cs->set, d)) return -1;
  for (int k = 0; k < a->n_calib; k++) {
    const npy_array *x = &cs->set.files[k];
    const char *eq = strchr(a->calib[k], '=');
    if (x->dtype == NPY_F32 && calib_check_finite(x->data, x->nbytes / sizeof(float), eq ? eq + 1 : a->calib[k], d))
      return -1;
  }
  cs->data = (calib_data){.n_samples = cs->set.n_samples, .n_inputs = cs->set.n_inputs, .samples = cs->set.samples,
                          .method = a->calib_method, .percentile = a->calib_percentile,
                          .source = a->n_calib == 1 ? file_of(a->calib[0]) : "the --calib files"};
  return 0;
}

static void free_calib(calib_set *cs) { input_sample_set_free(&cs->set); }

/* The quantisation passes, with calibration data when --calib was given. */
static int quantise(cli_args *a, ir_graph *g, diag *d) {
  calib_set *cs = calloc(1, sizeof *cs);
  if (!cs) return diag_oom(d);
  int rc = 0;
  if (a->n_calib) {
    rc = load_calib(a, g, cs, d);
    a->pipe.calib = &cs->data;
  }
  if (!rc && pipeline_quant(g, &a->pipe, d)) {
    diag_prefix(d, a->model);
    rc = -1;
  }
  a->pipe.calib = NULL;
  free_calib(cs);
  free(cs);
  return rc;
}

static int check_pass_options(const cli_args *a, diag *d) {
  if (a->pipe.print_after && pipeline_check_pass_name("--print-after", a->pipe.print_after, d)) return -1;
  if (a->pipe.print_before && pipeline_check_pass_name("--print-before", a->pipe.print_before, d)) return -1;
  return 0;
}

static int cmd_ir(cli_args *a) {
  diag d = {{0}};
  if (!a->model) return usage_error("ir", "%s", "missing MODEL");
  ir_graph *g = load_model(a, &d);
  if (!g) return fail_load(a, &d);
  if (a->quantised) {
    if (a->raw) {
      ir_graph_free(g);
      return usage_error("ir", "%s", "--raw and --quantised exclude each other");
    }
    if (check_pass_options(a, &d)) {
      ir_graph_free(g);
      return usage_error("ir", "%s", d.msg);
    }
    a->pipe.print = &a->print;
    if (pipeline_graph(g, &a->pipe, &d)) {
      diag_prefix(&d, a->model);
    } else if (!quantise(a, g, &d)) {
      d.msg[0] = 0;
    }
    if (d.msg[0]) {
      ir_graph_free(g);
      return fail(&d);
    }
  } else if (!a->raw) {
    const pass_info *si = pass_find("shape-infer");
    pipeline_opts quiet = {.verify_each = 1};
    if (pipeline_run_pass(g, si, &quiet, &d)) {
      diag_prefix(&d, a->model);
      ir_graph_free(g);
      return fail(&d);
    }
  }
  int rc = print_out(a, g, &d) ? fail(&d) : CLI_OK;
  ir_graph_free(g);
  return rc;
}

static int cmd_opt(cli_args *a) {
  diag d = {{0}};
  if (!a->model) return usage_error("opt", "%s", "missing IN.tir");
  if (!a->passes) return usage_error("opt", "%s", "missing --pass=P[,P...]");
  if (check_pass_options(a, &d)) return usage_error("opt", "%s", d.msg);
  /* check every pass name before doing any work */
  char list[512];
  snprintf(list, sizeof list, "%s", a->passes);
  const pass_info *ps[16];
  int np = 0;
  for (char *save, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (np == 16) return usage_error("opt", "%s", "too many passes");
    if (pipeline_check_pass_name("--pass", t, &d)) return usage_error("opt", "%s", d.msg);
    ps[np++] = pass_find(t);
  }
  if (!np) return usage_error("opt", "%s", "--pass names no pass");
  ir_graph *g = ir_parse_file(a->model, &d);
  if (!g) return fail(&d);
  int rc = CLI_BAD_INPUT;
  pipeline_opts quiet = {.verify_each = 1};
  if (ir_verify(g, &d) || pipeline_run_pass(g, pass_find("shape-infer"), &quiet, &d)) {
    diag_prefix(&d, a->model);
    goto out;
  }
  a->pipe.print = &a->print;
  for (int i = 0; i < np; i++)
    if (pipeline_run_pass(g, ps[i], &a->pipe, &d)) {
      diag_prefix(&d, a->model);
      goto out;
    }
  if (print_out(a, g, &d)) goto out;
  rc = CLI_OK;
out:
  if (rc) fail(&d);
  ir_graph_free(g);
  return rc;
}

/* Import (or parse) and run the graph pipeline with the user's dump options. */
static ir_graph *front_end(cli_args *a, diag *d) {
  ir_graph *g = load_model(a, d);
  if (!g) return NULL;
  a->pipe.print = &a->print;
  if (pipeline_graph(g, &a->pipe, d)) {
    diag_prefix(d, a->model);
    ir_graph_free(g);
    return NULL;
  }
  return g;
}

static int cmd_compile(cli_args *a) {
  diag d = {{0}};
  if (!a->model) return usage_error("compile", "%s", "missing MODEL");
  if (a->n_outputs > 1 || (a->n_outputs == 0 && !a->emit_c))
    return usage_error("compile", "%s", "give one -o OUT.tpkg and/or --emit-c OUT.c");
  if (lower_compile_check_print("--print-after", a->pipe.print_after, &d) ||
      lower_compile_check_print("--print-before", a->pipe.print_before, &d))
    return usage_error("compile", "%s", d.msg);
  ir_graph *g = front_end(a, &d);
  if (!g) return fail_load(a, &d);
  if (quantise(a, g, &d)) {
    ir_graph_free(g);
    return fail(&d);
  }
  lower_compile_opts lo = {.target = a->target, .out = a->n_outputs ? a->outputs[0] : NULL, .emit_c = a->emit_c, .report = a->report ? stdout : NULL,
                           .no_fusion = a->no_fusion, .no_sram_residency = a->no_sram_residency,
                           .no_pack_input = a->no_pack_input,
                           .int8_io = a->int8_io, .npu_only = a->npu_only,
                           .cmd_sram_limit = a->cmd_sram_limit, .tuning_log = a->tuning_log,
                           .print_after = a->pipe.print_after, .print_before = a->pipe.print_before,
                           .print_after_all = a->pipe.print_after_all, .calibrated = a->n_calib > 0};
  int rc = lower_compile(g, &lo, &d);
  ir_graph_free(g);
  if (rc) {
    diag_prefix(&d, a->model);
    if (rc == LOWER_COMPILE_UNSUPPORTED) {
      fprintf(stderr, "tessel: %s\n", d.msg);
      return CLI_UNSUPPORTED;
    }
    return fail(&d);
  }
  return 0;
}

/* The --input file of every graph input: NAME=FILE by name, a bare FILE by
 * its position among the --input options.  An unknown NAME, an input given
 * twice or one not given is an error naming it. */
static int match_inputs(const cli_args *a, const ir_graph *g, const char **files, diag *d) {
  for (int i = 0; i < g->n_inputs; i++) files[i] = NULL;
  for (int k = 0; k < a->n_inputs; k++) {
    const char *file;
    int i = input_spec_find(g, "--input", a->inputs[k], &file, d);
    if (i == -1) return -1;
    if (i == -2) i = k;
    if (files[i]) return diag_set(d, "--input: graph input '%s' given twice", g->inputs[i]->name);
    files[i] = file;
  }
  for (int i = 0; i < g->n_inputs; i++)
    if (!files[i]) return diag_set(d, "no --input given for graph input '%s'", g->inputs[i]->name);
  return 0;
}

/* Loads FILE for graph input in. An input whose model shape starts with a
 * batch of 1 also takes [N, ...]: *batch = N (the reference then runs N
 * times); otherwise *batch = 1. */
static int load_input(const cli_args *a, ir_value *in, const char *file, npy_array *arr, int64_t *batch, diag *d) {
  char err[512];
  if (npy_read(file, arr, err, sizeof err)) return diag_set(d, "input '%s': %s", in->name, err);
  if (input_dtype_check(in, arr, file, d)) return -1;
  int same = arr->ndim == in->rank, batched = in->rank >= 1 && in->dims[0] == 1 && arr->ndim == in->rank;
  for (int i = 0; same && i < in->rank; i++) same = in->dims[i] < 0 || arr->shape[i] == in->dims[i];
  for (int i = 1; batched && i < in->rank; i++) batched = in->dims[i] < 0 || arr->shape[i] == in->dims[i];
  *batch = 1;
  if (!same && batched && arr->shape[0] > 0) {
    *batch = arr->shape[0];
    arr->shape[0] = 1;
    same = 1;
  }
  if (!same) {
    char has[160], want[160];
    return diag_set(d, "%s: shape %s does not match input '%s' %s", file, input_shape_text(arr->shape, arr->ndim, has, sizeof has),
                    in->name, input_shape_text(in->dims, in->rank, want, sizeof want));
  }
  for (int i = 0; i < in->rank; i++) in->dims[i] = arr->shape[i]; /* symbolic dims take the data's */
  (void)nonfinite_warn("ref", file, in->name, arr, a->quantised || a->n_calib);
  return 0;
}

/* ref --dump-tensors: every computed value of the first run as a .npy. */
typedef struct {
  const char *dir;
  int ranges;
  diag d;
} ref_watch;

static void print_range(const ir_value *v, const void *data, void *user);

static void watch_value(const ir_value *v, const void *data, void *user) {
  ref_watch *w = user;
  if (w->ranges) print_range(v, data, NULL);
  if (w->dir && !w->d.msg[0]) tensor_dump_value(w->dir, v, data, &w->d);
}

/* ref --ranges: one line per computed value, the raw material of calibration. */
static void print_range(const ir_value *v, const void *data, void *user) {
  (void)user;
  int64_t n = ir_value_numel(v);
  double lo = 0, hi = 0;
  for (int64_t i = 0; i < n; i++) {
    double x = ir_elem_f64(v->dtype, data, i);
    if (i == 0 || x < lo) lo = x;
    if (i == 0 || x > hi) hi = x;
  }
  printf("range ");
  ir_print_name(stdout, v->name);
  printf(" %.9g %.9g\n", lo, hi);
}

static int cmd_ref(cli_args *a) {
  diag d = {{0}};
  if (!a->model) return usage_error("ref", "%s", "missing MODEL");
  if (a->n_outputs == 0) return usage_error("ref", "%s", "give -o OUT.npy for each graph output");
  for (int k = 0; k < a->n_inputs; k++) {
    const char *eq = strchr(a->inputs[k], '=');
    if (eq == a->inputs[k] || (eq && !eq[1])) return usage_error("ref", "bad --input '%s'", a->inputs[k]);
  }
  ir_graph *g = load_model(a, &d);
  if (!g) return fail_load(a, &d);
  int rc = CLI_BAD_INPUT;
  npy_array arrs[MAX_LIST] = {{0}};
  const void *ins[MAX_LIST];
  void *outs[MAX_LIST] = {0};
  if (g->n_inputs > MAX_LIST || g->n_outputs > MAX_LIST) {
    diag_set(&d, "too many graph inputs or outputs");
    goto out;
  }
  if (a->n_inputs > g->n_inputs) {
    diag_set(&d, "%s: %d --input given, the graph has %d inputs", a->model, a->n_inputs, g->n_inputs);
    goto out;
  }
  /* 1. inputs first: their shapes settle symbolic dimensions */
  const char *files[MAX_LIST];
  if (match_inputs(a, g, files, &d)) goto out;
  int64_t batch = 1;
  for (int i = 0; i < g->n_inputs; i++) {
    int64_t b;
    if (load_input(a, g->inputs[i], files[i], &arrs[i], &b, &d)) goto out;
    if (i > 0 && b != batch) {
      diag_set(&d, "input '%s' holds a batch of %lld, another input %lld", g->inputs[i]->name, (long long)b,
               (long long)batch);
      goto out;
    }
    batch = b;
  }
  /* 2. graph passes */
  a->pipe.print = &a->print;
  if (pipeline_graph(g, &a->pipe, &d)) {
    diag_prefix(&d, a->model);
    goto out;
  }
  if ((a->quantised || a->n_calib) && quantise(a, g, &d)) goto out;
  if (a->n_outputs != g->n_outputs) {
    diag_set(&d, "%s: the graph has %d outputs, %d -o given", a->model, g->n_outputs, a->n_outputs);
    goto out;
  }
  /* 3. run (once per batch entry, outputs stacked along dimension 0) and write */
  for (int i = 0; i < g->n_outputs; i++) {
    const ir_value *v = g->outputs[i];
    if (batch > 1 && (v->rank < 1 || v->dims[0] != 1)) {
      diag_set(&d, "%s: output '%s' has no batch dimension of 1 to stack a batch of %lld in", a->model, v->name,
               (long long)batch);
      goto out;
    }
    if (!(outs[i] = malloc(ir_dtype_size(v->dtype) * (size_t)ir_value_numel(v) * (size_t)batch + 1))) {
      diag_set(&d, "out of memory");
      goto out;
    }
  }
  for (int64_t r = 0; r < batch; r++) {
    void *one[MAX_LIST] = {0};
    for (int i = 0; i < g->n_inputs; i++) ins[i] = (const uint8_t *)arrs[i].data + arrs[i].nbytes / (size_t)batch * (size_t)r;
    ref_watch w = {.dir = r == 0 ? a->dump_tensors : NULL, .ranges = a->ranges};
    if (w.dir && tensor_dump_dir(w.dir, &d)) goto out;
    for (int i = 0; w.dir && i < g->n_inputs; i++)
      if (tensor_dump_value(w.dir, g->inputs[i], ins[i], &d)) goto out;
    int bad = ref_run_mode(g, ins, one, w.dir || w.ranges ? watch_value : NULL, &w, a->quantised || a->n_calib, &d);
    if (!bad && w.d.msg[0]) {
      diag_set(&d, "%s", w.d.msg);
      bad = 1;
    }
    for (int i = 0; i < g->n_outputs && !bad; i++) {
      size_t n = ir_dtype_size(g->outputs[i]->dtype) * (size_t)ir_value_numel(g->outputs[i]);
      memcpy((uint8_t *)outs[i] + n * (size_t)r, one[i], n);
    }
    for (int i = 0; i < g->n_outputs; i++) free(one[i]);
    if (bad) {
      diag_prefix(&d, a->model);
      goto out;
    }
  }
  for (int i = 0; i < g->n_outputs; i++) {
    const ir_value *v = g->outputs[i];
    npy_array o = {.dtype = (npy_dtype)v->dtype, .ndim = v->rank, .data = outs[i]};
    for (int k = 0; k < v->rank; k++) o.shape[k] = v->dims[k];
    if (v->rank) o.shape[0] *= batch;
    o.nbytes = ir_dtype_size(v->dtype) * (size_t)ir_value_numel(v) * (size_t)batch;
    char err[512];
    if (npy_write(a->outputs[i], &o, err, sizeof err)) {
      diag_set(&d, "%s", err);
      goto out;
    }
  }
  rc = CLI_OK;
out:
  if (rc) fail(&d);
  for (int i = 0; i < MAX_LIST; i++) {
    npy_free(&arrs[i]);
    free(outs[i]);
  }
  ir_graph_free(g);
  return rc;
}

/* The file part of NAME=FILE (or FILE). */
static const char *file_of(const char *spec) {
  const char *eq = strchr(spec, '=');
  return eq ? eq + 1 : spec;
}

/* No output may overwrite one of the command's inputs or another output:
 * `tessel compile m.onnx -o m.onnx` would destroy the model it reads. */
static int check_outputs(const cli_args *a, diag *d) {
  const char *outs[MAX_LIST + 1];
  const char *opts[MAX_LIST + 1];
  int n = 0;
  for (int i = 0; i < a->n_outputs; i++) outs[n] = a->outputs[i], opts[n++] = "-o";
  if (a->emit_c) outs[n] = a->emit_c, opts[n++] = "--emit-c";
  for (int i = 0; i < n; i++) {
    const char *o = outs[i], *opt = opts[i];
    int bad = out_file_not_input(opt, o, a->model, "the model", d);
    for (int k = 0; !bad && k < a->n_binds; k++) bad = out_file_not_input(opt, o, file_of(a->binds[k]), "--bind", d);
    for (int k = 0; !bad && k < a->n_inputs; k++) bad = out_file_not_input(opt, o, file_of(a->inputs[k]), "--input", d);
    for (int k = 0; !bad && k < a->n_calib; k++) bad = out_file_not_input(opt, o, file_of(a->calib[k]), "--calib", d);
    if (!bad) bad = out_file_not_input(opt, o, a->tuning_log, "--tuning-log", d);
    for (int k = 0; !bad && k < i; k++)
      if (!strcmp(o, outs[k])) bad = diag_set(d, "%s %s: the same file is also %s", opt, o, opts[k]);
    if (bad) return -1;
  }
  return 0;
}

int cli_main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_main, stderr);
    return CLI_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    fputs(usage_main, stdout);
    return CLI_OK;
  }
  /* --version anywhere: the tool and every format it reads or writes. */
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--version")) {
      printf("tessel %s (ONNX opset %d-%d, package format %u, ISA %u, runtime %u)\n", TESSEL_VERSION, ONNX_MIN_OPSET,
             ONNX_MAX_OPSET, TPKG_VERSION, TSL_ISA_VERSION, TFW_RUNTIME_VERSION);
      return CLI_OK;
    }
  if (!strcmp(cmd, "inspect")) return tpkg_inspect_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "profile")) return profile_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "run")) return run_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "compare")) return compare_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "emit-c")) return tpkg_emit_c_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "tune")) return tune_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "operators")) return operators_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "passes")) {
    cli_opts po;
    cli_opts_init(&po, "passes", passes_options, argc, argv, 2);
    for (int id; (id = cli_opts_next(&po)) != CLI_OPTS_END;) {
      if (id == CLI_OPTS_HELP) return fputs(usage_passes, stdout), CLI_OK;
      if (id == CLI_OPTS_ERROR) return cli_opts_fail(&po, usage_passes);
      return usage_error("passes", "unexpected argument '%s'", po.value);
    }
    for (const pass_info *p = pass_registry; p->name; p++) printf("%-14s %s\n", p->name, p->what);
    return CLI_OK;
  }
  static const char *const cmds[] = {"ir", "opt", "ref", "compile"};
  int known = 0;
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) known |= !strcmp(cmd, cmds[i]);
  if (!known) return usage_error(NULL, "unknown command '%s'", cmd);
  cli_args a = {.cmd = cmd, .calib_method = CALIB_SPREAD, .calib_percentile = 99.99};
  int r = parse_args(argc, argv, &a);
  if (r < 0) return CLI_OK;
  if (r) return r;
  if (a.n_calib && !strcmp(cmd, "opt")) return usage_error(cmd, "%s is not for opt", "--calib");
  if (a.n_calib && !strcmp(cmd, "ir")) a.quantised = 1;
  if (a.quantised && strcmp(cmd, "ir") && strcmp(cmd, "ref")) return usage_error(cmd, "%s is only for ir and ref", "--quantised");
  if (a.target && strcmp(cmd, "compile")) return usage_error(cmd, "%s is only for compile", "--target");
  diag d = {{0}};
  if (check_outputs(&a, &d)) return usage_error(cmd, "%s", d.msg);
  if (!strcmp(cmd, "ir")) return cmd_ir(&a);
  if (!strcmp(cmd, "opt")) return cmd_opt(&a);
  if (!strcmp(cmd, "ref")) return cmd_ref(&a);
  return cmd_compile(&a);
}
