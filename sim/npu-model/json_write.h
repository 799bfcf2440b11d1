/* json_write: a JSON string literal, written the one way every JSON the
 * toolchain writes needs: the profile of `tessel run --profile`
 * (npu_profile.c), the profiler's reports and traces (compiler/profile/)
 * and the tuning log (compiler/tune/tune_log.c).  Each had its own copy.
 *
 * Quotes and backslashes are escaped, bytes below 0x20 become \u00XX; other
 * bytes pass through (names are UTF-8, which JSON takes as it is).  The
 * readers (compiler/profile/json.c) decode exactly this.
 *
 * Header only (static inline), as sim/host_file.h: the C model's library
 * and the compiler both include it without a new object in their builds. */
#ifndef TESSEL_JSON_WRITE_H
#define TESSEL_JSON_WRITE_H

#include <stdio.h>

/* Writes s (NULL: the empty string) to f as a quoted JSON string. */
static inline void json_write_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

#endif
