/* in_file: inputs must be regular files (see in_file.h); the opening is
 * shared/host_file.h's, shared with the simulator-side tools, the words are
 * the compiler's. */
#include "in_file.h"

#include <sys/stat.h>

#include "host_file.h"

FILE *in_file_open(const char *path, diag *d) {
  const char *why;
  FILE *f = host_file_open_in(path, &why);
  if (f) return f;
  if (why == host_file_is_dir) diag_set(d, "%s: is a folder", path);
  else if (why == host_file_not_regular) diag_set(d, "%s: not a regular file", path);
  else diag_set(d, "%s: cannot open: %s", path, why);
  return NULL;
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
