/* host_file: open the files a user names to the simulator-side tools
 * (tessel-sim, tessel-iss, tessel-npu-model, tsl-gen, tessel-flash-image,
 * the board bench) without ever blocking in open().
 *
 * Why: open() of a FIFO blocks until the other end is opened, so
 * `tessel-sim /tmp/fifo` or `--trace-commits /tmp/fifo` hung forever
 * instead of naming the problem.  Both helpers open with O_NONBLOCK (a
 * FIFO then opens at once, or fails with ENXIO when written with no
 * reader), check what was opened, and clear O_NONBLOCK again before any
 * read or write, so the stream behaves as fopen's would.
 *
 * Header only (static inline), so the C tools, the C++ harness, the
 * Verilator-built board bench and the host compiler (compiler/support/in_file.c,
 * which words its own messages) can all include it without a new object in
 * their build rules. */
#ifndef TESSEL_HOST_FILE_H
#define TESSEL_HOST_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The reasons host_file_open_in gives besides strerror's; a caller that
 * words its own message compares *why with them by address. */
static const char host_file_not_regular[] = "not a regular file (a FIFO, device or socket)";
static const char host_file_is_dir[] = "Is a directory";
static const char host_file_too_big[] = "larger than the limit";

/* Opens PATH to read ("rb").  Only a regular file is accepted: a FIFO,
 * device or socket would block or never end.  Returns the stream (the
 * caller fcloses it), or NULL with *why set to a static reason:
 * host_file_not_regular, host_file_is_dir, or strerror(errno) ("No such
 * file or directory", ...). */
static inline FILE *host_file_open_in(const char *path, const char **why) {
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    *why = strerror(errno);
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *why = strerror(errno);
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? host_file_is_dir : host_file_not_regular;
    close(fd);
    return NULL;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    *why = strerror(errno);
    close(fd);
  }
  return f;
}

/* Reads all of the regular file PATH (checked as host_file_open_in does)
 * into a malloc'd buffer of *len bytes (the caller frees it; an empty file
 * gives *len 0 and a 1-byte buffer).  A file of more than MAX bytes is
 * refused by its size before anything is read: NULL with *why set to
 * host_file_too_big and *len to the size.  Other failures: NULL with *why as
 * host_file_open_in gives it, or strerror(ENOMEM) / strerror(EIO) (also
 * when the file shrank while it was read). */
static inline unsigned char *host_file_read_all(const char *path, uint64_t max, size_t *len, const char **why) {
  FILE *f = host_file_open_in(path, why);
  if (!f) return NULL;
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    *why = strerror(errno);
    fclose(f);
    return NULL;
  }
  *len = (size_t)st.st_size;
  if ((uint64_t)st.st_size > max) {
    *why = host_file_too_big;
    fclose(f);
    return NULL;
  }
  unsigned char *buf = (unsigned char *)malloc(*len ? *len : 1);
  int bad = !buf || fread(buf, 1, *len, f) != *len || ferror(f);
  fclose(f);
  if (bad) {
    *why = strerror(buf ? EIO : ENOMEM);
    free(buf);
    return NULL;
  }
  return buf;
}

/* Opens PATH to write (created or truncated, as fopen "w" does; MODE is
 * "w" or "wb").  Devices (/dev/null, /dev/stdout) and a FIFO someone reads
 * are fine; a FIFO with no reader, which would block, is refused.
 * Returns the stream, or NULL with *why set to a static reason: "a FIFO
 * with no reader" or strerror(errno) ("Is a directory", ...). */
static inline FILE *host_file_open_out(const char *path, const char *mode, const char **why) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0666);
  if (fd < 0) {
    *why = errno == ENXIO ? "a FIFO with no reader" : strerror(errno);
    return NULL;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, mode);
  if (!f) {
    *why = strerror(errno);
    close(fd);
  }
  return f;
}

/* For writers that open PATH themselves (the FST tracer): 0 if PATH does
 * not exist or is a regular file, else -1 with *why set as above. */
static inline int host_file_check_out(const char *path, const char **why) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return 0;
  *why = S_ISDIR(st.st_mode) ? host_file_is_dir : host_file_not_regular;
  return -1;
}

#endif
