/* lower_compile: lowering result -> tpkg_package (tpkg.h) and the --report.
 *
 * Requires: a quantised graph (pipeline_quant done).  Guarantees: the package
 * the writer validated, or a located error.  Kernels of the package are the
 * NPU kernels in order; fallback records say before which of them they run.
 * I/O descriptors describe the graph inputs and outputs where the lowering
 * placed them (the window's I/O region, layout as stored). */
#include "lower_compile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core_op.h"
#include "emit_c.h"
#include "ir_print.h"
#include "out_file.h"
#include "lower/lower.h"
#include "lower_internal.h"
#include "pipeline.h"
#include "tpkg.h"
#include "tune/tune_apply.h"

static uint8_t tpkg_dtype(ir_dtype t) { return (uint8_t)core_dtype(t); }

/* Shape and layout of a tensor as a package record states them: blocked
 * rank 4 is BLOCKED (by pack_b when a conv reads it packed); a blocked
 * [1, K] row is byte-identical to plain. */
static int describe(const lower_tensor *t, const ir_node *n, uint8_t *layout, uint8_t *rank, uint32_t *dims,
                    diag *d) {
  const ir_value *v = t->v;
  if (v->rank > (int)TPKG_MAX_RANK) return ir_node_error(d, n, "value '%s' has rank %d (the package holds up to 6)",
                                                         v->name, v->rank);
  *rank = (uint8_t)v->rank;
  for (int i = 0; i < v->rank; i++) dims[i] = (uint32_t)v->dims[i];
  if (!t->blocked || (t->rk && t->h == 1)) *layout = TPKG_LAYOUT_PLAIN;
  else if (v->rank == 4) *layout = TPKG_LAYOUT_BLOCKED;
  else return ir_node_error(d, n, "value '%s' crosses to the firmware in a blocked layout of rank %d (not described "
                            "by the package format yet)", v->name, v->rank);
  if (!tpkg_dtype(v->dtype)) return ir_node_error(d, n, "value '%s' is %s: no package dtype", v->name,
                                                  ir_dtype_name(v->dtype));
  return 0;
}

/* The ONNX graph's multiply-accumulates of n (no padding), on the NPU or
 * on the control core. */
static uint64_t node_macs(const ir_node *n) {
  const ir_value *a = n->in[0], *w = n->n_in > 1 ? n->in[1] : NULL;
  switch (n->op) {
  case IR_OP_QCONV: case IR_OP_CONV: {
    uint64_t per = 1;
    for (int i = 1; i < w->rank; i++) per *= (uint64_t)w->dims[i];
    return per * (uint64_t)ir_value_numel(n->out);
  }
  case IR_OP_CONV_TRANSPOSE: { /* every input element times a whole filter */
    uint64_t per = 1;
    for (int i = 1; i < w->rank; i++) per *= (uint64_t)w->dims[i];
    return per * (uint64_t)ir_value_numel(a);
  }
  case IR_OP_QMATMUL: return (uint64_t)w->dims[0] * (uint64_t)ir_value_numel(n->out);
  case IR_OP_MATMUL: return a->rank ? (uint64_t)a->dims[a->rank - 1] * (uint64_t)ir_value_numel(n->out) : 0;
  case IR_OP_GEMM: return a->rank == 2 ? (uint64_t)a->dims[ir_attr_int(n, "transA", 0) ? 0 : 1] *
                                             (uint64_t)ir_value_numel(n->out) : 0;
  default: return 0;
  }
}

static uint64_t const_bytes(const ir_node *n) {
  uint64_t b = 0;
  for (int i = 0; i < n->n_in; i++)
    if (n->in[i]->kind == IR_VALUE_CONST) b += (uint64_t)ir_value_numel(n->in[i]) * ir_dtype_size(n->in[i]->dtype);
  return b;
}

/* --report: memory fit of the target and one line per kernel. */
static void report(FILE *f, const lower_program *p, const uint64_t *est, int64_t budget) {
  const tsl_target_t *t = p->target;
  int64_t spad = 0, acc = 0, param = 0;
  uint64_t cmd_max = 0, cmds = 0, total = 0;
  int npu = 0, over = 0, segmented = 0, n_segs = 0;
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK) continue;
    npu++;
    if (k->spad_rows_used > spad) spad = k->spad_rows_used;
    if (k->acc_rows_used > acc) acc = k->acc_rows_used;
    if (k->param_rows_used > param) param = k->param_rows_used;
    /* What the command SRAM holds at once: the stream, or its largest segment. */
    cmds += k->stream.n;
    if (k->n_segs) segmented++, n_segs += k->n_segs;
    for (int s = 0; s < (k->n_segs ? k->n_segs : 1); s++) {
      uint64_t b = 16ull * (k->n_segs ? k->segs[s].n : k->stream.n);
      if (b > cmd_max) cmd_max = b;
      if (b > (uint64_t)budget) over++;
    }
    total += est[i];
  }
  fprintf(f, "target %s (DIM %lld)\n", t->name, (long long)t->dim);
  fprintf(f, "  weights       %llu bytes\n", (unsigned long long)p->consts_bytes);
  fprintf(f, "  scratchpad    peak %lld of %lld rows\n", (long long)spad, (long long)t->spad_rows);
  fprintf(f, "  accumulator   peak %lld of %lld rows\n", (long long)acc, (long long)t->acc_rows);
  fprintf(f, "  param rows    peak %lld of %lld\n", (long long)param, (long long)t->param_rows);
  fprintf(f, "  command sram  %llu commands in %d kernel streams, largest %s%llu of %lld bytes%s\n",
          (unsigned long long)cmds, npu, segmented ? "segment " : "", (unsigned long long)cmd_max, (long long)budget,
          over ? " (OVER)" : "");
  if (segmented)
    fprintf(f, "  segments      %d kernel streams cut into %d segments, loaded from DRAM one at a time\n", segmented,
            n_segs);
  fprintf(f, "  dram window   %llu bytes (io %llu, scratch %llu, weights %llu)\n", (unsigned long long)p->dram_bytes,
          (unsigned long long)p->io_bytes, (unsigned long long)(p->consts_base - p->io_bytes),
          (unsigned long long)p->consts_bytes);
  fprintf(f, "  estimate      %llu cycles (cost model)\n", (unsigned long long)total);
  /* Where the nodes run (a node's RELAYOUT records count with it). */
  uint64_t npu_macs = 0, core_macs = 0;
  int core_ops = 0;
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind != LOWER_K_FALLBACK) npu_macs += node_macs(k->node);
    else if (k->fallback_op != LOWER_FB_RELAYOUT) core_ops++, core_macs += node_macs(k->node);
  }
  fprintf(f, "  placement     %d NPU kernels, %d ops on the control core; %.1f%% of the model's %llu MACs on the NPU\n",
          npu, core_ops, npu_macs + core_macs ? 100.0 * (double)npu_macs / (double)(npu_macs + core_macs) : 100.0,
          (unsigned long long)(npu_macs + core_macs));
  static const char *kinds[] = {"conv", "dwconv", "vec", "fallback"};
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    fprintf(f, "kernel %d %s '%s'", i, kinds[k->kind], k->node->src);
    if (k->pool) fprintf(f, " + max pool '%s'", k->pool->src);
    if (k->add) fprintf(f, " + %s '%s'", k->add->op == IR_OP_QADD ? "residual add" : "requant", k->add->src);
    if (k->kind == LOWER_K_FALLBACK) {
      if (k->fallback_op == LOWER_FB_RELAYOUT) fprintf(f, " (relayout for %s on the control core)\n", ir_op_name(k->node->op));
      else if (k->fb) fprintf(f, " (%s on the control core: %s)\n", ir_op_name(k->node->op), tpkg_op_name(k->fallback_op));
      else fprintf(f, " (%s on the control core)\n", ir_op_name(k->node->op));
      continue;
    }
    fprintf(f, " cmds=%u spad=%lld acc=%lld cycles=%llu", k->stream.n, (long long)k->spad_rows_used,
            (long long)k->acc_rows_used, (unsigned long long)est[i]);
    if (k->kind != LOWER_K_VEC) lower_sched_print(f, k);
    if (k->n_segs) {
      fprintf(f, " segments=%d (", k->n_segs);
      for (int j = 0; j < k->n_segs; j++) fprintf(f, "%s%u", j ? "," : "", k->segs[j].n);
      fprintf(f, " cmds)");
    }
    fprintf(f, "\n");
  }
  for (int i = 0; i < p->n_tensors; i++) {
    const lower_tensor *te = &p->tensors[i];
    fprintf(f, "tensor '%s' %s dram=%llu bytes=%llu", te->v->name,
            te->pack_b ? "blocked-packed" : te->blocked ? "blocked" : "plain",
            (unsigned long long)te->dram, (unsigned long long)te->bytes);
    if (te->alias >= 0) fprintf(f, " in '%s'+%lld", p->tensors[te->alias].v->name, (long long)te->alias_off);
    if (te->spad_row >= 0) fprintf(f, " resident spad_row=%lld", (long long)te->spad_row);
    fprintf(f, "\n");
  }
}

/* The record of fallback kernel k, running before package kernel `before`
 * (its operand array malloc'd: free_pkg). */
static int fallback_record(const lower_program *p, const lower_kernel *k, uint32_t before, tpkg_fb_record *f,
                           diag *d) {
  const ir_node *n = k->node;
  f->op = k->fallback_op;
  f->name = n->src;
  f->before_kernel = before;
  int nops = k->fb ? lower_fb_count(k->fb) : 2;
  tpkg_operand *ops = calloc((size_t)nops, sizeof *ops);
  if (!ops) return diag_oom(d);
  f->operands = ops;
  if (k->fb) { /* a core op: plain operands with its views, its parameters */
    const core_op *c = lower_fb_op(k->fb);
    for (int i = 0; i < nops; i++) lower_fb_operand(p, k->fb, i, &ops[i]);
    f->n_in = (uint32_t)nops - 1, f->n_out = 1;
    f->ints = c->ints, f->n_ints = c->n_ints;
    f->floats = c->floats, f->n_floats = c->n_floats;
    return 0;
  }
  /* QuantizeLinear, DequantizeLinear, Relayout: input and output as stored.
   * A blocked tensor of rank 3, [N, C, W], is described as [N, C, 1, W]; a
   * blocked matrix [R, K] (c = K, h = R) as [1, K, R, 1], and the plain side
   * in the same shape with the NHWC layout, whose bytes are the row-major
   * [R, K]: both sides then map element for element. */
  f->n_in = f->n_out = 1;
  const lower_tensor *blk = p->tensors[k->in].blocked ? &p->tensors[k->in] : &p->tensors[k->out];
  const int view3 = blk->blocked && blk->v->rank == 3, view2 = blk->blocked && blk->rk && blk->h > 1;
  for (int i = 0; i < 2; i++) {
    const lower_tensor *t = &p->tensors[i ? k->out : k->in];
    tpkg_operand *o = &ops[i];
    uint32_t dims[TPKG_MAX_RANK] = {0};
    if (view3 || view2) {
      const ir_value *v = t->v;
      uint32_t v3[4] = {(uint32_t)v->dims[0], (uint32_t)v->dims[1], 1, (uint32_t)v->dims[v->rank - 1]};
      uint32_t v2[4] = {1, (uint32_t)v->dims[v->rank - 1], (uint32_t)v->dims[0], 1};
      o->rank = 4;
      memcpy(dims, view3 ? v3 : v2, sizeof v3);
      o->layout = t->blocked ? TPKG_LAYOUT_BLOCKED : view2 ? TPKG_LAYOUT_NHWC : TPKG_LAYOUT_PLAIN;
    } else if (describe(t, n, &o->layout, &o->rank, dims, d)) {
      return -1;
    }
    for (int j = 0; j < (int)TPKG_MAX_RANK; j++) o->dims[j] = dims[j];
    o->dtype = tpkg_dtype(t->v->dtype);
    o->offset = (uint32_t)(t->dram + t->pack_off), o->size = (uint32_t)(t->bytes - t->pack_off);
    o->block = o->layout != TPKG_LAYOUT_BLOCKED ? 0 : t->pack_b ? (uint32_t)t->pack_b : (uint32_t)p->target->dim;
    if (t->v->quant.kind != IR_QUANT_NONE) o->scale = t->v->quant.scale[0], o->zp = t->v->quant.zero_point[0];
  }
  /* An ONNX QuantizeLinear/DequantizeLinear of the model carries its scale
   * and zero point as inputs (per tensor: lower.c checks). */
  if (n->n_in > 1 && n->in[1]->kind == IR_VALUE_CONST && f->op != LOWER_FB_RELAYOUT) {
    float sc = (float)ir_elem_f64(n->in[1]->dtype, n->in[1]->data, 0);
    int32_t zp = n->n_in > 2 && n->in[2]->kind == IR_VALUE_CONST ? (int32_t)ir_elem_i64(n->in[2]->dtype, n->in[2]->data, 0) : 0;
    tpkg_operand *q = &ops[k->fallback_op == LOWER_FB_QUANTIZE ? 1 : 0];
    q->scale = sc, q->zp = zp;
  }
  return 0;
}

/* Fills the package from p (arrays malloc'd into *pk's pointers; free_pkg). */
/* --int8-io: the QuantizeLinear of a graph input used by nothing else, and
 * the DequantizeLinear of a graph output, are left to the caller: the I/O
 * record describes the int8 tensor (its scale and zero point, its layout:
 * blocked when an NPU kernel reads or writes it) and the fallback op is not
 * in the package. Returns the kernel's
 * int8 tensor, or NULL when k is not such an edge op. */
static const lower_tensor *edge_int8(const ir_graph *g, const lower_program *p, const lower_kernel *k) {
  if (k->kind != LOWER_K_FALLBACK) return NULL;
  const ir_node *n = k->node;
  if (k->fallback_op == LOWER_FB_QUANTIZE && n->in[0]->kind == IR_VALUE_INPUT) {
    int uses = 0;
    for (int i = 0; i < g->n_nodes; i++)
      for (int j = 0; j < g->nodes[i]->n_in; j++) uses += g->nodes[i]->in[j] == n->in[0];
    return uses == 1 && !n->in[0]->is_output ? lower_find_tensor(p, n->out) : NULL;
  }
  if (k->fallback_op == LOWER_FB_DEQUANTIZE && n->out->is_output) return lower_find_tensor(p, n->in[0]);
  return NULL;
}

/* The tensor that carries graph value v across the package's interface. */
static const lower_tensor *io_tensor(const ir_graph *g, const lower_program *p, const ir_value *v, int int8_io) {
  for (int i = 0; int8_io && i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (edge_int8(g, p, k) && (k->node->in[0] == v || k->node->out == v)) return edge_int8(g, p, k);
  }
  return lower_find_tensor(p, v);
}

/* Command c of st as four little-endian words. */
static void read_cmd(const lower_stream *st, uint32_t c, uint32_t w[4]) {
  for (int j = 0; j < 4; j++) {
    const uint8_t *b = st->bytes + 16 * c + 4 * j;
    w[j] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  }
}

/* A kernel record's commands, framed (docs/package-format.md, rule 73): a
 * MARK with reset first (its own first MARK, or one put before a segment's
 * prologue), so the record starts as a run of its own even right after
 * another in one NPU run; the stream; then its counter snapshot into its
 * MARK record at dram. 0, or -1 when a MARK cannot be encoded. */
static int frame_stream(const lower_stream *st, int id, uint64_t dram, uint32_t (*cmds)[4], uint32_t *n) {
  tsl_mark_t head = {.kernel = id & 0xFFFF}, own;
  uint32_t w[4] = {0};
  if (st->n) read_cmd(st, 0, w);
  int lead = !(st->n && tsl_opcode(w) == TSL_OP_MARK && tsl_mark_decode(w, &own) == 0);
  if (!lead) head = own;
  head.reset = 1;
  *n = 0;
  if (tsl_mark_encode(&head, cmds[(*n)++])) return -1;
  for (uint32_t c = lead ? 0 : 1; c < st->n; c++) read_cmd(st, c, cmds[(*n)++]);
  tsl_mark_t end = {.kernel = id & 0xFFFF, .record = 1, .dram = (int64_t)dram};
  return tsl_mark_encode(&end, cmds[(*n)++]);
}

static int fill(const ir_graph *g, const lower_program *p, const uint64_t *est, tpkg_package *pk, const char **names,
                int int8_io, diag *d) {
  const tsl_target_t *t = p->target;
  int nk = 0, nf = 0;
  for (int i = 0; i < p->n_kernels; i++) {
    if (p->kernels[i].kind == LOWER_K_FALLBACK) nf++;
    else nk += p->kernels[i].n_segs ? p->kernels[i].n_segs : 1;
  }
  tpkg_kernel *ks = calloc((size_t)nk + 1, sizeof *ks);
  tpkg_fb_record *fs = calloc((size_t)nf + 1, sizeof *fs);
  tpkg_io *io = calloc((size_t)(g->n_inputs + g->n_outputs) + 1, sizeof *io);
  pk->kernels = ks, pk->fallbacks = fs, pk->io = io;
  if (!ks || !fs || !io) return diag_oom(d);
  pk->target_name = t->name;
  pk->target_hash = t->hash;
  if (p->dram_bytes > UINT32_MAX) return diag_set(d, "the DRAM window (%llu bytes) exceeds 4 GiB",
                                                  (unsigned long long)p->dram_bytes);
  /* The MARK records (one per kernel record, docs/package-format.md) after
   * the weights: the NPU's counter snapshots at each kernel's end. */
  uint64_t marks = p->dram_bytes, marks_bytes = (uint64_t)nk * TSL_MARK_RECORD_BYTES;
  if (marks + marks_bytes > UINT32_MAX)
    return diag_set(d, "the DRAM window (%llu bytes) exceeds 4 GiB", (unsigned long long)(marks + marks_bytes));
  pk->window = (tpkg_window){.window_bytes = (uint32_t)(marks + marks_bytes), .weights_offset = (uint32_t)p->consts_base,
                             .weights_bytes = (uint32_t)p->consts_bytes, .io_offset = 0,
                             .io_bytes = (uint32_t)p->io_bytes, .scratch_offset = (uint32_t)p->io_bytes,
                             .scratch_bytes = (uint32_t)(p->consts_base - p->io_bytes),
                             .marks_offset = (uint32_t)marks, .marks_bytes = (uint32_t)marks_bytes};
  pk->weights = p->consts;
  pk->n_weights = (uint32_t)p->consts_bytes;
  int ki = 0, fi = 0;
  for (int i = 0; i < p->n_kernels; i++) {
    const lower_kernel *k = &p->kernels[i];
    const lower_tensor *ti = k->in >= 0 ? &p->tensors[k->in] : NULL, *to = k->out >= 0 ? &p->tensors[k->out] : NULL;
    if (k->kind == LOWER_K_FALLBACK && int8_io && edge_int8(g, p, k)) continue;
    if (k->kind == LOWER_K_FALLBACK) {
      if (fallback_record(p, k, (uint32_t)ki, &fs[fi++], d)) return -1;
      continue;
    }
    /* A stream cut into segments (lower_segment.c) becomes consecutive
     * records with the same name and mark_id, one per segment
     * (docs/package-format.md); the figures go on the first. */
    names[2 * i] = k->node->src;
    names[2 * i + 1] = k->pool ? k->pool->src : k->add ? k->add->src : NULL; /* never both (fusable_add) */
    for (int sg = 0; sg < (k->n_segs ? k->n_segs : 1); sg++) {
      const lower_stream *st = k->n_segs ? &k->segs[sg] : &k->stream;
      tpkg_kernel *pkk = &ks[ki];
      uint32_t n = 0, (*cmds)[4] = malloc(sizeof *cmds * (st->n + LOWER_FRAME_CMDS));
      if (!cmds) return diag_oom(d);
      if (frame_stream(st, i, marks + (uint64_t)ki++ * TSL_MARK_RECORD_BYTES, cmds, &n)) {
        free(cmds);
        return diag_set(d, "internal: the MARKs framing kernel '%s' cannot be encoded", k->node->src);
      }
      pkk->name = k->node->src;
      pkk->onnx_nodes = &names[2 * i];
      pkk->n_onnx_nodes = k->pool || k->add ? 2 : 1;
      pkk->cmds = (const uint32_t(*)[4])cmds;
      pkk->n_cmds = n;
      pkk->mark_id = (uint32_t)i;
      if (sg) continue;
      pkk->estimate_cycles = est[i];
      pkk->useful_macs = node_macs(k->node);
      pkk->compulsory_dram_bytes = const_bytes(k->node) + (ti ? ti->bytes : 0) + (to ? to->bytes : 0);
    }
  }
  pk->n_kernels = (uint32_t)ki, pk->n_fallbacks = (uint32_t)fi;
  int n = 0;
  for (int dir = 0; dir < 2; dir++) {
    int cnt = dir ? g->n_outputs : g->n_inputs;
    for (int i = 0; i < cnt; i++) {
      const ir_value *v = dir ? g->outputs[i] : g->inputs[i];
      const lower_tensor *te = io_tensor(g, p, v, int8_io);
      if (!te) return diag_set(d, "graph %s '%s' is not used by any kernel", dir ? "output" : "input", v->name);
      tpkg_io *r = &io[n++];
      r->name = v->name;
      r->dir = (uint8_t)(dir ? TPKG_DIR_OUTPUT : TPKG_DIR_INPUT);
      r->dtype = tpkg_dtype(te->v->dtype);
      if (describe(te, g->nodes[0], &r->layout, &r->rank, r->dims, d)) return -1;
      if (te->v->quant.kind == IR_QUANT_TENSOR)
        r->scale = te->v->quant.scale[0], r->zero_point = te->v->quant.zero_point[0];
      r->offset = (uint32_t)(te->dram + te->pack_off), r->size = (uint32_t)(te->bytes - te->pack_off);
      r->block = (uint32_t)te->pack_b; /* 0: the DIM */
    }
  }
  pk->n_io = (uint32_t)n;
  return lower_beside(p, ks, pk->n_kernels, fs, pk->n_fallbacks, io, (uint32_t)g->n_inputs, d);
}

/* The package's bytes go to the .tpkg file and/or the C array: one
 * serialisation, so both hold the same bytes. */
static int write_outputs(const tpkg_package *pk, const lower_compile_opts *o, diag *d) {
  uint8_t *b;
  size_t n;
  if (tpkg_write(pk, &b, &n, d)) return -1;
  int rc = 0;
  if (o->out) rc = out_file_write(o->out, b, n, d);
  if (!rc && o->emit_c) rc = tpkg_emit_c_file(b, n, NULL, o->emit_c, 0, d);
  free(b);
  return rc;
}

static void free_pkg(tpkg_package *pk) {
  for (uint32_t i = 0; pk->kernels && i < pk->n_kernels; i++) free((void *)pk->kernels[i].cmds);
  free((void *)pk->kernels);
  for (uint32_t i = 0; pk->fallbacks && i < pk->n_fallbacks; i++) free((void *)pk->fallbacks[i].operands);
  free((void *)pk->fallbacks);
  free((void *)pk->io);
}

int lower_compile_check_print(const char *option, const char *name, diag *d) {
  diag pd = {{0}};
  if (!name || lower_stage_find(name) >= 0 || !pipeline_check_pass_name(option, name, &pd)) return 0;
  /* pd: "OPTION: unknown pass 'x' (passes: a, b)"; the stages join the list. */
  const char *list = strstr(pd.msg, "(passes: ");
  size_t n = list ? strlen(list) : 0;
  if (n && list[n - 1] == ')') n--;
  return diag_set(d, "%s: unknown pass '%s' %.*s; lowering stages: layout, fusion, sram-plan, tiling, emission)",
                  option, name, (int)n, list ? list : "(");
}

/* --print-before/--print-after of the lowering's stages: "// before STAGE"
 * shows the stage before it (the quantised IR before "layout"). */
static void print_stages(FILE *f, const ir_graph *g, const lower_program *p, const lower_compile_opts *o) {
  const int before = lower_stage_find(o->print_before), after = lower_stage_find(o->print_after);
  for (int s = 0; s < LOWER_NSTAGES; s++) {
    if (s == before) {
      fprintf(f, "// before %s\n", lower_stage_name(s));
      if (s == 0) ir_print(f, g, NULL);
      else lower_dump_stage(f, p, s - 1);
    }
    if (s == after || o->print_after_all) {
      fprintf(f, "// after %s\n", lower_stage_name(s));
      lower_dump_stage(f, p, s);
    }
  }
  fflush(f);
}

int lower_compile(const ir_graph *g, const lower_compile_opts *o, diag *d) {
  const char *name = o->target ? o->target : "npu8";
  const tsl_target_t *t = tsl_target_find(name);
  if (!t) return diag_set(d, "--target: unknown target '%s' (npu4, npu8, npu16)", name);
  int unsupported = 0;
  lower_opts lo = {.no_fusion = o->no_fusion, .no_sram_residency = o->no_sram_residency,
                   .no_pack_input = o->no_pack_input, .unsupported = &unsupported,
                   .cmd_sram_limit = o->cmd_sram_limit, .sched_for = o->sched_for, .sched_ctx = o->sched_ctx,
                   .calibrated = o->calibrated, .npu_only = o->npu_only};
  tune_table tuned = {0};
  if (o->tuning_log && (tune_table_load(&tuned, o->tuning_log, stderr, d) ||
                        tune_apply(g, t, &lo, &tuned, stderr, d))) {
    tune_table_free(&tuned);
    return unsupported ? LOWER_COMPILE_UNSUPPORTED : -1;
  }
  lower_program *p = lower_graph(g, t, &lo, d);
  tune_table_free(&tuned); /* the hook is done with it */
  if (!p) return unsupported ? LOWER_COMPILE_UNSUPPORTED : -1;
  int rc = 0;
  uint64_t *est = calloc((size_t)p->n_kernels + 1, sizeof *est);
  if (!est) rc = diag_oom(d);
  for (int i = 0; !rc && i < p->n_kernels; i++)
    if (p->kernels[i].kind != LOWER_K_FALLBACK) /* each record (segment) ends writing its counter record */
      est[i] = lower_estimate_cycles(t, &p->kernels[i].stream) +
               (uint64_t)(p->kernels[i].n_segs ? p->kernels[i].n_segs : 1) * lower_record_cycles(t);
  if (!rc) print_stages(stdout, g, p, o);
  if (!rc && o->report) report(o->report, p, est, o->cmd_sram_limit > 0 ? o->cmd_sram_limit : t->cmd_sram_bytes);
  if (!rc && (o->out || o->emit_c)) {
    tpkg_package pk = {0};
    const char **names = calloc(2 * (size_t)p->n_kernels + 1, sizeof *names); /* ONNX nodes of each kernel */
    rc = names ? fill(g, p, est, &pk, names, o->int8_io, d) : diag_oom(d);
    if (!rc) rc = write_outputs(&pk, o, d);
    free_pkg(&pk);
    free(names);
  }
  free(est);
  lower_program_free(p);
  return rc;
}
