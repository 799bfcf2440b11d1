/* passes: the registry of graph passes by command-line name. */
#include "passes.h"

#include <string.h>

static int no_calibration(ir_graph *g, diag *d) {
  (void)g;
  return diag_set(d, "ptq needs calibration data (--calib X.npy)");
}

const pass_info pass_registry[] = {
    {"shape-infer", shape_infer, "infer dtypes and shapes, check operators, fold shape computations", NULL},
    {"const-fold", const_fold, "evaluate nodes whose inputs are all constant", NULL},
    {"remove-noops", remove_noops, "drop Identity, Dropout and other no-op nodes", NULL},
    {"bn-fold", bn_fold, "fold BatchNormalization into the preceding Conv", NULL},
    {"hardsigmoid-fold", hardsigmoid_fold, "HardSigmoid after a Conv/Gemm to Clip(0, 1), its alpha and beta in the weights", NULL},
    {"fuse-act", fuse_act, "Mul(x, Sigmoid(x)) to Silu, PyTorch's Erf-based GELU to Gelu", NULL},
    {"dce", dce, "remove nodes and constants no output depends on", NULL},
    {"ptq", no_calibration, "post-training quantisation: calibrate, insert QDQ pairs (needs --calib)", ptq_pass},
    {"quant-ops", quant_ops, "QLinearConv/QLinearMatMul/ConvInteger/MatMulInteger to QConv/QMatMul", NULL},
    {"qdq-fold", qdq_fold, "fold DequantizeLinear -> op -> QuantizeLinear into quantised ops", NULL},
    {"requant", requant, "check quantisation parameters, compute requantisation multipliers", NULL},
    {NULL, NULL, NULL, NULL},
};

const pass_info *pass_find(const char *name) {
  for (const pass_info *p = pass_registry; p->name; p++)
    if (!strcmp(p->name, name)) return p;
  return NULL;
}
