/* test_npu_errors.c: invalid streams end with the documented error code and
 * command index (docs/isa.md section 7), never a crash or a hang, and never
 * touch memory outside the DRAM window (guard bytes around it stay intact;
 * ASan watches the rest). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "npu_internal.h"
#include "npu_model.h"
#include "stream_build.h"

enum { WIN = 4096, GUARD = 256 };

static uint8_t mem[GUARD + WIN + GUARD];

/* Runs sb on npu8 with a WIN-byte window between guard bytes, once per
 * stepping order of the model's units (the outcome must not depend on it);
 * checks the outcome and that the guards are untouched. */
static void expect_order(const sb_t *sb, int code, uint32_t index);
static void expect(const sb_t *sb, int code, uint32_t index) {
  for (int order = 0; order < 12; order++) {
    npu_model_step_order = order;
    expect_order(sb, code, index);
  }
  npu_model_step_order = 0;
}

static void expect_order(const sb_t *sb, int code, uint32_t index) {
  assert_false(sb->bad);
  memset(mem, 0xA5, sizeof mem);
  npu_model_t *m = npu_model_new(tsl_target_find("npu8"));
  assert_non_null(m);
  npu_run_t run = {sb->buf, sb->n, mem + GUARD, WIN, 1000000, 0, 0};
  npu_result_t r;
  int rc = npu_model_run(m, &run, &r);
  if (rc != code || r.index != index)
    fail_msg("got %d (%s) at %u, want %d at %u: %s", rc, tsl_err_name(rc), (unsigned)r.index, code, (unsigned)index,
             r.message);
  if (code) assert_true(strlen(r.message) > 10);
  for (int i = 0; i < GUARD; i++) {
    assert_int_equal(mem[i], 0xA5);
    assert_int_equal(mem[GUARD + WIN + i], 0xA5);
  }
  npu_model_free(m);
}

static sb_t *new_sb(void) { return calloc(1, sizeof(sb_t)); }

static void test_bad_opcode(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  SB_ADD(sb, nop);
  SB_ADD(sb, nop);
  sb_raw(sb, 0, 0, 0, 0); /* zeroed memory */
  expect(sb, TSL_ERR_BAD_OPCODE, 2);
  sb->n = 1;
  sb_raw(sb, 0xFF, 0, 0, 0);
  expect(sb, TSL_ERR_BAD_OPCODE, 1);
  sb->n = 0;
  sb_raw(sb, 0x12, 0, 0, 0); /* between LOAD and CFG_EXEC */
  expect(sb, TSL_ERR_BAD_OPCODE, 0);
  free(sb);
}

static void test_bad_fields(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  SB_ADD(sb, nop);
  sb_raw(sb, TSL_OP_NOP | 1u << 20, 0, 0, 0); /* reserved bit */
  expect(sb, TSL_ERR_BAD_FIELD, 1);
  sb->n = 0;
  SB_ADD(sb, load, .pop_prev = 1, .n0 = 8, .nx = 1, .ny = 1, .nz = 1); /* LOAD has no prev */
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, store, .push_next = 1, .n0 = 8, .oh = 1, .ow = 1); /* STORE has no next */
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, load, .n0 = 0, .nx = 1, .ny = 1, .nz = 1);
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, load, .n0 = 9, .nx = 1, .ny = 1, .nz = 1); /* > DIM at npu8 */
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, load, .mem = 3, .n0 = 8, .nx = 1, .ny = 1, .nz = 1);
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = 8, .pad = 1, .nx = 1, .ny = 1, .nz = 1);
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, nop);
  SB_ADD(sb, matmul, .oh = 1, .ow = 1); /* no CFG_EXEC yet: kh = 0 */
  expect(sb, TSL_ERR_BAD_FIELD, 1);
  sb->n = 0;
  SB_ADD(sb, cfg_epi, .lo = 5, .hi = 4);
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  sb->n = 0;
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127);
  SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .raw = 1, .n0 = 8, .oh = 1, .ow = 1);
  expect(sb, TSL_ERR_BAD_FIELD, 1);
  sb->n = 0;
  SB_ADD(sb, cfg_vec, .shift = 48, .hi = 1);
  SB_ADD(sb, cfg_exec, .kh = 1, .kw = 1, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1, .dil_x = 1, .in_h = 1,
         .in_w = 1);
  SB_ADD(sb, vpool, .oh = 1, .ow = 1);
  expect(sb, TSL_ERR_BAD_FIELD, 2);
  free(sb);
}

static void test_sram_ranges(void **state) {
  (void)state;
  const int64_t SPAD = tsl_target_find("npu8")->spad_rows, ACC = tsl_target_find("npu8")->acc_rows;
  sb_t *sb = new_sb();
  SB_ADD(sb, load, .n0 = 8, .row = SPAD - 2, .nx = 3, .ny = 1, .nz = 1); /* one row past */
  expect(sb, TSL_ERR_SPAD_RANGE, 0);
  sb->n = 0;
  SB_ADD(sb, load, .n0 = 8, .row = SPAD - 3, .nx = 3, .ny = 1, .nz = 1, .pad_left = 3); /* all pad: no DRAM, fits */
  expect(sb, TSL_ERR_NONE, 0);
  sb->n = 0;
  SB_ADD(sb, load, .mem = TSL_MEM_ACC, .n0 = 8, .row = ACC - 24, .nx = 5, .ny = 5, .nz = 1);
  expect(sb, TSL_ERR_ACC_RANGE, 0);
  sb->n = 0;
  SB_ADD(sb, load, .mem = TSL_MEM_PARAM, .n0 = 8, .row = 64, .nx = 1, .ny = 1, .nz = 1);
  expect(sb, TSL_ERR_PARAM_RANGE, 0);
  sb->n = 0;
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127);
  SB_ADD(sb, store, .n0 = 8, .oh = 1, .ow = 1, .param = 64);
  expect(sb, TSL_ERR_PARAM_RANGE, 1);
  sb->n = 0;
  /* the conv generator: the tile reads rows past the scratchpad */
  SB_ADD(sb, cfg_exec, .out_pitch = 4, .kh = 3, .kw = 3, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 100, .in_w = 100, .in_pitch = 100);
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = SPAD - 500, .wgt = 0, .acc = 0);
  expect(sb, TSL_ERR_SPAD_RANGE, 1);
  sb->n = 1;
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = -50, .wgt = 0, .acc = 0, .iy0 = -1, .ix0 = -1); /* pixel (0,0) at row -50 */
  expect(sb, TSL_ERR_SPAD_RANGE, 1);
  sb->n = 1;
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = -101, .wgt = 0, .acc = 0, .iy0 = 1, .ix0 = 0); /* row 0 of image = -1 */
  expect(sb, TSL_ERR_SPAD_RANGE, 1);
  sb->n = 1;
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = -100, .wgt = 0, .acc = 0, .iy0 = 1, .ix0 = 0); /* exactly row 0 */
  expect(sb, TSL_ERR_NONE, 0);
  sb->n = 1;
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = 0, .wgt = SPAD - 72, .acc = 0); /* 9 tiles of 8 rows: fits */
  expect(sb, TSL_ERR_NONE, 0);
  sb->n = 1;
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = 0, .wgt = SPAD - 71, .acc = 0);
  expect(sb, TSL_ERR_SPAD_RANGE, 1);
  sb->n = 1;
  SB_ADD(sb, matmul, .oh = 4, .ow = 4, .in = 0, .wgt = 0, .acc = ACC - 15); /* last row = ACC */
  expect(sb, TSL_ERR_ACC_RANGE, 1);
  free(sb);
}

static void test_dram_window(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  SB_ADD(sb, cfg_load, .stride_x = 8, .stride_y = 1000);
  SB_ADD(sb, load, .n0 = 8, .dram = WIN - 8, .nx = 1, .ny = 1, .nz = 1); /* last 8 bytes: fine */
  SB_ADD(sb, load, .n0 = 8, .dram = WIN - 7, .nx = 1, .ny = 1, .nz = 1); /* one past */
  expect(sb, TSL_ERR_DRAM_RANGE, 2);
  sb->n = 1;
  SB_ADD(sb, load, .n0 = 8, .dram = 0, .nx = 2, .ny = 6, .nz = 1); /* 5*1000 + 8 + 8 > 4096 */
  expect(sb, TSL_ERR_DRAM_RANGE, 1);
  sb->n = 1;
  SB_ADD(sb, load, .n0 = 8, .dram = 0, .nx = 2, .ny = 6, .nz = 1, .pad_bottom = 2); /* pad lines read nothing */
  expect(sb, TSL_ERR_NONE, 0);
  /* a loop walks off the end of the window: the body command is reported */
  sb->n = 1;
  SB_ADD(sb, loop, .count = 100, .body = 2, .stride_a = 64);
  SB_ADD(sb, nop);
  SB_ADD(sb, load, .n0 = 8, .dram = 0, .nx = 1, .ny = 1, .nz = 1);
  expect(sb, TSL_ERR_DRAM_RANGE, 3);
  /* negative effective address */
  sb->n = 1;
  SB_ADD(sb, loop, .count = 2, .body = 1, .stride_a = -16);
  SB_ADD(sb, load, .n0 = 8, .dram = 8, .nx = 1, .ny = 1, .nz = 1);
  expect(sb, TSL_ERR_DRAM_RANGE, 2);
  /* STORE to DRAM past the window; MARK record past the window */
  sb->n = 0;
  SB_ADD(sb, cfg_store, .src_pitch = 1, .stride_x = 8, .stride_y = 64);
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127);
  SB_ADD(sb, store, .n0 = 8, .oh = 64, .ow = 1, .dram = 0); /* 63*64 + 8 = 4040: fits */
  SB_ADD(sb, store, .n0 = 8, .oh = 65, .ow = 1, .dram = 0);
  expect(sb, TSL_ERR_DRAM_RANGE, 3);
  sb->n = 0;
  SB_ADD(sb, mark, .kernel = 1, .record = 1, .dram = WIN - TSL_MARK_RECORD_BYTES);
  SB_ADD(sb, mark, .kernel = 2, .record = 1, .dram = WIN - TSL_MARK_RECORD_BYTES + 1);
  expect(sb, TSL_ERR_DRAM_RANGE, 1);
  free(sb);
}

static void test_overlap(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  SB_ADD(sb, cfg_exec, .out_pitch = 3, .kh = 1, .kw = 1, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1,
         .dil_x = 1, .in_h = 4, .in_w = 4, .in_pitch = 4);
  SB_ADD(sb, matmul, .oh = 1, .ow = 4, .in = 0, .wgt = 100, .acc = 0); /* one line: pitch irrelevant */
  SB_ADD(sb, matmul, .oh = 2, .ow = 4, .in = 0, .wgt = 100, .acc = 0); /* lines alias */
  expect(sb, TSL_ERR_OVERLAP, 2);
  sb->n = 0;
  SB_ADD(sb, cfg_vec, .hi = 127, .lo = -128);
  SB_ADD(sb, vadd, .a = 10, .b = 100, .out = 10, .rows = 4); /* in place: fine */
  SB_ADD(sb, vadd, .a = 10, .b = 100, .out = 101, .rows = 4);
  expect(sb, TSL_ERR_OVERLAP, 2);
  sb->n = 0;
  SB_ADD(sb, cfg_vec, .hi = 127, .lo = -128);
  SB_ADD(sb, cfg_exec, .out_pitch = 2, .kh = 2, .kw = 2, .ncb = 1, .stride_y = 2, .stride_x = 2, .dil_y = 1,
         .dil_x = 1, .in_h = 4, .in_w = 4, .in_pitch = 4);
  SB_ADD(sb, vpool, .oh = 2, .ow = 2, .in = 0, .out = 16); /* input rows 0..15 */
  SB_ADD(sb, vpool, .oh = 2, .ow = 2, .in = 0, .out = 14);
  expect(sb, TSL_ERR_OVERLAP, 3);
  sb->n = 0;
  SB_ADD(sb, cfg_store, .src_pitch = 4, .spad_pitch = 4);
  SB_ADD(sb, cfg_epi, .lo = -128, .hi = 127);
  SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .dst_mem = TSL_DST_SPAD, .n0 = 8, .oh = 2, .ow = 4, .src_row = 0,
         .dst_row = 8);
  SB_ADD(sb, store, .src_mem = TSL_SRC_SPAD, .dst_mem = TSL_DST_SPAD, .n0 = 8, .oh = 2, .ow = 4, .src_row = 0,
         .dst_row = 7);
  expect(sb, TSL_ERR_OVERLAP, 3);
  free(sb);
}

static void test_deadlock(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  /* EXEC pops a token nobody pushes */
  SB_ADD(sb, nop);
  SB_ADD(sb, enop, .pop_prev = 1);
  expect(sb, TSL_ERR_DEADLOCK, 1);
  /* circular wait: LOAD waits for EXEC, EXEC waits for LOAD */
  sb->n = 0;
  SB_ADD(sb, load, .pop_next = 1, .push_next = 1, .n0 = 8, .nx = 1, .ny = 1, .nz = 1);
  SB_ADD(sb, enop, .pop_prev = 1, .push_prev = 1);
  expect(sb, TSL_ERR_DEADLOCK, 0);
  /* STORE blocked, LOAD fine: the first blocked unit in LOAD, EXEC, STORE order */
  sb->n = 0;
  SB_ADD(sb, load, .n0 = 8, .nx = 1, .ny = 1, .nz = 1);
  SB_ADD(sb, cfg_epi, .pop_prev = 1, .lo = -128, .hi = 127);
  expect(sb, TSL_ERR_DEADLOCK, 1);
  /* pushes beyond token_max (15 at npu8) with no consumer: the 16th push blocks */
  sb->n = 0;
  for (int i = 0; i < 16; i++) SB_ADD(sb, cfg_load, .push_next = 1);
  expect(sb, TSL_ERR_DEADLOCK, 15);
  /* ... but a consumer after them drains it */
  SB_ADD(sb, loop, .count = 16, .body = 1);
  SB_ADD(sb, enop, .pop_prev = 1);
  expect(sb, TSL_ERR_NONE, 0);
  /* a MARK barrier waits for a command that waits for a token after the MARK */
  sb->n = 0;
  SB_ADD(sb, enop, .pop_prev = 1);
  SB_ADD(sb, mark, .kernel = 3);
  SB_ADD(sb, cfg_load, .push_next = 1);
  expect(sb, TSL_ERR_DEADLOCK, 0);
  /* a full queue: the dispatcher blocks behind 9 EXEC commands waiting for a
   * token that a later LOAD would give */
  sb->n = 0;
  for (int i = 0; i < 9; i++) SB_ADD(sb, enop, .pop_prev = i == 0);
  SB_ADD(sb, cfg_load, .push_next = 1);
  expect(sb, TSL_ERR_DEADLOCK, 0);
  /* with room in the queue it completes */
  sb->n = 0;
  for (int i = 0; i < 8; i++) SB_ADD(sb, enop, .pop_prev = i == 0);
  SB_ADD(sb, cfg_load, .push_next = 1);
  expect(sb, TSL_ERR_NONE, 0);
  free(sb);
}

/* MARK reset: after its barrier the tokens held are gone and the
 * configuration registers are 0, as START leaves them; without it both carry
 * on. */
static void test_mark_reset(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  for (int reset = 0; reset < 2; reset++) {
    /* a token pushed before the MARK: the pop after it finds it, or not */
    sb->n = 0;
    SB_ADD(sb, cfg_load, .push_next = 1);
    SB_ADD(sb, mark, .kernel = 1, .reset = reset);
    SB_ADD(sb, enop, .pop_prev = 1);
    expect(sb, reset ? TSL_ERR_DEADLOCK : TSL_ERR_NONE, reset ? 2 : 0);
    /* 15 tokens (token_max at npu8) held, then 15 more: room only after a reset */
    sb->n = 0;
    SB_ADD(sb, loop, .count = 15, .body = 1);
    SB_ADD(sb, cfg_load, .push_next = 1);
    SB_ADD(sb, mark, .kernel = 1, .reset = reset);
    SB_ADD(sb, loop, .count = 15, .body = 1);
    SB_ADD(sb, cfg_load, .push_next = 1);
    expect(sb, reset ? TSL_ERR_NONE : TSL_ERR_DEADLOCK, reset ? 0 : 4);
    /* a pooling configuration set before the MARK: VPOOL runs with it, or
     * finds CFG_EXEC's kh 0 */
    sb->n = 0;
    SB_ADD(sb, cfg_exec, .out_pitch = 1, .kh = 1, .kw = 1, .ncb = 1, .stride_y = 1, .stride_x = 1, .dil_y = 1,
           .dil_x = 1, .in_h = 1, .in_w = 1, .in_pitch = 1, .cb_stride = 1);
    SB_ADD(sb, cfg_vec, .lo = -128, .hi = 127);
    SB_ADD(sb, mark, .kernel = 1, .reset = reset);
    SB_ADD(sb, vpool, .oh = 1, .ow = 1, .in = 0, .out = 64);
    expect(sb, reset ? TSL_ERR_BAD_FIELD : TSL_ERR_NONE, reset ? 3 : 0);
  }
  free(sb);
}

static void test_loop_errors(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  SB_ADD(sb, nop);
  SB_ADD(sb, loop, .count = 2, .body = 2);
  SB_ADD(sb, nop); /* body needs 2 commands, the stream has 1 left */
  expect(sb, TSL_ERR_LOOP, 1);
  sb->n = 0;
  SB_ADD(sb, loop, .count = 2, .body = 2);
  SB_ADD(sb, loop, .count = 2, .body = 2); /* inner body leaves the outer one */
  SB_ADD(sb, nop);
  SB_ADD(sb, nop);
  expect(sb, TSL_ERR_LOOP, 1);
  sb->n = 0;
  for (int i = 0; i < 5; i++) SB_ADD(sb, loop, .count = 1, .body = 5 - i); /* depth 5 > 4 */
  SB_ADD(sb, nop);
  expect(sb, TSL_ERR_LOOP, 4);
  sb->n = 0;
  SB_ADD(sb, loop, .count = 0, .body = 1);
  SB_ADD(sb, nop);
  expect(sb, TSL_ERR_BAD_FIELD, 0);
  /* loops end: 65535^4 would take forever; the model's dispatch limit stops it */
  sb->n = 0;
  for (int i = 0; i < 4; i++) SB_ADD(sb, loop, .count = 65535, .body = 4 - i);
  SB_ADD(sb, nop);
  expect(sb, NPU_MODEL_ERR_LIMIT, 4);
  free(sb);
}

/* The work budget with the library's defaults (a zero-initialised npu_run_t,
 * as compiler/run/run_model.c passes): three nested 65535-iteration loops used to
 * run 2^32 commands (100 s); the default dispatch limit ends them, and a
 * cycle limit ends a run whose few commands cost many cycles. */
static void test_work_budget(void **state) {
  (void)state;
  sb_t *sb = new_sb();
  for (int i = 0; i < 3; i++) SB_ADD(sb, loop, .count = 65535, .body = 3 - i);
  SB_ADD(sb, nop);
  assert_false(sb->bad);
  npu_model_t *m = npu_model_new(tsl_target_find("npu8"));
  assert_non_null(m);
  npu_run_t run = {.stream = sb->buf, .stream_len = sb->n, .dram = mem + GUARD, .dram_size = WIN};
  npu_result_t r;
  assert_int_equal(npu_model_run(m, &run, &r), NPU_MODEL_ERR_LIMIT);
  assert_int_equal(r.index, 3);
  assert_true(r.dispatched == NPU_MODEL_DEFAULT_MAX_DISPATCH + 1);
  assert_non_null(strstr(r.message, "the dispatch limit"));
  /* the cycle limit: NOPs take a front-end cycle each */
  run.max_dispatch = (uint64_t)1 << 40;
  run.max_cycles = 5000;
  assert_int_equal(npu_model_run(m, &run, &r), NPU_MODEL_ERR_LIMIT);
  assert_non_null(strstr(r.message, "more than 5000 simulated cycles (the cycle limit)"));
  assert_true(npu_model_counters(m)[TSL_CNT_CYCLES] <= 5001);
  /* a stream under both limits runs as before */
  sb->n = 0;
  SB_ADD(sb, loop, .count = 100, .body = 1);
  SB_ADD(sb, nop);
  run.stream_len = sb->n;
  assert_int_equal(npu_model_run(m, &run, &r), TSL_ERR_NONE);
  npu_model_free(m);
  free(sb);
}

static void test_stream_range(void **state) {
  (void)state;
  npu_model_t *m = npu_model_new(tsl_target_find("npu8"));
  static uint8_t sram[16384];
  npu_result_t r;
  memset(sram, 0, sizeof sram);
  sram[0] = TSL_OP_NOP;
  assert_int_equal(npu_model_run_sram(m, sram, sizeof sram, 0, 1, NULL, 0, &r), TSL_ERR_NONE);
  assert_int_equal(npu_model_run_sram(m, sram, sizeof sram, 8, 1, NULL, 0, &r), TSL_ERR_STREAM_RANGE);
  assert_int_equal(npu_model_run_sram(m, sram, sizeof sram, 16368, 2, NULL, 0, &r), TSL_ERR_STREAM_RANGE);
  assert_int_equal(npu_model_run_sram(m, sram, sizeof sram, 16368, 1, NULL, 0, &r), TSL_ERR_BAD_OPCODE);
  assert_non_null(strstr(r.message, "BAD_OPCODE"));
  npu_model_free(m);
  assert_null(npu_model_new(NULL));
}

/* The stream fetch: CTRL.FETCH's checks and codes as the RTL's (top_tb's
 * fetch checks): FETCH_RANGE for misaligned or out-of-range sources and
 * destinations, FETCH_OVERLAP for a fetch into the running stream and a
 * START over a fetch in flight, and a ping-pong of halves. */
static void test_fetch(void **state) {
  (void)state;
  npu_model_t *m = npu_model_new(tsl_target_find("npu8"));
  static uint8_t sram[16384], win[4096];
  npu_fetch_t f;
  npu_result_t r;
  memset(sram, 0xCC, sizeof sram);
  for (size_t i = 0; i < sizeof win; i++) win[i] = (uint8_t)(i * 7 + 1);
  /* refused, nothing pending, nothing written */
  assert_int_equal(npu_fetch_start(&f, win, 4096, 4, 0, 1, 16384, 0, 0), TSL_ERR_FETCH_RANGE);
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0, 8, 1, 16384, 0, 0), TSL_ERR_FETCH_RANGE);
  assert_int_equal(npu_fetch_start(&f, win, 4096, 4096 - 16, 0, 2, 16384, 0, 0), TSL_ERR_FETCH_RANGE);
  assert_int_equal(npu_fetch_start(&f, win, 16, 0, 0, 2, 16384, 0, 0), TSL_ERR_FETCH_RANGE);
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0xFFFFFFF0u, 0, 2, 16384, 0, 0), TSL_ERR_FETCH_RANGE);
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0, 16384 - 16, 2, 16384, 0, 0), TSL_ERR_FETCH_RANGE);
  assert_false(f.pending);
  for (size_t i = 0; i < sizeof sram; i++) assert_int_equal(sram[i], 0xCC);
  /* an empty fetch: no error, nothing pending */
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0, 0, 0, 16384, 0, 0), TSL_ERR_NONE);
  assert_false(f.pending);
  /* during a run of rows 0..2: into row 2 refused, rows 3..5 taken */
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0, 32, 3, 16384, 0, 3), TSL_ERR_FETCH_OVERLAP);
  assert_int_equal(npu_fetch_start(&f, win, 4096, 8, 48, 3, 16384, 0, 3), TSL_ERR_NONE);
  assert_true(f.pending);
  npu_fetch_finish(&f, sram);
  assert_false(f.pending);
  assert_memory_equal(sram + 48, win + 8, 48);
  assert_int_equal(sram[47], 0xCC);
  assert_int_equal(sram[96], 0xCC);
  /* a START over a fetch in flight: FETCH_OVERLAP at index 0, the fetch still pending */
  memset(win, 0, 64);
  win[0] = TSL_OP_NOP;
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0, 128, 1, 16384, 0, 0), TSL_ERR_NONE);
  assert_int_equal(npu_model_run_fetching(m, sram, sizeof sram, 128, 1, NULL, 0, &f, &r), TSL_ERR_FETCH_OVERLAP);
  assert_int_equal(r.index, 0);
  assert_non_null(strstr(r.message, "FETCH_OVERLAP"));
  assert_true(f.pending);
  /* beside it: the fetch completes, then the run (of what was fetched) */
  sram[112] = TSL_OP_NOP;
  memset(sram + 113, 0, 15);
  assert_int_equal(npu_model_run_fetching(m, sram, sizeof sram, 112, 1, NULL, 0, &f, &r), TSL_ERR_NONE);
  assert_false(f.pending);
  assert_int_equal(npu_model_run_fetching(m, sram, sizeof sram, 128, 1, NULL, 0, &f, &r), TSL_ERR_NONE);
  /* ping-pong: kernel k runs from one half while kernel k+1 is fetched into the other */
  memset(win, 0, sizeof win);
  for (int k = 0; k < 6; k++) {
    static sb_t sb;
    memset(&sb, 0, sizeof sb);
    SB_ADD(&sb, mark, .kernel = 100 + k);
    SB_ADD(&sb, nop);
    memcpy(win + 64 * k, sb.buf, 32);
  }
  uint32_t half = 8192;
  assert_int_equal(npu_fetch_start(&f, win, 4096, 0, 0, 2, 16384, 0, 0), TSL_ERR_NONE);
  npu_fetch_finish(&f, sram);
  for (int k = 0; k < 6; k++) {
    uint32_t off = (uint32_t)(k % 2) * half;
    if (k + 1 < 6)
      assert_int_equal(npu_fetch_start(&f, win, 4096, 64u * (k + 1), ((k + 1) % 2) * half, 2, 16384, off, 2),
                       TSL_ERR_NONE);
    assert_int_equal(npu_model_run_fetching(m, sram, sizeof sram, off, 2, NULL, 0, &f, &r), TSL_ERR_NONE);
    assert_int_equal(npu_model_nsnapshots(m), 1);
    assert_int_equal(npu_model_snapshot(m, 0)->kernel, 100 + k);
  }
  npu_model_free(m);
}

/* Random words with valid opcodes: every run ends with some outcome, inside
 * the window (ASan/UBSan and the guards check the rest). */
static void test_random_streams(void **state) {
  (void)state;
  static const uint8_t ops[] = {TSL_OP_NOP,    TSL_OP_LOOP,  TSL_OP_MARK,    TSL_OP_CFG_LOAD, TSL_OP_LOAD,
                                TSL_OP_CFG_EXEC, TSL_OP_MATMUL, TSL_OP_DWCONV, TSL_OP_CFG_VEC,  TSL_OP_VADD,
                                TSL_OP_VPOOL, TSL_OP_ENOP,  TSL_OP_CFG_STORE, TSL_OP_CFG_EPI, TSL_OP_STORE};
  uint32_t x = 2024;
  int outcomes[128] = {0};
  sb_t *sb = new_sb();
  for (int iter = 0; iter < 3000; iter++) {
    sb->n = 0;
    int n = 1 + (int)(x % 12);
    for (int i = 0; i < n; i++) {
      uint32_t w[4];
      for (int k = 0; k < 4; k++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        w[k] = x;
      }
      unsigned op = ops[w[0] % sizeof ops];
      const tsl_cmd_desc_t *d = tsl_cmd_desc(op);
      /* mostly clear reserved bits and keep fields small, so checks pass often */
      for (int k = 0; k < 4; k++) {
        if (x & 1) w[k] &= d->used[k];
        if (x & 2) w[k] &= 0x0F0F0F0Fu;
        if (x & 4) w[k] &= 0x03030303u;
      }
      w[0] = (w[0] & ~0xFFu) | op;
      if (op == TSL_OP_LOOP) w[0] = op | (1u + w[1] % 3u) << 8 | 1u << 24; /* small count, body 1 */
      sb_raw(sb, w[0], w[1], w[2], w[3]);
    }
    npu_model_t *m = npu_model_new(tsl_target_find(iter % 3 == 0 ? "npu4" : "npu8"));
    memset(mem, 0xA5, sizeof mem);
    npu_run_t run = {sb->buf, sb->n, mem + GUARD, WIN, 100000, (int)(iter & 1), 0};
    npu_result_t r;
    int rc = npu_model_run(m, &run, &r);
    assert_true(rc >= 0 && rc < 128);
    outcomes[rc]++;
    for (int i = 0; i < GUARD; i++) assert_true(mem[i] == 0xA5 && mem[GUARD + WIN + i] == 0xA5);
    npu_model_free(m);
  }
  /* the generator reaches successes and several error kinds */
  assert_true(outcomes[TSL_ERR_NONE] > 10);
  assert_true(outcomes[TSL_ERR_BAD_FIELD] > 10);
  assert_true(outcomes[TSL_ERR_DEADLOCK] > 10);
  free(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_opcode),   cmocka_unit_test(test_bad_fields),  cmocka_unit_test(test_sram_ranges),
      cmocka_unit_test(test_dram_window), cmocka_unit_test(test_overlap),  cmocka_unit_test(test_deadlock),    cmocka_unit_test(test_mark_reset), cmocka_unit_test(test_loop_errors),
      cmocka_unit_test(test_stream_range), cmocka_unit_test(test_random_streams), cmocka_unit_test(test_work_budget),
      cmocka_unit_test(test_fetch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
