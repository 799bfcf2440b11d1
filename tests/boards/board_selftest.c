/* board_selftest.c: the first program a Tessel board runs (suite boards;
 * also a bring-up check on real hardware: docs/boards.md). It is loaded from
 * SPI flash into the board's RAM by the boot loader, so reaching main at all
 * means the loader, the memory port and instruction fetch from it work.
 * Then: UART output, a RAM pattern over every byte lane and burst, the
 * iterative multiplier and divider, the machine timer, bus errors (the
 * board builds no TCMs, and fetches may not reach peripherals), and, with an NPU
 * (BOARD_NPU), a command stream through the firmware's NPU driver, or with
 * the core-sequenced NPU's datapath (BOARD_NPU_SEQ, docs/npu-seq.md) one MAC
 * and one requantisation through its registers; last, the first two words of
 * the package window.
 * Prints "PASS x"/"FAIL x" lines and exits 0 when all pass (the board's
 * green LED goes out; red on failure). */
#include <stdint.h>

#include "tessel_fw.h"
#ifdef BOARD_NPU
#include "npu.h"
#endif

static int fails;

static void check(int ok, const char *what) {
  uart_puts(ok ? "PASS " : "FAIL ");
  uart_puts(what);
  uart_putc('\n');
  if (!ok) fails++;
}

/* A RAM block in .bss (in SPRAM): written with byte, half and word stores,
 * read back as words, so every byte lane of the 64-bit port is exercised. */
static volatile uint8_t ram_block[1024] __attribute__((aligned(8)));

static int ram_test(void) {
  for (uint32_t i = 0; i < sizeof ram_block; i++) ram_block[i] = (uint8_t)(i * 7 + 3);
  volatile uint16_t *h = (volatile uint16_t *)ram_block;
  for (uint32_t i = 0; i < 64; i++) h[i] = (uint16_t)(0xA500u + i);
  uint32_t bad = 0;
  volatile uint32_t *w = (volatile uint32_t *)ram_block;
  for (uint32_t i = 0; i < sizeof ram_block / 4; i++) {
    uint32_t e = 0;
    for (uint32_t b = 0; b < 4; b++) {
      uint32_t k = 4 * i + b;
      uint32_t v = k < 128 ? ((k & 1) ? 0xA5u : (uint8_t)(k / 2)) : (uint8_t)(k * 7 + 3);
      e |= v << (8 * b);
    }
    if (w[i] != e) bad++;
  }
  return bad == 0;
}

/* The model package window (flash image 1; linker/icebreaker.ld) and the
 * end of the board's memory. */
extern volatile uint32_t __board_package[], __board_package_end[];

/* Values the compiler cannot fold: the multiply and divide run on the core. */
static volatile int32_t mul_a = -123457, mul_b = 98765, div_a = 1000000007, div_b = -97;

/* Bus errors: the trap handler records the cause and value and resumes, past
 * a faulting load, or at the caller (ra) after a faulting fetch. */
static volatile uint32_t trap_cause, trap_tval;

static int fault_handler(trap_frame *f) {
  trap_cause = f->mcause;
  trap_tval = f->mtval;
  f->mepc = (f->mcause == 1) ? f->x[1] : f->mepc + 4;
  return 1;
}

static int bus_error_test(void) {
  trap_handler_fn old = trap_set_handler(fault_handler);
  trap_cause = 99;
  (void)*(volatile uint32_t *)0x10000000u;   /* DMEM window, no TCM built */
  int load_ok = trap_cause == 5 && trap_tval == 0x10000000u;
  trap_cause = 99;
  ((void (*)(void))0x20000000u)();             /* fetch from the UART window */
  int fetch_ok = trap_cause == 1 && trap_tval == 0x20000000u;
  trap_set_handler(old);
  return load_ok && fetch_ok;
}

#ifdef BOARD_NPU_SEQ
/* The datapath at DIM 2: W = [[1, -2], [3, 4]], S = (10, -10), X = (5, -6):
 * S = (10 + 5 - 18, -10 - 10 - 24) = (-3, -44). Then lane 1 requantises
 * acc 100 with bias -1, mult 2^30, shift 31: 99 / 2 = 49.5, a tie, rounds to
 * the even 50; + zp -3 = 47, inside [-128, 127]; and lane 0 one with a
 * shift of 33. */
static int npu_seq_mac_test(void) {
  int ok = mmio_read32(TSL_NPU_SEQ_ID) == 0x51455354u && mmio_read32(TSL_NPU_SEQ_DIM) == 2u;
  mmio_write32(TSL_NPU_SEQ_W, 0x0403FE01u);   /* bytes W[0][0], W[0][1], W[1][0], W[1][1] */
  mmio_write32(TSL_NPU_SEQ_S, 10u);
  mmio_write32(TSL_NPU_SEQ_S + 4u, (uint32_t)-10);
  mmio_write32(TSL_NPU_SEQ_X, 0xFA05u);       /* X[0] = 5, X[1] = -6: starts the MAC */
  return ok && (int32_t)mmio_read32(TSL_NPU_SEQ_S) == -3 && (int32_t)mmio_read32(TSL_NPU_SEQ_S + 4u) == -44;
}

static int npu_seq_requant_test(void) {
  mmio_write32(TSL_NPU_SEQ_REQ_BIAS + 4u, (uint32_t)-1);
  mmio_write32(TSL_NPU_SEQ_REQ_MULT + 4u, 1u << 30);
  mmio_write32(TSL_NPU_SEQ_REQ_SHIFT + 4u, 31u);
  mmio_write32(TSL_NPU_SEQ_REQ_OUTP, 0x7F80FDu);   /* zp -3, lo -128, hi 127 */
  mmio_write32(TSL_NPU_SEQ_REQ_ACC + 4u, 100u);
  int ok = (int32_t)mmio_read32(TSL_NPU_SEQ_REQ_OUT) == 47;
  /* lane 0, a shift past 32 (the first 32 at once): 1004 * 2^30 / 2^33 =
   * 125.5, a tie, rounds to 126; + zp -3 = 123 */
  mmio_write32(TSL_NPU_SEQ_REQ_BIAS, 0u);
  mmio_write32(TSL_NPU_SEQ_REQ_MULT, 1u << 30);
  mmio_write32(TSL_NPU_SEQ_REQ_SHIFT, 33u);
  mmio_write32(TSL_NPU_SEQ_REQ_ACC, 1004u);
  return ok && (int32_t)mmio_read32(TSL_NPU_SEQ_REQ_OUT) == 123;
}
#endif

int main(void) {
  uart_puts("tessel board selftest\n");
  check(1, "boot from flash: main reached");
  check(ram_test(), "RAM byte/half/word lanes");
  check(mul_a * mul_b == 691671283 && (int32_t)(((int64_t)mul_a * mul_b) >> 32) == -3,
        "mul, mulh");
  check(div_a / div_b == -10309278 && div_a % div_b == 41, "div, rem");
  uint64_t t0 = timer_now();
  for (volatile int i = 0; i < 100; i++) {
  }
  check(timer_now() > t0, "machine timer counts");
  check(bus_error_test(), "bus errors: load from the absent DMEM, fetch from the UART");
#ifdef BOARD_NPU
  int rc = npu_init();
  check(rc == NPU_OK, "NPU present and built for this board's target");
  if (rc == NPU_OK) {
    static uint32_t s[4 * 3];
    /* LOOP 20 { NOP } then one NOP: dispatcher, loop stack, DONE interrupt */
    s[0] = TSL_OP_LOOP | 20u << 8 | 1u << 24;
    s[4] = TSL_OP_NOP;
    s[8] = TSL_OP_NOP;
    npu_run_info_t info;
    rc = npu_load_stream(0, s, 3);
    if (rc == NPU_OK) rc = npu_set_window((uint32_t)(uintptr_t)__board_package_end - 4096u, 4096); /* the memory's last 4 KiB */
    if (rc == NPU_OK) rc = npu_run(0, 3, 1000000, &info);
    check(rc == NPU_OK && info.err_code == 0, "NPU stream ends DONE through the interrupt");
    s[4] = 0; /* an all-zero command: BAD_OPCODE at index 1 */
    npu_load_stream(0, s, 3);
    rc = npu_run(0, 3, 1000000, &info);
    check(rc == NPU_ERR_HW && info.err_code == TSL_ERR_BAD_OPCODE && info.err_index == 1,
          "NPU reports a bad command with its index");
  }
#endif
#ifdef BOARD_NPU_SEQ
  check(npu_seq_mac_test(), "NPU_SEQ datapath: ID, DIM and one MAC");
  check(npu_seq_requant_test(), "NPU_SEQ datapath: two requantisations (ties, rounded to even; shifts 31 and 33)");
#endif
  /* What the loader put in the package window (the bench compares it with
   * the image it loaded; with no package it is whatever the RAM held). */
  uart_puts("package window: ");
  uart_put_hex32(__board_package[0]);
  uart_putc(' ');
  uart_put_hex32(__board_package[1]);
  uart_putc('\n');
  uart_puts(fails ? "selftest: FAIL\n" : "selftest: all passed\n");
  return fails ? 1 : 0;
}
