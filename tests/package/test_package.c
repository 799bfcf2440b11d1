/* test_package (cmocka): the .tpkg writer and the freestanding reader.
 * A sample package (sample_pkg.c) is written, read back field by field, then
 * corrupted one way at a time; every corruption must get its own error code.
 * Corruptions behind the CRCs are made with the CRCs recomputed (refresh), so
 * the check reaches the field under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crc32.h"
#include "sample_pkg.h"
#include "tessel_rt.h"
#include "tfw_fallback.h"
#include "tessel_isa.h"
#include "tessel_target.h"

typedef struct {
  uint8_t *b;
  size_t n;
  tpkg_view v;
} pkg_t;

static void make(pkg_t *p) {
  tpkg_package in;
  diag d = {{0}};
  sample_pkg(&in);
  assert_int_equal(tpkg_write(&in, &p->b, &p->n, &d), 0);
  assert_int_equal(tpkg_check(p->b, p->n, TSL_TARGET_HASH, 0, &p->v, NULL), TPKG_OK);
}

/* Recomputes every section CRC and the header CRC from the (edited) table. */
static void refresh(uint8_t *b, size_t n) {
  for (unsigned s = 1; s <= TPKG_NSECT; s++) {
    uint8_t *e = b + TPKG_HEADER_FIXED + (s - 1) * TPKG_SECT_ENTRY;
    uint64_t off = tpkg_rd32(e + 4), size = tpkg_rd32(e + 8);
    if (off + size <= n) tpkg_wr32(e + 12, crc32(b + off, (size_t)size));
  }
  tpkg_wr32(b + TPKG_H_CRC, 0);
  tpkg_wr32(b + TPKG_H_CRC, crc32(b, TPKG_HEADER_BYTES));
}

static tpkg_err_code check(const pkg_t *p, tpkg_error *e) { return tpkg_check(p->b, p->n, TSL_TARGET_HASH, 0, NULL, e); }

static uint8_t *sect_at(pkg_t *p, unsigned kind) { return p->b + p->v.sect_offset[kind]; }
static uint8_t *entry(pkg_t *p, unsigned kind) { return p->b + TPKG_HEADER_FIXED + (kind - 1) * TPKG_SECT_ENTRY; }

/* ---- round trip ---- */

static void test_round_trip(void **state) {
  (void)state;
  pkg_t p;
  tpkg_package in;
  make(&p);
  sample_pkg(&in);
  const tpkg_view *v = &p.v;
  assert_int_equal(v->version, TPKG_VERSION);
  assert_string_equal(v->target_name, in.target_name);
  assert_int_equal(v->target_hash, in.target_hash);
  assert_int_equal(v->isa_version, TSL_ISA_VERSION);
  assert_int_equal(v->total_bytes, p.n);
  assert_memory_equal(&v->window, &in.window, sizeof v->window);
  assert_int_equal(v->weights_bytes, in.n_weights);
  assert_memory_equal(v->weights, in.weights, in.n_weights);
  assert_int_equal((uintptr_t)(v->weights - p.b) % TPKG_WEIGHTS_ALIGN, 0);
  assert_int_equal(v->n_kernels, in.n_kernels);
  uint32_t cmd = 0;
  for (uint32_t k = 0; k < in.n_kernels; k++) {
    tpkg_kernel_view kv;
    tpkg_view_kernel(v, k, &kv);
    const tpkg_kernel *ki = &in.kernels[k];
    assert_string_equal(kv.name, ki->name);
    assert_int_equal(kv.node_count, ki->n_onnx_nodes);
    for (uint32_t j = 0; j < kv.node_count; j++) assert_string_equal(tpkg_view_node(v, kv.node_first + j), ki->onnx_nodes[j]);
    assert_int_equal(kv.cmd_first, cmd);
    assert_int_equal(kv.cmd_count, ki->n_cmds);
    for (uint32_t j = 0; j < kv.cmd_count; j++) {
      uint32_t w[4];
      tsl_cmd_from_bytes(tpkg_view_cmd(v, kv.cmd_first + j), w);
      assert_memory_equal(w, ki->cmds[j], sizeof w);
    }
    assert_int_equal(kv.mark_id, ki->mark_id);
    assert_int_equal(kv.estimate_cycles, ki->estimate_cycles);
    assert_int_equal(kv.useful_macs, ki->useful_macs);
    assert_int_equal(kv.compulsory_dram_bytes, ki->compulsory_dram_bytes);
    cmd += kv.cmd_count;
  }
  assert_int_equal(v->n_cmds, cmd);
  assert_int_equal(v->n_io, in.n_io);
  for (uint32_t i = 0; i < in.n_io; i++) {
    tpkg_io io;
    tpkg_view_io(v, i, &io);
    assert_string_equal(io.name, in.io[i].name);
    const tpkg_io *w = &in.io[i];
    assert_true(io.dir == w->dir && io.dtype == w->dtype && io.layout == w->layout && io.rank == w->rank);
    assert_memory_equal(io.dims, w->dims, sizeof io.dims);
    assert_true(io.scale == w->scale);
    assert_int_equal(io.zero_point, w->zero_point);
    assert_int_equal(io.offset, w->offset);
    assert_int_equal(io.size, w->size);
  }
  assert_int_equal(v->n_fallbacks, in.n_fallbacks);
  assert_int_equal(v->sect_size[TPKG_SECT_FALLBACK], SAMPLE_FALLBACK_BYTES);
  uint32_t pos = 0;
  for (uint32_t i = 0; i < in.n_fallbacks; i++) {
    tpkg_fallback f, g;
    const tpkg_fb_record *w = &in.fallbacks[i];
    tpkg_view_fallback(v, i, &g);
    tpkg_view_fallback_at(v, &pos, &f); /* the walk and the indexed read agree */
    assert_ptr_equal(f.rec, g.rec);
    assert_string_equal(f.name, w->name);
    assert_int_equal(f.op, w->op);
    assert_int_equal(f.before_kernel, w->before_kernel);
    assert_true(f.n_in == w->n_in && f.n_out == w->n_out && f.n_ints == w->n_ints && f.n_floats == w->n_floats);
    assert_int_equal(f.bytes, tpkg_fallback_bytes(w->n_in + w->n_out, w->n_ints, w->n_floats));
    for (uint32_t k = 0; k < f.n_in + f.n_out; k++) {
      tpkg_operand o;
      const tpkg_operand *wo = &w->operands[k];
      tpkg_fallback_operand(&f, k, &o);
      assert_true(o.dtype == wo->dtype && o.layout == wo->layout && o.rank == wo->rank);
      assert_int_equal(o.offset, wo->offset);
      assert_int_equal(o.size, wo->size);
      assert_memory_equal(o.dims, wo->dims, sizeof o.dims);
      assert_true(o.scale == wo->scale);
      assert_int_equal(o.zp, wo->zp);
      assert_int_equal(o.block, wo->block);
    }
    for (uint32_t k = 0; k < f.n_ints; k++) assert_int_equal(tpkg_fallback_int(&f, k), w->ints[k]);
    for (uint32_t k = 0; k < f.n_floats; k++) assert_true(tpkg_fallback_float(&f, k) == w->floats[k]);
  }
  assert_int_equal(pos, SAMPLE_FALLBACK_BYTES);
  /* Deterministic: the same package gives the same bytes. */
  pkg_t q;
  make(&q);
  assert_int_equal(q.n, p.n);
  assert_memory_equal(q.b, p.b, p.n);
  /* Trailing bytes past total_bytes are ignored. */
  uint8_t *big = calloc(1, p.n + 100);
  memcpy(big, p.b, p.n);
  assert_int_equal(tpkg_check(big, p.n + 100, TSL_TARGET_HASH, 0, NULL, NULL), TPKG_OK);
  free(big);
  free(q.b);
  free(p.b);
}

static void test_crc32_known_value(void **state) {
  (void)state;
  assert_int_equal(crc32("123456789", 9), 0xCBF43926u);
  assert_int_equal(crc32("", 0), 0);
}

/* The table against the bitwise definition, every byte value (a table
 * entry missing or wrong makes some single-byte errors undetectable). */
static void test_crc32_every_byte(void **state) {
  (void)state;
  for (unsigned b = 0; b < 256; b++) {
    uint32_t c = ~0u;
    c ^= b;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    uint8_t byte = (uint8_t)b;
    assert_int_equal(crc32(&byte, 1), ~c);
  }
}

/* ---- header ---- */

static void test_truncated_every_length(void **state) {
  (void)state;
  pkg_t p;
  make(&p);
  for (size_t n = 0; n < p.n; n++) {
    /* A fresh allocation of exactly n bytes, so ASan sees any read past it. */
    uint8_t *t = malloc(n ? n : 1);
    memcpy(t, p.b, n);
    tpkg_error e;
    assert_int_equal(tpkg_check(t, n, TSL_TARGET_HASH, 0, NULL, &e), TPKG_E_TRUNCATED);
    free(t);
  }
  assert_int_equal(tpkg_check(NULL, 0, 0, 0, NULL, NULL), TPKG_E_TRUNCATED);
  free(p.b);
}

static void test_bad_magic(void **state) {
  (void)state;
  pkg_t p;
  make(&p);
  p.b[1] = 'X';
  tpkg_error e;
  assert_int_equal(check(&p, &e), TPKG_E_MAGIC);
  assert_non_null(strstr(e.msg, "magic"));
  free(p.b);
}

static void test_future_version(void **state) {
  (void)state;
  pkg_t p;
  make(&p);
  tpkg_wr16(p.b + TPKG_H_VERSION, TPKG_VERSION + 1);
  refresh(p.b, p.n);
  tpkg_error e;
  assert_int_equal(check(&p, &e), TPKG_E_VERSION);
  assert_int_equal(e.value, TPKG_VERSION + 1);
  free(p.b);
}

/* A package of format version 1 (fixed 128-byte FALLBACK records) is
 * refused by its version field, before anything else is read. */
static void test_version_1(void **state) {
  (void)state;
  pkg_t p;
  make(&p);
  tpkg_wr16(p.b + TPKG_H_VERSION, 1);
  tpkg_error e;
  assert_int_equal(check(&p, &e), TPKG_E_VERSION);
  assert_int_equal(e.value, 1);
  assert_non_null(strstr(e.msg, "format version not supported"));
  refresh(p.b, p.n);
  assert_int_equal(check(&p, &e), TPKG_E_VERSION);
  free(p.b);
}

static void test_wrong_target(void **state) {
  (void)state;
  pkg_t p;
  make(&p);
  tpkg_error e;
  assert_int_equal(tpkg_check(p.b, p.n, TSL_TARGET_HASH ^ 1, 0, NULL, &e), TPKG_E_TARGET);
  assert_int_equal(e.value, TSL_TARGET_HASH);
  assert_int_equal(tpkg_check(p.b, p.n, 0x1234, TPKG_CHECK_ANY_TARGET, NULL, NULL), TPKG_OK);
  /* The hash in the header is covered by the header CRC. */
  tpkg_wr32(p.b + TPKG_H_TARGET_HASH, 0x1352D847u);
  assert_int_equal(check(&p, &e), TPKG_E_HEADER_CRC);
  refresh(p.b, p.n);
  assert_int_equal(check(&p, &e), TPKG_E_TARGET);
  free(p.b);
}

/* The target name is NUL-padded: 0xFF after its NUL used to pass. */
static void test_target_name_padding(void **state) {
  (void)state;
  pkg_t p;
  make(&p);
  p.b[TPKG_H_TARGET_NAME + 9] = 0xFF;
  refresh(p.b, p.n);
  tpkg_error e;
  assert_int_equal(check(&p, &e), TPKG_E_HEADER);
  assert_non_null(strstr(e.msg, "target name not NUL-padded after its end"));
  assert_int_equal(e.value, TPKG_H_TARGET_NAME + 9);
  free(p.b);
}

static void test_header_fields(void **state) {
  (void)state;
  static const struct {
    unsigned at, width;
    uint32_t value;
    tpkg_err_code want;
  } cases[] = {
      {TPKG_H_HEADER_BYTES, 2, 64, TPKG_E_HEADER},
      {TPKG_H_NSECT, 4, 9, TPKG_E_HEADER},
      {TPKG_H_FLAGS, 4, 1, TPKG_E_HEADER},
      {TPKG_H_RESERVED + 8, 4, 5, TPKG_E_HEADER},
      {TPKG_H_ISA_VERSION, 4, TSL_ISA_VERSION + 1, TPKG_E_HEADER},
      {TPKG_H_TOTAL, 4, 100, TPKG_E_HEADER},
      {TPKG_H_TOTAL, 4, 0xFFFFFFFFu, TPKG_E_TRUNCATED},
      {TPKG_H_TARGET_NAME + 12, 4, 0x41414141u, TPKG_E_HEADER},
      {TPKG_H_TARGET_NAME + 8, 4, 0xFFu, TPKG_E_HEADER}, /* padding after the NUL */
      {TPKG_H_TARGET_NAME + 4, 2, 0x0100u, TPKG_E_HEADER}, /* "npu8\0\1" */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pkg_t p;
    make(&p);
    if (cases[i].width == 2) tpkg_wr16(p.b + cases[i].at, (uint16_t)cases[i].value);
    else tpkg_wr32(p.b + cases[i].at, cases[i].value);
    tpkg_wr32(p.b + TPKG_H_CRC, 0);
    tpkg_wr32(p.b + TPKG_H_CRC, crc32(p.b, TPKG_HEADER_BYTES));
    tpkg_error e;
    print_message("header case %zu\n", i);
    assert_int_equal(check(&p, &e), cases[i].want);
    free(p.b);
  }
}

/* ---- CRCs ---- */

static void test_every_crc(void **state) {
  (void)state;
  /* A flipped bit anywhere in the header or section table. */
  for (unsigned at = 0; at < TPKG_HEADER_BYTES; at++) {
    if (at < 8) continue; /* magic and version are checked before the CRC */
    pkg_t p;
    make(&p);
    p.b[at] ^= 0x10;
    assert_int_equal(check(&p, NULL), TPKG_E_HEADER_CRC);
    free(p.b);
  }
  /* A flipped bit in each section. */
  for (unsigned s = 1; s <= TPKG_NSECT; s++) {
    pkg_t p;
    make(&p);
    assert_true(p.v.sect_size[s] > 0);
    sect_at(&p, s)[p.v.sect_size[s] / 2] ^= 0x01;
    tpkg_error e;
    tpkg_err_code want = s == TPKG_SECT_WEIGHTS ? TPKG_E_WEIGHTS_CRC : TPKG_E_SECTION_CRC;
    assert_int_equal(check(&p, &e), want);
    assert_int_equal(e.index, s);
    /* Lazy weights: the load passes, tpkg_check_weights catches it. */
    if (s == TPKG_SECT_WEIGHTS) {
      tpkg_view v;
      assert_int_equal(tpkg_check(p.b, p.n, TSL_TARGET_HASH, TPKG_CHECK_LAZY_WEIGHTS, &v, NULL), TPKG_OK);
      assert_int_equal(tpkg_check_weights(&v, NULL), TPKG_E_WEIGHTS_CRC);
    }
    free(p.b);
  }
  /* A stored section CRC changed (and the header CRC made consistent). */
  pkg_t p;
  make(&p);
  tpkg_wr32(entry(&p, TPKG_SECT_STREAMS) + 12, 0xDEADBEEFu);
  tpkg_wr32(p.b + TPKG_H_CRC, 0);
  tpkg_wr32(p.b + TPKG_H_CRC, crc32(p.b, TPKG_HEADER_BYTES));
  assert_int_equal(check(&p, NULL), TPKG_E_SECTION_CRC);
  free(p.b);
}

/* ---- section table ---- */

typedef void (*mutator)(pkg_t *p);

/* The sample with m applied and the CRCs refreshed gets code want, and a
 * message containing msg (when not NULL). */
static void expect(mutator m, tpkg_err_code want, const char *msg, const char *what) {
  pkg_t p;
  make(&p);
  m(&p);
  refresh(p.b, p.n);
  tpkg_error e;
  tpkg_err_code got = check(&p, &e);
  if (got != want) print_error("%s: got %s (%s), want %s\n", what, tpkg_err_name(got), e.msg, tpkg_err_name(want));
  assert_int_equal(got, want);
  assert_non_null(e.msg);
  if (msg && !strstr(e.msg, msg)) fail_msg("%s: message '%s' lacks '%s'", what, e.msg, msg);
  free(p.b);
}
#define EXPECT(fn, code) expect(fn, code, NULL, #fn)
#define EXPECT_MSG(fn, code, msg) expect(fn, code, msg, #fn)

static void m_sect_kind(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_IO), TPKG_SECT_FALLBACK); }
static void m_sect_offset_huge(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_KERNELS) + 4, 0xFFFFFFF0u); }
static void m_sect_size_huge(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_STRINGS) + 8, 0xFFFFFFFFu); }
static void m_sect_size_wrap(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_WEIGHTS) + 8, 0xFFFFFFC0u); }
static void m_sect_misaligned(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_NODES) + 4, p->v.sect_offset[TPKG_SECT_NODES] + 4); }
static void m_weights_misaligned(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_WEIGHTS) + 4, p->v.sect_offset[TPKG_SECT_WEIGHTS] - 16); }
static void m_sect_in_header(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_STRINGS) + 4, 0); }
static void m_sect_partial_record(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_KERNELS) + 8, TPKG_KERNEL_BYTES + 1); }
static void m_window_size(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_WINDOW) + 8, 0); }
static void m_overlap(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_IO) + 4, p->v.sect_offset[TPKG_SECT_KERNELS]); }
static void m_overlap_streams(pkg_t *p) {
  tpkg_wr32(entry(p, TPKG_SECT_STREAMS) + 4, p->v.sect_offset[TPKG_SECT_STREAMS] - 16);
}

static void test_section_table(void **state) {
  (void)state;
  EXPECT(m_sect_kind, TPKG_E_SECTION);
  EXPECT(m_sect_offset_huge, TPKG_E_SECTION);
  EXPECT(m_sect_size_huge, TPKG_E_SECTION);
  EXPECT(m_sect_size_wrap, TPKG_E_SECTION);
  EXPECT(m_sect_misaligned, TPKG_E_SECTION);
  EXPECT(m_weights_misaligned, TPKG_E_SECTION);
  EXPECT(m_sect_in_header, TPKG_E_SECTION);
  EXPECT(m_sect_partial_record, TPKG_E_SECTION);
  EXPECT(m_window_size, TPKG_E_SECTION);
  EXPECT(m_overlap, TPKG_E_OVERLAP);
  EXPECT(m_overlap_streams, TPKG_E_OVERLAP);
}

/* ---- contents ---- */

static uint8_t *kernel_rec(pkg_t *p, unsigned k) { return sect_at(p, TPKG_SECT_KERNELS) + k * TPKG_KERNEL_BYTES; }
static uint8_t *io_rec(pkg_t *p, unsigned i) { return sect_at(p, TPKG_SECT_IO) + i * TPKG_IO_BYTES; }
/* Fallback record i (a walk by the records' sizes) and its operand k. */
static uint8_t *fb_rec(pkg_t *p, unsigned i) {
  uint8_t *r = sect_at(p, TPKG_SECT_FALLBACK);
  while (i--) r += tpkg_rd32(r + TPKG_FB_BYTES);
  return r;
}
static uint8_t *fb_opnd(pkg_t *p, unsigned i, unsigned k) {
  return fb_rec(p, i) + TPKG_FB_HEADER_BYTES + k * TPKG_FB_OPERAND_BYTES;
}
static uint8_t *win(pkg_t *p) { return sect_at(p, TPKG_SECT_WINDOW); }

static void m_strings_unterminated(pkg_t *p) { sect_at(p, TPKG_SECT_STRINGS)[p->v.sect_size[TPKG_SECT_STRINGS] - 1] = 'x'; }
static void m_kernel_name(pkg_t *p) { tpkg_wr32(kernel_rec(p, 1) + TPKG_K_NAME, p->v.sect_size[TPKG_SECT_STRINGS]); }
static void m_node_name(pkg_t *p) { tpkg_wr32(sect_at(p, TPKG_SECT_NODES) + 4, 0xFFFFFFFFu); }
static void m_io_name(pkg_t *p) { tpkg_wr32(io_rec(p, 0) + TPKG_IO_NAME, 0x7FFFFFFFu); }
static void m_fb_name(pkg_t *p) { tpkg_wr32(fb_rec(p, 2) + TPKG_FB_NAME, 100000); }

static void m_win_region_out(pkg_t *p) { tpkg_wr32(win(p) + TPKG_W_SCRATCH_BYTES, SAMPLE_WINDOW_BYTES); }
static void m_win_region_wrap(pkg_t *p) {
  tpkg_wr32(win(p) + TPKG_W_MARKS_OFFSET, 0xFFFFFF00u);
  tpkg_wr32(win(p) + TPKG_W_MARKS_BYTES, 0x200u);
}
static void m_win_overlap(pkg_t *p) { tpkg_wr32(win(p) + TPKG_W_IO_OFFSET, 8000); }
static void m_win_weights_size(pkg_t *p) { tpkg_wr32(win(p) + TPKG_W_WEIGHTS_BYTES, SAMPLE_WEIGHTS_BYTES - 1); }
static void m_win_weights_align(pkg_t *p) { tpkg_wr32(win(p) + TPKG_W_WEIGHTS_OFFSET, 4); }
static void m_win_reserved(pkg_t *p) { tpkg_wr32(win(p) + TPKG_W_RESERVED + 4, 1); }

static void test_strings_and_window(void **state) {
  (void)state;
  EXPECT(m_strings_unterminated, TPKG_E_STRING);
  EXPECT(m_kernel_name, TPKG_E_STRING);
  EXPECT(m_node_name, TPKG_E_STRING);
  EXPECT(m_io_name, TPKG_E_STRING);
  EXPECT(m_fb_name, TPKG_E_STRING);
  EXPECT(m_win_region_out, TPKG_E_WINDOW);
  EXPECT(m_win_region_wrap, TPKG_E_WINDOW);
  EXPECT(m_win_overlap, TPKG_E_WINDOW);
  EXPECT(m_win_weights_size, TPKG_E_WINDOW);
  EXPECT(m_win_weights_align, TPKG_E_WINDOW);
  EXPECT(m_win_reserved, TPKG_E_WINDOW);
}

static void m_k_nodes_out(pkg_t *p) { tpkg_wr32(kernel_rec(p, 2) + TPKG_K_NODE_COUNT, 3); }
static void m_k_nodes_wrap(pkg_t *p) { tpkg_wr32(kernel_rec(p, 2) + TPKG_K_NODE_FIRST, 0xFFFFFFFFu); }
static void m_k_cmds_wrap(pkg_t *p) { tpkg_wr32(kernel_rec(p, 2) + TPKG_K_CMD_COUNT, 0xFFFFFFFFu); }
static void m_k_cmds_gap(pkg_t *p) { tpkg_wr32(kernel_rec(p, 1) + TPKG_K_CMD_FIRST, tpkg_rd32(kernel_rec(p, 1) + TPKG_K_CMD_FIRST) + 1); }
/* Rule 73: a marks region of one record per kernel record says every
 * stream is framed; the sample's are not (its first MARKs have no reset),
 * and with the resets set, kernel 0 still ends with a STORE. */
static void m_k_frame_no_reset(pkg_t *p) { tpkg_wr32(win(p) + TPKG_W_MARKS_BYTES, 3 * TSL_MARK_RECORD_BYTES); }
static void m_k_frame_no_record(pkg_t *p) {
  m_k_frame_no_reset(p);
  for (unsigned k = 0; k < 3; k++) sect_at(p, TPKG_SECT_STREAMS)[16 * tpkg_rd32(kernel_rec(p, k) + TPKG_K_CMD_FIRST) + 3] |= 0x02;
}
static void m_k_cmds_unowned(pkg_t *p) { tpkg_wr32(kernel_rec(p, 2) + TPKG_K_CMD_COUNT, tpkg_rd32(kernel_rec(p, 2) + TPKG_K_CMD_COUNT) - 1); }

static void m_io_dir(pkg_t *p) { io_rec(p, 1)[TPKG_IO_DIR] = 2; }
static void m_io_dtype(pkg_t *p) { io_rec(p, 1)[TPKG_IO_DTYPE] = TPKG_DT_U32 + 1; }
static void m_io_rank(pkg_t *p) { io_rec(p, 1)[TPKG_IO_RANK] = 7; }
static void m_io_zero_dim(pkg_t *p) { tpkg_wr32(io_rec(p, 0) + TPKG_IO_DIMS + 4, 0); }
static void m_io_unused_dim(pkg_t *p) { tpkg_wr32(io_rec(p, 1) + TPKG_IO_DIMS + 8, 4); }
static void m_io_huge_dims(pkg_t *p) {
  for (unsigned i = 0; i < 4; i++) tpkg_wr32(io_rec(p, 0) + TPKG_IO_DIMS + 4 * i, 0xFFFFFFFFu);
}
/* a shape whose bytes wrap 64 bits to 0 ([2^19, 2^19, 2^24, 1] f32): was
 * accepted, and `tessel run` crashed unpacking the output */
static void m_io_wrap_dims(pkg_t *p) {
  static const uint32_t d[4] = {1u << 19, 1u << 19, 1u << 24, 1};
  io_rec(p, 1)[TPKG_IO_RANK] = 4;
  for (unsigned i = 0; i < 4; i++) tpkg_wr32(io_rec(p, 1) + TPKG_IO_DIMS + 4 * i, d[i]);
}
static void m_io_layout(pkg_t *p) { io_rec(p, 1)[TPKG_IO_LAYOUT] = TPKG_LAYOUT_NHWC; /* rank 2 */ }
static void m_io_small(pkg_t *p) { tpkg_wr32(io_rec(p, 0) + TPKG_IO_SIZE, 767); }
static void m_io_outside(pkg_t *p) { tpkg_wr32(io_rec(p, 0) + TPKG_IO_OFFSET, SAMPLE_WINDOW_BYTES - 700); }
static void m_io_wrap(pkg_t *p) { tpkg_wr32(io_rec(p, 0) + TPKG_IO_OFFSET, 0xFFFFFFF0u); }
static void m_io_reserved(pkg_t *p) { io_rec(p, 0)[TPKG_IO_RESERVED + 3] = 1; }
/* a block only on BLOCKED records (the sample's are plain) */
static void m_io_block_plain(pkg_t *p) { tpkg_wr32(io_rec(p, 0) + TPKG_IO_BLOCK, 4); }

static void test_kernels_and_io(void **state) {
  (void)state;
  EXPECT(m_k_nodes_out, TPKG_E_KERNEL);
  EXPECT(m_k_nodes_wrap, TPKG_E_KERNEL);
  EXPECT(m_k_cmds_wrap, TPKG_E_KERNEL);
  EXPECT(m_k_cmds_gap, TPKG_E_KERNEL);
  EXPECT(m_k_cmds_unowned, TPKG_E_KERNEL);
  EXPECT_MSG(m_k_frame_no_reset, TPKG_E_KERNEL, "does not start with a MARK reset");
  EXPECT_MSG(m_k_frame_no_record, TPKG_E_KERNEL, "does not end with its counter record");
  EXPECT(m_io_dir, TPKG_E_IO);
  EXPECT(m_io_dtype, TPKG_E_IO);
  EXPECT(m_io_rank, TPKG_E_IO);
  EXPECT(m_io_zero_dim, TPKG_E_IO);
  EXPECT(m_io_unused_dim, TPKG_E_IO);
  EXPECT(m_io_huge_dims, TPKG_E_IO);
  EXPECT(m_io_wrap_dims, TPKG_E_IO);
  EXPECT(m_io_layout, TPKG_E_IO);
  EXPECT(m_io_small, TPKG_E_IO);
  EXPECT(m_io_outside, TPKG_E_IO);
  EXPECT(m_io_wrap, TPKG_E_IO);
  EXPECT(m_io_reserved, TPKG_E_IO);
  EXPECT_MSG(m_io_block_plain, TPKG_E_IO, "I/O block set on a layout other than BLOCKED");
}

static void m_fb_op(pkg_t *p) { tpkg_wr32(fb_rec(p, 0) + TPKG_FB_OP, TPKG_OP_END); }
static void m_fb_op0(pkg_t *p) { tpkg_wr32(fb_rec(p, 0) + TPKG_FB_OP, 0); }
static void m_fb_op_huge(pkg_t *p) { tpkg_wr32(fb_rec(p, 2) + TPKG_FB_OP, 0xFFFFFFFFu); }
static void m_fb_before(pkg_t *p) { tpkg_wr32(fb_rec(p, 3) + TPKG_FB_BEFORE, 4); }
static void m_fb_order(pkg_t *p) { tpkg_wr32(fb_rec(p, 0) + TPKG_FB_BEFORE, 3); tpkg_wr32(fb_rec(p, 1) + TPKG_FB_BEFORE, 1); }
/* Counts outside the op's range (tfw_ops.def): Softmax takes one input and
 * one output, HardSigmoid (UNARY) one input. */
static void m_fb_n_in_over(pkg_t *p) { fb_rec(p, 3)[TPKG_FB_N_IN] = 2; }
static void m_fb_n_in_zero(pkg_t *p) { fb_rec(p, 2)[TPKG_FB_N_IN] = 0; }
static void m_fb_n_out_zero(pkg_t *p) { fb_rec(p, 0)[TPKG_FB_N_OUT] = 0; }
static void m_fb_n_out_over(pkg_t *p) { fb_rec(p, 1)[TPKG_FB_N_OUT] = 2; }
static void m_fb_n_ints_over(pkg_t *p) { fb_rec(p, 3)[TPKG_FB_N_INTS] = TPKG_FB_MAX_INTS + 1; }
static void m_fb_n_floats_over(pkg_t *p) { fb_rec(p, 2)[TPKG_FB_N_FLOATS] = TPKG_FB_MAX_FLOATS + 1; }
/* record 0 runs before kernel 0, record 1 after the last of 3 */
static void m_fb_ahead_past(pkg_t *p) { tpkg_wr16(fb_rec(p, 1) + TPKG_FB_AHEAD, 1); }
static void m_fb_behind_past(pkg_t *p) { tpkg_wr16(fb_rec(p, 0) + TPKG_FB_BEHIND, 1); }
static void m_fb_beside_ok(pkg_t *p) { /* valid: the whole way, both ways */
  tpkg_wr16(fb_rec(p, 0) + TPKG_FB_AHEAD, 3), tpkg_wr16(fb_rec(p, 1) + TPKG_FB_BEHIND, 3);
}
/* The record size against its counts, and against the section's end. */
static void m_fb_bytes_more(pkg_t *p) { tpkg_wr32(fb_rec(p, 1) + TPKG_FB_BYTES, tpkg_rd32(fb_rec(p, 1) + TPKG_FB_BYTES) + 4); }
static void m_fb_bytes_less(pkg_t *p) { tpkg_wr32(fb_rec(p, 0) + TPKG_FB_BYTES, TPKG_FB_HEADER_BYTES); }
static void m_fb_bytes_zero(pkg_t *p) { tpkg_wr32(fb_rec(p, 2) + TPKG_FB_BYTES, 0); }
static void m_fb_counts(pkg_t *p) { fb_rec(p, 2)[TPKG_FB_N_FLOATS] = 1; /* size still says 2 */ }
static void m_fb_past_end(pkg_t *p) { /* size and counts agree, one int past the section */
  fb_rec(p, 3)[TPKG_FB_N_INTS] = 3;
  tpkg_wr32(fb_rec(p, 3) + TPKG_FB_BYTES, tpkg_rd32(fb_rec(p, 3) + TPKG_FB_BYTES) + 4);
}
/* The section ends inside the last record: inside its header, after it. */
static void m_fb_cut_header(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_FALLBACK) + 8, SAMPLE_FALLBACK_BYTES - 144 + 20); }
static void m_fb_cut_operands(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_FALLBACK) + 8, SAMPLE_FALLBACK_BYTES - 4); }
/* Operands: dtype and shape as for I/O, with rank up to 8. */
static void m_fb_dtype0(pkg_t *p) { fb_opnd(p, 0, 0)[TPKG_FBO_DTYPE] = 0; }
static void m_fb_dtype10(pkg_t *p) { fb_opnd(p, 3, 1)[TPKG_FBO_DTYPE] = TPKG_DT_U32 + 1; }
static void m_fb_dtype_i64(pkg_t *p) { /* the output as int64 [1,5]: 40 bytes (the kernel's to refuse) */
  fb_opnd(p, 3, 1)[TPKG_FBO_DTYPE] = TPKG_DT_I64;
  tpkg_wr32(fb_opnd(p, 3, 1) + TPKG_FBO_DIMS + 4, 5);
}
static void m_fb_rank(pkg_t *p) { fb_opnd(p, 3, 1)[TPKG_FBO_RANK] = TPKG_FB_MAX_RANK + 1; }
static void m_fb_rank8(pkg_t *p) { /* [1,10] as [1,10,1,1,1,1,1,1]: valid */
  fb_opnd(p, 3, 1)[TPKG_FBO_RANK] = 8;
  for (unsigned i = 2; i < 8; i++) tpkg_wr32(fb_opnd(p, 3, 1) + TPKG_FBO_DIMS + 4 * i, 1);
}
static void m_fb_zero_dim(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 0) + TPKG_FBO_DIMS + 4, 0); }
static void m_fb_wrap_dims(pkg_t *p) { /* bytes that wrap 64 bits to 0, as m_io_wrap_dims */
  static const uint32_t d[4] = {1u << 19, 1u << 19, 1u << 24, 1};
  fb_opnd(p, 3, 1)[TPKG_FBO_RANK] = 4;
  for (unsigned i = 0; i < 4; i++) tpkg_wr32(fb_opnd(p, 3, 1) + TPKG_FBO_DIMS + 4 * i, d[i]);
}
static void m_fb_unused_dim(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 1) + TPKG_FBO_DIMS + 28, 1); }
static void m_fb_opnd_reserved(pkg_t *p) { fb_opnd(p, 2, 1)[TPKG_FBO_RESERVED] = 1; }
/* Layouts: NHWC/BLOCKED at rank 4 only, and only on the layout-aware ops. */
static void m_fb_layout(pkg_t *p) { fb_opnd(p, 1, 1)[TPKG_FBO_LAYOUT] = TPKG_LAYOUT_NHWC; /* rank 2 */ }
static void m_fb_layout3(pkg_t *p) { fb_opnd(p, 0, 0)[TPKG_FBO_LAYOUT] = 3; }
static void m_fb_layout_plain_op(pkg_t *p) { /* the Softmax's output as [1,10,1,1] NHWC */
  uint8_t *o = fb_opnd(p, 3, 1);
  o[TPKG_FBO_RANK] = 4, o[TPKG_FBO_LAYOUT] = TPKG_LAYOUT_NHWC;
  tpkg_wr32(o + TPKG_FBO_DIMS + 8, 1), tpkg_wr32(o + TPKG_FBO_DIMS + 12, 1);
}
static void m_fb_layout_aware_nhwc(pkg_t *p) { fb_opnd(p, 0, 0)[TPKG_FBO_LAYOUT] = TPKG_LAYOUT_NHWC; /* valid */ }
/* The block: set exactly on BLOCKED operands. */
static void m_fb_block_plain(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 0) + TPKG_FBO_BLOCK, TSL_DIM); }
static void m_fb_block_plain_op(pkg_t *p) { tpkg_wr32(fb_opnd(p, 3, 0) + TPKG_FBO_BLOCK, 1); }
static void m_fb_block0(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 1) + TPKG_FBO_BLOCK, 0); }
static void m_fb_block_other(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 1) + TPKG_FBO_BLOCK, 12345); /* tfw_load's check */ }
/* Sizes and offsets. */
static void m_fb_small(pkg_t *p) { tpkg_wr32(fb_opnd(p, 3, 1) + TPKG_FBO_SIZE, 39); }
static void m_fb_in_outside(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 0) + TPKG_FBO_OFFSET, SAMPLE_WINDOW_BYTES); }
static void m_fb_out_wrap(pkg_t *p) { tpkg_wr32(fb_opnd(p, 3, 1) + TPKG_FBO_OFFSET, 0xFFFFFFFCu); }
static void m_fb_misaligned(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 1) + TPKG_FBO_OFFSET, 16402); /* f32 */ }
static void m_fb_misaligned_i8_ok(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 0) + TPKG_FBO_OFFSET, 16383); /* i8 */ }
/* Outputs never on the weights or the MARK records; inputs may read them. */
static void m_fb_out_weights(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 1) + TPKG_FBO_OFFSET, 960); }
static void m_fb_out_marks(pkg_t *p) { tpkg_wr32(fb_opnd(p, 2, 1) + TPKG_FBO_OFFSET, 61440 + 1000); }
static void m_fb_in_weights_ok(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 0) + TPKG_FBO_OFFSET, 0); }
/* An output overlapping another operand of its record. */
static void m_fb_out_overlaps_in(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 1) + TPKG_FBO_OFFSET, 16384 + 12); }
static void m_fb_in_shared_ok(pkg_t *p) { tpkg_wr32(fb_opnd(p, 3, 0) + TPKG_FBO_OFFSET, 16400); /* reads record 1's output */ }
/* The (de)quantisation scale: QuantizeLinear's output operand (record 0),
 * DequantizeLinear's input operand (record 1). */
static void m_fb_scale_zero(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 1) + TPKG_FBO_SCALE, 0); }
static void m_fb_scale_neg(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 1) + TPKG_FBO_SCALE, 0xBF000000u); }
static void m_fb_scale_inf(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 1) + TPKG_FBO_SCALE, 0x7F800000u); }
static void m_fb_scale_nan(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 1) + TPKG_FBO_SCALE, 0xFFC00000u); }
static void m_fb_dq_scale_zero(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 0) + TPKG_FBO_SCALE, 0); }
static void m_fb_scale_unread_ok(pkg_t *p) { tpkg_wr32(fb_opnd(p, 0, 0) + TPKG_FBO_SCALE, 0x7F800000u); }

static void test_fallbacks(void **state) {
  (void)state;
  EXPECT_MSG(m_fb_op, TPKG_E_FALLBACK, "unknown fallback op");
  EXPECT_MSG(m_fb_op0, TPKG_E_FALLBACK, "unknown fallback op");
  EXPECT_MSG(m_fb_op_huge, TPKG_E_FALLBACK, "unknown fallback op");
  EXPECT(m_fb_before, TPKG_E_FALLBACK);
  EXPECT(m_fb_order, TPKG_E_FALLBACK);
  EXPECT_MSG(m_fb_n_in_over, TPKG_E_FALLBACK, "operand count outside its op's range");
  EXPECT_MSG(m_fb_n_in_zero, TPKG_E_FALLBACK, "operand count outside its op's range");
  EXPECT_MSG(m_fb_n_out_zero, TPKG_E_FALLBACK, "operand count outside its op's range");
  EXPECT_MSG(m_fb_n_out_over, TPKG_E_FALLBACK, "operand count outside its op's range");
  EXPECT_MSG(m_fb_n_ints_over, TPKG_E_FALLBACK, "parameter count too large");
  EXPECT_MSG(m_fb_n_floats_over, TPKG_E_FALLBACK, "parameter count too large");
  EXPECT_MSG(m_fb_ahead_past, TPKG_E_FALLBACK, "beside counts pass the kernel records");
  EXPECT_MSG(m_fb_behind_past, TPKG_E_FALLBACK, "beside counts pass the kernel records");
  EXPECT(m_fb_beside_ok, TPKG_OK);
  EXPECT_MSG(m_fb_bytes_more, TPKG_E_FALLBACK, "record size differs from its counts");
  EXPECT_MSG(m_fb_bytes_less, TPKG_E_FALLBACK, "record size differs from its counts");
  EXPECT_MSG(m_fb_bytes_zero, TPKG_E_FALLBACK, "record size differs from its counts");
  EXPECT_MSG(m_fb_counts, TPKG_E_FALLBACK, "record size differs from its counts");
  EXPECT_MSG(m_fb_past_end, TPKG_E_FALLBACK, "passes the section's end");
  EXPECT_MSG(m_fb_cut_header, TPKG_E_FALLBACK, "fallback record cut short");
  EXPECT_MSG(m_fb_cut_operands, TPKG_E_FALLBACK, "passes the section's end");
  EXPECT_MSG(m_fb_dtype0, TPKG_E_FALLBACK, "operand dtype or shape");
  EXPECT_MSG(m_fb_dtype10, TPKG_E_FALLBACK, "operand dtype or shape");
  EXPECT(m_fb_dtype_i64, TPKG_OK);
  EXPECT_MSG(m_fb_rank, TPKG_E_FALLBACK, "operand dtype or shape");
  EXPECT(m_fb_rank8, TPKG_OK);
  EXPECT_MSG(m_fb_zero_dim, TPKG_E_FALLBACK, "operand dtype or shape");
  EXPECT_MSG(m_fb_wrap_dims, TPKG_E_FALLBACK, "operand dtype or shape");
  EXPECT_MSG(m_fb_unused_dim, TPKG_E_FALLBACK, "operand dtype or shape");
  EXPECT_MSG(m_fb_opnd_reserved, TPKG_E_FALLBACK, "reserved fallback operand byte set");
  EXPECT_MSG(m_fb_layout, TPKG_E_FALLBACK, "operand layout");
  EXPECT_MSG(m_fb_layout3, TPKG_E_FALLBACK, "operand layout");
  EXPECT_MSG(m_fb_layout_plain_op, TPKG_E_FALLBACK, "operand layout (for its rank or its op)");
  EXPECT(m_fb_layout_aware_nhwc, TPKG_OK);
  EXPECT_MSG(m_fb_block_plain, TPKG_E_FALLBACK, "block set on a layout other than BLOCKED");
  EXPECT_MSG(m_fb_block_plain_op, TPKG_E_FALLBACK, "block set on a layout other than BLOCKED");
  EXPECT_MSG(m_fb_block0, TPKG_E_FALLBACK, "or 0 on BLOCKED");
  EXPECT(m_fb_block_other, TPKG_OK);
  EXPECT_MSG(m_fb_small, TPKG_E_FALLBACK, "size smaller than its shape");
  EXPECT_MSG(m_fb_in_outside, TPKG_E_FALLBACK, "outside the DRAM window");
  EXPECT_MSG(m_fb_out_wrap, TPKG_E_FALLBACK, "outside the DRAM window");
  EXPECT_MSG(m_fb_misaligned, TPKG_E_FALLBACK, "not aligned to its element size");
  EXPECT(m_fb_misaligned_i8_ok, TPKG_OK);
  EXPECT_MSG(m_fb_out_weights, TPKG_E_FALLBACK, "output on the weights or the counter records");
  EXPECT_MSG(m_fb_out_marks, TPKG_E_FALLBACK, "output on the weights or the counter records");
  EXPECT(m_fb_in_weights_ok, TPKG_OK);
  EXPECT_MSG(m_fb_out_overlaps_in, TPKG_E_FALLBACK, "output overlaps another operand");
  EXPECT(m_fb_in_shared_ok, TPKG_OK);
  EXPECT_MSG(m_fb_scale_zero, TPKG_E_FALLBACK, "scale not a positive finite number");
  EXPECT_MSG(m_fb_scale_neg, TPKG_E_FALLBACK, "scale not a positive finite number");
  EXPECT_MSG(m_fb_scale_inf, TPKG_E_FALLBACK, "scale not a positive finite number");
  EXPECT_MSG(m_fb_scale_nan, TPKG_E_FALLBACK, "scale not a positive finite number");
  EXPECT_MSG(m_fb_dq_scale_zero, TPKG_E_FALLBACK, "scale not a positive finite number");
  EXPECT(m_fb_scale_unread_ok, TPKG_OK);
  /* index and value: the record and the offending field */
  pkg_t p;
  make(&p);
  m_fb_n_in_over(&p);
  refresh(p.b, p.n);
  tpkg_error e;
  assert_int_equal(check(&p, &e), TPKG_E_FALLBACK);
  assert_int_equal(e.index, 3);
  assert_int_equal(e.value, 3);
  free(p.b);
}

/* ---- every graph output is written ---- */

/* The FALLBACK section cut from 4 records to 3 (the Softmax that writes
 * 'prob' gone), CRCs recomputed: it used to pass, and the run returned the
 * window's old bytes (all zeros). */
static void m_fb_cut(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_FALLBACK) + 8, SAMPLE_FALLBACK_BYTES - 144); }
static void m_fb_all_cut(pkg_t *p) { tpkg_wr32(entry(p, TPKG_SECT_FALLBACK) + 8, 0); }
/* The Softmax writes elsewhere: no record overlaps 'prob'. */
static void m_fb_writes_elsewhere(pkg_t *p) { tpkg_wr32(fb_opnd(p, 3, 1) + TPKG_FBO_OFFSET, 4864 + 40); }
/* 'prob' moved to where kernel 0's STORE writes: a kernel writes it. */
static void m_out_by_store(pkg_t *p) { tpkg_wr32(io_rec(p, 1) + TPKG_IO_OFFSET, 12288); }
/* One byte past that STORE's offset: its first byte is outside 'prob'. */
static void m_out_past_store(pkg_t *p) { tpkg_wr32(io_rec(p, 1) + TPKG_IO_OFFSET, 12289); }
/* Kernel 1's STORE goes to SPAD: its dram field names no DRAM byte. */
static void m_out_by_spad_store(pkg_t *p) { tpkg_wr32(io_rec(p, 1) + TPKG_IO_OFFSET, 0); }

static void test_outputs_written(void **state) {
  (void)state;
  EXPECT_MSG(m_fb_cut, TPKG_E_IO, "graph output that no kernel and no fallback record writes");
  EXPECT_MSG(m_fb_all_cut, TPKG_E_IO, "no kernel and no fallback record writes");
  EXPECT(m_fb_writes_elsewhere, TPKG_E_IO);
  EXPECT(m_out_by_store, TPKG_OK);
  EXPECT(m_out_past_store, TPKG_E_IO);
  EXPECT(m_out_by_spad_store, TPKG_E_IO);
  /* index and value name the output record and its offset */
  pkg_t p;
  make(&p);
  m_fb_cut(&p);
  refresh(p.b, p.n);
  tpkg_error e;
  assert_int_equal(check(&p, &e), TPKG_E_IO);
  assert_int_equal(e.index, 1);
  assert_int_equal(e.value, 4864);
  free(p.b);
}

/* ---- commands ---- */

/* Index of the first command of the stream with this opcode. */
static uint8_t *find_cmd(pkg_t *p, unsigned op, unsigned nth) {
  for (uint32_t i = 0; i < p->v.n_cmds; i++) {
    uint8_t *c = sect_at(p, TPKG_SECT_STREAMS) + 16 * i;
    if (c[0] == op && nth-- == 0) return c;
  }
  fail_msg("no command with opcode 0x%02X", op);
  return NULL;
}

static void m_cmd_opcode(pkg_t *p) { find_cmd(p, TSL_OP_MATMUL, 0)[0] = 0x7F; }
static void m_cmd_opcode0(pkg_t *p) { find_cmd(p, TSL_OP_NOP, 0)[0] = 0x00; }
static void m_cmd_reserved(pkg_t *p) { find_cmd(p, TSL_OP_NOP, 0)[5] = 0x80; }
static void m_cmd_reserved_store(pkg_t *p) { find_cmd(p, TSL_OP_STORE, 0)[15] |= 0x80; /* bits 120..127 */ }
static void m_load_dram(pkg_t *p) { tpkg_wr32(find_cmd(p, TSL_OP_LOAD, 0) + 4, SAMPLE_WINDOW_BYTES); }
static void m_store_dram(pkg_t *p) { tpkg_wr32(find_cmd(p, TSL_OP_STORE, 0) + 4, 0xFFFFFFFFu); }
static void m_store_spad_dram_ignored(pkg_t *p) { tpkg_wr32(find_cmd(p, TSL_OP_STORE, 1) + 4, 0xFFFFFFFFu); }
static void m_mark_dram(pkg_t *p) { tpkg_wr32(find_cmd(p, TSL_OP_MARK, 1) + 4, SAMPLE_WINDOW_BYTES - TSL_MARK_RECORD_BYTES + 1); }
static void m_mark_dram_edge(pkg_t *p) { tpkg_wr32(find_cmd(p, TSL_OP_MARK, 1) + 4, SAMPLE_WINDOW_BYTES - TSL_MARK_RECORD_BYTES); }
static void m_loop_body(pkg_t *p) { find_cmd(p, TSL_OP_LOOP, 0)[3] = 4; /* body past kernel 0's last command */ }
static void m_loop_count0(pkg_t *p) { find_cmd(p, TSL_OP_LOOP, 0)[1] = 0, find_cmd(p, TSL_OP_LOOP, 0)[2] = 0; }

static void test_commands(void **state) {
  (void)state;
  EXPECT(m_cmd_opcode, TPKG_E_CMD_OPCODE);
  EXPECT(m_cmd_opcode0, TPKG_E_CMD_OPCODE);
  EXPECT(m_cmd_reserved, TPKG_E_CMD_FIELD);
  EXPECT(m_cmd_reserved_store, TPKG_E_CMD_FIELD);
  EXPECT(m_load_dram, TPKG_E_CMD_DRAM);
  EXPECT(m_store_dram, TPKG_E_CMD_DRAM);
  EXPECT(m_store_spad_dram_ignored, TPKG_OK);
  EXPECT(m_mark_dram, TPKG_E_CMD_DRAM);
  EXPECT(m_mark_dram_edge, TPKG_OK);
  EXPECT(m_loop_body, TPKG_E_CMD_FIELD);
  EXPECT(m_loop_count0, TPKG_E_CMD_FIELD);
}

/* ---- what tfw_load checks beyond tpkg_check (firmware/runtime/tfw_exec.c) ---- */

static int mock_window(void *ctx, uint8_t *base, uint32_t bytes) { return (void)ctx, (void)base, (void)bytes, 0; }
static int mock_load(void *ctx, uint32_t off, const uint8_t *cmds, uint32_t n) {
  return (void)ctx, (void)off, (void)cmds, (void)n, 0;
}
static int mock_run(void *ctx, uint32_t off, uint32_t n, uint64_t timeout, tfw_npu_result *r) {
  (void)ctx, (void)off, (void)n, (void)timeout;
  *r = (tfw_npu_result){.status = TSL_ERR_NONE};
  return 0;
}

/* tfw_load of the sample (mutated by m, CRCs refreshed when m is given) on
 * an NPU of this target with cmd_sram command bytes, in a window of
 * window_bytes; returns the code, *e the error. */
static int load(mutator m, uint32_t cmd_sram, uint32_t window_bytes, tfw_error *e) {
  pkg_t p;
  make(&p);
  if (m) m(&p), refresh(p.b, p.n);
  tfw_backend be = {.target_hash = TSL_TARGET_HASH, .dim = TSL_DIM, .cmd_sram_bytes = cmd_sram,
                    .set_window = mock_window, .load_stream = mock_load, .run = mock_run};
  uint8_t *window = aligned_alloc(64, SAMPLE_WINDOW_BYTES);
  assert_non_null(window);
  tfw_model model;
  int rc = tfw_load(&model, &be, p.b, (uint32_t)p.n, window, window_bytes, 0, e);
  free(window);
  free(p.b);
  return rc;
}

static void test_tfw_load_checks(void **state) {
  (void)state;
  tfw_error e;
  assert_int_equal(load(NULL, 4096, SAMPLE_WINDOW_BYTES, &e), TFW_OK);
  /* a BLOCKED operand's block is the NPU's DIM (or a smaller one holding its
   * channels): tpkg_check cannot know it */
  assert_int_equal(load(m_fb_block_other, 4096, SAMPLE_WINDOW_BYTES, &e), TFW_E_PACKAGE);
  assert_int_equal(e.detail, TPKG_E_FALLBACK);
  assert_int_equal(e.index, 0);
  assert_int_equal(e.value, 12345);
  assert_non_null(strstr(e.msg, "fallback operand's block is not this NPU's DIM"));
  /* tpkg_check's verdict comes through: the cut FALLBACK section */
  assert_int_equal(load(m_fb_cut, 4096, SAMPLE_WINDOW_BYTES, &e), TFW_E_PACKAGE);
  assert_int_equal(e.detail, TPKG_E_IO);
  /* the window memory is at least window_bytes */
  assert_int_equal(load(NULL, 4096, SAMPLE_WINDOW_BYTES - 8, &e), TFW_E_WINDOW);
  /* every kernel record fits the command SRAM (kernel 0 has 8 commands) */
  assert_int_equal(load(NULL, 7 * TSL_CMD_BYTES, SAMPLE_WINDOW_BYTES, &e), TFW_E_CMD_SRAM);
  assert_int_equal(e.kernel, 0);
  assert_int_equal(load(NULL, 8 * TSL_CMD_BYTES, SAMPLE_WINDOW_BYTES, &e), TFW_OK);
}

/* ---- fallback records prepared at load (tfw_prepare_fallbacks) ---- */

/* The sample's record 1 (DequantizeLinear [1,10]) with a [1,9] output:
 * tpkg_check passes it (the size field still holds 40 bytes), the element
 * counts differ. */
static void m_fb_elems(pkg_t *p) { tpkg_wr32(fb_opnd(p, 1, 1) + TPKG_FBO_DIMS + 4, 9); }

/* A backend that starts and waits apart (split_run), logging each call
 * ("R" a whole run, "S" start, "W" wait) on a clock that ticks once per
 * read, with the last run's timeline in split_marks. */
static char split_log[32];
static tfw_tl_mark split_marks[64];
static uint32_t split_nmarks;
static uint64_t split_ticks;
static void split_note(char c) {
  size_t n = strlen(split_log);
  if (n + 1 < sizeof split_log) split_log[n] = c, split_log[n + 1] = 0;
}
static int split_run(void *ctx, uint32_t off, uint32_t n, uint64_t timeout, tfw_npu_result *r) {
  split_note('R');
  return mock_run(ctx, off, n, timeout, r);
}
static int split_start(void *ctx, uint32_t off, uint32_t n) { return (void)ctx, (void)off, (void)n, split_note('S'), 0; }
static int split_wait(void *ctx, uint64_t timeout, tfw_npu_result *r) {
  split_note('W');
  return mock_run(ctx, 0, 0, timeout, r);
}
static uint64_t split_now(void *ctx) { return (void)ctx, ++split_ticks; }

/* tfw_load of the sample (mutated by m), then tfw_prepare_fallbacks with
 * pool_bytes of pool (UINT32_MAX: not called), then record `broken`'s op
 * overwritten with 0 in the loaded package (-1: none; a pooled record is
 * not read again, any other fails, FALLBACK naming it), then tfw_run on a
 * fixed input, on the split backend when split is set.
 * The window's bytes after the run go to out (when given); returns the
 * first failing call's code, *e its error. */
static int pool_run(mutator m, uint32_t pool_bytes, int broken, int split, uint8_t *out, tfw_error *e) {
  static uint64_t pool[4096 / 8];
  static tfw_model model;
  pkg_t p;
  make(&p);
  if (m) m(&p), refresh(p.b, p.n);
  tfw_backend be = {.target_hash = TSL_TARGET_HASH, .dim = TSL_DIM, .cmd_sram_bytes = 4096,
                    .set_window = mock_window, .load_stream = mock_load, .run = mock_run};
  if (split) {
    be.run = split_run, be.start = split_start, be.wait = split_wait, be.now = split_now;
    split_log[0] = 0;
  }
  uint8_t *window = aligned_alloc(64, SAMPLE_WINDOW_BYTES);
  assert_non_null(window);
  memset(window, 0, SAMPLE_WINDOW_BYTES);
  int rc = tfw_load(&model, &be, p.b, (uint32_t)p.n, window, SAMPLE_WINDOW_BYTES, 0, e);
  if (rc == TFW_OK && pool_bytes != UINT32_MAX) rc = tfw_prepare_fallbacks(&model, pool, pool_bytes, e);
  if (rc == TFW_OK) {
    for (uint32_t i = 0; i < 192; i++) { /* the image (f32), then the logits (i8) the kernels would leave */
      float v = (float)(int32_t)(i * 37 % 101) * 0.03f - 1.5f;
      memcpy(window + 4096 + 4 * i, &v, 4);
    }
    for (uint32_t i = 0; i < 10; i++) window[16384 + i] = (uint8_t)(i * 29 + 3);
    if (broken >= 0) tpkg_wr32(fb_rec(&p, (unsigned)broken) + TPKG_FB_OP, 0);
    tfw_set_timeline(&model, split ? split_marks : NULL, 64);
    rc = tfw_run(&model, e);
    split_nmarks = model.tl_count;
  }
  if (out) memcpy(out, window, SAMPLE_WINDOW_BYTES);
  free(window);
  free(p.b);
  return rc;
}

/* The sample's records beside the NPU: record 0 (before kernel 0) beside
 * the run of kernel 0, record 1 (after the last) beside the run of kernel
 * 2, records 2 and 3 after it. */
static void m_beside(pkg_t *p) {
  tpkg_wr16(fb_rec(p, 0) + TPKG_FB_AHEAD, 1);
  tpkg_wr16(fb_rec(p, 1) + TPKG_FB_BEHIND, 1);
  tpkg_wr16(fb_rec(p, 3) + TPKG_FB_BEHIND, 3); /* after record 2, which has none: not beside */
}

/* tfw_run's schedule with a backend that splits its runs: the records the
 * counts allow run between a start and its wait, in package order, and
 * leave the window's bytes as the serial run does, with or without a pool;
 * without counts, or on a backend that does not split, every run is whole.
 * A record beside a run that fails still has the run waited for. */
static void test_tfw_beside(void **state) {
  (void)state;
  tfw_error e;
  static uint8_t ref[SAMPLE_WINDOW_BYTES], got[SAMPLE_WINDOW_BYTES];
  assert_int_equal(pool_run(NULL, UINT32_MAX, -1, 0, ref, &e), TFW_OK);
  assert_int_equal(pool_run(NULL, UINT32_MAX, -1, 1, got, &e), TFW_OK);
  assert_string_equal(split_log, "RRR");
  for (uint32_t bytes = 0; bytes <= 1024; bytes += 1024) {
    assert_int_equal(pool_run(m_beside, bytes ? bytes : UINT32_MAX, -1, 1, got, &e), TFW_OK);
    assert_string_equal(split_log, "SWRSW");
    assert_memory_equal(got, ref, SAMPLE_WINDOW_BYTES);
    /* the marks: entry, kernel 0, record 0 beside, its end, the wait, ... */
    static const uint32_t want[][2] = {
        {TFW_TL_RUNTIME, 0},  {TFW_TL_KERNEL, 0},  {TFW_TL_BESIDE, 0},   {TFW_TL_RUNTIME, 0},
        {TFW_TL_KERNEL, 0},   {TFW_TL_RUNTIME, 0}, {TFW_TL_KERNEL, 1},   {TFW_TL_RUNTIME, 0},
        {TFW_TL_KERNEL, 2},   {TFW_TL_BESIDE, 1},  {TFW_TL_RUNTIME, 0},  {TFW_TL_KERNEL, 2},
        {TFW_TL_RUNTIME, 0},  {TFW_TL_FALLBACK, 2}, {TFW_TL_RUNTIME, 0}, {TFW_TL_FALLBACK, 3},
        {TFW_TL_RUNTIME, 0},  {TFW_TL_RETURN, 0}};
    assert_int_equal(split_nmarks, sizeof want / sizeof want[0]);
    for (uint32_t i = 0; i < split_nmarks; i++) {
      assert_int_equal(split_marks[i].phase, want[i][0]);
      assert_int_equal(split_marks[i].index, want[i][1]);
    }
  }
  assert_int_equal(pool_run(m_beside, UINT32_MAX, -1, 0, got, &e), TFW_OK); /* no split: as before */
  assert_memory_equal(got, ref, SAMPLE_WINDOW_BYTES);
  assert_int_equal(pool_run(m_beside, UINT32_MAX, 0, 1, NULL, &e), TFW_E_FALLBACK);
  assert_int_equal(e.kernel, 0);
  assert_string_equal(split_log, "SW");
}

/* Every pool size from none to more than all four records need: the run's
 * bytes are the same as without a pool, the records kept are those that
 * fit in order (a later, smaller one after one that did not: the sample's
 * Softmax after its HardSigmoid), and a kept record is not read from the
 * package again. */
static void test_tfw_fallback_pool(void **state) {
  (void)state;
  tfw_error e;
  static uint8_t ref[SAMPLE_WINDOW_BYTES], got[SAMPLE_WINDOW_BYTES];
  assert_int_equal(pool_run(NULL, UINT32_MAX, -1, 0, ref, &e), TFW_OK);
  int none = 0, all = 0, skipped = 0;
  for (uint32_t bytes = 0; bytes <= 1024; bytes += 8) {
    assert_int_equal(pool_run(NULL, bytes, -1, 0, got, &e), TFW_OK);
    assert_memory_equal(got, ref, SAMPLE_WINDOW_BYTES);
    unsigned kept = 0; /* bit i: record i runs from the pool */
    for (int i = 0; i < (int)SAMPLE_FALLBACKS; i++) {
      int rc = pool_run(NULL, bytes, i, 0, NULL, &e);
      if (rc == TFW_OK) kept |= 1u << i;
      else assert_true(rc == TFW_E_FALLBACK && e.kernel == i);
    }
    none |= kept == 0, all |= kept == 0xFu;
    skipped |= (kept & (kept + 1)) != 0; /* not a prefix: a record skipped, a later one kept */
  }
  assert_true(none && all && skipped);
  /* a misaligned pool, a model not loaded */
  static uint64_t pool[64];
  static tfw_model fresh;
  assert_int_equal(tfw_prepare_fallbacks(&fresh, pool, sizeof pool, &e), TFW_E_ARG);
  pkg_t p;
  make(&p);
  tfw_backend be = {.target_hash = TSL_TARGET_HASH, .dim = TSL_DIM, .cmd_sram_bytes = 4096,
                    .set_window = mock_window, .load_stream = mock_load, .run = mock_run};
  uint8_t *window = aligned_alloc(64, SAMPLE_WINDOW_BYTES);
  assert_non_null(window);
  assert_int_equal(tfw_load(&fresh, &be, p.b, (uint32_t)p.n, window, SAMPLE_WINDOW_BYTES, 0, &e), TFW_OK);
  assert_int_equal(tfw_prepare_fallbacks(&fresh, (uint8_t *)pool + 4, 256, &e), TFW_E_ARG);
  assert_non_null(strstr(e.msg, "8-byte aligned"));
  assert_int_equal(tfw_prepare_fallbacks(&fresh, pool, sizeof pool, &e), TFW_OK);
  assert_non_null(fresh.fb_pool);
  assert_int_equal(tfw_load(&fresh, &be, p.b, (uint32_t)p.n, window, SAMPLE_WINDOW_BYTES, 0, &e), TFW_OK);
  assert_null(fresh.fb_pool); /* a new load drops the pool */
  free(window);
  free(p.b);
}

/* A record tpkg_check passes but no run could (its element counts differ):
 * refused at load by tfw_prepare_fallbacks, with a pool and without one,
 * naming the record; without the call, every tfw_run refuses it the same
 * way. */
static void test_tfw_fallback_refused_at_load(void **state) {
  (void)state;
  tfw_error e;
  char msg[512];
  for (int pooled = 0; pooled < 3; pooled++) {
    uint32_t bytes = pooled == 0 ? 0 : pooled == 1 ? 4096 : UINT32_MAX;
    memset(&e, 0, sizeof e);
    assert_int_equal(pool_run(m_fb_elems, bytes, -1, 0, NULL, &e), TFW_E_FALLBACK);
    assert_int_equal(e.detail, TFW_FB_E_SHAPE);
    assert_int_equal(e.kernel, 1);
    assert_int_equal(e.value, TPKG_OP_DEQUANTIZE);
    assert_string_equal(e.msg, tfw_fallback_strerror(TFW_FB_E_SHAPE));
    tfw_format_error(&e, msg, sizeof msg);
    assert_non_null(strstr(msg, "FALLBACK/"));
    assert_non_null(strstr(msg, "; fallback 1"));
  }
}

/* ---- the executor's stream fetch (tfw_exec.c fetch_streams) ----
 * A backend with the fetch and a command SRAM image: a fetch is pending from
 * fetch_stream to fetch_wait (or to a run, which completes it, as the
 * hardware's would); a run over a pending fetch's destination, or a second
 * fetch while one is pending, is a failure; every run must find its
 * kernel's commands where it starts. */
typedef struct {
  tpkg_view v;
  uint8_t sram[16 * 64];
  uint32_t sram_bytes;
  const uint8_t *win;
  int pending;
  uint32_t p_off, p_n;
  const uint8_t *p_src;
  uint32_t runs, fetches, fail_run, fail_fetch, bad;
  uint32_t run_off[8]; /* where each run started */
} fetch_mock;

static int fm_window(void *ctx, uint8_t *base, uint32_t bytes) { return (void)ctx, (void)base, (void)bytes, 0; }
static int fm_fetch_window(void *ctx, const uint8_t *base, uint32_t bytes) {
  fetch_mock *f = ctx;
  f->win = base;
  return (void)bytes, 0;
}
static int fm_fetch(void *ctx, uint32_t off, const uint8_t *cmds, uint32_t n) {
  fetch_mock *f = ctx;
  if (f->pending || off + 16 * n > f->sram_bytes || cmds < f->win) f->bad++;
  f->pending = 1, f->p_off = off, f->p_n = n, f->p_src = cmds, f->fetches++;
  return 0;
}
static void fm_finish(fetch_mock *f) {
  if (f->pending) memcpy(f->sram + f->p_off, f->p_src, 16u * f->p_n);
  f->pending = 0;
}
static int fm_fetch_wait(void *ctx) {
  fetch_mock *f = ctx;
  fm_finish(f);
  return f->fetches == f->fail_fetch ? TSL_ERR_FETCH_RANGE : 0;
}
static int fm_load(void *ctx, uint32_t off, const uint8_t *cmds, uint32_t n) {
  return ((fetch_mock *)ctx)->bad++, (void)off, (void)cmds, (void)n, 0; /* never used: the fetch is */
}
static int fm_run(void *ctx, uint32_t off, uint32_t n, uint64_t timeout, tfw_npu_result *r) {
  fetch_mock *f = ctx;
  (void)timeout;
  if (f->pending && n && off < f->p_off + 16 * f->p_n && f->p_off < off + 16 * n) f->bad++;
  fm_finish(f);
  tpkg_kernel_view kv;
  tpkg_view_kernel(&f->v, f->runs, &kv);
  if (kv.cmd_count != n || memcmp(f->sram + off, tpkg_view_cmd(&f->v, kv.cmd_first), 16u * n)) f->bad++;
  if (f->runs < 8) f->run_off[f->runs] = off;
  f->runs++;
  *r = (tfw_npu_result){.status = f->runs == f->fail_run ? TSL_ERR_DEADLOCK : TSL_ERR_NONE};
  return 0;
}

/* tfw_load + tfw_run of the sample (kernels of 8, 3 and 4 commands,
 * estimates 11000, 4200 and 900 cycles; with `twice`, kernel 1 and 2 once
 * more as records 3 and 4: 22 commands) with a cmd_cmds-command SRAM and a
 * fetch of per cycles per command; returns tfw_run's code. */
static int fetch_run(fetch_mock *f, uint32_t cmd_cmds, uint32_t per, int twice, tfw_error *e) {
  pkg_t p;
  tpkg_package in;
  tpkg_kernel ks[5];
  diag d = {{0}};
  sample_pkg(&in);
  if (twice) {
    memcpy(ks, in.kernels, 3 * sizeof *ks);
    ks[3] = ks[1], ks[4] = ks[2];
    in.kernels = ks, in.n_kernels = 5;
  }
  assert_int_equal(tpkg_write(&in, &p.b, &p.n, &d), 0);
  f->sram_bytes = 16 * cmd_cmds;
  tfw_backend be = {.ctx = f, .target_hash = TSL_TARGET_HASH, .dim = TSL_DIM, .cmd_sram_bytes = f->sram_bytes,
                    .fetch_cmd_cycles = per, .set_window = fm_window, .load_stream = fm_load, .run = fm_run,
                    .set_fetch_window = fm_fetch_window, .fetch_stream = fm_fetch, .fetch_wait = fm_fetch_wait};
  uint8_t *window = aligned_alloc(64, SAMPLE_WINDOW_BYTES);
  assert_non_null(window);
  memset(window, 0, SAMPLE_WINDOW_BYTES);
  static tfw_model model;
  int rc = tfw_load(&model, &be, p.b, (uint32_t)p.n, window, SAMPLE_WINDOW_BYTES, 0, e);
  assert_int_equal(rc, TFW_OK);
  assert_false(model.streams_resident);
  assert_true(model.streams_fetched);
  f->v = model.pkg;
  rc = tfw_run(&model, e);
  assert_false(f->pending); /* tfw_run never returns with a fetch in flight */
  free(window);
  free(p.b);
  return rc;
}

static void test_tfw_fetch(void **state) {
  (void)state;
  tfw_error e;
  fetch_mock f = {.fail_run = 99, .fail_fetch = 99};
  /* 12 commands: kernel 1 fetched after kernel 0's 8 during its run, kernel 2 below kernel 1 */
  assert_int_equal(fetch_run(&f, 12, 0, 0, &e), TFW_OK);
  assert_int_equal(f.bad, 0);
  assert_int_equal(f.runs, 3);
  assert_int_equal(f.fetches, 3);
  assert_int_equal(f.run_off[0], 0);
  assert_int_equal(f.run_off[1], 8 * 16);
  assert_int_equal(f.run_off[2], 0);
  /* 8 commands: kernel 1 has no room beside kernel 0 (fetched after it), kernel 2 goes after kernel 1 */
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 8, 0, 0, &e), TFW_OK);
  assert_int_equal(f.bad, 0);
  assert_int_equal(f.run_off[1], 0);
  assert_int_equal(f.run_off[2], 3 * 16);
  /* Fetch groups (kernels 8, 3, 4, 3, 4 commands; estimates 11000, 4200,
   * 900, 4200, 900), 16 commands, 1200 cycles a command: kernel 1 cannot
   * hide kernel 2's fetch (4800 cycles), so both are fetched in one group
   * during kernel 0 (8400 <= 11000 cycles), back to back after it; kernel
   * 2 (900 cycles) hides no group: kernel 3 alone, then 4 */
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 16, 1200, 1, &e), TFW_OK);
  assert_int_equal(f.bad, 0);
  assert_int_equal(f.runs, 5);
  assert_int_equal(f.fetches, 4);
  assert_int_equal(f.run_off[1], 8 * 16);
  assert_int_equal(f.run_off[2], 11 * 16);
  assert_int_equal(f.run_off[3], 0);
  assert_int_equal(f.run_off[4], 3 * 16);
  /* 1000 cycles a command: kernel 1 hides kernel 2's fetch, one kernel ahead each time */
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 16, 1000, 1, &e), TFW_OK);
  assert_int_equal(f.bad, 0);
  assert_int_equal(f.fetches, 5);
  /* the group's fetch must fit kernel 0's estimate: 7 x 1500 does, 7 x 1600 does not */
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 16, 1500, 1, &e), TFW_OK);
  assert_int_equal(f.fetches, 4);
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 16, 1600, 1, &e), TFW_OK);
  assert_int_equal(f.bad, 0);
  assert_int_equal(f.fetches, 5);
  /* and the room beside kernel 0: 12 commands leave 4, kernel 1 alone */
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 12, 1200, 1, &e), TFW_OK);
  assert_int_equal(f.bad, 0);
  assert_int_equal(f.fetches, 5);
  /* a failure in the group's second kernel names it */
  f = (fetch_mock){.fail_run = 3, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 16, 1200, 1, &e), TFW_E_NPU);
  assert_int_equal(e.kernel, 2);
  assert_int_equal(f.bad, 0);
  /* a kernel that fails leaves kernel 2's fetch in flight: waited for, then the error */
  f = (fetch_mock){.fail_run = 2, .fail_fetch = 99};
  assert_int_equal(fetch_run(&f, 12, 0, 0, &e), TFW_E_NPU);
  assert_int_equal(e.kernel, 1);
  assert_int_equal(f.bad, 0);
  /* a refused fetch: DEVICE with the NPU's code, naming the kernel */
  f = (fetch_mock){.fail_run = 99, .fail_fetch = 2};
  assert_int_equal(fetch_run(&f, 12, 0, 0, &e), TFW_E_DEVICE);
  assert_int_equal(e.detail, TSL_ERR_FETCH_RANGE);
  assert_int_equal(e.kernel, 1);
  assert_int_equal(f.runs, 1);
}

/* ---- writer ---- */

static void test_writer_rejects(void **state) {
  (void)state;
  tpkg_package p;
  uint8_t *b;
  size_t n;
  diag d = {{0}};
  sample_pkg(&p);
  /* A command whose DRAM offset is outside the window: the writer's self-check. */
  p.window.window_bytes = 12000; /* the first kernel stores at 12288; marks region leaves too */
  assert_int_equal(tpkg_write(&p, &b, &n, &d), -1);
  assert_null(b);
  assert_non_null(strstr(d.msg, "invalid"));
  sample_pkg(&p);
  d.msg[0] = 0;
  p.target_name = "a-very-long-target-name";
  assert_int_equal(tpkg_write(&p, &b, &n, &d), -1);
  assert_non_null(strstr(d.msg, "target name"));
  sample_pkg(&p);
  d.msg[0] = 0;
  p.n_weights = 10;
  assert_int_equal(tpkg_write(&p, &b, &n, &d), -1);
  assert_non_null(strstr(d.msg, "weights"));
  /* A fallback record with more operands or parameters than the format holds. */
  sample_pkg(&p);
  d.msg[0] = 0;
  tpkg_fb_record big = p.fallbacks[3];
  big.n_in = TPKG_FB_MAX_OPERANDS; /* and one output */
  p.fallbacks = &big, p.n_fallbacks = 1;
  assert_int_equal(tpkg_write(&p, &b, &n, &d), -1);
  assert_non_null(strstr(d.msg, "fallback 'prob' has 66 operands"));
  big.n_in = 1, big.n_ints = TPKG_FB_MAX_INTS + 1, d.msg[0] = 0;
  assert_int_equal(tpkg_write(&p, &b, &n, &d), -1);
  assert_non_null(strstr(d.msg, "97 ints"));
  /* An empty package (no kernels, weights, I/O) is valid. */
  tpkg_package e = {.target_name = "npu8", .target_hash = TSL_TARGET_HASH, .window = {.window_bytes = 64}};
  assert_int_equal(tpkg_write(&e, &b, &n, &d), 0);
  assert_int_equal(n, TPKG_HEADER_BYTES + 16 + TPKG_WINDOW_BYTES);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_crc32_known_value), cmocka_unit_test(test_crc32_every_byte), cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_truncated_every_length), cmocka_unit_test(test_bad_magic),
      cmocka_unit_test(test_future_version), cmocka_unit_test(test_version_1),
      cmocka_unit_test(test_wrong_target), cmocka_unit_test(test_tfw_fetch),
      cmocka_unit_test(test_header_fields), cmocka_unit_test(test_every_crc),
      cmocka_unit_test(test_section_table), cmocka_unit_test(test_strings_and_window),
      cmocka_unit_test(test_target_name_padding), cmocka_unit_test(test_kernels_and_io),
      cmocka_unit_test(test_fallbacks), cmocka_unit_test(test_outputs_written),
      cmocka_unit_test(test_tfw_load_checks), cmocka_unit_test(test_tfw_fallback_pool),
      cmocka_unit_test(test_tfw_beside),
      cmocka_unit_test(test_tfw_fallback_refused_at_load),
      cmocka_unit_test(test_commands), cmocka_unit_test(test_writer_rejects),
  };
  return cmocka_run_group_tests_name("package", tests, NULL, NULL);
}
