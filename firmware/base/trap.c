/* trap.c: trap dispatch and the default report. See trap.h. */
#include "trap.h"

#include "simctl.h"
#include "uart.h"

static trap_handler_fn installed_handler;

trap_handler_fn trap_set_handler(trap_handler_fn handler) {
  trap_handler_fn old = installed_handler;
  installed_handler = handler;
  return old;
}

const char *trap_cause_name(uint32_t mcause) {
  switch (mcause) {
  case 0: return "instruction address misaligned";
  case 1: return "instruction access fault";
  case 2: return "illegal instruction";
  case 3: return "breakpoint";
  case 4: return "load address misaligned";
  case 5: return "load access fault";
  case 6: return "store address misaligned";
  case 7: return "store access fault";
  case 11: return "environment call from M-mode";
  case 0x80000007u: return "machine timer interrupt";
  case 0x8000000Bu: return "machine external interrupt";
  default: return "unknown cause";
  }
}

void trap_dispatch(trap_frame *frame) {
  if (installed_handler && installed_handler(frame)) return;
  /* Raw UART output, not printf: the trap may have hit inside stdio. */
  uart_puts("\n*** unexpected trap: ");
  uart_puts(trap_cause_name(frame->mcause));
  uart_puts("\n    mcause ");
  uart_put_hex32(frame->mcause);
  uart_puts("  mepc ");
  uart_put_hex32(frame->mepc);
  uart_puts("  mtval ");
  uart_put_hex32(frame->mtval);
  uart_puts("  ra ");
  uart_put_hex32(frame->x[1]);
  uart_puts("  sp ");
  uart_put_hex32(frame->x[2]);
  uart_puts("\n");
  sim_exit(FW_EXIT_UNEXPECTED_TRAP);
}
