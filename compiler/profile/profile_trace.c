/* profile_trace: Chrome trace JSON of a profile (see profile_trace.h). */
#include "profile_trace.h"

#include <inttypes.h>
#include <stdint.h>

#include "json_write.h"
#include "profile_report.h"

enum { TID_KERNELS = 1, TID_LOAD, TID_EXEC, TID_STORE, TID_CORE };

static const char *const unit_names[PROF_NUNITS] = {"LOAD", "EXEC", "STORE"};

typedef struct {
  FILE *f;
  double mhz;  /* cycles per microsecond */
  int first;   /* no event written yet */
} tracer;

static void begin_event(tracer *t) {
  fprintf(t->f, "%s\n    ", t->first ? "" : ",");
  t->first = 0;
}

static void thread_name(tracer *t, int tid, const char *name) {
  begin_event(t);
  fprintf(t->f, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": {\"name\": ", tid);
  json_write_str(t->f, name);
  fprintf(t->f, "}},");
  fprintf(t->f, "\n    {\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"args\": "
                "{\"sort_index\": %d}}", tid, tid);
}

/* A complete ("X") slice from cycle start lasting dur cycles; args follow. */
static void slice(tracer *t, int tid, const char *name, const char *cat, uint64_t start, uint64_t dur) {
  begin_event(t);
  fprintf(t->f, "{\"name\": ");
  json_write_str(t->f, name && *name ? name : "(unnamed)");
  fprintf(t->f, ", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"ts\": %.4f, \"dur\": %.4f, \"args\": {", cat,
          tid, (double)start / t->mhz, (double)dur / t->mhz);
  fprintf(t->f, "\"start_cycle\": %" PRIu64 ", \"cycles\": %" PRIu64, start, dur);
}

/* Where kernel k starts on the trace's clock: with an inference timeline,
 * at its first item (the NPU's tracks move with it); else back to back by
 * CYCLES from 0. */
static uint64_t kernel_at(const profile *p, size_t k) {
  for (size_t i = 0; i < p->nitems; i++)
    if (p->items[i].kind == PROF_ITEM_KERNEL && p->items[i].index == k) return p->items[i].start;
  return p->kernels[k].start;
}

/* The item where kernel item i's NPU run ends: past the fallback ops the
 * core ran beside it (and the gaps between them), the run's next item of
 * the same kernel, where the core waited for it; i when none ran beside. */
static size_t run_end(const profile *p, size_t i) {
  size_t j = i + 1;
  int beside = 0;
  for (; j < p->nitems && (p->items[j].kind == PROF_ITEM_GAP || p->items[j].beside); j++) beside |= p->items[j].beside;
  return beside && j < p->nitems && p->items[j].kind == PROF_ITEM_KERNEL && p->items[j].index == p->items[i].index ? j : i;
}

void prof_print_trace(FILE *f, const profile *p) {
  tracer t = {f, p->clock_mhz ? (double)p->clock_mhz : 1.0, 1};
  int tl = p->nitems > 0;
  fprintf(f, "{\n  \"displayTimeUnit\": \"ns\",\n  \"otherData\": {\"model\": ");
  json_write_str(f, p->model);
  fprintf(f, ", \"target\": ");
  json_write_str(f, p->target);
  fprintf(f, ", \"engine\": ");
  json_write_str(f, p->engine);
  fprintf(f, ", \"clock_mhz\": %" PRIu64 ", \"slices\": \"%s\", \"clock\": \"%s\"},\n  \"traceEvents\": [",
          p->clock_mhz, p->commands ? "commands" : "busy cycles per kernel and unit",
          tl ? "the inference timeline" : "NPU cycles, kernels back to back");
  begin_event(&t);
  fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": ");
  json_write_str(f, p->target);
  fprintf(f, "}}");
  thread_name(&t, TID_KERNELS, "kernels");
  for (int u = 0; u < PROF_NUNITS; u++) thread_name(&t, TID_LOAD + u, unit_names[u]);
  thread_name(&t, TID_CORE, tl ? "control core (fallback ops, runtime gaps)" : "control core (fallback ops)");
  static const int busy[PROF_NUNITS] = {TSL_CNT_LOAD_BUSY, TSL_CNT_EXEC_BUSY, TSL_CNT_STORE_BUSY};
  for (size_t i = 0; i < p->nkernels; i++) {
    const prof_kernel *k = &p->kernels[i];
    uint64_t at = kernel_at(p, i);
    if (!tl) { /* with a timeline, the kernels' slices are its items (below) */
      slice(&t, TID_KERNELS, k->name, "kernel", at, k->c[TSL_CNT_CYCLES]);
      fprintf(f, ", \"index\": %zu, \"id\": %" PRIu64 ", \"macs\": %" PRIu64 ", \"dram_bytes\": %" PRIu64 "}}", i,
              k->id, k->c[TSL_CNT_MACS], k->c[TSL_CNT_DRAM_RD_BYTES] + k->c[TSL_CNT_DRAM_WR_BYTES]);
    }
    for (int u = 0; u < PROF_NUNITS && !p->commands; u++) {
      if (!k->c[busy[u]]) continue;
      slice(&t, TID_LOAD + u, k->name, "busy", at, k->c[busy[u]]);
      fprintf(f, ", \"kernel\": %zu, \"busy_cycles\": %" PRIu64 "}}", i, k->c[busy[u]]);
    }
  }
  for (size_t i = 0; i < p->ncommands; i++) {
    const prof_command *c = &p->commands[i];
    /* on the timeline's clock, each command moves with its kernel */
    uint64_t shift = tl && c->kernel_index >= 0 ? kernel_at(p, (size_t)c->kernel_index) -
                                                      p->kernels[c->kernel_index].start : 0;
    slice(&t, TID_LOAD + c->unit, c->op, "command", c->start + shift, c->end - c->start);
    fprintf(f, ", \"kernel\": %" PRIu64 ", \"command\": %" PRIu64, c->kernel, c->index);
    if (c->kernel_index >= 0) fprintf(f, ", \"kernel_index\": %" PRId64, c->kernel_index);
    fprintf(f, "}}");
  }
  /* The timeline's items where they ran: kernels on the kernels' track
   * (a run with fallback ops beside it one slice, over them), fallback ops
   * and gaps on the core's. */
  for (size_t i = 0, skip = SIZE_MAX; i < p->nitems; i++) {
    const prof_item *x = &p->items[i];
    if (i == skip) continue;
    if (x->kind == PROF_ITEM_KERNEL) {
      const prof_kernel *k = &p->kernels[x->index];
      skip = run_end(p, i);
      slice(&t, TID_KERNELS, k->name, "kernel", x->start, p->items[skip].end - x->start);
      fprintf(f, ", \"index\": %" PRIu64 ", \"id\": %" PRIu64 ", \"npu_cycles\": %" PRIu64 ", \"macs\": %" PRIu64
                 ", \"dram_bytes\": %" PRIu64 "}}",
              x->index, k->id, k->c[TSL_CNT_CYCLES], k->c[TSL_CNT_MACS],
              k->c[TSL_CNT_DRAM_RD_BYTES] + k->c[TSL_CNT_DRAM_WR_BYTES]);
    } else if (x->kind == PROF_ITEM_FALLBACK) {
      slice(&t, TID_CORE, x->name, "fallback", x->start, x->end - x->start);
      fprintf(f, ", \"index\": %" PRIu64 ", \"op\": ", x->index);
      json_write_str(f, p->fallbacks[x->index].op);
      fprintf(f, "}}");
    } else {
      slice(&t, TID_CORE, x->name, "gap", x->start, x->end - x->start);
      fprintf(f, ", \"what\": ");
      json_write_str(f, x->what);
      fprintf(f, "}}");
    }
  }
  /* Without a timeline, fallback ops run on the core after the NPU work
   * (the profile does not say where in between): back to back from the
   * NPU's last cycle. */
  uint64_t at = p->total[TSL_CNT_CYCLES];
  for (size_t i = 0; i < p->nfallbacks && !tl; i++) {
    const prof_fallback *fb = &p->fallbacks[i];
    slice(&t, TID_CORE, fb->name, "fallback", at, fb->core_cycles);
    fprintf(f, ", \"op\": ");
    json_write_str(f, fb->op);
    fprintf(f, "}}");
    at += fb->core_cycles;
  }
  fprintf(f, "\n  ]\n}\n");
}
