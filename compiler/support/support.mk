# compiler/support/support.mk: the compiler's input files (regular files only) and
# atomic output files, scratch folders and child processes cleaned up on every exit
# and signal, input samples (--calib/--input), NaN checks, tensor dumps.
# Library build/lib/libtessel-support.a (compiler/rules.mk).

COMPILER_support_SRCS := \
                         compiler/support/in_file.c compiler/support/out_file.c \
                         compiler/support/input_samples.c compiler/support/nonfinite.c \
                         compiler/support/tensor_dump.c compiler/support/scratch.c
