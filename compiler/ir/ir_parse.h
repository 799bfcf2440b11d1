/* ir_parse: reads the textual IR that ir_print writes (docs/compiler.md).
 *
 * Errors are located: "in.tir:12:7: expected ':' after the value name".
 * The result is structurally checked only as far as the syntax goes; run
 * ir_verify() on it before passes. */
#ifndef TESSEL_IR_PARSE_H
#define TESSEL_IR_PARSE_H

#include <stddef.h>

#include "ir.h"

/* Parses len bytes of text; label names the text in messages.  Returns a
 * graph owned by the caller, or NULL with d filled. */
ir_graph *ir_parse(const char *text, size_t len, const char *label, diag *d);
/* Reads and parses the file at path. */
ir_graph *ir_parse_file(const char *path, diag *d);

#endif
