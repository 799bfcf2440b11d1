/* diag: error values for bad user input.
 *
 * Library code never prints or exits on bad input: it fills a diag with one
 * located, plain-language line ("model.onnx: node 'conv3' (Conv): group=3 does
 * not divide 32 input channels") and returns -1 up to the CLI, which prints it.
 * Internal bugs are not diagnostics: they use TSL_ASSERT, which aborts with
 * file and line. */
#ifndef TESSEL_DIAG_H
#define TESSEL_DIAG_H

#include <stdio.h>
#include <stdlib.h>

typedef struct diag {
  char msg[1024]; /* the message, "" when no error */
} diag;

/* Sets d->msg from a printf format and returns -1, so callers can write
 * `return diag_set(d, "...")`.  A NULL d is allowed (message dropped).
 * The first error wins: a second diag_set on a filled diag keeps the first. */
int diag_set(diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefixes the existing message with "prefix: " (e.g. the file name). */
void diag_prefix(diag *d, const char *prefix);
/* Out-of-memory in the arena: one wording everywhere. */
int diag_oom(diag *d);

/* Internal invariant: aborts with file/line when false.  Never for input. */
#define TSL_ASSERT(cond)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: internal error: assertion '%s' failed\n",         \
              __FILE__, __LINE__, #cond);                                       \
      abort();                                                                  \
    }                                                                           \
  } while (0)
#define TSL_UNREACHABLE() TSL_ASSERT(!"unreachable")

#endif
