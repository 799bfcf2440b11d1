/* core_op: the mapping from IR nodes (canonical attributes: ir_ops.def,
 * docs/compiler.md) to the control core's ops (shared/tfw_ops.def).
 *  1. the op and which node inputs become operands (all, in order, unless
 *     an op takes fewer: Gemm's C only when present);
 *  2. every operand's view: its value's shape, restated where the op needs
 *     another view of the same bytes;
 *  3. the integer and float parameters, from the attributes. */
#include "core_op.h"

#include <math.h>
#include <string.h>

#include "npu_arith.h"

uint32_t core_dtype(ir_dtype t) {
  switch (t) {
  case IR_F32: return TPKG_DT_F32;
  case IR_I8: return TPKG_DT_I8;
  case IR_U8: return TPKG_DT_U8;
  case IR_I16: return TPKG_DT_I16;
  case IR_U16: return TPKG_DT_U16;
  case IR_I32: return TPKG_DT_I32;
  case IR_U32: return TPKG_DT_U32;
  case IR_I64: return TPKG_DT_I64;
  case IR_BOOL: return TPKG_DT_BOOL;
  default: return 0;
  }
}

static int unsup(const ir_node *n, int *unsupported, diag *d, const char *what) {
  if (unsupported) *unsupported = 1;
  return ir_node_error(d, n, "%s does not run on the control core: %s", ir_op_name(n->op), what);
}

static void view(core_op *c, int k, const ir_value *v) {
  c->rank[k] = (uint32_t)v->rank;
  for (int i = 0; i < (int)TPKG_FB_MAX_RANK; i++) c->dims[k][i] = i < v->rank ? (uint32_t)v->dims[i] : 0;
}

static void view_dims(core_op *c, int k, int rank, const uint32_t *dims) {
  c->rank[k] = (uint32_t)rank;
  for (int i = 0; i < (int)TPKG_FB_MAX_RANK; i++) c->dims[k][i] = i < rank ? dims[i] : 0;
}

static void put_i(core_op *c, int64_t v) { c->ints[c->n_ints++] = (int32_t)v; }
static void put_f(core_op *c, float v) { c->floats[c->n_floats++] = v; }

/* The int8 value v's zero point (0 without parameters). */
static int64_t zp_of(const ir_value *v) { return v->quant.kind == IR_QUANT_TENSOR ? v->quant.zero_point[0] : 0; }

static int norm_axis(int64_t a, int rank) { return (int)(a < 0 ? a + rank : a); }

static const char *attr_str(const ir_node *n, const char *name, const char *dflt) {
  const ir_attr *a = ir_attr_get(n, name);
  return a && a->kind == IR_ATTR_STRING ? a->s : dflt;
}

static int unary_fn(ir_op op, const ir_node *n) {
  switch (op) {
  case IR_OP_RELU: return TFW_UN_RELU;
  case IR_OP_SIGMOID: return TFW_UN_SIGMOID;
  case IR_OP_TANH: return TFW_UN_TANH;
  case IR_OP_EXP: return TFW_UN_EXP;
  case IR_OP_LOG: return TFW_UN_LOG;
  case IR_OP_SQRT: return TFW_UN_SQRT;
  case IR_OP_NEG: return TFW_UN_NEG;
  case IR_OP_ABS: return TFW_UN_ABS;
  case IR_OP_FLOOR: return TFW_UN_FLOOR;
  case IR_OP_CEIL: return TFW_UN_CEIL;
  case IR_OP_ROUND: return TFW_UN_ROUND;
  case IR_OP_RECIPROCAL: return TFW_UN_RECIPROCAL;
  case IR_OP_ERF: return TFW_UN_ERF;
  case IR_OP_SOFTSIGN: return TFW_UN_SOFTSIGN;
  case IR_OP_SOFTPLUS: return TFW_UN_SOFTPLUS;
  case IR_OP_GELU: return ir_attr_int(n, "approximate", 0) ? TFW_UN_GELU_TANH : TFW_UN_GELU;
  case IR_OP_MISH: return TFW_UN_MISH;
  case IR_OP_HARD_SIGMOID: return TFW_UN_HARD_SIGMOID;
  case IR_OP_HARD_SWISH: return TFW_UN_HARD_SWISH;
  case IR_OP_SILU: return TFW_UN_SILU;
  case IR_OP_ELU: return TFW_UN_ELU;
  case IR_OP_SELU: return TFW_UN_SELU;
  case IR_OP_CELU: return TFW_UN_CELU;
  case IR_OP_LEAKY_RELU: return TFW_UN_LEAKY_RELU;
  case IR_OP_CLIP: return TFW_UN_CLIP;
  case IR_OP_THRESHOLDED_RELU: return TFW_UN_THRESHOLDED_RELU;
  case IR_OP_SIGN: return TFW_UN_SIGN;
  case IR_OP_NOT: return TFW_UN_NOT;
  default: return 0;
  }
}

/* The float parameters (alpha, beta) of a unary fn: ONNX's defaults. */
static void unary_params(const ir_node *n, core_op *c) {
  float a = 0.0f, b = 0.0f;
  switch (n->op) {
  case IR_OP_HARD_SIGMOID: a = ir_attr_float(n, "alpha", 0.2f), b = ir_attr_float(n, "beta", 0.5f); break;
  case IR_OP_ELU: case IR_OP_CELU: a = ir_attr_float(n, "alpha", 1.0f); break;
  case IR_OP_SELU:
    a = ir_attr_float(n, "alpha", 1.67326319217681884765625f), b = ir_attr_float(n, "gamma", 1.05070102214813232421875f);
    break;
  case IR_OP_LEAKY_RELU: a = ir_attr_float(n, "alpha", 0.01f); break;
  case IR_OP_THRESHOLDED_RELU: a = ir_attr_float(n, "alpha", 1.0f); break;
  case IR_OP_CLIP: a = ir_attr_float(n, "min", -INFINITY), b = ir_attr_float(n, "max", INFINITY); break;
  default: break;
  }
  put_f(c, a);
  put_f(c, b);
}

int core_unary_of(const ir_node *n, uint32_t *fn, float *alpha, float *beta) {
  core_op c = {0};
  int f = unary_fn(n->op, n);
  if (!f) return 0;
  unary_params(n, &c);
  *fn = (uint32_t)f, *alpha = c.floats[0], *beta = c.floats[1];
  return 1;
}

static int binary_fn(ir_op op) {
  switch (op) {
  case IR_OP_ADD: case IR_OP_SUM: return TFW_BIN_ADD;
  case IR_OP_SUB: return TFW_BIN_SUB;
  case IR_OP_MUL: return TFW_BIN_MUL;
  case IR_OP_DIV: return TFW_BIN_DIV;
  case IR_OP_POW: return TFW_BIN_POW;
  case IR_OP_MIN: return TFW_BIN_MIN;
  case IR_OP_MAX: return TFW_BIN_MAX;
  case IR_OP_MEAN: return TFW_BIN_MEAN;
  case IR_OP_PRELU: return TFW_BIN_PRELU;
  case IR_OP_EQUAL: return TFW_BIN_EQUAL;
  case IR_OP_LESS: return TFW_BIN_LESS;
  case IR_OP_GREATER: return TFW_BIN_GREATER;
  case IR_OP_LESS_EQUAL: return TFW_BIN_LESS_EQUAL;
  case IR_OP_GREATER_EQUAL: return TFW_BIN_GREATER_EQUAL;
  case IR_OP_AND: return TFW_BIN_AND;
  case IR_OP_OR: return TFW_BIN_OR;
  case IR_OP_XOR: return TFW_BIN_XOR;
  default: return 0;
  }
}

static int reduce_fn(ir_op op) {
  switch (op) {
  case IR_OP_REDUCE_SUM: return TFW_RED_SUM;
  case IR_OP_REDUCE_MEAN: return TFW_RED_MEAN;
  case IR_OP_REDUCE_MAX: return TFW_RED_MAX;
  case IR_OP_REDUCE_MIN: return TFW_RED_MIN;
  case IR_OP_REDUCE_PROD: return TFW_RED_PROD;
  case IR_OP_REDUCE_L1: return TFW_RED_L1;
  case IR_OP_REDUCE_L2: return TFW_RED_L2;
  case IR_OP_REDUCE_LOG_SUM_EXP: return TFW_RED_LOG_SUM_EXP;
  case IR_OP_REDUCE_SUM_SQUARE: return TFW_RED_SUM_SQUARE;
  default: return 0;
  }
}

/* Conv/ConvTranspose/pool windows as 2-D: kh kw sy sx pt pl pb pr dy dx;
 * a 1-D window (rank-3 x) gets H = 1 views of x, w and the output. */
static int window_2d(const ir_node *n, core_op *c, int wk, int *unsupported, diag *d) {
  const ir_value *x = n->in[0];
  if (x->rank != 3 && x->rank != 4) return unsup(n, unsupported, d, "only 1-D and 2-D windows");
  int two = x->rank == 4, cnt = 0;
  const int64_t *ks = ir_attr_ints(n, "kernel_shape", &cnt);
  int64_t k[2] = {1, 1}, s[2] = {1, 1}, dl[2] = {1, 1}, p[4] = {0, 0, 0, 0};
  const ir_value *w = wk >= 0 ? n->in[wk] : NULL;
  if (w) k[0] = two ? w->dims[2] : 1, k[1] = w->dims[w->rank - 1];
  else if (n->op == IR_OP_GLOBAL_AVGPOOL || n->op == IR_OP_GLOBAL_MAXPOOL)
    k[0] = two ? x->dims[2] : 1, k[1] = x->dims[x->rank - 1];
  else if (ks && cnt == x->rank - 2) k[0] = two ? ks[0] : 1, k[1] = ks[cnt - 1];
  else return ir_node_error(d, n, "kernel_shape missing or of the wrong length");
  const int64_t *st = ir_attr_ints(n, "strides", &cnt);
  if (st && cnt == x->rank - 2) s[0] = two ? st[0] : 1, s[1] = st[cnt - 1];
  const int64_t *di = ir_attr_ints(n, "dilations", &cnt);
  if (di && cnt == x->rank - 2) dl[0] = two ? di[0] : 1, dl[1] = di[cnt - 1];
  const int64_t *pd = ir_attr_ints(n, "pads", &cnt);
  if (pd && cnt == 2 * (x->rank - 2)) {
    if (two) p[0] = pd[0], p[1] = pd[1], p[2] = pd[2], p[3] = pd[3];
    else p[1] = pd[0], p[3] = pd[1];
  }
  put_i(c, k[0]), put_i(c, k[1]), put_i(c, s[0]), put_i(c, s[1]);
  put_i(c, p[0]), put_i(c, p[1]), put_i(c, p[2]), put_i(c, p[3]), put_i(c, dl[0]), put_i(c, dl[1]);
  if (!two) { /* views with H = 1 */
    for (int i = 0; i <= c->n_in; i++) { /* operand n_in is the output */
      const ir_value *v = i == c->n_in ? n->out : n->in[c->in_of[i]];
      if (v->rank != 3) continue;
      uint32_t dd[4] = {(uint32_t)v->dims[0], (uint32_t)v->dims[1], 1, (uint32_t)v->dims[2]};
      view_dims(c, i, 4, dd);
    }
  }
  return 0;
}

/* Slice: per input dim, the first index and the step (the output dims
 * give the counts), from ONNX's starts/ends/axes/steps with its clamping. */
static int slice_params(const ir_node *n, core_op *c, diag *d) {
  const ir_value *x = n->in[0];
  int ns = 0, na = 0, nt = 0, ne = 0;
  const int64_t *starts = ir_attr_ints(n, "starts", &ns), *axes = ir_attr_ints(n, "axes", &na);
  const int64_t *steps = ir_attr_ints(n, "steps", &nt);
  (void)ir_attr_ints(n, "ends", &ne);
  if (!starts || ns != ne || (axes && na != ns) || (steps && nt != ns))
    return ir_node_error(d, n, "starts/ends/axes/steps missing or of different lengths");
  int64_t first[IR_MAX_RANK], step[IR_MAX_RANK];
  for (int i = 0; i < x->rank; i++) first[i] = 0, step[i] = 1;
  for (int i = 0; i < ns; i++) {
    int ax = norm_axis(axes ? axes[i] : i, x->rank);
    if (ax < 0 || ax >= x->rank) return ir_node_error(d, n, "axis %lld out of range", (long long)(axes ? axes[i] : i));
    int64_t dim = x->dims[ax], st = steps ? steps[i] : 1, s = starts[i];
    if (st == 0) return ir_node_error(d, n, "step 0");
    if (s < 0) s += dim;
    if (st > 0) s = s < 0 ? 0 : s > dim ? dim : s;
    else s = s < 0 ? -1 : s > dim - 1 ? dim - 1 : s;
    first[ax] = s, step[ax] = st;
  }
  for (int i = 0; i < x->rank; i++) put_i(c, first[i]);
  for (int i = 0; i < x->rank; i++) put_i(c, step[i]);
  return 0;
}

/* DepthToSpace / SpaceToDepth as one 6-D transpose of the same bytes. */
static int space_depth(const ir_node *n, core_op *c, diag *d) {
  const ir_value *x = n->in[0];
  int64_t b = ir_attr_int(n, "blocksize", 0);
  if (x->rank != 4 || b < 1) return ir_node_error(d, n, "needs a rank-4 input and a blocksize >= 1");
  uint32_t N = (uint32_t)x->dims[0], C = (uint32_t)x->dims[1], H = (uint32_t)x->dims[2], W = (uint32_t)x->dims[3];
  uint32_t B = (uint32_t)b, in6[6], out6[6];
  int perm[6];
  if (n->op == IR_OP_DEPTH_TO_SPACE) {
    uint32_t Co = C / (B * B);
    int crd = strcmp(attr_str(n, "mode", "DCR"), "CRD") == 0;
    if (crd) { /* [N, C', b, b, H, W] -> [N, C', H, b, W, b] */
      uint32_t i6[6] = {N, Co, B, B, H, W};
      int p6[6] = {0, 1, 4, 2, 5, 3};
      memcpy(in6, i6, sizeof in6), memcpy(perm, p6, sizeof perm);
    } else { /* [N, b, b, C', H, W] -> [N, C', H, b, W, b] */
      uint32_t i6[6] = {N, B, B, Co, H, W};
      int p6[6] = {0, 3, 4, 1, 5, 2};
      memcpy(in6, i6, sizeof in6), memcpy(perm, p6, sizeof perm);
    }
  } else { /* [N, C, H', b, W', b] -> [N, b, b, C, H', W'] */
    uint32_t i6[6] = {N, C, H / B, B, W / B, B};
    int p6[6] = {0, 3, 5, 1, 2, 4};
    memcpy(in6, i6, sizeof in6), memcpy(perm, p6, sizeof perm);
  }
  for (int i = 0; i < 6; i++) out6[i] = in6[perm[i]];
  view_dims(c, 0, 6, in6);
  view_dims(c, 1, 6, out6);
  for (int i = 0; i < 6; i++) put_i(c, perm[i]);
  return 0;
}

static int resize_params(const ir_node *n, core_op *c, int *unsupported, diag *d) {
  const ir_value *x = n->in[0], *y = n->out;
  const char *mode = attr_str(n, "mode", "nearest"), *ct = attr_str(n, "coordinate_transformation_mode", "half_pixel");
  const char *nm = attr_str(n, "nearest_mode", "round_prefer_floor");
  static const char *const modes[] = {"nearest", "linear", "cubic"};
  static const char *const cts[] = {"half_pixel",    "asymmetric",           "pytorch_half_pixel",
                                    "tf_half_pixel_for_nn", "align_corners", "half_pixel_symmetric",
                                    "tf_crop_and_resize"};
  static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  int m = -1, t = -1, r = -1;
  for (int i = 0; i < 3; i++) if (!strcmp(mode, modes[i])) m = i;
  for (int i = 0; i < 7; i++) if (!strcmp(ct, cts[i])) t = i;
  for (int i = 0; i < 4; i++) if (!strcmp(nm, nms[i])) r = i;
  if (m < 0 || t < 0 || r < 0) return unsup(n, unsupported, d, "this mode, coordinate transformation or nearest mode");
  put_i(c, m), put_i(c, t), put_i(c, r), put_i(c, ir_attr_int(n, "exclude_outside", 0));
  put_f(c, ir_attr_float(n, "cubic_coeff_a", -0.75f));
  const ir_attr *sa = ir_attr_get(n, "scales");
  const float *sc = sa && sa->kind == IR_ATTR_FLOATS ? sa->floats : NULL;
  int cnt = sc ? sa->n : 0;
  const ir_attr *ra = ir_attr_get(n, "roi");
  int crop = t == TFW_COORD_TF_CROP_AND_RESIZE, nr = ra && ra->kind == IR_ATTR_FLOATS ? ra->n : 0;
  const float *roi = nr ? ra->floats : NULL;
  if (x->rank * (crop ? 3 : 1) + (crop ? 2 : 1) > (int)TPKG_FB_MAX_FLOATS)
    return unsup(n, unsupported, d, "more dimensions than the record holds");
  if (crop && (x->dtype != IR_F32 || !roi || nr != 2 * x->rank))
    return unsup(n, unsupported, d, "tf_crop_and_resize other than float with a roi per dimension");
  for (int i = 0; i < x->rank; i++)
    put_f(c, sc && cnt == x->rank ? sc[i] : (float)y->dims[i] / (float)x->dims[i]);
  if (crop) { /* the roi's starts and ends, then extrapolation_value */
    for (int i = 0; i < 2 * x->rank; i++) put_f(c, roi[i]);
    put_f(c, ir_attr_float(n, "extrapolation_value", 0.0f));
  }
  return 0;
}

/* A LUT record's 256 entries, 4 a word, little-endian. */
static void put_table(core_op *c, const int64_t *t) {
  for (int w = 0; w < 64; w++)
    put_i(c, (int32_t)((uint32_t)(uint8_t)t[4 * w] | (uint32_t)(uint8_t)t[4 * w + 1] << 8 |
                       (uint32_t)(uint8_t)t[4 * w + 2] << 16 | (uint32_t)(uint8_t)t[4 * w + 3] << 24));
}

/* QRequant between uint8 and int8 as a table: entry e is input code e (u8)
 * or e - 128 (i8), through clamp(rne_shift((x - zp_x) * mult, shift) + zp_y). */
static int requant_table(const ir_node *n, core_op *c, diag *d) {
  int nm = 0, ns = 0;
  const int64_t *m = ir_attr_ints(n, "mult", &nm), *sh = ir_attr_ints(n, "shift", &ns);
  if (!m || !sh || nm != 1 || ns != 1 || sh[0] < 0 || sh[0] > 63)
    return ir_node_error(d, n, "missing or bad mult/shift (run requant first)");
  const ir_value *x = n->in[0], *y = n->out;
  int64_t zx = zp_of(x), zy = zp_of(y);
  int64_t lo = y->dtype == IR_U8 ? 0 : -128, hi = y->dtype == IR_U8 ? 255 : 127, t[256];
  for (int e = 0; e < 256; e++) {
    int64_t q = x->dtype == IR_U8 ? e : e - 128;
    int64_t v = npu_rne_shift((q - zx) * m[0], (unsigned)sh[0]) + zy;
    t[e] = v < lo ? lo : v > hi ? hi : v;
  }
  put_table(c, t);
  return 0;
}

/* QSoftmax and QLayerNorm: every input an operand; the integer constants
 * from the attributes, the zero points from the values. */
static int int8_norm(const ir_node *n, core_op *c, diag *d) {
  int soft = n->op == IR_OP_QSOFTMAX, to_f32 = soft && n->out->dtype == IR_F32, cnt = 0;
  c->op = to_f32 ? TPKG_OP_SOFTMAX_QF : soft ? TPKG_OP_SOFTMAX_Q : TPKG_OP_LAYERNORM_Q;
  c->n_in = n->n_in;
  for (int i = 0; i < n->n_in; i++) c->in_of[i] = i, view(c, i, n->in[i]);
  view(c, n->n_in, n->out);
  put_i(c, norm_axis(ir_attr_int(n, "axis", -1), n->in[0]->rank));
  if (to_f32) return 0;
  if (soft) {
    put_i(c, ir_attr_int(n, "mult", 0)), put_i(c, ir_attr_int(n, "shift", -1)), put_i(c, zp_of(n->out));
    return 0;
  }
  const int64_t *e = ir_attr_ints(n, "eps", &cnt);
  if (!e || cnt != 2) return ir_node_error(d, n, "attribute eps must hold 2 words");
  put_i(c, zp_of(n->in[0])), put_i(c, zp_of(n->out)), put_i(c, ir_attr_int(n, "gshift", -1));
  put_i(c, e[0]), put_i(c, e[1]);
  return 0;
}

/* QMul: both inputs operands (their shapes: the kernel broadcasts); the
 * zero points from the values, mult and shift from the requant pass, the
 * clamp from a Relu/Clip folded after it. */
static int int8_mul(const ir_node *n, core_op *c, diag *d) {
  int64_t m = ir_attr_int(n, "mult", -1), s = ir_attr_int(n, "shift", -1);
  if (m < 0 || m > INT32_MAX || s < 0 || s > 63) return ir_node_error(d, n, "missing or bad mult/shift (run requant first)");
  c->op = TPKG_OP_MUL_Q;
  c->n_in = 2;
  for (int i = 0; i < 2; i++) c->in_of[i] = i, view(c, i, n->in[i]);
  view(c, 2, n->out);
  put_i(c, zp_of(n->in[0])), put_i(c, zp_of(n->in[1])), put_i(c, zp_of(n->out));
  put_i(c, m), put_i(c, s), put_i(c, ir_attr_int(n, "lo", -128)), put_i(c, ir_attr_int(n, "hi", 127));
  return 0;
}

int core_op_of(const ir_node *n, core_op *c, int *unsupported, diag *d) {
  memset(c, 0, sizeof *c);
  switch (n->op) {
  case IR_OP_QLUT: {
    int cnt = 0;
    const int64_t *t = ir_attr_ints(n, "table", &cnt);
    if (!t || cnt != 256) return ir_node_error(d, n, "attribute table must hold 256 entries");
    c->op = TPKG_OP_LUT;
    c->n_in = 1;
    view(c, 0, n->in[0]), view(c, 1, n->out);
    put_table(c, t);
    return 0;
  }
  case IR_OP_QREQUANT: /* at a uint8 edge: a table of the NPU's requantisation (the int8 reference's) */
    if (n->in[0]->dtype == IR_I8 && n->out->dtype == IR_I8) return 1;
    c->op = TPKG_OP_LUT;
    c->n_in = 1;
    view(c, 0, n->in[0]), view(c, 1, n->out);
    return requant_table(n, c, d);
  case IR_OP_QSOFTMAX: case IR_OP_QLAYERNORM: return int8_norm(n, c, d);
  case IR_OP_QMUL: return int8_mul(n, c, d);
  case IR_OP_QUANTIZE: case IR_OP_DEQUANTIZE: case IR_OP_QCONV: case IR_OP_QMATMUL: case IR_OP_QADD:
  case IR_OP_QAVGPOOL:
    return 1;
  default: break;
  }
  /* 1. operands: every input, the output after them */
  c->n_in = n->n_in;
  for (int i = 0; i < n->n_in; i++) c->in_of[i] = i;
  if (n->op == IR_OP_DROPOUT) c->n_in = 1;
  for (int i = 0; i < n->n_in; i++)
    if (!core_dtype(n->in[i]->dtype))
      return unsup(n, unsupported, d, ir_dtype_name(n->in[i]->dtype));
  if (!core_dtype(n->out->dtype)) return unsup(n, unsupported, d, ir_dtype_name(n->out->dtype));
  if (c->n_in + 1 > (int)TPKG_FB_MAX_OPERANDS) return unsup(n, unsupported, d, "too many inputs");
  /* 2. views: the values' shapes */
  for (int i = 0; i < c->n_in; i++) view(c, i, n->in[c->in_of[i]]);
  view(c, c->n_in, n->out);
  /* 3. the op and its parameters */
  const ir_value *x = n->in[0];
  int fn = unary_fn(n->op, n);
  if (fn) {
    c->op = TPKG_OP_UNARY;
    put_i(c, fn);
    unary_params(n, c);
    return 0;
  }
  if ((fn = binary_fn(n->op))) {
    c->op = TPKG_OP_BINARY;
    put_i(c, fn);
    return 0;
  }
  if ((fn = reduce_fn(n->op))) {
    c->op = TPKG_OP_REDUCE;
    int cnt = 0;
    const int64_t *ax = ir_attr_ints(n, "axes", &cnt);
    int32_t mask = 0;
    for (int i = 0; i < (ax ? cnt : x->rank); i++) {
      int a = ax ? norm_axis(ax[i], x->rank) : i;
      if (a < 0 || a >= x->rank) return ir_node_error(d, n, "axis out of range");
      mask |= 1 << a;
    }
    put_i(c, fn), put_i(c, mask);
    return 0;
  }
  switch (n->op) {
  case IR_OP_IDENTITY: case IR_OP_DROPOUT: case IR_OP_FLATTEN: case IR_OP_RESHAPE: case IR_OP_SQUEEZE:
  case IR_OP_UNSQUEEZE: case IR_OP_CAST:
    c->op = TPKG_OP_CAST;
    c->n_in = 1;
    view(c, 1, n->out);
    return 0;
  case IR_OP_SOFTMAX: case IR_OP_LOG_SOFTMAX: {
    c->op = TPKG_OP_SOFTMAX;
    int ax = norm_axis(ir_attr_int(n, "axis", -1), x->rank);
    if (ir_attr_int(n, "coerce2d", 0)) { /* before opset 13: [outer, inner] around the axis */
      uint32_t oi[2] = {1, 1};
      for (int i = 0; i < x->rank; i++) oi[i >= ax] *= (uint32_t)x->dims[i];
      view_dims(c, 0, 2, oi), view_dims(c, 1, 2, oi);
      ax = 1;
    }
    put_i(c, ax), put_i(c, n->op == IR_OP_LOG_SOFTMAX);
    return 0;
  }
  case IR_OP_WHERE: c->op = TPKG_OP_WHERE; return 0;
  case IR_OP_TRANSPOSE: {
    c->op = TPKG_OP_TRANSPOSE;
    int cnt = 0;
    const int64_t *perm = ir_attr_ints(n, "perm", &cnt);
    for (int i = 0; i < x->rank; i++) put_i(c, perm && cnt == x->rank ? perm[i] : x->rank - 1 - i);
    return 0;
  }
  case IR_OP_SLICE: c->op = TPKG_OP_SLICE; return slice_params(n, c, d);
  case IR_OP_CONCAT: c->op = TPKG_OP_CONCAT; put_i(c, norm_axis(ir_attr_int(n, "axis", 0), x->rank)); return 0;
  case IR_OP_GATHER: c->op = TPKG_OP_GATHER; put_i(c, norm_axis(ir_attr_int(n, "axis", 0), x->rank)); return 0;
  case IR_OP_EXPAND: case IR_OP_TILE: c->op = TPKG_OP_TILE; c->n_in = 1; view(c, 1, n->out); return 0;
  case IR_OP_PAD: {
    c->op = TPKG_OP_PAD;
    c->n_in = 1;
    view(c, 1, n->out);
    static const char *const modes[] = {"constant", "reflect", "edge", "wrap"};
    const char *m = attr_str(n, "mode", "constant");
    int mi = -1, cnt = 0;
    for (int i = 0; i < 4; i++) if (!strcmp(m, modes[i])) mi = i;
    if (mi < 0) return unsup(n, unsupported, d, "this padding mode");
    const int64_t *pads = ir_attr_ints(n, "pads", &cnt);
    if (!pads || cnt != 2 * x->rank) return ir_node_error(d, n, "pads missing or not 2 per dimension");
    put_i(c, mi);
    for (int i = 0; i < cnt; i++) put_i(c, pads[i]);
    put_f(c, ir_attr_float(n, "value", 0.0f));
    return 0;
  }
  case IR_OP_RESIZE: c->op = TPKG_OP_RESIZE; c->n_in = 1; view(c, 1, n->out); return resize_params(n, c, unsupported, d);
  case IR_OP_DEPTH_TO_SPACE: case IR_OP_SPACE_TO_DEPTH: c->op = TPKG_OP_TRANSPOSE; return space_depth(n, c, d);
  case IR_OP_ARGMAX: case IR_OP_ARGMIN:
    c->op = TPKG_OP_ARG;
    put_i(c, norm_axis(ir_attr_int(n, "axis", 0), x->rank));
    put_i(c, ir_attr_int(n, "select_last_index", 0)), put_i(c, n->op == IR_OP_ARGMIN);
    return 0;
  case IR_OP_LAYER_NORM: case IR_OP_INSTANCE_NORM: case IR_OP_BATCHNORM:
    c->op = TPKG_OP_NORM;
    put_i(c, n->op == IR_OP_LAYER_NORM ? 0 : n->op == IR_OP_INSTANCE_NORM ? 1 : 2);
    put_i(c, n->op == IR_OP_LAYER_NORM ? norm_axis(ir_attr_int(n, "axis", -1), x->rank) : 1);
    put_f(c, ir_attr_float(n, "epsilon", 1e-5f));
    return 0;
  case IR_OP_GEMM: case IR_OP_MATMUL:
    c->op = TPKG_OP_MATMUL;
    put_i(c, ir_attr_int(n, "transA", 0)), put_i(c, ir_attr_int(n, "transB", 0));
    put_f(c, ir_attr_float(n, "alpha", 1.0f)), put_f(c, ir_attr_float(n, "beta", 1.0f));
    return 0;
  case IR_OP_CONV: case IR_OP_CONV_TRANSPOSE:
    c->op = n->op == IR_OP_CONV ? TPKG_OP_CONV : TPKG_OP_CONV_TRANSPOSE;
    put_i(c, ir_attr_int(n, "group", 1));
    return window_2d(n, c, 1, unsupported, d);
  case IR_OP_MAXPOOL: case IR_OP_AVGPOOL: case IR_OP_GLOBAL_AVGPOOL: case IR_OP_GLOBAL_MAXPOOL: {
    c->op = TPKG_OP_POOL;
    int avg = n->op == IR_OP_AVGPOOL || n->op == IR_OP_GLOBAL_AVGPOOL;
    put_i(c, avg);
    if (window_2d(n, c, -1, unsupported, d)) return -1;
    put_i(c, ir_attr_int(n, "count_include_pad", 0));
    put_f(c, 2.0f);
    return 0;
  }
  case IR_OP_QLINEAR_CONV: case IR_OP_QLINEAR_MATMUL: case IR_OP_CONV_INTEGER: case IR_OP_MATMUL_INTEGER:
    /* quant-ops makes them NPU ops when their weights and parameters are
     * constants; say which one is not */
    for (int i = 1; i < n->n_in; i++)
      if (n->in[i]->kind != IR_VALUE_CONST)
        return ir_node_error(d, n, "input %d '%s' must be a constant for the NPU (an initializer, a Constant node or "
                             "a --bind input); '%s' is %s", i, n->in[i]->name, n->in[i]->name,
                             n->in[i]->kind == IR_VALUE_INPUT ? "a graph input" : "computed in the model");
    return unsup(n, unsupported, d, "no core kernel for this operator yet");
  default:
    return unsup(n, unsupported, d, "no core kernel for this operator yet");
  }
}

int core_op_run(const core_op *c, const ir_node *n, const void *const *in, void *out, diag *d) {
  tfw_tensor t[TPKG_FB_MAX_OPERANDS];
  for (int k = 0; k <= c->n_in; k++) {
    t[k].data = k < c->n_in ? (uint8_t *)(uintptr_t)in[c->in_of[k]] : (uint8_t *)out;
    t[k].dtype = core_dtype(k < c->n_in ? n->in[c->in_of[k]]->dtype : n->out->dtype);
    t[k].rank = c->rank[k];
    for (int i = 0; i < (int)TFW_MAX_RANK; i++) t[k].dims[i] = c->dims[k][i];
  }
  tfw_call call = {c->op, (uint32_t)c->n_in, 1, t, t + c->n_in, c->ints, c->n_ints, c->floats, c->n_floats};
  int rc = tfw_op_run(&call);
  if (rc) return ir_node_error(d, n, "%s on the control core: %s", ir_op_name(n->op), tfw_fallback_strerror(rc));
  return 0;
}
