/* fuzz_profile.c: libFuzzer entry for the profiler's input path: the strict
 * JSON reader, the profile loader and every report built from a profile
 * that loads (table, CSV, JSON, trace, SVG, compare with itself), written
 * to a null stream. Property: no crash, no sanitizer report, and a rejected
 * input always comes with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "profile.h"
#include "profile_compare.h"
#include "profile_report.h"
#include "profile_svg.h"
#include "profile_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *null;
  if (!null) null = fopen("/dev/null", "w");
  arena *a = arena_new();
  if (!a) return 0;
  profile p;
  diag d = {{0}};
  if (profile_parse(a, "fuzz.json", (const char *)data, size, &p, &d) != 0) {
    if (!d.msg[0]) abort(); /* a rejection must say why */
  } else {
    prof_row *rows;
    size_t n = prof_rows(a, &p, &rows);
    if (n) {
      prof_print_table(null, &p, rows, n);
      prof_print_csv(null, &p, rows, n);
      prof_print_json(null, &p, rows, n);
      prof_print_svg(null, &p, rows, n, &d);
    }
    prof_print_trace(null, &p);
    prof_print_compare(null, PROF_CMP_TABLE, a, &p, &p, &d);
  }
  arena_free(a);
  return 0;
}
