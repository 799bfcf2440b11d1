/* bus.h: the ISS's view of the Tessel memory map (docs/memory-map.md).
 *
 * Owns the RAMs (IMEM, DMEM, DRAM) and models the devices the firmware sees:
 * UART TX, the machine timer, and simulation control (EXIT, EXT_IRQ). It also
 * watches the riscv-tests `tohost` word. Unmapped or reserved addresses answer
 * BUS_FAULT, which the hart turns into an access-fault trap. */
#ifndef TESSEL_ISS_BUS_H
#define TESSEL_ISS_BUS_H

#include <stdint.h>
#include <stdio.h>

/* The map's addresses and default sizes are the generated TSL_MEM_* of
 * tessel_memmap.h (targets/memmap.def); the ISS models the sim board, whose
 * sizes are those defaults (DRAM: the simulator's default 64 MiB). */
#include "tessel_memmap.h"

typedef enum {
  BUS_OK,    /* access done */
  BUS_FAULT, /* nothing answers at this address: access fault */
} bus_status;

typedef enum {
  BUS_RUN,        /* keep running */
  BUS_EXIT,       /* firmware wrote simulation-control EXIT */
  BUS_TOHOST,     /* firmware wrote a non-zero value to tohost */
} bus_halt;

typedef struct {
  uint8_t *imem;          /* TSL_MEM_IMEM_SIZE */
  uint8_t *dmem;          /* TSL_MEM_DMEM_SIZE */
  uint8_t *dram;          /* TSL_MEM_DRAM_SIZE, zero-filled lazily by the OS */
  uint64_t mtime;         /* machine timer counter */
  uint64_t mtimecmp;      /* machine timer compare (reset: all ones) */
  uint32_t ext_irq;       /* EXT_IRQ register, bit 0 drives mip.MEIP */
  uint32_t tohost_addr;   /* address of the tohost symbol, if has_tohost */
  int has_tohost;         /* the ELF defines tohost */
  bus_halt halt;          /* set by a store that ends the run */
  uint32_t halt_value;    /* EXIT value or tohost value */
  FILE *uart_out;         /* where UART TX bytes go */
} bus_t;

/* Allocates the RAMs and resets devices. Returns 0, or -1 if out of memory. */
int bus_init(bus_t *bus, FILE *uart_out);
void bus_free(bus_t *bus);

/* Host pointer to len bytes of RAM at addr, or NULL if [addr, addr+len) is
 * not entirely inside one RAM. Used by the ELF loader and instruction fetch. */
uint8_t *bus_ram_ptr(bus_t *bus, uint32_t addr, uint32_t len);

/* Data accesses of size 1, 2 or 4 bytes at a naturally aligned addr (the
 * hart checks alignment first). Loads return the raw zero-extended value. */
bus_status bus_load(bus_t *bus, uint32_t addr, unsigned size, uint32_t *value);
bus_status bus_store(bus_t *bus, uint32_t addr, unsigned size, uint32_t value);

/* mip bits driven by devices: MTIP (bit 7) and MEIP (bit 11). */
uint32_t bus_pending_irqs(const bus_t *bus);

#endif
