/* onnx_import: ONNX model (protobuf) -> graph IR.
 *
 * Accepts opset 7..17 of the default domain with every operator's version
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

#define ONNX_MIN_OPSET 7  /* oldest default-domain opset accepted */
#define ONNX_MAX_OPSET 17 /* newest default-domain opset whose operators we know */
/* Deepest nesting of protobuf messages accepted, the ModelProto being level
 * 1. A real model needs about 7 (model, graph, value info, type, tensor type,
 * shape, dimension) and 3 more per level of subgraph; a deeper file is
 * refused before it is decoded, whose recursion would overflow the stack. */
#define ONNX_MAX_NESTING 64

typedef struct onnx_bind {
  const char *name;          /* graph input to replace */
  const npy_array *value;    /* its constant value (copied into the graph) */
} onnx_bind;

/* Decodes `len` bytes of an ONNX ModelProto.  `label` names the model in
 * messages (usually the path).  Returns a graph owned by the caller
 * (ir_graph_free), or NULL with d filled. */
ir_graph *onnx_import_buffer(const uint8_t *buf, size_t len, const char *label,
                             const onnx_bind *binds, int n_binds, diag *d);

/* Reads the file at path, then onnx_import_buffer(). */
ir_graph *onnx_import_file(const char *path, const onnx_bind *binds, int n_binds, diag *d);

#endif
