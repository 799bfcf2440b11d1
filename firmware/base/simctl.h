/* simctl.h: the simulation-control block: ending the run with a status and
 * the external-interrupt test hook. picolibc's exit() ends in _exit(), which
 * is sim_exit(). On a board, EXIT halts the core and lights an LED. */
#ifndef TESSEL_FW_SIMCTL_H
#define TESSEL_FW_SIMCTL_H

#include <stdint.h>

/* Status codes the firmware base itself uses (0..119 pass through). */
#define FW_EXIT_UNEXPECTED_TRAP 113 /* default trap handler: a trap nobody expected */
#define FW_EXIT_BAD_STATUS      119 /* exit() got a status outside 0..119 */

/* Ends the simulation with status (0..119; others become FW_EXIT_BAD_STATUS). */
__attribute__((noreturn)) void sim_exit(int status);

/* Drives the external interrupt line (mip.MEIP) high or low. */
void sim_set_ext_irq(int level);

#endif
