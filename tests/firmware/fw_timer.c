/* fw_timer.c: the timer driver and interrupts through the trap hook:
 * timer_now advances, timer_delay waits long enough, a timer interrupt
 * fires after timer_irq_in, timer_sleep wakes from wfi, and the external
 * interrupt hook raises mcause 0x8000000B. */
#include <stdint.h>

#include "check.h"
#include "tessel_fw.h"

static volatile uint32_t timer_irqs, ext_irqs, other_traps;
static volatile uint64_t fired_at;

static int irq_handler(trap_frame *f) {
  if (f->mcause == 0x80000007u) {
    fired_at = timer_now();
    timer_disarm();
    timer_irqs++;
    return 1;
  }
  if (f->mcause == 0x8000000Bu) {
    sim_set_ext_irq(0);
    ext_irqs++;
    return 1;
  }
  other_traps++;
  return 0;
}

/* Bounded wait for a counter: a lost interrupt fails instead of hanging. */
static int wait_for(volatile uint32_t *counter, uint32_t value) {
  for (int i = 0; i < 100000; i++)
    if (*counter >= value) return 1;
  return 0;
}

int main(void) {
  uint64_t t0 = timer_now();
  uint64_t t1 = timer_now();
  CHECK(t1 > t0);

  t0 = timer_now();
  timer_delay(1000);
  CHECK(timer_now() - t0 >= 1000);

  trap_set_handler(irq_handler);
  uint64_t armed = timer_now();
  timer_irq_in(3000);
  irq_global_enable();
  CHECK(timer_irqs == 0); /* not yet: 3000 cycles away */
  CHECK(wait_for(&timer_irqs, 1));
  CHECK(fired_at >= armed + 3000);

  /* Masked by mie.MTIE: pending but not taken. */
  timer_irq_off();
  timer_set_compare(0);
  timer_delay(100);
  CHECK((csr_read(mip) & MIP_MTIP) != 0);
  CHECK(timer_irqs == 1);
  timer_disarm();

  /* timer_sleep uses wfi with interrupts masked, so no handler runs. */
  t0 = timer_now();
  timer_sleep(5000);
  CHECK(timer_now() - t0 >= 5000);
  CHECK(timer_irqs == 1);

  csr_set(mie, MIE_MEIE);
  sim_set_ext_irq(1);
  CHECK(wait_for(&ext_irqs, 1));
  csr_clear(mie, MIE_MEIE);

  irq_global_disable();
  CHECK(other_traps == 0);
  trap_set_handler(NULL);
  return check_done("fw_timer");
}
