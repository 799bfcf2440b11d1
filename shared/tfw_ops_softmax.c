/* tfw_ops_softmax: the control core's Softmax and LogSoftmax along any axis
 * (tfw_ops.h), on their own so that a firmware linking only the kernels its
 * package uses (`tessel emit-c --kernels-only`) takes no other kernel with
 * them: the runtime's references to kernels are weak, but one kernel's
 * object brings every kernel in it (docs/npu-seq.md, the board firmware).
 *
 * Order of the arithmetic (every engine runs this file, so it is the
 * definition; tfw_ops.h's rules: f32 only, no reassociation): Softmax is
 * tfw_softmax_f32 (tfw_fallback.h) along the axis with the axis' stride;
 * LogSoftmax takes the same max and the compensated (Kahan) sum of
 * exp(x - m) and gives (x - m) - log(s). NaN results are the quiet NaN
 * 0x7fc00000. The operand checks are tfw_ops_reduce.c's, repeated here. */
#include "tfw_ops.h"
#include "tfw_math.h"

#define SM_NAN_BITS 0x7fc00000u

/* ---- operand checks (as in tfw_ops_reduce.c) -------------------------------- */

static float canon(float v) { return v != v ? tfw_bits_f32(SM_NAN_BITS) : v; }

/* Elements of t; 0 with *ok cleared when its bytes would not fit a size_t. */
static size_t elems(const tfw_tensor *t, int *ok) {
  uint64_t n = 1;
  if (t->rank > TFW_MAX_RANK || !tpkg_dtype_bytes(t->dtype)) return *ok = 0, 0;
  for (uint32_t i = 0; i < t->rank; i++) {
    n *= t->dims[i];
    if (n > (uint64_t)SIZE_MAX / 8u) return *ok = 0, 0;
  }
  return (size_t)n;
}

/* 0 when the operands are usable (present, typed, sized), else the error. */
static int check_operands(const tfw_call *c, uint32_t min_in, uint32_t max_in) {
  if (!c || !c->in || !c->out || c->n_out != 1) return TFW_FB_E_ARG;
  if (c->n_in < min_in || c->n_in > max_in) return TFW_FB_E_SHAPE;
  for (uint32_t i = 0; i <= c->n_in; i++) {
    const tfw_tensor *t = i < c->n_in ? &c->in[i] : c->out;
    int ok = 1;
    if (!tpkg_dtype_bytes(t->dtype)) return TFW_FB_E_DTYPE;
    if (!t->data) return TFW_FB_E_ARG;
    elems(t, &ok);
    if (!ok) return TFW_FB_E_SHAPE;
  }
  return 0;
}

static int norm_axis(int32_t a, uint32_t r, uint32_t *ax) {
  int64_t v = a < 0 ? (int64_t)a + r : a;
  if (v < 0 || v >= (int64_t)r) return 0;
  *ax = (uint32_t)v;
  return 1;
}

static int same_dims(const tfw_tensor *a, const tfw_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (uint32_t d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

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
  int e = check_operands(c, 1, 1);
  if (e) return e;
  const tfw_tensor *x = &c->in[0], *y = c->out;
  if (c->n_ints != 2 || !c->ints || c->n_floats || (c->ints[1] != 0 && c->ints[1] != 1)) return TFW_FB_E_PARAM;
  if (x->dtype != TPKG_DT_F32 || y->dtype != TPKG_DT_F32) return TFW_FB_E_DTYPE;
  uint32_t ax;
  if (!same_dims(x, y) || !norm_axis(c->ints[0], x->rank, &ax)) return TFW_FB_E_SHAPE;
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
