// tb_target.h: the target a bench is built for, from its generated header
// (build/gen/<target>/tessel_target.h's TSL_TARGET_INIT), so a bench runs at
// any target configuration, in the run-time table or not.
#ifndef NPU_TB_TARGET_H
#define NPU_TB_TARGET_H

extern "C" {
#include "tessel_target.h"
#include "tessel_targets.h"
}

static const tsl_target_t *tb_target() {
  static const tsl_target_t t = TSL_TARGET_INIT;
  return &t;
}

#endif
