/* exit_big.S: writes EXIT 200, outside the firmware's range 0..119. */
#include "soc_test.h"
TEST_START
  EXIT_WITH(200)
