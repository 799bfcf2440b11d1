/* run_cli: the `tessel run` subcommand (docs/runtime.md). */
#ifndef TESSEL_RUN_CLI_H
#define TESSEL_RUN_CLI_H

/* argv[0] is "run"; returns the exit code (CLI_OK, CLI_BAD_INPUT, CLI_USAGE). */
int run_main(int argc, char **argv);

#endif
