/* mmio.h: device register addresses of the SoC (docs/memory-map.md, the
 * shared contract) and volatile 32-bit access to them. */
#ifndef TESSEL_FW_MMIO_H
#define TESSEL_FW_MMIO_H

#include <stdint.h>

#define UART_BASE      0x20000000u
#define UART_TXDATA    (UART_BASE + 0x0)  /* W: send low byte (stalls while full) */
#define UART_RXDATA    (UART_BASE + 0x4)  /* R: bit 31 set = empty, else byte */
#define UART_STATUS    (UART_BASE + 0x8)  /* R: bit 0 tx ready, bit 1 rx waiting */

#define TIMER_BASE     0x20001000u
#define TIMER_MTIME    (TIMER_BASE + 0x0)
#define TIMER_MTIMEH   (TIMER_BASE + 0x4)
#define TIMER_MTIMECMP (TIMER_BASE + 0x8)
#define TIMER_MTIMECMPH (TIMER_BASE + 0xC)

#define SIMCTL_BASE    0x20002000u
#define SIMCTL_EXIT    (SIMCTL_BASE + 0x0) /* W: end simulation with status 0..119 */
#define SIMCTL_EXT_IRQ (SIMCTL_BASE + 0x4) /* RW: bit 0 drives mip.MEIP */

static inline void mmio_write32(uint32_t addr, uint32_t value) {
  *(volatile uint32_t *)(uintptr_t)addr = value;
}

static inline uint32_t mmio_read32(uint32_t addr) {
  return *(volatile uint32_t *)(uintptr_t)addr;
}

#endif
