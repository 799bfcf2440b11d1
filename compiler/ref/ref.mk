# compiler/ref/ref.mk: Reference executors on the host: float and int8 (integer semantics identical to the NPU).
# Library build/lib/libtessel-ref.a (compiler/rules.mk).

COMPILER_ref_SRCS := compiler/ref/core_op.c compiler/ref/ref_exec.c compiler/ref/ref_int8.c compiler/ref/ref_ops.c
