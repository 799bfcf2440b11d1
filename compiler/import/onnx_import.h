/* onnx_import: ONNX model (protobuf) -> graph IR.
 *
 * Accepts opset 1..21 of the default domain with every operator's version
 * checked against the model's opset import, initializers (also when listed
 * in graph.input: the initializer wins and the value is a constant),
 * attributes, and bindings that turn graph inputs into constants (--bind).
 * Each ONNX operator is canonicalised on the way in (version differences
 * such as Clip's attribute vs input bounds disappear); see docs/compiler.md.
 *
 * Errors name the file, the node and what is unsupported, e.g.
 * "m.onnx: node 'clip1' (Clip): min must be a constant". */
#ifndef TESSEL_ONNX_IMPORT_H
#define TESSEL_ONNX_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "npy.h"

#define ONNX_MIN_OPSET 1  /* oldest default-domain opset accepted */
#define ONNX_MAX_OPSET 21 /* newest default-domain opset whose operators we know (ONNX 1.16) */
/* Deepest nesting of protobuf messages accepted, the ModelProto being level
 * 1. A real model needs about 7 (model, graph, value info, type, tensor type,
 * shape, dimension) and 3 more per level of subgraph; a deeper file is
 * refused before it is decoded, whose recursion would overflow the stack. */
#define ONNX_MAX_NESTING 64

typedef struct onnx_bind {
  const char *name;          /* graph input to replace */
  const npy_array *value;    /* its constant value (copied into the graph) */
} onnx_bind;

/* One ONNX operator the importer reads (its spec table, onnx_ops.c). */
typedef struct onnx_op_spec {
  const char *name;    /* ONNX op_type */
  ir_op op;            /* IR operator; IR_OP_COUNT: becomes a constant */
  int since[8];        /* versions of the operator (since-version), 0-terminated */
  int until;           /* last opset that defines it (deprecated after), 0: every one */
  int min_in, max_in;  /* input count */
  const char *attrs;   /* accepted attribute names, space separated */
  const char *runs;    /* where it runs: "NPU kernel", "core float", ... */
  const char *limits;  /* what tessel does not support of it ("" for nothing) */
} onnx_op_spec;

/* The spec table: onnx_op_info(0 .. onnx_op_count()-1), NULL outside. */
int onnx_op_count(void);
const onnx_op_spec *onnx_op_info(int i);

/* Why the last import failed, for the exit status: 1 when the model needs
 * an operator outside the table (CLI exit 3), else 0. */
typedef struct onnx_status {
  int unsupported_op; /* the model uses an operator the importer does not know */
} onnx_status;

/* Decodes `len` bytes of an ONNX ModelProto.  `label` names the model in
 * messages (usually the path).  Returns a graph owned by the caller
 * (ir_graph_free), or NULL with d filled. */
ir_graph *onnx_import_buffer(const uint8_t *buf, size_t len, const char *label,
                             const onnx_bind *binds, int n_binds, diag *d);

/* Reads the file at path, then onnx_import_buffer(). */
ir_graph *onnx_import_file(const char *path, const onnx_bind *binds, int n_binds, diag *d);
/* onnx_import_file() that also says why it failed (st may be NULL). */
ir_graph *onnx_import_file_status(const char *path, const onnx_bind *binds, int n_binds,
                                  onnx_status *st, diag *d);

#endif
