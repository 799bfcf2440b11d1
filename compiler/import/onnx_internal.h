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
  int unsupported_op;   /* set when a node's operator is outside the table */
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

#endif
