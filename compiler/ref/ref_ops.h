/* ref_ops: the reference kernels, one per operator, on double arrays.
 * in[k] holds n->in[k]'s elements, out receives n->out's (shapes as inferred);
 * integer results are already rounded/saturated to the output dtype's range. */
#ifndef TESSEL_REF_OPS_H
#define TESSEL_REF_OPS_H

#include "ir.h"

int ref_op(const ir_node *n, const double *const *in, double *out, diag *d);
/* Whether ref_op has a double kernel for n (the others run the control
 * core's, core_op.h). */
int ref_op_has(const ir_node *n);

#endif
