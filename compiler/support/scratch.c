/* scratch: the registry of temporary folders, files and children, and the
 * cleanup run on a signal or at exit (see scratch.h).
 *
 * The cleanup runs inside a signal handler, so it uses only calls that are
 * async-signal-safe (kill, waitpid, nanosleep, clock_gettime, unlinkat,
 * openat, close, the getdents64 system call) and no malloc: a folder is
 * emptied by listing it with getdents64 into a buffer on the stack. */
#define _GNU_SOURCE
#include "scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int scratch_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { SCRATCH_NSIG = sizeof scratch_signals / sizeof scratch_signals[0], SCRATCH_DEPTH = 8 };

static struct {
  char dirs[SCRATCH_MAX_DIRS][SCRATCH_PATH_MAX];   /* "" : free */
  char files[SCRATCH_MAX_FILES][SCRATCH_PATH_MAX]; /* "" : free */
  pid_t kids[SCRATCH_MAX_CHILDREN];                /* 0: free; else pid and process group */
  int installed;                                   /* handlers and atexit hook in place */
} reg;

/* ---- the registry's edits, with the signals blocked ---- */

static void block(sigset_t *old) {
  sigset_t s;
  sigemptyset(&s);
  for (int i = 0; i < SCRATCH_NSIG; i++) sigaddset(&s, scratch_signals[i]);
  sigprocmask(SIG_BLOCK, &s, old);
}

static void unblock(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

static int find_path(char (*tab)[SCRATCH_PATH_MAX], int n, const char *path) {
  for (int i = 0; i < n; i++)
    if (path ? !strcmp(tab[i], path) : !tab[i][0]) return i;
  return -1;
}

static int find_kid(pid_t pid) {
  for (int i = 0; i < SCRATCH_MAX_CHILDREN; i++)
    if (reg.kids[i] == pid) return i;
  return -1;
}

static void forget_kid(pid_t pid) {
  sigset_t old;
  block(&old);
  int i = find_kid(pid);
  if (i >= 0) reg.kids[i] = 0;
  unblock(&old);
}

/* ---- cleanup (async-signal-safe) ---- */

struct scratch_dirent64 { /* the kernel's linux_dirent64 */
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Removes NAME under the folder at_fd: a file, or a folder with what it
 * holds (SCRATCH_DEPTH levels deep; links are removed, not followed). */
static void rm_tree_at(int at_fd, const char *name, int depth) {
  if (unlinkat(at_fd, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  int fd = openat(at_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  /* Listing a folder while removing from it may skip entries: list again
   * from the start until a listing removes nothing. */
  for (int pass = 0, removed = 1; removed && pass < 64; pass++) {
    removed = 0;
    lseek(fd, 0, SEEK_SET);
    _Alignas(8) char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
      for (long off = 0; off < n;) {
        struct scratch_dirent64 *e = (struct scratch_dirent64 *)(buf + off);
        off += e->d_reclen;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (unlinkat(fd, e->d_name, 0) == 0) removed = 1;
        else if (depth < SCRATCH_DEPTH && (errno == EISDIR || errno == EPERM)) rm_tree_at(fd, e->d_name, depth + 1), removed = 1;
      }
    }
  }
  close(fd);
  unlinkat(at_fd, name, AT_REMOVEDIR);
}

static long ms_since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Stops and reaps the children listed in kids (n of them, 0 entries
 * skipped): SIGTERM to each group, SIGKILL to those left after grace_ms. */
static void stop_kids(pid_t *kids, int n, int grace_ms, int *status) {
  for (int i = 0; i < n; i++)
    if (kids[i]) kill(-kids[i], SIGTERM), kill(kids[i], SIGTERM);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int left = 1; left;) {
    left = 0;
    for (int i = 0; i < n; i++) {
      if (!kids[i]) continue;
      int st;
      pid_t r = waitpid(kids[i], &st, WNOHANG);
      if (r == kids[i] || (r < 0 && errno == ECHILD)) {
        if (status && r == kids[i]) *status = st;
        kids[i] = 0;
      } else {
        left = 1;
      }
    }
    if (left && ms_since(&t0) >= grace_ms) break;
    if (left) nanosleep(&(struct timespec){0, 5000000}, NULL); /* 5 ms */
  }
  for (int i = 0; i < n; i++) {
    if (!kids[i]) continue;
    int st;
    kill(-kids[i], SIGKILL), kill(kids[i], SIGKILL);
    while (waitpid(kids[i], &st, 0) < 0 && errno == EINTR) continue;
    if (status) *status = st;
    kids[i] = 0;
  }
}

static void cleanup(void) {
  stop_kids(reg.kids, SCRATCH_MAX_CHILDREN, SCRATCH_GRACE_MS, NULL);
  for (int i = 0; i < SCRATCH_MAX_FILES; i++)
    if (reg.files[i][0]) unlink(reg.files[i]), reg.files[i][0] = 0;
  for (int i = 0; i < SCRATCH_MAX_DIRS; i++)
    if (reg.dirs[i][0]) rm_tree_at(AT_FDCWD, reg.dirs[i], 0), reg.dirs[i][0] = 0;
}

/* The three signals: clean up, then die of the signal. */
static void on_signal(int sig) {
  cleanup();
  signal(sig, SIG_DFL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  raise(sig);
  _exit(128 + sig);
}

static void at_exit(void) {
  sigset_t old;
  block(&old);
  cleanup();
  unblock(&old);
}

/* Installs the handlers (leaving an ignored signal ignored: nohup) and the
 * atexit hook, once. */
static void install(void) {
  if (reg.installed) return;
  reg.installed = 1;
  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < SCRATCH_NSIG; i++) sigaddset(&sa.sa_mask, scratch_signals[i]);
  for (int i = 0; i < SCRATCH_NSIG; i++) {
    struct sigaction was;
    if (sigaction(scratch_signals[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN) continue;
    sigaction(scratch_signals[i], &sa, NULL);
  }
  atexit(at_exit);
}

/* ---- folders and files ---- */

int scratch_dir(char *buf, size_t cap, const char *name, diag *d) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  int n = snprintf(buf, cap, "%s/%s-XXXXXX", tmp, name);
  if (n < 0 || (size_t)n >= cap || (size_t)n >= SCRATCH_PATH_MAX)
    return diag_set(d, "cannot make a temporary folder in %s: path too long", tmp);
  install();
  sigset_t old;
  block(&old);
  int i = find_path(reg.dirs, SCRATCH_MAX_DIRS, NULL);
  int e = i < 0 ? EMFILE : 0;
  if (i >= 0 && !mkdtemp(buf)) e = errno;
  if (!e) memcpy(reg.dirs[i], buf, (size_t)n + 1);
  unblock(&old);
  if (e) return diag_set(d, "cannot make a temporary folder in %s: %s", tmp, strerror(e));
  return 0;
}

void scratch_dir_remove(const char *path) {
  sigset_t old;
  block(&old);
  rm_tree_at(AT_FDCWD, path, 0);
  int i = find_path(reg.dirs, SCRATCH_MAX_DIRS, path);
  if (i >= 0) reg.dirs[i][0] = 0;
  unblock(&old);
}

int scratch_mkstemp(char *tmpl) {
  size_t n = strlen(tmpl);
  if (n >= SCRATCH_PATH_MAX) return errno = ENAMETOOLONG, -1;
  install();
  sigset_t old;
  block(&old);
  int i = find_path(reg.files, SCRATCH_MAX_FILES, NULL);
  int fd = i < 0 ? (errno = EMFILE, -1) : mkostemp(tmpl, O_CLOEXEC);
  int e = errno;
  if (fd >= 0) memcpy(reg.files[i], tmpl, n + 1);
  unblock(&old);
  errno = e;
  return fd;
}

void scratch_file_forget(const char *path) {
  sigset_t old;
  block(&old);
  int i = find_path(reg.files, SCRATCH_MAX_FILES, path);
  if (i >= 0) reg.files[i][0] = 0;
  unblock(&old);
}

/* ---- children ---- */

pid_t scratch_spawn(char *const argv[], int out_fd, int err_fd, diag *d) {
  install();
  int pfd[2]; /* the child reports a failed exec's errno here */
  if (pipe2(pfd, O_CLOEXEC) != 0) return diag_set(d, "cannot start %s: %s", argv[0], strerror(errno));
  sigset_t old;
  block(&old);
  int slot = find_kid(0);
  if (slot < 0) {
    unblock(&old);
    close(pfd[0]), close(pfd[1]);
    return diag_set(d, "cannot start %s: more than %d child processes", argv[0], SCRATCH_MAX_CHILDREN);
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid == 0) {
    /* Own group (the cleanup stops it and its children together); dies
     * with the parent, even of SIGKILL; the parent's mask not inherited. */
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    for (int i = 0; i < SCRATCH_NSIG; i++) signal(scratch_signals[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = open("/dev/null", O_RDONLY);
    if (in >= 0 && in != 0) dup2(in, 0), close(in);
    dup2(out_fd >= 0 ? out_fd : 2, 1);
    if (err_fd >= 0) dup2(err_fd, 2);
    execv(argv[0], argv);
    int e = errno;
    if (write(pfd[1], &e, sizeof e) < 0) _exit(127);
    _exit(127);
  }
  int fork_errno = errno;
  if (pid > 0) {
    setpgid(pid, pid); /* here too: the group exists before anyone signals it */
    reg.kids[slot] = pid;
  }
  unblock(&old);
  close(pfd[1]);
  if (pid < 0) {
    close(pfd[0]);
    return diag_set(d, "cannot start %s: %s", argv[0], strerror(fork_errno));
  }
  int e = 0;
  ssize_t got;
  while ((got = read(pfd[0], &e, sizeof e)) < 0 && errno == EINTR) continue;
  close(pfd[0]);
  if (got == (ssize_t)sizeof e) {
    int st;
    scratch_wait(pid, &st, 0);
    return diag_set(d, "cannot start %s: %s", argv[0], strerror(e));
  }
  return pid;
}

int scratch_wait(pid_t pid, int *status, int options) {
  pid_t r;
  while ((r = waitpid(pid, status, options)) < 0 && errno == EINTR) continue;
  if (r == pid || (r < 0 && errno == ECHILD)) {
    int e = errno;
    forget_kid(pid);
    errno = e;
  }
  return r;
}

void scratch_stop(pid_t pid, int grace_ms, int *status) {
  pid_t one[1] = {pid};
  stop_kids(one, 1, grace_ms, status);
  forget_kid(pid);
}
