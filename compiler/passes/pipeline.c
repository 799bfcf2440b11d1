/* pipeline: the pass driver. */
#include "pipeline.h"

#include <string.h>

#include "ir_verify.h"
#include "ptq.h"
#include "quant.h"

#ifdef TESSEL_TEST_BUILD
enum { ALWAYS_VERIFY = 1 };
#else
enum { ALWAYS_VERIFY = 0 };
#endif

static void dump(const ir_graph *g, const char *when, const char *pass, const pipeline_opts *o) {
  FILE *f = o->dump ? o->dump : stdout;
  fprintf(f, "// %s %s\n", when, pass);
  ir_print(f, g, o->print);
  fflush(f);
}

int pipeline_run_pass(ir_graph *g, const pass_info *p, const pipeline_opts *o, diag *d) {
  if (o->print_before && !strcmp(o->print_before, p->name)) dump(g, "before", p->name, o);
  if (p->run_opts ? p->run_opts(g, o, d) : p->run(g, d)) return -1;
  if ((o->verify_each || ALWAYS_VERIFY) && ir_verify(g, d)) {
    char pfx[96];
    snprintf(pfx, sizeof pfx, "after pass %s", p->name);
    diag_prefix(d, pfx);
    return -1;
  }
  if (o->print_after_all || (o->print_after && !strcmp(o->print_after, p->name)))
    dump(g, "after", p->name, o);
  return 0;
}

static int run(ir_graph *g, const char *name, const pipeline_opts *o, diag *d) {
  const pass_info *p = pass_find(name);
  TSL_ASSERT(p);
  return pipeline_run_pass(g, p, o, d);
}

int pipeline_graph(ir_graph *g, const pipeline_opts *o, diag *d) {
  if ((o->verify_each || ALWAYS_VERIFY) && ir_verify(g, d)) return -1;
  if (run(g, "shape-infer", o, d)) return -1;
  if (run(g, "const-fold", o, d)) return -1;
  if (run(g, "remove-noops", o, d)) return -1;
  if (run(g, "bn-fold", o, d)) return -1;
  if (run(g, "hardsigmoid-fold", o, d)) return -1;
  if (run(g, "fuse-act", o, d)) return -1;
  if (run(g, "dce", o, d)) return -1;
  return 0;
}

int ptq_pass(ir_graph *g, const pipeline_opts *o, diag *d) { return ptq(g, o->calib, d); }

/* A graph output that no node computes (a constant after folding: Shape,
 * ConstantOfShape, Range; or a graph input passed through) becomes an
 * Identity's output, so that the package writes every output in a run. The
 * output keeps its name. */
static int outputs_computed(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_outputs; i++) {
    ir_value *v = g->outputs[i];
    if (v->kind == IR_VALUE_NODE) continue;
    ir_node *n = quant_new_node(g, g->n_nodes, IR_OP_IDENTITY, v->name, &v, 1, v->name, v->dtype, v, d);
    const char *tmp = n ? ir_unique_name(g, v->name) : NULL;
    if (!tmp) return n ? diag_oom(d) : -1;
    const char *name = v->name;
    ir_value_rename(g, v, tmp);
    ir_value_rename(g, n->out, name);
    v->is_output = 0, n->out->is_output = 1;
    g->outputs[i] = n->out;
  }
  return 0;
}

int pipeline_quant(ir_graph *g, const pipeline_opts *o, diag *d) {
  if (o->calib && run(g, "ptq", o, d)) return -1;
  if (run(g, "quant-ops", o, d)) return -1;
  if (run(g, "qdq-fold", o, d)) return -1;
  if (run(g, "requant", o, d)) return -1;
  if (quant_core_forms(g, d)) return -1;
  return outputs_computed(g, d);
}

int pipeline_check_pass_name(const char *option, const char *name, diag *d) {
  if (pass_find(name)) return 0;
  char list[256] = "";
  for (const pass_info *p = pass_registry; p->name; p++) {
    strncat(list, list[0] ? ", " : "", sizeof list - strlen(list) - 1);
    strncat(list, p->name, sizeof list - strlen(list) - 1);
  }
  return diag_set(d, "%s: unknown pass '%s' (passes: %s)", option, name, list);
}
