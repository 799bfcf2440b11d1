/* lower_beside.c: which kernel records the NPU may run while the control
 * core runs a fallback record (the record's AHEAD and BEHIND counts,
 * docs/package-format.md), so the runtime overlaps the two.
 *
 * The algorithm, in words:
 * 1. What a kernel record touches: the DRAM tensors its LOADs read and its
 *    STOREs write. The lowering addresses a tensor only from inside it and
 *    a LOOP's later iterations stay in the tensor its first one starts in,
 *    so a command's `dram` names the tensors that may hold its bytes: every
 *    tensor whose bytes contain that offset (a Concat's inputs lie inside
 *    its output, and each of them counts). The constants and the MARK
 *    records are left out: no fallback record writes them (rule 65), and
 *    reading them together is no conflict. A command whose offset lies in
 *    no tensor makes its record touch everything.
 * 2. A fallback record and a kernel record conflict when the kernel reads
 *    or writes one of the record's outputs, or writes one of its inputs
 *    (the record's operands: their own offsets and sizes).
 * 3. AHEAD counts the kernel records from before_kernel on, up to the first
 *    that conflicts; BEHIND the records before before_kernel, backwards, up
 *    to the first that conflicts. Both at most 65535.
 * 4. A check on the way: every byte range a fallback record reads must meet
 *    one something wrote before it: a graph input's IO record, a constant, an earlier
 *    record's output or a kernel record before before_kernel (tensors a
 *    kernel STOREs to). A range nobody wrote is a lowering bug (a conv's
 *    output kept in the scratchpad for a consumer that ran on the core read
 *    a DRAM tensor never written: wrong results and no error); it is an
 *    internal error naming the record. */
#include <stdlib.h>

#include "lower_internal.h"
#include "tessel_isa.h"

typedef struct {
  uint64_t lo, hi; /* bytes [lo, hi) */
} span;

/* Spans, each once. */
typedef struct {
  span *at;
  int n, cap;
} spans;

/* What one kernel record reads and writes (step 1). */
typedef struct {
  spans rd, wr;
  int all; /* it may touch any byte */
} touch;

static int spans_meet(uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi) { return alo < bhi && blo < ahi; }

/* Adds every tensor holding byte `at` to l (once each). 1 when some tensor
 * does, 0 when none, -1 out of memory. */
static int add_tensors(const lower_program *p, uint64_t at, spans *l) {
  int found = 0;
  for (int i = 0; i < p->n_tensors; i++) {
    const lower_tensor *t = &p->tensors[i];
    if (t->is_const || at < t->dram || at - t->dram >= t->bytes) continue;
    found = 1;
    int seen = 0;
    for (int j = 0; j < l->n && !seen; j++) seen = l->at[j].lo == t->dram && l->at[j].hi == t->dram + t->bytes;
    if (seen) continue;
    if (l->n == l->cap) {
      span *g = realloc(l->at, (size_t)(l->cap = l->cap ? 2 * l->cap : 4) * sizeof *g);
      if (!g) return -1;
      l->at = g;
    }
    l->at[l->n++] = (span){t->dram, t->dram + t->bytes};
  }
  return found;
}

/* Step 1 for one record's commands. 0, or -1 out of memory. */
static int touched(const lower_program *p, const tpkg_kernel *k, touch *t) {
  for (uint32_t c = 0; c < k->n_cmds && !t->all; c++) {
    const uint32_t *w = k->cmds[c];
    uint64_t at;
    int store = 0;
    if (tsl_opcode(w) == TSL_OP_LOAD) {
      tsl_load_t l;
      if (tsl_load_decode(w, &l)) { t->all = 1; break; }
      at = (uint64_t)l.dram;
    } else if (tsl_opcode(w) == TSL_OP_STORE) {
      tsl_store_t s;
      if (tsl_store_decode(w, &s)) { t->all = 1; break; }
      if (s.dst_mem != TSL_DST_DRAM) continue;
      at = (uint64_t)s.dram, store = 1;
    } else {
      continue;
    }
    if (at >= p->consts_base && at < p->consts_base + p->consts_bytes) continue; /* constants */
    int found = add_tensors(p, at, store ? &t->wr : &t->rd);
    if (found < 0) return -1;
    t->all |= !found;
  }
  return 0;
}

/* Step 2. */
static int conflicts(const tpkg_fb_record *f, const touch *t) {
  if (t->all) return 1;
  for (uint32_t i = 0; i < f->n_in + f->n_out; i++) {
    const tpkg_operand *o = &f->operands[i];
    uint64_t lo = o->offset, hi = lo + o->size;
    int out = i >= f->n_in;
    for (int j = 0; j < t->wr.n; j++)
      if (spans_meet(lo, hi, t->wr.at[j].lo, t->wr.at[j].hi)) return 1;
    for (int j = 0; out && j < t->rd.n; j++)
      if (spans_meet(lo, hi, t->rd.at[j].lo, t->rd.at[j].hi)) return 1;
  }
  return 0;
}

/* Step 4 for fallback record i's input [lo, hi). */
static int written_before(const lower_program *p, const touch *t, const tpkg_fb_record *fs, uint32_t i,
                          const tpkg_io *in, uint32_t n_in, uint64_t lo, uint64_t hi) {
  if (hi <= lo || spans_meet(lo, hi, p->consts_base, p->consts_base + p->consts_bytes)) return 1;
  for (uint32_t j = 0; j < n_in; j++)
    if (spans_meet(lo, hi, in[j].offset, (uint64_t)in[j].offset + in[j].size)) return 1;
  for (uint32_t j = 0; j < i; j++)
    for (uint32_t o = fs[j].n_in; o < fs[j].n_in + fs[j].n_out; o++)
      if (spans_meet(lo, hi, fs[j].operands[o].offset, (uint64_t)fs[j].operands[o].offset + fs[j].operands[o].size))
        return 1;
  for (uint32_t k = 0; k < fs[i].before_kernel; k++) {
    if (t[k].all) return 1;
    for (int j = 0; j < t[k].wr.n; j++)
      if (spans_meet(lo, hi, t[k].wr.at[j].lo, t[k].wr.at[j].hi)) return 1;
  }
  return 0;
}

int lower_beside(const lower_program *p, const tpkg_kernel *ks, uint32_t nk, tpkg_fb_record *fs, uint32_t nf,
                 const tpkg_io *in, uint32_t n_in, diag *d) {
  touch *t = calloc((size_t)nk + 1, sizeof *t);
  int rc = t ? 0 : diag_oom(d);
  for (uint32_t k = 0; k < nk && !rc; k++)
    if (touched(p, &ks[k], &t[k])) rc = diag_oom(d);
  for (uint32_t i = 0; i < nf && !rc; i++) /* step 4 */
    for (uint32_t o = 0; o < fs[i].n_in && !rc; o++) {
      const tpkg_operand *op = &fs[i].operands[o];
      if (!written_before(p, t, fs, i, in, n_in, op->offset, (uint64_t)op->offset + op->size))
        rc = diag_set(d, "internal: fallback record %u ('%s') reads window bytes 0x%X..0x%llX that no kernel or "
                      "record before it writes", i, fs[i].name ? fs[i].name : "", op->offset,
                      (unsigned long long)op->offset + op->size);
    }
  for (uint32_t i = 0; i < nf && !rc; i++) { /* step 3 */
    tpkg_fb_record *f = &fs[i];
    uint32_t a = 0, b = 0;
    while (f->before_kernel + a < nk && a < 0xFFFFu && !conflicts(f, &t[f->before_kernel + a])) a++;
    while (b < f->before_kernel && b < 0xFFFFu && !conflicts(f, &t[f->before_kernel - 1 - b])) b++;
    f->ahead = a, f->behind = b;
  }
  for (uint32_t k = 0; t && k < nk; k++) free(t[k].rd.at), free(t[k].wr.at);
  free(t);
  return rc;
}
