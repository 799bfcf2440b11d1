/* tfw_fallback: the fallback ops the control core runs between NPU kernels
 * (package FALLBACK records): the layout-aware QuantizeLinear,
 * DequantizeLinear and Relayout, the dispatch of every other op to
 * tfw_ops.h's kernels, and the scalar pieces they are made of.
 *
 * One source for every engine: the firmware (rv32im, soft-float libgcc),
 * the host C model (`tessel run --engine model`) and the compiler's
 * reference executor (compiler/ref/ref_ops.c) all compile this file, so they
 * agree bit for bit. For that the arithmetic is restricted to what IEEE-754
 * defines exactly and both machines implement the same way:
 *   - only f32 +, -, *, / and comparisons, integer ops, and int <-> f32
 *     conversions; no double, no libm, no fma (exp, the quantise division
 *     and the dequantise product are integer fixed point: exact everywhere,
 *     and much cheaper than soft-float on the RV32 core);
 *   - build with -ffp-contract=off on both sides (a fused multiply-add
 *     would round once where the other machine rounds twice);
 *   - the default rounding mode (round to nearest, ties to even).
 * x86-64 (SSE) and rv32 soft-float then give the same bits.
 *
 * Freestanding: <stdint.h> and <stddef.h> only; no malloc, stdio or string.h.
 * The DRAM window is read and written little-endian, with a word access
 * where the address is 4-byte aligned (one trip through the SoC's memory
 * port instead of four) and byte accesses elsewhere, so it needs no
 * alignment.
 *
 * docs/firmware.md, section "Fallback ops", describes what each op computes. */
#ifndef TESSEL_TFW_FALLBACK_H
#define TESSEL_TFW_FALLBACK_H

#include <stddef.h>
#include <stdint.h>

#include "tfw_math.h" /* tfw_expf */
#include "tpkg_format.h"

/* Return codes of tfw_fallback_run: 0 or one of these. */
enum {
  TFW_FB_OK = 0,
  TFW_FB_E_ARG = -1,    /* NULL record or window, or DIM 0 with a BLOCKED layout */
  TFW_FB_E_OP = -2,     /* op number unknown */
  TFW_FB_E_DTYPE = -3,  /* dtype pair the op does not support */
  TFW_FB_E_LAYOUT = -4, /* layout unknown, or NHWC/BLOCKED on a rank other than 4 */
  TFW_FB_E_SHAPE = -5,  /* rank > 8, operand counts, dims the op does not accept, axis out of range */
  TFW_FB_E_PARAM = -6,  /* scale zero, negative, infinite or NaN; parameter count or value */
  TFW_FB_E_WINDOW = -7, /* a tensor's bytes exceed its size field or the window */
  TFW_FB_E_OVERLAP = -8, /* an output overlaps another operand */
  TFW_FB_E_INDEX = -9,  /* a Gather index outside its axis */
  TFW_FB_E_NCODES = 10,
};

/* Element offset (in elements, not bytes) of logical element `flat`
 * (row-major index in the model's dimension order, e.g. NCHW) in a tensor of
 * `rank` dims stored in `layout`:
 *   TPKG_LAYOUT_PLAIN    flat itself;
 *   TPKG_LAYOUT_NHWC     rank 4, channels last;
 *   TPKG_LAYOUT_BLOCKED  rank 4, [N][ceil(C/dim)][H][W][dim], channels padded to dim.
 * NHWC/BLOCKED on another rank, an unknown layout, or BLOCKED with dim 0
 * fall back to PLAIN (tfw_fallback_run rejects those records first). */
uint64_t tfw_layout_offset(uint32_t layout, uint32_t rank, const uint32_t *dims, uint32_t dim, uint64_t flat);

/* Number of element slots the layout occupies (BLOCKED counts the padding
 * lanes), the product of the dims otherwise. Saturates at 2^62. */
uint64_t tfw_layout_slots(uint32_t layout, uint32_t rank, const uint32_t *dims, uint32_t dim);

/* Whether operand o's block fits an NPU of this dim: 1 for a layout other
 * than BLOCKED; BLOCKED: the block is dim, or one block below dim that holds
 * all C channels of a rank-4 tensor (a conv's packed input, docs/lowering.md). */
int tfw_fb_block_ok(const tpkg_operand *o, uint32_t dim);

/* ONNX QuantizeLinear of one value: q = x / scale in f32, rounded half to
 * even, + zp, saturated to [lo, hi]. +-inf saturate to hi/lo. NaN gives zp
 * (clamped to [lo, hi]): ONNX leaves it undefined and a NaN must not turn
 * into an arbitrary code. scale is assumed finite and non-zero (the caller
 * checks; tfw_fallback_run does). */
int32_t tfw_quantize(float x, float scale, int32_t zp, int32_t lo, int32_t hi);

/* A converter that runs QuantizeLinear, DequantizeLinear and 8-bit
 * relayouts of a tensor at DMA speed (the SoC's CVT unit,
 * docs/memory-map.md; the firmware's tfw_cvt.c drives it). A job is a 2-D
 * loop: element (j, i), j < outer, i < inner, is read at src +
 * j*src_outer + i*src_inner and written at dst + j*dst_outer +
 * i*dst_inner (byte strides); quantising and copying, elements i >=
 * inner_real read nothing and write zp (quantising: clamped to the codes'
 * range; copying: its low byte). The results must be tfw_quantize's and
 * tfw_dequantize's bit for bit. */
enum { TFW_CVT_QUANTISE = 1, TFW_CVT_DEQUANTISE = 2, TFW_CVT_COPY8 = 3 }; /* the unit's OP codes */
typedef struct {
  int op;              /* TFW_CVT_*: f32 -> 8-bit code, 8-bit code -> f32, 8-bit copy */
  int u8;              /* the codes are uint8, else int8 (copies: unused) */
  const uint8_t *src;
  uint8_t *dst;
  uint32_t inner, inner_real, outer;
  int32_t src_inner, src_outer, dst_inner, dst_outer;
  float scale;         /* positive, finite (copies: unused) */
  int32_t zp;
} tfw_cvt_job;

/* The converter's entry: 0 when it did the job; anything else leaves the job
 * to the core's own loop (a scale or shape the converter does not take, or
 * no converter). */
typedef int (*tfw_cvt_fn)(const tfw_cvt_job *job);

/* Sets the converter the fallback ops offer their conversions to (NULL: none,
 * the default: every engine but the SoC's firmware converts on its own). */
void tfw_set_cvt(tfw_cvt_fn fn);

/* floor(2^55 / m) for the 24-bit mantissa m (hidden bit included) of a
 * normal scale, 0 when m = 2^23 (a power of two): the reciprocal through
 * which tfw_quantize divides by the scale, and the CVT unit's RECIP. */
uint32_t tfw_quantize_recip(float scale);

/* ONNX DequantizeLinear of one value: (float)(q - zp) * scale in f32 (the
 * difference taken exactly in 64 bits, then one rounding to f32, then one
 * rounding of the product). */
float tfw_dequantize(int32_t q, float scale, int32_t zp);

/* Softmax of len values x[0], x[stride], ... into y (same stride; y may be
 * x): m = max (NaN skipped), e_k = tfw_expf(x_k - m), s = sum of e_k in f32
 * in index order with compensation (Kahan), y_k = e_k / s. A NaN input, or
 * +inf (inf - inf), makes the row NaN. len 0 does nothing. This is the
 * arithmetic tfw_fallback_run uses, step for step. */
void tfw_softmax_f32(const float *x, float *y, uint64_t len, uint64_t stride);

/* Runs one fallback record (package format v2) over the NPU's DRAM window
 * (window_bytes bytes at window): tfw_fallback_prepare into a buffer on the
 * stack (about 3.3 KiB on the RV32 core), then tfw_fallback_run_prepared.
 * Records come from tpkg_check, which already bounds-checked them; this
 * checks again (cheaply: sizes and offsets, in 64 bits) and returns an error
 * instead of touching a byte outside [window, window + window_bytes).
 * dim = the target's DIM: every BLOCKED operand's block must equal it.
 *   TPKG_OP_QUANTIZE    f32 -> u8/i8, per tensor: the output operand's scale, zp
 *   TPKG_OP_DEQUANTIZE  u8/i8/i32 -> f32, per tensor: the input operand's scale, zp
 *   TPKG_OP_RELAYOUT    same dtype, in layout -> out layout; padding lanes of
 *                       a BLOCKED output hold its zp for i8/u8 (its low byte), 0 otherwise
 * These three map input and output each through its own dims and layout
 * (tfw_layout_offset), which must hold the same number of elements. Every
 * other op (shared/tfw_ops.def) takes plain operands and runs its tfw_ops.h
 * kernel. No output may overlap another operand (TFW_FB_E_OVERLAP).
 * Returns 0 or a TFW_FB_E_* code; on an error nothing has been written. */
int tfw_fallback_run(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, uint32_t dim);

/* A record decoded and checked once, run many times. Every check
 * tfw_fallback_run makes before the op's kernel depends only on the record,
 * the window's address and size and dim, none on the window's bytes: the
 * op is known (and linked), operand and parameter counts, dtypes, layouts,
 * blocks, every operand inside the window, no output overlapping another
 * operand, the scales. tfw_fallback_prepare makes them all, in
 * tfw_fallback_run's order, and when they pass and its prepared form fits
 * room bytes at out (8-byte aligned) writes it there: the operands as
 * pointers into the window, the parameters, the op's kernel, the quantise
 * reciprocal. Without room (out NULL or too small) it checks on a scratch
 * buffer of its own on the stack (about 3.3 KiB on the RV32 core) and writes
 * nothing. Returns 0 or the code tfw_fallback_run would give; *bytes
 * (bytes may be NULL) = the prepared form's size, a multiple of 8 (when it
 * returns 0: the room a later call needs). Reads the record, never the
 * window; the prepared form points into the window, which must stay where
 * it is, and not into the record, which may go away. */
int tfw_fallback_prepare(const tpkg_fallback *f, uint8_t *window, uint32_t window_bytes, uint32_t dim, void *out,
                         uint32_t room, uint32_t *bytes);

/* Runs a record tfw_fallback_prepare prepared (at prepared): the op's work
 * and the checks of its own kernel that follow the generic ones (shapes
 * against the parameters, their values, data-dependent ones such as a
 * Gather index: tfw_ops.h). The same bytes and code as tfw_fallback_run of
 * the record; no read of the record. */
int tfw_fallback_run_prepared(const void *prepared);

/* "ok", "unknown fallback op", ...; "unknown fallback error" for other codes. */
const char *tfw_fallback_strerror(int code);

#endif
