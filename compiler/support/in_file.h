/* in_file: open a file the user named as an input (a model, .tir, package,
 * profile, tuning log).
 *
 * Only a regular file is accepted: a folder gets "is a folder", anything
 * else (a FIFO, /dev/zero, a terminal) "not a regular file".  Without the
 * check a FIFO with no writer blocks in open() forever and /dev/zero is read
 * until the size limit, so the tool hangs instead of naming the problem. */
#ifndef TESSEL_IN_FILE_H
#define TESSEL_IN_FILE_H

#include <stdio.h>

#include "diag.h"

/* Opens PATH for reading ("rb").  Returns the stream (the caller fcloses
 * it), or NULL with d set to "PATH: cannot open: REASON", "PATH: is a
 * folder" or "PATH: not a regular file". */
FILE *in_file_open(const char *path, diag *d);

/* in_file_open, and also refuses a file larger than max_bytes before reading
 * any of it: "PATH: N bytes, larger than LIMIT: not WHAT" (reading a
 * multi-GiB file to find that out took seconds and its size in memory). */
FILE *in_file_open_max(const char *path, long long max_bytes, const char *what, diag *d);

#endif
