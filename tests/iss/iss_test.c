/* iss_test.c: cmocka unit tests of the ISS: decoder and executor corner
 * cases, traps and CSRs, interrupts, the commit trace, devices, and the ELF
 * loader's checks. Programs are words written straight into DRAM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bus.h"
#include "csr.h"
#include "elf.h"
#include "hart.h"

typedef struct {
  bus_t bus;
  hart_t hart;
} machine;

static int setup(void **state) {
  machine *m = calloc(1, sizeof *m);
  if (!m || bus_init(&m->bus, stdout) != 0) return -1;
  hart_reset(&m->hart, &m->bus, TSL_MEM_DRAM_BASE);
  *state = m;
  return 0;
}

static int teardown(void **state) {
  machine *m = *state;
  bus_free(&m->bus);
  free(m);
  return 0;
}

static void put_words(machine *m, uint32_t addr, const uint32_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) assert_int_equal(bus_store(&m->bus, addr + 4 * i, 4, w[i]), BUS_OK);
}

/* Encoders for the few formats the tests need. */
static uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return ((uint32_t)imm & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

/* Runs one R-type instruction on a and b, returns x3. */
static uint32_t run_r(machine *m, uint32_t f7, uint32_t f3, uint32_t a, uint32_t b) {
  uint32_t insn = r_type(f7, 2, 1, f3, 3, 0x33);
  hart_reset(&m->hart, &m->bus, TSL_MEM_DRAM_BASE);
  put_words(m, TSL_MEM_DRAM_BASE, &insn, 1);
  m->hart.x[1] = a;
  m->hart.x[2] = b;
  assert_int_equal(hart_step(&m->hart), STEP_RETIRED);
  return m->hart.x[3];
}

static void test_muldiv_corners(void **state) {
  machine *m = *state;
  assert_int_equal(run_r(m, 1, 4, 0x80000000u, 0xFFFFFFFFu), 0x80000000u); /* div INT_MIN/-1 */
  assert_int_equal(run_r(m, 1, 6, 0x80000000u, 0xFFFFFFFFu), 0);           /* rem INT_MIN/-1 */
  assert_int_equal(run_r(m, 1, 4, 7, 0), 0xFFFFFFFFu);                     /* div by 0 */
  assert_int_equal(run_r(m, 1, 5, 7, 0), 0xFFFFFFFFu);                     /* divu by 0 */
  assert_int_equal(run_r(m, 1, 6, 7, 0), 7);                               /* rem by 0 */
  assert_int_equal(run_r(m, 1, 7, 7, 0), 7);                               /* remu by 0 */
  assert_int_equal(run_r(m, 1, 4, (uint32_t)-7, 2), (uint32_t)-3);         /* toward zero */
  assert_int_equal(run_r(m, 1, 6, (uint32_t)-7, 2), (uint32_t)-1);
  assert_int_equal(run_r(m, 1, 1, 0x80000000u, 0x80000000u), 0x40000000u); /* mulh */
  assert_int_equal(run_r(m, 1, 2, 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFFu); /* mulhsu -1*(2^32-1) */
  assert_int_equal(run_r(m, 1, 3, 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFEu); /* mulhu */
  assert_int_equal(run_r(m, 1, 0, 0x80000000u, 0xFFFFFFFFu), 0x80000000u); /* mul */
}

static void test_shifts_and_compares(void **state) {
  machine *m = *state;
  assert_int_equal(run_r(m, 0x20, 5, 0x80000000u, 31), 0xFFFFFFFFu); /* sra */
  assert_int_equal(run_r(m, 0, 5, 0x80000000u, 31), 1);              /* srl */
  assert_int_equal(run_r(m, 0, 1, 1, 0xFFFFFFE1u), 2);               /* sll uses rs2[4:0] */
  assert_int_equal(run_r(m, 0, 2, 0xFFFFFFFFu, 0), 1);               /* slt signed */
  assert_int_equal(run_r(m, 0, 3, 0xFFFFFFFFu, 0), 0);               /* sltu */
  assert_int_equal(run_r(m, 0x20, 0, 0, 1), 0xFFFFFFFFu);            /* sub */
}

/* Regression (found by the fuzzer): a negative store offset shifted a
 * negative int left, which UBSan rejects. */
static void test_store_negative_offset(void **state) {
  machine *m = *state;
  uint32_t sw = 0xFE112E23u; /* sw x1, -4(x2) */
  put_words(m, TSL_MEM_DRAM_BASE, &sw, 1);
  m->hart.x[1] = 0xCAFEF00Du;
  m->hart.x[2] = TSL_MEM_DRAM_BASE + 0x104;
  assert_int_equal(hart_step(&m->hart), STEP_RETIRED);
  uint32_t v;
  assert_int_equal(bus_load(&m->bus, TSL_MEM_DRAM_BASE + 0x100, 4, &v), BUS_OK);
  assert_int_equal(v, 0xCAFEF00Du);
}

static void test_x0_stays_zero(void **state) {
  machine *m = *state;
  uint32_t prog[] = {i_type(5, 0, 0, 0, 0x13) /* addi x0, x0, 5 */, 0x123450b7 /* lui x1 */};
  put_words(m, TSL_MEM_DRAM_BASE, prog, 2);
  hart_step(&m->hart);
  hart_step(&m->hart);
  assert_int_equal(m->hart.x[0], 0);
  assert_int_equal(m->hart.x[1], 0x12345000u);
}

/* The trap checks every illegal form the decoder must refuse. */
static void test_illegal_encodings(void **state) {
  machine *m = *state;
  static const uint32_t bad[] = {
      0x00000000, 0xFFFFFFFF, 0x40001033, 0x02001013, 0x40001013, 0x00002063, 0x00003003,
      0x00003023, 0x00004073, 0x10200073, 0x00001067, 0x04000033, 0x0000200F, 0x00000013 & ~3u,
      0x30200073 | (1u << 7), /* mret with rd != 0 */
  };
  m->hart.mtvec = TSL_MEM_DRAM_BASE + 0x100;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hart_reset(&m->hart, &m->bus, TSL_MEM_DRAM_BASE);
    m->hart.mtvec = TSL_MEM_DRAM_BASE + 0x100;
    put_words(m, TSL_MEM_DRAM_BASE, &bad[i], 1);
    assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
    assert_int_equal(m->hart.mcause, TSL_CAUSE_ILLEGAL);
    assert_int_equal(m->hart.mtval, bad[i]);
    assert_int_equal(m->hart.mepc, TSL_MEM_DRAM_BASE);
    assert_int_equal(m->hart.pc, TSL_MEM_DRAM_BASE + 0x100);
    assert_int_equal(m->hart.minstret, 0); /* a trap does not retire */
  }
}

static void test_misaligned_and_faults(void **state) {
  machine *m = *state;
  m->hart.x[1] = TSL_MEM_DRAM_BASE + 0x1001;
  m->hart.x[5] = 99;
  uint32_t lw = i_type(0, 1, 2, 5, 0x03); /* lw x5, 0(x1) */
  put_words(m, TSL_MEM_DRAM_BASE, &lw, 1);
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, TSL_CAUSE_LOAD_MISALIGNED);
  assert_int_equal(m->hart.mtval, TSL_MEM_DRAM_BASE + 0x1001);
  assert_int_equal(m->hart.x[5], 99);

  hart_reset(&m->hart, &m->bus, TSL_MEM_DRAM_BASE);
  m->hart.x[1] = 0x30000000u; /* reserved NPU window: bus error */
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, TSL_CAUSE_LOAD_FAULT);
  assert_int_equal(m->hart.mtval, 0x30000000u);

  hart_reset(&m->hart, &m->bus, 0x50000000u); /* fetch from nowhere */
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, TSL_CAUSE_FETCH_FAULT);
  assert_int_equal(m->hart.mtval, 0x50000000u);
  assert_int_equal(m->hart.mepc, 0x50000000u);
}

static void test_jump_to_misaligned_target(void **state) {
  machine *m = *state;
  uint32_t jalr = i_type(2, 1, 0, 5, 0x67); /* jalr x5, 2(x1) */
  put_words(m, TSL_MEM_DRAM_BASE, &jalr, 1);
  m->hart.x[1] = TSL_MEM_DRAM_BASE + 0x100;
  m->hart.x[5] = 7;
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, TSL_CAUSE_FETCH_MISALIGNED);
  assert_int_equal(m->hart.mtval, TSL_MEM_DRAM_BASE + 0x102);
  assert_int_equal(m->hart.mepc, TSL_MEM_DRAM_BASE);
  assert_int_equal(m->hart.x[5], 7); /* not written */

  /* jalr clears bit 0 only: +1 is a legal target. */
  hart_reset(&m->hart, &m->bus, TSL_MEM_DRAM_BASE);
  m->hart.x[1] = TSL_MEM_DRAM_BASE + 0xFF;
  uint32_t jalr1 = i_type(1, 1, 0, 5, 0x67);
  put_words(m, TSL_MEM_DRAM_BASE, &jalr1, 1);
  assert_int_equal(hart_step(&m->hart), STEP_RETIRED);
  assert_int_equal(m->hart.pc, TSL_MEM_DRAM_BASE + 0x100);
  assert_int_equal(m->hart.x[5], TSL_MEM_DRAM_BASE + 4);
}

static void test_csr_rules(void **state) {
  machine *m = *state;
  uint32_t v;
  assert_int_equal(csr_read(&m->hart, TSL_CSR_MISA, &v), 0);
  assert_int_equal(v, TSL_CSR_MISA_VALUE);
  assert_int_equal(csr_read(&m->hart, TSL_CSR_MSTATUS, &v), 0);
  assert_int_equal(v, 0x1800); /* MPP = 3 */
  assert_int_equal(csr_write(&m->hart, TSL_CSR_MHARTID, 1), -1);
  assert_int_equal(csr_read(&m->hart, 0x7C0, &v), -1);
  assert_int_equal(csr_write(&m->hart, TSL_CSR_MTVEC, 0x80000123u), 0);
  assert_int_equal(m->hart.mtvec, 0x80000120u);
  assert_int_equal(csr_write(&m->hart, TSL_CSR_MIE, 0xFFFFFFFFu), 0);
  assert_int_equal(m->hart.mie, 0x880);

  /* csrrs x5, mhartid, x0 is legal; csrrw x0, mhartid, x0 is not. */
  uint32_t prog[] = {0xF14022F3u, 0xF1401073u};
  put_words(m, TSL_MEM_DRAM_BASE, prog, 2);
  assert_int_equal(hart_step(&m->hart), STEP_RETIRED);
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, TSL_CAUSE_ILLEGAL);
}

static void test_minstret_write_wins(void **state) {
  machine *m = *state;
  /* csrw minstret, x1 ; csrr x5, minstret */
  uint32_t prog[] = {0xB0209073u, 0xB02022F3u};
  put_words(m, TSL_MEM_DRAM_BASE, prog, 2);
  m->hart.x[1] = 100;
  hart_step(&m->hart);
  hart_step(&m->hart);
  assert_int_equal(m->hart.x[5], 100);
  assert_int_equal(m->hart.minstret, 101);
}

static void test_timer_interrupt_and_wfi(void **state) {
  machine *m = *state;
  uint32_t prog[] = {0x10500073u /* wfi */, 0x00000013u /* nop */};
  put_words(m, TSL_MEM_DRAM_BASE, prog, 2);
  m->bus.mtimecmp = 1000;
  m->hart.mie = TSL_MIE_MTIE;
  m->hart.mtvec = TSL_MEM_DRAM_BASE + 0x200;
  /* MIE = 0: wfi waits for the timer, then execution continues. */
  assert_int_equal(hart_step(&m->hart), STEP_RETIRED);
  assert_true(m->bus.mtime >= 1000);
  assert_int_equal(m->hart.pc, TSL_MEM_DRAM_BASE + 4);
  assert_int_equal(hart_mip(&m->hart) & 0x80, 0x80);
  /* MIE = 1: the pending interrupt is taken before the nop. */
  m->hart.mstatus = TSL_MSTATUS_MIE;
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, 0x80000007u);
  assert_int_equal(m->hart.mepc, TSL_MEM_DRAM_BASE + 4);
  assert_int_equal(m->hart.mstatus, TSL_MSTATUS_MPIE);
  /* External wins over timer. */
  hart_reset(&m->hart, &m->bus, TSL_MEM_DRAM_BASE + 4);
  m->bus.ext_irq = 1;
  m->hart.mie = TSL_MIE_MTIE | TSL_MIE_MEIE;
  m->hart.mstatus = TSL_MSTATUS_MIE;
  assert_int_equal(hart_step(&m->hart), STEP_TRAPPED);
  assert_int_equal(m->hart.mcause, 0x8000000Bu);
}

static void test_mret(void **state) {
  machine *m = *state;
  uint32_t mret = 0x30200073u;
  put_words(m, TSL_MEM_DRAM_BASE, &mret, 1);
  m->hart.mepc = TSL_MEM_DRAM_BASE + 0x40;
  m->hart.mstatus = TSL_MSTATUS_MPIE;
  assert_int_equal(hart_step(&m->hart), STEP_RETIRED);
  assert_int_equal(m->hart.pc, TSL_MEM_DRAM_BASE + 0x40);
  assert_int_equal(m->hart.mstatus, TSL_MSTATUS_MIE | TSL_MSTATUS_MPIE);
}

static void test_commit_trace_format(void **state) {
  machine *m = *state;
  char buf[256] = {0};
  FILE *f = fmemopen(buf, sizeof buf, "w");
  assert_non_null(f);
  m->hart.trace = f;
  uint32_t prog[] = {i_type(-1, 0, 0, 10, 0x13) /* addi a0, x0, -1 */,
                     i_type(5, 0, 0, 0, 0x13) /* addi x0, x0, 5 */, 0x00000000};
  put_words(m, TSL_MEM_DRAM_BASE, prog, 3);
  hart_step(&m->hart);
  hart_step(&m->hart);
  hart_step(&m->hart); /* traps: no line */
  fclose(f);
  assert_string_equal(buf, "80000000 fff00513 x10=ffffffff\n80000004 00500013\n");
}

static void test_bus_devices(void **state) {
  machine *m = *state;
  uint32_t v;
  assert_int_equal(bus_store(&m->bus, TSL_MEM_TIMER_BASE + 0xC, 4, 0), BUS_OK);
  assert_int_equal(bus_store(&m->bus, TSL_MEM_TIMER_BASE + 0x8, 2, 0x1234), BUS_OK);
  assert_int_equal(m->bus.mtimecmp, 0x00000000FFFF1234ull);
  assert_int_equal(bus_load(&m->bus, TSL_MEM_UART_BASE + 0x4, 4, &v), BUS_OK);
  assert_int_equal(v, 0x80000000u);
  assert_int_equal(bus_load(&m->bus, 0x30000000u, 4, &v), BUS_FAULT);
  assert_int_equal(bus_load(&m->bus, TSL_MEM_DRAM_BASE + TSL_MEM_DRAM_SIZE, 4, &v), BUS_FAULT);
  assert_int_equal(bus_load(&m->bus, TSL_MEM_IMEM_BASE + TSL_MEM_IMEM_SIZE - 2, 2, &v), BUS_OK);
  assert_int_equal(bus_store(&m->bus, TSL_MEM_SIMCTL_BASE + 0x4, 4, 3), BUS_OK);
  assert_int_equal(m->bus.ext_irq, 1);
  assert_int_equal(bus_store(&m->bus, TSL_MEM_SIMCTL_BASE, 4, 42), BUS_OK);
  assert_int_equal(m->bus.halt, BUS_EXIT);
  assert_int_equal(m->bus.halt_value, 42);
}

static void test_tohost(void **state) {
  machine *m = *state;
  m->bus.has_tohost = 1;
  m->bus.tohost_addr = TSL_MEM_DRAM_BASE + 0x1000;
  assert_int_equal(bus_store(&m->bus, TSL_MEM_DRAM_BASE + 0x1000, 4, 0), BUS_OK);
  assert_int_equal(m->bus.halt, BUS_RUN);
  assert_int_equal(bus_store(&m->bus, TSL_MEM_DRAM_BASE + 0x1000, 4, 7), BUS_OK);
  assert_int_equal(m->bus.halt, BUS_TOHOST);
  assert_int_equal(m->bus.halt_value, 7);
}

/* A minimal valid ELF: header, one PT_LOAD of 8 bytes at 0x80000000. */
static size_t make_elf(uint8_t *buf) {
  memset(buf, 0, 128);
  memcpy(buf, "\x7f" "ELF", 4);
  buf[4] = 1; buf[5] = 1; buf[6] = 1;
  buf[16] = 2;                 /* ET_EXEC */
  buf[18] = 243;               /* EM_RISCV */
  buf[20] = 1;                 /* e_version */
  buf[24 + 3] = 0x80;          /* e_entry 0x80000000 */
  buf[28] = 52;                /* e_phoff */
  buf[40] = 52;                /* e_ehsize */
  buf[42] = 32;                /* e_phentsize */
  buf[44] = 1;                 /* e_phnum */
  uint8_t *ph = buf + 52;
  ph[0] = 1;                   /* PT_LOAD */
  ph[4] = 84;                  /* p_offset */
  ph[8 + 3] = 0x80; ph[12 + 3] = 0x80; /* vaddr, paddr */
  ph[16] = 8; ph[20] = 16;     /* filesz, memsz */
  buf[84] = 0x13; buf[88] = 0x73; /* two words of code */
  return 92;
}

static void expect_elf_error(machine *m, const uint8_t *im, size_t n, const char *needle) {
  elf_info info;
  char err[256] = "";
  assert_int_equal(iss_load_elf(im, n, &m->bus, &info, err, sizeof err), -1);
  if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_elf_loader(void **state) {
  machine *m = *state;
  uint8_t im[128], bad[128];
  size_t n = make_elf(im);
  elf_info info;
  char err[256];
  assert_int_equal(iss_load_elf(im, n, &m->bus, &info, err, sizeof err), 0);
  assert_int_equal(info.entry, 0x80000000u);
  assert_int_equal(info.has_tohost, 0);

  expect_elf_error(m, im, 10, "truncated ELF header");
  memcpy(bad, im, n); bad[0] = 0; expect_elf_error(m, bad, n, "magic");
  memcpy(bad, im, n); bad[4] = 2; expect_elf_error(m, bad, n, "ELF32");
  memcpy(bad, im, n); bad[5] = 2; expect_elf_error(m, bad, n, "little-endian");
  memcpy(bad, im, n); bad[18] = 62; expect_elf_error(m, bad, n, "RISC-V");
  memcpy(bad, im, n); bad[16] = 3; expect_elf_error(m, bad, n, "executable");
  memcpy(bad, im, n); bad[44] = 0; expect_elf_error(m, bad, n, "no program headers");
  memcpy(bad, im, n); bad[28] = 200; expect_elf_error(m, bad, n, "past the end");
  memcpy(bad, im, n); bad[52 + 16] = 100; expect_elf_error(m, bad, n, "exceeds memory size");
  memcpy(bad, im, n); bad[52 + 4] = 90; expect_elf_error(m, bad, n, "past the end");
  memcpy(bad, im, n); bad[52 + 15] = 0x30; expect_elf_error(m, bad, n, "not inside one memory");
  memcpy(bad, im, n); bad[52 + 23] = 0x10; expect_elf_error(m, bad, n, "not inside one memory");
  memcpy(bad, im, n); bad[27] = 0x50; expect_elf_error(m, bad, n, "entry point");
  memcpy(bad, im, n); bad[24] = 2; expect_elf_error(m, bad, n, "aligned");
  memcpy(bad, im, n); bad[32] = 200; bad[48] = 1; bad[46] = 40; expect_elf_error(m, bad, n, "section headers");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_muldiv_corners, setup, teardown),
      cmocka_unit_test_setup_teardown(test_shifts_and_compares, setup, teardown),
      cmocka_unit_test_setup_teardown(test_store_negative_offset, setup, teardown),
      cmocka_unit_test_setup_teardown(test_x0_stays_zero, setup, teardown),
      cmocka_unit_test_setup_teardown(test_illegal_encodings, setup, teardown),
      cmocka_unit_test_setup_teardown(test_misaligned_and_faults, setup, teardown),
      cmocka_unit_test_setup_teardown(test_jump_to_misaligned_target, setup, teardown),
      cmocka_unit_test_setup_teardown(test_csr_rules, setup, teardown),
      cmocka_unit_test_setup_teardown(test_minstret_write_wins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_timer_interrupt_and_wfi, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mret, setup, teardown),
      cmocka_unit_test_setup_teardown(test_commit_trace_format, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bus_devices, setup, teardown),
      cmocka_unit_test_setup_teardown(test_tohost, setup, teardown),
      cmocka_unit_test_setup_teardown(test_elf_loader, setup, teardown),
  };
  return cmocka_run_group_tests_name("iss", tests, NULL, NULL);
}
