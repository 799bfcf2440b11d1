/* timer.c: machine timer driver. See timer.h. */
#include "timer.h"

#include "csr.h"
#include "mmio.h"

uint64_t timer_now(void) {
  uint32_t hi, lo, hi2;
  do {
    hi = mmio_read32(TIMER_MTIMEH);
    lo = mmio_read32(TIMER_MTIME);
    hi2 = mmio_read32(TIMER_MTIMEH);
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
}

void timer_set_compare(uint64_t when) {
  /* High word to all ones first, so the intermediate value is never below
   * MTIME (the privileged spec's recommended sequence). */
  mmio_write32(TIMER_MTIMECMPH, 0xFFFFFFFFu);
  mmio_write32(TIMER_MTIMECMP, (uint32_t)when);
  mmio_write32(TIMER_MTIMECMPH, (uint32_t)(when >> 32));
}

void timer_disarm(void) {
  mmio_write32(TIMER_MTIMECMPH, 0xFFFFFFFFu);
  mmio_write32(TIMER_MTIMECMP, 0xFFFFFFFFu);
}

void timer_delay(uint64_t cycles) {
  uint64_t end = timer_now() + cycles;
  while (timer_now() < end) {
  }
}

void timer_irq_in(uint64_t cycles) {
  timer_set_compare(timer_now() + cycles);
  csr_set(mie, MIE_MTIE);
}

void timer_irq_off(void) {
  csr_clear(mie, MIE_MTIE);
  timer_disarm();
}

void timer_sleep(uint64_t cycles) {
  uint32_t saved_mie = csr_read(mie);
  uint32_t saved_mstatus = csr_read(mstatus);
  uint64_t end = timer_now() + cycles;
  irq_global_disable(); /* wake from wfi without entering a handler */
  timer_set_compare(end);
  csr_set(mie, MIE_MTIE);
  while (timer_now() < end) __asm__ volatile("wfi");
  timer_disarm();
  csr_write(mie, saved_mie);
  csr_write(mstatus, saved_mstatus);
}
