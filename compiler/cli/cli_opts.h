/* cli_opts: the one option parser of every `tessel` subcommand.
 *
 * Each subcommand describes its options in a table (name, a second
 * spelling, whether it takes a value, what a repeat means) and reads its
 * command line one item at a time with cli_opts_next.  Every subcommand
 * thus takes the same syntax and gives the same messages:
 *
 *   --name VALUE  and  --name=VALUE   (also -o FILE and -o=FILE)
 *   "tessel CMD: unknown option '--frob'"
 *   "tessel CMD: --target needs a value"
 *   "tessel CMD: --quiet takes no value"
 *   "tessel CMD: give --target once"
 *
 * A value is the next argument whatever it looks like (`--atol -1`), and
 * may be empty (`--log ""` and `--log=` are the same); the subcommand
 * checks what it means.  "-" alone is a positional argument (a file).
 * Errors are values (a diag), the parser neither prints nor exits. */
#ifndef TESSEL_CLI_OPTS_H
#define TESSEL_CLI_OPTS_H

#include "diag.h"

/* What giving a value option twice means. */
typedef enum {
  CLI_OPT_ONCE, /* an error: "give --target once" (a second one used to win silently) */
  CLI_OPT_LIST, /* every occurrence counts: --calib X --calib Y, --bind, -o */
  CLI_OPT_LAST, /* the last one counts: numeric knobs a script may override */
} cli_opt_repeat;

typedef struct cli_opt {
  int id;                /* the caller's key, > 0; cli_opts_next returns it */
  const char *name;      /* "--target"; NULL ends the table */
  const char *alias;     /* another spelling ("-o" for "--output"), or NULL */
  int takes_value;       /* 1: NAME VALUE or NAME=VALUE; 0: a flag (repeating one is harmless) */
  cli_opt_repeat repeat; /* value options only */
} cli_opt;

enum { CLI_OPTS_MAX = 64 }; /* options in one table */

/* What cli_opts_next returns besides an option's id. */
enum {
  CLI_OPTS_END = 0,    /* no arguments left */
  CLI_OPTS_ARG = -1,   /* a positional argument, in p->value */
  CLI_OPTS_HELP = -2,  /* -h or --help (in every subcommand) */
  CLI_OPTS_ERROR = -3, /* bad option: p->err holds "tessel CMD: ..." */
};

typedef struct cli_opts {
  const char *cmd;            /* the subcommand, named in messages ("run") */
  const cli_opt *table;       /* the options, ended by a NULL name (not owned) */
  int argc;                   /* argv[0..argc) as main got it */
  char **argv;
  int next;                   /* the next argument to read */
  unsigned char seen[CLI_OPTS_MAX]; /* occurrences per table entry so far */
  const cli_opt *opt;         /* after an option: its table entry */
  const char *value;          /* after a value option or CLI_OPTS_ARG: the text (in argv) */
  diag err;                   /* after CLI_OPTS_ERROR: the message */
} cli_opts;

/* Starts reading argv[first..argc) for subcommand CMD with TABLE (both must
 * outlive p). */
void cli_opts_init(cli_opts *p, const char *cmd, const cli_opt *table, int argc, char **argv, int first);

/* Reads the next item: an option's id (> 0; p->opt, and p->value for a
 * value option), CLI_OPTS_ARG, CLI_OPTS_HELP, CLI_OPTS_END, or
 * CLI_OPTS_ERROR with p->err set. */
int cli_opts_next(cli_opts *p);

/* Prints p->err and USAGE to stderr; returns 2 (CLI_USAGE). */
int cli_opts_fail(const cli_opts *p, const char *usage);

#endif
