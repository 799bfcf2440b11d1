/* ref_int8: the int8 reference kernels of the quantised operators (QConv,
 * QMatMul, QAdd, QAveragePool, QRequant).
 *
 * These define what the NPU must produce for a quantised graph, independent
 * of tiling and command streams: every rounding, saturation and clamp goes
 * through the NPU's own arithmetic helpers (sim/npu-model/npu_arith.c, the
 * same source the C model and the firmware use), never through floats.
 * Requantisation constants come from the node's attributes (the `requant`
 * pass writes them); zero points come from the values' quant fields.
 * The semantics are spelled out in docs/quantisation.md. */
#ifndef TESSEL_REF_INT8_H
#define TESSEL_REF_INT8_H

#include "ir.h"

/* Evaluates quantised node n: in[k] holds n->in[k]'s elements in its dtype,
 * out receives n->out's.  0, or -1 with a located error (missing or
 * malformed requantisation attributes). */
int ref_int8_eval(const ir_node *n, const void *const *in, void *out, diag *d);

#endif
