/* ir_print: writes the textual IR.  Canonical: one definition per line, inputs,
 * then constants, then nodes in order, then the return line; floats with the
 * fewest digits that read back exactly (%.9g for f32, %.17g for f64). */
#include "ir_print.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static int plain_name_char(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == ':' || c == '/' || c == '-';
}

static void print_quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p >= 0x7f) fprintf(f, "\\x%02x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

void ir_print_name(FILE *f, const char *name) {
  int plain = name[0] != '\0';
  for (const char *p = name; *p && plain; p++) plain = plain_name_char((unsigned char)*p);
  fputc('%', f);
  if (plain) fputs(name, f);
  else print_quoted(f, name);
}

/* A float that reads back exactly and always looks like a float. */
static void print_float(FILE *f, double x, int is_f64) {
  if (isnan(x)) {
    fputs("nan", f);
    return;
  }
  if (isinf(x)) {
    fputs(x < 0 ? "-inf" : "inf", f);
    return;
  }
  char buf[40];
  snprintf(buf, sizeof buf, is_f64 ? "%.17g" : "%.9g", x);
  if (!strpbrk(buf, ".e")) strcat(buf, ".0");
  fputs(buf, f);
}

static void print_type(FILE *f, const ir_value *v) {
  fprintf(f, "%s[", ir_dtype_name(v->dtype));
  if (v->rank < 0) {
    fputc('*', f);
  } else {
    for (int i = 0; i < v->rank; i++) {
      if (i) fputc(',', f);
      if (v->dims[i] < 0) fputc('?', f);
      else fprintf(f, "%" PRId64, v->dims[i]);
    }
  }
  fputc(']', f);
  const ir_quant *q = &v->quant;
  if (q->kind == IR_QUANT_TENSOR) {
    fputs(" quant(scale=", f);
    print_float(f, q->scale[0], 0);
    fprintf(f, ", zp=%" PRId32 ")", q->zero_point[0]);
  } else if (q->kind == IR_QUANT_CHANNEL) {
    fprintf(f, " quant(axis=%d, scale=[", q->axis);
    for (int i = 0; i < q->n; i++) {
      if (i) fputs(", ", f);
      print_float(f, q->scale[i], 0);
    }
    fputs("], zp=[", f);
    for (int i = 0; i < q->n; i++) fprintf(f, "%s%" PRId32, i ? ", " : "", q->zero_point[i]);
    fputs("])", f);
  }
  switch (v->layout) {
  case IR_LAYOUT_ANY: break;
  case IR_LAYOUT_NCHW: fputs(" layout(nchw)", f); break;
  case IR_LAYOUT_NHWC: fputs(" layout(nhwc)", f); break;
  case IR_LAYOUT_NCHWC: fprintf(f, " layout(nchwc%d)", v->layout_block); break;
  }
}

static void print_def_head(FILE *f, const ir_value *v) {
  fputs("  ", f);
  ir_print_name(f, v->name);
  fputs(" : ", f);
  print_type(f, v);
  fputs(" = ", f);
}

static void print_const(FILE *f, const ir_value *v, const ir_print_opts *o) {
  int64_t n = ir_value_numel(v);
  TSL_ASSERT(n >= 0 && v->data);
  if (o && o->elide_above > 0 && n > o->elide_above) {
    fprintf(f, "const <%" PRId64 " elements>", n);
    return;
  }
  fputs("const [", f);
  for (int64_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    if (ir_dtype_is_float(v->dtype)) print_float(f, ir_elem_f64(v->dtype, v->data, i), v->dtype == IR_F64);
    else fprintf(f, "%" PRId64, ir_elem_i64(v->dtype, v->data, i));
  }
  fputc(']', f);
}

static void print_attrs(FILE *f, const ir_node *n) {
  if (!n->attrs) return;
  fputs(" {", f);
  for (const ir_attr *a = n->attrs; a; a = a->next) {
    fprintf(f, "%s%s=", a == n->attrs ? "" : ", ", a->name);
    switch (a->kind) {
    case IR_ATTR_INT: fprintf(f, "%" PRId64, a->i); break;
    case IR_ATTR_FLOAT: print_float(f, a->f, 0); break;
    case IR_ATTR_STRING: print_quoted(f, a->s); break;
    case IR_ATTR_INTS:
      fputc('[', f);
      for (int i = 0; i < a->n; i++) fprintf(f, "%s%" PRId64, i ? ", " : "", a->ints[i]);
      fputc(']', f);
      break;
    case IR_ATTR_FLOATS:
      fputc('[', f);
      for (int i = 0; i < a->n; i++) {
        if (i) fputs(", ", f);
        print_float(f, a->floats[i], 0);
      }
      fputc(']', f);
      break;
    }
  }
  fputc('}', f);
}

void ir_print(FILE *f, const ir_graph *g, const ir_print_opts *o) {
  fputs("graph ", f);
  print_quoted(f, g->name);
  fputs(" {\n", f);
  for (int i = 0; i < g->n_inputs; i++) {
    print_def_head(f, g->inputs[i]);
    fputs("input\n", f);
  }
  for (int i = 0; i < g->n_values; i++) {
    const ir_value *v = g->values[i];
    if (v->kind != IR_VALUE_CONST) continue;
    print_def_head(f, v);
    print_const(f, v, o);
    fputc('\n', f);
  }
  for (int i = 0; i < g->n_nodes; i++) {
    const ir_node *n = g->nodes[i];
    print_def_head(f, n->out);
    fprintf(f, "%s(", ir_op_name(n->op));
    for (int k = 0; k < n->n_in; k++) {
      if (k) fputs(", ", f);
      ir_print_name(f, n->in[k]->name);
    }
    fputc(')', f);
    print_attrs(f, n);
    if (n->src[0]) {
      fputs(" @", f);
      print_quoted(f, n->src);
    }
    fputc('\n', f);
  }
  fputs("  return", f);
  for (int i = 0; i < g->n_outputs; i++) {
    fputs(i ? ", " : " ", f);
    ir_print_name(f, g->outputs[i]->name);
  }
  fputs("\n}\n", f);
}
