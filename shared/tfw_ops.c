/* tfw_ops: the dispatch of the control core's operators (tfw_ops.h).
 * The operand and parameter counts come from tfw_ops.def; each kernel checks
 * the rest (shapes, dtypes, parameter values) before it writes. */
#include "tfw_ops.h"

uint64_t tfw_numel(const tfw_tensor *t) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < t->rank && i < TFW_MAX_RANK; i++) {
    n *= t->dims[i];
    if (n > ((uint64_t)1 << 62)) return (uint64_t)1 << 62;
  }
  return n;
}

typedef struct {
  uint32_t code;
  uint8_t min_in, max_in, min_out, max_out;
} op_row;

static const op_row ops[] = {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) \
  {code, min_in, max_in, min_out, max_out},
#include "tfw_ops.def"
#undef TFW_OP
};

/* The layout-aware ops (QUANTIZE, DEQUANTIZE, RELAYOUT) need the operands'
 * layouts: tfw_fallback_run runs them, tfw_op_run refuses them. */
int tfw_k_layout(const tfw_call *c) {
  (void)c;
  return TFW_FB_E_LAYOUT;
}

/* A firmware built for one package links only the kernels its records use
 * (`tessel emit-c` lists them). There the dispatch names no kernel itself:
 * it reads the weak pointer tfw_linked_op<code> the list defines for each op
 * it runs (NULL when no list does). A weak reference to the kernel would
 * keep it, and every other kernel of its object, once the list pulls that
 * object in; this way --gc-sections drops every kernel no list names,
 * whatever object it is in. The generic runners define them all
 * (firmware/runtime/tfw_ops_all.c); the host build names every kernel. */
#ifdef TFW_WEAK_KERNELS
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) \
  extern tfw_op_fn const tfw_linked_op##code __attribute__((weak));
#include "tfw_ops.def"
#undef TFW_OP
/* Their addresses by op code (NULL: no list defines it). */
static tfw_op_fn const *const linked[] = {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) [code] = &tfw_linked_op##code,
#include "tfw_ops.def"
#undef TFW_OP
};
#endif

static tfw_op_fn kernel_of(uint32_t op) {
  /* the layout-aware ops' entry is this file's own: no list names it */
  if (op == TPKG_OP_QUANTIZE || op == TPKG_OP_DEQUANTIZE || op == TPKG_OP_RELAYOUT) return tfw_k_layout;
#ifdef TFW_WEAK_KERNELS
  tfw_op_fn const *p = op < sizeof linked / sizeof linked[0] ? linked[op] : 0;
  return p ? *p : 0;
#else
  switch (op) {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) \
  case code: return tfw_k_##kernel;
#include "tfw_ops.def"
#undef TFW_OP
  default: return 0;
  }
#endif
}

const char *tfw_op_kernel_name(uint32_t op) {
  switch (op) {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) \
  case code: return "tfw_k_" #kernel;
#include "tfw_ops.def"
#undef TFW_OP
  default: return 0;
  }
}

int tfw_op_check(const tfw_call *c, tfw_op_fn *kernel) {
  if (!c || (c->n_in && !c->in) || (c->n_out && !c->out)) return TFW_FB_E_ARG;
  const op_row *row = 0;
  for (uint32_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (ops[i].code == c->op) row = &ops[i];
  tfw_op_fn k = kernel_of(c->op);
  if (!row || !k) return TFW_FB_E_OP;
  if (c->n_in < row->min_in || c->n_in > row->max_in || c->n_out < row->min_out || c->n_out > row->max_out)
    return TFW_FB_E_SHAPE;
  if (c->n_ints > TFW_MAX_INTS || c->n_floats > TFW_MAX_FLOATS || (c->n_ints && !c->ints) ||
      (c->n_floats && !c->floats))
    return TFW_FB_E_PARAM;
  for (uint32_t i = 0; i < c->n_in + c->n_out; i++) {
    const tfw_tensor *t = i < c->n_in ? &c->in[i] : &c->out[i - c->n_in];
    uint32_t sz = tpkg_dtype_bytes(t->dtype);
    if (!sz || t->rank > TFW_MAX_RANK) return sz ? TFW_FB_E_SHAPE : TFW_FB_E_DTYPE;
    if (!t->data || ((uintptr_t)t->data & (sz - 1))) return TFW_FB_E_ARG;
  }
  *kernel = k;
  return 0;
}

int tfw_op_run(const tfw_call *c) {
  tfw_op_fn k;
  int rc = tfw_op_check(c, &k);
  return rc ? rc : k(c);
}

int tfw_lut_build(uint32_t fn, float alpha, float beta, float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                  int8_t table[256]) {
  float x[256], y[256];
  for (int32_t q = -128; q < 128; q++) x[q + 128] = tfw_dequantize(q, s_in, zp_in);
  tfw_tensor t[2] = {{(uint8_t *)x, TPKG_DT_F32, 1, {256}}, {(uint8_t *)y, TPKG_DT_F32, 1, {256}}};
  int32_t ints[1] = {(int32_t)fn};
  float floats[2] = {alpha, beta};
  tfw_call c = {TPKG_OP_UNARY, 1, 1, t, t + 1, ints, 1, floats, 2};
  int rc = tfw_op_run(&c);
  if (rc) return rc;
  for (int i = 0; i < 256; i++) table[i] = (int8_t)tfw_quantize(y[i], s_out, zp_out, -128, 127);
  return 0;
}
