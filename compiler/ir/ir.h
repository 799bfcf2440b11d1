/* ir: the graph IR shared by every compiler stage.
 *
 * A graph is a list of values and a topologically ordered list of nodes.
 * A value is a graph input, a constant (with its data), or the single output
 * of one node.  Every value carries dtype, shape, quantisation (none, per
 * tensor or per channel) and layout, so later stages (quantisation, layout,
 * lowering) annotate values instead of inventing side tables.  Every node
 * remembers the ONNX node it came from (src) for diagnostics and the profiler.
 *
 * Memory: everything a graph points to lives in its arena; ir_graph_free()
 * releases it all.  Functions that allocate return NULL/-1 and fill a diag
 * on failure (out of memory is an error value too). */
#ifndef TESSEL_IR_H
#define TESSEL_IR_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

#define IR_MAX_RANK 8   /* most dimensions a value may have */
#define IR_MAX_INPUTS 64 /* Concat and the n-ary ops (DenseNet concatenates up to 49 tensors) */

/* In shared/npy.h's npy_dtype order (the importer casts one to the other);
 * npy's uint64, after these, has no IR type. */
typedef enum {
  IR_F32, /* float32 */
  IR_F64, /* float64 */
  IR_I8,  /* int8 */
  IR_U8,  /* uint8 */
  IR_I16, /* int16 */
  IR_I32, /* int32 */
  IR_I64, /* int64 */
  IR_BOOL, /* one byte, 0 or 1 */
  IR_U16,  /* uint16 */
  IR_U32,  /* uint32 */
  IR_DTYPE_COUNT
} ir_dtype;

typedef enum {
#define IR_OP(e, s) IR_OP_##e,
#include "ir_ops.def"
#undef IR_OP
  IR_OP_COUNT
} ir_op;

typedef enum {
  IR_QUANT_NONE,    /* a plain value */
  IR_QUANT_TENSOR,  /* one scale and zero point */
  IR_QUANT_CHANNEL, /* one scale and zero point per index along axis */
} ir_quant_kind;

typedef struct ir_quant {
  ir_quant_kind kind; /* none, per tensor, per channel */
  int axis;           /* per channel: the channel dimension */
  int n;              /* number of scales (1 per tensor) */
  float *scale;       /* n scales, real = scale * (q - zero_point) */
  int32_t *zero_point; /* n zero points */
} ir_quant;

typedef enum {
  IR_LAYOUT_ANY,   /* as ONNX has it (NCHW for images); printed not at all */
  IR_LAYOUT_NCHW,  /* explicitly NCHW */
  IR_LAYOUT_NHWC,  /* channels last */
  IR_LAYOUT_NCHWC, /* channel blocks of layout_block: N, C/b, H, W, b */
} ir_layout;

typedef enum {
  IR_VALUE_INPUT, /* a graph input, given at run time */
  IR_VALUE_CONST, /* a constant, data holds its elements */
  IR_VALUE_NODE,  /* the output of node def */
} ir_value_kind;

typedef struct ir_node ir_node;

typedef struct ir_value {
  int id;               /* unique in the graph, stable (creation order) */
  const char *name;     /* unique in the graph */
  ir_value_kind kind;   /* input, constant or node output */
  ir_dtype dtype;       /* element type */
  int rank;             /* number of dimensions, -1 while unknown */
  int64_t dims[IR_MAX_RANK]; /* dims[0..rank-1], -1 for an unknown dimension */
  ir_quant quant;       /* quantisation parameters */
  ir_layout layout;     /* memory layout of the value */
  int layout_block;     /* IR_LAYOUT_NCHWC: channels per block */
  void *data;           /* IR_VALUE_CONST: row-major elements of dtype */
  ir_node *def;         /* IR_VALUE_NODE: the producing node */
  int is_output;        /* listed in graph outputs */
  ir_node **users;      /* live nodes reading v, once per input slot; kept by ir.c */
  int n_users, cap_users;
} ir_value;

typedef enum {
  IR_ATTR_INT,    /* i */
  IR_ATTR_FLOAT,  /* f */
  IR_ATTR_INTS,   /* n ints */
  IR_ATTR_FLOATS, /* n floats */
  IR_ATTR_STRING, /* s */
} ir_attr_kind;

typedef struct ir_attr {
  const char *name;     /* attribute name, list sorted by name */
  ir_attr_kind kind;    /* which field holds the value */
  int64_t i;            /* IR_ATTR_INT */
  float f;              /* IR_ATTR_FLOAT */
  int n;                /* IR_ATTR_INTS / IR_ATTR_FLOATS: element count */
  int64_t *ints;        /* IR_ATTR_INTS */
  float *floats;        /* IR_ATTR_FLOATS */
  const char *s;        /* IR_ATTR_STRING */
  struct ir_attr *next; /* next attribute by name */
} ir_attr;

struct ir_node {
  int id;                       /* creation index, stable */
  ir_op op;                     /* operator */
  const char *src;              /* ONNX node it came from: name, or "#index" */
  int n_in;                     /* number of inputs */
  ir_value *in[IR_MAX_INPUTS];  /* inputs, all non-NULL */
  ir_value *out;                /* the single output */
  ir_attr *attrs;               /* attributes sorted by name */
};

typedef struct ir_name_index ir_name_index; /* private to ir.c */

/* The type a model declares for a graph output, which shape inference must
 * agree with; what the model leaves out is a wildcard. */
typedef struct ir_decl {
  int has_dtype;             /* 0: no element type given */
  ir_dtype dtype;            /* the element type, when has_dtype */
  int rank;                  /* -1: no shape given */
  int64_t dims[IR_MAX_RANK]; /* dims[0..rank-1], -1 for a symbolic or missing dimension */
} ir_decl;

typedef struct ir_graph {
  arena *arena;        /* owns everything below */
  const char *name;    /* graph name */
  ir_value **values;   /* every value ever created (live or not) */
  int n_values, cap_values;
  int next_value_id;   /* id of the next value: ids stay unique after compaction */
  ir_node **nodes;     /* live nodes in topological order */
  int n_nodes, cap_nodes;
  ir_value **inputs;   /* graph inputs in order */
  int n_inputs, cap_inputs;
  ir_value **outputs;  /* graph outputs in order */
  int n_outputs, cap_outputs;
  ir_decl *out_decl;   /* NULL, or n_outputs declared types (the importer's): outputs[i] must match out_decl[i] */
  ir_name_index *index; /* name -> value for ir_value_find; kept by ir.c */
  int uses_stale;       /* 1: users lists untrusted (OOM, or in[] edited behind ir.c): scan */
} ir_graph;

/* Names and sizes. */
const char *ir_dtype_name(ir_dtype t);              /* "f32", "i8", ... */
int ir_dtype_parse(const char *s, size_t n, ir_dtype *out); /* 0 ok, -1 unknown */
size_t ir_dtype_size(ir_dtype t);
int ir_dtype_is_float(ir_dtype t);
const char *ir_op_name(ir_op op);                   /* "Conv", ... */
int ir_op_parse(const char *s, size_t n, ir_op *out);

/* A new empty graph with its own arena; NULL (and d filled) on failure. */
ir_graph *ir_graph_new(const char *name, diag *d);
void ir_graph_free(ir_graph *g);

/* A new value named `name` (must be unique: -1 with an error otherwise). */
ir_value *ir_value_new(ir_graph *g, const char *name, ir_value_kind kind, diag *d);
/* The value named `name` in g->values, or NULL; O(1) through the graph's
 * name index.  Values are renamed only through the two functions below, and
 * g->values is shrunk only by ir_compact_values, so the index stays in step. */
ir_value *ir_value_find(const ir_graph *g, const char *name);
/* Gives v the name `name` (a string that outlives g, e.g. in its arena, or ""
 * for a value that is dead); no other value may hold `name` unless it is "". */
void ir_value_rename(ir_graph *g, ir_value *v, const char *name);
/* Exchanges the names of a and b. */
void ir_value_swap_names(ir_graph *g, ir_value *a, ir_value *b);
/* A fresh name "base" or "base.N" not used in g, N the smallest that is free
 * (arena string, NULL on OOM). */
const char *ir_unique_name(ir_graph *g, const char *base);
/* Element count of a value with known shape; -1 when any dim is unknown. */
int64_t ir_value_numel(const ir_value *v);
/* Allocates v->data for its (known) shape; -1 on OOM or unknown shape. */
int ir_value_alloc_data(ir_graph *g, ir_value *v, diag *d);
/* Copies dtype, rank and dims from src to dst. */
void ir_value_copy_type(ir_value *dst, const ir_value *src);

int ir_add_input(ir_graph *g, ir_value *v, diag *d);
int ir_add_output(ir_graph *g, ir_value *v, diag *d);
/* Appends a node producing `out` (which becomes IR_VALUE_NODE). */
ir_node *ir_node_new(ir_graph *g, ir_op op, const char *src, ir_value *const *in,
                     int n_in, ir_value *out, diag *d);
/* Removes node n from the node list (its output becomes dangling). */
void ir_node_remove(ir_graph *g, ir_node *n);
/* Every use of `from` (node inputs and graph outputs) now uses `to`. */
void ir_replace_uses(ir_graph *g, ir_value *from, ir_value *to);
/* Number of node inputs and graph outputs that use v. */
int ir_use_count(const ir_graph *g, const ir_value *v);
/* The one live node that reads v (in one input slot), or NULL when v is a
 * graph output or has no or several uses. */
ir_node *ir_single_user(const ir_graph *g, const ir_value *v);
/* Input k (< n->n_in) of live node n becomes v. */
void ir_node_set_input(ir_graph *g, ir_node *n, int k, ir_value *v);
/* Node n's inputs become in[0..n_in-1]. */
void ir_node_set_inputs(ir_graph *g, ir_node *n, ir_value *const *in, int n_in);
/* Use counts are kept by ir.c: the node functions above maintain each value's
 * users.  Code that edits g->nodes or a node's in[]/n_in directly (the
 * importer trimming inputs, dce compacting the node list) calls this after. */
void ir_uses_rebuild(ir_graph *g);
/* Turns a node's output into a constant holding `data` (arena memory) and
 * removes the node. */
void ir_node_to_const(ir_graph *g, ir_node *n, void *data);
/* Drops values that are neither inputs, outputs, node outputs nor used
 * (unreferenced constants), keeping creation order. */
void ir_compact_values(ir_graph *g);

/* Attributes (set replaces an existing attribute of the same name). */
int ir_attr_set_int(ir_graph *g, ir_node *n, const char *name, int64_t v, diag *d);
int ir_attr_set_float(ir_graph *g, ir_node *n, const char *name, float v, diag *d);
int ir_attr_set_ints(ir_graph *g, ir_node *n, const char *name, const int64_t *v, int cnt, diag *d);
int ir_attr_set_floats(ir_graph *g, ir_node *n, const char *name, const float *v, int cnt, diag *d);
int ir_attr_set_string(ir_graph *g, ir_node *n, const char *name, const char *v, diag *d);
/* Sets every attribute of from on to (a rewrite keeping the original's). */
int ir_attrs_copy(ir_graph *g, ir_node *to, const ir_node *from, diag *d);
const ir_attr *ir_attr_get(const ir_node *n, const char *name);
void ir_attr_remove(ir_node *n, const char *name);
/* Typed lookups with a default when absent. */
int64_t ir_attr_int(const ir_node *n, const char *name, int64_t dflt);
float ir_attr_float(const ir_node *n, const char *name, float dflt);
/* The ints of an IR_ATTR_INTS attribute (count in *cnt), or NULL if absent. */
const int64_t *ir_attr_ints(const ir_node *n, const char *name, int *cnt);

/* A located error about node n: "node 'conv3' (Conv): <message>"; returns -1. */
int ir_node_error(diag *d, const ir_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Element i of a constant-like buffer of dtype t, as double / int64. */
double ir_elem_f64(ir_dtype t, const void *data, int64_t i);
int64_t ir_elem_i64(ir_dtype t, const void *data, int64_t i);
/* Stores x (rounded/truncated as C casts do) as element i of dtype t. */
void ir_elem_set_f64(ir_dtype t, void *data, int64_t i, double x);

#endif
