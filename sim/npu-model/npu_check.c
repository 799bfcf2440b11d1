/* npu_check.c: the dispatcher's checks (docs/isa.md sections 3 and 7). Every
 * address range a command could touch is checked here, before it enters a
 * queue, so the execution code never sees an out-of-range address and the
 * error reported never depends on timing. Arithmetic is int64: effective
 * fields are at most ~2^51 and products below stay far from overflow. */
#include <string.h>

#include "npu_internal.h"

/* An error: its message in msg (npu_msgf), its code as the value. */
#define fail(msg, n, code, ...) (npu_msgf(msg, n, __VA_ARGS__), (code))

/* Rows lo..hi of a memory with `rows` rows; empty ranges are never passed. */
static int rows_ok(int64_t lo, int64_t hi, int64_t rows) { return lo >= 0 && hi < rows && lo <= hi; }

/* Token flags must name existing neighbours (LOAD has no prev, STORE no next). */
static int check_tokens(const uint32_t w[4], int queue, uint8_t *tok, char *msg, size_t n) {
  *tok = (uint8_t)((w[0] >> 8) & 0xFu);
  uint8_t prev = TOK_POP_PREV | TOK_PUSH_PREV, next = TOK_POP_NEXT | TOK_PUSH_NEXT;
  if (queue == TSL_Q_LOAD && (*tok & prev))
    return fail(msg, n, TSL_ERR_BAD_FIELD, "token flag names the queue before LOAD, which has none");
  if (queue == TSL_Q_STORE && (*tok & next))
    return fail(msg, n, TSL_ERR_BAD_FIELD, "token flag names the queue after STORE, which has none");
  return TSL_ERR_NONE;
}

/* The conv geometry (CFG_EXEC) used by MATMUL, DWCONV and VPOOL. */
static int check_geometry(const tsl_cfg_exec_t *g, int need_ncb, char *msg, size_t n) {
  const char *bad = g->kh < 1 ? "kh" : g->kw < 1 ? "kw" : need_ncb && g->ncb < 1 ? "ncb"
                  : g->stride_y < 1 ? "stride_y" : g->stride_x < 1 ? "stride_x"
                  : g->dil_y < 1 ? "dil_y" : g->dil_x < 1 ? "dil_x"
                  : g->in_h < 1 ? "in_h" : g->in_w < 1 ? "in_w" : NULL;
  if (bad) return fail(msg, n, TSL_ERR_BAD_FIELD, "CFG_EXEC %s is 0 (set a CFG_EXEC before use)", bad);
  return TSL_ERR_NONE;
}

/* The bounding box of the input rows an output tile reads (inside taps only):
 * *lo > *hi when every tap is padding. */
static int check_input(const tsl_cfg_exec_t *g, int64_t in, int64_t iy0, int64_t ix0, int64_t oh, int64_t ow,
                       int64_t ncb, int64_t spad_rows, int64_t *lo_out, int64_t *hi_out, char *msg, size_t n) {
  *lo_out = 1;
  *hi_out = 0;
  int64_t iy_lo = iy0 > 0 ? iy0 : 0, ix_lo = ix0 > 0 ? ix0 : 0;
  int64_t iy_hi = iy0 + (oh - 1) * g->stride_y + (g->kh - 1) * g->dil_y;
  int64_t ix_hi = ix0 + (ow - 1) * g->stride_x + (g->kw - 1) * g->dil_x;
  if (iy_hi > g->in_h - 1) iy_hi = g->in_h - 1;
  if (ix_hi > g->in_w - 1) ix_hi = g->in_w - 1;
  if (iy_lo > iy_hi || ix_lo > ix_hi) return TSL_ERR_NONE; /* all taps are padding */
  int64_t lo = in + iy_lo * g->in_pitch + ix_lo;
  int64_t hi = in + (ncb - 1) * g->cb_stride + iy_hi * g->in_pitch + ix_hi;
  *lo_out = lo;
  *hi_out = hi;
  if (!rows_ok(lo, hi, spad_rows))
    return fail(msg, n, TSL_ERR_SPAD_RANGE, "input rows %lld..%lld outside the %lld-row scratchpad",
                (long long)lo, (long long)hi, (long long)spad_rows);
  return TSL_ERR_NONE;
}

static int check_dram(const npu_model_t *m, int64_t lo, int64_t end, char *msg, size_t n) {
  if (lo < 0 || end > (int64_t)m->dram_size || lo >= end)
    return fail(msg, n, TSL_ERR_DRAM_RANGE, "DRAM bytes %lld..%lld outside the %llu-byte window", (long long)lo,
                (long long)end - 1, (unsigned long long)m->dram_size);
  return TSL_ERR_NONE;
}

static int check_load(npu_model_t *m, const tsl_load_t *l, const tsl_cfg_load_t *c, char *msg, size_t n) {
  const tsl_target_t *t = m->t;
  if (l->mem > TSL_MEM_PARAM) return fail(msg, n, TSL_ERR_BAD_FIELD, "mem %lld is not a memory", (long long)l->mem);
  if (l->n0 < 1 || l->n0 > t->dim)
    return fail(msg, n, TSL_ERR_BAD_FIELD, "n0 = %lld outside 1..%lld", (long long)l->n0, (long long)t->dim);
  if (l->nx < 1 || l->ny < 1 || l->nz < 1) return fail(msg, n, TSL_ERR_BAD_FIELD, "nx, ny, nz must be >= 1");
  if (l->pad_top + l->pad_bottom > l->ny || l->pad_left + l->pad_right > l->nx)
    return fail(msg, n, TSL_ERR_BAD_FIELD, "padding larger than the box");
  int64_t pads = l->pad_top + l->pad_bottom + l->pad_left + l->pad_right;
  if (l->mem == TSL_MEM_PARAM && (l->n0 != t->dim || l->pad != 0 || pads != 0))
    return fail(msg, n, TSL_ERR_BAD_FIELD, "a PARAM load needs n0 = DIM, pad = 0 and no pad rows");
  int64_t rows = l->mem == TSL_MEM_SPAD ? t->spad_rows : l->mem == TSL_MEM_ACC ? t->acc_rows : t->param_rows;
  int code = l->mem == TSL_MEM_SPAD ? TSL_ERR_SPAD_RANGE : l->mem == TSL_MEM_ACC ? TSL_ERR_ACC_RANGE
                                                                                : TSL_ERR_PARAM_RANGE;
  int64_t last = l->row + l->nz * l->ny * l->nx - 1;
  if (!rows_ok(l->row, last, rows))
    return fail(msg, n, code, "destination rows %lld..%lld outside the %lld-row memory", (long long)l->row,
                (long long)last, (long long)rows);
  int64_t ry = l->ny - l->pad_top - l->pad_bottom, rx = l->nx - l->pad_left - l->pad_right;
  if (ry == 0 || rx == 0) return TSL_ERR_NONE; /* nothing read from DRAM */
  int64_t e = l->mem == TSL_MEM_SPAD ? 1 : l->mem == TSL_MEM_ACC ? 4 : 9; /* PARAM: 9 bytes per channel */
  int64_t end = l->dram + (l->nz - 1) * c->stride_z + (ry - 1) * c->stride_y + (rx - 1) * c->stride_x + l->n0 * e;
  return check_dram(m, l->dram, end, msg, n);
}

static int check_acc_tile(const tsl_target_t *t, int64_t acc, int64_t oh, int64_t ow, int64_t pitch, char *msg,
                          size_t n) {
  int64_t last = acc + (oh - 1) * pitch + ow - 1;
  if (!rows_ok(acc, last, t->acc_rows))
    return fail(msg, n, TSL_ERR_ACC_RANGE, "accumulator rows %lld..%lld outside the %lld-row accumulator",
                (long long)acc, (long long)last, (long long)t->acc_rows);
  return TSL_ERR_NONE;
}

static int check_spad_range(const tsl_target_t *t, const char *what, int64_t lo, int64_t hi, char *msg,
                            size_t n) {
  (void)what; /* the message's alone, which NPU_MODEL_QUIET drops */
  if (!rows_ok(lo, hi, t->spad_rows))
    return fail(msg, n, TSL_ERR_SPAD_RANGE, "%s rows %lld..%lld outside the %lld-row scratchpad", what,
                (long long)lo, (long long)hi, (long long)t->spad_rows);
  return TSL_ERR_NONE;
}

/* Two row ranges [a0, a1] and [b0, b1] share a row (empty ranges never do). */
static int overlaps(int64_t a0, int64_t a1, int64_t b0, int64_t b1) { return a0 <= a1 && b0 <= b1 && a0 <= b1 && b0 <= a1; }

/* Output tile rows are distinct: a tile's rows never alias each other. */
static int check_tile_rows(int64_t oh, int64_t ow, int64_t pitch, char *msg, size_t n) {
  if (oh > 1 && pitch < ow)
    return fail(msg, n, TSL_ERR_OVERLAP, "output lines overlap: pitch %lld < ow %lld", (long long)pitch, (long long)ow);
  return TSL_ERR_NONE;
}

static int check_conv(npu_model_t *m, int op, int64_t oh, int64_t ow, int64_t in, int64_t wgt, int64_t acc,
                      int64_t iy0, int64_t ix0, int64_t *in_lo, int64_t *in_hi, char *msg, size_t n) {
  const tsl_target_t *t = m->t;
  const tsl_cfg_exec_t *g = &m->cfg.exec;
  int rc = check_geometry(g, op == TSL_OP_MATMUL, msg, n);
  if (rc) return rc;
  if (oh < 1 || ow < 1) return fail(msg, n, TSL_ERR_BAD_FIELD, "oh and ow must be >= 1");
  int64_t ncb = op == TSL_OP_MATMUL ? g->ncb : 1;
  if (op != TSL_OP_VPOOL) {
    if ((rc = check_acc_tile(t, acc, oh, ow, g->out_pitch, msg, n))) return rc;
    int64_t wrows = op == TSL_OP_MATMUL ? g->kh * g->kw * ncb * t->dim : g->kh * g->kw;
    if ((rc = check_spad_range(t, "weight", wgt, wgt + wrows - 1, msg, n))) return rc;
  }
  if ((rc = check_input(g, in, iy0, ix0, oh, ow, ncb, t->spad_rows, in_lo, in_hi, msg, n))) return rc;
  return op == TSL_OP_VPOOL ? TSL_ERR_NONE : check_tile_rows(oh, ow, g->out_pitch, msg, n);
}

static int check_store(npu_model_t *m, const tsl_store_t *s, const npu_cfg_t *c, char *msg, size_t n) {
  const tsl_target_t *t = m->t;
  const tsl_cfg_epi_t *e = &c->epi;
  if (s->n0 < 1 || s->n0 > t->dim)
    return fail(msg, n, TSL_ERR_BAD_FIELD, "n0 = %lld outside 1..%lld", (long long)s->n0, (long long)t->dim);
  if (s->oh < 1 || s->ow < 1) return fail(msg, n, TSL_ERR_BAD_FIELD, "oh and ow must be >= 1");
  if (s->raw && (s->src_mem != TSL_SRC_ACC || s->dst_mem != TSL_DST_DRAM || e->pool_k != 0))
    return fail(msg, n, TSL_ERR_BAD_FIELD, "raw needs ACC to DRAM without pooling");
  if (e->pool_k && (e->pool_s < 1 || e->src_h < 1 || e->src_w < 1))
    return fail(msg, n, TSL_ERR_BAD_FIELD, "max pooling needs pool_s, src_h, src_w >= 1 (CFG_EPI)");
  int64_t last = e->pool_k ? s->src_row + (e->src_h - 1) * c->store.src_pitch + e->src_w - 1
                           : s->src_row + (s->oh - 1) * c->store.src_pitch + s->ow - 1;
  if (s->src_mem == TSL_SRC_ACC) {
    if (!rows_ok(s->src_row, last, t->acc_rows))
      return fail(msg, n, TSL_ERR_ACC_RANGE, "source rows %lld..%lld outside the %lld-row accumulator",
                  (long long)s->src_row, (long long)last, (long long)t->acc_rows);
    if (!s->raw && (s->param < 0 || s->param >= t->param_rows))
      return fail(msg, n, TSL_ERR_PARAM_RANGE, "parameter row %lld outside 0..%lld", (long long)s->param,
                  (long long)t->param_rows - 1);
  } else {
    int rc = check_spad_range(t, "source", s->src_row, last, msg, n);
    if (rc) return rc;
  }
  if (s->dst_mem == TSL_DST_SPAD) {
    int64_t dlast = s->dst_row + (s->oh - 1) * c->store.spad_pitch + s->ow - 1;
    int rc = check_spad_range(t, "destination", s->dst_row, dlast, msg, n);
    if (!rc) rc = check_tile_rows(s->oh, s->ow, c->store.spad_pitch, msg, n);
    if (!rc && s->src_mem == TSL_SRC_SPAD && overlaps(s->src_row, last, s->dst_row, dlast))
      rc = fail(msg, n, TSL_ERR_OVERLAP, "destination rows %lld..%lld overlap source rows %lld..%lld",
                (long long)s->dst_row, (long long)dlast, (long long)s->src_row, (long long)last);
    return rc;
  }
  int64_t esz = s->raw ? 4 : 1;
  int64_t end = s->dram + (s->oh - 1) * c->store.stride_y + (s->ow - 1) * c->store.stride_x + s->n0 * esz;
  return check_dram(m, s->dram, end, msg, n);
}

int npu_check_mark(const npu_model_t *m, const tsl_mark_t *mk, char *msg, size_t msglen) {
  if (!mk->record) return TSL_ERR_NONE;
  return check_dram(m, mk->dram, mk->dram + TSL_MARK_RECORD_BYTES, msg, msglen);
}

int npu_check(npu_model_t *m, const uint32_t w[4], const int64_t off[TSL_NSLOTS], uint32_t index,
              npu_qcmd_t *q, char *msg, size_t n) {
  const tsl_target_t *t = m->t;
  unsigned op = tsl_opcode(w);
  int queue = tsl_op_queue(op);
  memset(q, 0, offsetof(npu_qcmd_t, cfg));
  q->op = (uint8_t)op;
  q->index = index;
  if (queue < 0) return fail(msg, n, TSL_ERR_BAD_OPCODE, "opcode 0x%02X is not a command", op);
  const tsl_cmd_desc_t *d = tsl_cmd_desc(op);
  for (int i = 0; i < 4; i++)
    if (w[i] & ~d->used[i])
      return fail(msg, n, TSL_ERR_BAD_FIELD, "reserved bits set in word %d: 0x%08X", i, (unsigned)(w[i] & ~d->used[i]));
  int rc = check_tokens(w, queue, &q->tok, msg, n);
  if (rc) return rc;
  switch (op) {
  case TSL_OP_CFG_LOAD: tsl_cfg_load_decode(w, &m->cfg.load); break;
  case TSL_OP_CFG_EXEC: tsl_cfg_exec_decode(w, &m->cfg.exec); break;
  case TSL_OP_CFG_VEC: tsl_cfg_vec_decode(w, &m->cfg.vec); break;
  case TSL_OP_CFG_STORE: tsl_cfg_store_decode(w, &m->cfg.store); break;
  case TSL_OP_CFG_EPI: {
    tsl_cfg_epi_t e;
    tsl_cfg_epi_decode(w, &e);
    if (e.lo > e.hi) return fail(msg, n, TSL_ERR_BAD_FIELD, "clamp lo %lld > hi %lld", (long long)e.lo, (long long)e.hi);
    m->cfg.epi = e;
    break;
  }
  case TSL_OP_ENOP: break;
  case TSL_OP_LOAD:
    tsl_load_decode(w, &q->u.load);
    tsl_load_add_slots(&q->u.load, off);
    rc = check_load(m, &q->u.load, &m->cfg.load, msg, n);
    break;
  case TSL_OP_MATMUL: {
    tsl_matmul_t *c = &q->u.mm;
    tsl_matmul_decode(w, c);
    tsl_matmul_add_slots(c, off);
    int64_t lo, hi;
    rc = check_conv(m, (int)op, c->oh, c->ow, c->in, c->wgt, c->acc, c->iy0, c->ix0, &lo, &hi, msg, n);
    break;
  }
  case TSL_OP_DWCONV: {
    tsl_dwconv_t *c = &q->u.dw;
    tsl_dwconv_decode(w, c);
    tsl_dwconv_add_slots(c, off);
    int64_t lo, hi;
    rc = check_conv(m, (int)op, c->oh, c->ow, c->in, c->wgt, c->acc, c->iy0, c->ix0, &lo, &hi, msg, n);
    break;
  }
  case TSL_OP_VPOOL: {
    tsl_vpool_t *c = &q->u.vpool;
    tsl_vpool_decode(w, c);
    tsl_vpool_add_slots(c, off);
    if (m->cfg.vec.shift > 47) return fail(msg, n, TSL_ERR_BAD_FIELD, "VPOOL needs CFG_VEC shift <= 47");
    if (m->cfg.vec.lo > m->cfg.vec.hi) return fail(msg, n, TSL_ERR_BAD_FIELD, "CFG_VEC clamp lo > hi");
    int64_t lo, hi, last = c->out + (c->oh - 1) * m->cfg.exec.out_pitch + c->ow - 1;
    rc = check_conv(m, (int)op, c->oh, c->ow, c->in, 0, 0, c->iy0, c->ix0, &lo, &hi, msg, n);
    if (!rc) rc = check_spad_range(t, "output", c->out, last, msg, n);
    if (!rc) rc = check_tile_rows(c->oh, c->ow, m->cfg.exec.out_pitch, msg, n);
    if (!rc && overlaps(lo, hi, c->out, last))
      rc = fail(msg, n, TSL_ERR_OVERLAP, "output rows %lld..%lld overlap input rows %lld..%lld", (long long)c->out,
                (long long)last, (long long)lo, (long long)hi);
    break;
  }
  case TSL_OP_VADD: {
    tsl_vadd_t *c = &q->u.vadd;
    tsl_vadd_decode(w, c);
    tsl_vadd_add_slots(c, off);
    if (c->rows < 1) return fail(msg, n, TSL_ERR_BAD_FIELD, "rows must be >= 1");
    if (m->cfg.vec.lo > m->cfg.vec.hi) return fail(msg, n, TSL_ERR_BAD_FIELD, "CFG_VEC clamp lo > hi");
    if ((rc = check_spad_range(t, "input a", c->a, c->a + c->rows - 1, msg, n))) break;
    if ((rc = check_spad_range(t, "input b", c->b, c->b + c->rows - 1, msg, n))) break;
    if ((rc = check_spad_range(t, "output", c->out, c->out + c->rows - 1, msg, n))) break;
    /* in place (out = a or out = b) is fine; a partial overlap is not */
    int64_t last = c->out + c->rows - 1;
    if ((c->out != c->a && overlaps(c->out, last, c->a, c->a + c->rows - 1)) ||
        (c->out != c->b && overlaps(c->out, last, c->b, c->b + c->rows - 1)))
      rc = fail(msg, n, TSL_ERR_OVERLAP, "output rows partly overlap an input (only out = a or out = b may)");
    break;
  }
  case TSL_OP_STORE:
    tsl_store_decode(w, &q->u.store);
    tsl_store_add_slots(&q->u.store, off);
    rc = check_store(m, &q->u.store, &m->cfg, msg, n);
    break;
  default: return fail(msg, n, TSL_ERR_BAD_OPCODE, "opcode 0x%02X does not run in a queue", op);
  }
  if (rc == TSL_ERR_NONE) q->cfg = m->cfg;
  return rc;
}
