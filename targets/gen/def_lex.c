/* def_lex: see def_lex.h. */
#include "def_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int def_fail(DefCtx *c, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(c->err, (size_t)c->errlen, "%s:%d: %s", c->path, c->line, msg);
  return -1;
}

int def_split(DefCtx *c, char *line, char **w, int max, char *doc, int doclen) {
  doc[0] = 0;
  char *q = strchr(line, '"');
  if (q) {
    char *e = strrchr(line, '"');
    if (e > q) {
      int n = (int)(e - q - 1);
      if (n >= doclen) return def_fail(c, "doc string of %d bytes: at most %d", n, doclen - 1);
      memcpy(doc, q + 1, (size_t)n);
      doc[n] = 0;
    }
    *q = 0;
  }
  int n = 0;
  for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
    if (n < max) w[n] = p;
    n++;
  }
  return n;
}
