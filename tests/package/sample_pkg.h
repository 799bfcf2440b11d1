/* sample_pkg: a small but complete package for the tests (three kernels with
 * loops and MARK records, weights, I/O, two fallback ops) at npu8. */
#ifndef TESSEL_SAMPLE_PKG_H
#define TESSEL_SAMPLE_PKG_H

#include "tpkg.h"

#define SAMPLE_WINDOW_BYTES 65536u
#define SAMPLE_WEIGHTS_BYTES 1000u

/* Fills *p; everything points to static storage (the same on every call). */
void sample_pkg(tpkg_package *p);

#endif
