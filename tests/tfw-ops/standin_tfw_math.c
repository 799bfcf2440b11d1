/* TEST-ONLY STAND-IN for shared/tfw_math.c, which another change is
 * writing: libm's powf and sqrtf under the tfw_math.h names, so the
 * tfw-ops-nn suite links before that file is in the shared library.  The
 * real ones are libm-free.  Drop this file (and its line in
 * tests/tfw-ops/nn.mk) when shared/tfw_math.c lands: while it is linked it
 * would shadow the real functions silently. */
#include <math.h>

#include "tfw_math.h"

float tfw_powf(float x, float y) { return powf(x, y); }
float tfw_sqrtf(float x) { return sqrtf(x); }
