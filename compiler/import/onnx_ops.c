/* onnx_ops: per-operator import.  Each ONNX node is checked (domain, the
 * operator's version at the model's opset, input count, attribute names and
 * values) and canonicalised into one IR node, so that passes and executors see
 * one form per operator whatever the opset:
 *   - defaults that do not depend on shapes are written out explicitly;
 *   - inputs that older/newer opsets took as attributes (Clip min/max,
 *     Squeeze/Unsqueeze axes, Pad pads/value) become attributes, and must be
 *     constants;
 *   - optional outputs (Dropout mask, BatchNormalization running stats,
 *     MaxPool indices) are dropped, and using one is an error;
 *   - Constant nodes become constant values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "onnx_internal.h"

typedef struct op_spec {
  const char *name;   /* ONNX op_type */
  ir_op op;           /* IR operator */
  int since[8];       /* versions of the operator (since-version), 0-terminated */
  int min_in, max_in; /* input count */
  const char *attrs;  /* accepted attribute names, space separated */
} op_spec;

#define CONV_ATTRS " auto_pad dilations group kernel_shape pads strides "
static const op_spec specs[] = {
    {"Conv", IR_OP_CONV, {1, 11}, 2, 3, CONV_ATTRS},
    {"Gemm", IR_OP_GEMM, {1, 6, 7, 9, 11, 13}, 2, 3, " alpha beta transA transB "},
    {"MatMul", IR_OP_MATMUL, {1, 9, 13}, 2, 2, " "},
    {"Relu", IR_OP_RELU, {1, 6, 13, 14}, 1, 1, " "},
    {"Clip", IR_OP_CLIP, {1, 6, 11, 12, 13}, 1, 3, " min max "},
    {"LeakyRelu", IR_OP_LEAKY_RELU, {1, 6, 16}, 1, 1, " alpha "},
    {"BatchNormalization", IR_OP_BATCHNORM, {1, 6, 7, 9, 14, 15}, 5, 5,
     " epsilon momentum spatial training_mode "},
    {"Add", IR_OP_ADD, {1, 6, 7, 13, 14}, 2, 2, " "},
    {"Mul", IR_OP_MUL, {1, 6, 7, 13, 14}, 2, 2, " "},
    {"Sub", IR_OP_SUB, {1, 6, 7, 13, 14}, 2, 2, " "},
    {"Div", IR_OP_DIV, {1, 6, 7, 13, 14}, 2, 2, " "},
    {"MaxPool", IR_OP_MAXPOOL, {1, 8, 10, 11, 12}, 1, 1,
     " auto_pad ceil_mode dilations kernel_shape pads storage_order strides "},
    {"AveragePool", IR_OP_AVGPOOL, {1, 7, 10, 11}, 1, 1,
     " auto_pad ceil_mode count_include_pad kernel_shape pads strides "},
    {"GlobalAveragePool", IR_OP_GLOBAL_AVGPOOL, {1}, 1, 1, " "},
    {"GlobalMaxPool", IR_OP_GLOBAL_MAXPOOL, {1}, 1, 1, " "},
    {"Flatten", IR_OP_FLATTEN, {1, 9, 11, 13}, 1, 1, " axis "},
    {"Reshape", IR_OP_RESHAPE, {1, 5, 13, 14}, 2, 2, " allowzero "},
    {"Transpose", IR_OP_TRANSPOSE, {1, 13}, 1, 1, " perm "},
    {"Squeeze", IR_OP_SQUEEZE, {1, 11, 13}, 1, 2, " axes "},
    {"Unsqueeze", IR_OP_UNSQUEEZE, {1, 11, 13}, 1, 2, " axes "},
    {"Concat", IR_OP_CONCAT, {1, 4, 11, 13}, 1, IR_MAX_INPUTS, " axis "},
    {"Pad", IR_OP_PAD, {1, 2, 11, 13}, 1, 3, " mode pads value "},
    {"Identity", IR_OP_IDENTITY, {1, 13, 14, 16}, 1, 1, " "},
    {"Dropout", IR_OP_DROPOUT, {1, 6, 7, 10, 12, 13}, 1, 3, " is_test ratio seed "},
    {"Constant", IR_OP_COUNT, {1, 9, 11, 12, 13}, 0, 0,
     " value value_float value_floats value_int value_ints "},
    {"Cast", IR_OP_CAST, {1, 6, 9, 13}, 1, 1, " to "},
    {"Shape", IR_OP_SHAPE, {1, 13, 15}, 1, 1, " end start "},
    {"Gather", IR_OP_GATHER, {1, 11, 13}, 2, 2, " axis "},
    {"Softmax", IR_OP_SOFTMAX, {1, 11, 13}, 1, 1, " axis "},
    {"QuantizeLinear", IR_OP_QUANTIZE, {10, 13}, 2, 3, " axis "},
    {"DequantizeLinear", IR_OP_DEQUANTIZE, {10, 13}, 2, 3, " axis "},
    {"QLinearConv", IR_OP_QLINEAR_CONV, {10}, 8, 9, CONV_ATTRS},
    {"QLinearMatMul", IR_OP_QLINEAR_MATMUL, {10}, 8, 8, " "},
    {"ConvInteger", IR_OP_CONV_INTEGER, {10}, 2, 4, CONV_ATTRS},
    {"MatMulInteger", IR_OP_MATMUL_INTEGER, {10}, 2, 4, " "},
};

/* Context of the node being imported, for messages. */
typedef struct node_ctx {
  onnx_ctx *c;
  const Onnx__NodeProto *np;
  const char *src; /* node name or "#index" */
  int version;     /* operator version in effect */
  ir_value *bounds[2]; /* Clip-11+: min and max inputs (NULL when left out) */
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

/* Copies the ONNX attributes into IR attributes, rejecting unknown names. */
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
    int r;
    switch (a->has_type ? a->type : 0) {
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT: r = ir_attr_set_int(g, n, name, a->i, d); break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
      /* no ONNX attribute means NaN (alpha, epsilon, min/max): it only made every output NaN */
      if (isnan(a->f)) return node_err(nc, "attribute '%s' is NaN", name);
      r = ir_attr_set_float(g, n, name, a->f, d);
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
      if (a->n_ints > 64) return node_err(nc, "attribute '%s' has too many values", name);
      r = ir_attr_set_ints(g, n, name, a->ints, (int)a->n_ints, d);
      break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
      if (a->n_floats > 64) return node_err(nc, "attribute '%s' has too many values", name);
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

/* The constant input k as a list of int64 (axes, pads). */
static int const_ints(node_ctx *nc, ir_node *n, int k, const char *what, const char *attr) {
  ir_value *v = n->in[k];
  if (v->kind != IR_VALUE_CONST) return node_err(nc, "%s must be a constant", what);
  if (v->dtype != IR_I64 || v->rank > 1) return node_err(nc, "%s must be a 1-D int64 tensor", what);
  int64_t cnt = ir_value_numel(v);
  if (cnt > 64) return node_err(nc, "%s has too many values", what);
  return ir_attr_set_ints(nc->c->g, n, attr, (const int64_t *)v->data, (int)cnt, nc->c->d);
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

/* The constant scalar input k as a float attribute. */
static int const_scalar(node_ctx *nc, ir_node *n, int k, const char *what, const char *attr) {
  ir_value *v = n->in[k];
  if (float_cast_of_const(v)) v = float_cast_of_const(v);
  if (v->kind != IR_VALUE_CONST && v->kind == IR_VALUE_NODE && v->def)
    return node_err(nc, "%s must be a constant; it is computed by node '%s' (%s) (fold constants when exporting, "
                    "e.g. torch.onnx.export(..., do_constant_folding=True))",
                    what, v->def->src, ir_op_name(v->def->op));
  if (v->kind != IR_VALUE_CONST) return node_err(nc, "%s must be a constant", what);
  if (ir_value_numel(v) != 1) return node_err(nc, "%s must hold one element", what);
  return ir_attr_set_float(nc->c->g, n, attr, (float)ir_elem_f64(v->dtype, v->data, 0), nc->c->d);
}

static int check_string(node_ctx *nc, ir_node *n, const char *name, const char *allowed) {
  const ir_attr *a = ir_attr_get(n, name);
  if (!a) return 0;
  if (a->kind != IR_ATTR_STRING) return node_err(nc, "attribute '%s' must be a string", name);
  char key[80];
  snprintf(key, sizeof key, " %.70s ", a->s);
  if (!strstr(allowed, key)) return node_err(nc, "%s='%s' is not supported", name, a->s);
  return 0;
}

/* Operator-specific checks and canonical form; n has all ONNX inputs (absent
 * optional ones dropped from the end) and the copied attributes. */
static int canonicalise(node_ctx *nc, ir_node *n) {
  ir_graph *g = nc->c->g;
  diag *d = nc->c->d;
  int64_t x;
  switch (n->op) {
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
  case IR_OP_MAXPOOL:
  case IR_OP_AVGPOOL:
    if (!ir_attr_get(n, "kernel_shape")) return node_err(nc, "attribute 'kernel_shape' is required");
    if (want_bool(nc, n, "storage_order", 0)) return -1;
    ir_attr_remove(n, "storage_order"); /* only shapes the dropped Indices output */
    if (check_string(nc, n, "auto_pad", " NOTSET SAME_UPPER SAME_LOWER VALID ") ||
        want_bool(nc, n, "ceil_mode", 0) || want_ints_kind(nc, n, "kernel_shape") ||
        want_ints_kind(nc, n, "pads") || want_ints_kind(nc, n, "strides") ||
        want_ints_kind(nc, n, "dilations"))
      return -1;
    if (n->op == IR_OP_AVGPOOL && want_bool(nc, n, "count_include_pad", 0)) return -1;
    return 0;
  case IR_OP_GEMM:
    if (want_float(nc, n, "alpha", 1.0f) || want_float(nc, n, "beta", 1.0f) ||
        want_bool(nc, n, "transA", 0) || want_bool(nc, n, "transB", 0))
      return -1;
    return 0;
  case IR_OP_CLIP:
    if (nc->version < 11) {
      if (n->n_in != 1) return node_err(nc, "Clip-%d takes one input", nc->version);
      if (want_float(nc, n, "min", -INFINITY) || want_float(nc, n, "max", INFINITY)) return -1;
      return 0;
    }
    if (ir_attr_get(n, "min") || ir_attr_get(n, "max"))
      return node_err(nc, "Clip-%d takes min/max as inputs, not attributes", nc->version);
    if (ir_attr_set_float(g, n, "min", -INFINITY, d) || ir_attr_set_float(g, n, "max", INFINITY, d))
      return -1;
    /* the bounds were kept aside: Clip-11 may leave min out and give max */
    for (int k = 0; k < 2; k++) {
      n->in[1] = nc->bounds[k];
      n->n_in = 2;
      if (nc->bounds[k] && const_scalar(nc, n, 1, k ? "max" : "min", k ? "max" : "min")) return -1;
    }
    n->n_in = 1;
    return 0;
  case IR_OP_LEAKY_RELU: return want_float(nc, n, "alpha", 0.01f);
  case IR_OP_BATCHNORM:
    if (want_bool(nc, n, "spatial", 1) || want_bool(nc, n, "training_mode", 0)) return -1;
    if (ir_attr_int(n, "spatial", 1) != 1) return node_err(nc, "spatial=0 is not supported");
    if (ir_attr_int(n, "training_mode", 0) != 0) return node_err(nc, "training_mode=1 is not supported");
    ir_attr_remove(n, "spatial");
    ir_attr_remove(n, "training_mode");
    ir_attr_remove(n, "momentum"); /* only matters for training */
    return want_float(nc, n, "epsilon", 1e-5f);
  case IR_OP_FLATTEN: return want_int(nc, n, "axis", 1, &x);
  case IR_OP_RESHAPE: return want_bool(nc, n, "allowzero", 0);
  case IR_OP_TRANSPOSE: return want_ints_kind(nc, n, "perm");
  case IR_OP_SQUEEZE:
  case IR_OP_UNSQUEEZE:
    if (nc->version >= 13) {
      if (ir_attr_get(n, "axes")) return node_err(nc, "takes axes as an input since opset 13");
      if (n->n_in > 1 && const_ints(nc, n, 1, "axes", "axes")) return -1;
      n->n_in = 1;
    } else if (n->n_in != 1) {
      return node_err(nc, "takes one input before opset 13");
    }
    if (want_ints_kind(nc, n, "axes")) return -1;
    if (n->op == IR_OP_UNSQUEEZE && !ir_attr_get(n, "axes")) return node_err(nc, "axes are required");
    return 0;
  case IR_OP_CONCAT:
    if (!ir_attr_get(n, "axis")) return node_err(nc, "attribute 'axis' is required");
    return want_int(nc, n, "axis", 0, &x);
  case IR_OP_PAD:
    if (check_string(nc, n, "mode", " constant ")) return -1;
    ir_attr_remove(n, "mode");
    if (nc->version >= 11) {
      if (ir_attr_get(n, "pads") || ir_attr_get(n, "value"))
        return node_err(nc, "takes pads and value as inputs since opset 11");
      if (n->n_in < 2) return node_err(nc, "the pads input is required");
      if (const_ints(nc, n, 1, "pads", "pads")) return -1;
      if (ir_attr_set_float(g, n, "value", 0.0f, d)) return -1;
      if (n->n_in > 2 && const_scalar(nc, n, 2, "constant_value", "value")) return -1;
      n->n_in = 1;
      return 0;
    }
    if (n->n_in != 1) return node_err(nc, "takes one input before opset 11");
    if (!ir_attr_get(n, "pads")) return node_err(nc, "attribute 'pads' is required");
    return want_ints_kind(nc, n, "pads") || want_float(nc, n, "value", 0.0f);
  case IR_OP_DROPOUT:
    /* Inference: Dropout is the identity; ratio/seed/training inputs unused. */
    n->n_in = 1;
    n->attrs = NULL;
    return 0;
  case IR_OP_CAST: {
    const ir_attr *a = ir_attr_get(n, "to");
    if (!a || a->kind != IR_ATTR_INT) return node_err(nc, "attribute 'to' (an int) is required");
    ir_dtype t = IR_F32;
    if (cast_target(nc, a->i, &t)) return -1;
    ir_attr_remove(n, "to");
    return ir_attr_set_string(g, n, "to", ir_dtype_name(t), d);
  }
  case IR_OP_SHAPE: return want_int(nc, n, "start", 0, &x);
  case IR_OP_GATHER: return want_int(nc, n, "axis", 0, &x);
  case IR_OP_SOFTMAX:
    /* Before opset 13, Softmax flattens to 2-D at axis (default 1); since
     * 13 it works along one axis (default -1). */
    if (nc->version < 13) {
      if (want_int(nc, n, "axis", 1, &x)) return -1;
      return ir_attr_set_int(g, n, "coerce2d", 1, d);
    }
    return want_int(nc, n, "axis", -1, &x);
  case IR_OP_QUANTIZE:
  case IR_OP_DEQUANTIZE: return want_int(nc, n, "axis", 1, &x);
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
  if (!s) return node_err(&nc, "unsupported operator");
  /* 1. the operator's version at the model's opset */
  for (int i = 0; i < 8 && s->since[i]; i++)
    if (s->since[i] <= c->opset) nc.version = s->since[i];
  if (!nc.version)
    return node_err(&nc, "not defined in opset %d (it appears in opset %d)", c->opset, s->since[0]);
  /* 2. outputs: exactly one used */
  if (np->n_output < 1 || !np->output[0] || !np->output[0][0]) return node_err(&nc, "no output");
  for (size_t i = 1; i < np->n_output; i++)
    if (np->output[i] && np->output[i][0] && remember_dropped(c, np->output[i])) return -1;
  if (s->op == IR_OP_COUNT) return import_constant(&nc);
  /* 3. inputs: defined earlier; absent optional ones ("") only at the end */
  ir_value *in[IR_MAX_INPUTS];
  size_t n_in = np->n_input;
  while (n_in > 0 && (!np->input[n_in - 1] || !np->input[n_in - 1][0])) n_in--;
  if ((int)n_in < s->min_in || (int)n_in > s->max_in)
    return node_err(&nc, "has %zu inputs, expected %d to %d", n_in, s->min_in, s->max_in);
  for (size_t i = 0; i < n_in; i++) {
    const char *name = np->input[i] ? np->input[i] : "";
    if (!name[0] && s->op == IR_OP_CLIP && i > 0) {
      in[i] = NULL;
      continue;
    }
    if (!name[0]) return node_err(&nc, "optional input %zu left out is not supported", i);
    in[i] = ir_value_find(c->g, name);
    if (!in[i]) {
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
  if (ir_value_find(c->g, np->output[0]))
    return node_err(&nc, "output '%s' duplicates a value defined earlier", np->output[0]);
  ir_value *out = ir_value_new(c->g, np->output[0], IR_VALUE_NODE, c->d);
  if (!out) return -1;
  if (s->op == IR_OP_CLIP) { /* bounds become attributes in canonicalise() */
    nc.bounds[0] = n_in > 1 ? in[1] : NULL;
    nc.bounds[1] = n_in > 2 ? in[2] : NULL;
    if (nc.version < 11 && n_in > 1) return node_err(&nc, "Clip-%d takes one input", nc.version);
    n_in = 1;
  }
  ir_node *n = ir_node_new(c->g, s->op, nc.src, in, (int)n_in, out, c->d);
  if (!n || copy_attrs(&nc, s, n) || canonicalise(&nc, n)) return -1;
  return 0;
}
