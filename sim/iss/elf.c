/* elf.c: ELF32 loader. See elf.h. */
#include "elf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
  EHDR_SIZE = 52, PHDR_SIZE = 32, SHDR_SIZE = 40, SYM_SIZE = 16,
  ET_EXEC = 2, EM_RISCV = 243, PT_LOAD = 1, SHT_SYMTAB = 2,
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Whether [off, off+len) lies inside a file of size bytes. */
static int in_file(size_t size, uint64_t off, uint64_t len) {
  return off <= size && len <= size - off;
}

/* Finds `tohost` in the first SHT_SYMTAB, if the file has section headers.
 * Malformed section tables are errors: a broken file is not run. */
static int find_tohost(const uint8_t *im, size_t size, elf_info *info, char *err, size_t errlen) {
  uint32_t shoff = rd32(im + 32);
  uint16_t shentsize = rd16(im + 46), shnum = rd16(im + 48);
  if (shoff == 0 || shnum == 0) return 0;
  if (shentsize != SHDR_SIZE)
    return fail(err, errlen, "section header size %u, expected %u", shentsize, SHDR_SIZE);
  if (!in_file(size, shoff, (uint64_t)shnum * SHDR_SIZE))
    return fail(err, errlen, "section headers (offset %u, %u entries) run past the end of the file",
                shoff, shnum);
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *sh = im + shoff + i * SHDR_SIZE;
    if (rd32(sh + 4) != SHT_SYMTAB) continue;
    uint32_t off = rd32(sh + 16), sz = rd32(sh + 20), link = rd32(sh + 24);
    if (!in_file(size, off, sz))
      return fail(err, errlen, "symbol table (section %u) runs past the end of the file", i);
    if (link >= shnum) return fail(err, errlen, "symbol table links to missing section %u", link);
    const uint8_t *strh = im + shoff + link * SHDR_SIZE;
    uint32_t stroff = rd32(strh + 16), strsz = rd32(strh + 20);
    if (!in_file(size, stroff, strsz))
      return fail(err, errlen, "string table (section %u) runs past the end of the file", link);
    for (uint32_t s = 0; s + SYM_SIZE <= sz; s += SYM_SIZE) {
      const uint8_t *sym = im + off + s;
      uint32_t name = rd32(sym);
      if (name >= strsz) return fail(err, errlen, "symbol %u has a name outside the string table", s / SYM_SIZE);
      const char *nm = (const char *)im + stroff + name;
      size_t maxlen = strsz - name;
      if (memchr(nm, 0, maxlen) == NULL)
        return fail(err, errlen, "symbol %u has an unterminated name", s / SYM_SIZE);
      if (strcmp(nm, "tohost") == 0) {
        info->has_tohost = 1;
        info->tohost_addr = rd32(sym + 4);
      }
    }
    break;
  }
  return 0;
}

int elf_load(const uint8_t *im, size_t size, bus_t *bus, elf_info *info, char *err, size_t errlen) {
  memset(info, 0, sizeof *info);
  if (size < EHDR_SIZE) return fail(err, errlen, "file too short for an ELF header (%zu bytes)", size);
  if (memcmp(im, "\x7f" "ELF", 4) != 0) return fail(err, errlen, "not an ELF file (bad magic)");
  if (im[4] != 1) return fail(err, errlen, "not a 32-bit ELF (class %u)", im[4]);
  if (im[5] != 1) return fail(err, errlen, "not a little-endian ELF (data %u)", im[5]);
  if (im[6] != 1) return fail(err, errlen, "unknown ELF version %u", im[6]);
  if (rd16(im + 16) != ET_EXEC) return fail(err, errlen, "not an executable (e_type %u)", rd16(im + 16));
  if (rd16(im + 18) != EM_RISCV)
    return fail(err, errlen, "not a RISC-V ELF (e_machine %u)", rd16(im + 18));
  uint32_t phoff = rd32(im + 28);
  uint16_t phentsize = rd16(im + 42), phnum = rd16(im + 44);
  if (phnum == 0) return fail(err, errlen, "no program headers");
  if (phentsize != PHDR_SIZE)
    return fail(err, errlen, "program header size %u, expected %u", phentsize, PHDR_SIZE);
  if (!in_file(size, phoff, (uint64_t)phnum * PHDR_SIZE))
    return fail(err, errlen, "program headers (offset %u, %u entries) run past the end of the file",
                phoff, phnum);

  int loaded = 0;
  for (unsigned i = 0; i < phnum; i++) {
    const uint8_t *ph = im + phoff + i * PHDR_SIZE;
    if (rd32(ph) != PT_LOAD) continue;
    uint32_t off = rd32(ph + 4), paddr = rd32(ph + 12), filesz = rd32(ph + 16),
             memsz = rd32(ph + 20);
    if (memsz == 0) continue;
    if (filesz > memsz)
      return fail(err, errlen, "segment %u: file size 0x%x exceeds memory size 0x%x", i, filesz, memsz);
    if (!in_file(size, off, filesz))
      return fail(err, errlen, "segment %u: bytes 0x%x+0x%x run past the end of the file", i, off, filesz);
    /* Load at the physical address: that is where a ROM image would put it. */
    uint8_t *dst = bus_ram_ptr(bus, paddr, memsz);
    if (!dst)
      return fail(err, errlen, "segment %u: 0x%08x..0x%08x is not inside one memory (IMEM, DMEM or DRAM)",
                  i, paddr, paddr + memsz - 1);
    memcpy(dst, im + off, filesz);
    memset(dst + filesz, 0, memsz - filesz);
    loaded++;
  }
  if (!loaded) return fail(err, errlen, "no loadable segments");
  info->entry = rd32(im + 24);
  if (info->entry & 3) return fail(err, errlen, "entry point 0x%08x is not 4-byte aligned", info->entry);
  if (!bus_ram_ptr(bus, info->entry, 4))
    return fail(err, errlen, "entry point 0x%08x is not in memory", info->entry);
  return find_tohost(im, size, info, err, errlen);
}
