/* cli_opts: reading a subcommand's command line against its table
 * (cli_opts.h). */
#include "cli_opts.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_opts_init(cli_opts *p, const char *cmd, const cli_opt *table, int argc, char **argv, int first) {
  *p = (cli_opts){.cmd = cmd, .table = table, .argc = argc, .argv = argv, .next = first};
  int n = 0;
  while (table[n].name) {
    TSL_ASSERT(table[n].id > 0);
    n++;
  }
  TSL_ASSERT(n <= CLI_OPTS_MAX);
}

/* Whether ARG spells NAME, alone (*eq = NULL) or as NAME=VALUE (*eq at '='). */
static int spells(const char *arg, const char *name, const char **eq) {
  size_t n = name ? strlen(name) : 0;
  if (!n || strncmp(arg, name, n) || (arg[n] && arg[n] != '=')) return 0;
  *eq = arg[n] ? arg + n : NULL;
  return 1;
}

/* Sets the one wording of a bad option: "tessel CMD: WHAT" with NAME in it. */
static int bad(cli_opts *p, const char *what, const char *name) {
  p->err.msg[0] = 0;
  char text[900];
  snprintf(text, sizeof text, what, name);
  diag_set(&p->err, "tessel %s: %s", p->cmd, text);
  return CLI_OPTS_ERROR;
}

int cli_opts_next(cli_opts *p) {
  p->opt = NULL;
  p->value = NULL;
  if (p->next >= p->argc) return CLI_OPTS_END;
  const char *arg = p->argv[p->next++];
  if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) return CLI_OPTS_HELP;
  if (arg[0] != '-' || !arg[1]) {
    p->value = arg;
    return CLI_OPTS_ARG;
  }
  /* 1. which option, in which spelling */
  const cli_opt *o = NULL;
  const char *eq = NULL;
  for (const cli_opt *t = p->table; t->name && !o; t++)
    if (spells(arg, t->name, &eq) || spells(arg, t->alias, &eq)) o = t;
  if (!o) return bad(p, "unknown option '%s'", arg);
  p->opt = o;
  unsigned char *seen = &p->seen[o - p->table];
  if (!o->takes_value) {
    if (eq) return bad(p, "%s takes no value", o->name);
    *seen = 1;
    return o->id;
  }
  /* 2. its value: after '=', else the next argument */
  if (eq) p->value = eq + 1;
  else if (p->next < p->argc) p->value = p->argv[p->next++];
  else return bad(p, "%s needs a value", o->name);
  /* 3. what a repeat means */
  if (*seen && o->repeat == CLI_OPT_ONCE) return bad(p, "give %s once", o->name);
  *seen = 1;
  return o->id;
}

int cli_opts_fail(const cli_opts *p, const char *usage) {
  fprintf(stderr, "%s\n%s", p->err.msg, usage);
  return CLI_USAGE;
}
