/* fw-reject: hands a damaged package to the runner firmware on tessel-sim,
 * past the host's own checks, to test that the firmware rejects it.
 *
 *   fw-reject GOOD.tpkg SIM FIRMWARE [--patch OFFSET:HEX]... [--fix-crc]
 *             [--truncate BYTES] [--check-weights] [--save OUT.tpkg]
 *
 * The package is GOOD.tpkg with the patches applied (HEX bytes written at
 * OFFSET), then, with --fix-crc, its section and header CRCs recomputed (a
 * hostile package that passes the integrity checks), then truncated. The rtl
 * engine plans the DRAM layout from the good package and loads the damaged
 * bytes; the firmware's verdict is printed on stdout ("ok" or the message).
 * With --save the damaged bytes go to OUT.tpkg instead (for the host's tools)
 * and nothing runs. Exit 0 when the run happened (whatever the verdict) or
 * the file was written, 2 on bad arguments, 1 when the write failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "run_engine.h"
#include "tpkg.h"

static int patch(uint8_t *p, uint32_t len, const char *spec) {
  char *end;
  unsigned long off = strtoul(spec, &end, 0);
  if (*end != ':' || strlen(end + 1) % 2) return -1;
  for (const char *h = end + 1; *h; h += 2, off++) {
    unsigned v;
    if (off >= len || sscanf(h, "%2x", &v) != 1) return -1;
    p[off] = (uint8_t)v;
  }
  return 0;
}

/* Section CRCs, then the header CRC (docs/package-format.md section 4). */
static void fix_crc(uint8_t *p, uint32_t len) {
  for (uint32_t i = 0; i < TPKG_NSECT; i++) {
    uint8_t *e = p + TPKG_HEADER_FIXED + TPKG_SECT_ENTRY * i;
    uint32_t off = tpkg_rd32(e + 4), size = tpkg_rd32(e + 8);
    if ((uint64_t)off + size <= len) tpkg_wr32(e + 12, crc32(p + off, size));
  }
  tpkg_wr32(p + TPKG_H_CRC, 0);
  tpkg_wr32(p + TPKG_H_CRC, crc32(p, TPKG_HEADER_BYTES));
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: fw-reject GOOD.tpkg SIM FIRMWARE [--patch OFF:HEX]... [--fix-crc] [--truncate N] "
                    "[--check-weights]\n");
    return 2;
  }
  size_t n = 0;
  uint8_t *good = NULL;
  diag rd = {{0}};
  tpkg_read_file(argv[1], &good, &n, &rd);
  uint32_t len = (uint32_t)n;
  uint8_t *bad = good ? malloc(len + 1) : NULL;
  tpkg_view v;
  if (!bad || tpkg_check(good, len, 0, TPKG_CHECK_ANY_TARGET, &v, NULL) != TPKG_OK) {
    fprintf(stderr, "fw-reject: %s: not a valid package\n", argv[1]);
    return 2;
  }
  memcpy(bad, good, len);
  run_opts o = {.sim = argv[2], .firmware = argv[3]};
  uint32_t bad_len = len;
  int fix = 0;
  const char *save = NULL;
  for (int i = 4; i < argc; i++) {
    if (!strcmp(argv[i], "--patch") && i + 1 < argc) {
      if (patch(bad, len, argv[++i])) return fprintf(stderr, "fw-reject: bad --patch '%s'\n", argv[i]), 2;
    } else if (!strcmp(argv[i], "--fix-crc")) {
      fix = 1;
    } else if (!strcmp(argv[i], "--truncate") && i + 1 < argc) {
      bad_len = (uint32_t)strtoul(argv[++i], NULL, 0);
      if (bad_len > len) return fprintf(stderr, "fw-reject: --truncate beyond the package\n"), 2;
    } else if (!strcmp(argv[i], "--check-weights")) {
      o.check_weights = 1;
    } else if (!strcmp(argv[i], "--save") && i + 1 < argc) {
      save = argv[++i];
    } else {
      return fprintf(stderr, "fw-reject: unknown argument '%s'\n", argv[i]), 2;
    }
  }
  if (fix) fix_crc(bad, len);
  if (save) {
    FILE *f = fopen(save, "wb");
    int bad_write = !f || fwrite(bad, 1, bad_len, f) != bad_len;
    if (f && fclose(f)) bad_write = 1;
    free(good), free(bad);
    if (bad_write) return fprintf(stderr, "fw-reject: %s: write failed\n", save), 1;
    return 0;
  }
  /* The engine reads the inputs' sizes from the view: give it zeros. */
  run_batch b = {.runs = 1};
  uint8_t *in[64] = {0};
  tpkg_io io;
  for (uint32_t k = 0; k < v.n_io; k++) {
    tpkg_view_io(&v, k, &io);
    if (io.dir == TPKG_DIR_INPUT && b.n_in < 64) in[b.n_in++] = calloc(1, io.size + 1);
    else if (io.dir == TPKG_DIR_OUTPUT) b.n_out++;
  }
  b.in = in;
  diag d = {{0}};
  int rc = run_engine_rtl(bad, bad_len, &v, &o, &b, &d);
  printf("%s\n", rc ? d.msg : "ok");
  run_batch_free(&b);
  for (uint32_t i = 0; i < b.n_in; i++) free(in[i]);
  free(good), free(bad);
  return 0;
}
