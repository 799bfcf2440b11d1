/* quant-unit: the int8 reference of the quantised operators against
 * hand-computed cases (rounding ties, saturation, clamps, zero points, pad
 * values, pooling divisors), and the requantisation multipliers.
 * Each case is textual IR with scales and zero points on the values; the
 * requant pass computes the constants, then the reference runs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "calibrate.h"
#include "ir_parse.h"
#include "npy.h"
#include "onnx_import.h"
#include "passes.h"
#include "pipeline.h"
#include "quant.h"
#include "ref_exec.h"

/* Parses text, runs shape-infer and requant, runs the reference on inputs
 * and compares output 0 (int8/uint8/int32) with want[0..n-1]. */
static void runq(const char *text, const void *const *in, const int *want, int n) {
  diag d = {{0}};
  ir_graph *g = ir_parse(text, strlen(text), "q.tir", &d);
  if (!g) fail_msg("parse: %s", d.msg);
  pipeline_opts o = {.verify_each = 1};
  if (pipeline_run_pass(g, pass_find("shape-infer"), &o, &d) || pipeline_run_pass(g, pass_find("requant"), &o, &d))
    fail_msg("passes: %s", d.msg);
  void *out[4] = {0};
  if (ref_run(g, in, out, NULL, NULL, &d)) fail_msg("ref: %s", d.msg);
  for (int i = 0; i < n; i++) {
    int got = (int)ir_elem_i64(g->outputs[0]->dtype, out[0], i);
    if (got != want[i]) fail_msg("element %d: got %d, want %d", i, got, want[i]);
  }
  for (int i = 0; i < g->n_outputs; i++) free(out[i]);
  ir_graph_free(g);
}

static void test_qconv_pad_zero_point_and_ties(void **state) {
  (void)state;
  /* x = 1..9 with zp 1 (values 0..8), 2x2 kernel of ones, stride 2, pads
   * top/left 1: pad taps hold the zero point and add nothing.  Sums [0, 3,
   * 9, 24] * s_x*s_w/s_y = 0.5 -> [0, 1.5, 4.5, 12] -> ties to even [0, 2, 4, 12]. */
  const int8_t x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const void *in[1] = {x};
  const int want[4] = {0, 2, 4, 12};
  runq("graph \"c\" { %x : i8[1,1,3,3] quant(scale=1.0, zp=1) = input"
       " %w : i8[1,1,2,2] quant(scale=1.0, zp=0) = const [1, 1, 1, 1]"
       " %y : i8[1,1,2,2] quant(scale=2.0, zp=0) = QConv(%x, %w) {pads=[1, 1, 0, 0], strides=[2, 2]} @\"c\" return %y }",
       in, want, 4);
  /* with an int32 bias of 1: [1, 4, 10, 25] * 0.5 = [0.5, 2, 5, 12.5] -> [0, 2, 5, 12] */
  const int want_b[4] = {0, 2, 5, 12};
  runq("graph \"c\" { %x : i8[1,1,3,3] quant(scale=1.0, zp=1) = input"
       " %w : i8[1,1,2,2] quant(scale=1.0, zp=0) = const [1, 1, 1, 1] %b : i32[1] = const [1]"
       " %y : i8[1,1,2,2] quant(scale=2.0, zp=0) = QConv(%x, %w, %b) {pads=[1, 1, 0, 0], strides=[2, 2]} @\"c\" return %y }",
       in, want_b, 4);
}

static void test_qconv_saturation_and_clamp(void **state) {
  (void)state;
  /* 1x1 conv, two output channels with weights 127 and -128 (ratio 1):
   * 127*127 saturates to 127, 127*-128 to -128; a clamp [0, 6] (ReLU6 at
   * scale 1) gives 6 and 0; x = 2 gives 254 -> 127 / -256 -> -128. */
  const int8_t x[2] = {127, 2};
  const void *in[1] = {x};
  const int want[4] = {127, 127, -128, -128};
  runq("graph \"s\" { %x : i8[1,1,1,2] quant(scale=1.0, zp=0) = input"
       " %w : i8[2,1,1,1] quant(scale=1.0, zp=0) = const [127, -128]"
       " %y : i8[1,2,1,2] quant(scale=1.0, zp=0) = QConv(%x, %w) {kernel_shape=[1, 1]} @\"s\" return %y }",
       in, want, 4);
  const int want_c[4] = {6, 6, 0, 0};
  runq("graph \"s\" { %x : i8[1,1,1,2] quant(scale=1.0, zp=0) = input"
       " %w : i8[2,1,1,1] quant(scale=1.0, zp=0) = const [127, -128]"
       " %y : i8[1,2,1,2] quant(scale=1.0, zp=0) = QConv(%x, %w) {hi=6, kernel_shape=[1, 1], lo=0} @\"s\" return %y }",
       in, want_c, 4);
}

static void test_qconv_raw_weight_zero_point(void **state) {
  (void)state;
  /* ConvInteger semantics: int32 out = sum (x - zx)(w - zw) = 4*1 + -8*2 */
  const int8_t x[2] = {5, -7};
  const void *in[1] = {x};
  const int want[1] = {-12};
  runq("graph \"r\" { %x : i8[1,1,1,2] quant(scale=1.0, zp=1) = input"
       " %w : i8[1,1,1,2] quant(scale=1.0, zp=1) = const [2, 3]"
       " %y : i32[1,1,1,1] = QConv(%x, %w) {kernel_shape=[1, 2], raw=1} @\"r\" return %y }",
       in, want, 1);
}

static void test_qmatmul_per_column(void **state) {
  (void)state;
  /* a - za = [2, -3]; b - zb per column = [[1, 1], [3, 3]]; sums -7, -7;
   * column scales 1 and 0.5: -7 and -3.5 -> -4 (tie to even); + zp 10 */
  const int8_t a[2] = {3, -2};
  const void *in[1] = {a};
  const int want[2] = {3, 6};
  runq("graph \"m\" { %a : i8[1,2] quant(scale=1.0, zp=1) = input"
       " %b : i8[2,2] quant(axis=1, scale=[1.0, 0.5], zp=[0, 1]) = const [1, 2, 3, 4]"
       " %y : i8[1,2] quant(scale=1.0, zp=10) = QMatMul(%a, %b) @\"m\" return %y }",
       in, want, 2);
}

static void test_qadd_ties_and_saturation(void **state) {
  (void)state;
  const int8_t a[4] = {1, 3, 127, -128}, b[4] = {0, 0, 127, -128};
  const void *in[2] = {a, b};
  /* 0.5*(a+b) at scale 1: [0.5, 1.5, 127, -128] -> [0, 2, 127, -128] */
  const int want[4] = {0, 2, 127, -128};
  runq("graph \"a\" { %a : i8[4] quant(scale=0.5, zp=0) = input %b : i8[4] quant(scale=0.5, zp=0) = input"
       " %y : i8[4] quant(scale=1.0, zp=0) = QAdd(%a, %b) @\"a\" return %y }",
       in, want, 4);
  /* at scale 0.25 the sums double: [2, 6, 508, -512] saturate */
  const int want_s[4] = {2, 6, 127, -128};
  runq("graph \"a\" { %a : i8[4] quant(scale=0.5, zp=0) = input %b : i8[4] quant(scale=0.5, zp=0) = input"
       " %y : i8[4] quant(scale=0.25, zp=0) = QAdd(%a, %b) @\"a\" return %y }",
       in, want_s, 4);
  /* zero points: (a - 1) + 2*(b - 2) with a = b = 3 -> 2 + 2 = 4 (+ zp -3 = 1) */
  const int8_t c[1] = {3};
  const void *in2[2] = {c, c};
  const int want_z[1] = {1};
  runq("graph \"a\" { %a : i8[1] quant(scale=1.0, zp=1) = input %b : i8[1] quant(scale=2.0, zp=2) = input"
       " %y : i8[1] quant(scale=1.0, zp=-3) = QAdd(%a, %b) @\"a\" return %y }",
       in2, want_z, 1);
}

static void test_qavgpool_divisors(void **state) {
  (void)state;
  const int8_t x[4] = {1, 2, 3, 4};
  const void *in[1] = {x};
  /* 2x2 windows, pads 1, stride 2: each window holds one value.  Excluding
   * pads the divisor is 1; including them it is 4: [0.25, 0.5, 0.75, 1]
   * -> [0, 0 (tie to even), 1, 1]. */
  const int excl[4] = {1, 2, 3, 4}, incl[4] = {0, 0, 1, 1};
  runq("graph \"p\" { %x : i8[1,1,2,2] quant(scale=1.0, zp=0) = input"
       " %y : i8[1,1,2,2] quant(scale=1.0, zp=0) = QAveragePool(%x) {count_include_pad=0, kernel_shape=[2, 2],"
       " pads=[1, 1, 1, 1], strides=[2, 2]} @\"p\" return %y }",
       in, excl, 4);
  runq("graph \"p\" { %x : i8[1,1,2,2] quant(scale=1.0, zp=0) = input"
       " %y : i8[1,1,2,2] quant(scale=1.0, zp=0) = QAveragePool(%x) {count_include_pad=1, kernel_shape=[2, 2],"
       " pads=[1, 1, 1, 1], strides=[2, 2]} @\"p\" return %y }",
       in, incl, 4);
  /* global mean with a zero point and a scale change: (x - 1) = [0, 1, 2, 3],
   * mean 1.5 * (1 / 0.5) = 3, + zp 5 = 8 */
  const int glob[1] = {8};
  runq("graph \"p\" { %x : i8[1,1,2,2] quant(scale=1.0, zp=1) = input"
       " %y : i8[1,1,1,1] quant(scale=0.5, zp=5) = QAveragePool(%x) {kernel_shape=[2, 2]} @\"p\" return %y }",
       in, glob, 1);
}

static void test_qrequant_shift_and_scale(void **state) {
  (void)state;
  /* uint8 zp 128 -> int8 zp 0: exactly x - 128 */
  const uint8_t u[3] = {0, 128, 255};
  const void *in[1] = {u};
  const int want[3] = {-128, 0, 127};
  runq("graph \"r\" { %x : u8[3] quant(scale=1.0, zp=128) = input"
       " %y : i8[3] quant(scale=1.0, zp=0) = QRequant(%x) {to=\"i8\"} @\"r\" return %y }",
       in, want, 3);
  /* scale 1 -> 2: [2.5, -3.5, 63.5, -64] -> [2, -4, 64, -64] */
  const int8_t x[4] = {5, -7, 127, -128};
  const void *in2[1] = {x};
  const int want2[4] = {2, -4, 64, -64};
  runq("graph \"r\" { %x : i8[4] quant(scale=1.0, zp=0) = input"
       " %y : i8[4] quant(scale=2.0, zp=0) = QRequant(%x) {to=\"i8\"} @\"r\" return %y }",
       in2, want2, 4);
}

static void test_int8_maxpool_padding_never_wins(void **state) {
  (void)state;
  /* MaxPool runs on int8 unchanged (same parameters in and out): a 2x2
   * window with pads 1 over all-negative values keeps them; padding is -inf
   * (the NPU's -128 pad that never wins), not the zero point. */
  const int8_t x[4] = {-100, -50, -128, -7};
  const void *in[1] = {x};
  const int want[9] = {-100, -50, -50, -100, -7, -7, -128, -7, -7};
  runq("graph \"m\" { %x : i8[1,1,2,2] quant(scale=1.0, zp=-128) = input"
       " %y : i8[*] = MaxPool(%x) {kernel_shape=[2, 2], pads=[1, 1, 1, 1], strides=[1, 1]} @\"m\" return %y }",
       in, want, 9);
}

static void test_multipliers(void **state) {
  (void)state;
  int32_t m;
  int s;
  assert_int_equal(quant_multiplier(1.0, &m, &s), 0);
  assert_int_equal(m, 1), assert_int_equal(s, 0);
  assert_int_equal(quant_multiplier(0.5, &m, &s), 0);
  assert_int_equal(m, 1 << 30), assert_int_equal(s, 31);
  assert_int_equal(quant_multiplier(0.3, &m, &s), 0); /* 0.6 * 2^-1: round(0.3 * 2^32) */
  assert_int_equal(m, 1288490189), assert_int_equal(s, 32);
  assert_int_equal(quant_multiplier(3.0, &m, &s), 0); /* 0.75 * 2^2 */
  assert_int_equal(m, 1610612736), assert_int_equal(s, 29);
  assert_int_equal(quant_multiplier(1e-25, &m, &s), 0); /* shift capped at 63 */
  assert_int_equal(s, 63);
  assert_int_equal(quant_multiplier_max(0.3, 20, &m, &s), 0); /* VPOOL-style cap */
  assert_int_equal(s, 20), assert_int_equal(m, 314573);
  assert_int_equal(quant_multiplier(2147483648.0, &m, &s), -1);
  assert_int_equal(quant_multiplier(0.0, &m, &s), -1);
  /* a mantissa that rounds up to 2^31 drops one bit of shift */
  assert_int_equal(quant_multiplier(0.99999999999, &m, &s), 0);
  assert_true(m > 0 && m <= INT32_MAX), assert_int_equal(s, 30);
}

/* Out of memory at every arena allocation through import, the graph passes
 * and the quantisation passes (QDQ folding, integer ops, ptq with one
 * calibration sample) gives an error value, never a crash or a leak. */
static void oom_through_quant(const char *model, const calib_data *c) {
  int succeeded = 0, failures = 0;
  for (long n = 0; n < 20000 && !succeeded; n++) {
    diag d = {{0}};
    arena_fail_after(n);
    ir_graph *g = onnx_import_file(model, NULL, 0, &d);
    pipeline_opts o = {.calib = c};
    if (g && pipeline_graph(g, &o, &d) == 0 && pipeline_quant(g, &o, &d) == 0) succeeded = 1;
    arena_fail_after(-1);
    if (!succeeded) {
      failures++;
      if (!strstr(d.msg, "out of memory")) fail_msg("%s n=%ld: unexpected message '%s'", model, n, d.msg);
    }
    ir_graph_free(g);
  }
  assert_true(succeeded);
  assert_true(failures > 20);
}

static void test_oom_quant_passes(void **state) {
  (void)state;
  oom_through_quant(MODELS_DIR "/ops/qdq_conv_u8_opset11.onnx", NULL);
  oom_through_quant(MODELS_DIR "/ops/qlinearconv_u8_opset11.onnx", NULL);
  npy_array x;
  char err[256];
  assert_int_equal(npy_read(MODELS_DIR "/nets/tiny_cnn.in0.npy", &x, err, sizeof err), 0);
  const void *samples[1] = {x.data};
  calib_data c = {.n_samples = 1, .n_inputs = 1, .samples = samples, .method = CALIB_MINMAX};
  oom_through_quant(MODELS_DIR "/nets/tiny_cnn.onnx", &c);
  npy_free(&x);
}

/* Calibration ranges of a one-input graph (y = Neg(x), x: f32[2]) over
 * samples whose rows are (min, max) of each sample. */
static calib_range spread_of(const float (*rows)[2], int n, calib_method m) {
  static const char text[] = "graph \"g\" {\n  %x : f32[2] = input\n  %y : f32[2] = Neg(%x)\n  return %y\n}\n";
  diag d = {0};
  ir_graph *g = ir_parse(text, sizeof text - 1, "spread", &d);
  assert_non_null(g);
  const void *samples[8];
  for (int i = 0; i < n; i++) samples[i] = rows[i];
  calib_data c = {.n_samples = n, .n_inputs = 1, .samples = samples, .method = m};
  calib_range *r;
  int nr;
  assert_int_equal(calibrate(g, &c, &r, &nr, &d), 0);
  calib_range x = r[g->inputs[0]->id];
  free(r);
  ir_graph_free(g);
  return x;
}

/* spread: per-sample maxima 1, 2, 3, 4 (mean 2.5, deviation 1.291) put the
 * top at 2.5 + 2.33 * 1.291 = 5.508, past the 4 seen, and minima -1 each
 * leave the bottom alone; one sample, or samples that agree, change
 * nothing; minmax keeps what was seen. */
static void test_calib_spread(void **state) {
  (void)state;
  const float rows[4][2] = {{-1, 1}, {-1, 2}, {-1, 3}, {-1, 4}}, same[3][2] = {{-2, 5}, {-2, 5}, {-2, 5}};
  calib_range r = spread_of(rows, 4, CALIB_SPREAD);
  assert_true(fabs(r.hi - (2.5 + 2.33 * sqrt(5.0 / 3.0))) < 1e-9 && r.lo == -1);
  r = spread_of(rows, 4, CALIB_MINMAX);
  assert_true(r.hi == 4 && r.lo == -1);
  r = spread_of(rows + 3, 1, CALIB_SPREAD);
  assert_true(r.hi == 4 && r.lo == -1);
  r = spread_of(same, 3, CALIB_SPREAD);
  assert_true(r.hi == 5 && r.lo == -2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_qconv_pad_zero_point_and_ties),
      cmocka_unit_test(test_qconv_saturation_and_clamp),
      cmocka_unit_test(test_qconv_raw_weight_zero_point),
      cmocka_unit_test(test_qmatmul_per_column),
      cmocka_unit_test(test_qadd_ties_and_saturation),
      cmocka_unit_test(test_qavgpool_divisors),
      cmocka_unit_test(test_qrequant_shift_and_scale),
      cmocka_unit_test(test_int8_maxpool_padding_never_wins),
      cmocka_unit_test(test_multipliers),
      cmocka_unit_test(test_oom_quant_passes),
      cmocka_unit_test(test_calib_spread),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
