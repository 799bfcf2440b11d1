/* test_isa_gen.c: the generated encoders and decoders (build/gen/tessel_isa.h)
 * round-trip every command at every field's extremes, reject reserved bits,
 * out-of-range values and other opcodes, and the descriptor tables agree with
 * the per-command functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tessel_isa.h"
#include "tessel_targets.h"

static int64_t field_min(const tsl_field_desc_t *f) {
  return f->type == 's' ? -((int64_t)1 << (f->width - 1)) : 0;
}
static int64_t field_max(const tsl_field_desc_t *f) {
  return f->type == 's' ? ((int64_t)1 << (f->width - 1)) - 1 : ((int64_t)1 << f->width) - 1;
}

static void set_field(void *s, const tsl_field_desc_t *f, int64_t v) {
  memcpy((char *)s + f->offset, &v, sizeof v);
}
static int64_t get_field(const void *s, const tsl_field_desc_t *f) {
  int64_t v;
  memcpy(&v, (const char *)s + f->offset, sizeof v);
  return v;
}

/* Encodes s, checks every field reads back through the descriptor, decodes
 * into a fresh struct and checks it equals s. */
static void round_trip(const tsl_cmd_desc_t *d, const void *s) {
  uint32_t w[4];
  int64_t back[32];
  assert_true(d->size <= sizeof back);
  assert_int_equal(d->encode(s, w), 0);
  assert_int_equal(tsl_opcode(w), d->opcode);
  for (int i = 0; i < d->nfields; i++)
    assert_true(tsl_field_value(w, &d->fields[i]) == get_field(s, &d->fields[i]));
  memset(back, 0x5A, sizeof back);
  assert_int_equal(d->decode(w, back), 0);
  assert_memory_equal(back, s, d->nfields ? d->size : 0);
  for (int i = 0; i < 4; i++) assert_int_equal(w[i] & ~d->used[i], 0);
}

static void test_round_trip_extremes(void **state) {
  (void)state;
  for (int c = 0; c < TSL_NCMDS; c++) {
    const tsl_cmd_desc_t *d = &tsl_cmd_descs[c];
    int64_t s[32];
    /* all fields at minimum, all at maximum */
    for (int pass = 0; pass < 2; pass++) {
      memset(s, 0, sizeof s);
      for (int i = 0; i < d->nfields; i++)
        set_field(s, &d->fields[i], pass ? field_max(&d->fields[i]) : field_min(&d->fields[i]));
      round_trip(d, s);
    }
    /* each field alone at max, at min, at -1 (signed) / 1: catches overlap */
    for (int i = 0; i < d->nfields; i++) {
      const tsl_field_desc_t *f = &d->fields[i];
      int64_t vals[3] = {field_max(f), field_min(f), f->type == 's' ? -1 : 1};
      for (int k = 0; k < 3; k++) {
        memset(s, 0, sizeof s);
        set_field(s, f, vals[k]);
        round_trip(d, s);
      }
    }
  }
}

static void test_round_trip_pseudo_random(void **state) {
  (void)state;
  uint32_t x = 12345;
  for (int c = 0; c < TSL_NCMDS; c++) {
    const tsl_cmd_desc_t *d = &tsl_cmd_descs[c];
    for (int n = 0; n < 200; n++) {
      int64_t s[32] = {0};
      for (int i = 0; i < d->nfields; i++) {
        x = x * 1664525u + 1013904223u;
        int64_t lo = field_min(&d->fields[i]), span = field_max(&d->fields[i]) - lo + 1;
        set_field(s, &d->fields[i], lo + (int64_t)(x % (uint64_t)span));
      }
      round_trip(d, s);
    }
  }
}

static void test_encode_rejects_out_of_range(void **state) {
  (void)state;
  for (int c = 0; c < TSL_NCMDS; c++) {
    const tsl_cmd_desc_t *d = &tsl_cmd_descs[c];
    for (int i = 0; i < d->nfields; i++) {
      int64_t s[32] = {0};
      uint32_t w[4];
      set_field(s, &d->fields[i], field_max(&d->fields[i]) + 1);
      assert_int_equal(d->encode(s, w), -1);
      set_field(s, &d->fields[i], field_min(&d->fields[i]) - 1);
      assert_int_equal(d->encode(s, w), -1);
    }
  }
}

static void test_decode_rejects_reserved_and_opcode(void **state) {
  (void)state;
  for (int c = 0; c < TSL_NCMDS; c++) {
    const tsl_cmd_desc_t *d = &tsl_cmd_descs[c];
    int64_t s[32] = {0}, back[32];
    uint32_t w[4];
    assert_int_equal(d->encode(s, w), 0);
    for (int bit = 8; bit < TSL_CMD_BITS; bit++) {
      if (d->used[bit / 32] & (1u << (bit % 32))) continue;
      uint32_t v[4] = {w[0], w[1], w[2], w[3]};
      v[bit / 32] ^= 1u << (bit % 32);
      assert_int_equal(d->decode(v, back), -2);
    }
    uint32_t other[4] = {w[0] ^ 0xFFu, w[1], w[2], w[3]};
    assert_int_equal(d->decode(other, back), -1);
  }
}

static void test_opcode_table(void **state) {
  (void)state;
  assert_null(tsl_cmd_desc(0)); /* zeroed memory is never a command */
  int seen = 0;
  for (unsigned op = 0; op < 256; op++) {
    const tsl_cmd_desc_t *d = tsl_cmd_desc(op);
    assert_int_equal(d != NULL, tsl_op_queue(op) >= 0);
    if (d) {
      seen++;
      assert_int_equal(d->queue, tsl_op_queue(op));
    }
  }
  assert_int_equal(seen, TSL_NCMDS);
}

static void test_byte_order_and_disasm(void **state) {
  (void)state;
  tsl_load_t l = {0};
  l.mem = TSL_MEM_ACC;
  l.n0 = 3;
  l.dram = 0x11223344;
  l.row = 7;
  l.nx = l.ny = l.nz = 1;
  l.push_next = 1;
  uint32_t w[4], v[4];
  uint8_t b[16];
  assert_int_equal(tsl_load_encode(&l, w), 0);
  tsl_cmd_to_bytes(w, b);
  assert_int_equal(b[0], TSL_OP_LOAD);
  assert_int_equal(b[4], 0x44); /* little-endian: bits 32..39 are byte 4 */
  assert_int_equal(b[7], 0x11);
  tsl_cmd_from_bytes(b, v);
  assert_memory_equal(v, w, sizeof w);
  char text[256];
  tsl_disasm(w, text, sizeof text);
  assert_non_null(strstr(text, "LOAD "));
  assert_non_null(strstr(text, "push_next=1"));
  assert_non_null(strstr(text, "dram=287454020"));
  assert_null(strstr(text, "pop_prev"));
  uint32_t bad[4] = {0, 0, 0, 0};
  tsl_disasm(bad, text, sizeof text);
  assert_non_null(strstr(text, ".word"));
  char tiny[4];
  assert_true(tsl_disasm(w, tiny, sizeof tiny) > 3); /* truncates, never overflows */
}

static void test_loop_slots(void **state) {
  (void)state;
  tsl_matmul_t m = {0};
  int64_t off[TSL_NSLOTS] = {1000, 1, 2, 3, 4, 5, 2000, 7};
  tsl_matmul_add_slots(&m, off);
  assert_true(m.in == 1 && m.acc == 2 && m.wgt == 3 && m.iy0 == 4 && m.ix0 == 5);
  tsl_store_t s = {0};
  tsl_store_add_slots(&s, off);
  assert_true(s.dram == 2000 && s.dst_row == 7 && s.src_row == 2 && s.param == 3);
  tsl_load_t l = {0};
  tsl_load_add_slots(&l, off);
  assert_true(l.dram == 1000 && l.row == 1);
}

static void test_targets_table(void **state) {
  (void)state;
  assert_true(tsl_ntargets >= 3);
  const tsl_target_t *t = tsl_target_find(TSL_DEFAULT_TARGET);
  assert_non_null(t);
  assert_int_equal(t->dim, 8);
  assert_null(tsl_target_find("npu7"));
  for (int i = 0; i < tsl_ntargets; i++)
    for (int j = 0; j < i; j++) assert_true(tsl_targets[i].hash != tsl_targets[j].hash);
}

static void test_names(void **state) {
  (void)state;
  assert_string_equal(tsl_err_name(TSL_ERR_DEADLOCK), "DEADLOCK");
  assert_string_equal(tsl_err_name(-1), "?");
  assert_string_equal(tsl_counter_name(TSL_CNT_MACS), "MACS");
  assert_string_equal(tsl_counter_name(TSL_NCOUNTERS), "?");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip_extremes),
      cmocka_unit_test(test_round_trip_pseudo_random),
      cmocka_unit_test(test_encode_rejects_out_of_range),
      cmocka_unit_test(test_decode_rejects_reserved_and_opcode),
      cmocka_unit_test(test_opcode_table),
      cmocka_unit_test(test_byte_order_and_disasm),
      cmocka_unit_test(test_loop_slots),
      cmocka_unit_test(test_targets_table),
      cmocka_unit_test(test_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
