// tb_target.h: the target a bench is built for, from its generated header
// (build/gen/<target>/tessel_target.h), so a bench runs at a target that is
// not in the run-time table (tessel_targets.c lists npu4, npu8, npu16; npu2,
// the iCE40UP5K's, is not).
#ifndef NPU_TB_TARGET_H
#define NPU_TB_TARGET_H

extern "C" {
#include "tessel_target.h"
#include "tessel_targets.h"
}

static const tsl_target_t *tb_target() {
  static tsl_target_t t;
  t.name = TSL_TARGET_NAME;
  t.hash = TSL_TARGET_HASH;
  t.dim = TSL_DIM;
  t.spad_rows = TSL_SPAD_ROWS;
  t.spad_banks = TSL_SPAD_BANKS;
  t.acc_rows = TSL_ACC_ROWS;
  t.acc_banks = TSL_ACC_BANKS;
  t.param_rows = TSL_PARAM_ROWS;
  t.cmd_sram_bytes = TSL_CMD_SRAM_BYTES;
  t.queue_depth = TSL_QUEUE_DEPTH;
  t.token_max = TSL_TOKEN_MAX;
  t.loop_depth = TSL_LOOP_DEPTH;
  t.dram_bytes_per_cycle = TSL_DRAM_BYTES_PER_CYCLE;
  t.dram_latency = TSL_DRAM_LATENCY;
  t.dram_max_inflight = TSL_DRAM_MAX_INFLIGHT;
  t.dram_burst_bytes = TSL_DRAM_BURST_BYTES;
  t.preload_rows_per_cycle = TSL_PRELOAD_ROWS_PER_CYCLE;
  t.dw_macs_per_cycle = TSL_DW_MACS_PER_CYCLE;
  t.dw_cache_taps = TSL_DW_CACHE_TAPS;
  t.vec_rows_per_cycle = TSL_VEC_ROWS_PER_CYCLE;
  t.clock_mhz = TSL_CLOCK_MHZ;
  t.counter_bits = TSL_COUNTER_BITS;
  return &t;
}

#endif
