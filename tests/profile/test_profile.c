/* test_profile.c: the profiler's library: the strict JSON reader (valid and
 * malformed documents, positions in messages, nesting limit), the profile
 * loader (counters, bad format/version/types), counter consistency of the
 * committed profile, the Chrome trace parsed back with the reader, the SVG
 * well-formed with one roofline point per kernel, --compare's grouping, the
 * table helpers, and out-of-memory paths (arena failure injection). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json_write.h"
#include "json.h"
#include "profile.h"
#include "profile_compare.h"
#include "profile_report.h"
#include "profile_svg.h"
#include "profile_trace.h"
#include "xml_check.h"

static char *slurp(const char *name, size_t *len) {
  char path[512];
  snprintf(path, sizeof path, "%s/inputs/%s", PROFILE_DIR, name);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char *buf = malloc(1 << 20);
  *len = fread(buf, 1, (1 << 20) - 1, f);
  buf[*len] = 0;
  fclose(f);
  return buf;
}

/* Parses s; returns the root or NULL with the message in d. */
static json_value *parse(arena *a, const char *s, diag *d) {
  memset(d, 0, sizeof *d);
  return json_parse(a, s, strlen(s), d);
}

static void test_json_valid(void **state) {
  (void)state;
  arena *a = arena_new();
  diag d;
  json_value *v = parse(a, " {\"a\": [1, -2.5e3, 0, 18446744073709551615, 18446744073709551616], \"b\": \"x\\n\\u00e9\\ud83d\\ude00\","
                           " \"c\": {\"d\": [true, false, null, []], \"e\": {}}} ", &d);
  assert_non_null(v);
  assert_int_equal(v->kind, JSON_OBJECT);
  const json_value *arr = json_get(v, "a");
  assert_int_equal(arr->len, 5);
  assert_true(arr->items[0]->is_uint && arr->items[0]->u == 1);
  assert_false(arr->items[1]->is_uint);
  assert_true(arr->items[1]->num == -2500.0);
  assert_true(arr->items[3]->is_uint && arr->items[3]->u == UINT64_MAX);
  assert_false(arr->items[4]->is_uint); /* 2^64 does not fit */
  const json_value *b = json_get(v, "b");
  assert_string_equal(b->str, "x\n\xC3\xA9\xF0\x9F\x98\x80");
  const json_value *c = json_get(v, "c");
  assert_int_equal(json_get(c, "d")->items[0]->boolean, 1);
  assert_int_equal(json_get(c, "d")->items[2]->kind, JSON_NULL);
  assert_int_equal(json_get(c, "e")->len, 0);
  assert_null(json_get(v, "zz"));
  /* embedded NUL in a string value is fine, its length says so */
  v = parse(a, "\"a\\u0000b\"", &d);
  assert_non_null(v);
  assert_int_equal(v->len, 3);
  arena_free(a);
}

/* json_write_str (the one escaping of the profile, the reports and the
 * tuning log) writes what the reader gives back byte for byte. */
static void test_json_write_round_trip(void **state) {
  (void)state;
  static const char *const cases[] = {"", "plain", "q\"uote", "back\\slash", "tab\tnl\n\x01\x1f", "\xC3\xA9 ok"};
  arena *a = arena_new();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_write_str(f, cases[i]);
    fclose(f);
    diag d = {{0}};
    json_value *v = json_parse(a, buf, len, &d);
    if (!v) fail_msg("'%s' is not valid JSON: %s", buf, d.msg);
    assert_int_equal(v->kind, JSON_STRING);
    assert_string_equal(v->str, cases[i]);
    free(buf);
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  json_write_str(f, "a\"\\\x01");
  json_write_str(f, NULL);
  fclose(f);
  assert_string_equal(buf, "\"a\\\"\\\\\\u0001\"\"\"");
  free(buf);
  arena_free(a);
}

static void test_json_errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"", "1:1: expected a JSON value (the text ends here)"},
      {"{", "1:2: expected a string key in the object (the text ends here)"},
      {"[1, 2", "1:6: expected ',' or ']' after an array element (the text ends here)"},
      {"[1,]", "1:4: trailing comma before the closing bracket"},
      {"{\"a\": 1,}", "1:9: trailing comma"},
      {"{\"a\" 1}", "1:6: expected ':' after the object key"},
      {"{a: 1}", "1:2: expected a string key"},
      {"[01]", "1:3: leading zeros"},
      {"[1.]", "1:4: expected a digit after the decimal point"},
      {"[1e]", "1:4: expected a digit in the exponent"},
      {"[-]", "1:3: expected a digit in the number"},
      {"[tru]", "1:2: expected a JSON value"},
      {"\"abc", "1:1: unterminated string"},
      {"\"a\tb\"", "1:3: control character in a string"},
      {"\"\\x\"", "1:2: invalid escape"},
      {"\"\\u12G4\"", "\\u needs four hex digits"},
      {"\"\\udc00\"", "lone low surrogate"},
      {"\"\\ud800x\"", "high surrogate not followed by a low surrogate"},
      {"\"\xC3\x28\"", "1:2: invalid UTF-8"},
      {"\"\xED\xA0\x80\"", "invalid UTF-8"}, /* an encoded surrogate */
      {"{\"a\": 1, \"a\": 2}", "1:1: duplicate key \"a\""},
      {"{\"a\\u0000\": 1}", "object key contains \\u0000"},
      {"1 2", "1:3: unexpected text after the JSON value"},
      {"{\n  \"a\": [\n    1,\n    x\n  ]\n}", "4:5: expected a JSON value"},
      {"\xEF\xBB\xBF{}", "byte order mark"},
      {"// comment\n{}", "1:1: expected a JSON value"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arena *a = arena_new();
    diag d;
    json_value *v = parse(a, cases[i].text, &d);
    if (v || !strstr(d.msg, cases[i].msg)) fail_msg("case %zu '%s': got '%s', want '%s'", i, cases[i].text, d.msg, cases[i].msg);
    arena_free(a);
  }
}

static void test_json_depth_and_size(void **state) {
  (void)state;
  char deep[300];
  memset(deep, '[', 200);
  deep[200] = 0;
  arena *a = arena_new();
  diag d;
  assert_null(parse(a, deep, &d));
  assert_non_null(strstr(d.msg, "nesting deeper than 64 levels"));
  /* 64 levels are fine */
  char ok[200];
  memset(ok, '[', 64);
  memset(ok + 64, ']', 64);
  ok[128] = 0;
  assert_non_null(parse(a, ok, &d));
  /* a huge number literal: parsed, not an integer, no crash */
  char big[5000];
  memset(big, '9', 4999);
  big[4999] = 0;
  json_value *v = parse(a, big, &d);
  assert_non_null(v);
  assert_false(v->is_uint);
  arena_free(a);
}

static void load(arena *a, const char *name, profile *p) {
  size_t len;
  char *text = slurp(name, &len);
  diag d = {{0}};
  if (profile_parse(a, name, text, len, p, &d)) fail_msg("%s: %s", name, d.msg);
  free(text);
}

static void test_load_small(void **state) {
  (void)state;
  arena *a = arena_new();
  profile p;
  load(a, "small.json", &p);
  assert_string_equal(p.target, "npu8");
  assert_int_equal(p.dim, 8);
  assert_int_equal(p.nkernels, 3);
  assert_int_equal(p.nfallbacks, 1);
  assert_null(p.commands);
  assert_string_equal(p.kernels[0].name, "conv1+relu");
  assert_int_equal(p.kernels[0].nonnx, 2);
  assert_string_equal(p.kernels[0].onnx_nodes[1], "Relu_1");
  assert_int_equal(p.kernels[2].start, 1200 + 350);
  assert_int_equal(p.fallbacks[0].core_cycles, 5000);
  assert_null(p.items);
  arena_free(a);
}

/* The optional inference timeline: items in order, kinds, indices, gaps' what. */
static void test_load_timeline(void **state) {
  (void)state;
  arena *a = arena_new();
  profile p;
  load(a, "timeline.json", &p);
  assert_int_equal(p.nitems, 15);
  assert_int_equal(p.items[0].kind, PROF_ITEM_GAP);
  assert_string_equal(p.items[0].what, "input_copy");
  assert_int_equal(p.items[2].kind, PROF_ITEM_KERNEL);
  assert_int_equal(p.items[2].index, 0);
  assert_null(p.items[2].what);
  assert_int_equal(p.items[2].start, 600);
  assert_int_equal(p.items[2].end, 1900);
  assert_int_equal(p.items[11].kind, PROF_ITEM_FALLBACK);
  assert_string_equal(p.items[11].name, "prob");
  assert_int_equal(p.items[14].end, 11000);
  arena_free(a);
}

/* Per-kernel counters sum to the run's total for every counter that is a
 * sum over time (all of them, for a run whose work is all inside MARKs). */
static void test_counter_consistency(void **state) {
  (void)state;
  arena *a = arena_new();
  profile p;
  load(a, "small.json", &p);
  for (int c = 0; c < TSL_NCOUNTERS; c++) {
    uint64_t sum = 0;
    for (size_t k = 0; k < p.nkernels; k++) sum += p.kernels[k].c[c];
    if (sum != p.total[c]) fail_msg("counter %s: kernels sum to %llu, total %llu", tsl_counter_name(c),
                                    (unsigned long long)sum, (unsigned long long)p.total[c]);
  }
  prof_row *rows;
  size_t n = prof_rows(a, &p, &rows);
  assert_int_equal(n, 5);
  const prof_row *t = &rows[4];
  assert_int_equal(t->kind, PROF_ROW_TOTAL);
  assert_int_equal(t->cycles, 2150 + 5000);
  assert_int_equal(t->macs, 75776);
  assert_int_equal(t->dram_rd + t->dram_wr, 4960 + 1290);
  assert_int_equal(t->stall_dma, 190 + 50);
  assert_int_equal(t->stall_token, 15 + 300 + 70);
  assert_int_equal(t->fallback_cycles, 5000);
  assert_int_equal(t->estimate, 1800);
  assert_true(rows[0].util > 0.6510 && rows[0].util < 0.6511);           /* useful: 50000 / (1200 * 64) */
  assert_true(rows[0].occupancy > 0.7199 && rows[0].occupancy < 0.7201); /* hardware: 55296 / (1200 * 64) */
  assert_true(rows[0].intensity > 14.60 && rows[0].intensity < 14.61);   /* 50000 / 3424 */
  double share = 0;
  for (size_t i = 0; i + 1 < n; i++) share += rows[i].share;
  assert_true(share > 0.9999 && share < 1.0001);
  arena_free(a);
}

/* The roofline bound: max(ceil(useful / DIM^2), ceil(compulsory / bpc)),
 * measured over it, and the cases with nothing to bound. */
static void test_roofline(void **state) {
  (void)state;
  prof_bound b = prof_roofline(50000, 3200, 8, 8, 1200); /* MAC bound: 781.25 -> 782 */
  assert_int_equal(b.mac_cycles, 782);
  assert_int_equal(b.dram_cycles, 400);
  assert_int_equal(b.cycles, 782);
  assert_true(b.over > 1.5345 && b.over < 1.5346);
  b = prof_roofline(20480, 2570, 8, 8, 600); /* DRAM bound: 321.25 -> 322, just above the MACs' 320 */
  assert_int_equal(b.mac_cycles, 320);
  assert_int_equal(b.cycles, 322);
  b = prof_roofline(64, 8, 8, 8, 1); /* exact: no rounding up, and measured at the bound */
  assert_int_equal(b.cycles, 1);
  assert_true(b.over == 1.0);
  b = prof_roofline(0, 256, 8, 8, 350); /* no MACs (a pooling): the DRAM bound */
  assert_int_equal(b.mac_cycles, 0);
  assert_int_equal(b.cycles, 32);
  b = prof_roofline(0, 0, 8, 8, 100); /* nothing to do: bound 0, no ratio */
  assert_int_equal(b.cycles, 0);
  assert_true(isnan(b.over));
  b = prof_roofline(0, 0, 8, 8, 0);
  assert_true(isnan(b.over));
  b = prof_roofline(UINT64_MAX, UINT64_MAX, 1, 1, 1); /* no overflow at the extremes */
  assert_true(b.cycles == UINT64_MAX);
  b = prof_roofline(UINT64_MAX, 0, 256, 64, 0);
  assert_true(b.mac_cycles == UINT64_MAX / 65536 + 1);
  assert_true(b.over == 0.0);

  /* In the rows: fallback ops have no bound; an unknown target gives none. */
  arena *a = arena_new();
  profile p;
  load(a, "small.json", &p);
  prof_row *rows;
  size_t n = prof_rows(a, &p, &rows);
  assert_true(rows[0].has_bound && rows[0].bound.cycles == 782);
  assert_false(rows[3].has_bound); /* f0, on the core */
  assert_true(isnan(rows[3].bound.over) && isnan(rows[3].util) && isnan(rows[3].occupancy));
  /* the run: the sum of the kernels' bounds, 782 + 32 + 322 (not 70480 / 64 -> 1102 of the summed MACs) */
  assert_true(rows[n - 1].has_bound && rows[n - 1].bound.cycles == 1136 && rows[n - 1].bound.mac_cycles == 1102);
  p.target = "npu99";
  assert_int_equal(prof_dram_bytes_per_cycle(&p), 0);
  n = prof_rows(a, &p, &rows);
  for (size_t i = 0; i < n; i++) {
    assert_false(rows[i].has_bound);
    assert_true(isnan(rows[i].bound.over));
  }
  p.target = "npu16"; /* known, but DIM 16 is not the profile's 8: not its bandwidth */
  assert_int_equal(prof_dram_bytes_per_cycle(&p), 0);
  arena_free(a);
}

static void expect_load_error(const char *name, const char *want) {
  arena *a = arena_new();
  size_t len;
  char *text = slurp(name, &len);
  profile p;
  diag d = {{0}};
  assert_int_equal(profile_parse(a, name, text, len, &p, &d), -1);
  if (!strstr(d.msg, want)) fail_msg("%s: got '%s', want '%s'", name, d.msg, want);
  free(text);
  arena_free(a);
}

static void test_load_errors(void **state) {
  (void)state;
  expect_load_error("bad/truncated.json", "(the text ends here)");
  expect_load_error("bad/wrong-format.json", "2:13: format: \"onnx-profile\" is not a Tessel profile");
  expect_load_error("bad/wrong-version.json", "version: 2 is not supported");
  expect_load_error("bad/missing-counter.json", "kernels[0].counters.MACS: missing");
  expect_load_error("bad/missing-useful-macs.json", "14:5: kernels[1].useful_macs: missing");
  expect_load_error("bad/missing-compulsory.json", "15:5: kernels[2].compulsory_dram_bytes: missing");
  expect_load_error("bad/wrong-type.json", "kernels[1].estimate_cycles: expected a non-negative integer");
  expect_load_error("bad/huge-number.json", "kernels[1].counters.CYCLES: number too large for 64 bits");
  expect_load_error("bad/negative.json", "kernels[2].counters.MACS: negative number");
  expect_load_error("bad/trailing-comma.json", "trailing comma");
  expect_load_error("bad/kernels-object.json", "kernels: expected an array, got object");
  expect_load_error("bad/binary.json", "1:1: expected a JSON value");
}

/* Writes with fn into a memory buffer (NUL-terminated). */
static char *capture(void (*fn)(FILE *, void *), void *ctx, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  fn(f, ctx);
  fclose(f);
  return buf;
}

static void trace_fn(FILE *f, void *p) { prof_print_trace(f, p); }

/* Counts events of the trace with the given "ph" and "cat" (cat NULL: any). */
static size_t count_events(const json_value *events, const char *ph, const char *cat, const char *tid_name_unused) {
  (void)tid_name_unused;
  size_t n = 0;
  for (size_t i = 0; i < events->len; i++) {
    const json_value *e = events->items[i], *eph = json_get(e, "ph"), *ecat = json_get(e, "cat");
    if (eph && !strcmp(eph->str, ph) && (!cat || (ecat && !strcmp(ecat->str, cat)))) n++;
  }
  return n;
}

static void test_trace(void **state) {
  (void)state;
  arena *a = arena_new();
  profile p;
  load(a, "small.json", &p);
  size_t len;
  char *text = capture(trace_fn, &p, &len);
  diag d = {{0}};
  json_value *root = json_parse(a, text, len, &d);
  if (!root) fail_msg("trace is not valid JSON: %s", d.msg);
  const json_value *ev = json_get(root, "traceEvents");
  assert_non_null(ev);
  assert_int_equal(ev->kind, JSON_ARRAY);
  assert_int_equal(count_events(ev, "X", "kernel", NULL), 3);
  /* busy slices: conv (3 units), pool (EXEC, STORE: no LOAD), fc (3 units) */
  assert_int_equal(count_events(ev, "X", "busy", NULL), 8);
  assert_int_equal(count_events(ev, "X", "fallback", NULL), 1);
  assert_int_equal(count_events(ev, "M", NULL, NULL), 1 + 2 * 5);
  /* the fc kernel starts after conv and pool: (1200 + 350) cycles at 50 MHz */
  int seen = 0;
  for (size_t i = 0; i < ev->len; i++) {
    const json_value *e = ev->items[i], *cat = json_get(e, "cat"), *name = json_get(e, "name");
    if (cat && !strcmp(cat->str, "kernel") && !strcmp(name->str, "fc_with_a_rather_long_kernel_name")) {
      assert_true(json_get(e, "ts")->num == 31.0);
      assert_true(json_get(e, "dur")->num == 12.0);
      seen = 1;
    }
  }
  assert_true(seen);
  free(text);
  /* with the per-command timeline: one slice per command */
  profile q;
  load(a, "two-kernels.json", &q);
  assert_int_equal(q.ncommands, 11);
  text = capture(trace_fn, &q, &len);
  root = json_parse(a, text, len, &d);
  if (!root) fail_msg("trace is not valid JSON: %s", d.msg);
  ev = json_get(root, "traceEvents");
  assert_int_equal(count_events(ev, "X", "command", NULL), 11);
  assert_int_equal(count_events(ev, "X", "busy", NULL), 0);
  assert_int_equal(count_events(ev, "X", "kernel", NULL), 2);
  free(text);
  arena_free(a);
}

typedef struct {
  const profile *p;
  const prof_row *rows;
  size_t n;
  int rc;
} svg_ctx;

static void svg_fn(FILE *f, void *c) {
  svg_ctx *s = c;
  diag d = {{0}};
  s->rc = prof_print_svg(f, s->p, s->rows, s->n, &d);
}

static size_t count_str(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *s = hay; (s = strstr(s, needle)); s++) n++;
  return n;
}

static void test_svg(void **state) {
  (void)state;
  static const char *const names[] = {"small.json", "two-kernels.json", "small-nofusion.json"};
  for (int i = 0; i < 3; i++) {
    arena *a = arena_new();
    profile p;
    load(a, names[i], &p);
    svg_ctx c = {&p, NULL, 0, -1};
    prof_row *rows;
    c.n = prof_rows(a, &p, &rows);
    c.rows = rows;
    size_t len;
    char *text = capture(svg_fn, &c, &len);
    assert_int_equal(c.rc, 0);
    char msg[200];
    if (xml_check(text, len, msg, sizeof msg)) fail_msg("%s: SVG not well-formed: %s", names[i], msg);
    assert_int_equal(count_str(text, "<circle class=\"point"), p.nkernels);
    assert_int_equal(count_str(text, "<line class=\"compulsory\""), p.nkernels);
    assert_int_equal(count_str(text, "<polyline class=\"roof\""), 1);
    assert_null(strstr(text, "<script"));
    assert_null(strstr(text, "nan"));
    free(text);
    arena_free(a);
  }
}

static void test_xml_check(void **state) {
  (void)state;
  static const char *const bad[] = {"<a><b></a></b>", "<a>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a/><b/>",
                                    "<a>&nope;</a>", "<a>x < y</a>", "text", ""};
  char msg[200];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (!xml_check(bad[i], strlen(bad[i]), msg, sizeof msg)) fail_msg("'%s' accepted", bad[i]);
  const char *good = "<?xml version=\"1.0\"?>\n<!-- c --><a x=\"&amp;1\"><b/>t &#60; &#x3C;</a>\n";
  if (xml_check(good, strlen(good), msg, sizeof msg)) fail_msg("rejected: %s", msg);
}

typedef struct {
  const profile *a, *b;
  prof_cmp_format fmt;
  arena *ar;
} cmp_ctx;

static void cmp_fn(FILE *f, void *c) {
  cmp_ctx *x = c;
  diag d = {{0}};
  assert_int_equal(prof_print_compare(f, x->fmt, x->ar, x->a, x->b, &d), 0);
}

static void test_compare(void **state) {
  (void)state;
  arena *a = arena_new();
  profile p, q;
  load(a, "small.json", &p);
  load(a, "small-nofusion.json", &q);
  cmp_ctx c = {&p, &q, PROF_CMP_CSV, a};
  size_t len;
  char *text = capture(cmp_fn, &c, &len);
  /* the fused conv+relu against the unfused conv and relu (shared ONNX nodes) */
  assert_non_null(strstr(text, "both,\"conv1+relu\",\"conv1, relu\",1200,1800,1.5,"));
  assert_non_null(strstr(text, "both,\"pool\",\"pool\",350,350,1,"));
  assert_non_null(strstr(text, "only_b,\"\",\"extra\",0,100,,"));
  assert_non_null(strstr(text, "total,\"\",\"\",2150,2850,"));
  free(text);
  c.fmt = PROF_CMP_JSON;
  text = capture(cmp_fn, &c, &len);
  diag d = {{0}};
  json_value *root = json_parse(a, text, len, &d);
  if (!root) fail_msg("compare JSON invalid: %s", d.msg);
  assert_int_equal(json_get(root, "groups")->len, 4);
  free(text);
  arena_free(a);
}

static void test_fit(void **state) {
  (void)state;
  char b[64];
  const char *nodes[] = {"Conv_0", "Relu_1", "Add_2"};
  assert_string_equal(prof_fit_nodes(b, sizeof b, 30, nodes, 3), "Conv_0,Relu_1,Add_2");
  assert_string_equal(prof_fit_nodes(b, sizeof b, 15, nodes, 3), "Conv_0 +2");
  assert_string_equal(prof_fit_nodes(b, sizeof b, 17, nodes, 3), "Conv_0,Relu_1 +1");
  const char *longn[] = {"a_very_long_node_name_indeed"};
  assert_string_equal(prof_fit_nodes(b, sizeof b, 10, longn, 1), "a_very_lo~");
  assert_true(strlen(prof_fit_nodes(b, sizeof b, 10, nodes, 0)) == 0);
  assert_string_equal(prof_fmt_count(b, sizeof b, 9, 123456789), "123456789");
  assert_string_equal(prof_fmt_count(b, sizeof b, 8, 123456789), "123457k");
  assert_string_equal(prof_fmt_count(b, sizeof b, 6, 123456789), "123.5M");
  assert_string_equal(prof_fmt_count(b, sizeof b, 4, 123456789), "123M");
  assert_true(strlen(prof_fmt_count(b, sizeof b, 6, UINT64_MAX)) <= 6);
  assert_string_equal(prof_fit(b, sizeof b, 5, "abcdefgh"), "abcd~");
  assert_string_equal(prof_fit(b, sizeof b, 4, "ab\xC3\xA9xyz"), "ab~"); /* no cut inside a UTF-8 sequence */
  assert_string_equal(prof_fit(b, sizeof b, 5, "ab\xC3\xA9xyz"), "ab\xC3\xA9~");
}

/* Every allocation failure point of load + rows + reports gives an error
 * value (out of memory), never a crash. */
static void out_of_memory(const char *file) {
  size_t len;
  char *text = slurp(file, &len);
  int ok = 0;
  for (long n = 0; n < 10000 && !ok; n++) {
    arena_fail_after(n);
    arena *a = arena_new();
    profile p;
    diag d = {{0}};
    if (!a) continue;
    if (profile_parse(a, "x", text, len, &p, &d) == 0) {
      prof_row *rows;
      ok = prof_rows(a, &p, &rows) != 0;
    } else {
      assert_non_null(strstr(d.msg, "out of memory"));
    }
    arena_free(a);
  }
  arena_fail_after(-1);
  assert_true(ok);
  free(text);
}

static void test_out_of_memory(void **state) {
  (void)state;
  out_of_memory("two-kernels.json");
  out_of_memory("timeline.json");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_json_valid),       cmocka_unit_test(test_json_errors),
      cmocka_unit_test(test_json_write_round_trip),
      cmocka_unit_test(test_json_depth_and_size), cmocka_unit_test(test_load_small),
      cmocka_unit_test(test_load_timeline),
      cmocka_unit_test(test_counter_consistency), cmocka_unit_test(test_roofline),
      cmocka_unit_test(test_load_errors),
      cmocka_unit_test(test_trace),            cmocka_unit_test(test_svg),
      cmocka_unit_test(test_xml_check),        cmocka_unit_test(test_compare),
      cmocka_unit_test(test_fit),              cmocka_unit_test(test_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
