/* tune_cli: the command line of `tessel tune` (tune_cli.h). */
#include "tune_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "out_file.h"
#include "tune/tune.h"

static const char *const usage_tune =
    "usage: tessel tune MODEL.onnx [--target T] [--calib X.npy]... [--input X.npy] [--trials N] [--jobs J]\n"
    "                   [--log tune.jsonl] [--engine rtl|model] [--time-budget S] [--timeout S] [--resume]\n"
    "                   [--batch]\n"
    "                   [--seed N] [--explore N] [--workdir DIR] [--tessel PATH] [--no-progress]\n"
    "Searches a schedule per conv/matmul workload (docs/tuning.md): the cost model explores the\n"
    "knobs, the best candidates (the default always among them) are compiled and run as separate\n"
    "`tessel run` processes, J at a time; every measurement is a JSON line appended to the log.\n"
    "Then SRAM residency on and off is measured end to end.  `tessel compile --tuning-log LOG`\n"
    "applies the best record per workload.\n"
    "options:\n"
    "  --target T        npu4, npu8 (default), npu16\n"
    "  --calib X.npy     calibration samples for a float model (as for compile)\n"
    "  --input X.npy     the input every measurement runs (default: the first calibration sample)\n"
    "  --trials N        measurements per task, the default schedule included (default 16)\n"
    "  --explore N       cost-model lowerings before measuring: each prices one schedule of every\n"
    "                    task (default 256; a task whose space is not larger is enumerated)\n"
    "  --jobs J          measurements at once (default 2)\n"
    "  --log FILE        the log to append to (default tune.jsonl)\n"
    "  --engine E        rtl: the cycle-accurate SoC (default); model: the NPU C model\n"
    "  --time-budget S   no new measurement after S seconds (default: none)\n"
    "  --timeout S       a measurement taking longer is killed and logged as a timeout (default 600)\n"
    "  --resume          reuse the log's measurements of the same workload, schedule and engine\n"
    "  --batch           one package per round of candidates, holding one candidate of every task\n"
    "                    (kernels are measured apart, so one run measures all tasks: for big nets\n"
    "                    on rtl; default: one package per candidate, the other kernels default)\n"
    "  --seed N          seed of the search (default 1)\n"
    "  --workdir DIR     keep packages, profiles and run logs in DIR (default: a removed /tmp folder)\n"
    "  --tessel PATH     the tessel binary that runs measurements (default: this one)\n"
    "  --no-progress     no progress bar (it is drawn only when stderr is a terminal anyway)\n";

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "tessel tune: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage_tune);
  return CLI_USAGE;
}

/* Whether s is an option that takes a value. */
static int valued(const char *s) {
  static const char *const names[] = {"--target", "--calib", "--input", "--trials", "--jobs", "-j", "--log",
                                      "--engine", "--time-budget", "--timeout", "--seed", "--workdir", "--tessel",
                                      "--explore"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(s, names[i])) return 1;
  return 0;
}

/* A number in [lo, hi] (integer when integral); -1 when it is not. */
static int number(const char *v, double lo, double hi, int integral, double *out) {
  char *end;
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= lo && x <= hi) || (integral && x != (double)(long long)x)) return -1;
  *out = x;
  return 0;
}

/* 0 the first time option bit k is seen; then the usage error. */
static int once(unsigned *seen, int k, const char *opt) {
  if (!(*seen & 1u << k)) {
    *seen |= 1u << k;
    return 0;
  }
  usage("give %s once", opt);
  return 1;
}

int tune_main(int argc, char **argv) {
  tune_opts o = {.target = "npu8", .trials = 16, .jobs = 2, .log = "tune.jsonl", .engine = "rtl", .timeout = 600,
                 .seed = 1, .progress = isatty(2)};
  /* --target, --input, --log, --engine, --workdir, --tessel given so far: a
   * second one used to win silently (numeric knobs may be overridden) */
  unsigned seen = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    double x;
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      fputs(usage_tune, stdout);
      return CLI_OK;
    } else if (!strcmp(s, "--resume")) {
      o.resume = 1;
    } else if (!strcmp(s, "--batch")) {
      o.batch = 1;
    } else if (!strcmp(s, "--no-progress")) {
      o.progress = 0;
    } else if (s[0] == '-' && s[1] && i + 1 >= argc) {
      return usage(valued(s) ? "%s needs a value" : "unknown option '%s'", s);
    } else if (!strcmp(s, "--target")) {
      if (once(&seen, 0, s)) return CLI_USAGE;
      o.target = argv[++i];
    } else if (!strcmp(s, "--calib")) {
      if (o.n_calib == TUNE_MAX_CALIB) return usage("too many --calib files (%s)", argv[i + 1]);
      o.calib[o.n_calib++] = argv[++i];
    } else if (!strcmp(s, "--input")) {
      if (once(&seen, 1, s)) return CLI_USAGE;
      o.input = argv[++i];
    } else if (!strcmp(s, "--trials")) {
      if (number(argv[++i], 1, 100000, 1, &x)) return usage("--trials '%s': expected a count >= 1", argv[i]);
      o.trials = (int)x;
    } else if (!strcmp(s, "--explore")) {
      if (number(argv[++i], 1, 100000, 1, &x)) return usage("--explore '%s': expected a count >= 1", argv[i]);
      o.explore = (int)x;
    } else if (!strcmp(s, "--jobs") || !strcmp(s, "-j")) {
      if (number(argv[++i], 1, 256, 1, &x)) return usage("--jobs '%s': expected a count in [1, 256]", argv[i]);
      o.jobs = (int)x;
    } else if (!strcmp(s, "--log")) {
      if (once(&seen, 2, s)) return CLI_USAGE;
      o.log = argv[++i];
      if (!*o.log) return usage("%s", "--log needs a file name");
    } else if (!strcmp(s, "--engine")) {
      if (once(&seen, 3, s)) return CLI_USAGE;
      o.engine = argv[++i];
      if (strcmp(o.engine, "rtl") && strcmp(o.engine, "model"))
        return usage("--engine '%s': expected rtl or model", o.engine);
    } else if (!strcmp(s, "--time-budget")) {
      if (number(argv[++i], 0.001, 1e9, 0, &x)) return usage("--time-budget '%s': expected seconds > 0", argv[i]);
      o.time_budget = x;
    } else if (!strcmp(s, "--timeout")) {
      if (number(argv[++i], 0.001, 1e9, 0, &x)) return usage("--timeout '%s': expected seconds > 0", argv[i]);
      o.timeout = x;
    } else if (!strcmp(s, "--seed")) {
      if (number(argv[++i], 0, 9007199254740992.0, 1, &x)) return usage("--seed '%s': expected an integer >= 0", argv[i]);
      o.seed = (uint64_t)x;
    } else if (!strcmp(s, "--workdir")) {
      if (once(&seen, 4, s)) return CLI_USAGE;
      o.workdir = argv[++i];
      if (!*o.workdir) return usage("%s", "--workdir needs a folder name");
    } else if (!strcmp(s, "--tessel")) {
      if (once(&seen, 5, s)) return CLI_USAGE;
      o.tessel = argv[++i];
    } else if (s[0] == '-' && s[1]) {
      return usage("unknown option '%s'", s);
    } else if (!o.model) {
      o.model = s;
    } else {
      return usage("more than one model ('%s')", s);
    }
  }
  if (!o.model) return usage("%s", "no model given");
  diag d = {{0}};
  /* The log is appended to: naming the model there would corrupt it. */
  int bad = out_file_not_input("--log", o.log, o.model, "the model", &d) ||
            out_file_not_input("--log", o.log, o.input, "--input", &d);
  for (int k = 0; !bad && k < o.n_calib; k++) bad = out_file_not_input("--log", o.log, o.calib[k], "--calib", &d);
  if (bad) return usage("%s", d.msg);
  if (tune_run(&o, &d)) {
    fprintf(stderr, "tessel tune: %s\n", d.msg);
    return CLI_BAD_INPUT;
  }
  return CLI_OK;
}
