/* core_forms: quantised nodes neither the NPU nor a single core op runs,
 * rewritten into core ops that compute the same numbers exactly
 * (docs/quantisation.md, "On the control core").
 *
 * Requires: the quantised IR (requant done).  Guarantees:
 *  1. a QConv or QMatMul with raw int32 output (ConvInteger, MatMulInteger:
 * the NPU stores no raw accumulators yet) becomes Cast(x -> i32) - zp_x -> Cast(f32) -> Conv/MatMul with the
 * constant weights (w - zp_w) in f32 -> Cast(i32), which is exactly the
 * int8 reference's sum of (x - zp_x) * (w - zp_w) as long as no partial sum
 * can reach 2^24 (f32 holds every integer below it): K * 255 * max|w - zp_w|
 * < 2^24 for a reduction of K products, checked on the weights; a node
 * outside that bound is left as it is (the lowering names it).  The int32
 * wrap of ONNX cannot happen within the bound.  A requantised QConv or
 * QMatMul the NPU cannot take (a weight zero point kept, an activation
 * outside the blocked layout) becomes the same float op followed by
 * QLinearConv's formula in f32: (acc + bias) * s_x * s_w[c], the fused
 * clamp, QuantizeLinear at the output's parameters (sums above 2^24 round).
 *  2. a per-axis DequantizeLinear becomes Cast(x -> i32) - zp -> Cast(f32) *
 * scale, and a per-axis QuantizeLinear x / scale -> Round (half to even) +
 * zp -> Clip to the type -> Cast: the per-tensor ops' arithmetic step for
 * step (tfw_quantize, tfw_dequantize), with scale and zero point as
 * constants broadcast along the axis (a NaN input gives 0, not the zero
 * point); one whose scalar scale or zero point is computed at run time,
 * the same steps with those values as operands. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"
#include "quant.h"

static ir_node *add(ir_graph *g, int pos, ir_op op, const ir_node *at, ir_value **in, int n_in, ir_dtype t,
                    const ir_value *like, diag *d) {
  char base[300];
  snprintf(base, sizeof base, "%.250s.core", at->out->name);
  return quant_new_node(g, pos, op, at->src, in, n_in, base, t, like, d);
}

static ir_node *cast(ir_graph *g, int pos, const ir_node *at, ir_value *x, ir_dtype t, const ir_value *like, diag *d) {
  ir_node *c = add(g, pos, IR_OP_CAST, at, &x, 1, t, like, d);
  return c && !ir_attr_set_string(g, c, "to", ir_dtype_name(t), d) ? c : NULL;
}

/* The last of the new nodes takes over n's output (and its name); n goes. */
static int take_over(ir_graph *g, ir_node *n, ir_node *const *steps, int k, diag *d) {
  for (int i = 0; i < k; i++)
    if (shape_infer_node(g, steps[i], d)) return -1;
  ir_value *y = steps[k - 1]->out;
  const char *name = n->out->name, *tmp = ir_unique_name(g, "dead");
  if (!tmp) return diag_oom(d);
  ir_replace_uses(g, n->out, y);
  ir_value_rename(g, n->out, tmp);
  ir_value_rename(g, y, name);
  ir_node_remove(g, n);
  return 1;
}

/* Weight i of QConv (axis 0) or QMatMul [K, N] (axis 1) less its zero point. */
static int64_t weight(const ir_value *w, int conv, int64_t m, int64_t k, int64_t i) {
  int64_t c = conv ? i / k : i % m;
  return ((int8_t *)w->data)[i] - (w->quant.n > 1 ? w->quant.zero_point[c] : w->quant.zero_point[0]);
}

/* A constant of the per-axis parameters along `axis` of a rank-r value:
 * dims 1 but the axis. */
static ir_value *along(ir_graph *g, const char *base, ir_dtype t, int r, int axis, int n, const float *f,
                       const int32_t *z, diag *d) {
  int64_t dims[IR_MAX_RANK];
  for (int i = 0; i < r; i++) dims[i] = i == axis ? n : 1;
  ir_value *c = quant_new_const(g, base, t, r, dims, d);
  for (int i = 0; c && i < n; i++) {
    if (t == IR_F32) ((float *)c->data)[i] = f ? f[i] : (float)z[i];
    else ((int32_t *)c->data)[i] = z[i];
  }
  return c;
}

/* The requantisation of the float sums acc (an op of n's output shape, its
 * channels on `axis`) as steps from pos on: (acc + bias) * s_x * s_w[c],
 * the fused clamp, then a QuantizeLinear at n's output parameters (ONNX's
 * QLinearConv formula, in f32).  The number of steps, or -1. */
static int requant_steps(ir_graph *g, ir_node *n, ir_value *acc, int axis, int pos, ir_node **steps, diag *d) {
  const ir_value *x = n->in[0], *w = n->in[1], *y = n->out;
  int r = y->rank, m = (int)y->dims[axis], k = 0;
  float *sc = arena_alloc(g->arena, sizeof(float) * (size_t)m), sy = y->quant.scale[0];
  if (!sc) return diag_oom(d);
  for (int c = 0; c < m; c++) sc[c] = x->quant.scale[0] * w->quant.scale[w->quant.n > 1 ? c : 0];
  int32_t zy = y->quant.zero_point[0];
  int64_t lo = ir_attr_int(n, "lo", -128), hi = ir_attr_int(n, "hi", 127);
  ir_value *sb = along(g, "scale", IR_F32, r, axis, m, sc, NULL, d);
  ir_value *b = n->n_in > 2 ? along(g, "bias", IR_F32, r, axis, m, NULL, n->in[2]->data, d) : NULL;
  ir_value *qs = quant_new_const(g, "scale_y", IR_F32, 0, NULL, d), *qz = quant_new_const(g, "zp_y", IR_I8, 0, NULL, d);
  if (!sb || (n->n_in > 2 && !b) || !qs || !qz) return -1;
  *(float *)qs->data = sy, *(int8_t *)qz->data = (int8_t)zy;
  ir_node *s;
  if (b) { /* the int32 bias in f32 (exact below 2^24) */
    ir_value *b_in[2] = {acc, b};
    if (!(s = steps[k++] = add(g, pos++, IR_OP_ADD, n, b_in, 2, IR_F32, y, d))) return -1;
    acc = s->out;
  }
  ir_value *m_in[2] = {acc, sb};
  if (!(s = steps[k++] = add(g, pos++, IR_OP_MUL, n, m_in, 2, IR_F32, y, d))) return -1;
  if (lo > -128 || hi < 127) { /* a fused Relu/Clip: the clamp's codes in float */
    if (!(s = steps[k++] = add(g, pos++, IR_OP_CLIP, n, &s->out, 1, IR_F32, y, d)) ||
        ir_attr_set_float(g, s, "min", (float)(lo - zy) * sy, d) || ir_attr_set_float(g, s, "max", (float)(hi - zy) * sy, d))
      return -1;
  }
  ir_value *q_in[3] = {s->out, qs, qz};
  if (!(steps[k++] = add(g, pos, IR_OP_QUANTIZE, n, q_in, 3, IR_I8, y, d))) return -1;
  return k;
}

/* Whether the lowering takes n's activation: the blocked layout (rank 2, or
 * rank 3 or 4 with batch 1), and int8 weights without zero points. */
static int npu_lowers(const ir_node *n) {
  const ir_value *x = n->in[0], *w = n->in[1];
  for (int i = 0; i < w->quant.n; i++)
    if (w->quant.zero_point[i]) return 0;
  return x->rank == 2 || ((x->rank == 3 || x->rank == 4) && x->dims[0] == 1);
}

/* QConv/QMatMul on the core: x - zp_x and w - zp_w in f32, the float op;
 * then the int32 result (raw) or the requantisation in f32. */
static int to_core(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0], *w = n->in[1];
  const int conv = n->op == IR_OP_QCONV, raw = (int)ir_attr_int(n, "raw", 0);
  if (w->kind != IR_VALUE_CONST || w->dtype != IR_I8 || x->quant.kind != IR_QUANT_TENSOR) return 0;
  if (!raw && (n->out->quant.kind != IR_QUANT_TENSOR || (n->n_in > 2 && n->in[2]->kind != IR_VALUE_CONST)))
    return 0;
  /* 1. the bound (raw: the int32 sum must be exact; requantised, f32 sums
   * are rounded once they pass 2^24), then the weights without their zero
   * points */
  int64_t m = conv ? w->dims[0] : w->dims[1], e = ir_value_numel(w), k = e / (m ? m : 1), wmax = 0;
  for (int64_t i = 0; i < e; i++)
    if (llabs(weight(w, conv, m, k, i)) > wmax) wmax = llabs(weight(w, conv, m, k, i));
  if (raw && k * 255 * wmax >= (1 << 24)) return 0; /* f32 sums would round: leave it */
  ir_value *wf = quant_new_const(g, w->name, IR_F32, w->rank, w->dims, d);
  if (!wf) return -1;
  for (int64_t i = 0; i < e; i++) ((float *)wf->data)[i] = (float)weight(w, conv, m, k, i);
  /* 2. x - zp_x in f32 */
  int pos = quant_node_pos(g, n);
  ir_node *steps[16];
  int ns = 0;
  ir_node *xi = cast(g, pos++, n, x, IR_I32, x, d);
  ir_value *zx = xi ? quant_new_const(g, "zp_x", IR_I32, 0, NULL, d) : NULL;
  if (!zx) return -1;
  *(int32_t *)zx->data = x->quant.zero_point[0];
  ir_value *sub_in[2] = {xi->out, zx};
  ir_node *xs = add(g, pos++, IR_OP_SUB, n, sub_in, 2, IR_I32, x, d);
  ir_node *xf = xs ? cast(g, pos++, n, xs->out, IR_F32, x, d) : NULL;
  if (!xf) return -1;
  steps[ns++] = xi, steps[ns++] = xs, steps[ns++] = xf;
  /* 3. the float op, then the int32 result or the requantisation, in the node's place */
  ir_value *op_in[2] = {xf->out, wf};
  ir_node *f = add(g, pos++, conv ? IR_OP_CONV : IR_OP_MATMUL, n, op_in, 2, IR_F32, n->out, d);
  if (!f || (conv && ir_attrs_copy(g, f, n, d))) return -1;
  if (conv) { /* the conv attributes only */
    static const char *const drop[] = {"raw", "lo", "hi", "mult", "shift"};
    for (int i = 0; i < 5; i++) ir_attr_remove(f, drop[i]);
  }
  steps[ns++] = f;
  if (raw) {
    if (!(steps[ns++] = cast(g, pos, n, f->out, IR_I32, n->out, d))) return -1;
  } else {
    if (shape_infer_node(g, f, d)) return -1; /* the requantisation's constants need its shape */
    int k2 = requant_steps(g, n, f->out, conv ? 1 : n->out->rank - 1, pos, steps + ns, d);
    if (k2 < 0) return -1;
    ns += k2;
  }
  ir_value *y = steps[ns - 1]->out;
  float sy = raw ? 0.0f : n->out->quant.scale[0];
  int32_t zy = raw ? 0 : n->out->quant.zero_point[0];
  int rc = take_over(g, n, steps, ns, d);
  if (rc > 0 && !raw && quant_set(g, y, 1, 0, 0, &sy, &zy, d)) return -1; /* the int8 result keeps n's parameters */
  return rc;
}

/* QuantizeLinear/DequantizeLinear whose scalar scale or zero point is
 * computed at run time (DynamicQuantizeLinear as ONNX expands it): the
 * per-tensor ops' steps with the runtime values as operands. */
static int runtime_to_core(ir_graph *g, ir_node *n, diag *d) {
  ir_value *x = n->in[0], *s = n->in[1], *z = n->n_in > 2 ? n->in[2] : NULL;
  if (s->dtype != IR_F32 || ir_value_numel(s) != 1 || (z && ir_value_numel(z) != 1)) return 0;
  int pos = quant_node_pos(g, n), k = 0;
  ir_node *steps[6];
  if (n->op == IR_OP_DEQUANTIZE) {
    if (!(steps[k++] = cast(g, pos++, n, x, IR_I32, x, d))) return -1;
    if (z) {
      if (!(steps[k++] = cast(g, pos++, n, z, IR_I32, z, d))) return -1;
      ir_value *s_in[2] = {steps[0]->out, steps[1]->out};
      if (!(steps[k++] = add(g, pos++, IR_OP_SUB, n, s_in, 2, IR_I32, x, d))) return -1;
    }
    if (!(steps[k] = cast(g, pos++, n, steps[k - 1]->out, IR_F32, x, d))) return -1;
    ir_value *m_in[2] = {steps[k++]->out, s};
    if (!(steps[k++] = add(g, pos, IR_OP_MUL, n, m_in, 2, IR_F32, n->out, d))) return -1;
    return take_over(g, n, steps, k, d);
  }
  const int u8 = n->out->dtype == IR_U8;
  ir_value *d_in[2] = {x, s};
  if (!(steps[k++] = add(g, pos++, IR_OP_DIV, n, d_in, 2, IR_F32, x, d))) return -1;
  if (!(steps[k] = add(g, pos++, IR_OP_ROUND, n, &steps[k - 1]->out, 1, IR_F32, x, d))) return -1;
  k++;
  if (z) {
    if (!(steps[k++] = cast(g, pos++, n, z, IR_F32, z, d))) return -1;
    ir_value *a_in[2] = {steps[k - 2]->out, steps[k - 1]->out};
    if (!(steps[k++] = add(g, pos++, IR_OP_ADD, n, a_in, 2, IR_F32, x, d))) return -1;
  }
  if (!(steps[k] = add(g, pos++, IR_OP_CLIP, n, &steps[k - 1]->out, 1, IR_F32, x, d)) ||
      ir_attr_set_float(g, steps[k], "min", u8 ? 0.0f : -128.0f, d) ||
      ir_attr_set_float(g, steps[k], "max", u8 ? 255.0f : 127.0f, d))
    return -1;
  k++;
  if (!(steps[k] = cast(g, pos, n, steps[k - 1]->out, n->out->dtype, n->out, d))) return -1;
  return take_over(g, n, steps, k + 1, d);
}

static int per_axis_to_core(ir_graph *g, ir_node *n, diag *d) {
  quant_params p;
  ir_value *x = n->in[0];
  int rc = quant_params_of_node(g, n, x->rank, &p, d);
  if (rc) return rc < 0 ? -1 : runtime_to_core(g, n, d);
  if (p.n == 1) return 0;
  int pos = quant_node_pos(g, n), r = x->rank;
  ir_node *steps[5];
  int k = 0;
  if (n->op == IR_OP_DEQUANTIZE) {
    ir_value *zb = along(g, "zp", IR_I32, r, p.axis, p.n, NULL, p.zp, d);
    ir_value *sb = along(g, "scale", IR_F32, r, p.axis, p.n, p.scale, NULL, d);
    if (!zb || !sb || !(steps[k++] = cast(g, pos++, n, x, IR_I32, x, d))) return -1;
    ir_value *s_in[2] = {steps[0]->out, zb};
    if (!(steps[k++] = add(g, pos++, IR_OP_SUB, n, s_in, 2, IR_I32, x, d))) return -1;
    if (!(steps[k++] = cast(g, pos++, n, steps[1]->out, IR_F32, x, d))) return -1;
    ir_value *m_in[2] = {steps[2]->out, sb};
    if (!(steps[k++] = add(g, pos, IR_OP_MUL, n, m_in, 2, IR_F32, n->out, d))) return -1;
  } else {
    const int u8 = n->out->dtype == IR_U8;
    ir_value *sb = along(g, "scale", IR_F32, r, p.axis, p.n, p.scale, NULL, d);
    ir_value *zb = along(g, "zp", IR_F32, r, p.axis, p.n, NULL, p.zp, d);
    if (!zb || !sb) return -1;
    ir_value *d_in[2] = {x, sb};
    if (!(steps[k++] = add(g, pos++, IR_OP_DIV, n, d_in, 2, IR_F32, x, d))) return -1;
    if (!(steps[k++] = add(g, pos++, IR_OP_ROUND, n, &steps[0]->out, 1, IR_F32, x, d))) return -1;
    ir_value *a_in[2] = {steps[1]->out, zb};
    if (!(steps[k++] = add(g, pos++, IR_OP_ADD, n, a_in, 2, IR_F32, x, d))) return -1;
    if (!(steps[k++] = add(g, pos++, IR_OP_CLIP, n, &steps[2]->out, 1, IR_F32, x, d)) ||
        ir_attr_set_float(g, steps[3], "min", u8 ? 0.0f : -128.0f, d) ||
        ir_attr_set_float(g, steps[3], "max", u8 ? 255.0f : 127.0f, d))
      return -1;
    if (!(steps[k++] = cast(g, pos, n, steps[3]->out, n->out->dtype, n->out, d))) return -1;
  }
  return take_over(g, n, steps, k, d);
}

int quant_core_forms(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    int raw = (n->op == IR_OP_QCONV || n->op == IR_OP_QMATMUL) && (ir_attr_int(n, "raw", 0) || !npu_lowers(n));
    int qdq = n->op == IR_OP_QUANTIZE || n->op == IR_OP_DEQUANTIZE;
    if (!raw && !qdq) continue;
    int rc = raw ? to_core(g, n, d) : per_axis_to_core(g, n, d);
    if (rc < 0) return -1;
    if (rc) i = -1; /* nodes went in before it: rescan */
  }
  return 0;
}
