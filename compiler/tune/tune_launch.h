/* tune_launch: rounds of independent tasks on GNU parallel or Slurm
 * (docs/tuning.md, "Running on a cluster").
 *
 * A round is a folder on a file system every node sees, holding
 * tasks.txt (one shell command per line, absolute paths) and task.sh,
 * which runs line I+1 and leaves tNNNNN.started, tNNNNN.out (the
 * command's output) and tNNNNN.rc (its exit status, written last, by a
 * rename).  One `parallel` process (a child, in its own process group) or
 * one `sbatch --array` job runs the round; tune_round_next returns tasks
 * as their .rc files appear.  A task that leaves the queue without one
 * (cancelled, timed out, its node lost) ends too, with the state Slurm
 * gives it; nothing of a round is fatal.  The folder is kept: it is what
 * `--fold` reads back. */
#ifndef TESSEL_TUNE_LAUNCH_H
#define TESSEL_TUNE_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

#include "diag.h"

enum { TUNE_LAUNCH_LOCAL, TUNE_LAUNCH_PARALLEL, TUNE_LAUNCH_SLURM };
enum { TUNE_LAUNCH_MAX_SBATCH = 16, TUNE_LAUNCH_PATH = 512 };

typedef struct tune_launcher {
  int kind;                      /* TUNE_LAUNCH_* */
  const char *sshlogin;          /* parallel: its --sshlogin list (NULL: this host) */
  int jobs;                      /* parallel: tasks at once per login (0: parallel's default) */
  const char *partition;         /* slurm: --partition (NULL: the default one) */
  const char *time_limit;        /* slurm: --time per task (NULL: the partition's) */
  const char *sbatch_opt[TUNE_LAUNCH_MAX_SBATCH]; /* slurm: more sbatch options, as given */
  int n_sbatch_opt;
  double timeout;                /* seconds per task (timeout(1) in task.sh; 0: none) */
  char tool[TUNE_LAUNCH_PATH];   /* parallel's or sbatch's path (tune_launch_check) */
} tune_launcher;

/* The launcher options every command that launches takes; ids base+0..4,
 * in the order of tune_launch_opt's k. */
#define TUNE_LAUNCH_OPTIONS(base)                                                                                \
  {(base) + 0, "--launcher", NULL, 1, CLI_OPT_ONCE}, {(base) + 1, "--sshlogin", NULL, 1, CLI_OPT_ONCE},        \
      {(base) + 2, "--partition", NULL, 1, CLI_OPT_ONCE}, {(base) + 3, "--time-limit", NULL, 1, CLI_OPT_ONCE}, \
      {(base) + 4, "--sbatch-opt", NULL, 1, CLI_OPT_LIST}
enum { TUNE_LAUNCH_NOPTS = 5 };

/* Option k of TUNE_LAUNCH_OPTIONS with value v into l.  0, or -1 with d
 * filled (an unknown launcher, too many --sbatch-opt). */
int tune_launch_opt(tune_launcher *l, int k, const char *v, diag *d);

/* After the command line: the options fit the launcher (--sshlogin is for
 * parallel, --partition and the others for slurm), a remote launcher has a
 * work folder, and its tool is on PATH.  0, or -1 with d filled. */
int tune_launch_check(tune_launcher *l, const char *workdir, diag *d);

const char *tune_launch_name(int kind);

/* What became of a task. */
enum { TUNE_TASK_QUEUED, TUNE_TASK_RUNNING, TUNE_TASK_DONE, TUNE_TASK_FAILED };

typedef struct tune_round {
  const tune_launcher *l;
  char dir[TUNE_LAUNCH_PATH];
  int n;
  unsigned char *state;   /* per task: TUNE_TASK_* */
  unsigned char *told;    /* per task: returned by tune_round_next */
  double *gone;           /* per task: when the queue lost it without an .rc (0: not yet) */
  pid_t child;            /* parallel (or sbatch while it submits); 0 after it ended */
  int child_status;
  char jobid[32];         /* slurm: the array's job id */
  double last_queue;      /* when squeue was last asked */
  int left;               /* tasks not returned yet */
} tune_round;

/* Writes dir/tasks.txt (cmds[0..n-1]) and dir/task.sh and submits them.
 * 0, or -1 with d filled (nothing runs then). */
int tune_round_start(tune_round *r, const tune_launcher *l, const char *dir, char *const *cmds, int n, diag *d);

/* The next task that ended, or -1 when none has yet (block: wait for one)
 * and -2 when every task was returned.  *exit_code: the command's status
 * (0 ok, 124 killed by the timeout, 128+N a signal), or -1 when it left no
 * status; why: then what the launcher says of it. */
int tune_round_next(tune_round *r, int block, int *exit_code, char *why, size_t n_why);

/* Tasks of the round by TUNE_TASK_*. */
void tune_round_counts(const tune_round *r, int count[4]);

/* Path of task i's file with suffix (".out", ".rc", ...) in buf. */
void tune_round_file(const tune_round *r, int i, const char *suffix, char *buf, size_t n);

/* Cancels what still runs (scancel / stops parallel) and frees. */
void tune_round_cancel(tune_round *r);
void tune_round_free(tune_round *r);

/* A value quoted for sh into buf ('...'). -1 when it does not fit. */
int tune_shell_quote(const char *s, char *buf, size_t n);

#endif
