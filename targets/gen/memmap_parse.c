/* memmap_parse.c: reads targets/memmap.def (format in its header comment)
 * and checks it: regions aligned and disjoint, registers inside their region,
 * CSR numbers in 12 bits, names and numbers unique, bit fields disjoint. */
#include "memmap_desc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "def_lex.h"
#include "host_file.h"

typedef DefCtx Ctx;

/* A number in C syntax, 0..0xFFFFFFFF; with suffix_ok, K or M multiplies. */
static int parse_u32(Ctx *c, const char *s, int suffix_ok, uint32_t *out) {
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  if (suffix_ok && (*end == 'K' || *end == 'M')) v <<= *end++ == 'K' ? 10 : 20;
  if (*s == 0 || *s == '-' || *end != 0 || v > 0xFFFFFFFFull) return def_fail(c, "'%s' is not a 32-bit number", s);
  *out = (uint32_t)v;
  return 0;
}

static int copy_name(Ctx *c, char *dst, const char *src) {
  if (strlen(src) >= MM_NAME) return def_fail(c, "name '%s' too long", src);
  strcpy(dst, src);
  return 0;
}

static int parse_access(Ctx *c, MmReg *r, const char *s) {
  if (strcmp(s, "R") != 0 && strcmp(s, "W") != 0 && strcmp(s, "RW") != 0)
    return def_fail(c, "access '%s' is not R, W or RW", s);
  strcpy(r->access, s);
  return 0;
}

static int add_bits(Ctx *c, MmReg *r, char **w, int nw, const char *doc) {
  if (nw != 4) return def_fail(c, "%s NAME LSB WIDTH \"doc\"", w[0]);
  if (r->nbits >= MM_BITS) return def_fail(c, "too many bit fields in '%s'", r->name);
  MmBits *b = &r->bits[r->nbits];
  uint32_t lsb, width;
  if (copy_name(c, b->name, w[1]) || parse_u32(c, w[2], 0, &lsb) || parse_u32(c, w[3], 0, &width)) return -1;
  if (width < 1 || lsb + width > 32) return def_fail(c, "bit field '%s' outside 32 bits", b->name);
  b->lsb = (int)lsb;
  b->width = (int)width;
  for (int i = 0; i < r->nbits; i++) {
    const MmBits *g = &r->bits[i];
    if (strcmp(g->name, b->name) == 0) return def_fail(c, "duplicate bit field '%s'", b->name);
    if (b->lsb < g->lsb + g->width && g->lsb < b->lsb + b->width)
      return def_fail(c, "bit field '%s' overlaps '%s'", b->name, g->name);
  }
  snprintf(b->doc, sizeof b->doc, "%s", doc);
  r->nbits++;
  return 0;
}

static int parse_region(Ctx *c, Memmap *mm, char **w, int nw, const char *doc) {
  if (nw != 4) return def_fail(c, "region NAME BASE SIZE \"doc\"");
  if (mm->nregions >= MM_ITEMS) return def_fail(c, "too many regions");
  MmRegion *r = &mm->regions[mm->nregions];
  memset(r, 0, sizeof *r);
  if (copy_name(c, r->name, w[1]) || parse_u32(c, w[2], 0, &r->base) || parse_u32(c, w[3], 1, &r->size))
    return -1;
  if (r->size == 0 || (r->size & (r->size - 1)) != 0) return def_fail(c, "region '%s': size is not a power of two", r->name);
  if (r->base & (r->size - 1)) return def_fail(c, "region '%s': base not aligned to its size", r->name);
  for (int i = 0; i < mm->nregions; i++) {
    const MmRegion *g = &mm->regions[i];
    if (strcmp(g->name, r->name) == 0) return def_fail(c, "duplicate region '%s'", r->name);
    if ((uint64_t)r->base < (uint64_t)g->base + g->size && (uint64_t)g->base < (uint64_t)r->base + r->size)
      return def_fail(c, "region '%s' overlaps '%s'", r->name, g->name);
  }
  snprintf(r->doc, sizeof r->doc, "%s", doc);
  mm->nregions++;
  return 0;
}

static int parse_reg(Ctx *c, Memmap *mm, char **w, int nw, const char *doc) {
  if (nw != 5) return def_fail(c, "reg REGION NAME OFFSET ACCESS \"doc\"");
  if (mm->nregs >= MM_ITEMS) return def_fail(c, "too many registers");
  MmReg *r = &mm->regs[mm->nregs];
  memset(r, 0, sizeof *r);
  r->region = -1;
  for (int i = 0; i < mm->nregions; i++)
    if (strcmp(mm->regions[i].name, w[1]) == 0) r->region = i;
  if (r->region < 0) return def_fail(c, "unknown region '%s'", w[1]);
  if (copy_name(c, r->name, w[2]) || parse_u32(c, w[3], 0, &r->number) || parse_access(c, r, w[4])) return -1;
  if (r->number % 4 || r->number >= mm->regions[r->region].size)
    return def_fail(c, "register '%s': offset not word-aligned inside region %s", r->name, w[1]);
  for (int i = 0; i < mm->nregs; i++) {
    const MmReg *g = &mm->regs[i];
    if (g->region == r->region && (strcmp(g->name, r->name) == 0 || g->number == r->number))
      return def_fail(c, "register '%s' reuses a name or offset in region %s", r->name, w[1]);
  }
  snprintf(r->doc, sizeof r->doc, "%s", doc);
  mm->nregs++;
  return 0;
}

static int parse_csr(Ctx *c, Memmap *mm, char **w, int nw, const char *doc) {
  if (nw != 4 && nw != 5) return def_fail(c, "csr NAME NUMBER ACCESS [VALUE] \"doc\"");
  if (mm->ncsrs >= MM_ITEMS) return def_fail(c, "too many CSRs");
  MmReg *r = &mm->csrs[mm->ncsrs];
  memset(r, 0, sizeof *r);
  r->region = -1;
  if (copy_name(c, r->name, w[1]) || parse_u32(c, w[2], 0, &r->number) || parse_access(c, r, w[3])) return -1;
  if (r->number > 0xFFF) return def_fail(c, "CSR '%s': number past 12 bits", r->name);
  /* numbers 0xC00..0xFFF are read-only by the privileged spec */
  if ((r->number >> 10) == 3 && strcmp(r->access, "R") != 0)
    return def_fail(c, "CSR '%s': numbers 0xC00..0xFFF are read-only (access R)", r->name);
  if (nw == 5) {
    if (parse_u32(c, w[4], 0, &r->value)) return -1;
    r->has_value = 1;
  }
  for (int i = 0; i < mm->ncsrs; i++)
    if (strcmp(mm->csrs[i].name, r->name) == 0 || mm->csrs[i].number == r->number)
      return def_fail(c, "CSR '%s' reuses a name or number", r->name);
  snprintf(r->doc, sizeof r->doc, "%s", doc);
  mm->ncsrs++;
  return 0;
}

static int parse_cause(Ctx *c, Memmap *mm, char **w, int nw, const char *doc, int is_irq) {
  if (nw != 3) return def_fail(c, "%s NAME CODE \"doc\"", w[0]);
  if (mm->ncauses >= MM_ITEMS) return def_fail(c, "too many causes");
  MmCause *x = &mm->causes[mm->ncauses];
  memset(x, 0, sizeof *x);
  if (copy_name(c, x->name, w[1]) || parse_u32(c, w[2], 0, &x->code)) return -1;
  if (x->code > 31) return def_fail(c, "%s '%s': code past 31", w[0], x->name);
  x->is_irq = is_irq;
  for (int i = 0; i < mm->ncauses; i++) {
    const MmCause *g = &mm->causes[i];
    if (strcmp(g->name, x->name) == 0 || (g->is_irq == is_irq && g->code == x->code))
      return def_fail(c, "%s '%s' reuses a name or code", w[0], x->name);
  }
  snprintf(x->doc, sizeof x->doc, "%s", doc);
  mm->ncauses++;
  return 0;
}

static int parse_line(Ctx *c, Memmap *mm, char *line, MmReg **last) {
  char *w[6];
  char doc[MM_DOC];
  int nw = def_split(c, line, w, 6, doc, sizeof doc);
  if (nw < 0) return nw;
  if (nw > 6) return def_fail(c, "too many words");
  if (nw == 0) return 0;
  const char *k = w[0];
  if (strcmp(k, "memmap") == 0) {
    uint32_t v;
    if (nw != 2 || parse_u32(c, w[1], 0, &v) || v == 0) return def_fail(c, "memmap VERSION (1 or more)");
    mm->version = (int)v;
    return 0;
  }
  if (mm->version == 0) return def_fail(c, "the first line must be 'memmap VERSION'");
  if (strcmp(k, "region") == 0) return *last = NULL, parse_region(c, mm, w, nw, doc);
  if (strcmp(k, "reg") == 0) {
    if (parse_reg(c, mm, w, nw, doc)) return -1;
    *last = &mm->regs[mm->nregs - 1];
    return 0;
  }
  if (strcmp(k, "csr") == 0) {
    if (parse_csr(c, mm, w, nw, doc)) return -1;
    *last = &mm->csrs[mm->ncsrs - 1];
    return 0;
  }
  if (strcmp(k, "rf") == 0 || strcmp(k, "cf") == 0) {
    int want_csr = k[0] == 'c';
    if (!*last || ((*last)->region < 0) != want_csr)
      return def_fail(c, "'%s' must follow a %s line", k, want_csr ? "csr" : "reg");
    return add_bits(c, *last, w, nw, doc);
  }
  if (strcmp(k, "cause") == 0) return *last = NULL, parse_cause(c, mm, w, nw, doc, 0);
  if (strcmp(k, "irq") == 0) return *last = NULL, parse_cause(c, mm, w, nw, doc, 1);
  return def_fail(c, "unknown line kind '%s'", k);
}

int memmap_parse(const char *path, Memmap *mm, char *err, int errlen) {
  Ctx c = {path, 0, err, errlen};
  memset(mm, 0, sizeof *mm);
  const char *why;
  FILE *fp = host_file_open_in(path, &why); /* a FIFO blocked fopen */
  if (!fp) return def_fail(&c, "cannot open: %s", why);
  char line[512];
  MmReg *last = NULL;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, fp)) {
    c.line++;
    if (!strchr(line, '\n') && !feof(fp)) rc = def_fail(&c, "line too long");
    /* a '#' starts a comment unless it is inside the doc string */
    int inq = 0;
    for (char *p = line; *p; p++) {
      if (*p == '"') inq = !inq;
      if (*p == '#' && !inq) { *p = 0; break; }
    }
    if (rc == 0) rc = parse_line(&c, mm, line, &last);
  }
  /* fgets stops on a read error too (a directory): not an empty file. */
  if (rc == 0 && ferror(fp)) rc = def_fail(&c, "read error (not a readable file?)");
  fclose(fp);
  if (rc == 0 && mm->version == 0) rc = def_fail(&c, "empty memory-map description");
  return rc;
}
