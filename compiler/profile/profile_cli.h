/* profile_cli: `tessel profile P.json [--format table|csv|json|chrome|svg]
 * [-o FILE] [--compare OTHER.json]`: reports a profile written by
 * `tessel run --profile` or `tessel-npu-model run --profile`
 * (docs/profiling.md). */
#ifndef TESSEL_PROFILE_CLI_H
#define TESSEL_PROFILE_CLI_H

/* The subcommand: argv[0] is "profile". Returns the exit code: 0 ok, 1 bad
 * profile (message naming the file and the problem), 2 bad command line. */
int profile_main(int argc, char **argv);

#endif
