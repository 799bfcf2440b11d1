/* lower_key: the workload key of a conv/matmul kernel (a tuning task).
 *
 * Two kernels with the same key run the same commands up to DRAM addresses
 * and constants, so one schedule serves both (docs/tuning.md, "Tasks and
 * keys").  The key names everything the tiling depends on: the op kind,
 * input and output shapes, kernel, stride, padding, dilation, groups, the
 * epilogue's clamp (whether there is one: its bounds cost nothing), a fused
 * max pool or vector op, where the input and output live (DRAM or a
 * resident scratchpad region) with the rows the kernel may tile in, and the
 * target.  Zero points, multipliers and weights are values, not shapes, and
 * stay out of it. */
#include <stdio.h>

#include "lower_internal.h"

void lower_workload_key(const lower_program *p, const lower_kernel *k, const lower_conv_geom *g,
                        const lower_tensor *x, const lower_tensor *y, char *key, size_t n) {
  (void)y;
  const char *kind = g->depthwise ? "dwconv" : k->node->op == IR_OP_QMATMUL ? "matmul" : g->pk.line ? "conv-packed" : "conv";
  const char *add = !k->add ? "" : k->add->op == IR_OP_QADD ? " +add" : " +requant";
  char pool[48] = "";
  if (g->pool_k)
    snprintf(pool, sizeof pool, " +maxpool k%lld s%lld p%lld,%lld", (long long)g->pool_k, (long long)g->pool_s,
             (long long)g->pool_pt, (long long)g->pool_pl);
  snprintf(key, n,
           "%s %s c%lld %lldx%lld m%lld %lldx%lld k%lldx%lld s%lldx%lld p%lld,%lld d%lldx%lld g%lld%s%s%s "
           "in=%s out=%s lim=%lld",
           p->target->name, kind, (long long)x->c, (long long)g->h, (long long)g->w, (long long)g->m,
           (long long)g->oh, (long long)g->ow, (long long)g->kh, (long long)g->kw, (long long)g->sy,
           (long long)g->sx, (long long)g->pt, (long long)g->pl, (long long)g->dy, (long long)g->dx,
           (long long)g->group, g->lo > -128 || g->hi < 127 ? " clamp" : "", pool, add,
           g->in_spad >= 0 ? "spad" : "dram", g->out_spad >= 0 ? "spad" : "dram", (long long)g->spad_limit);
}
