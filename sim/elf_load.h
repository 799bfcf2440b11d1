/* elf_load: validates an ELF32 little-endian RISC-V executable held in memory
 * and lists its loadable segments, its entry point and its `tohost` symbol.
 * Every offset and size is checked against the buffer; nothing is trusted.
 * Where segments may go is the caller's business (sim_memory_fits). */
#ifndef TESSEL_SIM_ELF_LOAD_H
#define TESSEL_SIM_ELF_LOAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ELF_MAX_SEGMENTS 64

typedef struct {
  uint32_t addr;        /* physical (load) address */
  const uint8_t *data;  /* filesz bytes inside the caller's buffer */
  uint32_t filesz;      /* bytes taken from the file */
  uint32_t memsz;       /* bytes occupied in memory; the rest is zero */
} ElfSegment;

typedef struct {
  uint32_t entry;                      /* e_entry */
  int nsegs;                           /* PT_LOAD segments with memsz > 0 */
  ElfSegment segs[ELF_MAX_SEGMENTS];
  int has_tohost;                      /* the symbol `tohost` exists */
  uint32_t tohost;                     /* its address */
} ElfImage;

/* Parses buf[0..len). Returns 0 and fills *img (whose segments point into
 * buf, so buf must outlive it), or -1 with a plain-language reason in err. */
int elf_load(const uint8_t *buf, size_t len, ElfImage *img, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
