/* lower: quantised IR -> NPU kernels -> command streams.
 *
 * Input: a quantised graph after `requant` (QConv, QMatMul with mult/shift
 * attributes, int8 values with per-tensor activation quantisation).
 * Output: a lower_program: one command stream per kernel (a conv/matmul with
 * its epilogue), the constant blob (weight tiles and PARAM rows) and the
 * DRAM layout of every activation (graph inputs and outputs from window
 * offset 0, then the intermediates, then the constants), all addresses relative to the NPU's DRAM
 * window (docs/memory-map.md).  Ops the NPU cannot run become fallback records.
 *
 * Layout (docs/lowering.md): an activation [N=1, C, H, W] lives in DRAM as
 * NCHWc with c = DIM: [ceil(C/DIM)][H][W][DIM] int8, one pixel per DIM bytes,
 * so a LOAD moves one pixel per SPAD row.  Lanes >= C hold the tensor's zero
 * point (the NPU writes them so; a real zero).  Graph inputs and outputs are
 * converted once at the edges by the runtime (lower_pack / lower_unpack).
 *
 * Memory: a program owns everything it points to; lower_program_free() frees it. */
#ifndef TESSEL_LOWER_H
#define TESSEL_LOWER_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "ir.h"
#include "tessel_isa.h"
#include "tessel_targets.h"
#include "tpkg_format.h"

/* The image a blocked value is laid out as: [N, C, H, W] is H x W, [N, C, L]
 * is 1 x L, a matmul operand [R, K] is R x 1. */
static inline void lower_image_hw(const ir_value *v, int64_t *h, int64_t *w) {
  *h = v->rank == 4 ? v->dims[2] : v->rank == 3 ? 1 : v->dims[0];
  *w = v->rank == 4 ? v->dims[3] : v->rank == 3 ? v->dims[2] : 1;
}

/* The largest image side the vector kernels take in one piece (VADD,
 * VPOOL's window, STORE's max pool: 8-bit fields, not tiled yet), and the
 * longest line of an image the conv address generator reads (CFG_EXEC
 * in_w).  A quantised op past them runs on the control core (ptq leaves it
 * float; an int8 max pool or requantisation becomes a core op). */
#define LOWER_VEC_MAX_SIDE 255
#define LOWER_CONV_MAX_LINE ((1 << TSL_CFG_EXEC_IN_W_WIDTH) - 1)
static inline int lower_vec_fits(const ir_value *v) {
  int64_t h, w;
  lower_image_hw(v, &h, &w);
  return h <= LOWER_VEC_MAX_SIDE && w <= LOWER_VEC_MAX_SIDE;
}

/* A growable command stream (16 bytes per command, as in command SRAM). */
typedef struct lower_stream {
  uint8_t *bytes; /* n commands */
  uint32_t n;     /* commands */
  uint32_t cap;   /* commands allocated */
  int bad;        /* an encode failed (field out of range) or out of memory */
} lower_stream;

/* Where one activation lives in the DRAM window. */
typedef struct lower_tensor {
  const ir_value *v;  /* the IR value */
  uint64_t dram;      /* byte offset in the window */
  uint64_t bytes;     /* blocks * h * w * DIM */
  int64_t c, h, w;    /* channels and image (a matmul's [R, K] is c = K, h = R, w = 1) */
  int64_t blocks;     /* ceil(c / DIM) */
  int zp;             /* zero point: the value of lanes >= c */
  int rk;             /* 1: the IR holds it as [R, K] (matmul operand), not NCHW */
  int blocked;        /* 1: the blocked layout above (an NPU kernel's value); 0: plain row-major (the control core's) */
  int64_t pack_b;     /* blocked only: 0, or blocked by pack_b < DIM channels ([h][w][pack_b] bytes, DIM bytes of
                         slack after them) for the one conv that reads it packed; blocks: its view's (lower_conv.c) */
  int64_t pack_off;   /* packed: bytes before its pixel (0, 0), so the lines its conv loads start on a beat */
  int alias;          /* index of the tensor whose bytes it shares (a Flatten of [1,C,1,1], a Concat input), or -1 */
  int64_t alias_off;  /* its byte offset inside that tensor */
  int64_t spad_row;   /* resident: the SPAD row of its block 0 pixel (0,0) between producer and consumer, or -1 */
  int concat_tried;   /* a Concat output whose SRAM residency was decided (at its first producer) */
  int twin;           /* 1: a plain copy of a blocked tensor for the control core (v is the blocked one's) */
  int is_const;       /* 1: a constant a core op reads, placed in the constants region */
} lower_tensor;

typedef enum {
  LOWER_K_CONV,     /* MATMUL with the conv address generator (QConv, QMatMul) */
  LOWER_K_DWCONV,   /* DWCONV (depthwise QConv) */
  LOWER_K_VEC,      /* VADD / VPOOL / STORE pooling (lower_vec.c) */
  LOWER_K_FALLBACK, /* firmware runs the op (not on the NPU) */
} lower_kernel_kind;

/* Firmware fallback ops (the numbers of tpkg_format.h's TPKG_OP_*). */
enum { LOWER_FB_QUANTIZE = 2, LOWER_FB_DEQUANTIZE = 3, LOWER_FB_RELAYOUT = 4 };

/* A node the control core runs (lower_fallback.c): its core op and the
 * tensor of each operand (inputs, then the output; constants included). */
typedef struct lower_fb lower_fb;

/* The schedule of one conv kernel (the knobs of docs/lowering.md). */
typedef struct lower_sched {
  int oh_tile;  /* output rows per tile (0: the largest that fits) */
  int ob_group; /* output channel blocks per hardware loop, 1..7 (0: 7) */
  int ob_chunk; /* output channel blocks whose weights are resident at once (0: the most that fit) */
  int order;    /* 1: row tiles outer, 2: weight chunks outer (0: the cost model's choice) */
  int wbuf;     /* weight buffers: 1 (a reload waits for every unit), 2 (the next chunk loads while one
                 * computes; the input loaded once and every PARAM row at once); 0: 2 where weights reload */
} lower_sched;

/* Per-kernel schedules (the tuner and `tessel compile --tuning-log`,
 * docs/tuning.md): called once per conv/matmul kernel with its workload key
 * (lower_kernel.key, lower_workload_key); returns 1 with *s filled to use that
 * schedule for the kernel, or 0 to keep the default (lower_opts.sched).  The
 * SRAM plan (residency, fusion) is decided with the default schedule first,
 * so a hook never changes another kernel's placement or key; a schedule that
 * does not fit the kernel falls back to the default (sched_from = -1). */
typedef int (*lower_sched_fn)(void *ctx, const char *key, lower_sched *s);

enum { LOWER_KEY_MAX = 192 }; /* bytes of a workload key, NUL included */

/* One kernel: a fused op with its stream, or a fallback record. */
typedef struct lower_kernel {
  lower_kernel_kind kind;  /* what runs it */
  const ir_node *node;     /* the anchor node (its src names the ONNX node) */
  const ir_node *pool;     /* a MaxPool fused into its epilogue, or NULL */
  const ir_node *add;      /* a QAdd fused after it (conv output kept in SPAD, VADD in the same stream), or NULL */
  int in, out;             /* indices into lower_program.tensors (-1: none) */
  lower_stream stream;     /* commands (empty for a fallback) */
  uint32_t fallback_op;    /* TPKG_OP_* for a fallback */
  const lower_fb *fb;      /* a core op (not QUANTIZE/DEQUANTIZE/RELAYOUT): its operands, else NULL */
  lower_sched sched;       /* the schedule used */
  int64_t spad_rows_used;  /* peak scratchpad rows */
  int64_t acc_rows_used;   /* peak accumulator rows */
  int64_t param_rows_used; /* PARAM rows */
  lower_stream *segs;      /* n_segs > 0: the stream cut into segments that each fit the command
                            * SRAM and run alone (lower_segment.c); the firmware runs them in order */
  int n_segs;              /* 0: the stream fits whole */
  char key[LOWER_KEY_MAX]; /* conv/matmul: the workload key (identical layers share it); "" otherwise */
  int sched_from;          /* 1: the hook's schedule, 0: the default, -1: the hook's did not fit (default used) */
  int ow_tile;             /* conv: output columns per tile when the width is cut (over 255 or the ACC), else 0 */
  int ic_chunk;            /* conv: input channel blocks per pass when the input channels are tiled, else 0 */
} lower_kernel;

typedef struct lower_program {
  const tsl_target_t *target; /* the target the streams are for */
  lower_kernel *kernels;      /* n_kernels, in execution order */
  int n_kernels;
  lower_tensor *tensors;      /* every activation with a DRAM home */
  int n_tensors, cap_tensors;
  int *tensor_by_id;          /* value id -> tensor index + 1 (0: none yet), n_ids long */
  int n_ids;
  uint8_t *npu_side;          /* value id -> 1: an NPU kernel's value (blocked when it can be), n_ids long */
  uint8_t *consts;            /* weight tiles and PARAM rows */
  uint64_t io_bytes;          /* graph inputs and outputs: window [0, io_bytes) */
  uint64_t consts_base;       /* the constants' offset; intermediates in [io_bytes, consts_base) */
  uint64_t consts_bytes;
  uint64_t dram_bytes;        /* window size needed: constants + activations */
  int *unsupported;           /* lower_opts.unsupported, while lowering */
  const ir_node **fused;      /* per graph node index: the MaxPool fused into it, or NULL */
  const ir_node **fused_add;  /* per graph node index: the QAdd fused after it, or NULL */
  lower_fb **fb;              /* per graph node index: its core op plan, or NULL */
  int n_fb;                   /* entries of fb (the graph's nodes) */
  int npu_only;               /* lower_opts.npu_only */
  const ir_graph *graph;      /* the graph being lowered (while lowering) */
  int no_sram_residency;      /* lower_opts.no_sram_residency */
  int no_pack_input;          /* lower_opts.no_pack_input */
  int calibrated;             /* lower_opts.calibrated */
  lower_sched_fn sched_for;   /* lower_opts.sched_for (while lowering) */
  void *sched_ctx;
} lower_program;

/* Options (the comparison switches). */
typedef struct lower_opts {
  lower_sched sched;     /* forced schedule (zeros: default) */
  int no_fusion;         /* 1: every op its own kernel (--no-fusion) */
  int no_sram_residency; /* 1: every intermediate through DRAM (--no-sram-residency) */
  int no_pack_input;     /* 1: every NPU input blocked, none read packed (--no-pack-input) */
  int *unsupported;      /* if not NULL: set to 1 when the error is an op with no lowering yet */
  int64_t cmd_sram_limit; /* > 0: command SRAM budget in bytes instead of the target's (tests: forces segments) */
  lower_sched_fn sched_for; /* if not NULL: per-kernel schedules by workload key (over `sched`) */
  void *sched_ctx;          /* its context */
  int calibrated;           /* 1: ptq ran with --calib (a float op left is then not "compile it with --calib") */
  int npu_only;             /* 1: refuse ops the control core would run (--npu-only), but for Softmax and
                             * the QuantizeLinear/DequantizeLinear at the edges */
} lower_opts;

/* Lowers quantised graph g for target t.  Returns a program the caller frees,
 * or NULL with d filled (an op or shape the lowering does not support, or a
 * layer that cannot fit the target, named by its node). */
lower_program *lower_graph(const ir_graph *g, const tsl_target_t *t, const lower_opts *o, diag *d);
void lower_program_free(lower_program *p);

/* A core-op kernel's operand k (inputs, then the output) as a package
 * operand; its operand count; its op (lower_fallback.c). */
struct core_op;
void lower_fb_operand(const lower_program *p, const lower_fb *f, int k, tpkg_operand *o);
int lower_fb_count(const lower_fb *f);
const struct core_op *lower_fb_op(const lower_fb *f);

/* The tensor of value v, or NULL. */
const lower_tensor *lower_find_tensor(const lower_program *p, const ir_value *v);

/* Edge conversions done by the runtime: NCHW int8 `src` (c*h*w elements) into
 * the blocked DRAM layout at dst (t->bytes bytes), and back. */
void lower_pack(const lower_tensor *t, int dim, const int8_t *src, uint8_t *dst);
void lower_unpack(const lower_tensor *t, int dim, const uint8_t *src, int8_t *dst);

/* The lowering's stages, in order, as `--print-after=STAGE` names them
 * (lower_dump.c): "layout", "fusion", "sram-plan", "tiling", "emission". */
enum {
  LOWER_STAGE_LAYOUT,
  LOWER_STAGE_FUSION,
  LOWER_STAGE_SRAM_PLAN,
  LOWER_STAGE_TILING,
  LOWER_STAGE_EMISSION,
  LOWER_NSTAGES
};
/* The stage called name, or -1. */
int lower_stage_find(const char *name);
/* The name of a stage ("?" out of range). */
const char *lower_stage_name(int stage);
/* Prints what finished program p says about one stage, one line per tensor
 * or kernel (emission: every command disassembled), without a header.
 * The stages are decided kernel by kernel inside lower_graph, so this is
 * the final state of that stage, in a stable form for FileCheck. */
void lower_dump_stage(FILE *f, const lower_program *p, int stage);

/* The commands the package adds to each kernel record's stream: a MARK with
 * reset at its start (unless its own first MARK takes the flag) and its
 * counter record at its end (lower_compile.c, docs/package-format.md). */
#define LOWER_FRAME_CMDS 2

/* Cuts every kernel stream longer than limit_bytes / 16 commands, less the
 * LOWER_FRAME_CMDS of each record, into segments (k->segs) that each fit
 * and run alone as their own stream: cuts outside LOOP bodies where no
 * token is in flight, each segment replaying the configuration commands in
 * effect.  0, or -1 with d filled naming a kernel that has no safe cut
 * within the budget. */
int lower_segment(lower_program *p, int64_t limit_bytes, diag *d);

/* The cost model's cycle estimate of a stream (lower_cost.c): every command
 * priced and placed on its unit's timeline as the C model does (dispatch
 * order, MARK barriers, tokens, queue depth), loops expanded; the time the
 * last unit finishes. */
uint64_t lower_estimate_cycles(const tsl_target_t *t, const lower_stream *s);

/* The counter record a framed kernel record ends with (LOWER_FRAME_CMDS):
 * its 24 beats written at about two cycles each after DRAM's latency (the
 * RTL: 76-80 cycles at npu8, between back-to-back records). */
uint64_t lower_record_cycles(const tsl_target_t *t);
/* The older, optimistic bound: the busiest unit's total (perfect overlap). */
uint64_t lower_busiest_unit_cycles(const tsl_target_t *t, const lower_stream *s);
/* Busy cycles per queue of a stream by the same pricing, loops expanded:
 * busy[0] dispatcher, [1] LOAD, [2] EXEC, [3] STORE (the tuner refits the
 * cost model on these). */
void lower_unit_cycles(const tsl_target_t *t, const lower_stream *s, uint64_t busy[4]);

/* Appends one encoded command (used through LOWER_EMIT). */
void lower_stream_put(lower_stream *s, const uint32_t w[4]);

/* Emits a command with designated initialisers through the generated encoder:
 * LOWER_EMIT(s, matmul, .oh = 4, ...).  A field out of range marks s bad. */
#define LOWER_EMIT(s, kind, ...)                                  \
  do {                                                            \
    tsl_##kind##_t c_ = {__VA_ARGS__};                            \
    uint32_t w_[4];                                               \
    if (tsl_##kind##_encode(&c_, w_) != 0) (s)->bad = 1;          \
    else lower_stream_put((s), w_);                               \
  } while (0)

#endif
