/* fw_libc.c: picolibc on the firmware base: heap (malloc/free inside the
 * linker script's heap), snprintf, string and conversion functions, qsort,
 * and constructors run by crt0 before main. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

extern char __heap_start[], __heap_end[];

static int ctor_ran;
__attribute__((constructor)) static void set_ctor_flag(void) { ctor_ran = 1; }

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  CHECK(ctor_ran);

  char *p = malloc(1000);
  CHECK(p != NULL);
  CHECK(p >= __heap_start && p + 1000 <= __heap_end);
  memset(p, 0xab, 1000);
  CHECK((unsigned char)p[999] == 0xab);
  char *q = malloc(3000);
  CHECK(q != NULL && (q >= p + 1000 || q + 3000 <= p));
  free(p);
  free(q);
  CHECK(malloc(1u << 30) == NULL); /* far more than the heap */

  char buf[64];
  int n = snprintf(buf, sizeof buf, "%s-%d-%x", "npu", -8, 0x1fu);
  CHECK(n == 9 && strcmp(buf, "npu--8-1f") == 0);
  CHECK(strtol("-1234", NULL, 10) == -1234);
  CHECK(strtoul("ff", NULL, 16) == 255);
  CHECK(atoi("77") == 77);

  int v[] = {5, -3, 9, 0, 2, 2, -7};
  qsort(v, 7, sizeof v[0], cmp_int);
  CHECK(v[0] == -7 && v[1] == -3 && v[6] == 9);
  CHECK(memcmp("abc", "abd", 3) < 0);
  return check_done("fw_libc");
}
