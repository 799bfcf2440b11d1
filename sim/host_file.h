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
 * Verilator-built board bench and the host compiler (compiler/in_file.c,
 * which words its own messages) can all include it without a new object in
 * their build rules. */
#ifndef TESSEL_HOST_FILE_H
#define TESSEL_HOST_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The reasons host_file_open_in gives besides strerror's; a caller that
 * words its own message compares *why with them by address. */
static const char host_file_not_regular[] = "not a regular file (a FIFO, device or socket)";
static const char host_file_is_dir[] = "Is a directory";

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
