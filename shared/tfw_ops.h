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

/* The package format's limits (tpkg_format.h), for the kernels. */
#define TFW_MAX_RANK TPKG_FB_MAX_RANK     /* most dimensions of an operand */
#define TFW_MAX_INTS TPKG_FB_MAX_INTS     /* most integer parameters of a record */
#define TFW_MAX_FLOATS TPKG_FB_MAX_FLOATS /* most float parameters of a record */
#define TFW_MAX_OPERANDS TPKG_FB_MAX_OPERANDS

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

/* An op's kernel (tfw_k_* below). */
typedef int (*tfw_op_fn)(const tfw_call *c);

/* tfw_op_run's generic checks, without the run: the op has a kernel in this
 * build, the operand and parameter counts are tfw_ops.def's, every operand
 * has a known dtype, rank <= TFW_MAX_RANK and data aligned to its element
 * size. 0 with *kernel the op's kernel, or TFW_FB_E_*. They depend on c's
 * fields only, so a caller that runs the same call again (a fallback record
 * prepared at load, tfw_fallback_prepare) checks once and then calls
 * (*kernel)(c), which checks the rest (shapes, dtypes, parameter values). */
int tfw_op_check(const tfw_call *c, tfw_op_fn *kernel);

/* Runs c: tfw_op_check, then the op's kernel.  0 or TFW_FB_E_*; nothing
 * written on an error. */
int tfw_op_run(const tfw_call *c);

/* The int8 definition of the unary op fn (TFW_UN_*, parameters alpha,
 * beta; docs/quantisation.md "Lookup tables"): over the 256 int8 input
 * codes, T[q + 128] = tfw_quantize(f(tfw_dequantize(q, s_in, zp_in)), s_out,
 * zp_out, -128, 127) with f the UNARY kernel - exactly what
 * DequantizeLinear -> f -> QuantizeLinear computes on the core.  The
 * compiler builds the LUT records' tables with it.  0 or TFW_FB_E_*. */
int tfw_lut_build(uint32_t fn, float alpha, float beta, float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                  int8_t table[256]);

/* The int8 Softmax's constants (docs/quantisation.md "Softmax and LayerNorm
 * in int8"): table[k] = rint(2^15 * exp(-s_in * k)) for the 256 differences
 * from the row's maximum (tfw_expf; table[0] = 2^15), and 1/s_out as
 * mult * 2^-shift, mult in [2^30, 2^31).  0 or TFW_FB_E_PARAM (a scale that
 * is not positive and finite, 1/s_out outside [2^-66, 2^31)). */
int tfw_softmax_q_build(float s_in, float s_out, int32_t table[256], int32_t *mult, int32_t *shift);

/* The Softmax of an int8 tensor to f32 (docs/quantisation.md "Softmax of
 * int8 to float"): table[k] = exp(-s_in * k) as f32 (tfw_expf of the f32
 * product; table[0] = 1) for the 256 differences from the row's maximum.
 * 0 or TFW_FB_E_PARAM (s_in not positive and finite). */
int tfw_softmax_qf_build(float s_in, float table[256]);

/* The int8 LayerNorm's constants over a row of n (1..65536) elements:
 * g[k] = rint(gamma[k] / s_out * 2^gs) with the largest gs in 0..30 that
 * keeps |g| < 2^30, b[k] = rint(beta[k] / s_out * 2^(16 + gs)) (beta NULL:
 * 0; |b| < 2^61), *gshift = gs, and E = rint(eps / s_in^2 * n^2) (at most
 * 2^61) as two words, low first.  0 or TFW_FB_E_PARAM. */
int tfw_layernorm_q_build(float s_in, float s_out, float eps, uint32_t n, const float *gamma, const float *beta,
                          int32_t *g, int64_t *b, int32_t *gshift, uint32_t eps_words[2]);

/* Elements of t (product of dims; 1 for rank 0); saturates at 2^62. */
uint64_t tfw_numel(const tfw_tensor *t);

/* The kernels (tfw_ops_elem.c, tfw_ops_move.c, tfw_ops_reduce.c,
 * tfw_ops_softmax.c, tfw_ops_nn.c), one per op family; c->op selects nothing
 * further. */
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
int tfw_k_softmax_q(const tfw_call *c);
int tfw_k_softmax_qf(const tfw_call *c);
int tfw_k_layernorm_q(const tfw_call *c);

/* The network kernels (tfw_ops_nn.c), f32 unless stated.  Each takes
 * exactly the parameters tfw_ops.def lists (n_ints, n_floats), returns
 * TFW_FB_E_PARAM for a count or value out of range, TFW_FB_E_SHAPE for
 * dims that disagree with them, TFW_FB_E_DTYPE for another dtype.  Window
 * sizes, strides and dilations are 1..65536, pads 0..65536; an operand holds
 * at most 2^29 elements and no dim above 2^29 (even an empty one).  An empty
 * output is valid and writes nothing.  Every NaN written is 0x7fc00000.
 *
 * tfw_k_matmul  A, B, optional C -> Y; ints trans_a trans_b (0|1), floats
 *   alpha beta.  numpy matmul: a 1-D A is [1,K], a 1-D B is [K,1], the
 *   added dim left out of Y; batch dims (all but the last two) broadcast
 *   multidirectionally; trans_* transposes the last two dims of A / B (a
 *   1-D operand cannot be transposed).  C broadcasts to Y (Gemm: ranks
 *   right-aligned, each dim Y's or 1).  Each element, in this order:
 *     acc = +0; for k ascending: acc = acc + a[i][k] * b[k][j];
 *     if alpha != 1: acc = alpha * acc;      (MatMul: a plain dot product)
 *     if C: acc = acc + (beta == 1 ? c : beta * c).
 * tfw_k_conv  x [N,C,H,W], w [M,C/group,kh,kw], optional bias [M] ->
 *   y [N,M,OH,OW]; ints group kh kw sy sx pt pl pb pr dy dx.  OH must be
 *   floor((H + pt + pb - dy*(kh-1) - 1) / sy) + 1 with a non-negative
 *   numerator (OW alike); group divides C and M.  1-D convs come as H = 1.
 *     acc = bias[m] (or +0); for c = 0..C/group-1, ky, kx ascending,
 *     skipping the taps in the padding:
 *       acc = acc + x[n][g*C/group + c][iy][ix] * w[m][c][ky][kx]
 *   with g = m / (M/group), iy = oy*sy - pt + ky*dy, ix = ox*sx - pl + kx*dx.
 * tfw_k_conv_transpose  x [N,C,H,W], w [C,M/group,kh,kw], optional bias [M]
 *   -> y [N,M,OH,OW]; the same ints.  OH lies in [b, b + sy - 1] with
 *   b = sy*(H-1) + dy*(kh-1) + 1 - pt - pb (the excess is output_padding;
 *   OW alike).  Gathered, no scratch: each output element is
 *     acc = bias[m] (or +0); for c = 0..C/group-1, ky, kx ascending:
 *       acc = acc + x[n][cc][iy][ix] * w[cc][m mod M/group][ky][kx]
 *   (cc = g*C/group + c, g = m / (M/group)) over the taps with
 *   oy + pt - ky*dy = iy*sy and ox + pl - kx*dx = ix*sx, 0 <= iy < H,
 *   0 <= ix < W (ky ascending is iy descending).
 * tfw_k_pool  x [N,C,H,W] -> y [N,C,OH,OW]; ints kind(0 max, 1 avg, 2 lp)
 *   kh kw sy sx pt pl pb pr dy dx count_include_pad(0|1), float p (read
 *   by lp only).  OH is the floor or the ceil (ceil_mode) of
 *   (H + pt + pb - dy*(kh-1) - 1) / sy, + 1.  Taps in the padding or beyond
 *   it are skipped; the in-image taps are visited ky, kx ascending:
 *     max: the largest (the first of equal ones, so -0 before +0 stays -0);
 *          padding never wins (ONNX); a NaN tap gives NaN; no tap gives
 *          -inf.  Also i8/u8 (y the same dtype), no tap giving -128 / 0;
 *     avg: sum from +0, then one division by the count: of the in-image
 *          taps (count_include_pad 0), or of the taps inside the padded
 *          extent [-pt, H + pb) x [-pl, W + pr) (1; ceil_mode's taps beyond
 *          it do not count); a count of 0 gives NaN;
 *     lp:  0 < p < inf; p == 1: sum of |x|; p == 2: tfw_sqrtf(sum of x*x);
 *          else tfw_powf(sum of tfw_powf(|x|, p), 1/p) (1/p rounded to f32).
 *          No tap gives 0. */
int tfw_k_matmul(const tfw_call *c);
int tfw_k_conv(const tfw_call *c);
int tfw_k_conv_transpose(const tfw_call *c);
int tfw_k_pool(const tfw_call *c);
int tfw_k_lut(const tfw_call *c);
/* tfw_k_mul_q  a i8, b i8 -> y i8, numpy broadcasting (tfw_k_binary's);
 *   ints zp_a zp_b zp_out (-128..127) mult (0..2^31-1) shift (0..63) lo hi
 *   (-128 <= lo <= hi <= 127).  Each element, exactly (the NPU's STORE
 *   requantisation of the centred product; docs/quantisation.md):
 *     y = clamp(rne_shift((a - zp_a) * (b - zp_b) * mult, shift) + zp_out, lo, hi)
 *   rne_shift dividing by 2^shift, rounded to nearest, ties to even. */
int tfw_k_mul_q(const tfw_call *c);
int tfw_k_layout(const tfw_call *c); /* refuses: QUANTIZE, DEQUANTIZE, RELAYOUT are tfw_fallback_run's */

/* "tfw_k_unary", ...: the kernel function of op (what a package's firmware
 * must link); NULL for an unknown op. */
const char *tfw_op_kernel_name(uint32_t op);

#endif
