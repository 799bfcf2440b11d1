/* lower_internal: what the lowering's stages share (not for other modules). */
#ifndef TESSEL_LOWER_INTERNAL_H
#define TESSEL_LOWER_INTERNAL_H

#include "lower.h"
#include "tessel_isa.h"
#include "tpkg.h"

/* A conv that reads its input packed (lower_conv.c, "Packed input"): the
 * input is blocked by b lanes, its lines line bytes apart. The interior
 * output columns (windows inside the image) run as the kh x 1 conv the
 * geometry states, over each line's bytes from x0 on in rows of DIM; the
 * left and right border columns (windows over the padding) as the conv
 * itself (c input channels, kernel width kw, column stride sx, left padding
 * pl) over the input columns [0, cl) and [cr0, cr0 + cr) loaded a pixel a
 * row. line 0: the input is blocked by DIM (every field 0). */
typedef struct lower_packed {
  int64_t b, line, x0, c;
  int64_t left, right;
  int64_t kw, sx, pl;
  int64_t cl, cr0, cr;
  const int8_t *wgt;      /* the conv's own weights w[m][c][kh][kw], for the border columns */
} lower_packed;

/* Geometry of a conv-like kernel (QMatMul is a 1x1 conv on an [R,K] "image"). */
typedef struct lower_conv_geom {
  int64_t c, h, w;        /* input channels and image */
  int64_t m, oh, ow;      /* output channels and image */
  int64_t kh, kw;         /* kernel */
  int64_t sy, sx, dy, dx; /* strides, dilations */
  int64_t pt, pl;         /* padding top, left (bottom/right follow from oh, ow) */
  int64_t group;          /* 1, or c == m == group for depthwise */
  int depthwise;          /* DWCONV */
  int zx, zy;             /* input, output zero points */
  int lo, hi;             /* clamp */
  /* w[m][c/group][kh][kw] as int8 (QMatMul: transposed into this form). */
  const int8_t *wgt;
  const int32_t *bias;    /* m biases, or NULL */
  const int64_t *mult, *shift; /* m (or 1: per tensor) requantisation constants */
  int n_mult;             /* entries in mult/shift */
  int64_t pool_k, pool_s, pool_pt, pool_pl; /* fused max pool (pool_k 0: none); output = the pooled tensor */
  int64_t in_spad;        /* SPAD row where the input already is (resident), or -1: load it from DRAM */
  int64_t out_spad;       /* SPAD row to store the output to (resident for the next kernel), or -1: DRAM */
  int64_t spad_limit;     /* working rows end here (resident tensors above); 0: the whole scratchpad */
  lower_packed pk;        /* a packed input (x->pack_b): w is the rows of a line the interior reads */
} lower_conv_geom;

/* The tensor index of v, created on first use (blocked when it can be,
 * else plain); -1 with an error. */
int lower_tensor_of(lower_program *p, const ir_value *v, const ir_node *n, diag *d);
/* Appends t to p's tensor list: its index, or -1 (out of memory). */
int lower_add_tensor(lower_program *p, lower_tensor t, diag *d);

/* A new kernel for node n at the end of p's list (pointers into the list
 * move), its schedule o's; NULL on out of memory. */
lower_kernel *lower_new_kernel(lower_program *p, const ir_node *n, const lower_opts *o, diag *d);

/* The control core's ops (lower_fallback.c). */
struct core_op;
/* Whether n runs as a core op (not on the NPU, not a layout-aware Q/DQ). */
int lower_fb_is_core(const ir_node *n);
/* Step 1 for node i: its core op, operand tensors, plain twins. 0 or -1. */
int lower_fb_plan(lower_program *p, int i, const ir_node *n, diag *d);
/* Step 2 for node i: its constants placed, its kernels (RELAYOUTs around the op). */
int lower_fb_emit(lower_program *p, int i, const ir_node *n, diag *d);
void lower_fb_free(lower_program *p);

/* Shared by the driver (lower.c) and the residency decisions. */
/* A reshape-like node whose output is its input's bytes (no kernel). */
int lower_is_alias(const lower_program *p, const ir_node *n);
/* Whether n went into a conv's kernel (fused pool, add or requantisation). */
int lower_is_fused(const ir_graph *g, const lower_program *p, const ir_node *n);
/* Whether a Concat's inputs were placed inside its output. */
int lower_is_concat_done(const lower_program *p, const ir_node *n);
/* The conv geometry of QConv/QMatMul n reading x and writing y (the pooled
 * tensor when `pool` is fused); with wt, the weights attached.  0, or -1. */
int lower_conv_geom_of(const lower_program *p, const ir_node *n, const ir_node *pool, const lower_tensor *x,
                       const lower_tensor *y, lower_conv_geom *g, int8_t **wt, diag *d);

/* SRAM residency (lower_resident.c).  Each returns a scratchpad row, or -1
 * for DRAM. */
/* Conv/matmul kernel k's output y (input x, geometry pg) kept for the one or
 * two kernels that read it next. */
int64_t lower_resident_row(const lower_program *p, const lower_kernel *k, const lower_tensor *x,
                           const lower_tensor *y, const lower_conv_geom *pg);
/* Pool kernel k's output y kept for the conv/matmul that reads it next. */
int64_t lower_pool_out_row(const lower_program *p, const lower_kernel *k, const lower_tensor *x,
                           const lower_tensor *y);
/* Where kernel k stores t when t is part of a Concat kept in the
 * scratchpad (decided at the Concat's first producer). */
int64_t lower_concat_dest_row(lower_program *p, const lower_kernel *k, lower_tensor *t);
/* Where a conv fused with a vector op keeps its own output (rows of it):
 * below its resident input x and its output's Concat region zr. */
int64_t lower_conv_vec_row(const lower_program *p, const lower_tensor *x, int64_t zr, int64_t rows);

/* Appends n bytes to the program's constant blob (16-byte aligned start);
 * returns the DRAM offset, or -1 when out of memory. */
int64_t lower_consts_add(lower_program *p, const void *bytes, uint64_t n);

/* DRAM bytes the loads of a conv of geometry g (in_spad, spad_limit, pool
 * set) read under its default tiling, or -1 when no tiling fits. */
int64_t lower_conv_load_bytes(const tsl_target_t *tg, const lower_conv_geom *g, const lower_sched *ks, int64_t ncb,
                              int64_t nob);

/* Prints k's schedule as " tile_oh=.. ob_group=.. ob_chunk=.. order=rows|chunks"
 * and, where they apply, " wbuf=2 tile_ow=.. ic_chunk=.." (lower_dump.c). */
void lower_sched_print(FILE *f, const lower_kernel *k);

/* The workload key of conv/matmul kernel k with geometry g reading x and
 * writing y (lower_key.c): op kind, shapes, kernel, stride, padding,
 * dilation, groups, epilogue, fused pool/add, where its input and output
 * live (DRAM or scratchpad) with its working-row limit, and the target.
 * Identical layers get the same key (one tuning task); written to key[n]. */
void lower_workload_key(const lower_program *p, const lower_kernel *k, const lower_conv_geom *g,
                        const lower_tensor *x, const lower_tensor *y, char *key, size_t n);

/* Lowers one conv/matmul kernel into k->stream: loads, MATMUL/DWCONV with the
 * epilogue in STORE (bias with the zero-point fold, requant, clamp).  Requires
 * x and y in the blocked DRAM layout; fills k's SRAM use.  0, or -1 with a
 * located error when it does not fit the target. */
int lower_conv(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_conv_geom *g, diag *d);

/* Conv constants shared by lower_conv.c and lower_conv_ktile.c: the PARAM
 * rows of nob output blocks (bias folded with -zx*sum(w), multiplier, shift),
 * and the weight rows per output block in chunks of at most `chunk` input
 * blocks (each chunk: taps, then its input blocks, DIM rows each; depthwise:
 * one row per tap).  The DRAM offset in the blob, or -1 out of memory. */
int64_t lower_conv_params(lower_program *p, const lower_conv_geom *g, int64_t nob, int dim);
int64_t lower_conv_weights(lower_program *p, const lower_conv_geom *g, int64_t nob, int64_t ncb, int64_t chunk,
                           int dim, int64_t *rows);
/* Input lines [*lo, *hi] output rows [oy0, oy0+oh) read, clamped to the image. */
void lower_conv_in_rows(const lower_conv_geom *g, int64_t oy0, int64_t oh, int64_t *lo, int64_t *hi);
/* A conv whose input channels must be tiled (lower_conv_ktile.c): same
 * contract as lower_conv, for a dense conv without a fused pool. */
int lower_conv_ktiled(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
                      const lower_conv_geom *g, diag *d);

/* VADD constants (QAdd; QRequant has b = NULL and mult_b = 0). */
typedef struct lower_vadd_params {
  int64_t mult_a, mult_b, shift; /* requantisation of both inputs, one shift */
  int lo, hi;                    /* clamp */
} lower_vadd_params;

/* A pooling window (QAveragePool: VPOOL; MaxPool: STORE's max pool). */
typedef struct lower_pool_params {
  int max;                   /* 1: max pool */
  int64_t kh, kw, sy, sx;    /* window, strides */
  int64_t pt, pl;            /* padding top, left */
  int count_include_pad;     /* average: divisor kh*kw (1) or the inside taps (0) */
  int64_t mult, shift;       /* average: requantisation */
  int lo, hi;                /* average: clamp */
} lower_pool_params;

/* Residual add / requantisation kernel (lower_vec.c), appended to k->stream.
 * a_spad >= 0: operand a is already in the scratchpad from that row (all its
 * blocks, plane after plane: a fused conv stored it there), so only b is
 * loaded (below a_spad; b NULL: a requantisation) and the whole tensor goes
 * in one pass; the VADD writes its result over a's rows and stores it to y
 * in DRAM, or with out_spad >= 0 (only with a_spad) writes it from that SPAD
 * row instead (y is resident there; no store).
 * 0, or -1 with an error. */
int lower_vadd(lower_program *p, lower_kernel *k, const lower_tensor *a, const lower_tensor *b,
               const lower_tensor *y, const lower_vadd_params *v, int64_t a_spad, int64_t out_spad, diag *d);
/* Pooling kernel (lower_vec.c).  in_spad >= 0: x is resident there (all its
 * blocks, plane after plane; the producer stored it): no load, one pass,
 * average-pool outputs from row 0 below it.  out_spad >= 0: y stays in the
 * scratchpad from that row (plane after plane) for the next kernel, no
 * store to DRAM; passes (x from DRAM) work below it.  0, or -1 with an error. */
int lower_pool(lower_program *p, lower_kernel *k, const lower_tensor *x, const lower_tensor *y,
               const lower_pool_params *q, int64_t in_spad, int64_t out_spad, diag *d);

/* Each fallback record's AHEAD and BEHIND counts (lower_beside.c): which
 * of the nk kernel records ks (the package's, framed) the NPU may run
 * while the core runs it, from the tensors' DRAM homes; and that every
 * record reads only bytes written before it (the n_in graph inputs' IO
 * records in, the constants, earlier records and kernels). 0, or -1 (out
 * of memory, or an internal error naming the record). */
int lower_beside(const lower_program *p, const tpkg_kernel *ks, uint32_t nk, tpkg_fb_record *fs, uint32_t nf,
                 const tpkg_io *in, uint32_t n_in, diag *d);

#endif
