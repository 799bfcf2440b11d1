/* elf.h: strict loader for the firmware ELF files the ISS runs.
 *
 * Accepts only little-endian ELF32 RISC-V executables whose loadable
 * segments and entry point fall inside RAM. Every offset and size read from
 * the file is checked against the file before use; on any problem the
 * loader returns -1 with a message naming what is wrong. */
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
int elf_load(const uint8_t *image, size_t size, bus_t *bus, elf_info *info, char *err,
             size_t errlen);

#endif
