/* passes: the graph passes, one module each, and their registry.
 *
 * Every pass takes a graph, edits it in place and returns 0, or -1 with a
 * located diagnostic.  Each pass states its contract at its entry point in its
 * own file.  The registry maps the names used on the command line
 * (--pass=, --print-after=, --print-before=) to the functions. */
#ifndef TESSEL_PASSES_H
#define TESSEL_PASSES_H

#include "ir.h"

typedef int (*pass_fn)(ir_graph *g, diag *d);
struct pipeline_opts;
/* A pass that needs the driver's options (ptq: the calibration data). */
typedef int (*pass_opts_fn)(ir_graph *g, const struct pipeline_opts *o, diag *d);

typedef struct pass_info {
  const char *name;      /* command-line name, e.g. "bn-fold" */
  pass_fn run;           /* entry point */
  const char *what;      /* one line for --help */
  pass_opts_fn run_opts; /* when set, the driver calls this instead of run */
} pass_info;

int shape_infer(ir_graph *g, diag *d);  /* shape_infer.c */
int const_fold(ir_graph *g, diag *d);   /* const_fold.c */
int remove_noops(ir_graph *g, diag *d); /* remove_noops.c */
int bn_fold(ir_graph *g, diag *d);      /* bn_fold.c */
int hardsigmoid_fold(ir_graph *g, diag *d); /* hardsigmoid_fold.c */
int fuse_act(ir_graph *g, diag *d);     /* fuse_act.c */
int dce(ir_graph *g, diag *d);          /* dce.c */
int quant_ops(ir_graph *g, diag *d);    /* quant_ops.c */
int qdq_fold(ir_graph *g, diag *d);     /* qdq_fold.c */
int requant(ir_graph *g, diag *d);      /* requant.c */
int ptq_pass(ir_graph *g, const struct pipeline_opts *o, diag *d); /* pipeline.c: ptq.c with o's data */

/* Shape inference of one node (used by passes that create or edit nodes). */
int shape_infer_node(ir_graph *g, ir_node *n, diag *d);

/* The registry, in pipeline order; NULL-terminated name. */
extern const pass_info pass_registry[];
/* The pass called name, or NULL. */
const pass_info *pass_find(const char *name);

#endif
