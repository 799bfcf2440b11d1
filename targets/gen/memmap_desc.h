/* memmap_desc.h: the in-memory form of targets/memmap.def (the SoC memory
 * map, device registers, CSRs and trap causes), as read by tsl-gen. Fixed-size
 * tables: an overflow is a parse error, never a crash. */
#ifndef MEMMAP_DESC_H
#define MEMMAP_DESC_H

#include <stdint.h>

enum { MM_NAME = 32, MM_DOC = 256, MM_ITEMS = 64, MM_BITS = 8 };

typedef struct {
  char name[MM_NAME];
  char doc[MM_DOC];
  int lsb, width;
} MmBits;

typedef struct {
  char name[MM_NAME];
  char doc[MM_DOC];
  uint32_t base;  /* byte address */
  uint32_t size;  /* default size in bytes, a power of two */
} MmRegion;

/* A device register (region >= 0) or a CSR (region = -1). */
typedef struct {
  char name[MM_NAME];
  char doc[MM_DOC];
  int region;        /* index into Memmap.regions; -1 for a CSR */
  uint32_t number;   /* register: byte offset in the region; CSR: its number */
  char access[4];    /* R, W or RW */
  int has_value;     /* CSR: always reads value */
  uint32_t value;
  int nbits;
  MmBits bits[MM_BITS];
} MmReg;

typedef struct {
  char name[MM_NAME];
  char doc[MM_DOC];
  uint32_t code;     /* mcause without the interrupt bit */
  int is_irq;        /* 1: interrupt (mcause bit 31 set, mip bit code) */
} MmCause;

typedef struct {
  int version;
  int nregions, nregs, ncsrs, ncauses;
  MmRegion regions[MM_ITEMS];
  MmReg regs[MM_ITEMS];
  MmReg csrs[MM_ITEMS];
  MmCause causes[MM_ITEMS];
} Memmap;

/* Parse PATH into *mm: regions aligned to their size and not overlapping,
 * registers word-aligned inside their region, names and numbers unique, bit
 * fields inside 32 bits and not overlapping. Returns 0, or -1 after writing
 * "PATH:LINE: what" into err (errlen bytes). */
int memmap_parse(const char *path, Memmap *mm, char *err, int errlen);

#endif
