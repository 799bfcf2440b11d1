/* sample_pkg: see sample_pkg.h. Commands are made with the generated
 * encoders; the window is 64 KiB: weights at 0, I/O at 4 KiB, scratch at
 * 8 KiB, MARK records at 60 KiB. */
#include "sample_pkg.h"

#include <stdlib.h>

#include "tessel_isa.h"
#include "tessel_target.h"

#define ENC(kind, ...)                                                        \
  do {                                                                        \
    tsl_##kind##_t c_ = {__VA_ARGS__};                                        \
    if (tsl_##kind##_encode(&c_, cmds[n++])) abort();                         \
  } while (0)

static uint32_t cmds[32][4];
static uint8_t weights[SAMPLE_WEIGHTS_BYTES];
static const char *const nodes0[] = {"Conv_0", "Relu_1"};
static const char *const nodes1[] = {"Conv_2"};
static const char *const nodes2[] = {"GlobalAveragePool_3", "Gemm_4"};
static tpkg_kernel kernels[3];
static tpkg_io io[2];
static tpkg_fallback fallbacks[2];

void sample_pkg(tpkg_package *p) {
  unsigned n = 0;
  /* kernel 0: conv1+relu (load, a looped matmul, store to DRAM) */
  ENC(mark, .kernel = 0, .record = 1, .dram = 61440);
  ENC(cfg_load, .stride_x = 8, .stride_y = 64, .stride_z = 512);
  ENC(load, .mem = TSL_MEM_SPAD, .n0 = 8, .dram = 8192, .row = 0, .nx = 8, .ny = 8, .nz = 1, .push_next = 1);
  ENC(cfg_exec, .out_pitch = 8, .kh = 1, .kw = 1, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1, .dil_x = 1,
      .in_h = 8, .in_w = 8, .in_pitch = 8, .cb_stride = 64, .pop_prev = 1);
  ENC(loop, .count = 2, .body = 1, .stride_c = 64);
  ENC(matmul, .oh = 8, .ow = 8, .in = 0, .wgt = 128, .acc = 0);
  ENC(cfg_store, .src_pitch = 8, .stride_x = 8, .stride_y = 64);
  ENC(store, .n0 = 8, .oh = 8, .ow = 8, .dram = 12288, .src_row = 0, .param = 0);
  unsigned k0 = n;
  /* kernel 1: conv2 (stays on chip) */
  ENC(mark, .kernel = 1, .record = 1, .dram = 61632);
  ENC(matmul, .oh = 4, .ow = 4, .in = 0, .wgt = 256, .acc = 128);
  ENC(store, .dst_mem = TSL_DST_SPAD, .n0 = 8, .oh = 4, .ow = 4, .dst_row = 512, .src_row = 128);
  unsigned k1 = n;
  /* kernel 2: gap+fc */
  ENC(mark, .kernel = 2, .record = 1, .dram = 61824);
  ENC(enop, .push_next = 0);
  ENC(nop, 0);
  ENC(mark, .kernel = 3, .record = 1, .dram = 62016);
  unsigned k2 = n;

  for (unsigned i = 0; i < SAMPLE_WEIGHTS_BYTES; i++) weights[i] = (uint8_t)(i * 7 + 3);
  kernels[0] = (tpkg_kernel){"conv1+relu", nodes0, 2, (const uint32_t(*)[4])cmds, k0, 0, 11000, 380000, 9000};
  kernels[1] = (tpkg_kernel){"conv2", nodes1, 1, (const uint32_t(*)[4])cmds + k0, k1 - k0, 1, 4200, 65536, 0};
  kernels[2] = (tpkg_kernel){"gap+fc", nodes2, 2, (const uint32_t(*)[4])cmds + k1, k2 - k1, 2, 900, 1280, 1410};
  io[0] = (tpkg_io){.name = "input", .dir = TPKG_DIR_INPUT, .dtype = TPKG_DT_F32, .layout = TPKG_LAYOUT_PLAIN,
                    .rank = 4, .dims = {1, 3, 8, 8}, .scale = 0.0f, .zero_point = 0, .offset = 4096, .size = 768};
  io[1] = (tpkg_io){.name = "prob", .dir = TPKG_DIR_OUTPUT, .dtype = TPKG_DT_F32, .layout = TPKG_LAYOUT_PLAIN,
                    .rank = 2, .dims = {1, 10}, .scale = 0.0f, .zero_point = 0, .offset = 4864, .size = 40};
  fallbacks[0] = (tpkg_fallback){.op = TPKG_OP_QUANTIZE, .name = "input_q", .before_kernel = 0,
                                 .in_dtype = TPKG_DT_F32, .out_dtype = TPKG_DT_I8, .in_rank = 4, .out_rank = 4,
                                 .in_layout = TPKG_LAYOUT_PLAIN, .out_layout = TPKG_LAYOUT_BLOCKED,
                                 .in_offset = 4096, .in_size = 768, .out_offset = 8192, .out_size = 512,
                                 .in_dims = {1, 3, 8, 8}, .out_dims = {1, 3, 8, 8}, .axis = 0,
                                 .out_scale = 0.5f, .out_zp = -3, .params = {TSL_DIM}};
  fallbacks[1] = (tpkg_fallback){.op = TPKG_OP_SOFTMAX, .name = "prob", .before_kernel = 3,
                                 .in_dtype = TPKG_DT_I8, .out_dtype = TPKG_DT_F32, .in_rank = 2, .out_rank = 2,
                                 .in_offset = 16384, .in_size = 16, .out_offset = 4864, .out_size = 40,
                                 .in_dims = {1, 10}, .out_dims = {1, 10}, .axis = 1,
                                 .in_scale = 0.25f, .in_zp = 5, .params = {TSL_DIM}};
  *p = (tpkg_package){
      .target_name = TSL_TARGET_NAME,
      .target_hash = TSL_TARGET_HASH,
      .window = {.window_bytes = SAMPLE_WINDOW_BYTES,
                 .weights_offset = 0, .weights_bytes = SAMPLE_WEIGHTS_BYTES,
                 .io_offset = 4096, .io_bytes = 4096,
                 .scratch_offset = 8192, .scratch_bytes = 32768,
                 .marks_offset = 61440, .marks_bytes = 4096},
      .weights = weights, .n_weights = SAMPLE_WEIGHTS_BYTES,
      .kernels = kernels, .n_kernels = 3,
      .io = io, .n_io = 2,
      .fallbacks = fallbacks, .n_fallbacks = 2,
  };
}
