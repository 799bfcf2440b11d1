/* shape_infer: dtype and shape of every node output.
 *
 * Requires: graph inputs with known shapes (symbolic dims are an error here),
 *           canonical nodes as the importer or parser makes them.
 * Guarantees: every node output has dtype, rank and dims known, and every
 *           graph output agrees with the type the model declares for it
 *           (out_decl: element type, rank, dims; unknown parts are wildcards); operator
 *           constraints are checked with located errors (e.g. "group=3 does
 *           not divide 32 input channels"); shape-dependent attributes are
 *           written out: Conv/pool kernel_shape, strides, pads, dilations
 *           (auto_pad resolved and removed), Transpose perm, Squeeze axes.
 *           Shape computations are folded as they are met (ONNX's "data
 *           propagation"): a Shape node of a known shape, and any node with an
 *           integer output whose inputs are all constant, becomes a constant,
 *           so Reshape targets built from Shape/Gather/Concat are known.
 *           Parameter inputs the importer left `pending` (computed from
 *           shapes) become attributes once folded; Slice bounds are clamped,
 *           axes normalised, Resize sizes/scales one per dim, ConvTranspose
 *           pads explicit (docs/compiler.md).
 * Invalidates: nothing; running it twice is a no-op. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "ref_exec.h"

#define ERR(...) ir_node_error(d, n, __VA_ARGS__)

enum { LIMIT = 1 << 24 };              /* largest sizing attribute value */
static const int64_t MAX_ELEMS = 1 << 30; /* largest tensor, in elements */

static int known(const ir_value *v) { return ir_value_numel(v) >= 0; }
static int is_float(ir_dtype t) { return t == IR_F32 || t == IR_F64; }

static int want_dtype(ir_node *n, int k, ir_dtype t, diag *d) {
  if (n->in[k]->dtype != t)
    return ERR("input %d '%s' has type %s, expected %s", k, n->in[k]->name,
               ir_dtype_name(n->in[k]->dtype), ir_dtype_name(t));
  return 0;
}

static int want_rank(ir_node *n, int k, int lo, int hi, diag *d) {
  int r = n->in[k]->rank;
  if (r < lo || r > hi) {
    if (lo == hi) return ERR("input %d '%s' has rank %d, expected %d", k, n->in[k]->name, r, lo);
    return ERR("input %d '%s' has rank %d, expected %d to %d", k, n->in[k]->name, r, lo, hi);
  }
  return 0;
}

static void set_shape(ir_value *v, ir_dtype t, int rank, const int64_t *dims) {
  v->dtype = t;
  v->rank = rank;
  for (int i = 0; i < rank; i++) v->dims[i] = dims[i];
}

/* Reads an ints attribute of length len into out, or fills dflt; -1 on a bad length. */
static int spatial_attr(ir_graph *g, ir_node *n, const char *name, int len, int64_t dflt,
                        int64_t *out, diag *d) {
  int cnt;
  const int64_t *a = ir_attr_ints(n, name, &cnt);
  if (a && cnt != len) return ERR("%s has %d values, expected %d", name, cnt, len);
  for (int i = 0; i < len; i++) out[i] = a ? a[i] : dflt;
  return ir_attr_set_ints(g, n, name, out, len, d);
}

/* Output spatial dims of a sliding window (conv or pool); resolves auto_pad
 * and writes kernel_shape/strides/pads/dilations back as attributes.  kernel
 * holds the kernel size when the weights give it (conv), else NULL. */
static int window(ir_graph *g, ir_node *n, const ir_value *x, const int64_t *kernel, int ceil_mode,
                  int64_t *out_spatial, diag *d) {
  int s = x->rank - 2;
  int64_t k[IR_MAX_RANK], st[IR_MAX_RANK], dl[IR_MAX_RANK], p[2 * IR_MAX_RANK];
  int cnt;
  const int64_t *ks = ir_attr_ints(n, "kernel_shape", &cnt);
  if (ks && cnt != s) return ERR("kernel_shape has %d values, expected %d", cnt, s);
  if (!ks && !kernel) return ERR("attribute 'kernel_shape' is required");
  for (int i = 0; i < s; i++) {
    k[i] = ks ? ks[i] : kernel[i];
    if (kernel && k[i] != kernel[i])
      return ERR("kernel_shape[%d]=%lld does not match the weights' %lld", i, (long long)k[i],
                 (long long)kernel[i]);
    if (k[i] < 1) return ERR("kernel_shape[%d]=%lld must be positive", i, (long long)k[i]);
  }
  if (ir_attr_set_ints(g, n, "kernel_shape", k, s, d) ||
      spatial_attr(g, n, "strides", s, 1, st, d) || spatial_attr(g, n, "pads", 2 * s, 0, p, d))
    return -1;
  int avg = n->op == IR_OP_AVGPOOL || n->op == IR_OP_QAVGPOOL; /* no dilations */
  if (!avg && spatial_attr(g, n, "dilations", s, 1, dl, d)) return -1;
  if (avg)
    for (int i = 0; i < s; i++) dl[i] = 1;
  const ir_attr *ap = ir_attr_get(n, "auto_pad");
  const char *mode = ap && ap->kind == IR_ATTR_STRING ? ap->s : "NOTSET";
  for (int i = 0; i < s; i++) {
    if (st[i] < 1) return ERR("strides[%d]=%lld must be positive", i, (long long)st[i]);
    if (dl[i] < 1) return ERR("dilations[%d]=%lld must be positive", i, (long long)dl[i]);
    if (p[i] < 0 || p[i + s] < 0) return ERR("negative pads are not supported");
    int64_t in = x->dims[2 + i], ext = (k[i] - 1) * dl[i] + 1;
    if (!strcmp(mode, "VALID")) {
      p[i] = p[i + s] = 0;
    } else if (!strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER")) {
      int64_t o = (in + st[i] - 1) / st[i];
      int64_t total = (o - 1) * st[i] + ext - in;
      if (total < 0) total = 0;
      int64_t small = total / 2;
      p[i] = !strcmp(mode, "SAME_UPPER") ? small : total - small;
      p[i + s] = total - p[i];
    } else if (strcmp(mode, "NOTSET")) {
      return ERR("auto_pad='%s' is not supported", mode);
    }
    int64_t span = in + p[i] + p[i + s] - ext;
    if (span < 0)
      return ERR("window %lld is larger than the padded input %lld along spatial dim %d",
                 (long long)ext, (long long)(in + p[i] + p[i + s]), i);
    int64_t o = ceil_mode ? (span + st[i] - 1) / st[i] + 1 : span / st[i] + 1;
    /* ceil_mode: the last window must start inside the input or left pad */
    if (ceil_mode && (o - 1) * st[i] >= in + p[i]) o--;
    out_spatial[i] = o;
  }
  ir_attr_remove(n, "auto_pad");
  return ir_attr_set_ints(g, n, "pads", p, 2 * s, d);
}

/* Numpy broadcast of a and b into out; -1 when incompatible. */
static int broadcast(ir_node *n, const ir_value *a, const ir_value *b, ir_value *out, diag *d) {
  int r = a->rank > b->rank ? a->rank : b->rank;
  for (int i = 0; i < r; i++) {
    int ia = i - (r - a->rank), ib = i - (r - b->rank);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return ERR("shapes of '%s' and '%s' do not broadcast (dimension %lld vs %lld)", a->name,
                 b->name, (long long)da, (long long)db);
    out->dims[i] = da == 1 ? db : da;
  }
  out->rank = r;
  return 0;
}

/* Input k must hold one element, or `per` elements when per > 0 (per-channel). */
static int want_count(ir_node *n, int k, int64_t per, diag *d) {
  if (k >= n->n_in) return 0;
  int64_t c = ir_value_numel(n->in[k]);
  if (c == 1 || (per > 0 && c == per && n->in[k]->rank == 1)) return 0;
  if (per > 0) return ERR("input %d '%s' must hold 1 or %lld values", k, n->in[k]->name, (long long)per);
  return ERR("input %d '%s' must be a scalar", k, n->in[k]->name);
}

/* Scales, zero points and their types for the integer ops, checked once here
 * so the reference never reads past a parameter tensor. */
static int integer_params(ir_node *n, diag *d) {
  int64_t m;
  switch (n->op) {
  case IR_OP_QLINEAR_CONV:
    m = n->in[3]->rank >= 1 ? n->in[3]->dims[0] : 0;
    if (want_count(n, 1, 0, d) || want_count(n, 2, 0, d) || want_count(n, 4, m, d) ||
        want_count(n, 5, m, d) || want_count(n, 6, 0, d) || want_count(n, 7, 0, d) ||
        want_dtype(n, 1, IR_F32, d) || want_dtype(n, 4, IR_F32, d) || want_dtype(n, 6, IR_F32, d))
      return -1;
    if (n->n_in > 8 && want_dtype(n, 8, IR_I32, d)) return -1;
    break;
  case IR_OP_QLINEAR_MATMUL:
    m = n->in[3]->rank >= 1 ? n->in[3]->dims[n->in[3]->rank - 1] : 0;
    if (want_count(n, 1, 0, d) || want_count(n, 2, 0, d) || want_count(n, 4, m, d) ||
        want_count(n, 5, m, d) || want_count(n, 6, 0, d) || want_count(n, 7, 0, d) ||
        want_dtype(n, 1, IR_F32, d) || want_dtype(n, 4, IR_F32, d) || want_dtype(n, 6, IR_F32, d))
      return -1;
    break;
  case IR_OP_CONV_INTEGER:
    m = n->in[1]->rank >= 1 ? n->in[1]->dims[0] : 0;
    if (want_count(n, 2, 0, d) || want_count(n, 3, m, d)) return -1;
    break;
  case IR_OP_MATMUL_INTEGER:
    m = n->in[1]->rank >= 1 ? n->in[1]->dims[n->in[1]->rank - 1] : 0;
    if (want_count(n, 2, 0, d) || want_count(n, 3, m, d)) return -1;
    break;
  default: break;
  }
  for (int k = 0; k < n->n_in; k++)
    if (n->in[k]->dtype == IR_F32 && (n->op == IR_OP_CONV_INTEGER || n->op == IR_OP_MATMUL_INTEGER))
      return ERR("input %d '%s' must be an integer tensor", k, n->in[k]->name);
  return 0;
}

static int conv_shape(ir_graph *g, ir_node *n, diag *d) {
  int q = n->op == IR_OP_QLINEAR_CONV;
  ir_value *x = n->in[0], *w = n->in[q ? 3 : 1];
  if (n->op == IR_OP_QCONV && (want_dtype(n, 0, IR_I8, d) || want_dtype(n, 1, IR_I8, d) ||
                               (n->n_in > 2 && want_dtype(n, 2, IR_I32, d))))
    return -1;
  if (want_rank(n, 0, 3, IR_MAX_RANK, d) || integer_params(n, d)) return -1;
  if (w->rank != x->rank)
    return ERR("weights '%s' have rank %d, the input has rank %d", w->name, w->rank, x->rank);
  int64_t group = ir_attr_int(n, "group", 1), c = x->dims[1], m = w->dims[0];
  if (group < 1) return ERR("group=%lld must be positive", (long long)group);
  if (c % group) return ERR("group=%lld does not divide %lld input channels", (long long)group, (long long)c);
  if (m % group) return ERR("group=%lld does not divide %lld output channels", (long long)group, (long long)m);
  if (w->dims[1] * group != c)
    return ERR("weights '%s' expect %lld input channels per group, the input has %lld in %lld groups",
               w->name, (long long)w->dims[1], (long long)c, (long long)group);
  int64_t dims[IR_MAX_RANK] = {x->dims[0], m};
  if (window(g, n, x, w->dims + 2, 0, dims + 2, d)) return -1;
  int bias = n->op == IR_OP_CONV || n->op == IR_OP_QCONV ? 2 : n->op == IR_OP_QLINEAR_CONV ? 8 : -1;
  if (bias >= 0 && n->n_in > bias && (n->in[bias]->rank != 1 || n->in[bias]->dims[0] != m))
    return ERR("bias '%s' must have shape [%lld]", n->in[bias]->name, (long long)m);
  ir_dtype t = IR_F32;
  if (n->op == IR_OP_QLINEAR_CONV) t = n->in[7]->dtype;
  if (n->op == IR_OP_CONV_INTEGER) t = IR_I32;
  if (n->op == IR_OP_QCONV) t = ir_attr_int(n, "raw", 0) ? IR_I32 : IR_I8;
  if (n->op == IR_OP_CONV && (want_dtype(n, 0, IR_F32, d) || want_dtype(n, 1, IR_F32, d))) return -1;
  set_shape(n->out, t, x->rank, dims);
  return 0;
}

static int pool_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  if (want_rank(n, 0, 3, IR_MAX_RANK, d)) return -1;
  /* max pooling commutes with quantisation: int8 is fine there */
  int int8_ok = n->op == IR_OP_MAXPOOL || n->op == IR_OP_GLOBAL_MAXPOOL || n->op == IR_OP_QAVGPOOL;
  int u8_ok = n->op == IR_OP_MAXPOOL || n->op == IR_OP_GLOBAL_MAXPOOL; /* MaxPool-12 takes uint8 */
  if (!(int8_ok && x->dtype == IR_I8) && !(u8_ok && x->dtype == IR_U8) && want_dtype(n, 0, n->op == IR_OP_QAVGPOOL ? IR_I8 : IR_F32, d))
    return -1;
  int64_t dims[IR_MAX_RANK] = {x->dims[0], x->dims[1]};
  if (n->op == IR_OP_GLOBAL_AVGPOOL || n->op == IR_OP_GLOBAL_MAXPOOL) {
    for (int i = 2; i < x->rank; i++) dims[i] = 1;
  } else if (window(g, n, x, NULL, (int)ir_attr_int(n, "ceil_mode", 0), dims + 2, d)) {
    return -1;
  }
  set_shape(n->out, x->dtype, x->rank, dims);
  return 0;
}

/* numpy.matmul shapes for a (.., M, K) and b (.., K, N), 1-D promoted. */
static int matmul_shape(ir_node *n, ir_value *a, ir_value *b, ir_dtype t, diag *d) {
  if (a->rank < 1 || b->rank < 1) return ERR("MatMul operands must have rank >= 1");
  int64_t ka = a->dims[a->rank - 1], kb = b->rank == 1 ? b->dims[0] : b->dims[b->rank - 2];
  if (ka != kb)
    return ERR("inner dimensions differ: '%s' has %lld, '%s' has %lld", a->name, (long long)ka,
               b->name, (long long)kb);
  ir_value ba = {.rank = a->rank > 2 ? a->rank - 2 : 0}, bb = {.rank = b->rank > 2 ? b->rank - 2 : 0};
  memcpy(ba.dims, a->dims, sizeof(int64_t) * (size_t)ba.rank);
  memcpy(bb.dims, b->dims, sizeof(int64_t) * (size_t)bb.rank);
  ba.name = a->name, bb.name = b->name;
  ir_value *o = n->out;
  if (broadcast(n, &ba, &bb, o, d)) return -1;
  if (a->rank >= 2) o->dims[o->rank++] = a->dims[a->rank - 2];
  if (b->rank >= 2) o->dims[o->rank++] = b->dims[b->rank - 1];
  o->dtype = t;
  return 0;
}

static int norm_axis(ir_node *n, int64_t axis, int rank, diag *d, int64_t *out) {
  *out = 0;
  if (axis < -rank || axis >= rank) return ERR("axis %lld is out of range for rank %d", (long long)axis, rank);
  *out = axis < 0 ? axis + rank : axis;
  return 0;
}

static int reshape_shape(ir_node *n, diag *d) {
  ir_value *x = n->in[0], *s = n->in[1];
  if (s->kind == IR_VALUE_INPUT)
    return ERR("the target shape '%s' must be a constant (an initializer, a Constant node or a --bind input); "
               "'%s' is a graph input", s->name, s->name);
  if (s->kind != IR_VALUE_CONST) return ERR("the target shape '%s' must be a constant", s->name);
  if (s->dtype != IR_I64 || s->rank != 1) return ERR("the target shape must be a 1-D int64 tensor");
  int64_t r = s->dims[0], *sd = s->data, dims[IR_MAX_RANK], prod = 1, in = ir_value_numel(x);
  if (r > IR_MAX_RANK) return ERR("target rank %lld exceeds %d", (long long)r, IR_MAX_RANK);
  int infer = -1, allowzero = (int)ir_attr_int(n, "allowzero", 0);
  for (int i = 0; i < r; i++) {
    dims[i] = sd[i];
    if (sd[i] == 0 && !allowzero) {
      if (i >= x->rank) return ERR("shape[%d]=0 copies a dimension the input does not have", i);
      dims[i] = x->dims[i];
    }
    if (dims[i] == -1) {
      if (infer >= 0) return ERR("more than one -1 in the target shape");
      infer = i;
      continue;
    }
    if (dims[i] < 0 || dims[i] > MAX_ELEMS) return ERR("bad target dimension %lld", (long long)dims[i]);
    prod *= dims[i];
    if (prod > MAX_ELEMS) return ERR("the target shape is too large");
  }
  if (infer >= 0) {
    if (prod == 0 || in % prod) return ERR("cannot infer -1: %lld elements into %lld", (long long)in, (long long)prod);
    dims[infer] = in / prod;
    prod *= dims[infer];
  }
  if (prod != in) return ERR("%lld elements cannot be reshaped into %lld", (long long)in, (long long)prod);
  set_shape(n->out, x->dtype, (int)r, dims);
  return 0;
}

static int quant_params_check(ir_node *n, int x_i, int s_i, int axis_attr, diag *d) {
  ir_value *x = n->in[x_i], *s = n->in[s_i];
  if (want_dtype(n, s_i, IR_F32, d)) return -1;
  int64_t cnt = ir_value_numel(s);
  if (n->n_in > 2 && ir_value_numel(n->in[2]) != cnt)
    return ERR("zero point '%s' and scale '%s' differ in size", n->in[2]->name, s->name);
  if (s->rank == 0 || cnt == 1) return 0;
  if (!axis_attr) return ERR("scale '%s' must be a scalar", s->name);
  int64_t axis = 0;
  if (norm_axis(n, ir_attr_int(n, "axis", 1), x->rank, d, &axis)) return -1;
  if (s->rank != 1 || s->dims[0] != x->dims[axis])
    return ERR("scale '%s' has %lld values for %lld channels on axis %lld", s->name, (long long)cnt,
               (long long)x->dims[axis], (long long)axis);
  return 0;
}

/* ---- the coverage operators ---- */

static int want_float_in(ir_node *n, int k, diag *d) {
  if (!is_float(n->in[k]->dtype))
    return ERR("input %d '%s' has type %s, expected f32 or f64", k, n->in[k]->name, ir_dtype_name(n->in[k]->dtype));
  return 0;
}

static int same_dtype(ir_node *n, int from, diag *d) {
  for (int k = from + 1; k < n->n_in; k++)
    if (n->in[k]->dtype != n->in[from]->dtype)
      return ERR("input %d '%s' has type %s, input %d '%s' %s", k, n->in[k]->name, ir_dtype_name(n->in[k]->dtype),
                 from, n->in[from]->name, ir_dtype_name(n->in[from]->dtype));
  return 0;
}

/* Numpy broadcast of inputs from..n_in-1 into o (shape only). */
static int broadcast_all(ir_node *n, int from, ir_value *o, diag *d) {
  ir_value acc = *n->in[from];
  for (int k = from + 1; k < n->n_in; k++) {
    ir_value t = acc;
    if (broadcast(n, &acc, n->in[k], &t, d)) return -1;
    t.name = acc.name;
    acc = t;
  }
  o->rank = acc.rank;
  memcpy(o->dims, acc.dims, sizeof(int64_t) * (size_t)acc.rank);
  return 0;
}

/* Parameters computed from shapes (the importer's `pending` list: names of
 * the trailing inputs) become attributes now that they have folded. */
static int resolve_pending(ir_graph *g, ir_node *n, diag *d) {
  const ir_attr *p = ir_attr_get(n, "pending");
  if (!p) return 0;
  if (p->kind != IR_ATTR_STRING) return ERR("attribute pending must be a string");
  char names[128];
  snprintf(names, sizeof names, "%s", p->s);
  int cnt = 0;
  char *list[4], *save = NULL;
  for (char *t = strtok_r(names, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
    if (cnt == 4) return ERR("attribute pending names too many inputs");
    list[cnt++] = t;
  }
  int first = n->n_in - cnt;
  if (first < 1) return ERR("attribute pending names %d inputs, the node has %d", cnt, n->n_in);
  for (int i = 0; i < cnt; i++) {
    ir_value *v = n->in[first + i];
    if (v->kind != IR_VALUE_CONST) {
      if (v->kind == IR_VALUE_NODE && v->def)
        return ERR("%s must be a constant; it is computed by node '%s' (%s) from values shape inference cannot fold",
                   list[i], v->def->src, ir_op_name(v->def->op));
      return ERR("%s must be a constant (an initializer, a Constant node or a --bind input); '%s' is a graph input",
                 list[i], v->name);
    }
    int64_t c = ir_value_numel(v);
    if (c > 64 || v->rank > 1) return ERR("%s '%s' must be 1-D with at most 64 values", list[i], v->name);
    int want_f = !strcmp(list[i], "scales");
    if (want_f ? !is_float(v->dtype) : (is_float(v->dtype) || v->dtype == IR_BOOL))
      return ERR("%s '%s' must be a%s tensor", list[i], v->name, want_f ? " float" : "n integer");
    int r;
    if (want_f) {
      float f[64];
      for (int64_t k = 0; k < c; k++) f[k] = (float)ir_elem_f64(v->dtype, v->data, k);
      r = ir_attr_set_floats(g, n, list[i], f, (int)c, d);
    } else {
      int64_t x[64];
      for (int64_t k = 0; k < c; k++) x[k] = ir_elem_i64(v->dtype, v->data, k);
      r = ir_attr_set_ints(g, n, list[i], x, (int)c, d);
    }
    if (r) return -1;
  }
  ir_attr_remove(n, "pending");
  ir_node_set_inputs(g, n, n->in, first);
  return 0;
}

/* Axes attribute `name` of a node on rank r: normalised, unique, sorted and
 * written back; absent (or empty, when all_if_none) means every axis. */
static int norm_axes(ir_graph *g, ir_node *n, const char *name, int r, int all_if_none, int64_t *ax, int *na, diag *d) {
  int cnt;
  const int64_t *a = ir_attr_ints(n, name, &cnt);
  int mark[IR_MAX_RANK] = {0};
  if (!a || (cnt == 0 && all_if_none)) {
    for (int i = 0; i < r; i++) mark[i] = 1;
  } else {
    for (int i = 0; i < cnt; i++) {
      int64_t x;
      if (norm_axis(n, a[i], r, d, &x)) return -1;
      if (mark[x]++) return ERR("axis %lld repeated in %s", (long long)a[i], name);
    }
  }
  *na = 0;
  for (int i = 0; i < r; i++)
    if (mark[i]) ax[(*na)++] = i;
  return ir_attr_set_ints(g, n, name, ax, *na, d);
}

static int reduce_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  int64_t ax[IR_MAX_RANK], dims[IR_MAX_RANK];
  int na, r = 0, keep = (int)ir_attr_int(n, "keepdims", 1), red[IR_MAX_RANK] = {0};
  if (x->dtype == IR_BOOL && n->op != IR_OP_REDUCE_MAX && n->op != IR_OP_REDUCE_MIN) /* bool: ReduceMax/Min-20 */
    return ERR("input 0 '%s' has type bool", x->name);
  const ir_attr *noop = ir_attr_get(n, "noop_with_empty_axes"); /* the importer leaves it only with computed axes */
  if (noop) {
    int cnt;
    int empty = !ir_attr_ints(n, "axes", &cnt) || cnt == 0;
    ir_attr_remove(n, "noop_with_empty_axes");
    if (empty && noop->kind == IR_ATTR_INT && noop->i) { /* no axes: nothing reduced */
      n->op = IR_OP_IDENTITY;
      n->attrs = NULL;
      ir_value_copy_type(n->out, x);
      return 0;
    }
  }
  if (norm_axes(g, n, "axes", x->rank, 1, ax, &na, d)) return -1;
  for (int i = 0; i < na; i++) red[ax[i]] = 1;
  for (int i = 0; i < x->rank; i++)
    if (!red[i]) dims[r++] = x->dims[i];
    else if (keep) dims[r++] = 1;
  set_shape(n->out, x->dtype, r, dims);
  return 0;
}

static int argmax_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  int64_t axis, dims[IR_MAX_RANK];
  int r = 0, keep = (int)ir_attr_int(n, "keepdims", 1);
  if (x->dtype == IR_BOOL) return ERR("input 0 '%s' has type bool", x->name);
  if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, d, &axis)) return -1;
  if (x->dims[axis] == 0) return ERR("axis %lld has no elements", (long long)axis);
  for (int i = 0; i < x->rank; i++)
    if (i != axis) dims[r++] = x->dims[i];
    else if (keep) dims[r++] = 1;
  set_shape(n->out, IR_I64, r, dims);
  return ir_attr_set_int(g, n, "axis", axis, d);
}

/* Slice: axes normalised, starts/ends clamped to the dims as ONNX clamps
 * them (an end before the start of a backwards slice is written -dim-1, so
 * that reading it again gives the same slice), one value per sliced axis. */
static int slice_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  int r = x->rank;
  if (ir_attr_get(n, "parts")) { /* Split into equal parts */
    int cnt;
    const int64_t *ax = ir_attr_ints(n, "axes", &cnt);
    int64_t axis, parts = ir_attr_int(n, "parts", 1), part = ir_attr_int(n, "part", 0);
    if (!ax || cnt != 1 || norm_axis(n, ax[0], r, d, &axis)) return ax && cnt == 1 ? -1 : ERR("split needs one axis");
    if (parts < 1 || part < 0 || part >= parts) return ERR("bad split part %lld of %lld", (long long)part, (long long)parts);
    int64_t dim = x->dims[axis], chunk = (dim + parts - 1) / parts;
    int64_t st = part * chunk < dim ? part * chunk : dim, en = (part + 1) * chunk < dim ? (part + 1) * chunk : dim;
    if (ir_attr_set_ints(g, n, "starts", &st, 1, d) || ir_attr_set_ints(g, n, "ends", &en, 1, d)) return -1;
    ir_attr_remove(n, "part");
    ir_attr_remove(n, "parts");
  }
  int ns, ne, na, nt;
  const int64_t *st = ir_attr_ints(n, "starts", &ns), *en = ir_attr_ints(n, "ends", &ne);
  const int64_t *ax = ir_attr_ints(n, "axes", &na), *sp = ir_attr_ints(n, "steps", &nt);
  if (!st || !en) return ERR("attributes starts and ends are required");
  if (ns != ne) return ERR("starts has %d values, ends %d", ns, ne);
  if (ax && na != ns) return ERR("axes has %d values, starts %d", na, ns);
  if (sp && nt != ns) return ERR("steps has %d values, starts %d", nt, ns);
  if (ns > r) return ERR("%d sliced axes for rank %d", ns, r);
  int64_t S[IR_MAX_RANK], E[IR_MAX_RANK], A[IR_MAX_RANK], T[IR_MAX_RANK], dims[IR_MAX_RANK];
  int seen[IR_MAX_RANK] = {0};
  memcpy(dims, x->dims, sizeof(int64_t) * (size_t)r);
  for (int i = 0; i < ns; i++) {
    if (norm_axis(n, ax ? ax[i] : i, r, d, &A[i])) return -1;
    if (seen[A[i]]++) return ERR("axis %lld is sliced twice", (long long)A[i]);
    T[i] = sp ? sp[i] : 1;
    if (T[i] == 0) return ERR("steps[%d] is 0", i);
    if (T[i] < -(1 << 30) || T[i] > (1 << 30)) return ERR("steps[%d]=%lld is out of range", i, (long long)T[i]);
    int64_t dim = dims[A[i]], s0 = st[i], e0 = en[i];
    if (s0 < 0) s0 = s0 < -dim ? 0 : s0 + dim;
    if (e0 < 0) e0 = e0 < -dim ? -1 : e0 + dim;
    if (T[i] > 0) {
      s0 = s0 > dim ? dim : s0 < 0 ? 0 : s0;
      e0 = e0 > dim ? dim : e0 < 0 ? 0 : e0;
      dims[A[i]] = e0 > s0 ? (e0 - s0 + T[i] - 1) / T[i] : 0;
    } else {
      s0 = s0 > dim - 1 ? dim - 1 : s0 < 0 ? 0 : s0; /* a negative start was already clamped to 0 */
      if (st[i] < -dim) s0 = -1; /* before the beginning: nothing */
      e0 = e0 > dim - 1 ? dim - 1 : e0 < -1 ? -1 : e0;
      dims[A[i]] = s0 > e0 ? (s0 - e0 + (-T[i]) - 1) / (-T[i]) : 0;
      if (s0 < 0) s0 = 0, dims[A[i]] = 0;
      if (e0 == -1) e0 = -dim - 1;
    }
    S[i] = s0, E[i] = e0;
  }
  if (ir_attr_set_ints(g, n, "starts", S, ns, d) || ir_attr_set_ints(g, n, "ends", E, ns, d) ||
      ir_attr_set_ints(g, n, "axes", A, ns, d) || ir_attr_set_ints(g, n, "steps", T, ns, d))
    return -1;
  set_shape(n->out, x->dtype, r, dims);
  return 0;
}

static int expand_shape(ir_node *n, diag *d) {
  int cnt;
  const int64_t *sh = ir_attr_ints(n, "shape", &cnt);
  if (!sh) return ERR("attribute shape is required");
  if (cnt > IR_MAX_RANK) return ERR("shape has %d dimensions, at most %d", cnt, IR_MAX_RANK);
  ir_value t = {.name = "shape", .rank = cnt};
  for (int i = 0; i < cnt; i++) {
    if (sh[i] < 0) return ERR("shape[%d]=%lld is negative", i, (long long)sh[i]);
    t.dims[i] = sh[i];
  }
  n->out->dtype = n->in[0]->dtype;
  return broadcast(n, n->in[0], &t, n->out, d);
}

static int tile_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  int cnt;
  const int64_t *rp = ir_attr_ints(n, "repeats", &cnt);
  int64_t dims[IR_MAX_RANK];
  int nt, na;
  const int64_t *tiles = ir_attr_ints(n, "tiles", &nt), *axis = ir_attr_ints(n, "axis", &na);
  if (!rp && tiles && axis) { /* Tile-1 */
    int64_t a, r[IR_MAX_RANK];
    if (nt != 1 || na != 1) return ERR("tiles and axis must be scalars");
    if (norm_axis(n, axis[0], x->rank, d, &a)) return -1;
    for (int i = 0; i < x->rank; i++) r[i] = i == a ? tiles[0] : 1;
    if (ir_attr_set_ints(g, n, "repeats", r, x->rank, d)) return -1;
    ir_attr_remove(n, "tiles");
    ir_attr_remove(n, "axis");
    rp = ir_attr_ints(n, "repeats", &cnt);
  }
  if (!rp) return ERR("attribute repeats is required");
  if (cnt != x->rank) return ERR("repeats has %d values for rank %d", cnt, x->rank);
  for (int i = 0; i < cnt; i++) {
    if (rp[i] < 0) return ERR("repeats[%d]=%lld is negative", i, (long long)rp[i]);
    dims[i] = x->dims[i] * rp[i];
  }
  set_shape(n->out, x->dtype, x->rank, dims);
  return 0;
}

/* Resize: scales (floor(in * scale)) or sizes, one per dim after axes are
 * expanded; keep_aspect_ratio_policy turns sizes into one common scale. */
static int resize_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  int r = x->rank, ns = 0, nz = 0, na;
  const float *sc = NULL;
  const ir_attr *sa = ir_attr_get(n, "scales");
  if (sa && sa->kind == IR_ATTR_FLOATS) sc = sa->floats, ns = sa->n;
  const int64_t *sz = ir_attr_ints(n, "sizes", &nz);
  const int64_t *ax = ir_attr_ints(n, "axes", &na);
  if (!sc == !sz) return ERR("exactly one of scales and sizes must be given");
  int cnt = sc ? ns : nz;
  int64_t A[IR_MAX_RANK];
  if (ax) {
    if (na != cnt) return ERR("axes has %d values, %s %d", na, sc ? "scales" : "sizes", cnt);
    int seen[IR_MAX_RANK] = {0};
    for (int i = 0; i < na; i++) {
      if (norm_axis(n, ax[i], r, d, &A[i])) return -1;
      if (seen[A[i]]++) return ERR("axis %lld repeated", (long long)A[i]);
    }
  } else {
    if (cnt != r) return ERR("%s has %d values for rank %d", sc ? "scales" : "sizes", cnt, r);
    for (int i = 0; i < r; i++) A[i] = i;
  }
  float S[IR_MAX_RANK];
  int64_t Z[IR_MAX_RANK], dims[IR_MAX_RANK];
  for (int i = 0; i < r; i++) S[i] = 1.0f, Z[i] = x->dims[i];
  for (int i = 0; i < cnt; i++) {
    if (sc) {
      if (!(sc[i] > 0) || !isfinite(sc[i])) return ERR("scales[%d]=%g must be positive", i, (double)sc[i]);
      S[A[i]] = sc[i];
    } else {
      if (sz[i] < 0) return ERR("sizes[%d]=%lld is negative", i, (long long)sz[i]);
      Z[A[i]] = sz[i];
    }
  }
  const ir_attr *kp = ir_attr_get(n, "keep_aspect_ratio_policy");
  if (sz && kp && kp->kind == IR_ATTR_STRING && strcmp(kp->s, "stretch")) {
    int larger = !strcmp(kp->s, "not_larger");
    double s = larger ? INFINITY : 0;
    for (int i = 0; i < cnt; i++) {
      double q = x->dims[A[i]] ? (double)sz[i] / (double)x->dims[A[i]] : 1.0;
      s = larger ? (q < s ? q : s) : (q > s ? q : s);
    }
    for (int i = 0; i < cnt; i++) {
      double z = floor((double)x->dims[A[i]] * s + 0.5);
      if (z > (double)MAX_ELEMS) return ERR("result dimension %lld is out of range", (long long)A[i]);
      Z[A[i]] = (int64_t)z;
    }
  }
  ir_attr_remove(n, "keep_aspect_ratio_policy");
  ir_attr_remove(n, "axes");
  /* tf_crop_and_resize scales the cropped extent: floor(dim * (end - start) * scale) */
  const ir_attr *roi = ir_attr_get(n, "roi");
  const ir_attr *ctm = ir_attr_get(n, "coordinate_transformation_mode");
  int crop = ctm && ctm->kind == IR_ATTR_STRING && !strcmp(ctm->s, "tf_crop_and_resize");
  if (crop && (!roi || roi->kind != IR_ATTR_FLOATS || roi->n != 2 * r))
    return ERR("roi has %d values for rank %d (tf_crop_and_resize: a start and an end per dimension)",
               roi && roi->kind == IR_ATTR_FLOATS ? roi->n : 0, r);
  for (int i = 0; i < r; i++) {
    double ext = crop ? (double)roi->floats[r + i] - (double)roi->floats[i] : 1.0;
    double o = sc ? floor((double)x->dims[i] * ext * (double)S[i]) : (double)Z[i];
    if (o < 0 || o > (double)MAX_ELEMS) return ERR("result dimension %d is out of range", i);
    dims[i] = (int64_t)o;
  }
  if (sc ? ir_attr_set_floats(g, n, "scales", S, r, d) : ir_attr_set_ints(g, n, "sizes", Z, r, d)) return -1;
  const ir_attr *mode = ir_attr_get(n, "mode");
  int nearest = !mode || mode->kind != IR_ATTR_STRING || !strcmp(mode->s, "nearest");
  if (!nearest && want_float_in(n, 0, d)) return -1; /* interpolation needs floats */
  if (x->dtype == IR_BOOL) return ERR("input 0 '%s' has type bool", x->name);
  set_shape(n->out, x->dtype, r, dims);
  return 0;
}

static int depth_space_shape(ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  int64_t b = ir_attr_int(n, "blocksize", 0), dims[4];
  if (want_rank(n, 0, 4, 4, d)) return -1;
  if (b < 1) return ERR("blocksize=%lld must be positive", (long long)b);
  if (n->op == IR_OP_DEPTH_TO_SPACE) {
    if (x->dims[1] % (b * b)) return ERR("%lld channels are not a multiple of blocksize^2 = %lld", (long long)x->dims[1], (long long)(b * b));
    dims[0] = x->dims[0], dims[1] = x->dims[1] / (b * b), dims[2] = x->dims[2] * b, dims[3] = x->dims[3] * b;
  } else {
    if (x->dims[2] % b || x->dims[3] % b)
      return ERR("height %lld and width %lld must be multiples of blocksize %lld", (long long)x->dims[2],
                 (long long)x->dims[3], (long long)b);
    dims[0] = x->dims[0], dims[1] = x->dims[1] * b * b, dims[2] = x->dims[2] / b, dims[3] = x->dims[3] / b;
  }
  set_shape(n->out, x->dtype, 4, dims);
  return 0;
}

/* ConvTranspose: out = stride*(in-1) + output_padding + (k-1)*dilation + 1
 * - pads; output_shape and auto_pad become explicit pads. */
static int conv_transpose_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0], *w = n->in[1];
  if (want_rank(n, 0, 3, IR_MAX_RANK, d) || want_float_in(n, 0, d) || want_dtype(n, 1, x->dtype, d)) return -1;
  if (w->rank != x->rank) return ERR("weights '%s' have rank %d, the input has rank %d", w->name, w->rank, x->rank);
  int s = x->rank - 2;
  int64_t group = ir_attr_int(n, "group", 1);
  if (group < 1) return ERR("group=%lld must be positive", (long long)group);
  if (w->dims[0] != x->dims[1])
    return ERR("weights '%s' have %lld input channels, the input has %lld", w->name, (long long)w->dims[0], (long long)x->dims[1]);
  if (x->dims[1] % group) return ERR("group=%lld does not divide %lld input channels", (long long)group, (long long)x->dims[1]);
  int64_t m = w->dims[1] * group;
  if (n->n_in > 2 && (n->in[2]->rank != 1 || n->in[2]->dims[0] != m))
    return ERR("bias '%s' must have shape [%lld]", n->in[2]->name, (long long)m);
  int64_t k[IR_MAX_RANK], st[IR_MAX_RANK], dl[IR_MAX_RANK], op[IR_MAX_RANK], p[2 * IR_MAX_RANK], dims[IR_MAX_RANK];
  int cnt;
  const int64_t *ks = ir_attr_ints(n, "kernel_shape", &cnt);
  if (ks && cnt != s) return ERR("kernel_shape has %d values, expected %d", cnt, s);
  for (int i = 0; i < s; i++) {
    k[i] = w->dims[2 + i];
    if (ks && ks[i] != k[i]) return ERR("kernel_shape[%d]=%lld does not match the weights' %lld", i, (long long)ks[i], (long long)k[i]);
  }
  if (ir_attr_set_ints(g, n, "kernel_shape", k, s, d) || spatial_attr(g, n, "strides", s, 1, st, d) ||
      spatial_attr(g, n, "dilations", s, 1, dl, d) || spatial_attr(g, n, "output_padding", s, 0, op, d) ||
      spatial_attr(g, n, "pads", 2 * s, 0, p, d))
    return -1;
  const int64_t *os = ir_attr_ints(n, "output_shape", &cnt);
  if (os && cnt != s && cnt != x->rank) return ERR("output_shape has %d values, expected %d", cnt, s);
  if (os && cnt == x->rank) os += 2;
  const ir_attr *ap = ir_attr_get(n, "auto_pad");
  const char *mode = ap && ap->kind == IR_ATTR_STRING ? ap->s : "NOTSET";
  int same = !strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER");
  if (!same && strcmp(mode, "NOTSET") && strcmp(mode, "VALID")) return ERR("auto_pad='%s' is not supported", mode);
  for (int i = 0; i < s; i++) {
    if (st[i] < 1 || dl[i] < 1) return ERR("strides and dilations must be positive");
    if (op[i] < 0) return ERR("output_padding[%d]=%lld is negative", i, (long long)op[i]);
    int64_t full = st[i] * (x->dims[2 + i] - 1) + op[i] + (k[i] - 1) * dl[i] + 1;
    if (os || same) {
      int64_t want = os ? os[i] : x->dims[2 + i] * st[i], total = full - want;
      if (want < 1) return ERR("output_shape[%d]=%lld must be positive", i, (long long)want);
      if (total < 0) { /* larger than the full output: the extra is output padding at the end */
        op[i] -= total;
        full -= total;
        total = 0;
      }
      int upper = !strcmp(mode, "SAME_UPPER");
      p[i] = upper ? total / 2 : total - total / 2;
      p[i + s] = total - p[i];
    } else if (!strcmp(mode, "VALID")) {
      p[i] = p[i + s] = 0;
    }
    if (p[i] < 0 || p[i + s] < 0) return ERR("negative pads are not supported");
    dims[2 + i] = full - p[i] - p[i + s];
    if (dims[2 + i] < 1) return ERR("the output is empty along spatial dim %d", i);
  }
  ir_attr_remove(n, "auto_pad");
  ir_attr_remove(n, "output_shape");
  if (ir_attr_set_ints(g, n, "output_padding", op, s, d)) return -1;
  dims[0] = x->dims[0], dims[1] = m;
  set_shape(n->out, x->dtype, x->rank, dims);
  return ir_attr_set_ints(g, n, "pads", p, 2 * s, d);
}

static int norm_shape(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0];
  if (want_float_in(n, 0, d)) return -1;
  for (int k = 1; k < n->n_in; k++)
    if (want_dtype(n, k, x->dtype, d)) return -1;
  if (n->op == IR_OP_INSTANCE_NORM) {
    if (want_rank(n, 0, 3, IR_MAX_RANK, d)) return -1;
    for (int k = 1; k < 3; k++)
      if (n->in[k]->rank != 1 || n->in[k]->dims[0] != x->dims[1])
        return ERR("input %d '%s' must have shape [%lld]", k, n->in[k]->name, (long long)x->dims[1]);
  } else {
    int64_t axis;
    if (norm_axis(n, ir_attr_int(n, "axis", -1), x->rank, d, &axis)) return -1;
    ir_value tail = {.name = x->name, .rank = x->rank - (int)axis};
    memcpy(tail.dims, x->dims + axis, sizeof(int64_t) * (size_t)tail.rank);
    for (int k = 1; k < n->n_in; k++) {
      ir_value o;
      if (n->in[k]->rank > tail.rank || broadcast(n, &tail, n->in[k], &o, d) || o.rank != tail.rank ||
          memcmp(o.dims, tail.dims, sizeof(int64_t) * (size_t)tail.rank))
        return ERR("input %d '%s' does not broadcast to the normalised dims", k, n->in[k]->name);
    }
    if (ir_attr_set_int(g, n, "axis", axis, d)) return -1;
  }
  ir_value_copy_type(n->out, x);
  return 0;
}

/* Pad with an axes attribute (Pad-18): pads for those axes, zero for the rest. */
static int pad_axes(ir_graph *g, ir_node *n, diag *d) {
  int na, np;
  const int64_t *ax = ir_attr_ints(n, "axes", &na), *p = ir_attr_ints(n, "pads", &np);
  if (!ax) return 0;
  int r = n->in[0]->rank;
  if (!p || np != 2 * na) return ERR("pads has %d values for %d axes", p ? np : 0, na);
  int64_t full[2 * IR_MAX_RANK] = {0};
  int seen[IR_MAX_RANK] = {0};
  for (int i = 0; i < na; i++) {
    int64_t a;
    if (norm_axis(n, ax[i], r, d, &a)) return -1;
    if (seen[a]++) return ERR("axis %lld repeated", (long long)a);
    full[a] = p[i], full[a + r] = p[i + na];
  }
  ir_attr_remove(n, "axes");
  return ir_attr_set_ints(g, n, "pads", full, 2 * r, d);
}

/* The coverage operators; 1 when n is not one of them. */
static int infer_new(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0], *o = n->out;
  int64_t axis;
  switch (n->op) {
  case IR_OP_SIGMOID: case IR_OP_SILU: case IR_OP_TANH: case IR_OP_HARD_SIGMOID: case IR_OP_HARD_SWISH: case IR_OP_ELU:
  case IR_OP_SELU: case IR_OP_CELU: case IR_OP_SOFTPLUS: case IR_OP_SOFTSIGN: case IR_OP_ERF: case IR_OP_GELU:
  case IR_OP_MISH: case IR_OP_EXP: case IR_OP_LOG: case IR_OP_SQRT: case IR_OP_RECIPROCAL: case IR_OP_FLOOR:
  case IR_OP_CEIL: case IR_OP_ROUND: case IR_OP_THRESHOLDED_RELU:
    if (want_float_in(n, 0, d)) return -1;
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_NEG: case IR_OP_ABS: case IR_OP_SIGN:
    if (x->dtype == IR_BOOL) return ERR("input 0 '%s' has type bool", x->name);
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_NOT:
    if (want_dtype(n, 0, IR_BOOL, d)) return -1;
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_LOG_SOFTMAX:
    if (want_float_in(n, 0, d) || norm_axis(n, ir_attr_int(n, "axis", -1), x->rank, d, &axis)) return -1;
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_PRELU: {
    if (want_float_in(n, 0, d) || same_dtype(n, 0, d)) return -1;
    ir_value t;
    if (broadcast(n, x, n->in[1], &t, d)) return -1;
    if (t.rank != x->rank || memcmp(t.dims, x->dims, sizeof(int64_t) * (size_t)x->rank))
      return ERR("slope '%s' does not broadcast to the shape of '%s'", n->in[1]->name, x->name);
    ir_value_copy_type(o, x);
    return 0;
  }
  case IR_OP_POW:
    if (x->dtype == IR_BOOL || n->in[1]->dtype == IR_BOOL) return ERR("Pow of bool");
    o->dtype = x->dtype;
    return broadcast(n, x, n->in[1], o, d);
  case IR_OP_MIN: case IR_OP_MAX: case IR_OP_MEAN: case IR_OP_SUM:
    if (same_dtype(n, 0, d)) return -1;
    if (x->dtype == IR_BOOL || ((n->op == IR_OP_MEAN || n->op == IR_OP_SUM) && !is_float(x->dtype) &&
                                n->op == IR_OP_MEAN))
      return ERR("input 0 '%s' has type %s", x->name, ir_dtype_name(x->dtype));
    o->dtype = x->dtype;
    return broadcast_all(n, 0, o, d);
  case IR_OP_WHERE:
    if (want_dtype(n, 0, IR_BOOL, d) || same_dtype(n, 1, d)) return -1;
    o->dtype = n->in[1]->dtype;
    return broadcast_all(n, 0, o, d);
  case IR_OP_EQUAL: case IR_OP_LESS: case IR_OP_GREATER: case IR_OP_LESS_EQUAL: case IR_OP_GREATER_EQUAL:
    if (same_dtype(n, 0, d)) return -1;
    if (x->dtype == IR_BOOL && n->op != IR_OP_EQUAL) return ERR("input 0 '%s' has type bool", x->name);
    o->dtype = IR_BOOL;
    return broadcast(n, x, n->in[1], o, d);
  case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR:
    if (want_dtype(n, 0, IR_BOOL, d) || want_dtype(n, 1, IR_BOOL, d)) return -1;
    o->dtype = IR_BOOL;
    return broadcast(n, x, n->in[1], o, d);
  case IR_OP_REDUCE_MEAN: case IR_OP_REDUCE_SUM: case IR_OP_REDUCE_MAX: case IR_OP_REDUCE_MIN:
  case IR_OP_REDUCE_PROD: case IR_OP_REDUCE_L1: case IR_OP_REDUCE_L2: case IR_OP_REDUCE_LOG_SUM_EXP:
  case IR_OP_REDUCE_SUM_SQUARE:
    return reduce_shape(g, n, d);
  case IR_OP_ARGMAX: case IR_OP_ARGMIN: return argmax_shape(g, n, d);
  case IR_OP_SLICE: return slice_shape(g, n, d);
  case IR_OP_EXPAND: return expand_shape(n, d);
  case IR_OP_TILE: return tile_shape(g, n, d);
  case IR_OP_RESIZE: return resize_shape(g, n, d);
  case IR_OP_DEPTH_TO_SPACE: case IR_OP_SPACE_TO_DEPTH: return depth_space_shape(n, d);
  case IR_OP_CONV_TRANSPOSE: return conv_transpose_shape(g, n, d);
  case IR_OP_INSTANCE_NORM: case IR_OP_LAYER_NORM: return norm_shape(g, n, d);
  default: return 1;
  }
}

static int infer(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0], *o = n->out;
  int64_t dims[IR_MAX_RANK], axis = 0;
  int cnt;
  switch (n->op) {
  case IR_OP_CONV: case IR_OP_QLINEAR_CONV: case IR_OP_CONV_INTEGER: case IR_OP_QCONV:
    return conv_shape(g, n, d);
  case IR_OP_MAXPOOL: case IR_OP_AVGPOOL: case IR_OP_GLOBAL_AVGPOOL: case IR_OP_GLOBAL_MAXPOOL:
  case IR_OP_QAVGPOOL:
    return pool_shape(g, n, d);
  case IR_OP_QMATMUL:
    if (want_dtype(n, 0, IR_I8, d) || want_dtype(n, 1, IR_I8, d) || want_rank(n, 0, 2, IR_MAX_RANK, d) ||
        want_rank(n, 1, 2, IR_MAX_RANK, d) || (n->n_in > 2 && want_dtype(n, 2, IR_I32, d)))
      return -1;
    if (n->n_in > 2 && (n->in[2]->rank != 1 || n->in[2]->dims[0] != n->in[1]->dims[n->in[1]->rank - 1]))
      return ERR("bias '%s' must have one value per output column", n->in[2]->name);
    return matmul_shape(n, x, n->in[1], ir_attr_int(n, "raw", 0) ? IR_I32 : IR_I8, d);
  case IR_OP_QADD:
    if (want_dtype(n, 0, IR_I8, d) || want_dtype(n, 1, IR_I8, d)) return -1;
    if (x->rank != n->in[1]->rank || memcmp(x->dims, n->in[1]->dims, sizeof(int64_t) * (size_t)x->rank))
      return ERR("QAdd operands must have the same shape");
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_QMUL: /* multidirectional broadcasting, as Mul */
    if (want_dtype(n, 0, IR_I8, d) || want_dtype(n, 1, IR_I8, d)) return -1;
    o->dtype = IR_I8;
    return broadcast(n, x, n->in[1], o, d);
  case IR_OP_QLUT: {
    int nt = 0;
    const int64_t *t = ir_attr_ints(n, "table", &nt);
    if (want_dtype(n, 0, IR_I8, d)) return -1;
    if (!t || nt != 256) return ERR("attribute table must hold 256 entries");
    for (int i = 0; i < 256; i++)
      if (t[i] < -128 || t[i] > 127) return ERR("table entry %d (%lld) is outside int8", i, (long long)t[i]);
    ir_value_copy_type(o, x);
    return 0;
  }
  case IR_OP_QSOFTMAX: case IR_OP_QLAYERNORM: { /* x i8, then the constants tfw_ops.h's builders give */
    int soft = n->op == IR_OP_QSOFTMAX;
    /* QSoftmax's f32 exp table makes its output f32 (tfw_softmax_qf_build) */
    int to_f32 = soft && n->n_in > 1 && n->in[1]->dtype == IR_F32;
    int64_t ax = ir_attr_int(n, "axis", -1), len = 1;
    if (want_dtype(n, 0, IR_I8, d) || want_dtype(n, 1, to_f32 ? IR_F32 : IR_I32, d) ||
        (!soft && want_dtype(n, 2, IR_I64, d)))
      return -1;
    if (ax < -x->rank || ax >= x->rank) return ERR("axis %lld is out of range for rank %d", (long long)ax, x->rank);
    ax = ax < 0 ? ax + x->rank : ax;
    for (int i = (int)ax; i < x->rank; i++) len *= soft && i > ax ? 1 : x->dims[i];
    for (int k = 1; k < n->n_in; k++)
      if (ir_value_numel(n->in[k]) != (soft ? 256 : len))
        return ERR("input %d '%s' must hold %lld values", k, n->in[k]->name, (long long)(soft ? 256 : len));
    ir_value_copy_type(o, x);
    if (to_f32) o->dtype = IR_F32;
    return 0;
  }
  case IR_OP_QREQUANT: {
    const ir_attr *to = ir_attr_get(n, "to");
    ir_dtype t;
    if (x->dtype != IR_I8 && x->dtype != IR_U8) return ERR("input must be int8 or uint8");
    if (!to || to->kind != IR_ATTR_STRING || ir_dtype_parse(to->s, strlen(to->s), &t) ||
        (t != IR_I8 && t != IR_U8))
      return ERR("attribute to must be \"i8\" or \"u8\"");
    ir_value_copy_type(o, x);
    o->dtype = t;
    return 0;
  }
  case IR_OP_GEMM: {
    ir_value *b = n->in[1];
    if (want_rank(n, 0, 2, 2, d) || want_rank(n, 1, 2, 2, d) || want_dtype(n, 0, IR_F32, d) ||
        want_dtype(n, 1, IR_F32, d))
      return -1;
    int ta = ir_attr_int(n, "transA", 0) != 0, tb = ir_attr_int(n, "transB", 0) != 0;
    int64_t m = x->dims[ta], k = x->dims[1 - ta], kb = b->dims[tb], nn = b->dims[1 - tb];
    if (k != kb) return ERR("inner dimensions differ: %lld vs %lld", (long long)k, (long long)kb);
    dims[0] = m, dims[1] = nn;
    set_shape(o, IR_F32, 2, dims);
    if (n->n_in == 3) {
      ir_value tmp = *o;
      if (n->in[2]->rank > 2 || broadcast(n, o, n->in[2], &tmp, d)) return ERR("bias C does not broadcast to [%lld,%lld]", (long long)m, (long long)nn);
      if (tmp.dims[0] != m || tmp.dims[1] != nn) return ERR("bias C does not broadcast to [%lld,%lld]", (long long)m, (long long)nn);
    }
    return 0;
  }
  case IR_OP_MATMUL:
    if (want_dtype(n, 0, IR_F32, d) || want_dtype(n, 1, IR_F32, d)) return -1;
    return matmul_shape(n, x, n->in[1], IR_F32, d);
  case IR_OP_MATMUL_INTEGER:
    if (integer_params(n, d)) return -1;
    return matmul_shape(n, x, n->in[1], IR_I32, d);
  case IR_OP_QLINEAR_MATMUL:
    if (integer_params(n, d)) return -1;
    return matmul_shape(n, x, n->in[3], n->in[7]->dtype, d);
  case IR_OP_RELU: case IR_OP_CLIP: case IR_OP_LEAKY_RELU: case IR_OP_SOFTMAX:
    /* Clip-12 and later also clamp integers (the bounds are exact up to 2^24) */
    if (n->op == IR_OP_CLIP && x->dtype != IR_F32 && x->dtype != IR_BOOL && !is_float(x->dtype)) {
      ir_value_copy_type(o, x);
      return 0;
    }
    if (want_dtype(n, 0, IR_F32, d)) return -1;
    if (n->op == IR_OP_SOFTMAX && norm_axis(n, ir_attr_int(n, "axis", -1), x->rank, d, &axis)) return -1;
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_IDENTITY: case IR_OP_DROPOUT: ir_value_copy_type(o, x); return 0;
  case IR_OP_BATCHNORM:
    if (want_rank(n, 0, 2, IR_MAX_RANK, d) || want_dtype(n, 0, IR_F32, d)) return -1;
    for (int k = 1; k < 5; k++)
      if (n->in[k]->rank != 1 || n->in[k]->dims[0] != x->dims[1] || n->in[k]->dtype != IR_F32)
        return ERR("input %d '%s' must be f32[%lld]", k, n->in[k]->name, (long long)x->dims[1]);
    if (n->in[4]->kind == IR_VALUE_CONST && n->in[4]->data) {
      /* sqrt(var + eps) of a negative (or NaN) variance made every output NaN, silently */
      const float *var = n->in[4]->data;
      double eps = ir_attr_float(n, "epsilon", 1e-5f);
      for (int64_t c = 0; c < x->dims[1]; c++)
        if (!((double)var[c] + eps > 0) || !isfinite(var[c]))
          return ERR("variance '%s'[%lld] = %g with epsilon %g: var + epsilon must be positive and finite",
                     n->in[4]->name, (long long)c, (double)var[c], eps);
    }
    ir_value_copy_type(o, x);
    return 0;
  case IR_OP_ADD: case IR_OP_MUL: case IR_OP_SUB: case IR_OP_DIV:
    if (n->in[1]->dtype != x->dtype)
      return ERR("operand types differ: %s and %s", ir_dtype_name(x->dtype), ir_dtype_name(n->in[1]->dtype));
    o->dtype = x->dtype;
    return broadcast(n, x, n->in[1], o, d);
  case IR_OP_FLATTEN: {
    int64_t a = ir_attr_int(n, "axis", 1);
    if (a < -x->rank || a > x->rank) return ERR("axis %lld is out of range for rank %d", (long long)a, x->rank);
    if (a < 0) a += x->rank;
    dims[0] = dims[1] = 1;
    for (int i = 0; i < x->rank; i++) dims[i >= a] *= x->dims[i];
    set_shape(o, x->dtype, 2, dims);
    return 0;
  }
  case IR_OP_RESHAPE: return reshape_shape(n, d);
  case IR_OP_TRANSPOSE: {
    const int64_t *perm = ir_attr_ints(n, "perm", &cnt);
    int64_t p[IR_MAX_RANK];
    int seen[IR_MAX_RANK] = {0};
    if (perm && cnt != x->rank) return ERR("perm has %d values for rank %d", cnt, x->rank);
    for (int i = 0; i < x->rank; i++) {
      p[i] = perm ? perm[i] : x->rank - 1 - i;
      if (p[i] < 0 || p[i] >= x->rank || seen[p[i]]++) return ERR("perm is not a permutation");
      dims[i] = x->dims[p[i]];
    }
    set_shape(o, x->dtype, x->rank, dims);
    return ir_attr_set_ints(g, n, "perm", p, x->rank, d);
  }
  case IR_OP_SQUEEZE: {
    const int64_t *axes = ir_attr_ints(n, "axes", &cnt);
    int drop[IR_MAX_RANK] = {0}, r = 0;
    int64_t ax[IR_MAX_RANK];
    int na = 0;
    for (int i = 0; i < (axes ? cnt : x->rank); i++) {
      if (axes) {
        if (norm_axis(n, axes[i], x->rank, d, &axis)) return -1;
        if (x->dims[axis] != 1) return ERR("cannot squeeze dimension %lld of size %lld", (long long)axis, (long long)x->dims[axis]);
      } else if (x->dims[i] != 1) {
        continue;
      } else {
        axis = i;
      }
      if (!drop[axis]) ax[na++] = axis;
      drop[axis] = 1;
    }
    for (int i = 0; i < x->rank; i++)
      if (!drop[i]) dims[r++] = x->dims[i];
    set_shape(o, x->dtype, r, dims);
    return ir_attr_set_ints(g, n, "axes", ax, na, d);
  }
  case IR_OP_UNSQUEEZE: {
    const int64_t *axes = ir_attr_ints(n, "axes", &cnt);
    int r = x->rank + cnt, ins[IR_MAX_RANK] = {0};
    if (r > IR_MAX_RANK) return ERR("result rank %d exceeds %d", r, IR_MAX_RANK);
    for (int i = 0; i < cnt; i++) {
      if (norm_axis(n, axes[i], r, d, &axis)) return -1;
      if (ins[axis]++) return ERR("axis %lld repeated", (long long)axis);
    }
    for (int i = 0, k = 0; i < r; i++) dims[i] = ins[i] ? 1 : x->dims[k++];
    set_shape(o, x->dtype, r, dims);
    return 0;
  }
  case IR_OP_CONCAT: {
    if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, d, &axis)) return -1;
    memcpy(dims, x->dims, sizeof dims);
    for (int k = 1; k < n->n_in; k++) {
      ir_value *y = n->in[k];
      if (y->rank != x->rank || y->dtype != x->dtype) return ERR("input %d '%s' differs in rank or type", k, y->name);
      for (int i = 0; i < x->rank; i++)
        if (i != axis && y->dims[i] != x->dims[i]) return ERR("input %d '%s' differs in dimension %d", k, y->name, i);
      dims[axis] += y->dims[axis];
    }
    set_shape(o, x->dtype, x->rank, dims);
    return 0;
  }
  case IR_OP_PAD: {
    if (pad_axes(g, n, d)) return -1;
    const int64_t *p = ir_attr_ints(n, "pads", &cnt);
    if (cnt != 2 * x->rank) return ERR("pads has %d values for rank %d", cnt, x->rank);
    for (int i = 0; i < x->rank; i++) {
      if (p[i] < 0 || p[i + x->rank] < 0) return ERR("negative pads are not supported");
      dims[i] = x->dims[i] + p[i] + p[i + x->rank];
    }
    set_shape(o, x->dtype, x->rank, dims);
    return 0;
  }
  case IR_OP_CAST: {
    const ir_attr *a = ir_attr_get(n, "to");
    ir_dtype t;
    if (!a || a->kind != IR_ATTR_STRING || ir_dtype_parse(a->s, strlen(a->s), &t)) return ERR("bad 'to' attribute");
    ir_value_copy_type(o, x);
    o->dtype = t;
    return 0;
  }
  case IR_OP_SHAPE: {
    int64_t st = ir_attr_int(n, "start", 0), en = ir_attr_int(n, "end", x->rank);
    if (st < 0) st += x->rank;
    if (en < 0) en += x->rank;
    st = st < 0 ? 0 : st > x->rank ? x->rank : st;
    en = en < 0 ? 0 : en > x->rank ? x->rank : en;
    dims[0] = en > st ? en - st : 0;
    set_shape(o, IR_I64, 1, dims);
    return 0;
  }
  case IR_OP_GATHER: {
    ir_value *ix = n->in[1];
    if (ix->dtype != IR_I64 && ix->dtype != IR_I32) return ERR("indices must be int32 or int64");
    if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, d, &axis)) return -1;
    int r = x->rank - 1 + ix->rank;
    if (r > IR_MAX_RANK) return ERR("result rank %d exceeds %d", r, IR_MAX_RANK);
    int k = 0;
    for (int i = 0; i < axis; i++) dims[k++] = x->dims[i];
    for (int i = 0; i < ix->rank; i++) dims[k++] = ix->dims[i];
    for (int i = (int)axis + 1; i < x->rank; i++) dims[k++] = x->dims[i];
    set_shape(o, x->dtype, r, dims);
    return 0;
  }
  case IR_OP_QUANTIZE:
    if (want_dtype(n, 0, IR_F32, d) || quant_params_check(n, 0, 1, 1, d)) return -1;
    ir_value_copy_type(o, x);
    o->dtype = n->n_in > 2 ? n->in[2]->dtype : IR_U8;
    if (o->dtype != IR_U8 && o->dtype != IR_I8) return ERR("zero point must be uint8 or int8");
    return 0;
  case IR_OP_DEQUANTIZE:
    if (quant_params_check(n, 0, 1, 1, d)) return -1;
    if (n->n_in > 2 && n->in[2]->dtype != x->dtype) return ERR("zero point type differs from the input's");
    ir_value_copy_type(o, x);
    o->dtype = IR_F32;
    return 0;
  case IR_OP_COUNT: break;
  default: {
    int r = infer_new(g, n, d);
    if (r <= 0) return r;
    return ERR("shape inference of %s is not written yet", ir_op_name(n->op));
  }
  }
  TSL_UNREACHABLE();
  return -1;
}

/* Element o of the output of n is element in_index(...) of input v:
 * numpy broadcasting (a dimension of 1 repeats). */
static int64_t bcast_index(const ir_value *out, const ir_value *v, int64_t o) {
  int64_t idx = 0, stride = 1;
  for (int i = out->rank - 1, j = v->rank - 1; i >= 0; i--, j--) {
    int64_t c = o % out->dims[i];
    o /= out->dims[i];
    if (j < 0) continue;
    if (v->dims[j] != 1) idx += c * stride;
    stride *= v->dims[j];
  }
  return idx;
}

static void put_i64(ir_dtype t, void *data, int64_t i, int64_t x) {
  if (t == IR_I64) ((int64_t *)data)[i] = x;
  else ir_elem_set_f64(t, data, i, (double)x);
}

/* Shape computations the importer's canonical forms need while the float
 * reference cannot run them yet (Equal -> Where -> Expand from PyTorch's
 * exports): integer and bool results of small elementwise and data-moving
 * operators. 0 when it computed n->out->data, -1 when it does not know n. */
static int fold_small(const ir_node *n) {
  const ir_value *o = n->out;
  int64_t cnt = ir_value_numel(o);
  if (is_float(o->dtype)) return -1;
  for (int64_t e = 0; e < cnt; e++) {
    const ir_value *a = n->in[0], *b = n->n_in > 1 ? n->in[1] : NULL;
    double x = ir_elem_f64(a->dtype, a->data, bcast_index(o, a, e));
    double y = b ? ir_elem_f64(b->dtype, b->data, bcast_index(o, b, e)) : 0;
    int64_t xi = ir_elem_i64(a->dtype, a->data, bcast_index(o, a, e));
    int64_t yi = b ? ir_elem_i64(b->dtype, b->data, bcast_index(o, b, e)) : 0, r;
    switch (n->op) {
    case IR_OP_EQUAL: r = x == y; break;
    case IR_OP_LESS: r = x < y; break;
    case IR_OP_GREATER: r = x > y; break;
    case IR_OP_LESS_EQUAL: r = x <= y; break;
    case IR_OP_GREATER_EQUAL: r = x >= y; break;
    case IR_OP_AND: r = xi && yi; break;
    case IR_OP_OR: r = xi || yi; break;
    case IR_OP_XOR: r = !xi != !yi; break;
    case IR_OP_NOT: r = !xi; break;
    case IR_OP_NEG: r = -xi; break;
    case IR_OP_ABS: r = xi < 0 ? -xi : xi; break;
    case IR_OP_SIGN: r = (xi > 0) - (xi < 0); break;
    case IR_OP_WHERE: {
      const ir_value *v = xi ? n->in[1] : n->in[2];
      r = ir_elem_i64(v->dtype, v->data, bcast_index(o, v, e));
      break;
    }
    case IR_OP_MIN: case IR_OP_MAX:
      r = xi;
      for (int k = 1; k < n->n_in; k++) {
        int64_t z = ir_elem_i64(n->in[k]->dtype, n->in[k]->data, bcast_index(o, n->in[k], e));
        r = n->op == IR_OP_MIN ? (z < r ? z : r) : (z > r ? z : r);
      }
      break;
    case IR_OP_EXPAND: r = xi; break;
    case IR_OP_SLICE: {
      int ns, na, nt;
      const int64_t *st = ir_attr_ints(n, "starts", &ns), *ax = ir_attr_ints(n, "axes", &na);
      const int64_t *sp = ir_attr_ints(n, "steps", &nt);
      int64_t first[IR_MAX_RANK] = {0}, step[IR_MAX_RANK], rest = e, idx = 0, stride = 1;
      for (int i = 0; i < a->rank; i++) step[i] = 1;
      for (int i = 0; i < ns; i++) first[ax[i]] = st[i], step[ax[i]] = sp[i];
      for (int i = a->rank - 1; i >= 0; i--) {
        int64_t c = rest % o->dims[i];
        rest /= o->dims[i];
        idx += (first[i] + c * step[i]) * stride;
        stride *= a->dims[i];
      }
      r = ir_elem_i64(a->dtype, a->data, idx);
      break;
    }
    default: return -1;
    }
    put_i64(o->dtype, o->data, e, r);
  }
  return 0;
}

/* True when n's output can be computed now from constants (data propagation). */
/* v feeds, directly or through one more node, a parameter input waiting
 * for shape inference (Resize scales computed by Concat of constants). */
static int feeds_pending(const ir_value *v, int depth) {
  for (int i = 0; i < v->n_users; i++)
    if (ir_attr_get(v->users[i], "pending") || (depth < 1 && feeds_pending(v->users[i]->out, depth + 1))) return 1;
  return 0;
}

static int foldable_now(const ir_graph *g, const ir_node *n) {
  if (n->op == IR_OP_SHAPE) return 1;
  if (ir_value_numel(n->out) > (1 << 16)) return 0; /* shape computations are small */
  int small_param = ir_value_numel(n->out) <= 64 && !g->uses_stale && feeds_pending(n->out, 0);
  if (n->out->dtype != IR_I64 && n->out->dtype != IR_I32 && n->out->dtype != IR_BOOL && !small_param) return 0;
  for (int k = 0; k < n->n_in; k++)
    if (n->in[k]->kind != IR_VALUE_CONST) return 0;
  return 1;
}

/* Attribute values that size things (kernel, strides, pads, dilations,
 * axes) must be small: it keeps every later product free of overflow. */
static int check_attr_ranges(const ir_node *n, diag *d) {
  static const char *const flags[] = {"allowzero", "ceil_mode", "coerce2d", "count_include_pad", "transA", "transB",
                                      "keepdims", "select_last_index", "exclude_outside", "approximate"};
  for (const ir_attr *a = n->attrs; a; a = a->next) {
    /* flags are 0 or 1 (the importer says so too, naming the ONNX attribute;
     * this covers textual IR) */
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
      if (!strcmp(a->name, flags[k]) && (a->kind != IR_ATTR_INT || (a->i != 0 && a->i != 1)))
        return ERR("attribute %s must be 0 or 1", a->name);
    /* requantisation multipliers are int32 by design (the requant pass and
     * the int8 reference check their range) */
    if (!strncmp(a->name, "mult", 4) && ((n->op >= IR_OP_QCONV && n->op <= IR_OP_QREQUANT) || n->op == IR_OP_QSOFTMAX))
      continue;
    /* the int8 LayerNorm's epsilon term is two 32-bit words (the kernel checks it) */
    if (n->op == IR_OP_QLAYERNORM && !strcmp(a->name, "eps")) continue;
    /* Slice bounds are clamped to the dims (INT64_MAX means "to the end") */
    if (n->op == IR_OP_SLICE && (!strcmp(a->name, "starts") || !strcmp(a->name, "ends"))) continue;
    if (a->kind == IR_ATTR_INT && (a->i < -LIMIT || a->i > LIMIT))
      return ERR("attribute %s=%lld is out of range", a->name, (long long)a->i);
    for (int i = 0; a->kind == IR_ATTR_INTS && i < a->n; i++)
      if (a->ints[i] < -LIMIT || a->ints[i] > LIMIT)
        return ERR("attribute %s has a value out of range (%lld)", a->name, (long long)a->ints[i]);
  }
  return 0;
}

/* The output must stay below MAX_ELEMS elements. */
static int check_size(const ir_node *n, diag *d) {
  const ir_value *o = n->out;
  int64_t total = 1;
  for (int i = 0; i < o->rank; i++) {
    if (o->dims[i] < 0 || o->dims[i] > MAX_ELEMS) return ERR("result dimension %d is out of range", i);
    total *= o->dims[i];
    if (total > MAX_ELEMS) return ERR("result has more than %lld elements", (long long)MAX_ELEMS);
  }
  return 0;
}

int shape_infer_node(ir_graph *g, ir_node *n, diag *d) {
  if (resolve_pending(g, n, d)) return -1;
  for (int k = 0; k < n->n_in; k++)
    if (!known(n->in[k]) && !(n->op == IR_OP_SHAPE && n->in[k]->rank >= 0))
      return ir_node_error(d, n, "shape of input %d '%s' is unknown", k, n->in[k]->name);
  if (check_attr_ranges(n, d) || infer(g, n, d)) return -1;
  return check_size(n, d);
}

/* "i64[1,?,10]" (the IR's type syntax): dtype NULL prints "?", rank -1 "[*]". */
static void type_text(const char *dtype, int rank, const int64_t *dims, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "%s[", dtype ? dtype : "?");
  for (int i = 0; i < rank && n < len; i++)
    n += dims[i] < 0 ? (size_t)snprintf(buf + n, len - n, "%s?", i ? "," : "")
                     : (size_t)snprintf(buf + n, len - n, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (n < len) snprintf(buf + n, len - n, rank < 0 ? "*]" : "]");
}

/* Each graph output against the type the model declares for it (out_decl,
 * from the importer): a declared element type, rank and dimension must be
 * what inference computed; what the model leaves out matches anything. */
static int check_declared_outputs(const ir_graph *g, diag *d) {
  for (int i = 0; g->out_decl && i < g->n_outputs; i++) {
    const ir_decl *t = &g->out_decl[i];
    const ir_value *v = g->outputs[i];
    int ok = (!t->has_dtype || t->dtype == v->dtype) && (t->rank < 0 || t->rank == v->rank);
    for (int k = 0; ok && k < t->rank; k++) ok = t->dims[k] < 0 || t->dims[k] == v->dims[k];
    if (ok) continue;
    char want[160], got[160];
    type_text(t->has_dtype ? ir_dtype_name(t->dtype) : NULL, t->rank, t->dims, want, sizeof want);
    type_text(ir_dtype_name(v->dtype), v->rank, v->dims, got, sizeof got);
    return diag_set(d, "graph output '%s': the model declares %s, shape inference gives %s", v->name, want, got);
  }
  return 0;
}

int shape_infer(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_inputs; i++) {
    const ir_value *v = g->inputs[i];
    if (v->rank < 0) return diag_set(d, "input '%s' has no shape in the model", v->name);
    for (int k = 0; k < v->rank; k++)
      if (v->dims[k] < 0)
        return diag_set(d, "input '%s': dimension %d is symbolic; give its size with --input-shape %s=D0xD1x...",
                        v->name, k, v->name);
  }
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (shape_infer_node(g, n, d)) return -1;
    if (foldable_now(g, n)) { /* a graph output too: the lowering copies a constant output */
      if (ir_value_alloc_data(g, n->out, d)) return -1;
      if (n->op == IR_OP_SHAPE) {
        int64_t st = ir_attr_int(n, "start", 0);
        if (st < 0) st += n->in[0]->rank;
        if (st < 0) st = 0;
        for (int64_t k = 0; k < n->out->dims[0]; k++)
          ((int64_t *)n->out->data)[k] = n->in[0]->dims[st + k];
      } else {
        /* an operator the reference does not run yet stays a node (ref
         * reports it); any other failure is the model's */
        diag fd = {{0}};
        if (ref_eval_node(n, n->out->data, &fd) && fold_small(n)) {
          if (n->op < IR_OP_SIGMOID) return diag_set(d, "%s", fd.msg);
          n->out->data = NULL;
          continue;
        }
      }
      ir_node_to_const(g, n, n->out->data);
      i--; /* the node list shrank */
    }
  }
  return check_declared_outputs(g, d);
}
