/* tsl_gen.c: the generator's command line. Reads targets/isa.def (and target
 * .cfg files) and writes the C headers, SystemVerilog packages and doc
 * tables derived from them, so nothing is written twice.
 *
 *   tsl-gen isa     ISA.def OUTDIR            tessel_isa.h, tessel_isa_tables.c, tessel_isa_pkg.sv
 *   tsl-gen target  ISA.def CFG OUTDIR        tessel_target.h, tessel_target_pkg.sv
 *   tsl-gen targets ISA.def OUTDIR CFG...     tessel_targets.h, tessel_targets.c
 *   tsl-gen doc     ISA.def IN.md OUT.md CFG...
 *       copies IN.md to OUT.md, replacing the body of every
 *       "<!-- BEGIN GENERATED name -->" ... "<!-- END GENERATED name -->" block.
 *   tsl-gen memmap      MEMMAP.def OUTDIR     tessel_memmap.h, tessel_memmap_pkg.sv, tessel_memmap.ld
 *   tsl-gen memmap-doc  MEMMAP.def IN.md OUT.md   as doc, for the memmap-* blocks */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "host_file.h"

enum { MAX_TARGETS = 16 };

static Isa isa; /* large: static, not on the stack */
static Target targets[MAX_TARGETS];
static Memmap memmap;

static int usage(void) {
  fprintf(stderr, "usage: tsl-gen isa ISA.def OUTDIR\n"
                  "       tsl-gen target ISA.def CFG OUTDIR\n"
                  "       tsl-gen targets ISA.def OUTDIR CFG...\n"
                  "       tsl-gen doc ISA.def IN.md OUT.md [CFG...]\n"
                  "       tsl-gen memmap MEMMAP.def OUTDIR\n"
                  "       tsl-gen memmap-doc MEMMAP.def IN.md OUT.md\n");
  return 2;
}

typedef void (*Writer)(FILE *o, const void *arg);

/* Outputs are written to PATH.tmp and renamed over PATH only when they
 * differ: a rebuilt tsl-gen that generates the same text leaves the headers'
 * times alone, so make does not rebuild everything that includes them. */
static FILE *open_path(const char *path) {
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *o = fopen(tmp, "w+");
  if (!o) fprintf(stderr, "tsl-gen: %s: cannot write\n", path);
  return o;
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t n) {
  snprintf(path, n, "%s/%s", dir, name);
  return open_path(path);
}

/* True when the file at path holds exactly what o (open for reading) holds. */
static int same_as(FILE *o, const char *path) {
  const char *why; /* anything but a regular file (a FIFO blocked fopen) is replaced */
  FILE *f = host_file_open_in(path, &why);
  if (!f) return 0;
  rewind(o);
  int a, b;
  do {
    a = getc(o);
    b = getc(f);
  } while (a == b && a != EOF);
  int same = a == b && !ferror(o) && !ferror(f);
  fclose(f);
  return same;
}

static int close_out(FILE *o, const char *path) {
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int bad = fflush(o) != 0 || ferror(o);
  int same = !bad && same_as(o, path);
  if (fclose(o) != 0) bad = 1;
  if (bad || (same ? remove(tmp) : rename(tmp, path)) != 0) {
    fprintf(stderr, "tsl-gen: %s: write error\n", path);
    remove(tmp);
    return 1;
  }
  return 0;
}

static int load_targets(char **paths, int n) {
  char err[512];
  if (n > MAX_TARGETS) {
    fprintf(stderr, "tsl-gen: at most %d targets\n", MAX_TARGETS);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (cfg_parse(paths[i], &isa, &targets[i], err, sizeof err)) {
      fprintf(stderr, "tsl-gen: %s\n", err);
      return -1;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(targets[j].name, targets[i].name) == 0) {
        fprintf(stderr, "tsl-gen: %s: target name '%s' used twice\n", paths[i], targets[i].name);
        return -1;
      }
  }
  return 0;
}

static int cmd_isa(const char *dir) {
  char path[1024];
  int rc = 0;
  FILE *o;
  if (!(o = open_out(dir, "tessel_isa.h", path, sizeof path))) return 1;
  emit_isa_h(o, &isa);
  rc |= close_out(o, path);
  if (!(o = open_out(dir, "tessel_isa_tables.c", path, sizeof path))) return 1;
  emit_isa_tables_c(o, &isa);
  rc |= close_out(o, path);
  if (!(o = open_out(dir, "tessel_isa_pkg.sv", path, sizeof path))) return 1;
  emit_isa_pkg(o, &isa);
  rc |= close_out(o, path);
  return rc;
}

static int cmd_target(const char *dir) {
  char path[1024];
  int rc = 0;
  FILE *o;
  if (!(o = open_out(dir, "tessel_target.h", path, sizeof path))) return 1;
  emit_target_h(o, &isa, &targets[0]);
  rc |= close_out(o, path);
  if (!(o = open_out(dir, "tessel_target_pkg.sv", path, sizeof path))) return 1;
  emit_target_pkg(o, &isa, &targets[0]);
  rc |= close_out(o, path);
  return rc;
}

static int cmd_targets(const char *dir, int n) {
  char path[1024];
  int rc = 0;
  FILE *o;
  if (!(o = open_out(dir, "tessel_targets.h", path, sizeof path))) return 1;
  emit_targets_h(o, &isa);
  rc |= close_out(o, path);
  if (!(o = open_out(dir, "tessel_targets.c", path, sizeof path))) return 1;
  emit_targets_c(o, &isa, targets, n);
  rc |= close_out(o, path);
  return rc;
}

/* Writes the generated block NAME; returns 0, or -1 if NAME is unknown. */
typedef int (*BlockWriter)(FILE *o, const char *name, int n);

static int isa_block(FILE *o, const char *name, int n) {
  return emit_md_block(o, name, &isa, targets, n);
}

static int memmap_block(FILE *o, const char *name, int n) {
  (void)n;
  return emit_memmap_md_block(o, name, &memmap);
}

/* Copies in to out, regenerating every marked block with write_block (note: the
 * line that says where the block comes from). */
static int cmd_doc(const char *in, const char *out, BlockWriter write_block, const char *note, int n) {
  const char *why;
  FILE *i = host_file_open_in(in, &why); /* a FIFO blocked fopen */
  if (!i) {
    fprintf(stderr, "tsl-gen: %s: cannot open: %s\n", in, why);
    return 1;
  }
  FILE *o = open_path(out);
  if (!o) {
    fclose(i);
    return 1;
  }
  static const char begin[] = "<!-- BEGIN GENERATED ", end[] = "<!-- END GENERATED ";
  char line[4096], block[64] = "";
  int lineno = 0, rc = 0, inside = 0, begin_line = 0;
  while (rc == 0 && fgets(line, sizeof line, i)) {
    lineno++;
    if (!inside && strncmp(line, begin, sizeof begin - 1) == 0) {
      if (sscanf(line + sizeof begin - 1, "%63s", block) != 1) {
        fprintf(stderr, "tsl-gen: %s:%d: block name missing\n", in, lineno);
        rc = 1;
        break;
      }
      fputs(line, o);
      fputs(note, o);
      if (write_block(o, block, n)) {
        fprintf(stderr, "tsl-gen: %s:%d: unknown block '%s'\n", in, lineno, block);
        rc = 1;
      }
      inside = 1;
      begin_line = lineno;
    } else if (inside && strncmp(line, end, sizeof end - 1) == 0) {
      fputs(line, o);
      inside = 0;
    } else if (!inside) {
      fputs(line, o);
    }
  }
  if (rc == 0 && inside) {
    fprintf(stderr, "tsl-gen: %s:%d: block '%s' not closed\n", in, begin_line, block);
    rc = 1;
  }
  if (rc == 0 && ferror(i)) {  /* IN.md a directory: not an empty document */
    fprintf(stderr, "tsl-gen: %s: read error (not a readable file?)\n", in);
    rc = 1;
  }
  fclose(i);
  if (rc) {  /* a failed run leaves OUT.md as it was */
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    fclose(o);
    remove(tmp);
    return rc;
  }
  return close_out(o, out);
}

static int cmd_memmap(const char *dir) {
  char path[1024];
  int rc = 0;
  FILE *o;
  if (!(o = open_out(dir, "tessel_memmap.h", path, sizeof path))) return 1;
  emit_memmap_h(o, &memmap);
  rc |= close_out(o, path);
  if (!(o = open_out(dir, "tessel_memmap_pkg.sv", path, sizeof path))) return 1;
  emit_memmap_pkg(o, &memmap);
  rc |= close_out(o, path);
  if (!(o = open_out(dir, "tessel_memmap.ld", path, sizeof path))) return 1;
  emit_memmap_ld(o, &memmap);
  rc |= close_out(o, path);
  return rc;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("tsl-gen %s\n", TESSEL_VERSION);
    return 0;
  }
  if (argc < 4) return usage();
  char err[512];
  if (strncmp(argv[1], "memmap", 6) == 0) {
    int doc = strcmp(argv[1], "memmap-doc") == 0;
    if (!(doc ? argc == 5 : strcmp(argv[1], "memmap") == 0 && argc == 4)) return usage();
    if (memmap_parse(argv[2], &memmap, err, sizeof err)) {
      fprintf(stderr, "tsl-gen: %s\n", err);
      return 1;
    }
    if (!doc) return cmd_memmap(argv[3]);
    return cmd_doc(argv[3], argv[4], memmap_block,
                   "<!-- generated by tsl-gen from targets/memmap.def: edit that -->\n", 0);
  }
  if (isa_parse(argv[2], &isa, err, sizeof err)) {
    fprintf(stderr, "tsl-gen: %s\n", err);
    return 1;
  }
  const char *mode = argv[1];
  if (strcmp(mode, "isa") == 0 && argc == 4) return cmd_isa(argv[3]);
  if (strcmp(mode, "target") == 0 && argc == 5) {
    if (load_targets(&argv[3], 1)) return 1;
    return cmd_target(argv[4]);
  }
  if (strcmp(mode, "targets") == 0 && argc >= 5) {
    if (load_targets(&argv[4], argc - 4)) return 1;
    return cmd_targets(argv[3], argc - 4);
  }
  if (strcmp(mode, "doc") == 0 && argc >= 5) {
    if (load_targets(&argv[5], argc - 5)) return 1;
    return cmd_doc(argv[3], argv[4], isa_block,
                   "<!-- generated by tsl-gen from targets/isa.def and targets/*.cfg: edit those -->\n", argc - 5);
  }
  return usage();
}
