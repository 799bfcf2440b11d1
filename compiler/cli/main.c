/* tessel: the compiler's command line.  Parses arguments, calls the library,
 * prints diagnostics; exit codes: 0 ok, 1 bad input (model, IR, .npy),
 * 2 bad command line, 3 an operator neither the NPU nor the firmware runs
 * (cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
