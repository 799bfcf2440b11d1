/* compare_cli: `tessel compare A B [--labels L.npy] [--atol X] [--steps N]
 * [--rtol R] [--int-atol X]`: tensor by
 * tensor comparison of .npy files or of folders of them (matched by file
 * name), e.g. the outputs or dumps of two engines, of an engine and the int8
 * reference, or of the int8 and the float reference (docs/runtime.md,
 * "Finding where results differ").
 *
 * Per tensor: elements, how many are identical, largest and mean absolute
 * difference, signal-to-noise ratio of B against A, and for [N, C] results
 * the top-1 agreement of the rows (and with --labels, each side's accuracy).
 * Exit 0 when every tensor matches (bit for bit, or within the tolerance),
 * 4 when one differs, 1 on unreadable or mismatched files, 2 on usage errors.
 *
 * The tolerance of element i (A the expected side): for float tensors
 *   |b - a| <= atol + steps * (max(A) - min(A)) / 255 + rtol * |a|
 * (steps: int8 quantisation steps of A's range, the error an int8 engine may
 * make), for integer and bool tensors |b - a| <= int-atol (default atol).
 * Equal infinities and two NaNs match under a tolerance. */
#include "compare_cli.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_opts.h"
#include "npy.h"

enum { COMPARE_DIFFER = 4, COMPARE_MAX_FILES = 4096 };

static const char *const usage_compare =
    "usage: tessel compare A B [--labels L.npy] [--atol X] [--steps N] [--rtol R] [--int-atol X]\n"
    "Compares two .npy files, or every .npy file two folders share (by name): identical elements,\n"
    "largest and mean absolute difference, SNR of B against A, and for [N, C] results the top-1\n"
    "agreement of the rows (with --labels, the accuracy of each side).\n"
    "Exit 0 if every tensor matches (bit for bit, or within the tolerance), 4 if one differs, 1 on bad files.\n"
    "Tolerance of an element a of A (any of the options turns it on; each defaults to 0):\n"
    "  float tensors      |b-a| <= atol + steps * (max(A)-min(A))/255 + rtol * |a|\n"
    "  integer and bool   |b-a| <= int-atol (default: atol)\n";

typedef struct {
  const char *labels;
  double atol, steps, rtol, int_atol;
  int has_tol, has_int_atol;
} compare_opts;


static size_t count(const npy_array *a) { return a->nbytes / npy_dtype_size(a->dtype); }

/* Row r's argmax of an [N, C...] array viewed as N rows. */
static size_t row_argmax(const npy_array *a, size_t r, size_t c) {
  size_t best = 0;
  for (size_t k = 1; k < c; k++)
    if (npy_elem(a, r * c + k) > npy_elem(a, r * c + best)) best = k;
  return best;
}

/* Compares one pair; prints one line (and an accuracy line). Returns 0
 * same, 1 differ, -1 bad input. */
/* "[1,1,8,8]": the shape as the message names it. */
static void shape_text(const npy_array *a, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < a->ndim && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)a->shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

/* The tolerance's part that depends on the tensor: steps of A's finite range. */
static double steps_tol(const npy_array *a, size_t n, double steps) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n && steps > 0; i++) {
    double x = npy_elem(a, i);
    if (isfinite(x)) lo = x < lo ? x : lo, hi = x > hi ? x : hi;
  }
  return hi > lo ? steps * (hi - lo) / 255 : 0;
}

static int compare_pair(const char *name, const char *pa, const char *pb, const compare_opts *o,
                        const npy_array *labels) {
  npy_array a = {0}, b = {0};
  char err[512];
  int rc = -1;
  if (npy_read(pa, &a, err, sizeof err) || npy_read(pb, &b, err, sizeof err)) {
    fprintf(stderr, "tessel compare: %s\n", err);
    goto out;
  }
  int same_shape = a.ndim == b.ndim;
  for (int i = 0; same_shape && i < a.ndim; i++) same_shape = a.shape[i] == b.shape[i];
  if (!same_shape) {
    char sa[160], sb[160];
    shape_text(&a, sa, sizeof sa);
    shape_text(&b, sb, sizeof sb);
    fprintf(stderr, "tessel compare: %s: the shapes differ (%s and %s)\n", name, sa, sb);
    goto out;
  }
  size_t n = count(&a), ident = 0, outside = 0, worst = 0;
  double maxd = 0, sumd = 0, sig = 0, noise = 0, worst_excess = -1;
  int is_float = a.dtype == NPY_F32 || a.dtype == NPY_F64;
  double base = is_float ? o->atol + steps_tol(&a, n, o->steps) : o->has_int_atol ? o->int_atol : o->atol;
  int bitwise = a.dtype == b.dtype;
  size_t es = npy_dtype_size(a.dtype);
  for (size_t i = 0; i < n; i++) {
    double x = npy_elem(&a, i), y = npy_elem(&b, i), dd = x == y ? 0 : fabs(x - y); /* equal infinities: 0 */
    if (x != x && y != y) { /* NaN on both sides: no difference to add up, a match under a tolerance */
      if (bitwise && !memcmp((uint8_t *)a.data + i * es, (uint8_t *)b.data + i * es, es)) ident++;
      continue;
    }
    if (bitwise ? !memcmp((uint8_t *)a.data + i * es, (uint8_t *)b.data + i * es, es) : x == y) ident++;
    if (dd > maxd || dd != dd) maxd = dd != dd ? INFINITY : dd;
    sumd += dd;
    sig += x * x, noise += (x - y) * (x - y);
    double tol = base + (is_float ? o->rtol * fabs(x) : 0), excess = dd != dd ? INFINITY : dd - tol;
    if (o->has_tol && x != y && !(dd <= tol)) {
      if (excess > worst_excess) worst_excess = excess, worst = i;
      outside++;
    }
  }
  double snr = noise == 0 ? INFINITY : 10 * log10(sig / noise);
  printf("%-32s %-8s %-8s %10zu %10zu %12.6g %12.6g %9.2f", name, npy_dtype_name(a.dtype), npy_dtype_name(b.dtype),
         n, ident, maxd, n ? sumd / (double)n : 0.0, snr);
  if (a.ndim >= 2 && a.shape[0] > 1) {
    size_t rows = (size_t)a.shape[0], c = n / rows, agree = 0, ca = 0, cb = 0, bad_label = 0;
    for (size_t r = 0; labels && count(labels) == rows && r < rows; r++) bad_label += npy_elem(labels, r) >= (double)c;
    for (size_t r = 0; r < rows; r++) {
      size_t ma = row_argmax(&a, r, c), mb = row_argmax(&b, r, c);
      agree += ma == mb;
      if (labels && count(labels) == rows) {
        ca += (double)ma == npy_elem(labels, r);
        cb += (double)mb == npy_elem(labels, r);
      }
    }
    printf("  top-1 agree %zu/%zu (%.2f%%)", agree, rows, 100.0 * (double)agree / (double)rows);
    if (labels && count(labels) == rows && bad_label)
      printf("  (labels: %zu of them not below the %zu classes, ignored)", bad_label, c);
    else if (labels && count(labels) == rows)
      printf("  accuracy A %.2f%% B %.2f%%", 100.0 * (double)ca / (double)rows, 100.0 * (double)cb / (double)rows);
    else if (labels)
      printf("  (labels: %zu entries for %zu rows, ignored)", count(labels), rows);
  }
  if (outside)
    printf("  %zu outside the tolerance (worst: element %zu, %.9g and %.9g)", outside, worst, npy_elem(&a, worst),
           npy_elem(&b, worst));
  printf("\n");
  rc = o->has_tol ? outside != 0 : ident != n;
out:
  npy_free(&a);
  npy_free(&b);
  return rc;
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The .npy file names in folder p, sorted; NULL-terminated, malloc'd. */
static char **list_npy(const char *p, size_t *n) {
  DIR *d = opendir(p);
  char **v = calloc(COMPARE_MAX_FILES + 1, sizeof *v);
  *n = 0;
  struct dirent *e;
  while (d && v && (e = readdir(d)) && *n < COMPARE_MAX_FILES) {
    size_t l = strlen(e->d_name);
    if (l > 4 && !strcmp(e->d_name + l - 4, ".npy")) v[(*n)++] = strdup(e->d_name);
  }
  if (d) closedir(d);
  if (v) qsort(v, *n, sizeof *v, by_name);
  return v;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; v && i < n; i++) free(v[i]);
  free(v);
}

enum { CMP_OPT_LABELS = 1, CMP_OPT_ATOL, CMP_OPT_STEPS, CMP_OPT_RTOL, CMP_OPT_INT_ATOL };

static const cli_opt compare_options[] = {
    {CMP_OPT_LABELS, "--labels", NULL, 1, CLI_OPT_ONCE},
    {CMP_OPT_ATOL, "--atol", NULL, 1, CLI_OPT_ONCE},
    {CMP_OPT_STEPS, "--steps", NULL, 1, CLI_OPT_ONCE},
    {CMP_OPT_RTOL, "--rtol", NULL, 1, CLI_OPT_ONCE},
    {CMP_OPT_INT_ATOL, "--int-atol", NULL, 1, CLI_OPT_ONCE},
    {0},
};

/* A tolerance option's value: a number >= 0 (the option's name in the
 * message). 0, or CLI_USAGE after printing it. */
static int tol_value(const cli_opts *p, double *x) {
  char *end;
  *x = strtod(p->value, &end);
  if (*end || end == p->value || !(*x >= 0) || !isfinite(*x)) {
    fprintf(stderr, "tessel compare: %s '%s': expected a number >= 0\n%s", p->opt->name, p->value, usage_compare);
    return CLI_USAGE;
  }
  return 0;
}

int compare_main(int argc, char **argv) {
  compare_opts o = {0};
  const char *pa = NULL, *pb = NULL;
  cli_opts p;
  cli_opts_init(&p, "compare", compare_options, argc, argv, 1);
  for (int id; (id = cli_opts_next(&p)) != CLI_OPTS_END;) {
    const char *v = p.value;
    switch (id) {
    case CLI_OPTS_HELP: fputs(usage_compare, stdout); return CLI_OK;
    case CLI_OPTS_ERROR: return cli_opts_fail(&p, usage_compare);
    case CMP_OPT_LABELS: o.labels = v; break;
    case CMP_OPT_ATOL:
    case CMP_OPT_STEPS:
    case CMP_OPT_RTOL:
    case CMP_OPT_INT_ATOL: {
      double *x = id == CMP_OPT_ATOL ? &o.atol : id == CMP_OPT_STEPS ? &o.steps : id == CMP_OPT_RTOL ? &o.rtol : &o.int_atol;
      if (tol_value(&p, x)) return CLI_USAGE;
      o.has_tol = 1, o.has_int_atol |= id == CMP_OPT_INT_ATOL;
      break;
    }
    case CLI_OPTS_ARG:
      if (pb) {
        fprintf(stderr, "tessel compare: more than two paths ('%s')\n%s", v, usage_compare);
        return CLI_USAGE;
      }
      *(pa ? &pb : &pa) = v;
      break;
    default: TSL_ASSERT(!"an option without a case");
    }
  }
  if (!pb) {
    fprintf(stderr, "tessel compare: give two .npy files or two folders\n%s", usage_compare);
    return CLI_USAGE;
  }
  npy_array labels = {0};
  char err[512];
  if (o.labels && npy_read(o.labels, &labels, err, sizeof err)) {
    fprintf(stderr, "tessel compare: %s\n", err);
    return CLI_BAD_INPUT;
  }
  /* Labels are class indices: -1, 99 of 10 classes or 1.5 only made the
   * accuracy silently wrong. */
  for (size_t i = 0; o.labels && i < count(&labels); i++) {
    double l = npy_elem(&labels, i);
    if (!(l >= 0 && l == floor(l) && l < 1e9)) {
      fprintf(stderr, "tessel compare: %s: element %zu is %g: labels are class indices (integers >= 0)\n", o.labels, i,
              l);
      npy_free(&labels);
      return CLI_BAD_INPUT;
    }
  }
  printf("%-32s %-8s %-8s %10s %10s %12s %12s %9s\n", "tensor", "A", "B", "elements", "identical", "max |diff|",
         "mean |diff|", "SNR dB");
  int bad = 0, differ = 0, matched = 0;
  if (is_dir(pa) != is_dir(pb)) {
    fprintf(stderr, "tessel compare: '%s' and '%s': one is a folder, the other not\n", pa, pb);
    bad = 1;
  } else if (!is_dir(pa)) {
    int r = compare_pair(strrchr(pa, '/') ? strrchr(pa, '/') + 1 : pa, pa, pb, &o, o.labels ? &labels : NULL);
    bad |= r < 0, differ |= r > 0, matched = 1;
  } else {
    size_t na, nb;
    char **la = list_npy(pa, &na), **lb = list_npy(pb, &nb);
    for (size_t i = 0; la && lb && i < na; i++) {
      if (!bsearch(&la[i], lb, nb, sizeof *lb, by_name)) {
        printf("%-32s only in %s\n", la[i], pa);
        continue;
      }
      char fa[4096], fb[4096];
      snprintf(fa, sizeof fa, "%s/%s", pa, la[i]);
      snprintf(fb, sizeof fb, "%s/%s", pb, la[i]);
      int r = compare_pair(la[i], fa, fb, &o, o.labels ? &labels : NULL);
      bad |= r < 0, differ |= r > 0, matched++;
    }
    for (size_t i = 0; la && lb && i < nb; i++)
      if (!bsearch(&lb[i], la, na, sizeof *la, by_name)) printf("%-32s only in %s\n", lb[i], pb);
    free_list(la, na);
    free_list(lb, nb);
    if (!matched && !bad) {
      fprintf(stderr, "tessel compare: '%s' and '%s' share no .npy file\n", pa, pb);
      bad = 1;
    }
  }
  npy_free(&labels);
  return bad ? CLI_BAD_INPUT : differ ? COMPARE_DIFFER : CLI_OK;
}
