/* spin.S: never ends, for the cycle limit. */
#include "soc_test.h"
TEST_START
1: j 1b
