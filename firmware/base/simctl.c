/* simctl.c: simulation control and picolibc's _exit. See simctl.h. */
#include "simctl.h"

#include "mmio.h"

void sim_exit(int status) {
  if (status < 0 || status > 119) status = FW_EXIT_BAD_STATUS;
  mmio_write32(SIMCTL_EXIT, (uint32_t)status);
  /* The simulator stops at the write; a board halts the core. Either way,
   * never return. */
  for (;;) __asm__ volatile("wfi");
}

void sim_set_ext_irq(int level) { mmio_write32(SIMCTL_EXT_IRQ, level ? 1u : 0u); }

/* picolibc: exit() runs atexit handlers and destructors, then calls this. */
__attribute__((noreturn)) void _exit(int status) { sim_exit(status); }
