/* digits_data.c: host tool that turns the digits test set into a C header
 * for the example firmware (digits_app.c), so the firmware carries a few
 * test images, their labels and what the int8 reference says about them.
 *
 *   digits-data TEST.npy LABELS.npy REF.npy COUNT -o OUT.h
 *
 * TEST.npy   float32 [N,1,8,8]  images (tests/models/digits/digits.test.npy)
 * LABELS.npy int64 [N]          true digits
 * REF.npy    float32 [N,10]     the int8 reference's probabilities for the
 *                               same images (`tessel ref ... --calib`)
 * COUNT      how many of the first images to emit (1..N)
 *
 * The header holds the images as float32, the labels, the reference's class
 * (argmax, the first index on ties: the firmware decides the same way) and
 * the reference's probabilities as bit patterns, so the firmware can check
 * its outputs bit for bit. Bad input: a message naming the file and what is
 * wrong, exit 1. Why a C tool and not a script: builds and tests must not
 * need python. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 4
#define MAX_HEADER 4096

typedef struct {
  char descr[8];           /* "<f4", "<i8" */
  int rank;
  long dims[MAX_RANK];
  long count;              /* elements */
  unsigned char *data;     /* malloc'd, count * element size bytes */
} npy_array;

static const char *prog = "digits-data";

static int fail(const char *path, const char *what) {
  fprintf(stderr, "%s: %s: %s\n", prog, path, what);
  return 1;
}

/* Finds 'key': in the header dict and returns what follows the colon. */
static const char *dict_value(const char *hdr, const char *key) {
  const char *p = strstr(hdr, key);
  if (!p) return NULL;
  p += strlen(key);
  while (*p == ' ' || *p == '\'') p++;
  if (*p != ':') return NULL;
  p++;
  while (*p == ' ') p++;
  return p;
}

/* Reads a version 1/2/3 .npy file, C order only. Returns 0 or prints why not. */
static int npy_read(const char *path, npy_array *a) {
  memset(a, 0, sizeof *a);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    return 1;
  }
  unsigned char pre[12];
  int rc = 1;
  char hdr[MAX_HEADER + 1];
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    rc = fail(path, "not a .npy file (no \\x93NUMPY magic)");
    goto out;
  }
  unsigned long hlen;
  if (pre[6] == 1) {
    hlen = pre[8] | (unsigned long)pre[9] << 8;
  } else if (pre[6] == 2 || pre[6] == 3) {
    if (fread(pre + 10, 1, 2, f) != 2) {
      rc = fail(path, "truncated header");
      goto out;
    }
    hlen = pre[8] | (unsigned long)pre[9] << 8 | (unsigned long)pre[10] << 16 | (unsigned long)pre[11] << 24;
  } else {
    rc = fail(path, "unknown .npy format version");
    goto out;
  }
  if (hlen == 0 || hlen > MAX_HEADER) {
    rc = fail(path, "header length out of range");
    goto out;
  }
  if (fread(hdr, 1, hlen, f) != hlen) {
    rc = fail(path, "truncated header");
    goto out;
  }
  hdr[hlen] = 0;
  const char *d = dict_value(hdr, "'descr'");
  if (!d || *d != '\'' || strlen(d) < 5 || d[4] != '\'') {
    rc = fail(path, "header has no 'descr' of the form '<f4'");
    goto out;
  }
  memcpy(a->descr, d + 1, 3);
  const char *fo = dict_value(hdr, "'fortran_order'");
  if (!fo || strncmp(fo, "False", 5) != 0) {
    rc = fail(path, "only C-order arrays are supported (fortran_order is not False)");
    goto out;
  }
  const char *s = dict_value(hdr, "'shape'");
  if (!s || *s != '(') {
    rc = fail(path, "header has no 'shape' tuple");
    goto out;
  }
  s++;
  a->count = 1;
  while (*s != ')') {
    char *end;
    while (*s == ' ' || *s == ',') s++;
    if (*s == ')') break;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno || v < 0 || v > (1L << 24)) {
      rc = fail(path, "bad dimension in 'shape'");
      goto out;
    }
    if (a->rank == MAX_RANK) {
      rc = fail(path, "more than 4 dimensions");
      goto out;
    }
    a->dims[a->rank++] = v;
    a->count *= v;
    if (a->count > (1L << 24)) {
      rc = fail(path, "array too large");
      goto out;
    }
    s = end;
  }
  size_t esize = strcmp(a->descr, "<i8") == 0 ? 8 : 4;
  a->data = malloc(a->count * esize + 1);
  if (!a->data) {
    rc = fail(path, "out of memory");
    goto out;
  }
  if (fread(a->data, esize, (size_t)a->count, f) != (size_t)a->count) {
    rc = fail(path, "fewer data bytes than the shape says");
    goto out;
  }
  rc = 0;
out:
  fclose(f);
  if (rc) free(a->data), a->data = NULL;
  return rc;
}

static float f32_at(const npy_array *a, long i) {
  float v;
  memcpy(&v, a->data + 4 * i, 4);
  return v;
}

static uint32_t bits_at(const npy_array *a, long i) {
  uint32_t v;
  memcpy(&v, a->data + 4 * i, 4);
  return v;
}

static int64_t i64_at(const npy_array *a, long i) {
  int64_t v;
  memcpy(&v, a->data + 8 * i, 8);
  return v;
}

static int check_shape(const char *path, const npy_array *a, const char *descr, int rank, const long *dims) {
  if (strcmp(a->descr, descr) != 0) {
    fprintf(stderr, "%s: %s: dtype '%s', expected '%s'\n", prog, path, a->descr, descr);
    return 1;
  }
  int ok = a->rank == rank;
  for (int i = 0; ok && i < rank; i++) ok = dims[i] < 0 || a->dims[i] == dims[i];
  if (!ok) {
    fprintf(stderr, "%s: %s: shape (", prog, path);
    for (int i = 0; i < a->rank; i++) fprintf(stderr, "%s%ld", i ? ", " : "", a->dims[i]);
    fprintf(stderr, ") is not the expected rank-%d shape\n", rank);
    return 1;
  }
  return 0;
}

/* Writes the header for the first n entries; 0 or 1 (message printed). */
static int write_header(const char *opath, const char *tpath, const char *lpath, const char *rpath, long n,
                        const npy_array *t, const npy_array *l, const npy_array *r) {
  FILE *o = fopen(opath, "w");
  if (!o) {
    fprintf(stderr, "%s: %s: %s\n", prog, opath, strerror(errno));
    return 1;
  }
  fprintf(o, "/* GENERATED by digits-data from %s, %s, %s: do not edit. */\n", tpath, lpath, rpath);
  fprintf(o, "#include <stdint.h>\n#define DIGITS_COUNT %ld\n", n);
  fprintf(o, "static const float digits_images[%ld][64] = {\n", n);
  for (long i = 0; i < n; i++) {
    fprintf(o, "  {");
    /* hex floats: exact, no decimal rounding on the way back */
    for (int k = 0; k < 64; k++) fprintf(o, "%s%af", k ? "," : "", (double)f32_at(t, i * 64 + k));
    fprintf(o, "},\n");
  }
  fprintf(o, "};\nstatic const uint8_t digits_labels[%ld] = {", n);
  for (long i = 0; i < n; i++) fprintf(o, "%s%d", i ? "," : "", (int)i64_at(l, i));
  fprintf(o, "};\n/* argmax of the int8 reference (first index on ties) */\n");
  fprintf(o, "static const uint8_t digits_ref_class[%ld] = {", n);
  for (long i = 0; i < n; i++) {
    int best = 0;
    for (int k = 1; k < 10; k++)
      if (f32_at(r, i * 10 + k) > f32_at(r, i * 10 + best)) best = k;
    fprintf(o, "%s%d", i ? "," : "", best);
  }
  fprintf(o, "};\n/* the int8 reference's probabilities, float32 bit patterns */\n");
  fprintf(o, "static const uint32_t digits_ref_bits[%ld][10] = {\n", n);
  for (long i = 0; i < n; i++) {
    fprintf(o, "  {");
    for (int k = 0; k < 10; k++) fprintf(o, "%s0x%08xu", k ? "," : "", (unsigned)bits_at(r, i * 10 + k));
    fprintf(o, "},\n");
  }
  fprintf(o, "};\n");
  if (fclose(o) != 0) {
    fprintf(stderr, "%s: %s: write failed\n", prog, opath);
    return 1;
  }
  return 0;
}

static int usage(void) {
  fprintf(stderr, "usage: %s TEST.npy LABELS.npy REF.npy COUNT -o OUT.h\n", prog);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 7 || strcmp(argv[5], "-o") != 0) return usage();
  const char *tpath = argv[1], *lpath = argv[2], *rpath = argv[3], *opath = argv[6];
  char *end;
  long n = strtol(argv[4], &end, 10);
  if (*argv[4] == 0 || *end || n < 1 || n > 256) {
    fprintf(stderr, "%s: COUNT '%s' is not a number in 1..256\n", prog, argv[4]);
    return 1;
  }
  npy_array t = {0}, l = {0}, r = {0};
  int rc = 1;
  const long tdims[] = {-1, 1, 8, 8}, ldims[] = {-1}, rdims[] = {-1, 10};
  if (npy_read(tpath, &t) || npy_read(lpath, &l) || npy_read(rpath, &r)) goto done;
  if (check_shape(tpath, &t, "<f4", 4, tdims) || check_shape(lpath, &l, "<i8", 1, ldims) ||
      check_shape(rpath, &r, "<f4", 2, rdims))
    goto done;
  if (t.dims[0] < n || l.dims[0] < n || r.dims[0] < n) {
    fprintf(stderr, "%s: COUNT %ld is more than the arrays hold (%ld images, %ld labels, %ld reference rows)\n",
            prog, n, t.dims[0], l.dims[0], r.dims[0]);
    goto done;
  }
  for (long i = 0; i < n; i++)
    if (i64_at(&l, i) < 0 || i64_at(&l, i) > 9) {
      fprintf(stderr, "%s: %s: label %ld is %lld, not a digit\n", prog, lpath, i, (long long)i64_at(&l, i));
      goto done;
    }
  rc = write_header(opath, tpath, lpath, rpath, n, &t, &l, &r);
done:
  free(t.data), free(l.data), free(r.data);
  return rc;
}
