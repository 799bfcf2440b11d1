/* ir_parse: a hand-written recursive-descent parser over the raw text, one
 * definition per call; positions are tracked for messages. */
#include "ir_parse.h"
#include "in_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
  const char *s, *end; /* text and its end */
  const char *p;       /* current position */
  const char *label;   /* file name for messages */
  ir_graph *g;         /* graph being built */
  diag *d;             /* errors */
} parser;

static int perr(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static int perr(parser *ps, const char *fmt, ...) {
  int line = 1, col = 1;
  for (const char *q = ps->s; q < ps->p; q++) {
    if (*q == '\n') line++, col = 1;
    else col++;
  }
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return diag_set(ps->d, "%s:%d:%d: %s", ps->label, line, col, msg);
}

static void skip_ws(parser *ps) {
  for (;;) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
      ps->p++;
    if (ps->end - ps->p >= 2 && ps->p[0] == '/' && ps->p[1] == '/') {
      while (ps->p < ps->end && *ps->p != '\n') ps->p++;
      continue;
    }
    return;
  }
}

/* Consumes c (after blanks) if it is next. */
static int accept(parser *ps, char c) {
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == c) {
    ps->p++;
    return 1;
  }
  return 0;
}

/* True when c is next (after blanks); consumes nothing. */
static int peek(parser *ps, char c) {
  skip_ws(ps);
  return ps->p < ps->end && *ps->p == c;
}

static int expect(parser *ps, char c, const char *what) {
  if (accept(ps, c)) return 0;
  return perr(ps, "expected '%c' %s", c, what);
}

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* An identifier [A-Za-z0-9_]+; returns its length (0 if none) and start. */
static size_t ident(parser *ps, const char **start) {
  skip_ws(ps);
  *start = ps->p;
  while (ps->p < ps->end && ident_char(*ps->p)) ps->p++;
  return (size_t)(ps->p - *start);
}

static int keyword(parser *ps, const char *kw) {
  const char *save = ps->p, *st;
  size_t n = ident(ps, &st);
  if (n == strlen(kw) && !memcmp(st, kw, n)) return 1;
  ps->p = save;
  return 0;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A quoted string with \" \\ \xHH escapes into buf (NUL-terminated). */
static int string(parser *ps, char *buf, size_t cap) {
  if (expect(ps, '"', "to start a string")) return -1;
  size_t n = 0;
  for (;;) {
    if (ps->p >= ps->end || *ps->p == '\n') return perr(ps, "unterminated string");
    char c = *ps->p++;
    if (c == '"') break;
    if (c == '\\') {
      if (ps->p >= ps->end) return perr(ps, "unterminated string");
      c = *ps->p++;
      if (c == 'x') {
        int hi = ps->end - ps->p >= 2 ? hexval(ps->p[0]) : -1, lo = hi >= 0 ? hexval(ps->p[1]) : -1;
        if (hi < 0 || lo < 0) return perr(ps, "bad \\x escape in string");
        c = (char)(hi * 16 + lo);
        ps->p += 2;
        if (c == 0) return perr(ps, "NUL byte in string");
      } else if (c != '"' && c != '\\') {
        return perr(ps, "unknown escape '\\%c' in string", c);
      }
    }
    if (n + 1 >= cap) return perr(ps, "string too long");
    buf[n++] = c;
  }
  buf[n] = '\0';
  return 0;
}

static int name_char(char c) { return ident_char(c) || c == '.' || c == ':' || c == '/' || c == '-'; }

/* %name or %"name" into buf. */
static int value_name(parser *ps, char *buf, size_t cap) {
  if (expect(ps, '%', "before a value name")) return -1;
  if (ps->p < ps->end && *ps->p == '"') return string(ps, buf, cap);
  size_t n = 0;
  while (ps->p < ps->end && name_char(*ps->p)) {
    if (n + 1 >= cap) return perr(ps, "name too long");
    buf[n++] = *ps->p++;
  }
  if (!n) return perr(ps, "expected a value name after '%%'");
  buf[n] = '\0';
  return 0;
}

/* A number: *is_float tells whether it was written as a float. */
static int number(parser *ps, double *f, int64_t *i, int *is_float) {
  skip_ws(ps);
  const char *st = ps->p;
  int neg = 0;
  if (ps->p < ps->end && (*ps->p == '-' || *ps->p == '+')) neg = *ps->p++ == '-';
  if (ps->end - ps->p >= 3 && (!memcmp(ps->p, "inf", 3) || !memcmp(ps->p, "nan", 3))) {
    *is_float = 1;
    *f = ps->p[0] == 'i' ? (neg ? -INFINITY : INFINITY) : NAN;
    ps->p += 3;
    return 0;
  }
  char buf[64];
  size_t n = 0;
  ps->p = st;
  while (ps->p < ps->end && (strchr("0123456789+-.eE", *ps->p))) {
    if (n + 1 >= sizeof buf) return perr(ps, "number too long");
    buf[n++] = *ps->p++;
  }
  buf[n] = '\0';
  if (!n) return perr(ps, "expected a number");
  char *e;
  errno = 0;
  *is_float = strpbrk(buf, ".eE") != NULL;
  if (*is_float) {
    *f = strtod(buf, &e);
  } else {
    *i = strtoll(buf, &e, 10);
    *f = (double)*i;
  }
  if (*e || errno) {
    ps->p = st;
    return perr(ps, "bad number '%s'", buf);
  }
  return 0;
}

static int integer(parser *ps, int64_t *out, const char *what) {
  double f;
  int isf;
  if (number(ps, &f, out, &isf)) return -1;
  if (isf) return perr(ps, "%s must be an integer", what);
  return 0;
}

/* dtype[dims] quant(...) layout(...) */
static int type(parser *ps, ir_value *v) {
  const char *st;
  size_t n = ident(ps, &st);
  if (!n || ir_dtype_parse(st, n, &v->dtype)) {
    ps->p = st;
    return perr(ps, "expected a type such as f32, i8, u8, i32, i64");
  }
  if (expect(ps, '[', "after the element type")) return -1;
  v->rank = 0;
  if (accept(ps, '*')) {
    v->rank = -1;
  } else if (!peek(ps, ']')) {
    do {
      if (v->rank == IR_MAX_RANK) return perr(ps, "more than %d dimensions", IR_MAX_RANK);
      if (accept(ps, '?')) {
        v->dims[v->rank++] = -1;
        continue;
      }
      int64_t x;
      if (integer(ps, &x, "a dimension")) return -1;
      if (x < 0 || x > (1 << 30)) return perr(ps, "bad dimension %lld", (long long)x);
      v->dims[v->rank++] = x;
    } while (accept(ps, ','));
  }
  if (expect(ps, ']', "to close the shape")) return -1;
  if (v->rank > 0) {
    int64_t total = 1;
    for (int i = 0; i < v->rank; i++)
      if (v->dims[i] > 0 && (total *= v->dims[i]) > (1 << 30)) return perr(ps, "tensor too large");
  }
  if (keyword(ps, "quant")) {
    ir_quant *q = &v->quant;
    if (expect(ps, '(', "after quant")) return -1;
    int per_channel = keyword(ps, "axis");
    int64_t axis = 0;
    if (per_channel && (expect(ps, '=', "after axis") || integer(ps, &axis, "axis") || expect(ps, ',', "after the axis")))
      return -1;
    if (!keyword(ps, "scale") || expect(ps, '=', "after scale")) return perr(ps, "expected scale=");
    float sc[1024];
    int64_t zp[1024];
    int ns = 0, nz = 0, isf;
    double f;
    int64_t i;
    int list = per_channel && expect(ps, '[', "before per-channel scales") == 0;
    if (per_channel && !list) return -1;
    do {
      if (ns == 1024) return perr(ps, "too many scales");
      if (number(ps, &f, &i, &isf)) return -1;
      sc[ns++] = (float)f;
    } while (list && accept(ps, ','));
    if (list && expect(ps, ']', "after the scales")) return -1;
    if (expect(ps, ',', "after the scale") || !keyword(ps, "zp") || expect(ps, '=', "after zp"))
      return perr(ps, "expected zp=");
    if (list && expect(ps, '[', "before per-channel zero points")) return -1;
    do {
      if (nz == 1024) return perr(ps, "too many zero points");
      if (integer(ps, &zp[nz], "a zero point")) return -1;
      if (zp[nz] < INT32_MIN || zp[nz] > INT32_MAX) return perr(ps, "zero point out of range");
      nz++;
    } while (list && accept(ps, ','));
    if (list && expect(ps, ']', "after the zero points")) return -1;
    if (expect(ps, ')', "to close quant")) return -1;
    if (ns != nz) return perr(ps, "%d scales but %d zero points", ns, nz);
    q->kind = per_channel ? IR_QUANT_CHANNEL : IR_QUANT_TENSOR;
    q->axis = (int)axis;
    q->n = ns;
    q->scale = arena_alloc(ps->g->arena, sizeof(float) * (size_t)ns);
    q->zero_point = arena_alloc(ps->g->arena, sizeof(int32_t) * (size_t)ns);
    if (!q->scale || !q->zero_point) return diag_oom(ps->d);
    for (int k = 0; k < ns; k++) q->scale[k] = sc[k], q->zero_point[k] = (int32_t)zp[k];
  }
  if (keyword(ps, "layout")) {
    if (expect(ps, '(', "after layout")) return -1;
    const char *ls;
    size_t ln = ident(ps, &ls);
    if (ln == 4 && !memcmp(ls, "nchw", 4)) v->layout = IR_LAYOUT_NCHW;
    else if (ln == 4 && !memcmp(ls, "nhwc", 4)) v->layout = IR_LAYOUT_NHWC;
    else if (ln > 5 && !memcmp(ls, "nchwc", 5)) {
      int b = 0;
      for (size_t k = 5; k < ln; k++) {
        if (ls[k] < '0' || ls[k] > '9' || b > 100000) return perr(ps, "bad channel block");
        b = b * 10 + (ls[k] - '0');
      }
      if (b < 1) return perr(ps, "bad channel block");
      v->layout = IR_LAYOUT_NCHWC;
      v->layout_block = b;
    } else {
      return perr(ps, "unknown layout (nchw, nhwc, nchwcN)");
    }
    if (expect(ps, ')', "to close layout")) return -1;
  }
  return 0;
}

static int const_data(parser *ps, ir_value *v) {
  if (v->rank < 0) return perr(ps, "a constant needs a known shape");
  for (int i = 0; i < v->rank; i++)
    if (v->dims[i] < 0) return perr(ps, "a constant needs a known shape");
  int64_t n = ir_value_numel(v), k = 0;
  /* every element takes at least two characters ("0,"): check before allocating */
  if (n / 2 > ps->end - ps->p) return perr(ps, "a constant of %lld elements cannot fit in the rest of the text", (long long)n);
  if (ir_value_alloc_data(ps->g, v, ps->d)) return -1;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == '<') return perr(ps, "elided constant data cannot be read back");
  if (expect(ps, '[', "before the constant's elements")) return -1;
  if (!accept(ps, ']')) {
    do {
      double f;
      int64_t i;
      int isf;
      if (k == n) return perr(ps, "more elements than the shape holds (%lld)", (long long)n);
      if (number(ps, &f, &i, &isf)) return -1;
      if (isf && !ir_dtype_is_float(v->dtype)) return perr(ps, "float element in an integer constant");
      if (v->dtype == IR_I64 && !isf) ((int64_t *)v->data)[k] = i;
      else ir_elem_set_f64(v->dtype, v->data, k, f);
      k++;
    } while (accept(ps, ','));
    if (expect(ps, ']', "after the constant's elements")) return -1;
  }
  if (k != n) return perr(ps, "%lld elements, the shape needs %lld", (long long)k, (long long)n);
  return 0;
}

static int attr_value(parser *ps, ir_node *n, const char *name) {
  ir_graph *g = ps->g;
  skip_ws(ps);
  if (ps->p < ps->end && *ps->p == '"') {
    char buf[256];
    if (string(ps, buf, sizeof buf)) return -1;
    return ir_attr_set_string(g, n, name, buf, ps->d);
  }
  if (accept(ps, '[')) {
    /* per-channel attributes (requantisation multipliers) carry one value
     * per channel: up to as many as the requant pass allows */
    enum { MAX_ATTR_VALUES = 4096 };
    int64_t *ints = malloc(sizeof(int64_t) * MAX_ATTR_VALUES);
    float *floats = malloc(sizeof(float) * MAX_ATTR_VALUES);
    int cnt = 0, any_float = 0, rc = 0;
    if (!ints || !floats) rc = diag_oom(ps->d);
    if (!rc && !accept(ps, ']')) {
      do {
        double f;
        int64_t i;
        int isf;
        if (cnt == MAX_ATTR_VALUES) rc = perr(ps, "too many values in attribute '%s'", name);
        else rc = number(ps, &f, &i, &isf);
        if (rc) break;
        any_float |= isf;
        ints[cnt] = i;
        floats[cnt++] = (float)f;
      } while (accept(ps, ','));
      if (!rc) rc = expect(ps, ']', "to close the list");
    }
    if (!rc) rc = any_float ? ir_attr_set_floats(g, n, name, floats, cnt, ps->d)
                            : ir_attr_set_ints(g, n, name, ints, cnt, ps->d);
    free(ints);
    free(floats);
    return rc;
  }
  double f;
  int64_t i;
  int isf;
  if (number(ps, &f, &i, &isf)) return -1;
  return isf ? ir_attr_set_float(g, n, name, (float)f, ps->d) : ir_attr_set_int(g, n, name, i, ps->d);
}

static int node_rhs(parser *ps, ir_value *out) {
  const char *st;
  size_t len = ident(ps, &st);
  ir_op op;
  if (!len) return perr(ps, "expected input, const or an operator");
  if (ir_op_parse(st, len, &op)) {
    ps->p = st;
    return perr(ps, "unknown operator '%.*s'", (int)len, st);
  }
  ir_value *in[IR_MAX_INPUTS];
  int n_in = 0;
  if (expect(ps, '(', "after the operator")) return -1;
  if (!accept(ps, ')')) {
    do {
      char name[512];
      const char *at = ps->p;
      if (n_in == IR_MAX_INPUTS) return perr(ps, "more than %d inputs", IR_MAX_INPUTS);
      if (value_name(ps, name, sizeof name)) return -1;
      if (!(in[n_in++] = ir_value_find(ps->g, name)) || in[n_in - 1] == out) {
        ps->p = at;
        skip_ws(ps);
        return perr(ps, "value '%s' is used before it is defined", name);
      }
    } while (accept(ps, ','));
    if (expect(ps, ')', "after the inputs")) return -1;
  }
  ir_node *n = ir_node_new(ps->g, op, "", in, n_in, out, ps->d);
  if (!n) return -1;
  if (accept(ps, '{')) {
    do {
      const char *an;
      size_t al = ident(ps, &an);
      if (!al) return perr(ps, "expected an attribute name");
      char name[64];
      if (al >= sizeof name) return perr(ps, "attribute name too long");
      memcpy(name, an, al);
      name[al] = '\0';
      if (ir_attr_get(n, name)) return perr(ps, "attribute '%s' given twice", name);
      if (expect(ps, '=', "after the attribute name") || attr_value(ps, n, name)) return -1;
    } while (accept(ps, ','));
    if (expect(ps, '}', "to close the attributes")) return -1;
  }
  if (accept(ps, '@')) {
    char src[512];
    if (string(ps, src, sizeof src)) return -1;
    if (!(n->src = arena_strdup(ps->g->arena, src))) return diag_oom(ps->d);
  }
  return 0;
}

static int definition(parser *ps) {
  char name[512];
  const char *at = ps->p;
  if (value_name(ps, name, sizeof name)) return -1;
  if (ir_value_find(ps->g, name)) {
    ps->p = at;
    skip_ws(ps);
    return perr(ps, "value '%s' is defined twice", name);
  }
  ir_value *v = ir_value_new(ps->g, name, IR_VALUE_NODE, ps->d);
  if (!v) return -1;
  if (expect(ps, ':', "after the value name") || type(ps, v) || expect(ps, '=', "after the type"))
    return -1;
  if (keyword(ps, "input")) {
    v->kind = IR_VALUE_INPUT;
    return ir_add_input(ps->g, v, ps->d);
  }
  if (keyword(ps, "const")) {
    v->kind = IR_VALUE_CONST;
    return const_data(ps, v);
  }
  return node_rhs(ps, v);
}

ir_graph *ir_parse(const char *text, size_t len, const char *label, diag *d) {
  parser ps = {.s = text, .end = text + len, .p = text, .label = label, .d = d};
  char gname[256];
  if (!keyword(&ps, "graph")) {
    perr(&ps, "expected 'graph'");
    return NULL;
  }
  if (string(&ps, gname, sizeof gname)) return NULL;
  if (!(ps.g = ir_graph_new(gname, d))) return NULL;
  if (expect(&ps, '{', "after the graph name")) goto fail;
  while (!keyword(&ps, "return")) {
    skip_ws(&ps);
    if (ps.p >= ps.end) {
      perr(&ps, "missing 'return'");
      goto fail;
    }
    if (definition(&ps)) goto fail;
  }
  do {
    char name[512];
    const char *at = ps.p;
    if (value_name(&ps, name, sizeof name)) goto fail;
    ir_value *v = ir_value_find(ps.g, name);
    if (!v) {
      ps.p = at;
      skip_ws(&ps);
      perr(&ps, "returned value '%s' is not defined", name);
      goto fail;
    }
    if (ir_add_output(ps.g, v, d)) goto fail;
  } while (accept(&ps, ','));
  if (expect(&ps, '}', "to close the graph")) goto fail;
  skip_ws(&ps);
  if (ps.p != ps.end) {
    perr(&ps, "text after the end of the graph");
    goto fail;
  }
  return ps.g;
fail:
  ir_graph_free(ps.g);
  return NULL;
}

ir_graph *ir_parse_file(const char *path, diag *d) {
  /* far beyond any model's text; a bigger file was read whole into memory */
  FILE *f = in_file_open_max(path, 1ll << 30, "textual IR", d);
  if (!f) return NULL;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        diag_set(d, "%s: out of memory", path);
        return NULL;
      }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (!got) break;
  }
  fclose(f);
  ir_graph *g = ir_parse(buf, len, path, d);
  free(buf);
  return g;
}
