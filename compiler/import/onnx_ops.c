/* onnx_ops: per-operator import.  Each ONNX node is checked (domain, the
 * operator's version at the model's opset, input count, attribute names and
 * values) and canonicalised into one IR node, so that passes and executors see
 * one form per operator whatever the opset:
 *   - defaults that do not depend on shapes are written out explicitly;
 *   - inputs that older/newer opsets took as attributes (Clip min/max,
 *     Squeeze/Unsqueeze axes, Pad pads/value) become attributes, and must be
 *     constants;
 *   - optional outputs (BatchNormalization running stats in inference,
 *     MaxPool indices) are dropped, and using one is an error; Dropout's
 *     mask in inference is a constant true;
 *   - Constant nodes become constant values, and so do ConstantOfShape and
 *     Range of constants;
 *   - a parameter input that is computed (a Slice's starts from a Shape
 *     chain) stays an input, listed in the string attribute `pending`, and
 *     shape inference turns it into the attribute once it has folded;
 *   - Split becomes one Slice per output, Upsample a Resize; a LayerNorm
 *     whose Mean/InvStdDev is used and a BatchNormalization in training mode
 *     become their ONNX functions, node by node. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "onnx_import.h"
#include "onnx_internal.h"
#include "passes.h"
#include "ref_exec.h"

typedef onnx_op_spec op_spec;

#define RUN_NPU "NPU kernel"
#define RUN_EPI "fused epilogue"
#define RUN_MOVE "moves int8 data (alias or copy)"
#define RUN_CORE "core float"
#define RUN_CORE_INT8 "core int8"
#define RUN_CONST "constant at import or shape inference"
#define MAC_LIMIT "constant weights; when it cannot be quantised it runs on the core in float"

#define CONV_ATTRS " auto_pad dilations group kernel_shape pads strides "
#define BCAST_ATTRS " axis broadcast consumed_inputs " /* version 1/6 legacy broadcast */
#define REDUCE_ATTRS " axes keepdims noop_with_empty_axes "
/* The ONNX operators tessel imports (onnx_ops.h: onnx_op_count/onnx_op_info).
 * since: every version of the operator up to opset ONNX_MAX_OPSET; until: the
 * last opset that defines it (0: all); attrs: accepted attribute names (of
 * every version; canonicalise() checks which version takes which); runs and
 * limits: docs/operators.md, generated from this table. */
static const onnx_op_spec specs[] = {
    {"Conv", IR_OP_CONV, {1, 11}, 0, 2, 3, CONV_ATTRS, RUN_NPU, MAC_LIMIT "; 1-D or 2-D windows"},
    {"Gemm", IR_OP_GEMM, {1, 6, 7, 9, 11, 13}, 0, 2, 3, " alpha beta broadcast transA transB ", RUN_NPU, MAC_LIMIT},
    {"MatMul", IR_OP_MATMUL, {1, 9, 13}, 0, 2, 2, " ", RUN_NPU, MAC_LIMIT},
    {"Relu", IR_OP_RELU, {1, 6, 13, 14}, 0, 1, 1, " consumed_inputs ", RUN_EPI, "fused after a NPU kernel, else core float"},
    {"Clip", IR_OP_CLIP, {1, 6, 11, 12, 13}, 0, 1, 3, " consumed_inputs min max ", RUN_EPI, "fused after a NPU kernel, else core float; bounds constant"},
    {"LeakyRelu", IR_OP_LEAKY_RELU, {1, 6, 16}, 0, 1, 1, " alpha consumed_inputs ", RUN_CORE_INT8, ""},
    {"BatchNormalization", IR_OP_BATCHNORM, {1, 6, 7, 9, 14, 15}, 0, 5, 5,
     " consumed_inputs epsilon is_test momentum spatial training_mode ", RUN_CORE, "folded into a preceding Conv; spatial=1; training_mode=1: the batch's own statistics, ONNX's function node by node (running mean and variance as outputs 1, 2)"},
    {"Add", IR_OP_ADD, {1, 6, 7, 13, 14}, 0, 2, 2, BCAST_ATTRS, RUN_NPU, "int8 residual add on the NPU, else core float"},
    {"Mul", IR_OP_MUL, {1, 6, 7, 13, 14}, 0, 2, 2, BCAST_ATTRS, RUN_CORE_INT8,
     "int8 when both operands are int8 tensors dequantised per tensor (a DequantizeLinear'd constant counts); "
     "a float constant operand stays float"},
    {"Sub", IR_OP_SUB, {1, 6, 7, 13, 14}, 0, 2, 2, BCAST_ATTRS, RUN_CORE, ""},
    {"Div", IR_OP_DIV, {1, 6, 7, 13, 14}, 0, 2, 2, BCAST_ATTRS, RUN_CORE, ""},
    {"MaxPool", IR_OP_MAXPOOL, {1, 8, 10, 11, 12}, 0, 1, 1,
     " auto_pad ceil_mode dilations kernel_shape pads storage_order strides ", RUN_NPU, "Indices output unsupported"},
    {"AveragePool", IR_OP_AVGPOOL, {1, 7, 10, 11, 19}, 0, 1, 1,
     " auto_pad ceil_mode count_include_pad dilations kernel_shape pads strides ", RUN_NPU, "dilations 1"},
    {"GlobalAveragePool", IR_OP_GLOBAL_AVGPOOL, {1}, 0, 1, 1, " ", RUN_NPU, ""},
    {"GlobalMaxPool", IR_OP_GLOBAL_MAXPOOL, {1}, 0, 1, 1, " ", RUN_NPU, ""},
    {"Flatten", IR_OP_FLATTEN, {1, 9, 11, 13, 21}, 0, 1, 1, " axis ", RUN_MOVE, ""},
    {"Reshape", IR_OP_RESHAPE, {1, 5, 13, 14, 19, 21}, 0, 1, 2, " allowzero consumed_inputs shape ", RUN_MOVE, "shape constant"},
    {"Transpose", IR_OP_TRANSPOSE, {1, 13, 21}, 0, 1, 1, " perm ", RUN_MOVE, ""},
    {"Squeeze", IR_OP_SQUEEZE, {1, 11, 13, 21}, 0, 1, 2, " axes ", RUN_MOVE, "axes constant"},
    {"Unsqueeze", IR_OP_UNSQUEEZE, {1, 11, 13, 21}, 0, 1, 2, " axes ", RUN_MOVE, "axes constant"},
    {"Concat", IR_OP_CONCAT, {1, 4, 11, 13}, 0, 1, IR_MAX_INPUTS, " axis ", RUN_MOVE, "up to 64 inputs"},
    {"Pad", IR_OP_PAD, {1, 2, 11, 13, 18, 19, 21}, 0, 1, 4, " mode paddings pads value ", RUN_CORE,
     "mode constant; pads, value and axes constant; no negative pads"},
    {"Identity", IR_OP_IDENTITY, {1, 13, 14, 16, 19, 21}, 0, 1, 1, " ", RUN_MOVE, "tensors only"},
    {"Dropout", IR_OP_DROPOUT, {1, 6, 7, 10, 12, 13}, 0, 1, 3, " consumed_inputs is_test ratio seed ", RUN_MOVE,
     "inference (identity); mask output unsupported"},
    {"Constant", IR_OP_COUNT, {1, 9, 11, 12, 13, 19, 21}, 0, 0, 0,
     " value value_float value_floats value_int value_ints ", RUN_CONST, "no sparse or string values"},
    {"ConstantOfShape", IR_OP_COUNT, {9, 20, 21}, 0, 1, 1, " value ", RUN_CONST, "shape constant after shape inference"},
    {"Range", IR_OP_COUNT, {11}, 0, 3, 3, " ", RUN_CONST, "start, limit, delta constant"},
    {"Cast", IR_OP_CAST, {1, 6, 9, 13, 19, 21}, 0, 1, 1, " saturate to ", RUN_CORE,
     "to f32, f64, i8, u8, i16, i32, i64, bool"},
    {"Shape", IR_OP_SHAPE, {1, 13, 15, 19, 21}, 0, 1, 1, " end start ", RUN_CONST, "input shape static"},
    {"Gather", IR_OP_GATHER, {1, 11, 13}, 0, 2, 2, " axis ", RUN_CORE, ""},
    {"Softmax", IR_OP_SOFTMAX, {1, 11, 13}, 0, 1, 1, " axis ", RUN_CORE_INT8,
     "int8: rows of at most 65,536; before opset 13 only over the last axis"},
    {"QuantizeLinear", IR_OP_QUANTIZE, {10, 13, 19, 21}, 0, 2, 3, " axis block_size output_dtype saturate ", RUN_NPU,
     "pairs folded into the NPU kernels; int8/uint8, no blocks"},
    {"DequantizeLinear", IR_OP_DEQUANTIZE, {10, 13, 19, 21}, 0, 2, 3, " axis block_size ", RUN_NPU,
     "pairs folded into the NPU kernels; int8/uint8, no blocks"},
    {"QLinearConv", IR_OP_QLINEAR_CONV, {10}, 0, 8, 9, CONV_ATTRS, RUN_NPU, "constant weights"},
    {"QLinearMatMul", IR_OP_QLINEAR_MATMUL, {10, 21}, 0, 8, 8, " ", RUN_NPU, "constant weights"},
    {"ConvInteger", IR_OP_CONV_INTEGER, {10}, 0, 2, 4, CONV_ATTRS, RUN_NPU, "constant weights"},
    {"MatMulInteger", IR_OP_MATMUL_INTEGER, {10}, 0, 2, 4, " ", RUN_NPU, "constant weights; per-row a_zero_point stays float"},
    /* unary elementwise */
    {"Sigmoid", IR_OP_SIGMOID, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Tanh", IR_OP_TANH, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"HardSigmoid", IR_OP_HARD_SIGMOID, {1, 6}, 0, 1, 1, " alpha beta consumed_inputs ", RUN_CORE_INT8, ""},
    {"HardSwish", IR_OP_HARD_SWISH, {14}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"Elu", IR_OP_ELU, {1, 6}, 0, 1, 1, " alpha consumed_inputs ", RUN_CORE_INT8, ""},
    {"Selu", IR_OP_SELU, {1, 6}, 0, 1, 1, " alpha consumed_inputs gamma ", RUN_CORE_INT8, ""},
    {"Celu", IR_OP_CELU, {12}, 0, 1, 1, " alpha ", RUN_CORE_INT8, ""},
    {"Softplus", IR_OP_SOFTPLUS, {1}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"Softsign", IR_OP_SOFTSIGN, {1}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"Erf", IR_OP_ERF, {9, 13}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"Gelu", IR_OP_GELU, {20}, 0, 1, 1, " approximate ", RUN_CORE_INT8, ""},
    {"Mish", IR_OP_MISH, {18}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"Exp", IR_OP_EXP, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Log", IR_OP_LOG, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Sqrt", IR_OP_SQRT, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Reciprocal", IR_OP_RECIPROCAL, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Neg", IR_OP_NEG, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Abs", IR_OP_ABS, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Floor", IR_OP_FLOOR, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Ceil", IR_OP_CEIL, {1, 6, 13}, 0, 1, 1, " consumed_inputs ", RUN_CORE_INT8, ""},
    {"Round", IR_OP_ROUND, {11}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"Sign", IR_OP_SIGN, {9, 13}, 0, 1, 1, " ", RUN_CORE_INT8, ""},
    {"ThresholdedRelu", IR_OP_THRESHOLDED_RELU, {10}, 0, 1, 1, " alpha ", RUN_CORE_INT8, ""},
    {"Not", IR_OP_NOT, {1}, 0, 1, 1, " ", RUN_CORE, "bool"},
    /* elementwise with broadcasting */
    {"PRelu", IR_OP_PRELU, {1, 6, 7, 9, 16}, 0, 2, 2, " consumed_inputs ", RUN_CORE, ""},
    {"Pow", IR_OP_POW, {1, 7, 12, 13, 15}, 0, 2, 2, " axis broadcast ", RUN_CORE, ""},
    {"Min", IR_OP_MIN, {1, 6, 8, 12, 13}, 0, 1, IR_MAX_INPUTS, " consumed_inputs ", RUN_CORE, "up to 64 inputs"},
    {"Max", IR_OP_MAX, {1, 6, 8, 12, 13}, 0, 1, IR_MAX_INPUTS, " consumed_inputs ", RUN_CORE, "up to 64 inputs"},
    {"Mean", IR_OP_MEAN, {1, 6, 8, 13}, 0, 1, IR_MAX_INPUTS, " consumed_inputs ", RUN_CORE, "up to 64 inputs"},
    {"Sum", IR_OP_SUM, {1, 6, 8, 13}, 0, 1, IR_MAX_INPUTS, " consumed_inputs ", RUN_CORE, "up to 64 inputs"},
    {"Where", IR_OP_WHERE, {9, 16}, 0, 3, 3, " ", RUN_CORE, ""},
    {"Equal", IR_OP_EQUAL, {1, 7, 11, 13, 19}, 0, 2, 2, " axis broadcast ", RUN_CORE, "no strings"},
    {"Less", IR_OP_LESS, {1, 7, 9, 13}, 0, 2, 2, " axis broadcast ", RUN_CORE, ""},
    {"Greater", IR_OP_GREATER, {1, 7, 9, 13}, 0, 2, 2, " axis broadcast ", RUN_CORE, ""},
    {"LessOrEqual", IR_OP_LESS_EQUAL, {12, 16}, 0, 2, 2, " ", RUN_CORE, ""},
    {"GreaterOrEqual", IR_OP_GREATER_EQUAL, {12, 16}, 0, 2, 2, " ", RUN_CORE, ""},
    {"And", IR_OP_AND, {1, 7}, 0, 2, 2, " axis broadcast ", RUN_CORE, "bool"},
    {"Or", IR_OP_OR, {1, 7}, 0, 2, 2, " axis broadcast ", RUN_CORE, "bool"},
    {"Xor", IR_OP_XOR, {1, 7}, 0, 2, 2, " axis broadcast ", RUN_CORE, "bool"},
    /* reductions */
    {"ReduceMean", IR_OP_REDUCE_MEAN, {1, 11, 13, 18}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceSum", IR_OP_REDUCE_SUM, {1, 11, 13}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceMax", IR_OP_REDUCE_MAX, {1, 11, 12, 13, 18, 20}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceMin", IR_OP_REDUCE_MIN, {1, 11, 12, 13, 18, 20}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceProd", IR_OP_REDUCE_PROD, {1, 11, 13, 18}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceL1", IR_OP_REDUCE_L1, {1, 11, 13, 18}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceL2", IR_OP_REDUCE_L2, {1, 11, 13, 18}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceLogSumExp", IR_OP_REDUCE_LOG_SUM_EXP, {1, 11, 13, 18}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ReduceSumSquare", IR_OP_REDUCE_SUM_SQUARE, {1, 11, 13, 18}, 0, 1, 2, REDUCE_ATTRS, RUN_CORE, "axes constant"},
    {"ArgMax", IR_OP_ARGMAX, {1, 11, 12, 13}, 0, 1, 1, " axis keepdims select_last_index ", RUN_CORE, ""},
    {"ArgMin", IR_OP_ARGMIN, {1, 11, 12, 13}, 0, 1, 1, " axis keepdims select_last_index ", RUN_CORE, ""},
    /* data movement */
    {"Slice", IR_OP_SLICE, {1, 10, 11, 13}, 0, 1, 5, " axes ends starts ", RUN_CORE,
     "starts, ends, axes, steps constant after shape inference"},
    {"Split", IR_OP_SLICE, {1, 2, 11, 13, 18}, 0, 1, 2, " axis num_outputs split ", RUN_CORE,
     "one Slice per output; split constant"},
    {"Expand", IR_OP_EXPAND, {8, 13}, 0, 2, 2, " ", RUN_CORE, "shape constant after shape inference"},
    {"Tile", IR_OP_TILE, {1, 6, 13}, 0, 2, 3, " ", RUN_CORE, "repeats constant after shape inference"},
    {"Resize", IR_OP_RESIZE, {10, 11, 13, 18, 19}, 0, 1, 4,
     " antialias axes coordinate_transformation_mode cubic_coeff_a exclude_outside extrapolation_value "
     "keep_aspect_ratio_policy mode nearest_mode ", RUN_CORE,
     "scales or sizes constant after shape inference (tf_crop_and_resize: roi too, no axes); no antialias"},
    {"Upsample", IR_OP_RESIZE, {7, 9}, 9, 1, 2, " mode scales ", RUN_CORE, "imported as Resize; scales constant"},
    {"DepthToSpace", IR_OP_DEPTH_TO_SPACE, {1, 11, 13}, 0, 1, 1, " blocksize mode ", RUN_CORE, ""},
    {"SpaceToDepth", IR_OP_SPACE_TO_DEPTH, {1, 13}, 0, 1, 1, " blocksize ", RUN_CORE, ""},
    /* neural-network operators */
    {"ConvTranspose", IR_OP_CONV_TRANSPOSE, {1, 11}, 0, 2, 3,
     " auto_pad dilations group kernel_shape output_padding output_shape pads strides ", RUN_CORE, ""},
    {"InstanceNormalization", IR_OP_INSTANCE_NORM, {1, 6}, 0, 3, 3, " consumed_inputs epsilon ", RUN_CORE, ""},
    {"LayerNormalization", IR_OP_LAYER_NORM, {17}, 0, 2, 3, " axis epsilon stash_type ", RUN_CORE_INT8,
     "only output 0 (Mean, InvStdDev unsupported); int8: constant scale and bias of the normalised shape"},
    {"LogSoftmax", IR_OP_LOG_SOFTMAX, {1, 11, 13}, 0, 1, 1, " axis ", RUN_CORE, ""},
};

int onnx_op_count(void) { return (int)(sizeof specs / sizeof specs[0]); }
const onnx_op_spec *onnx_op_info(int i) { return i >= 0 && i < onnx_op_count() ? &specs[i] : NULL; }

enum { MAX_PARAMS = 64 }; /* most values a parameter input (axes, pads, ...) may hold */

/* Context of the node being imported, for messages. */
typedef struct node_ctx {
  onnx_ctx *c;
  const Onnx__NodeProto *np;
  const op_spec *s;
  const char *src; /* node name or "#index" */
  int version;     /* operator version in effect */
  ir_value *raw[IR_MAX_INPUTS]; /* the ONNX inputs, NULL where left out ("") */
  int n_raw;
  char pending[128]; /* names of parameter inputs left on the node for shape inference */
  ir_value *pend_in[4];
  int n_pend;
} node_ctx;

static int node_err(node_ctx *nc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static int node_err(node_ctx *nc, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return diag_set(nc->c->d, "%s: node '%s' (%s): %s", nc->c->label, nc->src,
                  nc->np->op_type, msg);
}

/* IR dtype for an ONNX Cast `to` value. */
static int cast_target(node_ctx *nc, int64_t to, ir_dtype *out) {
  if (onnx_dtype_map(to, out) == 0) return 0;
  return node_err(nc, "cast to ONNX data type %lld is not supported", (long long)to);
}

/* Copies the ONNX attributes into IR attributes, rejecting unknown names.
 * consumed_inputs (opset-1 operators, an in-place hint) is dropped. */
static int copy_attrs(node_ctx *nc, const op_spec *s, ir_node *n) {
  ir_graph *g = nc->c->g;
  diag *d = nc->c->d;
  for (size_t i = 0; i < nc->np->n_attribute; i++) {
    const Onnx__AttributeProto *a = nc->np->attribute[i];
    const char *name = a->name ? a->name : "";
    char key[80];
    snprintf(key, sizeof key, " %.70s ", name);
    if (!name[0] || !strstr(s->attrs, key)) return node_err(nc, "unsupported attribute '%s'", name);
    if (a->ref_attr_name && a->ref_attr_name[0])
      return node_err(nc, "attribute '%s' refers to a function attribute", name);
    if (!strcmp(name, "consumed_inputs")) continue;
    int r;
    switch (a->has_type ? a->type : 0) {
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT: r = ir_attr_set_int(g, n, name, a->i, d); break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
      /* no ONNX attribute means NaN (alpha, epsilon, min/max): it only made every output NaN */
      if (isnan(a->f)) return node_err(nc, "attribute '%s' is NaN", name);
      r = ir_attr_set_float(g, n, name, a->f, d);
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
      if (a->n_ints > MAX_PARAMS) return node_err(nc, "attribute '%s' has too many values", name);
      r = ir_attr_set_ints(g, n, name, a->ints, (int)a->n_ints, d);
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
      if (a->n_floats > MAX_PARAMS) return node_err(nc, "attribute '%s' has too many values", name);
      for (size_t k = 0; k < a->n_floats; k++)
        if (isnan(a->floats[k])) return node_err(nc, "attribute '%s' holds NaN", name);
      r = ir_attr_set_floats(g, n, name, a->floats, (int)a->n_floats, d);
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING: {
      char buf[64];
      size_t len = a->s.len < sizeof buf - 1 ? a->s.len : sizeof buf - 1;
      if (len) memcpy(buf, a->s.data, len);
      buf[len] = '\0';
      if (strlen(buf) != len) return node_err(nc, "attribute '%s' holds a NUL byte", name);
      r = ir_attr_set_string(g, n, name, buf, d);
      break;
    }
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR:
      if (!strcmp(name, "value")) continue; /* ConstantOfShape: read by import_constant_of_shape */
      return node_err(nc, "attribute '%s' has an unsupported type", name);
    default: return node_err(nc, "attribute '%s' has an unsupported type", name);
    }
    if (r) return -1;
  }
  return 0;
}

/* The attribute must be an int (or absent); fills *out with dflt when absent. */
static int want_int(node_ctx *nc, ir_node *n, const char *name, int64_t dflt, int64_t *out) {
  const ir_attr *a = ir_attr_get(n, name);
  if (a && a->kind != IR_ATTR_INT) return node_err(nc, "attribute '%s' must be an int", name);
  *out = a ? a->i : dflt;
  return ir_attr_set_int(nc->c->g, n, name, *out, nc->c->d);
}

/* A boolean attribute (ceil_mode, transB, ...): an int that is 0 or 1, or
 * absent (then dflt). ONNX stores booleans as ints; 100000 or -2 is not a
 * spelling of true but a broken model. */
static int want_bool(node_ctx *nc, ir_node *n, const char *name, int64_t dflt) {
  int64_t x;
  if (want_int(nc, n, name, dflt, &x)) return -1;
  if (x != 0 && x != 1) return node_err(nc, "attribute '%s' is %lld; it must be 0 or 1", name, (long long)x);
  return 0;
}

static int want_float(node_ctx *nc, ir_node *n, const char *name, float dflt) {
  const ir_attr *a = ir_attr_get(n, name);
  if (a && a->kind != IR_ATTR_FLOAT) return node_err(nc, "attribute '%s' must be a float", name);
  return ir_attr_set_float(nc->c->g, n, name, a ? a->f : dflt, nc->c->d);
}

static int want_ints_kind(node_ctx *nc, ir_node *n, const char *name) {
  const ir_attr *a = ir_attr_get(n, name);
  if (a && a->kind != IR_ATTR_INTS) return node_err(nc, "attribute '%s' must be a list of ints", name);
  return 0;
}

/* A string attribute: absent gives dflt (written out when dflt is not NULL);
 * the value must be one of the space-separated `allowed`. */
static int want_string(node_ctx *nc, ir_node *n, const char *name, const char *dflt, const char *allowed) {
  const ir_attr *a = ir_attr_get(n, name);
  if (a && a->kind != IR_ATTR_STRING) return node_err(nc, "attribute '%s' must be a string", name);
  if (!a) return dflt ? ir_attr_set_string(nc->c->g, n, name, dflt, nc->c->d) : 0;
  char key[80];
  snprintf(key, sizeof key, " %.70s ", a->s);
  if (!strstr(allowed, key)) return node_err(nc, "%s='%s' is not supported", name, a->s);
  return 0;
}

static int check_string(node_ctx *nc, ir_node *n, const char *name, const char *allowed) {
  return want_string(nc, n, name, NULL, allowed);
}

/* A float Cast of a constant (PyTorch exports with do_constant_folding=False
 * give Clip bounds as Cast(Constant)): the constant it reads, else NULL. */
static ir_value *float_cast_of_const(const ir_value *v) {
  if (v->kind != IR_VALUE_NODE || !v->def || v->def->op != IR_OP_CAST || v->def->n_in != 1) return NULL;
  const ir_attr *to = ir_attr_get(v->def, "to");
  if (!to || to->kind != IR_ATTR_STRING) return NULL;
  if (strcmp(to->s, ir_dtype_name(IR_F32)) && strcmp(to->s, ir_dtype_name(IR_F64))) return NULL;
  return v->def->in[0]->kind == IR_VALUE_CONST ? v->def->in[0] : NULL;
}

/* "must be a constant" for a value v that is not one, naming its producer. */
static int not_const(node_ctx *nc, const ir_value *v, const char *what) {
  if (v->kind == IR_VALUE_NODE && v->def)
    return node_err(nc, "%s must be a constant; it is computed by node '%s' (%s) (fold constants when exporting, "
                    "e.g. torch.onnx.export(..., do_constant_folding=True))",
                    what, v->def->src, ir_op_name(v->def->op));
  return node_err(nc, "%s must be a constant (an initializer, a Constant node or a --bind input); "
                  "'%s' is a graph input", what, v->name);
}

/* The constant scalar v as the float attribute attr. */
static int const_scalar(node_ctx *nc, ir_node *n, ir_value *v, const char *what, const char *attr) {
  if (float_cast_of_const(v)) v = float_cast_of_const(v);
  if (v->kind != IR_VALUE_CONST) return not_const(nc, v, what);
  if (ir_value_numel(v) != 1) return node_err(nc, "%s must hold one element", what);
  return ir_attr_set_float(nc->c->g, n, attr, (float)ir_elem_f64(v->dtype, v->data, 0), nc->c->d);
}

/* Parameter input k (axes, pads, starts, scales, ...) as the attribute attr:
 * ints from an integer tensor, floats from a float one. Absent: 0, nothing
 * set. Not a constant: with `may_wait`, the input stays on the node (listed
 * in `pending`) for shape inference; else an error. */
static int param(node_ctx *nc, ir_node *n, int k, const char *attr, int want_float_vals, int may_wait) {
  ir_value *v = k < nc->n_raw ? nc->raw[k] : NULL;
  if (!v) return 0;
  if (v->kind != IR_VALUE_CONST) { /* a node output's type is known after shape inference */
    if (!may_wait || nc->n_pend == 4) return not_const(nc, v, attr);
    size_t len = strlen(nc->pending);
    snprintf(nc->pending + len, sizeof nc->pending - len, "%s%s", len ? " " : "", attr);
    nc->pend_in[nc->n_pend++] = v;
    return 0;
  }
  int is_float = ir_dtype_is_float(v->dtype);
  if (want_float_vals ? !is_float : (is_float || v->dtype == IR_BOOL))
    return node_err(nc, "%s '%s' must be a%s tensor", attr, v->name, want_float_vals ? " float" : "n integer");
  if (v->rank > 1) return node_err(nc, "%s '%s' must be 1-D", attr, v->name);
  int64_t cnt = ir_value_numel(v);
  if (cnt > MAX_PARAMS) return node_err(nc, "%s has too many values", attr);
  if (want_float_vals) {
    float f[MAX_PARAMS];
    for (int64_t i = 0; i < cnt; i++) {
      f[i] = (float)ir_elem_f64(v->dtype, v->data, i);
      if (isnan(f[i])) return node_err(nc, "%s holds NaN", attr);
    }
    return ir_attr_set_floats(nc->c->g, n, attr, f, (int)cnt, nc->c->d);
  }
  int64_t x[MAX_PARAMS];
  for (int64_t i = 0; i < cnt; i++) x[i] = ir_elem_i64(v->dtype, v->data, i);
  return ir_attr_set_ints(nc->c->g, n, attr, x, (int)cnt, nc->c->d);
}

/* Legacy broadcasting of the binary operators before opset 7: broadcast=1
 * with an axis aligns B at that axis of A, which numpy broadcasting matches
 * only when B's dims are a suffix of A's. */
static int legacy_broadcast(node_ctx *nc, ir_node *n) {
  const ir_attr *ax = ir_attr_get(n, "axis");
  int64_t b = ir_attr_int(n, "broadcast", 0);
  ir_attr_remove(n, "broadcast");
  ir_attr_remove(n, "axis");
  if (!ax || !b) return 0;
  const ir_value *A = n->in[0], *B = n->in[1];
  if (A->rank >= 0 && B->rank >= 0 && ax->kind == IR_ATTR_INT &&
      (ax->i == A->rank - B->rank || ax->i == -B->rank))
    return 0;
  return node_err(nc, "broadcast=1 with axis=%lld (aligning B inside A) is not supported",
                  ax->kind == IR_ATTR_INT ? (long long)ax->i : 0LL);
}

static int is_reduce(ir_op op) {
  return op == IR_OP_REDUCE_MEAN || op == IR_OP_REDUCE_SUM || op == IR_OP_REDUCE_MAX ||
         op == IR_OP_REDUCE_MIN || op == IR_OP_REDUCE_PROD || op == IR_OP_REDUCE_L1 ||
         op == IR_OP_REDUCE_L2 || op == IR_OP_REDUCE_LOG_SUM_EXP || op == IR_OP_REDUCE_SUM_SQUARE;
}

/* Resize (and Upsample, Resize-10): modes, defaults, scales or sizes. */
static int canon_resize(node_ctx *nc, ir_node *n) {
  ir_graph *g = nc->c->g;
  diag *d = nc->c->d;
  int v = nc->version, upsample = !strcmp(nc->s->name, "Upsample");
  const char *modes = v >= 11 ? " nearest linear cubic " : " nearest linear bilinear ";
  if (want_string(nc, n, "mode", "nearest", modes)) return -1;
  if (!strcmp(ir_attr_get(n, "mode")->s, "bilinear") && ir_attr_set_string(g, n, "mode", "linear", d)) return -1;
  if (upsample || v < 11) {
    /* Upsample and Resize-10: asymmetric coordinates, nearest rounds down */
    if (ir_attr_set_string(g, n, "coordinate_transformation_mode", "asymmetric", d) ||
        ir_attr_set_string(g, n, "nearest_mode", "floor", d) ||
        ir_attr_set_float(g, n, "cubic_coeff_a", -0.75f, d) || ir_attr_set_int(g, n, "exclude_outside", 0, d))
      return -1;
    if (upsample && v < 9) {
      const ir_attr *a = ir_attr_get(n, "scales");
      if (!a || a->kind != IR_ATTR_FLOATS) return node_err(nc, "attribute 'scales' (floats) is required");
      return 0;
    }
    if (ir_attr_get(n, "scales")) return node_err(nc, "takes scales as an input since opset 9");
    if (nc->n_raw < 2 || !nc->raw[1]) return node_err(nc, "the scales input is required");
    return param(nc, n, 1, "scales", 1, 1);
  }
  const char *ctm = v >= 19 ? " half_pixel half_pixel_symmetric pytorch_half_pixel align_corners asymmetric "
                              "tf_half_pixel_for_nn tf_crop_and_resize "
                            : " half_pixel pytorch_half_pixel align_corners asymmetric tf_half_pixel_for_nn "
                              "tf_crop_and_resize ";
  if (want_string(nc, n, "coordinate_transformation_mode", "half_pixel", ctm) ||
      want_string(nc, n, "nearest_mode", "round_prefer_floor", " round_prefer_floor round_prefer_ceil floor ceil ") ||
      want_float(nc, n, "cubic_coeff_a", -0.75f) || want_bool(nc, n, "exclude_outside", 0))
    return -1;
  /* tf_crop_and_resize reads the roi input (starts, then ends, one per
   * dimension; a constant) and extrapolation_value; the others ignore both */
  int crop = !strcmp(ir_attr_get(n, "coordinate_transformation_mode")->s, "tf_crop_and_resize");
  if (!crop) ir_attr_remove(n, "extrapolation_value");
  else if (want_float(nc, n, "extrapolation_value", 0.0f) || param(nc, n, 1, "roi", 1, 1))
    return -1;
  else if (!(nc->n_raw > 1 && nc->raw[1]))
    return node_err(nc, "coordinate_transformation_mode='tf_crop_and_resize' needs the roi input");
  if (crop && ir_attr_get(n, "axes")) return node_err(nc, "axes with tf_crop_and_resize is not supported");
  if (v >= 18) {
    int64_t aa;
    if (want_int(nc, n, "antialias", 0, &aa)) return -1;
    if (aa) return node_err(nc, "antialias=%lld is not supported", (long long)aa);
    ir_attr_remove(n, "antialias");
    if (want_string(nc, n, "keep_aspect_ratio_policy", NULL, " stretch not_larger not_smaller ") ||
        want_ints_kind(nc, n, "axes"))
      return -1;
  } else if (ir_attr_get(n, "antialias") || ir_attr_get(n, "axes") || ir_attr_get(n, "keep_aspect_ratio_policy")) {
    return node_err(nc, "antialias, axes and keep_aspect_ratio_policy are attributes of Resize-18 and later");
  }
  /* inputs: X, roi (tf_crop_and_resize only), scales, sizes; an empty scales tensor means "use sizes" */
  ir_value *sc = nc->n_raw > 2 ? nc->raw[2] : NULL, *sz = nc->n_raw > 3 ? nc->raw[3] : NULL;
  if (sc && sc->kind == IR_VALUE_CONST && ir_value_numel(sc) == 0) sc = nc->raw[2] = NULL;
  if (sz && sz->kind == IR_VALUE_CONST && ir_value_numel(sz) == 0) sz = nc->raw[3] = NULL;
  if (!sc == !sz) return node_err(nc, "exactly one of scales and sizes must be given");
  return sc ? param(nc, n, 2, "scales", 1, 1) : param(nc, n, 3, "sizes", 0, 1);
}

/* ConvTranspose: attribute kinds and defaults; shape inference resolves
 * output_shape and auto_pad into explicit pads. */
static int canon_conv_transpose(node_ctx *nc, ir_node *n) {
  int64_t x;
  if (check_string(nc, n, "auto_pad", " NOTSET SAME_UPPER SAME_LOWER VALID ") ||
      want_int(nc, n, "group", 1, &x) || want_ints_kind(nc, n, "kernel_shape") ||
      want_ints_kind(nc, n, "pads") || want_ints_kind(nc, n, "strides") ||
      want_ints_kind(nc, n, "dilations") || want_ints_kind(nc, n, "output_padding") ||
      want_ints_kind(nc, n, "output_shape"))
    return -1;
  if (x < 1) return node_err(nc, "group=%lld must be positive", (long long)x);
  return 0;
}

/* Operator-specific checks and canonical form; n has the node's data inputs
 * and the copied attributes, nc->raw every ONNX input. */
static int canonicalise(node_ctx *nc, ir_node *n) {
  ir_graph *g = nc->c->g;
  diag *d = nc->c->d;
  int64_t x;
  int v = nc->version;
  switch (n->op) {
  case IR_OP_PRELU: { /* before opset 7 a slope of C values is per channel (axis 1), not broadcast */
    ir_value *x0 = n->in[0], *sl = n->in[1];
    if (v >= 7 || sl->kind != IR_VALUE_CONST || sl->rank != 1 || x0->rank < 3 || sl->dims[0] != x0->dims[1] ||
        sl->dims[0] == 1)
      return 0;
    ir_value *c = ir_value_new(g, ir_unique_name(g, sl->name), IR_VALUE_CONST, d);
    if (!c) return -1;
    c->dtype = sl->dtype, c->rank = x0->rank - 1, c->dims[0] = sl->dims[0];
    for (int i = 1; i < c->rank; i++) c->dims[i] = 1;
    if (ir_value_alloc_data(g, c, d)) return -1;
    memcpy(c->data, sl->data, ir_dtype_size(sl->dtype) * (size_t)sl->dims[0]);
    ir_node_set_input(g, n, 1, c);
    return 0;
  }
  case IR_OP_CONV:
  case IR_OP_QLINEAR_CONV:
  case IR_OP_CONV_INTEGER:
    if (check_string(nc, n, "auto_pad", " NOTSET SAME_UPPER SAME_LOWER VALID ") ||
        want_int(nc, n, "group", 1, &x) || want_ints_kind(nc, n, "kernel_shape") ||
        want_ints_kind(nc, n, "pads") || want_ints_kind(nc, n, "strides") ||
        want_ints_kind(nc, n, "dilations"))
      return -1;
    if (x < 1) return node_err(nc, "group=%lld must be positive", (long long)x);
    return 0;
  case IR_OP_CONV_TRANSPOSE: return canon_conv_transpose(nc, n);
  case IR_OP_MAXPOOL:
  case IR_OP_AVGPOOL:
    if (!ir_attr_get(n, "kernel_shape")) return node_err(nc, "attribute 'kernel_shape' is required");
    if (want_bool(nc, n, "storage_order", 0)) return -1;
    ir_attr_remove(n, "storage_order"); /* only shapes the dropped Indices output */
    if (n->op == IR_OP_AVGPOOL && ir_attr_get(n, "dilations")) {
      int cnt;
      const int64_t *dl = ir_attr_ints(n, "dilations", &cnt);
      for (int i = 0; dl && i < cnt; i++)
        if (dl[i] != 1) return node_err(nc, "dilations other than 1 are not supported");
      ir_attr_remove(n, "dilations");
    }
    if (check_string(nc, n, "auto_pad", " NOTSET SAME_UPPER SAME_LOWER VALID ") ||
        want_bool(nc, n, "ceil_mode", 0) || want_ints_kind(nc, n, "kernel_shape") ||
        want_ints_kind(nc, n, "pads") || want_ints_kind(nc, n, "strides") ||
        want_ints_kind(nc, n, "dilations"))
      return -1;
    if (n->op == IR_OP_AVGPOOL && want_bool(nc, n, "count_include_pad", 0)) return -1;
    return 0;
  case IR_OP_GEMM:
    ir_attr_remove(n, "broadcast"); /* Gemm-1/6: numpy broadcasting of C covers it */
    if (want_float(nc, n, "alpha", 1.0f) || want_float(nc, n, "beta", 1.0f) ||
        want_bool(nc, n, "transA", 0) || want_bool(nc, n, "transB", 0))
      return -1;
    return 0;
  case IR_OP_CLIP:
    if (v < 11) {
      if (nc->n_raw != 1) return node_err(nc, "Clip-%d takes one input", v);
      if (want_float(nc, n, "min", -INFINITY) || want_float(nc, n, "max", INFINITY)) return -1;
      return 0;
    }
    if (ir_attr_get(n, "min") || ir_attr_get(n, "max"))
      return node_err(nc, "Clip-%d takes min/max as inputs, not attributes", v);
    if (ir_attr_set_float(g, n, "min", -INFINITY, d) || ir_attr_set_float(g, n, "max", INFINITY, d))
      return -1;
    /* Clip-11 may leave min out and give max */
    for (int k = 1; k < 3 && k < nc->n_raw; k++)
      if (nc->raw[k] && const_scalar(nc, n, nc->raw[k], k == 2 ? "max" : "min", k == 2 ? "max" : "min")) return -1;
    return 0;
  case IR_OP_LEAKY_RELU: return want_float(nc, n, "alpha", 0.01f);
  case IR_OP_HARD_SIGMOID: return want_float(nc, n, "alpha", 0.2f) || want_float(nc, n, "beta", 0.5f);
  case IR_OP_ELU: case IR_OP_CELU: case IR_OP_THRESHOLDED_RELU: return want_float(nc, n, "alpha", 1.0f);
  case IR_OP_SELU:
    return want_float(nc, n, "alpha", 1.67326319217681884765625f) || want_float(nc, n, "gamma", 1.05070102214813232421875f);
  case IR_OP_GELU: {
    if (want_string(nc, n, "approximate", "none", " none tanh ")) return -1;
    int tanh_form = !strcmp(ir_attr_get(n, "approximate")->s, "tanh");
    ir_attr_remove(n, "approximate");
    return ir_attr_set_int(g, n, "approximate", tanh_form, d);
  }
  case IR_OP_BATCHNORM:
    ir_attr_remove(n, "is_test"); /* versions 1 and 6: tessel only infers */
    if (want_bool(nc, n, "spatial", 1) || want_bool(nc, n, "training_mode", 0)) return -1;
    if (ir_attr_int(n, "spatial", 1) != 1) return node_err(nc, "spatial=0 is not supported");
    if (ir_attr_int(n, "training_mode", 0) != 0) return node_err(nc, "training_mode=1 is not supported");
    ir_attr_remove(n, "spatial");
    ir_attr_remove(n, "training_mode");
    ir_attr_remove(n, "momentum"); /* only matters for training */
    return want_float(nc, n, "epsilon", 1e-5f);
  case IR_OP_INSTANCE_NORM: return want_float(nc, n, "epsilon", 1e-5f);
  case IR_OP_LAYER_NORM:
    ir_attr_remove(n, "stash_type"); /* the precision of Mean/InvStdDev, outputs tessel drops */
    return want_int(nc, n, "axis", -1, &x) || want_float(nc, n, "epsilon", 1e-5f);
  case IR_OP_ADD: case IR_OP_MUL: case IR_OP_SUB: case IR_OP_DIV: case IR_OP_POW:
  case IR_OP_EQUAL: case IR_OP_LESS: case IR_OP_GREATER: case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR:
    return legacy_broadcast(nc, n);
  case IR_OP_FLATTEN: return want_int(nc, n, "axis", 1, &x);
  case IR_OP_RESHAPE:
    if (v < 5) { /* Reshape-1: the shape is an attribute; the IR takes it as input 1 */
      int cnt;
      const int64_t *sh = ir_attr_ints(n, "shape", &cnt);
      if (!sh) return node_err(nc, "attribute 'shape' (ints) is required");
      ir_value *c = ir_value_new(g, ir_unique_name(g, "reshape.shape"), IR_VALUE_CONST, d);
      if (!c) return -1;
      c->dtype = IR_I64, c->rank = 1, c->dims[0] = cnt;
      if (ir_value_alloc_data(g, c, d)) return -1;
      if (cnt) memcpy(c->data, sh, sizeof(int64_t) * (size_t)cnt);
      ir_attr_remove(n, "shape");
      ir_value *in[2] = {n->in[0], c};
      ir_node_set_inputs(g, n, in, 2);
    } else if (ir_attr_get(n, "shape") || nc->n_raw != 2) {
      return node_err(nc, "Reshape-%d takes the shape as its second input", v);
    }
    return want_bool(nc, n, "allowzero", 0);
  case IR_OP_TRANSPOSE: return want_ints_kind(nc, n, "perm");
  case IR_OP_SQUEEZE:
  case IR_OP_UNSQUEEZE:
    if (v >= 13) {
      if (ir_attr_get(n, "axes")) return node_err(nc, "takes axes as an input since opset 13");
      if (param(nc, n, 1, "axes", 0, 0)) return -1;
    } else if (nc->n_raw != 1) {
      return node_err(nc, "takes one input before opset 13");
    }
    if (want_ints_kind(nc, n, "axes")) return -1;
    if (n->op == IR_OP_UNSQUEEZE && !ir_attr_get(n, "axes")) return node_err(nc, "axes are required");
    return 0;
  case IR_OP_CONCAT:
    if (!ir_attr_get(n, "axis")) return node_err(nc, "attribute 'axis' is required");
    return want_int(nc, n, "axis", 0, &x);
  case IR_OP_PAD:
    if (v < 2 && ir_attr_get(n, "paddings")) { /* Pad-1 calls pads "paddings" */
      int cnt;
      const int64_t *p = ir_attr_ints(n, "paddings", &cnt);
      if (!p) return node_err(nc, "attribute 'paddings' must be a list of ints");
      if (ir_attr_set_ints(g, n, "pads", p, cnt, d)) return -1;
      ir_attr_remove(n, "paddings");
    } else if (ir_attr_get(n, "paddings")) {
      return node_err(nc, "unsupported attribute 'paddings'");
    }
    /* constant padding is the default and stays implicit; reflect, edge and
     * wrap (opset 19) keep the attribute (the core pads in every mode) */
    if (check_string(nc, n, "mode", v >= 19 ? " constant reflect edge wrap " : " constant reflect edge ")) return -1;
    if (ir_attr_get(n, "mode") && !strcmp(ir_attr_get(n, "mode")->s, "constant")) ir_attr_remove(n, "mode");
    if (v >= 11) {
      if (ir_attr_get(n, "pads") || ir_attr_get(n, "value"))
        return node_err(nc, "takes pads and value as inputs since opset 11");
      if (nc->n_raw < 2 || !nc->raw[1]) return node_err(nc, "the pads input is required");
      if (nc->n_raw > 3 && v < 18) return node_err(nc, "the axes input needs opset 18");
      if (param(nc, n, 1, "pads", 0, 1) || param(nc, n, 3, "axes", 0, 0)) return -1;
      if (ir_attr_set_float(g, n, "value", 0.0f, d)) return -1;
      if (nc->n_raw > 2 && nc->raw[2] && const_scalar(nc, n, nc->raw[2], "constant_value", "value")) return -1;
      return 0;
    }
    if (nc->n_raw != 1) return node_err(nc, "takes one input before opset 11");
    if (!ir_attr_get(n, "pads")) return node_err(nc, "attribute 'pads' is required");
    return want_ints_kind(nc, n, "pads") || want_float(nc, n, "value", 0.0f);
  case IR_OP_DROPOUT:
    /* Inference: Dropout is the identity; ratio/seed inputs unused. */
    if (nc->n_raw > 2 && nc->raw[2]) { /* training with ratio 0 is the identity too */
      const ir_value *t = nc->raw[2], *r = nc->n_raw > 1 ? nc->raw[1] : NULL;
      if (t->kind != IR_VALUE_CONST) return not_const(nc, t, "training_mode");
      int training = ir_value_numel(t) != 1 || ir_elem_f64(t->dtype, t->data, 0) != 0;
      if (training && r && r->kind != IR_VALUE_CONST) return not_const(nc, r, "ratio");
      if (training && (!r || ir_value_numel(r) != 1 || ir_elem_f64(r->dtype, r->data, 0) != 0))
        return node_err(nc, "training_mode=true with a ratio other than 0 is not supported (tessel only infers)");
    }
    n->attrs = NULL;
    return 0;
  case IR_OP_CAST: {
    const ir_attr *a = ir_attr_get(n, "to");
    if (!a || a->kind != IR_ATTR_INT) return node_err(nc, "attribute 'to' (an int) is required");
    ir_dtype t = IR_F32;
    if (cast_target(nc, a->i, &t)) return -1;
    if (want_bool(nc, n, "saturate", 1)) return -1; /* Cast-19: only float8 targets saturate */
    ir_attr_remove(n, "saturate");
    ir_attr_remove(n, "to");
    return ir_attr_set_string(g, n, "to", ir_dtype_name(t), d);
  }
  case IR_OP_SHAPE: return want_int(nc, n, "start", 0, &x);
  case IR_OP_GATHER: return want_int(nc, n, "axis", 0, &x);
  case IR_OP_SOFTMAX:
  case IR_OP_LOG_SOFTMAX:
    /* Before opset 13, Softmax flattens to 2-D at axis (default 1); since
     * 13 it works along one axis (default -1). */
    if (v < 13) {
      if (want_int(nc, n, "axis", 1, &x)) return -1;
      return ir_attr_set_int(g, n, "coerce2d", 1, d);
    }
    return want_int(nc, n, "axis", -1, &x);
  case IR_OP_QUANTIZE:
  case IR_OP_DEQUANTIZE: {
    if (want_int(nc, n, "block_size", 0, &x)) return -1;
    if (x) return node_err(nc, "block_size=%lld (blocked quantisation) is not supported", (long long)x);
    ir_attr_remove(n, "block_size");
    ir_attr_remove(n, "saturate"); /* float8 only */
    const ir_attr *od = ir_attr_get(n, "output_dtype");
    if (od) {
      ir_dtype t;
      if (od->kind != IR_ATTR_INT || (od->i && (onnx_dtype_map(od->i, &t) || (t != IR_I8 && t != IR_U8))))
        return node_err(nc, "output_dtype must be int8 or uint8");
      if (od->i && nc->n_raw < 3) return node_err(nc, "output_dtype without a zero point is not supported");
      ir_attr_remove(n, "output_dtype");
    }
    return want_int(nc, n, "axis", 1, &x);
  }
  case IR_OP_REDUCE_MEAN: case IR_OP_REDUCE_SUM: case IR_OP_REDUCE_MAX: case IR_OP_REDUCE_MIN:
  case IR_OP_REDUCE_PROD: case IR_OP_REDUCE_L1: case IR_OP_REDUCE_L2: case IR_OP_REDUCE_LOG_SUM_EXP:
  case IR_OP_REDUCE_SUM_SQUARE: {
    int from_input = n->op == IR_OP_REDUCE_SUM ? v >= 13 : v >= 18;
    if (want_bool(nc, n, "keepdims", 1) || want_bool(nc, n, "noop_with_empty_axes", 0) || want_ints_kind(nc, n, "axes"))
      return -1;
    if (!from_input && ir_attr_get(n, "noop_with_empty_axes") && ir_attr_int(n, "noop_with_empty_axes", 0))
      return node_err(nc, "noop_with_empty_axes needs opset %d", n->op == IR_OP_REDUCE_SUM ? 13 : 18);
    int noop = (int)ir_attr_int(n, "noop_with_empty_axes", 0);
    ir_attr_remove(n, "noop_with_empty_axes");
    if (from_input) {
      if (ir_attr_get(n, "axes")) return node_err(nc, "takes axes as an input since opset %d", n->op == IR_OP_REDUCE_SUM ? 13 : 18);
      if (param(nc, n, 1, "axes", 0, 1)) return -1;
    } else if (nc->n_raw != 1) {
      return node_err(nc, "takes one input before opset %d", n->op == IR_OP_REDUCE_SUM ? 13 : 18);
    }
    int cnt = 0;
    const ir_attr *ax = ir_attr_get(n, "axes");
    if (ax) cnt = ax->n;
    if (cnt == 0 && !nc->n_pend) {
      ir_attr_remove(n, "axes"); /* no axes: every axis (shape inference lists them) */
      if (noop) { /* ... or none at all */
        n->op = IR_OP_IDENTITY;
        n->attrs = NULL;
      }
    } else if (nc->n_pend && noop && ir_attr_set_int(g, n, "noop_with_empty_axes", 1, d)) {
      return -1; /* shape inference decides once the axes are known */
    }
    return 0;
  }
  case IR_OP_ARGMAX:
  case IR_OP_ARGMIN:
    return want_int(nc, n, "axis", 0, &x) || want_bool(nc, n, "keepdims", 1) ||
           want_bool(nc, n, "select_last_index", 0);
  case IR_OP_SLICE: {
    if (v < 10) {
      if (nc->n_raw != 1) return node_err(nc, "Slice-%d takes one input", v);
      if (!ir_attr_get(n, "starts") || !ir_attr_get(n, "ends")) return node_err(nc, "attributes 'starts' and 'ends' are required");
      if (want_ints_kind(nc, n, "starts") || want_ints_kind(nc, n, "ends") || want_ints_kind(nc, n, "axes")) return -1;
    } else {
      if (ir_attr_get(n, "starts") || ir_attr_get(n, "ends") || ir_attr_get(n, "axes"))
        return node_err(nc, "takes starts, ends and axes as inputs since opset 10");
      if (nc->n_raw < 3 || !nc->raw[1] || !nc->raw[2]) return node_err(nc, "the starts and ends inputs are required");
      if (param(nc, n, 1, "starts", 0, 1) || param(nc, n, 2, "ends", 0, 1) || param(nc, n, 3, "axes", 0, 1) ||
          param(nc, n, 4, "steps", 0, 1))
        return -1;
    }
    if (nc->n_pend) return 0; /* shape inference writes the defaults */
    int ns, ne;
    ir_attr_ints(n, "starts", &ns);
    ir_attr_ints(n, "ends", &ne);
    if (ns != ne) return node_err(nc, "starts has %d values, ends %d", ns, ne);
    int64_t dflt[MAX_PARAMS];
    for (int i = 0; i < ns; i++) dflt[i] = i;
    if (!ir_attr_get(n, "axes") && ir_attr_set_ints(g, n, "axes", dflt, ns, d)) return -1;
    for (int i = 0; i < ns; i++) dflt[i] = 1;
    if (!ir_attr_get(n, "steps") && ir_attr_set_ints(g, n, "steps", dflt, ns, d)) return -1;
    return 0;
  }
  case IR_OP_EXPAND: return param(nc, n, 1, "shape", 0, 1);
  case IR_OP_TILE:
    if (v < 6) { /* Tile-1: `tiles` copies along `axis` (scalars); shape inference makes repeats */
      if (nc->n_raw != 3) return node_err(nc, "Tile-1 takes input, tiles and axis");
      return param(nc, n, 1, "tiles", 0, 1) || param(nc, n, 2, "axis", 0, 1);
    }
    if (nc->n_raw != 2) return node_err(nc, "Tile-%d takes input and repeats", v);
    return param(nc, n, 1, "repeats", 0, 1);
  case IR_OP_RESIZE: return canon_resize(nc, n);
  case IR_OP_DEPTH_TO_SPACE:
  case IR_OP_SPACE_TO_DEPTH: {
    const ir_attr *b = ir_attr_get(n, "blocksize");
    if (!b || b->kind != IR_ATTR_INT) return node_err(nc, "attribute 'blocksize' (an int) is required");
    if (b->i < 1) return node_err(nc, "blocksize=%lld must be positive", (long long)b->i);
    if (n->op == IR_OP_SPACE_TO_DEPTH) return 0;
    if (v < 11 && ir_attr_get(n, "mode")) return node_err(nc, "attribute 'mode' needs opset 11");
    return want_string(nc, n, "mode", "DCR", " DCR CRD ");
  }
  default: return 0;
  }
}

/* Constant node -> constant value named by its output. */
static int import_constant(node_ctx *nc) {
  onnx_ctx *c = nc->c;
  const Onnx__NodeProto *np = nc->np;
  if (np->n_attribute != 1) return node_err(nc, "needs exactly one value attribute");
  const Onnx__AttributeProto *a = np->attribute[0];
  const char *name = a->name ? a->name : "";
  const char *out = np->output[0];
  char what[300];
  snprintf(what, sizeof what, "node '%.100s' (Constant)", nc->src);
  if (ir_value_find(c->g, out)) return node_err(nc, "output '%s' duplicates a value defined earlier", out);
  if (strcmp(name, "value") == 0) {
    if (!a->t) return node_err(nc, "attribute 'value' holds no tensor");
    return onnx_tensor_to_const(c, a->t, out, what) ? 0 : -1;
  }
  ir_value *v = ir_value_new(c->g, out, IR_VALUE_CONST, c->d);
  if (!v) return -1;
  size_t cnt = 1;
  int is_list = 0;
  if (!strcmp(name, "value_float") || !strcmp(name, "value_floats")) v->dtype = IR_F32;
  else if (!strcmp(name, "value_int") || !strcmp(name, "value_ints")) v->dtype = IR_I64;
  else return node_err(nc, "attribute '%s' is not supported", name);
  if (!strcmp(name, "value_floats")) is_list = 1, cnt = a->n_floats;
  if (!strcmp(name, "value_ints")) is_list = 1, cnt = a->n_ints;
  if (cnt > (1u << 24)) return node_err(nc, "too many values");
  v->rank = is_list;
  v->dims[0] = (int64_t)cnt;
  if (ir_value_alloc_data(c->g, v, c->d)) return -1;
  for (size_t i = 0; i < cnt; i++) {
    if (v->dtype == IR_F32) ((float *)v->data)[i] = is_list ? a->floats[i] : a->f;
    else ((int64_t *)v->data)[i] = is_list ? a->ints[i] : a->i;
  }
  return 0;
}

/* ConstantOfShape: a constant when the shape is one, else Expand of the
 * one-element value to the shape (shape inference resolves the shape). */
static int import_constant_of_shape(node_ctx *nc, ir_value *out) {
  onnx_ctx *c = nc->c;
  const Onnx__AttributeProto *val = NULL;
  for (size_t i = 0; i < nc->np->n_attribute; i++)
    if (nc->np->attribute[i]->name && !strcmp(nc->np->attribute[i]->name, "value")) val = nc->np->attribute[i];
    else return node_err(nc, "unsupported attribute '%s'", nc->np->attribute[i]->name ? nc->np->attribute[i]->name : "");
  ir_value *fill = NULL;
  const char *fname = ir_unique_name(c->g, "constant_of_shape.value");
  if (!fname) return diag_oom(c->d);
  char what[300];
  snprintf(what, sizeof what, "node '%.100s' (ConstantOfShape): value", nc->src);
  if (val) {
    if (!val->t) return node_err(nc, "attribute 'value' must be a one-element tensor");
    if (!(fill = onnx_tensor_to_const(c, val->t, fname, what))) return -1;
    if (ir_value_numel(fill) != 1) return node_err(nc, "attribute 'value' must hold one element");
  } else {
    if (!(fill = ir_value_new(c->g, fname, IR_VALUE_CONST, c->d))) return -1;
    fill->dtype = IR_F32, fill->rank = 1, fill->dims[0] = 1;
    if (ir_value_alloc_data(c->g, fill, c->d)) return -1; /* zeroed */
  }
  fill->rank = 0; /* a scalar broadcasts to any shape */
  ir_value *shape = nc->raw[0];
  if (!shape) return node_err(nc, "the shape input is required");
  if (shape->kind == IR_VALUE_CONST) {
    if (shape->dtype != IR_I64 || shape->rank > 1) return node_err(nc, "the shape must be a 1-D int64 tensor");
    if (ir_value_numel(shape) > IR_MAX_RANK) return node_err(nc, "the shape has more than %d dimensions", IR_MAX_RANK);
    int64_t total = 1;
    out->kind = IR_VALUE_CONST;
    out->dtype = fill->dtype;
    out->rank = (int)ir_value_numel(shape);
    for (int i = 0; i < out->rank; i++) {
      out->dims[i] = ((const int64_t *)shape->data)[i];
      if (out->dims[i] < 0 || out->dims[i] > (1 << 30) || (total *= out->dims[i]) > (1 << 30))
        return node_err(nc, "bad shape: dimension %d is %lld", i, (long long)out->dims[i]);
    }
    /* built now, as Range is: the same bound on its size (a fuzzed shape
     * of 637 M elements asked for 5 GB) */
    if (total > (1 << 24)) return node_err(nc, "%lld elements are too many", (long long)total);
    if (ir_value_alloc_data(c->g, out, c->d)) return -1;
    size_t esz = ir_dtype_size(out->dtype);
    for (int64_t i = 0; i < total; i++) memcpy((char *)out->data + (size_t)i * esz, fill->data, esz);
    return 0;
  }
  ir_value *in[2] = {fill, shape};
  ir_node *n = ir_node_new(c->g, IR_OP_EXPAND, nc->src, in, 2, out, c->d);
  return n ? ir_attr_set_string(c->g, n, "pending", "shape", c->d) : -1;
}

static int fold_to_const(ir_graph *g, ir_value *v, int depth, diag *d);

/* Gives v a known shape now: shape inference of the nodes it depends on
 * (the graph inputs' shapes are the model's). */
static int infer_now(ir_graph *g, ir_value *v, int depth, diag *d) {
  if (ir_value_numel(v) >= 0) return 0;
  if (v->kind != IR_VALUE_NODE || !v->def || depth > 32) return -1;
  for (int k = 0; k < v->def->n_in; k++)
    if (infer_now(g, v->def->in[k], depth + 1, d)) return -1;
  return shape_infer_node(g, v->def, d);
}

/* Folds the small integer computation v (Shape -> Gather -> ...) into a
 * constant now, as shape inference would later; -1 when it cannot. Range
 * needs its inputs at import, since it is no IR operator. */
static int fold_to_const(ir_graph *g, ir_value *v, int depth, diag *d) {
  if (v->kind == IR_VALUE_CONST) return 0;
  if (v->kind != IR_VALUE_NODE || !v->def || depth > 32) return -1;
  ir_node *n = v->def;
  if (n->op == IR_OP_SHAPE) {
    if (infer_now(g, n->in[0], depth + 1, d) || shape_infer_node(g, n, d) || ir_value_alloc_data(g, v, d)) return -1;
    int64_t st = ir_attr_int(n, "start", 0);
    if (st < 0) st += n->in[0]->rank;
    if (st < 0) st = 0;
    for (int64_t k = 0; k < v->dims[0]; k++) ((int64_t *)v->data)[k] = n->in[0]->dims[st + k];
  } else {
    for (int k = 0; k < n->n_in; k++)
      if (fold_to_const(g, n->in[k], depth + 1, d)) return -1;
    if (shape_infer_node(g, n, d) || ir_value_numel(v) > 64 || ir_value_alloc_data(g, v, d)) return -1;
    if (ref_eval_node(n, v->data, d)) {
      v->data = NULL;
      return -1;
    }
  }
  ir_node_to_const(g, n, v->data);
  return 0;
}

/* Range of constant scalars (or of values that fold now): a constant
 * [start, start+delta, ...) below limit. */
static int import_range(node_ctx *nc, ir_value *out) {
  static const char *const what[3] = {"start", "limit", "delta"};
  for (int k = 0; k < 3; k++) {
    ir_value *v = nc->raw[k];
    if (!v) return node_err(nc, "the %s input is required", what[k]);
    diag fd = {{0}};
    if (v->kind != IR_VALUE_CONST && fold_to_const(nc->c->g, v, 0, &fd)) return not_const(nc, v, what[k]);
    if (ir_value_numel(v) != 1) return node_err(nc, "%s must be a scalar", what[k]);
    if (v->dtype != nc->raw[0]->dtype) return node_err(nc, "start, limit and delta must have one type");
  }
  ir_dtype t = nc->raw[0]->dtype;
  double st = ir_elem_f64(t, nc->raw[0]->data, 0), lim = ir_elem_f64(t, nc->raw[1]->data, 0),
         dl = ir_elem_f64(t, nc->raw[2]->data, 0);
  if (dl == 0 || !isfinite(st) || !isfinite(lim) || !isfinite(dl))
    return node_err(nc, "delta must be non-zero and every input finite");
  double cnt = ceil((lim - st) / dl);
  if (cnt < 0) cnt = 0;
  if (cnt > (1 << 24)) return node_err(nc, "%.0f elements are too many", cnt);
  if (fabs(st) > 0x1p52 || fabs(dl) * (cnt + 1) > 0x1p52) return node_err(nc, "start or delta is out of range");
  out->kind = IR_VALUE_CONST;
  out->dtype = t;
  out->rank = 1;
  out->dims[0] = (int64_t)cnt;
  if (ir_value_alloc_data(nc->c->g, out, nc->c->d)) return -1;
  for (int64_t i = 0; i < out->dims[0]; i++) {
    if (ir_dtype_is_float(t)) ir_elem_set_f64(t, out->data, i, st + (double)i * dl);
    else ir_elem_set_f64(t, out->data, i, (double)(ir_elem_i64(t, nc->raw[0]->data, 0) +
                                                   i * ir_elem_i64(t, nc->raw[2]->data, 0)));
  }
  return 0;
}

static int remember_dropped(onnx_ctx *c, const char *name) {
  if (c->n_dropped == c->cap_dropped) {
    int ncap = c->cap_dropped ? c->cap_dropped * 2 : 8;
    const char **na = arena_alloc(c->g->arena, sizeof(char *) * (size_t)ncap);
    if (!na) return diag_oom(c->d);
    if (c->n_dropped) memcpy(na, c->dropped, sizeof(char *) * (size_t)c->n_dropped);
    c->dropped = na;
    c->cap_dropped = ncap;
  }
  if (!(c->dropped[c->n_dropped++] = arena_strdup(c->g->arena, name))) return diag_oom(c->d);
  return 0;
}

/* A new value for node output `name`; NULL with an error when it exists. */
static ir_value *new_output(node_ctx *nc, const char *name) {
  if (ir_value_find(nc->c->g, name)) {
    node_err(nc, "output '%s' duplicates a value defined earlier", name);
    return NULL;
  }
  return ir_value_new(nc->c->g, name, IR_VALUE_NODE, nc->c->d);
}

/* Split: one Slice per output along axis, sizes from `split` (attribute
 * before 13, input since) or equal parts (num_outputs since 18, else the
 * output count); equal parts wait for shape inference (attributes part and
 * parts), which knows the dimension. */
static int import_split(node_ctx *nc) {
  onnx_ctx *c = nc->c;
  ir_graph *g = c->g;
  diag *d = c->d;
  ir_node tmp = {.op = IR_OP_SLICE};
  if (copy_attrs(nc, nc->s, &tmp)) return -1;
  int64_t axis = 0, sizes[MAX_PARAMS];
  const ir_attr *a = ir_attr_get(&tmp, "axis");
  if (a && a->kind != IR_ATTR_INT) return node_err(nc, "attribute 'axis' must be an int");
  if (a) axis = a->i;
  int n_out = (int)nc->np->n_output, n_sizes = -1;
  if (n_out > MAX_PARAMS) return node_err(nc, "too many outputs");
  if (ir_attr_get(&tmp, "split") && nc->version >= 13) return node_err(nc, "takes split as an input since opset 13");
  if (ir_attr_get(&tmp, "num_outputs") && nc->version < 18) return node_err(nc, "attribute 'num_outputs' needs opset 18");
  if (nc->n_raw > 1 && nc->raw[1]) {
    if (nc->version >= 2 && nc->version < 13) return node_err(nc, "takes split as an attribute before opset 13");
    if (param(nc, &tmp, 1, "split", 0, 0)) return -1;
  }
  const ir_attr *sp = ir_attr_get(&tmp, "split");
  if (sp) {
    if (sp->kind != IR_ATTR_INTS) return node_err(nc, "attribute 'split' must be a list of ints");
    if (sp->n != n_out) return node_err(nc, "split has %d sizes for %d outputs", sp->n, n_out);
    n_sizes = sp->n;
    for (int i = 0; i < n_sizes; i++) {
      sizes[i] = sp->ints[i];
      if (sizes[i] < 0 || sizes[i] > (1 << 30)) return node_err(nc, "split size %lld is out of range", (long long)sizes[i]);
    }
  }
  const ir_attr *no = ir_attr_get(&tmp, "num_outputs");
  if (no && (no->kind != IR_ATTR_INT || no->i != n_out))
    return node_err(nc, "num_outputs must be the number of outputs, %d", n_out);
  if (no && sp) return node_err(nc, "give split or num_outputs, not both");
  if (nc->version >= 18 && !no && !sp) return node_err(nc, "Split-18 needs split or num_outputs");
  int64_t off = 0;
  for (int i = 0; i < n_out; i++) {
    const char *oname = nc->np->output[i];
    if (n_sizes >= 0 && i > 0) off += sizes[i - 1];
    if (!oname || !oname[0]) continue;
    ir_value *out = new_output(nc, oname);
    if (!out) return -1;
    ir_value *in = nc->raw[0];
    ir_node *n = ir_node_new(g, IR_OP_SLICE, nc->src, &in, 1, out, d);
    if (!n) return -1;
    int64_t one = 1, end = off + (n_sizes >= 0 ? sizes[i] : 0);
    if (ir_attr_set_ints(g, n, "axes", &axis, 1, d) || ir_attr_set_ints(g, n, "steps", &one, 1, d)) return -1;
    if (n_sizes >= 0) {
      if (ir_attr_set_ints(g, n, "starts", &off, 1, d) || ir_attr_set_ints(g, n, "ends", &end, 1, d)) return -1;
    } else if (ir_attr_set_int(g, n, "part", i, d) || ir_attr_set_int(g, n, "parts", n_out, d)) {
      return -1;
    }
  }
  return 0;
}

/* A constant for an expansion: an f32 scalar (ints NULL) or an i64 vector
 * of n elements. */
static ir_value *expansion_const(ir_graph *g, const char *name, float f, const int64_t *ints, int n, diag *d) {
  ir_value *v = ir_value_new(g, ir_unique_name(g, name), IR_VALUE_CONST, d);
  if (!v) return NULL;
  v->dtype = ints ? IR_I64 : IR_F32, v->rank = ints ? 1 : 0, v->dims[0] = n;
  if (ir_value_alloc_data(g, v, d)) return NULL;
  if (ints) memcpy(v->data, ints, sizeof *ints * (size_t)n);
  else *(float *)v->data = f;
  return v;
}

/* LayerNormalization whose Mean or InvStdDev output is used: ONNX's own
 * function body, node by node (the LayerNorm op has one output):
 *   Mean = ReduceMean(x, axes a..r-1), D = x - Mean,
 *   InvStdDev = 1 / Sqrt(ReduceMean(D * D) + epsilon),
 *   Y = D * InvStdDev * Scale [+ B]. */
static int import_layer_norm_parts(node_ctx *nc) {
  onnx_ctx *c = nc->c;
  ir_graph *g = c->g;
  diag *d = c->d;
  ir_node tmp = {.op = IR_OP_LAYER_NORM};
  if (copy_attrs(nc, nc->s, &tmp)) return -1;
  ir_value *x = nc->raw[0];
  int64_t axis = ir_attr_int(&tmp, "axis", -1), axes[IR_MAX_RANK];
  if (x->rank < 0) return node_err(nc, "Mean/InvStdDev outputs need the input's rank (give it in the model)");
  if (axis < 0) axis += x->rank;
  if (axis < 0 || axis >= x->rank) return node_err(nc, "axis %lld out of range", (long long)ir_attr_int(&tmp, "axis", -1));
  int na = 0;
  for (int64_t a = axis; a < x->rank; a++) axes[na++] = a;
  const Onnx__NodeProto *np = nc->np;
  /* name: the ONNX output's when it is used, else a fresh one */
  ir_value *v[11];
  const char *outs[11] = {0};
  outs[0] = np->n_output > 1 && np->output[1][0] ? np->output[1] : NULL;  /* Mean */
  outs[6] = np->n_output > 2 && np->output[2][0] ? np->output[2] : NULL;  /* InvStdDev */
  outs[10] = np->output[0];
  for (int i = 0; i < 11; i++) {
    char base[300];
    snprintf(base, sizeof base, "%.250s.ln%d", np->output[0], i);
    const char *name = outs[i] ? outs[i] : ir_unique_name(g, base);
    if (!name || !(v[i] = outs[i] ? new_output(nc, name) : ir_value_new(g, name, IR_VALUE_NODE, d))) return -1;
  }
  ir_value *eps = expansion_const(g, "ln.epsilon", ir_attr_float(&tmp, "epsilon", 1e-5f), NULL, 0, d);
  if (!eps) return -1;
  ir_value *b = nc->n_raw > 2 ? nc->raw[2] : NULL;
  struct { ir_op op; int a, b; } steps[] = {
      {IR_OP_REDUCE_MEAN, -1, -1}, /* 0 Mean */
      {IR_OP_SUB, -1, 0},          /* 1 D */
      {IR_OP_MUL, 1, 1},           /* 2 D*D */
      {IR_OP_REDUCE_MEAN, 2, -1},  /* 3 Var */
      {IR_OP_ADD, 3, -2},          /* 4 Var + eps */
      {IR_OP_SQRT, 4, -1},         /* 5 */
      {IR_OP_RECIPROCAL, 5, -1},   /* 6 InvStdDev */
      {IR_OP_MUL, 1, 6},           /* 7 normalised */
      {IR_OP_MUL, 7, -3},          /* 8 * Scale */
      {IR_OP_ADD, 8, -4},          /* 9 + B */
  };
  int last = b ? 9 : 8;
  for (int i = 0; i <= last; i++) {
    ir_value *in[2];
    int k = 0;
    for (int j = 0; j < 2; j++) {
      int r = j ? steps[i].b : steps[i].a;
      if (j && r == -1 && steps[i].op != IR_OP_SUB) break;
      in[k++] = r >= 0 ? v[r] : r == -1 ? x : r == -2 ? eps : r == -3 ? nc->raw[1] : b;
    }
    ir_value *out = i == last ? v[10] : v[i];
    ir_node *n = ir_node_new(g, steps[i].op, nc->src, in, k, out, d);
    if (!n) return -1;
    if (steps[i].op == IR_OP_REDUCE_MEAN &&
        (ir_attr_set_ints(g, n, "axes", axes, na, d) || ir_attr_set_int(g, n, "keepdims", 1, d)))
      return -1;
  }
  return 0;
}

/* BatchNormalization with training_mode = 1 (opset 14 on): ONNX's training
 * semantics node by node, over the batch's own statistics (every axis but
 * the channels):
 *   M = ReduceMean(x), D = x - M, V = ReduceMean(D * D) (population),
 *   Y = D / Sqrt(V + epsilon) * scale + B (scale, B reshaped to [1, C, 1..]),
 *   running_mean = input_mean * momentum + M * (1 - momentum), and
 *   running_var likewise from input_var and V (outputs 1 and 2, where used). */
static int import_batchnorm_training(node_ctx *nc) {
  onnx_ctx *c = nc->c;
  ir_graph *g = c->g;
  diag *d = c->d;
  ir_node tmp = {.op = IR_OP_BATCHNORM};
  if (copy_attrs(nc, nc->s, &tmp)) return -1;
  ir_value *x = nc->raw[0];
  if (x->rank < 2) return node_err(nc, "training_mode=1 needs the input's rank, at least 2 (give it in the model)");
  int64_t axes[IR_MAX_RANK], shape_c[IR_MAX_RANK], flat = -1;
  int na = 0;
  for (int a = 0; a < x->rank; a++) {
    if (a != 1) axes[na++] = a;
    shape_c[a] = a == 1 ? -1 : 1;
  }
  float mom = ir_attr_float(&tmp, "momentum", 0.9f);
  ir_value *k[5] = {expansion_const(g, "bn.epsilon", ir_attr_float(&tmp, "epsilon", 1e-5f), NULL, 0, d),
                    expansion_const(g, "bn.momentum", mom, NULL, 0, d),
                    expansion_const(g, "bn.one_minus_momentum", 1.0f - mom, NULL, 0, d),
                    expansion_const(g, "bn.channel_shape", 0, shape_c, x->rank, d),
                    expansion_const(g, "bn.flat_shape", 0, &flat, 1, d)};
  for (int i = 0; i < 5; i++)
    if (!k[i]) return -1;
  /* operands: >= 0 a step's value; -1 x; -2..-5 scale, B, input_mean,
   * input_var; -6.. the constants k[0..4] */
  static const struct { ir_op op; int a, b; } steps[] = {
      {IR_OP_REDUCE_MEAN, -1, 0}, {IR_OP_SUB, -1, 0},   {IR_OP_MUL, 1, 1},     {IR_OP_REDUCE_MEAN, 2, 0},
      {IR_OP_ADD, 3, -6},         {IR_OP_SQRT, 4, 0},   {IR_OP_DIV, 1, 5},     {IR_OP_RESHAPE, -2, -9},
      {IR_OP_MUL, 6, 7},          {IR_OP_RESHAPE, -3, -9}, {IR_OP_ADD, 8, 9},  /* 10: Y */
      {IR_OP_RESHAPE, 0, -10},    {IR_OP_MUL, -4, -7},  {IR_OP_MUL, 11, -8},   {IR_OP_ADD, 12, 13}, /* 14: mean */
      {IR_OP_RESHAPE, 3, -10},    {IR_OP_MUL, -5, -7},  {IR_OP_MUL, 15, -8},   {IR_OP_ADD, 16, 17}, /* 18: var */
  };
  const Onnx__NodeProto *np = nc->np;
  int used[3] = {1, np->n_output > 1 && np->output[1] && np->output[1][0],
                 np->n_output > 2 && np->output[2] && np->output[2][0]};
  ir_value *v[19];
  for (int i = 0; i < 19; i++) {
    int out = i == 10 ? 0 : i == 14 ? 1 : i == 18 ? 2 : -1;
    if ((i >= 11 && i <= 14 && !used[1]) || (i >= 15 && !used[2])) continue; /* a running statistic nobody reads */
    char base[300];
    snprintf(base, sizeof base, "%.250s.bn%d", np->output[0], i);
    const char *name = out >= 0 ? np->output[out] : ir_unique_name(g, base);
    if (!name || !(v[i] = out >= 0 ? new_output(nc, name) : ir_value_new(g, name, IR_VALUE_NODE, d))) return -1;
    ir_value *in[2];
    int n_in = 0;
    for (int j = 0; j < 2; j++) {
      int r = j ? steps[i].b : steps[i].a;
      if (j && r == 0 && (steps[i].op == IR_OP_REDUCE_MEAN || steps[i].op == IR_OP_SQRT)) break;
      in[n_in++] = r >= 0 ? v[r] : r == -1 ? x : r >= -5 ? nc->raw[-r - 1] : k[-r - 6];
    }
    ir_node *n = ir_node_new(g, steps[i].op, nc->src, in, n_in, v[i], d);
    if (!n) return -1;
    if (steps[i].op == IR_OP_REDUCE_MEAN &&
        (ir_attr_set_ints(g, n, "axes", axes, na, d) || ir_attr_set_int(g, n, "keepdims", 1, d)))
      return -1;
    if (steps[i].op == IR_OP_RESHAPE && ir_attr_set_int(g, n, "allowzero", 0, d)) return -1;
  }
  return 0;
}

int onnx_import_node(onnx_ctx *c, const Onnx__NodeProto *np, int index) {
  char idx[32];
  snprintf(idx, sizeof idx, "#%d", index);
  node_ctx nc = {.c = c, .np = np, .src = np->name && np->name[0] ? np->name : idx};
  const char *op_type = np->op_type ? np->op_type : "";
  if (!op_type[0]) return diag_set(c->d, "%s: node '%s': no op_type", c->label, nc.src);
  const char *dom = np->domain ? np->domain : "";
  if (strcmp(dom, "") && strcmp(dom, "ai.onnx"))
    return node_err(&nc, "operator domain '%s' is not supported", dom);
  const op_spec *s = NULL;
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    if (!strcmp(specs[i].name, op_type)) s = &specs[i];
  if (!s) {
    c->unsupported_op = 1;
    return node_err(&nc, "unsupported operator %s at opset %d (`tessel operators` lists the supported ones)",
                    op_type, c->opset);
  }
  nc.s = s;
  /* 1. the operator's version at the model's opset */
  for (int i = 0; i < 8 && s->since[i]; i++)
    if (s->since[i] <= c->opset) nc.version = s->since[i];
  if (!nc.version)
    return node_err(&nc, "not defined in opset %d (it appears in opset %d)", c->opset, s->since[0]);
  if (s->until && c->opset > s->until) {
    c->unsupported_op = 1;
    return node_err(&nc, "not defined in opset %d (deprecated after opset %d)", c->opset, s->until);
  }
  /* 2. outputs: the first used; Split uses every one */
  if (np->n_output < 1 || !np->output[0] || !np->output[0][0]) return node_err(&nc, "no output");
  int split = !strcmp(s->name, "Split");
  /* Dropout's mask, in inference: every element kept (a constant true) */
  int mask = s->op == IR_OP_DROPOUT && np->n_output > 1 && np->output[1] && np->output[1][0];
  int ln_parts = s->op == IR_OP_LAYER_NORM && np->n_output > 1 &&
                 ((np->output[1] && np->output[1][0]) || (np->n_output > 2 && np->output[2] && np->output[2][0]));
  int bn_train = 0; /* BatchNormalization in training mode: its own expansion */
  for (size_t i = 0; s->op == IR_OP_BATCHNORM && i < np->n_attribute; i++)
    bn_train |= np->attribute[i]->name && !strcmp(np->attribute[i]->name, "training_mode") && np->attribute[i]->i;
  for (size_t i = 1 + (size_t)mask; i < np->n_output && !split && !ln_parts && !bn_train; i++)
    if (np->output[i] && np->output[i][0] && remember_dropped(c, np->output[i])) return -1;
  if (!strcmp(s->name, "Constant")) return import_constant(&nc);
  /* 3. inputs: defined earlier; absent optional ones ("") are NULL */
  size_t n_in = np->n_input;
  while (n_in > 0 && (!np->input[n_in - 1] || !np->input[n_in - 1][0])) n_in--;
  if ((int)n_in < s->min_in || (int)n_in > s->max_in)
    return node_err(&nc, "has %zu inputs, expected %d to %d", n_in, s->min_in, s->max_in);
  for (size_t i = 0; i < n_in; i++) {
    const char *name = np->input[i] ? np->input[i] : "";
    if (!name[0]) {
      if (i == 0) return node_err(&nc, "input 0 is left out");
      nc.raw[i] = NULL;
      continue;
    }
    nc.raw[i] = ir_value_find(c->g, name);
    if (!nc.raw[i]) {
      for (int k = 0; k < c->n_dropped; k++)
        if (!strcmp(c->dropped[k], name))
          return node_err(&nc, "input '%s' is an optional output that tessel does not support", name);
      for (size_t j = (size_t)index + 1; j < c->gp->n_node; j++)
        for (size_t o = 0; o < c->gp->node[j]->n_output; o++)
          if (c->gp->node[j]->output[o] && !strcmp(c->gp->node[j]->output[o], name))
            return node_err(&nc, "input '%s' comes from a later node (a cycle, or nodes out of order)", name);
      return node_err(&nc, "input '%s' is not defined (by an initializer, graph input or earlier node)", name);
    }
  }
  nc.n_raw = (int)n_in;
  if (split) return import_split(&nc);
  if (ln_parts) return import_layer_norm_parts(&nc);
  if (bn_train) return import_batchnorm_training(&nc);
  if (mask) {
    const ir_value *x = nc.raw[0];
    int known = x->rank >= 0;
    for (int i = 0; i < x->rank; i++) known &= x->dims[i] >= 0;
    if (!known) return node_err(&nc, "the mask output needs the input's shape (give it in the model)");
    ir_value *m = new_output(&nc, np->output[1]);
    if (!m) return -1;
    m->kind = IR_VALUE_CONST, m->dtype = IR_BOOL, m->rank = x->rank;
    for (int i = 0; i < x->rank; i++) m->dims[i] = x->dims[i];
    if (ir_value_alloc_data(c->g, m, c->d)) return -1;
    memset(m->data, 1, (size_t)ir_value_numel(m));
  }
  ir_value *out = new_output(&nc, np->output[0]);
  if (!out) return -1;
  if (!strcmp(s->name, "ConstantOfShape")) return import_constant_of_shape(&nc, out);
  if (!strcmp(s->name, "Range")) return import_range(&nc, out);
  /* 4. the node takes its data inputs; parameter inputs become attributes */
  int keep = nc.n_raw;
  switch (s->op) {
  case IR_OP_CLIP: case IR_OP_PAD: case IR_OP_SQUEEZE: case IR_OP_UNSQUEEZE: case IR_OP_SLICE:
  case IR_OP_EXPAND: case IR_OP_TILE: case IR_OP_RESIZE: case IR_OP_DROPOUT: keep = 1; break;
  default:
    if (is_reduce(s->op)) keep = 1;
    break;
  }
  for (int i = 0; i < keep; i++)
    if (!nc.raw[i]) return node_err(&nc, "optional input %d left out is not supported", i);
  /* Pow's exponent may have another type than its base (pow_types_*): a
   * Cast to the base's type in front, so the core's Pow sees one type. */
  if (s->op == IR_OP_POW && nc.raw[1]->dtype != nc.raw[0]->dtype) {
    const char *cname = ir_unique_name(c->g, nc.raw[1]->name);
    ir_value *cv = cname ? ir_value_new(c->g, cname, IR_VALUE_NODE, c->d) : NULL;
    ir_node *cn = cv ? ir_node_new(c->g, IR_OP_CAST, nc.src, &nc.raw[1], 1, cv, c->d) : NULL;
    if (!cn || ir_attr_set_string(c->g, cn, "to", ir_dtype_name(nc.raw[0]->dtype), c->d)) return cname ? -1 : diag_oom(c->d);
    nc.raw[1] = cv;
  }
  ir_node *n = ir_node_new(c->g, s->op, nc.src, nc.raw, keep, out, c->d);
  if (!n || copy_attrs(&nc, s, n) || canonicalise(&nc, n)) return -1;
  if (nc.n_pend) { /* parameters computed from shapes: shape inference resolves them */
    ir_value *all[IR_MAX_INPUTS];
    int cnt = 0;
    for (int k = 0; k < n->n_in; k++) all[cnt++] = n->in[k];
    for (int k = 0; k < nc.n_pend; k++) all[cnt++] = nc.pend_in[k];
    ir_node_set_inputs(c->g, n, all, cnt);
    if (ir_attr_set_string(c->g, n, "pending", nc.pending, c->d)) return -1;
  }
  return 0;
}
