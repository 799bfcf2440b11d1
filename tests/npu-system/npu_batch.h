/* npu_batch.h: the batch file the NPU system tests hand to the test firmware
 * (tests/npu-system/firmware/npu_run.c) through `tessel-sim --load 0x80000000=FILE`,
 * and the line format the firmware prints per case, which the host side
 * writes too so the runner compares text. Shared by host and firmware;
 * little-endian, all offsets from the batch's start (docs/npu-system.md).
 *
 *   header   npu_batch_hdr_t
 *   cases    ncases x npu_batch_case_t
 *   data     streams (16-byte aligned) and DRAM windows (64-byte aligned)
 */
#ifndef NPU_BATCH_H
#define NPU_BATCH_H

#include <stdint.h>

#define NPU_BATCH_MAGIC 0x4250534Eu /* "NSPB" */
#define NPU_BATCH_VERSION 1u
#define NPU_BATCH_BUS_ADDR 0x80000000u /* where the firmware expects it */
#define NPU_BATCH_MAX_CASES 4096u

typedef struct {
  uint32_t magic;       /* NPU_BATCH_MAGIC */
  uint32_t version;     /* NPU_BATCH_VERSION */
  uint32_t ncases;      /* entries after the header */
  uint32_t target_hash; /* TSL_TARGET_HASH the batch was generated for */
  uint32_t total_bytes; /* size of the whole batch */
  uint32_t reserved[3];
} npu_batch_hdr_t;

typedef struct {
  uint32_t stream_off;  /* offset of the stream (16-byte commands) */
  uint32_t ncmds;       /* commands */
  uint32_t window_off;  /* offset of the DRAM window (8-byte aligned) */
  uint32_t window_size; /* bytes */
  uint32_t timeout;     /* watchdog in core cycles, 0 = driver default */
  uint32_t reserved[3];
} npu_batch_case_t;

/* Counters the differential tests compare: exact in the ISA (bytes, MACs,
 * commands); the cycle counters are timing and differ by design. */
#define NPU_BATCH_NCMP 10
#define NPU_BATCH_CMP_COUNTERS                                                                  \
  { TSL_CNT_MACS,          TSL_CNT_SPAD_RD_BYTES, TSL_CNT_SPAD_WR_BYTES, TSL_CNT_ACC_RD_BYTES,  \
    TSL_CNT_ACC_WR_BYTES,  TSL_CNT_DRAM_RD_BYTES, TSL_CNT_DRAM_WR_BYTES, TSL_CNT_LOAD_CMDS,     \
    TSL_CNT_EXEC_CMDS,     TSL_CNT_STORE_CMDS }

/* CRC-32 (IEEE, reflected, as zlib) of the window after the run, so a case's
 * whole output is one number on the UART. Bitwise: small and shared. */
static inline uint32_t npu_batch_crc32(uint32_t crc, const volatile uint8_t *p, uint32_t n) {
  crc = ~crc;
  for (uint32_t i = 0; i < n; i++) {
    crc ^= p[i];
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/* The same CRC, a byte per step through a 256-entry table (built once with
 * npu_batch_crc32_table), reading aligned 32-bit words where it can: the
 * firmware's version, 8x fewer steps and 4x fewer DRAM loads than bitwise. */
static inline void npu_batch_crc32_table(uint32_t table[256]) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    table[i] = c;
  }
}
static inline uint32_t npu_batch_crc32_fast(const uint32_t table[256], uint32_t crc, const volatile uint8_t *p,
                                            uint32_t n) {
  crc = ~crc;
  uint32_t i = 0;
  for (; i < n && ((uintptr_t)(p + i) & 3u); i++) crc = (crc >> 8) ^ table[(crc ^ p[i]) & 0xFFu];
  for (; i + 4 <= n; i += 4) {
    uint32_t w = *(const volatile uint32_t *)(p + i); /* little-endian */
    for (int k = 0; k < 4; k++, w >>= 8) crc = (crc >> 8) ^ table[(crc ^ w) & 0xFFu];
  }
  for (; i < n; i++) crc = (crc >> 8) ^ table[(crc ^ p[i]) & 0xFFu];
  return ~crc;
}

#endif
