/* elf_load.c: ELF32 parsing with every field checked (see elf_load.h).
 * Field offsets are from the System V gABI; EM_RISCV is 243. */
#include "elf_load.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
  EHDR_SIZE = 52, PHDR_SIZE = 32, SHDR_SIZE = 40, SYM_SIZE = 16,
  PT_LOAD = 1, SHT_SYMTAB = 2, ET_EXEC = 2, EM_RISCV = 243,
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

/* True when [off, off+size) lies inside a buffer of len bytes. */
static int in_file(uint64_t off, uint64_t size, size_t len) {
  return off <= len && size <= len - off;
}

/* Looks for `tohost` in the first symbol table. A file without sections
 * (stripped) simply has no tohost; a malformed table is an error. */
static int find_tohost(const uint8_t *buf, size_t len, ElfImage *img, char *err, size_t errlen) {
  uint32_t shoff = rd32(buf + 32);
  uint16_t shentsize = rd16(buf + 46), shnum = rd16(buf + 48);
  if (shoff == 0 || shnum == 0) return 0;
  if (shentsize != SHDR_SIZE)
    return fail(err, errlen, "section header size %u (expected %u)", shentsize, SHDR_SIZE);
  if (!in_file(shoff, (uint64_t)shnum * SHDR_SIZE, len))
    return fail(err, errlen, "section headers (%u at offset 0x%x) run past the end of the file",
                shnum, shoff);
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *sh = buf + shoff + (size_t)i * SHDR_SIZE;
    if (rd32(sh + 4) != SHT_SYMTAB) continue;
    uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24);
    uint32_t entsize = rd32(sh + 36);
    if (entsize != SYM_SIZE)
      return fail(err, errlen, "symbol table entry size %u (expected %u)", entsize, SYM_SIZE);
    if (!in_file(off, size, len))
      return fail(err, errlen, "symbol table runs past the end of the file");
    if (link >= shnum)
      return fail(err, errlen, "symbol table names string section %u of %u", link, shnum);
    const uint8_t *strsh = buf + shoff + (size_t)link * SHDR_SIZE;
    uint32_t stroff = rd32(strsh + 16), strsize = rd32(strsh + 20);
    if (!in_file(stroff, strsize, len))
      return fail(err, errlen, "string table runs past the end of the file");
    const char *str = (const char *)buf + stroff;
    for (uint32_t s = 0; s + SYM_SIZE <= size; s += SYM_SIZE) {
      const uint8_t *sym = buf + off + s;
      uint32_t name = rd32(sym);
      if (name >= strsize) continue;
      /* Compare without reading past the string table. */
      if (strsize - name >= 7 && memcmp(str + name, "tohost", 7) == 0) {
        img->has_tohost = 1;
        img->tohost = rd32(sym + 4);
        return 0;
      }
    }
    return 0;
  }
  return 0;
}

int elf_load(const uint8_t *buf, size_t len, ElfImage *img, char *err, size_t errlen) {
  memset(img, 0, sizeof *img);
  if (len < 4 || memcmp(buf, "\177ELF", 4) != 0)
    return fail(err, errlen, "not an ELF file (bad magic)");
  if (len < EHDR_SIZE)
    return fail(err, errlen, "truncated ELF header (%zu bytes, need %d)", len, EHDR_SIZE);
  if (buf[4] != 1) return fail(err, errlen, "ELF class %u is not ELF32 (RV32 needs ELF32)", buf[4]);
  if (buf[5] != 1) return fail(err, errlen, "ELF data encoding %u is not little-endian", buf[5]);
  if (buf[6] != 1) return fail(err, errlen, "ELF version %u (expected 1)", buf[6]);
  uint16_t type = rd16(buf + 16), machine = rd16(buf + 18);
  if (type != ET_EXEC) return fail(err, errlen, "ELF type %u is not an executable (ET_EXEC)", type);
  if (machine != EM_RISCV)
    return fail(err, errlen, "ELF machine %u is not RISC-V (%d)", machine, EM_RISCV);
  img->entry = rd32(buf + 24);
  uint32_t phoff = rd32(buf + 28);
  uint16_t phentsize = rd16(buf + 42), phnum = rd16(buf + 44);
  if (phnum == 0) return fail(err, errlen, "no program headers: nothing to load");
  if (phentsize != PHDR_SIZE)
    return fail(err, errlen, "program header size %u (expected %u)", phentsize, PHDR_SIZE);
  if (!in_file(phoff, (uint64_t)phnum * PHDR_SIZE, len))
    return fail(err, errlen, "program headers (%u at offset 0x%x) run past the end of the file",
                phnum, phoff);
  for (unsigned i = 0; i < phnum; i++) {
    const uint8_t *ph = buf + phoff + (size_t)i * PHDR_SIZE;
    if (rd32(ph) != PT_LOAD) continue;
    uint32_t off = rd32(ph + 4), paddr = rd32(ph + 12);
    uint32_t filesz = rd32(ph + 16), memsz = rd32(ph + 20);
    if (filesz > memsz)
      return fail(err, errlen, "segment %u: file size 0x%x exceeds memory size 0x%x", i, filesz,
                  memsz);
    if (memsz == 0) continue;
    if (!in_file(off, filesz, len))
      return fail(err, errlen, "segment %u: bytes 0x%x+0x%x run past the end of the file", i, off,
                  filesz);
    if ((uint64_t)paddr + memsz > 0x100000000ull)
      return fail(err, errlen, "segment %u: 0x%08x+0x%x wraps past the 32-bit address space", i,
                  paddr, memsz);
    if (img->nsegs == ELF_MAX_SEGMENTS)
      return fail(err, errlen, "more than %d loadable segments", ELF_MAX_SEGMENTS);
    /* Overlapping segments would leave the memory to whichever the loader
     * placed last (and a later one's zero fill could erase code): the gABI
     * forbids them, so they mean a broken or hand-edited file. */
    for (int j = 0; j < img->nsegs; j++) {
      const ElfSegment *o = &img->segs[j];
      if ((uint64_t)paddr < (uint64_t)o->addr + o->memsz && (uint64_t)o->addr < (uint64_t)paddr + memsz)
        return fail(err, errlen, "segment %u (0x%08x+0x%x) overlaps an earlier one (0x%08x+0x%x)", i,
                    paddr, memsz, o->addr, o->memsz);
    }
    ElfSegment *sg = &img->segs[img->nsegs++];
    sg->addr = paddr;
    sg->data = buf + off;
    sg->filesz = filesz;
    sg->memsz = memsz;
  }
  if (img->nsegs == 0) return fail(err, errlen, "no loadable segments");
  if (img->entry & 3) return fail(err, errlen, "entry point 0x%08x is not 4-byte aligned", img->entry);
  return find_tohost(buf, len, img, err, errlen);
}
