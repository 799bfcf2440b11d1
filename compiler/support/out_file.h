/* out_file: write an output file (package, C array, IR, profile report) so
 * that a failure never leaves half a file that looks valid, and never
 * overwrites one of the command's own inputs.
 *
 * A regular file (or a new path) is written to a temporary file beside it
 * and renamed over PATH only once everything was written and flushed: on
 * any error PATH keeps what it held before.  Something that is not a
 * regular file (/dev/null, /dev/stdout, a pipe) is written in place, since
 * renaming over it would replace the device itself. */
#ifndef TESSEL_OUT_FILE_H
#define TESSEL_OUT_FILE_H

#include <stdio.h>

#include "diag.h"

typedef struct out_file {
  FILE *f;          /* write here between open and commit */
  const char *path; /* the file the user named (not owned) */
  char *tmp;        /* the temporary file, NULL when writing in place */
} out_file;

/* Opens PATH for writing.  Returns 0, or -1 with d set ("PATH: is a
 * folder", "PATH: cannot create: REASON"; an empty PATH is "an empty file
 * name"); nothing is created then. */
int out_file_open(out_file *o, const char *path, diag *d);

/* Flushes, checks every write, closes and renames the temporary file over
 * PATH.  Returns 0, or -1 with d set to "PATH: write failed: REASON"; the
 * temporary file is removed and PATH left as it was. */
int out_file_commit(out_file *o, diag *d);

/* Gives up: closes and removes the temporary file; PATH is untouched.
 * Safe on an out_file that failed to open or was already committed. */
void out_file_abort(out_file *o);

/* Writes LEN bytes to PATH through open/commit. */
int out_file_write(const char *path, const void *data, size_t len, diag *d);

/* Refuses to write OPT PATH over one of the command's inputs: returns -1
 * with d set to "OPT PATH: is also an input (WHAT): refusing to overwrite
 * it" when OUT and IN name the same existing file (same device and inode,
 * so other spellings of the path count too); 0 otherwise, also when either
 * is NULL or does not exist yet. */
int out_file_not_input(const char *opt, const char *out, const char *in, const char *what, diag *d);

#endif
