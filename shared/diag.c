/* diag: formatting of error values. */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

int diag_set(diag *d, const char *fmt, ...) {
  if (!d || d->msg[0]) return -1; /* keep the first, most specific error */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  va_end(ap);
  return -1;
}

void diag_prefix(diag *d, const char *prefix) {
  if (!d) return;
  char tmp[sizeof d->msg];
  size_t n = strlen(prefix);
  if (n > sizeof tmp / 2) n = sizeof tmp / 2; /* keep room for the message */
  memcpy(tmp, prefix, n);
  tmp[n] = '\0';
  strncat(tmp, ": ", sizeof tmp - strlen(tmp) - 1);
  strncat(tmp, d->msg, sizeof tmp - strlen(tmp) - 1);
  memcpy(d->msg, tmp, sizeof tmp);
}

int diag_oom(diag *d) { return diag_set(d, "out of memory"); }
