# compiler/support/support.mk: Support: arena allocator, diagnostics, bounded input files, atomic output files, input samples (--calib/--input), NaN checks, tensor dumps.
# Library build/lib/libtessel-support.a (compiler/rules.mk).

COMPILER_support_SRCS := \
                         compiler/support/in_file.c compiler/support/out_file.c \
                         compiler/support/input_samples.c compiler/support/nonfinite.c \
                         compiler/support/tensor_dump.c
