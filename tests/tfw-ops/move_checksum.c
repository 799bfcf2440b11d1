/* move_checksum: see move_checksum.h. Inputs come from a fixed LCG, so the
 * host and the firmware run the very same calls. */
#include "move_checksum.h"

#include "crc32.h"
#include "tfw_math.h"
#include "tfw_ops.h"

#define MC_ELEMS 256

static uint32_t lcg = 12345u;
static uint32_t next_u32(void) { return lcg = lcg * 1664525u + 1013904223u; }

/* 8-byte aligned operand storage: two inputs, three per-channel operands, the output. */
static uint64_t buf_in[5][MC_ELEMS], buf_out[MC_ELEMS];

static uint32_t numel(uint32_t rank, const uint32_t *dims) {
  uint32_t n = 1;
  for (uint32_t i = 0; i < rank; i++) n *= dims[i];
  return n;
}

/* Operand k: dtype, dims, filled from the LCG (floats in [-4, 4), a NaN
 * every 97 elements when nan is set; bool 0/1; integers small). */
static tfw_tensor operand(uint32_t k, uint32_t dtype, uint32_t rank, const uint32_t *dims, int nan) {
  tfw_tensor t = {(uint8_t *)buf_in[k], dtype, rank, {0}};
  for (uint32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  uint32_t n = numel(rank, dims);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = next_u32() >> 8;
    switch (dtype) {
    case TPKG_DT_F32:
      ((float *)t.data)[i] = nan && i % 97 == 5 ? tfw_bits_f32(0x7fc00000u) : (float)((int32_t)r - 0x800000) / 2097152.0f;
      break;
    case TPKG_DT_BOOL: t.data[i] = (uint8_t)(r & 1); break;
    case TPKG_DT_U8: case TPKG_DT_I8: t.data[i] = (uint8_t)r; break;
    case TPKG_DT_I32: ((int32_t *)t.data)[i] = (int32_t)(r % 7) - 3; break;
    default: ((int64_t *)t.data)[i] = ((int64_t)(r % 7) - 3) * 1000000007ll;
    }
  }
  return t;
}

/* Runs c and folds its return code and output bytes into *crc. */
static void run(move_checksums *m, uint32_t *crc, int (*k)(const tfw_call *), tfw_call *c) {
  uint32_t n = numel(c->out->rank, c->out->dims) * tpkg_dtype_bytes(c->out->dtype);
  for (uint32_t i = 0; i < n; i++) ((uint8_t *)buf_out)[i] = 0xee;
  int rc = k(c);
  m->rc |= rc;
  *crc = crc32_update(*crc, &rc, sizeof rc);
  *crc = crc32_update(*crc, buf_out, n);
}

static tfw_call call(const tfw_tensor *in, uint32_t n_in, const tfw_tensor *out, const int32_t *ints, uint32_t n_ints,
                     const float *floats, uint32_t n_floats) {
  tfw_call c = {0, n_in, 1, in, out, ints, n_ints, floats, n_floats};
  return c;
}

static tfw_tensor output(uint32_t dtype, uint32_t rank, const uint32_t *dims) {
  tfw_tensor t = {(uint8_t *)buf_out, dtype, rank, {0}};
  for (uint32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  return t;
}

static const uint32_t dtypes[6] = {TPKG_DT_F32, TPKG_DT_U8, TPKG_DT_I8, TPKG_DT_I32, TPKG_DT_I64, TPKG_DT_BOOL};

static void sweep_move(move_checksums *m) {
  uint32_t *crc = &m->move;
  for (uint32_t d = 0; d < 6; d++) {
    uint32_t dt = dtypes[d];
    /* Transpose */
    static const uint32_t xd[4] = {3, 4, 5, 2}, yd[4] = {5, 3, 2, 4};
    static const int32_t perm[4] = {2, 0, 3, 1};
    tfw_tensor x = operand(0, dt, 4, xd, 0), y = output(dt, 4, yd);
    tfw_call c = call(&x, 1, &y, perm, 4, 0, 0);
    run(m, crc, tfw_k_transpose, &c);
    /* Slice with negative and positive steps */
    static const uint32_t sx[3] = {6, 5, 4}, sy[3] = {3, 3, 3};
    static const int32_t sl[6] = {5, 0, 1, -2, 2, 1};
    x = operand(0, dt, 3, sx, 0), y = output(dt, 3, sy);
    c = call(&x, 1, &y, sl, 6, 0, 0);
    run(m, crc, tfw_k_slice, &c);
    /* Concat of three along axis 1 */
    static const uint32_t c0[3] = {2, 3, 4}, c1[3] = {2, 1, 4}, c2[3] = {2, 2, 4}, cy[3] = {2, 6, 4};
    tfw_tensor ins[3] = {operand(0, dt, 3, c0, 0), operand(1, dt, 3, c1, 0), operand(2, dt, 3, c2, 0)};
    int32_t axis = 1;
    y = output(dt, 3, cy);
    c = call(ins, 3, &y, &axis, 1, 0, 0);
    run(m, crc, tfw_k_concat, &c);
    /* Gather on axis 1 with negative indices */
    static const uint32_t gx[2] = {4, 5}, gy[3] = {4, 2, 3};
    static const int64_t idx[6] = {0, -1, 4, 2, -5, 3};
    tfw_tensor gin[2] = {operand(0, dt, 2, gx, 0), {(uint8_t *)(uintptr_t)idx, TPKG_DT_I64, 2, {2, 3}}};
    y = output(dt, 3, gy);
    c = call(gin, 2, &y, &axis, 1, 0, 0);
    run(m, crc, tfw_k_gather, &c);
    /* Tile and Expand */
    static const uint32_t tx[2] = {3, 1}, ty[3] = {2, 6, 4};
    x = operand(0, dt, 2, tx, 0), y = output(dt, 3, ty);
    c = call(&x, 1, &y, 0, 0, 0, 0);
    run(m, crc, tfw_k_tile, &c);
    /* Pad, every mode, with a crop */
    static const uint32_t px[2] = {3, 4}, py[2] = {7, 5};
    for (int32_t mode = 0; mode < 4; mode++) {
      int32_t pads[5] = {mode, 2, -1, 2, 2};
      float value = 2.5f;
      x = operand(0, dt, 2, px, 0), y = output(dt, 2, py);
      c = call(&x, 1, &y, pads, 5, &value, 1);
      run(m, crc, tfw_k_pad, &c);
    }
  }
}

static void sweep_resize(move_checksums *m) {
  static const uint32_t xd[4] = {1, 2, 5, 4}, sizes[3][4] = {{1, 2, 7, 3}, {1, 2, 9, 8}, {1, 2, 3, 2}};
  for (int32_t mode = 0; mode < 3; mode++)
    for (int32_t coord = 0; coord <= TFW_COORD_HALF_PIXEL_SYMMETRIC; coord++)
      for (int32_t sub = 0; sub < 4; sub++) {
        if (mode && sub > 1) continue;
        const uint32_t *yd = sizes[(coord + sub) % 3];
        int32_t ints[4] = {mode, coord, mode ? 0 : sub, mode ? sub : 0};
        float fl[5] = {mode == 2 && sub ? -0.5f : -0.75f, 1.0f, 1.0f, (float)yd[2] / 5.0f, sub == 1 ? 1.7f : (float)yd[3] / 4.0f};
        uint32_t dt = mode == 0 && sub == 3 ? TPKG_DT_U8 : TPKG_DT_F32;
        tfw_tensor x = operand(0, dt, 4, xd, 0), y = output(dt, 4, yd);
        tfw_call c = call(&x, 1, &y, ints, 4, fl, 5);
        run(m, &m->resize, tfw_k_resize, &c);
      }
}

static void sweep_reduce(move_checksums *m) {
  static const uint32_t xd[3] = {3, 4, 5}, y1[2] = {4, 1}, y2[2] = {3, 5};
  for (int32_t fn = TFW_RED_SUM; fn <= TFW_RED_SUM_SQUARE; fn++)
    for (int32_t k = 0; k < 2; k++) {
      int32_t ints[2] = {fn, k ? 2 : 5};
      tfw_tensor x = operand(0, TPKG_DT_F32, 3, xd, fn == TFW_RED_SUM), y = output(TPKG_DT_F32, 2, k ? y2 : y1);
      tfw_call c = call(&x, 1, &y, ints, 2, 0, 0);
      run(m, &m->reduce, tfw_k_reduce, &c);
      if (fn == TFW_RED_SUM || fn == TFW_RED_MAX || fn == TFW_RED_MIN || fn == TFW_RED_PROD) {
        x = operand(0, k ? TPKG_DT_I32 : TPKG_DT_I64, 3, xd, 0), y = output(x.dtype, 2, k ? y2 : y1);
        run(m, &m->reduce, tfw_k_reduce, &c);
      }
    }
  static const uint32_t ad[2] = {4, 6}, ay[1] = {4};
  for (int32_t v = 0; v < 4; v++) {
    int32_t ints[3] = {1, v & 1, v >> 1};
    tfw_tensor x = operand(0, TPKG_DT_F32, 2, ad, 0), y = output(TPKG_DT_I64, 1, ay);
    for (uint32_t i = 0; i < 24; i++) ((float *)x.data)[i] = (float)(int32_t)(((float *)x.data)[i]); /* ties */
    ((float *)x.data)[9] = ((float *)x.data)[17] = tfw_bits_f32(0x7fc00000u); /* after: (int)NaN differs by machine */
    tfw_call c = call(&x, 1, &y, ints, 3, 0, 0);
    run(m, &m->reduce, tfw_k_arg, &c);
  }
  static const uint32_t sd[3] = {3, 7, 4};
  for (int32_t lg = 0; lg < 2; lg++) {
    int32_t ints[2] = {1, lg};
    tfw_tensor x = operand(0, TPKG_DT_F32, 3, sd, 0), y = output(TPKG_DT_F32, 3, sd);
    for (uint32_t i = 0; i < 84; i++) ((float *)x.data)[i] *= 8.0f;
    tfw_call c = call(&x, 1, &y, ints, 2, 0, 0);
    run(m, &m->reduce, tfw_k_softmax, &c);
  }
}

static void sweep_norm(move_checksums *m) {
  static const uint32_t xd[4] = {2, 3, 4, 4}, cd[1] = {3}, ld[2] = {4, 4};
  float eps = 1e-5f;
  for (int32_t kind = 0; kind < 3; kind++) {
    int32_t ints[2] = {kind, kind ? 1 : -2};
    tfw_tensor in[5] = {operand(0, TPKG_DT_F32, 4, xd, 0)};
    for (uint32_t k = 1; k < 5; k++) in[k] = operand(k, TPKG_DT_F32, kind ? 1 : 2, kind ? cd : ld, 0);
    for (uint32_t i = 0; i < 3; i++) ((float *)in[4].data)[i] = ((float *)in[4].data)[i] * ((float *)in[4].data)[i];
    tfw_tensor y = output(TPKG_DT_F32, 4, xd);
    tfw_call c = call(in, kind == 2 ? 5 : 3, &y, ints, 2, &eps, 1);
    run(m, &m->norm, tfw_k_norm, &c);
  }
}

/* The int8 Softmax and LayerNorm: their constants from the builders (f32
 * code, so the builders must agree too) and the integer kernels. */
static void sweep_int8(move_checksums *m) {
  static const uint32_t xd[2] = {4, 40}, ld[2] = {3, 48}, gd[1] = {48};
  static const float s_in[3] = {0.0125f, 0.05f, 0.17f}, s_out[3] = {0.00390625f, 0.0047f, 0.02f};
  for (int v = 0; v < 3; v++) {
    int32_t mult, shift;
    tfw_tensor in[3] = {operand(0, TPKG_DT_I8, 2, xd, 0), {(uint8_t *)buf_in[1], TPKG_DT_I32, 1, {256}}};
    m->rc |= tfw_softmax_q_build(s_in[v], s_out[v], (int32_t *)in[1].data, &mult, &shift);
    m->int8 = crc32_update(m->int8, in[1].data, 256 * 4);
    int32_t ints[4] = {v == 1 ? 0 : 1, mult, shift, v == 2 ? 5 : -128};
    tfw_tensor y = output(TPKG_DT_I8, 2, xd);
    tfw_call c = call(in, 2, &y, ints, 4, 0, 0);
    run(m, &m->int8, tfw_k_softmax_q, &c);
  }
  for (int v = 0; v < 3; v++) {
    tfw_tensor gam = operand(3, TPKG_DT_F32, 1, gd, 0), bet = operand(4, TPKG_DT_F32, 1, gd, 0);
    tfw_tensor in[3] = {operand(0, TPKG_DT_I8, 2, ld, 0), {(uint8_t *)buf_in[1], TPKG_DT_I32, 1, {48}},
                        {(uint8_t *)buf_in[2], TPKG_DT_I64, 1, {48}}};
    int32_t gs;
    uint32_t eps[2];
    m->rc |= tfw_layernorm_q_build(s_in[v], s_out[v] * 4.0f, v == 2 ? 0.0f : 1e-5f, 48, (const float *)gam.data,
                                   v == 1 ? 0 : (const float *)bet.data, (int32_t *)in[1].data,
                                   (int64_t *)in[2].data, &gs, eps);
    m->int8 = crc32_update(m->int8, in[1].data, 48 * 4);
    m->int8 = crc32_update(m->int8, in[2].data, 48 * 8);
    int32_t ints[6] = {-1, v * 7 - 3, v == 1 ? 9 : -2, gs, (int32_t)eps[0], (int32_t)eps[1]};
    tfw_tensor y = output(TPKG_DT_I8, 2, ld);
    tfw_call c = call(in, 3, &y, ints, 6, 0, 0);
    run(m, &m->int8, tfw_k_layernorm_q, &c);
  }
}

void move_checksum_all(move_checksums *c) {
  lcg = 12345u;
  c->move = c->resize = c->reduce = c->norm = c->int8 = 0, c->rc = 0;
  sweep_move(c);
  sweep_resize(c);
  sweep_reduce(c);
  sweep_norm(c);
  sweep_int8(c);
}
