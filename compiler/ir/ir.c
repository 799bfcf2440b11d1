/* ir: graph construction and editing helpers. */
#include "ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dtype_names[IR_DTYPE_COUNT] = {
    "f32", "f64", "i8", "u8", "i16", "i32", "i64", "bool", "u16", "u32"};
static const size_t dtype_sizes[IR_DTYPE_COUNT] = {4, 8, 1, 1, 2, 4, 8, 1, 2, 4};
static const char *const op_names[IR_OP_COUNT] = {
#define IR_OP(e, s) s,
#include "ir_ops.def"
#undef IR_OP
};

const char *ir_dtype_name(ir_dtype t) {
  TSL_ASSERT((unsigned)t < IR_DTYPE_COUNT);
  return dtype_names[t];
}

int ir_dtype_parse(const char *s, size_t n, ir_dtype *out) {
  for (int i = 0; i < IR_DTYPE_COUNT; i++)
    if (strlen(dtype_names[i]) == n && memcmp(dtype_names[i], s, n) == 0) {
      *out = (ir_dtype)i;
      return 0;
    }
  return -1;
}

size_t ir_dtype_size(ir_dtype t) {
  TSL_ASSERT((unsigned)t < IR_DTYPE_COUNT);
  return dtype_sizes[t];
}

int ir_dtype_is_float(ir_dtype t) { return t == IR_F32 || t == IR_F64; }

const char *ir_op_name(ir_op op) {
  TSL_ASSERT((unsigned)op < IR_OP_COUNT);
  return op_names[op];
}

int ir_op_parse(const char *s, size_t n, ir_op *out) {
  for (int i = 0; i < IR_OP_COUNT; i++)
    if (strlen(op_names[i]) == n && memcmp(op_names[i], s, n) == 0) {
      *out = (ir_op)i;
      return 0;
    }
  return -1;
}

ir_graph *ir_graph_new(const char *name, diag *d) {
  arena *a = arena_new();
  if (!a) {
    diag_oom(d);
    return NULL;
  }
  ir_graph *g = arena_alloc(a, sizeof *g);
  if (!g || !(g->name = arena_strdup(a, name ? name : "main"))) {
    arena_free(a);
    diag_oom(d);
    return NULL;
  }
  g->arena = a;
  return g;
}

void ir_graph_free(ir_graph *g) {
  if (g) arena_free(g->arena);
}

/* Appends p to a growable pointer array living in the arena. */
static int push_ptr(arena *a, void ***arr, int *n, int *cap, void *p) {
  if (*n == *cap) {
    int ncap = *cap ? *cap * 2 : 16;
    void **na = arena_alloc(a, sizeof(void *) * (size_t)ncap);
    if (!na) return -1;
    if (*n) memcpy(na, *arr, sizeof(void *) * (size_t)*n);
    *arr = na;
    *cap = ncap;
  }
  (*arr)[(*n)++] = p;
  return 0;
}

/* ---- the name index ----
 * Every value in g->values is in `slots`, an open-addressing table keyed by
 * name (linear probing, at most half full, deletion by backward shift so no
 * tombstones), so ir_value_find is O(1) instead of a scan: a scan per lookup
 * made importing and compiling a graph of N nodes O(N^2).
 *
 * `hints` remembers, per base, the smallest N ir_unique_name may still find
 * free in "base.N": a graph that shares one weight among N convolutions asks
 * for "w.q", "w.q.1", ... "w.q.N", and probing from 1 each time is O(N^2)
 * lookups.  A hint only moves forward when a name is found taken; a name that
 * leaves the index lowers its base's hint again, and compaction drops all
 * hints, so the name chosen is always the smallest free one, as before. */

typedef struct name_hint {
  const char *base; /* arena copy of the base name, NULL for an empty slot */
  size_t len;       /* strlen(base) */
  int next;         /* base.1 .. base.(next-1) were found taken */
} name_hint;

struct ir_name_index {
  ir_value **slots;  /* cap entries, NULL when empty */
  size_t cap, count; /* cap a power of two, count <= cap / 2 */
  name_hint *hints;  /* hint_cap entries (a power of two) */
  size_t hint_cap, hint_count;
};

/* FNV-1a over n bytes. */
static size_t name_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return (size_t)(h ^ (h >> 32));
}

static void index_put(ir_name_index *ix, ir_value *v) {
  size_t m = ix->cap - 1, i = name_hash(v->name, strlen(v->name)) & m;
  while (ix->slots[i]) i = (i + 1) & m;
  ix->slots[i] = v;
  ix->count++;
}

/* Makes room for one more value: -1 on OOM (the index is left as it was). */
static int index_reserve(ir_graph *g) {
  ir_name_index *ix = g->index;
  if (!ix) {
    if (!(ix = arena_alloc(g->arena, sizeof *ix))) return -1;
    g->index = ix;
  }
  if ((ix->count + 1) * 2 <= ix->cap) return 0;
  size_t ncap = ix->cap ? ix->cap * 2 : 64;
  ir_value **ns = arena_alloc(g->arena, sizeof *ns * ncap);
  if (!ns) return -1;
  memset(ns, 0, sizeof *ns * ncap);
  ir_value **old = ix->slots;
  size_t ocap = ix->cap;
  ix->slots = ns, ix->cap = ncap, ix->count = 0;
  for (size_t i = 0; i < ocap; i++)
    if (old[i]) index_put(ix, old[i]);
  return 0;
}

static name_hint *hint_slot(const ir_name_index *ix, const char *base, size_t len) {
  if (!ix || !ix->hint_cap) return NULL;
  size_t m = ix->hint_cap - 1, i = name_hash(base, len) & m;
  for (; ix->hints[i].base; i = (i + 1) & m)
    if (ix->hints[i].len == len && memcmp(ix->hints[i].base, base, len) == 0) return &ix->hints[i];
  return &ix->hints[i];
}

/* Records that base.1 .. base.(next-1) are taken.  Only a speed-up: on OOM
 * the hint is simply not kept. */
static void hint_set(ir_graph *g, const char *base, int next) {
  ir_name_index *ix = g->index;
  if (!ix) return;
  size_t len = strlen(base);
  name_hint *h = hint_slot(ix, base, len);
  if (h && h->base) {
    h->next = next;
    return;
  }
  if ((ix->hint_count + 1) * 2 > ix->hint_cap) {
    size_t ncap = ix->hint_cap ? ix->hint_cap * 2 : 16;
    name_hint *nh = arena_alloc(g->arena, sizeof *nh * ncap);
    if (!nh) return;
    memset(nh, 0, sizeof *nh * ncap);
    name_hint *old = ix->hints;
    size_t ocap = ix->hint_cap;
    ix->hints = nh, ix->hint_cap = ncap;
    for (size_t i = 0; i < ocap; i++)
      if (old[i].base) *hint_slot(ix, old[i].base, old[i].len) = old[i];
  }
  const char *copy = arena_strdup(g->arena, base);
  if (!copy) return;
  h = hint_slot(ix, base, len);
  h->base = copy, h->len = len, h->next = next;
  ix->hint_count++;
}

/* `name` left the index: if it reads "base.N", base's hint may not pass N. */
static void hint_lower(ir_name_index *ix, const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || !dot[1]) return;
  long k = 0;
  for (const char *p = dot + 1; *p; p++) {
    if (*p < '0' || *p > '9') return;
    k = k < 100000000 ? k * 10 + (*p - '0') : k;
  }
  name_hint *h = hint_slot(ix, name, (size_t)(dot - name));
  if (h && h->base && k < h->next) h->next = k < 1 ? 1 : (int)k;
}

/* Removes v itself (not merely a value of the same name) from the index. */
static void index_remove(ir_name_index *ix, const ir_value *v) {
  size_t m = ix->cap - 1, i = name_hash(v->name, strlen(v->name)) & m;
  while (ix->slots[i] != v) {
    TSL_ASSERT(ix->slots[i]); /* every value in g->values is indexed */
    i = (i + 1) & m;
  }
  /* backward shift: move later entries of the cluster into the hole when
   * their home slot does not lie strictly between the hole and them */
  for (size_t j = i;;) {
    ix->slots[i] = NULL;
    for (;;) {
      j = (j + 1) & m;
      if (!ix->slots[j]) {
        ix->count--;
        hint_lower(ix, v->name);
        return;
      }
      size_t home = name_hash(ix->slots[j]->name, strlen(ix->slots[j]->name)) & m;
      if (i <= j ? (i < home && home <= j) : (i < home || home <= j)) continue;
      break;
    }
    ix->slots[i] = ix->slots[j];
    i = j;
  }
}

/* After g->values shrank: the index holds exactly g->values again. */
static void index_rebuild(ir_graph *g) {
  ir_name_index *ix = g->index;
  if (!ix) return;
  if (ix->cap) memset(ix->slots, 0, sizeof *ix->slots * ix->cap); /* no table yet: first growth failed */
  ix->count = 0;
  for (int i = 0; i < g->n_values; i++) index_put(ix, g->values[i]);
  if (ix->hint_cap) memset(ix->hints, 0, sizeof *ix->hints * ix->hint_cap);
  ix->hint_count = 0;
}

ir_value *ir_value_find(const ir_graph *g, const char *name) {
  const ir_name_index *ix = g->index;
  if (!ix || !ix->count) return NULL;
  size_t m = ix->cap - 1, i = name_hash(name, strlen(name)) & m;
  for (; ix->slots[i]; i = (i + 1) & m)
    if (strcmp(ix->slots[i]->name, name) == 0) return ix->slots[i];
  return NULL;
}

ir_value *ir_value_new(ir_graph *g, const char *name, ir_value_kind kind, diag *d) {
  if (ir_value_find(g, name)) {
    diag_set(d, "value '%s' is defined twice", name);
    return NULL;
  }
  ir_value *v = arena_alloc(g->arena, sizeof *v);
  if (!v || !(v->name = arena_strdup(g->arena, name)) || index_reserve(g) ||
      push_ptr(g->arena, (void ***)&g->values, &g->n_values, &g->cap_values, v)) {
    diag_oom(d);
    return NULL;
  }
  index_put(g->index, v);
  v->id = g->next_value_id++;
  v->kind = kind;
  v->rank = -1;
  return v;
}

void ir_value_rename(ir_graph *g, ir_value *v, const char *name) {
  TSL_ASSERT(!name[0] || !ir_value_find(g, name) || ir_value_find(g, name) == v);
  index_remove(g->index, v); /* v is in g->values, so the index exists */
  v->name = name;
  index_put(g->index, v); /* a slot was just freed: no growth needed */
}

void ir_value_swap_names(ir_graph *g, ir_value *a, ir_value *b) {
  index_remove(g->index, a);
  index_remove(g->index, b);
  const char *t = a->name;
  a->name = b->name;
  b->name = t;
  index_put(g->index, a);
  index_put(g->index, b);
}

const char *ir_unique_name(ir_graph *g, const char *base) {
  if (!ir_value_find(g, base)) return arena_strdup(g->arena, base);
  char buf[512];
  /* a base cut to 480 characters below does not name its candidates: no hint */
  int hinted = strlen(base) <= 480;
  const name_hint *h = hinted ? hint_slot(g->index, base, strlen(base)) : NULL;
  for (int i = h && h->base ? h->next : 1;; i++) {
    snprintf(buf, sizeof buf, "%.480s.%d", base, i);
    if (!ir_value_find(g, buf)) {
      if (hinted) hint_set(g, base, i); /* base.1 .. base.(i-1) are taken */
      return arena_strdup(g->arena, buf);
    }
  }
}

int64_t ir_value_numel(const ir_value *v) {
  if (v->rank < 0) return -1;
  int64_t n = 1;
  for (int i = 0; i < v->rank; i++) {
    if (v->dims[i] < 0) return -1;
    n *= v->dims[i];
  }
  return n;
}

int ir_value_alloc_data(ir_graph *g, ir_value *v, diag *d) {
  int64_t n = ir_value_numel(v);
  if (n < 0) return diag_set(d, "value '%s': shape unknown", v->name);
  v->data = arena_alloc(g->arena, (size_t)n * ir_dtype_size(v->dtype));
  return v->data ? 0 : diag_oom(d);
}

void ir_value_copy_type(ir_value *dst, const ir_value *src) {
  dst->dtype = src->dtype;
  dst->rank = src->rank;
  memcpy(dst->dims, src->dims, sizeof dst->dims);
}

int ir_add_input(ir_graph *g, ir_value *v, diag *d) {
  if (push_ptr(g->arena, (void ***)&g->inputs, &g->n_inputs, &g->cap_inputs, v))
    return diag_oom(d);
  return 0;
}

int ir_add_output(ir_graph *g, ir_value *v, diag *d) {
  if (push_ptr(g->arena, (void ***)&g->outputs, &g->n_outputs, &g->cap_outputs, v))
    return diag_oom(d);
  v->is_output = 1;
  return 0;
}

/* ---- users ----
 * Each value lists the live nodes that read it, so use counts and "the one
 * user" are O(1) instead of a scan of the node list per question (quadratic
 * in the node count: 20k-node graphs spent seconds there).  A growth that
 * fails for lack of memory marks the lists stale: the queries then scan, as
 * before, and ir_uses_rebuild trusts them again. */

static void use_add(ir_graph *g, ir_value *v, ir_node *n) {
  if (g->uses_stale) return;
  if (v->n_users == v->cap_users) {
    int ncap = v->cap_users ? v->cap_users * 2 : 2;
    ir_node **nu = arena_alloc(g->arena, sizeof *nu * (size_t)ncap);
    if (!nu) {
      g->uses_stale = 1;
      return;
    }
    if (v->n_users) memcpy(nu, v->users, sizeof *nu * (size_t)v->n_users);
    v->users = nu, v->cap_users = ncap;
  }
  v->users[v->n_users++] = n;
}

/* Drops one entry of n from v's users (order does not matter). */
static void use_del(ir_graph *g, ir_value *v, const ir_node *n) {
  if (g->uses_stale) return;
  for (int i = 0; i < v->n_users; i++)
    if (v->users[i] == n) {
      v->users[i] = v->users[--v->n_users];
      return;
    }
  g->uses_stale = 1; /* n reads v but is not listed: someone edited in[] directly */
}

void ir_uses_rebuild(ir_graph *g) {
  g->uses_stale = 0;
  for (int i = 0; i < g->n_values; i++) g->values[i]->n_users = 0;
  for (int i = 0; i < g->n_nodes; i++)
    for (int k = 0; k < g->nodes[i]->n_in; k++) g->nodes[i]->in[k]->n_users = 0;
  for (int i = 0; i < g->n_nodes; i++)
    for (int k = 0; k < g->nodes[i]->n_in; k++) use_add(g, g->nodes[i]->in[k], g->nodes[i]);
}

void ir_node_set_input(ir_graph *g, ir_node *n, int k, ir_value *v) {
  TSL_ASSERT(k >= 0 && k < n->n_in && v);
  use_del(g, n->in[k], n);
  n->in[k] = v;
  use_add(g, v, n);
}

void ir_node_set_inputs(ir_graph *g, ir_node *n, ir_value *const *in, int n_in) {
  TSL_ASSERT(n_in >= 0 && n_in <= IR_MAX_INPUTS);
  ir_value *nin[IR_MAX_INPUTS];
  for (int k = 0; k < n_in; k++) { /* in may alias n->in */
    TSL_ASSERT(in[k]);
    nin[k] = in[k];
  }
  for (int k = 0; k < n->n_in; k++) use_del(g, n->in[k], n);
  n->n_in = n_in;
  for (int k = 0; k < n_in; k++) {
    n->in[k] = nin[k];
    use_add(g, nin[k], n);
  }
}

ir_node *ir_node_new(ir_graph *g, ir_op op, const char *src, ir_value *const *in,
                     int n_in, ir_value *out, diag *d) {
  TSL_ASSERT(n_in >= 0 && n_in <= IR_MAX_INPUTS);
  ir_node *n = arena_alloc(g->arena, sizeof *n);
  if (!n || !(n->src = arena_strdup(g->arena, src ? src : "")) ||
      push_ptr(g->arena, (void ***)&g->nodes, &g->n_nodes, &g->cap_nodes, n)) {
    diag_oom(d);
    return NULL;
  }
  static int next_id; /* only for identification in debugging */
  n->id = next_id++;
  n->op = op;
  n->n_in = n_in;
  for (int i = 0; i < n_in; i++) {
    TSL_ASSERT(in[i]);
    n->in[i] = in[i];
    use_add(g, in[i], n);
  }
  n->out = out;
  out->kind = IR_VALUE_NODE;
  out->def = n;
  return n;
}

void ir_node_remove(ir_graph *g, ir_node *n) {
  int j = 0;
  for (int i = 0; i < g->n_nodes; i++)
    if (g->nodes[i] != n) g->nodes[j++] = g->nodes[i];
  TSL_ASSERT(j == g->n_nodes - 1);
  g->n_nodes = j;
  for (int k = 0; k < n->n_in; k++) use_del(g, n->in[k], n);
}

void ir_replace_uses(ir_graph *g, ir_value *from, ir_value *to) {
  if (from == to) return;
  if (g->uses_stale) {
    for (int i = 0; i < g->n_nodes; i++)
      for (int k = 0; k < g->nodes[i]->n_in; k++)
        if (g->nodes[i]->in[k] == from) g->nodes[i]->in[k] = to;
  } else {
    /* one entry per slot: rewrite one slot still reading `from` per entry */
    while (from->n_users) {
      ir_node *u = from->users[--from->n_users];
      int k = 0;
      while (u->in[k] != from) k++;
      TSL_ASSERT(k < u->n_in);
      u->in[k] = to;
      use_add(g, to, u);
    }
  }
  for (int i = 0; i < g->n_outputs; i++)
    if (g->outputs[i] == from) {
      g->outputs[i] = to;
      from->is_output = 0;
      to->is_output = 1;
    }
}

int ir_use_count(const ir_graph *g, const ir_value *v) {
  int c = 0;
  if (g->uses_stale) {
    for (int i = 0; i < g->n_nodes; i++)
      for (int k = 0; k < g->nodes[i]->n_in; k++) c += g->nodes[i]->in[k] == v;
  } else {
    c = v->n_users;
  }
  for (int i = 0; i < g->n_outputs; i++) c += g->outputs[i] == v;
  return c;
}

ir_node *ir_single_user(const ir_graph *g, const ir_value *v) {
  if (v->is_output) return NULL;
  if (!g->uses_stale) return v->n_users == 1 ? v->users[0] : NULL;
  ir_node *user = NULL;
  int uses = 0;
  for (int i = 0; i < g->n_nodes; i++)
    for (int k = 0; k < g->nodes[i]->n_in; k++)
      if (g->nodes[i]->in[k] == v) uses++, user = g->nodes[i];
  return uses == 1 ? user : NULL;
}

void ir_node_to_const(ir_graph *g, ir_node *n, void *data) {
  ir_value *v = n->out;
  v->kind = IR_VALUE_CONST;
  v->def = NULL;
  v->data = data;
  ir_node_remove(g, n);
}

/* Whether n is in g's node list. */
static int node_listed(const ir_graph *g, const ir_node *n) {
  for (int k = 0; k < g->n_nodes; k++)
    if (g->nodes[k] == n) return 1;
  return 0;
}

void ir_compact_values(ir_graph *g) {
  /* Marks by value id make this O(values + uses); a scan of the node list per
   * value made it O(N^2).  Without memory for the marks, the scans it is. */
  int nid = g->next_value_id;
  for (int i = 0; i < g->n_values; i++)
    if (g->values[i]->id >= nid) nid = g->values[i]->id + 1;
  for (int i = 0; i < g->n_nodes; i++)
    if (g->nodes[i]->out->id >= nid) nid = g->nodes[i]->out->id + 1;
  /* mark[id]: 1 a graph input, 2 used by a node input or graph output,
   * 4 the output of a live node whose out is this value */
  unsigned char *mark = calloc((size_t)nid + 1, 1);
  if (mark) {
    for (int k = 0; k < g->n_inputs; k++) mark[g->inputs[k]->id] |= 1;
    for (int k = 0; k < g->n_outputs; k++) mark[g->outputs[k]->id] |= 2;
    for (int k = 0; k < g->n_nodes; k++) {
      const ir_node *n = g->nodes[k];
      for (int a = 0; a < n->n_in; a++) mark[n->in[a]->id] |= 2;
      mark[n->out->id] |= 4;
    }
  }
  int j = 0;
  for (int i = 0; i < g->n_values; i++) {
    ir_value *v = g->values[i];
    int keep = v->is_output;
    if (mark) {
      keep = keep || (mark[v->id] & 1);
      /* v->def is live when it is in g->nodes; while v->def->out is still v
       * that is mark 4; a def a pass rewired to another output is rare:
       * scan for it */
      if (!keep && v->kind == IR_VALUE_NODE && v->def)
        keep = v->def->out == v ? (mark[v->id] & 4) != 0 : node_listed(g, v->def);
      if (!keep && v->kind == IR_VALUE_CONST) keep = (mark[v->id] & 2) != 0;
    } else {
      for (int k = 0; !keep && k < g->n_inputs; k++) keep = g->inputs[k] == v;
      if (!keep && v->kind == IR_VALUE_NODE && v->def) keep = node_listed(g, v->def);
      if (!keep && v->kind == IR_VALUE_CONST) keep = ir_use_count(g, v) > 0;
    }
    if (keep) g->values[j++] = v;
  }
  free(mark);
  g->n_values = j;
  index_rebuild(g);
}

/* ---- attributes ---- */

static ir_attr *attr_slot(ir_graph *g, ir_node *n, const char *name, diag *d) {
  ir_attr **pp = &n->attrs;
  while (*pp && strcmp((*pp)->name, name) < 0) pp = &(*pp)->next;
  if (*pp && strcmp((*pp)->name, name) == 0) return *pp;
  ir_attr *a = arena_alloc(g->arena, sizeof *a);
  if (!a || !(a->name = arena_strdup(g->arena, name))) {
    diag_oom(d);
    return NULL;
  }
  a->next = *pp;
  *pp = a;
  return a;
}

int ir_attr_set_int(ir_graph *g, ir_node *n, const char *name, int64_t v, diag *d) {
  ir_attr *a = attr_slot(g, n, name, d);
  if (!a) return -1;
  a->kind = IR_ATTR_INT;
  a->i = v;
  return 0;
}

int ir_attr_set_float(ir_graph *g, ir_node *n, const char *name, float v, diag *d) {
  ir_attr *a = attr_slot(g, n, name, d);
  if (!a) return -1;
  a->kind = IR_ATTR_FLOAT;
  a->f = v;
  return 0;
}

int ir_attr_set_ints(ir_graph *g, ir_node *n, const char *name, const int64_t *v, int cnt,
                     diag *d) {
  ir_attr *a = attr_slot(g, n, name, d);
  if (!a) return -1;
  a->kind = IR_ATTR_INTS;
  a->n = cnt;
  a->ints = arena_alloc(g->arena, sizeof(int64_t) * (size_t)(cnt ? cnt : 1));
  if (!a->ints) return diag_oom(d);
  if (cnt) memcpy(a->ints, v, sizeof(int64_t) * (size_t)cnt);
  return 0;
}

int ir_attr_set_floats(ir_graph *g, ir_node *n, const char *name, const float *v, int cnt,
                       diag *d) {
  ir_attr *a = attr_slot(g, n, name, d);
  if (!a) return -1;
  a->kind = IR_ATTR_FLOATS;
  a->n = cnt;
  a->floats = arena_alloc(g->arena, sizeof(float) * (size_t)(cnt ? cnt : 1));
  if (!a->floats) return diag_oom(d);
  if (cnt) memcpy(a->floats, v, sizeof(float) * (size_t)cnt);
  return 0;
}

int ir_attr_set_string(ir_graph *g, ir_node *n, const char *name, const char *v, diag *d) {
  ir_attr *a = attr_slot(g, n, name, d);
  if (!a) return -1;
  a->kind = IR_ATTR_STRING;
  a->s = arena_strdup(g->arena, v);
  return a->s ? 0 : diag_oom(d);
}

int ir_attrs_copy(ir_graph *g, ir_node *to, const ir_node *from, diag *d) {
  for (const ir_attr *a = from->attrs; a; a = a->next) {
    int rc = 0;
    switch (a->kind) {
    case IR_ATTR_INT: rc = ir_attr_set_int(g, to, a->name, a->i, d); break;
    case IR_ATTR_FLOAT: rc = ir_attr_set_float(g, to, a->name, a->f, d); break;
    case IR_ATTR_INTS: rc = ir_attr_set_ints(g, to, a->name, a->ints, a->n, d); break;
    case IR_ATTR_FLOATS: rc = ir_attr_set_floats(g, to, a->name, a->floats, a->n, d); break;
    case IR_ATTR_STRING: rc = ir_attr_set_string(g, to, a->name, a->s, d); break;
    }
    if (rc) return -1;
  }
  return 0;
}

const ir_attr *ir_attr_get(const ir_node *n, const char *name) {
  for (const ir_attr *a = n->attrs; a; a = a->next)
    if (strcmp(a->name, name) == 0) return a;
  return NULL;
}

void ir_attr_remove(ir_node *n, const char *name) {
  for (ir_attr **pp = &n->attrs; *pp; pp = &(*pp)->next)
    if (strcmp((*pp)->name, name) == 0) {
      *pp = (*pp)->next;
      return;
    }
}

int64_t ir_attr_int(const ir_node *n, const char *name, int64_t dflt) {
  const ir_attr *a = ir_attr_get(n, name);
  return a && a->kind == IR_ATTR_INT ? a->i : dflt;
}

float ir_attr_float(const ir_node *n, const char *name, float dflt) {
  const ir_attr *a = ir_attr_get(n, name);
  if (a && a->kind == IR_ATTR_FLOAT) return a->f;
  if (a && a->kind == IR_ATTR_INT) return (float)a->i;
  return dflt;
}

const int64_t *ir_attr_ints(const ir_node *n, const char *name, int *cnt) {
  const ir_attr *a = ir_attr_get(n, name);
  if (!a || a->kind != IR_ATTR_INTS) {
    *cnt = 0;
    return NULL;
  }
  *cnt = a->n;
  return a->ints;
}

int ir_node_error(diag *d, const ir_node *n, const char *fmt, ...) {
  char msg[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return diag_set(d, "node '%s' (%s): %s", n->src[0] ? n->src : n->out->name, ir_op_name(n->op), msg);
}

/* ---- element access ---- */

double ir_elem_f64(ir_dtype t, const void *data, int64_t i) {
  switch (t) {
  case IR_F32: return ((const float *)data)[i];
  case IR_F64: return ((const double *)data)[i];
  case IR_I8: return ((const int8_t *)data)[i];
  case IR_U8: return ((const uint8_t *)data)[i];
  case IR_I16: return ((const int16_t *)data)[i];
  case IR_I32: return ((const int32_t *)data)[i];
  case IR_U16: return ((const uint16_t *)data)[i];
  case IR_U32: return ((const uint32_t *)data)[i];
  case IR_I64: return (double)((const int64_t *)data)[i];
  case IR_BOOL: return ((const uint8_t *)data)[i] != 0;
  default: TSL_UNREACHABLE();
  }
  return 0;
}

int64_t ir_elem_i64(ir_dtype t, const void *data, int64_t i) {
  if (t == IR_I64) return ((const int64_t *)data)[i];
  double x = ir_elem_f64(t, data, i);
  if (x != x) return 0;
  if (x >= 9.2e18) return INT64_MAX;
  if (x <= -9.2e18) return INT64_MIN;
  return (int64_t)x;
}

/* Float to integer the way a C cast would, but saturating instead of UB. */
static int64_t clamp_i64(double x, double lo, double hi) {
  if (x != x) return 0;
  if (x < lo) x = lo;
  if (x > hi) x = hi;
  return (int64_t)x;
}

void ir_elem_set_f64(ir_dtype t, void *data, int64_t i, double x) {
  switch (t) {
  case IR_F32: ((float *)data)[i] = (float)x; break;
  case IR_F64: ((double *)data)[i] = x; break;
  case IR_I8: ((int8_t *)data)[i] = (int8_t)clamp_i64(x, -128, 127); break;
  case IR_U8: ((uint8_t *)data)[i] = (uint8_t)clamp_i64(x, 0, 255); break;
  case IR_I16: ((int16_t *)data)[i] = (int16_t)clamp_i64(x, -32768, 32767); break;
  case IR_I32: ((int32_t *)data)[i] = (int32_t)clamp_i64(x, -2147483648.0, 2147483647.0); break;
  case IR_U16: ((uint16_t *)data)[i] = (uint16_t)clamp_i64(x, 0, 65535); break;
  case IR_U32: ((uint32_t *)data)[i] = (uint32_t)clamp_i64(x, 0, 4294967295.0); break;
  case IR_I64: ((int64_t *)data)[i] = clamp_i64(x, -9.2e18, 9.2e18); break;
  case IR_BOOL: ((uint8_t *)data)[i] = x != 0; break;
  default: TSL_UNREACHABLE();
  }
}
