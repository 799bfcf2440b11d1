/* tune_cli: `tessel tune MODEL.onnx ...` (docs/tuning.md): parses the
 * command line into tune_opts and runs the tuner (compiler/tune/tune.h). */
#ifndef TESSEL_TUNE_CLI_H
#define TESSEL_TUNE_CLI_H

/* argv[0] is "tune".  Returns the exit status: 0, 1 (bad model, input or
 * log), 2 (bad command line). */
int tune_main(int argc, char **argv);

#endif
