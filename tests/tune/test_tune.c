/* Unit tests of the tuner's pieces (cmocka, under ASan/UBSan): log lines
 * written and read back, foreign and corrupt lines, the best-record table,
 * the knob space and its moves, the least-squares refit and the error
 * figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tune/tune_fit.h"
#include "tune/tune_launch.h"
#include "tune/tune_log.h"
#include "tune/tune_space.h"

static tune_record sample(const char *key, uint64_t cycles, int oh) {
  tune_record r;
  memset(&r, 0, sizeof r);
  r.residency = -1;
  snprintf(r.key, sizeof r.key, "%s", key);
  snprintf(r.target, sizeof r.target, "npu8");
  snprintf(r.engine, sizeof r.engine, "model");
  snprintf(r.simulator, sizeof r.simulator, "tessel-sim target npu8 hash 0x1 dim 8");
  snprintf(r.model, sizeof r.model, "m\"odel.onnx");
  r.sched = (lower_sched){.oh_tile = oh, .ob_group = 2, .ob_chunk = 4, .order = 2, .wbuf = 2};
  r.cycles = cycles;
  r.estimate = cycles - 1;
  r.counters[0] = cycles;
  r.n_kernels = 2;
  r.trial = 3;
  return r;
}

/* Writes r to a memory stream and returns the line (malloc'd). */
static char *line_of(const tune_record *r) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  assert_non_null(f);
  tune_log_write(f, r);
  fclose(f);
  return buf;
}

static void test_round_trip(void **state) {
  (void)state;
  tune_record r = sample("npu8 conv c8 8x8 m16 8x8 k3x3", 1234, 5), back;
  char *line = line_of(&r);
  diag d = {{0}};
  assert_int_equal(tune_log_parse_line(line, strlen(line), &back, &d), 1);
  assert_string_equal(back.key, r.key);
  assert_string_equal(back.model, r.model); /* the quote was escaped and decoded */
  assert_int_equal(back.cycles, 1234);
  assert_int_equal(back.estimate, 1233);
  assert_int_equal(back.sched.oh_tile, 5);
  assert_int_equal(back.sched.order, 2);
  assert_int_equal(back.sched.wbuf, 2);
  assert_int_equal(back.residency, -1);
  assert_int_equal(back.counters[0], 1234);
  assert_int_equal(back.n_kernels, 2);
  free(line);
  /* A log written before the wbuf knob: its schedules keep the default (0). */
  const char *old = "{\"format\": \"tessel-tune\", \"version\": 1, \"key\": \"k\", \"target\": \"npu8\", \"sched\": "
                    "{\"oh_tile\": 1, \"ob_group\": 1, \"ob_chunk\": 1, \"order\": 1}, \"status\": \"ok\", \"cycles\": 5}";
  assert_int_equal(tune_log_parse_line(old, strlen(old), &back, &d), 1);
  assert_int_equal(back.sched.wbuf, 0);
  /* A graph record. */
  r.residency = 0;
  line = line_of(&r);
  assert_int_equal(tune_log_parse_line(line, strlen(line), &back, &d), 1);
  assert_int_equal(back.residency, 0);
  free(line);
}

static void test_foreign_and_corrupt(void **state) {
  (void)state;
  tune_record r;
  diag d = {{0}};
  const char *foreign = "{\"format\": \"tessel-profile\", \"version\": 1}";
  assert_int_equal(tune_log_parse_line(foreign, strlen(foreign), &r, &d), 0);
  const char *bad[] = {
      "{not json",
      "{\"format\": \"tessel-tune\", \"version\": 2}",
      "{\"format\": \"tessel-tune\", \"version\": 1, \"target\": \"npu8\", \"sched\": {}, \"status\": \"ok\", \"cycles\": 5}",
      "{\"format\": \"tessel-tune\", \"version\": 1, \"key\": \"k\", \"target\": \"npu8\", \"sched\": {\"oh_tile\": 1, "
      "\"ob_group\": 9, \"ob_chunk\": 1, \"order\": 1}, \"status\": \"ok\", \"cycles\": 5}",
      "{\"format\": \"tessel-tune\", \"version\": 1, \"key\": \"k\", \"target\": \"npu8\", \"sched\": {\"oh_tile\": 1, "
      "\"ob_group\": 1, \"ob_chunk\": 1, \"order\": 1, \"wbuf\": 3}, \"status\": \"ok\", \"cycles\": 5}",
      "{\"format\": \"tessel-tune\", \"version\": 1, \"key\": \"k\", \"target\": \"npu8\", \"sched\": {\"oh_tile\": 1, "
      "\"ob_group\": 1, \"ob_chunk\": 1, \"order\": 1}, \"status\": \"ok\", \"cycles\": 0}",
      "{\"format\": \"tessel-tune\", \"version\": 1, \"key\": \"k\", \"target\": \"npu8\", \"sched\": {\"oh_tile\": 1, "
      "\"ob_group\": 1, \"ob_chunk\": 1, \"order\": 1}, \"status\": \"ok\", \"cycles\": -3}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    diag e = {{0}};
    assert_int_equal(tune_log_parse_line(bad[i], strlen(bad[i]), &r, &e), -1);
    assert_true(e.msg[0] != 0);
  }
}

static void test_table_best(void **state) {
  (void)state;
  tune_table t = {0};
  tune_record a = sample("A", 100, 1), b = sample("A", 90, 2), c = sample("A", 90, 3), e = sample("B", 50, 4);
  tune_record f = sample("A", 10, 5);
  f.status = TUNE_STATUS_TIMEOUT;
  assert_int_equal(tune_table_add(&t, &a), 0);
  assert_int_equal(tune_table_add(&t, &b), 0);
  assert_int_equal(tune_table_add(&t, &c), 0); /* a tie keeps the earlier */
  assert_int_equal(tune_table_add(&t, &e), 0);
  assert_int_equal(tune_table_add(&t, &f), 0); /* failed: never the best */
  assert_int_equal(t.n, 2);
  assert_int_equal(t.failed, 1);
  lower_sched s;
  assert_int_equal(tune_table_sched(&t, "A", &s), 1);
  assert_int_equal(s.oh_tile, 2);
  assert_int_equal(tune_table_sched(&t, "C", &s), 0);
  tune_table_free(&t);
}

static void test_table_load(void **state) {
  (void)state;
  char path[] = "/tmp/tessel-tune-test-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  tune_record a = sample("A", 100, 1);
  tune_log_write(f, &a);
  fputs("\n{\"format\": \"x\"}\ngarbage\n", f);
  for (int i = 0; i < 70000; i++) fputc('x', f); /* longer than any record */
  fputc('\n', f);
  a.cycles = 50;
  tune_log_write(f, &a);
  fclose(f);
  tune_table t = {.keep_all = 1};
  diag d = {{0}};
  assert_int_equal(tune_table_load(&t, path, NULL, &d), 0);
  assert_int_equal(t.records, 2);
  assert_int_equal(t.skipped, 3);
  assert_int_equal(t.n_all, 2);
  assert_int_equal(tune_table_find(&t, "A")->cycles, 50);
  tune_table_free(&t);
  unlink(path);
  assert_int_equal(tune_table_load(&t, path, NULL, &d), -1);
  assert_non_null(strstr(d.msg, "cannot open"));
}

static void test_space(void **state) {
  (void)state;
  tune_space s = tune_space_of(20, 9, 8); /* 3 output blocks, 9 rows */
  assert_int_equal(s.oh_max, 9);
  assert_int_equal(s.g_max, 3);
  assert_int_equal(s.chunk_max, 3);
  assert_int_equal(tune_space_size(&s), 9 * 3 * 3 * 2 * 2);
  int seen[9][3][3][2][2] = {{{{{0}}}}};
  for (uint64_t i = 0; i < tune_space_size(&s); i++) {
    lower_sched x = tune_space_point(&s, i);
    assert_in_range(x.oh_tile, 1, 9);
    assert_in_range(x.ob_group, 1, 3);
    assert_in_range(x.ob_chunk, 1, 3);
    assert_in_range(x.order, 1, 2);
    assert_in_range(x.wbuf, 1, 2);
    seen[x.oh_tile - 1][x.ob_group - 1][x.ob_chunk - 1][x.order - 1][x.wbuf - 1]++;
  }
  for (int a = 0; a < 9; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 3; c++)
        for (int o = 0; o < 2; o++)
          for (int w = 0; w < 2; w++) assert_int_equal(seen[a][b][c][o][w], 1);
  tune_rng r1 = tune_rng_seed(5), r2 = tune_rng_seed(5);
  lower_sched x = tune_space_random(&s, &r1);
  for (int i = 0; i < 1000; i++) {
    lower_sched y = tune_space_random(&s, &r1);
    lower_sched z = tune_space_mutate(&s, &x, i % 2 ? &y : NULL, &r1);
    assert_in_range(z.oh_tile, 1, 9);
    assert_in_range(z.ob_group, 1, 3);
    assert_in_range(z.ob_chunk, 1, 3);
    assert_in_range(z.order, 1, 2);
    assert_in_range(z.wbuf, 1, 2);
    x = z;
  }
  /* Same seed, same sequence. */
  tune_rng r3 = tune_rng_seed(5);
  for (int i = 0; i < 10; i++) assert_int_equal(tune_rng_next(&r2), tune_rng_next(&r3));
  tune_space big = tune_space_of(4096, 1000, 8);
  assert_int_equal(big.oh_max, 255);
  assert_int_equal(big.g_max, 7);
}

static void test_fit(void **state) {
  (void)state;
  /* Measured = 1.2 * estimate + 0.5 * EXEC busy, exactly: the fit finds it. */
  enum { N = 12 };
  double x[N][TUNE_FIT_NF], y[N], pe[N], pf[N];
  for (int i = 0; i < N; i++) {
    uint64_t busy[4] = {1, (uint64_t)(100 + 37 * i), (uint64_t)(300 + 11 * i * i), (uint64_t)(50 + 5 * i)};
    uint64_t est = 400 + 20 * (uint64_t)i + (uint64_t)((i * 7) % 5) * 30;
    tune_fit_features(est, busy, x[i]);
    y[i] = 1.2 * (double)est + 0.5 * (double)busy[2];
    pe[i] = (double)est;
  }
  tune_fit f = tune_fit_solve((const double(*)[TUNE_FIT_NF])x, y, N);
  assert_int_equal(f.n, N);
  for (int i = 0; i < N; i++) pf[i] = tune_fit_predict(&f, x[i]);
  assert_true(tune_fit_mae(pf, y, N) < 0.01);
  assert_true(tune_fit_mae(pe, y, N) > 0.2);
  /* Too few samples: the identity. */
  tune_fit g = tune_fit_solve((const double(*)[TUNE_FIT_NF])x, y, 2);
  assert_int_equal(g.n, 0);
  assert_true(g.w[0] == 1.0 && g.w[1] == 0.0 && g.w[TUNE_FIT_NF - 1] == 0.0);
  /* Spearman: monotone = 1, reversed = -1, ties averaged. */
  double a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50}, c[5] = {5, 4, 3, 2, 1}, e[5] = {1, 1, 1, 1, 1};
  assert_true(tune_fit_spearman(a, b, 5) > 0.999);
  assert_true(tune_fit_spearman(a, c, 5) < -0.999);
  assert_true(tune_fit_spearman(a, e, 5) == 0.0);
  assert_true(tune_fit_mae(a, a, 5) == 0.0);
}

/* The launcher's quoting (every task command goes through sh) and options. */
static void test_launch(void **state) {
  (void)state;
  char q[64];
  assert_int_equal(tune_shell_quote("a b", q, sizeof q), 0);
  assert_string_equal(q, "'a b'");
  assert_int_equal(tune_shell_quote("it's $x", q, sizeof q), 0);
  assert_string_equal(q, "'it'\\''s $x'");
  assert_int_equal(tune_shell_quote("", q, sizeof q), 0);
  assert_string_equal(q, "''");
  assert_int_equal(tune_shell_quote("0123456789", q, 13), 0);
  assert_int_equal(tune_shell_quote("0123456789", q, 12), -1); /* does not fit: an error, never cut */
  tune_launcher l = {0};
  diag d = {{0}};
  assert_int_equal(tune_launch_opt(&l, 0, "slurm", &d), 0);
  assert_int_equal(l.kind, TUNE_LAUNCH_SLURM);
  d = (diag){{0}};
  assert_int_equal(tune_launch_opt(&l, 0, "lsf", &d), -1);
  assert_non_null(strstr(d.msg, "expected local, parallel or slurm"));
  for (int i = 0; i < TUNE_LAUNCH_MAX_SBATCH; i++) assert_int_equal(tune_launch_opt(&l, 4, "--qos=x", &d), 0);
  assert_int_equal(tune_launch_opt(&l, 4, "--qos=x", &d), -1);
  d = (diag){{0}};
  assert_int_equal(tune_launch_check(&l, NULL, &d), -1); /* a remote launcher needs a work folder */
  assert_non_null(strstr(d.msg, "--workdir"));
  l = (tune_launcher){.kind = TUNE_LAUNCH_LOCAL, .partition = "p"};
  d = (diag){{0}};
  assert_int_equal(tune_launch_check(&l, NULL, &d), -1);
  assert_non_null(strstr(d.msg, "--partition is for --launcher slurm"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip), cmocka_unit_test(test_foreign_and_corrupt), cmocka_unit_test(test_table_best),
      cmocka_unit_test(test_table_load), cmocka_unit_test(test_space),         cmocka_unit_test(test_fit),
      cmocka_unit_test(test_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
