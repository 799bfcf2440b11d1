/* mmio.h: device register addresses of the SoC and volatile 32-bit access to
 * them. The addresses come from the generated tessel_memmap.h (targets/
 * memmap.def, docs/memory-map.md); the names here are the firmware's. */
#ifndef TESSEL_FW_MMIO_H
#define TESSEL_FW_MMIO_H

#include <stdint.h>

#include "tessel_memmap.h"

#define UART_TXDATA     TSL_UART_TXDATA     /* W: send low byte (stalls while full) */
#define UART_RXDATA     TSL_UART_RXDATA     /* R: bit 31 set = empty, else byte */
#define UART_STATUS     TSL_UART_STATUS     /* R: bit 0 tx ready, bit 1 rx waiting */

#define TIMER_MTIME     TSL_TIMER_MTIME
#define TIMER_MTIMEH    TSL_TIMER_MTIMEH
#define TIMER_MTIMECMP  TSL_TIMER_MTIMECMP
#define TIMER_MTIMECMPH TSL_TIMER_MTIMECMPH

#define SIMCTL_EXIT     TSL_SIMCTL_EXIT     /* W: end simulation with status 0..119 */
#define SIMCTL_EXT_IRQ  TSL_SIMCTL_EXT_IRQ  /* RW: bit 0 drives mip.MEIP */

static inline void mmio_write32(uint32_t addr, uint32_t value) {
  *(volatile uint32_t *)(uintptr_t)addr = value;
}

static inline uint32_t mmio_read32(uint32_t addr) {
  return *(volatile uint32_t *)(uintptr_t)addr;
}

#endif
