/* nn_checksum: see the header.  Shapes and values come from an integer
 * generator and bit patterns, so both machines make the very same calls.
 * Values span 2^-20..2^20 with random mantissas (rounding on every add);
 * every other call also mixes in NaNs with payloads, infinities, signed
 * zeros, subnormals and values whose products overflow. */
#include "nn_checksum.h"

#include "ck_rand.h"
#include "crc32.h"
#include "tfw_ops.h"

#define BUF_X 2048 /* floats of each input buffer */
#define BUF_Y 4096 /* floats of the output buffer */

static float buf_a[BUF_X], buf_b[BUF_X], buf_c[BUF_X], buf_y[BUF_Y];

static float float_of(uint32_t u) {
  union {
    uint32_t u;
    float f;
  } b = {u};
  return b.f;
}

static uint32_t in_range(uint32_t *s, uint32_t lo, uint32_t hi) { return lo + ck_next(s) % (hi - lo + 1); }

static const uint32_t specials[10] = {0x7fc12345u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x00000000u,
                                      0x80000000u, 0x00000123u, 0x807fffffu, 0x7f000000u, 0xfe800000u};

static void fill(uint32_t *s, float *p, uint32_t n, int special) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = ck_next(s);
    if (special && (r & 63) == 0) {
      p[i] = float_of(specials[(r >> 6) % 10]);
    } else {
      uint32_t e = 127 - 20 + (r >> 6) % 41;
      p[i] = float_of((r & 0x80000000u) | (e << 23) | (ck_next(s) & 0x7fffffu));
    }
  }
}

static uint32_t prod(const uint32_t *d, uint32_t r) {
  uint32_t n = 1;
  for (uint32_t i = 0; i < r; i++) n *= d[i];
  return n;
}

static tfw_tensor tens(void *data, uint32_t dtype, uint32_t rank, const uint32_t *dims) {
  tfw_tensor t = {(uint8_t *)data, dtype, rank, {0}};
  for (uint32_t i = 0; i < rank; i++) t.dims[i] = dims[i];
  return t;
}

/* Runs k on c and folds its return code and the output's bytes into *crc. */
static void run(nn_checksums *ck, uint32_t *crc, int (*k)(const tfw_call *), const tfw_call *c, uint32_t bytes) {
  int rc = k(c);
  uint8_t w[4] = {(uint8_t)rc, (uint8_t)(rc >> 8), (uint8_t)(rc >> 16), (uint8_t)(rc >> 24)};
  ck->rc |= rc;
  ck->calls++;
  *crc = crc32_update(*crc, w, 4);
  *crc = crc32_update(*crc, c->out->data, bytes);
}

static void matmuls(nn_checksums *ck, uint32_t *s) {
  for (int i = 0; i < 60; i++) {
    uint32_t ra, rb, ad[4], bd[4], yd[4], cd[4], rc, ry, m, n, k, nb, ta, tb;
    do {
      ra = in_range(s, 1, 4), rb = in_range(s, 1, 4);
      uint32_t ab = ra > 2 ? ra - 2 : 0, bb = rb > 2 ? rb - 2 : 0;
      nb = ab > bb ? ab : bb;
      m = in_range(s, 1, 7), n = in_range(s, 1, 7), k = in_range(s, 0, 24);
      ta = ra >= 2 && ck_next(s) % 2, tb = rb >= 2 && ck_next(s) % 2;
      for (uint32_t d = 0; d < nb; d++) {
        uint32_t v = in_range(s, 1, 3), da = d >= nb - ab && ck_next(s) % 3 ? v : 1, db = d >= nb - bb && ck_next(s) % 3 ? v : 1;
        if (d >= nb - ab) ad[d - (nb - ab)] = da;
        if (d >= nb - bb) bd[d - (nb - bb)] = db;
        yd[d] = da > db ? da : db;
      }
      if (ra == 1) ad[0] = k;
      else ad[ab] = ta ? k : m, ad[ab + 1] = ta ? m : k;
      if (rb == 1) bd[0] = k;
      else bd[bb] = tb ? n : k, bd[bb + 1] = tb ? k : n;
      ry = nb;
      if (ra >= 2) yd[ry++] = m;
      if (rb >= 2) yd[ry++] = n;
      rc = ck_next(s) % 2 ? in_range(s, 0, ry) : 5; /* 5: no C */
      for (uint32_t d = 0; rc <= ry && d < rc; d++) cd[d] = ck_next(s) % 2 ? yd[ry - rc + d] : 1;
    } while (prod(ad, ra) > BUF_X || prod(bd, rb) > BUF_X || prod(yd, ry) > BUF_Y);
    fill(s, buf_a, prod(ad, ra), i & 1);
    fill(s, buf_b, prod(bd, rb), i & 1);
    fill(s, buf_c, rc <= ry ? prod(cd, rc) : 0, i & 1);
    tfw_tensor in[3] = {tens(buf_a, TPKG_DT_F32, ra, ad), tens(buf_b, TPKG_DT_F32, rb, bd),
                        tens(buf_c, TPKG_DT_F32, rc <= ry ? rc : 0, cd)};
    tfw_tensor out = tens(buf_y, TPKG_DT_F32, ry, yd);
    int32_t ints[2] = {(int32_t)ta, (int32_t)tb};
    float floats[2] = {ck_next(s) % 3 ? float_of(0x3f400000u + (ck_next(s) & 0xfffff)) : 1.0f,
                       ck_next(s) % 3 ? float_of(0xbfc00000u + (ck_next(s) & 0xfffff)) : 1.0f};
    tfw_call c = {TPKG_OP_MATMUL, rc <= ry ? 3u : 2u, 1, in, &out, ints, 2, floats, 2};
    run(ck, &ck->matmul, tfw_k_matmul, &c, prod(yd, ry) * 4);
  }
}

/* A conv shape: ints[11] and the dims; transpose picks w and y as ConvTranspose does. */
static void convs(nn_checksums *ck, uint32_t *s, int transpose) {
  for (int i = 0; i < 40; i++) {
    uint32_t xd[4], wd[4], yd[4], bd[1];
    int32_t v[11];
    for (;;) {
      uint32_t g = in_range(s, 1, 3), cg = in_range(s, 1, 3), mg = in_range(s, 1, 3);
      if (ck_next(s) % 4 == 0) g = in_range(s, 2, 5), cg = 1, mg = in_range(s, 1, 2); /* depthwise */
      int32_t kh = (int32_t)in_range(s, 1, 4), kw = (int32_t)in_range(s, 1, 4);
      int32_t sy = (int32_t)in_range(s, 1, 3), sx = (int32_t)in_range(s, 1, 3);
      int32_t dy = (int32_t)in_range(s, 1, 3), dx = (int32_t)in_range(s, 1, 3);
      int32_t pt = (int32_t)in_range(s, 0, 3), pl = (int32_t)in_range(s, 0, 3);
      int32_t pb = (int32_t)in_range(s, 0, 3), pr = (int32_t)in_range(s, 0, 3);
      int32_t H = (int32_t)in_range(s, 1, 8), W = (int32_t)in_range(s, 1, 8), oh, ow;
      if (transpose) {
        oh = sy * (H - 1) + dy * (kh - 1) + 1 - pt - pb + (int32_t)(ck_next(s) % (uint32_t)sy);
        ow = sx * (W - 1) + dx * (kw - 1) + 1 - pl - pr + (int32_t)(ck_next(s) % (uint32_t)sx);
        if (oh < 1 || ow < 1) continue;
      } else {
        if (H + pt + pb < dy * (kh - 1) + 1) H = dy * (kh - 1) + 1;
        if (W + pl + pr < dx * (kw - 1) + 1) W = dx * (kw - 1) + 1;
        oh = (H + pt + pb - dy * (kh - 1) - 1) / sy + 1;
        ow = (W + pl + pr - dx * (kw - 1) - 1) / sx + 1;
      }
      uint32_t N = in_range(s, 1, 2), C = g * cg, M = g * mg;
      int32_t p[11] = {(int32_t)g, kh, kw, sy, sx, pt, pl, pb, pr, dy, dx};
      for (int j = 0; j < 11; j++) v[j] = p[j];
      xd[0] = N, xd[1] = C, xd[2] = (uint32_t)H, xd[3] = (uint32_t)W;
      wd[0] = transpose ? C : M, wd[1] = transpose ? mg : cg, wd[2] = (uint32_t)kh, wd[3] = (uint32_t)kw;
      yd[0] = N, yd[1] = M, yd[2] = (uint32_t)oh, yd[3] = (uint32_t)ow, bd[0] = M;
      if (prod(xd, 4) <= BUF_X && prod(wd, 4) <= BUF_X && prod(yd, 4) <= BUF_Y) break;
    }
    fill(s, buf_a, prod(xd, 4), i & 1);
    fill(s, buf_b, prod(wd, 4), i & 1);
    fill(s, buf_c, bd[0], i & 1);
    tfw_tensor in[3] = {tens(buf_a, TPKG_DT_F32, 4, xd), tens(buf_b, TPKG_DT_F32, 4, wd),
                        tens(buf_c, TPKG_DT_F32, 1, bd)};
    tfw_tensor out = tens(buf_y, TPKG_DT_F32, 4, yd);
    tfw_call c = {transpose ? TPKG_OP_CONV_TRANSPOSE : TPKG_OP_CONV, ck_next(s) % 3 ? 3u : 2u, 1, in, &out, v, 11, 0, 0};
    if (transpose) run(ck, &ck->conv_transpose, tfw_k_conv_transpose, &c, prod(yd, 4) * 4);
    else run(ck, &ck->conv, tfw_k_conv, &c, prod(yd, 4) * 4);
  }
}

static void pools(nn_checksums *ck, uint32_t *s) {
  for (int i = 0; i < 80; i++) {
    uint32_t xd[4], yd[4], dt;
    int32_t v[12];
    float p;
    do {
      int32_t kind = (int32_t)in_range(s, 0, 2);
      dt = kind == 0 && ck_next(s) % 3 == 0 ? (ck_next(s) % 2 ? TPKG_DT_I8 : TPKG_DT_U8) : TPKG_DT_F32;
      p = ck_next(s) % 2 ? 1.0f : 2.0f;
#ifdef NN_CK_POWF /* tfw_math.c's tfw_powf: the same bits everywhere (a libm stand-in would not be) */
      if (kind == 2 && ck_next(s) % 2) p = ck_next(s) % 2 ? 3.0f : 1.5f;
#endif
      int32_t kh = (int32_t)in_range(s, 1, 4), kw = (int32_t)in_range(s, 1, 4);
      int32_t sy = (int32_t)in_range(s, 1, 3), sx = (int32_t)in_range(s, 1, 3);
      int32_t dy = (int32_t)in_range(s, 1, 2), dx = (int32_t)in_range(s, 1, 2);
      int32_t pt = (int32_t)in_range(s, 0, 2), pl = (int32_t)in_range(s, 0, 2);
      int32_t pb = (int32_t)in_range(s, 0, 2), pr = (int32_t)in_range(s, 0, 2);
      int32_t H = (int32_t)in_range(s, 1, 10), W = (int32_t)in_range(s, 1, 10);
      if (H + pt + pb < dy * (kh - 1) + 1) H = dy * (kh - 1) + 1;
      if (W + pl + pr < dx * (kw - 1) + 1) W = dx * (kw - 1) + 1;
      int32_t ceil_mode = (int32_t)(ck_next(s) % 2);
      int32_t oh = (H + pt + pb - dy * (kh - 1) - 1 + (ceil_mode ? sy - 1 : 0)) / sy + 1;
      int32_t ow = (W + pl + pr - dx * (kw - 1) - 1 + (ceil_mode ? sx - 1 : 0)) / sx + 1;
      int32_t q[12] = {kind, kh, kw, sy, sx, pt, pl, pb, pr, dy, dx, (int32_t)(ck_next(s) % 2)};
      for (int j = 0; j < 12; j++) v[j] = q[j];
      xd[0] = yd[0] = in_range(s, 1, 2), xd[1] = yd[1] = in_range(s, 1, 3);
      xd[2] = (uint32_t)H, xd[3] = (uint32_t)W, yd[2] = (uint32_t)oh, yd[3] = (uint32_t)ow;
    } while (prod(xd, 4) > BUF_X || prod(yd, 4) > BUF_Y);
    uint32_t sz = dt == TPKG_DT_F32 ? 4 : 1;
    fill(s, buf_a, prod(xd, 4), i & 1); /* i8/u8 read the same bits as bytes */
    tfw_tensor in = tens(buf_a, dt, 4, xd), out = tens(buf_y, dt, 4, yd);
    tfw_call c = {TPKG_OP_POOL, 1, 1, &in, &out, v, 12, &p, 1};
    run(ck, &ck->pool, tfw_k_pool, &c, prod(yd, 4) * sz);
  }
}

void nn_checksum_all(nn_checksums *c) {
  uint32_t s = 0x2545f491u;
  c->matmul = c->conv = c->conv_transpose = c->pool = 0;
  c->calls = 0;
  c->rc = 0;
  matmuls(c, &s);
  convs(c, &s, 0);
  convs(c, &s, 1);
  pools(c, &s);
}
