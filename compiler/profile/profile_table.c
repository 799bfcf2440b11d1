/* profile_table: the terminal table, CSV and JSON reports of the rows. */
#include "profile_report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"

const char *prof_fmt_count(char *buf, size_t size, int width, uint64_t v) {
  static const char suffix[] = "kMGTPE";
  snprintf(buf, size, "%" PRIu64, v);
  double x = (double)v;
  for (int i = 0; (int)strlen(buf) > width && i < 6; i++) {
    x /= 1000.0;
    snprintf(buf, size, "%.1f%c", x, suffix[i]);
    if ((int)strlen(buf) > width) snprintf(buf, size, "%.0f%c", x, suffix[i]);
  }
  return buf;
}

/* Cuts s to at most width bytes without splitting a UTF-8 sequence. */
static size_t cut_len(const char *s, size_t width) {
  size_t n = strlen(s);
  if (n <= width) return n;
  while (width > 0 && ((unsigned char)s[width] & 0xC0) == 0x80) width--;
  return width;
}

const char *prof_fit(char *buf, size_t size, int width, const char *s) {
  size_t n = strlen(s);
  if (n <= (size_t)width || width < 2) {
    snprintf(buf, size, "%.*s", width, s);
    return buf;
  }
  snprintf(buf, size, "%.*s~", (int)cut_len(s, (size_t)width - 1), s);
  return buf;
}

const char *prof_fit_nodes(char *buf, size_t size, int width, const char *const *nodes, size_t n) {
  buf[0] = 0;
  if (n == 0) return buf;
  size_t used = 0, shown = 0;
  for (; shown < n; shown++) {
    size_t len = strlen(nodes[shown]) + (shown ? 1 : 0);
    int room = width - (shown + 1 < n ? 4 : 0); /* keep room for " +N" */
    if ((long)(used + len) > (long)room) break;
    snprintf(buf + used, size - used, "%s%s", shown ? "," : "", nodes[shown]);
    used += len;
  }
  if (shown == 0) { /* even the first node does not fit: cut it */
    char tmp[64];
    int w = width - (n > 1 ? 4 : 0);
    prof_fit(tmp, sizeof tmp, w < 1 ? 1 : w, nodes[0]);
    snprintf(buf, size, "%s", tmp);
    used = strlen(buf);
    shown = 1;
  }
  if (shown < n) snprintf(buf + used, size - used, " +%zu", n - shown);
  return buf;
}

static const char *pct(char *buf, size_t size, double x) {
  if (isnan(x)) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.1f%%", 100.0 * x);
  return buf;
}

static const char *fixed(char *buf, size_t size, double x, const char *fmt) {
  if (isnan(x) || isinf(x)) snprintf(buf, size, "-");
  else snprintf(buf, size, fmt, x);
  return buf;
}

static const char *row_label(char *buf, size_t size, const prof_row *r) {
  if (r->kind == PROF_ROW_KERNEL) snprintf(buf, size, "%zu", r->index);
  else if (r->kind == PROF_ROW_FALLBACK) snprintf(buf, size, "f%zu", r->index);
  else buf[0] = 0;
  return buf;
}

static const char *row_name(const prof_row *r) {
  return r->name && *r->name ? r->name : r->kind == PROF_ROW_KERNEL ? "(unnamed)" : "";
}

/* The timeline section: where the inference's cycles went (kernels,
 * fallback ops, each kind of gap), then every item in order. */
enum { TL_NAME_WIDTH = 86 }; /* the timeline's item column: the line stays within 120 */

static void print_timeline(FILE *f, const profile *p) {
  const prof_item *it = p->items;
  size_t n = p->nitems;
  uint64_t t0 = it[0].start, total = it[n - 1].end - t0, kern = 0, fb = 0, gap = 0, npu = 0, beside = 0;
  char a[6][48], b[128];
  /* gaps by what, in order of first appearance */
  const char *whats[16];
  uint64_t wsum[16] = {0};
  size_t nw = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t dur = it[i].end - it[i].start;
    if (it[i].kind == PROF_ITEM_KERNEL) kern += dur;
    else if (it[i].kind == PROF_ITEM_FALLBACK) fb += dur, beside += it[i].beside ? dur : 0;
    else gap += dur;
    if (it[i].kind != PROF_ITEM_GAP) continue;
    size_t w = 0;
    while (w < nw && strcmp(whats[w], it[i].what)) w++;
    if (w == nw && nw < 16) whats[nw++] = it[i].what;
    if (w < nw) wsum[w] += dur;
  }
  for (size_t k = 0; k < p->nkernels; k++) npu += p->kernels[k].c[TSL_CNT_CYCLES];
  double tot = total ? (double)total : NAN;
  int rtl = !strcmp(p->engine, "rtl"), model = !strcmp(p->engine, "model");
  fprintf(f, "\nTimeline of the inference: %" PRIu64 " cycles%s\n", total,
          rtl ? " from the start of the runner's input copy to the end of its output copy" : "");
  if (rtl) fprintf(f, "(the control core's cycles; a kernel lasts from starting the NPU to the core waking on its interrupt)\n");
  else if (model) fprintf(f, "(the NPU's cycles: the C model gives the core no time, so fallback ops take 0 and no gaps show)\n");
  const char *sfmt = "  %-28s%10s%8s%s%s\n";
  fprintf(f, sfmt, "where the cycles go", "cycles", "share", "", "");
  snprintf(b, sizeof b, "(the kernels' own NPU CYCLES: %" PRIu64 ")", npu);
  fprintf(f, sfmt, "NPU kernels", prof_fmt_count(a[0], 48, 9, kern), pct(a[1], 48, (double)kern / tot), "  ", b);
  fprintf(f, sfmt, "fallback ops (core)", prof_fmt_count(a[0], 48, 9, fb), pct(a[1], 48, (double)fb / tot), "", "");
  if (beside)
    fprintf(f, sfmt, "  beside the NPU", prof_fmt_count(a[0], 48, 9, beside), pct(a[1], 48, (double)beside / tot), "  ",
            "(the NPU ran a kernel meanwhile)");
  fprintf(f, sfmt, "gaps (runtime work)", prof_fmt_count(a[0], 48, 9, gap), pct(a[1], 48, (double)gap / tot), "", "");
  for (size_t w = 0; w < nw; w++) {
    snprintf(b, sizeof b, "  %.40s", whats[w]);
    for (char *c = b; *c; c++) *c = *c == '_' ? ' ' : *c;
    fprintf(f, sfmt, b, prof_fmt_count(a[0], 48, 9, wsum[w]), pct(a[1], 48, (double)wsum[w] / tot), "", "");
  }
  const char *ifmt = "%10s %9s %6s %4s %s\n";
  fprintf(f, ifmt, "start", "cycles", "share", "#", "item");
  for (size_t i = 0; i < n; i++) {
    const prof_item *x = &it[i];
    uint64_t dur = x->end - x->start;
    if (x->kind == PROF_ITEM_KERNEL) snprintf(a[3], 48, "%" PRIu64, x->index);
    else if (x->kind == PROF_ITEM_FALLBACK) snprintf(a[3], 48, "f%" PRIu64, x->index);
    else snprintf(a[3], 48, "-");
    if (x->kind == PROF_ITEM_FALLBACK)
      snprintf(b, sizeof b, "%.60s (%.40s)%s", x->name, p->fallbacks[x->index].op, x->beside ? ", beside the NPU" : "");
    else snprintf(b, sizeof b, "%.120s", *x->name ? x->name : x->kind == PROF_ITEM_KERNEL ? "(unnamed)" : x->what);
    char name[128];
    fprintf(f, ifmt, prof_fmt_count(a[0], 48, 10, x->start - t0), prof_fmt_count(a[1], 48, 9, dur),
            pct(a[2], 48, (double)dur / tot), a[3], prof_fit(name, sizeof name, TL_NAME_WIDTH, b));
  }
}

void prof_print_table(FILE *f, const profile *p, const prof_row *rows, size_t n) {
  const prof_row *tot = &rows[n - 1];
  char a[16][48];
  double ms = p->clock_mhz ? (double)tot->cycles / (double)p->clock_mhz / 1000.0 : NAN;
  fprintf(f, "profile of %s on %s (DIM %" PRIu64 ", %" PRIu64 " MHz, engine %s): %zu kernels, %zu fallback ops\n",
          p->model, p->target, p->dim, p->clock_mhz, p->engine, p->nkernels, p->nfallbacks);
  fprintf(f, "%" PRIu64 " NPU cycles + %" PRIu64 " core cycles = %" PRIu64 " cycles", p->total[TSL_CNT_CYCLES],
          tot->fallback_cycles, tot->cycles);
  if (!isnan(ms)) fprintf(f, " (%.3f ms at %" PRIu64 " MHz)", ms, p->clock_mhz);
  fprintf(f, "\n\nTime: cycles, utilisation (the graph's MACs over the array's peak) and array occupancy (the MACs\n"
             "the array did, padding included), stalls (dma: waiting on DRAM; token: on a neighbour unit; fw: fallback\n"
             "op on the core), the cost model's estimate and measured/estimate\n");
  const char *hfmt = "%3s %-18s %-17s%10s%7s%7s%7s%9s%9s%8s%10s%9s\n";
  fprintf(f, hfmt, "#", "kernel", "fuses", "cycles", "share", "util", "occup", "dma", "token", "fw", "estimate",
          "meas/est");
  for (size_t i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    int k = r->kind == PROF_ROW_KERNEL, t = r->kind == PROF_ROW_TOTAL;
    if (t) fprintf(f, "%.116s\n", "-------------------------------------------------------------------------------"
                                  "-----------------------------------------");
    fprintf(f, hfmt, row_label(a[0], 48, r), prof_fit(a[1], 48, 18, row_name(r)),
            prof_fit_nodes(a[2], 48, 17, r->nodes, r->nnodes), prof_fmt_count(a[3], 48, 9, r->cycles),
            pct(a[4], 48, r->share), pct(a[5], 48, r->util), pct(a[6], 48, r->occupancy),
            k || t ? prof_fmt_count(a[7], 48, 8, r->stall_dma) : "-",
            k || t ? prof_fmt_count(a[8], 48, 8, r->stall_token) : "-",
            prof_fmt_count(a[9], 48, 7, r->fallback_cycles), k || t ? prof_fmt_count(a[10], 48, 9, r->estimate) : "-",
            fixed(a[11], 48, r->ratio, "%.2f"));
  }
  uint64_t bpc = prof_dram_bytes_per_cycle(p);
  fprintf(f, "\nRoofline: bound = the fewest NPU cycles the array and the DRAM port allow, the larger of the graph's\n"
             "MACs at %" PRIu64 " per cycle (MAC bound) and the compulsory DRAM bytes at ", p->dim * p->dim);
  if (bpc) fprintf(f, "%" PRIu64, bpc);
  else fputc('?', f); /* unknown target: the note under the table says so */
  fprintf(f, " per cycle (DRAM bound);\ntotal: the sum of the kernels' bounds; meas/bnd = cycles / bound\n");
  const char *bfmt = "%3s %-18s%12s%12s%11s%11s%11s%11s%9s\n";
  fprintf(f, bfmt, "#", "kernel", "useful MACs", "array MACs", "MAC bound", "DRAM bound", "bound", "cycles",
          "meas/bnd");
  for (size_t i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    int npu = r->kind != PROF_ROW_FALLBACK, b = r->has_bound; /* fallback ops: on the core, nothing to bound */
    if (r->kind == PROF_ROW_TOTAL) fprintf(f, "%.99s\n", "----------------------------------------------------------"
                                                         "-----------------------------------------");
    fprintf(f, bfmt, row_label(a[0], 48, r), prof_fit(a[1], 48, 18, row_name(r)),
            npu ? prof_fmt_count(a[2], 48, 11, r->useful_macs) : "-",
            npu ? prof_fmt_count(a[3], 48, 11, r->macs) : "-",
            b ? prof_fmt_count(a[4], 48, 10, r->bound.mac_cycles) : "-",
            b ? prof_fmt_count(a[5], 48, 10, r->bound.dram_cycles) : "-",
            b ? prof_fmt_count(a[6], 48, 10, r->bound.cycles) : "-",
            npu ? prof_fmt_count(a[7], 48, 10, r->npu_cycles) : "-", fixed(a[8], 48, r->bound.over, "%.2f"));
  }
  fprintf(f, "\nMemory traffic (bytes): scratchpad, accumulator and DRAM read/written, compulsory DRAM bytes,\n"
             "DRAM/compulsory and arithmetic intensity (the graph's MACs per DRAM byte)\n");
  const char *mfmt = "%3s %-18s%9s%9s%9s%9s%10s%10s%11s%9s%8s\n";
  fprintf(f, mfmt, "#", "kernel", "spad rd", "spad wr", "acc rd", "acc wr", "dram rd", "dram wr", "compulsory",
          "dram/cmp", "MAC/B");
  for (size_t i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    if (r->kind == PROF_ROW_FALLBACK) continue;
    if (r->kind == PROF_ROW_TOTAL) fprintf(f, "%.106s\n", "-----------------------------------------------------"
                                                         "------------------------------------------------------");
    fprintf(f, mfmt, row_label(a[0], 48, r), prof_fit(a[1], 48, 18, row_name(r)), prof_fmt_count(a[2], 48, 8, r->spad_rd),
            prof_fmt_count(a[3], 48, 8, r->spad_wr), prof_fmt_count(a[4], 48, 8, r->acc_rd),
            prof_fmt_count(a[5], 48, 8, r->acc_wr), prof_fmt_count(a[6], 48, 9, r->dram_rd),
            prof_fmt_count(a[7], 48, 9, r->dram_wr), prof_fmt_count(a[8], 48, 10, r->compulsory),
            fixed(a[9], 48, r->dram_over_compulsory, "%.2fx"), fixed(a[10], 48, r->intensity, "%.1f"));
  }
  if (p->nitems) print_timeline(f, p);
  /* Names cut to fit the columns are listed whole, so nothing is lost. */
  int header = 0;
  for (size_t i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    size_t nodes_len = r->nnodes ? r->nnodes - 1 : 0;
    for (size_t j = 0; j < r->nnodes; j++) nodes_len += strlen(r->nodes[j]);
    if (r->kind == PROF_ROW_TOTAL || (strlen(row_name(r)) <= 18 && nodes_len <= 17)) continue;
    if (!header++) fprintf(f, "\nNames in full:\n");
    fprintf(f, "%3s %s\n", row_label(a[0], 48, r), row_name(r));
    if (r->kind != PROF_ROW_KERNEL) continue;
    fprintf(f, "    fuses:");
    for (size_t j = 0; j < r->nnodes; j++) fprintf(f, " %s", r->nodes[j]);
    fprintf(f, "\n");
  }
  for (size_t i = 0; i < p->nitems; i++) { /* gaps are named at length */
    const prof_item *x = &p->items[i];
    if (x->kind != PROF_ITEM_GAP || strlen(x->name) <= TL_NAME_WIDTH) continue;
    if (!header++) fprintf(f, "\nNames in full:\n");
    fprintf(f, "    timeline at %" PRIu64 ": %s\n", x->start - p->items[0].start, x->name);
  }
  /* Counters outside any kernel (before the first MARK, or a run without
   * MARKs) make the kernel rows not add up to the total: say so. */
  uint64_t kc = 0, km = 0, kd = 0;
  for (size_t i = 0; i < p->nkernels; i++) {
    kc += p->kernels[i].c[TSL_CNT_CYCLES];
    km += p->kernels[i].c[TSL_CNT_MACS];
    kd += p->kernels[i].c[TSL_CNT_DRAM_RD_BYTES] + p->kernels[i].c[TSL_CNT_DRAM_WR_BYTES];
  }
  if (!bpc)
    fprintf(f, "\nnote: no roofline bound: this tessel has no target '%s' of DIM %" PRIu64
               " (targets/*.cfg), so not its DRAM bandwidth\n", p->target, p->dim);
  const uint64_t *t = p->total;
  if (kc != t[TSL_CNT_CYCLES] || km != t[TSL_CNT_MACS] || kd != t[TSL_CNT_DRAM_RD_BYTES] + t[TSL_CNT_DRAM_WR_BYTES])
    fprintf(f, "\nnote: the kernels add up to %" PRIu64 " cycles, %" PRIu64 " MACs, %" PRIu64
               " DRAM bytes; the run's total has %" PRIu64 ", %" PRIu64 ", %" PRIu64 " (work outside MARKs)\n",
            kc, km, kd, t[TSL_CNT_CYCLES], t[TSL_CNT_MACS], t[TSL_CNT_DRAM_RD_BYTES] + t[TSL_CNT_DRAM_WR_BYTES]);
}

/* ---- CSV ---- */

static void csv_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_num(FILE *f, double x) {
  if (isnan(x) || isinf(x)) return; /* empty field */
  fprintf(f, "%.6g", x);
}

static const char *kind_name(prof_row_kind k) {
  return k == PROF_ROW_KERNEL ? "kernel" : k == PROF_ROW_FALLBACK ? "fallback" : "total";
}

/* Columns shared by CSV and JSON, in order. */
#define PROF_COLUMNS(X)                                                                                     \
  X(cycles, U, r->cycles) X(share, D, r->share) X(npu_cycles, U, r->npu_cycles) X(macs, U, r->macs)         \
  X(useful_macs, U, r->useful_macs) X(util, D, r->util) X(array_occupancy, D, r->occupancy)                 \
  X(spad_rd_bytes, U, r->spad_rd) X(spad_wr_bytes, U, r->spad_wr) X(acc_rd_bytes, U, r->acc_rd)             \
  X(acc_wr_bytes, U, r->acc_wr) X(dram_rd_bytes, U, r->dram_rd) X(dram_wr_bytes, U, r->dram_wr)             \
  X(compulsory_dram_bytes, U, r->compulsory) X(dram_over_compulsory, D, r->dram_over_compulsory)           \
  X(arith_intensity, D, r->intensity) X(stall_dma, U, r->stall_dma) X(stall_token, U, r->stall_token)       \
  X(stall_preload, U, r->stall_preload) X(fallback_cycles, U, r->fallback_cycles)                           \
  X(estimate_cycles, U, r->estimate) X(measured_over_estimate, D, r->ratio) X(load_busy, U, r->load_busy)   \
  X(exec_busy, U, r->exec_busy) X(store_busy, U, r->store_busy) X(mac_bound_cycles, B, r->bound.mac_cycles)   \
  X(dram_bound_cycles, B, r->bound.dram_cycles) X(roofline_bound_cycles, B, r->bound.cycles)               \
  X(measured_over_bound, D, r->bound.over)

static void join_nodes(FILE *f, const prof_row *r, void (*put)(FILE *, const char *)) {
  size_t len = 1;
  for (size_t i = 0; i < r->nnodes; i++) len += strlen(r->nodes[i]) + 1;
  char *s = malloc(len), *o = s;
  if (!s) return put(f, "");
  *o = 0;
  for (size_t i = 0; i < r->nnodes; i++) o += sprintf(o, "%s%s", i ? ";" : "", r->nodes[i]);
  put(f, s);
  free(s);
}

void prof_print_csv(FILE *f, const profile *p, const prof_row *rows, size_t n) {
  (void)p;
  fprintf(f, "kind,index,id,name,onnx_nodes");
#define HEAD(name, t, e) fprintf(f, ",%s", #name);
  PROF_COLUMNS(HEAD)
#undef HEAD
  fputc('\n', f);
  for (size_t i = 0; i < n; i++) {
    const prof_row *r = &rows[i];
    fprintf(f, "%s,", kind_name(r->kind));
    if (r->kind != PROF_ROW_TOTAL) fprintf(f, "%zu", r->index);
    fputc(',', f);
    if (r->kind == PROF_ROW_KERNEL) fprintf(f, "%" PRIu64, r->id);
    fputc(',', f);
    csv_str(f, r->name ? r->name : "");
    fputc(',', f);
    join_nodes(f, r, csv_str);
#define CELL(name, t, e) fputc(',', f), CELL_##t(e);
#define CELL_U(e) fprintf(f, "%" PRIu64, (uint64_t)(e))
#define CELL_D(e) csv_num(f, (e))
#define CELL_B(e) (r->has_bound ? fprintf(f, "%" PRIu64, (uint64_t)(e)) : 0) /* empty when no bound */
    PROF_COLUMNS(CELL)
    fputc('\n', f);
  }
}

/* ---- JSON ---- */

void prof_json_num(FILE *f, double x) {
  if (isnan(x) || isinf(x)) fputs("null", f);
  else fprintf(f, "%.6g", x);
}

static void json_row(FILE *f, const prof_row *r) {
  fprintf(f, "{\"kind\": \"%s\", ", kind_name(r->kind));
  if (r->kind != PROF_ROW_TOTAL) fprintf(f, "\"index\": %zu, ", r->index);
  if (r->kind == PROF_ROW_KERNEL) fprintf(f, "\"id\": %" PRIu64 ", ", r->id);
  fprintf(f, "\"name\": ");
  json_write_str(f, r->name);
  fprintf(f, ", \"onnx_nodes\": [");
  for (size_t i = 0; i < r->nnodes; i++) {
    if (i) fprintf(f, ", ");
    json_write_str(f, r->nodes[i]);
  }
  fputc(']', f);
#undef CELL_U
#undef CELL_D
#undef CELL_B
#define CELL_U(e) fprintf(f, "%" PRIu64, (uint64_t)(e))
#define CELL_D(e) prof_json_num(f, (e))
#define CELL_B(e) (r->has_bound ? fprintf(f, "%" PRIu64, (uint64_t)(e)) : fputs("null", f))
#undef CELL
#define CELL(name, t, e) fprintf(f, ", \"%s\": ", #name), CELL_##t(e);
  PROF_COLUMNS(CELL)
  fputc('}', f);
}

void prof_print_json(FILE *f, const profile *p, const prof_row *rows, size_t n) {
  /* version 2: util is on the graph's MACs (was useful_mac_util), array_occupancy
   * on the hardware's (was mac_util), arith_intensity on the graph's MACs, and
   * the roofline bound */
  fprintf(f, "{\n  \"format\": \"tessel-profile-report\",\n  \"version\": 2,\n  \"model\": ");
  json_write_str(f, p->model);
  fprintf(f, ",\n  \"target\": ");
  json_write_str(f, p->target);
  fprintf(f, ",\n  \"engine\": ");
  json_write_str(f, p->engine);
  fprintf(f, ",\n  \"dim\": %" PRIu64 ",\n  \"clock_mhz\": %" PRIu64 ",\n  \"dram_bytes_per_cycle\": ", p->dim,
          p->clock_mhz);
  uint64_t bpc = prof_dram_bytes_per_cycle(p);
  if (bpc) fprintf(f, "%" PRIu64, bpc);
  else fputs("null", f);
  fprintf(f, ",\n  \"rows\": [");
  for (size_t i = 0; i + 1 < n; i++) {
    fprintf(f, "%s\n    ", i ? "," : "");
    json_row(f, &rows[i]);
  }
  fprintf(f, "%s],\n  \"total\": ", n > 1 ? "\n  " : "");
  json_row(f, &rows[n - 1]);
  fprintf(f, "\n}\n");
}
