/* passes: the registry of graph passes by command-line name. */
#include "passes.h"

#include <string.h>

const pass_info pass_registry[] = {
    {"shape-infer", shape_infer, "infer dtypes and shapes, check operators, fold shape computations"},
    {"const-fold", const_fold, "evaluate nodes whose inputs are all constant"},
    {"remove-noops", remove_noops, "drop Identity, Dropout and other no-op nodes"},
    {"bn-fold", bn_fold, "fold BatchNormalization into the preceding Conv"},
    {"dce", dce, "remove nodes and constants no output depends on"},
    {NULL, NULL, NULL},
};

const pass_info *pass_find(const char *name) {
  for (const pass_info *p = pass_registry; p->name; p++)
    if (!strcmp(p->name, name)) return p;
  return NULL;
}
