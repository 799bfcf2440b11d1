/* bench_fallback_fw: what the fallback ops cost on the RV32 core (soft-float
 * libgcc): cycles and instructions per scalar call, and per element of the
 * records a small CNN needs (quantise a 3x32x32 input into the blocked
 * layout, softmax and dequantise 10 outputs). Run by `make bench-fallback`
 * on tessel-sim (cycles) or tessel-iss (instructions only). */
#include <stdint.h>
#include <stdio.h>

#include "csr.h"
#include "tfw_fallback.h"

#define N_CALLS 1000u

static uint8_t window[3 * 32 * 32 * 4 + 3 * 32 * 32 * 8 + 1024];
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
static void report(const char *what, mark m0, uint32_t units) {
  mark m1 = now();
  unsigned long c10 = (unsigned long)((m1.c - m0.c) * 10u / units), i10 = (unsigned long)((m1.i - m0.i) * 10u / units);
  printf("bench-fallback: %-34s %6lu.%lu cycles %6lu.%lu instructions\n", what, c10 / 10, c10 % 10, i10 / 10, i10 % 10);
}

static float inputs[N_CALLS];

int main(void) {
  for (uint32_t k = 0; k < N_CALLS; k++) inputs[k] = (float)(int32_t)(k * 37u % 2000u - 1000u) * 0.01f; /* [-10, 10) */
  mark m = now();
  for (uint32_t k = 0; k < N_CALLS; k++) sink_f = tfw_expf(inputs[k]);
  report("tfw_expf / call", m, N_CALLS);
  m = now();
  for (uint32_t k = 0; k < N_CALLS; k++) sink_i = tfw_quantize(inputs[k], 0.05f, 3, -128, 127);
  report("tfw_quantize / call", m, N_CALLS);
  m = now();
  for (uint32_t k = 0; k < N_CALLS; k++) sink_f = tfw_dequantize((int32_t)(k % 256u) - 128, 0.05f, 3);
  report("tfw_dequantize / call", m, N_CALLS);

  /* records: a 1x3x32x32 f32 input quantised into the blocked layout (DIM 8) */
  for (uint32_t k = 0; k < 3 * 32 * 32 * 4; k++) window[k] = (uint8_t)(k * 7u);
  for (uint32_t k = 0; k < 3 * 32 * 32; k++) window[k * 4 + 3] = 0x3f; /* floats in [0.5, 2) */
  tpkg_fallback q = {.op = TPKG_OP_QUANTIZE, .in_dtype = TPKG_DT_F32, .out_dtype = TPKG_DT_I8, .in_rank = 4,
                     .out_rank = 4, .in_offset = 0, .in_size = 3 * 32 * 32 * 4, .out_offset = 3 * 32 * 32 * 4,
                     .out_size = 32 * 32 * 8, .in_dims = {1, 3, 32, 32}, .out_dims = {1, 3, 32, 32},
                     .out_scale = 0.0625f, .out_zp = -1, .out_layout = TPKG_LAYOUT_BLOCKED};
  m = now();
  int rc = tfw_fallback_run(&q, window, sizeof window, 8);
  report("QUANTIZE 1x3x32x32 -> blocked / el", m, 3 * 32 * 32);
  tpkg_fallback r = q;
  r.op = TPKG_OP_RELAYOUT, r.in_dtype = TPKG_DT_I8, r.in_offset = q.out_offset, r.in_size = q.out_size;
  r.in_layout = TPKG_LAYOUT_BLOCKED, r.out_offset = q.out_offset + q.out_size, r.out_size = 3 * 32 * 32;
  r.out_layout = TPKG_LAYOUT_PLAIN;
  m = now();
  rc |= tfw_fallback_run(&r, window, sizeof window, 8);
  report("RELAYOUT blocked -> plain / el", m, 3 * 32 * 32);

  /* the classifier's end: 10 int8 logits dequantised, then softmax */
  tpkg_fallback d = {.op = TPKG_OP_DEQUANTIZE, .in_dtype = TPKG_DT_I8, .out_dtype = TPKG_DT_F32, .in_rank = 2,
                     .out_rank = 2, .in_offset = 0, .in_size = 10, .out_offset = 64, .out_size = 40,
                     .in_dims = {1, 10}, .out_dims = {1, 10}, .in_scale = 0.125f, .in_zp = 2};
  m = now();
  rc |= tfw_fallback_run(&d, window, sizeof window, 8);
  report("DEQUANTIZE 1x10 / record", m, 1);
  tpkg_fallback s = d;
  s.op = TPKG_OP_SOFTMAX, s.in_dtype = TPKG_DT_F32, s.in_offset = 64, s.in_size = 40, s.out_offset = 128;
  s.axis = -1;
  m = now();
  rc |= tfw_fallback_run(&s, window, sizeof window, 8);
  report("SOFTMAX 1x10 / record", m, 1);
  if (rc) printf("bench-fallback: a record failed: %s\n", tfw_fallback_strerror(rc));
  return rc ? 1 : 0;
}
