/* board_digits.c: the digits model on the iCEBreaker, from its flash (suite
 * boards, on the board's RTL and on its gate-level netlist; docs/boards.md).
 *
 * The boot loader put the package, flash image 1, at __board_package
 * (linker/icebreaker.ld, board.cfg's package_offset). This firmware loads it
 * with the runtime on the board's core-sequenced NPU, its DRAM window after
 * the package up to the end of the SPRAM (as the link firmware places it),
 * runs the first BOARD_DIGITS images of the test set (digits_images.h,
 * compiled in, with the int8 reference's outputs), and prints per image
 *   "image I: predicted P reference R cycles C"
 * then "board-digits: N/M predictions and N/M outputs bit for bit as the
 * int8 reference". Exit status: 0 when every output equals the reference's
 * bit for bit, 1 when one does not, 2 when the package is not the digits
 * model, 10 + -TFW_E_* when the runtime refuses it. */
#include <stdint.h>
#include <string.h>

#include "digits_images.h"
#include "tessel_fw.h"
#include "tessel_rt.h"

/* One image: the gate-level netlist simulates about 120 k cycles a second,
 * and an image takes some 19 M on the lite core (docs/boards.md). */
#ifndef BOARD_DIGITS
#define BOARD_DIGITS 1
#endif

extern uint8_t __board_package[], __board_package_end[];

static tfw_model model;

static void put_dec(uint32_t v) {
  char buf[11];
  int n = 0;
  do buf[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
  while (n) uart_putc(buf[--n]);
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static int io_is(const tpkg_io *io, uint32_t size) {
  return io && io->dtype == TPKG_DT_F32 && io->layout == TPKG_LAYOUT_PLAIN && io->size == size;
}

static int refused(const tfw_error *e) {
  char buf[160];
  uart_puts("board-digits: ");
  uart_puts(tfw_format_error(e, buf, sizeof buf));
  uart_putc('\n');
  return 10 - e->code;
}

int main(void) {
  tfw_error e = {.code = TFW_OK, .kernel = -1, .index = -1};
  /* 1. The package's length from its header when it has one (tfw_load
   *    checks everything else; without the magic, the header alone is
   *    handed over so the refusal names the magic); the window from the next
   *    64-byte boundary to the end of the SPRAM. */
  uint32_t room = (uint32_t)(__board_package_end - __board_package), len = TPKG_HEADER_BYTES;
  if (!memcmp(__board_package, TPKG_MAGIC, 4)) {
    len = tpkg_rd32(__board_package + TPKG_H_TOTAL);
    if (len > room) len = room;
  }
  uintptr_t win = ((uintptr_t)__board_package + len + 63u) & ~(uintptr_t)63u;
  if (win > (uintptr_t)__board_package_end) win = (uintptr_t)__board_package_end;
  if (tfw_load(&model, tfw_npu_backend(), __board_package, len, (void *)win,
               (uint32_t)((uintptr_t)__board_package_end - win), 0, &e) != TFW_OK)
    return refused(&e);

  /* 2. The digits model: one float32 [1,1,8,8] input, one float32 [1,10]
   *    output, plain layout. */
  tpkg_io in_io, out_io;
  const tpkg_io *in = tfw_input(&model, 0, &in_io), *out = tfw_output(&model, 0, &out_io);
  if (tfw_num_inputs(&model) != 1 || tfw_num_outputs(&model) != 1 || !io_is(in, 64 * 4) || !io_is(out, 10 * 4)) {
    uart_puts("board-digits: the package is not the digits model\n");
    return 2;
  }
  float *x = tfw_io_data(&model, in);
  const float *y = tfw_io_data(&model, out);

  /* 3. The images. */
  int agree = 0, exact = 0, n = BOARD_DIGITS < DIGITS_COUNT ? BOARD_DIGITS : DIGITS_COUNT;
  for (int i = 0; i < n; i++) {
    memcpy(x, digits_images[i], sizeof digits_images[i]);
    uint64_t t0 = timer_now();
    if (tfw_run(&model, &e) != TFW_OK) return refused(&e);
    uint32_t cycles = (uint32_t)(timer_now() - t0);
    int best = 0, same = 1;
    for (int k = 0; k < 10; k++) {
      if (y[k] > y[best]) best = k;
      same &= f32_bits(y[k]) == digits_ref_bits[i][k];
    }
    agree += best == digits_ref_class[i];
    exact += same;
    uart_puts("image ");
    put_dec((uint32_t)i);
    uart_puts(": predicted ");
    put_dec((uint32_t)best);
    uart_puts(" reference ");
    put_dec((uint32_t)digits_ref_class[i]);
    uart_puts(" cycles ");
    put_dec(cycles);
    uart_puts(same ? "\n" : "  MISMATCH\n");
  }
  uart_puts("board-digits: ");
  put_dec((uint32_t)agree);
  uart_putc('/');
  put_dec((uint32_t)n);
  uart_puts(" predictions and ");
  put_dec((uint32_t)exact);
  uart_putc('/');
  put_dec((uint32_t)n);
  uart_puts(" outputs bit for bit as the int8 reference\n");
  return exact == n ? 0 : 1;
}
