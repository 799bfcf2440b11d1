/* emit_md.c: the generated tables of docs/isa.md, docs/targets.md and
 * docs/profile-format.md. Each block is named; the docs hold
 * "<!-- BEGIN GENERATED name -->" ... "<!-- END GENERATED name -->". */
#include <string.h>

#include "emit.h"

static void bitrange(char *buf, int lsb, int width) {
  if (width == 1) sprintf(buf, "%d", lsb);
  else sprintf(buf, "%d..%d", lsb, lsb + width - 1);
}

static const char *type_text(const Isa *isa, const Field *f, char *buf) {
  switch (f->type) {
  case FT_U: return "unsigned";
  case FT_S: return "signed";
  case FT_B: return "flag";
  default: sprintf(buf, "%s", isa->enums[f->enum_idx].name); return buf;
  }
}

static void block_commands(FILE *o, const Isa *isa) {
  fprintf(o, "| opcode | command | queue | what |\n|---|---|---|---|\n");
  for (int i = 0; i < isa->ncmds; i++)
    fprintf(o, "| 0x%02X | %s | %s | %s |\n", isa->cmds[i].opcode, isa->cmds[i].name,
            isa->queues[isa->cmds[i].queue].name, isa->cmds[i].doc);
  for (int i = 0; i < isa->ncmds; i++) {
    const Cmd *c = &isa->cmds[i];
    fprintf(o, "\n#### %s (0x%02X, %s)\n\n%s.\n\n", c->name, c->opcode, isa->queues[c->queue].name, c->doc);
    fprintf(o, "| bits | field | type | slot | meaning |\n|---|---|---|---|---|\n");
    fprintf(o, "| 0..7 | opcode | unsigned | - | 0x%02X |\n", c->opcode);
    for (int j = 0; j < c->nfields; j++) {
      const Field *f = &c->fields[j];
      char br[32], tb[64];
      bitrange(br, f->lsb, f->width);
      fprintf(o, "| %s | %s | %s | %s | %s |\n", br, f->name, type_text(isa, f, tb),
              f->slot >= 0 ? isa->slots[f->slot].name : "-", f->doc);
    }
  }
}

static void block_enums(FILE *o, const Isa *isa) {
  for (int e = 0; e < isa->nenums; e++) {
    const Enum *E = &isa->enums[e];
    fprintf(o, "%s**%s**: %s\n\n| value | name | meaning |\n|---|---|---|\n", e ? "\n" : "", E->name, E->doc);
    for (int v = 0; v < E->nvalues; v++)
      fprintf(o, "| %lld | %s | %s |\n", E->values[v].a, E->values[v].name, E->values[v].doc);
  }
}

static void block_slots(FILE *o, const Isa *isa) {
  fprintf(o, "| slot | field bits | what |\n|---|---|---|\n");
  for (int i = 0; i < isa->nslots; i++)
    fprintf(o, "| %s | %lld | %s |\n", isa->slots[i].name, isa->slots[i].a, isa->slots[i].doc);
  fprintf(o, "\n| queue | number | what |\n|---|---|---|\n");
  for (int i = 0; i < isa->nqueues; i++)
    fprintf(o, "| %s | %lld | %s |\n", isa->queues[i].name, isa->queues[i].a, isa->queues[i].doc);
}

static void block_registers(FILE *o, const Isa *isa) {
  fprintf(o, "| offset | register | access | meaning |\n|---|---|---|---|\n");
  for (int i = 0; i < isa->nregs; i++) {
    const Reg *r = &isa->regs[i];
    fprintf(o, "| 0x%03X | %s | %s | %s", r->offset, r->name, r->access, r->doc);
    for (int j = 0; j < r->nrf; j++) {
      char br[32];
      bitrange(br, r->rf[j].lsb, r->rf[j].width);
      fprintf(o, "%s bit %s %s: %s", j ? ";" : ":", br, r->rf[j].name, r->rf[j].doc);
    }
    fprintf(o, " |\n");
  }
}

static void block_errors(FILE *o, const Isa *isa) {
  fprintf(o, "| code | error | meaning |\n|---|---|---|\n");
  for (int i = 0; i < isa->nerrors; i++)
    fprintf(o, "| %lld | %s | %s |\n", isa->errors[i].a, isa->errors[i].name, isa->errors[i].doc);
}

static void block_counters(FILE *o, const Isa *isa) {
  fprintf(o, "| index | counter | unit | meaning |\n|---|---|---|---|\n");
  for (int i = 0; i < isa->ncounters; i++)
    fprintf(o, "| %lld | %s | %s | %s |\n", isa->counters[i].a, isa->counters[i].name,
            isa->counters[i].extra, isa->counters[i].doc);
}

static void block_targets(FILE *o, const Isa *isa, const Target *ts, int n) {
  fprintf(o, "| key |");
  for (int k = 0; k < n; k++) fprintf(o, " %s |", ts[k].name);
  fprintf(o, " range | meaning |\n|---|");
  for (int k = 0; k < n; k++) fprintf(o, "---|");
  fprintf(o, "---|---|\n| hash |");
  for (int k = 0; k < n; k++) fprintf(o, " 0x%08X |", ts[k].hash);
  fprintf(o, " - | TSL_TARGET_HASH: FNV-1a of the keys and the ISA version |\n");
  for (int i = 0; i < isa->nparams; i++) {
    fprintf(o, "| %s |", isa->params[i].name);
    for (int k = 0; k < n; k++) fprintf(o, " %lld |", ts[k].values[i]);
    fprintf(o, " %lld..%lld | %s |\n", isa->params[i].a, isa->params[i].b, isa->params[i].doc);
  }
}

int emit_md_block(FILE *o, const char *name, const Isa *isa, const Target *ts, int n) {
  if (strcmp(name, "isa-commands") == 0) block_commands(o, isa);
  else if (strcmp(name, "isa-enums") == 0) block_enums(o, isa);
  else if (strcmp(name, "isa-slots") == 0) block_slots(o, isa);
  else if (strcmp(name, "isa-registers") == 0) block_registers(o, isa);
  else if (strcmp(name, "isa-errors") == 0) block_errors(o, isa);
  else if (strcmp(name, "counters") == 0) block_counters(o, isa);
  else if (strcmp(name, "targets") == 0) block_targets(o, isa, ts, n);
  else return -1;
  return 0;
}
