/* out_file: outputs written beside their target, then renamed (see out_file.h). */
#include "out_file.h"

#include "scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int out_file_open(out_file *o, const char *path, diag *d) {
  *o = (out_file){.path = path};
  if (!path || !*path) return diag_set(d, "an empty file name for an output");
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return diag_set(d, "%s: is a folder", path);
    o->f = fopen(path, "wb");
    if (!o->f) return diag_set(d, "%s: cannot create: %s", path, strerror(errno));
    return 0;
  }
  size_t n = strlen(path);
  o->tmp = malloc(n + sizeof ".tmpXXXXXX");
  if (!o->tmp) return diag_set(d, "%s: out of memory", path);
  memcpy(o->tmp, path, n);
  memcpy(o->tmp + n, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
  /* registered: a signal or an exit before commit removes it (scratch.h) */
  int fd = scratch_mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    return diag_set(d, "%s: cannot create: %s", path, strerror(e));
  }
  /* mkstemp makes 0600; outputs are files to share, as fopen would make
   * them (less the umask). */
  mode_t um = umask(0);
  umask(um);
  fchmod(fd, 0666 & ~um);
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    int e = errno;
    close(fd);
    out_file_abort(o);
    return diag_set(d, "%s: cannot create: %s", path, strerror(e));
  }
  return 0;
}

int out_file_commit(out_file *o, diag *d) {
  if (!o->f) return diag_set(d, "%s: not open", o->path);
  /* fflush first: on a stream whose buffered writes failed it retries the
   * write, so errno names the reason (ENOSPC) rather than a stale value. */
  errno = 0;
  int ok = fflush(o->f) == 0;
  int e = errno ? errno : EIO;
  ok = ok && !ferror(o->f);
  if (fclose(o->f) != 0 && ok) {
    ok = 0;
    e = errno;
  }
  o->f = NULL;
#ifdef TESSEL_TEST_BUILD
  /* Test hook: TESSEL_TEST_OUT_PAUSE=S sleeps S seconds with the temporary
   * file complete and not yet renamed, so a test can signal the command
   * then (tests/compiler/cli.sh). */
  const char *pause = getenv("TESSEL_TEST_OUT_PAUSE");
  if (ok && o->tmp && pause && *pause) sleep((unsigned)atoi(pause));
#endif
  if (ok && o->tmp && rename(o->tmp, o->path) != 0) {
    ok = 0;
    e = errno;
  }
  if (ok && o->tmp) scratch_file_forget(o->tmp);
  if (!ok) {
    out_file_abort(o);
    return diag_set(d, "%s: write failed: %s", o->path, strerror(e));
  }
  free(o->tmp);
  o->tmp = NULL;
  return 0;
}

void out_file_abort(out_file *o) {
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp) {
    unlink(o->tmp);
    scratch_file_forget(o->tmp);
    free(o->tmp);
  }
  o->tmp = NULL;
}

int out_file_write(const char *path, const void *data, size_t len, diag *d) {
  out_file o;
  if (out_file_open(&o, path, d)) return -1;
  if (len && fwrite(data, 1, len, o.f) != len) {
    int e = errno;
    out_file_abort(&o);
    return diag_set(d, "%s: write failed: %s", path, strerror(e));
  }
  return out_file_commit(&o, d);
}

int out_file_not_input(const char *opt, const char *out, const char *in, const char *what, diag *d) {
  struct stat so, si;
  if (!out || !in || stat(out, &so) != 0 || stat(in, &si) != 0) return 0;
  if (!S_ISREG(so.st_mode) || so.st_dev != si.st_dev || so.st_ino != si.st_ino) return 0;
  return diag_set(d, "%s %s: is also an input (%s): refusing to overwrite it", opt, out, what);
}
