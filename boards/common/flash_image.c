/* flash_image.c: tessel-flash-image, which wraps a raw file (a firmware
 * binary or a model package) in the 16-byte header board_flash_boot reads
 * from SPI flash (docs/boards.md "Flash layout"):
 *
 *   +0 magic "TSLB"  +4 dest (byte offset in the board's RAM)
 *   +8 len           +12 sum (32-bit sum of the payload bytes)
 *
 *   tessel-flash-image --dest OFF --mem-size BYTES IN OUT
 *
 * The board's loader refuses an image that would not fit (dest + len past
 * the RAM, dest not a multiple of 8), so this tool refuses it first, with a
 * message naming the problem, rather than let a board boot to a red LED. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host_file.h"

#define IMAGE_MAGIC 0x424C5354u /* "TSLB" little-endian */

static void usage(FILE *f) {
  fprintf(f, "usage: tessel-flash-image --dest OFF --mem-size BYTES IN OUT\n"
             "Writes IN behind a boot header (magic, dest, length, byte sum) to OUT.\n"
             "  --dest OFF        byte offset of the payload in the board's RAM (multiple of 8)\n"
             "  --mem-size BYTES  size of the board's RAM (the payload must fit)\n");
}

/* Parses a decimal or 0x-hex number into *out; 0 on success. */
static int parse_u32(const char *s, uint32_t *out) {
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v > 0xFFFFFFFFull) return -1;
  *out = (uint32_t)v;
  return 0;
}

static void put_le32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}


int main(int argc, char **argv) {
  uint32_t dest = 0, mem_size = 0;
  int have_dest = 0, have_mem = 0;
  const char *paths[2] = {NULL, NULL};
  int npaths = 0;

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--dest") == 0 || strcmp(argv[i], "--mem-size") == 0) {
      int is_dest = argv[i][2] == 'd';
      if (i + 1 >= argc) {
        fprintf(stderr, "tessel-flash-image: %s needs a value\n", argv[i]);
        return 2;
      }
      uint32_t v;
      if (parse_u32(argv[i + 1], &v) != 0) {
        fprintf(stderr, "tessel-flash-image: %s: '%s' is not a 32-bit number\n", argv[i], argv[i + 1]);
        return 2;
      }
      if (is_dest) {
        dest = v;
        have_dest = 1;
      } else {
        mem_size = v;
        have_mem = 1;
      }
      i++;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "tessel-flash-image: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else if (npaths < 2) {
      paths[npaths++] = argv[i];
    } else {
      fprintf(stderr, "tessel-flash-image: too many files ('%s')\n", argv[i]);
      return 2;
    }
  }
  if (!have_dest || !have_mem || npaths != 2) {
    fprintf(stderr, "tessel-flash-image: %s\n",
            !have_dest ? "--dest is required" : !have_mem ? "--mem-size is required" : "need IN and OUT");
    usage(stderr);
    return 2;
  }
  if (dest % 8 != 0) {
    fprintf(stderr, "tessel-flash-image: --dest 0x%" PRIx32 " is not a multiple of 8\n", dest);
    return 2;
  }

  /* OUT naming IN (the same file, by any path) would destroy the input. */
  struct stat in_st, out_st;
  if (stat(paths[0], &in_st) == 0 && stat(paths[1], &out_st) == 0 && in_st.st_dev == out_st.st_dev &&
      in_st.st_ino == out_st.st_ino) {
    fprintf(stderr, "tessel-flash-image: %s: OUT is the input file\n", paths[1]);
    return 2;
  }
  size_t len = 0, room = dest < mem_size ? (size_t)(mem_size - dest) : 0;
  const char *why;
  unsigned char *payload = host_file_read_all(paths[0], room, &len, &why);
  if (!payload && why == host_file_too_big) {
    fprintf(stderr,
            "tessel-flash-image: %s: %zu bytes at offset 0x%" PRIx32 " do not fit the board's %" PRIu32
            "-byte RAM\n",
            paths[0], len, dest, mem_size);
    return 1;
  }
  if (!payload) {
    fprintf(stderr, "tessel-flash-image: %s: %s\n", paths[0], why);
    return 1;
  }
  if (len == 0) {
    /* An empty payload would boot nothing (image 0) or an empty package. */
    fprintf(stderr, "tessel-flash-image: %s: empty file: nothing to write\n", paths[0]);
    free(payload);
    return 1;
  }

  uint32_t sum = 0;
  for (size_t i = 0; i < len; i++) sum += payload[i];
  unsigned char hdr[16];
  put_le32(hdr + 0, IMAGE_MAGIC);
  put_le32(hdr + 4, dest);
  put_le32(hdr + 8, (uint32_t)len);
  put_le32(hdr + 12, sum);

  FILE *out = host_file_open_out(paths[1], "wb", &why); /* a FIFO with no reader blocked fopen */
  if (!out) {
    fprintf(stderr, "tessel-flash-image: %s: %s\n", paths[1], why);
    free(payload);
    return 1;
  }
  int ok = fwrite(hdr, 1, sizeof hdr, out) == sizeof hdr && fwrite(payload, 1, len, out) == len;
  ok = (fclose(out) == 0) && ok;
  free(payload);
  if (!ok) {
    fprintf(stderr, "tessel-flash-image: %s: write error\n", paths[1]);
    return 1;
  }
  return 0;
}
