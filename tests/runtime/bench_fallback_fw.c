/* bench_fallback_fw: what the fallback ops cost on the RV32 core (soft-float
 * libgcc): cycles and instructions per scalar call, and the records of the
 * digits demo (quantise a 1x1x8x8 image into the blocked layout, dequantise
 * and softmax 10 logits) and of a larger input (1x3x32x32), with the window
 * in the data TCM and in DRAM (where the runner's window is: every access
 * goes through the memory port). Run by `make bench-fallback` on tessel-sim
 * (cycles) or tessel-iss (instructions only). */
#include <stdint.h>
#include <stdio.h>

#include "csr.h"
#include "tfw_fallback.h"

#define N_CALLS 1000u
#define WIN_BYTES (3u * 32 * 32 * 4 + 3u * 32 * 32 * 8 + 1024)
#define DRAM_WINDOW ((uint8_t *)0x80010000u) /* free DRAM on the sim memory map (linker/sim.ld uses the TCMs) */

static uint8_t tcm_window[WIN_BYTES];
static float inputs[N_CALLS];
static volatile float sink_f;
static volatile int32_t sink_i;

typedef struct {
  uint64_t c, i;
} mark;

static mark now(void) {
  mark m = {csr_read_mcycle64(), csr_read_minstret64()};
  return m;
}

/* cycles and instructions per unit since m0, to one decimal */
static void report(const char *what, const char *where, mark m0, uint32_t units) {
  mark m1 = now();
  unsigned long c10 = (unsigned long)((m1.c - m0.c) * 10u / units), i10 = (unsigned long)((m1.i - m0.i) * 10u / units);
  printf("bench-fallback: %-36s %-4s %7lu.%lu cycles %7lu.%lu instructions\n", what, where, c10 / 10, c10 % 10,
         i10 / 10, i10 % 10);
}

static void put_f32(uint8_t *p, float v) {
  union {
    float f;
    uint32_t u;
  } b = {.f = v};
  for (int k = 0; k < 4; k++) p[k] = (uint8_t)(b.u >> (8 * k));
}

static int run(const tpkg_fallback *f, uint8_t *w, uint32_t dim, const char *what, const char *where, uint32_t units) {
  mark m = now();
  int rc = tfw_fallback_run(f, w, WIN_BYTES, dim);
  report(what, where, m, units);
  return rc;
}

static int records(uint8_t *w, const char *where) {
  for (uint32_t k = 0; k < 3 * 32 * 32; k++) put_f32(w + 4 * k, inputs[k % N_CALLS]);
  /* the digits demo: 1x1x8x8 image -> int8 blocked by 8; 10 logits -> f32 -> softmax */
  tpkg_fallback q = {.op = TPKG_OP_QUANTIZE, .in_dtype = TPKG_DT_F32, .out_dtype = TPKG_DT_I8, .in_rank = 4,
                     .out_rank = 4, .in_offset = 0, .in_size = 256, .out_offset = 12288, .out_size = 512,
                     .in_dims = {1, 1, 8, 8}, .out_dims = {1, 1, 8, 8}, .out_scale = 0.00392157f,
                     .out_zp = -128, .out_layout = TPKG_LAYOUT_BLOCKED};
  int rc = run(&q, w, 8, "QUANTIZE 1x1x8x8 -> blocked, record", where, 1);
  tpkg_fallback d = {.op = TPKG_OP_DEQUANTIZE, .in_dtype = TPKG_DT_I8, .out_dtype = TPKG_DT_F32, .in_rank = 2,
                     .out_rank = 2, .in_offset = 12288, .in_size = 16, .out_offset = 12304, .out_size = 40,
                     .in_dims = {1, 10}, .out_dims = {1, 10}, .in_scale = 0.218712f, .in_zp = 3};
  rc |= run(&d, w, 8, "DEQUANTIZE 1x10, record", where, 1);
  tpkg_fallback s = d;
  s.op = TPKG_OP_SOFTMAX, s.in_dtype = TPKG_DT_F32, s.in_offset = 12304, s.in_size = 40, s.out_offset = 12352;
  s.axis = 1;
  rc |= run(&s, w, 8, "SOFTMAX 1x10, record", where, 1);
  /* a larger input: 1x3x32x32 -> blocked by 8, and back to plain */
  tpkg_fallback big = q;
  big.in_size = 3 * 32 * 32 * 4, big.out_size = 32 * 32 * 8, big.in_dims[1] = big.out_dims[1] = 3;
  big.in_dims[2] = big.out_dims[2] = big.in_dims[3] = big.out_dims[3] = 32;
  rc |= run(&big, w, 8, "QUANTIZE 1x3x32x32 -> blocked, /el", where, 3 * 32 * 32);
  tpkg_fallback r = big;
  r.op = TPKG_OP_RELAYOUT, r.in_dtype = TPKG_DT_I8, r.in_offset = big.out_offset, r.in_size = big.out_size;
  r.in_layout = TPKG_LAYOUT_BLOCKED, r.out_offset = big.out_offset + big.out_size, r.out_size = 3 * 32 * 32;
  r.out_layout = TPKG_LAYOUT_PLAIN;
  rc |= run(&r, w, 8, "RELAYOUT blocked -> plain, /el", where, 3 * 32 * 32);
  return rc;
}

int main(void) {
  for (uint32_t k = 0; k < N_CALLS; k++) inputs[k] = (float)(int32_t)(k * 37u % 2000u - 1000u) * 0.01f; /* [-10, 10) */
  mark m = now();
  for (uint32_t k = 0; k < N_CALLS; k++) sink_f = tfw_expf(inputs[k]);
  report("tfw_expf, per call", "", m, N_CALLS);
  m = now();
  for (uint32_t k = 0; k < N_CALLS; k++) sink_i = tfw_quantize(inputs[k], 0.05f, 3, -128, 127);
  report("tfw_quantize, per call", "", m, N_CALLS);
  m = now();
  for (uint32_t k = 0; k < N_CALLS; k++) sink_f = tfw_dequantize((int32_t)(k % 256u) - 128, 0.05f, 3);
  report("tfw_dequantize, per call", "", m, N_CALLS);
  int rc = records(tcm_window, "tcm");
  rc |= records(DRAM_WINDOW, "dram");
  if (rc) printf("bench-fallback: a record failed: %s\n", tfw_fallback_strerror(rc));
  return rc ? 1 : 0;
}
