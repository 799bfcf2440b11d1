/* cmocka tests for compiler/npy: round trips of every dtype, files written by
 * NumPy (tests/npy/data, made by gen_data.py), and malformed input, which must
 * give -1 with a message naming the problem (never a crash: this runs under
 * ASan/UBSan). NPY_DATA_DIR is set by tests/rules.mk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"

#ifndef NPY_DATA_DIR
#error "NPY_DATA_DIR must name tests/npy/data"
#endif

static char tmpdir[64]; /* scratch folder for written files */

static int make_tmpdir(void **state) {
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/npy-test-XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state) {
  (void)state;
  DIR *d = opendir(tmpdir);
  if (!d) return -1;
  struct dirent *e;
  char p[512];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
    unlink(p);
  }
  closedir(d);
  return rmdir(tmpdir);
}

/* Number of entries in tmpdir: a write must leave no temporary behind. */
static int tmpdir_entries(void) {
  DIR *d = opendir(tmpdir);
  assert_non_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

/* ---- helpers to build .npy images in memory ----------------------------- */

typedef struct {
  uint8_t bytes[4096];
  size_t len;
} image;

/* Preamble for `major`.0, then `header` verbatim, then `datalen` bytes of
 * data (value i & 0xff). */
static void make_image(image *im, int major, const char *header,
                       size_t datalen) {
  size_t hlen = strlen(header);
  size_t pre = major == 1 ? 10 : 12;
  assert_true(pre + hlen + datalen <= sizeof im->bytes);
  memcpy(im->bytes, "\x93NUMPY", 6);
  im->bytes[6] = (uint8_t)major;
  im->bytes[7] = 0;
  im->bytes[8] = (uint8_t)(hlen & 0xff);
  im->bytes[9] = (uint8_t)(hlen >> 8);
  if (major != 1) im->bytes[10] = im->bytes[11] = 0;
  memcpy(im->bytes + pre, header, hlen);
  for (size_t i = 0; i < datalen; i++)
    im->bytes[pre + hlen + i] = (uint8_t)i;
  im->len = pre + hlen + datalen;
}

/* Parse must fail and the message must contain `want`. */
static void expect_error(const image *im, const char *want) {
  npy_array a;
  char err[256];
  int rc = npy_parse(im->bytes, im->len, &a, err, sizeof err);
  if (rc == 0 || strstr(err, want) == NULL)
    print_error("expected error containing '%s', got rc=%d '%s'\n", want, rc,
                err);
  assert_int_equal(rc, -1);
  assert_non_null(strstr(err, want));
  assert_null(a.data); /* nothing to free on error */
}

static void expect_header_error(const char *header, size_t datalen,
                                const char *want) {
  image im;
  make_image(&im, 1, header, datalen);
  expect_error(&im, want);
}

static void read_data_file(const char *name, npy_array *a) {
  char path[512], err[256];
  snprintf(path, sizeof path, "%s/%s", NPY_DATA_DIR, name);
  int rc = npy_read(path, a, err, sizeof err);
  if (rc != 0) print_error("%s\n", err);
  assert_int_equal(rc, 0);
}

/* ---- round trips ---------------------------------------------------------- */

static void round_trip(npy_dtype t, int ndim, const int64_t *shape) {
  npy_array a = {0};
  a.dtype = t;
  a.ndim = ndim;
  size_t count = 1;
  for (int i = 0; i < ndim; i++) {
    a.shape[i] = shape[i];
    count *= (size_t)shape[i];
  }
  a.nbytes = count * npy_dtype_size(t);
  a.data = malloc(a.nbytes ? a.nbytes : 1);
  assert_non_null(a.data);
  uint8_t *p = a.data;
  for (size_t i = 0; i < a.nbytes; i++) p[i] = (uint8_t)(i * 37 + 11);
  if (t == NPY_BOOL)
    for (size_t i = 0; i < a.nbytes; i++) p[i] &= 1;

  char path[128], err[256];
  snprintf(path, sizeof path, "%s/rt_%s_%d.npy", tmpdir, npy_dtype_name(t),
           ndim);
  int before = tmpdir_entries();
  assert_int_equal(npy_write(path, &a, err, sizeof err), 0);
  assert_int_equal(tmpdir_entries(), before + 1);

  /* NumPy aligns the data to 64 bytes; we do the same. */
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(((size_t)st.st_size - a.nbytes) % 64, 0);

  npy_array b;
  int rc = npy_read(path, &b, err, sizeof err);
  if (rc != 0) print_error("%s\n", err);
  assert_int_equal(rc, 0);
  assert_int_equal(b.dtype, t);
  assert_int_equal(b.ndim, ndim);
  for (int i = 0; i < ndim; i++) assert_int_equal(b.shape[i], shape[i]);
  assert_int_equal(b.nbytes, a.nbytes);
  assert_non_null(b.data);
  assert_memory_equal(a.data, b.data, a.nbytes);
  npy_free(&a);
  npy_free(&b);
  assert_null(b.data);
  unlink(path);
}

static void test_round_trip_every_dtype(void **state) {
  (void)state;
  static const npy_dtype all[] = {NPY_F32, NPY_F64, NPY_I8,  NPY_U8,
                                  NPY_I16, NPY_I32, NPY_I64, NPY_BOOL,
                                  NPY_U16, NPY_U32, NPY_U64};
  static const int64_t s1[] = {7};
  static const int64_t s4[] = {1, 3, 4, 5};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    round_trip(all[i], 0, NULL);
    round_trip(all[i], 1, s1);
    round_trip(all[i], 4, s4);
  }
}

static void test_round_trip_shapes(void **state) {
  (void)state;
  static const int64_t empty[] = {0, 3};
  static const int64_t eight[] = {1, 2, 1, 2, 1, 2, 1, 3};
  static const int64_t big[] = {3, 1000};
  round_trip(NPY_F32, 2, empty);
  round_trip(NPY_I16, 8, eight);
  round_trip(NPY_F64, 2, big);
}

static void test_write_replaces_existing(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/replace.npy", tmpdir);
  int32_t v1[3] = {1, 2, 3}, v2[1] = {42};
  npy_array a = {NPY_I32, 1, {3}, v1, sizeof v1};
  npy_array b = {NPY_I32, 1, {1}, v2, sizeof v2};
  assert_int_equal(npy_write(path, &a, err, sizeof err), 0);
  assert_int_equal(npy_write(path, &b, err, sizeof err), 0);
  npy_array c;
  assert_int_equal(npy_read(path, &c, err, sizeof err), 0);
  assert_int_equal(c.shape[0], 1);
  assert_int_equal(((int32_t *)c.data)[0], 42);
  npy_free(&c);
  unlink(path);
}

static void test_write_rejects_bad_arrays(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/bad.npy", tmpdir);
  float v[4] = {0};
  int before = tmpdir_entries();

  npy_array a = {NPY_F32, 9, {1, 1, 1, 1, 1, 1, 1, 1}, v, 4};
  assert_int_equal(npy_write(path, &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "ndim"));

  npy_array b = {NPY_F32, 1, {4}, v, 12}; /* nbytes should be 16 */
  assert_int_equal(npy_write(path, &b, err, sizeof err), -1);
  assert_non_null(strstr(err, "nbytes"));

  npy_array c = {NPY_F32, 2, {-1, 4}, v, 16};
  assert_int_equal(npy_write(path, &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "negative"));

  npy_array d = {(npy_dtype)99, 1, {4}, v, 16};
  assert_int_equal(npy_write(path, &d, err, sizeof err), -1);
  assert_non_null(strstr(err, "dtype"));

  npy_array e = {NPY_F32, 1, {4}, NULL, 16};
  assert_int_equal(npy_write(path, &e, err, sizeof err), -1);
  assert_non_null(strstr(err, "no data"));

  npy_array f = {NPY_F32, 1, {4}, v, 16};
  assert_int_equal(npy_write("/nonexistent-dir/x.npy", &f, err, sizeof err),
                   -1);
  assert_non_null(strstr(err, "/nonexistent-dir/x.npy"));

  assert_int_equal(tmpdir_entries(), before); /* nothing left behind */
}

/* ---- files written by NumPy --------------------------------------------- */

static void test_numpy_f32(void **state) {
  (void)state;
  static const char *files[] = {"f32_2x3.npy", "f32_v2_2x3.npy",
                                "f32_v3_2x3.npy"};
  for (size_t k = 0; k < 3; k++) {
    npy_array a;
    read_data_file(files[k], &a);
    assert_int_equal(a.dtype, NPY_F32);
    assert_int_equal(a.ndim, 2);
    assert_int_equal(a.shape[0], 2);
    assert_int_equal(a.shape[1], 3);
    assert_int_equal(a.nbytes, 24);
    const float *f = a.data;
    for (int i = 0; i < 6; i++) assert_true(f[i] == (float)i * 0.5f - 1.0f);
    npy_free(&a);
  }
}

static void test_numpy_scalar_and_ints(void **state) {
  (void)state;
  npy_array a;
  read_data_file("f64_scalar.npy", &a);
  assert_int_equal(a.dtype, NPY_F64);
  assert_int_equal(a.ndim, 0);
  assert_int_equal(a.nbytes, 8);
  assert_true(*(double *)a.data == 3.25);
  npy_free(&a);

  read_data_file("i8_5.npy", &a);
  assert_int_equal(a.dtype, NPY_I8);
  assert_int_equal(a.shape[0], 5);
  for (int i = 0; i < 5; i++)
    assert_int_equal(((int8_t *)a.data)[i], (i - 2) * 50);
  npy_free(&a);

  read_data_file("u8_2x2x2.npy", &a);
  assert_int_equal(a.dtype, NPY_U8);
  assert_int_equal(a.ndim, 3);
  for (int i = 0; i < 8; i++)
    assert_int_equal(((uint8_t *)a.data)[i], (uint8_t)(i * 33));
  npy_free(&a);

  read_data_file("i16_4.npy", &a);
  assert_int_equal(a.dtype, NPY_I16);
  assert_int_equal(((int16_t *)a.data)[0], -32768);
  assert_int_equal(((int16_t *)a.data)[3], 32767);
  npy_free(&a);

  read_data_file("i32_3x1.npy", &a);
  assert_int_equal(a.dtype, NPY_I32);
  assert_int_equal(a.shape[0], 3);
  assert_int_equal(a.shape[1], 1);
  assert_int_equal(((int32_t *)a.data)[0], -100000);
  assert_int_equal(((int32_t *)a.data)[2], 2147483647);
  npy_free(&a);

  read_data_file("i64_2.npy", &a);
  assert_int_equal(a.dtype, NPY_I64);
  assert_true(((int64_t *)a.data)[0] == -(INT64_C(1) << 62));
  assert_true(((int64_t *)a.data)[1] == (INT64_C(1) << 40) + 7);
  npy_free(&a);

  read_data_file("bool_4.npy", &a);
  assert_int_equal(a.dtype, NPY_BOOL);
  assert_memory_equal(a.data, "\1\0\0\1", 4);
  npy_free(&a);
}

static void test_numpy_shapes(void **state) {
  (void)state;
  npy_array a;
  read_data_file("f32_empty_0x3.npy", &a);
  assert_int_equal(a.ndim, 2);
  assert_int_equal(a.shape[0], 0);
  assert_int_equal(a.shape[1], 3);
  assert_int_equal(a.nbytes, 0);
  assert_non_null(a.data);
  npy_free(&a);

  read_data_file("f32_8d.npy", &a);
  assert_int_equal(a.ndim, 8);
  assert_int_equal(a.shape[6], 2);
  assert_int_equal(a.shape[7], 3);
  assert_true(((float *)a.data)[5] == 5.0f);
  npy_free(&a);
}

static void test_numpy_fortran_order_is_transposed(void **state) {
  (void)state;
  npy_array a;
  read_data_file("f32_fortran_3x4.npy", &a);
  assert_int_equal(a.shape[0], 3);
  assert_int_equal(a.shape[1], 4);
  for (int i = 0; i < 12; i++) assert_true(((float *)a.data)[i] == (float)i);
  npy_free(&a);
}

static void test_fortran_order_3d(void **state) {
  (void)state;
  /* 2x2x2 int32 in Fortran order; element (i,j,k) sits at i + 2j + 4k. The
   * expected C order was checked with numpy.load on the same bytes. */
  image im;
  make_image(&im, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': "
             "(2, 2, 2), }", 0);
  memcpy(im.bytes + im.len, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", 32);
  im.len += 32;
  npy_array a;
  char err[256];
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  assert_memory_equal(a.data, "ABCDQRSTIJKLYZ01EFGHUVWXMNOP2345", 32);
  npy_free(&a);
}

static void test_numpy_big_endian_rejected(void **state) {
  (void)state;
  char path[512], err[256];
  npy_array a;
  snprintf(path, sizeof path, "%s/f32_bigendian.npy", NPY_DATA_DIR);
  assert_int_equal(npy_read(path, &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "big-endian"));
  assert_non_null(strstr(err, "f32_bigendian.npy")); /* names the file */
}

/* ---- malformed input ----------------------------------------------------- */

#define GOOD_HDR "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n"

static void test_good_image_parses(void **state) {
  (void)state;
  image im;
  make_image(&im, 1, GOOD_HDR, 24);
  npy_array a;
  char err[256];
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  npy_free(&a);
  /* other spellings NumPy and Python 2 wrote */
  make_image(&im, 1, "{\"shape\":(2L,3L),\"fortran_order\":False,"
             "\"descr\":\"<f4\"}", 24);
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  npy_free(&a);
  make_image(&im, 2, GOOD_HDR, 24);
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  npy_free(&a);
  /* a lone 0, and "00" (Python reads both as 0): an empty array */
  make_image(&im, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 00,"
             " 3)}", 0);
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  assert_int_equal(a.ndim, 3);
  assert_int_equal(a.shape[0] + a.shape[1], 0);
  npy_free(&a);
  /* NULL err is allowed */
  assert_int_equal(npy_parse(im.bytes, 3, &a, NULL, 0), -1);
}

static void test_every_truncation_fails(void **state) {
  (void)state;
  image im;
  make_image(&im, 1, GOOD_HDR, 24);
  for (size_t n = 0; n < im.len; n++) {
    /* a fresh heap copy of exactly n bytes, so ASan sees any over-read */
    uint8_t *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    memcpy(copy, im.bytes, n);
    npy_array a;
    char err[256];
    assert_int_equal(npy_parse(copy, n, &a, err, sizeof err), -1);
    assert_true(err[0] != '\0');
    free(copy);
  }
  image tail;
  make_image(&tail, 1, GOOD_HDR, 20);
  expect_error(&tail, "truncated");
  make_image(&tail, 1, GOOD_HDR, 0);
  expect_error(&tail, "size mismatch");
  /* header length pointing past the end */
  make_image(&tail, 1, GOOD_HDR, 24);
  tail.bytes[9] = 0x40;
  expect_error(&tail, "truncated");
}

static void test_bad_magic_and_version(void **state) {
  (void)state;
  image im;
  make_image(&im, 1, GOOD_HDR, 24);
  im.bytes[1] = 'X';
  expect_error(&im, "bad magic");
  make_image(&im, 4, GOOD_HDR, 24);
  expect_error(&im, "version 4.0");
  make_image(&im, 1, GOOD_HDR, 24);
  im.bytes[7] = 1;
  expect_error(&im, "version 1.1");
  make_image(&im, 0, GOOD_HDR, 24);
  expect_error(&im, "version 0.0");
  static const uint8_t text[] = "hello, world, this is not numpy";
  npy_array a;
  char err[256];
  assert_int_equal(npy_parse(text, sizeof text, &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "bad magic"));
}

static void test_bad_dict(void **state) {
  (void)state;
  expect_header_error("", 24, "expected '{'");
  expect_header_error("'descr': '<f4'}", 24, "expected '{'");
  expect_header_error("{'descr': '<f4', 'fortran_order': False}", 24,
                      "missing 'shape'");
  expect_header_error("{'shape': (2, 3), 'fortran_order': False}", 24,
                      "missing 'descr'");
  expect_header_error("{'shape': (2, 3), 'descr': '<f4'}", 24,
                      "missing 'fortran_order'");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2, "
                      "3), 'extra': 1}", 24, "unknown key 'extra'");
  expect_header_error("{'descr': '<f4', 'descr': '<f4', 'fortran_order': "
                      "False, 'shape': (2, 3)}", 24, "duplicate key 'descr'");
  expect_header_error("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, "
                      "3)}", 24, "True or False");
  expect_header_error("{'descr': '<f4' 'fortran_order': False, 'shape': (2, "
                      "3)}", 24, "',' or '}'");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2, "
                      "3)} junk", 24, "only padding");
  expect_header_error("{'descr: '<f4'}", 24, "expected ':'");
  expect_header_error("{'descr': '<f4", 24, "unterminated");
  expect_header_error("{descr: '<f4'}", 24, "quoted key");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2, "
                      "3)", 24, "',' or '}'");
  expect_header_error("{'de\x01scr': '<f4'}", 24, "byte 0x01");
}

static void test_bad_descr(void **state) {
  (void)state;
  expect_header_error("{'descr': '<c8', 'fortran_order': False, 'shape': (3,)}",
                      24, "unsupported dtype '<c8'");
  expect_header_error("{'descr': '>i4', 'fortran_order': False, 'shape': (6,)}",
                      24, "big-endian");
  expect_header_error("{'descr': [('a', '<f4')], 'fortran_order': False, "
                      "'shape': (6,)}", 24, "structured");
  expect_header_error("{'descr': 4, 'fortran_order': False, 'shape': (6,)}",
                      24, "dtype string");
  expect_header_error("{'descr': '<f4aaaaaaaaaaaaaaaaaaaaaaa', "
                      "'fortran_order': False, 'shape': (6,)}", 24, "too long");
  /* byte order does not matter for one-byte types */
  image im;
  make_image(&im, 1, "{'descr': '>u1', 'fortran_order': False, 'shape': (3,)}",
             3);
  npy_array a;
  char err[256];
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  assert_int_equal(a.dtype, NPY_U8);
  npy_free(&a);
}

static void test_bad_shape(void **state) {
  (void)state;
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, "
                      "3)}", 24, "negative dimension");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (6)}",
                      24, "not a tuple");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': [2, "
                      "3]}", 24, "'(' starting the shape");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,"
                      ")}", 24, "',' or ')'");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)"
                      "}", 24, "',' or ')'");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2,,"
                      "3)}", 24, "dimension");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(1,1,1,1,1,1,1,1,6)}", 24, "more than 8 dimensions");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(99999999999999999999,)}", 24, "does not fit");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (7,)}",
                      24, "size mismatch");
  /* numpy refuses leading zeros (Python literals): they used to read as 8 */
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1,0"
                      "8, 8)}", 24, "dimension '08' at offset 56 has a leading "
                      "zero (numpy refuses it)");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (006,"
                      ")}", 24, "dimension '006' at offset 51 has a leading zero");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 0"
                      "3L)}", 24, "dimension '03' at offset 55 has a leading zero");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}",
                      24, "trailing bytes");
}

static void test_huge_shapes(void **state) {
  (void)state;
  /* overflow of the element count, of count * itemsize, and a large but
   * representable size that the data does not back (must not allocate it) */
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(4294967296, 4294967296, 2)}", 24, "overflows");
  expect_header_error("{'descr': '<f8', 'fortran_order': False, 'shape': "
                      "(4611686018427387904,)}", 24, "overflows");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(9223372036854775807, 9223372036854775807)}", 24,
                      "overflows");
  expect_header_error("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(1000000000, 1000)}", 24, "size mismatch");
  /* a zero dimension makes the array empty however large the others are */
  image im;
  make_image(&im, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': "
             "(9223372036854775807, 0, 9223372036854775807)}", 0);
  npy_array a;
  char err[256];
  assert_int_equal(npy_parse(im.bytes, im.len, &a, err, sizeof err), 0);
  assert_int_equal(a.nbytes, 0);
  npy_free(&a);
}

static void test_read_errors_name_the_file(void **state) {
  (void)state;
  npy_array a;
  char err[256];
  assert_int_equal(npy_read("/nonexistent/file.npy", &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "/nonexistent/file.npy"));
  assert_non_null(strstr(err, "cannot open"));
  assert_int_equal(npy_read(tmpdir, &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "not a regular file"));

  char path[128];
  snprintf(path, sizeof path, "%s/fifo.npy", tmpdir);
  assert_int_equal(mkfifo(path, 0600), 0);
  assert_int_equal(npy_read(path, &a, err, sizeof err), -1); /* no hang */
  assert_non_null(strstr(err, "not a regular file"));
  unlink(path);

  snprintf(path, sizeof path, "%s/empty.npy", tmpdir);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fclose(f);
  assert_int_equal(npy_read(path, &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "empty.npy"));
  assert_non_null(strstr(err, "truncated"));
  unlink(path);

  npy_free(NULL);
  npy_array z = {0};
  npy_free(&z);
}

static void test_dtype_helpers(void **state) {
  (void)state;
  assert_int_equal(npy_dtype_size(NPY_F32), 4);
  assert_int_equal(npy_dtype_size(NPY_F64), 8);
  assert_int_equal(npy_dtype_size(NPY_I8), 1);
  assert_int_equal(npy_dtype_size(NPY_U8), 1);
  assert_int_equal(npy_dtype_size(NPY_I16), 2);
  assert_int_equal(npy_dtype_size(NPY_I32), 4);
  assert_int_equal(npy_dtype_size(NPY_I64), 8);
  assert_int_equal(npy_dtype_size(NPY_BOOL), 1);
  assert_int_equal(npy_dtype_size(NPY_U16), 2);
  assert_int_equal(npy_dtype_size(NPY_U32), 4);
  assert_int_equal(npy_dtype_size(NPY_U64), 8);
  assert_int_equal(npy_dtype_size((npy_dtype)42), 0);
  assert_string_equal(npy_dtype_name(NPY_I16), "int16");
  assert_string_equal(npy_dtype_name(NPY_U32), "uint32");
  assert_string_equal(npy_dtype_name((npy_dtype)42), "?");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_round_trip_every_dtype),
    cmocka_unit_test(test_round_trip_shapes),
    cmocka_unit_test(test_write_replaces_existing),
    cmocka_unit_test(test_write_rejects_bad_arrays),
    cmocka_unit_test(test_numpy_f32),
    cmocka_unit_test(test_numpy_scalar_and_ints),
    cmocka_unit_test(test_numpy_shapes),
    cmocka_unit_test(test_numpy_fortran_order_is_transposed),
    cmocka_unit_test(test_fortran_order_3d),
    cmocka_unit_test(test_numpy_big_endian_rejected),
    cmocka_unit_test(test_good_image_parses),
    cmocka_unit_test(test_every_truncation_fails),
    cmocka_unit_test(test_bad_magic_and_version),
    cmocka_unit_test(test_bad_dict),
    cmocka_unit_test(test_bad_descr),
    cmocka_unit_test(test_bad_shape),
    cmocka_unit_test(test_huge_shapes),
    cmocka_unit_test(test_read_errors_name_the_file),
    cmocka_unit_test(test_dtype_helpers),
  };
  return cmocka_run_group_tests_name("npy", tests, make_tmpdir, remove_tmpdir);
}
