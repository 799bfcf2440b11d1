/* quant: shared helpers of the quantisation passes (qdq_fold, quant_ops, ptq,
 * requant) and the int8 reference.
 *
 * Conventions (docs/quantisation.md): real = scale * (q - zero_point); every
 * activation of a quantised op is int8 (uint8 is shifted by -128, exactly);
 * weights are int8, per tensor or per output channel; biases are int32 with
 * scale s_x * s_w[c] and zero point 0. */
#ifndef TESSEL_QUANT_H
#define TESSEL_QUANT_H

#include "ir.h"

/* Scale and zero point(s) read from a QuantizeLinear/DequantizeLinear's
 * constant inputs, or from a value's quant field. */
typedef struct quant_params {
  int n;             /* 1 (per tensor) or the channel count */
  int axis;          /* channel axis when n > 1 (or when per-channel of size 1) */
  int per_channel;   /* the ONNX tensor was 1-D (axis meaningful) */
  const float *scale;  /* n scales (points into the graph's arena or constant) */
  int32_t *zp;       /* n zero points (arena) */
  ir_dtype type;     /* integer type of the quantised tensor: u8, i8 or i32 */
} quant_params;

/* core_forms.c: raw int32 QConv/QMatMul (ConvInteger, MatMulInteger) and
 * per-axis QuantizeLinear/DequantizeLinear as exact core ops.  0 or -1. */
int quant_core_forms(ir_graph *g, diag *d);

/* True for the quantised operators QConv ... QRequant. */
int quant_is_qop(ir_op op);

/* Reads the params of Q/DQ node n (inputs 1, 2 constant); axis normalised
 * against rank.  0 ok, 1 when not constant (not foldable), -1 with a located
 * error for bad parameters (zero or negative or non-finite scale, zero point
 * out of the type's range). */
int quant_params_of_node(ir_graph *g, const ir_node *n, int rank, quant_params *p, diag *d);
/* Checks a value's quant field: positive finite scales, zero points inside
 * the value's dtype range, n matches the channel dimension.  0 or -1. */
int quant_check_value(const ir_value *v, const char *who, diag *d);

/* Sets v->quant (copies into g's arena).  n == 1 is per tensor (also for a
 * 1-element per-channel vector: the same meaning).  -1 on OOM. */
int quant_set(ir_graph *g, ir_value *v, int n, int axis, int per_channel, const float *scale,
              const int32_t *zp, diag *d);
/* 1 when a and b (per tensor) are the same scale and zero point. */
int quant_same_tensor(const ir_quant *a, const ir_quant *b);

/* A new constant (arena data) of dtype t and shape dims, named from base. */
ir_value *quant_new_const(ir_graph *g, const char *base, ir_dtype t, int rank, const int64_t *dims,
                          diag *d);
/* A new node placed just before position `pos` of the node list (so the
 * list stays topologically ordered); its output is a new value named from
 * base with dtype t and the shape of `like`.  pos may be g->n_nodes (append). */
ir_node *quant_new_node(ir_graph *g, int pos, ir_op op, const char *src, ir_value *const *in, int n_in,
                        const char *base, ir_dtype t, const ir_value *like, diag *d);
/* Index of node n in g->nodes (asserts it is there). */
int quant_node_pos(const ir_graph *g, const ir_node *n);

/* The single node using v (and v no graph output), or NULL. */
ir_node *quant_single_user(const ir_graph *g, const ir_value *v);

/* The requantisation multiplier of real ratio r > 0 for the NPU's rule
 * `rne_shift(x * mult, shift)`: mult in [2^30, 2^31) and 0 <= shift <= 63
 * (mult shrinks below 2^30 only when shift would exceed 63).  r == 1 gives
 * (1, 0).  -1 when r >= 2^31 or not finite (cannot be represented). */
int quant_multiplier(double r, int32_t *mult, int *shift);
/* Like quant_multiplier with an upper bound on the shift (VPOOL: 47). */
int quant_multiplier_max(double r, int max_shift, int32_t *mult, int *shift);

/* Rounds half to even and saturates x to [lo, hi]. */
int64_t quant_round_sat(double x, int64_t lo, int64_t hi);

#endif

/* An int8 value standing for integer value v (u8 or i8) quantised with
 * (scale, zp) per tensor: v itself (its quant field set), the int8 source of
 * an earlier exact int8 -> uint8 shift, an int8 twin of a QuantizeLinear to
 * uint8, a shifted constant, or the output of a new QRequant (to i8) right
 * after v's producer.  Returns 0 and *out, 1 when v already carries
 * different quantisation (not foldable), -1 on error. */
int quant_input_i8(ir_graph *g, ir_value *v, float scale, int32_t zp, ir_value **out, diag *d);
/* A QRequant node of x to type `to` at position pos (mult 1, shift 0 until the
 * requant pass computes them from the quant fields). */
ir_node *quant_new_requant(ir_graph *g, int pos, ir_value *x, ir_dtype to, const char *src, diag *d);
/* Makes `res` (int8, quant (scale, zp - shift)) stand in for `old`: when old
 * is uint8 a QRequant (to u8) is placed after res's node; every use of old
 * then uses the result, which takes old's name. */
int quant_replace_output(ir_graph *g, ir_value *old, ir_value *res, diag *d);
/* A constant int8 copy of integer constant w (u8 or i8) with zero points
 * zp (n of them along axis): uint8 shifts by -128; when every w - zp fits
 * int8 the zero points are folded into the data (zp 0), else kept (exact
 * either way, docs/quantisation.md).  Quant field set with scales s. */
ir_value *quant_weights_i8(ir_graph *g, const ir_value *w, int n, int axis, int per_channel,
                           const float *s, const int32_t *zp, diag *d);
