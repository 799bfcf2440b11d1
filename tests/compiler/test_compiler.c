/* compiler-unit: cmocka tests of the IR, the arena's failure injection, the
 * textual IR parser's errors, the verifier and hand-computed reference ops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "ir.h"
#include "ir_parse.h"
#include "ir_print.h"
#include "ir_verify.h"
#include "onnx_import.h"
#include "passes.h"
#include "pipeline.h"
#include "ref_exec.h"

#ifndef INPUTS_DIR
#error "INPUTS_DIR must name tests/compiler/inputs"
#endif

/* Prints g into a malloc'd string. */
static char *print_str(const ir_graph *g) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  ir_print(f, g, NULL);
  fclose(f);
  return buf;
}

static ir_graph *parse_ok(const char *text) {
  diag d = {{0}};
  ir_graph *g = ir_parse(text, strlen(text), "t.tir", &d);
  if (!g) fail_msg("parse failed: %s", d.msg);
  return g;
}

/* ---- IR construction ---- */

static void test_build_and_print(void **state) {
  (void)state;
  diag d = {{0}};
  ir_graph *g = ir_graph_new("g", &d);
  assert_non_null(g);
  ir_value *x = ir_value_new(g, "x", IR_VALUE_INPUT, &d);
  x->dtype = IR_F32, x->rank = 2, x->dims[0] = 1, x->dims[1] = 4;
  assert_int_equal(ir_add_input(g, x, &d), 0);
  ir_value *y = ir_value_new(g, "y", IR_VALUE_NODE, &d);
  ir_value_copy_type(y, x);
  ir_node *n = ir_node_new(g, IR_OP_RELU, "relu0", &x, 1, y, &d);
  assert_non_null(n);
  assert_int_equal(ir_add_output(g, y, &d), 0);
  assert_null(ir_value_new(g, "x", IR_VALUE_CONST, &d)); /* duplicate name */
  assert_non_null(strstr(d.msg, "defined twice"));
  assert_int_equal(ir_use_count(g, x), 1);
  diag d2 = {{0}};
  assert_int_equal(ir_verify(g, &d2), 0);
  char *s = print_str(g);
  assert_string_equal(s, "graph \"g\" {\n  %x : f32[1,4] = input\n  %y : f32[1,4] = Relu(%x) @\"relu0\"\n  return %y\n}\n");
  free(s);
  ir_graph_free(g);
}

static void test_attrs_sorted_and_replaced(void **state) {
  (void)state;
  ir_graph *g = parse_ok("graph \"a\" { %x : f32[1] = input %y : f32[1] = Relu(%x) return %y }");
  diag d = {{0}};
  ir_node *n = g->nodes[0];
  int64_t v[2] = {1, 2};
  assert_int_equal(ir_attr_set_int(g, n, "zeta", 3, &d), 0);
  assert_int_equal(ir_attr_set_ints(g, n, "alpha", v, 2, &d), 0);
  assert_int_equal(ir_attr_set_float(g, n, "mid", 0.5f, &d), 0);
  assert_int_equal(ir_attr_set_int(g, n, "zeta", 4, &d), 0);
  assert_string_equal(n->attrs->name, "alpha");
  assert_string_equal(n->attrs->next->name, "mid");
  assert_int_equal(ir_attr_int(n, "zeta", 0), 4);
  assert_int_equal(ir_attr_int(n, "missing", 7), 7);
  ir_attr_remove(n, "mid");
  assert_null(ir_attr_get(n, "mid"));
  ir_graph_free(g);
}

static void test_roundtrip_odd_names_and_floats(void **state) {
  (void)state;
  const char *text =
      "graph \"odd \\\"name\\\"\" {\n"
      "  %\"in put\" : f32[2] = input\n"
      "  %c : f32[2] = const [-inf, 1.00000001e-07]\n"
      "  %onnx::Add_1/x.y : f32[2] = Add(%\"in put\", %c) {alpha=nan, k=[1, -2], s=\"SAME\\x01\"} @\"n\\\\1\"\n"
      "  return %onnx::Add_1/x.y\n"
      "}\n";
  ir_graph *g = parse_ok(text);
  char *s = print_str(g);
  ir_graph *g2 = parse_ok(s);
  char *s2 = print_str(g2);
  assert_string_equal(s, s2);
  assert_string_equal(s, text);
  free(s);
  free(s2);
  ir_graph_free(g);
  ir_graph_free(g2);
}

/* ---- arena and failure injection ---- */

static void test_arena_basics(void **state) {
  (void)state;
  arena *a = arena_new();
  assert_non_null(a);
  char *p = arena_alloc(a, 10);
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 16, 0);
  void *big = arena_alloc(a, 1 << 20); /* own block */
  assert_non_null(big);
  assert_string_equal(arena_strdup(a, "abc"), "abc");
  assert_true(arena_used(a) >= (1 << 20));
  arena_fail_after(1);
  assert_non_null(arena_alloc(a, 8));
  assert_null(arena_alloc(a, 8));
  assert_null(arena_alloc(a, 8));
  arena_fail_after(-1);
  assert_non_null(arena_alloc(a, 8));
  arena_free(a);
}

/* Every allocation failure during import and the graph passes comes back as
 * "out of memory", never a crash or a leak (LeakSanitizer checks at exit). */
static void test_oom_everywhere(void **state) {
  (void)state;
  int succeeded = 0, failures = 0;
  for (long n = 0; n < 5000 && !succeeded; n++) {
    diag d = {{0}};
    arena_fail_after(n);
    ir_graph *g = onnx_import_file(INPUTS_DIR "/convbn.onnx", NULL, 0, &d);
    pipeline_opts o = {0};
    if (g && pipeline_graph(g, &o, &d) == 0) succeeded = 1;
    arena_fail_after(-1);
    if (!succeeded) {
      failures++;
      if (!strstr(d.msg, "out of memory")) fail_msg("n=%ld: unexpected message '%s'", n, d.msg);
    }
    ir_graph_free(g);
  }
  assert_true(succeeded);
  assert_true(failures > 20);
}

static void test_oom_in_parser(void **state) {
  (void)state;
  const char *text = "graph \"p\" { %x : f32[2] = input %c : f32[2] = const [1.0, 2.0]"
                     " %y : f32[2] = Add(%x, %c) {k=[1, 2]} @\"a\" return %y }";
  int ok = 0;
  for (long n = 0; n < 200 && !ok; n++) {
    diag d = {{0}};
    arena_fail_after(n);
    ir_graph *g = ir_parse(text, strlen(text), "p.tir", &d);
    arena_fail_after(-1);
    if (g) ok = 1;
    else assert_non_null(strstr(d.msg, "out of memory"));
    ir_graph_free(g);
  }
  assert_true(ok);
}

/* ---- parser errors ---- */

static void test_parse_errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "t.tir:1:1: expected 'graph'"},
      {"graph \"g\" {", "missing 'return'"},
      {"graph \"g\" { %x : f99[1] = input return %x }", "expected a type"},
      {"graph \"g\" { %x : f32[1 = input return %x }", "expected ']' to close the shape"},
      {"graph \"g\" { %x : f32[-1] = input return %x }", "bad dimension -1"},
      {"graph \"g\" { %x : f32[1] = input %x : f32[1] = input return %x }", "value 'x' is defined twice"},
      {"graph \"g\" { %x : f32[1] = Relu(%y) return %x }", "value 'y' is used before it is defined"},
      {"graph \"g\" { %x : f32[1] = Frob(%x) return %x }", "unknown operator 'Frob'"},
      {"graph \"g\" { %c : f32[2] = const [1.0] return %c }", "1 elements, the shape needs 2"},
      {"graph \"g\" { %c : f32[1] = const [1.0, 2.0] return %c }", "more elements than the shape holds"},
      {"graph \"g\" { %c : i8[1] = const [1.5] return %c }", "float element in an integer constant"},
      {"graph \"g\" { %c : f32[2] = const <2 elements> return %c }", "elided constant data cannot be read back"},
      {"graph \"g\" { %x : f32[1] = input return %nope }", "returned value 'nope' is not defined"},
      {"graph \"g\" { %x : f32[1] = input return %x } junk", "text after the end of the graph"},
      {"graph \"g\" { %x : f32[1] = input %y : f32[1] = Relu(%x) {a=1, a=2} return %y }", "attribute 'a' given twice"},
      {"graph \"g\" { %x : f32[1] quant(scale=0.1) = input return %x }", "expected ',' after the scale"},
      {"graph \"g\" { %x : f32[1] layout(abcd) = input return %x }", "unknown layout"},
      {"graph \"g\" { %x : f32[1] = input %y : f32[1] = Relu(%x) @\"unterminated return %y }", "unterminated string"},
      {"graph \"g\" { %x : f32[1,2,3,4,5,6,7,8,9] = input return %x }", "more than 8 dimensions"},
      {"graph \"g\" { %x : f32[99999,99999] = input return %x }", "tensor too large"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    diag d = {{0}};
    ir_graph *g = ir_parse(cases[i].text, strlen(cases[i].text), "t.tir", &d);
    if (g || !strstr(d.msg, cases[i].want))
      fail_msg("case %zu: got '%s', want '%s'", i, g ? "(parsed)" : d.msg, cases[i].want);
  }
}

/* ---- verifier ---- */

static void test_verifier(void **state) {
  (void)state;
  diag d = {{0}};
  /* a node reading a value defined after it */
  ir_graph *g = parse_ok("graph \"v\" { %x : f32[1] = input %a : f32[1] = Relu(%x) @\"a\""
                         " %b : f32[1] = Relu(%a) @\"b\" return %b }");
  assert_int_equal(ir_verify(g, &d), 0);
  ir_node *tmp = g->nodes[0];
  g->nodes[0] = g->nodes[1];
  g->nodes[1] = tmp;
  assert_int_equal(ir_verify(g, &d), -1);
  assert_non_null(strstr(d.msg, "node 'b' (Relu): verifier: input 0 'a' is used before it is defined"));
  ir_graph_free(g);

  /* wrong input count */
  diag d2 = {{0}};
  g = parse_ok("graph \"v\" { %x : f32[1] = input %a : f32[1] = Add(%x) @\"add\" return %a }");
  assert_int_equal(ir_verify(g, &d2), -1);
  assert_non_null(strstr(d2.msg, "1 inputs, expected 2 to 2"));
  ir_graph_free(g);

  /* per-channel quantisation must have one scale per channel */
  diag d3 = {{0}};
  g = parse_ok("graph \"v\" { %x : i8[3,2] quant(axis=0, scale=[0.5, 0.25], zp=[0, 0]) = input return %x }");
  assert_int_equal(ir_verify(g, &d3), -1);
  assert_non_null(strstr(d3.msg, "2 scales for 3 channels"));
  ir_graph_free(g);

  /* an output pointing at a dropped node */
  diag d4 = {{0}};
  g = parse_ok("graph \"v\" { %x : f32[1] = input %a : f32[1] = Relu(%x) @\"a\" return %a }");
  ir_node_remove(g, g->nodes[0]);
  assert_int_equal(ir_verify(g, &d4), -1);
  assert_non_null(strstr(d4.msg, "graph output 'a' is not defined"));
  ir_graph_free(g);
}

/* ---- reference ops, hand-computed ---- */

/* Runs the one-input graph text on x and compares the single output. */
static void run1(const char *text, const float *x, const float *want, int n) {
  ir_graph *g = parse_ok(text);
  diag d = {{0}};
  pipeline_opts o = {.verify_each = 1};
  if (pipeline_graph(g, &o, &d)) fail_msg("passes: %s", d.msg);
  const void *in[1] = {x};
  void *out[1] = {0};
  if (ref_run(g, in, out, NULL, NULL, &d)) fail_msg("ref: %s", d.msg);
  if (g->outputs[0]->dtype == IR_F32) {
    for (int i = 0; i < n; i++) assert_float_equal(((float *)out[0])[i], want[i], 1e-6);
  } else {
    for (int i = 0; i < n; i++)
      assert_int_equal((int)ir_elem_i64(g->outputs[0]->dtype, out[0], i), (int)want[i]);
  }
  free(out[0]);
  ir_graph_free(g);
}

/* ---- name index and users (kept by ir.c) ---- */

static void test_name_index_and_unique_names(void **state) {
  (void)state;
  diag d = {{0}};
  ir_graph *g = ir_graph_new("n", &d);
  assert_non_null(g);
  char name[32];
  for (int i = 0; i < 3000; i++) { /* grows the table several times */
    snprintf(name, sizeof name, "v%d", i);
    assert_non_null(ir_value_new(g, name, IR_VALUE_INPUT, &d));
  }
  for (int i = 0; i < 3000; i++) {
    snprintf(name, sizeof name, "v%d", i);
    ir_value *v = ir_value_find(g, name);
    assert_non_null(v);
    assert_string_equal(v->name, name);
  }
  assert_null(ir_value_find(g, "v3000"));
  assert_null(ir_value_new(g, "v7", IR_VALUE_INPUT, &d)); /* defined twice */
  /* the smallest free suffix, also after a name is given up */
  ir_value *w = ir_value_new(g, "w", IR_VALUE_INPUT, &d);
  ir_value *w1 = ir_value_new(g, ir_unique_name(g, "w"), IR_VALUE_INPUT, &d);
  ir_value *w2 = ir_value_new(g, ir_unique_name(g, "w"), IR_VALUE_INPUT, &d);
  assert_non_null(w), assert_non_null(w1), assert_non_null(w2);
  assert_string_equal(w1->name, "w.1");
  assert_string_equal(w2->name, "w.2");
  assert_string_equal(ir_unique_name(g, "w"), "w.3");
  ir_value_rename(g, w1, "other");
  assert_null(ir_value_find(g, "w.1"));
  assert_ptr_equal(ir_value_find(g, "other"), w1);
  assert_string_equal(ir_unique_name(g, "w"), "w.1");
  ir_value_swap_names(g, w, w2);
  assert_ptr_equal(ir_value_find(g, "w"), w2);
  assert_ptr_equal(ir_value_find(g, "w.2"), w);
  ir_graph_free(g);
}

static void test_users_kept(void **state) {
  (void)state;
  diag d = {{0}};
  ir_graph *g = parse_ok("graph \"u\" { %x : f32[1] = input %y : f32[1] = input"
                         " %a : f32[1] = Add(%x, %x) @\"a\" %b : f32[1] = Relu(%a) @\"b\""
                         " %c : f32[1] = Add(%b, %y) @\"c\" return %c }");
  ir_value *x = ir_value_find(g, "x"), *y = ir_value_find(g, "y"), *a = ir_value_find(g, "a");
  ir_value *b = ir_value_find(g, "b"), *c = ir_value_find(g, "c");
  assert_int_equal(ir_use_count(g, x), 2);
  assert_null(ir_single_user(g, x)); /* one node, two slots */
  assert_ptr_equal(ir_single_user(g, a), b->def);
  assert_null(ir_single_user(g, c)); /* a graph output */
  assert_int_equal(ir_use_count(g, c), 1);
  ir_node_set_input(g, c->def, 1, x);
  assert_int_equal(ir_use_count(g, x), 3);
  assert_int_equal(ir_use_count(g, y), 0);
  ir_replace_uses(g, x, y);
  assert_int_equal(ir_use_count(g, x), 0);
  assert_int_equal(ir_use_count(g, y), 3);
  ir_replace_uses(g, b, a); /* c reads a now; b is dead */
  ir_node_remove(g, b->def);
  assert_int_equal(ir_use_count(g, a), 1);
  assert_ptr_equal(ir_single_user(g, a), c->def);
  assert_int_equal(ir_verify(g, &d), 0);
  ir_graph_free(g);
}

static void test_ref_conv_pad_stride(void **state) {
  (void)state;
  /* 1x1x3x3 input 1..9, 2x2 kernel of ones, stride 2, pads 1: windows sum
   * [1], [2+3], [4+7], [5+6+8+9] */
  const float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, want[4] = {1, 5, 11, 28};
  run1("graph \"c\" { %x : f32[1,1,3,3] = input %w : f32[1,1,2,2] = const [1.0, 1.0, 1.0, 1.0]"
       " %y : f32[*] = Conv(%x, %w) {pads=[1, 1, 0, 0], strides=[2, 2]} @\"c\" return %y }",
       x, want, 4);
}

static void test_ref_avgpool_count_include_pad(void **state) {
  (void)state;
  const float x[4] = {1, 2, 3, 4};
  /* 2x2 windows, pads 1 on each side, stride 2: corner windows hold one value */
  const float incl[4] = {0.25f, 0.5f, 0.75f, 1.0f}, excl[4] = {1, 2, 3, 4};
  run1("graph \"p\" { %x : f32[1,1,2,2] = input %y : f32[*] = AveragePool(%x) {count_include_pad=1,"
       " kernel_shape=[2, 2], pads=[1, 1, 1, 1], strides=[2, 2]} @\"p\" return %y }",
       x, incl, 4);
  run1("graph \"p\" { %x : f32[1,1,2,2] = input %y : f32[*] = AveragePool(%x) {count_include_pad=0,"
       " kernel_shape=[2, 2], pads=[1, 1, 1, 1], strides=[2, 2]} @\"p\" return %y }",
       x, excl, 4);
}

static void test_ref_quantize_rounds_half_to_even(void **state) {
  (void)state;
  const float x[6] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 1000.0f}, want[6] = {0, 2, 2, 0, -2, 127};
  run1("graph \"q\" { %x : f32[6] = input %s : f32[] = const [1.0] %z : i8[] = const [0]"
       " %y : i8[*] = QuantizeLinear(%x, %s, %z) {axis=1} @\"q\" return %y }",
       x, want, 6);
}

static void test_ref_softmax_legacy_coerce(void **state) {
  (void)state;
  /* opset < 13: softmax over the flattened [2,2] block, not the last axis */
  const float x[4] = {0, 0, 0, 0}, want[4] = {0.25f, 0.25f, 0.25f, 0.25f};
  run1("graph \"s\" { %x : f32[1,2,2] = input %y : f32[*] = Softmax(%x) {axis=1, coerce2d=1} @\"s\" return %y }",
       x, want, 4);
}

static void test_ref_gather_out_of_range(void **state) {
  (void)state;
  ir_graph *g = parse_ok("graph \"g\" { %x : f32[3] = input %i : i64[1] = const [5]"
                         " %y : f32[*] = Gather(%x, %i) {axis=0} @\"gat\" return %y }");
  diag d = {{0}};
  pipeline_opts o = {0};
  assert_int_equal(pipeline_graph(g, &o, &d), 0);
  const float x[3] = {1, 2, 3};
  const void *in[1] = {x};
  void *out[1] = {0};
  assert_int_equal(ref_run(g, in, out, NULL, NULL, &d), -1);
  assert_non_null(strstr(d.msg, "node 'gat' (Gather): index 5 is out of range"));
  ir_graph_free(g);
}

/* ---- importer: nesting bound ---- */

/* ONNX wire bytes built back to front (a message's length is known once its
 * contents are written): b[pos, cap) holds what is written so far. */
typedef struct {
  uint8_t *b;
  size_t pos;
} wbuf;

static void put_varint(wbuf *w, uint64_t v) {
  uint8_t t[10];
  int n = 0;
  do t[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)); while ((v >>= 7) != 0);
  assert_true(w->pos >= (size_t)n);
  while (n) w->b[--w->pos] = t[--n];
}
static void put_key(wbuf *w, unsigned num, unsigned wire) { put_varint(w, (uint64_t)num << 3 | wire); }
static void put_uint(wbuf *w, unsigned num, uint64_t v) { put_varint(w, v), put_key(w, num, 0); }
/* b[pos, end) becomes the length-delimited field num. */
static void wrap(wbuf *w, size_t end, unsigned num) { put_varint(w, end - w->pos), put_key(w, num, 2); }
static void put_str(wbuf *w, unsigned num, const char *s) {
  size_t end = w->pos, n = strlen(s);
  w->pos -= n;
  memcpy(w->b + w->pos, s, n);
  wrap(w, end, num);
}
/* A ValueInfoProto `name`: float32 [1,4], as GraphProto field num. */
static void put_value_info(wbuf *w, unsigned num, const char *name) {
  size_t end = w->pos;
  for (int k = 0; k < 2; k++) { /* dims back to front: 4, then 1 */
    size_t dim = w->pos;
    put_uint(w, 1, k ? 1 : 4);
    wrap(w, dim, 1); /* TensorShapeProto.dim */
  }
  wrap(w, end, 2);   /* TypeProto.Tensor.shape */
  put_uint(w, 1, 1); /* elem_type FLOAT */
  wrap(w, end, 1);   /* TypeProto.tensor_type */
  wrap(w, end, 2);   /* ValueInfoProto.type */
  put_str(w, 1, name);
  wrap(w, end, num);
}

enum { DEEP_SEQUENCE, DEEP_IF };

/* A model y = Relu(x) whose graph also holds, `levels` deep, either a
 * value_info typed sequence(sequence(...(tensor))) or If nodes whose
 * then_branch holds the next If. Its bytes are b[returned offset, cap). */
static size_t deep_model(uint8_t *b, size_t cap, int kind, int levels, int innermost_tensor) {
  wbuf w = {b, cap};
  size_t end = cap;
  if (kind == DEEP_SEQUENCE) {
    if (innermost_tensor) {
      put_uint(&w, 1, 1); /* elem_type FLOAT */
      wrap(&w, end, 1);   /* TypeProto.tensor_type */
    }
    for (int i = 0; i < levels; i++) {
      wrap(&w, end, 1); /* TypeProto.Sequence.elem_type */
      wrap(&w, end, 4); /* TypeProto.sequence_type */
    }
    wrap(&w, end, 2); /* ValueInfoProto.type */
    put_str(&w, 1, "deep");
    wrap(&w, end, 13); /* GraphProto.value_info */
  } else {
    for (int i = 0; i < levels; i++) {
      wrap(&w, end, 6);   /* AttributeProto.g */
      put_uint(&w, 20, 5); /* type GRAPH */
      put_str(&w, 1, "then_branch");
      wrap(&w, end, 5); /* NodeProto.attribute */
      put_str(&w, 4, "If");
      wrap(&w, end, 1); /* GraphProto.node */
    }
  }
  put_value_info(&w, 12, "y");
  put_value_info(&w, 11, "x");
  size_t node = w.pos;
  put_str(&w, 4, "Relu");
  put_str(&w, 2, "y");
  put_str(&w, 1, "x");
  wrap(&w, node, 1); /* GraphProto.node, first */
  wrap(&w, end, 7);  /* ModelProto.graph */
  size_t opset = w.pos;
  put_uint(&w, 2, 13);
  wrap(&w, opset, 8); /* ModelProto.opset_import */
  put_uint(&w, 1, 8); /* ir_version */
  return w.pos;
}

/* protobuf-c decodes nested messages by recursion: 5,000 sequence levels
 * (a 34 KB file) or 100,000 If levels overflowed the stack. The importer
 * refuses anything deeper than ONNX_MAX_NESTING levels before decoding, and
 * accepts a model nested exactly that deep. */
static void test_import_nesting_bound(void **state) {
  (void)state;
  static const struct {
    int kind, levels, tensor;
    const char *want; /* NULL: imports */
  } cases[] = {
      {DEEP_SEQUENCE, 5000, 1, "nesting deeper than 64 levels (at byte "},
      {DEEP_IF, 100000, 0, "nesting deeper than 64 levels (at byte "},
      /* model, graph, value_info, type: level 4; two more per sequence */
      {DEEP_SEQUENCE, 30, 0, NULL},
      {DEEP_SEQUENCE, 30, 1, "nesting deeper than 64 levels"},
      /* model, graph: level 2; node, attribute, graph per If */
      {DEEP_IF, 20, 0, "node '#1' (If): unsupported operator"}, /* deepest graph at 62: decoded */
      {DEEP_IF, 21, 0, "nesting deeper than 64 levels"},
  };
  size_t cap = 4u << 20;
  uint8_t *b = malloc(cap);
  assert_non_null(b);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t at = deep_model(b, cap, cases[i].kind, cases[i].levels, cases[i].tensor);
    diag d = {{0}};
    ir_graph *g = onnx_import_buffer(b + at, cap - at, "deep.onnx", NULL, 0, &d);
    print_message("case %zu: %s\n", i, g ? "imported" : d.msg);
    if (!cases[i].want) {
      assert_non_null(g);
      ir_graph_free(g);
      continue;
    }
    assert_null(g);
    assert_non_null(strstr(d.msg, cases[i].want));
  }
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_build_and_print),
      cmocka_unit_test(test_attrs_sorted_and_replaced),
      cmocka_unit_test(test_roundtrip_odd_names_and_floats),
      cmocka_unit_test(test_arena_basics),
      cmocka_unit_test(test_oom_everywhere),
      cmocka_unit_test(test_oom_in_parser),
      cmocka_unit_test(test_parse_errors),
      cmocka_unit_test(test_name_index_and_unique_names),
      cmocka_unit_test(test_users_kept),
      cmocka_unit_test(test_verifier),
      cmocka_unit_test(test_ref_conv_pad_stride),
      cmocka_unit_test(test_ref_avgpool_count_include_pad),
      cmocka_unit_test(test_ref_quantize_rounds_half_to_even),
      cmocka_unit_test(test_ref_softmax_legacy_coerce),
      cmocka_unit_test(test_ref_gather_out_of_range),
      cmocka_unit_test(test_import_nesting_bound),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
