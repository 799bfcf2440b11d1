/* elf.c: places a parsed ELF in the ISS's memories. See elf.h. */
#include "elf.h"

#include <stdio.h>
#include <string.h>

#include "elf_load.h"

int iss_load_elf(const uint8_t *image, size_t size, bus_t *bus, elf_info *info, char *err,
                 size_t errlen) {
  memset(info, 0, sizeof *info);
  ElfImage img;
  if (elf_load(image, size, &img, err, errlen) != 0) return -1;
  for (int i = 0; i < img.nsegs; i++) {
    const ElfSegment *sg = &img.segs[i];
    /* Load at the physical address: that is where a ROM image would put it. */
    uint8_t *dst = bus_ram_ptr(bus, sg->addr, sg->memsz);
    if (!dst) {
      snprintf(err, errlen, "segment at 0x%08x..0x%08x is not inside one memory (IMEM, DMEM or DRAM)",
               sg->addr, sg->addr + sg->memsz - 1);
      return -1;
    }
    memcpy(dst, sg->data, sg->filesz);
    memset(dst + sg->filesz, 0, sg->memsz - sg->filesz);
  }
  if (!bus_ram_ptr(bus, img.entry, 4)) {
    snprintf(err, errlen, "entry point 0x%08x is not in memory", img.entry);
    return -1;
  }
  info->entry = img.entry;
  info->has_tohost = img.has_tohost;
  info->tohost_addr = img.tohost;
  return 0;
}
