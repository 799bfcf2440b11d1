/* compare_cli: the `tessel compare` subcommand (docs/runtime.md). */
#ifndef TESSEL_COMPARE_CLI_H
#define TESSEL_COMPARE_CLI_H

/* argv[0] is "compare"; returns 0 (all match), 4 (a tensor differs),
 * CLI_BAD_INPUT or CLI_USAGE. */
int compare_main(int argc, char **argv);

#endif
