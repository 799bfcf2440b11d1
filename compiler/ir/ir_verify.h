/* ir_verify: checks the invariants every pass must keep.
 *
 * Structure: unique names; every node input is a graph input, a constant or
 * the output of an earlier node; node outputs point back at their node;
 * constants have data and a known shape; input counts per operator; graph
 * outputs are live values; quantisation parameters fit the shape.
 * Types (when shapes are known): ranks and dims in range, constant sizes. */
#ifndef TESSEL_IR_VERIFY_H
#define TESSEL_IR_VERIFY_H

#include "ir.h"

/* 0 when g is well formed, else -1 with the first problem in d. */
int ir_verify(const ir_graph *g, diag *d);

#endif
