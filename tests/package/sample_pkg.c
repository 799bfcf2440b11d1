/* sample_pkg: see sample_pkg.h. Commands are made with the generated
 * encoders; the window is 64 KiB: weights at 0, I/O at 4 KiB, scratch at
 * 8 KiB, MARK records at 60 KiB. */
#include "sample_pkg.h"

#include <stdlib.h>

#include "tessel_isa.h"
#include "tessel_target.h"
#include "tfw_ops.h"

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
static tpkg_fb_record fallbacks[4];
static tpkg_operand operands[8];
static const int32_t hsig_ints[1] = {TFW_UN_HARD_SIGMOID}, softmax_ints[2] = {1, 0};
static const float hsig_floats[2] = {0.2f, 0.5f};

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
  /* the image to int8 blocked by DIM; the logits (int8, in scratch) to f32,
   * a HardSigmoid (a plain op with an int and two floats), the Softmax that
   * writes 'prob' */
  operands[0] = (tpkg_operand){.dtype = TPKG_DT_F32, .rank = 4, .offset = 4096, .size = 768, .dims = {1, 3, 8, 8}};
  operands[1] = (tpkg_operand){.dtype = TPKG_DT_I8, .layout = TPKG_LAYOUT_BLOCKED, .rank = 4, .offset = 8192, .size = 512,
                               .dims = {1, 3, 8, 8}, .scale = 0.5f, .zp = -3, .block = TSL_DIM};
  operands[2] = (tpkg_operand){.dtype = TPKG_DT_I8, .rank = 2, .offset = 16384, .size = 16, .dims = {1, 10},
                               .scale = 0.25f, .zp = 5};
  operands[3] = (tpkg_operand){.dtype = TPKG_DT_F32, .rank = 2, .offset = 16400, .size = 40, .dims = {1, 10}};
  operands[4] = operands[3];
  operands[5] = (tpkg_operand){.dtype = TPKG_DT_F32, .rank = 2, .offset = 16448, .size = 40, .dims = {1, 10}};
  operands[6] = operands[5];
  operands[7] = (tpkg_operand){.dtype = TPKG_DT_F32, .rank = 2, .offset = 4864, .size = 40, .dims = {1, 10}};
  fallbacks[0] = (tpkg_fb_record){.op = TPKG_OP_QUANTIZE, .name = "input_q", .before_kernel = 0, .n_in = 1, .n_out = 1,
                                  .operands = operands};
  fallbacks[1] = (tpkg_fb_record){.op = TPKG_OP_DEQUANTIZE, .name = "logits_dq", .before_kernel = 3, .n_in = 1,
                                  .n_out = 1, .operands = operands + 2};
  fallbacks[2] = (tpkg_fb_record){.op = TPKG_OP_UNARY, .name = "HardSigmoid_5", .before_kernel = 3, .n_in = 1,
                                  .n_out = 1, .operands = operands + 4, .n_ints = 1, .ints = hsig_ints,
                                  .n_floats = 2, .floats = hsig_floats};
  fallbacks[3] = (tpkg_fb_record){.op = TPKG_OP_SOFTMAX, .name = "prob", .before_kernel = 3, .n_in = 1, .n_out = 1,
                                  .operands = operands + 6, .n_ints = 2, .ints = softmax_ints};
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
      .fallbacks = fallbacks, .n_fallbacks = 4,
  };
}
