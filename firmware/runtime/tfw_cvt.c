/* tfw_cvt.c: the runtime's driver of the SoC's float/int8 converter
 * (docs/memory-map.md, region CVT): the fallback ops' QuantizeLinear,
 * DequantizeLinear and 8-bit relayout jobs (shared/tfw_fallback.h,
 * tfw_cvt_job) run on it at DMA speed instead of on the core.
 *
 * The unit is exact where its arithmetic is (scales 2^-100 .. 2^100,
 * f32 elements 4-aligned, tensors in DRAM, zero points of the codes'
 * type); anything else the driver declines and the core converts, with
 * the same bits. A SoC without the unit answers its window with a bus
 * error: tfw_cvt_init probes it and registers the driver only when the
 * unit is there. */
#include "dcache.h"
#include "mmio.h"
#include "tessel_memmap.h"
#include "tfw_fallback.h"
#include "tfw_math.h"
#include "trap.h"

#define CVT_ID_VALUE 0x54564354u /* the bytes "TCVT" (memmap.def) */

/* The scale whose RECIP was last computed (a 64-bit division), and it. */
static uint32_t last_scale = 0xffffffffu, last_recip;

/* 1 when the job's bytes are where the unit reaches them: DRAM. */
static int in_dram(const uint8_t *p) { return (uint32_t)(uintptr_t)p >= TSL_MEM_DRAM_BASE; }

static int cvt_run(const tfw_cvt_job *j) {
  uint32_t sb = tfw_f32_bits(j->scale), e = (sb >> 23) & 0xffu;
  /* 1. what the unit takes: the scale's domain and the zero point's range
   * (conversions; a copy writes the zero point's low byte), the loop sizes,
   * f32 elements on word boundaries, DRAM */
  int convert = j->op == TFW_CVT_QUANTISE || j->op == TFW_CVT_DEQUANTISE;
  if (!convert && j->op != TFW_CVT_COPY8) return -1;
  if (convert && ((sb >> 31) || e < 27 || e > 227)) return -1;
  if (convert && (j->u8 ? (j->zp < 0 || j->zp > 255) : (j->zp < -128 || j->zp > 127))) return -1;
  if (j->inner > 0xffffu || j->outer > 0xffffffu || j->inner_real > j->inner) return -1;
  uint32_t f32_side = j->op == TFW_CVT_QUANTISE ? (uint32_t)(uintptr_t)j->src | (uint32_t)j->src_inner | (uint32_t)j->src_outer
                     : j->op == TFW_CVT_DEQUANTISE ? (uint32_t)(uintptr_t)j->dst | (uint32_t)j->dst_inner | (uint32_t)j->dst_outer
                     : 0u;
  if ((f32_side & 3u) || !in_dram(j->src) || !in_dram(j->dst)) return -1;
  /* 2. the job's registers, then start it and wait */
  mmio_write32(TSL_CVT_SRC, (uint32_t)(uintptr_t)j->src);
  mmio_write32(TSL_CVT_DST, (uint32_t)(uintptr_t)j->dst);
  mmio_write32(TSL_CVT_INNER, j->inner);
  mmio_write32(TSL_CVT_INNER_REAL, j->inner_real);
  mmio_write32(TSL_CVT_OUTER, j->outer);
  mmio_write32(TSL_CVT_SRC_INNER, (uint32_t)j->src_inner);
  mmio_write32(TSL_CVT_SRC_OUTER, (uint32_t)j->src_outer);
  mmio_write32(TSL_CVT_DST_INNER, (uint32_t)j->dst_inner);
  mmio_write32(TSL_CVT_DST_OUTER, (uint32_t)j->dst_outer);
  if (convert) {
    if (sb != last_scale) last_scale = sb, last_recip = tfw_quantize_recip(j->scale);
    mmio_write32(TSL_CVT_SCALE, sb);
    mmio_write32(TSL_CVT_RECIP, last_recip);
  }
  mmio_write32(TSL_CVT_ZP, (uint32_t)j->zp);
  mmio_write32(TSL_CVT_CTRL, (uint32_t)j->op | (j->u8 ? TSL_CVT_CTRL_U8 : 0u));
  uint32_t st;
  while ((st = mmio_read32(TSL_CVT_CTRL)) & TSL_CVT_CTRL_BUSY) {
  }
  /* every write of the job is answered (BUSY drops only then): the data
   * cache forgets the destination's old bytes */
  dcache_invalidate();
  /* 3. a bus error: the core redoes the job and meets the fault itself */
  return (st & TSL_CVT_CTRL_ERR) ? -1 : 0;
}

int tfw_cvt_init(void) {
  uint32_t id;
  int present = trap_probe_read32(TSL_CVT_ID, &id) == 0 && id == CVT_ID_VALUE;
  dcache_invalidate(); /* probes the data cache now, not after the first job */
  tfw_set_cvt(present ? cvt_run : NULL);
  return present;
}
