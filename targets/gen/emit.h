/* emit.h: the generator's writers. Each writes one generated file from the
 * parsed ISA (and targets) to an open stream. */
#ifndef EMIT_H
#define EMIT_H

#include <stdio.h>

#include "isa_desc.h"
#include "memmap_desc.h"

/* C: build/gen/tessel_isa.h (constants, field layout, encoders/decoders). */
void emit_isa_h(FILE *o, const Isa *isa);
/* C: build/gen/tessel_isa_tables.c (descriptors, names, disassembler). */
void emit_isa_tables_c(FILE *o, const Isa *isa);
/* C: build/gen/<target>/tessel_target.h (one target's parameters as macros). */
void emit_target_h(FILE *o, const Isa *isa, const Target *t);
/* C: build/gen/tessel_targets.h and .c (every target, as a run-time table). */
void emit_targets_h(FILE *o, const Isa *isa);
void emit_targets_c(FILE *o, const Isa *isa, const Target *ts, int n);
/* SV: build/gen/tessel_isa_pkg.sv and build/gen/<target>/tessel_target_pkg.sv. */
void emit_isa_pkg(FILE *o, const Isa *isa);
void emit_target_pkg(FILE *o, const Isa *isa, const Target *t);

/* Markdown: writes the generated block NAME (see emit_md.c for the names).
 * Returns 0, or -1 if NAME is unknown. */
int emit_md_block(FILE *o, const char *name, const Isa *isa, const Target *ts, int n);

/* The memory map (targets/memmap.def): build/gen/tessel_memmap.h,
 * tessel_memmap_pkg.sv, tessel_memmap.ld, and the doc block NAME
 * ("memmap-regions", "memmap-regs-<region>", "memmap-csrs", "memmap-causes";
 * returns 0, or -1 if NAME is unknown). */
void emit_memmap_h(FILE *o, const Memmap *mm);
void emit_memmap_pkg(FILE *o, const Memmap *mm);
void emit_memmap_ld(FILE *o, const Memmap *mm);
int emit_memmap_md_block(FILE *o, const char *name, const Memmap *mm);

/* Helpers shared by the writers. */
void upper(char *dst, const char *src);  /* load_x -> LOAD_X */
void lower(char *dst, const char *src);  /* LOAD_X -> load_x */
void camel(char *dst, const char *src);  /* LOAD_X / load_x -> LoadX */
/* Bits of 32-bit word WORD (0..3) of command C that its opcode and fields
 * cover; the rest are reserved and must be zero. */
unsigned cmd_used_mask(const Cmd *c, int word);

#endif
