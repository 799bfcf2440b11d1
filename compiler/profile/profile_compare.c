/* profile_compare: two profiles side by side (see profile_compare.h).
 *
 * Matching: kernels A[i] and B[j] are joined (union-find over both lists)
 * when they have the same name and occurrence number, or share an ONNX
 * node (kernels with neither name nor nodes, from a bare stream: the same
 * MARK id and occurrence); each resulting group is one line, in A's execution order (groups
 * only in B after). */
#include "profile_compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"

#include "profile_report.h"

typedef struct {
  uint64_t cycles, dram_rd, dram_wr, macs, compulsory, n;
} side_sum;

typedef struct {
  size_t first;    /* order key: first member's position (A before B) */
  size_t root;
  side_sum s[2];   /* A, B */
  char *names[2];  /* "conv1+relu", "conv1, relu" */
} group;

typedef struct {
  const char *node;
  size_t ent;      /* entity: A kernel i is i, B kernel j is na + j */
} node_ref;

static size_t find(size_t *parent, size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

static void unite(size_t *parent, size_t x, size_t y) {
  x = find(parent, x);
  y = find(parent, y);
  if (x != y) parent[x > y ? x : y] = x < y ? x : y; /* the smaller (earlier) entity is the root */
}

static int cmp_ref(const void *x, const void *y) {
  const node_ref *a = x, *b = y;
  int c = strcmp(a->node, b->node);
  return c ? c : (a->ent > b->ent) - (a->ent < b->ent);
}

static double ratio(uint64_t b, uint64_t a) { return a ? (double)b / (double)a : NAN; }

static const char *fmt_ratio(char *buf, size_t size, double r) {
  if (isnan(r)) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.2fx", r);
  return buf;
}

/* Appends name to the group's side label ("a, b"), in the arena. */
static int add_name(arena *ar, char **label, const char *name) {
  const char *nm = name && *name ? name : "(unnamed)";
  size_t old = *label ? strlen(*label) : 0;
  char *s = arena_alloc(ar, old + strlen(nm) + 3);
  if (!s) return -1;
  if (*label) sprintf(s, "%s, %s", *label, nm);
  else strcpy(s, nm);
  *label = s;
  return 0;
}

static void add_kernel(side_sum *s, const prof_kernel *k) {
  s->cycles += k->c[TSL_CNT_CYCLES];
  s->dram_rd += k->c[TSL_CNT_DRAM_RD_BYTES];
  s->dram_wr += k->c[TSL_CNT_DRAM_WR_BYTES];
  s->macs += k->c[TSL_CNT_MACS];
  s->compulsory += k->compulsory_dram_bytes;
  s->n++;
}

static int cmp_group(const void *x, const void *y) {
  const group *a = x, *b = y;
  return (a->first > b->first) - (a->first < b->first);
}

/* Builds the groups; returns their number, or (size_t)-1 on out of memory. */
static size_t build_groups(arena *ar, const profile *a, const profile *b, group **out) {
  size_t na = a->nkernels, nb = b->nkernels, ne = na + nb, nrefs = 0;
  size_t *parent = arena_alloc(ar, (ne + 1) * sizeof *parent);
  size_t *gi = arena_alloc(ar, (ne + 1) * sizeof *gi);
  for (size_t i = 0; i < na; i++) nrefs += a->kernels[i].nonnx + 1;
  for (size_t j = 0; j < nb; j++) nrefs += b->kernels[j].nonnx + 1;
  node_ref *refs = arena_alloc(ar, (nrefs + 1) * sizeof *refs);
  group *g = arena_alloc(ar, (ne + 1) * sizeof *g);
  if (!parent || !gi || !refs || !g) return (size_t)-1;
  for (size_t e = 0; e < ne; e++) parent[e] = e;
  /* Same name, same occurrence: the key "\x01name\x01occurrence" sorts
   * with the node names without colliding with them. */
  size_t r = 0;
  for (int side = 0; side < 2; side++) {
    const profile *p = side ? b : a;
    for (size_t i = 0; i < p->nkernels; i++) {
      const prof_kernel *k = &p->kernels[i];
      size_t ent = side ? na + i : i, occ = 0;
      for (size_t m = 0; m < k->nonnx; m++) refs[r++] = (node_ref){k->onnx_nodes[m], ent};
      char *key = arena_alloc(ar, strlen(k->name) + 48);
      if (!key) return (size_t)-1;
      if (*k->name) {
        for (size_t j = 0; j < i; j++) occ += !strcmp(p->kernels[j].name, k->name);
        sprintf(key, "\x01%s\x01%zu", k->name, occ);
      } else if (!k->nonnx) { /* a stream without a kernel table: match by MARK id */
        for (size_t j = 0; j < i; j++) occ += !*p->kernels[j].name && !p->kernels[j].nonnx && p->kernels[j].id == k->id;
        sprintf(key, "\x02%" PRIu64 "\x02%zu", k->id, occ);
      } else {
        continue;
      }
      refs[r++] = (node_ref){key, ent};
    }
  }
  qsort(refs, r, sizeof *refs, cmp_ref);
  for (size_t i = 1; i < r; i++)
    if (!strcmp(refs[i - 1].node, refs[i].node)) unite(parent, refs[i - 1].ent, refs[i].ent);
  size_t ng = 0;
  for (size_t e = 0; e < ne; e++) {
    size_t root = find(parent, e);
    if (root == e) {
      gi[e] = ng;
      g[ng++] = (group){.first = e, .root = e};
    }
    group *x = &g[gi[root]];
    int side = e >= na;
    const prof_kernel *k = side ? &b->kernels[e - na] : &a->kernels[e];
    add_kernel(&x->s[side], k);
    if (add_name(ar, &x->names[side], k->name)) return (size_t)-1;
  }
  qsort(g, ng, sizeof *g, cmp_group);
  *out = g;
  return ng;
}

static void total_of(const profile *p, side_sum *s, uint64_t *with_fallback) {
  memset(s, 0, sizeof *s);
  s->cycles = p->total[TSL_CNT_CYCLES];
  s->dram_rd = p->total[TSL_CNT_DRAM_RD_BYTES];
  s->dram_wr = p->total[TSL_CNT_DRAM_WR_BYTES];
  s->macs = p->total[TSL_CNT_MACS];
  s->n = p->nkernels;
  for (size_t i = 0; i < p->nkernels; i++) s->compulsory += p->kernels[i].compulsory_dram_bytes;
  *with_fallback = s->cycles;
  for (size_t i = 0; i < p->nfallbacks; i++) *with_fallback += p->fallbacks[i].core_cycles;
}

static const char *kind_of(const group *g) { return !g->s[1].n ? "only_a" : !g->s[0].n ? "only_b" : "both"; }

static void table_line(FILE *f, const char *la, const char *lb, const side_sum *x, const side_sum *y) {
  char b[12][48];
  int ha = x->n > 0, hb = y->n > 0;
  fprintf(f, "%-20s %-20s%10s%10s%7s%10s%10s%7s%11s%11s\n", prof_fit(b[0], 48, 20, la), prof_fit(b[1], 48, 20, lb),
          ha ? prof_fmt_count(b[2], 48, 9, x->cycles) : "-", hb ? prof_fmt_count(b[3], 48, 9, y->cycles) : "-",
          fmt_ratio(b[4], 48, ha && hb ? ratio(y->cycles, x->cycles) : NAN),
          ha ? prof_fmt_count(b[5], 48, 9, x->dram_rd + x->dram_wr) : "-",
          hb ? prof_fmt_count(b[6], 48, 9, y->dram_rd + y->dram_wr) : "-",
          fmt_ratio(b[7], 48, ha && hb ? ratio(y->dram_rd + y->dram_wr, x->dram_rd + x->dram_wr) : NAN),
          ha ? prof_fmt_count(b[8], 48, 10, x->macs) : "-", hb ? prof_fmt_count(b[9], 48, 10, y->macs) : "-");
}

static void print_table(FILE *f, const profile *a, const profile *b, const group *g, size_t ng) {
  fprintf(f, "A: %s (%s on %s, engine %s, %zu kernels)\nB: %s (%s on %s, engine %s, %zu kernels)\n", a->path, a->model,
          a->target, a->engine, a->nkernels, b->path, b->model, b->target, b->engine, b->nkernels);
  fprintf(f, "kernels matched by name, else by the ONNX nodes they share; ratios are B/A\n\n");
  fprintf(f, "%-20s %-20s%10s%10s%7s%10s%10s%7s%11s%11s\n", "kernel(s) in A", "kernel(s) in B", "cycles A",
          "cycles B", "B/A", "DRAM A", "DRAM B", "B/A", "MACs A", "MACs B");
  size_t only[2] = {0, 0};
  for (size_t i = 0; i < ng; i++) {
    table_line(f, g[i].names[0] ? g[i].names[0] : "-", g[i].names[1] ? g[i].names[1] : "-", &g[i].s[0], &g[i].s[1]);
    only[0] += !g[i].s[1].n;
    only[1] += !g[i].s[0].n;
  }
  side_sum ta, tb;
  uint64_t fa, fb;
  total_of(a, &ta, &fa);
  total_of(b, &tb, &fb);
  fprintf(f, "%.117s\n", "--------------------------------------------------------------------------------------------"
                         "------------------------------");
  table_line(f, "total (NPU)", "total (NPU)", &ta, &tb);
  char r[48];
  fprintf(f, "%-41s%10" PRIu64 "%10" PRIu64 "%7s\n", "total with fallback ops (core cycles)", fa, fb,
          fmt_ratio(r, sizeof r, ratio(fb, fa)));
  fprintf(f, "%-41s%10" PRIu64 "%10" PRIu64 "%7s\n", "compulsory DRAM bytes", ta.compulsory, tb.compulsory,
          fmt_ratio(r, sizeof r, ratio(tb.compulsory, ta.compulsory)));
  if (only[0] || only[1]) {
    fprintf(f, "\n");
    for (int s = 0; s < 2; s++) {
      if (!only[s]) continue;
      fprintf(f, "only in %c:", s ? 'B' : 'A');
      for (size_t i = 0; i < ng; i++)
        if (!g[i].s[!s].n) fprintf(f, " %s;", g[i].names[s]);
      fprintf(f, "\n");
    }
  }
}

static void csv_field(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_ratio(FILE *f, double r) {
  if (!isnan(r)) fprintf(f, "%.6g", r);
}

static void csv_line(FILE *f, const char *kind, const char *la, const char *lb, const side_sum *x, const side_sum *y) {
  fprintf(f, "%s,", kind);
  csv_field(f, la);
  fputc(',', f);
  csv_field(f, lb);
  fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", x->cycles, y->cycles);
  csv_ratio(f, x->n && y->n ? ratio(y->cycles, x->cycles) : NAN);
  fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", x->dram_rd, x->dram_wr, y->dram_rd, y->dram_wr);
  csv_ratio(f, x->n && y->n ? ratio(y->dram_rd + y->dram_wr, x->dram_rd + x->dram_wr) : NAN);
  fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", x->macs, y->macs);
  csv_ratio(f, x->n && y->n ? ratio(y->macs, x->macs) : NAN);
  fprintf(f, ",%" PRIu64 ",%" PRIu64 "\n", x->compulsory, y->compulsory);
}

static void json_side(FILE *f, const char *label, const side_sum *s) {
  fprintf(f, "{\"kernels\": ");
  json_write_str(f, label ? label : "");
  fprintf(f, ", \"count\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"dram_rd_bytes\": %" PRIu64
             ", \"dram_wr_bytes\": %" PRIu64 ", \"macs\": %" PRIu64 ", \"compulsory_dram_bytes\": %" PRIu64 "}",
          s->n, s->cycles, s->dram_rd, s->dram_wr, s->macs, s->compulsory);
}

static void json_line(FILE *f, const char *kind, const char *la, const char *lb, const side_sum *x, const side_sum *y) {
  fprintf(f, "{\"kind\": \"%s\", \"a\": ", kind);
  json_side(f, la, x);
  fprintf(f, ", \"b\": ");
  json_side(f, lb, y);
  fprintf(f, ", \"cycles_ratio\": ");
  prof_json_num(f, x->n && y->n ? ratio(y->cycles, x->cycles) : NAN);
  fprintf(f, ", \"dram_ratio\": ");
  prof_json_num(f, x->n && y->n ? ratio(y->dram_rd + y->dram_wr, x->dram_rd + x->dram_wr) : NAN);
  fprintf(f, ", \"macs_ratio\": ");
  prof_json_num(f, x->n && y->n ? ratio(y->macs, x->macs) : NAN);
  fputc('}', f);
}

int prof_print_compare(FILE *f, prof_cmp_format fmt, arena *ar, const profile *a, const profile *b, diag *d) {
  group *g;
  size_t ng = build_groups(ar, a, b, &g);
  if (ng == (size_t)-1) return diag_oom(d);
  side_sum ta, tb;
  uint64_t fa, fb;
  total_of(a, &ta, &fa);
  total_of(b, &tb, &fb);
  if (fmt == PROF_CMP_TABLE) {
    print_table(f, a, b, g, ng);
  } else if (fmt == PROF_CMP_CSV) {
    fprintf(f, "kind,kernels_a,kernels_b,cycles_a,cycles_b,cycles_ratio,dram_rd_a,dram_wr_a,dram_rd_b,dram_wr_b,"
               "dram_ratio,macs_a,macs_b,macs_ratio,compulsory_a,compulsory_b\n");
    for (size_t i = 0; i < ng; i++) csv_line(f, kind_of(&g[i]), g[i].names[0], g[i].names[1], &g[i].s[0], &g[i].s[1]);
    csv_line(f, "total", "", "", &ta, &tb);
  } else {
    fprintf(f, "{\n  \"format\": \"tessel-profile-compare\",\n  \"version\": 1,\n  \"a\": ");
    json_write_str(f, a->path);
    fprintf(f, ",\n  \"b\": ");
    json_write_str(f, b->path);
    fprintf(f, ",\n  \"groups\": [");
    for (size_t i = 0; i < ng; i++) {
      fprintf(f, "%s\n    ", i ? "," : "");
      json_line(f, kind_of(&g[i]), g[i].names[0], g[i].names[1], &g[i].s[0], &g[i].s[1]);
    }
    fprintf(f, "%s],\n  \"total\": ", ng ? "\n  " : "");
    json_line(f, "total", "", "", &ta, &tb);
    fprintf(f, ",\n  \"total_with_fallback_cycles\": {\"a\": %" PRIu64 ", \"b\": %" PRIu64 "}\n}\n", fa, fb);
  }
  return 0;
}
