/* ref_exec: converts values to double, calls the kernel, converts back;
 * ref_run walks the nodes in order, freeing nothing until the end (the graphs
 * it runs are small enough; simplicity wins). */
#include "ref_exec.h"

#include <stdlib.h>
#include <string.h>

#include "core_op.h"
#include "quant.h"
#include "ref_int8.h"
#include "ref_ops.h"

/* A malloc'd double copy of n elements of dtype t. */
static double *to_f64(ir_dtype t, const void *data, int64_t n) {
  double *p = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (p && t == IR_F32) { /* the common case, without a call per element */
    const float *f = data;
    for (int64_t i = 0; i < n; i++) p[i] = f[i];
  } else if (p) {
    for (int64_t i = 0; i < n; i++) p[i] = ir_elem_f64(t, data, i);
  }
  return p;
}

int ref_eval_mode(const ir_node *n, const void *const *in, void *out, int core_exact, diag *d) {
  /* quantised operators run on their integers, with the NPU's arithmetic */
  if (quant_is_qop(n->op)) return ref_int8_eval(n, in, out, d);
  /* the control core's kernel: for the operators ref_ops.c has no double
   * kernel for, and for every op of a quantised graph (the core runs it) */
  if (core_exact || !ref_op_has(n)) {
    core_op c;
    int rc = core_op_of(n, &c, NULL, d);
    if (rc <= 0) return rc < 0 ? -1 : core_op_run(&c, n, in, out, d);
  }
  double *din[IR_MAX_INPUTS] = {0};
  int64_t e = ir_value_numel(n->out);
  TSL_ASSERT(e >= 0);
  double *dout = malloc(sizeof(double) * (size_t)(e ? e : 1));
  int rc = dout ? 0 : diag_oom(d);
  for (int k = 0; k < n->n_in && !rc; k++) {
    int64_t ne = ir_value_numel(n->in[k]);
    TSL_ASSERT(ne >= 0 && in[k]);
    if (!(din[k] = to_f64(n->in[k]->dtype, in[k], ne))) rc = diag_oom(d);
  }
  if (!rc) rc = ref_op(n, (const double *const *)din, dout, d);
  if (!rc && n->out->dtype == IR_F32) { /* as ir_elem_set_f64 does, inline */
    float *f = out;
    for (int64_t i = 0; i < e; i++) f[i] = (float)dout[i];
  } else if (!rc) {
    for (int64_t i = 0; i < e; i++) ir_elem_set_f64(n->out->dtype, out, i, dout[i]);
  }
  for (int k = 0; k < n->n_in; k++) free(din[k]);
  free(dout);
  return rc;
}

int ref_eval(const ir_node *n, const void *const *in, void *out, diag *d) {
  return ref_eval_mode(n, in, out, 0, d);
}

int ref_eval_node(const ir_node *n, void *out, diag *d) {
  const void *in[IR_MAX_INPUTS];
  for (int k = 0; k < n->n_in; k++) {
    TSL_ASSERT(n->in[k]->kind == IR_VALUE_CONST);
    in[k] = n->in[k]->data;
  }
  return ref_eval(n, in, out, d);
}

int ref_run(const ir_graph *g, const void *const *inputs, void **outputs, ref_observer observe,
            void *user, diag *d) {
  int core_exact = 0; /* a quantised graph: its float ops are the control core's */
  for (int i = 0; i < g->n_nodes; i++) core_exact |= quant_is_qop(g->nodes[i]->op);
  return ref_run_mode(g, inputs, outputs, observe, user, core_exact, d);
}

int ref_run_mode(const ir_graph *g, const void *const *inputs, void **outputs, ref_observer observe, void *user,
                 int core_exact, diag *d) {
  int max_id = 0, rc = -1;
  for (int i = 0; i < g->n_values; i++)
    if (g->values[i]->id > max_id) max_id = g->values[i]->id;
  void **buf = calloc((size_t)max_id + 1, sizeof(void *)); /* computed data by value id */
  const void **view = calloc((size_t)max_id + 1, sizeof(void *)); /* data to read by value id */
  if (!buf || !view) {
    diag_oom(d);
    goto out;
  }
  for (int i = 0; i < g->n_values; i++)
    if (g->values[i]->kind == IR_VALUE_CONST) view[g->values[i]->id] = g->values[i]->data;
  for (int i = 0; i < g->n_inputs; i++) view[g->inputs[i]->id] = inputs[i];
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    const void *in[IR_MAX_INPUTS];
    for (int k = 0; k < n->n_in; k++) in[k] = view[n->in[k]->id];
    int64_t e = ir_value_numel(n->out);
    void *o = malloc(ir_dtype_size(n->out->dtype) * (size_t)(e > 0 ? e : 1));
    if (!o) {
      diag_oom(d);
      goto out;
    }
    buf[n->out->id] = o;
    view[n->out->id] = o;
    if (ref_eval_mode(n, in, o, core_exact, d)) goto out;
    if (observe) observe(n->out, o, user);
  }
  for (int i = 0; i < g->n_outputs; i++) {
    const ir_value *v = g->outputs[i];
    size_t bytes = ir_dtype_size(v->dtype) * (size_t)ir_value_numel(v);
    outputs[i] = malloc(bytes ? bytes : 1);
    if (!outputs[i]) {
      for (int k = 0; k < i; k++) free(outputs[k]);
      diag_oom(d);
      goto out;
    }
    memcpy(outputs[i], view[v->id], bytes);
  }
  rc = 0;
out:
  if (buf)
    for (int i = 0; i <= max_id; i++) free(buf[i]);
  free(buf);
  free(view);
  return rc;
}
