/* tfw_mailbox.h: how `tessel run --engine rtl` hands a package and its
 * inputs to the runner firmware (tessel-fw.elf) on tessel-sim, and gets the
 * outputs, counters and status back (docs/runtime.md, "The runner").
 *
 * The host writes a DRAM image and loads it at TFW_MAILBOX_ADDR with
 * `tessel-sim --load`; the firmware reads the request fields, runs, writes
 * the result fields and exits; the host reads them back with `--dump`.
 * Every field is a little-endian u32 at the byte offset below (u64 where
 * said); every address is a bus address inside DRAM. Shared by the firmware
 * and the host: the one definition of the layout. */
#ifndef TFW_MAILBOX_H
#define TFW_MAILBOX_H

#include "tessel_memmap.h"

#define TFW_MAILBOX_ADDR TSL_MEM_DRAM_BASE /* start of DRAM (tessel_memmap.h) */
#define TFW_MAILBOX_MAGIC 0x4E555254u /* "TRUN" */
#define TFW_MAILBOX_VERSION 3u /* 3: the timeline after the statistics */
#define TFW_MAILBOX_BYTES 256u
#define TFW_MAILBOX_MSG_BYTES 128u

enum {
  /* request, written by the host */
  TFW_MB_MAGIC = 0,        /* TFW_MAILBOX_MAGIC */
  TFW_MB_VERSION = 4,      /* TFW_MAILBOX_VERSION */
  TFW_MB_FLAGS = 8,        /* TFW_LOAD_* flags for tfw_load */
  TFW_MB_PKG = 12,         /* package address */
  TFW_MB_PKG_BYTES = 16,   /* its size */
  TFW_MB_WINDOW = 20,      /* NPU DRAM window (8-byte aligned) */
  TFW_MB_WINDOW_BYTES = 24,/* memory reserved for it */
  TFW_MB_RUNS = 28,        /* inferences to run */
  TFW_MB_IN = 32,          /* inputs of run r at IN + r * IN_STRIDE: every graph input's */
  TFW_MB_IN_STRIDE = 36,   /*   IO size bytes back to back, in IO order, 8-byte aligned each */
  TFW_MB_OUT = 40,         /* outputs of run r at OUT + r * OUT_STRIDE, the same way */
  TFW_MB_OUT_STRIDE = 44,
  TFW_MB_STATS = 48,       /* per kernel record a tfw_kernel_stats (TSL_NCOUNTERS u64 counters, u64 start */
  TFW_MB_STATS_BYTES = 52, /*   and end cycle), then per fallback record one u64 of core cycles, then in the
                              rest of the area the timeline's tfw_tl_marks (u64 t, u32 phase, u32 index),
                              all of the last run; 8-byte aligned */
  TFW_MB_WATCHDOG = 56,    /* 0, or every NPU run's watchdog in cycles (no allowance for the estimate) */
  /* result, written by the firmware */
  TFW_MB_STATUS = 64,      /* i32: TFW_OK or TFW_E_* (TFW_E_ARG for a bad request) */
  TFW_MB_DETAIL = 68,      /* i32 tfw_error.detail */
  TFW_MB_KERNEL = 72,      /* i32 tfw_error.kernel */
  TFW_MB_INDEX = 76,       /* i32 tfw_error.index (clamped) */
  TFW_MB_VALUE = 80,       /* u64 tfw_error.value */
  TFW_MB_RUNS_DONE = 88,   /* inferences completed */
  TFW_MB_FW_VERSION = 92,  /* TFW_RUNTIME_VERSION of the firmware */
  TFW_MB_CYCLES = 96,      /* u64 core cycles spent in tfw_run, all runs */
  TFW_MB_LOAD_CYCLES = 104,/* u64 core cycles of tfw_load (validation, streams) */
  TFW_MB_FW_TARGET = 112,  /* TSL_TARGET_HASH the firmware was built for */
  TFW_MB_DONE = 116,       /* TFW_MAILBOX_MAGIC once the result fields are written */
  TFW_MB_TL_COUNT = 120,   /* timeline marks written after the statistics */
  TFW_MB_TL_DROPPED = 124, /* marks that did not fit (the last one written is the latest) */
  TFW_MB_MSG = 128,        /* NUL-terminated error text, TFW_MAILBOX_MSG_BYTES */
};

#endif
