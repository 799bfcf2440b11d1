/* ref_exec: the float reference executor on the graph IR.
 *
 * Runs a shape-inferred graph on the host, one node at a time, in double
 * precision internally (stored back in each value's dtype), for every
 * operator the importer accepts.  It gives golden outputs for tests, the
 * values const_fold folds to, and (later) calibration ranges.  Integer
 * operators (QuantizeLinear, QLinearConv, ConvInteger, ...) follow ONNX's
 * definitions: round half to even, saturate to the output type.
 * The quantised operators (QConv, QMatMul, QAdd, QAveragePool, QRequant)
 * are evaluated on their integers by ref_int8.c with the NPU's arithmetic,
 * so running a quantised graph here is the int8 reference.  Operators
 * without a double kernel run the control core's (core_op.h). */
#ifndef TESSEL_REF_EXEC_H
#define TESSEL_REF_EXEC_H

#include "ir.h"

/* Evaluates node n: in[k] holds the elements of n->in[k] (in its dtype and
 * inferred shape), out receives n->out's elements.  0, or -1 with a located
 * error (e.g. a Gather index out of range). */
int ref_eval(const ir_node *n, const void *const *in, void *out, diag *d);
/* ref_eval; with core_exact every op the control core runs (core_op.h)
 * takes the core's kernel even where ref_ops.c has a double one: the int8
 * reference of a quantised graph, bit-identical with the firmware.  The
 * float reference (core_exact 0) keeps the double kernels. */
int ref_eval_mode(const ir_node *n, const void *const *in, void *out, int core_exact, diag *d);
/* ref_eval with the inputs' constant data (every input must be constant). */
int ref_eval_node(const ir_node *n, void *out, diag *d);

/* Runs g.  inputs[i] holds graph input i's elements (dtype and shape as in the
 * graph).  On success outputs[i] receives a malloc'd buffer with graph output
 * i's elements (caller frees each).  Optional observe(value, data, user) is
 * called for every computed value (calibration hook). */
typedef void (*ref_observer)(const ir_value *v, const void *data, void *user);
int ref_run(const ir_graph *g, const void *const *inputs, void **outputs, ref_observer observe,
            void *user, diag *d);
/* ref_run with the core_exact of ref_eval_mode chosen by the caller (the
 * int8 reference of `tessel ref --quantised`: every op as the package runs
 * it, even in a graph with nothing quantised); ref_run takes it when g
 * holds a quantised op. */
int ref_run_mode(const ir_graph *g, const void *const *inputs, void **outputs, ref_observer observe, void *user,
                 int core_exact, diag *d);

#endif
