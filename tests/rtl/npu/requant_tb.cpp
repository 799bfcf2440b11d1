// requant_tb: one epilogue lane (npu_requant) against the C model's
// npu_requant() on random operands: every shift, multipliers and
// accumulators of every size, int32 saturation of acc + bias, exact ties
// (the bits below the shift are exactly half) and clamps. The lane forms only
// the bits the int8 result can depend on; this holds it to the 64-bit rule.
//   requant_tb [N]   N random lanes (default 2,000,000)
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "Vnpu_requant.h"
#include "verilated.h"

extern "C" {
#include "npu_arith.h"
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

// an int32 of random magnitude (a few bits up to all 32), sometimes an extreme
static int32_t any32() {
  switch (next() % 8) {
  case 0: return INT32_MAX;
  case 1: return INT32_MIN;
  case 2: return (int32_t)(next() % 5) - 2;
  default: {
    int bits = 1 + (int)(next() % 32);
    int64_t v = (int64_t)(next() & ((bits == 32 ? 0xFFFFFFFFull : (1ull << bits) - 1)));
    if (bits == 32) return (int32_t)(uint32_t)v;
    return next() % 2 ? (int32_t)-v : (int32_t)v;
  }
  }
}

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  if (n < 1) {
    fprintf(stderr, "requant_tb: N must be >= 1\n");
    return 2;
  }
  Vnpu_requant *top = new Vnpu_requant;
  long bad = 0, ties = 0, sats = 0, clamps = 0;
  for (long i = 0; i < n; i++) {
    int32_t acc = any32(), bias = next() % 4 ? any32() : 0, mult = any32();
    uint8_t shift = (uint8_t)(next() % 64);
    int8_t zp = (int8_t)next(), lo = (int8_t)next(), hi = (int8_t)next();
    if (next() % 4 == 0) lo = -128, hi = 127;
    if (lo > hi) { int8_t x = lo; lo = hi; hi = x; }   // CFG_EPI refuses lo > hi
    // an exact tie now and then: t*mult = k*2^s + 2^(s-1)
    if (shift > 0 && shift < 40 && next() % 4 == 0) {
      int64_t k = (int64_t)(next() % 512) - 256;
      int64_t p = k * ((int64_t)1 << shift) + ((int64_t)1 << (shift - 1));
      if (p >= INT32_MIN && p <= INT32_MAX) acc = (int32_t)p, bias = 0, mult = 1;
    }
    int64_t t = (int64_t)acc + bias;
    sats += t > INT32_MAX || t < INT32_MIN;
    int8_t want = npu_requant(acc, bias, mult, shift, zp, lo, hi);
    int64_t tt = npu_sat32(t), pp = tt * (int64_t)mult;
    if (shift && (((uint64_t)pp & (((uint64_t)1 << shift) - 1)) == ((uint64_t)1 << (shift - 1)))) ties++;
    if (want == lo || want == hi) clamps++;
    top->en_i = 1;
    top->acc_i = (uint32_t)acc;
    top->bias_i = (uint32_t)bias;
    top->mult_i = (uint32_t)mult;
    top->shift_i = shift;
    top->zp_i = (uint8_t)zp;
    top->lo_i = (uint8_t)lo;
    top->hi_i = (uint8_t)hi;
    top->eval();
    if ((int8_t)top->q_o != want) {
      if (bad < 5)
        printf("FAIL acc %d bias %d mult %d shift %u zp %d lo %d hi %d: RTL %d, model %d\n", acc, bias, mult, shift,
               zp, lo, hi, (int8_t)top->q_o, want);
      bad++;
    }
  }
  printf("%s %ld lanes equal npu_requant() (ties %ld, int32 saturations %ld, clamps %ld)\n", bad ? "FAIL" : "PASS", n,
         ties, sats, clamps);
  bool cov = ties > n / 100 && sats > n / 100 && clamps > n / 100;
  printf("%s coverage: ties, saturations and clamps each above 1%%\n", cov ? "PASS" : "FAIL");
  printf("%d passed, %d failed\n", (bad == 0) + cov, (bad != 0) + !cov);
  delete top;
  return bad || !cov ? 1 : 0;
}
