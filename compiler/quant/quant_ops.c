/* quant_ops: ONNX's integer operators become the quantised IR operators.
 *
 * Requires: shapes inferred.
 * Guarantees: QLinearConv and ConvInteger become QConv, QLinearMatMul and
 *           MatMulInteger become QMatMul, when their scales and zero points
 *           are constants and the weights of the conv forms are constants
 *           (others stay: the float reference still runs them).  Activations
 *           become int8 (uint8 shifted by -128 exactly, through QRequant
 *           nodes that qdq-fold and later folds cancel); weights become
 *           int8 constants (zero points folded into the data when every
 *           w - zp fits int8, else kept on the value: the reference is exact
 *           either way).  QLinear* outputs are int8 with quant(scale, zp);
 *           the *Integer forms keep int32 outputs (attribute raw=1).  Bad
 *           parameters (zero scale, zero point outside its type, per-channel
 *           sizes that do not match) are located errors.
 * Invalidates: nothing; the old nodes are left for dce. */
#include <math.h>
#include <string.h>

#include "passes.h"
#include "quant.h"

/* Params of an (x, scale, zp) triple given as separate inputs, or of a zero
 * point alone (scale 1, ConvInteger).  k_s < 0: no scale input. */
static int params_at(ir_graph *g, const ir_node *n, int k_s, int k_z, int ch_axis, quant_params *p,
                     diag *d) {
  const ir_value *s = k_s >= 0 ? n->in[k_s] : NULL, *z = k_z >= 0 && k_z < n->n_in ? n->in[k_z] : NULL;
  if ((s && s->kind != IR_VALUE_CONST) || (z && z->kind != IR_VALUE_CONST)) return 1;
  int64_t cnt = s ? ir_value_numel(s) : z ? ir_value_numel(z) : 1;
  if (z && ir_value_numel(z) != cnt)
    return ir_node_error(d, n, "zero point '%s' has %lld values, the scale has %lld", z->name,
                         (long long)ir_value_numel(z), (long long)cnt);
  float *sc = arena_alloc(g->arena, sizeof(float) * (size_t)cnt);
  int32_t *zp = arena_alloc(g->arena, sizeof(int32_t) * (size_t)cnt);
  if (!sc || !zp) return diag_oom(d);
  memset(p, 0, sizeof *p);
  p->n = (int)cnt, p->axis = ch_axis, p->per_channel = cnt > 1, p->scale = sc, p->zp = zp;
  ir_dtype zt = z ? z->dtype : IR_I8;
  int64_t lo = zt == IR_U8 ? 0 : -128, hi = zt == IR_U8 ? 255 : 127;
  for (int64_t i = 0; i < cnt; i++) {
    sc[i] = s ? ((const float *)s->data)[i] : 1.0f;
    if (!(sc[i] > 0) || !isfinite(sc[i]))
      return ir_node_error(d, n, "scale '%s'[%lld] = %g: scales must be positive and finite", s->name,
                           (long long)i, (double)sc[i]);
    int64_t v = z ? ir_elem_i64(z->dtype, z->data, i) : 0;
    if (z && (z->dtype == IR_U8 || z->dtype == IR_I8) && (v < lo || v > hi))
      return ir_node_error(d, n, "zero point '%s'[%lld] = %lld is outside %s", z->name, (long long)i,
                           (long long)v, ir_dtype_name(zt));
    zp[i] = (int32_t)v;
  }
  return 0;
}

/* One integer op to QConv/QMatMul. */
static int map_one(ir_graph *g, ir_node *n, diag *d) {
  int conv = n->op == IR_OP_QLINEAR_CONV || n->op == IR_OP_CONV_INTEGER;
  int qlin = n->op == IR_OP_QLINEAR_CONV || n->op == IR_OP_QLINEAR_MATMUL;
  int kw = qlin ? 3 : 1;
  ir_value *x = n->in[0], *w = n->in[kw];
  int wrank = w->rank, waxis = conv ? 0 : wrank - 1;
  quant_params px, pw, py = {0};
  int rc;
  if ((rc = params_at(g, n, qlin ? 1 : -1, 2, 0, &px, d))) return rc;
  if ((rc = params_at(g, n, qlin ? 4 : -1, qlin ? 5 : 3, waxis, &pw, d))) return rc;
  if (qlin && (rc = params_at(g, n, 6, 7, 0, &py, d))) return rc;
  if (px.n != 1) return 1; /* per-row activation zero points: not supported, stays */
  if (pw.n > 1 && (wrank < 1 || pw.n != w->dims[waxis]))
    return ir_node_error(d, n, "weights '%s': %d per-channel parameters for %lld channels", w->name, pw.n,
                         (long long)(wrank >= 1 ? w->dims[waxis] : 0));
  if (!conv && (x->rank < 2 || w->rank < 2)) return 1;
  if (conv && w->kind != IR_VALUE_CONST) return 1;
  /* 1. operands as int8; the *Integer forms have no scales (1.0 here), so
   *    an operand another op already quantised keeps its scale */
  ir_value *xi, *wi, *in[3];
  if (!qlin && x->quant.kind == IR_QUANT_TENSOR && x->quant.zero_point[0] == px.zp[0])
    ((float *)px.scale)[0] = x->quant.scale[0];
  if (!qlin && w->kind != IR_VALUE_CONST && w->quant.kind == IR_QUANT_TENSOR && pw.n == 1 &&
      w->quant.zero_point[0] == pw.zp[0])
    ((float *)pw.scale)[0] = w->quant.scale[0];
  if ((rc = quant_input_i8(g, x, px.scale[0], px.zp[0], &xi, d))) return rc;
  if (w->kind == IR_VALUE_CONST) {
    if (!(wi = quant_weights_i8(g, w, pw.n, waxis, pw.per_channel, pw.scale, pw.zp, d))) return -1;
  } else {
    if (pw.n != 1) return 1;
    if ((rc = quant_input_i8(g, w, pw.scale[0], pw.zp[0], &wi, d))) return rc;
  }
  int n_in = 2;
  in[0] = xi, in[1] = wi;
  if (qlin && n->n_in > 8) in[n_in++] = n->in[8]; /* int32 bias, scale sx*sw, zp 0 */
  /* 2. the new node, where n was */
  int raw = !qlin;
  ir_dtype ot = raw ? IR_I32 : IR_I8;
  ir_node *q = quant_new_node(g, quant_node_pos(g, n), conv ? IR_OP_QCONV : IR_OP_QMATMUL, n->src, in, n_in,
                              n->out->name, ot, n->out, d);
  if (!q || ir_attrs_copy(g, q, n, d)) return -1;
  if (raw && ir_attr_set_int(g, q, "raw", 1, d)) return -1;
  if (!raw) {
    int32_t zp8 = py.zp[0] - (n->out->dtype == IR_U8 ? 128 : 0);
    if (py.n != 1) return ir_node_error(d, n, "the output scale must be a scalar");
    if (quant_set(g, q->out, 1, 0, 0, py.scale, &zp8, d)) return -1;
  }
  if (shape_infer_node(g, q, d)) return -1;
  if (raw) {
    ir_replace_uses(g, n->out, q->out);
    const char *name = n->out->name, *tmp = ir_unique_name(g, "dead");
    if (!tmp) return diag_oom(d);
    ir_value_rename(g, n->out, tmp);
    ir_value_rename(g, q->out, name);
  } else if (quant_replace_output(g, n->out, q->out, d)) {
    return -1;
  }
  ir_node_remove(g, n);
  return 0;
}

int quant_ops(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (n->op != IR_OP_QLINEAR_CONV && n->op != IR_OP_QLINEAR_MATMUL && n->op != IR_OP_CONV_INTEGER &&
        n->op != IR_OP_MATMUL_INTEGER)
      continue;
    int rc = map_one(g, n, d);
    if (rc < 0) return -1;
    if (rc == 0) i = -1; /* the list changed: rescan (cheap: few integer ops) */
  }
  return dce(g, d);
}
