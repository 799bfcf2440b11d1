/* operators_cli: `tessel operators [--markdown]`, the ONNX operators the
 * importer reads, from its spec table (onnx_import.h): opset range, where
 * each runs, and its limits. --markdown prints docs/operators.md exactly. */
#ifndef TESSEL_OPERATORS_CLI_H
#define TESSEL_OPERATORS_CLI_H

/* argv[0] is "operators"; returns the exit code. */
int operators_main(int argc, char **argv);

#endif
