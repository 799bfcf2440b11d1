/* Stand-ins until the kernels land (removed then). */
#include "tfw_ops.h"

int tfw_k_softmax(const tfw_call *c) {
  const tfw_tensor *x = &c->in[0], *y = &c->out[0];
  if (c->n_ints != 2 || c->ints[1] != 0 || x->dtype != TPKG_DT_F32 || y->dtype != TPKG_DT_F32) return TFW_FB_E_PARAM;
  uint64_t n = tfw_numel(x);
  if (n != tfw_numel(y)) return TFW_FB_E_SHAPE;
  int32_t axis = c->ints[0] < 0 ? c->ints[0] + (int32_t)x->rank : c->ints[0];
  if (axis < 0 || axis >= (int32_t)x->rank) return TFW_FB_E_SHAPE;
  uint64_t len = x->dims[axis], inner = 1;
  for (uint32_t i = (uint32_t)axis + 1; i < x->rank; i++) inner *= x->dims[i];
  const float *xf = (const float *)(const void *)x->data;
  float *yf = (float *)(void *)y->data;
  for (uint64_t o = 0; o < n / (len * inner); o++)
    for (uint64_t j = 0; j < inner; j++) tfw_softmax_f32(xf + o * len * inner + j, yf + o * len * inner + j, len, inner);
  return 0;
}
#define STUB(k) int tfw_k_##k(const tfw_call *c) { (void)c; return TFW_FB_E_OP; }
STUB(unary) STUB(binary) STUB(where) STUB(cast) STUB(transpose) STUB(slice) STUB(concat) STUB(gather) STUB(tile)
STUB(pad) STUB(resize) STUB(reduce) STUB(arg) STUB(norm) STUB(matmul) STUB(conv) STUB(conv_transpose) STUB(pool)
STUB(lut)
