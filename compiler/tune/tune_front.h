/* tune_front: the model the tuner works on: import, the graph passes and
 * quantisation (post-training from the calibration files, as `tessel
 * compile --calib` does), and the input sample every measurement runs. */
#ifndef TESSEL_TUNE_FRONT_H
#define TESSEL_TUNE_FRONT_H

#include "diag.h"
#include "ir.h"

/* Imports and quantises model (ONNX) with the calibration files calib[n]
 * (each one sample of the single graph input, or samples stacked along
 * dimension 0).  Returns the quantised graph (ir_graph_free), or NULL with d. */
ir_graph *tune_front_load(const char *model, const char *const *calib, int n, diag *d);

/* Writes the first sample of the .npy `src` (one sample of the graph input,
 * or a stack of them along dimension 0) to dst, shaped as g's input.
 * 0, or -1 with d. */
int tune_front_input(const ir_graph *g, const char *src, const char *dst, diag *d);

#endif
