# compiler/import/import.mk: Front end: ONNX protobuf (protobuf-c bindings generated from onnx.proto) to the IR, per-operator import and checks.
# Library build/lib/libtessel-import.a (compiler/rules.mk).

COMPILER_import_SRCS := compiler/import/onnx_import.c compiler/import/onnx_ops.c
