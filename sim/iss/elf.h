/* elf.h: loads a firmware ELF into the ISS's memories.
 *
 * Parsing and checking the file is sim/elf_load.c's job (the one ELF parser,
 * shared with tessel-sim); this module only places the loadable segments in
 * bus RAM and checks that every segment and the entry point land inside one
 * memory. On any problem it returns -1 with a message naming what is wrong. */
#ifndef TESSEL_ISS_ELF_H
#define TESSEL_ISS_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "bus.h"

typedef struct {
  uint32_t entry;       /* e_entry */
  int has_tohost;       /* the symbol table defines `tohost` */
  uint32_t tohost_addr; /* its value */
} elf_info;

/* Loads image (size bytes) into bus RAM. On error returns -1 and writes a
 * message into err (errlen bytes). */
int iss_load_elf(const uint8_t *image, size_t size, bus_t *bus, elf_info *info, char *err,
                 size_t errlen);

#endif
