/* onnx_import: model, opset, tensors, inputs/initializers and outputs.  The
 * nodes themselves are handled in onnx_ops.c. */
#include "onnx_import.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onnx_internal.h"

enum { MAX_ELEMS = 1 << 30 }; /* largest tensor accepted, in elements */

int onnx_dtype_map(int64_t t, ir_dtype *out) {
  switch (t) {
  case 1: *out = IR_F32; return 0;
  case 2: *out = IR_U8; return 0;
  case 3: *out = IR_I8; return 0;
  case 4: *out = IR_U16; return 0;
  case 5: *out = IR_I16; return 0;
  case 6: *out = IR_I32; return 0;
  case 7: *out = IR_I64; return 0;
  case 9: *out = IR_BOOL; return 0;
  case 11: *out = IR_F64; return 0;
  case 12: *out = IR_U32; return 0;
  default: return -1;
  }
}

int onnx_dtype(onnx_ctx *c, int32_t t, const char *what, ir_dtype *out) {
  static const char *const names[] = {"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16",
                                      "INT32", "INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE",
                                      "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
  if (onnx_dtype_map(t, out) == 0) return 0;
  if (t >= 0 && t < (int32_t)(sizeof names / sizeof names[0]))
    return diag_set(c->d, "%s: %s: data type %s is not supported", c->label, what, names[t]);
  return diag_set(c->d, "%s: %s: unknown data type %d", c->label, what, (int)t);
}

/* Shape of a tensor into v; -1 with an error on bad dims. */
static int set_dims(onnx_ctx *c, ir_value *v, size_t n, const int64_t *dims, const char *what) {
  if (n > IR_MAX_RANK)
    return diag_set(c->d, "%s: %s: rank %zu exceeds the maximum %d", c->label, what, n, IR_MAX_RANK);
  int64_t total = 1;
  for (size_t i = 0; i < n; i++) {
    if (dims[i] < 0 || dims[i] > MAX_ELEMS)
      return diag_set(c->d, "%s: %s: bad dimension %lld", c->label, what, (long long)dims[i]);
    total *= dims[i];
    if (total > MAX_ELEMS)
      return diag_set(c->d, "%s: %s: tensor too large", c->label, what);
    v->dims[i] = dims[i];
  }
  v->rank = (int)n;
  return 0;
}

ir_value *onnx_tensor_to_const(onnx_ctx *c, const Onnx__TensorProto *t, const char *name,
                               const char *what) {
  ir_value *v = ir_value_new(c->g, name, IR_VALUE_CONST, c->d);
  if (!v) return NULL;
  if (!t->has_data_type) {
    diag_set(c->d, "%s: %s: tensor has no data type", c->label, what);
    return NULL;
  }
  if (onnx_dtype(c, t->data_type, what, &v->dtype) || set_dims(c, v, t->n_dims, t->dims, what))
    return NULL;
  if ((t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) ||
      t->n_external_data) {
    diag_set(c->d, "%s: %s: external tensor data is not supported", c->label, what);
    return NULL;
  }
  if (t->segment) {
    diag_set(c->d, "%s: %s: segmented tensors are not supported", c->label, what);
    return NULL;
  }
  int64_t n = ir_value_numel(v);
  size_t esz = ir_dtype_size(v->dtype);
  size_t have = 0; /* elements found in the typed field used */
  /* 1. the data must match the shape before anything is allocated */
  if (t->has_raw_data) {
    if (t->raw_data.len != (size_t)n * esz) {
      diag_set(c->d, "%s: %s: raw data has %zu bytes, shape needs %zu", c->label, what,
               t->raw_data.len, (size_t)n * esz);
      return NULL;
    }
  } else {
    have = v->dtype == IR_F32 ? t->n_float_data : v->dtype == IR_F64 ? t->n_double_data
         : v->dtype == IR_I64 ? t->n_int64_data : t->n_int32_data;
    if (have != (size_t)n) {
      diag_set(c->d, "%s: %s: tensor has %zu elements, shape needs %lld", c->label, what, have,
               (long long)n);
      return NULL;
    }
  }
  /* 2. copy */
  if (ir_value_alloc_data(c->g, v, c->d)) return NULL;
  if (t->has_raw_data) {
    if (n) memcpy(v->data, t->raw_data.data, (size_t)n * esz); /* ONNX raw data is little-endian */
    return v;
  }
  switch (v->dtype) {
  case IR_F32:
    have = t->n_float_data;
    if (have == (size_t)n && n) memcpy(v->data, t->float_data, (size_t)n * 4);
    break;
  case IR_F64:
    have = t->n_double_data;
    if (have == (size_t)n && n) memcpy(v->data, t->double_data, (size_t)n * 8);
    break;
  case IR_I64:
    have = t->n_int64_data;
    if (have == (size_t)n && n) memcpy(v->data, t->int64_data, (size_t)n * 8);
    break;
  default: /* the small integer types travel in int32_data */
    have = t->n_int32_data;
    if (have == (size_t)n)
      for (int64_t i = 0; i < n; i++) ir_elem_set_f64(v->dtype, v->data, i, t->int32_data[i]);
    break;
  }
  if (have != (size_t)n) {
    diag_set(c->d, "%s: %s: tensor has %zu elements, shape needs %lld", c->label, what, have,
             (long long)n);
    return NULL;
  }
  return v;
}

/* A graph input from its ValueInfoProto. */
static int import_input(onnx_ctx *c, const Onnx__ValueInfoProto *vi) {
  char what[300];
  snprintf(what, sizeof what, "input '%.200s'", vi->name);
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
    return diag_set(c->d, "%s: %s: only tensor inputs are supported", c->label, what);
  ir_value *v = ir_value_new(c->g, vi->name, IR_VALUE_INPUT, c->d);
  if (!v) return -1;
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (!tt->has_elem_type) return diag_set(c->d, "%s: %s: no element type", c->label, what);
  if (onnx_dtype(c, tt->elem_type, what, &v->dtype)) return -1;
  if (tt->shape) {
    if (tt->shape->n_dim > IR_MAX_RANK)
      return diag_set(c->d, "%s: %s: rank %zu exceeds the maximum %d", c->label, what,
                      tt->shape->n_dim, IR_MAX_RANK);
    v->rank = (int)tt->shape->n_dim;
    for (size_t i = 0; i < tt->shape->n_dim; i++) {
      const Onnx__TensorShapeProto__Dimension *dm = tt->shape->dim[i];
      v->dims[i] = -1; /* symbolic or missing: unknown */
      if (dm->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
        if (dm->dim_value < 0 || dm->dim_value > MAX_ELEMS)
          return diag_set(c->d, "%s: %s: bad dimension %lld", c->label, what,
                          (long long)dm->dim_value);
        v->dims[i] = dm->dim_value;
      }
    }
    int64_t total = 1;
    for (int i = 0; i < v->rank; i++)
      if (v->dims[i] >= 0 && (total *= v->dims[i]) > MAX_ELEMS)
        return diag_set(c->d, "%s: %s: tensor too large", c->label, what);
  }
  return ir_add_input(c->g, v, c->d);
}

/* The type graph output vi declares, into t: what it leaves out (no type,
 * UNDEFINED element type, no shape, dim_param or missing dimensions) stays
 * a wildcard. Shape inference checks outputs against it. */
static int import_output_decl(onnx_ctx *c, const Onnx__ValueInfoProto *vi, ir_decl *t) {
  char what[300];
  snprintf(what, sizeof what, "output '%.200s'", vi->name);
  *t = (ir_decl){.rank = -1};
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET) return 0;
  if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
    return diag_set(c->d, "%s: %s: only tensor outputs are supported", c->label, what);
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (tt->has_elem_type && tt->elem_type != 0) { /* 0: UNDEFINED */
    if (onnx_dtype(c, tt->elem_type, what, &t->dtype)) return -1;
    t->has_dtype = 1;
  }
  if (!tt->shape) return 0;
  if (tt->shape->n_dim > IR_MAX_RANK)
    return diag_set(c->d, "%s: %s: rank %zu exceeds the maximum %d", c->label, what, tt->shape->n_dim,
                    IR_MAX_RANK);
  t->rank = (int)tt->shape->n_dim;
  for (size_t i = 0; i < tt->shape->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *dm = tt->shape->dim[i];
    t->dims[i] = -1;
    if (dm->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) continue;
    if (dm->dim_value < 0 || dm->dim_value > MAX_ELEMS)
      return diag_set(c->d, "%s: %s: bad dimension %lld", c->label, what, (long long)dm->dim_value);
    t->dims[i] = dm->dim_value;
  }
  return 0;
}

/* A bound input becomes a constant with the .npy data, checked against the
 * declared type. */
static int import_bound(onnx_ctx *c, const Onnx__ValueInfoProto *vi, const npy_array *a) {
  if (import_input(c, vi)) return -1;
  ir_value *v = c->g->inputs[--c->g->n_inputs]; /* undo the input listing */
  /* npy_dtype and ir_dtype list the same types in order (uint64, npy's last, is not the IR's) */
  if ((ir_dtype)a->dtype != v->dtype)
    return diag_set(c->d, "%s: --bind %s: the .npy holds %s, the input is %s", c->label, vi->name,
                    npy_dtype_name(a->dtype), ir_dtype_name(v->dtype));
  if (v->rank >= 0 && v->rank != a->ndim)
    return diag_set(c->d, "%s: --bind %s: the .npy has rank %d, the input has rank %d", c->label,
                    vi->name, a->ndim, v->rank);
  for (int i = 0; i < a->ndim && v->rank >= 0; i++)
    if (v->dims[i] >= 0 && v->dims[i] != a->shape[i])
      return diag_set(c->d, "%s: --bind %s: dimension %d is %lld in the .npy, %lld in the model",
                      c->label, vi->name, i, (long long)a->shape[i], (long long)v->dims[i]);
  if (set_dims(c, v, (size_t)a->ndim, a->shape, vi->name)) return -1;
  v->kind = IR_VALUE_CONST;
  if (ir_value_alloc_data(c->g, v, c->d)) return -1;
  if (a->nbytes) memcpy(v->data, a->data, a->nbytes);
  return 0;
}

static int import_graph(onnx_ctx *c, const Onnx__GraphProto *gp, const onnx_bind *binds,
                        int n_binds) {
  /* 1. initializers are constants */
  for (size_t i = 0; i < gp->n_initializer; i++) {
    const Onnx__TensorProto *t = gp->initializer[i];
    char what[300];
    snprintf(what, sizeof what, "initializer '%.200s'", t->name ? t->name : "");
    if (!t->name || !t->name[0])
      return diag_set(c->d, "%s: initializer %zu has no name", c->label, i);
    if (!onnx_tensor_to_const(c, t, t->name, what)) return -1;
  }
  if (gp->n_sparse_initializer)
    return diag_set(c->d, "%s: sparse initializers are not supported", c->label);
  /* 2. inputs that are not initializers; bound ones become constants */
  for (size_t i = 0; i < gp->n_input; i++) {
    const Onnx__ValueInfoProto *vi = gp->input[i];
    if (!vi->name || !vi->name[0]) return diag_set(c->d, "%s: graph input %zu has no name", c->label, i);
    ir_value *old = ir_value_find(c->g, vi->name);
    if (old && old->kind == IR_VALUE_CONST) continue; /* initializer also listed as input */
    if (old) return diag_set(c->d, "%s: graph input '%s' is listed twice", c->label, vi->name);
    const npy_array *bound = NULL;
    for (int k = 0; k < n_binds; k++)
      if (strcmp(binds[k].name, vi->name) == 0) bound = binds[k].value;
    if (bound ? import_bound(c, vi, bound) : import_input(c, vi)) return -1;
  }
  for (int k = 0; k < n_binds; k++) {
    ir_value *v = ir_value_find(c->g, binds[k].name);
    if (!v || v->kind != IR_VALUE_CONST || v->data == NULL)
      return diag_set(c->d, "%s: --bind %s: the model has no graph input of that name", c->label,
                      binds[k].name);
  }
  /* 3. nodes, in the order ONNX requires (topological) */
  for (size_t i = 0; i < gp->n_node; i++)
    if (onnx_import_node(c, gp->node[i], (int)i)) return -1;
  /* 4. outputs, with the types the model declares for them */
  if (gp->n_output == 0) return diag_set(c->d, "%s: the graph has no outputs", c->label);
  c->g->out_decl = arena_alloc(c->g->arena, sizeof(ir_decl) * gp->n_output);
  if (!c->g->out_decl) return diag_oom(c->d);
  for (size_t i = 0; i < gp->n_output; i++) {
    const char *name = gp->output[i]->name ? gp->output[i]->name : "";
    ir_value *v = ir_value_find(c->g, name);
    for (int k = 0; !v && k < c->n_dropped; k++)
      if (!strcmp(c->dropped[k], name))
        return diag_set(c->d, "%s: graph output '%s' is an optional output (Dropout mask, MaxPool indices, "
                        "LayerNormalization mean, ...) that tessel does not support", c->label, name);
    if (!v) return diag_set(c->d, "%s: graph output '%s' is not produced by any node", c->label, name);
    if (import_output_decl(c, gp->output[i], &c->g->out_decl[i]) || ir_add_output(c->g, v, c->d)) return -1;
  }
  return 0;
}

/* The default-domain opset of the model; -1 with an error if absent/out of range. */
static int model_opset(onnx_ctx *c, const Onnx__ModelProto *m) {
  int found = -1;
  for (size_t i = 0; i < m->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = m->opset_import[i];
    const char *dom = o->domain ? o->domain : "";
    if (strcmp(dom, "") && strcmp(dom, "ai.onnx")) continue;
    if (!o->has_version || o->version < 1 || o->version > 1000)
      return diag_set(c->d, "%s: bad opset version in opset_import", c->label);
    found = (int)o->version;
  }
  if (found < 0) return diag_set(c->d, "%s: the model imports no default-domain opset", c->label);
  if (found < ONNX_MIN_OPSET)
    return diag_set(c->d, "%s: opset %d is older than the oldest supported, %d", c->label, found,
                    ONNX_MIN_OPSET);
  if (found > ONNX_MAX_OPSET)
    return diag_set(c->d, "%s: opset %d is newer than the newest supported, %d", c->label, found,
                    ONNX_MAX_OPSET);
  c->opset = found;
  return 0;
}

/* A varint at buf[*p], below end; 0, or -1 when it runs past end or past 10 bytes. */
static int read_varint(const uint8_t *buf, size_t end, size_t *p, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (*p >= end) return -1;
    uint8_t b = buf[(*p)++];
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 0;
  }
  return -1;
}

/* The byte offset of the first message nested deeper than ONNX_MAX_NESTING
 * levels (the ModelProto is level 1), or -1 when there is none.
 *
 * protobuf-c decodes a nested message by recursion and has no depth limit,
 * so a few KB of TypeProto.sequence_type or If subgraphs nested thousands of
 * levels deep overflow the stack. This scan walks the same wire format
 * without recursion (a fixed stack of ONNX_MAX_NESTING open messages) and
 * descends exactly where protobuf-c would: into the length-delimited fields
 * that the generated descriptors declare as messages (TypeProto elem types,
 * AttributeProto g/graphs/tp, GraphProto nodes and value infos, ...); strings,
 * bytes, packed scalars and unknown fields are skipped. At bytes that are not
 * well-formed it stops with -1: protobuf-c refuses them before it descends
 * past them, with the decoding error. */
static long long nesting_too_deep(const uint8_t *buf, size_t len) {
  struct {
    size_t end;                             /* first byte after the message */
    const ProtobufCMessageDescriptor *desc; /* its type */
  } open[ONNX_MAX_NESTING];
  int depth = 1;
  open[0].end = len;
  open[0].desc = &onnx__model_proto__descriptor;
  size_t p = 0;
  for (;;) {
    while (p == open[depth - 1].end)
      if (--depth == 0) return -1;
    size_t end = open[depth - 1].end, at = p;
    uint64_t key, n;
    if (read_varint(buf, end, &p, &key)) return -1;
    switch (key & 7) {
    case 0: /* varint */
      if (read_varint(buf, end, &p, &n)) return -1;
      break;
    case 1: /* 64-bit */
      if (end - p < 8) return -1;
      p += 8;
      break;
    case 5: /* 32-bit */
      if (end - p < 4) return -1;
      p += 4;
      break;
    case 2: { /* length-delimited: a message, or bytes to skip */
      if (read_varint(buf, end, &p, &n) || n > end - p) return -1;
      const ProtobufCFieldDescriptor *f =
          key >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(open[depth - 1].desc, (unsigned)(key >> 3))
                                 : NULL;
      if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE) {
        p += (size_t)n;
        break;
      }
      if (depth == ONNX_MAX_NESTING) return (long long)at;
      open[depth].end = p + (size_t)n;
      open[depth].desc = f->descriptor;
      depth++;
      break;
    }
    default: return -1; /* groups (3, 4) and 6, 7: protobuf-c refuses them */
    }
  }
}

static ir_graph *import_buffer(const uint8_t *buf, size_t len, const char *label,
                               const onnx_bind *binds, int n_binds, onnx_status *st, diag *d) {
  if (len == 0) {
    diag_set(d, "%s: the file is empty", label);
    return NULL;
  }
  long long deep = nesting_too_deep(buf, len);
  if (deep >= 0) {
    diag_set(d, "%s: nesting deeper than %d levels (at byte %lld)", label, ONNX_MAX_NESTING, deep);
    return NULL;
  }
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, buf);
  if (!m) {
    diag_set(d, "%s: not a valid ONNX model (protobuf decoding failed)", label);
    return NULL;
  }
  onnx_ctx c = {.label = label, .d = d};
  ir_graph *g = NULL;
  if (!m->graph) {
    diag_set(d, "%s: the model has no graph", label);
    goto out;
  }
  if (model_opset(&c, m)) goto out;
  g = ir_graph_new(m->graph->name && m->graph->name[0] ? m->graph->name : "main", d);
  if (!g) goto out;
  c.g = g;
  c.gp = m->graph;
  if (import_graph(&c, m->graph, binds, n_binds)) {
    ir_graph_free(g);
    g = NULL;
  } else {
    ir_uses_rebuild(g); /* canonicalisation trimmed inputs (Clip bounds, axes, pads) in place */
  }
out:
  if (st) st->unsupported_op = c.unsupported_op;
  onnx__model_proto__free_unpacked(m, NULL);
  return g;
}

ir_graph *onnx_import_buffer(const uint8_t *buf, size_t len, const char *label,
                             const onnx_bind *binds, int n_binds, diag *d) {
  return import_buffer(buf, len, label, binds, n_binds, NULL, d);
}

ir_graph *onnx_import_file(const char *path, const onnx_bind *binds, int n_binds, diag *d) {
  return onnx_import_file_status(path, binds, n_binds, NULL, d);
}

ir_graph *onnx_import_file_status(const char *path, const onnx_bind *binds, int n_binds,
                                  onnx_status *status, diag *d) {
  if (status) status->unsupported_op = 0;
  /* The file is mapped, not read: a 45 MB model then costs no copy.
   * O_NONBLOCK: a FIFO with no writer would block open() forever; this way
   * it opens at once and fstat rejects it. */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    diag_set(d, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    close(fd);
    diag_set(d, "%s: not a regular file", path);
    return NULL;
  }
  size_t len = (size_t)st.st_size;
  void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  close(fd);
  if (len && map == MAP_FAILED) {
    diag_set(d, "%s: cannot map: %s", path, strerror(errno));
    return NULL;
  }
  ir_graph *g = import_buffer(map, len, path, binds, n_binds, status, d);
  if (len) munmap(map, len);
  return g;
}
