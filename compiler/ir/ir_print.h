/* ir_print: the textual form of the graph IR (syntax in docs/compiler.md).
 *
 * The output parses back with ir_parse() into a graph that prints the same,
 * byte for byte, unless constants were elided. */
#ifndef TESSEL_IR_PRINT_H
#define TESSEL_IR_PRINT_H

#include <stdio.h>

#include "ir.h"

typedef struct ir_print_opts {
  long elide_above; /* constants with more elements print as <N elements>; 0: never */
} ir_print_opts;

/* Prints g to f.  opts may be NULL (print everything). */
void ir_print(FILE *f, const ir_graph *g, const ir_print_opts *opts);
/* Prints one value name the way the IR spells it (%name or %"odd name"). */
void ir_print_name(FILE *f, const char *name);

#endif
