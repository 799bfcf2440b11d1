/* run_timeline: runtime marks -> the profile's timeline items (see
 * run_timeline.h). */
#include "run_timeline.h"

#include <stdio.h>
#include <stdlib.h>

enum { NAME_BYTES = 256 };

/* A gap's "what", by the phase that made it. */
static const char *const gap_what[TFW_TL_COUNT] = {
    [TFW_TL_RUNTIME] = "runtime",         [TFW_TL_STREAM_COPY] = "stream_copy",
    [TFW_TL_STREAM_WAIT] = "stream_wait", [TFW_TL_COUNTERS] = "counters",
    [TFW_TL_RETURN] = "return",           [TFW_TL_INPUT_COPY] = "input_copy",
    [TFW_TL_OUTPUT_COPY] = "output_copy", [TFW_TL_END] = "after_end",
};

typedef struct {
  uint32_t phase;  /* tfw_tl_phase, or PHASE_UNRECORDED */
  uint32_t record; /* kernel or fallback record */
} item_src;

enum { PHASE_UNRECORDED = TFW_TL_COUNT };

/* "kernel 2 'conv3'", "fallback f1 'prob' (Softmax)". */
static void describe(char *buf, size_t size, const tpkg_view *v, const npu_span_t *s) {
  if (s->kind[0] == 'k') {
    snprintf(buf, size, "kernel %lld '%s'", (long long)s->index, s->name);
  } else {
    tpkg_fallback r;
    tpkg_view_fallback(v, (uint32_t)s->index, &r);
    snprintf(buf, size, "fallback f%lld '%s' (%s)", (long long)s->index, s->name, tpkg_op_name(r.op));
  }
}

/* The name of gap i, from its phase and the items around it. */
static void name_gap(char *buf, const tpkg_view *v, const npu_span_t *it, const item_src *src, size_t i, size_t n,
                     const uint32_t *pos, uint32_t dropped, uint32_t nmarks) {
  char a[112], b[112];
  tpkg_kernel_view kv;
  switch (src[i].phase) {
  case TFW_TL_RUNTIME: {
    long p = (long)i - 1, q = (long)i + 1;
    while (p >= 0 && it[p].what) p--;
    while (q < (long)n && it[q].what) q++;
    if (p >= 0) describe(a, sizeof a, v, &it[p]);
    if (q < (long)n) describe(b, sizeof b, v, &it[q]);
    if (p >= 0 && q < (long)n) snprintf(buf, NAME_BYTES, "runtime between %s and %s", a, b);
    else if (p >= 0) snprintf(buf, NAME_BYTES, "runtime after %s", a);
    else if (q < (long)n) snprintf(buf, NAME_BYTES, "runtime before %s", b);
    else snprintf(buf, NAME_BYTES, "runtime");
    return;
  }
  case TFW_TL_STREAM_COPY:
  case TFW_TL_STREAM_WAIT:
  case TFW_TL_COUNTERS:
    tpkg_view_kernel(v, src[i].record, &kv);
    snprintf(buf, NAME_BYTES, "%s kernel %u '%s'",
             src[i].phase == TFW_TL_STREAM_COPY   ? "stream copy for"
             : src[i].phase == TFW_TL_STREAM_WAIT ? "stream fetch wait for"
                                                  : "counter read after",
             pos[src[i].record], kv.name);
    return;
  case TFW_TL_RETURN: snprintf(buf, NAME_BYTES, "return from tfw_run"); return;
  case TFW_TL_INPUT_COPY: snprintf(buf, NAME_BYTES, "input copy into the window"); return;
  case TFW_TL_OUTPUT_COPY: snprintf(buf, NAME_BYTES, "output copy out of the window"); return;
  case TFW_TL_END: snprintf(buf, NAME_BYTES, "caller's work after its end mark"); return;
  case PHASE_UNRECORDED:
    snprintf(buf, NAME_BYTES, "not recorded: %u marks past the timeline's %u", dropped, nmarks);
    return;
  default: TSL_UNREACHABLE();
  }
}

int run_timeline_build(const tpkg_view *v, const tfw_tl_mark *marks, uint32_t nmarks, uint32_t dropped,
                       run_timeline *out, diag *d) {
  *out = (run_timeline){0};
  if (nmarks < 2) return 0;
  /* 1. The profile's kernel position of each record (segments share one). */
  uint32_t *pos = calloc(v->n_kernels + 1, sizeof *pos);
  item_src *src = calloc(nmarks, sizeof *src);
  out->items = calloc(nmarks, sizeof *out->items);
  out->names = calloc(nmarks, NAME_BYTES);
  if (!pos || !src || !out->items || !out->names) {
    free(pos), free(src);
    run_timeline_free(out);
    return diag_set(d, "out of memory");
  }
  for (uint32_t k = 1; k < v->n_kernels; k++) {
    tpkg_kernel_view a, b;
    tpkg_view_kernel(v, k - 1, &a);
    tpkg_view_kernel(v, k, &b);
    pos[k] = pos[k - 1] + (a.mark_id != b.mark_id);
  }
  /* 2. One item per mark but the last, which ends the inference. */
  size_t n = 0;
  int rc = 0;
  for (uint32_t i = 0; i + 1 < nmarks && !rc; i++) {
    const tfw_tl_mark *m = &marks[i];
    uint32_t ph = m->phase;
    int on_kernel = ph == TFW_TL_KERNEL || ph == TFW_TL_STREAM_COPY || ph == TFW_TL_STREAM_WAIT ||
                    ph == TFW_TL_COUNTERS;
    if (ph >= TFW_TL_COUNT) rc = diag_set(d, "timeline mark %u has no phase %u", i, ph);
    else if (on_kernel && m->index >= v->n_kernels)
      rc = diag_set(d, "timeline mark %u names kernel record %u of %u", i, m->index, v->n_kernels);
    else if ((ph == TFW_TL_FALLBACK || ph == TFW_TL_BESIDE) && m->index >= v->n_fallbacks)
      rc = diag_set(d, "timeline mark %u names fallback record %u of %u", i, m->index, v->n_fallbacks);
    else if (marks[i + 1].t < m->t) rc = diag_set(d, "timeline mark %u is earlier than mark %u", i + 1, i);
    if (rc) break;
    if (dropped && i + 2 == nmarks) ph = PHASE_UNRECORDED; /* the stretch up to the latest mark */
    npu_span_t *s = &out->items[n];
    *s = (npu_span_t){.start = m->t - marks[0].t, .end = marks[i + 1].t - marks[0].t, .index = -1};
    s->name = out->names + n * NAME_BYTES;
    if (ph == TFW_TL_KERNEL) {
      tpkg_kernel_view kv;
      tpkg_view_kernel(v, m->index, &kv);
      s->kind = "kernel", s->index = pos[m->index];
      snprintf(out->names + n * NAME_BYTES, NAME_BYTES, "%s", kv.name);
    } else if (ph == TFW_TL_FALLBACK || ph == TFW_TL_BESIDE) {
      tpkg_fallback r;
      tpkg_view_fallback(v, m->index, &r);
      s->kind = "fallback", s->index = m->index, s->beside = ph == TFW_TL_BESIDE;
      snprintf(out->names + n * NAME_BYTES, NAME_BYTES, "%s", r.name);
    } else if (s->end == s->start) {
      continue; /* a gap of no time */
    } else {
      s->kind = "gap", s->what = ph == PHASE_UNRECORDED ? "unrecorded" : gap_what[ph];
    }
    src[n++] = (item_src){ph, m->index};
  }
  /* 3. Gaps named once their neighbours are known. */
  for (size_t i = 0; i < n && !rc; i++)
    if (out->items[i].what)
      name_gap(out->names + i * NAME_BYTES, v, out->items, src, i, n, pos, dropped, nmarks);
  free(pos), free(src);
  if (rc) {
    run_timeline_free(out);
    return -1;
  }
  out->n = n;
  return 0;
}

void run_timeline_free(run_timeline *t) {
  free(t->items);
  free(t->names);
  *t = (run_timeline){0};
}
