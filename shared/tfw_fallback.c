/* tfw_fallback: the fallback ops (see the header for the contract). Every
 * result is the same bits on every machine: integer fixed point where that is
 * cheaper than the control core's soft-float (exp, the quantise division,
 * the dequantise product), IEEE f32 +, -, *, / elsewhere; no double, no
 * libm. Build with -ffp-contract=off. */
#include "tfw_fallback.h"
#include "tfw_mem.h"

#include "tfw_ops.h"


#define FB_INF_BITS 0x7f800000u
/* The one NaN this module returns: x86 keeps a NaN operand's payload (and
 * makes inf - inf negative), RISC-V soft-float returns the canonical NaN, so
 * every NaN result is replaced by this one. */
#define FB_NAN_BITS 0x7fc00000u

static float canon_nan(float v) { return v != v ? tfw_bits_f32(FB_NAN_BITS) : v; }

/* ---- layouts ------------------------------------------------------------ */

static uint32_t dtype_bytes(uint32_t dtype) { return tpkg_dtype_bytes(dtype); }

static int layout_is_4d(uint32_t layout, uint32_t rank, uint32_t dim) {
  if (rank != 4) return 0;
  if (layout == TPKG_LAYOUT_NHWC) return 1;
  return layout == TPKG_LAYOUT_BLOCKED && dim != 0;
}

uint64_t tfw_layout_offset(uint32_t layout, uint32_t rank, const uint32_t *dims, uint32_t dim, uint64_t flat) {
  if (!dims || !layout_is_4d(layout, rank, dim)) return flat;
  uint64_t C = dims[1], H = dims[2], W = dims[3];
  if (!C || !H || !W) return flat;
  uint64_t w = flat % W, h = flat / W % H, c = flat / W / H % C, n = flat / W / H / C;
  if (layout == TPKG_LAYOUT_NHWC) return ((n * H + h) * W + w) * C + c;
  uint64_t cb = (C + dim - 1) / dim;
  return (((n * cb + c / dim) * H + h) * W + w) * dim + c % dim;
}

#define FB_SLOTS_CAP (1ull << 62)

/* a * b saturated at FB_SLOTS_CAP, for a <= FB_SLOTS_CAP and b < 2^32,
 * without a 64-bit division (a libgcc loop on RV32): a is split in 32-bit
 * halves, so every product is 32 x 32 -> 64 bits. */
static uint64_t mul_sat(uint64_t a, uint32_t b) {
  uint64_t hi = (a >> 32) * b, lo = (a & 0xffffffffu) * b;
  if (hi >= (FB_SLOTS_CAP >> 32) || lo > FB_SLOTS_CAP) return FB_SLOTS_CAP;
  uint64_t p = (hi << 32) + lo; /* < 2^63: no wrap */
  return p > FB_SLOTS_CAP ? FB_SLOTS_CAP : p;
}

uint64_t tfw_layout_slots(uint32_t layout, uint32_t rank, const uint32_t *dims, uint32_t dim) {
  uint64_t n = 1;
  if (!dims) return rank ? 0 : 1;
  for (uint32_t i = 0; i < rank && i < TPKG_FB_MAX_RANK; i++) {
    uint64_t d = dims[i];
    /* BLOCKED pads the channel dim up to a multiple of DIM */
    if (i == 1 && layout == TPKG_LAYOUT_BLOCKED && layout_is_4d(layout, rank, dim)) d = (d + dim - 1) / dim * dim;
    n = d > 0xffffffffu ? (n ? FB_SLOTS_CAP : 0) : mul_sat(n, (uint32_t)d);
  }
  return n;
}

/* ---- scalar ops ----------------------------------------------------------- */

/* exp: tfw_expf (tfw_math.c). */

/* Round half to even of a finite f32 (given as bits) to an integer;
 * magnitudes of 2^32 and more come back as +-2^32 (they saturate anyway). */
static int64_t round_half_even(uint32_t b) {
  uint32_t ex = (b >> 23) & 0xffu, m = (b & 0x7fffffu) | 0x800000u;
  int64_t v;
  if (ex >= 159) v = 1ll << 32;                  /* |q| >= 2^32: saturates */
  else if (ex >= 150) v = (int64_t)m << (ex - 150); /* an integer already */
  else if (ex < 125) v = 0;                       /* |q| < 0.25 (and subnormals) */
  else {                                          /* 32-bit arithmetic: the core's own width */
    uint32_t sh = 150 - ex, q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    v = q + (rem > half || (rem == half && (q & 1)));
  }
  return b >> 31 ? -v : v;
}

/* x / scale for quantisation, without libgcc's soft-float division (~150
 * instructions on the RV32 core): for normal operands the quotient's
 * mantissa comes from integer division by the scale's mantissa, through a
 * reciprocal computed once per scale and one exact correction step, and is
 * rounded to nearest even exactly as IEEE division rounds. Other operands
 * (subnormal, inf, NaN) take the float division: same bits, rare. */
typedef struct {
  float scale;
  uint32_t ms;    /* scale's 24-bit mantissa; 0: use the float division */
  uint32_t recip; /* floor(2^55 / ms) in (2^31, 2^32); 0 when ms = 2^23 (a power of two) */
  int32_t es;     /* scale's biased exponent */
  uint32_t sign;  /* scale's sign bit */
} fb_divisor;

static void divisor_init(fb_divisor *d, float scale) {
  uint32_t b = tfw_f32_bits(scale), e = (b >> 23) & 0xffu;
  d->scale = scale;
  d->ms = 0;
  if (e == 0 || e == 255) return;
  d->ms = (b & 0x7fffffu) | 0x800000u;
  d->es = (int32_t)e;
  d->sign = b & 0x80000000u;
  d->recip = tfw_quantize_recip(scale);
}

uint32_t tfw_quantize_recip(float scale) {
  uint32_t ms = (tfw_f32_bits(scale) & 0x7fffffu) | 0x800000u;
  return ms == 0x800000u ? 0 : (uint32_t)((1ull << 55) / ms);
}

/* The bits of x / scale correctly rounded, except that quotients below 0.25
 * come back as +-0 and those of 2^32 or more as +-2^33: all round_half_even
 * needs to give the same integer as the exact f32 quotient would. */
static uint32_t quotient_bits(const fb_divisor *d, uint32_t bx) {
  uint32_t ex = (bx >> 23) & 0xffu, sign = (bx & 0x80000000u) ^ d->sign;
  if (!d->ms || ex == 255 || (ex == 0 && (bx & 0x7fffffu))) return tfw_f32_bits(tfw_bits_f32(bx) / d->scale);
  if (ex == 0) return sign; /* +-0 / scale */
  /* |x| / |s| = (mx / ms) * 2^(ex - es); with mx < ms one more quotient bit */
  uint32_t mx = (bx & 0x7fffffu) | 0x800000u, sh = 24;
  int32_t E = (int32_t)ex - d->es + 127; /* biased exponent of the quotient */
  if (mx < d->ms) sh = 25, E--;
  if (E <= 124) return sign;                 /* below 0.25 even rounded up */
  if (E >= 159) return sign | (160u << 23);  /* 2^32 or more */
  /* q2 = floor(mx * 2^sh / ms): 24 mantissa bits and a guard bit; rem for
   * the sticky bit. rem < 2 ms < 2^25, so its low 32 bits are all of it. */
  uint32_t q2, rem;
  if (!d->recip) {
    q2 = mx << (sh - 23), rem = 0; /* a power-of-two scale divides exactly */
  } else {
    uint64_t p = (uint64_t)mx * d->recip; /* floor(p / 2^(55 - sh)) is q2 or one less */
    q2 = sh == 24 ? (uint32_t)(p >> 31) : (uint32_t)(p >> 30);
    rem = (mx << sh) - q2 * d->ms; /* mod 2^32 */
    if (rem >= d->ms) q2++, rem -= d->ms;
  }
  uint32_t q = q2 >> 1;
  /* to nearest, ties to even (a quotient of two 24-bit mantissas is never
   * exactly halfway, so the tie clause is for the reader, not for the data) */
  if ((q2 & 1) && (rem || (q & 1))) q++;
  return sign | (((uint32_t)(E - 1) << 23) + q); /* a carry to 2^24 moves the exponent */
}

/* The code of the f32 with bits bx (taken as bits: a float argument costs
 * a call to tfw_f32_bits on the core). */
static int32_t quantize_bits(const fb_divisor *d, uint32_t bx, int32_t zp, int32_t lo, int32_t hi) {
  uint32_t qb = quotient_bits(d, bx);
  /* NaN gives the zero point; inf and |q| >= 2^32 saturate whatever the
   * int32 zero point (round_half_even pins them at +-2^32) */
  int64_t v = (qb & 0x7fffffffu) > FB_INF_BITS ? zp : round_half_even(qb) + zp;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return (int32_t)v;
}

int32_t tfw_quantize(float x, float scale, int32_t zp, int32_t lo, int32_t hi) {
  fb_divisor d;
  divisor_init(&d, scale);
  return quantize_bits(&d, tfw_f32_bits(x), zp, lo, hi);
}

/* Bit index of the highest set bit of v > 0, without libgcc's __clzsi2. */
static uint32_t msb32(uint32_t v) {
  uint32_t n = 0;
  if (v >> 16) v >>= 16, n += 16;
  if (v >> 8) v >>= 8, n += 8;
  if (v >> 4) v >>= 4, n += 4;
  if (v >> 2) v >>= 2, n += 2;
  return n + (v >> 1);
}

/* (float)d * scale as IEEE computes it, in integer arithmetic: for |d| < 2^24
 * the conversion is exact, so the result is the 48-bit product of |d| and
 * the scale's mantissa rounded once to nearest even. Other cases (d that
 * needs rounding itself, scale subnormal/inf/NaN, a subnormal or infinite
 * result) take the float path: same bits, rare. */
static float scale_int(int64_t d, float scale) {
  uint32_t sb = tfw_f32_bits(scale), es = (sb >> 23) & 0xffu;
  uint32_t sign = (sb & 0x80000000u) ^ (d < 0 ? 0x80000000u : 0u);
  uint32_t ad = (uint32_t)(d < 0 ? -d : d);
  if (es == 0 || es == 255 || d >= (1 << 24) || d <= -(1 << 24)) return canon_nan((float)d * scale);
  if (!ad) return tfw_bits_f32(sign); /* +-0 */
  uint64_t P = (uint64_t)ad * ((sb & 0x7fffffu) | 0x800000u);
  uint32_t t = msb32(ad) + 23 + (uint32_t)((P >> (msb32(ad) + 24)) != 0); /* the product's top bit */
  int32_t E = (int32_t)es + (int32_t)t - 23; /* biased exponent: value = (P / 2^(t-23)) * 2^(E-150) */
  if (E <= 0 || E >= 255) return canon_nan((float)d * scale);
  uint32_t mant;
  if (t > 23) {
    uint32_t sh = t - 23;
    uint64_t rem = P & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    mant = (uint32_t)(P >> sh);
    if (rem > half || (rem == half && (mant & 1))) mant++;
  } else {
    mant = (uint32_t)P << (23 - t);
  }
  return tfw_bits_f32(sign | (((uint32_t)(E - 1) << 23) + mant)); /* a carry may reach +-inf: right */
}

float tfw_dequantize(int32_t q, float scale, int32_t zp) { return scale_int((int64_t)q - zp, scale); }

/* ---- softmax: the steps both drivers below take --------------------------- */

static float max_step(float m, float v) { return v > m ? v : m; } /* skips NaN */

void tfw_softmax_f32(const float *x, float *y, uint64_t len, uint64_t stride) {
  if (!x || !y || !len) return;
  float m = tfw_bits_f32(0xff800000u); /* -inf */
  for (uint64_t k = 0; k < len; k++) m = max_step(m, x[k * stride]);
  tfw_ksum s = {0.0f, 0.0f};
  for (uint64_t k = 0; k < len; k++) {
    float e = tfw_expf(x[k * stride] - m);
    y[k * stride] = e;
    tfw_ksum_add(&s, e);
  }
  for (uint64_t k = 0; k < len; k++) y[k * stride] = canon_nan(y[k * stride] / s.sum);
}

/* ---- window access ---------------------------------------------------------- */

/* n bytes of value b from p, whole words where aligned. */
static void fill_bytes(uint8_t *p, uint32_t n, uint8_t b) {
  uint32_t i = 0;
  for (; i < n && !tfw_aligned4(p + i); i++) p[i] = b;
  for (; i + 4 <= n; i += 4) tfw_wr32(p + i, b * 0x01010101u);
  for (; i < n; i++) p[i] = b;
}
static void wr_f32(uint8_t *p, float v) { tfw_wr32(p, tfw_f32_bits(v)); }

/* One side (input or output) of a record, checked: after fb_side_init
 * every slot offset * esize fits in 32 bits and inside the window, so elems
 * and bytes fit 32 bits too. Only rank-4 layouts (NHWC, BLOCKED) are walked
 * by their dims; a PLAIN side is walked by its element count alone. */
typedef struct {
  uint8_t *base;      /* window + offset */
  uint8_t layout, rank, esize, dtype;
  uint32_t dim;       /* the NPU's DIM (BLOCKED) */
  uint32_t dims[4];   /* N, C, H, W of a rank-4 layout (a PLAIN side: its first four dims) */
  uint32_t elems;     /* logical elements */
  uint32_t bytes;     /* slots * esize */
} fb_side;

static int fb_side_init(fb_side *s, uint8_t *window, uint32_t window_bytes, uint32_t dim, uint32_t dtype,
                        uint32_t layout, uint32_t rank, const uint32_t *dims, uint32_t offset, uint32_t size) {
  s->dtype = (uint8_t)dtype;
  s->esize = (uint8_t)dtype_bytes(dtype);
  s->layout = (uint8_t)layout;
  s->rank = (uint8_t)rank;
  s->dim = dim;
  for (uint32_t i = 0; i < 4; i++) s->dims[i] = i < rank ? dims[i] : 0;
  if (rank > TPKG_FB_MAX_RANK) return TFW_FB_E_SHAPE;
  if (layout > TPKG_LAYOUT_BLOCKED || (layout != TPKG_LAYOUT_PLAIN && rank != 4)) return TFW_FB_E_LAYOUT;
  if (layout == TPKG_LAYOUT_BLOCKED && dim == 0) return TFW_FB_E_ARG;
  uint64_t elems = tfw_layout_slots(TPKG_LAYOUT_PLAIN, rank, dims, dim);
  uint64_t bytes = mul_sat(tfw_layout_slots(layout, rank, dims, dim), s->esize ? s->esize : 1);
  if (bytes > size || (uint64_t)offset + size > window_bytes) return TFW_FB_E_WINDOW;
  s->elems = (uint32_t)elems; /* elems <= slots <= bytes <= size */
  s->bytes = (uint32_t)bytes;
  s->base = window + offset;
  return 0;
}

/* A cursor walks a tensor's logical elements in row-major order and gives
 * each one's slot: the same numbers as tfw_layout_offset (the suite checks),
 * without a division per element (the core runs this on large inputs). All
 * arithmetic fits 32 bits once fb_side_init accepted the tensor. */
typedef struct {
  uint32_t layout, dim, C, H, W, CB; /* rank-4 layouts: dims 1..3, channel blocks */
  uint32_t flat, n, c, h, w;
  uint32_t cb, lane;                 /* c / dim and c % dim, kept without dividing */
} fb_cursor;

static void cursor_init(fb_cursor *k, const fb_side *s) {
  k->layout = s->layout;
  k->dim = s->dim;
  k->flat = k->n = k->c = k->h = k->w = k->cb = k->lane = 0;
  k->C = k->H = k->W = k->CB = 1;
  if (s->layout != TPKG_LAYOUT_PLAIN) {
    k->C = s->dims[1];
    k->H = s->dims[2];
    k->W = s->dims[3];
    k->CB = (k->C + s->dim - 1) / (s->dim ? s->dim : 1);
  }
}

static uint32_t cursor_slot(const fb_cursor *k) {
  if (k->layout == TPKG_LAYOUT_NHWC) return ((k->n * k->H + k->h) * k->W + k->w) * k->C + k->c;
  if (k->layout == TPKG_LAYOUT_BLOCKED)
    return (((k->n * k->CB + k->cb) * k->H + k->h) * k->W + k->w) * k->dim + k->lane;
  return k->flat;
}

static void cursor_next(fb_cursor *k) {
  k->flat++;
  if (k->layout == TPKG_LAYOUT_PLAIN || ++k->w < k->W) return;
  k->w = 0;
  if (++k->h < k->H) return;
  k->h = 0;
  if (++k->lane == k->dim) k->lane = 0, k->cb++;
  if (++k->c < k->C) return;
  k->c = k->cb = k->lane = 0;
  k->n++;
}

/* The padding lanes of a BLOCKED output: the zero point for 8-bit data, 0
 * otherwise, so a padded tensor has the same bytes on every engine. When the
 * output is not also the input, the fill starts at the word boundary below
 * the first padding lane (the real lanes it covers are written after), so a
 * pixel's padding is a few word stores rather than a byte store per lane. */
static void fill_padding(const fb_side *s, int32_t zp, int in_place) {
  if (s->layout != TPKG_LAYOUT_BLOCKED || s->dims[1] % s->dim == 0) return;
  uint32_t N = s->dims[0], C = s->dims[1], H = s->dims[2], W = s->dims[3], dim = s->dim;
  uint32_t CB = (C + dim - 1) / dim, from = C % dim * s->esize, to = dim * s->esize;
  uint8_t value = s->esize == 1 ? (uint8_t)zp : 0;
  for (uint32_t n = 0; n < N; n++)
    for (uint32_t h = 0; h < H; h++)
      for (uint32_t w = 0; w < W; w++) {
        uint8_t *block = s->base + (((n * CB + CB - 1) * H + h) * W + w) * to; /* the pixel's last block */
        uint32_t back = (uint32_t)((uintptr_t)(block + from) & 3u); /* to the word boundary below */
        uint32_t start = in_place || back > from ? from : from - back;
        fill_bytes(block + start, to - start, value);
      }
}

/* ---- the ops ------------------------------------------------------------------ */

static int scale_ok(float s) { return s > 0.0f && s < tfw_bits_f32(FB_INF_BITS); } /* false for NaN */

static int32_t read_int(const uint8_t *p, uint32_t dtype) {
  if (dtype == TPKG_DT_U8) return p[0];
  if (dtype == TPKG_DT_I8) return (int8_t)p[0];
  return (int32_t)tfw_rd32(p);
}

/* ---- the converter (tfw_set_cvt) ---------------------------------------------- */

static tfw_cvt_fn cvt_fn;

void tfw_set_cvt(tfw_cvt_fn fn) { cvt_fn = fn; }

/* Offers a job to the converter: 1 when it did it. */
static int cvt_offer(const tfw_cvt_job *job) { return cvt_fn && cvt_fn(job) == 0; }

/* Two contiguous tensors of n elements (src_es and dst_es bytes each) as
 * converter jobs: rows of 2^15 elements, then the rest. 1 when the
 * converter did them. */
static int cvt_contiguous(tfw_cvt_job *job, uint64_t n, uint32_t src_es, uint32_t dst_es) {
  const uint32_t row = 1u << 15;
  uint64_t rows = n / row, rest = n % row;
  if (rows >> 24) return 0;
  job->inner = job->inner_real = row, job->outer = (uint32_t)rows;
  job->src_inner = (int32_t)src_es, job->dst_inner = (int32_t)dst_es;
  job->src_outer = (int32_t)(row * src_es), job->dst_outer = (int32_t)(row * dst_es);
  if (rows && !cvt_offer(job)) return 0;
  job->src += rows * row * src_es, job->dst += rows * row * dst_es;
  job->inner = job->inner_real = (uint32_t)rest, job->outer = 1;
  return !rest || cvt_offer(job);
}

/* A PLAIN f32 tensor quantised into its BLOCKED 8-bit twin: for each
 * pixel of each channel block, the block's lanes (its channels, H*W floats
 * apart; the padding lanes the zero point) are put together a word at a
 * time and stored once. The element by element walk below took about 200
 * instructions and a byte store per element (the cursor's slot arithmetic
 * alone 110), and fill_padding a second pass over every pixel. Each block
 * is offered to the converter first, as one job. */
static void quantize_to_blocked(const fb_divisor *dv, int32_t zp, int32_t lo, int32_t hi, const fb_side *in,
                                const fb_side *out) {
  uint32_t N = out->dims[0], C = out->dims[1], HW = out->dims[2] * out->dims[3], dim = out->dim;
  uint32_t CB = (C + dim - 1) / dim, plane = HW * 4u;
  for (uint32_t n = 0; n < N; n++)
    for (uint32_t cb = 0; cb < CB; cb++) {
      uint32_t real = C - cb * dim < dim ? C - cb * dim : dim;
      const uint8_t *src = in->base + (n * C + cb * dim) * plane;
      uint8_t *dst = out->base + (n * CB + cb) * HW * dim;
      /* the block in one job: i the lanes (planes apart), j the pixels */
      tfw_cvt_job job = {TFW_CVT_QUANTISE, lo == 0, src, dst, dim, real, HW, (int32_t)plane, 4, 1, (int32_t)dim, dv->scale, zp};
      if (cvt_offer(&job)) continue;
      for (uint32_t p = 0; p < HW; p++, src += 4, dst += dim)
        for (uint32_t l = 0; l < dim; l += 4) {
          uint32_t word = 0, lanes = dim - l < 4 ? dim - l : 4;
          for (uint32_t b = 0; b < lanes; b++) {
            int32_t v = l + b < real ? quantize_bits(dv, tfw_rd32(src + (l + b) * plane), zp, lo, hi) : zp;
            word |= (uint32_t)(uint8_t)v << (8 * b);
          }
          if (lanes == 4) tfw_wr32(dst + l, word);
          else
            for (uint32_t b = 0; b < lanes; b++) dst[l + b] = (uint8_t)(word >> (8 * b));
        }
    }
}

/* 1 when run_quantize writes every byte of out itself, padding included:
 * PLAIN into BLOCKED (a graph input entering the NPU; the plain side,
 * whatever its rank, holds the same elements in NCHW order: the caller
 * checked the counts). */
static int quantize_writes_padding(const fb_side *in, const fb_side *out) {
  return out->esize == 1 && in->layout == TPKG_LAYOUT_PLAIN && out->layout == TPKG_LAYOUT_BLOCKED;
}

/* dv: the output's scale (divisor_init'd once, when the record was prepared). */
static void run_quantize(const fb_divisor *dv, int32_t zp, const fb_side *in, const fb_side *out) {
  int32_t lo = out->dtype == TPKG_DT_U8 ? 0 : -128, hi = out->dtype == TPKG_DT_U8 ? 255 : 127;
  if (quantize_writes_padding(in, out)) {
    quantize_to_blocked(dv, zp, lo, hi, in, out);
    return;
  }
  tfw_cvt_job job = {TFW_CVT_QUANTISE, lo == 0, in->base, out->base, 0, 0, 0, 0, 0, 0, 0, dv->scale, zp};
  if (cvt_fn && in->layout == TPKG_LAYOUT_PLAIN && out->layout == TPKG_LAYOUT_PLAIN && out->esize == 1 &&
      cvt_contiguous(&job, in->elems, 4, 1))
    return;
  fb_cursor ci, co;
  cursor_init(&ci, in);
  cursor_init(&co, out);
  for (uint32_t i = 0; i < in->elems; i++, cursor_next(&ci), cursor_next(&co)) {
    uint32_t x = tfw_rd32(in->base + cursor_slot(&ci) * 4u);
    out->base[cursor_slot(&co)] = (uint8_t)quantize_bits(dv, x, zp, lo, hi);
  }
}

/* DequantizeLinear as converter jobs, where the layouts allow: PLAIN into
 * PLAIN (contiguous: inner rows of up to 2^15 elements, then the rest), and
 * a rank-4 BLOCKED tensor into PLAIN (per channel block, i the lanes, j the
 * pixels). 1 when the converter did it all. */
static int dequantize_by_cvt(float scale, int32_t zp, const fb_side *in, const fb_side *out) {
  tfw_cvt_job job = {TFW_CVT_DEQUANTISE, in->dtype == TPKG_DT_U8, in->base, out->base, 0, 0, 0, 1, 0, 4, 0, scale, zp};
  if (!cvt_fn || in->esize != 1 || out->layout != TPKG_LAYOUT_PLAIN) return 0;
  if (in->layout == TPKG_LAYOUT_PLAIN) return cvt_contiguous(&job, in->elems, 1, 4);
  if (in->layout != TPKG_LAYOUT_BLOCKED) return 0;
  uint32_t N = in->dims[0], C = in->dims[1], HW = in->dims[2] * in->dims[3], dim = in->dim, CB = (C + dim - 1) / dim;
  for (uint32_t n = 0; n < N; n++)
    for (uint32_t cb = 0; cb < CB; cb++) {
      uint32_t real = C - cb * dim < dim ? C - cb * dim : dim;
      job.src = in->base + (n * CB + cb) * HW * dim, job.dst = out->base + (n * C + cb * dim) * HW * 4u;
      job.inner = real, job.outer = HW, job.src_inner = 1, job.src_outer = (int32_t)dim;
      job.dst_inner = (int32_t)(HW * 4u), job.dst_outer = 4;
      /* a block the converter refuses after others were done: the loop
       * below redoes them all, with the same results */
      if (!cvt_offer(&job)) return 0;
    }
  return 1;
}

static void run_dequantize(float scale, int32_t zp, const fb_side *in, const fb_side *out) {
  if (dequantize_by_cvt(scale, zp, in, out)) return;
  fb_cursor ci, co;
  cursor_init(&ci, in);
  cursor_init(&co, out);
  for (uint32_t i = 0; i < in->elems; i++, cursor_next(&ci), cursor_next(&co)) {
    int32_t v = read_int(in->base + cursor_slot(&ci) * in->esize, in->dtype);
    wr_f32(out->base + cursor_slot(&co) * 4u, tfw_dequantize(v, scale, zp));
  }
}

/* One channel's hw bytes between a BLOCKED tensor (at b, dim bytes apart)
 * and a PLAIN one (at p, contiguous), either way.  On the SoC each access
 * is a trip to DRAM: the plain side moves a word per four bytes from the
 * first aligned one. */
static void relayout_channel(uint8_t *b, uint8_t *p, uint32_t hw, uint32_t dim, int to_plain) {
  uint32_t i = 0, words = 0;
#ifdef TFW_WORD_ACCESS
  while (i < hw && !tfw_aligned4(p + i)) i++;
  words = (hw - i) / 4;
#endif
  uint32_t head = i, tail = head + 4 * words;
  if (to_plain) {
    for (uint32_t k = 0; k < head; k++) p[k] = b[k * dim];
    for (uint32_t k = head; k < tail; k += 4) {
      const uint8_t *q = b + k * dim;
      tfw_wr32(p + k, (uint32_t)q[0] | (uint32_t)q[dim] << 8 | (uint32_t)q[2 * dim] << 16 | (uint32_t)q[3 * dim] << 24);
    }
    for (uint32_t k = tail; k < hw; k++) p[k] = b[k * dim];
  } else {
    for (uint32_t k = 0; k < head; k++) b[k * dim] = p[k];
    for (uint32_t k = head; k < tail; k += 4) {
      uint32_t v = tfw_rd32(p + k);
      uint8_t *q = b + k * dim;
      q[0] = (uint8_t)v, q[dim] = (uint8_t)(v >> 8), q[2 * dim] = (uint8_t)(v >> 16), q[3 * dim] = (uint8_t)(v >> 24);
    }
    for (uint32_t k = tail; k < hw; k++) b[k * dim] = p[k];
  }
}

/* An 8-bit RELAYOUT between BLOCKED and PLAIN as converter copies, one job
 * per channel block, padding lanes of a BLOCKED output included (zp's low
 * byte). Into BLOCKED, i the lanes and j the pixels (a pixel's lanes are
 * one write); into PLAIN, i the pixels and j the lanes (a plane's bytes
 * merge into whole writes; lanes and pixels swap roles only past the
 * unit's 65535 inner elements). 1 when the converter did it all. */
static int relayout_by_cvt(const fb_side *in, const fb_side *out, int32_t zp) {
  int b2p = in->layout == TPKG_LAYOUT_BLOCKED && out->layout == TPKG_LAYOUT_PLAIN;
  int p2b = in->layout == TPKG_LAYOUT_PLAIN && out->layout == TPKG_LAYOUT_BLOCKED;
  if (!cvt_fn || in->esize != 1 || !(b2p || p2b)) return 0;
  const fb_side *blk = b2p ? in : out;
  uint8_t *plain = b2p ? out->base : in->base;
  uint32_t N = blk->dims[0], C = blk->dims[1], hw = blk->dims[2] * blk->dims[3], dim = blk->dim;
  uint32_t CB = (C + dim - 1) / dim;
  tfw_cvt_job job = {TFW_CVT_COPY8, 0, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 1.0f, zp};
  for (uint32_t n = 0; n < N; n++)
    for (uint32_t cb = 0; cb < CB; cb++) {
      uint32_t real = C - cb * dim < dim ? C - cb * dim : dim;
      uint8_t *b = blk->base + (n * CB + cb) * hw * dim, *p = plain + (n * C + cb * dim) * hw;
      job.src = b2p ? b : p, job.dst = b2p ? p : b;
      if (b2p && hw <= 0xffffu) { /* i the pixels, j the lanes */
        job.inner = job.inner_real = hw, job.outer = real;
        job.src_inner = (int32_t)dim, job.src_outer = 1, job.dst_inner = 1, job.dst_outer = (int32_t)hw;
      } else {                    /* i the lanes, j the pixels */
        job.inner = b2p ? real : dim, job.inner_real = real, job.outer = hw;
        job.src_inner = (int32_t)(b2p ? 1 : hw), job.src_outer = (int32_t)(b2p ? dim : 1);
        job.dst_inner = (int32_t)(b2p ? hw : 1), job.dst_outer = (int32_t)(b2p ? 1 : dim);
      }
      if (!cvt_offer(&job)) return 0;
    }
  return 1;
}

/* RELAYOUT copies each element to its slot.  Bytes between BLOCKED and
 * PLAIN (the records beside every NPU kernel) go channel by channel with
 * strided pointers; any other pair walks both cursors. */
static void run_relayout(const fb_side *in, const fb_side *out) {
  int b2p = in->layout == TPKG_LAYOUT_BLOCKED && out->layout == TPKG_LAYOUT_PLAIN;
  int p2b = in->layout == TPKG_LAYOUT_PLAIN && out->layout == TPKG_LAYOUT_BLOCKED;
  if (in->esize == 1 && (b2p || p2b)) {
    const fb_side *blk = b2p ? in : out;
    uint8_t *plain = b2p ? out->base : in->base;
    uint32_t N = blk->dims[0], C = blk->dims[1], hw = blk->dims[2] * blk->dims[3], dim = blk->dim;
    uint32_t CB = (C + dim - 1) / dim;
    for (uint32_t n = 0; n < N; n++)
      for (uint32_t cb = 0, c = 0; cb < CB; cb++)
        for (uint32_t lane = 0; lane < dim && c < C; lane++, c++)
          relayout_channel(blk->base + (n * CB + cb) * hw * dim + lane, plain + (n * C + c) * hw, hw, dim, b2p);
    return;
  }
  fb_cursor ci, co;
  cursor_init(&ci, in);
  cursor_init(&co, out);
  for (uint32_t i = 0; i < in->elems; i++, cursor_next(&ci), cursor_next(&co)) {
    const uint8_t *src = in->base + cursor_slot(&ci) * in->esize;
    uint8_t *dst = out->base + cursor_slot(&co) * out->esize;
    for (uint32_t b = 0; b < in->esize; b++) dst[b] = src[b];
  }
}

/* Whether two byte ranges overlap (an empty one overlaps nothing). */
static int spans_overlap(const uint8_t *a, uint32_t na, const uint8_t *b, uint32_t nb) {
  return na && nb && a < b + nb && b < a + na;
}

/* ---- records prepared once, run many times ----------------------------------- */

/* A prepared record (tfw_fallback_prepare): this header, then the op's body
 * (the structs below). Pointers into the window, no pointer into the
 * record: the package is not read again. */
typedef struct {
  uint32_t op;                                 /* TPKG_OP_* */
  uint8_t n_in, n_out, n_ints, n_floats;       /* the record's counts (within the format's limits) */
  tfw_op_fn kernel;                            /* a plain op's kernel (tfw_op_check); NULL: a layout op */
} fb_prep_head;

/* QUANTIZE, DEQUANTIZE, RELAYOUT: both sides, checked, and the scalars. */
typedef struct {
  fb_prep_head h;
  fb_side in, out;
  fb_divisor dv;   /* QUANTIZE: the output's scale, divisor_init'd */
  float scale;     /* QUANTIZE: the output's scale and zero point; DEQUANTIZE: the input's */
  int32_t zp;
  int32_t pad_zp;  /* the output's zero point: a BLOCKED 8-bit output's padding lanes */
} fb_prep_layout;

/* Every other op: the tfw_tensor views, then n_ints int32 and n_floats f32
 * parameters. */
typedef struct {
  fb_prep_head h;
  tfw_tensor t[];  /* n_in inputs, then n_out outputs */
} fb_prep_plain;

static int is_layout_op(uint32_t op) {
  return op == TPKG_OP_QUANTIZE || op == TPKG_OP_DEQUANTIZE || op == TPKG_OP_RELAYOUT;
}

static uint32_t round8(uint32_t n) { return (n + 7u) & ~7u; }

/* The largest prepared record: a plain op with every operand and parameter
 * the format allows (tfw_fallback_run keeps one on its stack). */
#define FB_PREP_MAX                                                                                    \
  ((sizeof(fb_prep_plain) + TPKG_FB_MAX_OPERANDS * sizeof(tfw_tensor) +                               \
    4u * (TPKG_FB_MAX_INTS + TPKG_FB_MAX_FLOATS) + 7u) & ~(size_t)7u)
_Static_assert(sizeof(fb_prep_layout) <= FB_PREP_MAX, "a layout op's prepared record fits the largest");

int tfw_fb_block_ok(const tpkg_operand *o, uint32_t dim) {
  if (o->layout != TPKG_LAYOUT_BLOCKED) return 1;
  return o->block == dim || (o->block < dim && o->block != 0 && o->rank == 4 && o->dims[1] <= o->block);
}

/* QUANTIZE, DEQUANTIZE, RELAYOUT: one input, one output, any layout pair;
 * the checks in order, then p filled. */
static int prepare_layout(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, uint32_t dim,
                          fb_prep_layout *p) {
  tpkg_operand oi, oo;
  tpkg_fallback_operand(f, 0, &oi);
  tpkg_fallback_operand(f, 1, &oo);
  /* 1. dtypes the op takes */
  uint32_t it = oi.dtype, ot = oo.dtype;
  int dt_ok = 0;
  switch (f->op) {
  case TPKG_OP_QUANTIZE: dt_ok = it == TPKG_DT_F32 && (ot == TPKG_DT_U8 || ot == TPKG_DT_I8); break;
  case TPKG_OP_DEQUANTIZE:
    dt_ok = (it == TPKG_DT_U8 || it == TPKG_DT_I8 || it == TPKG_DT_I32) && ot == TPKG_DT_F32;
    break;
  case TPKG_OP_RELAYOUT: dt_ok = it == ot && dtype_bytes(it) != 0; break;
  }
  if (!dt_ok) return TFW_FB_E_DTYPE;
  /* 2. shapes, layouts and bounds of both sides; a blocked side is blocked
   * by this NPU's DIM, or is one smaller block (a conv's packed input) */
  if (!tfw_fb_block_ok(&oi, dim) || !tfw_fb_block_ok(&oo, dim)) return TFW_FB_E_LAYOUT;
  fb_side *in = &p->in, *out = &p->out;
  int rc = fb_side_init(in, window, window_bytes, tpkg_block_or(oi.block, dim), it, oi.layout, oi.rank, oi.dims,
                        oi.offset, oi.size);
  if (!rc)
    rc = fb_side_init(out, window, window_bytes, tpkg_block_or(oo.block, dim), ot, oo.layout, oo.rank, oo.dims,
                      oo.offset, oo.size);
  if (rc) return rc;
  if (in->elems != out->elems) return TFW_FB_E_SHAPE;
  if (spans_overlap(in->base, in->bytes, out->base, out->bytes)) return TFW_FB_E_OVERLAP;
  /* 3. op parameters */
  const tpkg_operand *q = f->op == TPKG_OP_DEQUANTIZE ? &oi : &oo;
  if (f->op != TPKG_OP_RELAYOUT && !scale_ok(q->scale)) return TFW_FB_E_PARAM;
  p->h = (fb_prep_head){f->op, 1, 1, 0, 0, NULL};
  p->scale = q->scale, p->zp = q->zp, p->pad_zp = oo.zp;
  if (f->op == TPKG_OP_QUANTIZE) divisor_init(&p->dv, q->scale);
  return 0;
}

/* Every other op: plain operands become tfw_tensor views, the parameters
 * are copied out of the record (which needs no alignment), tfw_op_check
 * finds the kernel. The counts are within the format's limits. */
static int prepare_plain(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, fb_prep_plain *p) {
  uint32_t n = f->n_in + f->n_out, extent[TPKG_FB_MAX_OPERANDS]; /* each operand's bytes */
  tfw_tensor *t = p->t;
  for (uint32_t i = 0; i < n; i++) {
    tpkg_operand o;
    tpkg_fallback_operand(f, i, &o);
    fb_side side;
    if (o.layout != TPKG_LAYOUT_PLAIN) return TFW_FB_E_LAYOUT;
    if (!dtype_bytes(o.dtype)) return TFW_FB_E_DTYPE;
    int rc = fb_side_init(&side, window, window_bytes, 0, o.dtype, o.layout, o.rank, o.dims, o.offset, o.size);
    if (rc) return rc;
    for (uint32_t k = 0; k < o.rank; k++) /* as tpkg_check: no empty tensors reach a kernel */
      if (!o.dims[k]) return TFW_FB_E_SHAPE;
    for (uint32_t j = 0; j < i; j++) /* outputs overlap nothing else */
      if ((i >= f->n_in || j >= f->n_in) && spans_overlap(side.base, side.bytes, t[j].data, extent[j]))
        return TFW_FB_E_OVERLAP;
    t[i].data = side.base;
    t[i].dtype = o.dtype;
    t[i].rank = o.rank;
    for (uint32_t k = 0; k < TFW_MAX_RANK; k++) t[i].dims[k] = o.dims[k]; /* a kernel reads dims[0..rank-1] */
    extent[i] = side.bytes;
  }
  int32_t *ints = (int32_t *)(t + n);
  float *floats = (float *)(ints + f->n_ints);
  for (uint32_t i = 0; i < f->n_ints; i++) ints[i] = tpkg_fallback_int(f, i);
  for (uint32_t i = 0; i < f->n_floats; i++) floats[i] = tpkg_fallback_float(f, i);
  p->h = (fb_prep_head){f->op, (uint8_t)f->n_in, (uint8_t)f->n_out, (uint8_t)f->n_ints, (uint8_t)f->n_floats, NULL};
  tfw_call c = {f->op, f->n_in, f->n_out, t, t + f->n_in, ints, f->n_ints, floats, f->n_floats};
  return tfw_op_check(&c, &p->h.kernel);
}

/* The checks in tfw_fallback_run's order, and the prepared form at out
 * (room for the largest, FB_PREP_MAX, or for prepared_size(f)). */
static int prepare_into(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, uint32_t dim, void *out) {
  if (!f || !window || !f->rec) return TFW_FB_E_ARG;
  if (is_layout_op(f->op)) {
    if (f->n_in != 1 || f->n_out != 1) return TFW_FB_E_SHAPE;
    return prepare_layout(f, window, window_bytes, dim, out);
  }
  if (f->n_in + f->n_out > TPKG_FB_MAX_OPERANDS || f->n_ints > TPKG_FB_MAX_INTS || f->n_floats > TPKG_FB_MAX_FLOATS)
    return TFW_FB_E_PARAM;
  return prepare_plain(f, window, window_bytes, out);
}

/* Bytes of f's prepared form (counts within the format's limits; for
 * others, a number prepare_into refuses anyway). */
static uint32_t prepared_size(const tpkg_fallback *f) {
  if (is_layout_op(f->op)) return round8(sizeof(fb_prep_layout));
  return round8((uint32_t)(sizeof(fb_prep_plain) + (f->n_in + f->n_out) * sizeof(tfw_tensor)) +
                4u * (f->n_ints + f->n_floats));
}

/* The checks alone, for a record the caller has no room for: a frame of its
 * own (noinline), so the largest record's scratch is on the stack only
 * while this runs. */
static __attribute__((noinline)) int check_only(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes,
                                                uint32_t dim) {
  uint64_t scratch[FB_PREP_MAX / 8];
  return prepare_into(f, window, window_bytes, dim, scratch);
}

int tfw_fallback_prepare(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, uint32_t dim, void *out,
                         uint32_t room, uint32_t *bytes) {
  uint32_t need = f ? prepared_size(f) : 0;
  if (bytes) *bytes = need;
  if (!out || need > room) return check_only(f, window, window_bytes, dim);
  return prepare_into(f, window, window_bytes, dim, out);
}

/* The layout-aware ops' work (a QuantizeLinear into BLOCKED and a relayout
 * the converter runs write the padding lanes themselves). */
static int run_layout(const fb_prep_layout *p) {
  const fb_side *in = &p->in, *out = &p->out;
  if (p->h.op == TPKG_OP_RELAYOUT && relayout_by_cvt(in, out, p->pad_zp)) return 0;
  if (!(p->h.op == TPKG_OP_QUANTIZE && quantize_writes_padding(in, out)))
    fill_padding(out, out->esize == 1 ? p->pad_zp : 0, 0);
  switch (p->h.op) {
  case TPKG_OP_QUANTIZE: run_quantize(&p->dv, p->zp, in, out); break;
  case TPKG_OP_DEQUANTIZE: run_dequantize(p->scale, p->zp, in, out); break;
  case TPKG_OP_RELAYOUT: run_relayout(in, out); break;
  }
  return 0;
}

int tfw_fallback_run_prepared(const void *prepared) {
  const fb_prep_head *h = prepared;
  if (!h->kernel) return run_layout(prepared);
  const tfw_tensor *t = ((const fb_prep_plain *)prepared)->t;
  const int32_t *ints = (const int32_t *)(t + h->n_in + h->n_out);
  const float *floats = (const float *)(ints + h->n_ints);
  tfw_call c = {h->op, h->n_in, h->n_out, t, t + h->n_in, ints, h->n_ints, floats, h->n_floats};
  return h->kernel(&c);
}

/* (Not through tfw_fallback_prepare: a firmware that runs every record
 * this way links neither it nor check_only.) */
int tfw_fallback_run(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, uint32_t dim) {
  uint64_t p[FB_PREP_MAX / 8];
  int rc = prepare_into(f, window, window_bytes, dim, p);
  return rc ? rc : tfw_fallback_run_prepared(p);
}

const char *tfw_fallback_strerror(int code) {
  switch (code) {
  case TFW_FB_OK: return "ok";
  case TFW_FB_E_ARG: return "fallback: no record or window, or DIM 0 with a blocked layout";
  case TFW_FB_E_OP: return "unknown fallback op, or one this firmware was built without";
  case TFW_FB_E_DTYPE: return "fallback op does not support this input/output dtype pair";
  case TFW_FB_E_LAYOUT: return "fallback layout unknown or not valid for the tensor's rank";
  case TFW_FB_E_SHAPE: return "fallback shape: rank above 8, operand count, dims that do not match the op, or axis out of range";
  case TFW_FB_E_PARAM: return "fallback parameter: a scale that is zero, negative, infinite or NaN, or a parameter count or value the op does not take";
  case TFW_FB_E_WINDOW: return "fallback tensor larger than its size field or outside the DRAM window";
  case TFW_FB_E_OVERLAP: return "fallback input and output overlap";
  case TFW_FB_E_INDEX: return "fallback index out of range";
  }
  return "unknown fallback error";
}
