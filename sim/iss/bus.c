/* bus.c: memory map and devices for the ISS. See bus.h. */
#include "bus.h"

#include <stdlib.h>
#include <string.h>

#define MIP_MTIP (1u << 7)
#define MIP_MEIP (1u << 11)

int bus_init(bus_t *bus, FILE *uart_out) {
  memset(bus, 0, sizeof *bus);
  bus->imem = calloc(1, BUS_IMEM_BYTES);
  bus->dmem = calloc(1, BUS_DMEM_BYTES);
  bus->dram = calloc(1, BUS_DRAM_BYTES);
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
  if (in_window(addr, len, BUS_IMEM_BASE, BUS_IMEM_BYTES))
    return bus->imem + (addr - BUS_IMEM_BASE);
  if (in_window(addr, len, BUS_DMEM_BASE, BUS_DMEM_BYTES))
    return bus->dmem + (addr - BUS_DMEM_BASE);
  if (in_window(addr, len, BUS_DRAM_BASE, BUS_DRAM_BYTES))
    return bus->dram + (addr - BUS_DRAM_BASE);
  return NULL;
}

uint32_t bus_pending_irqs(const bus_t *bus) {
  uint32_t mip = 0;
  if (bus->mtime >= bus->mtimecmp) mip |= MIP_MTIP;
  if (bus->ext_irq & 1u) mip |= MIP_MEIP;
  return mip;
}

/* Device registers are 32-bit; a narrower access sees or writes the
 * addressed bytes of the register word. Offsets without a register read as
 * zero and ignore writes. */
static uint32_t dev_read_word(bus_t *bus, uint32_t word_addr) {
  switch (word_addr) {
  case BUS_UART_BASE + 0x4: return 0x80000000u; /* RXDATA: nothing received */
  case BUS_UART_BASE + 0x8: return 1u;          /* STATUS: can transmit */
  case BUS_TIMER_BASE + 0x0: return (uint32_t)bus->mtime;
  case BUS_TIMER_BASE + 0x4: return (uint32_t)(bus->mtime >> 32);
  case BUS_TIMER_BASE + 0x8: return (uint32_t)bus->mtimecmp;
  case BUS_TIMER_BASE + 0xC: return (uint32_t)(bus->mtimecmp >> 32);
  case BUS_SIMCTL_BASE + 0x4: return bus->ext_irq & 1u;
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
  case BUS_UART_BASE + 0x0:
    if (byte_mask & 0xFFu) {
      fputc((int)(v & 0xFFu), bus->uart_out);
    }
    break;
  case BUS_TIMER_BASE + 0x0: set_lo(&bus->mtime, merged); break;
  case BUS_TIMER_BASE + 0x4: set_hi(&bus->mtime, merged); break;
  case BUS_TIMER_BASE + 0x8: set_lo(&bus->mtimecmp, merged); break;
  case BUS_TIMER_BASE + 0xC: set_hi(&bus->mtimecmp, merged); break;
  case BUS_SIMCTL_BASE + 0x0:
    bus->halt = BUS_EXIT;
    bus->halt_value = merged;
    break;
  case BUS_SIMCTL_BASE + 0x4: bus->ext_irq = merged & 1u; break;
  default: break;
  }
}

static int is_device(uint32_t addr) {
  return addr >= BUS_UART_BASE && addr - BUS_UART_BASE < 3 * BUS_DEV_BYTES;
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
