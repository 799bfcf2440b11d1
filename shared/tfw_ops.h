/* tfw_ops: the control core's operator kernels on plain tensors (package
 * format v2 FALLBACK records, shared/tfw_ops.def).
 *
 * One source for every engine, like tfw_fallback.c: the firmware (rv32im,
 * soft-float), the host C model and the compiler's reference executors call
 * these very functions, so they agree bit for bit.  The same arithmetic
 * rules hold (tfw_fallback.h): f32 +, -, *, / and comparisons, integer ops
 * and int <-> f32 conversions only; no double, no libm, no fma
 * (-ffp-contract=off); every transcendental function is tfw_math.h's.
 * Reductions and dot products accumulate in f32 in index order (no
 * reassociation), so every engine rounds the same way.
 *
 * Freestanding: <stdint.h> and <stddef.h>; no malloc, stdio or string.h, no
 * scratch memory: every kernel writes its output directly.
 *
 * Contract of every kernel (tfw_op_run checks the generic part first):
 *   - operands are plain row-major; data aligned to the element size;
 *   - dims are the operand's shape; rank 0 is a scalar (one element);
 *   - a kernel validates its shapes, dtypes and parameters completely before
 *     it writes a byte, and returns TFW_FB_E_* on any mismatch: nothing is
 *     written then;
 *   - it never reads outside an input's numel * size bytes nor writes outside
 *     the output's (a Gather index out of range is TFW_FB_E_INDEX);
 *   - outputs never overlap inputs (the caller guarantees it);
 *   - NaN results are the quiet NaN 0x7fc00000. */
#ifndef TESSEL_TFW_OPS_H
#define TESSEL_TFW_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "tfw_fallback.h"
#include "tpkg_format.h"

#define TFW_MAX_RANK 8u    /* most dimensions of an operand */
#define TFW_MAX_INTS 96u   /* most integer parameters of a record */
#define TFW_MAX_FLOATS 16u /* most float parameters of a record */
#define TFW_MAX_OPERANDS 65u

enum {
#define TFW_UN(name, id, formula) TFW_UN_##name = id,
#define TFW_BIN(name, id, formula) TFW_BIN_##name = id,
#define TFW_RED(name, id) TFW_RED_##name = id,
#define TFW_COORD(name, id) TFW_COORD_##name = id,
#define TFW_NEAREST(name, id) TFW_NEAREST_##name = id,
#include "tfw_ops_fn.def"
#undef TFW_UN
#undef TFW_BIN
#undef TFW_RED
#undef TFW_COORD
#undef TFW_NEAREST
};

/* A plain tensor. */
typedef struct tfw_tensor {
  uint8_t *data;                /* row-major elements, little-endian */
  uint32_t dtype;               /* TPKG_DT_* */
  uint32_t rank;                /* 0..TFW_MAX_RANK */
  uint32_t dims[TFW_MAX_RANK];  /* dims[0..rank-1] */
} tfw_tensor;

/* One operator call. */
typedef struct tfw_call {
  uint32_t op;                 /* TPKG_OP_* (tfw_ops.def), not 2..4 (layout-aware) */
  uint32_t n_in, n_out;
  const tfw_tensor *in;        /* n_in inputs */
  const tfw_tensor *out;       /* n_out outputs (data written) */
  const int32_t *ints;         /* n_ints parameters (tfw_ops.def) */
  uint32_t n_ints;
  const float *floats;         /* n_floats parameters */
  uint32_t n_floats;
} tfw_call;

/* Runs c: checks the operand and parameter counts against tfw_ops.def, then
 * calls the op's kernel.  0 or TFW_FB_E_*; nothing written on an error. */
int tfw_op_run(const tfw_call *c);

/* The int8 definition of the unary op fn (TFW_UN_*, parameters alpha,
 * beta; docs/quantisation.md "Lookup tables"): over the 256 int8 input
 * codes, T[q + 128] = tfw_quantize(f(tfw_dequantize(q, s_in, zp_in)), s_out,
 * zp_out, -128, 127) with f the UNARY kernel - exactly what
 * DequantizeLinear -> f -> QuantizeLinear computes on the core.  The
 * compiler builds the LUT records' tables with it.  0 or TFW_FB_E_*. */
int tfw_lut_build(uint32_t fn, float alpha, float beta, float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                  int8_t table[256]);

/* Elements of t (product of dims; 1 for rank 0); saturates at 2^62. */
uint64_t tfw_numel(const tfw_tensor *t);

/* The kernels (tfw_ops_elem.c, tfw_ops_move.c, tfw_ops_reduce.c,
 * tfw_ops_nn.c), one per op family; c->op selects nothing further. */
int tfw_k_softmax(const tfw_call *c);
int tfw_k_unary(const tfw_call *c);
int tfw_k_binary(const tfw_call *c);
int tfw_k_where(const tfw_call *c);
int tfw_k_cast(const tfw_call *c);
int tfw_k_transpose(const tfw_call *c);
int tfw_k_slice(const tfw_call *c);
int tfw_k_concat(const tfw_call *c);
int tfw_k_gather(const tfw_call *c);
int tfw_k_tile(const tfw_call *c);
int tfw_k_pad(const tfw_call *c);
int tfw_k_resize(const tfw_call *c);
int tfw_k_reduce(const tfw_call *c);
int tfw_k_arg(const tfw_call *c);
int tfw_k_norm(const tfw_call *c);
int tfw_k_matmul(const tfw_call *c);
int tfw_k_conv(const tfw_call *c);
int tfw_k_conv_transpose(const tfw_call *c);
int tfw_k_pool(const tfw_call *c);
int tfw_k_lut(const tfw_call *c);
int tfw_k_layout(const tfw_call *c); /* refuses: QUANTIZE, DEQUANTIZE, RELAYOUT are tfw_fallback_run's */

/* "tfw_k_unary", ...: the kernel function of op (what a package's firmware
 * must link); NULL for an unknown op. */
const char *tfw_op_kernel_name(uint32_t op);

#endif
