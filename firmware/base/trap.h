/* trap.h: the trap path. crt0 points mtvec at trap_entry (trap_entry.S),
 * which saves every register into a trap_frame on the stack and calls
 * trap_dispatch(). If a handler is installed and returns 1, the frame is
 * restored (with the handler's changes, e.g. mepc) and mret resumes. Else
 * the default handler prints mcause, mepc and mtval on the UART and exits
 * with FW_EXIT_UNEXPECTED_TRAP. */
#ifndef TESSEL_FW_TRAP_H
#define TESSEL_FW_TRAP_H

#include <stdint.h>

typedef struct {
  uint32_t x[32];   /* x[0] unused; x[1] = ra, x[2] = sp at the trap ... */
  uint32_t mepc;    /* where mret resumes; handlers may change it */
  uint32_t mcause;  /* bit 31 set: interrupt */
  uint32_t mtval;   /* faulting address or instruction, else 0 */
  uint32_t pad;     /* keeps the frame a multiple of 16 bytes */
} trap_frame;

/* Returns 1 if it handled the trap, 0 to fall through to the default. */
typedef int (*trap_handler_fn)(trap_frame *frame);

/* Installs handler (NULL: none) and returns the previous one. */
trap_handler_fn trap_set_handler(trap_handler_fn handler);

/* Reads the 32-bit word at addr into *value with a load access fault
 * caught instead of fatal (a device that is not built answers a bus error).
 * Returns 0, or -1 (and *value = 0) if the load faulted. */
int trap_probe_read32(uint32_t addr, uint32_t *value);

/* Name of an mcause value ("illegal instruction", "machine timer" ...). */
const char *trap_cause_name(uint32_t mcause);

/* Called by trap_entry only. */
void trap_dispatch(trap_frame *frame);

#endif
