// cvt_arith_bench.cpp: Verilator bench of the SoC converter's arithmetic
// (rtl-model/soc/tessel_cvt_pkg.sv, on ports in cvt_arith_tb.sv) against the
// firmware's own C, tfw_quantize and tfw_dequantize (shared/tfw_fallback.c,
// linked from shared/'s host library): the RTL must give the same bits.
//
// Scales (the unit's domain: positive normal, biased exponent 27..227) come
// in classes: powers of two, mantissas of all ones, random over the whole
// exponent range, 1/255-like fractions and their neighbours, the range real
// models use (1e-3..1), and the two exponent edges. For each scale, x is
// random bit patterns, values near every rounding boundary ((k + 0.5) *
// scale and its neighbouring floats, k in -200..200), random values in
// range, every exponent with random and critical mantissas, and the special
// values (+-0, subnormals, +-inf, quiet and signalling NaNs of both signs,
// the largest floats); each x with an int8 and a uint8 zero point taken in
// turn from the extremes and random ones. Dequantise takes every code 0..255
// with each scale and zero point.
//
// Each (operation, scale class, input class) is one test: "PASS name" or
// "FAIL name: " and the first mismatch with its operands. The output ends
// with "N passed, N failed"; the exit status is non-zero on a failure. An
// optional argument is the seed (default 1).
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vcvt_arith_tb.h"
#include "verilated.h"

extern "C" {
#include "tfw_fallback.h"
}

namespace {

struct Zp {
  int32_t zp;
  bool u8;
};

// One test: its checks and its first mismatch.
struct Group {
  std::string name;
  uint64_t checks = 0, fails = 0;
  std::string first;  // the first mismatch, with its operands
};

struct Bench {
  Vcvt_arith_tb &m;
  std::mt19937 rng;
  std::vector<Zp> zps_i8, zps_u8;  // zero points, taken in turn
  size_t zi = 0;                   // the turn
  uint64_t nq = 0, nd = 0;         // quantise and dequantise checks

  Bench(Vcvt_arith_tb &dut, uint32_t seed) : m(dut), rng(seed) {}

  uint32_t u32() { return (uint32_t)rng(); }
  uint32_t below(uint32_t n) { return (uint32_t)(rng() % n); }

  // x quantised with scale and z, by the RTL and by the C.
  void quantise(Group &g, uint32_t x, uint32_t scale, Zp z) {
    uint32_t recip = tfw_quantize_recip(tfw_bits_f32(scale));
    m.x_i = x;
    m.scale_i = scale;
    m.recip_i = recip;
    m.zp_i = (uint32_t)z.zp;
    m.u8_i = z.u8;
    m.eval();
    unsigned got = m.q_o;
    unsigned want = (uint8_t)tfw_quantize(tfw_bits_f32(x), tfw_bits_f32(scale), z.zp, z.u8 ? 0 : -128, z.u8 ? 255 : 127);
    g.checks++, nq++;
    if (got == want) return;
    if (g.fails++ == 0) {
      char b[256];
      std::snprintf(b, sizeof b, "x=0x%08" PRIx32 " (%.9g) scale=0x%08" PRIx32 " (%.9g) recip=0x%08" PRIx32
                    " zp=%" PRId32 " %s: rtl %u, C %u", x, (double)tfw_bits_f32(x), scale, (double)tfw_bits_f32(scale),
                    recip, z.zp, z.u8 ? "uint8" : "int8", got, want);
      g.first = b;
    }
  }

  // x with the next int8 and the next uint8 zero point.
  void quantise2(Group &g, uint32_t x, uint32_t scale) {
    quantise(g, x, scale, zps_i8[zi % zps_i8.size()]);
    quantise(g, x, scale, zps_u8[zi % zps_u8.size()]);
    zi++;
  }

  // code dequantised with scale and z, by the RTL and by the C.
  void dequantise(Group &g, unsigned code, uint32_t scale, Zp z) {
    m.code_i = (uint8_t)code;
    m.scale_i = scale;
    m.zp_i = (uint32_t)z.zp;
    m.u8_i = z.u8;
    m.eval();
    uint32_t got = m.y_o;
    int32_t q = z.u8 ? (int32_t)code : (int32_t)(int8_t)(uint8_t)code;
    uint32_t want = tfw_f32_bits(tfw_dequantize(q, tfw_bits_f32(scale), z.zp));
    g.checks++, nd++;
    if (got == want) return;
    if (g.fails++ == 0) {
      char b[256];
      std::snprintf(b, sizeof b, "code=%u scale=0x%08" PRIx32 " (%.9g) zp=%" PRId32 " %s: rtl 0x%08" PRIx32
                    ", C 0x%08" PRIx32, code, scale, (double)tfw_bits_f32(scale), z.zp, z.u8 ? "uint8" : "int8",
                    got, want);
      g.first = b;
    }
  }

  // ---- input classes of quantise, for one scale ----

  void in_bits(Group &g, uint32_t s) {
    for (int i = 0; i < 2000; i++) quantise2(g, u32(), s);
  }

  // (k + 0.5) * scale and k * scale, rounded to f32, and the floats up to
  // three steps either side: where the quotient's rounding to f32 and then
  // to an integer can go either way.
  void in_boundaries(Group &g, uint32_t s) {
    double sc = tfw_bits_f32(s);
    for (int k = -200; k <= 200; k++) {
      for (double h : {0.5, 0.0}) {
        float x0 = (float)(((double)k + h) * sc), up = x0, dn = x0;
        quantise2(g, tfw_f32_bits(x0), s);
        for (int j = 0; j < (h != 0.0 ? 3 : 1); j++) {
          up = std::nextafter(up, INFINITY), dn = std::nextafter(dn, -INFINITY);
          quantise2(g, tfw_f32_bits(up), s);
          quantise2(g, tfw_f32_bits(dn), s);
        }
      }
    }
  }

  // x uniformly in (-300, 300) * scale: every code and the clamps.
  void in_range(Group &g, uint32_t s) {
    double sc = tfw_bits_f32(s);
    for (int i = 0; i < 600; i++) {
      double u = ((double)u32() / 4294967296.0 - 0.5) * 600.0;
      quantise2(g, tfw_f32_bits((float)(u * sc)), s);
    }
  }

  // Every exponent of x (both signs) with a random mantissa, the scale's
  // mantissa and its neighbours (mx = ms, mx = ms -+ 1: one more quotient bit
  // or not), all zeros and all ones: the thresholds 0.25 and 2^32 and the
  // quotient's exponent at every distance from the scale's.
  void in_exponents(Group &g, uint32_t s) {
    uint32_t fs = s & 0x7fffffu;
    for (uint32_t e = 0; e < 256; e++) {
      uint32_t mants[] = {u32() & 0x7fffffu, fs, (fs - 1) & 0x7fffffu, (fs + 1) & 0x7fffffu, 0, 0x7fffffu};
      for (uint32_t f : mants) quantise2(g, (below(2) << 31) | (e << 23) | f, s);
    }
  }

  void in_specials(Group &g, uint32_t s) {
    static const uint32_t fixed[] = {
        0x00000000u, 0x80000000u,                            // +-0
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,  // subnormals: smallest, largest
        0x00400000u, 0x80400000u,
        0x00800000u, 0x80800000u,                            // smallest normals
        0x7f800000u, 0xff800000u,                            // +-inf
        0x7fc00000u, 0xffc00000u, 0x7fffffffu, 0xffffffffu,  // quiet NaNs
        0x7f800001u, 0xff800001u, 0x7fbfffffu, 0xffbfffffu,  // signalling NaNs
        0x7f7fffffu, 0xff7fffffu, 0x7f000000u, 0xff000000u,  // the largest floats
        0x4f000000u, 0xcf000000u, 0x4f800000u, 0xcf800000u,  // 2^31, 2^32
    };
    for (uint32_t x : fixed) {
      for (const Zp &z : zps_i8) quantise(g, x, s, z);
      for (const Zp &z : zps_u8) quantise(g, x, s, z);
    }
    for (int i = 0; i < 40; i++) {
      uint32_t sign = below(2) << 31;
      quantise2(g, sign | (u32() & 0x7fffffu), s);                     // subnormal
      quantise2(g, sign | 0x7f800000u | ((u32() & 0x7fffffu) | 1), s);  // NaN, any payload
      quantise2(g, sign | ((253u + below(2)) << 23) | (u32() & 0x7fffffu), s);  // huge
    }
  }

  void in_codes(Group &g, uint32_t s) {
    for (unsigned c = 0; c < 256; c++) {
      for (const Zp &z : zps_i8) dequantise(g, c, s, z);
      for (const Zp &z : zps_u8) dequantise(g, c, s, z);
    }
  }
};

// A scale class: its name and its scales (f32 bits).
struct ScaleClass {
  const char *name;
  std::vector<uint32_t> scales;
};

uint32_t with_exp(uint32_t e, uint32_t frac) { return (e << 23) | (frac & 0x7fffffu); }

std::vector<ScaleClass> scale_classes(std::mt19937 &rng) {
  std::vector<ScaleClass> cs;
  ScaleClass pow2{"pow2", {}}, ones{"ones", {}}, rnd{"random", {}}, frac{"fractions", {}}, model{"model", {}},
      edge{"edges", {}};
  for (uint32_t e = 27; e <= 227; e++) pow2.scales.push_back(with_exp(e, 0));
  for (uint32_t e = 27; e <= 227; e += 5) ones.scales.push_back(with_exp(e, 0x7fffffu));
  for (int i = 0; i < 300; i++) rnd.scales.push_back(with_exp(27 + (uint32_t)(rng() % 201), (uint32_t)rng()));
  // n / d as f32 (1/255, 6/255, 1/127, ...) and the floats either side
  for (int d : {255, 127, 254, 100, 1000, 3, 7}) {
    for (int n : {1, 2, 6, 10}) {
      uint32_t b = tfw_f32_bits((float)n / (float)d);
      for (uint32_t v : {b - 1, b, b + 1}) frac.scales.push_back(v);
    }
  }
  for (int i = 0; i < 300; i++) {
    double l = -3.0 + 3.0 * (double)rng() / 4294967296.0;  // log10: 1e-3 .. 1
    model.scales.push_back(tfw_f32_bits((float)std::pow(10.0, l)));
  }
  for (uint32_t e : {27u, 28u, 226u, 227u}) {
    for (uint32_t f : {0u, 1u, 0x7fffffu, 0x7ffffeu, 0x400000u, (uint32_t)rng(), (uint32_t)rng()})
      edge.scales.push_back(with_exp(e, f));
  }
  cs.push_back(pow2), cs.push_back(ones), cs.push_back(rnd), cs.push_back(frac), cs.push_back(model),
      cs.push_back(edge);
  return cs;
}

}  // namespace

int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  uint32_t seed = argc > 1 ? (uint32_t)std::strtoul(argv[1], nullptr, 0) : 1u;
  auto t0 = std::chrono::steady_clock::now();
  auto m = std::make_unique<Vcvt_arith_tb>();
  Bench b(*m, seed);
  b.zps_i8 = {{-128, false}, {127, false}, {0, false}, {-1, false}};
  b.zps_u8 = {{0, true}, {255, true}, {128, true}, {1, true}};
  for (int i = 0; i < 4; i++) {
    b.zps_i8.push_back({(int32_t)(b.below(256)) - 128, false});
    b.zps_u8.push_back({(int32_t)b.below(256), true});
  }
  std::vector<ScaleClass> classes = scale_classes(b.rng);

  typedef void (Bench::*Input)(Group &, uint32_t);
  struct {
    const char *name;
    Input fn;
  } inputs[] = {{"bits", &Bench::in_bits},         {"boundaries", &Bench::in_boundaries},
                {"range", &Bench::in_range},       {"exponents", &Bench::in_exponents},
                {"specials", &Bench::in_specials}};

  std::vector<Group> groups;
  for (const ScaleClass &c : classes) {
    for (const auto &in : inputs) {
      Group g;
      g.name = std::string("quantise/") + c.name + "/" + in.name;
      for (uint32_t s : c.scales) (b.*in.fn)(g, s);
      groups.push_back(g);
    }
    Group g;
    g.name = std::string("dequantise/") + c.name + "/codes";
    for (uint32_t s : c.scales) b.in_codes(g, s);
    groups.push_back(g);
  }

  int pass = 0, fail = 0;
  for (const Group &g : groups) {
    if (g.fails == 0) {
      std::printf("PASS %s (%" PRIu64 " checks)\n", g.name.c_str(), g.checks);
      pass++;
    } else {
      std::printf("FAIL %s: %s (%" PRIu64 " of %" PRIu64 " checks differ)\n", g.name.c_str(), g.first.c_str(),
                  g.fails, g.checks);
      fail++;
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("cvt-arith: %" PRIu64 " quantise and %" PRIu64 " dequantise checks, seed %" PRIu32 ", %.1f s\n", b.nq,
              b.nd, seed, secs);
  m->final();
  std::printf("%d passed, %d failed\n", pass, fail);
  return fail ? 1 : 0;
}
