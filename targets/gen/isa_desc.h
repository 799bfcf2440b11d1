/* isa_desc.h: the in-memory form of targets/isa.def and of a target .cfg,
 * as read by the generator (tsl-gen). Fixed-size tables: the ISA is small,
 * and a limit overflow is reported as a parse error, never a crash. */
#ifndef ISA_DESC_H
#define ISA_DESC_H

#include <stdint.h>

enum { MAX_NAME = 32, MAX_DOC = 200, MAX_ITEMS = 64, MAX_FIELDS = 24, MAX_RF = 8 };

typedef enum { FT_U, FT_S, FT_B, FT_E } FieldType;

typedef struct {
  char name[MAX_NAME];
  char doc[MAX_DOC];
  long long a, b; /* param: min, max; value/queue/error/counter: number */
  int has_def;    /* param: may be left out of a .cfg (then def) */
  long long def;  /* param: its default; hashed only when a target differs */
  char extra[MAX_NAME]; /* counter: unit */
} Item;

typedef struct {
  char name[MAX_NAME];
  char doc[MAX_DOC];
  int nvalues;
  Item values[MAX_FIELDS];
} Enum;

typedef struct {
  char name[MAX_NAME];
  char doc[MAX_DOC];
  int lsb, width;
  FieldType type;
  int enum_idx; /* FT_E: index into Isa.enums */
  int slot;     /* -1 none, else 0..5 for A..F */
} Field;

typedef struct {
  char name[MAX_NAME];
  char doc[MAX_DOC];
  int opcode;
  int queue;   /* index into Isa.queues */
  int nfields; /* token fields included for queue commands */
  Field fields[MAX_FIELDS];
} Cmd;

typedef struct {
  char name[MAX_NAME];
  char doc[MAX_DOC];
  int offset;
  char access[4];
  int nrf;
  Field rf[MAX_RF];
} Reg;

typedef struct {
  int version, cmd_bits;
  int nparams, nenums, nqueues, nslots, ncmds, nregs, nerrors, ncounters;
  Item params[MAX_ITEMS];
  Enum enums[8];
  Item queues[8];
  Item slots[8]; /* a = bits */
  Cmd cmds[MAX_ITEMS];
  Reg regs[MAX_ITEMS];
  Item errors[MAX_ITEMS];
  Item counters[MAX_ITEMS];
} Isa;

/* A target configuration: one value per Isa.params entry, plus its name. */
typedef struct {
  char name[MAX_NAME];
  long long values[MAX_ITEMS];
  uint32_t hash; /* FNV-1a over "key=value\n" of every param, in isa order */
} Target;

/* Parse PATH into *isa. Returns 0, or -1 after writing "PATH:LINE: what" into
 * err (errlen bytes). */
int isa_parse(const char *path, Isa *isa, char *err, int errlen);

/* Parse the target config PATH against isa's params into *t (every param
 * required, each within [min, max], no unknown keys). Returns 0 or -1 + err. */
int cfg_parse(const char *path, const Isa *isa, Target *t, char *err, int errlen);

/* Index of param NAME in isa, or -1. */
int isa_param_index(const Isa *isa, const char *name);

#endif
