/* tpkg_check: the freestanding validator and reader of .tpkg packages.
 *
 * Compiled unchanged by the host compiler (inspect, emit-c, the writer's
 * self-check) and by the firmware (rv32, -ffreestanding): only <stddef.h>,
 * <stdint.h>, crc32.c and the generated, freestanding tessel_isa.h.
 * Every size is computed in 64 bits before it is compared, so hostile
 * 32-bit fields cannot wrap. Checks run in a fixed order (header, table,
 * CRCs, contents), so a given corruption always gets the same code. */
#include "tpkg_format.h"

#include "crc32.h"
#include "tessel_isa.h"

static tpkg_err_code fail(tpkg_error *err, tpkg_err_code c, const char *msg, int64_t index, uint64_t value) {
  if (err) {
    err->code = c;
    err->msg = msg;
    err->index = index;
    err->value = value;
  }
  return c;
}

static const uint8_t *sect(const tpkg_view *v, unsigned kind) { return v->buf + v->sect_offset[kind]; }

/* A string offset is good when it lies inside STRINGS, whose last byte is a
 * NUL (checked once), so every string read from it is terminated. */
static int str_ok(const tpkg_view *v, uint32_t off) { return off < v->sect_size[TPKG_SECT_STRINGS]; }
static const char *str_at(const tpkg_view *v, uint32_t off) {
  return (const char *)sect(v, TPKG_SECT_STRINGS) + off;
}

static float f32_from_bits(uint32_t u) {
  union {
    uint32_t u;
    float f;
  } x;
  x.u = u;
  return x.f;
}

static int range_ok(uint64_t off, uint64_t size, uint64_t limit) { return off <= limit && size <= limit - off; }

static int overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) {
  return an && bn && a < b + bn && b < a + an;
}

uint32_t tpkg_dtype_bytes(uint32_t dtype) {
  switch (dtype) {
  case TPKG_DT_F32: return 4;
  case TPKG_DT_U8: return 1;
  case TPKG_DT_I8: return 1;
  case TPKG_DT_I32: return 4;
  case TPKG_DT_I64: return 8;
  case TPKG_DT_BOOL: return 1;
  case TPKG_DT_I16: case TPKG_DT_U16: return 2;
  case TPKG_DT_U32: return 4;
  default: return 0;
  }
}

const char *tpkg_dtype_name(uint32_t dtype) {
  switch (dtype) {
  case TPKG_DT_F32: return "float32";
  case TPKG_DT_U8: return "uint8";
  case TPKG_DT_I8: return "int8";
  case TPKG_DT_I32: return "int32";
  case TPKG_DT_I64: return "int64";
  case TPKG_DT_BOOL: return "bool";
  case TPKG_DT_I16: return "int16";
  case TPKG_DT_U16: return "uint16";
  case TPKG_DT_U32: return "uint32";
  default: return "?";
  }
}

const char *tpkg_layout_name(uint32_t layout) {
  switch (layout) {
  case TPKG_LAYOUT_PLAIN: return "plain";
  case TPKG_LAYOUT_NHWC: return "nhwc";
  case TPKG_LAYOUT_BLOCKED: return "nhwc-blocked";
  default: return "?";
  }
}

const char *tpkg_op_name(uint32_t op) {
  switch (op) {
  case TPKG_OP_SOFTMAX: return "Softmax";
  case TPKG_OP_QUANTIZE: return "QuantizeLinear";
  case TPKG_OP_DEQUANTIZE: return "DequantizeLinear";
  case TPKG_OP_RELAYOUT: return "Relayout";
  default: break;
  }
  switch (op) { /* the others by their tfw_ops.def names */
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) \
  case code: return #NAME;
#include "tfw_ops.def"
#undef TFW_OP
  default: return "?";
  }
}

const char *tpkg_err_name(tpkg_err_code c) {
  static const char *const names[TPKG_E_NCODES] = {
      "OK", "TRUNCATED", "MAGIC", "VERSION", "HEADER", "HEADER_CRC", "TARGET", "SECTION", "OVERLAP",
      "SECTION_CRC", "WEIGHTS_CRC", "STRING", "WINDOW", "IO", "KERNEL", "FALLBACK", "CMD_OPCODE",
      "CMD_FIELD", "CMD_DRAM"};
  return (unsigned)c < TPKG_E_NCODES ? names[c] : "?";
}

/* A tensor's shape fields: rank in range, used dims >= 1, unused dims 0;
 * *bytes = elements * element size (0 on a bad shape or dtype). Elements are
 * capped at 2^40, checked before each product can overflow 64 bits. */
static int shape_ok(const uint8_t *dims, uint32_t rank, uint32_t max_rank, uint32_t dtype, uint64_t *bytes) {
  uint64_t n = tpkg_dtype_bytes(dtype);
  *bytes = 0;
  if (!n || rank > max_rank) return 0;
  for (uint32_t i = 0; i < max_rank; i++) {
    uint32_t d = tpkg_rd32(dims + 4 * i);
    if (i < rank) {
      if (d == 0) return 0;
      /* n <= 2^40 and d < 2^32, so n * d could wrap past 2^64 (to 0, and a
       * huge shape would pass): both >= 2^24 is already above the cap. */
      if (n >= ((uint64_t)1 << 24) && d >= (1u << 24)) return 0;
      n *= d;
      if (n > ((uint64_t)1 << 40)) return 0;
    } else if (d != 0) {
      return 0;
    }
  }
  *bytes = n;
  return 1;
}

/* Layout valid for the rank: NHWC and blocked are rank-4 layouts. */
static int layout_ok(uint32_t layout, uint32_t rank) {
  if (layout == TPKG_LAYOUT_PLAIN) return 1;
  return (layout == TPKG_LAYOUT_NHWC || layout == TPKG_LAYOUT_BLOCKED) && rank == 4;
}

static tpkg_err_code check_header(const uint8_t *b, size_t len, uint32_t expected_hash, unsigned flags,
                                  tpkg_view *v, tpkg_error *err) {
  if (len < 4) return fail(err, TPKG_E_TRUNCATED, "shorter than the magic", -1, len);
  if (b[0] != 'T' || b[1] != 'P' || b[2] != 'K' || b[3] != 'G')
    return fail(err, TPKG_E_MAGIC, "no 'TPKG' magic: not a model package", -1, tpkg_rd32(b));
  if (len < 8) return fail(err, TPKG_E_TRUNCATED, "shorter than the header", -1, len);
  uint32_t version = tpkg_rd16(b + TPKG_H_VERSION);
  if (version != TPKG_VERSION)
    return fail(err, TPKG_E_VERSION, "format version not supported by this reader (rebuild the package or the reader)", -1,
                version);
  if (len < TPKG_HEADER_BYTES) return fail(err, TPKG_E_TRUNCATED, "shorter than the header", -1, len);
  /* The CRC covers the fixed-size header and table of this version: checked
     before any field in them is trusted. */
  static const uint8_t zero4[4] = {0, 0, 0, 0};
  uint32_t crc = crc32_update(0, b, TPKG_H_CRC);
  crc = crc32_update(crc, zero4, 4);
  crc = crc32_update(crc, b + TPKG_H_CRC + 4, TPKG_HEADER_BYTES - TPKG_H_CRC - 4);
  if (crc != tpkg_rd32(b + TPKG_H_CRC))
    return fail(err, TPKG_E_HEADER_CRC, "header CRC mismatch (corrupted header or section table)", -1, crc);
  if (tpkg_rd16(b + TPKG_H_HEADER_BYTES) != TPKG_HEADER_BYTES)
    return fail(err, TPKG_E_HEADER, "header size field", -1, tpkg_rd16(b + TPKG_H_HEADER_BYTES));
  if (tpkg_rd32(b + TPKG_H_NSECT) != TPKG_NSECT)
    return fail(err, TPKG_E_HEADER, "section count", -1, tpkg_rd32(b + TPKG_H_NSECT));
  uint32_t total = tpkg_rd32(b + TPKG_H_TOTAL);
  if (total < TPKG_HEADER_BYTES) return fail(err, TPKG_E_HEADER, "total size smaller than the header", -1, total);
  if (total > len) return fail(err, TPKG_E_TRUNCATED, "fewer bytes than the header's total size", -1, len);
  if (tpkg_rd32(b + TPKG_H_FLAGS) != 0) return fail(err, TPKG_E_HEADER, "reserved flags set", -1, tpkg_rd32(b + TPKG_H_FLAGS));
  for (unsigned i = 0; i < 16; i++)
    if (b[TPKG_H_RESERVED + i]) return fail(err, TPKG_E_HEADER, "reserved header bytes set", -1, TPKG_H_RESERVED + i);
  const uint8_t *name = b + TPKG_H_TARGET_NAME;
  if (name[TPKG_NAME_BYTES - 1] != 0) return fail(err, TPKG_E_HEADER, "target name not NUL-terminated", -1, 0);
  unsigned name_end = 0;
  while (name[name_end]) name_end++;
  for (unsigned i = name_end; i < TPKG_NAME_BYTES; i++)
    if (name[i]) return fail(err, TPKG_E_HEADER, "target name not NUL-padded after its end", -1, TPKG_H_TARGET_NAME + i);
  uint32_t isa = tpkg_rd32(b + TPKG_H_ISA_VERSION);
  if (isa != TSL_ISA_VERSION)
    return fail(err, TPKG_E_HEADER, "command streams for another NPU ISA version (recompile the model)", -1, isa);
  uint32_t hash = tpkg_rd32(b + TPKG_H_TARGET_HASH);
  if (!(flags & TPKG_CHECK_ANY_TARGET) && hash != expected_hash)
    return fail(err, TPKG_E_TARGET, "package built for another target configuration (recompile for this target)", -1, hash);
  v->buf = b;
  v->total_bytes = total;
  v->version = version;
  v->target_hash = hash;
  v->isa_version = isa;
  v->target_name = (const char *)b + TPKG_H_TARGET_NAME;
  return TPKG_OK;
}

static tpkg_err_code check_table(tpkg_view *v, unsigned flags, tpkg_error *err) {
  static const uint32_t rec[TPKG_NSECT + 1] = {0, 1, 4, TPKG_KERNEL_BYTES, TSL_CMD_BYTES, TPKG_IO_BYTES,
                                               4, TPKG_WINDOW_BYTES, 1};
  for (unsigned s = 1; s <= TPKG_NSECT; s++) {
    const uint8_t *e = v->buf + TPKG_HEADER_FIXED + (s - 1) * TPKG_SECT_ENTRY;
    uint32_t kind = tpkg_rd32(e), off = tpkg_rd32(e + 4), size = tpkg_rd32(e + 8);
    if (kind != s) return fail(err, TPKG_E_SECTION, "section table out of kind order", s, kind);
    if (off % (s == TPKG_SECT_WEIGHTS ? TPKG_WEIGHTS_ALIGN : TPKG_ALIGN))
      return fail(err, TPKG_E_SECTION, "section offset misaligned", s, off);
    if (off < TPKG_HEADER_BYTES || !range_ok(off, size, v->total_bytes))
      return fail(err, TPKG_E_SECTION, "section outside the package", s, off);
    if (size % rec[s]) return fail(err, TPKG_E_SECTION, "section size not a whole number of records", s, size);
    if (s == TPKG_SECT_WINDOW && size != TPKG_WINDOW_BYTES)
      return fail(err, TPKG_E_SECTION, "window section must hold exactly one record", s, size);
    v->sect_offset[s] = off;
    v->sect_size[s] = size;
    v->sect_crc[s] = tpkg_rd32(e + 12);
  }
  for (unsigned a = 1; a <= TPKG_NSECT; a++)
    for (unsigned c = a + 1; c <= TPKG_NSECT; c++)
      if (overlaps(v->sect_offset[a], v->sect_size[a], v->sect_offset[c], v->sect_size[c]))
        return fail(err, TPKG_E_OVERLAP, "sections overlap", c, a);
  for (unsigned s = 1; s <= TPKG_NSECT; s++) {
    if (s == TPKG_SECT_WEIGHTS && (flags & TPKG_CHECK_LAZY_WEIGHTS)) continue;
    uint32_t crc = crc32(sect(v, s), v->sect_size[s]);
    if (crc != v->sect_crc[s])
      return fail(err, s == TPKG_SECT_WEIGHTS ? TPKG_E_WEIGHTS_CRC : TPKG_E_SECTION_CRC, "section CRC mismatch", s, crc);
  }
  v->n_nodes = v->sect_size[TPKG_SECT_NODES] / 4;
  v->n_kernels = v->sect_size[TPKG_SECT_KERNELS] / TPKG_KERNEL_BYTES;
  v->n_cmds = v->sect_size[TPKG_SECT_STREAMS] / TSL_CMD_BYTES;
  v->n_io = v->sect_size[TPKG_SECT_IO] / TPKG_IO_BYTES;
  v->n_fallbacks = 0; /* counted by check_fallbacks */
  v->weights = sect(v, TPKG_SECT_WEIGHTS);
  v->weights_bytes = v->sect_size[TPKG_SECT_WEIGHTS];
  return TPKG_OK;
}

static tpkg_err_code check_window(tpkg_view *v, tpkg_error *err) {
  const uint8_t *r = sect(v, TPKG_SECT_WINDOW);
  tpkg_window *w = &v->window;
  for (unsigned i = 0; i < 3; i++)
    if (tpkg_rd32(r + TPKG_W_RESERVED + 4 * i)) return fail(err, TPKG_E_WINDOW, "reserved window fields set", i, 0);
  w->window_bytes = tpkg_rd32(r + TPKG_W_BYTES);
  uint32_t reg[4][2];
  for (unsigned i = 0; i < 4; i++) {
    reg[i][0] = tpkg_rd32(r + TPKG_W_WEIGHTS_OFFSET + 8 * i);
    reg[i][1] = tpkg_rd32(r + TPKG_W_WEIGHTS_OFFSET + 8 * i + 4);
    if (!range_ok(reg[i][0], reg[i][1], w->window_bytes))
      return fail(err, TPKG_E_WINDOW, "region outside the DRAM window (0 weights, 1 io, 2 scratch, 3 marks)", i, reg[i][0]);
  }
  for (unsigned a = 0; a < 4; a++)
    for (unsigned c = a + 1; c < 4; c++)
      if (overlaps(reg[a][0], reg[a][1], reg[c][0], reg[c][1]))
        return fail(err, TPKG_E_WINDOW, "window regions overlap (0 weights, 1 io, 2 scratch, 3 marks)", c, a);
  w->weights_offset = reg[0][0], w->weights_bytes = reg[0][1];
  w->io_offset = reg[1][0], w->io_bytes = reg[1][1];
  w->scratch_offset = reg[2][0], w->scratch_bytes = reg[2][1];
  w->marks_offset = reg[3][0], w->marks_bytes = reg[3][1];
  if (w->weights_bytes != v->weights_bytes)
    return fail(err, TPKG_E_WINDOW, "weights region size differs from the weights section", -1, w->weights_bytes);
  if (w->weights_offset % 8) return fail(err, TPKG_E_WINDOW, "weights region not 8-byte aligned", -1, w->weights_offset);
  return TPKG_OK;
}

static tpkg_err_code check_io(const tpkg_view *v, tpkg_error *err) {
  for (uint32_t i = 0; i < v->n_io; i++) {
    const uint8_t *r = sect(v, TPKG_SECT_IO) + (uint64_t)i * TPKG_IO_BYTES;
    uint64_t need;
    if (!str_ok(v, tpkg_rd32(r + TPKG_IO_NAME))) return fail(err, TPKG_E_STRING, "I/O name offset", i, tpkg_rd32(r));
    if (r[TPKG_IO_DIR] > TPKG_DIR_OUTPUT) return fail(err, TPKG_E_IO, "I/O direction", i, r[TPKG_IO_DIR]);
    if (!tpkg_dtype_bytes(r[TPKG_IO_DTYPE])) return fail(err, TPKG_E_IO, "I/O dtype", i, r[TPKG_IO_DTYPE]);
    if (!shape_ok(r + TPKG_IO_DIMS, r[TPKG_IO_RANK], TPKG_MAX_RANK, r[TPKG_IO_DTYPE], &need))
      return fail(err, TPKG_E_IO, "I/O shape (rank, zero or unused dimensions)", i, r[TPKG_IO_RANK]);
    if (!layout_ok(r[TPKG_IO_LAYOUT], r[TPKG_IO_RANK])) return fail(err, TPKG_E_IO, "I/O layout for its rank", i, r[TPKG_IO_LAYOUT]);
    uint32_t off = tpkg_rd32(r + TPKG_IO_OFFSET), size = tpkg_rd32(r + TPKG_IO_SIZE);
    if (size < need) return fail(err, TPKG_E_IO, "I/O byte size smaller than its shape", i, size);
    if (!range_ok(off, size, v->window.window_bytes)) return fail(err, TPKG_E_IO, "I/O tensor outside the DRAM window", i, off);
    uint32_t block = tpkg_rd32(r + TPKG_IO_BLOCK);
    if (block && (r[TPKG_IO_LAYOUT] != TPKG_LAYOUT_BLOCKED || block < tpkg_rd32(r + TPKG_IO_DIMS + 4)))
      return fail(err, TPKG_E_IO, "I/O block set on a layout other than BLOCKED, or below its channels", i, block);
    for (unsigned j = 0; j < 12; j++)
      if (r[TPKG_IO_RESERVED + j]) return fail(err, TPKG_E_IO, "reserved I/O bytes set", i, j);
  }
  return TPKG_OK;
}

/* The counts of each fallback op (tfw_ops.def). */
typedef struct {
  uint32_t code;
  uint8_t min_in, max_in, min_out, max_out;
} fb_op_counts;
static const fb_op_counts fb_ops[] = {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) {code, min_in, max_in, min_out, max_out},
#include "tfw_ops.def"
#undef TFW_OP
};

static const fb_op_counts *fb_op_of(uint32_t op) {
  for (uint32_t i = 0; i < sizeof fb_ops / sizeof fb_ops[0]; i++)
    if (fb_ops[i].code == op) return &fb_ops[i];
  return NULL;
}

/* Whether operands of the layout-aware ops (QUANTIZE, DEQUANTIZE,
 * RELAYOUT) may be NHWC or BLOCKED; every other op reads plain tensors. */
static int layout_aware(uint32_t op) {
  return op == TPKG_OP_QUANTIZE || op == TPKG_OP_DEQUANTIZE || op == TPKG_OP_RELAYOUT;
}

/* One operand descriptor of record i (o = its bytes); out: an output. */
static tpkg_err_code check_operand(const tpkg_view *v, uint32_t op, const uint8_t *o, int out, uint32_t i,
                                   tpkg_error *err) {
  uint64_t need;
  uint32_t rank = o[TPKG_FBO_RANK], layout = o[TPKG_FBO_LAYOUT], block = tpkg_rd32(o + TPKG_FBO_BLOCK);
  uint32_t off = tpkg_rd32(o + TPKG_FBO_OFFSET), size = tpkg_rd32(o + TPKG_FBO_SIZE);
  const tpkg_window *w = &v->window;
  if (!shape_ok(o + TPKG_FBO_DIMS, rank, TPKG_FB_MAX_RANK, o[TPKG_FBO_DTYPE], &need))
    return fail(err, TPKG_E_FALLBACK, "fallback operand dtype or shape", i, rank);
  if (o[TPKG_FBO_RESERVED]) return fail(err, TPKG_E_FALLBACK, "reserved fallback operand byte set", i, 0);
  if (!layout_ok(layout, rank) || (layout != TPKG_LAYOUT_PLAIN && !layout_aware(op)))
    return fail(err, TPKG_E_FALLBACK, "fallback operand layout (for its rank or its op)", i, layout);
  if ((layout == TPKG_LAYOUT_BLOCKED) != (block != 0))
    return fail(err, TPKG_E_FALLBACK, "fallback block set on a layout other than BLOCKED, or 0 on BLOCKED", i, block);
  if (size < need) return fail(err, TPKG_E_FALLBACK, "fallback operand size smaller than its shape", i, size);
  if (!range_ok(off, size, w->window_bytes))
    return fail(err, TPKG_E_FALLBACK, "fallback operand outside the DRAM window", i, off);
  if (off % tpkg_dtype_bytes(o[TPKG_FBO_DTYPE]))
    return fail(err, TPKG_E_FALLBACK, "fallback operand not aligned to its element size", i, off);
  /* Outputs land in the I/O or scratch region: never on the constants the
   * next inference reads again, nor on the counter records. */
  if (out && (overlaps(off, size, w->weights_offset, w->weights_bytes) || overlaps(off, size, w->marks_offset, w->marks_bytes)))
    return fail(err, TPKG_E_FALLBACK, "fallback output on the weights or the counter records", i, off);
  return TPKG_OK;
}

/* Walks the FALLBACK section: every record whole inside it, counts within
 * its op's (tfw_ops.def), its size the sum of its parts, operands valid,
 * outputs overlapping no input, records in execution order. Sets
 * v->n_fallbacks. */
static tpkg_err_code check_fallbacks(tpkg_view *v, tpkg_error *err) {
  uint32_t prev = 0, pos = 0, i = 0, total = v->sect_size[TPKG_SECT_FALLBACK];
  for (; pos < total; i++) {
    const uint8_t *r = sect(v, TPKG_SECT_FALLBACK) + pos;
    if (total - pos < TPKG_FB_HEADER_BYTES) return fail(err, TPKG_E_FALLBACK, "fallback record cut short", i, pos);
    uint32_t op = tpkg_rd32(r + TPKG_FB_OP), before = tpkg_rd32(r + TPKG_FB_BEFORE), bytes = tpkg_rd32(r + TPKG_FB_BYTES);
    uint32_t n_in = r[TPKG_FB_N_IN], n_out = r[TPKG_FB_N_OUT], n_ints = r[TPKG_FB_N_INTS], n_floats = r[TPKG_FB_N_FLOATS];
    const fb_op_counts *c = fb_op_of(op);
    if (!c) return fail(err, TPKG_E_FALLBACK, "unknown fallback op", i, op);
    if (!str_ok(v, tpkg_rd32(r + TPKG_FB_NAME))) return fail(err, TPKG_E_STRING, "fallback name offset", i, tpkg_rd32(r + TPKG_FB_NAME));
    if (before > v->n_kernels) return fail(err, TPKG_E_FALLBACK, "fallback runs before a kernel that does not exist", i, before);
    if (before < prev) return fail(err, TPKG_E_FALLBACK, "fallback records not in execution order", i, before);
    prev = before;
    if (n_in < c->min_in || n_in > c->max_in || n_out < c->min_out || n_out > c->max_out)
      return fail(err, TPKG_E_FALLBACK, "fallback operand count outside its op's range", i, n_in + n_out);
    if (n_ints > TPKG_FB_MAX_INTS || n_floats > TPKG_FB_MAX_FLOATS)
      return fail(err, TPKG_E_FALLBACK, "fallback parameter count too large", i, n_ints + n_floats);
    if (tpkg_rd16(r + TPKG_FB_AHEAD) > v->n_kernels - before || tpkg_rd16(r + TPKG_FB_BEHIND) > before)
      return fail(err, TPKG_E_FALLBACK, "fallback's beside counts pass the kernel records", i,
                  tpkg_rd16(r + TPKG_FB_AHEAD) > v->n_kernels - before ? tpkg_rd16(r + TPKG_FB_AHEAD)
                                                                       : tpkg_rd16(r + TPKG_FB_BEHIND));
    if (bytes != tpkg_fallback_bytes(n_in + n_out, n_ints, n_floats) || bytes > total - pos)
      return fail(err, TPKG_E_FALLBACK, "fallback record size differs from its counts or passes the section's end", i, bytes);
    for (uint32_t k = 0; k < n_in + n_out; k++) {
      tpkg_err_code e = check_operand(v, op, r + TPKG_FB_HEADER_BYTES + k * TPKG_FB_OPERAND_BYTES, k >= n_in, i, err);
      if (e) return e;
    }
    for (uint32_t a = n_in; a < n_in + n_out; a++) {
      const uint8_t *oa = r + TPKG_FB_HEADER_BYTES + a * TPKG_FB_OPERAND_BYTES;
      for (uint32_t b = 0; b < n_in + n_out; b++) {
        const uint8_t *ob = r + TPKG_FB_HEADER_BYTES + b * TPKG_FB_OPERAND_BYTES;
        if (b != a && overlaps(tpkg_rd32(oa + TPKG_FBO_OFFSET), tpkg_rd32(oa + TPKG_FBO_SIZE),
                               tpkg_rd32(ob + TPKG_FBO_OFFSET), tpkg_rd32(ob + TPKG_FBO_SIZE)))
          return fail(err, TPKG_E_FALLBACK, "fallback output overlaps another operand", i, b);
      }
    }
    /* The scale a (de)quantisation divides or multiplies by: a positive
     * finite f32, checked on its bits (no float arithmetic here). */
    if (op == TPKG_OP_QUANTIZE || op == TPKG_OP_DEQUANTIZE) {
      const uint8_t *q = r + TPKG_FB_HEADER_BYTES + (op == TPKG_OP_QUANTIZE ? 1u : 0u) * TPKG_FB_OPERAND_BYTES;
      uint32_t sc = tpkg_rd32(q + TPKG_FBO_SCALE);
      if (sc == 0 || sc >= 0x7F800000u) return fail(err, TPKG_E_FALLBACK, "fallback scale not a positive finite number", i, sc);
    }
    pos += bytes;
  }
  v->n_fallbacks = i;
  return TPKG_OK;
}

/* Whether some command of the package is a STORE to DRAM whose `dram`
 * offset, as the command carries it, lies in [off, off + size). */
static int stored_by_a_kernel(const tpkg_view *v, uint64_t off, uint64_t size) {
  for (uint32_t i = 0; i < v->n_cmds; i++) {
    uint32_t w[4];
    tsl_store_t c;
    tsl_cmd_from_bytes(tpkg_view_cmd(v, i), w);
    if (tsl_opcode(w) == TSL_OP_STORE && !tsl_store_decode(w, &c) && c.dst_mem == TSL_DST_DRAM &&
        (uint64_t)c.dram >= off && (uint64_t)c.dram - off < size)
      return 1;
  }
  return 0;
}

/* Every graph output is written by the run: a fallback record's output
 * overlaps its bytes, or a kernel's STORE to DRAM starts inside them. A
 * package that lost what produces an output (FALLBACK cut short, CRCs
 * recomputed) is refused, not run to return whatever the window held. From
 * the tables and each STORE's own offset only: the addresses a stream
 * reaches through loops and strides are the NPU dispatcher's to check. */
static tpkg_err_code check_outputs_written(const tpkg_view *v, tpkg_error *err) {
  for (uint32_t i = 0; i < v->n_io; i++) {
    const uint8_t *r = sect(v, TPKG_SECT_IO) + (uint64_t)i * TPKG_IO_BYTES;
    if (r[TPKG_IO_DIR] != TPKG_DIR_OUTPUT) continue;
    uint64_t off = tpkg_rd32(r + TPKG_IO_OFFSET), size = tpkg_rd32(r + TPKG_IO_SIZE);
    int written = 0;
    uint32_t pos = 0;
    for (uint32_t f = 0; f < v->n_fallbacks && !written; f++) {
      tpkg_fallback fb;
      tpkg_view_fallback_at(v, &pos, &fb);
      for (uint32_t k = fb.n_in; k < fb.n_in + fb.n_out && !written; k++) {
        tpkg_operand o;
        tpkg_fallback_operand(&fb, k, &o);
        written = overlaps(o.offset, o.size, off, size);
      }
    }
    if (!written && !stored_by_a_kernel(v, off, size))
      return fail(err, TPKG_E_IO, "graph output that no kernel and no fallback record writes", i, off);
  }
  return TPKG_OK;
}

/* One command of a kernel whose stream is [first, end): decodes it with the
 * generated decoders (opcode, reserved bits), keeps LOOP bodies inside the
 * kernel and the DRAM offsets the command names inside the window. Effective
 * addresses (loop offsets, strides) are the NPU dispatcher's check at run
 * time: it stops with DRAM_RANGE before touching anything outside. */
static tpkg_err_code check_cmd(const tpkg_view *v, uint32_t i, uint32_t end, tpkg_error *err) {
  uint32_t w[4];
  tsl_cmd_from_bytes(tpkg_view_cmd(v, i), w);
  uint64_t win = v->window.window_bytes;
  int rc;
  switch (tsl_opcode(w)) {
  case TSL_OP_NOP: { tsl_nop_t c; rc = tsl_nop_decode(w, &c); break; }
  case TSL_OP_LOOP: {
    tsl_loop_t c;
    rc = tsl_loop_decode(w, &c);
    if (!rc && (c.count < 1 || c.body < 1)) return fail(err, TPKG_E_CMD_FIELD, "LOOP with a zero count or body", i, 0);
    if (!rc && (uint64_t)i + (uint64_t)c.body >= end)
      return fail(err, TPKG_E_CMD_FIELD, "LOOP body leaves its kernel's stream", i, (uint64_t)c.body);
    break;
  }
  case TSL_OP_MARK: {
    tsl_mark_t c;
    rc = tsl_mark_decode(w, &c);
    if (!rc && c.record && !range_ok((uint64_t)c.dram, TSL_MARK_RECORD_BYTES, win))
      return fail(err, TPKG_E_CMD_DRAM, "MARK record outside the DRAM window", i, (uint64_t)c.dram);
    break;
  }
  case TSL_OP_LSTRIDE: { tsl_lstride_t c; rc = tsl_lstride_decode(w, &c); break; }
  case TSL_OP_CFG_LOAD: { tsl_cfg_load_t c; rc = tsl_cfg_load_decode(w, &c); break; }
  case TSL_OP_LOAD: {
    tsl_load_t c;
    rc = tsl_load_decode(w, &c);
    if (!rc && (uint64_t)c.dram >= win) return fail(err, TPKG_E_CMD_DRAM, "LOAD from outside the DRAM window", i, (uint64_t)c.dram);
    break;
  }
  case TSL_OP_CFG_EXEC: { tsl_cfg_exec_t c; rc = tsl_cfg_exec_decode(w, &c); break; }
  case TSL_OP_MATMUL: { tsl_matmul_t c; rc = tsl_matmul_decode(w, &c); break; }
  case TSL_OP_DWCONV: { tsl_dwconv_t c; rc = tsl_dwconv_decode(w, &c); break; }
  case TSL_OP_CFG_VEC: { tsl_cfg_vec_t c; rc = tsl_cfg_vec_decode(w, &c); break; }
  case TSL_OP_VADD: { tsl_vadd_t c; rc = tsl_vadd_decode(w, &c); break; }
  case TSL_OP_VPOOL: { tsl_vpool_t c; rc = tsl_vpool_decode(w, &c); break; }
  case TSL_OP_ENOP: { tsl_enop_t c; rc = tsl_enop_decode(w, &c); break; }
  case TSL_OP_CFG_STORE: { tsl_cfg_store_t c; rc = tsl_cfg_store_decode(w, &c); break; }
  case TSL_OP_CFG_EPI: { tsl_cfg_epi_t c; rc = tsl_cfg_epi_decode(w, &c); break; }
  case TSL_OP_STORE: {
    tsl_store_t c;
    rc = tsl_store_decode(w, &c);
    if (!rc && c.dst_mem == TSL_DST_DRAM && (uint64_t)c.dram >= win)
      return fail(err, TPKG_E_CMD_DRAM, "STORE to outside the DRAM window", i, (uint64_t)c.dram);
    break;
  }
  default: return fail(err, TPKG_E_CMD_OPCODE, "command with an unknown opcode", i, tsl_opcode(w));
  }
  if (rc) return fail(err, TPKG_E_CMD_FIELD, "command with reserved bits set", i, tsl_opcode(w));
  return TPKG_OK;
}

/* Command i decoded as a MARK: 1, else 0. */
static int mark_at(const tpkg_view *v, uint32_t i, tsl_mark_t *c) {
  uint32_t w[4];
  tsl_cmd_from_bytes(tpkg_view_cmd(v, i), w);
  return tsl_opcode(w) == TSL_OP_MARK && tsl_mark_decode(w, c) == 0;
}

static tpkg_err_code check_kernels(tpkg_view *v, tpkg_error *err) {
  for (uint32_t n = 0; n < v->n_nodes; n++) {
    uint32_t off = tpkg_rd32(sect(v, TPKG_SECT_NODES) + 4ull * n);
    if (!str_ok(v, off)) return fail(err, TPKG_E_STRING, "ONNX node name offset", n, off);
  }
  uint64_t next_cmd = 0;
  for (uint32_t k = 0; k < v->n_kernels; k++) {
    const uint8_t *r = sect(v, TPKG_SECT_KERNELS) + (uint64_t)k * TPKG_KERNEL_BYTES;
    uint64_t nf = tpkg_rd32(r + TPKG_K_NODE_FIRST), nc = tpkg_rd32(r + TPKG_K_NODE_COUNT);
    uint64_t cf = tpkg_rd32(r + TPKG_K_CMD_FIRST), cc = tpkg_rd32(r + TPKG_K_CMD_COUNT);
    if (!str_ok(v, tpkg_rd32(r + TPKG_K_NAME))) return fail(err, TPKG_E_STRING, "kernel name offset", k, tpkg_rd32(r));
    if (nf + nc > v->n_nodes) return fail(err, TPKG_E_KERNEL, "kernel's ONNX node list outside the node table", k, nf);
    if (cf != next_cmd) return fail(err, TPKG_E_KERNEL, "kernel streams not back to back in execution order", k, cf);
    if (cf + cc > v->n_cmds) return fail(err, TPKG_E_KERNEL, "kernel stream outside the streams section", k, cf + cc);
    for (uint64_t i = cf; i < cf + cc; i++) {
      tpkg_err_code c = check_cmd(v, (uint32_t)i, (uint32_t)(cf + cc), err);
      if (c) return c;
    }
    next_cmd = cf + cc;
  }
  if (next_cmd != v->n_cmds) return fail(err, TPKG_E_KERNEL, "commands that belong to no kernel", -1, next_cmd);
  /* A marks region of exactly one record per kernel record: every stream is
   * framed (rule 73), so records may run back to back in one NPU run and
   * their counters are read from the records. */
  const tpkg_window *w = &v->window;
  v->counter_records = v->n_kernels && w->marks_bytes == (uint64_t)v->n_kernels * TSL_MARK_RECORD_BYTES;
  for (uint32_t k = 0; v->counter_records && k < v->n_kernels; k++) {
    const uint8_t *r = sect(v, TPKG_SECT_KERNELS) + (uint64_t)k * TPKG_KERNEL_BYTES;
    uint32_t cf = tpkg_rd32(r + TPKG_K_CMD_FIRST), cc = tpkg_rd32(r + TPKG_K_CMD_COUNT);
    tsl_mark_t head, end;
    if (cc < 2 || !mark_at(v, cf, &head) || !head.reset)
      return fail(err, TPKG_E_KERNEL, "kernel stream does not start with a MARK reset (the package has counter "
                  "records)", k, cc);
    if (!mark_at(v, cf + cc - 1, &end) || !end.record ||
        (uint64_t)end.dram != w->marks_offset + (uint64_t)k * TSL_MARK_RECORD_BYTES)
      return fail(err, TPKG_E_KERNEL, "kernel stream does not end with its counter record (a MARK record into "
                  "its slot of the marks region)", k, cc);
  }
  return TPKG_OK;
}

tpkg_err_code tpkg_check(const uint8_t *buf, size_t len, uint32_t expected_hash, unsigned flags, tpkg_view *out,
                         tpkg_error *err) {
  tpkg_view v = {0};
  tpkg_err_code c;
  if (err) {
    err->code = TPKG_OK;
    err->msg = "ok";
    err->index = -1;
    err->value = 0;
  }
  if (!buf) return fail(err, TPKG_E_TRUNCATED, "no buffer", -1, 0);
  /* 1. Header, 2. section table and CRCs, 3. contents. */
  if ((c = check_header(buf, len, expected_hash, flags, &v, err))) return c;
  if ((c = check_table(&v, flags, err))) return c;
  if (v.sect_size[TPKG_SECT_STRINGS] && sect(&v, TPKG_SECT_STRINGS)[v.sect_size[TPKG_SECT_STRINGS] - 1] != 0)
    return fail(err, TPKG_E_STRING, "strings section does not end with a NUL", -1, 0);
  if ((c = check_window(&v, err))) return c;
  if ((c = check_kernels(&v, err))) return c;
  if ((c = check_io(&v, err))) return c;
  if ((c = check_fallbacks(&v, err))) return c;
  if ((c = check_outputs_written(&v, err))) return c;
  if (out) *out = v;
  return TPKG_OK;
}

tpkg_err_code tpkg_check_weights(const tpkg_view *v, tpkg_error *err) {
  uint32_t crc = crc32(v->weights, v->weights_bytes);
  if (crc != v->sect_crc[TPKG_SECT_WEIGHTS]) return fail(err, TPKG_E_WEIGHTS_CRC, "section CRC mismatch", TPKG_SECT_WEIGHTS, crc);
  return TPKG_OK;
}

/* ---- accessors ---- */

void tpkg_view_kernel(const tpkg_view *v, uint32_t i, tpkg_kernel_view *k) {
  const uint8_t *r = sect(v, TPKG_SECT_KERNELS) + (uint64_t)i * TPKG_KERNEL_BYTES;
  k->name = str_at(v, tpkg_rd32(r + TPKG_K_NAME));
  k->node_first = tpkg_rd32(r + TPKG_K_NODE_FIRST);
  k->node_count = tpkg_rd32(r + TPKG_K_NODE_COUNT);
  k->cmd_first = tpkg_rd32(r + TPKG_K_CMD_FIRST);
  k->cmd_count = tpkg_rd32(r + TPKG_K_CMD_COUNT);
  k->mark_id = tpkg_rd32(r + TPKG_K_MARK_ID);
  k->estimate_cycles = tpkg_rd64(r + TPKG_K_EST_CYCLES);
  k->useful_macs = tpkg_rd64(r + TPKG_K_USEFUL_MACS);
  k->compulsory_dram_bytes = tpkg_rd64(r + TPKG_K_COMPULSORY);
}

static void rd_dims(const uint8_t *p, uint32_t *dims) {
  for (unsigned i = 0; i < TPKG_MAX_RANK; i++) dims[i] = tpkg_rd32(p + 4 * i);
}

void tpkg_view_io(const tpkg_view *v, uint32_t i, tpkg_io *io) {
  const uint8_t *r = sect(v, TPKG_SECT_IO) + (uint64_t)i * TPKG_IO_BYTES;
  io->name = str_at(v, tpkg_rd32(r + TPKG_IO_NAME));
  io->dir = r[TPKG_IO_DIR];
  io->dtype = r[TPKG_IO_DTYPE];
  io->layout = r[TPKG_IO_LAYOUT];
  io->rank = r[TPKG_IO_RANK];
  rd_dims(r + TPKG_IO_DIMS, io->dims);
  io->scale = f32_from_bits(tpkg_rd32(r + TPKG_IO_SCALE));
  io->zero_point = (int32_t)tpkg_rd32(r + TPKG_IO_ZP);
  io->offset = tpkg_rd32(r + TPKG_IO_OFFSET);
  io->size = tpkg_rd32(r + TPKG_IO_SIZE);
  io->block = tpkg_rd32(r + TPKG_IO_BLOCK);
}

void tpkg_view_fallback_at(const tpkg_view *v, uint32_t *pos, tpkg_fallback *f) {
  const uint8_t *r = sect(v, TPKG_SECT_FALLBACK) + *pos;
  f->op = tpkg_rd32(r + TPKG_FB_OP);
  f->name = str_at(v, tpkg_rd32(r + TPKG_FB_NAME));
  f->before_kernel = tpkg_rd32(r + TPKG_FB_BEFORE);
  f->ahead = tpkg_rd16(r + TPKG_FB_AHEAD), f->behind = tpkg_rd16(r + TPKG_FB_BEHIND);
  f->n_in = r[TPKG_FB_N_IN], f->n_out = r[TPKG_FB_N_OUT];
  f->n_ints = r[TPKG_FB_N_INTS], f->n_floats = r[TPKG_FB_N_FLOATS];
  f->rec = r;
  f->bytes = tpkg_rd32(r + TPKG_FB_BYTES);
  *pos += f->bytes;
}

void tpkg_view_fallback(const tpkg_view *v, uint32_t i, tpkg_fallback *f) {
  uint32_t pos = 0;
  for (uint32_t k = 0; k <= i; k++) tpkg_view_fallback_at(v, &pos, f);
}

void tpkg_fallback_operand(const tpkg_fallback *f, uint32_t i, tpkg_operand *o) {
  const uint8_t *r = f->rec + TPKG_FB_HEADER_BYTES + i * TPKG_FB_OPERAND_BYTES;
  o->dtype = r[TPKG_FBO_DTYPE], o->layout = r[TPKG_FBO_LAYOUT], o->rank = r[TPKG_FBO_RANK];
  o->offset = tpkg_rd32(r + TPKG_FBO_OFFSET), o->size = tpkg_rd32(r + TPKG_FBO_SIZE);
  for (unsigned k = 0; k < TPKG_FB_MAX_RANK; k++) o->dims[k] = tpkg_rd32(r + TPKG_FBO_DIMS + 4 * k);
  o->scale = f32_from_bits(tpkg_rd32(r + TPKG_FBO_SCALE));
  o->zp = (int32_t)tpkg_rd32(r + TPKG_FBO_ZP);
  o->block = tpkg_rd32(r + TPKG_FBO_BLOCK);
}

static const uint8_t *fb_params(const tpkg_fallback *f) {
  return f->rec + TPKG_FB_HEADER_BYTES + (f->n_in + f->n_out) * TPKG_FB_OPERAND_BYTES;
}
int32_t tpkg_fallback_int(const tpkg_fallback *f, uint32_t i) { return (int32_t)tpkg_rd32(fb_params(f) + 4 * i); }
float tpkg_fallback_float(const tpkg_fallback *f, uint32_t i) {
  return f32_from_bits(tpkg_rd32(fb_params(f) + 4 * (f->n_ints + i)));
}

const char *tpkg_view_node(const tpkg_view *v, uint32_t i) {
  return str_at(v, tpkg_rd32(sect(v, TPKG_SECT_NODES) + 4ull * i));
}

const uint8_t *tpkg_view_cmd(const tpkg_view *v, uint32_t i) {
  return sect(v, TPKG_SECT_STREAMS) + (uint64_t)i * TSL_CMD_BYTES;
}
