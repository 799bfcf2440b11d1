/* tfw_math: the libm-free f32 functions (see the header for the contract).
 *
 * Every function is integer arithmetic: the same bits on every machine by
 * construction, and no soft-float call on the RV32 core. Two tools:
 *   - tfw_expf: Q56/Q30 fixed point, tuned for speed (softmax runs it on
 *     every element); unchanged from its first home in tfw_fallback.c;
 *   - "xf", an extended float: sign, a 64-bit mantissa with its top bit set
 *     and a binary exponent, with truncating multiply, add and divide (each
 *     good to ~2^-59 relative or better). The other transcendental functions evaluate
 *     their formula in xf (arranged so that no subtraction cancels many
 *     bits) and round once to f32 at the end, subnormal results included.
 *     Their error is then the final rounding's 0.5 ulp plus far less than
 *     2^-20 ulp: the result is the correctly rounded one except in cases
 *     closer than that to a rounding boundary.
 * sqrt is an exact integer square root with a sticky bit: correctly rounded.
 * No double, no libm, no float arithmetic at all (-ffp-contract=off, which
 * shared/ builds with, changes nothing here). RV32 cost per call (tessel-iss,
 * instructions, arguments of moderate size): exp 128, floor/rint ~100,
 * sqrt 530, log 900, expm1 1510, sigmoid 1740, log1p 1760, tanh 1930,
 * erf 3480, pow 3240. */
#include "tfw_math.h"

typedef union {
  float f;
  uint32_t u;
} tm_bits;

uint32_t tfw_f32_bits(float x) {
  tm_bits b;
  b.f = x;
  return b.u;
}
float tfw_bits_f32(uint32_t u) {
  tm_bits b;
  b.u = u;
  return b.f;
}

#define TM_INF 0x7f800000u
#define TM_NAN 0x7fc00000u /* the one NaN every function returns */
#define TM_SIGN 0x80000000u

int tfw_isnan(float x) { return (tfw_f32_bits(x) & 0x7fffffffu) > TM_INF; }

static float nan_f(void) { return tfw_bits_f32(TM_NAN); }

/* ---- exp in Q56/Q30 fixed point (the softmax's exp) ------------------------ */

/* The control core has no FPU: every soft-float operation is a libgcc call
 * of ~100 instructions, and a float polynomial cost ~2300 instructions per
 * exp. Integer arithmetic is exact on every machine, so this is as
 * deterministic and ~15x cheaper:
 *   1. x -> X = x * 2^56 (int64, exact for |x| >= 2^-32; |X| < 2^63 for |x| <= 104.5)
 *   2. k = round(x / ln2); r = X - k * ln2 * 2^56 (ln 2 to 2^-56: |k| <= 151 keeps
 *      the product exact and r good to ~2^-48), then r to Q32 (|r| <= ~0.35)
 *   3. e^r by its Taylor series to r^9 (truncation < 2^-32) in Q30 Horner steps
 *      (32x32->64 multiplies), the last step kept whole in Q62: error < 2^-29
 *   4. one rounding (to nearest, ties to even) of e^r * 2^k to f32: to 24 bits
 *      for normal results, to the subnormal grid below 2^-126, +inf above FLT_MAX.
 * Worst error: 0.5 ulp + 2^-29 / 2^-24 ulp. */
#define EXP_LN2_Q56 49946518145322874ll /* ln 2 * 2^56 */
#define EXP_LOG2E_Q30 1549082005ll      /* log2(e) * 2^30 */
static const int32_t exp_taylor_q30[10] = {0,         1073741824, 536870912, 178956971, 44739243,
                                           8947849,   1491308,    213044,    26631,     2959}; /* 2^30 / n! */

/* m >> s rounded to nearest, ties to even (s <= 63; 0 when s >= 64). */
static uint64_t shift_rne64(uint64_t m, uint32_t s) {
  if (s == 0) return m;
  if (s >= 64) return 0;
  uint64_t q = m >> s, rem = m & ((1ull << s) - 1), half = 1ull << (s - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return q;
}

float tfw_expf(float x) {
  uint32_t b = tfw_f32_bits(x), mag = b & 0x7fffffffu, neg = b >> 31;
  if (mag > TM_INF) return nan_f();
  if (!neg && mag > 0x42b20000u) return tfw_bits_f32(TM_INF); /* x > 89 */
  if (neg && mag > 0x42d10000u) return 0.0f;                  /* x < -104.5 */
  /* 1. X = |x| * 2^56 */
  int32_t ex = (int32_t)(mag >> 23);
  uint64_t m = (mag & 0x7fffffu) | (ex ? 0x800000u : 0u), xa;
  int32_t sh = ex - 94 + (ex ? 0 : 1); /* |x| = m * 2^(ex - 150) (subnormal: ex - 149) */
  xa = sh >= 0 ? m << sh : (-sh < 64 ? m >> -sh : 0);
  int64_t X = neg ? -(int64_t)xa : (int64_t)xa;
  /* 2. k and r */
  int32_t xq24 = (int32_t)(X >> 32); /* x in Q24, floor */
  int32_t k = (int32_t)(((int64_t)xq24 * EXP_LOG2E_Q30 + (1ll << 53)) >> 54);
  int64_t r56 = X - (int64_t)k * EXP_LN2_Q56;
  int32_t r = (int32_t)((r56 + (1ll << 23)) >> 24); /* Q32 */
  /* 3. e^r: p = 1 + r/2 + r^2/6 + ..., e = 1 + r * p */
  int32_t p = exp_taylor_q30[9];
  for (int n = 8; n >= 1; n--) p = exp_taylor_q30[n] + (int32_t)(((int64_t)r * p) >> 32);
  uint64_t e = (1ull << 62) + (uint64_t)((int64_t)r * p); /* Q62, in [0.70, 1.42] */
  /* 4. normalise to [1, 2) * 2^K and round once */
  int32_t K = k;
  if (e < (1ull << 62)) e <<= 1, K--;
  int32_t B = K + 127; /* biased exponent */
  if (B >= 255) return tfw_bits_f32(TM_INF);
  if (B >= 1) return tfw_bits_f32(((uint32_t)(B - 1) << 23) + (uint32_t)shift_rne64(e, 39)); /* carry may reach inf */
  return tfw_bits_f32((uint32_t)shift_rne64(e, (uint32_t)(40 - B))); /* subnormal (or 0) */
}

/* ---- xf: the extended float ---------------------------------------------------- */

/* value = (neg ? -1 : 1) * m * 2^e; m has bit 63 set, or m = 0 for zero. */
typedef struct {
  uint64_t m;
  int32_t e;
  uint32_t neg;
} xf;

static const xf XF_ZERO = {0, 0, 0};
static const xf XF_ONE = {1ull << 63, -63, 0};
static const xf XF_LN2 = {12786308645202655660ull, -64, 0};     /* ln 2 */
static const xf XF_2_SQRTPI = {10407460856758233229ull, -63, 0}; /* 2 / sqrt(pi) */

/* Full 64 x 64 -> 128-bit product from 32-bit halves (RV32 has no wider multiply). */
static void umul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  *lo = (mid << 32) | (p00 & 0xffffffffu);
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* Shift m left until bit 63 is set (m != 0); returns the shift. */
static int32_t norm_shift(uint64_t *m) {
  int32_t s = 0;
  if (!(*m >> 32)) *m <<= 32, s += 32;
  if (!(*m >> 48)) *m <<= 16, s += 16;
  if (!(*m >> 56)) *m <<= 8, s += 8;
  if (!(*m >> 60)) *m <<= 4, s += 4;
  if (!(*m >> 62)) *m <<= 2, s += 2;
  if (!(*m >> 63)) *m <<= 1, s += 1;
  return s;
}

static xf xf_make(uint32_t neg, uint64_t m, int32_t e) {
  xf r = {m, e, neg};
  if (!m) return XF_ZERO;
  r.e -= norm_shift(&r.m);
  return r;
}

/* Exact. x finite. */
static xf xf_from_f32(float x) {
  uint32_t b = tfw_f32_bits(x), ex = (b >> 23) & 0xffu;
  uint64_t m = (b & 0x7fffffu) | (ex ? 0x800000u : 0u);
  return xf_make(b >> 31, m, (int32_t)(ex ? ex : 1) - 150);
}

static xf xf_neg(xf a) {
  a.neg = a.m ? a.neg ^ 1u : 0u;
  return a;
}

static xf xf_ldexp(xf a, int32_t k) {
  if (a.m) a.e += k;
  return a;
}

static xf xf_mul(xf a, xf b) {
  if (!a.m || !b.m) return XF_ZERO;
  uint64_t hi, lo;
  umul128(a.m, b.m, &hi, &lo);
  xf r = {hi, a.e + b.e + 64, a.neg ^ b.neg};
  if (!(hi >> 63)) r.m = hi << 1 | lo >> 63, r.e--;
  return r;
}

/* |a| >= |b|? */
static int xf_mag_ge(xf a, xf b) {
  if (!b.m) return 1;
  if (!a.m) return 0;
  return a.e != b.e ? a.e > b.e : a.m >= b.m;
}

/* a + b, truncated: exact to 2^-63 of the larger operand (the formulas
 * below never subtract nearly equal values). */
static xf xf_add(xf a, xf b) {
  if (!xf_mag_ge(a, b)) {
    xf t = a;
    a = b, b = t;
  }
  if (!b.m) return a;
  uint32_t d = (uint32_t)(a.e - b.e);
  uint64_t A = a.m >> 1, B = d + 1 >= 64 ? 0 : b.m >> (d + 1);
  return xf_make(a.neg, a.neg == b.neg ? A + B : A - B, a.e + 1);
}

static xf xf_sub(xf a, xf b) { return xf_add(a, xf_neg(b)); }

/* a / b (b != 0): the mantissa quotient A 2^63 / B through B's reciprocal
 * V ~ 2^127 / B: a 64/32-bit division gives it to ~2^-31 (from below), one
 * Newton step V += V (2^127 - B V) / 2^127 to ~2^-60 (still from below: the
 * step never overshoots and every truncation lowers it), then one product.
 * The quotient is at most ~2^-59 below the exact one. A power-of-two B
 * divides exactly. */
static xf xf_div(xf a, xf b) {
  if (!a.m) return XF_ZERO;
  uint64_t q = a.m;
  if (b.m != 1ull << 63) {
    uint64_t v = (0x7fffffffffffffffull / ((b.m >> 32) + 1)) << 32, hi, lo;
    umul128(b.m, v, &hi, &lo);                                   /* B V < 2^127 */
    uint64_t ehi = (1ull << 63) - hi - (lo != 0), elo = 0u - lo; /* E = 2^127 - B V < 2^97 */
    umul128(v, ehi << 31 | elo >> 33, &hi, &lo);                 /* V (E / 2^33) */
    v += hi >> 30;
    umul128(a.m, v, &hi, &lo);
    q = hi;
  }
  return xf_make(a.neg ^ b.neg, q, a.e - b.e - 63); /* q ~ a.m / b.m * 2^63 */
}

/* a rounded once to f32 (nearest, ties to even): overflow to inf, subnormals
 * on their grid. */
static float xf_to_f32(xf a) {
  uint32_t sign = a.neg ? TM_SIGN : 0u;
  if (!a.m) return tfw_bits_f32(sign);
  int32_t B = a.e + 63 + 127; /* biased exponent of [2^(e+63), 2^(e+64)) */
  if (B >= 255) return tfw_bits_f32(sign | TM_INF);
  if (B >= 1) return tfw_bits_f32(sign | (((uint32_t)(B - 1) << 23) + (uint32_t)shift_rne64(a.m, 40)));
  uint32_t s = (uint32_t)(41 - B); /* subnormal: the grid is 2^-149 */
  if (s > 64) return tfw_bits_f32(sign);
  if (s == 64) return tfw_bits_f32(sign | (a.m > (1ull << 63) ? 1u : 0u)); /* half rounds to even 0 */
  return tfw_bits_f32(sign | (uint32_t)shift_rne64(a.m, s));
}

float tfw_f32_scaled(uint64_t m, int32_t e) { return xf_to_f32(xf_make(0, m, e)); }

/* a * b >> 62 for signed Q62 values (truncated toward zero). */
static int64_t smul62(int64_t a, int64_t b) {
  uint64_t ua = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0u - (uint64_t)b : (uint64_t)b, hi, lo;
  umul128(ua, ub, &hi, &lo);
  uint64_t p = hi << 2 | lo >> 62;
  return (a < 0) != (b < 0) ? -(int64_t)p : (int64_t)p;
}

/* a as a signed fixed-point number with q fraction bits, truncated; |a| <
 * 2^(62 - q) is the caller's to ensure. */
static int64_t xf_to_fixed(xf a, int32_t q) {
  if (!a.m) return 0;
  int32_t s = -(a.e + q); /* value * 2^q = m >> s */
  uint64_t v = s >= 64 ? 0 : a.m >> s;
  return a.neg ? -(int64_t)v : (int64_t)v;
}

static xf xf_from_fixed(int64_t v, int32_t q) {
  return v < 0 ? xf_make(1, 0u - (uint64_t)v, -q) : xf_make(0, (uint64_t)v, -q);
}

/* ---- exp, expm1, log in xf --------------------------------------------------- */

#define LN2_Q56_HI 49946518145322874ll /* ln 2 * 2^56, rounded */
#define LN2_Q88_LO (-1412832332ll)     /* the remainder, * 2^88 */
#define LOG2E_Q62 6653256548922161246ll

/* 2^62 / n!, n = 0..16 */
static const int64_t inv_fact_q62[17] = {
    4611686018427387904ll, 4611686018427387904ll, 2305843009213693952ll, 768614336404564651ll,
    192153584101141163ll,  38430716820228233ll,   6405119470038039ll,    915017067148291ll,
    114377133393536ll,     12708570377060ll,      1270857037706ll,       115532457973ll,
    9627704831ll,          740592679ll,           52899477ll,            3526632ll,
    220414ll};

/* e^z for |z| < 120: z = k ln2 + r, |r| <= ln2 / 2 (in Q56, ln 2 to 2^-88),
 * e^r by Taylor to r^16 in Q62 Horner steps (error ~2^-58). */
static xf xf_exp(xf z) {
  int64_t X = xf_to_fixed(z, 56);
  int64_t k = (smul62(X / 256, LOG2E_Q62) + (1ll << 47)) >> 48; /* z log2 e in Q48: no overflow */
  int64_t r = X - k * LN2_Q56_HI - ((k * LN2_Q88_LO + (1ll << 31)) >> 32);
  r *= 64; /* Q62 */
  int64_t p = inv_fact_q62[16];
  for (int n = 15; n >= 0; n--) p = inv_fact_q62[n] + smul62(p, r);
  return xf_make(0, (uint64_t)p, (int32_t)k - 62);
}

/* e^z - 1 for |z| < 120, with relative precision also for small z. */
static xf xf_expm1(xf z) {
  if (xf_mag_ge(z, xf_from_fixed(1ll << 60, 62))) return xf_sub(xf_exp(z), XF_ONE); /* |z| >= 0.25 */
  /* z (1 + z/2 + z^2/6 + ...): the bracket to 2^-60 absolute, terms to z^15/16! */
  int64_t Z = xf_to_fixed(z, 62), p = inv_fact_q62[16];
  for (int n = 15; n >= 1; n--) p = inv_fact_q62[n] + smul62(p, Z);
  return xf_mul(z, xf_from_fixed(p, 62));
}

/* 2^63 / (2n + 1), n = 0..12 (folded by the compiler) */
#define Q63_OVER(d) (0x7fffffffffffffffull / (d))
static const uint64_t inv_odd_q63[13] = {Q63_OVER(1),  Q63_OVER(3),  Q63_OVER(5),  Q63_OVER(7),  Q63_OVER(9),
                                         Q63_OVER(11), Q63_OVER(13), Q63_OVER(15), Q63_OVER(17), Q63_OVER(19),
                                         Q63_OVER(21), Q63_OVER(23), Q63_OVER(25)};

/* 2 atanh(s) = 2 s (1 + s^2/3 + s^4/5 + ...) for |s| <= 0.1716 (s^2 < 2^-5:
 * 13 terms reach 2^-66). The bracket in Q63, every term positive. */
static xf xf_2atanh(xf s) {
  uint64_t S = (uint64_t)xf_to_fixed(xf_mul(s, s), 63), p = inv_odd_q63[12];
  for (int n = 11; n >= 0; n--) {
    uint64_t hi, lo;
    umul128(p, S, &hi, &lo);
    p = inv_odd_q63[n] + (hi << 1 | lo >> 63);
  }
  return xf_ldexp(xf_mul(s, xf_make(0, p, -63)), 1);
}

/* log a, a > 0: a = f 2^E with f in [sqrt(1/2), sqrt 2), log f = 2 atanh((f-1)/(f+1)),
 * f - 1 exact for an f32 a; E ln 2 and log f never cancel much (|log f| <= ln 2 / 2,
 * so |E ln 2 + log f| >= |E ln 2| / 2). */
static xf xf_log(xf a) {
  int32_t E = a.e + 63;
  xf f = {a.m, -63, 0};
  if (a.m > 13043817825332782212ull) f.e--, E++; /* f > sqrt 2 (2^63 sqrt 2) */
  xf num = xf_sub(f, XF_ONE), den = xf_add(f, XF_ONE);
  xf lf = xf_2atanh(xf_div(num, den));
  if (!E) return lf;
  return xf_add(xf_mul(xf_from_fixed(E, 0), XF_LN2), lf);
}

/* ---- the f32 functions ------------------------------------------------------ */

float tfw_fabsf(float x) { return tfw_isnan(x) ? nan_f() : tfw_bits_f32(tfw_f32_bits(x) & 0x7fffffffu); }

/* floor / ceil / rint on the bits: |x| >= 2^23 (and inf, NaN) are integers;
 * otherwise |x| = m / 2^sh, q its integer part, and the fraction decides. */
enum { RND_FLOOR, RND_CEIL, RND_EVEN };
static float round_bits(float x, int mode) {
  uint32_t b = tfw_f32_bits(x), ex = (b >> 23) & 0xffu, neg = b >> 31, sign = b & TM_SIGN;
  if (ex == 255) return tfw_isnan(x) ? nan_f() : x;
  if (ex >= 150) return x;
  uint32_t m = (b & 0x7fffffu) | (ex ? 0x800000u : 0u), q = 0, frac_nz = m != 0;
  int cmp = -1; /* the fraction against 1/2: -1 below, 0 equal, 1 above */
  if (ex >= 126) { /* |x| >= 1/2: sh in 1..24 */
    uint32_t sh = 150 - ex, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    q = m >> sh;
    frac_nz = rem != 0;
    cmp = rem > half ? 1 : rem == half ? 0 : -1;
  }
  int up; /* the magnitude rounds up */
  if (mode == RND_FLOOR) up = neg && frac_nz;
  else if (mode == RND_CEIL) up = !neg && frac_nz;
  else up = cmp > 0 || (cmp == 0 && (q & 1));
  q += (uint32_t)up;
  if (!q) return tfw_bits_f32(sign); /* +-0 keeps the sign */
  uint64_t qm = q; /* q <= 2^23: exact in f32 */
  uint32_t E = (uint32_t)(63 - norm_shift(&qm)) + 127;
  return tfw_bits_f32(sign | E << 23 | ((uint32_t)(qm >> 40) & 0x7fffffu));
}

float tfw_floorf(float x) { return round_bits(x, RND_FLOOR); }
float tfw_ceilf(float x) { return round_bits(x, RND_CEIL); }
float tfw_rintf(float x) { return round_bits(x, RND_EVEN); }

/* Correctly rounded: x = m 2^E with E even, q = isqrt(m 2^28) has 26-27 bits,
 * the remainder is the sticky bit, one rounding. */
float tfw_sqrtf(float x) {
  uint32_t b = tfw_f32_bits(x);
  if (tfw_isnan(x)) return nan_f();
  if ((b & 0x7fffffffu) == 0) return x; /* +-0 */
  if (b >> 31) return nan_f();
  if (b == TM_INF) return x;
  xf a = xf_from_f32(x); /* m 2^e, m in [2^63, 2^64) with 24 significant bits */
  uint64_t M = a.m >> 40; /* 24 bits */
  int32_t E = a.e + 40;
  if (E & 1) M <<= 1, E--;
  M <<= 28, E -= 28; /* M in [2^51, 2^53) */
  uint64_t q = 0, rem = M;
  for (int i = 26; i >= 0; i--) { /* digit by digit: q^2 <= M */
    uint64_t t = (q << (i + 1)) + (1ull << (2 * i));
    if (rem >= t) rem -= t, q |= 1ull << i;
  }
  return xf_to_f32(xf_make(0, q << 8 | (rem != 0), E / 2 - 8));
}

float tfw_logf(float x) {
  uint32_t b = tfw_f32_bits(x);
  if (tfw_isnan(x)) return nan_f();
  if ((b & 0x7fffffffu) == 0) return tfw_bits_f32(TM_SIGN | TM_INF); /* -inf */
  if (b >> 31) return nan_f();
  if (b == TM_INF) return x;
  return xf_to_f32(xf_log(xf_from_f32(x)));
}

float tfw_log1pf(float x) {
  uint32_t b = tfw_f32_bits(x);
  if (tfw_isnan(x) || b > 0xbf800000u) return nan_f(); /* x < -1 */
  if (b == 0xbf800000u) return tfw_bits_f32(TM_SIGN | TM_INF);
  if (b == TM_INF || (b & 0x7fffffffu) == 0) return x;
  xf a = xf_from_f32(x);
  /* small |x|: 2 atanh(x / (2 + x)) keeps x's relative precision */
  if (!xf_mag_ge(a, xf_from_fixed(1, 2))) return xf_to_f32(xf_2atanh(xf_div(a, xf_add(a, xf_ldexp(XF_ONE, 1)))));
  return xf_to_f32(xf_log(xf_add(XF_ONE, a))); /* 1 + x: error 2^-63, no cancellation */
}

float tfw_expm1f(float x) {
  uint32_t b = tfw_f32_bits(x), mag = b & 0x7fffffffu;
  if (mag > TM_INF) return nan_f();
  if (!mag) return x;
  if (!(b >> 31) && mag > 0x42b20000u) return tfw_bits_f32(TM_INF); /* x > 89 */
  if ((b >> 31) && mag > 0x41c80000u) return -1.0f;                   /* x < -25: e^x < 2^-36 */
  return xf_to_f32(xf_expm1(xf_from_f32(x)));
}

/* x ** y, C99 / ONNX special cases first; then |x|^y = e^(y log|x|) in xf
 * (exact results such as 2^3 come out exact: the error is far below half an ulp). */
static int int_kind(float y) { /* 0 not an integer, 1 odd, 2 even */
  uint32_t b = tfw_f32_bits(y), ex = (b >> 23) & 0xffu;
  if (ex == 255) return 0;
  if (ex >= 151) return 2; /* |y| >= 2^24 */
  if (ex < 127) return (b & 0x7fffffffu) == 0 ? 2 : 0;
  uint32_t m = (b & 0x7fffffu) | 0x800000u, sh = 150 - ex;
  if (m & ((1u << sh) - 1)) return 0;
  return (m >> sh) & 1 ? 1 : 2;
}

float tfw_powf(float x, float y) {
  uint32_t bx = tfw_f32_bits(x), by = tfw_f32_bits(y), ax = bx & 0x7fffffffu, ay = by & 0x7fffffffu;
  if (ay == 0 || bx == 0x3f800000u) return 1.0f;
  if (ax > TM_INF || ay > TM_INF) return nan_f();
  int yk = int_kind(y), yneg = (int)(by >> 31);
  uint32_t rsign = (bx >> 31) && yk == 1 ? TM_SIGN : 0u; /* odd integer power of a negative */
  if (ay == TM_INF) {
    if (ax == 0x3f800000u) return 1.0f; /* (-1) ** +-inf */
    return tfw_bits_f32((ax > 0x3f800000u) != yneg ? TM_INF : 0u);
  }
  if (ax == 0) return tfw_bits_f32(rsign | (yneg ? TM_INF : 0u));
  if (ax == TM_INF) return tfw_bits_f32(rsign | (yneg ? 0u : TM_INF));
  if ((bx >> 31) && !yk) return nan_f();
  xf z = xf_mul(xf_from_f32(y), xf_log(xf_from_f32(tfw_fabsf(x))));
  if (xf_mag_ge(z, xf_from_fixed(110, 0))) return tfw_bits_f32(rsign | (z.neg ? 0u : TM_INF));
  xf r = xf_exp(z);
  r.neg = rsign != 0;
  return xf_to_f32(r);
}

/* tanh |x| = -t / (2 + t), t = e^(-2|x|) - 1 in (-1, 0]: no cancellation;
 * |x| >= 9.1 rounds to 1. Odd. */
float tfw_tanhf(float x) {
  uint32_t b = tfw_f32_bits(x), mag = b & 0x7fffffffu;
  if (mag > TM_INF) return nan_f();
  if (!mag) return x;
  if (mag >= 0x41119999u) return tfw_bits_f32((b & TM_SIGN) | 0x3f800000u); /* >= 9.1 */
  xf t = xf_expm1(xf_ldexp(xf_from_f32(tfw_bits_f32(mag | TM_SIGN)), 1));
  xf r = xf_div(xf_neg(t), xf_add(xf_ldexp(XF_ONE, 1), t));
  r.neg = b >> 31;
  return xf_to_f32(r);
}

/* 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below: e^-|x| in (0, 1], no
 * cancellation. */
float tfw_sigmoidf(float x) {
  uint32_t b = tfw_f32_bits(x), mag = b & 0x7fffffffu;
  if (mag > TM_INF) return nan_f();
  if (mag > 0x42e00000u) return b >> 31 ? 0.0f : 1.0f; /* |x| > 112 */
  xf t = xf_exp(xf_from_f32(tfw_bits_f32(mag | TM_SIGN)));
  xf d = xf_add(XF_ONE, t);
  return xf_to_f32(xf_div(b >> 31 ? t : XF_ONE, d));
}

/* 2^64 / (2n + 1) (less a fraction), n = 0..127, folded by the compiler */
#define Q64_OVER(d) (0xffffffffffffffffull / (d))
#define INV_ODD4(n) Q64_OVER(2 * (n) + 1), Q64_OVER(2 * (n) + 3), Q64_OVER(2 * (n) + 5), Q64_OVER(2 * (n) + 7)
#define INV_ODD16(n) INV_ODD4(n), INV_ODD4((n) + 4), INV_ODD4((n) + 8), INV_ODD4((n) + 12)
static const uint64_t inv_odd_q64[128] = {INV_ODD16(0),  INV_ODD16(16), INV_ODD16(32), INV_ODD16(48),
                                          INV_ODD16(64), INV_ODD16(80), INV_ODD16(96), INV_ODD16(112)};

/* erf x = 2/sqrt(pi) x e^(-x^2) S, S = sum (2x^2)^n / (1 3 5 ... (2n+1)): every
 * term positive. S < 2^22 for |x| < 4; in Q36 (so t_(n-1) 2x^2 < 2^63), terms
 * t_n = t_(n-1) 2x^2 / (2n+1) (a product with 1 / (2n+1)) until they vanish.
 * |x| >= 4 rounds to +-1. Odd. */
float tfw_erff(float x) {
  uint32_t b = tfw_f32_bits(x), mag = b & 0x7fffffffu;
  if (mag > TM_INF) return nan_f();
  if (!mag) return x;
  if (mag >= 0x40800000u) return tfw_bits_f32((b & TM_SIGN) | 0x3f800000u);
  xf a = xf_from_f32(tfw_bits_f32(mag)), a2 = xf_mul(a, a);
  uint64_t u = (uint64_t)xf_to_fixed(xf_ldexp(a2, 1), 58); /* 2x^2 < 32 in Q58 */
  uint64_t t = 1ull << 36, s = t;
  for (uint32_t n = 1; n < 128 && t; n++) { /* t reaches 0 by n ~ 90 at x = 4 */
    uint64_t hi, lo;
    umul128(t, u, &hi, &lo);
    umul128(hi << 6 | lo >> 58, inv_odd_q64[n], &hi, &lo); /* / (2n + 1) */
    t = hi;
    s += t;
  }
  xf r = xf_mul(xf_mul(XF_2_SQRTPI, a), xf_mul(xf_exp(xf_neg(a2)), xf_make(0, s, -36)));
  r.neg = b >> 31;
  return xf_to_f32(r);
}
