/* test_lower_exact: the lowering against the int8 reference, bit for bit.
 *
 * Each case builds a small quantised graph (random int8 data, random
 * requantisation constants), runs it on ref_int8, lowers it for npu4, npu8
 * and npu16, runs every kernel's stream on the NPU C model over one DRAM
 * window (activations + constants, the input packed at the edge as the
 * runtime does) and compares the unpacked output with the reference.
 * Ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "npu_model.h"
#include "npy.h"
#include "onnx_import.h"
#include "pipeline.h"
#include "ref_exec.h"

/* The forced command SRAM budget of the segmenting case (bytes). */
#ifndef SEG_LIMIT
#define SEG_LIMIT 224
#endif

static uint32_t rng = 12345;
static int rnd(int lo, int hi) { /* uniform in [lo, hi] */
  rng = rng * 1103515245u + 12345u;
  return lo + (int)((rng >> 8) % (uint32_t)(hi - lo + 1));
}

/* ---- building graphs ---- */

static void set_quant(ir_graph *g, ir_value *v, int zp) {
  v->quant.kind = IR_QUANT_TENSOR;
  v->quant.n = 1;
  v->quant.scale = arena_alloc(g->arena, sizeof(float));
  v->quant.zero_point = arena_alloc(g->arena, sizeof(int32_t));
  v->quant.scale[0] = 1.0f;
  v->quant.zero_point[0] = zp;
}

static ir_value *act(ir_graph *g, const char *name, int rank, const int64_t *dims, int zp) {
  diag d = {0};
  ir_value *v = ir_value_new(g, name, IR_VALUE_INPUT, &d);
  v->dtype = IR_I8;
  v->rank = rank;
  memcpy(v->dims, dims, sizeof(int64_t) * (size_t)rank);
  set_quant(g, v, zp);
  return v;
}

static ir_value *cnst(ir_graph *g, const char *name, ir_dtype t, int rank, const int64_t *dims, int lo, int hi) {
  diag d = {0};
  ir_value *v = ir_value_new(g, name, IR_VALUE_CONST, &d);
  v->dtype = t;
  v->rank = rank;
  memcpy(v->dims, dims, sizeof(int64_t) * (size_t)rank);
  ir_value_alloc_data(g, v, &d);
  for (int64_t i = 0; i < ir_value_numel(v); i++) ir_elem_set_f64(t, v->data, i, rnd(lo, hi));
  set_quant(g, v, 0);
  return v;
}

/* Requantisation and clamp attributes: multipliers in [2^30, 2^31), shifts
 * that bring a reduction of `red` products to about the int8 range. */
static void set_requant(ir_graph *g, ir_node *n, int64_t m, int64_t red, int lo, int hi) {
  diag d = {0};
  int64_t *mult = malloc(sizeof(int64_t) * (size_t)m), *shift = malloc(sizeof(int64_t) * (size_t)m);
  int s = 31 + 6;
  for (int64_t r = red; r > 1; r /= 2) s++;
  s -= 5;
  for (int64_t i = 0; i < m; i++) {
    mult[i] = (1ll << 30) + rnd(0, 1 << 29) * 2ll;
    shift[i] = s + rnd(-1, 1);
  }
  ir_attr_set_ints(g, n, "mult", mult, (int)m, &d);
  ir_attr_set_ints(g, n, "shift", shift, (int)m, &d);
  ir_attr_set_int(g, n, "lo", lo, &d);
  ir_attr_set_int(g, n, "hi", hi, &d);
  free(mult);
  free(shift);
}

typedef struct {
  int c, m, h, w, kh, kw, sy, sx, dy, dx, pt, pl, pb, pr, group, zx, zy, lo, hi;
} conv_spec;

/* Appends a QConv reading x; returns its output value. */
static ir_value *add_conv(ir_graph *g, ir_value *x, const conv_spec *s, const char *name) {
  diag d = {0};
  char nm[64];
  int oh = (s->h + s->pt + s->pb - s->dy * (s->kh - 1) - 1) / s->sy + 1;
  int ow = (s->w + s->pl + s->pr - s->dx * (s->kw - 1) - 1) / s->sx + 1;
  int64_t wd[4] = {s->m, s->c / s->group, s->kh, s->kw}, bd[1] = {s->m}, od[4] = {1, s->m, oh, ow};
  snprintf(nm, sizeof nm, "%s.w", name);
  ir_value *w = cnst(g, nm, IR_I8, 4, wd, -127, 127);
  snprintf(nm, sizeof nm, "%s.b", name);
  ir_value *b = cnst(g, nm, IR_I32, 1, bd, -3000, 3000);
  b->quant.kind = IR_QUANT_NONE;
  ir_value *y = act(g, name, 4, od, s->zy);
  ir_value *in[3] = {x, w, b};
  ir_node *n = ir_node_new(g, IR_OP_QCONV, name, in, 3, y, &d);
  int64_t st[2] = {s->sy, s->sx}, dl[2] = {s->dy, s->dx}, pd[4] = {s->pt, s->pl, s->pb, s->pr};
  ir_attr_set_ints(g, n, "strides", st, 2, &d);
  ir_attr_set_ints(g, n, "dilations", dl, 2, &d);
  ir_attr_set_ints(g, n, "pads", pd, 4, &d);
  ir_attr_set_int(g, n, "group", s->group, &d);
  set_requant(g, n, s->m, (int64_t)(s->c / s->group) * s->kh * s->kw, s->lo, s->hi);
  return y;
}

static ir_value *add_matmul(ir_graph *g, ir_value *a, int r, int k, int nn, int zy, const char *name) {
  diag d = {0};
  char nm[64];
  int64_t bd[2] = {k, nn}, cd[1] = {nn}, od[2] = {r, nn};
  snprintf(nm, sizeof nm, "%s.w", name);
  ir_value *w = cnst(g, nm, IR_I8, 2, bd, -127, 127);
  snprintf(nm, sizeof nm, "%s.b", name);
  ir_value *b = cnst(g, nm, IR_I32, 1, cd, -3000, 3000);
  b->quant.kind = IR_QUANT_NONE;
  ir_value *y = act(g, name, 2, od, zy);
  ir_value *in[3] = {a, w, b};
  ir_node *n = ir_node_new(g, IR_OP_QMATMUL, name, in, 3, y, &d);
  set_requant(g, n, nn, k, -128, 127);
  return y;
}

static ir_value *add_qadd(ir_graph *g, ir_value *a, ir_value *b, int zy, int lo, int hi, const char *name) {
  diag d = {0};
  ir_value *y = act(g, name, a->rank, a->dims, zy);
  ir_value *in[2] = {a, b};
  ir_node *n = ir_node_new(g, IR_OP_QADD, name, in, 2, y, &d);
  ir_attr_set_int(g, n, "mult_a", (1 << 30) + rnd(0, 1 << 29), &d);
  ir_attr_set_int(g, n, "mult_b", (1 << 29) + rnd(0, 1 << 29), &d);
  ir_attr_set_int(g, n, "shift", 31, &d);
  ir_attr_set_int(g, n, "lo", lo, &d);
  ir_attr_set_int(g, n, "hi", hi, &d);
  return y;
}

static ir_value *add_requant(ir_graph *g, ir_value *x, int zy, const char *name) {
  diag d = {0};
  ir_value *y = act(g, name, x->rank, x->dims, zy);
  ir_node *n = ir_node_new(g, IR_OP_QREQUANT, name, &x, 1, y, &d);
  int64_t m = (1 << 30) + rnd(0, 1 << 30), sh = 31;
  ir_attr_set_ints(g, n, "mult", &m, 1, &d);
  ir_attr_set_ints(g, n, "shift", &sh, 1, &d);
  return y;
}

/* QAveragePool (avg = 1) or MaxPool over a k x k window. */
static ir_value *add_pool(ir_graph *g, ir_value *x, int avg, int k, int st, int pad, int cip, int zy, const char *name) {
  diag d = {0};
  int oh = (int)(x->dims[2] + 2 * pad - k) / st + 1, ow = (int)(x->dims[3] + 2 * pad - k) / st + 1;
  int64_t od[4] = {1, x->dims[1], oh, ow};
  ir_value *y = act(g, name, 4, od, avg ? zy : x->quant.zero_point[0]);
  ir_node *n = ir_node_new(g, avg ? IR_OP_QAVGPOOL : IR_OP_MAXPOOL, name, &x, 1, y, &d);
  int64_t ks[2] = {k, k}, ss[2] = {st, st}, pd[4] = {pad, pad, pad, pad}, dl[2] = {1, 1};
  ir_attr_set_ints(g, n, "kernel_shape", ks, 2, &d);
  ir_attr_set_ints(g, n, "strides", ss, 2, &d);
  ir_attr_set_ints(g, n, "pads", pd, 4, &d);
  ir_attr_set_ints(g, n, "dilations", dl, 2, &d);
  ir_attr_set_int(g, n, "ceil_mode", 0, &d);
  if (avg) {
    int64_t m = (1 << 30) + rnd(0, 1 << 29), sh = 30;
    ir_attr_set_ints(g, n, "mult", &m, 1, &d);
    ir_attr_set_ints(g, n, "shift", &sh, 1, &d);
    ir_attr_set_int(g, n, "count_include_pad", cip, &d);
    ir_attr_set_int(g, n, "lo", -128, &d);
    ir_attr_set_int(g, n, "hi", 127, &d);
  }
  return y;
}

static ir_value *add_flatten(ir_graph *g, ir_value *x, const char *name) {
  diag d = {0};
  int64_t od[2] = {1, x->dims[1]};
  ir_value *y = act(g, name, 2, od, x->quant.zero_point[0]);
  ir_node *n = ir_node_new(g, IR_OP_FLATTEN, name, &x, 1, y, &d);
  ir_attr_set_int(g, n, "axis", 1, &d);
  return y;
}

/* ---- running ---- */

/* Runs g on the reference; returns the graph output's data (malloc'd). */
static int8_t *run_ref(ir_graph *g, const int8_t *input) {
  int nv = g->n_values;
  void **data = calloc((size_t)nv, sizeof(void *));
  int8_t *result = NULL;
  for (int i = 0; i < nv; i++) {
    ir_value *v = g->values[i];
    if (v->kind == IR_VALUE_CONST) data[i] = v->data;
    else if (v == g->inputs[0]) data[i] = (void *)input;
  }
  for (int i = 0; i < g->n_nodes; i++) {
    ir_node *n = g->nodes[i];
    const void *in[IR_MAX_INPUTS];
    for (int k = 0; k < n->n_in; k++)
      for (int j = 0; j < nv; j++)
        if (g->values[j] == n->in[k]) in[k] = data[j];
    int oi = 0;
    while (g->values[oi] != n->out) oi++;
    data[oi] = malloc((size_t)ir_value_numel(n->out));
    diag d = {0};
    if (ref_eval(n, in, data[oi], &d)) {
      fprintf(stderr, "ref: %s\n", d.msg);
      exit(2);
    }
  }
  for (int i = 0; i < nv; i++) {
    if (g->values[i] == g->outputs[0]) result = data[i];
    else if (g->values[i]->kind == IR_VALUE_NODE) free(data[i]);
  }
  free(data);
  return result;
}

static int passed, failed;
static int no_fusion; /* lower with --no-fusion */
static int no_sram;   /* lower with --no-sram-residency */
static int64_t cmd_limit; /* > 0: command SRAM budget (forces segments; every case must then segment) */
static int want_resident; /* 1: the case must keep some tensor in the scratchpad (SRAM residency taken) */

/* Runs fallback kernel k on the host as the firmware would: its input from
 * the DRAM window (unpacked when blocked), ref_eval, its output back. */
static int run_fallback(const lower_program *p, const lower_kernel *k, uint8_t *dram, char *msg, size_t len) {
  const ir_node *n = k->node;
  int dim = (int)p->target->dim;
  const void *in[IR_MAX_INPUTS] = {0};
  void *tmp[IR_MAX_INPUTS] = {0};
  for (int i = 0; i < n->n_in; i++) {
    const ir_value *v = n->in[i];
    if (v->kind == IR_VALUE_CONST) {
      in[i] = v->data;
      continue;
    }
    const lower_tensor *t = lower_find_tensor(p, v);
    if (t->blocked) {
      tmp[i] = malloc((size_t)ir_value_numel(v));
      lower_unpack(t, dim, dram + t->dram, tmp[i]);
      in[i] = tmp[i];
    } else {
      in[i] = dram + t->dram;
    }
  }
  const lower_tensor *to = lower_find_tensor(p, n->out);
  void *out = malloc((size_t)ir_value_numel(n->out) * ir_dtype_size(n->out->dtype));
  diag d = {0};
  int rc = ref_eval(n, in, out, &d);
  if (rc) snprintf(msg, len, "fallback %s: %s", n->src, d.msg);
  else if (to->blocked) lower_pack(to, dim, out, dram + to->dram);
  else memcpy(dram + to->dram, out, to->bytes);
  for (int i = 0; i < n->n_in; i++) free(tmp[i]);
  free(out);
  return rc;
}

/* Lowers g for target tname, runs it (NPU kernels on the C model, fallbacks
 * on the host), compares graph output 0 with ref byte for byte. */
static void check(const char *what, ir_graph *g, const char *tname, const void *input, const void *ref,
                  lower_sched sched) {
  const tsl_target_t *t = tsl_target_find(tname);
  lower_opts o = {.sched = sched, .no_fusion = no_fusion, .no_sram_residency = no_sram, .cmd_sram_limit = cmd_limit};
  diag d = {0};
  lower_program *p = lower_graph(g, t, &o, &d);
  if (!p) {
    printf("FAIL: %s on %s: lowering: %s\n", what, tname, d.msg);
    failed++;
    return;
  }
  uint8_t *dram = calloc(p->dram_bytes, 1);
  memcpy(dram + p->consts_base, p->consts, p->consts_bytes);
  const lower_tensor *ti = lower_find_tensor(p, g->inputs[0]), *to = lower_find_tensor(p, g->outputs[0]);
  if (ti->blocked) lower_pack(ti, (int)t->dim, input, dram + ti->dram);
  else memcpy(dram + ti->dram, input, ti->bytes);
  npu_model_t *m = npu_model_new(t);
  int ok = 1, nfb = 0, nseg = 0;
  uint32_t cmds = 0;
  for (int i = 0; i < p->n_kernels && ok; i++) {
    const lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK) {
      char msg[1100];
      nfb++;
      if (run_fallback(p, k, dram, msg, sizeof msg)) {
        printf("FAIL: %s on %s: %s\n", what, tname, msg);
        ok = 0;
      }
      continue;
    }
    /* Segment by segment, as the firmware runs a stream too big for the
     * command SRAM: each its own run (tokens and registers reset). */
    int ns = k->n_segs ? k->n_segs : 1;
    nseg += k->n_segs;
    for (int s = 0; s < ns && ok; s++) {
      const lower_stream *st = k->n_segs ? &k->segs[s] : &k->stream;
      if (cmd_limit > 0 && 16 * (int64_t)st->n > cmd_limit) {
        printf("FAIL: %s on %s: kernel %d segment %d is %u commands, over the %lld-byte budget\n", what, tname, i, s,
               st->n, (long long)cmd_limit);
        ok = 0;
        break;
      }
      npu_run_t run = {.stream = st->bytes, .stream_len = st->n, .dram = dram, .dram_size = p->dram_bytes};
      npu_result_t r;
      cmds += run.stream_len;
      if (npu_model_run(m, &run, &r) != 0) {
        printf("FAIL: %s on %s: kernel %d (%s) segment %d: %s\n", what, tname, i, k->node->src, s, r.message);
        ok = 0;
        break;
      }
      /* The compiler's estimate (lower_estimate_cycles, the kernel table's
       * figure) within 10% of the C model's cycles for the same stream. */
      uint64_t est = lower_estimate_cycles(t, st), cyc = npu_model_counters(m)[TSL_CNT_CYCLES];
      if (10 * (est > cyc ? est - cyc : cyc - est) > cyc) {
        printf("FAIL: %s on %s: kernel %d (%s) segment %d: estimate %llu cycles, C model %llu (over 10%% apart)\n",
               what, tname, i, k->node->src, s, (unsigned long long)est, (unsigned long long)cyc);
        ok = 0;
      }
    }
  }
  /* Two weight buffers asked for: the conv got them (not the MARK schedule). */
  for (int i = 0; i < p->n_kernels && ok && sched.wbuf == 2; i++) {
    const lower_kernel *k = &p->kernels[i];
    if ((k->kind == LOWER_K_CONV || k->kind == LOWER_K_DWCONV) && k->sched.wbuf != 2) {
      printf("FAIL: %s on %s: kernel %d has %d weight buffers, not 2\n", what, tname, i, k->sched.wbuf);
      ok = 0;
    }
  }
  if (ok && cmd_limit > 0 && nseg == 0) {
    printf("FAIL: %s on %s: a %lld-byte command SRAM budget cut no stream into segments\n", what, tname,
           (long long)cmd_limit);
    ok = 0;
  }
  if (ok) {
    const ir_value *ov = g->outputs[0];
    int64_t n = ir_value_numel(ov), bad = 0, first = -1;
    size_t es = ir_dtype_size(ov->dtype);
    uint8_t *out = malloc((size_t)n * es);
    if (to->blocked) lower_unpack(to, (int)t->dim, dram + to->dram, (int8_t *)out);
    else memcpy(out, dram + to->dram, (size_t)n * es);
    for (int64_t i = 0; i < n; i++)
      if (memcmp(out + i * es, (const uint8_t *)ref + i * es, es) && bad++ == 0) first = i;
    if (bad) {
      printf("FAIL: %s on %s: %lld of %lld outputs differ (first at %lld)\n", what, tname, (long long)bad,
             (long long)n, (long long)first);
      ok = 0;
    }
    free(out);
  }
  int nres = 0;
  for (int i = 0; i < p->n_tensors; i++) nres += p->tensors[i].spad_row >= 0;
  if (ok && want_resident && !nres) {
    printf("FAIL: %s on %s: no tensor stayed in the scratchpad\n", what, tname);
    ok = 0;
  }
  if (ok) {
    printf("PASS: %s on %s (%d kernels, %d fallbacks, %u commands, %d segments, %d resident)\n", what, tname,
           p->n_kernels - nfb, nfb, cmds, nseg, nres);
    passed++;
  } else {
    failed++;
  }
  npu_model_free(m);
  free(dram);
  lower_program_free(p);
}

/* A net from tests/models: import, graph and quantisation passes with the
 * first calibration samples, then one held-out input through both paths. */
static void net_case(const char *net, unsigned targets_mask) {
  char path[512], err[256];
  diag d = {0};
  snprintf(path, sizeof path, "%s/nets/%s.onnx", MODELS_DIR, net);
  ir_graph *g = onnx_import_file(path, NULL, 0, &d);
  npy_array cal = {0}, ev = {0};
  snprintf(path, sizeof path, "%s/calib/%s.calib.npy", MODELS_DIR, net);
  int rc = !g || npy_read(path, &cal, err, sizeof err);
  snprintf(path, sizeof path, "%s/calib/%s.eval.npy", MODELS_DIR, net);
  rc = rc || npy_read(path, &ev, err, sizeof err);
  pipeline_opts po = {.dump = stderr};
  rc = rc || pipeline_graph(g, &po, &d);
  if (!rc) {
    size_t per = ev.nbytes / (size_t)ev.shape[0];
    const void *samples[4];
    int ns = cal.shape[0] < 4 ? (int)cal.shape[0] : 4;
    for (int i = 0; i < ns; i++) samples[i] = (const uint8_t *)cal.data + per * (size_t)i;
    calib_data cd = {.n_samples = ns, .n_inputs = 1, .samples = samples, .method = CALIB_MINMAX};
    po.calib = &cd;
    rc = pipeline_quant(g, &po, &d);
  }
  void *outs[1] = {0};
  const void *ins[1] = {ev.data};
  rc = rc || ref_run(g, ins, outs, NULL, NULL, &d);
  if (rc) {
    printf("FAIL: %s: setup: %s %s\n", net, d.msg, err);
    failed++;
  } else {
    static const char *targets[] = {"npu4", "npu8", "npu16"};
    for (int i = 0; i < 3; i++)
      if (targets_mask & (1u << i)) check(net, g, targets[i], ev.data, outs[0], (lower_sched){0});
  }
  free(outs[0]);
  npy_free(&cal);
  npy_free(&ev);
  ir_graph_free(g);
}

static void run_case(const char *what, ir_graph *g, lower_sched sched) {
  int64_t n = ir_value_numel(g->inputs[0]);
  int8_t *input = malloc((size_t)n);
  for (int64_t i = 0; i < n; i++) input[i] = (int8_t)rnd(-128, 127);
  int8_t *ref = run_ref(g, input);
  /* The case must exercise the arithmetic: outputs spread, not all clamped. */
  int seen[256] = {0}, distinct = 0;
  for (int64_t i = 0; i < ir_value_numel(g->outputs[0]); i++) distinct += !seen[ref[i] + 128]++;
  if (distinct < 8) {
    printf("FAIL: %s: the reference output has only %d distinct values (a weak case)\n", what, distinct);
    failed++;
  }
  static const char *targets[] = {"npu4", "npu8", "npu16"};
  for (int i = 0; i < 3; i++) check(what, g, targets[i], input, ref, sched);
  free(input);
  free(ref);
  ir_graph_free(g);
}

static void conv_case(const char *what, conv_spec s, lower_sched sched) {
  diag d = {0};
  ir_graph *g = ir_graph_new(what, &d);
  int64_t xd[4] = {1, s.c, s.h, s.w};
  ir_value *x = act(g, "x", 4, xd, s.zx);
  ir_add_input(g, x, &d);
  ir_add_output(g, add_conv(g, x, &s, "conv"), &d);
  run_case(what, g, sched);
}

int main(void) {
  lower_sched dflt = {0};
  /* c m h w kh kw sy sx dy dx pt pl pb pr group zx zy lo hi */
  conv_case("conv3x3 c3 m5 7x9 pad1", (conv_spec){3, 5, 7, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -3, 4, -128, 127}, dflt);
  conv_case("conv3x3 c10 m13 9x8 stride2", (conv_spec){10, 13, 9, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 17, -9, -128, 127},
            dflt);
  conv_case("conv1x1 c17 m9 5x5", (conv_spec){17, 9, 5, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, -128, 0, -128, 127}, dflt);
  conv_case("conv3x3 dilation2 pad2", (conv_spec){6, 6, 9, 7, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1, 5, 3, -128, 127}, dflt);
  conv_case("conv5x5 zx100 relu6-like clamp", (conv_spec){4, 7, 11, 9, 5, 5, 1, 2, 1, 1, 2, 2, 2, 2, 1, 100, -20, -20, 60},
            dflt);
  conv_case("conv asymmetric pads 0,1,1,0", (conv_spec){5, 3, 6, 5, 3, 3, 1, 1, 1, 1, 0, 1, 1, 0, 1, -7, 2, -128, 127},
            dflt);
  conv_case("conv group2 c8 m6", (conv_spec){8, 6, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, 9, -1, -128, 127}, dflt);
  conv_case("depthwise c11 3x3 stride2", (conv_spec){11, 11, 9, 9, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 11, -5, 6, -128, 127},
            dflt);
  conv_case("depthwise c20 3x3 pad1", (conv_spec){20, 20, 6, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 20, 30, 0, 0, 127}, dflt);
  conv_case("conv c9 m40 tiles oh2 G1", (conv_spec){9, 40, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -128, 127},
            (lower_sched){.oh_tile = 2, .ob_group = 1});
  conv_case("conv c9 m40 tiles oh3 G3", (conv_spec){9, 40, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -128, 127},
            (lower_sched){.oh_tile = 3, .ob_group = 3});

  /* Weight chunks and input row tiles, in both loop orders (MARK between reloads). */
  conv_case("conv tiled rows-outer oh2 chunk2", (conv_spec){9, 40, 9, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1, -128, 127},
            (lower_sched){.oh_tile = 2, .ob_group = 1, .ob_chunk = 2, .order = 1});
  conv_case("conv tiled chunks-outer oh3 s2 chunk3", (conv_spec){9, 40, 11, 6, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, -6, 1, -128, 127},
            (lower_sched){.oh_tile = 3, .ob_group = 3, .ob_chunk = 3, .order = 2});
  /* Two weight buffers (the input loaded once): the next chunk loads while
   * one computes, EXEC->LOAD tokens from ENOPs instead of MARKs. */
  conv_case("conv 2 weight buffers chunk1", (conv_spec){9, 40, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 1, -128, 127},
            (lower_sched){.ob_chunk = 1, .wbuf = 2});
  conv_case("conv 2 weight buffers rows-outer oh3 chunk2 G2", (conv_spec){9, 40, 4, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -4,
            2, -128, 127}, (lower_sched){.oh_tile = 3, .ob_group = 2, .ob_chunk = 2, .order = 1, .wbuf = 2});
  conv_case("conv 2 weight buffers chunks-outer oh3 chunk3", (conv_spec){9, 40, 4, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0,
            -128, 127}, (lower_sched){.oh_tile = 3, .ob_group = 1, .ob_chunk = 3, .order = 2});
  /* More output blocks than PARAM rows: windows of PARAM rows, a MARK between. */
  conv_case("conv1x1 m1100 2 weight buffers PARAM windows", (conv_spec){9, 1100, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 3,
            -2, -128, 127}, (lower_sched){.ob_chunk = 16, .wbuf = 2});
  conv_case("conv3x3 m1100 2 weight buffers PARAM windows rows-outer oh3", (conv_spec){5, 1100, 4, 4, 3, 3, 1, 1, 1, 1, 1,
            1, 1, 1, 1, -1, 5, -128, 127}, (lower_sched){.oh_tile = 3, .ob_chunk = 24, .order = 1, .wbuf = 2});
  conv_case("depthwise 2 weight buffers chunk1", (conv_spec){20, 20, 9, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 20, 7, 0, -128, 127},
            (lower_sched){.ob_chunk = 1, .wbuf = 2});
  conv_case("depthwise tiled oh2 chunk1 dil2", (conv_spec){20, 20, 9, 7, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 20, 7, 0, -128, 127},
            (lower_sched){.oh_tile = 2, .ob_group = 1, .ob_chunk = 1, .order = 2});
  { /* matmul */
    diag d = {0};
    ir_graph *g = ir_graph_new("matmul", &d);
    int64_t ad[2] = {3, 20};
    ir_value *a = act(g, "a", 2, ad, -11);
    ir_add_input(g, a, &d);
    ir_add_output(g, add_matmul(g, a, 3, 20, 11, 5, "mm"), &d);
    run_case("matmul 3x20 x 20x11", g, dflt);
  }
  { /* K = 1100: over 255 input blocks at npu4 (several accumulating MATMULs) */
    diag d = {0};
    ir_graph *g = ir_graph_new("matmul", &d);
    int64_t ad[2] = {2, 1100};
    ir_value *a = act(g, "a", 2, ad, 4);
    ir_add_input(g, a, &d);
    ir_add_output(g, add_matmul(g, a, 2, 1100, 6, -2, "mm"), &d);
    run_case("matmul 2x1100 x 1100x6", g, dflt);
  }
  { /* a chain: conv -> depthwise -> 1x1 conv, intermediates through DRAM */
    diag d = {0};
    ir_graph *g = ir_graph_new("chain", &d);
    int64_t xd[4] = {1, 3, 10, 9};
    ir_value *x = act(g, "x", 4, xd, 0);
    ir_add_input(g, x, &d);
    conv_spec s1 = {3, 12, 10, 9, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, -128, -128, 127};
    ir_value *y1 = add_conv(g, x, &s1, "c1");
    conv_spec s2 = {12, 12, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 12, -128, -100, -100, 127};
    ir_value *y2 = add_conv(g, y1, &s2, "dw");
    conv_spec s3 = {12, 7, 5, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, -100, 3, -128, 127};
    ir_add_output(g, add_conv(g, y2, &s3, "pw"), &d);
    run_case("chain conv-dw-pw (resident intermediates)", g, dflt);
  }
  { /* the same chain with every intermediate through DRAM */
    diag d = {0};
    ir_graph *g = ir_graph_new("chain", &d);
    int64_t xd[4] = {1, 3, 10, 9};
    ir_value *x = act(g, "x", 4, xd, 0);
    ir_add_input(g, x, &d);
    conv_spec s1 = {3, 12, 10, 9, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, -128, -128, 127};
    conv_spec s2 = {12, 12, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 12, -128, -100, -100, 127};
    conv_spec s3 = {12, 7, 5, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, -100, 3, -128, 127};
    ir_value *y2 = add_conv(g, add_conv(g, x, &s1, "c1"), &s2, "dw");
    ir_add_output(g, add_conv(g, y2, &s3, "pw"), &d);
    no_sram = 1;
    run_case("chain conv-dw-pw (--no-sram-residency)", g, dflt);
    no_sram = 0;
  }
  { /* residual: x -> conv -> QAdd(conv, x) */
    diag d = {0};
    ir_graph *g = ir_graph_new("residual", &d);
    int64_t xd[4] = {1, 10, 7, 6};
    ir_value *x = act(g, "x", 4, xd, 3);
    ir_add_input(g, x, &d);
    conv_spec s1 = {10, 10, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, -5, -5, 127};
    ir_value *y1 = add_conv(g, x, &s1, "c1");
    ir_add_output(g, add_qadd(g, y1, x, 7, -100, 127, "add"), &d);
    run_case("residual conv + QAdd", g, dflt);
  }
  { /* conv -> maxpool 3x3 s2 p1 */
    diag d = {0};
    ir_graph *g = ir_graph_new("maxpool", &d);
    int64_t xd[4] = {1, 5, 9, 11};
    ir_value *x = act(g, "x", 4, xd, -2);
    ir_add_input(g, x, &d);
    conv_spec s1 = {5, 9, 9, 11, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -30, -30, 127};
    ir_value *y1 = add_conv(g, x, &s1, "c1");
    ir_add_output(g, add_pool(g, y1, 0, 3, 2, 1, 0, 0, "mp"), &d);
    run_case("conv + maxpool 3x3 s2 p1 (fused)", g, dflt);
  }
  { /* the same, unfused */
    diag d = {0};
    ir_graph *g = ir_graph_new("maxpool", &d);
    int64_t xd[4] = {1, 5, 9, 11};
    ir_value *x = act(g, "x", 4, xd, -2);
    ir_add_input(g, x, &d);
    conv_spec s1 = {5, 9, 9, 11, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -30, -30, 127};
    ir_add_output(g, add_pool(g, add_conv(g, x, &s1, "c1"), 0, 2, 2, 0, 0, 0, "mp"), &d);
    no_fusion = 1;
    run_case("conv + maxpool 2x2 s2 (--no-fusion)", g, dflt);
    no_fusion = 0;
  }
  { /* avg pools (both divisors), requant, global pool, flatten, matmul */
    diag d = {0};
    ir_graph *g = ir_graph_new("pools", &d);
    int64_t xd[4] = {1, 11, 7, 7};
    ir_value *x = act(g, "x", 4, xd, 9);
    ir_add_input(g, x, &d);
    ir_value *p1 = add_pool(g, x, 1, 3, 1, 1, 0, -4, "avg_excl");
    ir_value *p2 = add_pool(g, p1, 1, 3, 2, 1, 1, 6, "avg_incl");
    ir_value *r = add_requant(g, p2, -3, "rq");
    ir_value *gp = add_pool(g, r, 1, 4, 1, 0, 0, 2, "gap");
    ir_value *f = add_flatten(g, gp, "flat");
    ir_add_output(g, add_matmul(g, f, 1, 11, 10, 1, "fc"), &d);
    run_case("avgpool excl/incl + requant + global pool + flatten + fc", g, dflt);
  }
  /* Column tiles (output width over STORE's 255) and input channel tiles
   * (one output block's weights do not fit next to one input line group). */
  conv_case("conv ow600 column tiles", (conv_spec){8, 8, 16, 600, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -3, 2, -128, 127},
            dflt);
  conv_case("conv ow350 stride2 pads 0,2,1,0 column tiles",
            (conv_spec){5, 6, 7, 700, 3, 3, 2, 2, 1, 1, 0, 2, 1, 0, 1, 11, -4, -128, 127}, dflt);
  conv_case("conv c2048 m64 4x4 3x3 input channel tiles",
            (conv_spec){2048, 64, 4, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -9, 3, -128, 127}, dflt);
  conv_case("conv c3000 m9 5x3 3x3 stride2 input channel tiles",
            (conv_spec){3000, 9, 5, 3, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 21, -1, -128, 127}, dflt);
  conv_case("conv1x1 c2048 m8 3x200: one input line of all channels does not fit",
            (conv_spec){2048, 8, 3, 200, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 7, -3, -128, 127}, dflt);
  conv_case("conv c600 m6 3x300 3x3: input channel and column tiles together",
            (conv_spec){600, 6, 3, 300, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -4, 5, -128, 127}, dflt);
  { /* K = 20000: one output block's weights exceed the scratchpad at npu4/8 */
    diag d = {0};
    ir_graph *g = ir_graph_new("matmul", &d);
    int64_t ad[2] = {2, 20000};
    ir_value *a = act(g, "a", 2, ad, -6);
    ir_add_input(g, a, &d);
    ir_add_output(g, add_matmul(g, a, 2, 20000, 6, 2, "mm"), &d);
    run_case("matmul 2x20000 x 20000x6 (input channel tiles)", g, dflt);
  }
  /* Vector kernels reading a conv output the conv left in the scratchpad
   * (no fusion, so the pool/add/requant is its own kernel). */
  { /* conv -> avg pool 3x3 s1 p1 (outputs below the region) */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 6, 9, 10};
    ir_value *x = act(g, "x", 4, xd, 5);
    ir_add_input(g, x, &d);
    conv_spec s1 = {6, 11, 9, 10, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5, -7, -128, 127};
    ir_add_output(g, add_pool(g, add_conv(g, x, &s1, "c1"), 1, 3, 1, 1, 0, 3, "avg"), &d);
    want_resident = 1;
    run_case("conv -> avgpool (resident input)", g, dflt);
  }
  { /* conv -> global average pool */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 9, 6, 6};
    ir_value *x = act(g, "x", 4, xd, -8);
    ir_add_input(g, x, &d);
    conv_spec s1 = {9, 20, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -8, 10, -128, 127};
    ir_add_output(g, add_pool(g, add_conv(g, x, &s1, "c1"), 1, 6, 1, 0, 0, -2, "gap"), &d);
    run_case("conv -> global pool (resident input)", g, dflt);
  }
  { /* conv -> max pool 3x3 s2 p1, unfused: STORE pools from the region */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 5, 9, 11};
    ir_value *x = act(g, "x", 4, xd, -2);
    ir_add_input(g, x, &d);
    conv_spec s1 = {5, 9, 9, 11, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -2, -30, -30, 127};
    ir_add_output(g, add_pool(g, add_conv(g, x, &s1, "c1"), 0, 3, 2, 1, 0, 0, "mp"), &d);
    no_fusion = 1;
    run_case("conv -> maxpool --no-fusion (resident input)", g, dflt);
    no_fusion = 0;
  }
  { /* QAdd(x, conv(x)), unfused: the conv output is operand b (multipliers swapped) */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 10, 7, 6};
    ir_value *x = act(g, "x", 4, xd, 3);
    ir_add_input(g, x, &d);
    conv_spec s1 = {10, 10, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, -5, -5, 127};
    ir_value *y1 = add_conv(g, x, &s1, "c1");
    ir_add_output(g, add_qadd(g, x, y1, 7, -100, 127, "add"), &d);
    no_fusion = 1;
    run_case("QAdd(x, conv) --no-fusion (resident operand b)", g, dflt);
    no_fusion = 0;
  }
  { /* conv -> requant, unfused */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 7, 8, 5};
    ir_value *x = act(g, "x", 4, xd, 0);
    ir_add_input(g, x, &d);
    conv_spec s1 = {7, 13, 8, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 4, -128, 127};
    ir_add_output(g, add_requant(g, add_conv(g, x, &s1, "c1"), -6, "rq"), &d);
    no_fusion = 1;
    run_case("conv -> requant --no-fusion (resident input)", g, dflt);
    no_fusion = 0;
  }
  { /* x -> max pool (input from DRAM) -> conv: the pool's output stays for the conv */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 13, 10, 9};
    ir_value *x = act(g, "x", 4, xd, 6);
    ir_add_input(g, x, &d);
    ir_value *mp = add_pool(g, x, 0, 3, 2, 1, 0, 0, "mp");
    conv_spec s1 = {13, 7, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, -1, -128, 127};
    ir_add_output(g, add_conv(g, mp, &s1, "c1"), &d);
    run_case("maxpool -> conv (resident pool output)", g, dflt);
  }
  { /* conv -> avg pool -> conv: both sides of the pool in the scratchpad */
    diag d = {0};
    ir_graph *g = ir_graph_new("vecres", &d);
    int64_t xd[4] = {1, 6, 8, 8};
    ir_value *x = act(g, "x", 4, xd, -3);
    ir_add_input(g, x, &d);
    conv_spec s1 = {6, 10, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -3, 2, -128, 127};
    ir_value *ap = add_pool(g, add_conv(g, x, &s1, "c1"), 1, 2, 2, 0, 1, -6, "avg");
    conv_spec s2 = {10, 5, 4, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, -6, 9, -128, 127};
    ir_add_output(g, add_conv(g, ap, &s2, "c2"), &d);
    run_case("conv -> avgpool -> conv (resident on both sides)", g, dflt);
  }
  want_resident = 0;
  net_case("tiny_cnn", 7);
  /* Streams over a (forced) small command SRAM run segment by segment, bit-exactly. */
  cmd_limit = SEG_LIMIT;
  net_case("tiny_cnn", 7);
  cmd_limit = 0;
  net_case("resnet18", 7);
  net_case("squeezenet1_1", 7);
  net_case("mobilenet_v2", 7);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
