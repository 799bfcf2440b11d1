/* fw_unexpected_trap.c: with no handler installed, an ebreak is reported
 * on the UART (cause, mepc, mtval) and the run ends with status 113
 * (FW_EXIT_UNEXPECTED_TRAP). */
#include <stdio.h>

int main(void) {
  puts("about to ebreak");
  __asm__ volatile("ebreak");
  puts("not reached");
  return 0;
}
