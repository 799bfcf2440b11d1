/* elf_fuzz.c: libFuzzer target for the ISS's untrusted input: the ELF
 * loader, and, when a file loads, a few thousand steps of whatever it
 * contains (decoder, traps, devices). Must never crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bus.h"
#include "elf.h"
#include "hart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bus_t bus;
  static int ready;
  static FILE *sink;
  if (!ready) {
    sink = fopen("/dev/null", "w");
    if (!sink || bus_init(&bus, sink) != 0) return 0;
    ready = 1;
  }
  /* Reset the small memories and devices; DRAM keeps old bytes (clearing
   * 64 MiB per input would make fuzzing crawl; loaded segments overwrite). */
  memset(bus.imem, 0, TSL_MEM_IMEM_SIZE);
  memset(bus.dmem, 0, TSL_MEM_DMEM_SIZE);
  bus.mtime = 0;
  bus.mtimecmp = UINT64_MAX;
  bus.ext_irq = 0;
  bus.halt = BUS_RUN;

  elf_info info;
  char err[256];
  if (iss_load_elf(data, size, &bus, &info, err, sizeof err) != 0) return 0;
  bus.has_tohost = info.has_tohost;
  bus.tohost_addr = info.tohost_addr;
  hart_t hart;
  hart_reset(&hart, &bus, info.entry);
  for (int i = 0; i < 5000 && bus.halt == BUS_RUN; i++) hart_step(&hart);
  return 0;
}
