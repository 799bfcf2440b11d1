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
#include "fb_record.h"
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

static int run(const fb_desc *f, uint8_t *w, uint32_t dim, const char *what, const char *where, uint32_t units) {
  fb_encoded e;
  const tpkg_fallback *rec = fb_encode(f, &e); /* encoding outside the measured span */
  mark m = now();
  int rc = tfw_fallback_run(rec, w, WIN_BYTES, dim);
  report(what, where, m, units);
  return rc;
}

static int records(uint8_t *w, const char *where) {
  for (uint32_t k = 0; k < 3 * 32 * 32; k++) put_f32(w + 4 * k, inputs[k % N_CALLS]);
  /* the digits demo: 1x1x8x8 image -> int8 blocked by 8; 10 logits -> f32 -> softmax */
  static const uint32_t img[4] = {1, 1, 8, 8}, logits[2] = {1, 10}, big_dims[4] = {1, 3, 32, 32};
  fb_desc q = {.op = TPKG_OP_QUANTIZE, .n_in = 1, .n_out = 1};
  q.o[0] = fb_operand(TPKG_DT_F32, 4, img, 0, 256);
  q.o[1] = fb_operand(TPKG_DT_I8, 4, img, 12288, 512);
  fb_set_layout(&q.o[1], TPKG_LAYOUT_BLOCKED, 8);
  q.o[1].scale = 0.00392157f, q.o[1].zp = -128;
  int rc = run(&q, w, 8, "QUANTIZE 1x1x8x8 -> blocked, record", where, 1);
  fb_desc d = {.op = TPKG_OP_DEQUANTIZE, .n_in = 1, .n_out = 1};
  d.o[0] = fb_operand(TPKG_DT_I8, 2, logits, 12288, 16);
  d.o[0].scale = 0.218712f, d.o[0].zp = 3;
  d.o[1] = fb_operand(TPKG_DT_F32, 2, logits, 12304, 40);
  rc |= run(&d, w, 8, "DEQUANTIZE 1x10, record", where, 1);
  fb_desc s = {.op = TPKG_OP_SOFTMAX, .n_in = 1, .n_out = 1, .n_ints = 2, .ints = {1, 0}};
  s.o[0] = d.o[1];
  s.o[1] = fb_operand(TPKG_DT_F32, 2, logits, 12352, 40);
  rc |= run(&s, w, 8, "SOFTMAX 1x10, record", where, 1);
  /* a larger input: 1x3x32x32 -> blocked by 8, and back to plain */
  fb_desc big = q;
  big.o[0] = fb_operand(TPKG_DT_F32, 4, big_dims, 0, 3 * 32 * 32 * 4);
  big.o[1].rank = 4, big.o[1].dims[1] = 3, big.o[1].dims[2] = big.o[1].dims[3] = 32, big.o[1].size = 32 * 32 * 8;
  rc |= run(&big, w, 8, "QUANTIZE 1x3x32x32 -> blocked, /el", where, 3 * 32 * 32);
  fb_desc r = {.op = TPKG_OP_RELAYOUT, .n_in = 1, .n_out = 1};
  r.o[0] = big.o[1];
  r.o[1] = fb_operand(TPKG_DT_I8, 4, big_dims, big.o[1].offset + big.o[1].size, 3 * 32 * 32);
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
