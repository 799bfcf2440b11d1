/* tfw_ops_all: every kernel of the control core (shared/tfw_ops.def), for
 * the firmware that loads any package at run time (the runner, the host
 * link). Linked as an object, it pulls every kernel out of the runtime
 * library, where they are weak references (shared/tfw_ops.c); a firmware
 * built for one package links the list `tessel emit-c` writes instead. */
#include "tfw_ops.h"

__attribute__((used)) int (*const tfw_ops_all[])(const tfw_call *) = {
#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) tfw_k_##kernel,
#include "tfw_ops.def"
#undef TFW_OP
};
