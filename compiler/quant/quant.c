/* quant: parameter reading and checking, value/node creation, multipliers. */
#include "quant.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int quant_is_qop(ir_op op) {
  return op == IR_OP_QCONV || op == IR_OP_QMATMUL || op == IR_OP_QADD || op == IR_OP_QMUL || op == IR_OP_QAVGPOOL ||
         op == IR_OP_QREQUANT || op == IR_OP_QLUT || op == IR_OP_QSOFTMAX || op == IR_OP_QLAYERNORM;
}

static void type_range(ir_dtype t, int64_t *lo, int64_t *hi) {
  switch (t) {
  case IR_U8: *lo = 0, *hi = 255; break;
  case IR_I8: *lo = -128, *hi = 127; break;
  case IR_I16: *lo = -32768, *hi = 32767; break;
  default: *lo = INT32_MIN, *hi = INT32_MAX; break;
  }
}

static int check_scale(float s) { return isfinite(s) && s > 0; }

int quant_params_of_node(ir_graph *g, const ir_node *n, int rank, quant_params *p, diag *d) {
  const ir_value *s = n->in[1], *z = n->n_in > 2 ? n->in[2] : NULL;
  if (s->kind != IR_VALUE_CONST || (z && z->kind != IR_VALUE_CONST)) return 1;
  int64_t cnt = ir_value_numel(s);
  if (cnt < 1) return ir_node_error(d, n, "scale '%s' is empty", s->name);
  if (z && ir_value_numel(z) != cnt)
    return ir_node_error(d, n, "zero point '%s' has %lld values, scale '%s' has %lld", z->name,
                         (long long)ir_value_numel(z), s->name, (long long)cnt);
  memset(p, 0, sizeof *p);
  p->n = (int)cnt;
  p->per_channel = s->rank == 1;
  int64_t axis = ir_attr_int(n, "axis", 1);
  if (axis < 0) axis += rank;
  p->axis = (int)axis;
  p->type = n->op == IR_OP_QUANTIZE ? n->out->dtype : n->in[0]->dtype;
  p->scale = s->data;
  if (!(p->zp = arena_alloc(g->arena, sizeof(int32_t) * (size_t)cnt))) return diag_oom(d);
  int64_t lo, hi;
  type_range(p->type, &lo, &hi);
  for (int64_t i = 0; i < cnt; i++) {
    if (!check_scale(p->scale[i]))
      return ir_node_error(d, n, "scale '%s'[%lld] = %g: scales must be positive and finite", s->name,
                           (long long)i, (double)p->scale[i]);
    int64_t zp = z ? ir_elem_i64(z->dtype, z->data, i) : 0;
    if (zp < lo || zp > hi)
      return ir_node_error(d, n, "zero point '%s'[%lld] = %lld is outside %s", z ? z->name : "?",
                           (long long)i, (long long)zp, ir_dtype_name(p->type));
    p->zp[i] = (int32_t)zp;
  }
  return 0;
}

int quant_check_value(const ir_value *v, const char *who, diag *d) {
  const ir_quant *q = &v->quant;
  if (q->kind == IR_QUANT_NONE) return 0;
  if (q->kind == IR_QUANT_CHANNEL && (q->axis < 0 || q->axis >= v->rank || q->n != v->dims[q->axis]))
    return diag_set(d, "%s: value '%s': %d per-channel scales do not match its shape", who, v->name, q->n);
  int64_t lo, hi;
  type_range(v->dtype, &lo, &hi);
  for (int i = 0; i < q->n; i++) {
    if (!check_scale(q->scale[i]))
      return diag_set(d, "%s: value '%s': scale %g must be positive and finite", who, v->name,
                      (double)q->scale[i]);
    if (q->zero_point[i] < lo || q->zero_point[i] > hi)
      return diag_set(d, "%s: value '%s': zero point %d is outside %s", who, v->name,
                      (int)q->zero_point[i], ir_dtype_name(v->dtype));
  }
  return 0;
}

int quant_set(ir_graph *g, ir_value *v, int n, int axis, int per_channel, const float *scale,
              const int32_t *zp, diag *d) {
  float *s = arena_alloc(g->arena, sizeof(float) * (size_t)n);
  int32_t *z = arena_alloc(g->arena, sizeof(int32_t) * (size_t)n);
  if (!s || !z) return diag_oom(d);
  memcpy(s, scale, sizeof(float) * (size_t)n);
  memcpy(z, zp, sizeof(int32_t) * (size_t)n);
  /* one scale is per tensor, even when ONNX wrote it as a 1-element vector */
  (void)per_channel;
  v->quant.kind = n == 1 ? IR_QUANT_TENSOR : IR_QUANT_CHANNEL;
  v->quant.axis = v->quant.kind == IR_QUANT_CHANNEL ? axis : 0;
  v->quant.n = n;
  v->quant.scale = s;
  v->quant.zero_point = z;
  return 0;
}

int quant_same_tensor(const ir_quant *a, const ir_quant *b) {
  return a->kind == IR_QUANT_TENSOR && b->kind == IR_QUANT_TENSOR && a->scale[0] == b->scale[0] &&
         a->zero_point[0] == b->zero_point[0];
}

ir_value *quant_new_const(ir_graph *g, const char *base, ir_dtype t, int rank, const int64_t *dims,
                          diag *d) {
  const char *name = ir_unique_name(g, base);
  if (!name) {
    diag_oom(d);
    return NULL;
  }
  ir_value *v = ir_value_new(g, name, IR_VALUE_CONST, d);
  if (!v) return NULL;
  v->dtype = t;
  v->rank = rank;
  for (int i = 0; i < rank; i++) v->dims[i] = dims[i];
  return ir_value_alloc_data(g, v, d) ? NULL : v;
}

int quant_node_pos(const ir_graph *g, const ir_node *n) {
  for (int i = 0; i < g->n_nodes; i++)
    if (g->nodes[i] == n) return i;
  TSL_UNREACHABLE();
  return -1;
}

ir_node *quant_new_node(ir_graph *g, int pos, ir_op op, const char *src, ir_value *const *in, int n_in,
                        const char *base, ir_dtype t, const ir_value *like, diag *d) {
  const char *name = ir_unique_name(g, base);
  if (!name) {
    diag_oom(d);
    return NULL;
  }
  ir_value *o = ir_value_new(g, name, IR_VALUE_NODE, d);
  if (!o) return NULL;
  ir_value_copy_type(o, like);
  o->dtype = t;
  ir_node *n = ir_node_new(g, op, src, in, n_in, o, d);
  if (!n) return NULL;
  /* 1. move it from the end of the list to pos */
  TSL_ASSERT(pos >= 0 && pos < g->n_nodes);
  memmove(g->nodes + pos + 1, g->nodes + pos, sizeof(ir_node *) * (size_t)(g->n_nodes - 1 - pos));
  g->nodes[pos] = n;
  return n;
}

ir_node *quant_single_user(const ir_graph *g, const ir_value *v) { return ir_single_user(g, v); }

int quant_multiplier_max(double r, int max_shift, int32_t *mult, int *shift) {
  if (!isfinite(r) || r <= 0 || r >= 2147483648.0) return -1;
  if (r == 1.0) {
    *mult = 1, *shift = 0;
    return 0;
  }
  int e;
  (void)frexp(r, &e);      /* r = m * 2^e, 0.5 <= m < 1 */
  int s = 31 - e;          /* mult = m * 2^31 in [2^30, 2^31) */
  if (s > max_shift) s = max_shift;
  if (s < 0) return -1;
  double q = nearbyint(ldexp(r, s));
  if (q >= 2147483648.0) { /* m rounded up to 1.0: one bit less */
    s--;
    q = nearbyint(ldexp(r, s));
  }
  if (s < 0) return -1;
  *mult = (int32_t)q;
  *shift = s;
  return 0;
}

int quant_multiplier(double r, int32_t *mult, int *shift) {
  return quant_multiplier_max(r, 63, mult, shift);
}

int64_t quant_round_sat(double x, int64_t lo, int64_t hi) {
  if (isnan(x)) return 0;
  double r = nearbyint(x);
  return r < (double)lo ? lo : r > (double)hi ? hi : (int64_t)r;
}

/* QRequant with mult/shift for ratio 1: filled in now so the node runs even
 * before the requant pass (which computes the same). */
ir_node *quant_new_requant(ir_graph *g, int pos, ir_value *x, ir_dtype to, const char *src, diag *d) {
  char base[512];
  snprintf(base, sizeof base, "%.480s.%s", x->name, ir_dtype_name(to));
  ir_node *n = quant_new_node(g, pos, IR_OP_QREQUANT, src, &x, 1, base, to, x, d);
  int64_t one = 1, zero = 0;
  if (!n || ir_attr_set_string(g, n, "to", ir_dtype_name(to), d) ||
      ir_attr_set_ints(g, n, "mult", &one, 1, d) || ir_attr_set_ints(g, n, "shift", &zero, 1, d))
    return NULL;
  return n;
}

int quant_input_i8(ir_graph *g, ir_value *v, float scale, int32_t zp, ir_value **out, diag *d) {
  int32_t shift = v->dtype == IR_U8 ? 128 : 0;
  ir_quant want = {IR_QUANT_TENSOR, 0, 1, &scale, &zp};
  if (v->dtype != IR_U8 && v->dtype != IR_I8) return 1;
  if (v->quant.kind != IR_QUANT_NONE && !quant_same_tensor(&v->quant, &want)) return 1;
  if (v->kind != IR_VALUE_CONST && v->quant.kind == IR_QUANT_NONE &&
      quant_set(g, v, 1, 0, 0, &scale, &zp, d))
    return -1;
  if (!shift) {
    if (v->kind == IR_VALUE_CONST && v->quant.kind == IR_QUANT_NONE) {
      ir_value *c = quant_new_const(g, v->name, IR_I8, v->rank, v->dims, d);
      if (!c) return -1;
      memcpy(c->data, v->data, (size_t)ir_value_numel(v));
      if (quant_set(g, c, 1, 0, 0, &scale, &zp, d)) return -1;
      v = c;
    }
    *out = v;
    return 0;
  }
  int32_t zp8 = zp - 128;
  /* 1. undo an earlier exact int8 -> uint8 shift */
  ir_node *p = v->def;
  if (v->kind == IR_VALUE_NODE && p->op == IR_OP_QREQUANT && p->in[0]->dtype == IR_I8 &&
      p->in[0]->quant.kind == IR_QUANT_TENSOR && p->in[0]->quant.scale[0] == scale &&
      p->in[0]->quant.zero_point[0] == zp8) {
    *out = p->in[0];
    return 0;
  }
  /* 2. a QuantizeLinear to uint8 gets a twin quantising to int8 with zp - 128
   *    (saturating to [0,255] then subtracting 128 is saturating to [-128,127]) */
  if (v->kind == IR_VALUE_NODE && p->op == IR_OP_QUANTIZE && p->n_in > 2 &&
      p->in[2]->kind == IR_VALUE_CONST && ir_value_numel(p->in[2]) == 1) {
    char base[512];
    snprintf(base, sizeof base, "%.480s.i8", p->in[2]->name);
    ir_value *z = quant_new_const(g, base, IR_I8, p->in[2]->rank, p->in[2]->dims, d);
    if (!z) return -1;
    *(int8_t *)z->data = (int8_t)(*(uint8_t *)p->in[2]->data - 128);
    snprintf(base, sizeof base, "%.480s.i8", v->name);
    ir_value *in[3] = {p->in[0], p->in[1], z};
    ir_node *q = quant_new_node(g, quant_node_pos(g, p) + 1, IR_OP_QUANTIZE, p->src, in, 3, base, IR_I8, v, d);
    if (!q || ir_attr_set_int(g, q, "axis", ir_attr_int(p, "axis", 1), d) ||
        quant_set(g, q->out, 1, 0, 0, &scale, &zp8, d))
      return -1;
    *out = q->out;
    return 0;
  }
  /* 3. constants shift now */
  if (v->kind == IR_VALUE_CONST) {
    ir_value *c = quant_new_const(g, v->name, IR_I8, v->rank, v->dims, d);
    if (!c) return -1;
    int64_t e = ir_value_numel(v);
    for (int64_t i = 0; i < e; i++) ((int8_t *)c->data)[i] = (int8_t)(((uint8_t *)v->data)[i] - 128);
    if (quant_set(g, c, 1, 0, 0, &scale, &zp8, d)) return -1;
    *out = c;
    return 0;
  }
  /* 4. a QRequant to i8 (reusing one already made for v) */
  for (int i = 0; i < g->n_nodes; i++)
    if (g->nodes[i]->op == IR_OP_QREQUANT && g->nodes[i]->in[0] == v && g->nodes[i]->out->dtype == IR_I8) {
      *out = g->nodes[i]->out;
      return 0;
    }
  int pos = v->kind == IR_VALUE_NODE ? quant_node_pos(g, v->def) + 1 : 0;
  ir_node *n = quant_new_requant(g, pos, v, IR_I8, v->kind == IR_VALUE_NODE ? v->def->src : v->name, d);
  if (!n || quant_set(g, n->out, 1, 0, 0, &scale, &zp8, d)) return -1;
  *out = n->out;
  return 0;
}

int quant_replace_output(ir_graph *g, ir_value *old, ir_value *res, diag *d) {
  ir_value *fin = res;
  if (old->dtype == IR_U8) { /* back to the uint8 the model's users expect */
    ir_node *n = quant_new_requant(g, quant_node_pos(g, res->def) + 1, res, IR_U8, res->def->src, d);
    int32_t zp = res->quant.zero_point[0] + 128;
    if (!n || quant_set(g, n->out, 1, 0, 0, res->quant.scale, &zp, d)) return -1;
    fin = n->out;
  }
  ir_replace_uses(g, old, fin);
  /* the result takes the old name, so dumps and outputs read as before */
  const char *name = old->name, *tmp = ir_unique_name(g, "dead");
  if (!tmp) return diag_oom(d);
  ir_value_rename(g, old, tmp);
  ir_value_rename(g, fin, name);
  return 0;
}

ir_value *quant_weights_i8(ir_graph *g, const ir_value *w, int n, int axis, int per_channel,
                           const float *s, const int32_t *zp, diag *d) {
  char base[512];
  snprintf(base, sizeof base, "%.480s.i8", w->name);
  ir_value *c = quant_new_const(g, base, IR_I8, w->rank, w->dims, d);
  int32_t *z = arena_alloc(g->arena, sizeof(int32_t) * (size_t)n);
  if (!c || !z) return c ? (diag_oom(d), NULL) : NULL;
  int64_t e = ir_value_numel(w), inner = 1;
  for (int i = axis + 1; i < w->rank; i++) inner *= w->dims[i];
  int shift = w->dtype == IR_U8 ? 128 : 0, fits = 1;
  /* element i belongs to channel (i / inner) % n: walked as runs of inner
   * elements with the channel counter beside them (no division per element) */
  for (int64_t i = 0, ch = 0; i < e; ch = n > 1 && ++ch < n ? ch : 0)
    for (int64_t j = 0; j < inner && i < e; j++, i++) {
      int64_t q = ir_elem_i64(w->dtype, w->data, i) - zp[ch];
      fits &= q >= -128 && q <= 127;
    }
  for (int i = 0; i < n; i++) z[i] = fits ? 0 : zp[i] - shift;
  for (int64_t i = 0, ch = 0; i < e; ch = n > 1 && ++ch < n ? ch : 0)
    for (int64_t j = 0; j < inner && i < e; j++, i++) {
      int64_t q = ir_elem_i64(w->dtype, w->data, i);
      ((int8_t *)c->data)[i] = (int8_t)(fits ? q - zp[ch] : q - shift);
    }
  return quant_set(g, c, n, axis, per_channel, s, z, d) ? NULL : c;
}
