/* ptq: post-training quantisation (contract in ptq.c). */
#ifndef TESSEL_PTQ_H
#define TESSEL_PTQ_H

#include "calibrate.h"
#include "ir.h"

/* Rewrites float graph g into QDQ form from calibration data c (ranges by
 * c->method).  0, or -1 with an error (no samples, a reference failure). */
int ptq(ir_graph *g, const calib_data *c, diag *d);

#endif
