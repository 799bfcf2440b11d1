/* tpkg: the in-memory model package the lowering fills, and its writer.
 *
 * The lowering builds a tpkg_package with pointers into its own
 * memory (an arena): kernels in execution order, each with its command
 * stream, the weights blob, the I/O descriptors, the fallback records and the
 * DRAM window layout. tpkg_write serialises it in the format of
 * docs/package-format.md (tpkg_format.h) and checks its own output with the
 * same validator the firmware runs, so a package that leaves the compiler
 * always loads. The writer never takes ownership of anything it is given. */
#ifndef TESSEL_TPKG_H
#define TESSEL_TPKG_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "tpkg_format.h"

/* One fused kernel. Its commands are 16-byte NPU commands (docs/isa.md) as
 * 4 little-endian-order words each (tsl_*_encode's output), with DRAM offsets
 * relative to the window. */
typedef struct {
  const char *name;               /* e.g. "conv1+relu" (shown by inspect and the profiler) */
  const char *const *onnx_nodes;  /* ONNX node names fused into it */
  uint32_t n_onnx_nodes;
  const uint32_t (*cmds)[4];      /* n_cmds commands */
  uint32_t n_cmds;
  uint32_t mark_id;               /* kernel id of its MARK commands */
  uint64_t estimate_cycles;       /* cost model estimate */
  uint64_t useful_macs;           /* the graph's MACs, padding excluded */
  uint64_t compulsory_dram_bytes; /* weights + inputs + outputs once */
} tpkg_kernel;

/* One fallback record (tpkg_format.h, shared/tfw_ops.def). */
typedef struct {
  uint32_t op;                    /* TPKG_OP_* */
  const char *name;               /* ONNX node name */
  uint32_t before_kernel;         /* runs before this kernel (n_kernels: after the last) */
  uint32_t ahead, behind;         /* kernel records that may run beside it (tpkg_format.h), each < 2^16 */
  uint32_t n_in, n_out;           /* operands: inputs, then outputs */
  const tpkg_operand *operands;   /* n_in + n_out */
  uint32_t n_ints, n_floats;
  const int32_t *ints;            /* n_ints parameters */
  const float *floats;            /* n_floats parameters */
} tpkg_fb_record;

/* The whole package. tpkg_io is the decoded record type of tpkg_format.h
 * (name strings are copied into the STRINGS section). */
typedef struct {
  const char *target_name;   /* TSL_TARGET_NAME, < 16 bytes */
  uint32_t target_hash;      /* TSL_TARGET_HASH */
  tpkg_window window;        /* weights_bytes must equal n_weights */
  const uint8_t *weights;    /* blob placed at window.weights_offset */
  uint32_t n_weights;
  const tpkg_kernel *kernels;
  uint32_t n_kernels;
  const tpkg_io *io;         /* inputs first, then outputs */
  uint32_t n_io;
  const tpkg_fb_record *fallbacks; /* sorted by before_kernel */
  uint32_t n_fallbacks;
} tpkg_package;

/* Serialises p. On success returns 0 and *out (malloc'd, the caller frees)
 * holds *len bytes. On a package that would not validate (an offset outside
 * the window, a bad command, ...) or out of memory returns -1 with d filled
 * and *out NULL. */
int tpkg_write(const tpkg_package *p, uint8_t **out, size_t *len, diag *d);
/* tpkg_write, then the bytes to path. */
int tpkg_write_file(const tpkg_package *p, const char *path, diag *d);

/* Reads a whole file (for inspect, emit-c, tests): returns 0 with *out
 * malloc'd, or -1 with d filled. Refuses files over 1 GiB. */
int tpkg_read_file(const char *path, uint8_t **out, size_t *len, diag *d);

/* Describes an error of tpkg_check in one line into d ("bad package: ..."),
 * returns -1. */
int tpkg_diag(diag *d, const tpkg_error *e);

#endif
