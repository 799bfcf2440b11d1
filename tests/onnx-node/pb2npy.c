/* pb2npy: one ONNX TensorProto file (the input_N.pb / output_N.pb of an
 * ONNX backend test) as a .npy file, and a model's graph inputs, for the
 * onnx-node suite (tests/onnx-node/run.sh).
 *
 *   onnx-pb2npy IN.pb OUT.npy        prints "NAME<tab>DTYPE<tab>D0xD1x..."
 *                                    (the shape empty for a scalar)
 *   onnx-pb2npy --inputs MODEL.onnx  prints the graph inputs that are not
 *                                    initializers, one a line, in order:
 *                                    input_N.pb is the N-th of them
 *
 * The tensor is decoded by the importer's own reader (onnx_tensor_to_const:
 * raw_data or the typed fields, every dtype the IR has), so the suite
 * reads test data exactly as tessel reads initializers.  Exit 0, or 1 with
 * "onnx-pb2npy: IN.pb: ..." on a file that is not such a tensor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "in_file.h"
#include "npy.h"
#include "onnx_internal.h"

enum { MAX_BYTES = 1 << 30 };

static int fail(const diag *d) {
  fprintf(stderr, "onnx-pb2npy: %s\n", d->msg);
  return 1;
}

/* The bytes of PATH, malloc'd, in *buf and *len; -1 with d set. */
static int read_all(const char *path, uint8_t **buf, size_t *len, diag *d) {
  FILE *f = in_file_open_max(path, MAX_BYTES, "a tensor", d);
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  *buf = malloc((size_t)n + 1);
  if (!*buf || (n && fread(*buf, 1, (size_t)n, f) != (size_t)n)) {
    fclose(f);
    free(*buf);
    return diag_set(d, "%s: cannot read", path);
  }
  fclose(f);
  *len = (size_t)n;
  return 0;
}

/* --inputs: the graph's own inputs (an initializer listed in graph.input
 * is a constant, as the importer makes it). */
static int list_inputs(const char *path) {
  diag d = {{0}};
  uint8_t *buf;
  size_t len;
  if (read_all(path, &buf, &len, &d)) return fail(&d);
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, len, buf);
  free(buf);
  if (!m || !m->graph) {
    if (m) onnx__model_proto__free_unpacked(m, NULL);
    diag_set(&d, "%s: not an ONNX model", path);
    return fail(&d);
  }
  const Onnx__GraphProto *g = m->graph;
  for (size_t i = 0; i < g->n_input; i++) {
    int init = 0;
    for (size_t k = 0; k < g->n_initializer && !init; k++)
      init = g->initializer[k]->name && !strcmp(g->initializer[k]->name, g->input[i]->name);
    if (!init) printf("%s\n", g->input[i]->name);
  }
  onnx__model_proto__free_unpacked(m, NULL);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: onnx-pb2npy IN.pb OUT.npy | onnx-pb2npy --inputs MODEL.onnx\n");
    return 2;
  }
  if (!strcmp(argv[1], "--inputs")) return list_inputs(argv[2]);
  diag d = {{0}};
  uint8_t *buf;
  size_t len;
  if (read_all(argv[1], &buf, &len, &d)) return fail(&d);
  Onnx__TensorProto *t = onnx__tensor_proto__unpack(NULL, len, buf);
  free(buf);
  if (!t) {
    diag_set(&d, "%s: not an ONNX TensorProto", argv[1]);
    return fail(&d);
  }
  int rc = 1;
  ir_graph *g = ir_graph_new("pb2npy", &d);
  onnx_ctx c = {.g = g, .label = argv[1], .d = &d};
  const ir_value *v = g ? onnx_tensor_to_const(&c, t, "tensor", "the tensor") : NULL;
  if (v) {
    npy_array a = {.dtype = (npy_dtype)v->dtype, .ndim = v->rank, .data = v->data,
                   .nbytes = ir_dtype_size(v->dtype) * (size_t)ir_value_numel(v)};
    for (int i = 0; i < v->rank; i++) a.shape[i] = v->dims[i];
    char err[512];
    if (npy_write(argv[2], &a, err, sizeof err)) diag_set(&d, "%s", err);
    else {
      printf("%s\t%s\t", t->name ? t->name : "", npy_dtype_name(a.dtype));
      for (int i = 0; i < a.ndim; i++) printf("%s%lld", i ? "x" : "", (long long)a.shape[i]);
      printf("\n");
      rc = 0;
    }
  }
  if (rc) fail(&d);
  ir_graph_free(g);
  onnx__tensor_proto__free_unpacked(t, NULL);
  return rc;
}
