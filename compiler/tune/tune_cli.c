/* tune_cli: the command line of `tessel tune` (tune_cli.h). */
#include "tune_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "out_file.h"
#include "tune/tune.h"

static const char *const usage_tune =
    "usage: tessel tune MODEL.onnx [--target T] [--calib X.npy]... [--input X.npy] [--trials N] [--jobs J]\n"
    "                   [--log tune.jsonl] [--engine rtl|model] [--time-budget S] [--timeout S] [--resume]\n"
    "                   [--batch]\n"
    "                   [--seed N] [--explore N] [--workdir DIR] [--tessel PATH] [--no-progress]\n"
    "                   [--launcher local|parallel|slurm] [--sshlogin LIST] [--partition P] [--time-limit T]\n"
    "                   [--sbatch-opt OPT]... [--fold DIR]\n"
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
    "  --no-progress     no progress bar (it is drawn only when stderr is a terminal anyway)\n"
    "  --launcher L      local: --jobs processes here (default); parallel: GNU parallel; slurm: one\n"
    "                    sbatch --array per round (both need --workdir on a file system every node sees)\n"
    "  --sshlogin LIST   parallel: its --sshlogin (e.g. 8/host1,8/host2; ':' is this host); --jobs is\n"
    "                    then tasks at once per login\n"
    "  --partition P     slurm: the partition\n"
    "  --time-limit T    slurm: --time of each task (MINUTES or D-HH:MM:SS)\n"
    "  --sbatch-opt OPT  slurm: one more sbatch option (--sbatch-opt=--account=A), repeatable\n"
    "  --fold DIR        DIR is the work folder, and a measurement whose package its round folders\n"
    "                    already hold with a profile is taken from there (the same seed and options)\n";

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "tessel tune: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage_tune);
  return CLI_USAGE;
}

enum {
  TUNE_TARGET = 1, TUNE_CALIB, TUNE_INPUT, TUNE_TRIALS, TUNE_EXPLORE, TUNE_JOBS, TUNE_LOG, TUNE_ENGINE,
  TUNE_TIME_BUDGET, TUNE_TIMEOUT, TUNE_SEED, TUNE_WORKDIR, TUNE_TESSEL, TUNE_RESUME, TUNE_BATCH, TUNE_NO_PROGRESS,
  TUNE_FOLD, TUNE_LAUNCH, /* TUNE_LAUNCH .. + TUNE_LAUNCH_NOPTS - 1: tune_launch.h */
};

/* Files, folders and the engine once (a second one used to win silently);
 * the numeric knobs may be overridden by a later one. */
static const cli_opt tune_options[] = {
    {TUNE_TARGET, "--target", NULL, 1, CLI_OPT_ONCE},
    {TUNE_CALIB, "--calib", NULL, 1, CLI_OPT_LIST},
    {TUNE_INPUT, "--input", NULL, 1, CLI_OPT_ONCE},
    {TUNE_TRIALS, "--trials", NULL, 1, CLI_OPT_LAST},
    {TUNE_EXPLORE, "--explore", NULL, 1, CLI_OPT_LAST},
    {TUNE_JOBS, "--jobs", "-j", 1, CLI_OPT_LAST},
    {TUNE_LOG, "--log", NULL, 1, CLI_OPT_ONCE},
    {TUNE_ENGINE, "--engine", NULL, 1, CLI_OPT_ONCE},
    {TUNE_TIME_BUDGET, "--time-budget", NULL, 1, CLI_OPT_LAST},
    {TUNE_TIMEOUT, "--timeout", NULL, 1, CLI_OPT_LAST},
    {TUNE_SEED, "--seed", NULL, 1, CLI_OPT_LAST},
    {TUNE_WORKDIR, "--workdir", NULL, 1, CLI_OPT_ONCE},
    {TUNE_TESSEL, "--tessel", NULL, 1, CLI_OPT_ONCE},
    {TUNE_RESUME, "--resume", NULL, 0, CLI_OPT_ONCE},
    {TUNE_BATCH, "--batch", NULL, 0, CLI_OPT_ONCE},
    {TUNE_NO_PROGRESS, "--no-progress", NULL, 0, CLI_OPT_ONCE},
    {TUNE_FOLD, "--fold", NULL, 1, CLI_OPT_ONCE},
    TUNE_LAUNCH_OPTIONS(TUNE_LAUNCH),
    {0},
};

/* A number in [lo, hi] (integer when integral); -1 when it is not. */
static int number(const char *v, double lo, double hi, int integral, double *out) {
  char *end;
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= lo && x <= hi) || (integral && x != (double)(long long)x)) return -1;
  *out = x;
  return 0;
}

int tune_main(int argc, char **argv) {
  tune_opts o = {.target = "npu8", .trials = 16, .jobs = 2, .log = "tune.jsonl", .engine = "rtl", .timeout = 600,
                 .seed = 1, .progress = isatty(2)};
  int jobs_given = 0;
  const char *fold_dir = NULL;
  cli_opts p;
  cli_opts_init(&p, "tune", tune_options, argc, argv, 1);
  for (int id; (id = cli_opts_next(&p)) != CLI_OPTS_END;) {
    const char *v = p.value;
    double x;
    switch (id) {
    case CLI_OPTS_HELP: fputs(usage_tune, stdout); return CLI_OK;
    case CLI_OPTS_ERROR: return cli_opts_fail(&p, usage_tune);
    case CLI_OPTS_ARG:
      if (o.model) return usage("more than one model ('%s')", v);
      o.model = v;
      break;
    case TUNE_RESUME: o.resume = 1; break;
    case TUNE_BATCH: o.batch = 1; break;
    case TUNE_NO_PROGRESS: o.progress = 0; break;
    case TUNE_TARGET: o.target = v; break;
    case TUNE_CALIB:
      if (o.n_calib == TUNE_MAX_CALIB) return usage("too many --calib files (%s)", v);
      o.calib[o.n_calib++] = v;
      break;
    case TUNE_INPUT: o.input = v; break;
    case TUNE_TRIALS:
      if (number(v, 1, 100000, 1, &x)) return usage("--trials '%s': expected a count >= 1", v);
      o.trials = (int)x;
      break;
    case TUNE_EXPLORE:
      if (number(v, 1, 100000, 1, &x)) return usage("--explore '%s': expected a count >= 1", v);
      o.explore = (int)x;
      break;
    case TUNE_JOBS:
      if (number(v, 1, 256, 1, &x)) return usage("--jobs '%s': expected a count in [1, 256]", v);
      o.jobs = (int)x;
      jobs_given = 1;
      break;
    case TUNE_LOG:
      if (!*v) return usage("%s", "--log needs a file name");
      o.log = v;
      break;
    case TUNE_ENGINE:
      if (strcmp(v, "rtl") && strcmp(v, "model")) return usage("--engine '%s': expected rtl or model", v);
      o.engine = v;
      break;
    case TUNE_TIME_BUDGET:
      if (number(v, 0.001, 1e9, 0, &x)) return usage("--time-budget '%s': expected seconds > 0", v);
      o.time_budget = x;
      break;
    case TUNE_TIMEOUT:
      if (number(v, 0.001, 1e9, 0, &x)) return usage("--timeout '%s': expected seconds > 0", v);
      o.timeout = x;
      break;
    case TUNE_SEED:
      if (number(v, 0, 9007199254740992.0, 1, &x)) return usage("--seed '%s': expected an integer >= 0", v);
      o.seed = (uint64_t)x;
      break;
    case TUNE_WORKDIR:
      if (!*v) return usage("%s", "--workdir needs a folder name");
      o.workdir = v;
      break;
    case TUNE_TESSEL: o.tessel = v; break;
    case TUNE_FOLD:
      if (!*v) return usage("%s", "--fold needs the work folder of the run to fold in");
      o.fold = 1;
      fold_dir = v;
      break;
    default: {
      diag ld = {{0}};
      TSL_ASSERT(id >= TUNE_LAUNCH && id < TUNE_LAUNCH + TUNE_LAUNCH_NOPTS);
      if (tune_launch_opt(&o.launch, id - TUNE_LAUNCH, v, &ld)) return usage("%s", ld.msg);
    }
    }
  }
  if (!o.model) return usage("%s", "no model given");
  diag d = {{0}};
  if (fold_dir && o.workdir && strcmp(fold_dir, o.workdir))
    return usage("%s", "--fold DIR is the work folder: give --workdir DIR too, or only --fold");
  if (fold_dir) o.workdir = fold_dir;
  o.launch.jobs = jobs_given ? o.jobs : 0;
  o.launch.timeout = o.timeout;
  if (tune_launch_check(&o.launch, o.workdir, &d)) return usage("%s", d.msg);
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
