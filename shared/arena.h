/* arena: the one allocator for compiler IR.
 *
 * Everything an IR graph owns (values, nodes, names, attribute lists, constant
 * data) is carved out of one arena and freed at once with arena_free().  The
 * arena never frees single objects: passes that drop a node just unlink it.
 *
 * Tests exercise out-of-memory paths with arena_fail_after(): after N more
 * successful allocations (process-wide), every allocation returns NULL, and
 * callers must turn that into an error value, never a crash. */
#ifndef TESSEL_ARENA_H
#define TESSEL_ARENA_H

#include <stddef.h>

typedef struct arena arena;

/* A new empty arena, or NULL when the host is out of memory. */
arena *arena_new(void);
/* Frees every block the arena handed out, then the arena.  NULL is fine. */
void arena_free(arena *a);
/* n zeroed bytes aligned to 16, owned by the arena; NULL on failure. */
void *arena_alloc(arena *a, size_t n);
/* A copy of the NUL-terminated string s (n bytes of s when n != (size_t)-1). */
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
/* Total bytes handed out by a (for reports and tests). */
size_t arena_used(const arena *a);

/* Failure injection: after n more successful allocations, every one fails.
 * n < 0 turns injection off (the default). */
void arena_fail_after(long n);

#endif
