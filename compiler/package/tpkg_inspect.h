/* tpkg_inspect: `tessel inspect PKG.tpkg`: validates a package (every check
 * of tpkg_check, any target, weights CRC included) and prints its header,
 * sections, DRAM window, I/O, kernels with their disassembled streams and
 * fallback records. */
#ifndef TESSEL_TPKG_INSPECT_H
#define TESSEL_TPKG_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Prints a validated package to out (the whole report). */
void tpkg_print(FILE *out, const uint8_t *pkg, size_t len);

/* The subcommand: argv[0] is "inspect". Returns the exit code (0, 1 bad
 * package or file, 2 bad command line). */
int tpkg_inspect_main(int argc, char **argv);

#endif
