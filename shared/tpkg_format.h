/* tpkg_format: the on-disk layout of a model package (.tpkg) and its
 * freestanding validator/reader (tpkg_check.c).
 *
 * docs/package-format.md is the full description; this header is the byte
 * layout in C. The reader is freestanding (no malloc, no stdio, no libc
 * beyond <stddef.h>/<stdint.h>): the firmware runtime compiles the very same
 * source. Everything is little-endian; the reader uses byte loads, so the
 * buffer needs no alignment.
 *
 * Layout:
 *   [header 64 B][section table TPKG_NSECT x 16 B][sections ...]
 * Every section appears exactly once in the table, in kind order (an empty
 * section has size 0). Sections start on a TPKG_ALIGN boundary (WEIGHTS on
 * TPKG_WEIGHTS_ALIGN), lie inside [header end, total_bytes) and never overlap.
 * The writer puts WEIGHTS last, so a firmware may use the package in place as
 * the start of the NPU's DRAM window. */
#ifndef TESSEL_TPKG_FORMAT_H
#define TESSEL_TPKG_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "tfw_mem.h"

#define TPKG_MAGIC "TPKG"          /* bytes 0..3 */
#define TPKG_VERSION 2u            /* format version this reader accepts (docs/package-format.md, changelog) */
#define TPKG_HEADER_FIXED 64u      /* bytes before the section table */
#define TPKG_SECT_ENTRY 16u        /* bytes per section table entry */
#define TPKG_ALIGN 16u             /* every section offset */
#define TPKG_WEIGHTS_ALIGN 64u     /* the weights section offset */
#define TPKG_NAME_BYTES 16u        /* target name field, NUL-padded */
#define TPKG_MAX_RANK 6u

/* Header byte offsets. */
enum {
  TPKG_H_MAGIC = 0,        /* u8[4] "TPKG" */
  TPKG_H_VERSION = 4,      /* u16 format version */
  TPKG_H_HEADER_BYTES = 6, /* u16 header + section table bytes */
  TPKG_H_TOTAL = 8,        /* u32 total package bytes */
  TPKG_H_TARGET_HASH = 12, /* u32 TSL_TARGET_HASH of the target */
  TPKG_H_TARGET_NAME = 16, /* char[16] target name, NUL-padded (every byte after the NUL is 0) */
  TPKG_H_ISA_VERSION = 32, /* u32 TSL_ISA_VERSION of the streams */
  TPKG_H_FLAGS = 36,       /* u32, 0 (reserved) */
  TPKG_H_NSECT = 40,       /* u32 TPKG_NSECT */
  TPKG_H_CRC = 44,         /* u32 CRC-32 of the header and table, this field read as 0 */
  TPKG_H_RESERVED = 48,    /* u32[4], 0 */
};

/* Section kinds, in table order (entry i has kind i + 1). */
enum {
  TPKG_SECT_STRINGS = 1,  /* NUL-terminated UTF-8 strings, referenced by byte offset */
  TPKG_SECT_NODES = 2,    /* u32 string offsets: the ONNX node names kernels list */
  TPKG_SECT_KERNELS = 3,  /* TPKG_KERNEL_BYTES records, execution order */
  TPKG_SECT_STREAMS = 4,  /* 16-byte NPU commands, every kernel's stream back to back */
  TPKG_SECT_IO = 5,       /* TPKG_IO_BYTES records: graph inputs, then outputs */
  TPKG_SECT_FALLBACK = 6, /* variable-length records in execution order (before_kernel ascending) */
  TPKG_SECT_WINDOW = 7,   /* one TPKG_WINDOW_BYTES record: the DRAM window layout */
  TPKG_SECT_WEIGHTS = 8,  /* weights/constants blob, placed at window.weights_offset */
  TPKG_NSECT = 8,
};
#define TPKG_HEADER_BYTES (TPKG_HEADER_FIXED + TPKG_NSECT * TPKG_SECT_ENTRY) /* 192 */

/* Section table entry: u32 kind, u32 offset, u32 size, u32 crc (CRC-32 of the
 * section's bytes). */

/* KERNELS record (48 bytes). */
#define TPKG_KERNEL_BYTES 48u
enum {
  TPKG_K_NAME = 0,        /* u32 string offset */
  TPKG_K_NODE_FIRST = 4,  /* u32 first index into NODES */
  TPKG_K_NODE_COUNT = 8,  /* u32 ONNX nodes fused into the kernel */
  TPKG_K_CMD_FIRST = 12,  /* u32 first command (index into STREAMS) */
  TPKG_K_CMD_COUNT = 16,  /* u32 commands */
  TPKG_K_MARK_ID = 20,    /* u32 kernel id its MARK commands carry */
  TPKG_K_EST_CYCLES = 24, /* u64 cost model estimate */
  TPKG_K_USEFUL_MACS = 32,/* u64 the graph's MACs (no padding) */
  TPKG_K_COMPULSORY = 40, /* u64 compulsory DRAM bytes (weights + inputs + outputs once) */
};

/* IO record (64 bytes). */
#define TPKG_IO_BYTES 64u
enum {
  TPKG_IO_NAME = 0,      /* u32 string offset (the ONNX graph input/output name) */
  TPKG_IO_DIR = 4,       /* u8 TPKG_DIR_* */
  TPKG_IO_DTYPE = 5,     /* u8 TPKG_DT_* */
  TPKG_IO_LAYOUT = 6,    /* u8 TPKG_LAYOUT_* of the bytes in the window */
  TPKG_IO_RANK = 7,      /* u8 0..TPKG_MAX_RANK */
  TPKG_IO_DIMS = 8,      /* u32[6] shape as the model states it (unused dims 0) */
  TPKG_IO_SCALE = 32,    /* f32 bits: quantisation scale (0 for float tensors) */
  TPKG_IO_ZP = 36,       /* i32 zero point */
  TPKG_IO_OFFSET = 40,   /* u32 window offset */
  TPKG_IO_SIZE = 44,     /* u32 bytes in the window */
  TPKG_IO_BLOCK = 48,    /* u32 channel block of a BLOCKED record: 0 the NPU's DIM, else one smaller block */
  TPKG_IO_RESERVED = 52, /* u32[3], 0 */
};

/* FALLBACK records (variable length, each a multiple of 4 bytes, back to
 * back in execution order): an op the control core runs between kernels.
 *   [header TPKG_FB_HEADER_BYTES][operands (n_in + n_out) x TPKG_FB_OPERAND_BYTES,
 *    inputs first][i32 ints[n_ints]][f32 floats[n_floats]]
 * The op's operand and parameter counts: shared/tfw_ops.def. */
#define TPKG_FB_HEADER_BYTES 24u
#define TPKG_FB_OPERAND_BYTES 56u
#define TPKG_FB_MAX_RANK 8u      /* operand dims */
#define TPKG_FB_MAX_OPERANDS 65u /* Concat of 64 inputs and its output */
#define TPKG_FB_MAX_INTS 96u
#define TPKG_FB_MAX_FLOATS 16u
enum {
  TPKG_FB_OP = 0,        /* u32 TPKG_OP_* */
  TPKG_FB_NAME = 4,      /* u32 string offset (ONNX node name) */
  TPKG_FB_BEFORE = 8,    /* u32 runs before kernel i (n_kernels: after the last) */
  TPKG_FB_BYTES = 12,    /* u32 record bytes (header, operands, parameters) */
  TPKG_FB_N_IN = 16,     /* u8 input operands */
  TPKG_FB_N_OUT = 17,    /* u8 output operands */
  TPKG_FB_N_INTS = 18,   /* u8 i32 parameters */
  TPKG_FB_N_FLOATS = 19, /* u8 f32 parameters */
  TPKG_FB_AHEAD = 20,    /* u16 kernel records from before_kernel on that may run beside it (below) */
  TPKG_FB_BEHIND = 22,   /* u16 kernel records before before_kernel that may run beside it */
};
/* Beside: kernel records the NPU may run while the core runs the record,
 * since none of them reads or writes the record's outputs or writes its
 * inputs (the compiler's promise, from the window offsets; the runtime
 * does not check it). AHEAD counts records before_kernel, before_kernel + 1,
 * ...; BEHIND counts before_kernel - 1, before_kernel - 2, ...; 0: none. */
/* Operand descriptor, at offset TPKG_FB_HEADER_BYTES + i * TPKG_FB_OPERAND_BYTES. */
enum {
  TPKG_FBO_DTYPE = 0,    /* u8 TPKG_DT_* */
  TPKG_FBO_LAYOUT = 1,   /* u8 TPKG_LAYOUT_* */
  TPKG_FBO_RANK = 2,     /* u8 0..TPKG_FB_MAX_RANK */
  TPKG_FBO_RESERVED = 3, /* u8, 0 */
  TPKG_FBO_OFFSET = 4,   /* u32 window offset */
  TPKG_FBO_SIZE = 8,     /* u32 bytes */
  TPKG_FBO_DIMS = 12,    /* u32[8] (unused dims 0) */
  TPKG_FBO_SCALE = 44,   /* f32 bits: quantisation scale (QUANTIZE's output, DEQUANTIZE's input), else 0 */
  TPKG_FBO_ZP = 48,      /* i32 zero point (also the padding lanes of a BLOCKED i8/u8 output) */
  TPKG_FBO_BLOCK = 52,   /* u32 channel block of a BLOCKED operand (the NPU's DIM), else 0 */
};

/* WINDOW record (48 bytes): regions of the NPU's DRAM window (offsets from
 * DRAM_BASE). Non-empty regions do not overlap and lie inside the window. */
#define TPKG_WINDOW_BYTES 48u
enum {
  TPKG_W_BYTES = 0,           /* u32 window size (DRAM_SIZE) */
  TPKG_W_WEIGHTS_OFFSET = 4,  /* u32, a multiple of 8 */
  TPKG_W_WEIGHTS_BYTES = 8,   /* u32, equals the WEIGHTS section size */
  TPKG_W_IO_OFFSET = 12,      /* u32 graph inputs and outputs */
  TPKG_W_IO_BYTES = 16,
  TPKG_W_SCRATCH_OFFSET = 20, /* u32 activations spilled to DRAM */
  TPKG_W_SCRATCH_BYTES = 24,
  TPKG_W_MARKS_OFFSET = 28,   /* u32 MARK counter records */
  TPKG_W_MARKS_BYTES = 32,
  TPKG_W_RESERVED = 36,       /* u32[3], 0 */
};

/* Enumerations. */
enum { TPKG_DIR_INPUT = 0, TPKG_DIR_OUTPUT = 1 };
enum {
  TPKG_DT_F32 = 1, TPKG_DT_U8 = 2, TPKG_DT_I8 = 3, TPKG_DT_I32 = 4, TPKG_DT_I64 = 5, TPKG_DT_BOOL = 6,
  TPKG_DT_I16 = 7, TPKG_DT_U16 = 8, TPKG_DT_U32 = 9, /* the core's integer ops only */
};
enum {
  TPKG_LAYOUT_PLAIN = 0,   /* row-major in the model's own dimension order (NCHW) */
  TPKG_LAYOUT_NHWC = 1,    /* rank 4, channels last */
  TPKG_LAYOUT_BLOCKED = 2, /* rank 4, [N][ceil(C/DIM)][H][W][DIM] (docs/isa.md rows) */
};
/* Fallback ops: shared/tfw_ops.def (codes, operands, parameters). */
enum {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) TPKG_OP_##NAME = code,
#include "tfw_ops.def"
#undef TFW_OP
  TPKG_OP_END, /* one past the last code */
};

/* Error codes (tpkg_check results). */
typedef enum {
  TPKG_OK = 0,
  TPKG_E_TRUNCATED,   /* fewer bytes than the header or total_bytes say */
  TPKG_E_MAGIC,       /* not a package */
  TPKG_E_VERSION,     /* format version this reader does not know */
  TPKG_E_HEADER,      /* header field invalid (sizes, reserved, name, ISA version) */
  TPKG_E_HEADER_CRC,  /* header/section table CRC mismatch */
  TPKG_E_TARGET,      /* built for another target configuration */
  TPKG_E_SECTION,     /* section table entry: kind, bounds, alignment, record size */
  TPKG_E_OVERLAP,     /* two sections share bytes */
  TPKG_E_SECTION_CRC, /* CRC of a section other than WEIGHTS */
  TPKG_E_WEIGHTS_CRC, /* CRC of the weights */
  TPKG_E_STRING,      /* string offset out of bounds or unterminated */
  TPKG_E_WINDOW,      /* window layout: regions out of the window or overlapping */
  TPKG_E_IO,          /* I/O descriptor */
  TPKG_E_KERNEL,      /* kernel table */
  TPKG_E_FALLBACK,    /* fallback record */
  TPKG_E_CMD_OPCODE,  /* a command's opcode is not a command */
  TPKG_E_CMD_FIELD,   /* a command has reserved bits set or a bad LOOP body */
  TPKG_E_CMD_DRAM,    /* a command's DRAM offset is outside the window */
  TPKG_E_NCODES
} tpkg_err_code;

/* An error: code, a static message naming what is wrong, the index of the
 * offending item (section kind, record or command index; -1 if none) and the
 * offending value. */
typedef struct {
  tpkg_err_code code;
  const char *msg;
  int64_t index;
  uint64_t value;
} tpkg_error;

/* Flags of tpkg_check. */
enum {
  TPKG_CHECK_ANY_TARGET = 1u << 0, /* skip the target hash check (inspect) */
  TPKG_CHECK_LAZY_WEIGHTS = 1u << 1, /* skip the weights CRC (tpkg_check_weights later) */
};

/* Decoded records (names point into the package buffer, NUL-terminated). */
typedef struct {
  uint32_t window_bytes;
  uint32_t weights_offset, weights_bytes;
  uint32_t io_offset, io_bytes;
  uint32_t scratch_offset, scratch_bytes;
  uint32_t marks_offset, marks_bytes;
} tpkg_window;

typedef struct {
  const char *name;  /* ONNX graph input/output name */
  uint8_t dir;       /* TPKG_DIR_* */
  uint8_t dtype;     /* TPKG_DT_* */
  uint8_t layout;    /* TPKG_LAYOUT_* */
  uint8_t rank;      /* 0..TPKG_MAX_RANK */
  uint32_t dims[TPKG_MAX_RANK];
  float scale;       /* quantisation scale; 0 for float tensors */
  int32_t zero_point;
  uint32_t offset;   /* window offset */
  uint32_t size;     /* bytes in the window */
  uint32_t block;    /* BLOCKED: 0 (the NPU's DIM) or a smaller block holding every channel; else 0 */
} tpkg_io;

/* A fallback operand (decoded). */
typedef struct {
  uint8_t dtype, layout, rank;
  uint32_t offset, size;   /* window bytes */
  uint32_t dims[TPKG_FB_MAX_RANK];
  float scale;
  int32_t zp;
  uint32_t block;
} tpkg_operand;

/* A fallback record (decoded header; operands and parameters through the
 * accessors below, which read the record in place). */
typedef struct {
  uint32_t op;            /* TPKG_OP_* */
  const char *name;       /* ONNX node name */
  uint32_t before_kernel; /* runs before this kernel (n_kernels: at the end) */
  uint32_t ahead, behind; /* kernel records that may run beside it (TPKG_FB_AHEAD, TPKG_FB_BEHIND) */
  uint32_t n_in, n_out, n_ints, n_floats;
  const uint8_t *rec;     /* the record's bytes */
  uint32_t bytes;         /* record size */
} tpkg_fallback;

typedef struct {
  const char *name;
  uint32_t node_first, node_count; /* tpkg_view_node(v, node_first + i) */
  uint32_t cmd_first, cmd_count;   /* tpkg_view_cmd(v, cmd_first + i) */
  uint32_t mark_id;
  uint64_t estimate_cycles, useful_macs, compulsory_dram_bytes;
} tpkg_kernel_view;

/* A validated package: read-only views into the caller's buffer. */
typedef struct {
  const uint8_t *buf;
  uint32_t total_bytes;
  uint32_t version, target_hash, isa_version;
  const char *target_name;
  uint32_t sect_offset[TPKG_NSECT + 1], sect_size[TPKG_NSECT + 1], sect_crc[TPKG_NSECT + 1]; /* by kind */
  uint32_t n_nodes, n_kernels, n_cmds, n_io, n_fallbacks;
  tpkg_window window;
  int counter_records; /* 1: the marks region holds a MARK record per kernel record and every
                          stream is framed (rule 73): a MARK reset first, its counter record last */
  const uint8_t *weights;
  uint32_t weights_bytes;
} tpkg_view;

/* Validates len bytes at buf: magic, version, header CRC, total size, target
 * hash (== expected_hash unless TPKG_CHECK_ANY_TARGET), section table
 * (bounds, alignment, overlaps), section CRCs (weights unless
 * TPKG_CHECK_LAZY_WEIGHTS), strings, window, I/O, kernels, fallback records
 * and every command (opcode, reserved bits, LOOP bodies inside their kernel,
 * DRAM offsets inside the window), and that a fallback record or a kernel's
 * STORE writes every graph output: docs/package-format.md section 4 lists
 * every rule. Bytes past total_bytes are ignored.
 * Returns TPKG_OK and fills *v, or an error code with *err filled (err may be
 * NULL). Never reads outside [buf, buf + len). */
tpkg_err_code tpkg_check(const uint8_t *buf, size_t len, uint32_t expected_hash, unsigned flags,
                         tpkg_view *v, tpkg_error *err);
/* The weights CRC of a package checked with TPKG_CHECK_LAZY_WEIGHTS. */
tpkg_err_code tpkg_check_weights(const tpkg_view *v, tpkg_error *err);

/* Accessors on a validated view; i must be below the matching count. */
void tpkg_view_kernel(const tpkg_view *v, uint32_t i, tpkg_kernel_view *k);
void tpkg_view_io(const tpkg_view *v, uint32_t i, tpkg_io *io);
/* Fallback record i (a walk from the first record: O(i)). */
void tpkg_view_fallback(const tpkg_view *v, uint32_t i, tpkg_fallback *f);
/* The record at byte *pos of the FALLBACK section; advances *pos to the
 * next one (execution-order walks are O(1) per record). */
void tpkg_view_fallback_at(const tpkg_view *v, uint32_t *pos, tpkg_fallback *f);
/* Operand i of f (inputs 0..n_in-1, then outputs), int and float parameter i. */
void tpkg_fallback_operand(const tpkg_fallback *f, uint32_t i, tpkg_operand *o);
int32_t tpkg_fallback_int(const tpkg_fallback *f, uint32_t i);
float tpkg_fallback_float(const tpkg_fallback *f, uint32_t i);
/* Bytes of a record with these counts. */
static inline uint32_t tpkg_fallback_bytes(uint32_t n_operands, uint32_t n_ints, uint32_t n_floats) {
  return TPKG_FB_HEADER_BYTES + n_operands * TPKG_FB_OPERAND_BYTES + 4u * (n_ints + n_floats);
}
const char *tpkg_view_node(const tpkg_view *v, uint32_t i);
const uint8_t *tpkg_view_cmd(const tpkg_view *v, uint32_t i); /* 16 bytes */

/* "TRUNCATED", ...; "?" when out of range. */
const char *tpkg_err_name(tpkg_err_code c);
/* Bytes per element of a TPKG_DT_*, 0 if unknown. */
uint32_t tpkg_dtype_bytes(uint32_t dtype);
const char *tpkg_dtype_name(uint32_t dtype);
const char *tpkg_layout_name(uint32_t layout);
const char *tpkg_op_name(uint32_t op);

/* Little-endian byte access (also used by the writer). */
/* (a word access where aligned: on the SoC a package in DRAM costs a trip
 * through the memory port per access, and the run loop reads its fields) */
static inline uint32_t tpkg_rd32(const uint8_t *p) { return tfw_rd32(p); }
static inline uint16_t tpkg_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint64_t tpkg_rd64(const uint8_t *p) {
  return (uint64_t)tpkg_rd32(p) | (uint64_t)tpkg_rd32(p + 4) << 32;
}
static inline void tpkg_wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
/* A record's channel block: its own, or the NPU's DIM where it says 0. */
static inline uint32_t tpkg_block_or(uint32_t block, uint32_t dim) { return block ? block : dim; }
static inline void tpkg_wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void tpkg_wr64(uint8_t *p, uint64_t v) {
  tpkg_wr32(p, (uint32_t)v); tpkg_wr32(p + 4, (uint32_t)(v >> 32));
}

#endif
