/* sample_pkg: a small but complete package for the tests (three kernels with
 * loops and MARK records, weights, I/O, four fallback records: QuantizeLinear
 * into the blocked layout, DequantizeLinear, a HardSigmoid with an int and
 * two float parameters, the Softmax that writes the output) at npu8. */
#ifndef TESSEL_SAMPLE_PKG_H
#define TESSEL_SAMPLE_PKG_H

#include "tpkg.h"

#define SAMPLE_WINDOW_BYTES 65536u
#define SAMPLE_WEIGHTS_BYTES 1000u
#define SAMPLE_FALLBACKS 4u
#define SAMPLE_FALLBACK_BYTES (2u * 136u + 148u + 144u) /* the records' sizes */

/* Fills *p; everything points to static storage (the same on every call). */
void sample_pkg(tpkg_package *p);

#endif
