/* pipeline: runs graph passes in order with dumps and verification.
 *
 * Dumps go to opts->dump (stdout for the CLI) as "// after PASS" or
 * "// before PASS" followed by the textual IR, which parses back.  The
 * verifier runs before the first pass and after every pass when
 * opts->verify_each is set; test builds (TESSEL_TEST_BUILD) always verify. */
#ifndef TESSEL_PIPELINE_H
#define TESSEL_PIPELINE_H

#include <stdio.h>

#include "calibrate.h"
#include "ir_print.h"
#include "passes.h"

typedef struct pipeline_opts {
  const char *print_before;   /* pass name, or NULL */
  const char *print_after;    /* pass name, or NULL */
  int print_after_all;        /* dump after every pass */
  int verify_each;            /* run ir_verify after every pass */
  FILE *dump;                 /* where dumps go (NULL: stdout) */
  const ir_print_opts *print; /* printer options, may be NULL */
  const calib_data *calib;    /* calibration samples for ptq, or NULL */
} pipeline_opts;

/* Runs the one pass p on g (with dumps and verification as asked). */
int pipeline_run_pass(ir_graph *g, const pass_info *p, const pipeline_opts *o, diag *d);
/* The graph pipeline of `tessel compile`: the flat list of passes, in order. */
int pipeline_graph(ir_graph *g, const pipeline_opts *o, diag *d);
/* The quantisation pipeline after pipeline_graph: ptq (only with
 * calibration data), quant-ops, qdq-fold, requant. */
int pipeline_quant(ir_graph *g, const pipeline_opts *o, diag *d);
/* 0 when name is a pass name (for checking --print-after= etc.), else -1 with a message. */
int pipeline_check_pass_name(const char *option, const char *name, diag *d);

#endif
