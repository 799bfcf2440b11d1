# compiler/ir/ir.mk: The graph IR: values, nodes, constants; the textual IR printer and parser; the verifier.
# Library build/lib/libtessel-ir.a (compiler/rules.mk).

COMPILER_ir_SRCS := compiler/ir/ir.c compiler/ir/ir_print.c compiler/ir/ir_parse.c \
                    compiler/ir/ir_verify.c
