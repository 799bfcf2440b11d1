/* run_cli: `tessel run PKG.tpkg --input X.npy ... [--output Y.npy ...]
 * [--profile P.json] [--engine rtl|model] ...` (docs/runtime.md).
 *
 * Reads and validates the package, matches the .npy inputs to the package's
 * graph inputs (dtype and shape must be what the package says; a leading
 * batch dimension runs one inference per entry), converts them to the
 * window layout, runs the engine, converts the outputs back and writes
 * them, and the profile JSON of docs/profile-format.md. */
#include "run_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "npu_profile.h"
#include "nonfinite.h"
#include "npy.h"
#include "out_file.h"
#include "run_chunks.h"
#include "run_engine.h"
#include "run_timeline.h"
#include "serial_port.h"
#include "tensor_dump.h"
#include "tpkg.h"
#include "tessel_targets.h"
#include "tfw_fallback.h"

enum { RUN_MAX_IO = 32 };

static const char *const usage_run =
    "usage: tessel run PKG.tpkg --input [NAME=]X.npy ... [--output [NAME=]Y.npy ...] [options]\n"
    "Runs a compiled model package: on the cycle-accurate SoC (firmware on tessel-sim, the default)\n"
    "or on the NPU C model. Inputs and outputs are .npy files in the dtype the package's I/O says;\n"
    "an input with one more leading dimension (or a batch dimension N where the model has 1) runs N\n"
    "inferences and the outputs get the same leading dimension.\n"
    "options:\n"
    "  --input [NAME=]X.npy   a graph input, by name or in the package's order\n"
    "  --output [NAME=]Y.npy  where to write a graph output (by name or in order); without any,\n"
    "                         the outputs are printed\n"
    "  --engine rtl|model|board  rtl: firmware on build/<target>/tessel-sim (default); model: the C\n"
    "                         model; board: the link firmware on a board (or tessel-sim --uart-pty)\n"
    "                         over a serial port (docs/host-link.md)\n"
    "  --port DEV             board: the serial device (required)\n"
    "  --baud N               board: its rate (default 115200; a pty ignores it)\n"
    "  --timeout S            board: seconds to wait for any reply (default 10)\n"
    "  --profile P.json       per-kernel counters and fallback cycles (docs/profile-format.md)\n"
    "  --timeline             with --profile, every command's start and end per unit too (rtl: as the\n"
    "                         simulator saw them, with ops from a C model run of the same package)\n"
    "                         (the \"commands\" array: tessel profile --format chrome shows the overlap)\n"
    "  --trace W.fst          rtl: FST waveform of the whole simulation\n"
    "  --trace-kernel NAME    with --trace: only the cycles of the kernel NAME (as tessel inspect or\n"
    "                         tessel profile name it) in the last inference (the run is simulated twice)\n"
    "  --dump-tensors DIR     the graph inputs and outputs and every fallback op's input and output\n"
    "                         of the last inference as DIR/NAME.npy (compare with tessel compare)\n"
    "  --sim PATH             rtl: the simulator (default: next to tessel, build/<target>/tessel-sim)\n"
    "  --firmware PATH        rtl: the runner ELF (default build/firmware/<target>/tessel-fw.elf)\n"
    "  --max-cycles N         rtl: simulation cycle limit (default: from the package's estimates)\n"
    "  --check-weights        rtl: the firmware checks the weights' CRC too (slow on large models)\n"
    "  --watchdog N           rtl: abort any NPU run after N cycles (default: 20M + 16 x its estimate)\n"
    "  -q, --quiet            no summary line on stderr\n"
    "  --launcher L           local (default), or parallel / slurm: the batch in chunks of --chunk\n"
    "                         inferences, one `tessel run` task each, outputs merged in order into the\n"
    "                         --output files (the bytes a local run writes; docs/tuning.md)\n"
    "  --chunk N              parallel/slurm: inferences per task (default 100)\n"
    "  --workdir DIR          parallel/slurm: the chunks and their logs, on a file system the nodes share\n"
    "  --jobs J               parallel: tasks at once per login\n"
    "  --sshlogin LIST        parallel: its --sshlogin (':' is this host)\n"
    "  --partition P, --time-limit T, --sbatch-opt OPT  slurm: passed to sbatch (--partition, --time, OPT)\n";

typedef struct {
  const char *pkg_path;
  const char *in_spec[RUN_MAX_IO], *out_spec[RUN_MAX_IO];
  int n_in_spec, n_out_spec;
  const char *engine, *profile, *dump_dir, *trace_kernel;
  int timeline;
  run_opts o;
  int quiet;
  tune_launcher launch;
  int64_t chunk;
  const char *workdir;
  const char *pass[RUN_CHUNKS_MAX_PASS]; /* the engine options, for every chunk's run */
  int n_pass;
} run_args;

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "tessel run: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage_run);
  return CLI_USAGE;
}

/* The file part of NAME=FILE (or FILE). */
static const char *file_of(const char *spec) {
  const char *eq = strchr(spec, '=');
  return eq ? eq + 1 : spec;
}

/* No output file may overwrite the package, an input or another output. */
static int check_outputs(const run_args *a) {
  const char *outs[RUN_MAX_IO + 1], *opts[RUN_MAX_IO + 1];
  int n = 0;
  for (int i = 0; i < a->n_out_spec; i++) outs[n] = file_of(a->out_spec[i]), opts[n++] = "--output";
  if (a->profile) outs[n] = a->profile, opts[n++] = "--profile";
  diag d = {{0}};
  for (int i = 0; i < n; i++) {
    int bad = out_file_not_input(opts[i], outs[i], a->pkg_path, "the package", &d);
    for (int k = 0; !bad && k < a->n_in_spec; k++) bad = out_file_not_input(opts[i], outs[i], file_of(a->in_spec[k]), "--input", &d);
    for (int k = 0; !bad && k < i; k++)
      if (!strcmp(outs[i], outs[k])) bad = diag_set(&d, "%s %s: the same file is also %s", opts[i], outs[i], opts[k]);
    if (bad) return usage("%s", d.msg);
  }
  return 0;
}

enum {
  RUN_INPUT = 1, RUN_OUTPUT, RUN_ENGINE, RUN_PORT, RUN_BAUD, RUN_TIMEOUT, RUN_PROFILE, RUN_TIMELINE, RUN_TRACE,
  RUN_TRACE_KERNEL, RUN_DUMP_TENSORS, RUN_SIM, RUN_FIRMWARE, RUN_MAX_CYCLES, RUN_CHECK_WEIGHTS, RUN_WATCHDOG,
  RUN_QUIET, RUN_CHUNK, RUN_WORKDIR, RUN_JOBS, RUN_LAUNCH, /* RUN_LAUNCH .. + TUNE_LAUNCH_NOPTS - 1 */
};

static const cli_opt run_options[] = {
    {RUN_INPUT, "--input", "-i", 1, CLI_OPT_LIST},
    {RUN_OUTPUT, "--output", "-o", 1, CLI_OPT_LIST},
    {RUN_ENGINE, "--engine", NULL, 1, CLI_OPT_ONCE},
    {RUN_PORT, "--port", NULL, 1, CLI_OPT_ONCE},
    {RUN_BAUD, "--baud", NULL, 1, CLI_OPT_ONCE},
    {RUN_TIMEOUT, "--timeout", NULL, 1, CLI_OPT_ONCE},
    {RUN_PROFILE, "--profile", NULL, 1, CLI_OPT_ONCE},
    {RUN_TIMELINE, "--timeline", NULL, 0, CLI_OPT_ONCE},
    {RUN_TRACE, "--trace", NULL, 1, CLI_OPT_ONCE},
    {RUN_TRACE_KERNEL, "--trace-kernel", NULL, 1, CLI_OPT_ONCE},
    {RUN_DUMP_TENSORS, "--dump-tensors", NULL, 1, CLI_OPT_ONCE},
    {RUN_SIM, "--sim", NULL, 1, CLI_OPT_ONCE},
    {RUN_FIRMWARE, "--firmware", NULL, 1, CLI_OPT_ONCE},
    {RUN_MAX_CYCLES, "--max-cycles", NULL, 1, CLI_OPT_ONCE},
    {RUN_CHECK_WEIGHTS, "--check-weights", NULL, 0, CLI_OPT_ONCE},
    {RUN_WATCHDOG, "--watchdog", NULL, 1, CLI_OPT_ONCE},
    {RUN_QUIET, "--quiet", "-q", 0, CLI_OPT_ONCE},
    {RUN_CHUNK, "--chunk", NULL, 1, CLI_OPT_ONCE},
    {RUN_WORKDIR, "--workdir", NULL, 1, CLI_OPT_ONCE},
    {RUN_JOBS, "--jobs", "-j", 1, CLI_OPT_ONCE},
    TUNE_LAUNCH_OPTIONS(RUN_LAUNCH),
    {0},
};

/* Reads the command line into *a.  Returns CLI_OK, CLI_USAGE, or -1 when
 * --help was printed. */
static int parse_args(int argc, char **argv, run_args *a) {
  *a = (run_args){.engine = "rtl", .o = {.baud = 115200, .timeout_s = 10}};
  cli_opts p;
  cli_opts_init(&p, "run", run_options, argc, argv, 1);
  for (int id; (id = cli_opts_next(&p)) != CLI_OPTS_END;) {
    const char *v = p.value;
    char *end;
    switch (id) {
    case CLI_OPTS_HELP: fputs(usage_run, stdout); return -1;
    case CLI_OPTS_ERROR: return cli_opts_fail(&p, usage_run);
    case CLI_OPTS_ARG:
      if (a->pkg_path) return usage("more than one package ('%s')", v);
      a->pkg_path = v;
      break;
    case RUN_QUIET: a->quiet = 1; break;
    case RUN_CHUNK: {
      long long n = strtoll(v, &end, 10);
      if (*v < '0' || *v > '9' || *end || n < 1 || n > 1000000) return usage("--chunk '%s': expected inferences in 1..1000000", v);
      a->chunk = n;
      break;
    }
    case RUN_WORKDIR:
      if (!*v) return usage("%s", "--workdir needs a folder name");
      a->workdir = v;
      break;
    case RUN_JOBS: {
      long n = strtol(v, &end, 10);
      if (*v < '0' || *v > '9' || *end || n < 1 || n > 256) return usage("--jobs '%s': expected a count in [1, 256]", v);
      a->launch.jobs = (int)n;
      break;
    }
    case RUN_TIMELINE: a->timeline = 1; break;
    case RUN_CHECK_WEIGHTS: a->o.check_weights = 1; break;
    case RUN_INPUT:
      if (a->n_in_spec == RUN_MAX_IO) return usage("too many inputs (%s)", v);
      a->in_spec[a->n_in_spec++] = v;
      break;
    case RUN_OUTPUT:
      if (a->n_out_spec == RUN_MAX_IO) return usage("too many outputs (%s)", v);
      a->out_spec[a->n_out_spec++] = v;
      break;
    case RUN_ENGINE:
      a->engine = v;
      if (strcmp(v, "rtl") && strcmp(v, "model") && strcmp(v, "board"))
        return usage("--engine '%s': expected rtl, model or board (board with --port)", v);
      break;
    case RUN_PORT: a->o.port = v; break;
    case RUN_BAUD: {
      unsigned long n = strtoul(v, &end, 10);
      if (*v < '0' || *v > '9' || *end || n > UINT32_MAX || !serial_baud_ok((uint32_t)n))
        return usage("--baud '%s': expected a standard rate (9600, 19200, 38400, 57600, 115200, ... 3000000)", v);
      a->o.baud = (uint32_t)n;
      break;
    }
    case RUN_TIMEOUT: {
      double t = strtod(v, &end);
      if (*v < '0' || *v > '9' || *end || !(t >= 0.1 && t <= 3600))
        return usage("--timeout '%s': expected seconds in 0.1..3600", v);
      a->o.timeout_s = t;
      break;
    }
    case RUN_PROFILE: a->profile = v; break;
    case RUN_DUMP_TENSORS: a->dump_dir = v; break;
    case RUN_TRACE_KERNEL: a->trace_kernel = v; break;
    case RUN_TRACE: a->o.trace = v; break;
    case RUN_SIM: a->o.sim = v; break;
    case RUN_FIRMWARE: a->o.firmware = v; break;
    case RUN_WATCHDOG: {
      unsigned long n = strtoul(v, &end, 0);
      if (*v < '0' || *v > '9' || *end || n == 0 || n > UINT32_MAX)
        return usage("--watchdog '%s': expected cycles in 1..2^32-1", v);
      a->o.watchdog = (uint32_t)n;
      break;
    }
    case RUN_MAX_CYCLES: {
      errno = 0;
      unsigned long long n = strtoull(v, &end, 0);
      if (*v < '0' || *v > '9' || *end || n == 0 || errno == ERANGE)
        return usage("--max-cycles '%s': expected a positive number below 2^64", v);
      a->o.max_cycles = n;
      break;
    }
    default: {
      diag ld = {{0}};
      TSL_ASSERT(id >= RUN_LAUNCH && id < RUN_LAUNCH + TUNE_LAUNCH_NOPTS);
      if (tune_launch_opt(&a->launch, id - RUN_LAUNCH, v, &ld)) return usage("%s", ld.msg);
    }
    }
    /* the engine's options, as every chunk's run gets them */
    if (id == RUN_SIM || id == RUN_FIRMWARE || id == RUN_MAX_CYCLES || id == RUN_WATCHDOG || id == RUN_CHECK_WEIGHTS) {
      if (a->n_pass + 2 > RUN_CHUNKS_MAX_PASS) return usage("%s", "too many engine options");
      a->pass[a->n_pass++] = p.opt->name;
      if (p.opt->takes_value) a->pass[a->n_pass++] = v;
    }
  }
  if (!a->pkg_path) return usage("%s", "no package given");
  if (check_outputs(a)) return CLI_USAGE;
  if (a->o.trace && strcmp(a->engine, "rtl")) return usage("%s is for --engine rtl", "--trace");
  if (a->trace_kernel && !a->o.trace) return usage("%s needs --trace W.fst", "--trace-kernel");
  if (a->timeline && !a->profile) return usage("%s needs --profile P.json", "--timeline");
  int board = !strcmp(a->engine, "board");
  if (board && !a->o.port) return usage("%s needs --port DEV (the board's serial device)", "--engine board");
  if (!board && a->o.port) return usage("%s is for --engine board", "--port");
  if (board && (a->timeline || a->dump_dir))
    return usage("%s: the board sends outputs and counters only", a->timeline ? "--timeline" : "--dump-tensors");
  diag d = {{0}};
  if (tune_launch_check(&a->launch, a->workdir, &d)) return usage("%s", d.msg);
  if (a->launch.kind == TUNE_LAUNCH_LOCAL) {
    const char *remote_only = a->chunk ? "--chunk" : a->workdir ? "--workdir" : a->launch.jobs ? "--jobs" : NULL;
    if (remote_only) return usage("%s is for --launcher parallel or slurm", remote_only);
  } else {
    const char *one_run = a->profile ? "--profile" : a->dump_dir ? "--dump-tensors" : a->o.trace ? "--trace" : board ? "--engine board" : NULL;
    if (one_run) return usage("%s is for one run: not with --launcher parallel or slurm", one_run);
    if (!a->n_out_spec) return usage("%s", "--launcher parallel or slurm needs --output files to merge the chunks into");
    if (!a->chunk) a->chunk = 100;
  }
  return CLI_OK;
}

static npy_dtype npy_of(uint32_t dt) {
  switch (dt) {
  case TPKG_DT_U8: return NPY_U8;
  case TPKG_DT_I8: return NPY_I8;
  case TPKG_DT_I16: return NPY_I16;
  case TPKG_DT_U16: return NPY_U16;
  case TPKG_DT_I32: return NPY_I32;
  case TPKG_DT_U32: return NPY_U32;
  case TPKG_DT_I64: return NPY_I64;
  case TPKG_DT_BOOL: return NPY_BOOL;
  default: return NPY_F32;
  }
}

static void shape_str(char *buf, size_t n, const int64_t *dims, int rank) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < rank && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "%s%" PRId64, i ? "," : "", dims[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

static void io_shape(const tpkg_io *io, int64_t *dims) {
  for (int i = 0; i < io->rank; i++) dims[i] = io->dims[i];
}

/* How many inferences an input array holds: 1 when its shape is the
 * model's, N for [N]+dims, or for dims with a leading 1 replaced by N.
 * *lead says which (0 exact, 1 extra dimension, 2 batch replaced); -1 if
 * the shape fits none. */
static int64_t runs_of(const npy_array *a, const tpkg_io *io, int *lead) {
  int r = io->rank, same = a->ndim == r;
  for (int i = 0; same && i < r; i++) same = a->shape[i] == io->dims[i];
  if (same) return *lead = 0, 1;
  int extra = a->ndim == r + 1;
  for (int i = 0; extra && i < r; i++) extra = a->shape[i + 1] == io->dims[i];
  if (extra) return *lead = 1, a->shape[0];
  int batch = r >= 1 && a->ndim == r && io->dims[0] == 1;
  for (int i = 1; batch && i < r; i++) batch = a->shape[i] == io->dims[i];
  if (batch) return *lead = 2, a->shape[0];
  return -1;
}

/* Element e of run r between a plain array and the window layout. */
static void to_window(const tpkg_io *io, uint32_t dim, const uint8_t *src, uint8_t *dst) {
  uint32_t es = tpkg_dtype_bytes(io->dtype);
  dim = tpkg_block_or(io->block, dim);
  uint64_t n = 1;
  for (int i = 0; i < io->rank; i++) n *= io->dims[i];
  if (io->layout == TPKG_LAYOUT_BLOCKED && es == 1) memset(dst, (uint8_t)io->zero_point, io->size);
  else memset(dst, 0, io->size);
  for (uint64_t e = 0; e < n; e++)
    memcpy(dst + es * tfw_layout_offset(io->layout, io->rank, io->dims, dim, e), src + es * e, es);
}

/* Elements of a tensor in the window (dtype, layout, dims) into plain
 * row-major order at dst. */
static void unpack(uint32_t dtype, uint32_t layout, uint32_t rank, const uint32_t *dims, uint32_t dim,
                   const uint8_t *src, uint8_t *dst) {
  uint32_t es = tpkg_dtype_bytes(dtype);
  uint64_t n = 1;
  for (uint32_t i = 0; i < rank; i++) n *= dims[i];
  for (uint64_t e = 0; e < n; e++) memcpy(dst + es * e, src + es * tfw_layout_offset(layout, rank, dims, dim, e), es);
}

static void from_window(const tpkg_io *io, uint32_t dim, const uint8_t *src, uint8_t *dst) {
  unpack(io->dtype, io->layout, io->rank, io->dims, tpkg_block_or(io->block, dim), src, dst);
}

/* --dump-tensors: one tensor of the window as DIR/<name><suffix>.npy. */
static int dump_window_tensor(const char *dir, const char *name, const char *suffix, const run_batch *b,
                              uint32_t dtype, uint32_t layout, uint32_t rank, const uint32_t *dims,
                              uint32_t offset, uint32_t dim, diag *d) {
  npy_array a = {.dtype = npy_of(dtype), .ndim = (int)rank};
  size_t n = 1;
  for (uint32_t i = 0; i < rank; i++) a.shape[i] = dims[i], n *= dims[i];
  a.nbytes = n * tpkg_dtype_bytes(dtype);
  if (!(a.data = malloc(a.nbytes + 1))) return diag_set(d, "out of memory");
  unpack(dtype, layout, rank, dims, dim, b->window + offset, a.data);
  int rc = tensor_dump_array(dir, name, suffix, &a, d);
  free(a.data);
  return rc;
}

/* Graph inputs and outputs, and the input and output of every fallback op,
 * as the last inference left them in the window. */
static int dump_tensors(const char *dir, const tpkg_view *v, const run_batch *b, uint32_t dim, diag *d) {
  if (tensor_dump_dir(dir, d)) return -1;
  for (uint32_t k = 0; k < v->n_io; k++) {
    tpkg_io io;
    tpkg_view_io(v, k, &io);
    if (dump_window_tensor(dir, io.name, "", b, io.dtype, io.layout, io.rank, io.dims, io.offset,
                           tpkg_block_or(io.block, dim), d))
      return -1;
  }
  uint32_t pos = 0;
  for (uint32_t k = 0; k < v->n_fallbacks; k++) {
    tpkg_fallback f;
    tpkg_view_fallback_at(v, &pos, &f);
    for (uint32_t j = 0; j < f.n_in + f.n_out; j++) { /* .fallback_in, .fallback_in1, ..., .fallback_out */
      tpkg_operand o;
      char suffix[32];
      tpkg_fallback_operand(&f, j, &o);
      if (j >= f.n_in) snprintf(suffix, sizeof suffix, ".fallback_out");
      else if (j) snprintf(suffix, sizeof suffix, ".fallback_in%u", j);
      else snprintf(suffix, sizeof suffix, ".fallback_in");
      if (dump_window_tensor(dir, f.name, suffix, b, o.dtype, o.layout, o.rank, o.dims, o.offset,
                             o.layout == TPKG_LAYOUT_BLOCKED ? o.block : dim, d))
        return -1;
    }
  }
  return 0;
}

/* Index of spec's NAME= in the package's inputs or outputs, or its
 * position; sets *file. -1 with d filled if the name is unknown. */
static int match_io(const tpkg_io *ios, int n, const char *spec, int pos, const char **file, diag *d) {
  const char *eq = strchr(spec, '=');
  *file = eq ? eq + 1 : spec;
  if (!eq) return pos < n ? pos : (diag_set(d, "more files (%d) than the package has tensors (%d)", pos + 1, n), -1);
  for (int i = 0; i < n; i++)
    if (strlen(ios[i].name) == (size_t)(eq - spec) && !strncmp(ios[i].name, spec, (size_t)(eq - spec))) return i;
  char names[400];
  size_t at = 0;
  names[0] = 0;
  for (int i = 0; i < n && at < sizeof names; i++)
    at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", ios[i].name);
  diag_set(d, "the package has no tensor named '%.*s' (it has: %s)", (int)(eq - spec), spec, names);
  return -1;
}

static void print_output(const tpkg_io *io, const npy_array *a) {
  char sh[128];
  shape_str(sh, sizeof sh, a->shape, a->ndim);
  printf("%s %s %s:", io->name, npy_dtype_name(a->dtype), sh);
  size_t n = a->nbytes / npy_dtype_size(a->dtype);
  for (size_t i = 0; i < n && i < 64; i++) {
    switch (a->dtype) {
    case NPY_F32: printf(" %.9g", ((float *)a->data)[i]); break;
    case NPY_U8: printf(" %u", ((uint8_t *)a->data)[i]); break;
    case NPY_I8: printf(" %d", ((int8_t *)a->data)[i]); break;
    case NPY_BOOL: printf(" %u", ((uint8_t *)a->data)[i]); break;
    case NPY_I64: printf(" %lld", (long long)((int64_t *)a->data)[i]); break;
    case NPY_I32: printf(" %d", ((int32_t *)a->data)[i]); break;
    default: printf(" %.17g", npy_elem(a, i)); break;
    }
  }
  printf("%s\n", n > 64 ? " ..." : "");
}

/* --trace-kernel: a first run without the waveform finds the simulated
 * cycles kernel NAME spans in the last inference (all its records:
 * segments), then the waveform run records only those (the simulation is
 * deterministic). The core's clock and the simulator's cycle count differ
 * by the few cycles before reset ends: a margin covers them. */
enum { TRACE_MARGIN = 64 };

static int trace_window(const char *name, const uint8_t *pkg, uint32_t len, const tpkg_view *v, run_opts *o,
                        const run_batch *b, diag *d) {
  run_opts probe = *o;
  probe.trace = NULL;
  run_batch pb = {.runs = b->runs, .n_in = b->n_in, .n_out = b->n_out, .in = b->in};
  int rc = run_engine_rtl(pkg, len, v, &probe, &pb, d);
  uint64_t from = UINT64_MAX, to = 0;
  for (uint32_t k = 0; !rc && k < v->n_kernels; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    if (strcmp(kv.name, name)) continue;
    from = pb.kspan[k][0] < from ? pb.kspan[k][0] : from;
    to = pb.kspan[k][1] > to ? pb.kspan[k][1] : to;
  }
  run_batch_free(&pb);
  if (rc) return -1;
  if (to == 0) return diag_set(d, "--trace-kernel '%s': the package has no kernel of that name (tessel inspect lists them)", name);
  o->trace_from = from > TRACE_MARGIN ? from - TRACE_MARGIN : 0;
  o->trace_to = to + TRACE_MARGIN;
  return 0;
}

/* --timeline on RTL: the simulator gives every command's unit and busy
 * cycles, the C model (the same commands in the same order per unit) its
 * op and stream index; they are paired kernel record by record, unit by
 * unit, and put on the profile's clock (records back to back by their
 * CYCLES counters, as the C model's timeline). A mismatch drops the
 * timeline with a warning rather than mislabel it. */
static int rtl_timeline(const tpkg_view *v, run_batch *b, const run_batch *m, diag *d) {
  uint32_t nk = v->n_kernels;
  if (b->n_run_starts < nk || m->ntimeline == 0) {
    fprintf(stderr, "tessel run: warning: the simulator saw %zu NPU runs for %u kernel records: no timeline\n",
            b->n_run_starts, nk);
    return 0;
  }
  const uint64_t *rs = b->run_starts + (b->n_run_starts - nk); /* the last inference's runs */
  uint64_t *at = calloc(nk + 1, sizeof *at);
  size_t *cur = calloc((size_t)nk * 3 + 1, sizeof *cur);
  npu_cmd_event_t *ev = calloc(m->ntimeline + 1, sizeof *ev);
  if (!at || !cur || !ev) {
    free(at), free(cur), free(ev);
    return diag_set(d, "out of memory");
  }
  for (uint32_t k = 1; k < nk; k++) at[k] = at[k - 1] + b->kcounters[k - 1][TSL_CNT_CYCLES];
  size_t n = 0;
  int ok = 1;
  for (size_t i = 0; ok && i < b->n_rtl_cmds; i++) {
    uint64_t u = b->rtl_cmds[i][0], s = b->rtl_cmds[i][1], e = b->rtl_cmds[i][2];
    if (s < rs[0]) continue; /* an earlier inference */
    uint32_t r = 0;
    while (r + 1 < nk && rs[r + 1] <= s) r++;
    size_t *c = &cur[r * 3 + u];
    while (*c < m->ntimeline && (m->timeline[*c].marks != r || m->timeline[*c].unit != u)) ++*c;
    if (*c == m->ntimeline) {
      ok = 0;
      break;
    }
    ev[n] = m->timeline[(*c)++];
    ev[n].start = at[r] + (s - rs[r]), ev[n].end = at[r] + (e - rs[r]);
    n++;
  }
  free(at), free(cur);
  if (!ok || n != m->ntimeline) {
    fprintf(stderr, "tessel run: warning: the RTL's commands do not line up with the C model's (%zu of %zu): "
                    "no timeline\n", n, m->ntimeline);
    free(ev);
    return 0;
  }
  b->timeline = ev, b->ntimeline = n;
  return 0;
}

/* The profile: kernel records with the same MARK id (segments) make one
 * kernel; the marks are running sums of the records' counters. */
static int write_profile(const char *path, const char *engine, const char *model, const tpkg_view *v,
                         run_batch *b, diag *d) {
  const tsl_target_t *t = tsl_target_find(v->target_name);
  uint32_t nk = v->n_kernels, max_id = 0;
  npu_snapshot_t *marks = calloc(nk + 1, sizeof *marks);
  npu_fallback_info_t *fb = calloc(v->n_fallbacks + 1, sizeof *fb);
  uint64_t total[TSL_NCOUNTERS] = {0};
  for (uint32_t k = 0; k < nk; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    if (kv.mark_id > max_id) max_id = kv.mark_id;
  }
  npu_kernel_info_t *info = calloc((size_t)max_id + 1, sizeof *info);
  const char **nodes = calloc(v->n_nodes + 1, sizeof *nodes);
  if (!marks || !fb || !info || !nodes || !t) {
    free(marks), free(fb), free(info), free(nodes);
    return diag_set(d, "out of memory");
  }
  for (uint32_t i = 0; i < v->n_nodes; i++) nodes[i] = tpkg_view_node(v, i);
  size_t nmarks = 1;
  for (uint32_t k = 0; k < nk; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    int seg = k > 0 && marks[nmarks - 1].kernel == kv.mark_id;
    if (!seg) {
      marks[nmarks] = marks[nmarks - 1];
      marks[nmarks].kernel = kv.mark_id;
      marks[nmarks].seq = nmarks;
      nmarks++;
      info[kv.mark_id] = (npu_kernel_info_t){kv.name, nodes + kv.node_first, kv.node_count, kv.estimate_cycles,
                                             kv.compulsory_dram_bytes, kv.useful_macs};
    }
    for (int c = 0; c < TSL_NCOUNTERS; c++) {
      marks[nmarks - 1].counters[c] += b->kcounters[k][c];
      total[c] += b->kcounters[k][c];
    }
  }
  for (uint32_t f = 0; f < v->n_fallbacks; f++) {
    tpkg_fallback r;
    tpkg_view_fallback(v, f, &r);
    fb[f] = (npu_fallback_info_t){tpkg_op_name(r.op), r.name, b->fb_cycles[f]};
  }
  npu_profile_t p = {.target = t, .engine = engine, .model = model, .total = total, .marks = marks,
                     .nmarks = nmarks, .kernels = info, .nkernels = max_id + 1, .fallbacks = fb,
                     .nfallbacks = v->n_fallbacks};
  run_timeline tl = {0};
  if (b->marks && run_timeline_build(v, b->marks, b->nmarks, b->marks_dropped, &tl, d)) {
    free(marks), free(fb), free(info), free(nodes);
    return -1;
  }
  if (tl.items) p.spans = tl.items, p.nspans = tl.n;
  /* Timeline events carry their kernel record; the profile numbers kernels
   * by position (segments merged), counted from 1 as MARKs are. */
  for (size_t e = 0; e < b->ntimeline; e++) {
    uint32_t rec = (uint32_t)b->timeline[e].marks, pos = 0;
    for (uint32_t k = 1; k <= rec && k < nk; k++) {
      tpkg_kernel_view a, c;
      tpkg_view_kernel(v, k - 1, &a);
      tpkg_view_kernel(v, k, &c);
      pos += a.mark_id != c.mark_id;
    }
    b->timeline[e].marks = pos + 1;
  }
  out_file of;
  int rc = out_file_open(&of, path, d);
  if (!rc && npu_profile_write_json_timeline(of.f, &p, b->timeline, b->ntimeline) != 0) {
    errno = 0; /* fflush retries the buffered write: errno then says why it failed */
    fflush(of.f);
    int e = errno ? errno : EIO;
    out_file_abort(&of);
    rc = diag_set(d, "%s: write failed: %s", path, strerror(e));
  } else if (!rc) {
    rc = out_file_commit(&of, d);
  }
  free(marks), free(fb), free(info), free(nodes);
  run_timeline_free(&tl);
  return rc;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* One `tessel run`: the package, its I/O records, the inputs as read. */
typedef struct {
  uint8_t *pkg;
  uint32_t len;
  tpkg_view v;
  const tsl_target_t *t;
  tpkg_io ins[RUN_MAX_IO], outs[RUN_MAX_IO];
  int n_in, n_out;
  npy_array arr[RUN_MAX_IO]; /* the input files, by package input */
  int64_t runs;              /* inferences */
  int lead;                  /* how the inputs hold them (runs_of) */
  const char *out_file[RUN_MAX_IO]; /* the --output file of each package output, or NULL */
} run_job;

/* Reads and validates the package (any target this tessel knows) and
 * splits its I/O records. */
static int open_package(const char *path, run_job *j, diag *d) {
  size_t len;
  if (tpkg_read_file(path, &j->pkg, &len, d)) return -1;
  if (len > UINT32_MAX) return diag_set(d, "%s: larger than 4 GiB: not a package", path);
  j->len = (uint32_t)len;
  tpkg_error pe;
  if (tpkg_check(j->pkg, j->len, 0, TPKG_CHECK_ANY_TARGET, &j->v, &pe) != TPKG_OK) {
    diag_set(d, "%s: not a valid package: ", path);
    return tpkg_diag(d, &pe);
  }
  j->t = tsl_target_find(j->v.target_name);
  if (!j->t || j->t->hash != j->v.target_hash)
    return diag_set(d, "%s: built for target '%s' (hash 0x%08X), which this tessel does not know: rebuild the package",
                    path, j->v.target_name, j->v.target_hash);
  for (uint32_t k = 0; k < j->v.n_io; k++) {
    tpkg_io io;
    tpkg_view_io(&j->v, k, &io);
    if ((io.dir == TPKG_DIR_INPUT ? j->n_in : j->n_out) == RUN_MAX_IO)
      return diag_set(d, "%s: more than %d inputs or outputs", path, RUN_MAX_IO);
    if (io.dir == TPKG_DIR_INPUT) j->ins[j->n_in++] = io;
    else j->outs[j->n_out++] = io;
  }
  return 0;
}

/* The --input files: each matched to a package input, its dtype and shape
 * checked, the number of inferences they hold agreed on. */
static int read_inputs(const run_args *a, run_job *j, diag *d) {
  if (a->n_in_spec > j->n_in)
    return diag_set(d, "the package has %d input%s, %d given with --input", j->n_in, j->n_in == 1 ? "" : "s",
                    a->n_in_spec);
  j->runs = -1, j->lead = -1;
  for (int s = 0; s < a->n_in_spec; s++) {
    const char *file;
    int i = match_io(j->ins, j->n_in, a->in_spec[s], s, &file, d);
    if (i < 0) return -1;
    const tpkg_io *io = &j->ins[i];
    npy_array *arr = &j->arr[i];
    if (arr->data) return diag_set(d, "input '%s' given twice", io->name);
    char err[512];
    if (npy_read(file, arr, err, sizeof err)) return diag_set(d, "%s", err);
    int64_t dims[TPKG_MAX_RANK];
    io_shape(io, dims);
    char want[128], got[128];
    shape_str(want, sizeof want, dims, io->rank);
    shape_str(got, sizeof got, arr->shape, arr->ndim);
    int l = -1;
    int64_t r = runs_of(arr, io, &l);
    if (arr->dtype != npy_of(io->dtype) || r < 1)
      return diag_set(d, "%s: input '%s' must be %s %s (or with a leading batch dimension), not %s %s", file, io->name,
                      tpkg_dtype_name(io->dtype), want, npy_dtype_name(arr->dtype), got);
    if (j->runs >= 0 && (r != j->runs || l != j->lead))
      return diag_set(d, "%s: input '%s' holds %lld inferences, another input %lld", file, io->name, (long long)r,
                      (long long)j->runs);
    j->runs = r, j->lead = l;
    (void)nonfinite_warn("run", file, io->name, arr, 1); /* every engine quantises it the same: warn, run */
  }
  for (int i = 0; i < j->n_in; i++)
    if (!j->arr[i].data)
      return diag_set(d, "the package has %d input%s, %d given with --input (none for '%s')", j->n_in,
                      j->n_in == 1 ? "" : "s", a->n_in_spec, j->ins[i].name);
  if (j->runs > 1000000) return diag_set(d, "%lld inferences in one call: at most 1000000", (long long)j->runs);
  if (j->runs < 0) j->runs = 1, j->lead = 0; /* a model without inputs */
  return 0;
}

/* The --output names, checked before anything runs. */
static int match_outputs(const run_args *a, run_job *j, diag *d) {
  for (int s = 0; s < a->n_out_spec; s++) {
    const char *file;
    int i = match_io(j->outs, j->n_out, a->out_spec[s], s, &file, d);
    if (i < 0) return -1;
    j->out_file[i] = file;
  }
  return 0;
}

/* Every run's inputs in the window layout, for the engine. */
static int stage_inputs(const run_job *j, uint8_t **inbuf, diag *d) {
  for (int i = 0; i < j->n_in; i++) {
    if (!(inbuf[i] = malloc((size_t)j->runs * j->ins[i].size + 1))) return diag_set(d, "out of memory");
    size_t per = j->arr[i].nbytes / (size_t)j->runs;
    for (int64_t r = 0; r < j->runs; r++)
      to_window(&j->ins[i], (uint32_t)j->t->dim, (uint8_t *)j->arr[i].data + r * per, inbuf[i] + r * j->ins[i].size);
  }
  return 0;
}

/* The outputs in the model's order, with the inputs' batch dimension: to
 * their --output files, or printed when no --output was given. */
static int write_outputs(const run_args *a, const run_job *j, const run_batch *b, diag *d) {
  for (int i = 0; i < j->n_out; i++) {
    const tpkg_io *io = &j->outs[i];
    npy_array o = {.dtype = npy_of(io->dtype)};
    int r0 = 0;
    if (j->lead == 1) o.shape[o.ndim++] = j->runs;
    if (j->lead == 2) o.shape[o.ndim++] = j->runs * io->dims[0], r0 = 1;
    for (int k = r0; k < io->rank; k++) o.shape[o.ndim++] = io->dims[k];
    size_t per = npy_dtype_size(o.dtype);
    for (int k = 0; k < io->rank; k++) per *= io->dims[k];
    o.nbytes = per * (size_t)j->runs;
    if (!(o.data = malloc(o.nbytes + 1))) return diag_set(d, "out of memory");
    for (int64_t r = 0; r < j->runs; r++)
      from_window(io, (uint32_t)j->t->dim, b->out[i] + r * io->size, (uint8_t *)o.data + r * per);
    char err[512] = "";
    int bad = 0;
    if (j->out_file[i]) bad = npy_write(j->out_file[i], &o, err, sizeof err);
    else if (!a->n_out_spec) print_output(io, &o);
    npy_free(&o);
    if (bad) return diag_set(d, "%s", err);
  }
  return 0;
}

static void print_summary(const run_args *a, const run_job *j, const run_batch *b) {
  uint64_t per = b->run_cycles / (uint64_t)j->runs;
  fprintf(stderr, "tessel run: %lld inference%s of %s on %s (%s): %u kernel records, %u fallback ops; ",
          (long long)j->runs, j->runs == 1 ? "" : "s", base_name(a->pkg_path), a->engine, j->v.target_name,
          j->v.n_kernels, j->v.n_fallbacks);
  if (!strcmp(a->engine, "board"))
    fprintf(stderr, "%llu core cycles per inference; %.2f s over %s (%u RUN frame%s sent again)\n",
            (unsigned long long)per, b->host_seconds, a->o.port, b->link_retries, b->link_retries == 1 ? "" : "s");
  else if (!strcmp(a->engine, "rtl"))
    fprintf(stderr, "%llu core cycles per inference; %llu cycles simulated in %.2f s (%.2f M cycles/s)\n",
            (unsigned long long)per, (unsigned long long)b->sim_cycles, b->host_seconds,
            b->host_seconds > 0 ? b->sim_cycles / b->host_seconds / 1e6 : 0.0);
  else
    fprintf(stderr, "%llu NPU cycles per inference (C model estimate); %.2f s\n", (unsigned long long)per,
            b->host_seconds);
}

int run_main(int argc, char **argv) {
  run_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc < 0) return CLI_OK; /* --help */
  if (rc != CLI_OK) return rc;
  diag d = {0};
  run_job j = {0};
  run_batch b = {0};
  uint8_t *inbuf[RUN_MAX_IO] = {0};
  rc = CLI_BAD_INPUT;
  if (open_package(a.pkg_path, &j, &d) || read_inputs(&a, &j, &d) || match_outputs(&a, &j, &d) ||
      stage_inputs(&j, inbuf, &d))
    goto out;
  if (a.launch.kind != TUNE_LAUNCH_LOCAL) {
    run_chunks_job c = {.pkg = a.pkg_path, .n_in = j.n_in, .n_out = j.n_out, .runs = j.runs, .engine = a.engine,
                        .n_pass = a.n_pass, .launch = &a.launch, .chunk = a.chunk, .workdir = a.workdir,
                        .quiet = a.quiet, .progress = isatty(2)};
    for (int i = 0; i < j.n_in; i++) c.in_name[i] = j.ins[i].name, c.in[i] = &j.arr[i];
    for (int i = 0; i < j.n_out; i++) c.out_name[i] = j.outs[i].name, c.out_file[i] = j.out_file[i];
    for (int i = 0; i < a.n_pass; i++) c.pass[i] = a.pass[i];
    if (j.runs < 1 || j.lead == 0) {
      diag_set(&d, "--launcher %s: the inputs hold one inference, not a batch to split", tune_launch_name(a.launch.kind));
      goto out;
    }
    if (run_chunks(&c, &d)) goto out;
    rc = CLI_OK;
    goto out;
  }
  b = (run_batch){.runs = (uint32_t)j.runs, .n_in = (uint32_t)j.n_in, .n_out = (uint32_t)j.n_out, .in = inbuf,
                  .want_window = a.dump_dir != NULL, .want_timeline = a.timeline};
  if (a.trace_kernel && trace_window(a.trace_kernel, j.pkg, j.len, &j.v, &a.o, &b, &d)) goto out;
  int erc = !strcmp(a.engine, "model")   ? run_engine_model(j.pkg, j.len, &j.v, &b, &d)
            : !strcmp(a.engine, "board") ? run_engine_board(j.pkg, j.len, &j.v, &a.o, &b, &d)
                                         : run_engine_rtl(j.pkg, j.len, &j.v, &a.o, &b, &d);
  if (erc == RUN_ENGINE_E_USAGE) rc = CLI_USAGE;
  if (erc) goto out;
  if (a.timeline && !strcmp(a.engine, "rtl")) {
    run_batch mb = {.runs = b.runs, .n_in = b.n_in, .n_out = b.n_out, .in = inbuf, .want_timeline = 1};
    int bad = run_engine_model(j.pkg, j.len, &j.v, &mb, &d) || rtl_timeline(&j.v, &b, &mb, &d);
    run_batch_free(&mb);
    if (bad) goto out;
  }
  if (write_outputs(&a, &j, &b, &d)) goto out;
  if (a.dump_dir && dump_tensors(a.dump_dir, &j.v, &b, (uint32_t)j.t->dim, &d)) goto out;
  if (a.profile && write_profile(a.profile, a.engine, base_name(a.pkg_path), &j.v, &b, &d)) goto out;
  if (!a.quiet) print_summary(&a, &j, &b);
  rc = CLI_OK;
out:
  if (rc != CLI_OK) fprintf(stderr, "tessel run: %s\n", d.msg);
  for (int i = 0; i < RUN_MAX_IO; i++) npy_free(&j.arr[i]), free(inbuf[i]);
  run_batch_free(&b);
  free(j.pkg);
  return rc;
}
