/* npy: .npy reader and writer. See npy.h for the contract.
 *
 * File layout (NumPy's format.py is the specification):
 *   "\x93NUMPY" major minor          8 bytes, major 1, 2 or 3, minor 0
 *   header length                    uint16 LE (1.x) or uint32 LE (2.x, 3.x)
 *   header                           a Python dict literal, e.g.
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 *     padded with spaces and ended by '\n' (3.x allows UTF-8; we only ever
 *     need ASCII, so other bytes are reported as bad characters)
 *   data                             product(shape) elements
 *
 * The header parser is a small hand-written scanner for exactly that dict
 * literal, not a general Python evaluator: three known keys, each once.
 */
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const uint8_t npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Spelling of each dtype in a header: the one we write first, then other
 * spellings NumPy accepts for the same little-endian type. */
static const struct {
  npy_dtype dtype;
  const char *write_descr;
  const char *alt_descr;
  size_t size;
  const char *name;
} dtype_table[] = {
  {NPY_F32, "<f4", NULL, 4, "float32"},
  {NPY_F64, "<f8", NULL, 8, "float64"},
  {NPY_I8, "|i1", "<i1", 1, "int8"},
  {NPY_U8, "|u1", "<u1", 1, "uint8"},
  {NPY_I16, "<i2", NULL, 2, "int16"},
  {NPY_I32, "<i4", NULL, 4, "int32"},
  {NPY_I64, "<i8", NULL, 8, "int64"},
  {NPY_BOOL, "|b1", "<b1", 1, "bool"},
  {NPY_U16, "<u2", NULL, 2, "uint16"},
  {NPY_U32, "<u4", NULL, 4, "uint32"},
  {NPY_U64, "<u8", NULL, 8, "uint64"},
};
#define DTYPE_COUNT (sizeof dtype_table / sizeof dtype_table[0])

size_t npy_dtype_size(npy_dtype t) {
  for (size_t i = 0; i < DTYPE_COUNT; i++)
    if (dtype_table[i].dtype == t) return dtype_table[i].size;
  return 0;
}

double npy_elem(const npy_array *a, size_t i) {
  switch (a->dtype) {
  case NPY_F32: return ((const float *)a->data)[i];
  case NPY_F64: return ((const double *)a->data)[i];
  case NPY_I8: return ((const int8_t *)a->data)[i];
  case NPY_U8: return ((const uint8_t *)a->data)[i];
  case NPY_I16: return ((const int16_t *)a->data)[i];
  case NPY_U16: return ((const uint16_t *)a->data)[i];
  case NPY_I32: return ((const int32_t *)a->data)[i];
  case NPY_U32: return ((const uint32_t *)a->data)[i];
  case NPY_I64: return (double)((const int64_t *)a->data)[i];
  case NPY_U64: return (double)((const uint64_t *)a->data)[i];
  case NPY_BOOL: return ((const uint8_t *)a->data)[i] != 0;
  }
  return 0;
}

const char *npy_dtype_name(npy_dtype t) {
  for (size_t i = 0; i < DTYPE_COUNT; i++)
    if (dtype_table[i].dtype == t) return dtype_table[i].name;
  return "?";
}

void npy_free(npy_array *a) {
  if (!a) return;
  free(a->data);
  memset(a, 0, sizeof *a);
}

/* Format a message into err (if any) and return -1, so error paths read
 * `return fail(...)`. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ---- header scanner ---------------------------------------------------- */

typedef struct {
  const char *s;   /* header text (not NUL-terminated) */
  size_t len;      /* its length */
  size_t pos;      /* next character */
  char *err;       /* where messages go */
  size_t errlen;
} scanner;

/* Describe the character at the cursor for a message: 'x', \xNN or "end". */
static const char *scan_here(const scanner *sc, char *buf, size_t buflen) {
  if (sc->pos >= sc->len) return "end of header";
  unsigned char c = (unsigned char)sc->s[sc->pos];
  if (c >= 0x20 && c < 0x7f)
    snprintf(buf, buflen, "'%c' at offset %zu", c, sc->pos);
  else
    snprintf(buf, buflen, "byte 0x%02x at offset %zu", c, sc->pos);
  return buf;
}

static int scan_error(scanner *sc, const char *expected) {
  char here[64];
  return fail(sc->err, sc->errlen, "bad header: expected %s, found %s",
              expected, scan_here(sc, here, sizeof here));
}

static void scan_space(scanner *sc) {
  while (sc->pos < sc->len &&
         (sc->s[sc->pos] == ' ' || sc->s[sc->pos] == '\t' ||
          sc->s[sc->pos] == '\n' || sc->s[sc->pos] == '\r'))
    sc->pos++;
}

/* Consume `c` (after optional white space) if it is next. */
static bool scan_take(scanner *sc, char c) {
  scan_space(sc);
  if (sc->pos < sc->len && sc->s[sc->pos] == c) {
    sc->pos++;
    return true;
  }
  return false;
}

/* A quoted Python string without escapes, into out[outlen]. */
static int scan_string(scanner *sc, char *out, size_t outlen,
                       const char *what) {
  scan_space(sc);
  if (sc->pos >= sc->len || (sc->s[sc->pos] != '\'' && sc->s[sc->pos] != '"'))
    return scan_error(sc, what);
  char quote = sc->s[sc->pos++];
  size_t n = 0;
  while (sc->pos < sc->len && sc->s[sc->pos] != quote) {
    unsigned char c = (unsigned char)sc->s[sc->pos];
    if (c < 0x20 || c >= 0x7f || c == '\\')
      return scan_error(sc, "a plain ASCII string character");
    if (n + 1 >= outlen)
      return fail(sc->err, sc->errlen, "bad header: %s is too long", what);
    out[n++] = (char)c;
    sc->pos++;
  }
  if (sc->pos >= sc->len)
    return fail(sc->err, sc->errlen, "bad header: unterminated string");
  sc->pos++;
  out[n] = '\0';
  return 0;
}

/* A bare word (True, False, ...) into out[outlen]. */
static void scan_word(scanner *sc, char *out, size_t outlen) {
  scan_space(sc);
  size_t n = 0;
  while (sc->pos < sc->len && n + 1 < outlen) {
    char c = sc->s[sc->pos];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) break;
    out[n++] = c;
    sc->pos++;
  }
  out[n] = '\0';
}

/* A non-negative decimal dimension. Python 2 wrote longs as "3L". */
static int scan_dim(scanner *sc, int64_t *out) {
  scan_space(sc);
  if (sc->pos < sc->len && sc->s[sc->pos] == '-')
    return fail(sc->err, sc->errlen,
                "bad shape: negative dimension at offset %zu", sc->pos);
  if (sc->pos >= sc->len || sc->s[sc->pos] < '0' || sc->s[sc->pos] > '9')
    return scan_error(sc, "a dimension (non-negative integer)");
  /* Python (numpy reads the header with ast.literal_eval) refuses a decimal
   * literal with a leading zero, "08" or "010", and takes "0" and "00". */
  size_t start = sc->pos, end = sc->pos;
  while (end < sc->len && sc->s[end] >= '0' && sc->s[end] <= '9') end++;
  if (sc->s[start] == '0')
    for (size_t k = start + 1; k < end; k++)
      if (sc->s[k] != '0')
        return fail(sc->err, sc->errlen,
                    "bad shape: dimension '%.*s' at offset %zu has a leading zero (numpy refuses it)",
                    (int)(end - start < 24 ? end - start : 24), sc->s + start, start);
  uint64_t v = 0;
  while (sc->pos < sc->len && sc->s[sc->pos] >= '0' && sc->s[sc->pos] <= '9') {
    uint64_t digit = (uint64_t)(sc->s[sc->pos] - '0');
    if (v > ((uint64_t)INT64_MAX - digit) / 10)
      return fail(sc->err, sc->errlen,
                  "bad shape: dimension at offset %zu does not fit in int64",
                  sc->pos);
    v = v * 10 + digit;
    sc->pos++;
  }
  if (sc->pos < sc->len && sc->s[sc->pos] == 'L') sc->pos++;
  *out = (int64_t)v;
  return 0;
}

/* A tuple of dimensions: (), (n,), (n, m), (n, m,) ... */
static int scan_shape(scanner *sc, int *ndim, int64_t shape[NPY_MAX_DIMS]) {
  if (!scan_take(sc, '('))
    return scan_error(sc, "'(' starting the shape tuple");
  int n = 0;
  bool comma = false; /* a (single) comma followed the last dimension */
  for (;;) {
    if (scan_take(sc, ')')) break;
    if (n > 0 && !comma) return scan_error(sc, "',' or ')' in the shape");
    if (n == NPY_MAX_DIMS)
      return fail(sc->err, sc->errlen,
                  "bad shape: more than %d dimensions are not supported",
                  NPY_MAX_DIMS);
    if (scan_dim(sc, &shape[n]) != 0) return -1;
    n++;
    comma = scan_take(sc, ',');
  }
  /* Python reads "(3)" as the integer 3, which NumPy rejects as a shape. */
  if (n == 1 && !comma)
    return fail(sc->err, sc->errlen,
                "bad shape: '(%lld)' is not a tuple (needs a trailing comma)",
                (long long)shape[0]);
  *ndim = n;
  return 0;
}

typedef struct {
  npy_dtype dtype;
  bool fortran;
  int ndim;
  int64_t shape[NPY_MAX_DIMS];
} npy_header;

static int parse_descr(scanner *sc, npy_dtype *out) {
  scan_space(sc);
  if (sc->pos < sc->len && sc->s[sc->pos] == '[')
    return fail(sc->err, sc->errlen,
                "unsupported dtype: structured arrays are not supported");
  char d[16];
  if (scan_string(sc, d, sizeof d, "a dtype string for 'descr'") != 0)
    return -1;
  for (size_t i = 0; i < DTYPE_COUNT; i++) {
    if (strcmp(d, dtype_table[i].write_descr) == 0 ||
        (dtype_table[i].alt_descr && strcmp(d, dtype_table[i].alt_descr) == 0)) {
      *out = dtype_table[i].dtype;
      return 0;
    }
  }
  if (d[0] == '>' && strcmp(d + 1, "i1") != 0 && strcmp(d + 1, "u1") != 0 &&
      strcmp(d + 1, "b1") != 0)
    return fail(sc->err, sc->errlen,
                "unsupported dtype '%s': big-endian data is not supported", d);
  if (d[0] == '>') { /* one-byte types have no byte order */
    for (size_t i = 0; i < DTYPE_COUNT; i++)
      if (strcmp(d + 1, dtype_table[i].write_descr + 1) == 0) {
        *out = dtype_table[i].dtype;
        return 0;
      }
  }
  return fail(sc->err, sc->errlen,
              "unsupported dtype '%s' (expected one of <f4 <f8 |i1 |u1 <i2 "
              "<u2 <i4 <u4 <i8 <u8 |b1)", d);
}

/* The whole header dict. */
static int parse_header(scanner *sc, npy_header *h) {
  bool have_descr = false, have_fortran = false, have_shape = false;
  if (!scan_take(sc, '{')) return scan_error(sc, "'{' starting the header dict");
  for (;;) {
    if (scan_take(sc, '}')) break;
    char key[32];
    if (scan_string(sc, key, sizeof key, "a quoted key") != 0) return -1;
    if (!scan_take(sc, ':')) return scan_error(sc, "':' after a key");
    if (strcmp(key, "descr") == 0) {
      if (have_descr)
        return fail(sc->err, sc->errlen, "bad header: duplicate key 'descr'");
      have_descr = true;
      if (parse_descr(sc, &h->dtype) != 0) return -1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (have_fortran)
        return fail(sc->err, sc->errlen,
                    "bad header: duplicate key 'fortran_order'");
      have_fortran = true;
      char w[8];
      scan_word(sc, w, sizeof w);
      if (strcmp(w, "True") == 0) h->fortran = true;
      else if (strcmp(w, "False") == 0) h->fortran = false;
      else return scan_error(sc, "True or False for 'fortran_order'");
    } else if (strcmp(key, "shape") == 0) {
      if (have_shape)
        return fail(sc->err, sc->errlen, "bad header: duplicate key 'shape'");
      have_shape = true;
      if (scan_shape(sc, &h->ndim, h->shape) != 0) return -1;
    } else {
      return fail(sc->err, sc->errlen, "bad header: unknown key '%s'", key);
    }
    if (scan_take(sc, ',')) continue;
    if (scan_take(sc, '}')) break;
    return scan_error(sc, "',' or '}' in the header dict");
  }
  scan_space(sc);
  if (sc->pos != sc->len) return scan_error(sc, "only padding after '}'");
  if (!have_descr) return fail(sc->err, sc->errlen, "bad header: missing 'descr'");
  if (!have_fortran)
    return fail(sc->err, sc->errlen, "bad header: missing 'fortran_order'");
  if (!have_shape) return fail(sc->err, sc->errlen, "bad header: missing 'shape'");
  return 0;
}

/* product(shape) * itemsize, or -1 if it does not fit in size_t. */
static int array_bytes(int ndim, const int64_t *shape, size_t itemsize,
                       size_t *out) {
  uint64_t count = 1;
  bool empty = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) return -1;
    if (shape[i] == 0) empty = true;
  }
  if (empty) { /* zero elements, whatever the other dimensions say */
    *out = 0;
    return 0;
  }
  for (int i = 0; i < ndim; i++) {
    uint64_t d = (uint64_t)shape[i];
    if (count > UINT64_MAX / d) return -1;
    count *= d;
  }
  if (count > SIZE_MAX / itemsize) return -1;
  *out = (size_t)count * itemsize;
  return 0;
}

/* Copy Fortran-order `src` into C-order `dst`. Walk the C-order index like an
 * odometer; the Fortran offset is sum(index[k] * fstride[k]). */
static void fortran_to_c(const uint8_t *src, uint8_t *dst, int ndim,
                         const int64_t *shape, size_t itemsize, size_t count) {
  int64_t index[NPY_MAX_DIMS] = {0};
  size_t fstride[NPY_MAX_DIMS];
  size_t s = 1;
  for (int k = 0; k < ndim; k++) {
    fstride[k] = s;
    s *= (size_t)shape[k];
  }
  for (size_t i = 0; i < count; i++) {
    size_t off = 0;
    for (int k = 0; k < ndim; k++) off += (size_t)index[k] * fstride[k];
    memcpy(dst + i * itemsize, src + off * itemsize, itemsize);
    for (int k = ndim - 1; k >= 0; k--) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
}

int npy_parse(const uint8_t *buf, size_t len, npy_array *out, char *err,
              size_t errlen) {
  if (err && errlen > 0) err[0] = '\0';
  if (!out) return fail(err, errlen, "npy_parse: no output array");
  memset(out, 0, sizeof *out);
  if (!buf && len > 0) return fail(err, errlen, "npy_parse: no input buffer");

  /* 1. Magic and version. */
  if (len < 8)
    return fail(err, errlen, "truncated: %zu bytes is shorter than the "
                "8-byte .npy preamble", len);
  if (memcmp(buf, npy_magic, sizeof npy_magic) != 0)
    return fail(err, errlen, "bad magic: not a .npy file (expected "
                "\\x93NUMPY)");
  unsigned major = buf[6], minor = buf[7];
  if (major < 1 || major > 3 || minor != 0)
    return fail(err, errlen, "unsupported .npy format version %u.%u "
                "(expected 1.0, 2.0 or 3.0)", major, minor);

  /* 2. Header length and bounds. */
  size_t pre = major == 1 ? 10 : 12;
  if (len < pre)
    return fail(err, errlen, "truncated: no room for the header length");
  size_t hlen = major == 1 ? (size_t)buf[8] | (size_t)buf[9] << 8
                           : (size_t)buf[8] | (size_t)buf[9] << 8 |
                                 (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
  if (hlen > len - pre)
    return fail(err, errlen, "truncated: header length %zu runs past the end "
                "of the %zu-byte file", hlen, len);

  /* 3. Header dict. */
  npy_header h = {0};
  scanner sc = {(const char *)buf + pre, hlen, 0, err, errlen};
  if (parse_header(&sc, &h) != 0) return -1;

  /* 4. Data size, checked against what is there. */
  size_t itemsize = npy_dtype_size(h.dtype);
  size_t nbytes;
  if (array_bytes(h.ndim, h.shape, itemsize, &nbytes) != 0)
    return fail(err, errlen, "bad shape: element count overflows (shape "
                "too large)");
  size_t have = len - pre - hlen;
  if (have != nbytes)
    return fail(err, errlen, "size mismatch: header says %zu data bytes, "
                "file has %zu%s", nbytes, have,
                have < nbytes ? " (truncated)" : " (trailing bytes)");

  /* 5. Copy out (never malloc(0): callers may test data for NULL). */
  uint8_t *data = malloc(nbytes ? nbytes : 1);
  if (!data) return fail(err, errlen, "out of memory for %zu bytes", nbytes);
  const uint8_t *src = buf + pre + hlen;
  if (h.fortran && h.ndim > 1)
    fortran_to_c(src, data, h.ndim, h.shape, itemsize, nbytes / itemsize);
  else if (nbytes)
    memcpy(data, src, nbytes);

  out->dtype = h.dtype;
  out->ndim = h.ndim;
  memcpy(out->shape, h.shape, sizeof h.shape);
  out->data = data;
  out->nbytes = nbytes;
  return 0;
}

/* ---- files -------------------------------------------------------------- */

int npy_read(const char *path, npy_array *out, char *err, size_t errlen) {
  if (out) memset(out, 0, sizeof *out);
  if (!path) return fail(err, errlen, "npy_read: no path");
  /* O_NONBLOCK: opening a FIFO by mistake must not wait for a writer. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return fail(err, errlen, "%s: not a regular file", path);
  }
  if ((uint64_t)st.st_size > SIZE_MAX) {
    close(fd);
    return fail(err, errlen, "%s: file too large", path);
  }
  size_t len = (size_t)st.st_size;
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) {
    close(fd);
    return fail(err, errlen, "%s: out of memory for %zu bytes", path, len);
  }
  size_t got = 0;
  while (got < len) {
    ssize_t n = read(fd, buf + got, len - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; /* error, or the file shrank under us */
    got += (size_t)n;
  }
  close(fd);
  if (got != len) {
    free(buf);
    return fail(err, errlen, "%s: read error", path);
  }
  char msg[256];
  int rc = npy_parse(buf, len, out, msg, sizeof msg);
  free(buf);
  if (rc != 0) return fail(err, errlen, "%s: %s", path, msg);
  return 0;
}

/* Check that `a` describes itself consistently before writing it. */
static int check_array(const npy_array *a, char *err, size_t errlen) {
  if (!a) return fail(err, errlen, "npy_write: no array");
  size_t itemsize = npy_dtype_size(a->dtype);
  if (itemsize == 0)
    return fail(err, errlen, "npy_write: unknown dtype %d", (int)a->dtype);
  if (a->ndim < 0 || a->ndim > NPY_MAX_DIMS)
    return fail(err, errlen, "npy_write: ndim %d outside 0..%d", a->ndim,
                NPY_MAX_DIMS);
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] < 0)
      return fail(err, errlen, "npy_write: negative dimension %lld at %d",
                  (long long)a->shape[i], i);
  size_t nbytes;
  if (array_bytes(a->ndim, a->shape, itemsize, &nbytes) != 0)
    return fail(err, errlen, "npy_write: shape too large");
  if (nbytes != a->nbytes)
    return fail(err, errlen, "npy_write: nbytes %zu does not match shape "
                "(%zu bytes)", a->nbytes, nbytes);
  if (nbytes > 0 && !a->data) return fail(err, errlen, "npy_write: no data");
  return 0;
}

/* Build preamble + padded header as NumPy writes it: total a multiple of 64,
 * ending in '\n'. Returns its length, 0 if buf is too small. */
static size_t build_header(const npy_array *a, uint8_t *buf, size_t buflen) {
  char dict[400];
  const char *descr = "?";
  for (size_t i = 0; i < DTYPE_COUNT; i++)
    if (dtype_table[i].dtype == a->dtype) descr = dtype_table[i].write_descr;
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False,"
                   " 'shape': (", descr);
  for (int i = 0; i < a->ndim; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%s%lld", i ? ", " : "",
                  (long long)a->shape[i]);
  n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }",
                a->ndim == 1 ? "," : "");
  size_t dlen = (size_t)n;
  /* Version 1.0 unless the header outgrows its 16-bit length. */
  int major = dlen + 1 + 10 <= 65535 ? 1 : 2;
  size_t pre = major == 1 ? 10 : 12;
  size_t total = (pre + dlen + 1 + 63) / 64 * 64;
  if (total > buflen) return 0;
  size_t hlen = total - pre;
  memcpy(buf, npy_magic, sizeof npy_magic);
  buf[6] = (uint8_t)major;
  buf[7] = 0;
  buf[8] = (uint8_t)(hlen & 0xff);
  buf[9] = (uint8_t)(hlen >> 8 & 0xff);
  if (major == 2) {
    buf[10] = (uint8_t)(hlen >> 16 & 0xff);
    buf[11] = (uint8_t)(hlen >> 24 & 0xff);
  }
  memcpy(buf + pre, dict, dlen);
  memset(buf + pre + dlen, ' ', hlen - dlen - 1);
  buf[total - 1] = '\n';
  return total;
}

int npy_write(const char *path, const npy_array *a, char *err, size_t errlen) {
  if (err && errlen > 0) err[0] = '\0';
  if (!path) return fail(err, errlen, "npy_write: no path");
  char msg[200];
  if (check_array(a, msg, sizeof msg) != 0)
    return fail(err, errlen, "%s: %s", path, msg);
  uint8_t header[512];
  size_t hsize = build_header(a, header, sizeof header);
  if (hsize == 0) return fail(err, errlen, "%s: header too long", path);

  /* Something that is not a regular file (/dev/null, a pipe) is written
   * in place: renaming over it would replace the device or pipe itself. */
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return fail(err, errlen, "%s: is a folder", path);
    FILE *f = fopen(path, "wb");
    if (!f) return fail(err, errlen, "%s: %s", path, strerror(errno));
    bool ok = fwrite(header, 1, hsize, f) == hsize && (!a->nbytes || fwrite(a->data, 1, a->nbytes, f) == a->nbytes);
    ok &= fclose(f) == 0;
    return ok ? 0 : fail(err, errlen, "%s: write failed", path);
  }

  /* Write beside the target, then rename: readers never see half a file. */
  size_t plen = strlen(path);
  char *tmp = malloc(plen + sizeof ".tmpXXXXXX");
  if (!tmp) return fail(err, errlen, "%s: out of memory", path);
  memcpy(tmp, path, plen);
  memcpy(tmp + plen, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return fail(err, errlen, "%s: cannot create temporary file: %s", path,
                strerror(e));
  }
  fchmod(fd, 0644); /* mkstemp makes 0600; .npy files are data to share */
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    int e = errno;
    close(fd);
    unlink(tmp);
    free(tmp);
    return fail(err, errlen, "%s: cannot open temporary file: %s", path,
                strerror(e));
  }
  bool ok = fwrite(header, 1, hsize, f) == hsize;
  if (ok && a->nbytes) ok = fwrite(a->data, 1, a->nbytes, f) == a->nbytes;
  if (ok) ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
  int e = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    unlink(tmp);
    free(tmp);
    return fail(err, errlen, "%s: write failed: %s", path, strerror(e));
  }
  free(tmp);
  return 0;
}
