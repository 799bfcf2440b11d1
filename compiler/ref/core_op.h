/* core_op: how an IR node runs on the control core - the fallback op of
 * shared/tfw_ops.def, its parameters and its operands' views.
 *
 * One mapping for every place that runs a node on the core: the lowering
 * writes it into the package's FALLBACK record (lower_fallback.c), the
 * reference executors call the same kernel with the same parameters
 * (ref_exec.c), so the firmware, the C-model engine and `tessel ref` agree
 * bit for bit.  A view restates an operand's shape over the same row-major
 * bytes where the op needs another one: Softmax before opset 13 as
 * [outer, inner], DepthToSpace/SpaceToDepth as a 6-D transpose, 1-D
 * convolutions and pools as 2-D with H = 1. */
#ifndef TESSEL_CORE_OP_H
#define TESSEL_CORE_OP_H

#include <stdint.h>

#include "ir.h"
#include "tfw_ops.h"

typedef struct core_op {
  uint32_t op;                                       /* TPKG_OP_* */
  int n_in;                                          /* operands read: node inputs in_of[0..n_in-1] */
  int in_of[IR_MAX_INPUTS];
  uint32_t rank[TPKG_FB_MAX_OPERANDS];               /* each operand's view: inputs, then the output */
  uint32_t dims[TPKG_FB_MAX_OPERANDS][TPKG_FB_MAX_RANK];
  uint32_t n_ints, n_floats;
  int32_t ints[TPKG_FB_MAX_INTS];
  float floats[TPKG_FB_MAX_FLOATS];
} core_op;

/* The core op of n: 0 with *c filled; 1 when n has none (the NPU's quantised
 * ops, QuantizeLinear/DequantizeLinear, which the lowering writes as
 * layout-aware records itself); -1 with a located error when the node's
 * attributes or dtypes are outside what the core runs (a 3-D convolution,
 * a float64 tensor, ...), and *unsupported (if not NULL) set. */
int core_op_of(const ir_node *n, core_op *c, int *unsupported, diag *d);

/* A unary elementwise n as the core's UNARY fn and its parameters: 1 and
 * *fn, *alpha, *beta; 0 when n is not one. */
int core_unary_of(const ir_node *n, uint32_t *fn, float *alpha, float *beta);

/* The package dtype of an IR dtype (TPKG_DT_*), 0 when the core has none
 * (float64, int16). */
uint32_t core_dtype(ir_dtype t);

/* Runs c on host buffers: in[k] holds node input k's elements (every node
 * input, as ref_eval passes them), out the node's output.  0, or -1 with a
 * located error naming the kernel's complaint (a Gather index out of range). */
int core_op_run(const core_op *c, const ir_node *n, const void *const *in, void *out, diag *d);

#endif
