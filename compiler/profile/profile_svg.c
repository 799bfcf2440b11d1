/* profile_svg: three charts in one self-contained SVG (see profile_svg.h).
 * Plain SVG 1.1: rect, line, polyline, circle, text, and <title> children as
 * hover text; no scripts, styles inline, so any viewer shows the same. */
#include "profile_svg.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tessel_targets.h"

enum { W = 960, CHART_H = 380, ML = 80, MR = 190, MT = 50, MB = 50 }; /* page width, one chart, margins */
enum { TL_H = 150, TL_BAR = 40 }; /* the timeline chart and its bar */

static const char *const C_COMPUTE = "#4e79a7", *const C_PRELOAD = "#f28e2b", *const C_TOKEN = "#e15759",
                         *const C_IDLE = "#bab0ac", *const C_FALLBACK = "#76b7b2", *const C_RD = "#4e79a7",
                         *const C_WR = "#f28e2b";

/* Text content with XML's special characters escaped. */
static void esc(FILE *f, const char *s) {
  for (; s && *s; s++) {
    if (*s == '&') fputs("&amp;", f);
    else if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '"') fputs("&quot;", f);
    else if ((unsigned char)*s < 0x20) fputc(' ', f); /* not allowed in XML 1.0 */
    else fputc(*s, f);
  }
}

static void text(FILE *f, double x, double y, const char *anchor, int size, const char *s) {
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\">", x, y, size, anchor);
  esc(f, s);
  fputs("</text>\n", f);
}

static void rect(FILE *f, double x, double y, double w, double h, const char *fill, const char *tip) {
  if (h <= 0 || w <= 0) return;
  fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">", x, y, w, h, fill);
  if (tip) {
    fputs("<title>", f);
    esc(f, tip);
    fputs("</title>", f);
  }
  fputs("</rect>\n", f);
}

static void line(FILE *f, double x0, double y0, double x1, double y1, const char *stroke, double width) {
  fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n", x0, y0,
          x1, y1, stroke, width);
}

static void legend(FILE *f, double y0, const char *const *names, const char *const *colors, int n) {
  for (int i = 0; i < n; i++) {
    double y = y0 + 18.0 * i;
    if (!strcmp(colors[i], "none")) /* an off-scale point: hollow */
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
              W - MR + 21.0, y + 6, C_COMPUTE);
    else
      rect(f, W - MR + 15, y, 12, 12, colors[i], NULL);
    text(f, W - MR + 32, y + 10, "start", 12, names[i]);
  }
}

/* A 1-2-5 step so that max spans about five ticks. */
static double nice_step(double max) {
  if (max <= 0) return 1;
  double raw = max / 5, p = pow(10, floor(log10(raw))), m = raw / p;
  return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
}

static void fmt_tick(char *buf, size_t size, double v) {
  if (v >= 1e9) snprintf(buf, size, "%gG", v / 1e9);
  else if (v >= 1e6) snprintf(buf, size, "%gM", v / 1e6);
  else if (v >= 1e3) snprintf(buf, size, "%gk", v / 1e3);
  else snprintf(buf, size, "%g", v);
}

/* Axes of a linear bar chart at top y0; returns the value scale's top. */
static double bar_axes(FILE *f, double y0, double vmax, const char *title, const char *ylabel) {
  double step = nice_step(vmax), top = step * ceil(vmax / step);
  if (top <= 0) top = step;
  double py = y0 + MT, ph = CHART_H - MT - MB;
  text(f, W / 2.0, y0 + 25, "middle", 16, title);
  for (double v = 0; v <= top * 1.0001; v += step) {
    double y = py + ph - ph * v / top;
    char b[32];
    line(f, ML, y, W - MR, y, "#dddddd", 1);
    fmt_tick(b, sizeof b, v);
    text(f, ML - 6, y + 4, "end", 11, b);
  }
  line(f, ML, py + ph, W - MR, py + ph, "#000000", 1);
  line(f, ML, py, ML, py + ph, "#000000", 1);
  fprintf(f, "<text x=\"18\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">",
          py + ph / 2, py + ph / 2);
  esc(f, ylabel);
  fputs("</text>\n", f);
  return top;
}

/* x label under bar i: its row label, thinned out when bars are narrow. */
static void bar_label(FILE *f, double x, double bw, double y, size_t i, const prof_row *r, size_t nbars) {
  size_t every = nbars > 40 ? (nbars + 39) / 40 : 1;
  if (i % every) return;
  char b[32];
  if (r->kind == PROF_ROW_FALLBACK) snprintf(b, sizeof b, "f%zu", r->index);
  else snprintf(b, sizeof b, "%zu", r->index);
  text(f, x + bw / 2, y + 14, "middle", 10, b);
}

static void chart_cycles(FILE *f, double y0, const profile *p, const prof_row *rows, size_t nb) {
  double vmax = 0;
  for (size_t i = 0; i < nb; i++) vmax = fmax(vmax, (double)rows[i].cycles);
  double top = bar_axes(f, y0, vmax, "Cycles per kernel: what the EXEC unit did (fallback ops: core cycles)",
                        "cycles");
  double py = y0 + MT, ph = CHART_H - MT - MB, pw = W - ML - MR, slot = pw / (double)(nb ? nb : 1);
  double bw = slot * 0.8;
  for (size_t i = 0; i < nb; i++) {
    const prof_row *r = &rows[i];
    double x = ML + slot * (double)i + slot * 0.1, y = py + ph;
    char tip[512];
    if (r->kind == PROF_ROW_FALLBACK) {
      snprintf(tip, sizeof tip, "f%zu %s (%s): %" PRIu64 " core cycles", r->index, r->name, r->nodes[0], r->cycles);
      double h = ph * (double)r->cycles / top;
      rect(f, x, y - h, bw, h, C_FALLBACK, tip);
    } else {
      const uint64_t *c = p->kernels[r->index].c;
      uint64_t busy = c[TSL_CNT_EXEC_BUSY], pre = c[TSL_CNT_EXEC_STALL_PRELOAD], tok = c[TSL_CNT_EXEC_STALL_TOKEN];
      uint64_t compute = busy > pre ? busy - pre : 0, cyc = c[TSL_CNT_CYCLES];
      uint64_t idle = cyc > busy + tok ? cyc - busy - tok : 0;
      uint64_t seg[4] = {compute, pre, tok, idle};
      const char *col[4] = {C_COMPUTE, C_PRELOAD, C_TOKEN, C_IDLE};
      static const char *const what[4] = {"compute", "preload stall", "token stall", "idle"};
      for (int s = 0; s < 4; s++) {
        double h = ph * (double)seg[s] / top;
        snprintf(tip, sizeof tip, "%zu %s: %s %" PRIu64 " of %" PRIu64 " cycles", r->index, r->name, what[s], seg[s],
                 cyc);
        rect(f, x, y - h, bw, h, col[s], tip);
        y -= h;
      }
    }
    bar_label(f, x, bw, py + ph, i, r, nb);
  }
  static const char *const names[] = {"compute (EXEC busy)", "weight preload stall", "token stall",
                                      "EXEC idle", "fallback op (core)"};
  const char *const cols[] = {C_COMPUTE, C_PRELOAD, C_TOKEN, C_IDLE, C_FALLBACK};
  legend(f, py, names, cols, 5);
}

static void chart_dram(FILE *f, double y0, const prof_row *rows, size_t nk) {
  double vmax = 0;
  for (size_t i = 0; i < nk; i++)
    vmax = fmax(vmax, fmax((double)(rows[i].dram_rd + rows[i].dram_wr), (double)rows[i].compulsory));
  double top = bar_axes(f, y0, vmax, "DRAM traffic per kernel vs compulsory (weights + inputs + outputs once)",
                        "bytes");
  double py = y0 + MT, ph = CHART_H - MT - MB, pw = W - ML - MR, slot = pw / (double)(nk ? nk : 1);
  double bw = slot * 0.8;
  for (size_t i = 0; i < nk; i++) {
    const prof_row *r = &rows[i];
    double x = ML + slot * (double)i + slot * 0.1, y = py + ph;
    char tip[512];
    double hr = ph * (double)r->dram_rd / top, hw = ph * (double)r->dram_wr / top;
    snprintf(tip, sizeof tip, "%zu %s: %" PRIu64 " bytes read", r->index, r->name, r->dram_rd);
    rect(f, x, y - hr, bw, hr, C_RD, tip);
    snprintf(tip, sizeof tip, "%zu %s: %" PRIu64 " bytes written", r->index, r->name, r->dram_wr);
    rect(f, x, y - hr - hw, bw, hw, C_WR, tip);
    double yc = py + ph - ph * (double)r->compulsory / top;
    fprintf(f, "<line class=\"compulsory\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000000\" "
               "stroke-width=\"2\"><title>%zu ",
            x - slot * 0.05, yc, x + bw + slot * 0.05, yc, r->index);
    esc(f, r->name);
    fprintf(f, ": %" PRIu64 " compulsory bytes</title></line>\n", r->compulsory);
    bar_label(f, x, bw, py + ph, i, r, nk);
  }
  static const char *const names[] = {"DRAM read", "DRAM written", "compulsory"};
  const char *const cols[] = {C_RD, C_WR, "#000000"};
  legend(f, py, names, cols, 3);
}

static void chart_roofline(FILE *f, double y0, const profile *p, const prof_row *rows, size_t nk, double bw) {
  double peak = (double)(p->dim * p->dim), ridge = peak / bw;
  double xmin = ridge, xmax = ridge, ymin = peak, ymax = peak;
  for (size_t i = 0; i < nk; i++) {
    const prof_row *r = &rows[i];
    double x = r->intensity, y = r->npu_cycles ? (double)r->useful_macs / (double)r->npu_cycles : 0;
    if (isfinite(x) && x > 0) xmin = fmin(xmin, x), xmax = fmax(xmax, x);
    if (y > 0) ymin = fmin(ymin, y), ymax = fmax(ymax, y);
  }
  double lx0 = floor(log10(xmin)) - (xmin == ridge ? 1 : 0), lx1 = ceil(log10(xmax)) + (xmax == ridge ? 1 : 0);
  double ly0 = floor(log10(ymin)) - (ymin == peak ? 1 : 0), ly1 = ceil(log10(ymax * 1.5));
  if (lx1 <= lx0) lx1 = lx0 + 1;
  if (ly1 <= ly0) ly1 = ly0 + 1;
  double px = ML, pyy = y0 + MT, pw = W - ML - MR, ph = CHART_H - MT - MB;
#define SX(v) (px + pw * (log10(v) - lx0) / (lx1 - lx0))
#define SY(v) (pyy + ph - ph * (log10(v) - ly0) / (ly1 - ly0))
  char title[160];
  snprintf(title, sizeof title, "Roofline of %s: min(%.0f MACs/cycle, intensity x %.0f DRAM bytes/cycle), graph's MACs",
           p->target, peak, bw);
  text(f, W / 2.0, y0 + 25, "middle", 16, title);
  for (double e = lx0; e <= lx1; e++) {
    char b[32];
    double x = SX(pow(10, e));
    line(f, x, pyy, x, pyy + ph, "#dddddd", 1);
    fmt_tick(b, sizeof b, pow(10, e));
    text(f, x, pyy + ph + 16, "middle", 11, b);
  }
  for (double e = ly0; e <= ly1; e++) {
    char b[32];
    double y = SY(pow(10, e));
    line(f, px, y, px + pw, y, "#dddddd", 1);
    fmt_tick(b, sizeof b, pow(10, e));
    text(f, px - 6, y + 4, "end", 11, b);
  }
  line(f, px, pyy + ph, px + pw, pyy + ph, "#000000", 1);
  line(f, px, pyy, px, pyy + ph, "#000000", 1);
  text(f, px + pw / 2, pyy + ph + 36, "middle", 12, "arithmetic intensity (the graph's MACs per DRAM byte, log)");
  fprintf(f, "<text x=\"18\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">"
             "the graph's MACs per cycle (log)</text>\n", pyy + ph / 2, pyy + ph / 2);
  /* the roof: bandwidth slope up to the ridge, then the array's peak */
  double xa = pow(10, lx0), xb = pow(10, lx1), ya = fmax(xa * bw, pow(10, ly0));
  double xa2 = ya / bw;
  fprintf(f, "<polyline class=\"roof\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\" "
             "points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>\n",
          SX(fmax(xa, xa2)), SY(ya), SX(ridge), SY(peak), SX(xb), SY(peak));
  char b[96];
  snprintf(b, sizeof b, "ridge: %.3g MACs/byte", ridge);
  text(f, SX(ridge) + 6, SY(peak) - 6, "start", 11, b);
  for (size_t i = 0; i < nk; i++) {
    const prof_row *r = &rows[i];
    double x = r->intensity, y = r->npu_cycles ? (double)r->useful_macs / (double)r->npu_cycles : 0;
    int clipped = !(isfinite(x) && x > 0) || !(y > 0);
    /* no DRAM traffic: infinitely intense, drawn at the right edge; no MACs: at the bottom */
    double cx = isfinite(x) && x > 0 ? SX(x) : isnan(x) ? px + pw : px;
    double cy = y > 0 ? SY(y) : pyy + ph;
    fprintf(f, "<circle class=\"point%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\">"
               "<title>",
            clipped ? " clipped" : "", cx, cy, clipped ? "none" : C_COMPUTE, C_COMPUTE);
    fprintf(f, "%zu ", r->index);
    esc(f, r->name);
    if (isfinite(x) && x > 0)
      fprintf(f, ": %.3g MACs/byte, %.3g MACs/cycle (%.1f%% of the roof)", x, y, 100.0 * y / fmin(peak, x * bw));
    else /* no DRAM bytes (intensity undefined) or no MACs */
      fprintf(f, ": %s, %.3g MACs/cycle", isnan(x) ? "no DRAM traffic" : "no MACs", y);
    if (!isnan(r->util)) fprintf(f, "; utilisation %.1f%%, array occupancy %.1f%%", 100.0 * r->util, 100.0 * r->occupancy);
    if (!isnan(r->bound.over)) fprintf(f, "; %.2fx the roofline bound", r->bound.over);
    fputs("</title></circle>\n", f);
    snprintf(b, sizeof b, "%zu", r->index);
    text(f, cx + 7, cy - 5, "start", 10, b);
  }
  static const char *const names[] = {"roof", "kernel", "off scale"};
  const char *const cols[] = {"#000000", C_COMPUTE, "none"};
  legend(f, pyy, names, cols, 3);
  text(f, W - MR + 15, pyy + 70, "start", 11, "(hollow: no DRAM bytes");
  text(f, W - MR + 15, pyy + 84, "start", 11, "or no MACs)");
#undef SX
#undef SY
}

/* The inference's timeline as one bar: kernels, fallback ops and gaps in
 * their place and length, time left to right. */
static void chart_timeline(FILE *f, double y0, const profile *p) {
  const prof_item *it = p->items;
  size_t n = p->nitems;
  uint64_t t0 = it[0].start, total = it[n - 1].end - t0, sum[3] = {0};
  for (size_t i = 0; i < n; i++) sum[it[i].kind] += it[i].end - it[i].start;
  double tot = total ? (double)total : 1, pw = W - ML - MR, by = y0 + MT;
  char title[200], tip[512];
  snprintf(title, sizeof title, "Timeline of the inference: %" PRIu64 " cycles; NPU kernels %.1f%%, fallback ops "
           "%.1f%%, gaps %.1f%%", total, 100.0 * (double)sum[PROF_ITEM_KERNEL] / tot,
           100.0 * (double)sum[PROF_ITEM_FALLBACK] / tot, 100.0 * (double)sum[PROF_ITEM_GAP] / tot);
  text(f, W / 2.0, y0 + 25, "middle", 16, title);
  static const char *const kinds[3] = {"kernel", "fallback", "gap"};
  const char *const cols[3] = {C_COMPUTE, C_FALLBACK, C_IDLE};
  for (size_t i = 0; i < n; i++) {
    const prof_item *x = &it[i];
    uint64_t dur = x->end - x->start;
    if (x->kind == PROF_ITEM_KERNEL)
      snprintf(tip, sizeof tip, "kernel %" PRIu64 " %s: from %" PRIu64 ", %" PRIu64 " cycles (%.1f%%)", x->index,
               x->name, x->start - t0, dur, 100.0 * (double)dur / tot);
    else if (x->kind == PROF_ITEM_FALLBACK)
      snprintf(tip, sizeof tip, "fallback f%" PRIu64 " %s (%s): from %" PRIu64 ", %" PRIu64 " cycles (%.1f%%)",
               x->index, x->name, p->fallbacks[x->index].op, x->start - t0, dur, 100.0 * (double)dur / tot);
    else
      snprintf(tip, sizeof tip, "gap: %s: from %" PRIu64 ", %" PRIu64 " cycles (%.1f%%)", x->name, x->start - t0,
               dur, 100.0 * (double)dur / tot);
    fprintf(f, "<g class=\"%s\">", kinds[x->kind]);
    rect(f, ML + pw * (double)(x->start - t0) / tot, by, pw * (double)dur / tot, TL_BAR, cols[x->kind], tip);
    fputs("</g>\n", f);
  }
  double step = nice_step((double)total);
  for (double v = 0; v <= (double)total * 1.0001; v += step) {
    char b[32];
    double x = ML + pw * v / tot;
    line(f, x, by + TL_BAR, x, by + TL_BAR + 5, "#000000", 1);
    fmt_tick(b, sizeof b, v);
    text(f, x, by + TL_BAR + 18, "middle", 11, b);
  }
  text(f, ML + pw / 2, by + TL_BAR + 36, "middle", 12,
       !strcmp(p->engine, "rtl") ? "control core cycles from the start of the input copy" : "cycles (the NPU's)");
  static const char *const names[3] = {"NPU kernel", "fallback op (core)", "gap (runtime work)"};
  legend(f, by - 10, names, cols, 3);
}

int prof_print_svg(FILE *f, const profile *p, const prof_row *rows, size_t n, diag *d) {
  const tsl_target_t *t = tsl_target_find(p->target);
  if (!t) return diag_set(d, "svg: unknown target '%.60s': the roofline needs its DRAM bandwidth", p->target);
  if (t->dram_bytes_per_cycle <= 0) return diag_set(d, "svg: target '%s' has no DRAM bandwidth", t->name);
  if ((uint64_t)t->dim != p->dim)
    return diag_set(d, "svg: the profile says DIM %" PRIu64 " but target %s has DIM %lld", p->dim, t->name,
                    (long long)t->dim);
  size_t nk = p->nkernels, nb = n - 1; /* kernels, then kernels + fallbacks (no total) */
  int tl = p->nitems ? TL_H : 0;      /* the timeline's chart, first, when the profile has one */
  int h = 3 * CHART_H + 40 + tl;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
          W, h, W, h);
  fprintf(f, "<title>");
  esc(f, p->model);
  fprintf(f, " on %s: profile charts</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
          p->target, W, h);
  char head[256];
  snprintf(head, sizeof head, "%s on %s (engine %s), %zu kernels, %zu fallback ops", p->model, p->target, p->engine,
           p->nkernels, p->nfallbacks);
  text(f, 10, 20, "start", 13, head);
  if (tl) {
    fprintf(f, "<g class=\"chart\" id=\"timeline\">\n");
    chart_timeline(f, 30, p);
    fprintf(f, "</g>\n");
  }
  fprintf(f, "<g class=\"chart\" id=\"cycles\">\n");
  chart_cycles(f, 30 + tl, p, rows, nb);
  fprintf(f, "</g>\n<g class=\"chart\" id=\"dram\">\n");
  chart_dram(f, 30 + tl + CHART_H, rows, nk);
  fprintf(f, "</g>\n<g class=\"chart\" id=\"roofline\">\n");
  chart_roofline(f, 30 + tl + 2 * CHART_H, p, rows, nk, (double)t->dram_bytes_per_cycle);
  fprintf(f, "</g>\n</svg>\n");
  return 0;
}
