/* isa_parse.c: reads targets/isa.def (format in its header comment) and
 * checks it: opcodes unique, fields inside the command and inside one 32-bit
 * word, no two fields overlapping, enum and slot names defined. */
#include "isa_desc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "def_lex.h"
#include "host_file.h"

typedef DefCtx Ctx;

static int parse_int(Ctx *c, const char *s, long long *out) {
  char *end;
  long long v = strtoll(s, &end, 0);
  if (*s == 0 || *end != 0) return def_fail(c, "'%s' is not a number", s);
  *out = v;
  return 0;
}

static int copy_name(Ctx *c, char *dst, const char *src) {
  if (strlen(src) >= MAX_NAME) return def_fail(c, "name '%s' too long", src);
  strcpy(dst, src);
  return 0;
}

static int find_item(const Item *items, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(items[i].name, name) == 0) return i;
  return -1;
}

int isa_param_index(const Isa *isa, const char *name) {
  return find_item(isa->params, isa->nparams, name);
}

static int add_field(Ctx *c, Isa *isa, Field *fs, int *nf, int max, char **w, int nw, int is_rf,
                     const char *doc) {
  if (*nf >= max) return def_fail(c, "too many fields");
  Field *f = &fs[*nf];
  memset(f, 0, sizeof *f);
  long long lsb = 0, width = 0;
  if (nw < 4) return def_fail(c, "field needs a name, an lsb and a width");
  if (copy_name(c, f->name, w[1]) || parse_int(c, w[2], &lsb) || parse_int(c, w[3], &width))
    return -1;
  f->lsb = (int)lsb;
  f->width = (int)width;
  f->slot = -1;
  f->type = FT_U;
  snprintf(f->doc, sizeof f->doc, "%s", doc);
  if (!is_rf) {
    if (nw != 6) return def_fail(c, "field needs: f NAME LSB WIDTH TYPE SLOT \"doc\"");
    if (strcmp(w[4], "u") == 0) f->type = FT_U;
    else if (strcmp(w[4], "s") == 0) f->type = FT_S;
    else if (strcmp(w[4], "b") == 0) f->type = FT_B;
    else if (strncmp(w[4], "e:", 2) == 0) {
      f->type = FT_E;
      f->enum_idx = -1;
      for (int i = 0; i < isa->nenums; i++)
        if (strcmp(isa->enums[i].name, w[4] + 2) == 0) f->enum_idx = i;
      if (f->enum_idx < 0) return def_fail(c, "unknown enum '%s'", w[4] + 2);
    } else
      return def_fail(c, "unknown field type '%s'", w[4]);
    if (strcmp(w[5], "-") != 0) {
      f->slot = find_item(isa->slots, isa->nslots, w[5]);
      if (f->slot < 0) return def_fail(c, "unknown slot '%s'", w[5]);
    }
    if (f->type == FT_B && width != 1) return def_fail(c, "bool field '%s' must be 1 bit", f->name);
    if (lsb < 0 || width < 1 || width > 32 || lsb + width > isa->cmd_bits)
      return def_fail(c, "field '%s' [%lld +%lld] outside the command", f->name, lsb, width);
    if (lsb / 32 != (lsb + width - 1) / 32)
      return def_fail(c, "field '%s' straddles a 32-bit word", f->name);
  } else {
    if (nw != 4) return def_fail(c, "rf needs: rf NAME LSB WIDTH \"doc\"");
    if (lsb < 0 || width < 1 || lsb + width > 32) return def_fail(c, "register field outside 32 bits");
  }
  for (int i = 0; i < *nf; i++) {
    const Field *g = &fs[i];
    if (strcmp(g->name, f->name) == 0) return def_fail(c, "duplicate field '%s'", f->name);
    if (f->lsb < g->lsb + g->width && g->lsb < f->lsb + f->width)
      return def_fail(c, "field '%s' overlaps '%s'", f->name, g->name);
  }
  (*nf)++;
  return 0;
}

/* Token flags: bits 8..11 of every queue command (see docs/isa.md, tokens). */
static void add_token_fields(Cmd *cmd) {
  static const char *names[4] = {"pop_prev", "pop_next", "push_prev", "push_next"};
  static const char *docs[4] = {
      "wait for and take a token from the previous queue before starting",
      "wait for and take a token from the next queue before starting",
      "give a token to the previous queue when done",
      "give a token to the next queue when done"};
  for (int i = 0; i < 4; i++) {
    Field *f = &cmd->fields[cmd->nfields++];
    memset(f, 0, sizeof *f);
    strcpy(f->name, names[i]);
    strcpy(f->doc, docs[i]);
    f->lsb = 8 + i;
    f->width = 1;
    f->type = FT_B;
    f->slot = -1;
  }
}

static int parse_line(Ctx *c, Isa *isa, char *line) {
  char *w[12];
  char doc[MAX_DOC];
  int nw = def_split(c, line, w, 12, doc, sizeof doc);
  if (nw < 0) return nw;
  if (nw > 12) nw = 12; /* words past the twelfth are not read */
  if (nw == 0) return 0;
  const char *k = w[0];
  long long v1 = 0, v2 = 0;
  if (strcmp(k, "isa") == 0) {
    if (nw != 3 || parse_int(c, w[1], &v1) || parse_int(c, w[2], &v2)) return def_fail(c, "isa VERSION BITS");
    if (v2 != 128) return def_fail(c, "only 128-bit commands are supported");
    isa->version = (int)v1;
    isa->cmd_bits = (int)v2;
    return 0;
  }
  if (isa->cmd_bits == 0) return def_fail(c, "the first line must be 'isa VERSION BITS'");
  Item *it = NULL;
  int *count = NULL;
  if (strcmp(k, "param") == 0) it = isa->params, count = &isa->nparams;
  else if (strcmp(k, "queue") == 0) it = isa->queues, count = &isa->nqueues;
  else if (strcmp(k, "slot") == 0) it = isa->slots, count = &isa->nslots;
  else if (strcmp(k, "error") == 0) it = isa->errors, count = &isa->nerrors;
  else if (strcmp(k, "counter") == 0) it = isa->counters, count = &isa->ncounters;
  if (it) {
    int cap = (it == isa->queues || it == isa->slots) ? 8 : MAX_ITEMS;
    int want = strcmp(k, "param") == 0 || strcmp(k, "counter") == 0 ? 4 : 3;
    /* a param may add a fifth word, its default (see cfg_parse: hash) */
    int opt = strcmp(k, "param") == 0 && nw == 5;
    if (nw != want && !opt) return def_fail(c, "'%s' takes %d words and a doc string", k, want - 1);
    if (*count >= cap) return def_fail(c, "too many '%s' lines", k);
    Item *x = &it[*count];
    memset(x, 0, sizeof *x);
    if (copy_name(c, x->name, w[1]) || parse_int(c, w[2], &x->a)) return -1;
    if (strcmp(k, "param") == 0 && parse_int(c, w[3], &x->b)) return -1;
    if (opt) {
      if (parse_int(c, w[4], &x->def)) return -1;
      if (x->def < x->a || x->def > x->b) return def_fail(c, "param '%s' default outside its range", x->name);
      x->has_def = 1;
    }
    if (strcmp(k, "counter") == 0 && copy_name(c, x->extra, w[3])) return -1;
    if (find_item(it, *count, x->name) >= 0) return def_fail(c, "duplicate %s '%s'", k, x->name);
    for (int i = 0; i < *count; i++)
      if (strcmp(k, "param") != 0 && strcmp(k, "slot") != 0 && it[i].a == x->a)
        return def_fail(c, "%s '%s' reuses number %lld", k, x->name, x->a);
    if (strcmp(k, "counter") == 0 && x->a != *count) return def_fail(c, "counters must be numbered 0,1,2,...");
    snprintf(x->doc, sizeof x->doc, "%s", doc);
    (*count)++;
    return 0;
  }
  if (strcmp(k, "enum") == 0) {
    if (nw != 2 || isa->nenums >= 8) return def_fail(c, "enum NAME \"doc\" (at most 8)");
    Enum *e = &isa->enums[isa->nenums++];
    memset(e, 0, sizeof *e);
    snprintf(e->doc, sizeof e->doc, "%s", doc);
    return copy_name(c, e->name, w[1]);
  }
  if (strcmp(k, "value") == 0) {
    if (isa->nenums == 0 || nw != 3) return def_fail(c, "value NAME N \"doc\" after an enum");
    Enum *e = &isa->enums[isa->nenums - 1];
    if (e->nvalues >= MAX_FIELDS) return def_fail(c, "too many values");
    Item *x = &e->values[e->nvalues++];
    memset(x, 0, sizeof *x);
    snprintf(x->doc, sizeof x->doc, "%s", doc);
    return copy_name(c, x->name, w[1]) || parse_int(c, w[2], &x->a) ? -1 : 0;
  }
  if (strcmp(k, "cmd") == 0) {
    if (nw != 4 || isa->ncmds >= MAX_ITEMS) return def_fail(c, "cmd NAME OPCODE QUEUE \"doc\"");
    Cmd *cmd = &isa->cmds[isa->ncmds];
    memset(cmd, 0, sizeof *cmd);
    if (copy_name(c, cmd->name, w[1]) || parse_int(c, w[2], &v1)) return -1;
    if (v1 < 1 || v1 > 255) return def_fail(c, "opcode must be 1..255 (0 is never a command)");
    cmd->opcode = (int)v1;
    cmd->queue = find_item(isa->queues, isa->nqueues, w[3]);
    if (cmd->queue < 0) return def_fail(c, "unknown queue '%s'", w[3]);
    for (int i = 0; i < isa->ncmds; i++)
      if (isa->cmds[i].opcode == cmd->opcode || strcmp(isa->cmds[i].name, cmd->name) == 0)
        return def_fail(c, "command '%s' reuses a name or opcode", cmd->name);
    snprintf(cmd->doc, sizeof cmd->doc, "%s", doc);
    if (isa->queues[cmd->queue].a != 0) add_token_fields(cmd);
    isa->ncmds++;
    return 0;
  }
  if (strcmp(k, "f") == 0) {
    if (isa->ncmds == 0) return def_fail(c, "field before any cmd");
    Cmd *cmd = &isa->cmds[isa->ncmds - 1];
    if (nw >= 4) {
      long long lsb;
      if (parse_int(c, w[2], &lsb)) return -1;
      int first = isa->queues[cmd->queue].a != 0 ? 12 : 8;
      if (lsb < first) return def_fail(c, "bits 0..%d hold the opcode (and token flags)", first - 1);
    }
    return add_field(c, isa, cmd->fields, &cmd->nfields, MAX_FIELDS, w, nw, 0, doc);
  }
  if (strcmp(k, "reg") == 0) {
    if (nw != 4 || isa->nregs >= MAX_ITEMS) return def_fail(c, "reg NAME OFFSET ACCESS \"doc\"");
    Reg *r = &isa->regs[isa->nregs];
    memset(r, 0, sizeof *r);
    if (copy_name(c, r->name, w[1]) || parse_int(c, w[2], &v1)) return -1;
    if (v1 < 0 || v1 >= 0x10000 || v1 % 4) return def_fail(c, "register offset must be word-aligned in 64 KiB");
    r->offset = (int)v1;
    snprintf(r->access, sizeof r->access, "%s", w[3]);
    snprintf(r->doc, sizeof r->doc, "%s", doc);
    isa->nregs++;
    return 0;
  }
  if (strcmp(k, "rf") == 0) {
    if (isa->nregs == 0) return def_fail(c, "rf before any reg");
    Reg *r = &isa->regs[isa->nregs - 1];
    return add_field(c, isa, r->rf, &r->nrf, MAX_RF, w, nw, 1, doc);
  }
  return def_fail(c, "unknown line kind '%s'", k);
}

int isa_parse(const char *path, Isa *isa, char *err, int errlen) {
  Ctx c = {path, 0, err, errlen};
  memset(isa, 0, sizeof *isa);
  const char *why;
  FILE *fp = host_file_open_in(path, &why); /* a FIFO blocked fopen */
  if (!fp) return def_fail(&c, "cannot open: %s", why);
  char line[512];
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, fp)) {
    c.line++;
    if (!strchr(line, '\n') && !feof(fp)) rc = def_fail(&c, "line too long");
    char *hash = line;
    /* a '#' starts a comment unless it is inside the doc string */
    int inq = 0;
    for (; *hash; hash++) {
      if (*hash == '"') inq = !inq;
      if (*hash == '#' && !inq) { *hash = 0; break; }
    }
    if (rc == 0) rc = parse_line(&c, isa, line);
  }
  /* fgets stops on a read error too (a directory): not an empty file. */
  if (rc == 0 && ferror(fp)) rc = def_fail(&c, "read error (not a readable file?)");
  fclose(fp);
  if (rc == 0 && isa->cmd_bits == 0) rc = def_fail(&c, "empty ISA description");
  return rc;
}
