/* lower_segment: cuts a kernel stream larger than the command SRAM into
 * segments that each fit and run alone.
 *
 * The firmware starts each segment as its own stream (CTRL.START), which
 * resets tokens, queues and configuration registers but keeps the SRAMs.
 * The end of a run is the barrier: every command before the cut has
 * finished when the next segment starts.  A cut is safe where the next
 * segment can rebuild the state the stream would have there:
 *   - not inside a LOOP body, and not between an LSTRIDE and its LOOP;
 *   - no token is owed (popped, in stream order, before its push), since
 *     the pushing command would be in the next segment and the popping one
 *     would wait on it forever;
 *   - every configuration register was last set outside a striding LOOP,
 *     so the segment can restore it by replaying that CFG command with its
 *     token flags cleared (its tokens moved in the previous segment);
 *   - tokens in flight (pushed, not yet popped: the credits of a pipelined
 *     stream) are pushed again at the start of the segment by a command of
 *     the same queue with no other effect: the replayed CFG (LOAD, STORE
 *     queues) or ENOP (EXEC), under a LOOP for more than one.
 * Segments are chosen greedily (the farthest safe cut that fits), the
 * replayed prologue counted in each segment's size. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "tessel_isa.h"

enum { N_CFG = 5, CFG_LOAD_SLOT = 0, CFG_STORE_SLOT = 3, CFG_EPI_SLOT = 4 };

static int cfg_slot(unsigned op) {
  switch (op) {
  case TSL_OP_CFG_LOAD: return 0;
  case TSL_OP_CFG_EXEC: return 1;
  case TSL_OP_CFG_VEC: return 2;
  case TSL_OP_CFG_STORE: return 3;
  case TSL_OP_CFG_EPI: return 4;
  default: return -1;
  }
}

static void words(const lower_stream *s, uint32_t i, uint32_t w[4]) {
  const uint8_t *b = s->bytes + 16 * i;
  for (int j = 0; j < 4; j++)
    w[j] = (uint32_t)b[4 * j] | (uint32_t)b[4 * j + 1] << 8 | (uint32_t)b[4 * j + 2] << 16 |
           (uint32_t)b[4 * j + 3] << 24;
}

/* Token flags (docs/isa.md section 4), bits 8..11 of word 0. */
enum { POP_PREV = 1u << 8, POP_NEXT = 1u << 9, PUSH_PREV = 1u << 10, PUSH_NEXT = 1u << 11, TOKEN_BITS = 0xF00u };

/* The state at a cut: the CFG command of each slot to replay (-1: none) and
 * the tokens in flight on the four links (queue 1 LOAD, 2 EXEC, 3 STORE). */
typedef struct {
  int64_t last[N_CFG];
  int64_t le, es, el, se; /* LOAD->EXEC, EXEC->STORE, EXEC->LOAD, STORE->EXEC */
} cut_state;

/* Per cut position c (before command c, 0 < c < n): safe or not, its state. */
typedef struct {
  uint8_t *safe;
  cut_state *st;
} cuts;

static int64_t store_cfg(const cut_state *c) {
  return c->last[CFG_EPI_SLOT] >= 0 ? c->last[CFG_EPI_SLOT] : c->last[CFG_STORE_SLOT];
}

/* Commands of the prologue a segment starting at state c needs. */
static uint32_t prologue_len(const cut_state *c) {
  uint32_t k = 0;
  for (int j = 0; j < N_CFG; j++) k += c->last[j] >= 0;
  const int64_t tok[4] = {c->le, c->es, c->el, c->se};
  for (int j = 0; j < 4; j++) k += tok[j] == 0 ? 0 : tok[j] == 1 ? 1 : 2;
  return k;
}

static int find_cuts(const lower_stream *s, cuts *cu) {
  uint32_t n = s->n;
  cu->safe = calloc((size_t)n + 1, 1);
  cu->st = calloc((size_t)n + 1, sizeof *cu->st);
  if (!cu->safe || !cu->st) return -1;
  int64_t end[64], cnt[64]; /* open loops: last body command, count */
  int strided[64];          /* the loop adds a nonzero stride to its body */
  int depth = 0;
  int64_t tok[5][5] = {{0}}; /* tok[a][b]: tokens from queue a to queue b */
  cut_state cur;
  int in_loop[N_CFG] = {0};
  for (int j = 0; j < N_CFG; j++) cur.last[j] = -1;
  uint32_t prev[4] = {0};
  for (uint32_t i = 0; i < n; i++) {
    while (depth > 0 && end[depth - 1] < (int64_t)i) depth--;
    if (i > 0) {
      int ok = depth == 0 && tsl_opcode(prev) != TSL_OP_LSTRIDE;
      for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++) ok = ok && tok[a][b] >= 0;
      ok = ok && !tok[0][1] && !tok[3][4] && !tok[1][0] && !tok[4][3]; /* no queue beyond LOAD or STORE */
      for (int j = 0; j < N_CFG; j++) ok = ok && !in_loop[j];
      cur.le = tok[1][2], cur.es = tok[2][3], cur.el = tok[2][1], cur.se = tok[3][2];
      if (cur.le && cur.last[CFG_LOAD_SLOT] < 0) ok = 0; /* no command to carry them */
      if (cur.se && store_cfg(&cur) < 0) ok = 0;
      if (cur.le > 65535 || cur.es > 65535 || cur.el > 65535 || cur.se > 65535) ok = 0;
      cu->safe[i] = (uint8_t)ok;
      cu->st[i] = cur;
    }
    uint32_t w[4];
    words(s, i, w);
    unsigned op = tsl_opcode(w);
    int64_t mult = 1;
    int stride = 0;
    for (int l = 0; l < depth; l++) mult *= cnt[l], stride |= strided[l];
    if (op == TSL_OP_LOOP) {
      tsl_loop_t lc;
      if (tsl_loop_decode(w, &lc) != 0 || depth == 64) return -1;
      end[depth] = (int64_t)i + (int64_t)lc.body;
      cnt[depth] = (int64_t)lc.count;
      strided[depth++] = tsl_opcode(prev) == TSL_OP_LSTRIDE || lc.stride_a || lc.stride_b || lc.stride_c ||
                         lc.stride_d || lc.stride_e || lc.stride_f;
    }
    int q = tsl_op_queue(op);
    if (q > 0) {
      if (w[0] & POP_PREV) tok[q - 1][q] -= mult;
      if (w[0] & POP_NEXT) tok[q + 1][q] -= mult;
      if (w[0] & PUSH_PREV) tok[q][q - 1] += mult;
      if (w[0] & PUSH_NEXT) tok[q][q + 1] += mult;
    }
    int cs = cfg_slot(op);
    if (cs >= 0) {
      in_loop[cs] = stride;
      cur.last[cs] = (int64_t)i;
    }
    memcpy(prev, w, sizeof prev);
  }
  return 0;
}

/* Appends `count` copies of w (one, or a LOOP around one). */
static void put_n(lower_stream *out, const uint32_t w[4], int64_t count) {
  if (count <= 0) return;
  if (count > 1) LOWER_EMIT(out, loop, .count = count, .body = 1);
  lower_stream_put(out, w);
}

/* Appends segment [a, b) of s after the prologue for state c (or none). */
static void emit(lower_stream *out, const lower_stream *s, const cut_state *c, uint32_t a, uint32_t b) {
  uint32_t w[4];
  if (c) {
    for (int j = 0; j < N_CFG; j++)
      if (c->last[j] >= 0) {
        words(s, (uint32_t)c->last[j], w);
        w[0] &= ~TOKEN_BITS;
        lower_stream_put(out, w);
      }
    if (c->le) {
      words(s, (uint32_t)c->last[CFG_LOAD_SLOT], w);
      w[0] = (w[0] & ~TOKEN_BITS) | PUSH_NEXT;
      put_n(out, w, c->le);
    }
    if (c->se) {
      words(s, (uint32_t)store_cfg(c), w);
      w[0] = (w[0] & ~TOKEN_BITS) | PUSH_PREV;
      put_n(out, w, c->se);
    }
    if (c->es) put_n(out, (uint32_t[4]){TSL_OP_ENOP | PUSH_NEXT, 0, 0, 0}, c->es);
    if (c->el) put_n(out, (uint32_t[4]){TSL_OP_ENOP | PUSH_PREV, 0, 0, 0}, c->el);
  }
  for (uint32_t i = a; i < b; i++) {
    words(s, i, w);
    lower_stream_put(out, w);
  }
}

static int segment_one(lower_kernel *k, uint32_t limit, diag *d) {
  const lower_stream *s = &k->stream;
  cuts cu = {0};
  int rc = -1;
  if (find_cuts(s, &cu) != 0) {
    diag_set(d, "kernel '%s': out of memory or a malformed LOOP while segmenting its stream", k->node->src);
    goto out;
  }
  uint32_t a = 0;
  while (a < s->n) {
    uint32_t pre = a ? prologue_len(&cu.st[a]) : 0, b = 0;
    if (pre + (s->n - a) <= limit) b = s->n;
    else
      for (uint32_t c = a + 1; c < s->n && pre + (c - a) <= limit; c++)
        if (cu.safe[c] && prologue_len(&cu.st[c]) < limit) b = c;
    if (!b) {
      diag_set(d,
               "kernel '%s': its stream (%u commands) cannot be cut into segments of at most %u commands "
               "(no safe cut point within the budget after command %u)",
               k->node->src, s->n, limit, a);
      goto out;
    }
    lower_stream *ns = realloc(k->segs, sizeof *ns * (size_t)(k->n_segs + 1));
    if (!ns) {
      diag_oom(d);
      goto out;
    }
    k->segs = ns;
    lower_stream *seg = &k->segs[k->n_segs++];
    memset(seg, 0, sizeof *seg);
    emit(seg, s, a ? &cu.st[a] : NULL, a, b);
    if (seg->bad) {
      diag_set(d, "kernel '%s': out of memory or a bad command while segmenting its stream", k->node->src);
      goto out;
    }
    a = b;
  }
  rc = 0;
out:
  free(cu.safe);
  free(cu.st);
  return rc;
}

int lower_segment(lower_program *p, int64_t limit_bytes, diag *d) {
  if (limit_bytes < 16 * (1 + LOWER_FRAME_CMDS))
    return diag_set(d, "command SRAM budget of %lld bytes holds no command", (long long)limit_bytes);
  uint32_t limit = (uint32_t)(limit_bytes / 16 > UINT32_MAX ? UINT32_MAX : limit_bytes / 16) - LOWER_FRAME_CMDS;
  for (int i = 0; i < p->n_kernels; i++) {
    lower_kernel *k = &p->kernels[i];
    if (k->kind == LOWER_K_FALLBACK || k->stream.n <= limit) continue;
    if (segment_one(k, limit, d) != 0) return -1;
  }
  return 0;
}
