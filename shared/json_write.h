/* json_write: a JSON string literal, written the one way every JSON the
 * toolchain writes needs: the profile of `tessel run --profile`
 * (sim/npu-model/npu_profile.c), the profiler's reports and traces
 * (compiler/profile/) and the tuning log (compiler/tune/tune_log.c).
 *
 * Quotes and backslashes are escaped, bytes below 0x20 become \u00XX; other
 * bytes pass through (names are UTF-8, which JSON takes as it is). The reader
 * (shared/json.c) decodes exactly this. */
#ifndef TESSEL_JSON_WRITE_H
#define TESSEL_JSON_WRITE_H

#include <stdio.h>

/* Writes s (NULL: the empty string) to f as a quoted JSON string. */
void json_write_str(FILE *f, const char *s);

#endif
