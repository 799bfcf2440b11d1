/* arena: bump allocation in chained blocks; big requests get their own block. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ARENA_BLOCK = 64 * 1024, ARENA_ALIGN = 16 };

typedef struct arena_block {
  struct arena_block *next; /* older block */
  size_t size;              /* usable bytes in data */
  size_t used;              /* bytes handed out */
  _Alignas(16) unsigned char data[];
} arena_block;

struct arena {
  arena_block *head; /* newest block, where small requests go */
  size_t total;      /* bytes handed out */
};

static long fail_countdown = -1; /* <0: injection off */

void arena_fail_after(long n) { fail_countdown = n; }

/* True when the injected failure fires for this allocation. */
static int injected_failure(void) {
  if (fail_countdown < 0) return 0;
  if (fail_countdown == 0) return 1;
  fail_countdown--;
  return 0;
}

arena *arena_new(void) {
  if (injected_failure()) return NULL;
  return calloc(1, sizeof(arena));
}

void arena_free(arena *a) {
  if (!a) return;
  arena_block *b = a->head;
  while (b) {
    arena_block *next = b->next;
    free(b);
    b = next;
  }
  free(a);
}

static arena_block *new_block(size_t size) {
  arena_block *b = malloc(sizeof(arena_block) + size);
  if (!b) return NULL;
  b->next = NULL;
  b->size = size;
  b->used = 0;
  return b;
}

void *arena_alloc(arena *a, size_t n) {
  if (injected_failure()) return NULL;
  if (n == 0) n = 1;
  if (n > SIZE_MAX - ARENA_ALIGN) return NULL;
  n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  arena_block *b = a->head;
  if (!b || b->size - b->used < n) {
    if (n > ARENA_BLOCK / 4) {
      /* A big request gets a block of its own behind the head, so the head's
       * free space stays usable for small requests. */
      /* calloc: large zeroed blocks come straight from fresh pages */
      arena_block *big = calloc(1, sizeof(arena_block) + n);
      if (!big) return NULL;
      big->size = n;
      big->used = n;
      if (b) {
        big->next = b->next;
        b->next = big;
      } else {
        a->head = big;
      }
      a->total += n;
      return big->data;
    }
    b = new_block(ARENA_BLOCK);
    if (!b) return NULL;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  a->total += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  if (n == (size_t)-1) n = strlen(s);
  char *p = arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, (size_t)-1); }

size_t arena_used(const arena *a) { return a->total; }
