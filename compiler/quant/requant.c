/* requant: the integer constants of every quantised op, computed once.
 *
 * Requires: quantised ops with quant fields on their operands (qdq-fold,
 *           quant-ops, ptq), shapes inferred.
 * Guarantees: every quantised op's scales and zero points are checked
 *           (positive finite scales, zero points inside the value's type,
 *           per-channel sizes matching the channel dimension: located errors
 *           otherwise), and it carries the constants of the NPU's rounding
 *           rule (docs/isa.md section 3, docs/quantisation.md):
 *             QConv, QMatMul  mult[c], shift[c]: rne_shift(acc * mult, shift)
 *                             ~ acc * s_x * s_w[c] / s_y, mult in [2^30, 2^31)
 *             QAdd            mult_a, mult_b, shift (one shift for both)
 *             QMul            mult, shift: rne_shift((a-za)*(b-zb) * mult, shift)
 *                             ~ (a-za)*(b-zb) * s_a * s_b / s_y
 *             QAveragePool    mult, shift <= 47: rne_div(sum * mult, cnt << shift)
 *             QRequant        mult, shift (ratio 1 gives 1, 0: exact)
 *           Reductions are short enough that int32 accumulators cannot
 *           overflow (K * 255 * 255 < 2^31), or it is an error.
 * Invalidates: nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "passes.h"
#include "quant.h"

#define ERR(...) ir_node_error(d, n, __VA_ARGS__)

static int check_operands(const ir_node *n, diag *d) {
  char who[600];
  snprintf(who, sizeof who, "node '%.256s' (%s)", n->src, ir_op_name(n->op));
  for (int k = 0; k < n->n_in; k++) {
    const ir_value *v = n->in[k];
    if (v->dtype == IR_I32 || v->dtype == IR_I64) continue; /* bias, shapes */
    if (n->op == IR_OP_QSOFTMAX && k == 1) continue;          /* the exp table */
    if (v->quant.kind == IR_QUANT_NONE) return ERR("input %d '%s' has no quantisation parameters", k, v->name);
    if (quant_check_value(v, who, d)) return -1;
  }
  if (n->out->dtype == IR_I32 || n->out->dtype == IR_F32) return 0; /* raw sums, QSoftmax to f32 */
  if (n->out->quant.kind != IR_QUANT_TENSOR) return ERR("output '%s' needs per-tensor quantisation", n->out->name);
  return quant_check_value(n->out, who, d);
}

static double sc(const ir_value *v, int c) { return v->quant.scale[v->quant.n > 1 ? c : 0]; }

/* QConv / QMatMul: one multiplier per weight scale. */
static int conv_like(ir_graph *g, ir_node *n, diag *d) {
  const ir_value *x = n->in[0], *w = n->in[1];
  int conv = n->op == IR_OP_QCONV;
  int64_t k = conv ? ir_value_numel(w) / w->dims[0] : w->dims[w->rank - 2];
  if (k * 65025 >= ((int64_t)1 << 31))
    return ERR("reduction of %lld products could overflow the int32 accumulator", (long long)k);
  int axis = conv ? 0 : w->rank - 1;
  if (w->quant.kind == IR_QUANT_CHANNEL && w->quant.axis != axis)
    return ERR("weights '%s' are quantised per channel on axis %d, expected %d", w->name, w->quant.axis, axis);
  if (x->quant.kind != IR_QUANT_TENSOR) return ERR("input '%s' needs per-tensor quantisation", x->name);
  /* the NPU folds -zp_x * sum(w[c]) into the int32 bias (docs/quantisation.md):
   * that sum must fit as well */
  if (w->kind == IR_VALUE_CONST && (n->n_in < 3 || n->in[2]->kind == IR_VALUE_CONST)) {
    int64_t m = conv ? w->dims[0] : w->dims[w->rank - 1], e = ir_value_numel(w);
    int64_t *sum = calloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
    if (!sum) return diag_oom(d);
    for (int64_t i = 0; i < e; i++) sum[conv ? i / (e / m) : i % m] += ir_elem_i64(w->dtype, w->data, i);
    for (int64_t c = 0; c < m; c++) {
      int64_t b = n->n_in > 2 ? ((const int32_t *)n->in[2]->data)[c] : 0;
      int64_t eff = b - (int64_t)x->quant.zero_point[0] * sum[c];
      if (eff < INT32_MIN || eff > INT32_MAX) {
        free(sum);
        return ERR("channel %lld: bias %lld minus the zero-point correction does not fit int32", (long long)c,
                   (long long)b);
      }
    }
    free(sum);
  }
  if (ir_attr_int(n, "raw", 0)) return 0;
  int nc = w->quant.n;
  int64_t mult[4096], shift[4096];
  if (nc > 4096) return ERR("more than 4096 channels");
  for (int c = 0; c < nc; c++) {
    int32_t m;
    int s;
    double r = sc(x, 0) * sc(w, c) / sc(n->out, 0);
    if (quant_multiplier(r, &m, &s))
      return ERR("requantisation ratio %g (channel %d) cannot be represented", r, c);
    mult[c] = m, shift[c] = s;
  }
  if (ir_attr_int(n, "lo", -128) > ir_attr_int(n, "hi", 127)) return ERR("clamp lo > hi");
  return ir_attr_set_ints(g, n, "mult", mult, nc, d) || ir_attr_set_ints(g, n, "shift", shift, nc, d) ? -1 : 0;
}

/* QAdd: both ratios over one shift chosen for the larger. */
static int add(ir_graph *g, ir_node *n, diag *d) {
  double ra = sc(n->in[0], 0) / sc(n->out, 0), rb = sc(n->in[1], 0) / sc(n->out, 0);
  double big = ra > rb ? ra : rb;
  int e;
  (void)frexp(big, &e);
  int s = 31 - e;
  if (s > 63) s = 63;
  if (s < 0 || !isfinite(big)) return ERR("input/output scale ratio %g cannot be represented", big);
  double ma = nearbyint(ldexp(ra, s)), mb = nearbyint(ldexp(rb, s));
  if (ma >= 2147483648.0 || mb >= 2147483648.0) s--, ma = nearbyint(ldexp(ra, s)), mb = nearbyint(ldexp(rb, s));
  return ir_attr_set_int(g, n, "mult_a", (int64_t)ma, d) || ir_attr_set_int(g, n, "mult_b", (int64_t)mb, d) ||
                 ir_attr_set_int(g, n, "shift", s, d)
             ? -1
             : 0;
}

/* QMul: the product's ratio s_a * s_b / s_y, as the conv epilogue's. */
static int mul(ir_graph *g, ir_node *n, diag *d) {
  for (int k = 0; k < 2; k++)
    if (n->in[k]->quant.kind != IR_QUANT_TENSOR) return ERR("input '%s' needs per-tensor quantisation", n->in[k]->name);
  double r = sc(n->in[0], 0) * sc(n->in[1], 0) / sc(n->out, 0);
  int32_t m;
  int s;
  if (quant_multiplier(r, &m, &s)) return ERR("requantisation ratio %g cannot be represented", r);
  if (ir_attr_int(n, "lo", -128) > ir_attr_int(n, "hi", 127)) return ERR("clamp lo > hi");
  return ir_attr_set_int(g, n, "mult", m, d) || ir_attr_set_int(g, n, "shift", s, d) ? -1 : 0;
}

static int single(ir_graph *g, ir_node *n, int max_shift, diag *d) {
  double r = sc(n->in[0], 0) / sc(n->out, 0);
  int32_t m;
  int s;
  if (quant_multiplier_max(r, max_shift, &m, &s)) return ERR("scale ratio %g cannot be represented", r);
  int64_t mm = m, ss = s;
  return ir_attr_set_ints(g, n, "mult", &mm, 1, d) || ir_attr_set_ints(g, n, "shift", &ss, 1, d) ? -1 : 0;
}

int requant(ir_graph *g, diag *d) {
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    if (!quant_is_qop(n->op)) continue;
    if (check_operands(n, d)) return -1;
    int rc = 0;
    switch (n->op) {
    case IR_OP_QCONV: case IR_OP_QMATMUL: rc = conv_like(g, n, d); break;
    case IR_OP_QADD: rc = add(g, n, d); break;
    case IR_OP_QMUL: rc = mul(g, n, d); break;
    case IR_OP_QAVGPOOL: {
      int cnt;
      const int64_t *k = ir_attr_ints(n, "kernel_shape", &cnt);
      int64_t win = 1;
      for (int j = 0; k && j < cnt; j++) win *= k[j];
      if (win >= 65536) return ERR("pooling window of %lld taps is too large", (long long)win);
      rc = single(g, n, 47, d);
      break;
    }
    case IR_OP_QREQUANT: rc = single(g, n, 63, d); break;
    default: break;
    }
    if (rc) return -1;
  }
  return 0;
}
