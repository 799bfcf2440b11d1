/* tfw_ops_all: every kernel of the control core (shared/tfw_ops.def), for
 * the firmware that loads any package at run time (the runner, the host
 * link). Linked as an object, it defines for every op the pointer
 * tfw_linked_op<code> the runtime library's dispatch reads (shared/tfw_ops.c),
 * so it pulls every kernel out of the library; a firmware built for one
 * package links the list `tessel emit-c` writes instead. The pointers are
 * weak, as in those lists, so that either may be linked with the other. */
#include "tfw_ops.h"

#define TFW_OP(NAME, kernel, code, min_in, max_in, min_out, max_out, ints, floats) \
  __attribute__((weak)) tfw_op_fn const tfw_linked_op##code = tfw_k_##kernel;
#include "tfw_ops.def"
#undef TFW_OP
