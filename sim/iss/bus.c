/* bus.c: memory map and devices for the ISS. See bus.h. */
#include "bus.h"

#include <stdlib.h>
#include <string.h>

int bus_init(bus_t *bus, FILE *uart_out) {
  memset(bus, 0, sizeof *bus);
  bus->imem = calloc(1, TSL_MEM_IMEM_SIZE);
  bus->dmem = calloc(1, TSL_MEM_DMEM_SIZE);
  bus->dram = calloc(1, TSL_MEM_DRAM_SIZE);
  bus->mtimecmp = UINT64_MAX;
  bus->uart_out = uart_out;
  if (!bus->imem || !bus->dmem || !bus->dram) {
    bus_free(bus);
    return -1;
  }
  return 0;
}

void bus_free(bus_t *bus) {
  free(bus->imem);
  free(bus->dmem);
  free(bus->dram);
  bus->imem = bus->dmem = bus->dram = NULL;
}

/* Offset-in-window test written to avoid overflow of addr + len. */
static int in_window(uint32_t addr, uint32_t len, uint32_t base, uint32_t bytes) {
  return addr >= base && len <= bytes && addr - base <= bytes - len;
}

uint8_t *bus_ram_ptr(bus_t *bus, uint32_t addr, uint32_t len) {
  if (in_window(addr, len, TSL_MEM_IMEM_BASE, TSL_MEM_IMEM_SIZE))
    return bus->imem + (addr - TSL_MEM_IMEM_BASE);
  if (in_window(addr, len, TSL_MEM_DMEM_BASE, TSL_MEM_DMEM_SIZE))
    return bus->dmem + (addr - TSL_MEM_DMEM_BASE);
  if (in_window(addr, len, TSL_MEM_DRAM_BASE, TSL_MEM_DRAM_SIZE))
    return bus->dram + (addr - TSL_MEM_DRAM_BASE);
  return NULL;
}

uint32_t bus_pending_irqs(const bus_t *bus) {
  uint32_t mip = 0;
  if (bus->mtime >= bus->mtimecmp) mip |= TSL_MIP_MTIP;
  if (bus->ext_irq & TSL_SIMCTL_EXT_IRQ_LEVEL) mip |= TSL_MIP_MEIP;
  return mip;
}

/* Device registers are 32-bit; a narrower access sees or writes the
 * addressed bytes of the register word. Offsets without a register read as
 * zero and ignore writes. */
static uint32_t dev_read_word(bus_t *bus, uint32_t word_addr) {
  switch (word_addr) {
  case TSL_UART_RXDATA: return TSL_UART_RXDATA_EMPTY; /* nothing received */
  case TSL_UART_STATUS: return TSL_UART_STATUS_TX_READY; /* can transmit */
  case TSL_TIMER_MTIME: return (uint32_t)bus->mtime;
  case TSL_TIMER_MTIMEH: return (uint32_t)(bus->mtime >> 32);
  case TSL_TIMER_MTIMECMP: return (uint32_t)bus->mtimecmp;
  case TSL_TIMER_MTIMECMPH: return (uint32_t)(bus->mtimecmp >> 32);
  case TSL_SIMCTL_EXT_IRQ: return bus->ext_irq & TSL_SIMCTL_EXT_IRQ_LEVEL;
  default: return 0;
  }
}

static void set_lo(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFF00000000ull) | v; }
static void set_hi(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFFull) | ((uint64_t)v << 32); }

static void dev_write_word(bus_t *bus, uint32_t word_addr, uint32_t v, uint32_t byte_mask) {
  /* Merge a narrow write into the register's current value. */
  uint32_t old = dev_read_word(bus, word_addr);
  uint32_t merged = (old & ~byte_mask) | (v & byte_mask);
  switch (word_addr) {
  case TSL_UART_TXDATA:
    if (byte_mask & 0xFFu) {
      fputc((int)(v & 0xFFu), bus->uart_out);
    }
    break;
  case TSL_TIMER_MTIME: set_lo(&bus->mtime, merged); break;
  case TSL_TIMER_MTIMEH: set_hi(&bus->mtime, merged); break;
  case TSL_TIMER_MTIMECMP: set_lo(&bus->mtimecmp, merged); break;
  case TSL_TIMER_MTIMECMPH: set_hi(&bus->mtimecmp, merged); break;
  case TSL_SIMCTL_EXIT:
    bus->halt = BUS_EXIT;
    bus->halt_value = merged;
    break;
  case TSL_SIMCTL_EXT_IRQ: bus->ext_irq = merged & TSL_SIMCTL_EXT_IRQ_LEVEL; break;
  default: break;
  }
}

static int is_device(uint32_t addr) {
  return in_window(addr, 1, TSL_MEM_UART_BASE, TSL_MEM_UART_SIZE) ||
         in_window(addr, 1, TSL_MEM_TIMER_BASE, TSL_MEM_TIMER_SIZE) ||
         in_window(addr, 1, TSL_MEM_SIMCTL_BASE, TSL_MEM_SIMCTL_SIZE);
}

bus_status bus_load(bus_t *bus, uint32_t addr, unsigned size, uint32_t *value) {
  uint8_t *p = bus_ram_ptr(bus, addr, size);
  if (p) {
    uint32_t v = 0;
    for (unsigned i = 0; i < size; i++) v |= (uint32_t)p[i] << (8 * i);
    *value = v;
    return BUS_OK;
  }
  if (is_device(addr)) {
    uint32_t word = dev_read_word(bus, addr & ~3u);
    uint32_t shift = 8 * (addr & 3u);
    uint32_t mask = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
    *value = (word >> shift) & mask;
    return BUS_OK;
  }
  return BUS_FAULT;
}

bus_status bus_store(bus_t *bus, uint32_t addr, unsigned size, uint32_t value) {
  uint8_t *p = bus_ram_ptr(bus, addr, size);
  if (p) {
    for (unsigned i = 0; i < size; i++) p[i] = (uint8_t)(value >> (8 * i));
    /* riscv-tests convention: a non-zero word written to tohost ends the run. */
    if (bus->has_tohost && addr == bus->tohost_addr && size == 4 && value != 0 &&
        bus->halt == BUS_RUN) {
      bus->halt = BUS_TOHOST;
      bus->halt_value = value;
    }
    return BUS_OK;
  }
  if (is_device(addr)) {
    uint32_t shift = 8 * (addr & 3u);
    uint32_t mask = size == 4 ? 0xFFFFFFFFu : ((1u << (8 * size)) - 1) << shift;
    dev_write_word(bus, addr & ~3u, value << shift, mask);
    return BUS_OK;
  }
  return BUS_FAULT;
}
