/* npu_profile.c: the profile JSON writer (format: docs/profile-format.md). */
#include "npu_profile.h"

#include "json_write.h"

static void put_counters(FILE *f, const uint64_t *now, const uint64_t *before) {
  fputc('{', f);
  for (int i = 0; i < TSL_NCOUNTERS; i++) {
    fprintf(f, "%s", i ? ", " : "");
    json_write_str(f, tsl_counter_name(i));
    fprintf(f, ": %llu", (unsigned long long)(now[i] - (before ? before[i] : 0)));
  }
  fputc('}', f);
}

/* The "commands" array: kernel = the id of the MARK that closes the
 * command's kernel (null outside any kernel), kernel_index its position. */
static void put_commands(FILE *f, const npu_profile_t *p, const npu_cmd_event_t *cmds, size_t ncmds) {
  static const char *const units[] = {"LOAD", "EXEC", "STORE"};
  fprintf(f, ",\n  \"commands\": [");
  for (size_t i = 0; i < ncmds; i++) {
    const npu_cmd_event_t *e = &cmds[i];
    const tsl_cmd_desc_t *d = tsl_cmd_desc(e->op);
    int in_kernel = e->marks >= 1 && e->marks < p->nmarks;
    fprintf(f, "%s\n    {\"unit\": \"%s\", \"kernel\": ", i ? "," : "", e->unit < 3 ? units[e->unit] : "?");
    if (in_kernel) fprintf(f, "%llu, \"kernel_index\": %llu", (unsigned long long)p->marks[e->marks].kernel,
                           (unsigned long long)(e->marks - 1));
    else fprintf(f, "null");
    fprintf(f, ", \"index\": %u, \"op\": ", (unsigned)e->index);
    json_write_str(f, d ? d->name : "?");
    fprintf(f, ", \"start\": %llu, \"end\": %llu}", (unsigned long long)e->start, (unsigned long long)e->end);
  }
  fprintf(f, "%s]", ncmds ? "\n  " : "");
}

/* The "timeline" array: one entry per item, gaps with their "what". */
static void put_spans(FILE *f, const npu_profile_t *p) {
  fprintf(f, ",\n  \"timeline\": [");
  for (size_t i = 0; i < p->nspans; i++) {
    const npu_span_t *s = &p->spans[i];
    fprintf(f, "%s\n    {\"kind\": ", i ? "," : "");
    json_write_str(f, s->kind);
    if (s->what) fprintf(f, ", \"what\": "), json_write_str(f, s->what);
    else fprintf(f, ", \"index\": %lld", (long long)s->index);
    fprintf(f, ", \"name\": ");
    json_write_str(f, s->name ? s->name : "");
    if (s->beside) fprintf(f, ", \"beside\": true");
    fprintf(f, ", \"start\": %llu, \"end\": %llu}", (unsigned long long)s->start, (unsigned long long)s->end);
  }
  fprintf(f, "%s]", p->nspans ? "\n  " : "");
}

int npu_profile_write_json(FILE *f, const npu_profile_t *p) { return npu_profile_write_json_timeline(f, p, NULL, 0); }

int npu_profile_write_json_timeline(FILE *f, const npu_profile_t *p, const npu_cmd_event_t *cmds, size_t ncmds) {
  const tsl_target_t *t = p->target;
  fprintf(f, "{\n  \"format\": \"tessel-profile\",\n  \"version\": 1,\n  \"target\": ");
  json_write_str(f, t->name);
  fprintf(f, ",\n  \"target_hash\": \"0x%08X\",\n  \"engine\": ", (unsigned)t->hash);
  json_write_str(f, p->engine);
  fprintf(f, ",\n  \"model\": ");
  json_write_str(f, p->model);
  fprintf(f, ",\n  \"clock_mhz\": %lld,\n  \"dim\": %lld,\n  \"counter_names\": [", (long long)t->clock_mhz,
          (long long)t->dim);
  for (int i = 0; i < TSL_NCOUNTERS; i++) {
    fprintf(f, "%s", i ? ", " : "");
    json_write_str(f, tsl_counter_name(i));
  }
  fprintf(f, "],\n  \"total\": ");
  put_counters(f, p->total, NULL);
  fprintf(f, ",\n  \"kernels\": [");
  for (size_t k = 0; k + 1 < p->nmarks; k++) {
    const npu_snapshot_t *a = &p->marks[k], *b = &p->marks[k + 1];
    const npu_kernel_info_t *info = b->kernel < p->nkernels && p->kernels ? &p->kernels[b->kernel] : NULL;
    fprintf(f, "%s\n    {\"index\": %zu, \"id\": %llu, \"name\": ", k ? "," : "", k, (unsigned long long)b->kernel);
    json_write_str(f, info ? info->name : "");
    fprintf(f, ", \"onnx_nodes\": [");
    for (size_t i = 0; info && i < info->nonnx; i++) {
      fprintf(f, "%s", i ? ", " : "");
      json_write_str(f, info->onnx_nodes[i]);
    }
    fprintf(f, "], \"estimate_cycles\": %llu, \"counters\": ", (unsigned long long)(info ? info->estimate_cycles : 0));
    put_counters(f, b->counters, a->counters);
    fprintf(f, ", \"compulsory_dram_bytes\": %llu, \"useful_macs\": %llu}",
            (unsigned long long)(info ? info->compulsory_dram_bytes : 0),
            (unsigned long long)(info ? info->useful_macs : 0));
  }
  fprintf(f, "%s],\n  \"fallback_ops\": [", p->nmarks > 1 ? "\n  " : "");
  for (size_t i = 0; i < p->nfallbacks && p->fallbacks; i++) {
    fprintf(f, "%s\n    {\"index\": %zu, \"op\": ", i ? "," : "", i);
    json_write_str(f, p->fallbacks[i].op);
    fprintf(f, ", \"name\": ");
    json_write_str(f, p->fallbacks[i].name);
    fprintf(f, ", \"core_cycles\": %llu}", (unsigned long long)p->fallbacks[i].core_cycles);
  }
  fprintf(f, "%s]", p->nfallbacks ? "\n  " : "");
  if (p->spans) put_spans(f, p);
  if (cmds && ncmds) put_commands(f, p, cmds, ncmds);
  fprintf(f, "\n}\n");
  return ferror(f) ? -1 : 0;
}
