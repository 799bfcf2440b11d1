/* tessel_npu_model.c: command-line front end of the NPU C model.
 *
 *   tessel-npu-model asm IN.s OUT.bin       assemble text commands (the disassembler's syntax)
 *   tessel-npu-model disasm IN.bin          print a binary stream, one command per line
 *   tessel-npu-model run --stream S.bin [--target npu8] [--dram D.bin] [--dram-size N]
 *                        [--out O.bin] [--max-dispatch N] [--max-cycles N] [--timing-only]
 *                        [--profile P.json [--timeline]]
 *       run the stream on the model; print the outcome, the counters and the
 *       MARK snapshots; write the DRAM window to O.bin (--timing-only: checks,
 *       counters and cycle estimates without computing data; --profile: the
 *       JSON of docs/profile-format.md, one kernel per pair of MARKs;
 *       --timeline adds every command's busy cycles per unit to it; a run that
 *       dispatches more than --max-dispatch commands or passes --max-cycles
 *       simulated cycles ends with "error LIMIT", see npu_model.h for the defaults)
 *
 * Text syntax: "NAME field=value ..." (unnamed fields are 0), ".word W0 W1 W2 W3"
 * for raw words; ';' or '#' start a comment. Values are decimal or 0x hex.
 * Exit status: 0 success, 1 the stream ended with an NPU error, 2 bad usage
 * or bad input (each with a message naming the file, line or option). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host_file.h"
#include "npu_model.h"
#include "npu_profile.h"

static int usage(void) {
  fprintf(stderr, "usage: tessel-npu-model asm IN.s OUT.bin\n"
                  "       tessel-npu-model disasm IN.bin\n"
                  "       tessel-npu-model run --stream S.bin [--target NAME] [--dram D.bin] [--dram-size N]\n"
                  "                            [--out O.bin] [--max-dispatch N] [--max-cycles N] [--timing-only]\n"
                  "                            [--profile P.json [--timeline]]\n");
  return 2;
}

/* Reads a whole file (at most max bytes). Returns NULL with a message.
 * Only a regular file is read (host_file.h): a FIFO blocked open(). */
static uint8_t *read_file(const char *path, size_t max, size_t *len) {
  const char *why;
  FILE *f = host_file_open_in(path, &why);
  if (!f) {
    fprintf(stderr, "tessel-npu-model: %s: %s\n", path, why);
    return NULL;
  }
  uint8_t *buf = malloc(max + 1);
  size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
  int err = ferror(f);
  fclose(f);
  if (!buf || err) {
    fprintf(stderr, "tessel-npu-model: %s: read error\n", path);
    free(buf);
    return NULL;
  }
  if (n > max) {
    fprintf(stderr, "tessel-npu-model: %s: larger than %zu bytes\n", path, max);
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

static int write_file(const char *path, const uint8_t *p, size_t n) {
  const char *why;
  FILE *f = host_file_open_out(path, "wb", &why);
  if (!f) {
    fprintf(stderr, "tessel-npu-model: %s: cannot write: %s\n", path, why);
    return 2;
  }
  if (fwrite(p, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "tessel-npu-model: %s: cannot write\n", path);
    return 2;
  }
  return 0;
}

static int parse_i64(const char *s, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 0);
  if (!*s || *end || errno) return -1;
  *v = x;
  return 0;
}

/* Longest source line asm takes (a command with every field is ~300). */
#define ASM_MAX_LINE 4096

/* Reads one line (newline kept) into line[ASM_MAX_LINE + 1]. Returns its
 * length, -1 at the end of the file, or ASM_MAX_LINE + 1 for a line that
 * does not fit (the rest of it is not read: the caller stops there). Not
 * fgets, which splits a long line and hides what follows a NUL byte; not
 * getline, which would hold all of /dev/zero. */
static long read_line(FILE *f, char *line) {
  long n = 0;
  int c;
  while (n <= ASM_MAX_LINE && (c = getc(f)) != EOF) {
    line[n++] = (char)c;
    if (c == '\n') break;
  }
  if (n == 0) return -1;
  line[n <= ASM_MAX_LINE ? n : ASM_MAX_LINE] = '\0';
  return n;
}

/* Assembles one line into w; returns 0, 1 for an empty line, -1 with msg. */
static int asm_line(char *line, uint32_t w[4], char *msg, size_t n) {
  char *c = strpbrk(line, ";#");
  if (c) *c = 0;
  char *tok = strtok(line, " \t\r\n");
  if (!tok) return 1;
  memset(w, 0, 16);
  if (strcmp(tok, ".word") == 0) {
    for (int i = 0; i < 4; i++) {
      char *x = strtok(NULL, " \t\r\n");
      int64_t v;
      if (!x || parse_i64(x, &v) || v < 0 || v > 0xFFFFFFFFLL) {
        snprintf(msg, n, ".word needs four 32-bit values");
        return -1;
      }
      w[i] = (uint32_t)v;
    }
    return strtok(NULL, " \t\r\n") ? (snprintf(msg, n, "extra text after .word"), -1) : 0;
  }
  const tsl_cmd_desc_t *d = NULL;
  for (int i = 0; i < TSL_NCMDS; i++)
    if (strcasecmp(tsl_cmd_descs[i].name, tok) == 0) d = &tsl_cmd_descs[i];
  if (!d) {
    snprintf(msg, n, "unknown command '%s'", tok);
    return -1;
  }
  w[0] = d->opcode;
  /* Fields ORed into w would merge a repeated field's values: refuse it. */
  unsigned char given[64] = {0};
  while ((tok = strtok(NULL, " \t\r\n"))) {
    char *eq = strchr(tok, '=');
    if (!eq) {
      snprintf(msg, n, "'%s' is not field=value", tok);
      return -1;
    }
    *eq = 0;
    const tsl_field_desc_t *f = NULL;
    for (int i = 0; i < d->nfields; i++)
      if (strcmp(d->fields[i].name, tok) == 0) f = &d->fields[i];
    int64_t v;
    if (!f) {
      snprintf(msg, n, "%s has no field '%s'", d->name, tok);
      return -1;
    }
    size_t fi = (size_t)(f - d->fields);
    if (fi < sizeof given && given[fi]++) {
      snprintf(msg, n, "field %s given twice", tok);
      return -1;
    }
    if (parse_i64(eq + 1, &v)) {
      snprintf(msg, n, "field %s: '%s' is not a number", tok, eq + 1);
      return -1;
    }
    if (f->type == 's' ? !tsl_fits_s(v, f->width) : !tsl_fits_u(v, f->width)) {
      snprintf(msg, n, "field %s = %lld does not fit %d %s bits", tok, (long long)v, f->width,
               f->type == 's' ? "signed" : "unsigned");
      return -1;
    }
    tsl_bits_put(w, f->lsb, f->width, (uint32_t)v);
  }
  return 0;
}

static int cmd_asm(const char *in, const char *out) {
  const char *why;
  FILE *f = host_file_open_in(in, &why);
  if (!f) {
    fprintf(stderr, "tessel-npu-model: %s: %s\n", in, why);
    return 2;
  }
  size_t cap = 1024, n = 0;
  uint8_t *buf = malloc(cap * 16);
  static char line[ASM_MAX_LINE + 1];
  char msg[200];
  long len;
  int lineno = 0, rc = 0;
  while (buf && (len = read_line(f, line)) >= 0) {
    lineno++;
    uint32_t w[4];
    int r;
    if (len > ASM_MAX_LINE) {
      snprintf(msg, sizeof msg, "line longer than %d characters", ASM_MAX_LINE);
      r = -1;
    } else if (strlen(line) != (size_t)len) {
      snprintf(msg, sizeof msg, "NUL byte in the line (not a text file?)");
      r = -1;
    } else {
      r = asm_line(line, w, msg, sizeof msg);
    }
    if (r < 0) {
      fprintf(stderr, "tessel-npu-model: %s:%d: %s\n", in, lineno, msg);
      rc = 2;
      break;
    }
    if (r > 0) continue;
    if (n == 65536) {
      fprintf(stderr, "tessel-npu-model: %s: more than 65536 commands\n", in);
      rc = 2;
      break;
    }
    if (n == cap) {
      uint8_t *p = realloc(buf, (cap *= 2) * 16);
      if (!p) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = p;
    }
    tsl_cmd_to_bytes(w, buf + 16 * n++);
  }
  /* read_line also ends on a read error (IN.s a directory): not an empty stream. */
  if (rc == 0 && buf && ferror(f)) {
    fprintf(stderr, "tessel-npu-model: %s: read error (not a readable file?)\n", in);
    rc = 2;
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "tessel-npu-model: out of memory\n");
    return 2;
  }
  if (rc == 0) rc = write_file(out, buf, 16 * n);
  free(buf);
  return rc;
}

static int cmd_disasm(const char *in) {
  size_t len;
  uint8_t *b = read_file(in, 16u << 16, &len);
  if (!b) return 2;
  if (len % 16) {
    fprintf(stderr, "tessel-npu-model: %s: %zu bytes is not a whole number of 16-byte commands\n", in, len);
    free(b);
    return 2;
  }
  for (size_t i = 0; i < len / 16; i++) {
    uint32_t w[4];
    char text[512];
    tsl_cmd_from_bytes(b + 16 * i, w);
    tsl_disasm(w, text, sizeof text);
    printf("%-5zu %s\n", i, text);
  }
  free(b);
  return 0;
}

static int cmd_run(int argc, char **argv) {
  const char *stream = NULL, *dram_in = NULL, *out = NULL, *profile = NULL, *target = TSL_DEFAULT_TARGET;
  int64_t dram_size = -1, max_dispatch = 0, max_cycles = 0;
  int timing_only = 0, timeline = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--timing-only") == 0) {
      timing_only = 1;
      continue;
    }
    if (strcmp(a, "--timeline") == 0) {
      timeline = 1;
      continue;
    }
    if (!v) {
      fprintf(stderr, "tessel-npu-model: %s needs a value\n", a);
      return 2;
    }
    if (strcmp(a, "--stream") == 0) stream = v;
    else if (strcmp(a, "--dram") == 0) dram_in = v;
    else if (strcmp(a, "--out") == 0) out = v;
    else if (strcmp(a, "--profile") == 0) profile = v;
    else if (strcmp(a, "--target") == 0) target = v;
    else if (strcmp(a, "--dram-size") == 0) {
      if (parse_i64(v, &dram_size) || dram_size < 0 || dram_size > (1LL << 32)) {
        fprintf(stderr, "tessel-npu-model: --dram-size '%s' is not a size up to 4 GiB\n", v);
        return 2;
      }
    } else if (strcmp(a, "--max-dispatch") == 0) {
      if (parse_i64(v, &max_dispatch) || max_dispatch < 1) {
        fprintf(stderr, "tessel-npu-model: --max-dispatch '%s' is not a positive number\n", v);
        return 2;
      }
    } else if (strcmp(a, "--max-cycles") == 0) {
      if (parse_i64(v, &max_cycles) || max_cycles < 1) {
        fprintf(stderr, "tessel-npu-model: --max-cycles '%s' is not a positive number\n", v);
        return 2;
      }
    } else {
      fprintf(stderr, "tessel-npu-model: unknown option '%s'\n", a);
      return 2;
    }
    i++;
  }
  if (!stream) {
    fprintf(stderr, "tessel-npu-model: run needs --stream\n");
    return 2;
  }
  if (timeline && !profile) {
    fprintf(stderr, "tessel-npu-model: --timeline needs --profile P.json\n");
    return 2;
  }
  const tsl_target_t *t = tsl_target_find(target);
  if (!t) {
    fprintf(stderr, "tessel-npu-model: unknown target '%s' (known:", target);
    for (int i = 0; i < tsl_ntargets; i++) fprintf(stderr, " %s", tsl_targets[i].name);
    fprintf(stderr, ")\n");
    return 2;
  }
  size_t slen, dlen = 0;
  uint8_t *s = read_file(stream, 16u << 16, &slen), *d = NULL;
  if (!s) return 2;
  if (slen % 16) {
    fprintf(stderr, "tessel-npu-model: %s: %zu bytes is not a whole number of 16-byte commands\n", stream, slen);
    free(s);
    return 2;
  }
  if (dram_in && !(d = read_file(dram_in, (size_t)1 << 30, &dlen))) {
    free(s);
    return 2;
  }
  if (dram_size < 0) dram_size = (int64_t)dlen;
  if ((size_t)dram_size < dlen) {
    fprintf(stderr, "tessel-npu-model: %s (%zu bytes) is larger than --dram-size %lld\n", dram_in, dlen,
            (long long)dram_size);
    free(s);
    free(d);
    return 2;
  }
  uint8_t *win = calloc((size_t)dram_size + 1, 1);
  npu_model_t *m = npu_model_new(t);
  if (!win || !m) {
    fprintf(stderr, "tessel-npu-model: out of memory\n");
    free(s);
    free(d);
    free(win);
    npu_model_free(m);
    return 2;
  }
  if (dlen) memcpy(win, d, dlen);
  npu_model_set_timeline(m, timeline);
  npu_run_t run = {s, (uint32_t)(slen / 16), win, (uint64_t)dram_size, (uint64_t)max_dispatch, timing_only,
                   (uint64_t)max_cycles};
  npu_result_t r;
  int code = npu_model_run(m, &run, &r);
  if (code) printf("error %s\n", r.message);
  if (code == NPU_MODEL_ERR_LIMIT) /* the model's budget, not an NPU error: say how to raise it */
    fprintf(stderr, "tessel-npu-model: %s: stopped by the model's work budget; %s N raises it (defaults %llu commands, "
                    "%llu cycles)\n", stream, strstr(r.message, "cycle limit") ? "--max-cycles" : "--max-dispatch",
            (unsigned long long)NPU_MODEL_DEFAULT_MAX_DISPATCH, (unsigned long long)NPU_MODEL_DEFAULT_MAX_CYCLES);
  else printf("ok %s: %u commands, %llu dispatched\n", t->name, (unsigned)run.stream_len,
              (unsigned long long)r.dispatched);
  const uint64_t *c = npu_model_counters(m);
  for (int i = 0; i < TSL_NCOUNTERS; i++) printf("counter %s %llu\n", tsl_counter_name(i), (unsigned long long)c[i]);
  for (size_t i = 0; i < npu_model_nsnapshots(m); i++) {
    const npu_snapshot_t *sn = npu_model_snapshot(m, i);
    printf("mark %llu kernel %llu cycles %llu macs %llu\n", (unsigned long long)sn->seq,
           (unsigned long long)sn->kernel, (unsigned long long)sn->counters[TSL_CNT_CYCLES],
           (unsigned long long)sn->counters[TSL_CNT_MACS]);
  }
  int rc = code ? 1 : 0;
  if (out && write_file(out, win, (size_t)dram_size)) rc = 2;
  if (profile) {
    npu_profile_t p = {t, "model", stream, c, npu_model_snapshot(m, 0), npu_model_nsnapshots(m), NULL, 0, NULL, 0, NULL, 0};
    const char *why = "write failed";
    FILE *f = host_file_open_out(profile, "w", &why);
    size_t ncmds = npu_model_ntimeline(m, NULL);
    if (!f || npu_profile_write_json_timeline(f, &p, npu_model_timeline(m), ncmds) != 0 || fclose(f) != 0) {
      fprintf(stderr, "tessel-npu-model: %s: cannot write: %s\n", profile, why);
      rc = 2;
    }
  }
  npu_model_free(m);
  free(s);
  free(d);
  free(win);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  if (strcmp(argv[1], "--version") == 0) {
    printf("tessel-npu-model %s (ISA version %d)\n", TESSEL_VERSION, TSL_ISA_VERSION);
    return 0;
  }
  if (strcmp(argv[1], "asm") == 0) return argc == 4 ? cmd_asm(argv[2], argv[3]) : usage();
  if (strcmp(argv[1], "disasm") == 0) return argc == 3 ? cmd_disasm(argv[2]) : usage();
  if (strcmp(argv[1], "run") == 0) return cmd_run(argc - 2, argv + 2);
  return usage();
}
