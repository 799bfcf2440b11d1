/* lower_fallback: nodes the control core runs (every node the NPU does not:
 * float ops, integer shape arithmetic, data movement the NPU has no command
 * for), as package FALLBACK records of the op core_op.h gives.
 *
 * Core ops read and write plain row-major tensors.  A blocked int8 tensor
 * (an NPU kernel's input or output: lower.c's step 0 leaves every other
 * value plain) crosses with a RELAYOUT record into a plain twin before the
 * op, or out of one after it; an input of one pixel needs none (its bytes
 * are the plain layout's, padding lanes after them); constants are copied
 * into the constants region.
 *  1. plan (lower_graph step 1, before DRAM homes): the core op, the operand
 *     tensors, plain twins for blocked ones, tensors for constants;
 *  2. emit (step 2): RELAYOUT records into the input twins, the op's record,
 *     RELAYOUT out of the output twin; constants placed. */
#include <stdlib.h>
#include <string.h>

#include "core_op.h"
#include "lower_internal.h"

struct lower_fb {
  core_op c;
  int tensor[TPKG_FB_MAX_OPERANDS]; /* what the op reads and writes (twins where blocked) */
  int home[TPKG_FB_MAX_OPERANDS];   /* the value's own tensor (the blocked one), or -1 */
};

/* Whether n runs on the control core as a plain core op: not a quantised
 * op, not a layout-aware QuantizeLinear/DequantizeLinear, not an int8 max
 * pool the NPU's STORE runs. */
int lower_fb_is_core(const ir_node *n) {
  switch (n->op) {
  case IR_OP_QCONV: case IR_OP_QMATMUL: case IR_OP_QADD: case IR_OP_QAVGPOOL: case IR_OP_QUANTIZE:
  case IR_OP_DEQUANTIZE:
    return 0;
  case IR_OP_QREQUANT: /* the VADD requantises int8; a uint8 edge or a wide image is a table on the core */
    return n->in[0]->dtype != IR_I8 || n->out->dtype != IR_I8 || !lower_vec_fits(n->out);
  case IR_OP_MAXPOOL: { /* the STORE's max pool: square, 2-D, window and stride 1..7, no dilation */
    int cnt = 0;
    const int64_t *k = ir_attr_ints(n, "kernel_shape", &cnt), *s = ir_attr_ints(n, "strides", &cnt);
    const int64_t *dl = ir_attr_ints(n, "dilations", &cnt);
    int npu = n->in[0]->dtype == IR_I8 && n->in[0]->rank == 4 && k && k[0] == k[1] && k[0] <= 7 &&
              (!s || (s[0] == s[1] && s[0] <= 7)) && (!dl || (dl[0] == 1 && dl[1] == 1)) && lower_vec_fits(n->in[0]);
    return !npu;
  }
  case IR_OP_GLOBAL_MAXPOOL:
    return n->in[0]->dtype != IR_I8 || !lower_vec_fits(n->in[0]);
  default:
    return 1;
  }
}

/* A plain tensor of v's elements: the twin of v's blocked tensor, or a
 * constant. */
static int plain_tensor(lower_program *p, const ir_value *v, int twin, diag *d) {
  lower_tensor t = {.v = v, .alias = -1, .spad_row = -1, .twin = twin, .is_const = v->kind == IR_VALUE_CONST};
  t.bytes = (uint64_t)ir_value_numel(v) * ir_dtype_size(v->dtype);
  return lower_add_tensor(p, t, d);
}

int lower_fb_plan(lower_program *p, int i, const ir_node *n, diag *d) {
  lower_fb *f = calloc(1, sizeof *f);
  if (!f) return diag_oom(d);
  p->fb[i] = f;
  int rc = core_op_of(n, &f->c, p->unsupported, d);
  if (rc) return rc < 0 ? -1 : ir_node_error(d, n, "internal: %s has no core op", ir_op_name(n->op));
  if (p->npu_only && n->op != IR_OP_SOFTMAX)
    return ir_node_error(d, n, "%s would run on the control core (--npu-only: the NPU runs only int8 Conv, Gemm, "
                         "MatMul, Add, pooling and data movement; docs/operators.md)", ir_op_name(n->op));
  for (int k = 0; k <= f->c.n_in; k++) {
    const ir_value *v = k < f->c.n_in ? n->in[f->c.in_of[k]] : n->out;
    f->home[k] = -1;
    if (v->kind == IR_VALUE_CONST) {
      if ((f->tensor[k] = plain_tensor(p, v, 0, d)) < 0) return -1;
      continue;
    }
    int t = lower_tensor_of(p, v, n, d);
    if (t < 0) return -1;
    f->tensor[k] = t;
    /* A blocked input of one pixel (batch 1, H * W = 1: a classifier's
     * logits, squeeze-excitation's channels) has its elements at bytes
     * 0..C-1 as the plain layout does: the op reads it in place. */
    if (p->tensors[t].blocked && k < f->c.n_in && p->tensors[t].h * p->tensors[t].w == 1) continue;
    if (p->tensors[t].blocked) {
      f->home[k] = t;
      if ((f->tensor[k] = plain_tensor(p, v, 1, d)) < 0) return -1;
    }
  }
  return 0;
}

/* A fallback kernel at the end of p's list (pointers into the list move). */
static lower_kernel *push_kernel(lower_program *p, const ir_node *n, uint32_t op, int in, int out, diag *d) {
  lower_kernel *k = lower_new_kernel(p, n, NULL, d);
  if (!k) return NULL;
  k->kind = LOWER_K_FALLBACK;
  k->fallback_op = op;
  k->in = in, k->out = out;
  return k;
}

int lower_fb_emit(lower_program *p, int i, const ir_node *n, diag *d) {
  lower_fb *f = p->fb[i];
  for (int k = 0; k <= f->c.n_in; k++) {
    lower_tensor *t = &p->tensors[f->tensor[k]];
    if (!t->is_const) continue;
    int64_t off = lower_consts_add(p, t->v->data, t->bytes);
    if (off < 0) return diag_oom(d);
    t->dram = (uint64_t)off;
  }
  for (int k = 0; k < f->c.n_in; k++)
    if (f->home[k] >= 0 && !push_kernel(p, n, LOWER_FB_RELAYOUT, f->home[k], f->tensor[k], d)) return -1;
  lower_kernel *k = push_kernel(p, n, f->c.op, f->tensor[0], f->tensor[f->c.n_in], d);
  if (!k) return -1;
  k->fb = f;
  int o = f->c.n_in;
  if (f->home[o] >= 0 && !push_kernel(p, n, LOWER_FB_RELAYOUT, f->tensor[o], f->home[o], d)) return -1;
  return 0;
}

/* Operand k of core-op kernel f as a package operand (plain, the view's
 * shape). */
void lower_fb_operand(const lower_program *p, const lower_fb *f, int k, tpkg_operand *o) {
  const lower_tensor *t = &p->tensors[f->tensor[k]];
  memset(o, 0, sizeof *o);
  o->dtype = (uint8_t)core_dtype(t->v->dtype);
  o->layout = TPKG_LAYOUT_PLAIN;
  o->rank = (uint8_t)f->c.rank[k];
  for (uint32_t j = 0; j < TPKG_FB_MAX_RANK; j++) o->dims[j] = f->c.dims[k][j];
  o->offset = (uint32_t)t->dram;
  o->size = (uint32_t)t->bytes;
}

int lower_fb_count(const lower_fb *f) { return f->c.n_in + 1; }
const core_op *lower_fb_op(const lower_fb *f) { return &f->c; }

void lower_fb_free(lower_program *p) {
  for (int i = 0; p->fb && i < p->n_fb; i++) free(p->fb[i]);
  free(p->fb);
}
