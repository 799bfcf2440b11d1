/* onnx_internal: what the importer's two halves share (not a public API).
 * onnx_import.c reads the model, tensors and graph; onnx_ops.c checks and
 * canonicalises one node at a time. */
#ifndef TESSEL_ONNX_INTERNAL_H
#define TESSEL_ONNX_INTERNAL_H

#include "ir.h"
#include "onnx.pb-c.h"

typedef struct onnx_ctx {
  ir_graph *g;        /* graph being built */
  const char *label;  /* model name for messages */
  diag *d;            /* where errors go */
  int opset;          /* default-domain opset version of the model */
  const Onnx__GraphProto *gp; /* the graph being imported */
  const char **dropped; /* names of optional node outputs tessel does not model */
  int n_dropped, cap_dropped;
} onnx_ctx;

/* The IR dtype of ONNX TensorProto.DataType `t`; -1 (no message) when
 * tessel has none. */
int onnx_dtype_map(int64_t t, ir_dtype *out);
/* An IR dtype for ONNX TensorProto.DataType `t`; -1 (and an error naming
 * `what`) when tessel does not support it. */
int onnx_dtype(onnx_ctx *c, int32_t t, const char *what, ir_dtype *out);
/* A new constant value named `name` holding tensor t. */
ir_value *onnx_tensor_to_const(onnx_ctx *c, const Onnx__TensorProto *t, const char *name,
                               const char *what);
/* Checks and canonicalises node np (index i in the graph) into c->g. */
int onnx_import_node(onnx_ctx *c, const Onnx__NodeProto *np, int index);

/* How deep the messages of the serialised model at buf nest along the
 * paths where ONNX nests (graphs in If/Loop attributes, types in types;
 * the model's graph is depth 1), counted without recursion (onnx_depth.c);
 * limit + 1 as soon as it is deeper than limit (at most ONNX_MAX_NESTING).
 * protobuf-c decodes recursively: the importer refuses a model deeper than
 * ONNX_MAX_NESTING before decoding it. */
enum { ONNX_MAX_NESTING = 256 };
int onnx_nesting_depth(const uint8_t *buf, size_t len, int limit);

#endif
