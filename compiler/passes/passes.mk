# compiler/passes/passes.mk: Graph passes, one file each, and the pipeline that runs them in order (--print-after, --verify-each).
# Library build/lib/libtessel-passes.a (compiler/rules.mk).

COMPILER_passes_SRCS := compiler/passes/passes.c compiler/passes/pipeline.c \
                        compiler/passes/shape_infer.c compiler/passes/dce.c \
                        compiler/passes/const_fold.c compiler/passes/remove_noops.c \
                        compiler/passes/bn_fold.c compiler/passes/fuse_act.c \
                        compiler/passes/hardsigmoid_fold.c
