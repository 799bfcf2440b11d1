/* fw_traps.c: the trap hook: an installed handler sees mcause, mepc and
 * mtval for ecall, ebreak, illegal instructions and access faults, can
 * resume after the faulting instruction, and the interrupted code's
 * registers survive the trap. */
#include <stdint.h>

#include "check.h"
#include "tessel_fw.h"

static volatile uint32_t seen_cause, seen_epc, seen_tval, seen_count;

static int record_and_skip(trap_frame *f) {
  seen_cause = f->mcause;
  seen_epc = f->mepc;
  seen_tval = f->mtval;
  seen_count++;
  f->mepc += 4; /* resume after the faulting instruction */
  return 1;
}

int main(void) {
  CHECK(trap_set_handler(record_and_skip) == NULL);

  __asm__ volatile("ecall");
  CHECK(seen_count == 1 && seen_cause == 11);

  __asm__ volatile("ebreak");
  CHECK(seen_count == 2 && seen_cause == 3);

  uint32_t where;
  __asm__ volatile("la %0, 1f\n1: .word 0xffffffff" : "=r"(where));
  CHECK(seen_count == 3 && seen_cause == 2 && seen_epc == where && seen_tval == 0xffffffffu);

  volatile uint32_t *bad = (volatile uint32_t *)0x50000000u;
  uint32_t v = *bad;
  (void)v;
  CHECK(seen_count == 4 && seen_cause == 5 && seen_tval == 0x50000000u);
  *bad = 1;
  CHECK(seen_count == 5 && seen_cause == 7 && seen_tval == 0x50000000u);

  /* Registers live across the trap keep their values (all are saved). */
  register uint32_t s2 __asm__("s2") = 0x5a5a5a5a;
  register uint32_t t3 __asm__("t3") = 0xa5a5a5a5;
  register uint32_t a5 __asm__("a5") = 12345;
  __asm__ volatile("ecall" : "+r"(s2), "+r"(t3), "+r"(a5));
  CHECK(s2 == 0x5a5a5a5a && t3 == 0xa5a5a5a5 && a5 == 12345);

  CHECK(trap_set_handler(NULL) == record_and_skip);
  return check_done("fw_traps");
}
