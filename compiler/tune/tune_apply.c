/* tune_apply: graph keys and applying a tuning log (tune_apply.h). */
#include "tune_apply.h"

#include <string.h>

void tune_graph_key(const lower_program *p, char *key, size_t n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a, 64 bits */
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    char head[64];
    snprintf(head, sizeof head, "%d:%d:%s|", i, (int)k->kind, ir_op_name(k->node->op));
    for (const char *s = head; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    for (const char *s = k->key; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  }
  snprintf(key, n, "graph %s %016llx", p->target->name, (unsigned long long)h);
}

int tune_apply(const ir_graph *g, const tsl_target_t *tg, lower_opts *lo, tune_table *t, FILE *info, diag *d) {
  /* Level 2 first: the graph key comes from the default plan (residency on). */
  lower_opts plain = *lo;
  plain.sched_for = NULL, plain.no_sram_residency = 0;
  lower_program *p = lower_graph(g, tg, &plain, d);
  if (!p) return -1;
  char gk[LOWER_KEY_MAX];
  tune_graph_key(p, gk, sizeof gk);
  lower_program_free(p);
  const tune_record *gr = tune_table_find(t, gk);
  if (gr && gr->residency == 0 && !lo->no_sram_residency) {
    lo->no_sram_residency = 1;
    if (info) fprintf(info, "tessel: tuning log: SRAM residency off for this model (measured faster)\n");
  }
  lo->sched_for = tune_table_sched;
  lo->sched_ctx = t;
  if (info) {
    p = lower_graph(g, tg, lo, d);
    if (!p) return -1;
    int conv = 0, tuned = 0, misfit = 0;
    for (int i = 0; i < p->n_kernels; i++) {
      conv += p->kernels[i].key[0] != 0;
      tuned += p->kernels[i].sched_from == 1;
      misfit += p->kernels[i].sched_from < 0;
    }
    fprintf(info, "tessel: tuning log: %d records (%d skipped lines, %d failed measurements), tuned schedules for "
            "%d of %d conv/matmul kernels", t->records, t->skipped, t->failed, tuned, conv);
    if (misfit) fprintf(info, ", %d did not fit (default kept)", misfit);
    fprintf(info, "\n");
    lower_program_free(p);
  }
  return 0;
}
