/* probe.c: observes the C model's epilogue arithmetic without editing it.
 *
 * The NPU system tests build their own copy of sim/npu-model with
 * npu_exec.c compiled under -Dnpu_requant=probe_requant (and likewise
 * npu_vadd, npu_avgpool), so every call of the model's execution unit lands
 * here. Each wrapper counts what the differential test must cover (rounding
 * ties, int32 saturation, clamping) and returns the real function's result.
 *
 * Built with -DPROBE_MUTANT it is the planted bug of the mutant test: ties of
 * the requantisation round half up instead of half to even, a one-bit change
 * in the rounding that only shows when a tie is hit. */
#include "probe.h"

#include "npu_arith.h"

probe_stats_t probe_stats;

int8_t probe_requant(int32_t acc, int32_t bias, int32_t mult, uint8_t shift, int8_t zp_out, int8_t lo, int8_t hi);
int8_t probe_vadd(int8_t a, int8_t b, int8_t za, int8_t zb, int32_t ma, int32_t mb, unsigned s, int8_t zo,
                  int8_t lo, int8_t hi);
int8_t probe_avgpool(int64_t sum, int64_t cnt, int32_t mult, unsigned s, int8_t zo, int8_t lo, int8_t hi);

/* 1 when p / 2^s lies exactly halfway between two integers. */
static int is_tie(int64_t p, unsigned s) {
  if (s == 0) return 0;
  uint64_t mask = ((uint64_t)1 << s) - 1;
  return ((uint64_t)p & mask) == (uint64_t)1 << (s - 1);
}

static void count_clamp(int64_t v, int8_t lo, int8_t hi) {
  if (v < lo) probe_stats.clamp_lo++;
  if (v > hi) probe_stats.clamp_hi++;
}

int8_t probe_requant(int32_t acc, int32_t bias, int32_t mult, uint8_t shift, int8_t zp_out, int8_t lo,
                     int8_t hi) {
  int64_t sum = (int64_t)acc + bias;
  if (sum != npu_sat32(sum)) probe_stats.sat32++;
  int64_t p = (int64_t)npu_sat32(sum) * mult;
  unsigned s = shift & 63u;
  int64_t q = npu_rne_shift(p, s);
  if (is_tie(p, s)) {
    probe_stats.tie_requant++;
#ifdef PROBE_MUTANT
    /* half up: floor + 1 (differs from half-to-even when floor is even);
     * >> on a negative int64 is arithmetic in GCC and Clang */
    q = (p >> s) + 1;
#endif
  }
  count_clamp(q + zp_out, lo, hi);
  probe_stats.requant++;
#ifdef PROBE_MUTANT
  return npu_clamp8(q + zp_out, lo, hi);
#else
  return npu_requant(acc, bias, mult, shift, zp_out, lo, hi);
#endif
}

int8_t probe_vadd(int8_t a, int8_t b, int8_t za, int8_t zb, int32_t ma, int32_t mb, unsigned s, int8_t zo,
                  int8_t lo, int8_t hi) {
  int64_t v = ((int64_t)a - za) * ma + ((int64_t)b - zb) * mb;
  if (is_tie(v, s & 63u)) probe_stats.tie_vadd++;
  count_clamp(npu_rne_shift(v, s) + zo, lo, hi);
  probe_stats.vadd++;
  return npu_vadd(a, b, za, zb, ma, mb, s, zo, lo, hi);
}

int8_t probe_avgpool(int64_t sum, int64_t cnt, int32_t mult, unsigned s, int8_t zo, int8_t lo, int8_t hi) {
  if (cnt > 0) {
    int64_t n = sum * mult, d = cnt << (s & 63u);
    int64_t r = n % d;
    if (r < 0) r += d;
    if (2 * r == d) probe_stats.tie_pool++;
    count_clamp(npu_rne_div(n, d) + zo, lo, hi);
  }
  probe_stats.pool++;
  return npu_avgpool(sum, cnt, mult, s, zo, lo, hi);
}
