/* npu_internal.h: state shared by the C model's modules (not public).
 *   npu_model.c  run loop: dispatcher, loops, queues, tokens, deadlock, timing
 *   npu_check.c  dispatch-time checks (docs/isa.md section 7) and config shadows
 *   npu_exec.c   what each command does to the memories, and its counters */
#ifndef NPU_INTERNAL_H
#define NPU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cost_model.h"
#include "npu_model.h"

/* Configuration registers as set by the CFG_* commands seen so far. */
typedef struct {
  tsl_cfg_load_t load;
  tsl_cfg_exec_t exec;
  tsl_cfg_vec_t vec;
  tsl_cfg_store_t store;
  tsl_cfg_epi_t epi;
} npu_cfg_t;

/* Token flag bits of a queued command. */
enum { TOK_POP_PREV = 1, TOK_POP_NEXT = 2, TOK_PUSH_PREV = 4, TOK_PUSH_NEXT = 8 };

/* A checked command in a queue: effective (loop-adjusted) fields and a copy
 * of the configuration registers it uses, as they were at dispatch. */
typedef struct {
  uint8_t op;             /* TSL_OP_* */
  uint8_t tok;            /* TOK_* bits */
  uint32_t index;         /* stream index, for errors */
  uint64_t dispatch_time; /* cycle the dispatcher handed it over */
  union {
    tsl_load_t load;
    tsl_matmul_t mm;
    tsl_dwconv_t dw;
    tsl_vadd_t vadd;
    tsl_vpool_t vpool;
    tsl_store_t store;
  } u;
  npu_cfg_t cfg;
} npu_qcmd_t;

enum { UNIT_LOAD, UNIT_EXEC, UNIT_STORE, NUNITS };

struct npu_model {
  const tsl_target_t *t;
  int dim;
  int8_t *spad;            /* spad_rows * dim */
  int32_t *acc;            /* acc_rows * dim */
  uint8_t *param;          /* param_rows * 9 * dim */
  uint8_t *dram;           /* window of the current run */
  uint64_t dram_size;
  int timing_only;         /* counters and costs only, no data (npu_run_t.timing_only) */
  npu_cfg_t cfg;           /* dispatcher's shadow of the configuration registers */
  uint64_t cnt[TSL_NCOUNTERS];
  npu_snapshot_t *snaps;   /* MARK snapshots of the last run */
  size_t nsnaps, capsnaps;
  int timeline;            /* record every command's busy interval (npu_model_set_timeline) */
  npu_cmd_event_t *events; /* the last run's timeline */
  size_t nevents, capevents;
  int events_lost;         /* recording stopped: out of memory */
  struct run_state *run_state; /* npu_model.c's run state, queue slots and rings: allocated once, reused per run */
  npu_qcmd_t *run_slots;
  uint64_t *run_rings;
};

/* Test hook: the order the run loop steps the units in (0..5, the
 * permutations of LOAD, EXEC, STORE; +6 steps the dispatcher after the units
 * instead of before). Results, errors and every counter must not depend on
 * it; the npu-model tests check that. Default 0. */
extern int npu_model_step_order;

/* Checks the command w (stream index `index`) with loop offsets off against
 * the target and m->cfg, fills *q, and for CFG_* commands updates m->cfg.
 * Returns TSL_ERR_NONE or an error code with a message in msg. FRONT
 * commands (NOP, LOOP, MARK) are not handled here. */
int npu_check(npu_model_t *m, const uint32_t w[4], const int64_t off[TSL_NSLOTS], uint32_t index,
              npu_qcmd_t *q, char *msg, size_t msglen);

/* Checks a MARK (record range); 0 or an error code + message. */
int npu_check_mark(const npu_model_t *m, const tsl_mark_t *mk, char *msg, size_t msglen);

/* Writes an error's message (npu_check's msg, npu_result_t.message) as
 * snprintf. The core-sequenced NPU's firmware (-DNPU_MODEL_QUIET,
 * sim/npu-model/npu-model.mk) reports codes and command indices only
 * (firmware/npu/npu_seq.c): there the text is neither formatted nor kept,
 * the buffer stays as it was, and no printf is linked. */
#ifdef NPU_MODEL_QUIET
#define npu_msgf(buf, n, ...) ((void)(buf), (void)(n))
#else
#define npu_msgf(buf, n, ...) ((void)snprintf(buf, n, __VA_ARGS__))
#endif

/* Executes a checked queue command on the memories, adds its byte and MAC
 * counters, and returns its cost (cost_model.h). */
cost_t npu_exec(npu_model_t *m, const npu_qcmd_t *q);

#endif
