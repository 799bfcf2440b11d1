/* libFuzzer target for the ONNX importer: any bytes go through protobuf
 * decoding, import and the graph passes; every outcome must be a graph or an
 * error value (no crash, leak, hang or sanitizer report).  Inputs with
 * symbolic dimensions get 1 so the passes run on them too.
 *
 * Structure-aware mutations (LLVMFuzzerCustomMutator): half the time the
 * input is decoded with protobuf-c, changed as a model, and encoded again,
 * so mutations reach the importer's checks instead of dying in the
 * decoder:
 *   1. a huge, zero or negative dimension in a graph input, output,
 *      value_info or initializer;
 *   2. a huge or negative integer attribute (kernel, stride, pad, axis);
 *   3. a cycle: a node reads the output of itself or of a later node;
 *   4. deep nesting: a chain of up to 1,000 graph attributes (If/Loop
 *      bodies), each a graph of one node holding the next;
 *   5. a name clash: a node output renamed to an initializer or input.
 * The other half, and every input that does not decode, get libFuzzer's
 * byte mutations. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_import.h"
#include "pipeline.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  diag d = {{0}};
  ir_graph *g = onnx_import_buffer(data, size, "fuzz.onnx", NULL, 0, &d);
  if (!g) return 0;
  for (int i = 0; i < g->n_inputs; i++)
    for (int k = 0; k < g->inputs[i]->rank; k++)
      if (g->inputs[i]->dims[k] < 0) g->inputs[i]->dims[k] = 1;
  pipeline_opts o = {.verify_each = 1};
  if (pipeline_graph(g, &o, &d) == 0) (void)pipeline_quant(g, &o, &d); /* QDQ folding too */
  ir_graph_free(g);
  return 0;
}

/* ---- the structure-aware mutator ---- */

static uint64_t rng;

static uint32_t pick(uint32_t n) { /* 0 .. n-1 (xorshift64) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return n ? (uint32_t)(rng % n) : 0;
}

static const int64_t odd_values[] = {0, -1, -2, 1, 3, 65535, 65536, 1ll << 20, 1ll << 31, (1ll << 31) - 1,
                                     1ll << 32, 1ll << 62, INT64_MAX, INT64_MIN};
#define N_ODD (sizeof odd_values / sizeof odd_values[0])

static int64_t odd(void) { return odd_values[pick(N_ODD)]; }

/* 1. A dimension of a value's type or of an initializer. */
static int huge_dim(Onnx__GraphProto *g) {
  size_t nv = g->n_input + g->n_output + g->n_value_info, n = nv + g->n_initializer;
  if (!n) return 0;
  size_t k = pick((uint32_t)n);
  if (k >= nv) {
    Onnx__TensorProto *t = g->initializer[k - nv];
    if (!t->n_dims) return 0;
    t->dims[pick((uint32_t)t->n_dims)] = odd();
    return 1;
  }
  Onnx__ValueInfoProto *v = k < g->n_input ? g->input[k]
                            : k < g->n_input + g->n_output ? g->output[k - g->n_input]
                                                           : g->value_info[k - g->n_input - g->n_output];
  if (!v->type || v->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !v->type->tensor_type->shape) return 0;
  Onnx__TensorShapeProto *s = v->type->tensor_type->shape;
  if (!s->n_dim) return 0;
  Onnx__TensorShapeProto__Dimension *dim = s->dim[pick((uint32_t)s->n_dim)];
  if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) free(dim->dim_param);
  dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
  dim->dim_value = odd();
  return 1;
}

/* 2. An integer attribute of a node. */
static int huge_attr(Onnx__GraphProto *g) {
  if (!g->n_node) return 0;
  Onnx__NodeProto *nd = g->node[pick((uint32_t)g->n_node)];
  if (!nd->n_attribute) return 0;
  Onnx__AttributeProto *a = nd->attribute[pick((uint32_t)nd->n_attribute)];
  if (a->n_ints) a->ints[pick((uint32_t)a->n_ints)] = odd();
  else if (a->has_i) a->i = odd();
  else return 0;
  return 1;
}

/* 3. Node i reads an output of node j >= i. */
static int make_cycle(Onnx__GraphProto *g) {
  if (!g->n_node) return 0;
  uint32_t i = pick((uint32_t)g->n_node), j = i + pick((uint32_t)g->n_node - i);
  Onnx__NodeProto *a = g->node[i], *b = g->node[j];
  if (!a->n_input || !b->n_output) return 0;
  char *name = strdup(b->output[pick((uint32_t)b->n_output)]);
  if (!name) return 0;
  size_t k = pick((uint32_t)a->n_input);
  free(a->input[k]);
  a->input[k] = name;
  return 1;
}

/* 4. A node gets a graph attribute nested depth levels deep. */
static Onnx__GraphProto *nested(int depth) {
  Onnx__GraphProto *g = malloc(sizeof *g);
  Onnx__NodeProto *nd = malloc(sizeof *nd);
  Onnx__NodeProto **nodes = malloc(sizeof *nodes);
  if (!g || !nd || !nodes) return free(g), free(nd), free(nodes), NULL;
  onnx__graph_proto__init(g);
  onnx__node_proto__init(nd);
  g->name = strdup("body");
  nd->op_type = strdup(depth % 2 ? "If" : "Loop");
  g->n_node = 1, g->node = nodes, nodes[0] = nd;
  if (depth > 0) {
    Onnx__AttributeProto *a = malloc(sizeof *a);
    Onnx__AttributeProto **attrs = malloc(sizeof *attrs);
    if (a && attrs) {
      onnx__attribute_proto__init(a);
      a->name = strdup("body");
      a->has_type = 1, a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
      a->g = nested(depth - 1);
      nd->n_attribute = 1, nd->attribute = attrs, attrs[0] = a;
    } else {
      free(a), free(attrs);
    }
  }
  return g;
}

static int deep_nesting(Onnx__GraphProto *g) {
  if (!g->n_node) return 0;
  Onnx__NodeProto *nd = g->node[pick((uint32_t)g->n_node)];
  Onnx__AttributeProto **attrs = realloc(nd->attribute, (nd->n_attribute + 1) * sizeof *attrs);
  Onnx__AttributeProto *a = malloc(sizeof *a);
  if (!attrs || !a) return free(a), 0;
  nd->attribute = attrs;
  onnx__attribute_proto__init(a);
  a->name = strdup(pick(2) ? "then_branch" : "body");
  a->has_type = 1, a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
  static const int depths[] = {1, 2, 16, 80, 100, 1000}; /* 1000: 24 KB, within -max_len */
  a->g = nested(depths[pick(sizeof depths / sizeof depths[0])]);
  attrs[nd->n_attribute++] = a;
  return 1;
}

/* 5. A node output takes the name of an initializer or a graph input. */
static int name_clash(Onnx__GraphProto *g) {
  if (!g->n_node || !(g->n_initializer + g->n_input)) return 0;
  Onnx__NodeProto *nd = g->node[pick((uint32_t)g->n_node)];
  if (!nd->n_output) return 0;
  uint32_t k = pick((uint32_t)(g->n_initializer + g->n_input));
  const char *src = k < g->n_initializer ? g->initializer[k]->name : g->input[k - g->n_initializer]->name;
  char *name = src ? strdup(src) : NULL;
  if (!name) return 0;
  size_t o = pick((uint32_t)nd->n_output);
  free(nd->output[o]);
  nd->output[o] = name;
  return 1;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  rng = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
  if (pick(2)) return LLVMFuzzerMutate(data, size, max_size);
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, size, data);
  if (!m || !m->graph) {
    if (m) onnx__model_proto__free_unpacked(m, NULL);
    return LLVMFuzzerMutate(data, size, max_size);
  }
  int (*const mutate[])(Onnx__GraphProto *) = {huge_dim, huge_attr, make_cycle, deep_nesting, name_clash};
  int changed = 0;
  for (int tries = 0; !changed && tries < 8; tries++) changed = mutate[pick(5)](m->graph);
  size_t n = changed ? onnx__model_proto__get_packed_size(m) : 0;
  if (changed && n <= max_size) onnx__model_proto__pack(m, data);
  onnx__model_proto__free_unpacked(m, NULL);
  return changed && n <= max_size ? n : LLVMFuzzerMutate(data, size, max_size);
}
