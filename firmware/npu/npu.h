/* npu.h: firmware driver of the Tessel NPU (docs/npu-system.md).
 *
 * The driver places a command stream in the NPU's command SRAM (copied by
 * the core, or fetched by the NPU from DRAM: npu_fetch_stream), gives the NPU
 * its DRAM window, starts the stream and waits for the end-of-run interrupt
 * (wfi on the external interrupt, with a cycle watchdog that aborts a hung
 * run), then reads status, error code and index, and the counters.
 *
 * Register offsets, status bits, error codes and counter indices come from the
 * generated build/gen/tessel_isa.h (docs/isa.md sections 6-8); the target's
 * sizes from build/gen/<target>/tessel_target.h, so the driver is built once
 * per target and npu_init() refuses an NPU of another target.
 *
 * Typical use:
 *   if (npu_init() != NPU_OK) ...
 *   npu_load_stream(0, cmds, n);                  // 16-byte commands
 *   npu_set_window(0x80100000u, 1u << 20);        // DRAM window
 *   npu_run_info_t info;
 *   int rc = npu_run(0, n, NPU_TIMEOUT_DEFAULT, &info);
 *   // rc == NPU_OK, or NPU_ERR_HW with info.err_code / info.err_index
 *   uint64_t macs = npu_counter(TSL_CNT_MACS);
 *
 * Not reentrant; one run at a time. No allocation. */
#ifndef TESSEL_FW_NPU_H
#define TESSEL_FW_NPU_H

#include <stdint.h>

#include "tessel_isa.h"
#include "tessel_memmap.h"
#include "tessel_target.h"

/* Bus addresses of the two NPU windows (tessel_memmap.h, docs/memory-map.md). */
#define NPU_REG_BASE TSL_MEM_NPU_REG_BASE
#define NPU_CMD_BASE TSL_MEM_NPU_CMD_BASE
/* DRAM on the bus: the window must lie in it. */
#define NPU_DRAM_BUS_BASE TSL_MEM_DRAM_BASE

/* Cycles npu_run waits by default before it aborts the run. */
#define NPU_TIMEOUT_DEFAULT 200000000ull

/* Driver return codes: 0 or negative. A run that ended with an NPU error is
 * NPU_ERR_HW; the hardware's code (TSL_ERR_*) is in npu_run_info_t.err_code. */
enum {
  NPU_OK = 0,
  NPU_ERR_NO_DEVICE = -1, /* the register window faults or ID is not 'TSNP' */
  NPU_ERR_TARGET = -2,    /* VERSION or TARGET_HASH differ from the target built for */
  NPU_ERR_ARG = -3,       /* bad argument: misaligned, outside command SRAM or DRAM */
  NPU_ERR_BUSY = -4,      /* a run is in progress */
  NPU_ERR_TIMEOUT = -5,   /* the watchdog expired: the run was aborted */
  NPU_ERR_HW = -6,        /* the run ended with STATUS.ERROR (see err_code, err_index) */
};

/* How a run ended, read from the registers once the NPU is idle. */
typedef struct {
  uint32_t status;      /* STATUS as read at the end (TSL_REG_STATUS_* bits) */
  uint32_t err_code;    /* ERR_CODE (TSL_ERR_*; TSL_ERR_NONE on success) */
  uint32_t err_index;   /* ERR_INDEX: offending command, from STREAM_BASE */
  uint32_t mark_count;  /* MARK_COUNT */
  uint32_t mark_kernel; /* MARK_KERNEL */
  uint64_t wait_cycles; /* core cycles (MTIME) from start to the end of the wait */
  uint32_t wakeups;     /* times wfi returned while waiting (interrupt wake-ups) */
} npu_run_info_t;

/* Checks the NPU is there (a load access fault is caught, not fatal) and
 * built for this target (ID, VERSION's ISA version and DIM, TARGET_HASH).
 * Returns NPU_OK, NPU_ERR_NO_DEVICE or NPU_ERR_TARGET. */
int npu_init(void);

/* Copies ncmds 16-byte commands to byte offset sram_off of the command SRAM
 * (word writes). sram_off must be 16-byte aligned and the stream must fit
 * TSL_CMD_SRAM_BYTES. Refused while busy. */
int npu_load_stream(uint32_t sram_off, const void *cmds, uint32_t ncmds);

/* Sets the DRAM window: bus address base (8-byte aligned) and size bytes,
 * wholly inside DRAM (checked: the NPU itself only checks against size). */
int npu_set_window(uint32_t base, uint32_t size);

/* Starts the stream of ncmds commands at sram_off with the interrupt enabled;
 * returns at once. Refused while busy. */
int npu_start(uint32_t sram_off, uint32_t ncmds);

/* Sleeps (wfi, woken by the NPU's interrupt; mstatus.MIE stays off so no
 * handler runs) until the run ends or timeout_cycles pass; then clears
 * STATUS.IRQ and fills *info (may be NULL). On timeout it writes CTRL.ABORT.
 * Returns NPU_OK, NPU_ERR_HW or NPU_ERR_TIMEOUT. */
int npu_wait(uint64_t timeout_cycles, npu_run_info_t *info);

/* npu_start + npu_wait. A run whose stream overlaps the destination of a
 * fetch in flight ends at once with NPU_ERR_HW, TSL_ERR_FETCH_OVERLAP. */
int npu_run(uint32_t sram_off, uint32_t ncmds, uint64_t timeout_cycles, npu_run_info_t *info);

/* ---- the stream fetch (docs/isa.md section 9) ---------------------------------
 * The NPU copies command streams from DRAM into its command SRAM itself,
 * beside a run from another part of the SRAM, so the core copies nothing:
 *   npu_set_fetch_window(pkg_streams, bytes);       // once
 *   npu_fetch_stream(0, 0, n0);  npu_fetch_wait(T, &code);
 *   npu_start(0, n0);  npu_fetch_stream(16 * n0, half, n1);  npu_wait(...);
 * An NPU without the fetch (a core-sequenced one) may implement these as a
 * plain copy in npu_fetch_stream and an npu_fetch_wait that returns NPU_OK. */

/* Cycles npu_fetch_wait waits by default before it aborts the fetch. */
#define NPU_FETCH_TIMEOUT_DEFAULT 50000000ull

/* Sets the fetch window, which the fetch only reads: bus address base
 * (8-byte aligned) and size bytes, wholly inside DRAM (checked). Refused
 * (NPU_ERR_BUSY) while a fetch is in progress; allowed during a run. */
int npu_set_fetch_window(uint32_t base, uint32_t size);

/* Starts copying ncmds commands from byte src_off of the fetch window to
 * byte sram_off of the command SRAM; returns at once. sram_off must be
 * 16-byte aligned and the commands must fit TSL_CMD_SRAM_BYTES
 * (NPU_ERR_ARG); NPU_ERR_BUSY while a fetch is in progress. The NPU checks
 * the rest (src_off 8-byte aligned and inside the window, the destination
 * clear of the running stream) and reports it through npu_fetch_wait. */
int npu_fetch_stream(uint32_t src_off, uint32_t sram_off, uint32_t ncmds);

/* Polls until the fetch ends; after timeout_cycles it writes CTRL.ABORT
 * (which also aborts a run). Returns NPU_OK, NPU_ERR_HW with the NPU's code
 * in *err_code (TSL_ERR_FETCH_RANGE, TSL_ERR_FETCH_OVERLAP, TSL_ERR_ABORTED;
 * err_code may be NULL) or NPU_ERR_TIMEOUT. */
int npu_fetch_wait(uint64_t timeout_cycles, uint32_t *err_code);

/* Writes CTRL.ABORT (the run ends with TSL_ERR_ABORTED). */
void npu_abort(void);

/* STATUS register now. */
uint32_t npu_status(void);

/* Counter i (TSL_CNT_*) of the last run, 64 bits; 0 for i out of range. */
uint64_t npu_counter(unsigned i);

/* Every counter: out[TSL_NCOUNTERS]. */
void npu_read_counters(uint64_t *out);

/* Name of a driver return code or, for codes >= 0, of a hardware error
 * code ("DEADLOCK"); never NULL. */
const char *npu_strerror(int rc);
const char *npu_hw_error_name(uint32_t code);

#endif
