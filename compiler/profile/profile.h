/* profile: the profile JSON of docs/profile-format.md, loaded into structs.
 *
 * profile_load checks everything the profiler relies on: "format" is
 * "tessel-profile" and "version" 1, every counter of the generated counter
 * table is present (in "total" and in every kernel) as a non-negative
 * integer (or a string of decimal digits, as the writer spells values past
 * 2^53), names are strings. Unknown keys are ignored. The optional
 * "commands" array (the per-command timeline) and "timeline" array (the
 * inference's items: ordered, not overlapping, indices in range) are read
 * when present. Errors
 * name the file, the place (line:column or the JSON path) and the problem. */
#ifndef TESSEL_PROFILE_H
#define TESSEL_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "tessel_isa.h"

typedef struct {
  uint64_t index;                 /* position in execution order */
  uint64_t id;                    /* MARK kernel id */
  const char *name;               /* "conv1+relu" ("" if the package had none) */
  const char **onnx_nodes;        /* ONNX nodes the kernel fuses */
  size_t nonnx;
  uint64_t estimate_cycles;       /* the cost model's estimate */
  uint64_t compulsory_dram_bytes; /* weights + inputs + outputs once */
  uint64_t useful_macs;           /* the graph's MACs */
  uint64_t c[TSL_NCOUNTERS];      /* the kernel's counters (TSL_CNT_*) */
  uint64_t start;                 /* cycle the kernel starts: sum of earlier kernels' CYCLES */
} prof_kernel;

typedef struct {
  uint64_t index;       /* position */
  const char *op;       /* ONNX op type */
  const char *name;     /* node name */
  uint64_t core_cycles; /* cycles on the control core */
} prof_fallback;

enum { PROF_UNIT_LOAD, PROF_UNIT_EXEC, PROF_UNIT_STORE, PROF_NUNITS };

/* One command of the optional per-command timeline. */
typedef struct {
  int unit;            /* PROF_UNIT_* */
  uint64_t kernel;     /* MARK kernel id of the kernel it belongs to */
  int64_t kernel_index;/* position of that kernel in kernels[] (-1: before the first MARK) */
  uint64_t index;      /* command's index in the stream */
  const char *op;      /* "MATMUL" */
  uint64_t start, end; /* cycles: busy from start to end */
} prof_command;

typedef enum { PROF_ITEM_KERNEL, PROF_ITEM_FALLBACK, PROF_ITEM_GAP } prof_item_kind;

/* One item of the optional inference timeline ("timeline"). */
typedef struct {
  prof_item_kind kind;
  uint64_t index;      /* kernels[] or fallback_ops[] position (not for gaps) */
  const char *what;    /* gaps: "runtime", "input_copy", ... (NULL otherwise) */
  const char *name;    /* kernel or node name; gaps: what and where */
  uint64_t start, end; /* cycles from the inference's start */
  int beside;          /* a fallback op the core ran while the NPU ran the kernel item before it */
} prof_item;

typedef struct {
  const char *path;         /* file it was read from (for messages) */
  const char *target;       /* "npu8" */
  const char *target_hash;  /* "0x5B61BF83" */
  const char *engine;       /* "rtl" or "model" */
  const char *model;        /* package name */
  uint64_t clock_mhz, dim;
  uint64_t total[TSL_NCOUNTERS];
  prof_kernel *kernels;
  size_t nkernels;
  prof_fallback *fallbacks;
  size_t nfallbacks;
  prof_command *commands;   /* NULL when the profile has no per-command timeline */
  size_t ncommands;
  prof_item *items;         /* NULL when the profile has no inference timeline */
  size_t nitems;
} profile;

/* Parses and checks the profile text[0..len); path names it in messages.
 * Everything is allocated in a. Returns 0, or -1 with a message in d. */
int profile_parse(arena *a, const char *path, const char *text, size_t len, profile *p, diag *d);

/* Reads the file and parses it (at most PROFILE_MAX_BYTES). 0 or -1 with d. */
enum { PROFILE_MAX_BYTES = 1 << 30 };
int profile_load(arena *a, const char *path, profile *p, diag *d);

#endif
