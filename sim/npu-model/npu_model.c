/* npu_model.c: the run loop of the C model. The dispatcher and the three
 * units (LOAD, EXEC, STORE) are stepped in a fixed order until the stream
 * ends, a command fails its checks, or nothing can move (deadlock: the
 * queues and token counters form a bounded Kahn network, so whether and where
 * it deadlocks does not depend on this order; docs/isa.md section 4).
 *
 * Timing: every unit keeps its own clock. A command starts at the latest of
 * its unit's clock, its dispatch time and the push times of the tokens it
 * pops; it lasts what the cost model says. A full queue or token counter frees
 * its slot when the entry `depth` places earlier left it, and those times are
 * kept per entry, so every time stamp follows from the dependences alone, not
 * from the order this loop happens to step the units in. Busy and stall
 * counters follow. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npu_internal.h"

int npu_model_step_order;

enum { T_LE, T_EL, T_ES, T_SE, NFIFOS }; /* token counters: LOAD->EXEC, EXEC->LOAD, ... */

/* Which counter each token flag of each unit uses (-1: no such neighbour). */
static const int pop_prev_fifo[NUNITS] = {-1, T_LE, T_ES};
static const int pop_next_fifo[NUNITS] = {T_EL, T_SE, -1};
static const int push_prev_fifo[NUNITS] = {-1, T_EL, T_SE};
static const int push_next_fifo[NUNITS] = {T_LE, T_ES, -1};
static const int busy_cnt[NUNITS] = {TSL_CNT_LOAD_BUSY, TSL_CNT_EXEC_BUSY, TSL_CNT_STORE_BUSY};
static const int tok_cnt[NUNITS] = {TSL_CNT_LOAD_STALL_TOKEN, TSL_CNT_EXEC_STALL_TOKEN, TSL_CNT_STORE_STALL_TOKEN};
static const int cmds_cnt[NUNITS] = {TSL_CNT_LOAD_CMDS, TSL_CNT_EXEC_CMDS, TSL_CNT_STORE_CMDS};

typedef struct {
  npu_qcmd_t *slot;    /* ring of queue_depth commands */
  int head, n;
  uint64_t *starts;    /* [queue_depth] start time of queued command j (ring by sequence number) */
  uint64_t ndispatched, nstarted;
} queue_t;

typedef struct {
  uint64_t *time;      /* [mask + 1] push time of each token held (ring) */
  int head, n;
  uint64_t *pops;      /* [mask + 1] time token j was taken (ring by sequence number) */
  uint64_t npushed, npopped;
  uint32_t mask;       /* ring length - 1: the length is a power of two >= token_max */
} tokens_t;

typedef struct {
  uint64_t clock;      /* free from this cycle on */
  int pending;         /* executed, waiting to push tokens */
  uint8_t push_tok;    /* TOK_PUSH_* of the pending command */
  uint64_t end;        /* when the pending command finished executing */
  uint32_t index;      /* stream index of the pending command */
} unit_t;

typedef struct {
  uint32_t start, end; /* body: commands start..end-1 */
  uint32_t count, iter;
  int64_t stride[TSL_NSLOTS];
} loop_t;

typedef struct run_state {
  npu_model_t *m;
  const npu_run_t *run;
  npu_result_t *r;
  queue_t q[NUNITS];
  tokens_t tok[NFIFOS];
  unit_t u[NUNITS];
  loop_t loop[8];
  int depth;
  uint32_t pc;          /* next command index */
  int done;             /* every command dispatched */
  int staged;           /* the command at pc is checked and waits for room */
  npu_qcmd_t stage;     /* that command */
  int stage_unit;
  int mark_blocked;     /* a MARK waits for the barrier */
  int lstride;          /* an LSTRIDE was just dispatched: the next command must be a LOOP */
  uint32_t lstride_index;
  int64_t lstride_g, lstride_h;
  uint64_t fe_clock;
  uint64_t max_dispatch;
  uint64_t max_cycles;
} run_t;

/* The rings a run's queues and token counters point into: one array,
 * allocated once per model and never cleared (see npu_model_run), of
 * queue_depth starts per unit and a time and a pops ring per token counter.
 * A counter holds at most token_max tokens and a push reads the time of
 * the pop token_max before it, so a ring of the power of two at or above
 * token_max is enough (4 entries at npu2, where 256 took 16 KiB of a
 * board's 128). */
static uint32_t token_ring(const tsl_target_t *t) {
  uint32_t n = 1;
  while (n < t->token_max) n <<= 1;
  return n;
}

static size_t rings_len(const tsl_target_t *t) {
  return (size_t)NUNITS * t->queue_depth + (size_t)2 * NFIFOS * token_ring(t);
}

#ifndef NPU_MODEL_QUIET
/* The name of an outcome: the hardware's error names, and the model's own
 * (npu_model.h) as LIMIT and NOMEM rather than tsl_err_name's "?". */
static const char *outcome_name(int code) {
  if (code >= 0 && code < TSL_NERRORS) return tsl_err_name(code);
  return code == NPU_MODEL_ERR_LIMIT ? "LIMIT" : code == NPU_MODEL_ERR_NOMEM ? "NOMEM" : "MODEL";
}
#endif

/* Ends the run with an error: code, offending command and a message that
 * names the error, the command and what is wrong. */
static void run_failv(run_t *s, int code, uint32_t index, const char *fmt, va_list ap) {
  s->r->code = code;
  s->r->index = index;
#ifdef NPU_MODEL_QUIET /* codes only: npu_msgf */
  (void)fmt, (void)ap;
#else
  char text[200];
  vsnprintf(text, sizeof text, fmt, ap);
  if (index < s->run->stream_len) {
    uint32_t w[4];
    tsl_cmd_from_bytes(s->run->stream + 16u * index, w);
    const tsl_cmd_desc_t *d = tsl_cmd_desc(tsl_opcode(w));
    snprintf(s->r->message, sizeof s->r->message, "%s: command %u (%s): %s", outcome_name(code), (unsigned)index,
             d ? d->name : "?", text);
  } else {
    snprintf(s->r->message, sizeof s->r->message, "%s: %s", outcome_name(code), text);
  }
#endif
}

static void run_fail(run_t *s, int code, uint32_t index, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  run_failv(s, code, index, fmt, ap);
  va_end(ap);
}

/* run_fail for the dispatcher's step, which returns "made progress" (0 here). */
static int front_fail(run_t *s, int code, uint32_t index, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  run_failv(s, code, index, fmt, ap);
  va_end(ap);
  return 0;
}

static int fifo_of(int unit, uint8_t flag) {
  switch (flag) {
  case TOK_POP_PREV: return pop_prev_fifo[unit];
  case TOK_POP_NEXT: return pop_next_fifo[unit];
  case TOK_PUSH_PREV: return push_prev_fifo[unit];
  default: return push_next_fifo[unit];
  }
}

static int unit_of_op(unsigned op) {
  int q = tsl_op_queue(op);
  return q == TSL_Q_LOAD ? UNIT_LOAD : q == TSL_Q_EXEC ? UNIT_EXEC : UNIT_STORE;
}

/* Push the pending command's tokens if every counter has room. Token j of a
 * counter needs the slot token j - token_max freed when it was taken. */
static int try_push(run_t *s, int k) {
  unit_t *u = &s->u[k];
  uint64_t tmax = (uint64_t)s->m->t->token_max;
  uint64_t t = u->end;
  for (uint8_t f = TOK_PUSH_PREV; f <= TOK_PUSH_NEXT; f <<= 1) {
    if (!(u->push_tok & f)) continue;
    tokens_t *fi = &s->tok[fifo_of(k, f)];
    if (fi->npushed - fi->npopped >= tmax) return 0;
    if (fi->npushed >= tmax) {
      uint64_t freed = fi->pops[(fi->npushed - tmax) & fi->mask];
      if (freed > t) t = freed;
    }
  }
  for (uint8_t f = TOK_PUSH_PREV; f <= TOK_PUSH_NEXT; f <<= 1) {
    if (!(u->push_tok & f)) continue;
    tokens_t *fi = &s->tok[fifo_of(k, f)];
    fi->time[(fi->head + fi->n) & fi->mask] = t;
    fi->n++;
    fi->npushed++;
  }
  s->m->cnt[tok_cnt[k]] += t - u->end;
  s->m->cnt[cmds_cnt[k]]++;
  u->clock = t;
  u->pending = 0;
  return 1;
}

/* Appends one command's busy interval to the timeline (only when asked:
 * the profiler's per-command trace). Out of memory stops recording; the run
 * itself goes on. */
static void record_command(npu_model_t *m, int k, const npu_qcmd_t *c, uint64_t start, uint64_t end) {
  if (m->events_lost) return;
  if (m->nevents == m->capevents) {
    size_t cap = m->capevents ? 2 * m->capevents : 1024;
    npu_cmd_event_t *e = realloc(m->events, cap * sizeof *e);
    if (!e) {
      m->events_lost = 1;
      return;
    }
    m->events = e;
    m->capevents = cap;
  }
  m->events[m->nevents++] = (npu_cmd_event_t){(uint8_t)k, c->op, c->index, m->nsnaps, start, end};
}

static int step_unit(run_t *s, int k) {
  unit_t *u = &s->u[k];
  queue_t *q = &s->q[k];
  if (u->pending) return try_push(s, k);
  if (q->n == 0) return 0;
  npu_qcmd_t *c = &q->slot[q->head];
  uint64_t tp = 0;
  for (uint8_t f = TOK_POP_PREV; f <= TOK_POP_NEXT; f <<= 1)
    if ((c->tok & f) && s->tok[fifo_of(k, f)].n == 0) return 0;
  for (uint8_t f = TOK_POP_PREV; f <= TOK_POP_NEXT; f <<= 1) {
    if (!(c->tok & f)) continue;
    tokens_t *fi = &s->tok[fifo_of(k, f)];
    if (fi->time[fi->head] > tp) tp = fi->time[fi->head];
  }
  uint64_t ready = u->clock > c->dispatch_time ? u->clock : c->dispatch_time;
  uint64_t start = tp > ready ? tp : ready;
  for (uint8_t f = TOK_POP_PREV; f <= TOK_POP_NEXT; f <<= 1) {
    if (!(c->tok & f)) continue;
    tokens_t *fi = &s->tok[fifo_of(k, f)];
    fi->head = (int)((fi->head + 1) & fi->mask);
    fi->n--;
    fi->pops[fi->npopped++ & fi->mask] = start;
  }
  s->m->cnt[tok_cnt[k]] += start - ready;
  cost_t cost = npu_exec(s->m, c);
  s->m->cnt[busy_cnt[k]] += cost.cycles;
  if (k == UNIT_LOAD) s->m->cnt[TSL_CNT_LOAD_STALL_DRAM] += cost.stall_dram;
  if (k == UNIT_STORE) s->m->cnt[TSL_CNT_STORE_STALL_DRAM] += cost.stall_dram;
  if (k == UNIT_EXEC) s->m->cnt[TSL_CNT_EXEC_STALL_PRELOAD] += cost.stall_preload;
  u->pending = 1;
  u->push_tok = c->tok & (TOK_PUSH_PREV | TOK_PUSH_NEXT);
  u->end = start + cost.cycles;
  if (s->m->timeline) record_command(s->m, k, c, start, u->end);
  u->index = c->index;
  q->starts[q->nstarted++ % (uint64_t)s->m->t->queue_depth] = start;
  q->head = (q->head + 1) % (int)s->m->t->queue_depth;
  q->n--;
  try_push(s, k);
  return 1;
}

static int all_idle(const run_t *s) {
  for (int k = 0; k < NUNITS; k++)
    if (s->q[k].n || s->u[k].pending) return 0;
  return 1;
}

static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The hardware's counters are counter_bits wide and wrap (docs/isa.md
 * section 3): what a run exposes is the count modulo 2^counter_bits. */
static void wrap_counters(const tsl_target_t *t, uint64_t *c) {
  if (t->counter_bits >= 64) return;
  uint64_t mask = ((uint64_t)1 << t->counter_bits) - 1;
  for (int i = 0; i < TSL_NCOUNTERS; i++) c[i] &= mask;
}

/* MARK at the barrier: snapshot the counters, optionally write the record. */
static int do_mark(run_t *s, const tsl_mark_t *mk) {
  npu_model_t *m = s->m;
  uint64_t t = s->fe_clock;
  for (int k = 0; k < NUNITS; k++)
    if (s->u[k].clock > t) t = s->u[k].clock;
  m->cnt[TSL_CNT_FRONT_STALL_MARK] += t - s->fe_clock;
  s->fe_clock = t;
  m->cnt[TSL_CNT_CYCLES] = t;
  if (m->nsnaps == m->capsnaps) {
    size_t cap = m->capsnaps ? 2 * m->capsnaps : 16;
    npu_snapshot_t *p = realloc(m->snaps, cap * sizeof *p);
    if (!p) {
      run_fail(s, NPU_MODEL_ERR_NOMEM, s->pc, "out of memory for MARK snapshots");
      return -1;
    }
    m->snaps = p;
    m->capsnaps = cap;
  }
  npu_snapshot_t *sn = &m->snaps[m->nsnaps++];
  sn->kernel = (uint64_t)mk->kernel;
  sn->seq = m->nsnaps;
  memcpy(sn->counters, m->cnt, sizeof sn->counters);
  wrap_counters(m->t, sn->counters);
  if (mk->record) {
    uint8_t *p = m->dram + mk->dram;
    put64(p, sn->kernel);
    put64(p + 8, sn->seq);
    for (int i = 0; i < TSL_NCOUNTERS; i++) put64(p + 16 + 8 * i, sn->counters[i]);
  }
  if (mk->reset) { /* as START leaves them: the tokens held are taken now, the configuration is 0 */
    for (int f = 0; f < NFIFOS; f++) {
      tokens_t *fi = &s->tok[f];
      for (; fi->n > 0; fi->n--) {
        fi->head = (int)((fi->head + 1) & fi->mask);
        fi->pops[fi->npopped++ & fi->mask] = t;
      }
    }
    memset(&m->cfg, 0, sizeof m->cfg);
  }
  return 0;
}

/* Closes finished loop levels; returns 1 if the stream is exhausted. */
static int advance_loops(run_t *s) {
  while (s->depth > 0 && s->pc == s->loop[s->depth - 1].end) {
    loop_t *l = &s->loop[s->depth - 1];
    if (++l->iter < l->count) {
      s->pc = l->start;
      return 0;
    }
    s->depth--;
  }
  return s->pc >= s->run->stream_len;
}

static int step_front(run_t *s) {
  npu_model_t *m = s->m;
  if (s->done) return 0;
  if (s->staged) { /* a checked command waits for room in its queue */
    queue_t *q = &s->q[s->stage_unit];
    uint64_t depth = (uint64_t)m->t->queue_depth;
    if (q->n >= (int)depth) return 0;
    /* command j of a queue needs the slot command j - depth freed when it started */
    uint64_t t = s->fe_clock;
    if (q->ndispatched >= depth && q->starts[(q->ndispatched - depth) % depth] > t)
      t = q->starts[(q->ndispatched - depth) % depth];
    q->ndispatched++;
    m->cnt[TSL_CNT_FRONT_STALL_QUEUE] += t - s->fe_clock;
    s->stage.dispatch_time = t;
    q->slot[(q->head + q->n) % (int)m->t->queue_depth] = s->stage;
    q->n++;
    s->fe_clock = t + 1;
    s->staged = 0;
    s->pc++;
    return 1;
  }
  if (advance_loops(s)) {
    if (s->lstride)
      return front_fail(s, TSL_ERR_BAD_FIELD, s->lstride_index, "LSTRIDE is not directly followed by a LOOP");
    s->done = 1;
    return 1;
  }
  uint32_t index = s->pc, w[4];
  tsl_cmd_from_bytes(s->run->stream + 16u * index, w);
  int64_t off[TSL_NSLOTS] = {0};
  for (int d = 0; d < s->depth; d++)
    for (int k = 0; k < TSL_NSLOTS; k++) off[k] += (int64_t)s->loop[d].iter * s->loop[d].stride[k];
  unsigned op = tsl_opcode(w);
  if (s->lstride && op != TSL_OP_LOOP)
    return front_fail(s, TSL_ERR_BAD_FIELD, s->lstride_index, "LSTRIDE is not directly followed by a LOOP");
  if (!s->mark_blocked) {
    if (++s->r->dispatched > s->max_dispatch)
      return front_fail(s, NPU_MODEL_ERR_LIMIT, index, "more than %llu commands dispatched (the dispatch limit)",
                      (unsigned long long)s->max_dispatch);
  }
  if (op == TSL_OP_NOP) {
    if (tsl_nop_decode(w, &(tsl_nop_t){0}) != 0) return front_fail(s, TSL_ERR_BAD_FIELD, index, "reserved bits set");
    s->pc++;
    s->fe_clock++;
    return 1;
  }
  if (op == TSL_OP_LOOP) {
    tsl_loop_t l;
    if (tsl_loop_decode(w, &l) != 0) return front_fail(s, TSL_ERR_BAD_FIELD, index, "reserved bits set");
    if (l.count < 1 || l.body < 1)
      return front_fail(s, TSL_ERR_BAD_FIELD, index, "count and body must be >= 1");
    uint32_t end = index + 1 + (uint32_t)l.body;
    uint32_t limit = s->depth ? s->loop[s->depth - 1].end : s->run->stream_len;
    if (end > limit)
      return front_fail(s, TSL_ERR_LOOP, index, "body ends at command %u, past %s end %u", (unsigned)end,
                      s->depth ? "the enclosing body's" : "the stream's", (unsigned)limit);
    if (s->depth >= (int)m->t->loop_depth)
      return front_fail(s, TSL_ERR_LOOP, index, "nesting deeper than %d", (int)m->t->loop_depth);
    loop_t *lp = &s->loop[s->depth++];
    lp->start = index + 1;
    lp->end = end;
    lp->count = (uint32_t)l.count;
    lp->iter = 0;
    int64_t st[TSL_NSLOTS] = {l.stride_a, l.stride_b, l.stride_c, l.stride_d, l.stride_e, l.stride_f,
                              s->lstride ? s->lstride_g : 0, s->lstride ? s->lstride_h : 0};
    memcpy(lp->stride, st, sizeof st);
    s->lstride = 0;
    s->pc++;
    s->fe_clock++;
    return 1;
  }
  if (op == TSL_OP_LSTRIDE) {
    tsl_lstride_t ls;
    if (tsl_lstride_decode(w, &ls) != 0) return front_fail(s, TSL_ERR_BAD_FIELD, index, "reserved bits set");
    s->lstride = 1;
    s->lstride_index = index;
    s->lstride_g = ls.stride_g;
    s->lstride_h = ls.stride_h;
    s->pc++;
    s->fe_clock++;
    return 1;
  }
  if (op == TSL_OP_MARK) {
    tsl_mark_t mk;
    char msg[160];
    if (tsl_mark_decode(w, &mk) != 0) return front_fail(s, TSL_ERR_BAD_FIELD, index, "reserved bits set");
    tsl_mark_add_slots(&mk, off);
    int rc = npu_check_mark(m, &mk, msg, sizeof msg);
    if (rc) return front_fail(s, rc, index, "%s", msg);
    if (!all_idle(s)) {
      s->mark_blocked = 1;
      return 0;
    }
    s->mark_blocked = 0;
    if (do_mark(s, &mk)) return 0;
    s->pc++;
    s->fe_clock++;
    return 1;
  }
  char msg[160];
  int rc = npu_check(m, w, off, index, &s->stage, msg, sizeof msg);
  if (rc) return front_fail(s, rc, index, "%s", msg);
  s->staged = 1;
  s->stage_unit = unit_of_op(op);
  return 1;
}

/* The latest cycle any unit or the front end has reached. */
static uint64_t now(const run_t *s) {
  uint64_t t = s->fe_clock;
  for (int k = 0; k < NUNITS; k++)
    if (s->u[k].clock > t) t = s->u[k].clock;
  return t;
}

static void reset_run_state(npu_model_t *m) {
  memset(m->cnt, 0, sizeof m->cnt);
  memset(&m->cfg, 0, sizeof m->cfg);
  m->nsnaps = 0;
  m->nevents = 0;
  m->events_lost = 0;
}

int npu_model_run(npu_model_t *m, const npu_run_t *run, npu_result_t *r) {
  memset(r, 0, sizeof *r);
  reset_run_state(m);
  m->dram = run->dram;
  m->dram_size = run->dram ? run->dram_size : 0;
  m->timing_only = run->timing_only;
  /* The run state is the model's, allocated once (npu_model_new): a run
   * clears only its scalars. The queue slots and the rings are not cleared:
   * every entry is written before it is read (a slot when a command is
   * queued, a token's time when pushed, a start when the command starts);
   * allocating and clearing them per run was a fifth of the core-sequenced
   * NPU's time (docs/npu-seq.md). */
  run_t *s = m->run_state;
  memset(s, 0, sizeof *s);
  npu_qcmd_t *slots = m->run_slots;
  uint64_t *ring = m->run_rings;
  uint32_t qd = m->t->queue_depth, tr = token_ring(m->t);
  s->m = m;
  s->run = run;
  s->r = r;
  s->max_dispatch = run->max_dispatch ? run->max_dispatch : NPU_MODEL_DEFAULT_MAX_DISPATCH;
  s->max_cycles = run->max_cycles ? run->max_cycles : NPU_MODEL_DEFAULT_MAX_CYCLES;
  for (int k = 0; k < NUNITS; k++) s->q[k].slot = slots + k * qd, s->q[k].starts = ring + k * qd;
  ring += NUNITS * qd;
  for (int f = 0; f < NFIFOS; f++)
    s->tok[f].time = ring + 2 * f * tr, s->tok[f].pops = ring + (2 * f + 1) * tr, s->tok[f].mask = tr - 1;
  static const int orders[6][NUNITS] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int *order = orders[(npu_model_step_order % 6 + 6) % 6];
  for (;;) {
    int progress = npu_model_step_order >= 6 ? 0 : step_front(s);
    if (r->code) break;
    for (int i = 0; i < NUNITS; i++) progress |= step_unit(s, order[i]);
    if (npu_model_step_order >= 6) progress |= step_front(s);
    if (r->code) break;
    if (s->done && all_idle(s)) break;
    /* The cycle budget: few commands with huge bodies (a MATMUL over every
     * scratchpad row, looped) stay under the dispatch limit for hours. */
    if (now(s) > s->max_cycles) {
      run_fail(s, NPU_MODEL_ERR_LIMIT, s->pc < run->stream_len || !run->stream_len ? s->pc : run->stream_len - 1,
               "more than %llu simulated cycles (the cycle limit)", (unsigned long long)s->max_cycles);
      break;
    }
    if (!progress) { /* nothing can move: every unit waits on a token or is empty */
      int k = 0;
      while (k < NUNITS && !s->u[k].pending && s->q[k].n == 0) k++;
      uint32_t idx = k == NUNITS ? s->pc : s->u[k].pending ? s->u[k].index : s->q[k].slot[s->q[k].head].index;
      static const char *names[NUNITS] = {"LOAD", "EXEC", "STORE"};
      run_fail(s, TSL_ERR_DEADLOCK, idx, "%s unit waits %s a token that can never come",
               k == NUNITS ? "no" : names[k], k < NUNITS && s->u[k].pending ? "to push" : "for");
      break;
    }
  }
  uint64_t end = s->fe_clock;
  for (int k = 0; k < NUNITS; k++)
    if (s->u[k].clock > end) end = s->u[k].clock;
  m->cnt[TSL_CNT_CYCLES] = end;
  wrap_counters(m->t, m->cnt);
  return r->code;
}

int npu_model_run_sram(npu_model_t *m, const uint8_t *cmd_sram, uint32_t sram_bytes, uint32_t stream_base,
                       uint32_t stream_len, uint8_t *dram, uint64_t dram_size, npu_result_t *r) {
  uint64_t cap = (uint64_t)m->t->cmd_sram_bytes < sram_bytes ? (uint64_t)m->t->cmd_sram_bytes : sram_bytes;
  if (stream_base % 16 || (uint64_t)stream_base + 16ull * stream_len > cap) {
    memset(r, 0, sizeof *r);
    reset_run_state(m);
    r->code = TSL_ERR_STREAM_RANGE;
    npu_msgf(r->message, sizeof r->message,
             "STREAM_RANGE: stream at byte %u, %u commands, does not fit the %llu-byte command SRAM%s",
             (unsigned)stream_base, (unsigned)stream_len, (unsigned long long)cap,
             stream_base % 16 ? " (base not 16-byte aligned)" : "");
    return r->code;
  }
  npu_run_t run = {cmd_sram + stream_base, stream_len, dram, dram_size, 0, 0, 0};
  return npu_model_run(m, &run, r);
}

int npu_model_run_fetching(npu_model_t *m, uint8_t *cmd_sram, uint32_t sram_bytes, uint32_t stream_base,
                           uint32_t stream_len, uint8_t *dram, uint64_t dram_size, npu_fetch_t *f,
                           npu_result_t *r) {
  uint64_t cap = (uint64_t)m->t->cmd_sram_bytes < sram_bytes ? (uint64_t)m->t->cmd_sram_bytes : sram_bytes;
  int in_range = stream_base % 16 == 0 && (uint64_t)stream_base + 16ull * stream_len <= cap;
  if (f && in_range && npu_fetch_clash(f, stream_base, stream_len) != TSL_ERR_NONE) {
    memset(r, 0, sizeof *r);
    reset_run_state(m);
    r->code = TSL_ERR_FETCH_OVERLAP;
    npu_msgf(r->message, sizeof r->message,
             "FETCH_OVERLAP: stream at byte %u, %u commands, meets bytes %u..%u of the fetch in flight",
             (unsigned)stream_base, (unsigned)stream_len, (unsigned)f->dst, (unsigned)(f->dst + 16u * f->len - 1));
    return r->code;
  }
  if (f) npu_fetch_finish(f, cmd_sram);
  return npu_model_run_sram(m, cmd_sram, sram_bytes, stream_base, stream_len, dram, dram_size, r);
}

npu_model_t *npu_model_new(const tsl_target_t *t) {
  if (!t || t->dim < 2 || t->dim > 16 || t->spad_rows < 1 || t->acc_rows < 1 || t->param_rows < 1 ||
      t->queue_depth < 1 || t->token_max < 1 || t->token_max > 255 || t->loop_depth < 1 || t->loop_depth > 8)
    return NULL;
  npu_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->t = t;
  m->dim = (int)t->dim;
  m->spad = calloc((size_t)(t->spad_rows * t->dim), 1);
  m->acc = calloc((size_t)(t->acc_rows * t->dim), sizeof *m->acc);
  m->param = calloc((size_t)(t->param_rows * 9 * t->dim), 1);
  m->run_state = malloc(sizeof(run_t));
  m->run_slots = malloc((size_t)(NUNITS * t->queue_depth) * sizeof(npu_qcmd_t));
  m->run_rings = malloc(rings_len(t) * sizeof *m->run_rings);
  if (!m->spad || !m->acc || !m->param || !m->run_state || !m->run_slots || !m->run_rings) {
    npu_model_free(m);
    return NULL;
  }
  return m;
}

void npu_model_free(npu_model_t *m) {
  if (!m) return;
  free(m->spad);
  free(m->acc);
  free(m->param);
  free(m->run_state);
  free(m->run_slots);
  free(m->run_rings);
  free(m->snaps);
  free(m->events);
  free(m);
}

const tsl_target_t *npu_model_target(const npu_model_t *m) { return m->t; }
const uint64_t *npu_model_counters(const npu_model_t *m) { return m->cnt; }
size_t npu_model_nsnapshots(const npu_model_t *m) { return m->nsnaps; }
const npu_snapshot_t *npu_model_snapshot(const npu_model_t *m, size_t i) {
  return i < m->nsnaps ? &m->snaps[i] : NULL;
}
int8_t *npu_model_spad(npu_model_t *m) { return m->spad; }
int32_t *npu_model_acc(npu_model_t *m) { return m->acc; }
uint8_t *npu_model_param(npu_model_t *m) { return m->param; }
void npu_model_set_timeline(npu_model_t *m, int on) { m->timeline = on != 0; }
size_t npu_model_ntimeline(const npu_model_t *m, int *complete) {
  if (complete) *complete = !m->events_lost;
  return m->nevents;
}
const npu_cmd_event_t *npu_model_timeline(const npu_model_t *m) { return m->events; }
