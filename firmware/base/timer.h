/* timer.h: the machine timer (MTIME counts every clock; the interrupt is
 * pending while MTIME >= MTIMECMP). Times are in clock cycles. */
#ifndef TESSEL_FW_TIMER_H
#define TESSEL_FW_TIMER_H

#include <stdint.h>

uint64_t timer_now(void);
/* Sets MTIMECMP without a spurious interrupt between the two half writes. */
void timer_set_compare(uint64_t when);
/* Never fire (MTIMECMP = all ones, its reset value); clears mip.MTIP. */
void timer_disarm(void);
/* Busy-waits at least cycles. */
void timer_delay(uint64_t cycles);
/* Arms the interrupt cycles from now and enables mie.MTIE. The caller
 * installs a trap handler (trap.h) and sets mstatus.MIE. */
void timer_irq_in(uint64_t cycles);
/* Disables mie.MTIE and disarms. */
void timer_irq_off(void);
/* Sleeps in wfi until MTIME >= now + cycles (works with mstatus.MIE = 0:
 * wfi wakes on an enabled pending interrupt without taking it). */
void timer_sleep(uint64_t cycles);

#endif
