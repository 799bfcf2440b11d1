/* fw_crc_check: the host side of the checksum tests that run a firmware on
 * tessel-iss: its output line that starts with `prefix` must equal the
 * host's `want` (cmocka; tests only). */
#ifndef TESSEL_FW_CRC_CHECK_H
#define TESSEL_FW_CRC_CHECK_H

#include <stdio.h>
#include <string.h>

static void fw_crc_check(const char *iss, const char *elf, const char *max_insns, const char *prefix,
                         const char *want) {
  char got[256] = "", cmd[1024], line[256];
  snprintf(cmd, sizeof cmd, "'%s' --max-insns %s '%s'", iss, max_insns, elf);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  while (fgets(line, sizeof line, p))
    if (!strncmp(line, prefix, strlen(prefix))) memcpy(got, line, sizeof got);
  int st = pclose(p);
  printf("host:     %sfirmware: %s", want, got[0] ? got : "(no line)\n");
  assert_int_equal(st, 0);
  assert_string_equal(got, want);
}

#endif
