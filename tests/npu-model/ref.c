/* ref.c: see ref.h. */
#include "ref.h"

int64_t ref_rne_shift(int64_t v, unsigned s) {
  if (s == 0) return v;
  /* floor((v + 2^(s-1) - 1 + bit_s(v)) / 2^s), computed in 128 bits */
  __int128 x = (__int128)v + ((__int128)1 << (s - 1)) - 1 + ((v >> s) & 1);
  __int128 d = (__int128)1 << s;
  __int128 q = x / d;
  if ((x % d) < 0) q--;
  return (int64_t)q;
}

int64_t ref_rne_div(int64_t n, int64_t d) {
  /* compare the fractional part 2*|r| with d using 128-bit math */
  __int128 q = (__int128)n / d, r = (__int128)n % d;
  if (r < 0) { q -= 1; r += d; }
  __int128 twice = 2 * r;
  if (twice > d || (twice == d && (q % 2 != 0))) q += 1;
  return (int64_t)q;
}

int8_t ref_clamp(int64_t v, int lo, int hi) { return (int8_t)(v < lo ? lo : v > hi ? hi : v); }

static int64_t sat32(int64_t v) { return v > 2147483647LL ? 2147483647LL : v < -2147483648LL ? -2147483648LL : v; }

void ref_conv_acc(const ref_conv_t *p, const int8_t *x, const int8_t *wt, int32_t *acc) {
  int cpg = p->cin / p->groups, opg = p->cout / p->groups;
  for (int oy = 0; oy < p->oh; oy++)
    for (int ox = 0; ox < p->ow; ox++)
      for (int oc = 0; oc < p->cout; oc++) {
        int g = oc / opg;
        int64_t a = 0;
        for (int ky = 0; ky < p->kh; ky++)
          for (int kx = 0; kx < p->kw; kx++) {
            int iy = oy * p->sy - p->pt + ky * p->dy, ix = ox * p->sx - p->pl + kx * p->dx;
            if (iy < 0 || iy >= p->h || ix < 0 || ix >= p->w) continue;
            for (int ci = 0; ci < cpg; ci++) {
              int xv = x[(iy * p->w + ix) * p->cin + g * cpg + ci] - p->zx;
              int wv = wt[((oc * p->kh + ky) * p->kw + kx) * cpg + ci];
              a += (int64_t)xv * wv;
            }
          }
        acc[(oy * p->ow + ox) * p->cout + oc] = (int32_t)a;
      }
}

void ref_conv(const ref_conv_t *p, const int8_t *x, const int8_t *wt, const int32_t *bias, const int32_t *mult,
              const uint8_t *shift, int8_t *out) {
  int n = p->oh * p->ow * p->cout;
  int32_t acc[n > 0 ? n : 1];
  ref_conv_acc(p, x, wt, acc);
  for (int i = 0; i < n; i++) {
    int oc = i % p->cout;
    int64_t t = sat32((int64_t)acc[i] + bias[oc]);
    out[i] = ref_clamp(ref_rne_shift(t * mult[oc], shift[oc]) + p->zo, p->lo, p->hi);
  }
}

void ref_matmul(int m, int k, int n, const int8_t *a, const int8_t *b, int32_t *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      int32_t s = 0;
      for (int q = 0; q < k; q++) s += a[i * k + q] * b[q * n + j];
      c[i * n + j] = s;
    }
}

void ref_avgpool(int h, int w, int c, int k, int s, int pad, int include_pad, int zx, int32_t mult, unsigned sh,
                 int zo, int lo, int hi, int oh, int ow, const int8_t *x, int8_t *out) {
  for (int oy = 0; oy < oh; oy++)
    for (int ox = 0; ox < ow; ox++)
      for (int ch = 0; ch < c; ch++) {
        int64_t sum = 0, cnt = 0;
        for (int i = 0; i < k; i++)
          for (int j = 0; j < k; j++) {
            int iy = oy * s - pad + i, ix = ox * s - pad + j;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            sum += x[(iy * w + ix) * c + ch] - zx;
            cnt++;
          }
        if (include_pad) cnt = (int64_t)k * k;
        int64_t v = cnt ? ref_rne_div(sum * mult, cnt << sh) : 0;
        out[(oy * ow + ox) * c + ch] = ref_clamp(v + zo, lo, hi);
      }
}

void ref_maxpool(int h, int w, int c, int k, int s, int pad, int oh, int ow, const int8_t *x, int8_t *out) {
  for (int oy = 0; oy < oh; oy++)
    for (int ox = 0; ox < ow; ox++)
      for (int ch = 0; ch < c; ch++) {
        int best = -129;
        for (int i = 0; i < k; i++)
          for (int j = 0; j < k; j++) {
            int iy = oy * s - pad + i, ix = ox * s - pad + j;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            int v = x[(iy * w + ix) * c + ch];
            if (v > best) best = v;
          }
        out[(oy * ow + ox) * c + ch] = (int8_t)(best < -128 ? -128 : best);
      }
}
