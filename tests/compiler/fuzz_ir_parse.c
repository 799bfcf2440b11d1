/* libFuzzer target for the textual IR reader: any bytes go through the parser,
 * the verifier and (when valid) the graph passes; a graph that parses must
 * print, parse back and print the same text (the round-trip property the
 * FileCheck tests rely on). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"
#include "pipeline.h"

static char *print_str(const ir_graph *g, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f) abort();
  ir_print(f, g, NULL);
  fclose(f);
  return buf;
}

static void check_roundtrip(const ir_graph *g) {
  size_t n1, n2;
  char *t1 = print_str(g, &n1);
  diag d = {{0}};
  ir_graph *g2 = ir_parse(t1, n1, "printed", &d);
  if (!g2) {
    fprintf(stderr, "printed IR does not parse: %s\n%s", d.msg, t1);
    abort();
  }
  char *t2 = print_str(g2, &n2);
  if (n1 != n2 || memcmp(t1, t2, n1)) {
    fprintf(stderr, "round trip differs:\n%s---\n%s", t1, t2);
    abort();
  }
  free(t1);
  free(t2);
  ir_graph_free(g2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  diag d = {{0}};
  ir_graph *g = ir_parse((const char *)data, size, "fuzz.tir", &d);
  if (!g) return 0;
  check_roundtrip(g);
  if (ir_verify(g, &d) == 0) {
    pipeline_opts o = {.verify_each = 1};
    if (pipeline_graph(g, &o, &d) == 0) check_roundtrip(g);
    if (d.msg[0] == 0 && pipeline_quant(g, &o, &d) == 0) check_roundtrip(g);
  }
  ir_graph_free(g);
  return 0;
}
