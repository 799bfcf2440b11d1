/* scratch: temporary folders, temporary output files and child processes
 * that must not outlive the command that made them.
 *
 * Everything made here is entered in one registry. The first entry installs
 * handlers for SIGINT, SIGTERM and SIGHUP and an atexit hook; on either,
 * every registered child's process group is stopped (SIGTERM, then SIGKILL
 * after SCRATCH_GRACE_MS) and reaped, every registered temporary file is
 * unlinked and every registered folder removed with what it holds; a
 * signal is then re-raised with its default action, so the command dies of
 * it as it would have (exit 128+N in a shell).  A SIGKILL of the command
 * cannot be caught: its children get SIGKILL then (PR_SET_PDEATHSIG), its
 * files stay.
 *
 * The registry is edited with the three signals blocked, so a signal never
 * sees half an entry.  Limits: SCRATCH_MAX_DIRS folders, SCRATCH_MAX_FILES
 * files, SCRATCH_MAX_CHILDREN children at once (a full registry is an
 * error with a message, never a silent leak). */
#ifndef TESSEL_SCRATCH_H
#define TESSEL_SCRATCH_H

#include <stddef.h>
#include <sys/types.h>

#include "diag.h"

enum {
  SCRATCH_MAX_DIRS = 8,
  SCRATCH_MAX_FILES = 16,
  SCRATCH_MAX_CHILDREN = 64,
  SCRATCH_PATH_MAX = 4096,
  SCRATCH_GRACE_MS = 2000, /* from SIGTERM to SIGKILL of a child's group */
};

/* Makes a new folder NAME-XXXXXX under $TMPDIR (/tmp when unset or empty)
 * into buf (cap bytes) and registers it.  Returns 0, or -1 with d set
 * ("cannot make a temporary folder in DIR: REASON"). */
int scratch_dir(char *buf, size_t cap, const char *name, diag *d);

/* Removes a folder made by scratch_dir with everything in it, and drops it
 * from the registry. */
void scratch_dir_remove(const char *path);

/* Makes a temporary file from the mkstemp template tmpl (modified in
 * place) and registers it.  Returns its descriptor, or -1 with errno set. */
int scratch_mkstemp(char *tmpl);

/* Drops a file from the registry (it was renamed or removed). */
void scratch_file_forget(const char *path);

/* Starts argv[0] (a path) with argv, stdin from /dev/null, stdout on
 * out_fd and stderr on err_fd (-1: this process's stderr for stdout, its
 * own stderr for stderr), in a process group of its own, and registers
 * it.  Returns the pid (also the group's id), or -1 with d set ("cannot
 * start PATH: REASON"). */
pid_t scratch_spawn(char *const argv[], int out_fd, int err_fd, diag *d);

/* waitpid on a child of scratch_spawn (retrying on EINTR); once it is
 * reaped, drops it from the registry.  Returns what waitpid returns: the
 * pid with *status set, 0 (WNOHANG, still running), or -1 with errno. */
int scratch_wait(pid_t pid, int *status, int options);

/* Stops a child of scratch_spawn and its group (SIGTERM, SIGKILL after
 * grace_ms), reaps it into *status (may be NULL) and drops it. */
void scratch_stop(pid_t pid, int grace_ms, int *status);

#endif
