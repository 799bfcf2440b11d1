/* test_npu_profile.c: the profile JSON writer: per-kernel counters are the
 * differences of consecutive MARK snapshots of a real model run, names are
 * escaped, and the document has the keys docs/profile-format.md lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "npu_profile.h"
#include "stream_build.h"

static void test_profile_json(void **state) {
  (void)state;
  const tsl_target_t *t = tsl_target_find("npu8");
  uint8_t dram[256] = {0};
  sb_t *sb = calloc(1, sizeof *sb);
  SB_ADD(sb, mark, .kernel = 0);
  SB_ADD(sb, cfg_load, .stride_x = 8);
  SB_ADD(sb, load, .n0 = 8, .nx = 4, .ny = 1, .nz = 1);
  SB_ADD(sb, mark, .kernel = 0);
  SB_ADD(sb, load, .n0 = 3, .nx = 2, .ny = 1, .nz = 1);
  SB_ADD(sb, mark, .kernel = 1);
  assert_false(sb->bad);
  npu_model_t *m = npu_model_new(t);
  npu_run_t run = {sb->buf, sb->n, dram, sizeof dram, 0, 0, 0};
  npu_result_t r;
  assert_int_equal(npu_model_run(m, &run, &r), 0);
  const char *nodes0[] = {"Conv_0", "Relu_1"};
  npu_kernel_info_t kin[2] = {{"conv1+relu", nodes0, 2, 100, 4000, 123}, {"quote\"back\\slash\n", NULL, 0, 7, 8, 0}};
  npu_fallback_info_t fb = {"Softmax", "prob", 5000};
  npu_profile_t p = {t, "model", "net.tpkg", npu_model_counters(m), npu_model_snapshot(m, 0), npu_model_nsnapshots(m),
                     kin, 2, &fb, 1, NULL, 0};
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_int_equal(npu_profile_write_json(f, &p), 0);
  fclose(f);
  assert_non_null(strstr(buf, "\"format\": \"tessel-profile\""));
  assert_non_null(strstr(buf, "\"version\": 1"));
  assert_non_null(strstr(buf, "\"target\": \"npu8\""));
  assert_non_null(strstr(buf, "\"engine\": \"model\""));
  assert_non_null(strstr(buf, "\"onnx_nodes\": [\"Conv_0\", \"Relu_1\"]"));
  assert_non_null(strstr(buf, "\"name\": \"quote\\\"back\\\\slash\\u000a\""));
  assert_non_null(strstr(buf, "{\"index\": 0, \"op\": \"Softmax\", \"name\": \"prob\", \"core_cycles\": 5000}"));
  /* kernel 0: 4 rows of 8 bytes; kernel 1: 2 rows of 3 bytes (differences of marks) */
  char *k0 = strstr(buf, "\"index\": 0, \"id\": 0"), *k1 = strstr(buf, "\"index\": 1, \"id\": 1");
  assert_non_null(k0);
  assert_non_null(k1);
  assert_non_null(strstr(k0, "\"DRAM_RD_BYTES\": 32"));
  assert_non_null(strstr(k0, "\"compulsory_dram_bytes\": 4000, \"useful_macs\": 123}"));
  assert_non_null(strstr(k1, "\"DRAM_RD_BYTES\": 6"));
  assert_null(strstr(buf, "\"index\": 2, \"id\""));
  int depth = 0, max = 0;
  for (char *c = buf; *c; c++) { /* braces balance (no braces inside our strings) */
    if (*c == '{' || *c == '[') depth++, max = depth > max ? depth : max;
    if (*c == '}' || *c == ']') depth--;
    assert_true(depth >= 0);
  }
  assert_int_equal(depth, 0);
  free(buf);
  npu_model_free(m);
  free(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_profile_json)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
