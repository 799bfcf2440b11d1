/* libFuzzer target for the ONNX importer: any bytes go through protobuf
 * decoding, import and the graph passes; every outcome must be a graph or an
 * error value (no crash, leak, hang or sanitizer report).  Inputs with
 * symbolic dimensions get 1 so the passes run on them too. */
#include <stddef.h>
#include <stdint.h>

#include "onnx_import.h"
#include "pipeline.h"

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
