/* in_file: inputs must be regular files (see in_file.h). */
#include "in_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *in_file_open(const char *path, diag *d) {
  /* O_NONBLOCK so that opening a FIFO returns at once and fstat can reject
   * it; it is cleared again before any read. */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    diag_set(d, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int dir = S_ISDIR(st.st_mode);
    close(fd);
    diag_set(d, "%s: %s", path, dir ? "is a folder" : "not a regular file");
    return NULL;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    diag_set(d, "%s: cannot open: %s", path, strerror(errno));
    close(fd);
  }
  return f;
}

FILE *in_file_open_max(const char *path, long long max_bytes, const char *what, diag *d) {
  FILE *f = in_file_open(path, d);
  struct stat st;
  if (f && fstat(fileno(f), &st) == 0 && (long long)st.st_size > max_bytes) {
    fclose(f);
    diag_set(d, "%s: %lld bytes, larger than %lld: not %s", path, (long long)st.st_size, max_bytes, what);
    return NULL;
  }
  return f;
}
