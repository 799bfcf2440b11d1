/* check.h: a tiny checker for firmware tests: CHECK prints the failing
 * condition with its line, counts failures, and check_done() prints the
 * tally and returns main's status. */
#ifndef TESSEL_FW_TEST_CHECK_H
#define TESSEL_FW_TEST_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);    \
      check_failures++;                                                  \
    }                                                                    \
  } while (0)

static inline int check_done(const char *name) {
  printf("%s: %s\n", name, check_failures ? "FAILED" : "ok");
  return check_failures ? 1 : 0;
}

#endif
