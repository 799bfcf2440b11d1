/* emit_c: a package as C source, for firmware that links its model in.
 *
 * The array is `const uint8_t SYMBOL[]` in the section TPKG_C_SECTION, aligned
 * to TPKG_C_ALIGN bytes (so the WEIGHTS section, 64-aligned in the package,
 * is 64-aligned in memory and can serve as the NPU's DRAM window in place),
 * plus `const uint32_t SYMBOL_size`. A firmware linker script places the
 * section in DRAM (docs/package-format.md). */
#ifndef TESSEL_EMIT_C_H
#define TESSEL_EMIT_C_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define TPKG_C_SECTION ".tessel_pkg"
#define TPKG_C_ALIGN 64
#define TPKG_C_SYMBOL "tessel_pkg"

/* Writes the C source of the len-byte package pkg (validated first, any
 * target) to path, with the array named symbol (a C identifier; NULL:
 * TPKG_C_SYMBOL) and the list of the core kernels it runs (a weak pointer
 * tfw_linked_op<code> to each, shared/tfw_ops.c); kernels_only: the list
 * alone. Returns 0, or -1 with d filled. */
int tpkg_emit_c_file(const uint8_t *pkg, size_t len, const char *symbol, const char *path, int kernels_only,
                     diag *d);

/* `tessel emit-c PKG.tpkg -o OUT.c [--symbol NAME]`; argv[0] is "emit-c".
 * Returns the exit code. */
int tpkg_emit_c_main(int argc, char **argv);

#endif
