/* tfw_ops_softmax: the control core's Softmax and LogSoftmax along any axis
 * (tfw_ops.h).
 *
 * Order of the arithmetic (every engine runs this file, so it is the
 * definition; tfw_ops.h's rules: f32 only, no reassociation): Softmax is
 * tfw_softmax_f32 (tfw_fallback.h) along the axis with the axis' stride;
 * LogSoftmax takes the same max and the compensated (Kahan) sum of
 * exp(x - m) and gives (x - m) - log(s). NaN results are the quiet NaN
 * 0x7fc00000. The operand checks are tfw_ops_check.h's. */
#include "tfw_ops.h"
#include "tfw_ops_check.h"
#include "tfw_math.h"

#define SM_NAN_BITS 0x7fc00000u

static float canon(float v) { return v != v ? tfw_bits_f32(SM_NAN_BITS) : v; }

/* ---- Softmax / LogSoftmax: axis log ----------------------------------------- */

static void log_softmax_row(const float *x, float *y, size_t len, size_t st) {
  float m = tfw_bits_f32(0xff800000u); /* -inf; NaN skipped as in tfw_softmax_f32 */
  for (size_t k = 0; k < len; k++)
    if (x[k * st] > m) m = x[k * st];
  tfw_ksum s = {0.0f, 0.0f};
  for (size_t k = 0; k < len; k++) tfw_ksum_add(&s, tfw_expf(x[k * st] - m));
  float ls = tfw_logf(s.sum);
  for (size_t k = 0; k < len; k++) y[k * st] = canon((x[k * st] - m) - ls);
}

int tfw_k_softmax(const tfw_call *c) {
  int e = tfw_op_operands(c, 1, 1);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (c->n_ints != 2 || !c->ints || c->n_floats || (c->ints[1] != 0 && c->ints[1] != 1)) return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_F32 || y->dtype != TPKG_DT_F32) return TFW_FB_E_DTYPE;
  uint32_t ax;
  if (!tfw_op_same_dims(x, y) || !tfw_op_axis(c->ints[0], x->rank, &ax)) return TFW_FB_E_SHAPE;
  size_t n = x->dims[ax], outer = 1, inner = 1;
  for (uint32_t d = 0; d < ax; d++) outer *= x->dims[d];
  for (uint32_t d = ax + 1; d < x->rank; d++) inner *= x->dims[d];
  const float *xp = (const float *)x->data;
  float *yp = (float *)y->data;
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < inner; i++) {
      size_t base = o * n * inner + i;
      if (c->ints[1]) log_softmax_row(xp + base, yp + base, n, inner);
      else tfw_softmax_f32(xp + base, yp + base, n, inner);
    }
  return TFW_FB_OK;
}
