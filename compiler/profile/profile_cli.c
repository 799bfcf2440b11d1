/* profile_cli: `tessel profile`: load, check, report (see profile_cli.h). */
#include "profile_cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli_opts.h"
#include "out_file.h"
#include "profile/profile.h"
#include "profile/profile_compare.h"
#include "profile/profile_report.h"
#include "profile/profile_svg.h"
#include "profile/profile_trace.h"

static const char *const usage_profile =
    "usage: tessel profile P.json [--format table|csv|json|chrome|svg] [-o FILE] [--compare OTHER.json]\n"
    "  reports a profile from `tessel run --profile` (docs/profiling.md):\n"
    "  table   per fused kernel: cycles, share, utilisation, array occupancy, stalls,\n"
    "          estimate, roofline bound, SRAM and DRAM traffic, compulsory bytes,\n"
    "          intensity; the inference's timeline when the profile has one (default)\n"
    "  csv, json  the same rows, every column, for scripts\n"
    "  chrome  a trace for Perfetto / chrome://tracing (one track per unit, one for the core)\n"
    "  svg     charts: the timeline, cycles per kernel, DRAM traffic vs compulsory, roofline\n"
    "  --compare OTHER.json  P.json and OTHER.json side by side with OTHER/P ratios\n"
    "                        (formats table, csv, json)\n";

enum { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_CHROME, FMT_SVG };

static int usage(const char *fmt, const char *arg) {
  fprintf(stderr, "tessel profile: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%s", usage_profile);
  return 2;
}

static int fail(const diag *d) {
  fprintf(stderr, "tessel profile: %s\n", d->msg);
  return 1;
}

static int report(FILE *out, int fmt, arena *a, const profile *p, const profile *other, diag *d) {
  if (other) {
    static const prof_cmp_format cf[] = {PROF_CMP_TABLE, PROF_CMP_CSV, PROF_CMP_JSON};
    return prof_print_compare(out, cf[fmt], a, p, other, d);
  }
  if (fmt == FMT_CHROME) {
    prof_print_trace(out, p);
    return 0;
  }
  prof_row *rows;
  size_t n = prof_rows(a, p, &rows);
  if (!n) return diag_oom(d);
  if (fmt == FMT_TABLE) prof_print_table(out, p, rows, n);
  else if (fmt == FMT_CSV) prof_print_csv(out, p, rows, n);
  else if (fmt == FMT_JSON) prof_print_json(out, p, rows, n);
  else return prof_print_svg(out, p, rows, n, d);
  return 0;
}

enum { PROF_OPT_FORMAT = 1, PROF_OPT_OUTPUT, PROF_OPT_COMPARE };

static const cli_opt profile_options[] = {
    {PROF_OPT_FORMAT, "--format", NULL, 1, CLI_OPT_ONCE},
    {PROF_OPT_OUTPUT, "-o", "--output", 1, CLI_OPT_ONCE},
    {PROF_OPT_COMPARE, "--compare", NULL, 1, CLI_OPT_ONCE},
    {0},
};

int profile_main(int argc, char **argv) {
  static const char *const formats[] = {"table", "csv", "json", "chrome", "svg"};
  const char *in = NULL, *out_path = NULL, *cmp = NULL;
  int fmt = FMT_TABLE;
  cli_opts po;
  cli_opts_init(&po, "profile", profile_options, argc, argv, 1);
  for (int id; (id = cli_opts_next(&po)) != CLI_OPTS_END;) {
    const char *v = po.value;
    if (id == CLI_OPTS_HELP) {
      fputs(usage_profile, stdout);
      return 0;
    }
    if (id == CLI_OPTS_ERROR) return cli_opts_fail(&po, usage_profile);
    if (id != CLI_OPTS_ARG && !*v) return usage("%s needs a value", po.opt->name);
    if (id == PROF_OPT_FORMAT) {
      fmt = -1;
      for (int k = 0; k < 5; k++)
        if (!strcmp(v, formats[k])) fmt = k;
      if (fmt < 0) return usage("unknown format '%s' (table, csv, json, chrome or svg)", v);
    } else if (id == PROF_OPT_OUTPUT) {
      out_path = v;
    } else if (id == PROF_OPT_COMPARE) {
      cmp = v;
    } else if (in) {
      return usage("one profile only (got '%s'; use --compare for a second)", v);
    } else {
      in = v;
    }
  }
  if (!in) return usage("%s", "missing the profile P.json");
  if (cmp && fmt > FMT_JSON) return usage("--compare writes table, csv or json, not %s", formats[fmt]);
  diag d = {{0}};
  arena *a = arena_new();
  if (!a) return fail((diag_oom(&d), &d));
  profile p, q;
  int rc = 0;
  out_file of = {0};
  if (out_file_not_input("-o", out_path, in, "the profile", &d) ||
      out_file_not_input("-o", out_path, cmp, "--compare", &d)) {
    rc = usage("%s", d.msg);
  } else if (profile_load(a, in, &p, &d) || (cmp && profile_load(a, cmp, &q, &d))) {
    rc = fail(&d);
  } else if (!out_path) {
    if (report(stdout, fmt, a, &p, cmp ? &q : NULL, &d)) rc = fail(&d);
    if (fflush(stdout) != 0 && !rc) {
      fprintf(stderr, "tessel profile: stdout: write error\n");
      rc = 1;
    }
  } else if (out_file_open(&of, out_path, &d)) {
    rc = fail(&d);
  } else if (report(of.f, fmt, a, &p, cmp ? &q : NULL, &d)) {
    /* no half report left behind: -o keeps what it held */
    out_file_abort(&of);
    rc = fail(&d);
  } else if (out_file_commit(&of, &d)) {
    rc = fail(&d);
  }
  arena_free(a);
  return rc;
}
