/* elf_options_test.c: cmocka tests (suite sim-unit) of tessel-sim's ELF checks (sim/elf_load.c),
 * command line (sim/sim_options.c) and file opening (shared/host_file.h), run under ASan/UBSan so
 * a check that reads past a buffer fails here even when the simulator would survive it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elf_load.h"
#include "host_file.h"
#include "sim_options.h"

/* A minimal valid ELF32 RISC-V executable: header, one PT_LOAD of 8 bytes
 * at 0x80000000, then optionally a symbol table naming `tohost`. */
enum { EHDR = 52, PHDR = 32, PAYLOAD_OFF = 84, IMAGE_MAX = 512 };

static void w16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void w32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static size_t make_elf(uint8_t *b, int with_symbols) {
  memset(b, 0, IMAGE_MAX);
  memcpy(b, "\177ELF", 4);
  b[4] = 1; b[5] = 1; b[6] = 1;
  w16(b + 16, 2);            /* ET_EXEC */
  w16(b + 18, 243);          /* EM_RISCV */
  w32(b + 20, 1);
  w32(b + 24, 0x80000000u);  /* entry */
  w32(b + 28, EHDR);         /* phoff */
  w16(b + 40, EHDR);
  w16(b + 42, PHDR);
  w16(b + 44, 1);
  uint8_t *ph = b + EHDR;
  w32(ph, 1);                /* PT_LOAD */
  w32(ph + 4, PAYLOAD_OFF);
  w32(ph + 8, 0x80000000u);
  w32(ph + 12, 0x80000000u);
  w32(ph + 16, 8);
  w32(ph + 20, 16);
  memcpy(b + PAYLOAD_OFF, "\x13\x00\x00\x00\x6f\x00\x00\x00", 8);
  size_t len = PAYLOAD_OFF + 8;  /* 92 */
  if (!with_symbols) return len;
  /* strtab at 96, symtab at 112 (2 symbols), section headers at 160. */
  memcpy(b + 96, "\0x\0tohost\0", 10);
  w32(b + 112 + 16, 3);            /* symbol 1: name "tohost" */
  w32(b + 112 + 16 + 4, 0x80001000u);
  uint8_t *sh = b + 160;
  /* [0] null, [1] symtab (link 2), [2] strtab */
  w32(sh + 40 + 4, 2); w32(sh + 40 + 16, 112); w32(sh + 40 + 20, 32); w32(sh + 40 + 24, 2);
  w32(sh + 40 + 36, 16);
  w32(sh + 80 + 4, 3); w32(sh + 80 + 16, 96); w32(sh + 80 + 20, 10);
  w32(b + 32, 160);  /* shoff */
  w16(b + 46, 40);
  w16(b + 48, 3);
  return 160 + 3 * 40;
}

static int load(const uint8_t *b, size_t len, ElfImage *img, char *err) {
  return elf_load(b, len, img, err, 256);
}

static void elf_valid(void **state) {
  (void)state;
  uint8_t b[IMAGE_MAX];
  ElfImage img;
  char err[256];
  size_t len = make_elf(b, 0);
  assert_int_equal(load(b, len, &img, err), 0);
  assert_int_equal(img.entry, 0x80000000u);
  assert_int_equal(img.nsegs, 1);
  assert_int_equal(img.segs[0].addr, 0x80000000u);
  assert_int_equal(img.segs[0].filesz, 8);
  assert_int_equal(img.segs[0].memsz, 16);
  assert_ptr_equal(img.segs[0].data, b + PAYLOAD_OFF);
  assert_false(img.has_tohost);
}

static void elf_tohost(void **state) {
  (void)state;
  uint8_t b[IMAGE_MAX];
  ElfImage img;
  char err[256];
  size_t len = make_elf(b, 1);
  assert_int_equal(load(b, len, &img, err), 0);
  assert_true(img.has_tohost);
  assert_int_equal(img.tohost, 0x80001000u);
  /* "tohost" cut short by the end of the string table: no match, no overread. */
  w32(b + 160 + 80 + 20, 8);
  assert_int_equal(load(b, len, &img, err), 0);
  assert_false(img.has_tohost);
  /* A string table that runs past the file is an error. */
  w32(b + 160 + 80 + 20, 1000);
  assert_int_equal(load(b, len, &img, err), -1);
  assert_non_null(strstr(err, "string table"));
}

/* Corrupt one thing in a valid image; expect -1 and `want` in the message. */
static void expect_bad(void (*corrupt)(uint8_t *, size_t *), const char *want) {
  uint8_t b[IMAGE_MAX];
  ElfImage img;
  char err[256] = "";
  size_t len = make_elf(b, 1);
  corrupt(b, &len);
  /* Copy to an exact-size heap block so ASan sees any read past the end. */
  uint8_t *h = malloc(len ? len : 1);
  memcpy(h, b, len);
  int rc = load(h, len, &img, err);
  free(h);
  assert_int_equal(rc, -1);
  if (!strstr(err, want)) fail_msg("message '%s' lacks '%s'", err, want);
}

static void c_magic(uint8_t *b, size_t *n) { (void)n; b[1] = 'X'; }
static void c_short(uint8_t *b, size_t *n) { (void)b; *n = 51; }
static void c_tiny(uint8_t *b, size_t *n) { (void)b; *n = 2; }
static void c_class(uint8_t *b, size_t *n) { (void)n; b[4] = 2; }
static void c_endian(uint8_t *b, size_t *n) { (void)n; b[5] = 2; }
static void c_machine(uint8_t *b, size_t *n) { (void)n; w16(b + 18, 62); }
static void c_type(uint8_t *b, size_t *n) { (void)n; w16(b + 16, 1); }
static void c_phentsize(uint8_t *b, size_t *n) { (void)n; w16(b + 42, 0); }
static void c_phoff(uint8_t *b, size_t *n) { (void)n; w32(b + 28, 0xfffffff0u); }
static void c_phnum(uint8_t *b, size_t *n) { (void)n; w16(b + 44, 0xffff); }
static void c_nophdr(uint8_t *b, size_t *n) { (void)n; w16(b + 44, 0); }
static void c_segoff(uint8_t *b, size_t *n) { (void)n; w32(b + EHDR + 4, 0xfffffffcu); }
static void c_filesz(uint8_t *b, size_t *n) { (void)n; w32(b + EHDR + 16, 32); }
static void c_wrap(uint8_t *b, size_t *n) { (void)n; w32(b + EHDR + 12, 0xfffffff8u); }
static void c_noload(uint8_t *b, size_t *n) { (void)n; w32(b + EHDR, 4); }
static void c_entry(uint8_t *b, size_t *n) { (void)n; w32(b + 24, 0x80000002u); }
static void c_shoff(uint8_t *b, size_t *n) { (void)n; w32(b + 32, 0x7ffffff0u); }
static void c_shentsize(uint8_t *b, size_t *n) { (void)n; w16(b + 46, 20); }
static void c_symlink(uint8_t *b, size_t *n) { (void)n; w32(b + 160 + 40 + 24, 9); }
static void c_symsize(uint8_t *b, size_t *n) { (void)n; w32(b + 160 + 40 + 20, 4096); }
static void c_symentsize(uint8_t *b, size_t *n) { (void)n; w32(b + 160 + 40 + 36, 12); }

/* Two PT_LOADs (program headers moved to 400), the second at addr2. */
static void two_segments(uint8_t *b, size_t *n, uint32_t addr2) {
  memcpy(b + 400, b + EHDR, PHDR);
  memcpy(b + 400 + PHDR, b + EHDR, PHDR);
  w32(b + 400 + PHDR + 8, addr2);
  w32(b + 400 + PHDR + 12, addr2);
  w32(b + 28, 400);
  w16(b + 44, 2);
  *n = 400 + 2 * PHDR;
}
static void c_overlap(uint8_t *b, size_t *n) { two_segments(b, n, 0x80000008u); }
static void c_overlap_inside(uint8_t *b, size_t *n) {
  two_segments(b, n, 0x7ffffff0u);
  w32(b + 400 + PHDR + 20, 0x100); /* covers the first one */
}

/* Segments that touch without overlapping load; overlapping ones do not. */
static void elf_adjacent(void **state) {
  (void)state;
  uint8_t b[IMAGE_MAX];
  ElfImage img;
  char err[256];
  size_t len = make_elf(b, 1);
  two_segments(b, &len, 0x80000010u);
  assert_int_equal(load(b, len, &img, err), 0);
  assert_int_equal(img.nsegs, 2);
}

static void elf_bad(void **state) {
  (void)state;
  expect_bad(c_magic, "bad magic");
  expect_bad(c_short, "truncated ELF header");
  expect_bad(c_tiny, "bad magic");
  expect_bad(c_class, "not ELF32");
  expect_bad(c_endian, "not little-endian");
  expect_bad(c_machine, "not RISC-V");
  expect_bad(c_type, "not an executable");
  expect_bad(c_phentsize, "program header size 0");
  expect_bad(c_phoff, "run past the end");
  expect_bad(c_phnum, "run past the end");
  expect_bad(c_nophdr, "no program headers");
  expect_bad(c_segoff, "past the end of the file");
  expect_bad(c_filesz, "exceeds memory size");
  expect_bad(c_wrap, "wraps");
  expect_bad(c_noload, "no loadable segments");
  expect_bad(c_entry, "not 4-byte aligned");
  expect_bad(c_shoff, "section headers");
  expect_bad(c_shentsize, "section header size 20");
  expect_bad(c_symlink, "string section 9");
  expect_bad(c_symsize, "symbol table runs past");
  expect_bad(c_symentsize, "entry size 12");
  expect_bad(c_overlap, "segment 1 (0x80000008+0x10) overlaps an earlier one (0x80000000+0x10)");
  expect_bad(c_overlap_inside, "overlaps an earlier one");
}

/* ---- options ---------------------------------------------------------------- */
static int parse(SimOptions *o, char *err, int argc, ...) {
  char *argv[32];
  va_list ap;
  va_start(ap, argc);
  argv[0] = "tessel-sim";
  for (int i = 1; i < argc; i++) argv[i] = va_arg(ap, char *);
  va_end(ap);
  return sim_options_parse(argc, argv, o, err, 256);
}

static void options_defaults(void **state) {
  (void)state;
  SimOptions o;
  char err[256];
  assert_int_equal(parse(&o, err, 2, "fw.elf"), 0);
  assert_string_equal(o.elf, "fw.elf");
  assert_int_equal(o.max_cycles, SIM_DEFAULT_MAX_CYCLES);
  assert_int_equal(o.dram_latency, SIM_DEFAULT_DRAM_LATENCY);
  assert_int_equal(o.dram_size, SIM_DEFAULT_DRAM_SIZE);
  assert_true(o.dram_bw == SIM_DEFAULT_DRAM_BW);
  assert_null(o.trace_fst);
  assert_false(o.stats);
}

static void options_all(void **state) {
  (void)state;
  SimOptions o;
  char err[256];
  assert_int_equal(parse(&o, err, 17, "--stats", "fw.elf", "--max-cycles", "0x100", "--dram-bw",
                         "0.5", "--dram-latency", "7", "--dram-size", "1M", "--load",
                         "0x10000000=a.bin", "--trace", "w.fst", "--trace-commits", "c.txt"),
                   0);
  assert_int_equal(o.max_cycles, 256);
  assert_true(o.dram_bw == 0.5);
  assert_int_equal(o.dram_latency, 7);
  assert_int_equal(o.dram_size, 1u << 20);
  assert_int_equal(o.nloads, 1);
  assert_int_equal(o.loads[0].addr, 0x10000000u);
  assert_string_equal(o.loads[0].path, "a.bin");
  assert_string_equal(o.trace_fst, "w.fst");
  assert_string_equal(o.trace_commits, "c.txt");
  assert_true(o.stats);
  assert_int_equal(parse(&o, err, 2, "--help"), 0);
  assert_true(o.help);
}

static void expect_opt_err(const char *a, const char *v, const char *want) {
  SimOptions o;
  char err[256] = "";
  int rc = v ? parse(&o, err, 4, "fw.elf", a, v) : parse(&o, err, 3, "fw.elf", a);
  assert_int_equal(rc, -1);
  if (!strstr(err, want)) fail_msg("message '%s' lacks '%s'", err, want);
}

static void options_bad(void **state) {
  (void)state;
  SimOptions o;
  char err[256];
  assert_int_equal(parse(&o, err, 1), -1);
  assert_non_null(strstr(err, "no firmware file"));
  expect_opt_err("--max-cycles", NULL, "needs a value");
  expect_opt_err("--max-cycles", "12x", "--max-cycles '12x'");
  expect_opt_err("--max-cycles", "99999999999999999999999", "--max-cycles");
  expect_opt_err("--dram-bw", "inf", "--dram-bw 'inf'");
  expect_opt_err("--dram-bw", "0.001", "--dram-bw");
  expect_opt_err("--trace-commits", "", "--trace-commits needs a file name");
  expect_opt_err("--uart-pty-link", "", "--uart-pty-link needs a file name");
  expect_opt_err("--dram-bw", " 8", "--dram-bw ' 8'");
  expect_opt_err("--dram-bw", "0x10", "--dram-bw '0x10'");
  expect_opt_err("--dram-bw", "", "--dram-bw ''");
  expect_opt_err("--dram-latency", "-1", "--dram-latency");
  expect_opt_err("--dram-size", "", "--dram-size");
  expect_opt_err("--dram-size", "12", "multiple of 8");
  expect_opt_err("--dram-size", "99999999999999999999G", "--dram-size");
  expect_opt_err("--load", "=x", "expected ADDR=FILE");
  expect_opt_err("--load", "0x1=", "expected ADDR=FILE");
  expect_opt_err("--load", "0x100000000=f", "not a 32-bit address");
  expect_opt_err("--bogus", NULL, "unknown option '--bogus'");
}

/* host_file.h: inputs must be regular files, and no open blocks on a FIFO
 * (a FIFO with no writer or reader hung every tool in open()). */
static void host_file_opens(void **state) {
  (void)state;
  char dir[] = "/tmp/sim-unit-XXXXXX", reg[64], fifo[64], none[64];
  assert_non_null(mkdtemp(dir));
  snprintf(reg, sizeof reg, "%s/reg", dir);
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  snprintf(none, sizeof none, "%s/none", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  const char *why = NULL;
  /* outputs: a regular file is created; a FIFO without a reader refused */
  FILE *f = host_file_open_out(reg, "w", &why);
  assert_non_null(f);
  fputs("abc", f);
  assert_int_equal(fclose(f), 0);
  assert_null(host_file_open_out(fifo, "w", &why));
  assert_string_equal(why, "a FIFO with no reader");
  assert_null(host_file_open_out(dir, "w", &why));
  assert_string_equal(why, strerror(EISDIR));
  /* a FIFO someone reads is written as usual (blocking writes again) */
  int rd = open(fifo, O_RDONLY | O_NONBLOCK);
  assert_true(rd >= 0);
  f = host_file_open_out(fifo, "w", &why);
  assert_non_null(f);
  assert_int_equal(fcntl(fileno(f), F_GETFL) & O_NONBLOCK, 0);
  fputs("xy", f);
  assert_int_equal(fclose(f), 0);
  char buf[8] = {0};
  assert_int_equal(read(rd, buf, sizeof buf), 2);
  assert_string_equal(buf, "xy");
  close(rd);
  f = host_file_open_out("/dev/null", "w", &why);
  assert_non_null(f);
  fclose(f);
  /* inputs: only regular files */
  f = host_file_open_in(reg, &why);
  assert_non_null(f);
  assert_int_equal(fcntl(fileno(f), F_GETFL) & O_NONBLOCK, 0);
  assert_int_equal(fread(buf, 1, sizeof buf, f), 3);
  fclose(f);
  assert_null(host_file_open_in(fifo, &why));
  assert_string_equal(why, "not a regular file (a FIFO, device or socket)");
  assert_null(host_file_open_in("/dev/zero", &why));
  assert_string_equal(why, "not a regular file (a FIFO, device or socket)");
  assert_null(host_file_open_in(dir, &why));
  assert_string_equal(why, strerror(EISDIR));
  assert_null(host_file_open_in(none, &why));
  assert_string_equal(why, strerror(ENOENT));
  /* writers that open the file themselves: a new name or a regular file */
  assert_int_equal(host_file_check_out(none, &why), 0);
  assert_int_equal(host_file_check_out(reg, &why), 0);
  assert_int_equal(host_file_check_out(fifo, &why), -1);
  assert_string_equal(why, "not a regular file (a FIFO, device or socket)");
  unlink(reg);
  unlink(fifo);
  rmdir(dir);
}

/* Runs this group; returns the number of failed tests, *total the count.
 * main() is in dram_model_test.cpp, which runs both groups. */
int run_elf_options_tests(int *total);
int run_elf_options_tests(int *total) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(elf_valid),        cmocka_unit_test(elf_tohost),
      cmocka_unit_test(elf_bad),          cmocka_unit_test(elf_adjacent),          cmocka_unit_test(options_defaults),
      cmocka_unit_test(options_all),      cmocka_unit_test(options_bad),          cmocka_unit_test(host_file_opens),
  };
  *total = (int)(sizeof tests / sizeof tests[0]);
  return cmocka_run_group_tests_name("sim-elf-options", tests, NULL, NULL);
}
