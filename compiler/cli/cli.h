/* cli: the `tessel` command line (subcommands ir, opt, ref, compile).
 *
 * Exit codes: CLI_OK 0; CLI_BAD_INPUT 1 (model, IR or .npy rejected, with a
 * located message on stderr); CLI_USAGE 2 (bad command line);
 * CLI_UNSUPPORTED 3 (the model needs an operator that the importer does not
 * read, or that neither the NPU nor the firmware runs yet). */
#ifndef TESSEL_CLI_H
#define TESSEL_CLI_H

enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2, CLI_UNSUPPORTED = 3 };

/* TESSEL_VERSION comes from mk/common.mk (HOST_CFLAGS). */

/* Runs the command line argv[0..argc-1]; returns the exit code. */
int cli_main(int argc, char **argv);

#endif
